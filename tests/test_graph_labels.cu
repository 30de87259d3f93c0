/* test_graph_labels.cu - vertex labels (gpuclique section 5): the labelled
   format (the mining benchmarks' "t / v / e" lines), label files by file id,
   random labels. Host code only; the reference is built here from the
   drawn vertices, labels and edges, and every failure is checked to leave
   the graph as it was (zeroed for a loader, its labels kept for a label
   file) without a leaked block.

   Same configuration as test_graph.cu (the first file of unit_clique.cu):
   a private implementation with the counting allocator. */
#include <stdlib.h>

#include "counting_alloc.h"
#define GCLQ_MALLOC(sz) counting_malloc(sz)
#define GCLQ_FREE(p) counting_free(p)
#define GCLQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUCLIQUE_STATIC
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "testing.h"

/* ---- helpers ---- */

static bool lb_zeroed(const gclq_graph &g) {
  static const gclq_graph zero = gclq_graph();
  return memcmp(&g, &zero, sizeof g) == 0;
}

/* The graph's edges as pairs of file ids (lo, hi). */
static std::set<std::pair<uint64_t, uint64_t> > lb_edges(const gclq_graph &g) {
  std::set<std::pair<uint64_t, uint64_t> > e;
  for (uint32_t v = 0; v < g.num_vertices; ++v)
    for (uint64_t i = g.h_offsets[v]; i < g.h_offsets[v + 1]; ++i) {
      const uint64_t a = g.h_original_ids[v], b = g.h_original_ids[g.h_neighbors[i]];
      e.insert(std::make_pair(std::min(a, b), std::max(a, b)));
    }
  return e;
}

