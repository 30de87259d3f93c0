/* test_graph.cu - gpuclique section 5, graphs: the three loaders against the
   reference counts of ../shared/data, malformed and hostile input of every
   format, edge lists, the generators. Host code only.

   This file compiles its own private copy of the implementation with an
   allocator that counts live blocks (counting_alloc.h) and records the
   largest single request, so the hostile-file tests can show that a header
   declaring billions of vertices makes the loader take nothing large. */
#include <stdlib.h>

#include "counting_alloc.h"
#define GCLQ_MALLOC(sz) counting_malloc(sz)
#define GCLQ_FREE(p) counting_free(p)
#define GCLQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUCLIQUE_STATIC
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <set>
#include <utility>

#include "testing.h"

/* ---- helpers ---- */

/* The CSR invariants every builder promises; reports the first broken one. */
static bool graph_valid(const gclq_graph &g, std::string *why) {
  char buf[160];
  uint64_t n = g.num_vertices;
  if (g.h_offsets == NULL || g.h_neighbors == NULL || g.h_original_ids == NULL) {
    *why = "a NULL array";
    return false;
  }
  if (g.h_offsets[0] != 0 || g.h_offsets[n] != 2 * g.num_edges) {
    snprintf(buf, sizeof buf, "offsets[0] = %llu, offsets[n] = %llu, 2m = %llu", (unsigned long long)g.h_offsets[0],
             (unsigned long long)g.h_offsets[n], (unsigned long long)(2 * g.num_edges));
    *why = buf;
    return false;
  }
  for (uint64_t v = 0; v < n; ++v) {
    uint64_t b = g.h_offsets[v], e = g.h_offsets[v + 1];
    if (e < b) { *why = "offsets decrease"; return false; }
    if (v > 0 && g.h_original_ids[v - 1] >= g.h_original_ids[v]) { *why = "original ids not increasing"; return false; }
    for (uint64_t i = b; i < e; ++i) {
      uint32_t u = g.h_neighbors[i];
      if (u >= n) { *why = "neighbour out of range"; return false; }
      if (u == v) { *why = "self-loop"; return false; }
      if (i > b && g.h_neighbors[i - 1] >= u) { *why = "list not strictly increasing (unsorted or repeated)"; return false; }
      /* symmetric: v in the list of u */
      const uint32_t *lb = g.h_neighbors + g.h_offsets[u], *le = g.h_neighbors + g.h_offsets[u + 1];
      if (!std::binary_search(lb, le, (uint32_t)v)) {
        snprintf(buf, sizeof buf, "edge %llu-%u not symmetric", (unsigned long long)v, u);
        *why = buf;
        return false;
      }
    }
  }
  return true;
}
#define CHECK_GRAPH_VALID(g)                                   \
  do {                                                         \
    std::string why__;                                         \
    CHECK_MSG(graph_valid((g), &why__), "invalid CSR: %s", why__.c_str()); \
  } while (0)

static bool graph_zeroed(const gclq_graph &g) {
  return g.num_vertices == 0 && g.num_edges == 0 && g.h_offsets == NULL && g.h_neighbors == NULL &&
         g.h_original_ids == NULL;
}

/* garbage, so a builder that forgets to zero on failure is caught */
static void poison(gclq_graph *g) { memset(g, 0xA5, sizeof *g); }

/* triangles u < v < w by merge-intersecting sorted lists */
static uint64_t count_triangles(const gclq_graph &g) {
  uint64_t t = 0;
  for (uint32_t u = 0; u < g.num_vertices; ++u) {
    for (uint64_t i = g.h_offsets[u]; i < g.h_offsets[u + 1]; ++i) {
      uint32_t v = g.h_neighbors[i];
      if (v <= u) continue;
      uint64_t a = g.h_offsets[u], ae = g.h_offsets[u + 1], b = g.h_offsets[v], be = g.h_offsets[v + 1];
      while (a < ae && b < be) {
        uint32_t x = g.h_neighbors[a], y = g.h_neighbors[b];
        if (x < y) ++a;
        else if (y < x) ++b;
        else {
          if (x > v) ++t;
          ++a;
          ++b;
        }
      }
    }
  }
  return t;
}

static bool has_edge(const gclq_graph &g, uint32_t u, uint32_t v) {
  return std::binary_search(g.h_neighbors + g.h_offsets[u], g.h_neighbors + g.h_offsets[u + 1], v);
}

/* the edge set as (u < v) pairs of compact ids */
static std::vector<std::pair<uint32_t, uint32_t> > graph_edge_list(const gclq_graph &g) {
  std::vector<std::pair<uint32_t, uint32_t> > e;
  for (uint32_t u = 0; u < g.num_vertices; ++u)
    for (uint64_t i = g.h_offsets[u]; i < g.h_offsets[u + 1]; ++i)
      if (g.h_neighbors[i] > u) e.push_back(std::make_pair(u, g.h_neighbors[i]));
  return e;
}

static bool graphs_equal(const gclq_graph &a, const gclq_graph &b) {
  if (a.num_vertices != b.num_vertices || a.num_edges != b.num_edges) return false;
  if (memcmp(a.h_offsets, b.h_offsets, (a.num_vertices + 1) * sizeof(uint64_t))) return false;
  if (a.num_edges && memcmp(a.h_neighbors, b.h_neighbors, 2 * a.num_edges * sizeof(uint32_t))) return false;
  if (a.num_vertices && memcmp(a.h_original_ids, b.h_original_ids, a.num_vertices * sizeof(uint64_t))) return false;
  return true;
}

/* testing.h's test_data_dir(), or "" when there is no data */
static std::string data_dir(void) {
  const char *d = test_data_dir();
  return d ? d : "";
}

struct graph_ref_row {
  std::string name;
  uint64_t vertices, edges, triangles;
};

/* REFERENCE.tsv: '#' header naming the columns, then tab-separated rows */
static std::vector<graph_ref_row> graph_read_reference(const std::string &path) {
  std::vector<graph_ref_row> rows;
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return rows;
  char line[1024];
  int tri_col = -1;
  while (fgets(line, sizeof line, f)) {
    std::vector<std::string> cols;
    std::string cur;
    const char *p = line[0] == '#' ? line + 1 : line;
    for (; *p && *p != '\n' && *p != '\r'; ++p) {
      if (*p == '\t') { cols.push_back(cur); cur.clear(); }
      else cur += *p;
    }
    cols.push_back(cur);
    if (line[0] == '#') {
      for (size_t i = 0; i < cols.size(); ++i)
        if (cols[i] == "triangles") tri_col = (int)i;
      continue;
    }
    if (cols.size() < 3 || tri_col < 0 || (int)cols.size() <= tri_col) continue;
    graph_ref_row r;
    r.name = cols[0];
    r.vertices = strtoull(cols[1].c_str(), NULL, 10);
    r.edges = strtoull(cols[2].c_str(), NULL, 10);
    r.triangles = strtoull(cols[tri_col].c_str(), NULL, 10);
    rows.push_back(r);
  }
  fclose(f);
  return rows;
}

/* every graph of one data folder against its REFERENCE.tsv */
static void check_reference_folder(const char *sub, const char *ext, bool dense_ids) {
  std::string dir = data_dir();
  if (dir.empty()) {
    printf("    skipped: ../shared/data not found\n");
    g_test.skipped = 1;
    return;
  }
  std::vector<graph_ref_row> rows = graph_read_reference(dir + "/" + sub + "/REFERENCE.tsv");
  CHECK_MSG(!rows.empty(), "no rows in %s/%s/REFERENCE.tsv", dir.c_str(), sub);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string path = dir + "/" + sub + "/" + rows[i].name + ext;
    gclq_graph g;
    gclq_load_error e;
    poison(&g);
    gclq_status st = gclq_graph_load(path.c_str(), GCLQ_FORMAT_AUTO, &g, &e);
    CHECK_MSG(st == GCLQ_SUCCESS, "%s: %s (line %llu: %s)", path.c_str(), gclq_status_string(st),
              (unsigned long long)e.line, e.message);
    /* REFERENCE.tsv counts the vertices of degree > 0 (a SNAP vertex whose
       only edge is a self-loop is loaded as an isolated vertex) */
    uint64_t nonisolated = 0;
    for (uint32_t v = 0; v < g.num_vertices; ++v) nonisolated += g.h_offsets[v + 1] > g.h_offsets[v];
    CHECK_MSG(nonisolated == rows[i].vertices && g.num_edges == rows[i].edges,
              "%s: %llu vertices of degree > 0, %llu edges, want %llu %llu", rows[i].name.c_str(),
              (unsigned long long)nonisolated, (unsigned long long)g.num_edges,
              (unsigned long long)rows[i].vertices, (unsigned long long)rows[i].edges);
    std::string why;
    bool ok = graph_valid(g, &why);
    uint64_t tri = ok ? count_triangles(g) : 0;
    bool ids_ok = true;
    if (dense_ids)
      for (uint32_t v = 0; v < g.num_vertices; ++v) ids_ok = ids_ok && g.h_original_ids[v] == (uint64_t)v + 1;
    gclq_graph_free(&g);
    CHECK_MSG(ok, "%s: invalid CSR: %s", rows[i].name.c_str(), why.c_str());
    CHECK_MSG(tri == rows[i].triangles, "%s: %llu triangles, want %llu", rows[i].name.c_str(),
              (unsigned long long)tri, (unsigned long long)rows[i].triangles);
    CHECK_MSG(ids_ok, "%s: original ids are not 1..N", rows[i].name.c_str());
    CHECK(graph_zeroed(g));
  }
}

