/* test_gpm.cu - graph pattern mining (gpuclique section 9): the motif
   catalogue against every graph of 3, 4 and 5 vertices, the HOST motif
   count against brute force over every k-subset of small random graphs,
   closed forms (complete, star, path, cycle, complete bipartite graphs),
   the triangle and 4-clique counts of ../shared/data/kcliques.tsv, bad
   arguments and failing allocations. Host code only: the patterns are
   told apart here by this file's own canonical form (the smallest mask
   under every permutation), not the library's table.

   Same configuration as test_graph.cu (the first file of unit_clique.cu). */
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
#include <vector>

#include "testing.h"

/* ---- this file's patterns: masks of k (k - 1) / 2 bits, pair (i, j) at
   bit gm_bit(k, i, j) ---- */

static uint32_t gm_bit(uint32_t k, uint32_t i, uint32_t j) {
  if (i > j) std::swap(i, j);
  uint32_t b = 0;
  for (uint32_t a = 0; a < i; ++a) b += k - 1 - a;
  return b + (j - i - 1);
}

static bool gm_has(uint32_t k, uint32_t mask, uint32_t i, uint32_t j) { return (mask >> gm_bit(k, i, j)) & 1u; }

/* The smallest mask of the pattern under every permutation. */
static uint32_t gm_canon(uint32_t k, uint32_t mask) {
  std::vector<uint32_t> perm(k);
  for (uint32_t i = 0; i < k; ++i) perm[i] = i;
  uint32_t best = ~0u;
  do {
    uint32_t m = 0;
    for (uint32_t i = 0; i < k; ++i)
      for (uint32_t j = i + 1; j < k; ++j)
        if (gm_has(k, mask, i, j)) m |= 1u << gm_bit(k, perm[i], perm[j]);
    best = std::min(best, m);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

static bool gm_connected(uint32_t k, uint32_t mask) {
  uint32_t seen = 1, grew = 1;
  while (grew) {
    grew = 0;
    for (uint32_t i = 0; i < k; ++i)
      for (uint32_t j = 0; j < k; ++j)
        if (i != j && ((seen >> i) & 1u) && !((seen >> j) & 1u) && gm_has(k, mask, i, j)) seen |= 1u << j, grew = 1;
  }
  return seen == (1u << k) - 1;
}

/* canonical mask -> catalogue index, from gclq_motif_edges. */
static std::map<uint32_t, uint32_t> gm_catalogue(uint32_t k) {
  std::map<uint32_t, uint32_t> at;
  for (uint32_t p = 0; gclq_motif_name(k, p) != NULL; ++p) {
    uint32_t pairs[20], mask = 0;
    const uint32_t e = gclq_motif_edges(k, p, pairs);
    for (uint32_t i = 0; i < e; ++i) mask |= 1u << gm_bit(k, pairs[2 * i], pairs[2 * i + 1]);
    at[gm_canon(k, mask)] = p;
  }
  return at;
}

/* The counts by brute force: every k-subset, its mask, its pattern. */
static std::vector<uint64_t> gm_brute(const gclq_graph &g, uint32_t k, uint64_t *connected) {
  const std::map<uint32_t, uint32_t> at = gm_catalogue(k);
  std::vector<uint64_t> counts(GCLQ_MOTIF_MAX_PATTERNS, 0);
  std::set<std::pair<uint32_t, uint32_t> > edges;
  for (uint32_t v = 0; v < g.num_vertices; ++v)
    for (uint64_t i = g.h_offsets[v]; i < g.h_offsets[v + 1]; ++i) edges.insert(std::make_pair(v, g.h_neighbors[i]));
  *connected = 0;
  const uint32_t n = g.num_vertices;
  if (n < k) return counts;
  std::vector<uint32_t> s(k);
  for (uint32_t i = 0; i < k; ++i) s[i] = i;
  for (;;) {
    uint32_t mask = 0;
    for (uint32_t i = 0; i < k; ++i)
      for (uint32_t j = i + 1; j < k; ++j)
        if (edges.count(std::make_pair(s[i], s[j]))) mask |= 1u << gm_bit(k, i, j);
    if (gm_connected(k, mask)) {
      counts[at.find(gm_canon(k, mask))->second]++;
      ++*connected;
    }
    int i = (int)k - 1; /* the next k-subset in lexicographic order */
    while (i >= 0 && s[i] == n - k + (uint32_t)i) --i;
    if (i < 0) break;
    ++s[i];
    for (uint32_t j = (uint32_t)i + 1; j < k; ++j) s[j] = s[j - 1] + 1;
  }
  return counts;
}

static gclq_motif_result gm_run(const gclq_graph &g, uint32_t k) {
  gclq_motif_result r;
  memset(&r, 0xA5, sizeof r);
  gclq_motif_options o;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  const gclq_status st = gclq_motifs(&g, k, &o, &r);
  if (st != GCLQ_SUCCESS) { /* (CHECK returns without a value) */
    fprintf(stderr, "    gclq_motifs k %u: %s\n", k, gclq_status_string(st));
    g_test.failed = 1;
  }
  if (st == GCLQ_SUCCESS && r.method != (k <= 4 ? GCLQ_MOTIF_COUNT : GCLQ_MOTIF_ENUMERATE)) g_test.failed = 1;
  if (st == GCLQ_SUCCESS && k <= 4) { /* AUTO counted: enumerating must agree */
    gclq_motif_result e;
    memset(&e, 0xA5, sizeof e);
    o.method = GCLQ_MOTIF_ENUMERATE;
    if (gclq_motifs(&g, k, &o, &e) != GCLQ_SUCCESS || e.method != GCLQ_MOTIF_ENUMERATE ||
        memcmp(e.counts, r.counts, sizeof r.counts) != 0 || e.subgraphs != r.subgraphs) {
      fprintf(stderr, "    gclq_motifs k %u: COUNT and ENUMERATE differ\n", k);
      g_test.failed = 1;
    }
  }
  return r;
}

/* ---- the catalogue ---- */

TEST(gpm, motif_catalogue_holds_every_connected_pattern_once) {
  const uint32_t want[6] = {0, 0, 0, 2, 6, 21};
  for (uint32_t k = 3; k <= 5; ++k) {
    std::set<uint32_t> connected; /* every connected pattern of k vertices, by brute force */
    for (uint32_t mask = 0; mask < (1u << (k * (k - 1) / 2)); ++mask)
      if (gm_connected(k, mask)) connected.insert(gm_canon(k, mask));
    CHECK_EQ(connected.size(), want[k]);
    std::set<uint32_t> seen;
    uint32_t p = 0, last_edges = 0;
    for (; gclq_motif_name(k, p) != NULL; ++p) {
      uint32_t pairs[20], mask = 0;
      const uint32_t e = gclq_motif_edges(k, p, pairs);
      CHECK(e == gclq_motif_edges(k, p, NULL) && e >= k - 1 && e <= k * (k - 1) / 2);
      for (uint32_t i = 0; i < e; ++i) {
        CHECK(pairs[2 * i] < k && pairs[2 * i + 1] < k && pairs[2 * i] != pairs[2 * i + 1]);
        CHECK_MSG(!gm_has(k, mask, pairs[2 * i], pairs[2 * i + 1]), "%s: an edge twice", gclq_motif_name(k, p));
        mask |= 1u << gm_bit(k, pairs[2 * i], pairs[2 * i + 1]);
      }
      CHECK_MSG(gm_connected(k, mask), "%s is not connected", gclq_motif_name(k, p));
      CHECK_MSG(seen.insert(gm_canon(k, mask)).second, "%s repeats a pattern", gclq_motif_name(k, p));
      if (k != 3) CHECK_MSG(e >= last_edges, "%s: ordered by edges", gclq_motif_name(k, p)); /* k = 3: triangle first */
      last_edges = e;
    }
    CHECK_EQ(p, want[k]);
    CHECK(seen == connected);
    CHECK(gclq_motif_edges(k, p, NULL) == 0);
  }
  CHECK(gclq_motif_name(2, 0) == NULL && gclq_motif_name(6, 0) == NULL && gclq_motif_edges(6, 0, NULL) == 0);
  CHECK(strcmp(gclq_motif_name(3, 0), "triangle") == 0 && strcmp(gclq_motif_name(3, 1), "wedge") == 0);
  const char *four[6] = {"3-star", "4-path", "tailed-triangle", "4-cycle", "diamond", "4-clique"};
  for (uint32_t p = 0; p < 6; ++p) CHECK(strcmp(gclq_motif_name(4, p), four[p]) == 0);
  CHECK(strcmp(gclq_motif_name(5, 20), "5-clique") == 0);
}

/* ---- counts ---- */

TEST(gpm, motifs_match_brute_force_on_random_graphs) {
  test_rng rng = test_rng_for("gpm.motifs_random");
  const uint32_t sizes[] = {0, 1, 2, 3, 4, 5, 6, 9, 13, 16};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
    for (int rep = 0; rep < 3; ++rep) {
      gclq_graph g;
      const double p = rep == 0 ? 0.2 : rep == 1 ? 0.5 : 0.85;
      CHECK(gclq_graph_erdos_renyi(sizes[si], p, rng.next(), &g) == GCLQ_SUCCESS);
      for (uint32_t k = 3; k <= 5; ++k) {
        uint64_t connected = 0;
        const std::vector<uint64_t> want = gm_brute(g, k, &connected);
        const long long live = g_alloc_live;
        const gclq_motif_result r = gm_run(g, k);
        CHECK(g_alloc_live == live);
        CHECK(r.k == k && r.num_patterns == (k == 3 ? 2u : k == 4 ? 6u : 21u) && r.backend == GCLQ_BACKEND_HOST);
        CHECK_MSG(r.subgraphs == connected, "n %u p %.2f k %u: %llu subgraphs, want %llu", sizes[si], p, k,
                  (unsigned long long)r.subgraphs, (unsigned long long)connected);
        for (uint32_t i = 0; i < GCLQ_MOTIF_MAX_PATTERNS; ++i)
          CHECK_MSG(r.counts[i] == want[i], "n %u p %.2f k %u: %s %llu, want %llu", sizes[si], p, k,
                    i < r.num_patterns ? gclq_motif_name(k, i) : "past the patterns", (unsigned long long)r.counts[i],
                    (unsigned long long)want[i]);
      }
      gclq_graph_free(&g);
    }
}

static gclq_graph gm_from_pairs(const std::vector<std::pair<uint64_t, uint64_t> > &e) {
  std::vector<uint64_t> a, b;
  for (size_t i = 0; i < e.size(); ++i) a.push_back(e[i].first), b.push_back(e[i].second);
  gclq_graph g;
  if (gclq_graph_from_edges(a.data(), b.data(), a.size(), &g) != GCLQ_SUCCESS) g_test.failed = 1;
  return g;
}

static uint64_t gm_choose(uint64_t n, uint64_t r) {
  if (r > n) return 0;
  uint64_t c = 1;
  for (uint64_t i = 1; i <= r; ++i) c = c * (n - r + i) / i;
  return c;
}

/* The one pattern of k named `name` has `count`, every other 0. */
static void gm_only(const gclq_graph &g, uint32_t k, const char *name, uint64_t count, const char *what) {
  const gclq_motif_result r = gm_run(g, k);
  for (uint32_t i = 0; i < r.num_patterns; ++i) {
    const bool it = strcmp(gclq_motif_name(k, i), name) == 0;
    CHECK_MSG(r.counts[i] == (it ? count : 0), "%s k %u: %s %llu", what, k, gclq_motif_name(k, i),
              (unsigned long long)r.counts[i]);
  }
}

/* The graph of edges e has only the pattern names[k - 3] of each k, count[k - 3] times. */
static void gm_only_each_k(const std::vector<std::pair<uint64_t, uint64_t> > &e, const char *const names[3],
                           const uint64_t count[3], const char *what) {
  gclq_graph g = gm_from_pairs(e);
  for (uint32_t k = 3; k <= 5; ++k) gm_only(g, k, names[k - 3], count[k - 3], what);
  gclq_graph_free(&g);
}

TEST(gpm, motifs_closed_forms) {
  std::vector<std::pair<uint64_t, uint64_t> > e;
  for (uint64_t u = 0; u < 9; ++u)
    for (uint64_t v = u + 1; v < 9; ++v) e.push_back(std::make_pair(u, v));
  const char *const cliques[3] = {"triangle", "4-clique", "5-clique"};
  const uint64_t kn[3] = {gm_choose(9, 3), gm_choose(9, 4), gm_choose(9, 5)};
  gm_only_each_k(e, cliques, kn, "K_9");
  e.clear();
  for (uint64_t v = 1; v <= 11; ++v) e.push_back(std::make_pair(0, v));
  const char *const stars[3] = {"wedge", "3-star", "4-star"};
  const uint64_t star[3] = {gm_choose(11, 2), gm_choose(11, 3), gm_choose(11, 4)};
  gm_only_each_k(e, stars, star, "K_1,11");
  e.clear();
  for (uint64_t v = 0; v + 1 < 14; ++v) e.push_back(std::make_pair(v, v + 1));
  const char *const paths[3] = {"wedge", "4-path", "5-path"};
  const uint64_t path[3] = {12, 11, 10};
  gm_only_each_k(e, paths, path, "P_14");
  for (uint64_t n = 3; n <= 13; n += 1) {
    e.clear();
    for (uint64_t v = 0; v < n; ++v) e.push_back(std::make_pair(v, (v + 1) % n));
    gclq_graph cycle = gm_from_pairs(e);
    gm_only(cycle, 3, n == 3 ? "triangle" : "wedge", n == 3 ? 1 : n, "C_n");
    if (n >= 4) gm_only(cycle, 4, n == 4 ? "4-cycle" : "4-path", n == 4 ? 1 : n, "C_n");
    if (n >= 5) gm_only(cycle, 5, n == 5 ? "5-cycle" : "5-path", n == 5 ? 1 : n, "C_n");
    gclq_graph_free(&cycle);
  }
  const uint64_t a = 4, b = 7; /* K_4,7: induced subsets by how many vertices they take from each side */
  e.clear();
  for (uint64_t u = 0; u < a; ++u)
    for (uint64_t v = 0; v < b; ++v) e.push_back(std::make_pair(u, 100 + v));
  gclq_graph kab = gm_from_pairs(e);
  gm_only(kab, 3, "wedge", a * gm_choose(b, 2) + b * gm_choose(a, 2), "K_4,7");
  gclq_motif_result r = gm_run(kab, 4);
  for (uint32_t i = 0; i < r.num_patterns; ++i) {
    const std::string name = gclq_motif_name(4, i);
    const uint64_t want = name == "4-cycle" ? gm_choose(a, 2) * gm_choose(b, 2)
                          : name == "3-star" ? a * gm_choose(b, 3) + b * gm_choose(a, 3)
                                             : 0;
    CHECK_MSG(r.counts[i] == want, "K_4,7 k 4: %s %llu, want %llu", name.c_str(), (unsigned long long)r.counts[i],
              (unsigned long long)want);
  }
  r = gm_run(kab, 5);
  for (uint32_t i = 0; i < r.num_patterns; ++i) {
    const std::string name = gclq_motif_name(5, i);
    const uint64_t want = name == "bipartite-2-3" ? gm_choose(a, 2) * gm_choose(b, 3) + gm_choose(a, 3) * gm_choose(b, 2)
                          : name == "4-star"      ? a * gm_choose(b, 4) + b * gm_choose(a, 4)
                                                  : 0;
    CHECK_MSG(r.counts[i] == want, "K_4,7 k 5: %s %llu, want %llu", name.c_str(), (unsigned long long)r.counts[i],
              (unsigned long long)want);
  }
  gclq_graph_free(&kab);
}

/* The triangle and 4-clique rows of ../shared/data/kcliques.tsv (but
   facebook_combined's: 30 million connected triples, left to the GPU runs),
   with the path of each graph; empty without the data. */
struct gm_clique_row {
  std::string name, path;
  unsigned k;
  unsigned long long count;
};
static std::vector<gm_clique_row> gm_clique_rows(void) {
  std::vector<gm_clique_row> rows;
  const char *dir = test_data_dir();
  FILE *f = dir ? fopen((std::string(dir) + "/kcliques.tsv").c_str(), "rb") : NULL;
  char line[512];
  while (f != NULL && fgets(line, sizeof line, f)) {
    char name[256];
    gm_clique_row r;
    if (line[0] == '#' || sscanf(line, "%255s %u %llu", name, &r.k, &r.count) != 3 || (r.k != 3 && r.k != 4)) continue;
    r.name = name;
    if (r.name == "facebook_combined") continue;
    r.path = std::string(dir) + "/snap/" + name + ".txt";
    FILE *t = fopen(r.path.c_str(), "rb");
    if (t) fclose(t);
    else r.path = std::string(dir) + "/dimacs/" + name + ".clq";
    rows.push_back(r);
  }
  if (f != NULL) fclose(f);
  return rows;
}

/* Triangles (and 4-cliques on the small graphs) of ../shared/data. */
TEST(gpm, motif_cliques_match_the_data_graphs) {
  const std::vector<gm_clique_row> rows = gm_clique_rows();
  if (rows.empty()) {
    printf("    skipped: data dir absent (../shared/data not found; set GPUAMQ_DATA_DIR)\n");
    g_test.skipped = 1;
    return;
  }
  int checked = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    gclq_graph g;
    CHECK_MSG(gclq_graph_load(rows[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS, "%s",
              rows[i].path.c_str());
    if (rows[i].k == 4 && g.num_vertices > 70) { /* 4-subsets of the larger graphs: too many to walk here */
      gclq_graph_free(&g);
      continue;
    }
    const gclq_motif_result r = gm_run(g, rows[i].k);
    const uint64_t got = r.counts[rows[i].k == 3 ? 0 : 5];
    CHECK_MSG(got == rows[i].count, "%s: %llu %u-cliques, want %llu", rows[i].name.c_str(), (unsigned long long)got,
              rows[i].k, rows[i].count);
    ++checked;
    gclq_graph_free(&g);
  }
  CHECK(checked >= 15);
}

TEST(gpm, motifs_bad_arguments_and_allocation_failures) {
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(40, 0.2, 3, &g) == GCLQ_SUCCESS);
  gclq_motif_result r;
  gclq_motif_options o;
  memset(&o, 0, sizeof o);
  memset(&r, 0xA5, sizeof r);
  const gclq_motif_result zero = gclq_motif_result();
  CHECK(gclq_motifs(NULL, 3, NULL, &r) == GCLQ_ERROR_INVALID_ARGUMENT && memcmp(&r, &zero, sizeof r) == 0);
  CHECK(gclq_motifs(&g, 3, NULL, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_motifs(&g, 2, NULL, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_motifs(&g, 6, NULL, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.backend = (gclq_backend)7;
  CHECK(gclq_motifs(&g, 3, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.backend = GCLQ_BACKEND_CUDA; /* COUNT runs there; ENUMERATE does not */
  memset(&r, 0xA5, sizeof r);
  const gclq_status cst = gclq_motifs(&g, 3, &o, &r);
  CHECK(g_test.have_gpu ? cst == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_CUDA && r.method == GCLQ_MOTIF_COUNT
                        : cst == GCLQ_ERROR_NO_DEVICE && memcmp(&r, &zero, sizeof r) == 0);
  o.method = GCLQ_MOTIF_ENUMERATE;
  memset(&r, 0xA5, sizeof r);
  CHECK(gclq_motifs(&g, 3, &o, &r) == GCLQ_ERROR_BACKEND_UNAVAILABLE && memcmp(&r, &zero, sizeof r) == 0);
  CHECK(gclq_motifs(&g, 5, &o, &r) == GCLQ_ERROR_BACKEND_UNAVAILABLE);
  o.backend = GCLQ_BACKEND_AUTO; /* CUDA with a device, else HOST */
  o.method = (gclq_motif_method)3;
  CHECK(gclq_motifs(&g, 4, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.method = GCLQ_MOTIF_COUNT; /* k = 3, 4 only */
  CHECK(gclq_motifs(&g, 5, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && memcmp(&r, &zero, sizeof r) == 0);
  o.method = GCLQ_MOTIF_AUTO;
  const gclq_backend ran = g_test.have_gpu ? GCLQ_BACKEND_CUDA : GCLQ_BACKEND_HOST;
  CHECK(gclq_motifs(&g, 4, &o, &r) == GCLQ_SUCCESS && r.backend == ran);
  CHECK(gclq_motifs(&g, 4, NULL, &r) == GCLQ_SUCCESS && r.backend == ran);
  CHECK(gclq_motifs(&g, 5, NULL, &r) == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_HOST);
  /* a caller's graph with an edge at one end only */
  gclq_graph bad = g;
  std::vector<uint32_t> nbr(g.h_neighbors, g.h_neighbors + 2 * g.num_edges);
  bad.h_neighbors = nbr.data();
  for (uint32_t v = 0; v < g.num_vertices; ++v) /* drop v's last neighbour from v's list: one-sided edges */
    if (g.h_offsets[v + 1] - g.h_offsets[v] >= 2 && nbr[g.h_offsets[v + 1] - 1] > v) {
      nbr[g.h_offsets[v + 1] - 1] = nbr[g.h_offsets[v + 1] - 2];
      break;
    }
  CHECK(gclq_motifs(&bad, 3, NULL, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* every allocation failing in turn, each method on HOST */
  o.backend = GCLQ_BACKEND_HOST;
  for (long long k = 0; k < 20; ++k) { /* 0 .. 9: ENUMERATE (k = 5), 10 ..: COUNT (k = 4) */
    const long long live = g_alloc_live;
    g_alloc_fail_at = g_alloc_calls + (k < 10 ? k : k - 10);
    memset(&r, 0xA5, sizeof r);
    const gclq_status st = gclq_motifs(&g, k < 10 ? 5 : 4, &o, &r);
    const bool never_came = g_alloc_fail_at >= g_alloc_calls;
    g_alloc_fail_at = -1;
    CHECK(g_alloc_live == live);
    if (never_came) {
      CHECK(st == GCLQ_SUCCESS);
      if (k < 10) k = 9; /* on to the counting method */
      else break;
      continue;
    }
    CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && memcmp(&r, &zero, sizeof r) == 0, "allocation %lld: %s", k,
              gclq_status_string(st));
  }
  gclq_graph_free(&g);
}

/* ---- subgraph matching ---- */

/* A query from edge pairs on vertices 0 .. q - 1 (a lone vertex: a self-loop,
   which the builder keeps as an isolated vertex). */
static gclq_graph gm_query(uint32_t q, const std::vector<uint32_t> &pairs) {
  std::vector<uint64_t> a, b;
  for (size_t i = 0; i + 1 < pairs.size(); i += 2) a.push_back(pairs[i]), b.push_back(pairs[i + 1]);
  for (uint64_t v = 0; v < q; ++v) a.push_back(v), b.push_back(v); /* every vertex present */
  gclq_graph g;
  if (gclq_graph_from_edges(a.data(), b.data(), a.size(), &g) != GCLQ_SUCCESS) g_test.failed = 1;
  return g;
}

/* Every map of the query's vertices into the data graph that keeps edges
   and labels, by brute force, as rows in query vertex order; and the
   query's automorphisms. */
struct gm_maps {
  std::vector<std::vector<uint32_t> > homs, embeddings, induced;
  uint64_t automorphisms;
};
static gm_maps gm_brute_maps(const gclq_graph &g, const gclq_graph &Q) {
  const uint32_t n = g.num_vertices, q = Q.num_vertices;
  std::set<std::pair<uint32_t, uint32_t> > E, QE;
  for (uint32_t v = 0; v < n; ++v)
    for (uint64_t i = g.h_offsets[v]; i < g.h_offsets[v + 1]; ++i) E.insert(std::make_pair(v, g.h_neighbors[i]));
  for (uint32_t v = 0; v < q; ++v)
    for (uint64_t i = Q.h_offsets[v]; i < Q.h_offsets[v + 1]; ++i) QE.insert(std::make_pair(v, Q.h_neighbors[i]));
  gm_maps m;
  m.automorphisms = 0;
  std::vector<uint32_t> perm(q);
  for (uint32_t a = 0; a < q; ++a) perm[a] = a;
  do { /* the automorphisms: permutations that keep edges and labels */
    bool kept = true;
    for (uint32_t a = 0; a < q && kept; ++a) {
      kept = Q.h_labels == NULL || Q.h_labels[perm[a]] == Q.h_labels[a];
      for (uint32_t b = a + 1; b < q && kept; ++b)
        kept = QE.count(std::make_pair(a, b)) == QE.count(std::make_pair(perm[a], perm[b]));
    }
    m.automorphisms += kept;
  } while (std::next_permutation(perm.begin(), perm.end()));
  std::vector<uint32_t> f(q, 0);
  for (uint64_t left = n == 0 ? 0 : 1; left > 0;) { /* every map [q] -> [n] */
    bool ok = true, injective = true, induced = true;
    for (uint32_t a = 0; a < q; ++a) {
      if (Q.h_labels != NULL && g.h_labels[f[a]] != Q.h_labels[a]) ok = false;
      for (uint32_t b = a + 1; b < q; ++b) {
        const bool qe = QE.count(std::make_pair(a, b)) > 0, ge = E.count(std::make_pair(f[a], f[b])) > 0;
        if (qe && !ge) ok = false;
        if (f[a] == f[b]) injective = false;
        if (!qe && ge) induced = false;
      }
    }
    if (ok) m.homs.push_back(f);
    if (ok && injective) m.embeddings.push_back(f);
    if (ok && injective && induced) m.induced.push_back(f);
    uint32_t i = 0; /* the next map: f as a number in base n */
    while (i < q && ++f[i] == n) f[i++] = 0;
    if (i == q) left = 0;
  }
  std::sort(m.homs.begin(), m.homs.end());
  std::sort(m.embeddings.begin(), m.embeddings.end());
  std::sort(m.induced.begin(), m.induced.end());
  return m;
}

/* The subgraph a map covers: its vertex set and the images of the query's edges. */
static std::vector<uint64_t> gm_subgraph_key(const gclq_graph &Q, const uint64_t *row) {
  std::vector<uint64_t> vs(row, row + Q.num_vertices), es;
  std::sort(vs.begin(), vs.end());
  for (uint32_t a = 0; a < Q.num_vertices; ++a)
    for (uint64_t i = Q.h_offsets[a]; i < Q.h_offsets[a + 1]; ++i)
      if (a < Q.h_neighbors[i]) es.push_back(std::min(row[a], row[Q.h_neighbors[i]]) << 32 | std::max(row[a], row[Q.h_neighbors[i]]));
  std::sort(es.begin(), es.end());
  vs.push_back(UINT64_MAX);
  vs.insert(vs.end(), es.begin(), es.end());
  return vs;
}

static gclq_match_result gm_match(const gclq_graph &g, const gclq_graph &Q, gclq_match_mode mode, uint64_t max_stored) {
  gclq_match_options o;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  o.mode = mode;
  o.max_stored = max_stored;
  gclq_match_result r;
  memset(&r, 0xA5, sizeof r);
  const gclq_status st = gclq_match(&g, &Q, &o, &r);
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "    gclq_match: %s (%s)\n", gclq_status_string(st), r.message);
    g_test.failed = 1;
  }
  return r;
}

/* Every mode of one query on one graph against the brute-force maps. */
static void gm_check_match(const gclq_graph &g, const gclq_graph &Q, const char *what) {
  const gm_maps m = gm_brute_maps(g, Q);
  CHECK_MSG(m.automorphisms > 0 && m.embeddings.size() % m.automorphisms == 0 && m.induced.size() % m.automorphisms == 0,
            "%s: %zu embeddings, %llu automorphisms", what, m.embeddings.size(), (unsigned long long)m.automorphisms);
  const gclq_match_mode modes[4] = {GCLQ_MATCH_EDGE_INDUCED, GCLQ_MATCH_VERTEX_INDUCED, GCLQ_MATCH_EMBEDDINGS,
                                    GCLQ_MATCH_HOMOMORPHISMS};
  for (int mi = 0; mi < 4; ++mi) {
    const std::vector<std::vector<uint32_t> > &all = mi == 3 ? m.homs : mi == 1 ? m.induced : m.embeddings;
    const uint64_t want = mi >= 2 ? all.size() : all.size() / m.automorphisms;
    const long long live = g_alloc_live;
    gclq_match_result r = gm_match(g, Q, modes[mi], UINT64_MAX);
    CHECK_MSG(r.count == want && r.stored == want && r.query_vertices == Q.num_vertices &&
                  r.automorphisms == m.automorphisms && r.backend == GCLQ_BACKEND_HOST,
              "%s mode %d: count %llu stored %llu aut %llu, want %llu and %llu", what, mi, (unsigned long long)r.count,
              (unsigned long long)r.stored, (unsigned long long)r.automorphisms, (unsigned long long)want,
              (unsigned long long)m.automorphisms);
    if (r.stored != want) {
      gclq_match_result_free(&r);
      continue;
    }
    const uint32_t q = Q.num_vertices;
    std::set<std::vector<uint64_t> > keys;
    for (uint64_t i = 0; i < r.stored; ++i) {
      const std::vector<uint32_t> row(r.h_matches + i * q, r.h_matches + (i + 1) * q);
      if (i > 0) CHECK(std::lexicographical_compare(r.h_matches + (i - 1) * q, r.h_matches + i * q, r.h_matches + i * q,
                                                    r.h_matches + (i + 1) * q)); /* ascending, distinct */
      CHECK_MSG(std::binary_search(all.begin(), all.end(), row), "%s mode %d: row %llu is no match", what, mi,
                (unsigned long long)i);
      keys.insert(mi == 1 ? std::vector<uint64_t>(row.begin(), row.end()) : gm_subgraph_key(Q, r.h_matches + i * q));
    }
    if (mi < 2) { /* one row a subgraph, every subgraph a row */
      std::set<std::vector<uint64_t> > want_keys;
      for (size_t i = 0; i < all.size(); ++i) {
        std::vector<uint64_t> row(all[i].begin(), all[i].end());
        want_keys.insert(gm_subgraph_key(Q, row.data()));
      }
      std::set<std::vector<uint64_t> > got_keys;
      for (uint64_t i = 0; i < r.stored; ++i) got_keys.insert(gm_subgraph_key(Q, r.h_matches + i * q));
      CHECK_MSG(got_keys == want_keys && got_keys.size() == r.stored, "%s mode %d: the subgraphs differ", what, mi);
    }
    /* a few kept: the smallest rows of the whole list */
    const uint64_t few = 1 + (want > 2 ? want / 3 : 0);
    gclq_match_result s = gm_match(g, Q, modes[mi], few);
    CHECK(s.count == want && s.stored == std::min(few, want));
    CHECK(s.stored == 0 || std::equal(s.h_matches, s.h_matches + s.stored * q, r.h_matches));
    gclq_match_result_free(&s);
    /* the count alone (unlabelled 3 and 4 vertices: from the motif counts, not matched) */
    s = gm_match(g, Q, modes[mi], 0);
    CHECK_MSG(s.count == want && s.stored == 0 && s.h_matches == NULL && s.automorphisms == m.automorphisms,
              "%s mode %d: count alone %llu, want %llu", what, mi, (unsigned long long)s.count,
              (unsigned long long)want);
    gclq_match_result_free(&s);
    gclq_match_result_free(&r);
    CHECK(g_alloc_live == live);
  }
}

/* Queries of 1 .. 5 vertices: a vertex, an edge, every connected pattern of
   3 and 4 vertices, five of 5; on random graphs, labelled and not. */
TEST(gpm, match_equals_brute_force_in_every_mode) {
  test_rng rng = test_rng_for("gpm.match_random");
  std::vector<std::pair<uint32_t, std::vector<uint32_t> > > queries;
  queries.push_back(std::make_pair(1u, std::vector<uint32_t>()));
  queries.push_back(std::make_pair(2u, std::vector<uint32_t>{0, 1}));
  for (uint32_t k = 3; k <= 5; ++k)
    for (uint32_t p = 0; gclq_motif_name(k, p) != NULL; ++p) {
      if (k == 5 && p % 5 != 0) continue; /* 5-path, banner, bowtie, 4-clique-pendant, 5-clique-minus-edge */
      uint32_t pairs[20];
      const uint32_t e = gclq_motif_edges(k, p, pairs);
      queries.push_back(std::make_pair(k, std::vector<uint32_t>(pairs, pairs + 2 * e)));
    }
  const uint32_t sizes[] = {0, 1, 4, 7};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
    for (int labelled = 0; labelled < 2; ++labelled) {
      gclq_graph g;
      CHECK(gclq_graph_erdos_renyi(sizes[si], 0.3 + 0.4 * (double)rng.below(2), rng.next(), &g) == GCLQ_SUCCESS);
      if (labelled) CHECK(gclq_graph_random_labels(&g, 2, rng.next()) == GCLQ_SUCCESS);
      for (size_t qi = 0; qi < queries.size() && !g_test.failed; ++qi) {
        if (sizes[si] == 7 && queries[qi].first == 5 && labelled == 0 && qi % 2) continue;
        gclq_graph Q = gm_query(queries[qi].first, queries[qi].second);
        if (labelled) CHECK(gclq_graph_random_labels(&Q, 2, rng.next()) == GCLQ_SUCCESS);
        char what[96];
        snprintf(what, sizeof what, "n %u%s, query %zu (%u vertices)", sizes[si], labelled ? " labelled" : "", qi,
                 queries[qi].first);
        gm_check_match(g, Q, what);
        gclq_graph_free(&Q);
      }
      gclq_graph_free(&g);
    }
}

TEST(gpm, match_closed_forms_and_data_graphs) {
  std::vector<std::pair<uint64_t, uint64_t> > e;
  for (uint64_t u = 0; u < 12; ++u)
    for (uint64_t v = u + 1; v < 12; ++v) e.push_back(std::make_pair(u, v));
  gclq_graph kn = gm_from_pairs(e);
  gclq_graph tri = gm_query(3, std::vector<uint32_t>{0, 1, 1, 2, 0, 2}), wedge = gm_query(3, std::vector<uint32_t>{0, 1, 1, 2});
  gclq_match_result r = gm_match(kn, tri, GCLQ_MATCH_EDGE_INDUCED, 0);
  CHECK(r.count == gm_choose(12, 3) && r.automorphisms == 6 && r.h_matches == NULL);
  r = gm_match(kn, tri, GCLQ_MATCH_EMBEDDINGS, 0);
  CHECK(r.count == 6 * gm_choose(12, 3));
  r = gm_match(kn, wedge, GCLQ_MATCH_EDGE_INDUCED, 0);
  CHECK(r.count == 3 * gm_choose(12, 3) && r.automorphisms == 2);
  r = gm_match(kn, wedge, GCLQ_MATCH_VERTEX_INDUCED, 0);
  CHECK(r.count == 0);
  gclq_graph_free(&kn);
  e.clear();
  for (uint64_t u = 0; u < 5; ++u)
    for (uint64_t v = 0; v < 6; ++v) e.push_back(std::make_pair(u, 10 + v));
  gclq_graph kab = gm_from_pairs(e);
  gclq_graph c4 = gm_query(4, std::vector<uint32_t>{0, 1, 1, 2, 2, 3, 0, 3});
  r = gm_match(kab, c4, GCLQ_MATCH_EDGE_INDUCED, 0);
  CHECK(r.count == gm_choose(5, 2) * gm_choose(6, 2) && r.automorphisms == 8);
  gclq_graph_free(&kab);
  gclq_graph_free(&c4);
  /* the triangle and 4-clique queries against ../shared/data/kcliques.tsv */
  gclq_graph k4 = gm_query(4, std::vector<uint32_t>{0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3});
  const std::vector<gm_clique_row> rows = gm_clique_rows();
  int checked = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].count > 10000000ull) continue; /* left to the GPU runs */
    gclq_graph g;
    CHECK_MSG(gclq_graph_load(rows[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS, "%s",
              rows[i].path.c_str());
    r = gm_match(g, rows[i].k == 3 ? tri : k4, GCLQ_MATCH_EDGE_INDUCED, 0);
    CHECK_MSG(r.count == rows[i].count, "%s: %llu %u-cliques matched, want %llu", rows[i].name.c_str(),
              (unsigned long long)r.count, rows[i].k, rows[i].count);
    ++checked;
    gclq_graph_free(&g);
  }
  if (rows.empty()) printf("    (the data graphs skipped: ../shared/data not found; set GPUAMQ_DATA_DIR)\n");
  else CHECK(checked >= 20);
  gclq_graph_free(&tri);
  gclq_graph_free(&wedge);
  gclq_graph_free(&k4);
}

TEST(gpm, match_bad_queries_say_why) {
  gclq_graph g, Q;
  CHECK(gclq_graph_erdos_renyi(30, 0.3, 5, &g) == GCLQ_SUCCESS);
  gclq_match_result r;
  gclq_match_options o;
  memset(&o, 0, sizeof o);
  struct bad {
    uint32_t q;
    std::vector<uint32_t> pairs;
    const char *says;
  } cases[] = {{2, {}, "not connected"},
               {4, {0, 1, 2, 3}, "not connected"},
               {11, {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10}, "more than 10 vertices"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    Q = gm_query(cases[i].q, cases[i].pairs);
    memset(&r, 0xA5, sizeof r);
    CHECK(gclq_match(&g, &Q, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, cases[i].says) != NULL &&
          r.count == 0 && r.h_matches == NULL);
    gclq_graph_free(&Q);
  }
  Q = gm_query(3, std::vector<uint32_t>{0, 1, 1, 2});
  CHECK(gclq_graph_random_labels(&Q, 2, 1) == GCLQ_SUCCESS);
  CHECK(gclq_match(&g, &Q, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "labels") != NULL);
  gclq_graph empty;
  CHECK(gclq_graph_from_edges(NULL, NULL, 0, &empty) == GCLQ_SUCCESS);
  CHECK(gclq_match(&g, &empty, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "no vertices") != NULL);
  CHECK(gclq_match(&empty, &Q, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT); /* labelled query, unlabelled graph */
  gclq_graph_free(&Q);
  Q = gm_query(2, std::vector<uint32_t>{0, 1});
  CHECK(gclq_match(&empty, &Q, &o, &r) == GCLQ_SUCCESS && r.count == 0); /* nothing to find in an empty graph */
  { /* a caller's CSR of 3 vertices, no edge and no neighbour array: no match past one vertex, no
       search of a list that is not there (the csr fuzz harness found it under UBSan; its input is
       the seed tests/fuzz/seeds/csr/match_edgeless_null_neighbors) */
    uint64_t offsets[4] = {0, 0, 0, 0};
    gclq_graph bare;
    memset(&bare, 0, sizeof bare);
    bare.num_vertices = 3;
    bare.h_offsets = offsets;
    gclq_match_options h;
    memset(&h, 0, sizeof h);
    h.backend = GCLQ_BACKEND_HOST;
    h.max_stored = 5;
    CHECK(gclq_match(&bare, &Q, &h, &r) == GCLQ_SUCCESS && r.count == 0 && r.stored == 0);
  }
  CHECK(gclq_match(NULL, &Q, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "NULL") != NULL);
  CHECK(gclq_match(&g, NULL, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_match(&g, &Q, &o, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.mode = (gclq_match_mode)9;
  CHECK(gclq_match(&g, &Q, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "out of range") != NULL);
  o.mode = GCLQ_MATCH_EDGE_INDUCED;
  o.backend = GCLQ_BACKEND_CUDA;
  o.max_stored = 1; /* listing on CUDA: a device's rows, or none to run on */
  CHECK(g_test.have_gpu ? gclq_match(&g, &Q, &o, &r) == GCLQ_SUCCESS && r.stored == 1 && r.backend == GCLQ_BACKEND_CUDA
                        : gclq_match(&g, &Q, &o, &r) == GCLQ_ERROR_NO_DEVICE && r.stored == 0);
  gclq_match_result_free(&r);
  o.max_stored = 0;
  o.backend = GCLQ_BACKEND_AUTO;
  CHECK(gclq_match(&g, &Q, NULL, &r) == GCLQ_SUCCESS && r.count == g.num_edges &&
        r.backend == (g_test.have_gpu ? GCLQ_BACKEND_CUDA : GCLQ_BACKEND_HOST) && r.message[0] == 0);
  gclq_match_result_free(&r);
  /* every allocation failing in turn, with rows kept (HOST's search) */
  o.max_stored = 1000;
  o.backend = GCLQ_BACKEND_HOST;
  for (long long k = 0; k < 40; ++k) {
    const long long live = g_alloc_live;
    g_alloc_fail_at = g_alloc_calls + k;
    const gclq_status st = gclq_match(&g, &Q, &o, &r);
    const bool never_came = g_alloc_fail_at >= g_alloc_calls;
    g_alloc_fail_at = -1;
    if (never_came) {
      CHECK(st == GCLQ_SUCCESS && r.stored == r.count);
      gclq_match_result_free(&r);
      CHECK(g_alloc_live == live);
      break;
    }
    CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && r.h_matches == NULL && g_alloc_live == live, "allocation %lld: %s", k,
              gclq_status_string(st));
  }
  gclq_graph_free(&Q);
  gclq_graph_free(&empty);
  gclq_graph_free(&g);
}

/* ---- frequent pattern mining ---- */

/* This file's canonical form of a labelled pattern: the smallest (labels,
   edge mask) over every permutation; *best_perms: every permutation (old
   vertex -> new position) that gives it. */
typedef std::pair<std::vector<uint32_t>, uint32_t> gm_lkey;
static gm_lkey gm_lcanon(const std::vector<uint32_t> &labels, uint32_t mask,
                         std::vector<std::vector<uint32_t> > *best_perms) {
  const uint32_t v = (uint32_t)labels.size();
  std::vector<uint32_t> perm(v);
  for (uint32_t i = 0; i < v; ++i) perm[i] = i;
  gm_lkey best(std::vector<uint32_t>(), ~0u);
  bool first = true;
  do {
    gm_lkey k(std::vector<uint32_t>(v), 0);
    for (uint32_t i = 0; i < v; ++i) k.first[perm[i]] = labels[i];
    for (uint32_t i = 0; i < v; ++i)
      for (uint32_t j = i + 1; j < v; ++j)
        if (gm_has(v, mask, i, j)) k.second |= 1u << gm_bit(v, perm[i], perm[j]);
    if (first || k < best) {
      best = k, first = false;
      if (best_perms) best_perms->clear();
    }
    if (best_perms && k == best) best_perms->push_back(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

/* Every connected labelled pattern of 1 .. max_edges edges and its MNI
   support, by brute force: each connected set of the graph's edges is one
   occurrence, and each way its vertices map onto the canonical pattern one
   embedding. */
static std::map<gm_lkey, uint64_t> gm_brute_fpm(const gclq_graph &g, uint32_t max_edges) {
  std::vector<std::pair<uint32_t, uint32_t> > edges;
  for (uint32_t v = 0; v < g.num_vertices; ++v)
    for (uint64_t i = g.h_offsets[v]; i < g.h_offsets[v + 1]; ++i)
      if (v < g.h_neighbors[i]) edges.push_back(std::make_pair(v, g.h_neighbors[i]));
  std::map<gm_lkey, std::vector<std::set<uint32_t> > > domains;
  const uint32_t m = (uint32_t)edges.size();
  for (uint32_t set = 1; m <= 20 && set < (1u << m); ++set) {
    if ((uint32_t)__builtin_popcount(set) > max_edges) continue;
    std::vector<uint32_t> xs; /* the occurrence's vertices */
    for (uint32_t i = 0; i < m; ++i)
      if ((set >> i) & 1u) xs.push_back(edges[i].first), xs.push_back(edges[i].second);
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    const uint32_t v = (uint32_t)xs.size();
    uint32_t mask = 0;
    for (uint32_t i = 0; i < m; ++i)
      if ((set >> i) & 1u) {
        const uint32_t a = (uint32_t)(std::lower_bound(xs.begin(), xs.end(), edges[i].first) - xs.begin());
        const uint32_t b = (uint32_t)(std::lower_bound(xs.begin(), xs.end(), edges[i].second) - xs.begin());
        mask |= 1u << gm_bit(v, a, b);
      }
    if (!gm_connected(v, mask)) continue;
    std::vector<uint32_t> labels(v);
    for (uint32_t i = 0; i < v; ++i) labels[i] = g.h_labels ? g.h_labels[xs[i]] : 0;
    std::vector<std::vector<uint32_t> > perms;
    const gm_lkey key = gm_lcanon(labels, mask, &perms);
    std::vector<std::set<uint32_t> > &d = domains[key];
    d.resize(v);
    for (size_t p = 0; p < perms.size(); ++p)
      for (uint32_t i = 0; i < v; ++i) d[perms[p][i]].insert(xs[i]);
  }
  std::map<gm_lkey, uint64_t> support;
  for (std::map<gm_lkey, std::vector<std::set<uint32_t> > >::const_iterator it = domains.begin(); it != domains.end();
       ++it) {
    uint64_t s = UINT64_MAX;
    for (size_t i = 0; i < it->second.size(); ++i) s = std::min<uint64_t>(s, it->second[i].size());
    support[it->first] = s;
  }
  return support;
}

TEST(gpm, fpm_equals_brute_force) {
  test_rng rng = test_rng_for("gpm.fpm_random");
  const uint32_t sizes[] = {0, 1, 2, 5, 7};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
    for (uint32_t nl = 0; nl <= 3; ++nl) { /* 0: unlabelled */
      gclq_graph g;
      CHECK(gclq_graph_erdos_renyi(sizes[si], 0.45, rng.next(), &g) == GCLQ_SUCCESS);
      if (nl > 0) CHECK(gclq_graph_random_labels(&g, nl, rng.next()) == GCLQ_SUCCESS);
      if (g.num_edges > 14) { /* the brute force walks 2^m edge sets */
        gclq_graph_free(&g);
        continue;
      }
      for (uint32_t max_edges = 1; max_edges <= 4; ++max_edges) {
        const std::map<gm_lkey, uint64_t> all = gm_brute_fpm(g, max_edges);
        for (uint64_t s = 1; s <= 3; ++s)
          for (int way = 0; way < (g_test.have_gpu ? 3 : 2); ++way) { /* SEARCH, TABLE on HOST, TABLE on CUDA */
          gclq_fpm_options o;
          memset(&o, 0, sizeof o);
          o.min_support = s;
          o.max_edges = max_edges;
          o.method = way == 0 ? GCLQ_FPM_SEARCH : GCLQ_FPM_TABLE;
          o.backend = way == 2 ? GCLQ_BACKEND_CUDA : GCLQ_BACKEND_HOST;
          gclq_fpm_result r;
          memset(&r, 0xA5, sizeof r);
          const long long live = g_alloc_live;
          const gclq_status st = gclq_fpm(&g, &o, &r);
          CHECK_MSG(st == GCLQ_SUCCESS, "way %d: %s (%s)", way, gclq_status_string(st), r.message);
          if (st != GCLQ_SUCCESS) continue;
          CHECK(r.method == o.method && r.backend == o.backend);
          std::map<gm_lkey, uint64_t> want;
          for (std::map<gm_lkey, uint64_t>::const_iterator it = all.begin(); it != all.end(); ++it)
            if (it->second >= s) want.insert(*it);
          CHECK_MSG(r.num_patterns == want.size(), "way %d n %u labels %u max_edges %u support %llu: %llu patterns, want %zu",
                    way, sizes[si], nl, max_edges, (unsigned long long)s, (unsigned long long)r.num_patterns, want.size());
          for (uint64_t i = 0; i < r.num_patterns; ++i) {
            const gclq_fpm_pattern &p = r.h_patterns[i];
            std::vector<uint32_t> labels(p.labels, p.labels + p.num_vertices);
            uint32_t mask = 0;
            for (uint32_t e = 0; e < p.num_edges; ++e) mask |= 1u << gm_bit(p.num_vertices, p.edges[e][0], p.edges[e][1]);
            const gm_lkey key = gm_lcanon(labels, mask, NULL);
            std::map<gm_lkey, uint64_t>::const_iterator it = want.find(key);
            CHECK_MSG(it != want.end() && it->second == p.support, "n %u labels %u: pattern %s support %llu, want %llu",
                      sizes[si], nl, p.code, (unsigned long long)p.support,
                      (unsigned long long)(it == want.end() ? 0 : it->second));
            if (i > 0) CHECK(r.h_patterns[i - 1].num_edges <= p.num_edges);
          }
          gclq_fpm_result_free(&r);
          CHECK(g_alloc_live == live);
          }
      }
      gclq_graph_free(&g);
    }
}

TEST(gpm, fpm_closed_forms_codes_and_bad_arguments) {
  std::vector<std::pair<uint64_t, uint64_t> > e;
  for (uint64_t u = 0; u < 5; ++u)
    for (uint64_t v = u + 1; v < 5; ++v) e.push_back(std::make_pair(u, v));
  gclq_graph k5 = gm_from_pairs(e);
  gclq_fpm_options o;
  memset(&o, 0, sizeof o);
  o.max_edges = 3;
  o.min_support = 5; /* K_5 is vertex-transitive: every pattern that fits has support 5 */
  o.backend = GCLQ_BACKEND_HOST;
  gclq_fpm_result r;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_SUCCESS && r.num_patterns == 5 && r.backend == GCLQ_BACKEND_HOST &&
        r.method == GCLQ_FPM_SEARCH);
  for (uint64_t i = 0; i < r.num_patterns; ++i) CHECK(r.h_patterns[i].support == 5);
  CHECK(strcmp(r.h_patterns[0].code, "(0,0)[0-1]") == 0); /* the edge first */
  gclq_fpm_result_free(&r);
  o.min_support = 6;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_SUCCESS && r.num_patterns == 0 && r.h_patterns == NULL);
  /* a labelled edge: labels sorted in the code */
  gclq_graph edge = gm_from_pairs(std::vector<std::pair<uint64_t, uint64_t> >{std::make_pair(0, 1)});
  CHECK(gclq_graph_parse_labels("0 3\n1 1\n", 8, &edge, NULL) == GCLQ_SUCCESS);
  o.min_support = 1;
  CHECK(gclq_fpm(&edge, &o, &r) == GCLQ_SUCCESS && r.num_patterns == 1 && strcmp(r.h_patterns[0].code, "(1,3)[0-1]") == 0);
  gclq_fpm_result_free(&r);
  gclq_graph_free(&edge);
  /* bad arguments say why */
  CHECK(gclq_fpm(NULL, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "NULL") != NULL);
  CHECK(gclq_fpm(&k5, NULL, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_fpm(&k5, &o, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.min_support = 0;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "min_support") != NULL);
  o.min_support = 1;
  o.max_edges = GCLQ_FPM_MAX_EDGES + 1;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "max_edges") != NULL);
  o.max_edges = 0;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.max_edges = 2;
  o.backend = GCLQ_BACKEND_CUDA;
  o.method = GCLQ_FPM_SEARCH;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_ERROR_BACKEND_UNAVAILABLE && strstr(r.message, "HOST only") != NULL);
  o.method = (gclq_fpm_method)3;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && strstr(r.message, "method") != NULL);
  o.method = (gclq_fpm_method)-1;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.method = GCLQ_FPM_TABLE;
  if (!g_test.have_gpu) CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_ERROR_NO_DEVICE && r.h_patterns == NULL && r.message[0] != 0);
  /* AUTO: CUDA's TABLE with a device, else HOST's SEARCH */
  o.backend = GCLQ_BACKEND_AUTO;
  o.method = GCLQ_FPM_AUTO;
  CHECK(gclq_fpm(&k5, &o, &r) == GCLQ_SUCCESS && r.num_patterns == 2);
  CHECK(g_test.have_gpu ? r.backend == GCLQ_BACKEND_CUDA && r.method == GCLQ_FPM_TABLE
                        : r.backend == GCLQ_BACKEND_HOST && r.method == GCLQ_FPM_SEARCH);
  gclq_fpm_result_free(&r);
  /* every allocation failing in turn, on HOST by both methods, until the call needs none more:
     out of memory with nothing held, or the right answer (a graph without symmetry: a block
     skipped shows) when the call recovers: SEARCH's matcher without its lists by label (the
     patterns of 2 and 3 edges are labelled queries of 3 or 4 vertices), TABLE's last level
     retried in smaller task blocks; both recover at least once */
  gclq_graph lg;
  CHECK(gclq_graph_erdos_renyi(14, 0.35, 77, &lg) == GCLQ_SUCCESS);
  CHECK(gclq_graph_random_labels(&lg, 2, 78) == GCLQ_SUCCESS);
  o.min_support = 2;
  o.max_edges = 3;
  o.backend = GCLQ_BACKEND_HOST;
  o.method = GCLQ_FPM_SEARCH;
  gclq_fpm_result want;
  CHECK(gclq_fpm(&lg, &o, &want) == GCLQ_SUCCESS && want.num_patterns > 5);
  for (int way = 0; way < 2; ++way) {
    long long k = 0, recovered = 0;
    o.method = way == 0 ? GCLQ_FPM_SEARCH : GCLQ_FPM_TABLE;
    for (;; ++k) {
      const long long live = g_alloc_live;
      g_alloc_fail_at = g_alloc_calls + k;
      memset(&r, 0xA5, sizeof r);
      const gclq_status st = gclq_fpm(&lg, &o, &r);
      const bool never_came = g_alloc_fail_at >= g_alloc_calls;
      g_alloc_fail_at = -1;
      if (st == GCLQ_SUCCESS) {
        bool same = r.num_patterns == want.num_patterns;
        for (uint64_t i = 0; same && i < r.num_patterns; ++i)
          same = strcmp(r.h_patterns[i].code, want.h_patterns[i].code) == 0 &&
                 r.h_patterns[i].support == want.h_patterns[i].support;
        CHECK_MSG(same, "way %d allocation %lld: %llu patterns, want %llu", way, k,
                  (unsigned long long)r.num_patterns, (unsigned long long)want.num_patterns);
        gclq_fpm_result_free(&r);
        recovered += !never_came;
      } else {
        CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && r.h_patterns == NULL, "way %d allocation %lld: %s", way, k,
                  gclq_status_string(st));
      }
      CHECK(g_alloc_live == live);
      if (never_came) break;
    }
    CHECK_MSG(k >= 3 && recovered > 0, "way %d: %lld allocations, %lld recovered", way, k, recovered);
  }
  gclq_fpm_result_free(&want);
  gclq_graph_free(&lg);
  gclq_graph_free(&k5);
}

/* FPM by TABLE on backend under a ladder of caps, from top down by a fifth
   to bottom: the table's max_table_bytes, or (device nonzero) the device
   budget. Each run SEARCH's patterns (want) or out of memory, both seen;
   near the edge the middle and last levels go in task blocks of a few
   parents (a block skipped or doubled shows in the supports), and where the
   middle level's frequent rows do not fit, the last is made depth first
   (*deep: the runs that did, with the right answer). */
static void gm_fpm_ladder(const gclq_graph &g, const gclq_fpm_options &base, const gclq_fpm_result &want,
                          gclq_backend backend, int device, uint64_t top, uint64_t bottom, int *deep = NULL) {
  struct lines {
    static void fn(void *user, const char *line) {
      if (strstr(line, "depth first") != NULL) *(int *)user = 1;
    }
  };
  gclq_fpm_options o = base;
  gclq_fpm_result r;
  int ok = 0, oom = 0, went_deep = 0;
  o.backend = backend;
  o.method = GCLQ_FPM_TABLE;
  o.log = lines::fn;
  o.log_user = &went_deep;
  if (deep != NULL) *deep = 0;
  for (uint64_t cap = top; cap >= bottom && !g_test.failed; cap = cap * 4 / 5) {
    if (device) o.device_budget_bytes = (size_t)cap;
    else o.max_table_bytes = cap;
    memset(&r, 0xA5, sizeof r);
    went_deep = 0;
    const gclq_status st = gclq_fpm(&g, &o, &r);
    if (st == GCLQ_ERROR_OUT_OF_MEMORY) {
      CHECK_MSG(r.h_patterns == NULL && r.num_patterns == 0 && strstr(r.message, "-edge embeddings do not fit") != NULL,
                "cap %llu: message \"%s\"", (unsigned long long)cap, r.message);
      ++oom;
      continue;
    }
    CHECK_MSG(st == GCLQ_SUCCESS && r.num_patterns == want.num_patterns && r.backend == backend,
              "cap %llu: %s, %llu patterns, want %llu", (unsigned long long)cap, gclq_status_string(st),
              (unsigned long long)r.num_patterns, (unsigned long long)want.num_patterns);
    for (uint64_t i = 0; i < r.num_patterns && i < want.num_patterns; ++i)
      CHECK_MSG(strcmp(r.h_patterns[i].code, want.h_patterns[i].code) == 0 &&
                    r.h_patterns[i].support == want.h_patterns[i].support,
                "cap %llu pattern %s support %llu, want %s %llu", (unsigned long long)cap, r.h_patterns[i].code,
                (unsigned long long)r.h_patterns[i].support, want.h_patterns[i].code,
                (unsigned long long)want.h_patterns[i].support);
    gclq_fpm_result_free(&r);
    ++ok;
    if (deep != NULL) *deep += went_deep;
  }
  CHECK_MSG(ok > 0 && oom > 0, "%d caps ran, %d were out of memory", ok, oom);
}

/* A labelled R-MAT graph of scale (edge factor 8, labels values), options
   of 3 edges and support min_support + a draw below spread, and its FPM by
   SEARCH on HOST (want, more than `more` patterns). */
static void gm_fpm_want(test_rng &rng, int scale, uint32_t labels, uint64_t min_support, uint64_t spread,
                        uint64_t more, gclq_graph *g, gclq_fpm_options *o, gclq_fpm_result *want) {
  CHECK(gclq_graph_rmat(scale, 8, rng.next(), g) == GCLQ_SUCCESS);
  CHECK(gclq_graph_random_labels(g, labels, rng.next()) == GCLQ_SUCCESS);
  memset(o, 0, sizeof *o);
  o->min_support = min_support + rng.below(spread);
  o->max_edges = 3;
  o->backend = GCLQ_BACKEND_HOST;
  CHECK(gclq_fpm(g, o, want) == GCLQ_SUCCESS && want->num_patterns > more);
}

/* A labelled R-MAT 7 graph and its FPM by SEARCH (3 edges), then the ladder of max_table_bytes:
   some caps hold the 2-edge level in task blocks but not its frequent rows (depth first, seen). */
static void gm_fpm_cap(gclq_backend backend, const char *seed_name) {
  test_rng rng = test_rng_for(seed_name);
  gclq_graph g;
  gclq_fpm_options o;
  gclq_fpm_result want;
  gm_fpm_want(rng, 7, 2, 3, 5, 3, &g, &o, &want);
  CHECK_OK_SO_FAR();
  int deep = 0;
  gm_fpm_ladder(g, o, want, backend, 0, (uint64_t)1 << 22, 1024, &deep);
  CHECK_MSG(deep > 0, "no cap made the last level depth first");
  gclq_fpm_result_free(&want);
  gclq_graph_free(&g);
}

TEST(gpm, fpm_table_in_task_blocks_under_a_cap) { gm_fpm_cap(GCLQ_BACKEND_HOST, "gpm.fpm_cap"); }
GPU_TEST(gpm, fpm_cuda_table_in_task_blocks_under_a_cap) { gm_fpm_cap(GCLQ_BACKEND_CUDA, "gpm.fpm_cuda_cap"); }

/* CUDA's TABLE: the same patterns as SEARCH on an R-MAT graph under a
   ladder of device budgets (each run the right answer or out of memory,
   both seen: the budgets near the edge split the last level into task
   blocks); more than 16 labels is backend unavailable; AUTO falls back to
   HOST's SEARCH in both cases. */
GPU_TEST(gpm, fpm_cuda_budgets_labels_and_auto_fallback) {
  test_rng rng = test_rng_for("gpm.fpm_cuda");
  gclq_graph g;
  gclq_fpm_options o;
  gclq_fpm_result want, r;
  gm_fpm_want(rng, 9, 3, 10, 20, 0, &g, &o, &want);
  CHECK_OK_SO_FAR();
  gm_fpm_ladder(g, o, want, GCLQ_BACKEND_CUDA, 1, (uint64_t)1 << 30, 4096);
  /* AUTO under a budget too small: HOST's SEARCH, the same patterns */
  o.backend = GCLQ_BACKEND_AUTO;
  o.device_budget_bytes = 4096;
  CHECK(gclq_fpm(&g, &o, &r) == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_HOST && r.method == GCLQ_FPM_SEARCH &&
        r.num_patterns == want.num_patterns);
  gclq_fpm_result_free(&r);
  /* 17 labels: CUDA cannot key them; AUTO runs SEARCH */
  o.device_budget_bytes = 0;
  o.min_support = 1;
  o.max_edges = 1;
  CHECK(gclq_graph_random_labels(&g, 17, 5) == GCLQ_SUCCESS);
  o.backend = GCLQ_BACKEND_CUDA;
  CHECK(gclq_fpm(&g, &o, &r) == GCLQ_ERROR_BACKEND_UNAVAILABLE && r.h_patterns == NULL);
  o.backend = GCLQ_BACKEND_AUTO;
  CHECK(gclq_fpm(&g, &o, &r) == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_HOST && r.num_patterns > 16);
  gclq_fpm_result_free(&r);
  gclq_fpm_result_free(&want);
  gclq_graph_free(&g);
}