static std::string lb_fmt(const char *fmt, unsigned long long a, unsigned long long b = 0,
                          unsigned long long c = 0) {
  char buf[160];
  snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

/* A labelled text drawn at random: n vertices with distinct sparse ids and
   labels (0 and 2^32 - 1 among them), edges between them (loops, repeats,
   both directions, some with an edge label), the v and e lines shuffled
   together, comments and blank lines among them, a "t" line first when
   with_t. want_labels / want_edges: what the loader must give. */
static std::string lb_draw(test_rng &rng, uint32_t n, bool with_t, std::map<uint64_t, uint32_t> *want_labels,
                           std::set<std::pair<uint64_t, uint64_t> > *want_edges) {
  std::vector<std::string> lines;
  std::vector<uint64_t> ids;
  while (want_labels->size() < n) {
    const uint64_t id = rng.below(4) == 0 ? rng.next() : rng.below(10 * (uint64_t)n + 1);
    if (want_labels->count(id)) continue;
    const uint32_t label = want_labels->size() == 0   ? 0u
                           : want_labels->size() == 1 ? 0xffffffffu
                                                      : (uint32_t)rng.below(6);
    (*want_labels)[id] = label;
    ids.push_back(id);
    lines.push_back(lb_fmt("v %llu %llu", (unsigned long long)id, label));
  }
  const uint64_t m = n ? rng.below(3 * (uint64_t)n + 1) : 0;
  for (uint64_t i = 0; i < m; ++i) {
    const uint64_t a = ids[rng.below(n)], b = rng.below(8) == 0 ? a : ids[rng.below(n)];
    if (a != b) want_edges->insert(std::make_pair(std::min(a, b), std::max(a, b)));
    lines.push_back(rng.below(2) ? lb_fmt("e %llu %llu", a, b) : lb_fmt("e\t%llu  %llu %llu", a, b, rng.below(5)));
    if (rng.below(4) == 0) lines.push_back(lb_fmt("e %llu %llu", b, a)); /* the other direction */
  }
  for (size_t i = lines.size(); i > 1; --i) std::swap(lines[i - 1], lines[rng.below(i)]);
  std::string text = with_t ? "t # 0\n" : "";
  for (size_t i = 0; i < lines.size(); ++i) {
    if (rng.below(10) == 0) text += rng.below(2) ? "# a comment\n" : "\n";
    text += lines[i] + (rng.below(5) == 0 ? "\r\n" : "\n");
  }
  return text;
}

static void lb_check_graph(const gclq_graph &g, const std::map<uint64_t, uint32_t> &labels,
                           const std::set<std::pair<uint64_t, uint64_t> > &edges, const char *what) {
  CHECK_MSG(g.num_vertices == labels.size() && g.num_edges == edges.size(), "%s: n %u m %llu, want %zu, %zu", what,
            g.num_vertices, (unsigned long long)g.num_edges, labels.size(), edges.size());
  if (g.num_vertices != labels.size()) return;
  CHECK(g.h_labels != NULL && g.h_original_ids != NULL);
  std::map<uint64_t, uint32_t>::const_iterator it = labels.begin();
  for (uint32_t v = 0; v < g.num_vertices; ++v, ++it) /* compacted in increasing id order */
    CHECK_MSG(g.h_original_ids[v] == it->first && g.h_labels[v] == it->second, "%s: vertex %u: id %llu label %u", what,
              v, (unsigned long long)g.h_original_ids[v], g.h_labels[v]);
  CHECK_MSG(lb_edges(g) == edges, "%s: the edges differ", what);
}

/* A text that must fail with GCLQ_ERROR_PARSE on a line (0: the end),
   its message saying `says`. */
struct lb_bad {
  const char *text;
  uint64_t line;
  const char *says;
};
static bool lb_failed_as(gclq_status st, const gclq_load_error &e, const lb_bad &c) {
  return st == GCLQ_ERROR_PARSE && e.line == c.line && strstr(e.message, c.says) != NULL;
}

/* ---- the labelled format ---- */

TEST(labels, labelled_format_keeps_every_vertex_its_label_and_the_edges) {
  test_rng rng = test_rng_for("labels.labelled_format");
  const uint32_t sizes[] = {0, 1, 2, 31, 32, 33, 257, 1000};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
    for (int way = 0; way < 3; ++way) { /* explicit format, AUTO by the content, AUTO by the .lg name */
      std::map<uint64_t, uint32_t> labels;
      std::set<std::pair<uint64_t, uint64_t> > edges;
      const bool with_t = way != 2 || rng.below(2);
      const std::string text = lb_draw(rng, sizes[si], with_t, &labels, &edges);
      const long long live = g_alloc_live;
      gclq_graph g;
      gclq_load_error e;
      memset(&g, 0xA5, sizeof g);
      gclq_status st;
      if (way < 2) {
        st = gclq_graph_parse(text.data(), text.size(), way == 0 ? GCLQ_FORMAT_LABELLED : GCLQ_FORMAT_AUTO, &g, &e);
      } else {
        const char *path = "labels_test_tmp.lg";
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        fwrite(text.data(), 1, text.size(), f);
        fclose(f);
        st = gclq_graph_load(path, GCLQ_FORMAT_AUTO, &g, &e);
        remove(path);
      }
      const std::string what = lb_fmt("n %llu way %llu", sizes[si], (unsigned long long)way);
      CHECK_MSG(st == GCLQ_SUCCESS, "%s: %s line %llu: %s", what.c_str(), gclq_status_string(st),
                (unsigned long long)e.line, e.message);
      if (st != GCLQ_SUCCESS) continue;
      lb_check_graph(g, labels, edges, what.c_str());
      gclq_graph_free(&g);
      CHECK(lb_zeroed(g) && g_alloc_live == live);
    }
  }
}