static gclq_status parse_str(const char *s, gclq_format f, gclq_graph *g, gclq_load_error *e) {
  return gclq_graph_parse(s, strlen(s), f, g, e);
}

/* ---- loaders against the reference data ---- */

TEST(graph, dimacs_reference) { check_reference_folder("dimacs", ".clq", true); }
TEST(graph, snap_reference) { check_reference_folder("snap", ".txt", false); }

TEST(graph, load_explicit_format_and_matrix_market_file) {
  /* an explicit format on a file whose extension says otherwise, and a .mtx
     written here and read back by extension */
  const char *path = "graph_test_tmp.mtx";
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  fputs("%%MatrixMarket matrix coordinate pattern symmetric\n% comment\n4 4 3\n2 1\n3 2\n3 1\n", f);
  fclose(f);
  gclq_graph g;
  gclq_load_error e;
  gclq_status st = gclq_graph_load(path, GCLQ_FORMAT_AUTO, &g, &e);
  CHECK_MSG(st == GCLQ_SUCCESS, "%s: line %llu %s", gclq_status_string(st), (unsigned long long)e.line, e.message);
  CHECK_EQ(g.num_vertices, 4);
  CHECK_EQ(g.num_edges, 3);
  CHECK_EQ(count_triangles(g), 1);
  CHECK_EQ(g.h_offsets[4] - g.h_offsets[3], 0); /* vertex 4 isolated, present */
  gclq_graph_free(&g);
  /* the same file read as SNAP fails on line 1 ("%%MatrixMarket" is no number) */
  st = gclq_graph_load(path, GCLQ_FORMAT_SNAP, &g, &e);
  CHECK(st == GCLQ_ERROR_PARSE && e.line == 1 && graph_zeroed(g));
  remove(path);
}

/* Write text to path, load it with format, remove the file. */
static gclq_status load_named(const char *path, const char *text, gclq_format format, gclq_graph *g,
                              gclq_load_error *e) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return GCLQ_ERROR_IO;
  fputs(text, f);
  fclose(f);
  gclq_status st = gclq_graph_load(path, format, g, e);
  remove(path);
  return st;
}

