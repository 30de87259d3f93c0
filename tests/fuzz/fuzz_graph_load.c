/* fuzz_graph_load.c - bytes -> the graph loaders and the label file reader.
   The first byte picks the way in: the format (AUTO, SNAP, DIMACS, Matrix
   Market; labelled for AUTO with bit 0x40), memory (gclq_graph_parse_opts)
   or a temporary file (gclq_graph_load_opts) with an extension (none, .txt,
   .clq, .mtx; .lg with bit 0x80, so that AUTO's extension rules run too),
   and a tight or the default vertex limit. The rest is the text. Promises
   checked: a failure leaves the graph zeroed with a terminated message; a
   success is a graph that keeps the whole gclq_graph contract
   (gclq__graph_check) with original ids increasing and labels exactly when
   read as labelled, on which (when small) core numbers, k-cliques and
   maximum cliques run, and the triangles counted by k-cliques, motifs and
   matching agree; the same bytes read as its label file either label it
   or leave its labels as they were. */
#include "fuzz_common.h"

static void fuzz_run_small(const gclq_graph *g) {
  uint32_t core[64], max_core = 0;
  gclq_kclique_options ko;
  gclq_kclique_result kr;
  gclq_maxclique_options mo;
  gclq_maxclique_result mr;
  if (g->num_vertices > 64 || g->num_edges > 256) return;
  FUZZ_CHECK(gclq_core_numbers(g, GCLQ_BACKEND_HOST, core, &max_core) == GCLQ_SUCCESS);
  memset(&ko, 0, sizeof ko);
  ko.backend = GCLQ_BACKEND_HOST;
  ko.method = GCLQ_KCLIQUE_PIVOT;
  ko.all = 1;
  FUZZ_CHECK(gclq_kcliques(g, &ko, &kr) == GCLQ_SUCCESS);
  memset(&mo, 0, sizeof mo);
  mo.backend = GCLQ_BACKEND_HOST;
  FUZZ_CHECK(gclq_max_cliques(g, &mo, &mr) == GCLQ_SUCCESS);
  /* omega from both: k-cliques counts k = 3 .. omega */
  FUZZ_CHECK(mr.omega < 3 ? kr.num_k == 0 : kr.num_k == mr.omega - 2);
  FUZZ_CHECK(g->num_vertices == 0 || max_core + 1 >= mr.omega);
  { /* the triangles three ways: k-cliques, motifs, matching (labels ignored: the query has none) */
    static const uint64_t tri_a[3] = {0, 1, 2}, tri_b[3] = {1, 2, 0};
    const uint64_t triangles = kr.num_k > 0 ? kr.h_counts[0] : 0;
    gclq_graph tri;
    gclq_motif_result motifs;
    gclq_match_result match;
    FUZZ_CHECK(gclq_graph_from_edges(tri_a, tri_b, 3, &tri) == GCLQ_SUCCESS);
    FUZZ_CHECK(gclq_motifs(g, 3, NULL, &motifs) == GCLQ_SUCCESS && motifs.counts[0] == triangles);
    FUZZ_CHECK(gclq_match(g, &tri, NULL, &match) == GCLQ_SUCCESS && match.count == triangles);
    gclq_match_result_free(&match);
    gclq_graph_free(&tri);
  }
  gclq_kclique_result_free(&kr);
  gclq_maxclique_result_free(&mr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const ext[4] = {"", ".txt", ".clq", ".mtx"};
  gclq_load_options o;
  gclq_load_error e;
  gclq_graph g;
  gclq_status st;
  uint8_t ctl;
  uint32_t v;
  if (size < 1) return 0;
  ctl = data[0];
  ++data, --size;
  memset(&o, 0, sizeof o);
  o.format = (gclq_format)((ctl & 3) == 0 && (ctl & 0x40) ? GCLQ_FORMAT_LABELLED : (ctl & 3));
  if (ctl & 0x20) o.max_vertices = 64; /* a tight limit: TOO_LARGE paths */
  memset(&e, 0x5a, sizeof e);
  memset(&g, 0xa5, sizeof g); /* a builder need not get a zeroed struct */
  if (ctl & 4) {
    const char *path = fuzz_temp_path(ctl & 0x80 ? ".lg" : ext[(ctl >> 3) & 3]);
    if (!fuzz_write_file(path, data, size)) return 0;
    st = gclq_graph_load_opts(path, &o, &g, &e);
    unlink(path);
  } else {
    st = gclq_graph_parse_opts(size ? (const char *)data : NULL, size, &o, &g, &e);
  }
  if (st != GCLQ_SUCCESS) {
    /* (NULL, 0) is a NULL argument for the graph parsers */
    FUZZ_CHECK(st == GCLQ_ERROR_PARSE || st == GCLQ_ERROR_TOO_LARGE || st == GCLQ_ERROR_IO ||
               (st == GCLQ_ERROR_INVALID_ARGUMENT && size == 0 && !(ctl & 4)));
    FUZZ_CHECK(fuzz_zeroed(&g, sizeof g));
    FUZZ_CHECK(fuzz_terminated(e.message, sizeof e.message));
    return 0;
  }
  FUZZ_CHECK(gclq__graph_check(&g) == GCLQ_SUCCESS);
  FUZZ_CHECK(g.num_vertices == 0 || g.h_original_ids != NULL);
  for (v = 1; v < g.num_vertices; ++v) FUZZ_CHECK(g.h_original_ids[v - 1] < g.h_original_ids[v]);
  if (o.format == GCLQ_FORMAT_LABELLED) FUZZ_CHECK(g.h_labels != NULL);
  if (o.format != GCLQ_FORMAT_LABELLED && o.format != GCLQ_FORMAT_AUTO) FUZZ_CHECK(g.h_labels == NULL);
  fuzz_run_small(&g);
  { /* the same bytes as the graph's label file */
    const uint32_t *before = g.h_labels;
    st = gclq_graph_parse_labels((const char *)data, size, &g, &e);
    FUZZ_CHECK(st == GCLQ_SUCCESS ? g.h_labels != NULL : (st == GCLQ_ERROR_PARSE && g.h_labels == before));
    FUZZ_CHECK(fuzz_terminated(e.message, sizeof e.message));
  }
  gclq_graph_free(&g);
  FUZZ_CHECK(fuzz_zeroed(&g, sizeof g));
  return 0;
}