TEST(labels, labelled_format_errors_name_the_line) {
  static const lb_bad cases[] = {
      {"t # 0\nv 1 0\nt # 1\nv 2 0\n", 3, "second \"t\" line"},
      {"t # 0\nv 7 0\nv 8 1\nv 7 2\n", 4, "vertex 7 declared twice (first on line 2)"},
      {"v 1 0\nv 2 0\ne 1 3\n", 3, "vertex 3 has no \"v\" line"},
      {"e 1 2\nv 1 0\n", 1, "vertex 2 has no \"v\" line"},
      {"v 1 4294967296\n", 1, "label does not fit in 32 bits"},
      {"v 1\n", 1, "expected \"v id label\""},
      {"v 1 2 3\n", 1, "unexpected text after \"v id label\""},
      {"v 1 0\nv 2 0\ne 1 2 3 4\n", 3, "unexpected text after \"e u v label\""},
      {"v 1 0\nv 2 0\ne 1 2 red\n", 3, "edge label is not a decimal number"},
      {"v -1 0\n", 1, "negative"},
      {"t # 0\nv 1 0\nx 1 2\n", 3, "unknown line type (expected t, v or e)"},
      {"v 1 0\ne 1\n", 2, "expected \"e u v\" with two vertex ids"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    for (int fmt = 0; fmt < 2; ++fmt) {
      const long long live = g_alloc_live;
      gclq_graph g;
      gclq_load_error e;
      memset(&g, 0xA5, sizeof g);
      const gclq_status st = gclq_graph_parse(cases[i].text, strlen(cases[i].text),
                                              fmt ? GCLQ_FORMAT_AUTO : GCLQ_FORMAT_LABELLED, &g, &e);
      if (fmt == 1 && cases[i].text[0] == 'e') continue; /* AUTO reads a first "e" line as DIMACS */
      CHECK_MSG(lb_failed_as(st, e, cases[i]), "case %zu: %s line %llu \"%s\", want line %llu \"%s\"", i,
                gclq_status_string(st),
                (unsigned long long)e.line, e.message, (unsigned long long)cases[i].line, cases[i].says);
      CHECK(lb_zeroed(g) && g_alloc_live == live);
    }
  }
  /* an edge list read as labelled names the format option; a labelled file
     read as SNAP says it looks labelled */
  gclq_graph g;
  gclq_load_error e;
  CHECK(gclq_graph_parse("v 1 0\n", 6, GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_ERROR_PARSE && e.line == 1 &&
        strstr(e.message, "looks labelled") != NULL);
  /* every allocation of a good parse failing in turn: OUT_OF_MEMORY, nothing leaked */
  const char *good = "t # 0\nv 1 3\nv 2 4\nv 3 5\ne 1 2\ne 2 3 7\n";
  for (long long k = 0; k < 40; ++k) {
    const long long live = g_alloc_live;
    g_alloc_fail_at = g_alloc_calls + k;
    const gclq_status st = gclq_graph_parse(good, strlen(good), GCLQ_FORMAT_LABELLED, &g, &e);
    const bool never_came = g_alloc_fail_at >= g_alloc_calls; /* the parse makes fewer than k + 1 calls */
    g_alloc_fail_at = -1;
    if (never_came) {
      CHECK(st == GCLQ_SUCCESS && g.num_vertices == 3 && g.h_labels[2] == 5);
      gclq_graph_free(&g);
      CHECK(g_alloc_live == live);
      break;
    }
    CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && lb_zeroed(g) && g_alloc_live == live, "allocation %lld: %s", k,
              gclq_status_string(st));
  }
}

/* ---- label files ---- */

/* A SNAP graph on sparse ids; a label file for it (lines shuffled, with
   comments and lines for ids the graph has not); labels read back by id. */
TEST(labels, label_file_labels_every_vertex_by_its_file_id) {
  test_rng rng = test_rng_for("labels.label_file");
  const uint32_t sizes[] = {1, 2, 31, 32, 33, 500};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
    std::vector<uint64_t> src, dst;
    const uint32_t n = sizes[si];
    for (uint32_t i = 0; i < 2 * n; ++i) src.push_back(1000 + 7 * rng.below(n)), dst.push_back(1000 + 7 * rng.below(n));
    gclq_graph g;
    CHECK(gclq_graph_from_edges(src.data(), dst.data(), src.size(), &g) == GCLQ_SUCCESS);
    std::vector<std::string> lines;
    std::map<uint64_t, uint32_t> want;
    for (uint32_t v = 0; v < g.num_vertices; ++v) {
      const uint32_t label = (uint32_t)rng.below(1000);
      want[g.h_original_ids[v]] = label;
      lines.push_back(lb_fmt("%llu %llu", g.h_original_ids[v], label));
    }
    for (int i = 0; i < 5; ++i) lines.push_back(lb_fmt("%llu 3", 1001 + 7 * rng.below(n))); /* not vertices */
    for (size_t i = lines.size(); i > 1; --i) std::swap(lines[i - 1], lines[rng.below(i)]);
    std::string text = "# id label\n";
    for (size_t i = 0; i < lines.size(); ++i) text += lines[i] + (i % 3 ? "\n" : "\t\r\n");
    const long long live = g_alloc_live;
    gclq_load_error e;
    gclq_status st = gclq_graph_parse_labels(text.data(), text.size(), &g, &e);
    CHECK_MSG(st == GCLQ_SUCCESS, "n %u: %s line %llu: %s", n, gclq_status_string(st), (unsigned long long)e.line,
              e.message);
    for (uint32_t v = 0; st == GCLQ_SUCCESS && v < g.num_vertices; ++v)
      CHECK(g.h_labels[v] == want[g.h_original_ids[v]]);
    CHECK(g_alloc_live == live + 1);
    /* again from a file: the labels replaced, the old block freed */
    const char *path = "labels_test_tmp.txt";
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    fwrite(text.data(), 1, text.size(), f);
    fclose(f);
    CHECK(gclq_graph_load_labels(path, NULL, &g, &e) == GCLQ_SUCCESS && g_alloc_live == live + 1);
    for (uint32_t v = 0; v < g.num_vertices; ++v) CHECK(g.h_labels[v] == want[g.h_original_ids[v]]);
    gclq_load_options o;
    memset(&o, 0, sizeof o);
    o.max_bytes = text.size() - 1;
    CHECK(gclq_graph_load_labels(path, &o, &g, &e) == GCLQ_ERROR_TOO_LARGE);
    remove(path);
    CHECK(gclq_graph_load_labels(path, NULL, &g, &e) == GCLQ_ERROR_IO && strstr(e.message, "cannot open") != NULL);
    gclq_graph_free(&g);
    CHECK(g_alloc_live == live - 3);
  }
}