TEST(graph, auto_format_from_the_content) {
  /* AUTO reads the content where the name does not decide, or where the
     content contradicts it: a DIMACS file named .txt, an edge list named
     .clq; text in memory by its content too */
  const char *dimacs = "c a triangle and a pendant\np edge 4 4\ne 1 2\ne 2 3\ne 3 1\ne 3 4\n";
  const char *snap = "# an edge list\n1 2\n2 3\n3 1\n3 4\n";
  const char *mtx = "%%MatrixMarket matrix coordinate pattern general\n4 4 4\n1 2\n2 3\n3 1\n3 4\n";
  struct named {
    const char *path, *text;
  } cases[] = {{"graph_fmt.txt", dimacs}, {"graph_fmt", dimacs},     {"graph_fmt.clq", snap},
               {"graph_fmt.dimacs", snap}, {"graph_fmt.txt", mtx},  {"graph_fmt.clq", mtx},
               {"graph_fmt.edges", snap},  {"graph_fmt.mtx", dimacs}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    gclq_graph g;
    gclq_load_error e;
    gclq_status st = load_named(cases[i].path, cases[i].text, GCLQ_FORMAT_AUTO, &g, &e);
    CHECK_MSG(st == GCLQ_SUCCESS, "case %zu (%s): %s, line %llu: %s", i, cases[i].path, gclq_status_string(st),
              (unsigned long long)e.line, e.message);
    CHECK_MSG(g.num_edges == 4 && count_triangles(g) == 1, "case %zu: %llu edges", i, (unsigned long long)g.num_edges);
    CHECK_GRAPH_VALID(g);
    gclq_graph_free(&g);
  }
  /* text in memory: AUTO reads the content */
  gclq_graph g;
  gclq_load_error e;
  CHECK(parse_str(dimacs, GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_SUCCESS && g.num_edges == 4);
  gclq_graph_free(&g);
  CHECK(parse_str(mtx, GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_SUCCESS && g.num_vertices == 4);
  gclq_graph_free(&g);
  CHECK(parse_str("", GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_SUCCESS && g.num_vertices == 0); /* SNAP: empty is valid */
  gclq_graph_free(&g);
  /* an explicit format wins over the name and the content; the error names
     the format it read and the option that picks another */
  CHECK(load_named("graph_fmt.txt", dimacs, GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_ERROR_PARSE && e.line == 1);
  CHECK_MSG(strstr(e.message, "read as SNAP") && strstr(e.message, "DIMACS") &&
                strstr(e.message, "gclq_load_options.format"),
            "%s", e.message);
  CHECK(graph_zeroed(g));
  CHECK(load_named("graph_fmt.clq", snap, GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_ERROR_PARSE && e.line == 1);
  CHECK_MSG(strstr(e.message, "read as DIMACS") && strstr(e.message, "gclq_load_options.format"), "%s", e.message);
  /* a .mtx file of numbers without its header stays Matrix Market (its size
     line is no edge) and says how to read it as an edge list */
  CHECK(load_named("graph_fmt.mtx", "4 4 2\n1 2\n2 3\n", GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_ERROR_PARSE);
  CHECK_MSG(e.line == 1 && strstr(e.message, "MatrixMarket header") && strstr(e.message, "gclq_load_options.format"),
            "line %llu: %s", (unsigned long long)e.line, e.message);
  /* an error the format explains gets no hint */
  CHECK(load_named("graph_fmt.txt", "1 2\n3 x\n", GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_ERROR_PARSE && e.line == 2);
  CHECK_MSG(strstr(e.message, "gclq_load_options.format") == NULL, "%s", e.message);
  /* a Matrix Market entry's own error gets no hint (numbers are its lines) */
  CHECK(load_named("graph_fmt.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 9\n",
                   GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_ERROR_PARSE && e.line == 3);
  CHECK_MSG(strstr(e.message, "out of range") && !strstr(e.message, "gclq_load_options.format"), "%s", e.message);
  /* a DIMACS line in the middle of an edge list: read as SNAP, the hint says so */
  CHECK(load_named("graph_fmt.txt", "1 2\np edge 3 1\n", GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_ERROR_PARSE);
  CHECK_MSG(e.line == 2 && strstr(e.message, "read as SNAP") && strstr(e.message, "looks DIMACS"), "%s", e.message);
}

/* ---- SNAP ---- */

TEST(graph, snap_details) {
  /* comments, blank lines, tabs, CRLF, two extra numeric columns (a weight
     and a time), a last line without a newline, repeats and reversed pairs,
     a self-loop-only vertex (5) kept as an isolated vertex, the largest
     64-bit id */
  const char *text =
      "# comment\n"
      "\n"
      "  \t \n"
      "10 20\r\n"
      "20\t10\n"
      "10  30 0.5 1234567\n"
      "5 5\n"
      "30 30\n"
      "18446744073709551615 10";
  gclq_graph g;
  gclq_load_error e;
  poison(&g);
  CHECK(parse_str(text, GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_SUCCESS);
  CHECK_GRAPH_VALID(g);
  CHECK_EQ(g.num_vertices, 5);
  CHECK_EQ(g.num_edges, 3);
  uint64_t want_ids[] = {5, 10, 20, 30, 18446744073709551615ull};
  CHECK_ARRAYS(want_ids, g.h_original_ids, 5, "original ids");
  CHECK_EQ(g.h_offsets[1], 0); /* vertex 5: isolated */
  uint32_t want_nb[] = {2, 3, 4, 1, 1, 1};
  CHECK_ARRAYS(want_nb, g.h_neighbors, 6, "neighbors");
  gclq_graph_free(&g);
  /* AUTO means SNAP for text */
  CHECK(parse_str("1 2\n", GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_SUCCESS && g.num_edges == 1);
  gclq_graph_free(&g);
  /* not NUL-terminated: only len bytes are read */
  const char buf[] = {'1', ' ', '2', '\n', '3', ' ', '4'};
  CHECK(gclq_graph_parse(buf, 4, GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_SUCCESS && g.num_edges == 1);
  gclq_graph_free(&g);
}

TEST(graph, empty_inputs) {
  /* SNAP: empty input or comments only is the empty graph */
  gclq_graph g;
  gclq_load_error e;
  const char *snap_empty[] = {"", "# nothing\n", "\n\n", "\r\r"};
  for (int i = 0; i < 4; ++i) {
    poison(&g);
    CHECK(parse_str(snap_empty[i], GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_SUCCESS);
    CHECK_EQ(g.num_vertices, 0);
    CHECK_EQ(g.num_edges, 0);
    CHECK(g.h_offsets != NULL && g.h_offsets[0] == 0);
    gclq_graph_free(&g);
    CHECK(graph_zeroed(g));
  }
  /* DIMACS and Matrix Market: empty input lacks the p line / header */
  poison(&g);
  CHECK(parse_str("", GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_ERROR_PARSE && e.line == 0 && graph_zeroed(g));
  poison(&g);
  CHECK(parse_str("", GCLQ_FORMAT_MATRIX_MARKET, &g, &e) == GCLQ_ERROR_PARSE && e.line == 0 && graph_zeroed(g));
  /* but "p edge 0 0" and a 0 x 0 matrix are empty graphs */
  CHECK(parse_str("p edge 0 0\n", GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_SUCCESS && g.num_vertices == 0);
  gclq_graph_free(&g);
  CHECK(parse_str("%%MatrixMarket matrix coordinate pattern general\n0 0 0\n", GCLQ_FORMAT_MATRIX_MARKET, &g, &e) ==
        GCLQ_SUCCESS);
  CHECK(g.num_vertices == 0 && g.num_edges == 0);
  gclq_graph_free(&g);
}

/* ---- DIMACS and Matrix Market ---- */

TEST(graph, dimacs_details) {
  /* all N vertices exist, M counts the e lines, "p col", CRLF, repeats both
     ways, loops dropped, no newline at the end */
  const char *text = "c a comment\r\nc\r\np col 6 6\r\n\r\ne 1 2\r\ne 2 1\r\ne 3 3\r\ne 2 3\r\ne 3 1\r\ne 4 5";
  gclq_graph g;
  gclq_load_error e;
  CHECK(parse_str(text, GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_SUCCESS);
  CHECK_GRAPH_VALID(g);
  CHECK_EQ(g.num_vertices, 6);
  CHECK_EQ(g.num_edges, 4);
  CHECK_EQ(count_triangles(g), 1);
  CHECK_EQ(g.h_original_ids[5], 6);
  CHECK_EQ(g.h_offsets[6] - g.h_offsets[5], 0);
  gclq_graph_free(&g);
  /* M may count each edge twice or, with both directions listed, half the
     e lines */
  CHECK(parse_str("p edge 3 4\ne 1 2\ne 2 3\n", GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_SUCCESS && g.num_edges == 2);
  gclq_graph_free(&g);
  CHECK(parse_str("p edge 3 1\ne 1 2\ne 2 1\n", GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_SUCCESS && g.num_edges == 1);
  gclq_graph_free(&g);
  /* one vertex, no edges */
  CHECK(parse_str("p edge 1 0\n", GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_SUCCESS);
  CHECK_GRAPH_VALID(g);
  CHECK(g.num_vertices == 1 && g.num_edges == 0 && g.h_original_ids[0] == 1);
  gclq_graph_free(&g);
}

TEST(graph, matrix_market_details) {
  gclq_graph g;
  gclq_load_error e;
  /* real general, both directions stored, a diagonal entry, explicit zero
     value still an edge, case-insensitive banner */
  const char *text =
      "%%MatrixMarket MATRIX Coordinate Real General\n"
      "% comment\n"
      "%\n"
      "5 5 6\n"
      "1 2 1.5\n"
      "2 1 -2e3\n"
      "3 3 7\n"
      "3 4 0\n"
      "\n"
      "4 1 .25\n"
      "2 4 1E+2\n";
  CHECK(parse_str(text, GCLQ_FORMAT_MATRIX_MARKET, &g, &e) == GCLQ_SUCCESS);
  CHECK_GRAPH_VALID(g);
  CHECK_EQ(g.num_vertices, 5);
  CHECK_EQ(g.num_edges, 4);
  CHECK_EQ(count_triangles(g), 1);
  gclq_graph_free(&g);
  /* integer symmetric */
  CHECK(parse_str("%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 4\n3 2 -1\n",
                  GCLQ_FORMAT_MATRIX_MARKET, &g, &e) == GCLQ_SUCCESS);
  CHECK(g.num_vertices == 3 && g.num_edges == 2);
  gclq_graph_free(&g);
}

TEST(graph, too_large) {
  gclq_graph g;
  gclq_load_error e;
  poison(&g);
  CHECK(parse_str("c\np edge 4294967296 0\n", GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_ERROR_TOO_LARGE);
  CHECK(e.line == 2 && graph_zeroed(g));
  poison(&g);
  CHECK(parse_str("%%MatrixMarket matrix coordinate pattern general\n4294967296 4294967296 0\n",
                  GCLQ_FORMAT_MATRIX_MARKET, &g, &e) == GCLQ_ERROR_TOO_LARGE);
  CHECK(e.line == 2 && graph_zeroed(g));
}

/* ---- malformed input: status, line, message, graph zeroed ---- */

struct bad_case {
  gclq_format format;
  const char *text;
  uint64_t line;
  const char *says; /* a substring of the message */
};

TEST(graph, malformed_inputs) {
  const bad_case cases[] = {
      /* SNAP */
      {GCLQ_FORMAT_SNAP, "1 2\n3\n", 2, "found one"},
      {GCLQ_FORMAT_SNAP, "1 2\n3   \t\r\n", 2, "found one"},
      {GCLQ_FORMAT_SNAP, "1 2\n-3 4\n", 2, "negative"},
      {GCLQ_FORMAT_SNAP, "1 2\n3 -4\n", 2, "negative"},
      {GCLQ_FORMAT_SNAP, "# x\nfoo bar\n", 2, "not a decimal"},
      {GCLQ_FORMAT_SNAP, "1 2\n3 4x\n", 2, "not a decimal"},
      {GCLQ_FORMAT_SNAP, "1 +2\n", 1, "not a decimal"},
      {GCLQ_FORMAT_SNAP, "1 2\r\n# c\r\n1 18446744073709551616\r\n", 3, "64 bits"},
      {GCLQ_FORMAT_SNAP, "99999999999999999999999 1\n", 1, "64 bits"},
      {GCLQ_FORMAT_SNAP, "1 2\n3 4 0.5 77 9\n", 2, "more than four columns"},
      {GCLQ_FORMAT_SNAP, "1 2\n3 4 a weight\n", 2, "not a number"},
      {GCLQ_FORMAT_SNAP, "1 2\r3 4\r5\r", 3, "found one"},
      /* DIMACS */
      {GCLQ_FORMAT_DIMACS, "c only a comment\n", 0, "missing"},
      {GCLQ_FORMAT_DIMACS, "c hi\ne 1 2\np edge 2 1\n", 2, "before the p line"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\ne 0 1\n", 2, "out of range"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\n\ne 1 4\n", 3, "out of range"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\np edge 3 1\n", 2, "second p line"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\ne 1\n", 2, "two vertex ids"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\ne 1 x\n", 2, "not a decimal"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\ne -1 2\n", 2, "negative"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\ne 1 18446744073709551616\n", 2, "64 bits"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\ne 1 2 3\n", 2, "unexpected text"},
      {GCLQ_FORMAT_DIMACS, "p foo 3 1\n", 1, "p edge N M"},
      {GCLQ_FORMAT_DIMACS, "p edge 3\n", 1, "missing edge count"},
      {GCLQ_FORMAT_DIMACS, "p edge x 3\n", 1, "not a decimal"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1 7\n", 1, "unexpected text"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 1\r\nx 1 2\r\n", 2, "unknown line type"},
      {GCLQ_FORMAT_DIMACS, "c\np edge 3 3\ne 1 2\ne 2 3\n", 2, "declares M = 3"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 5\ne 1 2\ne 2 3\n", 1, "2 \"e\" lines"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 0\ne 1 2\n", 1, "declares M = 0"},
      {GCLQ_FORMAT_DIMACS, "p edge 3 2\re 1 2\re 2 3\re 1 3\r", 1, "3 \"e\" lines"},
      /* Matrix Market */
      {GCLQ_FORMAT_MATRIX_MARKET, "\n", 1, "header"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%MatrixMarket matrix coordinate pattern general\n1 1 0\n", 1, "header"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket vector coordinate pattern general\n1 1 0\n", 1, "matrix"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix array real general\n2 2\n", 1, "coordinate"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate complex general\n1 1 0\n", 1, "field"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern hermitian\n1 1 0\n", 1, "symmetry"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general x\n1 1 0\n", 1, "unexpected"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n% c\n3 4 1\n1 2\n", 3,
       "not square"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3\n", 2, "size line"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n% only comments\n", 0,
       "missing the size line"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", 2, "fewer"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n%\n3 3 9\n", 3, "fewer"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n\n2 3\n", 5,
       "more entries"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 2\n", 3, "out of range"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 4\n", 3, "out of range"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1\n", 3, "two indices"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 5\n", 3, "unexpected"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", 3, "missing"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n", 3,
       "not a number"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 abc\n", 3,
       "not a number"},
      {GCLQ_FORMAT_MATRIX_MARKET, "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n-1 2\n", 3, "negative"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const bad_case &c = cases[i];
    gclq_graph g;
    gclq_load_error e;
    poison(&g);
    memset(&e, 0x5A, sizeof e);
    gclq_status st = parse_str(c.text, c.format, &g, &e);
    CHECK_MSG(st == GCLQ_ERROR_PARSE, "case %zu: %s, want a parse error", i, gclq_status_string(st));
    CHECK_MSG(e.line == c.line, "case %zu: line %llu, want %llu (%s)", i, (unsigned long long)e.line,
              (unsigned long long)c.line, e.message);
    CHECK_MSG(memchr(e.message, 0, sizeof e.message) != NULL && strstr(e.message, c.says) != NULL,
              "case %zu: message \"%.128s\" does not say \"%s\"", i, e.message, c.says);
    CHECK_MSG(graph_zeroed(g), "case %zu: graph not zeroed", i);
    /* err may be NULL */
    poison(&g);
    CHECK(parse_str(c.text, c.format, &g, NULL) == GCLQ_ERROR_PARSE && graph_zeroed(g));
  }
}

TEST(graph, bad_arguments_and_io) {
  gclq_graph g;
  gclq_load_error e;
  poison(&g);
  CHECK(gclq_graph_load("no/such/file.txt", GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_ERROR_IO);
  CHECK(graph_zeroed(g) && e.message[0] != 0);
  poison(&g);
  CHECK(gclq_graph_load("no_such_file.clq", GCLQ_FORMAT_DIMACS, &g, NULL) == GCLQ_ERROR_IO && graph_zeroed(g));
  poison(&g);
  CHECK(gclq_graph_load(".", GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_ERROR_IO && graph_zeroed(g)); /* a directory */
  CHECK(gclq_graph_load(NULL, GCLQ_FORMAT_AUTO, &g, &e) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_graph_load("x.txt", GCLQ_FORMAT_AUTO, NULL, &e) == GCLQ_ERROR_INVALID_ARGUMENT);
  poison(&g);
  CHECK(gclq_graph_load("x.txt", (gclq_format)9, &g, &e) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  poison(&g);
  CHECK(gclq_graph_parse(NULL, 0, GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  CHECK(gclq_graph_parse("1 2", 3, GCLQ_FORMAT_SNAP, NULL, &e) == GCLQ_ERROR_INVALID_ARGUMENT);
  poison(&g);
  CHECK(gclq_graph_parse("1 2", 3, (gclq_format)-1, &g, &e) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  uint64_t s[1] = {1}, d[1] = {2};
  poison(&g);
  CHECK(gclq_graph_from_edges(NULL, d, 1, &g) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  poison(&g);
  CHECK(gclq_graph_from_edges(s, NULL, 1, &g) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  CHECK(gclq_graph_from_edges(s, d, 1, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_graph_erdos_renyi(10, 0.5, 1, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_graph_rmat(10, 16, 1, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_graph_planted_clique(10, 0.5, 3, 1, NULL, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* free: NULL, zeroed, twice */
  gclq_graph_free(NULL);
  memset(&g, 0, sizeof g);
  gclq_graph_free(&g);
  CHECK(gclq_graph_from_edges(s, d, 1, &g) == GCLQ_SUCCESS);
  gclq_graph_free(&g);
  CHECK(graph_zeroed(g));
  gclq_graph_free(&g);
}

/* ---- hostile files: limits checked before anything large is taken ---- */

/* Write text to a temporary file, load it with options (NULL: the plain
   call), and report the status, the error, and the largest allocation. */
static gclq_status load_text(const char *path, const char *text, size_t len, const gclq_load_options *o,
                             gclq_graph *g, gclq_load_error *e, size_t *largest) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return GCLQ_ERROR_IO;
  fwrite(text, 1, len, f);
  fclose(f);
  g_alloc_largest = 0;
  gclq_status st = o ? gclq_graph_load_opts(path, o, g, e) : gclq_graph_load(path, GCLQ_FORMAT_AUTO, g, e);
  *largest = g_alloc_largest;
  remove(path);
  return st;
}

TEST(graph, hostile_headers_take_nothing_large) {
  /* headers that declare far more than the file holds: each fails at its
     line, allocates under 1 MiB, and leaks nothing */
  struct hostile {
    const char *path, *text;
    gclq_status want;
    uint64_t line;
    const char *says;
  } cases[] = {
      {"graph_hostile.clq", "p edge 4294967295 0\n", GCLQ_ERROR_TOO_LARGE, 1, "load limit"},
      {"graph_hostile.clq", "c x\np col 100000000 0\n", GCLQ_ERROR_TOO_LARGE, 2, "load limit"},
      {"graph_hostile.clq", "p edge 4294967296 0\n", GCLQ_ERROR_TOO_LARGE, 1, "2^32 - 1"},
      {"graph_hostile.clq", "p edge 3 999999999999\ne 1 2\n", GCLQ_ERROR_PARSE, 1, "declares M"},
      {"graph_hostile.mtx", "%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 0\n",
       GCLQ_ERROR_TOO_LARGE, 2, "load limit"},
      {"graph_hostile.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 999999999999\n1 2\n",
       GCLQ_ERROR_PARSE, 2, "fewer entries"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    gclq_graph g;
    gclq_load_error e;
    size_t largest = 0;
    long long live = g_alloc_live;
    poison(&g);
    gclq_status st = load_text(cases[i].path, cases[i].text, strlen(cases[i].text), NULL, &g, &e, &largest);
    CHECK_MSG(st == cases[i].want, "case %zu: %s", i, gclq_status_string(st));
    CHECK_MSG(e.line == cases[i].line && strstr(e.message, cases[i].says) != NULL, "case %zu: line %llu: %s", i,
              (unsigned long long)e.line, e.message);
    CHECK_MSG(largest < ((size_t)1 << 20), "case %zu: allocated %zu bytes at once", i, largest);
    CHECK(graph_zeroed(g) && g_alloc_live == live);
  }
}

TEST(graph, load_limits) {
  gclq_graph g;
  gclq_load_error e;
  gclq_load_options o;
  size_t largest = 0;
  /* the default vertex limit: what the input's size justifies */
  const char *small = "p edge 4000 0\n";
  CHECK(parse_str(small, GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_SUCCESS && g.num_vertices == 4000);
  gclq_graph_free(&g);
  uint64_t justified = GCLQ_LOAD_MIN_VERTICES + GCLQ_LOAD_VERTICES_PER_BYTE * 15; /* "p edge NNNNN 0\n" */
  char text[64];
  snprintf(text, sizeof text, "p edge %05llu 0\n", (unsigned long long)justified);
  CHECK(strlen(text) == 15);
  CHECK(parse_str(text, GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_SUCCESS && g.num_vertices == justified);
  gclq_graph_free(&g);
  snprintf(text, sizeof text, "p edge %05llu 0\n", (unsigned long long)justified + 1);
  CHECK(parse_str(text, GCLQ_FORMAT_DIMACS, &g, &e) == GCLQ_ERROR_TOO_LARGE && e.line == 1 && graph_zeroed(g));
  /* a caller who expects isolated vertices raises the limit */
  memset(&o, 0, sizeof o);
  o.format = GCLQ_FORMAT_DIMACS;
  o.max_vertices = 200000;
  const char *wide = "p edge 200000 1\ne 1 200000\n";
  CHECK(gclq_graph_parse_opts(wide, strlen(wide), &o, &g, &e) == GCLQ_SUCCESS);
  CHECK(g.num_vertices == 200000 && g.num_edges == 1);
  gclq_graph_free(&g);
  CHECK(gclq_graph_parse_opts("p edge 200001 0\n", 16, &o, &g, &e) == GCLQ_ERROR_TOO_LARGE && e.line == 1);
  /* or lowers it */
  o.max_vertices = 5;
  CHECK(gclq_graph_parse_opts("p edge 6 0\n", 11, &o, &g, &e) == GCLQ_ERROR_TOO_LARGE && graph_zeroed(g));
  o.format = GCLQ_FORMAT_MATRIX_MARKET;
  const char *mm = "%%MatrixMarket matrix coordinate pattern general\n6 6 0\n";
  CHECK(gclq_graph_parse_opts(mm, strlen(mm), &o, &g, &e) == GCLQ_ERROR_TOO_LARGE && e.line == 2);
  /* max_bytes: a file (or text) over it fails before it is parsed */
  memset(&o, 0, sizeof o);
  o.max_bytes = 10;
  const char *snap = "1 2\n2 3\n3 1\n"; /* 12 bytes */
  CHECK(load_text("graph_limit.txt", snap, strlen(snap), &o, &g, &e, &largest) == GCLQ_ERROR_TOO_LARGE);
  CHECK(e.line == 0 && strstr(e.message, "max_bytes") != NULL && graph_zeroed(g));
  CHECK(gclq_graph_parse_opts(snap, strlen(snap), &o, &g, &e) == GCLQ_ERROR_TOO_LARGE && graph_zeroed(g));
  o.max_bytes = 12;
  CHECK(load_text("graph_limit.txt", snap, strlen(snap), &o, &g, &e, &largest) == GCLQ_SUCCESS);
  CHECK(g.num_vertices == 3 && g.num_edges == 3);
  gclq_graph_free(&g);
  /* NULL options: the defaults */
  CHECK(gclq_graph_parse_opts(snap, strlen(snap), NULL, &g, &e) == GCLQ_SUCCESS && g.num_edges == 3);
  gclq_graph_free(&g);
}

TEST(graph, cr_only_line_ends) {
  /* old Mac files (a lone CR ends a line) read line by line in every format,
     the same graph as with LF */
  const char *cr[] = {"# c\r1 2\r2 3\r\r3 1\r3 4", "c\rp edge 4 4\re 1 2\re 2 3\re 3 1\re 3 4\r",
                      "%%MatrixMarket matrix coordinate pattern general\r4 4 4\r1 2\r2 3\r3 1\r3 4\r"};
  gclq_format f[] = {GCLQ_FORMAT_SNAP, GCLQ_FORMAT_DIMACS, GCLQ_FORMAT_MATRIX_MARKET};
  for (int i = 0; i < 3; ++i) {
    std::string lf(cr[i]);
    for (size_t k = 0; k < lf.size(); ++k)
      if (lf[k] == '\r') lf[k] = '\n';
    gclq_graph a, b;
    gclq_load_error e;
    CHECK_MSG(parse_str(cr[i], f[i], &a, &e) == GCLQ_SUCCESS, "format %d: line %llu %s", i,
              (unsigned long long)e.line, e.message);
    CHECK(parse_str(lf.c_str(), f[i], &b, &e) == GCLQ_SUCCESS);
    CHECK_GRAPH_VALID(a);
    CHECK_MSG(a.num_edges == 4 && count_triangles(a) == 1, "format %d: %llu edges", i,
              (unsigned long long)a.num_edges);
    CHECK(graphs_equal(a, b));
    gclq_graph_free(&a);
    gclq_graph_free(&b);
  }
  /* an error in a CR-only file names its line */
  gclq_graph g;
  gclq_load_error e;
  CHECK(parse_str("1 2\r2 3\r4 x\r", GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_ERROR_PARSE && e.line == 3);
}

/* ---- edge lists ---- */

TEST(graph, from_edges_matches_a_set_reference) {
  test_rng rng = test_rng_for("graph.from_edges");
  for (int round = 0; round < 20; ++round) {
    size_t m = (size_t)rng.below(round < 5 ? 8 : 5000);
    uint64_t span = 1 + rng.below(round % 3 == 0 ? 10 : 3000);
    /* sparse 64-bit ids: id k -> k * big + offset, so compaction matters */
    uint64_t big = 1 + (rng.next() >> 20), off = rng.next() >> 1;
    std::vector<uint64_t> src(m), dst(m);
    for (size_t i = 0; i < m; ++i) {
      src[i] = off + big * rng.below(span);
      dst[i] = rng.below(8) == 0 ? src[i] : off + big * rng.below(span); /* some loops */
      if (i > 0 && rng.below(6) == 0) { src[i] = dst[i - 1]; dst[i] = src[i - 1]; } /* reversed repeats */
    }
    std::set<uint64_t> ids;
    std::set<std::pair<uint64_t, uint64_t> > edges;
    for (size_t i = 0; i < m; ++i) {
      ids.insert(src[i]); /* a loop's vertex is kept (isolated if it has no other edge) */
      ids.insert(dst[i]);
      if (src[i] == dst[i]) continue;
      edges.insert(std::make_pair(std::min(src[i], dst[i]), std::max(src[i], dst[i])));
    }
    gclq_graph g;
    poison(&g);
    CHECK(gclq_graph_from_edges(m ? &src[0] : NULL, m ? &dst[0] : NULL, m, &g) == GCLQ_SUCCESS);
    CHECK_GRAPH_VALID(g);
    CHECK_EQ(g.num_vertices, ids.size());
    CHECK_EQ(g.num_edges, edges.size());
    std::vector<uint64_t> want_ids(ids.begin(), ids.end());
    CHECK_ARRAYS(want_ids.data(), g.h_original_ids, want_ids.size(), "original ids");
    std::vector<std::pair<uint32_t, uint32_t> > got = graph_edge_list(g);
    std::set<std::pair<uint64_t, uint64_t> > got_orig;
    for (size_t i = 0; i < got.size(); ++i)
      got_orig.insert(std::make_pair(g.h_original_ids[got[i].first], g.h_original_ids[got[i].second]));
    CHECK(got_orig == edges);
    gclq_graph_free(&g);
  }
}

TEST(graph, small_shapes) {
  gclq_graph g;
  /* no edges */
  CHECK(gclq_graph_from_edges(NULL, NULL, 0, &g) == GCLQ_SUCCESS);
  CHECK(g.num_vertices == 0 && g.num_edges == 0 && g.h_offsets[0] == 0);
  gclq_graph_free(&g);
  /* loops only: each looped id is an isolated vertex */
  uint64_t l[3] = {4, 4, 9};
  CHECK(gclq_graph_from_edges(l, l, 3, &g) == GCLQ_SUCCESS && g.num_vertices == 2 && g.num_edges == 0);
  CHECK(g.h_original_ids[0] == 4 && g.h_original_ids[1] == 9 && g.h_offsets[2] == 0);
  gclq_graph_free(&g);
  /* one vertex (a generator keeps it) */
  CHECK(gclq_graph_erdos_renyi(1, 1.0, 7, &g) == GCLQ_SUCCESS);
  CHECK_GRAPH_VALID(g);
  CHECK(g.num_vertices == 1 && g.num_edges == 0 && g.h_original_ids[0] == 0);
  gclq_graph_free(&g);
  /* K_n from every ordered pair, each twice, plus loops */
  for (uint32_t n = 2; n <= 40; n += 19) {
    std::vector<uint64_t> s, d;
    for (uint32_t u = 0; u < n; ++u)
      for (uint32_t v = 0; v < n; ++v)
        for (int r = 0; r < 2; ++r) {
          s.push_back(1000 + 3 * (uint64_t)u);
          d.push_back(1000 + 3 * (uint64_t)v);
        }
    CHECK(gclq_graph_from_edges(&s[0], &d[0], s.size(), &g) == GCLQ_SUCCESS);
    CHECK_GRAPH_VALID(g);
    CHECK_EQ(g.num_vertices, n);
    CHECK_EQ(g.num_edges, (uint64_t)n * (n - 1) / 2);
    CHECK_EQ(count_triangles(g), (uint64_t)n * (n - 1) * (n - 2) / 6);
    for (uint32_t v = 0; v < n; ++v) CHECK_EQ(g.h_offsets[v + 1] - g.h_offsets[v], n - 1);
    gclq_graph_free(&g);
  }
}

/* ---- generators ---- */

TEST(graph, erdos_renyi) {
  test_rng rng = test_rng_for("graph.erdos_renyi");
  uint64_t seed = rng.next();
  const uint32_t ns[] = {0, 1, 2, 10, 100, 1000, 5000, 20000};
  const double ps[] = {0.0, 1e-9, 0.0005, 0.01, 0.1, 0.5, 0.9, 1.0};
  for (size_t a = 0; a < sizeof ns / sizeof ns[0]; ++a) {
    for (size_t b = 0; b < sizeof ps / sizeof ps[0]; ++b) {
      uint32_t n = ns[a];
      double p = ps[b];
      double pairs = (double)n * (n - (n > 0)) / 2;
      if (pairs * p > 3e6) continue; /* keep the run short */
      gclq_graph g, h;
      CHECK(gclq_graph_erdos_renyi(n, p, seed, &g) == GCLQ_SUCCESS);
      CHECK_GRAPH_VALID(g);
      CHECK_EQ(g.num_vertices, n);
      double mean = pairs * p, sigma = sqrt(pairs * p * (1 - p));
      /* 7 sigma + 4: the binomial tails beyond it, summed over every (n, p)
         here, are 3e-10 a run (the worst G(100, 0.0005), mean 2.5: 1.8e-10).
         6 sigma + 2 was 5e-6 a run: the tiny means (G(20000, 1e-9), mean
         0.2: 5 edges 2e-6; G(10, 0.0005): 3 edges 2e-6) are no normal tails. */
      CHECK_MSG(fabs((double)g.num_edges - mean) <= 7 * sigma + 4, "G(%u, %g): %llu edges, expected %.1f +- %.1f",
                n, p, (unsigned long long)g.num_edges, mean, sigma);
      if (p == 1.0) CHECK_EQ(g.num_edges, (uint64_t)pairs);
      /* deterministic for a seed */
      CHECK(gclq_graph_erdos_renyi(n, p, seed, &h) == GCLQ_SUCCESS);
      CHECK(graphs_equal(g, h));
      gclq_graph_free(&h);
      if (g.num_edges > 100 && p < 1.0) { /* another seed, another graph */
        CHECK(gclq_graph_erdos_renyi(n, p, seed + 1, &h) == GCLQ_SUCCESS);
        CHECK(!graphs_equal(g, h));
        gclq_graph_free(&h);
      }
      gclq_graph_free(&g);
    }
  }
  gclq_graph g;
  poison(&g);
  CHECK(gclq_graph_erdos_renyi(10, -0.1, 1, &g) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  CHECK(gclq_graph_erdos_renyi(10, 1.0001, 1, &g) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  CHECK(gclq_graph_erdos_renyi(10, nan(""), 1, &g) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
}

TEST(graph, erdos_renyi_every_pair_equally_likely) {
  /* the geometric skipping must not favour any pair: over many seeds each of
     the 45 pairs of G(10, 0.3) appears 0.3 of the time, within 7 sigma (a
     pair 12% off its share fails). The binomial tails beyond 7 sigma are
     3e-12 a pair, 1.4e-10 for the 45; 5 sigma of 4000 runs (the same 12%)
     was 6e-7 a pair, 3e-5 a run. */
  const uint32_t n = 10;
  const int runs = 8000;
  const double p = 0.3;
  std::vector<int> hits(n * n, 0);
  test_rng rng = test_rng_for("graph.er_pairs");
  for (int r = 0; r < runs; ++r) {
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(n, p, rng.next(), &g) == GCLQ_SUCCESS);
    std::vector<std::pair<uint32_t, uint32_t> > e = graph_edge_list(g);
    for (size_t i = 0; i < e.size(); ++i) hits[e[i].first * n + e[i].second]++;
    gclq_graph_free(&g);
  }
  double sigma = sqrt(runs * p * (1 - p));
  for (uint32_t u = 0; u < n; ++u)
    for (uint32_t v = u + 1; v < n; ++v)
      CHECK_MSG(fabs(hits[u * n + v] - runs * p) <= 7 * sigma, "pair %u-%u: %d of %d", u, v, hits[u * n + v], runs);
}

TEST(graph, rmat) {
  test_rng rng = test_rng_for("graph.rmat");
  for (int scale = 10; scale <= 16; ++scale) {
    int ef = 1 + (int)rng.below(16);
    uint64_t seed = rng.next();
    gclq_graph g, h;
    CHECK(gclq_graph_rmat(scale, ef, seed, &g) == GCLQ_SUCCESS);
    CHECK_GRAPH_VALID(g);
    CHECK_EQ(g.num_vertices, 1u << scale);
    CHECK(g.num_edges > 0 && g.num_edges <= (uint64_t)ef << scale);
    CHECK(g.h_original_ids[g.num_vertices - 1] == g.num_vertices - 1);
    /* skewed: vertex 0 (quadrant a every level) has the largest degree */
    uint64_t d0 = g.h_offsets[1] - g.h_offsets[0], dmax = 0;
    for (uint32_t v = 0; v < g.num_vertices; ++v) dmax = std::max(dmax, g.h_offsets[v + 1] - g.h_offsets[v]);
    CHECK(d0 == dmax);
    CHECK(gclq_graph_rmat(scale, ef, seed, &h) == GCLQ_SUCCESS);
    CHECK(graphs_equal(g, h));
    gclq_graph_free(&h);
    CHECK(gclq_graph_rmat(scale, ef, seed ^ 1, &h) == GCLQ_SUCCESS);
    CHECK(!graphs_equal(g, h));
    gclq_graph_free(&h);
    gclq_graph_free(&g);
  }
  gclq_graph g;
  CHECK(gclq_graph_rmat(1, 1, 3, &g) == GCLQ_SUCCESS && g.num_vertices == 2 && g.num_edges <= 1);
  gclq_graph_free(&g);
  /* 2^61 edges to draw: the allocation fails cleanly */
  poison(&g);
  CHECK(gclq_graph_rmat(30, 0x7fffffff, 1, &g) == GCLQ_ERROR_OUT_OF_MEMORY && graph_zeroed(g));
  const int bad[][2] = {{0, 16}, {31, 16}, {-1, 16}, {10, 0}, {10, -3}};
  for (int i = 0; i < 5; ++i) {
    poison(&g);
    CHECK(gclq_graph_rmat(bad[i][0], bad[i][1], 1, &g) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  }
}

TEST(graph, rmat_scale_20_speed) {
  /* 2^20 vertices, 16M edges drawn: must take seconds, not minutes */
  if (g_test.max_log2 < 20) { g_test.skipped = 1; return; }
  gclq_graph g;
  clock_t t0 = clock();
  CHECK(gclq_graph_rmat(20, 16, 42, &g) == GCLQ_SUCCESS);
  double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("    rmat scale 20, edge factor 16: %u vertices, %llu edges in %.2f s\n", g.num_vertices,
         (unsigned long long)g.num_edges, s);
  CHECK_GRAPH_VALID(g);
  CHECK(s < 20.0);
  gclq_graph_free(&g);
}

TEST(graph, planted_clique) {
  test_rng rng = test_rng_for("graph.planted");
  const uint32_t cases[][2] = {{200, 12}, {1000, 30}, {50, 50}, {30, 0}, {30, 1}, {1, 1}, {0, 0}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    uint32_t n = cases[c][0], k = cases[c][1];
    double p = 0.05;
    uint64_t seed = rng.next();
    std::vector<uint32_t> clique(k + 1, 0xdeadbeef);
    gclq_graph g, er, again;
    CHECK(gclq_graph_planted_clique(n, p, k, seed, &g, &clique[0]) == GCLQ_SUCCESS);
    CHECK_GRAPH_VALID(g);
    CHECK_EQ(g.num_vertices, n);
    CHECK(clique[k] == 0xdeadbeef); /* exactly k written */
    for (uint32_t i = 0; i < k; ++i) {
      CHECK(clique[i] < n);
      if (i) CHECK(clique[i - 1] < clique[i]); /* sorted, distinct */
      for (uint32_t j = i + 1; j < k; ++j) CHECK(has_edge(g, clique[i], clique[j]));
    }
    /* exactly G(n, p) of the same seed plus the clique's pairs */
    CHECK(gclq_graph_erdos_renyi(n, p, seed, &er) == GCLQ_SUCCESS);
    std::set<std::pair<uint32_t, uint32_t> > want;
    std::vector<std::pair<uint32_t, uint32_t> > e = graph_edge_list(er);
    want.insert(e.begin(), e.end());
    for (uint32_t i = 0; i < k; ++i)
      for (uint32_t j = i + 1; j < k; ++j) want.insert(std::make_pair(clique[i], clique[j]));
    e = graph_edge_list(g);
    std::set<std::pair<uint32_t, uint32_t> > got(e.begin(), e.end());
    CHECK(got == want);
    gclq_graph_free(&er);
    /* deterministic, NULL clique output allowed */
    CHECK(gclq_graph_planted_clique(n, p, k, seed, &again, NULL) == GCLQ_SUCCESS);
    CHECK(graphs_equal(g, again));
    gclq_graph_free(&again);
    gclq_graph_free(&g);
  }
  /* the whole vertex set as the clique: K_n */
  gclq_graph g;
  uint32_t all[20];
  CHECK(gclq_graph_planted_clique(20, 0.0, 20, 5, &g, all) == GCLQ_SUCCESS);
  CHECK_EQ(g.num_edges, 190);
  for (uint32_t i = 0; i < 20; ++i) CHECK_EQ(all[i], i);
  gclq_graph_free(&g);
  poison(&g);
  CHECK(gclq_graph_planted_clique(10, 0.5, 11, 1, &g, NULL) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
  poison(&g);
  CHECK(gclq_graph_planted_clique(10, 2.0, 3, 1, &g, NULL) == GCLQ_ERROR_INVALID_ARGUMENT && graph_zeroed(g));
}

/* ---- a caller's CSR: every call that takes a graph checks the contract ---- */

/* A caller-built CSR held in vectors (h_original_ids NULL). */
struct csr_case {
  const char *what;
  uint32_t n;
  uint64_t m;
  std::vector<uint64_t> off;
  std::vector<uint32_t> nbr;
  gclq_graph view(void) {
    gclq_graph g;
    memset(&g, 0, sizeof g);
    g.num_vertices = n, g.num_edges = m;
    g.h_offsets = off.empty() ? NULL : &off[0];
    g.h_neighbors = nbr.empty() ? NULL : &nbr[0];
    return g;
  }
};

static csr_case csr_make(const char *what, uint32_t n, uint64_t m, std::vector<uint64_t> off,
                         std::vector<uint32_t> nbr) {
  csr_case c;
  c.what = what, c.n = n, c.m = m, c.off = off, c.nbr = nbr;
  return c;
}

/* Every call that takes a graph, on backend b: each returns want, a failed
   one with its result zeroed, and nothing leaks. The sets view is a host
   call (no backend) that needs only the graph's shape: checked with
   b == HOST, against sets_want. */
static void csr_expect_every_call(const gclq_graph &g, gclq_backend b, gclq_status want, gclq_status sets_want,
                                  const char *what) {
  const long long live = g_alloc_live;
  const char *bn = gclq_backend_name(b);
  gclq_kclique_options ko;
  gclq_kclique_result kr;
  gclq_maxclique_options mo;
  gclq_maxclique_result mr;
  std::vector<uint32_t> core(g.num_vertices + 1), order(g.num_vertices + 1);
  uint32_t max_core = 0;
  for (int form = 0; form < 3; ++form) { /* k = 3 ORDERED, every k PIVOT, k = 4 per vertex and listed */
    gclq_kclique_options_defaults(&ko);
    ko.backend = b;
    ko.method = form == 1 ? GCLQ_KCLIQUE_PIVOT : form == 0 ? GCLQ_KCLIQUE_ORDERED : GCLQ_KCLIQUE_AUTO;
    ko.all = form == 1;
    if (form == 2) ko.k = 4, ko.per_vertex = 1, ko.max_stored = 10;
    memset(&kr, 0xab, sizeof kr);
    gclq_status st = gclq_kcliques(&g, &ko, &kr);
    CHECK_MSG(st == want, "%s: kcliques (%s, form %d): %s", what, bn, form, gclq_status_string(st));
    if (st != GCLQ_SUCCESS) CHECK_MSG(kr.h_counts == NULL && kr.num_k == 0, "%s: kcliques result not zeroed", what);
    gclq_kclique_result_free(&kr);
  }
  for (int mode = 0; mode < 2; ++mode) {
    gclq_maxclique_options_defaults(&mo);
    mo.backend = b;
    mo.mode = mode ? GCLQ_MODE_ONE : GCLQ_MODE_ALL;
    memset(&mr, 0xab, sizeof mr);
    gclq_status st = gclq_max_cliques(&g, &mo, &mr);
    CHECK_MSG(st == want, "%s: max_cliques (%s, mode %d): %s", what, bn, mode, gclq_status_string(st));
    if (st != GCLQ_SUCCESS) CHECK_MSG(mr.h_cliques == NULL && mr.omega == 0, "%s: max_cliques result not zeroed", what);
    gclq_maxclique_result_free(&mr);
  }
  gclq_status st = gclq_core_numbers(&g, b, &core[0], &max_core);
  CHECK_MSG(st == want, "%s: core_numbers (%s): %s", what, bn, gclq_status_string(st));
  st = gclq_core_numbers(&g, b, NULL, NULL);
  CHECK_MSG(st == want, "%s: core_numbers (%s, no outputs): %s", what, bn, gclq_status_string(st));
  if (b == GCLQ_BACKEND_HOST) {
    st = gclq_degeneracy_order(&g, &order[0]);
    CHECK_MSG(st == want, "%s: degeneracy_order: %s", what, gclq_status_string(st));
    gclq_sets s;
    memset(&s, 0xab, sizeof s);
    st = gclq_sets_from_graph(&g, &s);
    CHECK_MSG(st == sets_want, "%s: sets_from_graph: %s", what, gclq_status_string(st));
    if (st != GCLQ_SUCCESS) CHECK_MSG(s.h_offsets == NULL && s.num_sets == 0, "%s: sets view not zeroed", what);
    gclq_sets_free(&s);
  }
  CHECK_MSG(g_alloc_live == live, "%s (%s): %lld blocks leaked", what, bn, g_alloc_live - live);
}

/* The triangle 0-1-2 with 3 hanging from 2, stored properly: m = 4. */
static csr_case csr_base(const char *what) {
  uint64_t off[5] = {0, 2, 4, 7, 8};
  uint32_t nbr[8] = {1, 2, 0, 2, 0, 1, 3, 2};
  return csr_make(what, 4, 4, std::vector<uint64_t>(off, off + 5), std::vector<uint32_t>(nbr, nbr + 8));
}

/* The whole contract, by the one call that checks all of it on the host
   whatever the machine has: the degeneracy order (HOST only). */
static gclq_status csr_check(const gclq_graph &g) {
  std::vector<uint32_t> order(g.num_vertices + 1);
  return gclq_degeneracy_order(&g, &order[0]);
}

/* Each way a caller's CSR can break the gclq_graph contract (gpuclique.h,
   section 5), on every call that takes a graph (k-cliques, maximum cliques,
   core numbers, the degeneracy order, the sets view), on every backend.
   A broken shape is INVALID_ARGUMENT everywhere, the sets view included,
   before a backend is resolved. An edge stored at one end only (the first
   two cases; the first overflowed HOST k-cliques' orientation, issue 35,
   item 10) is INVALID_ARGUMENT from the backend that runs: HOST checks it
   on the host, CUDA on the device after the upload (run here when the
   machine has a GPU; without one, CUDA says NO_DEVICE first and AUTO runs
   HOST); the sets view takes it (its sets are still sorted). The
   valid controls succeed on HOST. */
TEST(graph, caller_csr_contract_on_every_call) {
  std::vector<csr_case> bad;
  { uint64_t o[5] = {0, 1, 2, 3, 4}; uint32_t e[4] = {3, 3, 3, 0};
    bad.push_back(csr_make("edges at one end only (0:{3} 1:{3} 2:{3} 3:{0}, m 2)", 4, 2,
                           std::vector<uint64_t>(o, o + 5), std::vector<uint32_t>(e, e + 4))); }
  { uint64_t o[5] = {0, 1, 2, 3, 4}; uint32_t e[4] = {1, 0, 3, 1};
    bad.push_back(csr_make("counts right, a partner wrong (0:{1} 1:{0} 2:{3} 3:{1})", 4, 2,
                           std::vector<uint64_t>(o, o + 5), std::vector<uint32_t>(e, e + 4))); }
  { csr_case c = csr_base("a list out of order (2:{1, 0, 3})"); c.nbr[4] = 1, c.nbr[5] = 0; bad.push_back(c); }
  { uint64_t o[4] = {0, 2, 4, 4}; uint32_t e[4] = {1, 1, 0, 0};
    bad.push_back(csr_make("a repeated neighbour (0:{1, 1} 1:{0, 0})", 3, 2,
                           std::vector<uint64_t>(o, o + 4), std::vector<uint32_t>(e, e + 4))); }
  { uint64_t o[3] = {0, 2, 4}; uint32_t e[4] = {0, 1, 0, 1};
    bad.push_back(csr_make("self-loops (0:{0, 1} 1:{0, 1})", 2, 2,
                           std::vector<uint64_t>(o, o + 3), std::vector<uint32_t>(e, e + 4))); }
  { csr_case c = csr_base("an id out of range (3:{4})"); c.nbr[7] = 4; bad.push_back(c); }
  { csr_case c = csr_base("offsets decrease"); c.off[1] = 5; bad.push_back(c); }
  { csr_case c = csr_base("offsets not from 0"); c.off[0] = 1; bad.push_back(c); }
  { csr_case c = csr_base("num_edges above the offsets"); c.m = 5; bad.push_back(c); }
  { csr_case c = csr_base("num_edges below the offsets"); c.m = 3; bad.push_back(c); }
  { csr_case c = csr_base("num_edges whose 2m wraps to the offsets' 8"); c.m = (1ull << 63) + 4; bad.push_back(c); }
  { csr_case c = csr_base("NULL offsets"); c.off.clear(); bad.push_back(c); }
  { csr_case c = csr_base("NULL neighbours with edges"); c.nbr.clear(); bad.push_back(c); }
  bad.push_back(csr_make("no vertices, one edge", 0, 1, std::vector<uint64_t>(), std::vector<uint32_t>()));
  const gclq_backend backends[3] = {GCLQ_BACKEND_HOST, GCLQ_BACKEND_CUDA, GCLQ_BACKEND_AUTO};
  for (size_t i = 0; i < bad.size(); ++i) {
    const bool one_sided = i < 2;
    gclq_graph g = bad[i].view();
    CHECK_MSG(csr_check(g) == GCLQ_ERROR_INVALID_ARGUMENT, "%s: accepted", bad[i].what);
    for (int b = 0; b < 3; ++b) {
      /* a one-sided edge on CUDA without a device: the backend's own error,
         NO_DEVICE (nvcc) or BACKEND_UNAVAILABLE (a plain C compiler) */
      gclq_backend resolved;
      const gclq_status cuda = gclq_backend_resolve(GCLQ_BACKEND_CUDA, &resolved);
      const gclq_status want = one_sided && backends[b] == GCLQ_BACKEND_CUDA && cuda != GCLQ_SUCCESS
                                   ? cuda
                                   : GCLQ_ERROR_INVALID_ARGUMENT;
      csr_expect_every_call(g, backends[b], want, one_sided ? GCLQ_SUCCESS : GCLQ_ERROR_INVALID_ARGUMENT,
                            bad[i].what);
    }
    CHECK_OK_SO_FAR();
  }
  /* valid: the base graph, vertices without edges (NULL neighbours allowed), no vertices */
  csr_case good[3] = {csr_base("the base graph"),
                      csr_make("3 vertices, no edges, NULL neighbours", 3, 0, std::vector<uint64_t>(4, 0),
                               std::vector<uint32_t>()),
                      csr_make("no vertices", 0, 0, std::vector<uint64_t>(), std::vector<uint32_t>())};
  for (int i = 0; i < 3; ++i) {
    gclq_graph g = good[i].view();
    CHECK_MSG(csr_check(g) == GCLQ_SUCCESS, "%s: refused", good[i].what);
    csr_expect_every_call(g, GCLQ_BACKEND_HOST, GCLQ_SUCCESS, GCLQ_SUCCESS, good[i].what);
    CHECK_OK_SO_FAR();
  }
}

/* The check on a large graph: R-MAT scale 12 passes; moving two edges to one
   end each (num_edges and the offsets still agree) fails, and so does
   every call, on HOST and (with a GPU) on CUDA's device check. The HOST
   check's one allocation failing is OUT_OF_MEMORY, with nothing leaked. */
TEST(graph, caller_csr_one_sided_edges_in_a_large_graph) {
  gclq_graph r;
  CHECK(gclq_graph_rmat(12, 8, 3, &r) == GCLQ_SUCCESS);
  CHECK(csr_check(r) == GCLQ_SUCCESS);
  /* drop an upper entry (v, u), u > v, of two vertices: each edge now listed at u only */
  std::vector<uint64_t> off(r.h_offsets, r.h_offsets + r.num_vertices + 1);
  std::vector<uint32_t> nbr;
  int dropped = 0;
  for (uint32_t v = 0; v < r.num_vertices; ++v) {
    off[v] = nbr.size();
    for (uint64_t e = r.h_offsets[v]; e < r.h_offsets[v + 1]; ++e) {
      if (dropped < 2 && r.h_neighbors[e] > v && v % 7 == 3) {
        ++dropped;
        continue;
      }
      nbr.push_back(r.h_neighbors[e]);
    }
  }
  off[r.num_vertices] = nbr.size();
  CHECK_EQ(dropped, 2);
  csr_case c = csr_make("R-MAT 12, two edges at one end", r.num_vertices, r.num_edges - 1, off, nbr);
  gclq_graph g = c.view();
  CHECK(csr_check(g) == GCLQ_ERROR_INVALID_ARGUMENT);
  csr_expect_every_call(g, GCLQ_BACKEND_HOST, GCLQ_ERROR_INVALID_ARGUMENT, GCLQ_SUCCESS, c.what);
  if (g_test.have_gpu) csr_expect_every_call(g, GCLQ_BACKEND_CUDA, GCLQ_ERROR_INVALID_ARGUMENT, GCLQ_SUCCESS, c.what);
  CHECK_OK_SO_FAR();
  const long long live = g_alloc_live;
  uint32_t max_core = 0;
  g_alloc_fail_at = g_alloc_calls; /* the check's cursor array */
  gclq_status st = gclq_core_numbers(&r, GCLQ_BACKEND_HOST, NULL, &max_core);
  g_alloc_fail_at = -1;
  CHECK(st == GCLQ_ERROR_OUT_OF_MEMORY && g_alloc_live == live);
  gclq_graph_free(&r);
}

/* The sets view of a graph with vertices but no edges, whose neighbour array
   may be NULL: its sets are empty and intersect to nothing on HOST (the
   merge must not offset a NULL array; UBSan's report in the fuzz harness
   tests/fuzz/fuzz_csr.c). */
TEST(graph, sets_view_of_a_graph_without_edges) {
  std::vector<uint64_t> off(4, 0);
  gclq_graph g;
  memset(&g, 0, sizeof g);
  g.num_vertices = 3, g.h_offsets = &off[0];
  gclq_sets s;
  gclq_intersect_options o;
  gclq_intersect_result r;
  CHECK(gclq_sets_from_graph(&g, &s) == GCLQ_SUCCESS && s.num_sets == 3 && s.total == 0);
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  o.materialise = 1;
  CHECK(gclq_intersect_pair(&s, 0, 2, &o, &r) == GCLQ_SUCCESS && r.num_pairs == 1 && r.h_counts[0] == 0);
  gclq_intersect_result_free(&r);
  o.materialise = 0;
  CHECK(gclq_intersect_all(&s, &o, &r) == GCLQ_SUCCESS && r.num_pairs == 3 && r.total == 0);
  gclq_intersect_result_free(&r);
  gclq_sets_free(&s);
}
