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

/* Triangles (and 4-cliques on the small graphs) of ../shared/data. */
TEST(gpm, motif_cliques_match_the_data_graphs) {
  const char *dir = test_data_dir();
  if (dir == NULL) {
    printf("    skipped: data dir absent (../shared/data not found; set GPUAMQ_DATA_DIR)\n");
    g_test.skipped = 1;
    return;
  }
  FILE *f = fopen((std::string(dir) + "/kcliques.tsv").c_str(), "rb");
  CHECK(f != NULL);
  if (f == NULL) return;
  char line[512];
  int checked = 0;
  while (fgets(line, sizeof line, f)) {
    char name[256];
    unsigned k;
    unsigned long long c;
    if (line[0] == '#' || sscanf(line, "%255s %u %llu", name, &k, &c) != 3 || (k != 3 && k != 4)) continue;
    if (std::string(name) == "facebook_combined") continue; /* 30 million connected triples: left to the GPU runs */
    std::string path = std::string(dir) + "/snap/" + name + ".txt";
    FILE *t = fopen(path.c_str(), "rb");
    if (t) fclose(t);
    else path = std::string(dir) + "/dimacs/" + name + ".clq";
    gclq_graph g;
    CHECK_MSG(gclq_graph_load(path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS, "%s", path.c_str());
    if (k == 4 && g.num_vertices > 70) { /* 4-subsets of the larger graphs: too many to walk here */
      gclq_graph_free(&g);
      continue;
    }
    const gclq_motif_result r = gm_run(g, k);
    CHECK_MSG(r.counts[k == 3 ? 0 : 5] == c, "%s: %llu %u-cliques, want %llu", name,
              (unsigned long long)r.counts[k == 3 ? 0 : 5], k, c);
    ++checked;
    gclq_graph_free(&g);
  }
  fclose(f);
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
  o.backend = GCLQ_BACKEND_CUDA;
  memset(&r, 0xA5, sizeof r);
  CHECK(gclq_motifs(&g, 3, &o, &r) == GCLQ_ERROR_BACKEND_UNAVAILABLE && memcmp(&r, &zero, sizeof r) == 0);
  o.backend = GCLQ_BACKEND_AUTO; /* HOST in this release */
  CHECK(gclq_motifs(&g, 4, &o, &r) == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_HOST);
  CHECK(gclq_motifs(&g, 4, NULL, &r) == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_HOST);
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
  /* every allocation failing in turn */
  for (long long k = 0; k < 10; ++k) {
    const long long live = g_alloc_live;
    g_alloc_fail_at = g_alloc_calls + k;
    memset(&r, 0xA5, sizeof r);
    const gclq_status st = gclq_motifs(&g, 5, NULL, &r);
    const bool never_came = g_alloc_fail_at >= g_alloc_calls;
    g_alloc_fail_at = -1;
    CHECK(g_alloc_live == live);
    if (never_came) {
      CHECK(st == GCLQ_SUCCESS);
      break;
    }
    CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && memcmp(&r, &zero, sizeof r) == 0, "allocation %lld: %s", k,
              gclq_status_string(st));
  }
  gclq_graph_free(&g);
}