TEST(labels, label_file_errors_keep_the_labels) {
  const char *snap = "10 20\n20 30\n";
  gclq_graph g;
  gclq_load_error e;
  CHECK(gclq_graph_parse(snap, strlen(snap), GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_SUCCESS && g.num_vertices == 3);
  CHECK(gclq_graph_random_labels(&g, 4, 1) == GCLQ_SUCCESS);
  const uint32_t *kept = g.h_labels;
  const std::vector<uint32_t> before(g.h_labels, g.h_labels + 3);
  static const lb_bad cases[] = {
      {"10 1\n20 2\n", 0, "vertex 30 has no label"},
      {"10 1\n20 2\n30 3\n20 4\n", 4, "vertex 20 labelled twice"},
      {"10 1\n20 4294967296\n30 3\n", 2, "label does not fit in 32 bits"},
      {"10 1\n20\n30 3\n", 2, "expected \"id label\""},
      {"10 1\n20 2 x\n30 3\n", 2, "unexpected text"},
      {"10 1\nred 2\n", 2, "not a decimal number"},
      {"", 0, "vertex 10 has no label"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const long long live = g_alloc_live;
    const gclq_status st = gclq_graph_parse_labels(cases[i].text, strlen(cases[i].text), &g, &e);
    CHECK_MSG(lb_failed_as(st, e, cases[i]), "case %zu: %s line %llu \"%s\"", i, gclq_status_string(st),
              (unsigned long long)e.line, e.message);
    CHECK(g.h_labels == kept && std::equal(before.begin(), before.end(), g.h_labels) && g_alloc_live == live);
  }
  CHECK(gclq_graph_parse_labels(NULL, 0, &g, &e) == GCLQ_ERROR_PARSE); /* no lines: vertex 10 has none */
  CHECK(gclq_graph_parse_labels(NULL, 4, &g, &e) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_graph_parse_labels("10 1", 4, NULL, &e) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_graph_load_labels(NULL, NULL, &g, &e) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(g.h_labels == kept);
  /* a caller's graph without original ids: compact ids; ids not ascending: refused */
  uint64_t *ids = g.h_original_ids;
  g.h_original_ids = NULL;
  CHECK(gclq_graph_parse_labels("2 7\n0 5\n1 6\n9 9\n", 16, &g, &e) == GCLQ_SUCCESS);
  CHECK(g.h_labels[0] == 5 && g.h_labels[1] == 6 && g.h_labels[2] == 7);
  uint64_t backwards[3] = {30, 20, 10};
  g.h_original_ids = backwards;
  CHECK(gclq_graph_parse_labels("10 1\n20 2\n30 3\n", 15, &g, &e) == GCLQ_ERROR_INVALID_ARGUMENT &&
        strstr(e.message, "not ascending") != NULL);
  g.h_original_ids = ids;
  /* an allocation that fails: OUT_OF_MEMORY, the labels kept */
  for (long long k = 0; k < 2; ++k) {
    const uint32_t *now = g.h_labels;
    g_alloc_fail_at = g_alloc_calls + k;
    CHECK(gclq_graph_parse_labels("10 1\n20 2\n30 3\n", 15, &g, &e) == GCLQ_ERROR_OUT_OF_MEMORY && g.h_labels == now);
    g_alloc_fail_at = -1;
  }
  gclq_graph_free(&g);
}

/* ---- random labels ---- */

TEST(labels, random_labels_are_in_range_and_follow_the_seed) {
  test_rng rng = test_rng_for("labels.random");
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(10000, 0.0005, rng.next(), &g) == GCLQ_SUCCESS);
  const long long live = g_alloc_live;
  const uint64_t seed = rng.next();
  const uint32_t counts[] = {1, 2, 5, 0xffffffffu};
  for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci) {
    const uint32_t k = counts[ci];
    CHECK(gclq_graph_random_labels(&g, k, seed) == GCLQ_SUCCESS && g_alloc_live == live + 1);
    const std::vector<uint32_t> first(g.h_labels, g.h_labels + g.num_vertices);
    std::vector<uint64_t> seen(k < 100 ? k : 0, 0);
    for (uint32_t v = 0; v < g.num_vertices; ++v) {
      CHECK(first[v] < k);
      if (k < 100) seen[first[v]]++;
    }
    for (size_t l = 0; l < seen.size(); ++l) /* each label near n / k: 10000 draws, far outside 5 sigma fails */
      CHECK_MSG(seen[l] * k > 10000 - 5 * 100 * k && seen[l] * k < 10000 + 5 * 100 * k, "k %u: label %zu seen %llu times",
                k, l, (unsigned long long)seen[l]);
    CHECK(gclq_graph_random_labels(&g, k, seed) == GCLQ_SUCCESS && std::equal(first.begin(), first.end(), g.h_labels));
    CHECK(gclq_graph_random_labels(&g, k, seed + 1) == GCLQ_SUCCESS);
    if (k > 1) CHECK(!std::equal(first.begin(), first.end(), g.h_labels));
  }
  const uint32_t *kept = g.h_labels;
  CHECK(gclq_graph_random_labels(&g, 0, seed) == GCLQ_ERROR_INVALID_ARGUMENT && g.h_labels == kept);
  CHECK(gclq_graph_random_labels(NULL, 3, seed) == GCLQ_ERROR_INVALID_ARGUMENT);
  g_alloc_fail_at = g_alloc_calls;
  CHECK(gclq_graph_random_labels(&g, 3, seed) == GCLQ_ERROR_OUT_OF_MEMORY && g.h_labels == kept);
  g_alloc_fail_at = -1;
  gclq_graph_free(&g);
  CHECK(g_alloc_live == live - 3);
  /* an empty graph is labelled too (h_labels set, nothing in it) */
  gclq_graph empty;
  CHECK(gclq_graph_from_edges(NULL, NULL, 0, &empty) == GCLQ_SUCCESS);
  CHECK(gclq_graph_random_labels(&empty, 3, seed) == GCLQ_SUCCESS && empty.h_labels != NULL);
  gclq_graph_free(&empty);
}
