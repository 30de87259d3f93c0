/* test_host_clique.cu - the host references of the graph half (k-core numbers,
   triangle and 4-clique counts, maximum cliques) against brute force on small
   graphs and against the reference values of the graphs in shared/data.

   The references run through the public calls with the HOST backend
   (tests/internal_clique.h). This file compiles its own copy of the
   implementation: GPUCLIQUE_STATIC makes every function of it static here,
   so nothing clashes with test_api.cu's copy at link time. The
   host allocator is routed through hooks that count allocations and can be
   told to fail the k-th one (allocation-failure tests, leak checks). */
#include <stdlib.h>
#include <time.h>

#include "counting_alloc.h"
#define GCLQ_MALLOC(sz) counting_malloc(sz)
#define GCLQ_FREE(p) counting_free(p)
#define GCLQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUCLIQUE_STATIC
#define GPUCLIQUE_TESTING
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"
#include "internal_clique.h"

#include <map>
#include <set>
#include <utility>

#include "testing.h"

/* ---- graphs built here (independent of the loaders in gpuclique.h) -- */

/* A gclq_graph whose arrays live in vectors: simple, undirected, sorted. */
struct hgraph {
  std::vector<uint64_t> off;
  std::vector<uint32_t> nbr;
  std::vector<uint64_t> ids;
  gclq_graph g;
  hgraph() { memset(&g, 0, sizeof g); }
  bool adjacent(uint32_t u, uint32_t v) const {
    return std::binary_search(nbr.begin() + (long)off[u], nbr.begin() + (long)off[u + 1], v);
  }
  uint32_t degree(uint32_t v) const { return (uint32_t)(off[v + 1] - off[v]); }
};
typedef std::vector<std::pair<uint32_t, uint32_t> > edge_list;

/* CSR from an edge list on vertices 0 .. n - 1: loops and repeats dropped. */
static void make_graph(uint32_t n, const edge_list &edges, hgraph &h) {
  std::vector<std::pair<uint32_t, uint32_t> > arcs;
  for (size_t i = 0; i < edges.size(); ++i) {
    uint32_t u = edges[i].first, v = edges[i].second;
    if (u == v) continue;
    arcs.push_back(std::make_pair(u, v));
    arcs.push_back(std::make_pair(v, u));
  }
  std::sort(arcs.begin(), arcs.end());
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
  h.off.assign((size_t)n + 1, 0);
  h.nbr.resize(arcs.size());
  for (size_t i = 0; i < arcs.size(); ++i) {
    ++h.off[arcs[i].first + 1];
    h.nbr[i] = arcs[i].second;
  }
  for (uint32_t v = 0; v < n; ++v) h.off[v + 1] += h.off[v];
  h.ids.resize(n);
  for (uint32_t v = 0; v < n; ++v) h.ids[v] = v;
  h.g.num_vertices = n;
  h.g.num_edges = arcs.size() / 2;
  h.g.h_offsets = h.off.data();
  h.g.h_neighbors = h.nbr.empty() ? NULL : h.nbr.data();
  h.g.h_original_ids = h.ids.empty() ? NULL : h.ids.data();
}

/* Take over a graph built by the library (loader, generator): copy its
   arrays into h, then free it. */
static void adopt_graph(gclq_graph &lib, hgraph &h) {
  uint32_t n = lib.num_vertices;
  h.off.assign(lib.h_offsets, lib.h_offsets + (n ? (size_t)n + 1 : 0));
  if (n == 0) h.off.assign(1, 0);
  h.nbr.assign(lib.h_neighbors, lib.h_neighbors + 2 * lib.num_edges);
  h.ids.assign(lib.h_original_ids, lib.h_original_ids + (lib.h_original_ids ? n : 0));
  h.g = lib;
  h.g.h_offsets = h.off.data();
  h.g.h_neighbors = h.nbr.empty() ? NULL : h.nbr.data();
  h.g.h_original_ids = h.ids.empty() ? NULL : h.ids.data();
  gclq_graph_free(&lib);
}

static edge_list complete_edges(uint32_t first, uint32_t n) {
  edge_list e;
  for (uint32_t u = 0; u < n; ++u)
    for (uint32_t v = u + 1; v < n; ++v) e.push_back(std::make_pair(first + u, first + v));
  return e;
}
static void random_graph(uint32_t n, double p, test_rng &rng, hgraph &h) {
  edge_list e;
  for (uint32_t u = 0; u < n; ++u)
    for (uint32_t v = u + 1; v < n; ++v)
      if ((double)(rng.next() >> 11) * (1.0 / 9007199254740992.0) < p) e.push_back(std::make_pair(u, v));
  make_graph(n, e, h);
}

/* ---- naive answers ------------------------------------------------------ */

/* Maximum cliques by trying every subset (n <= 20): omega, and the cliques
   as sorted id lists in lexicographic order (flattened). */
static void brute_force_max_cliques(const hgraph &h, uint32_t &omega, std::vector<uint32_t> &flat) {
  uint32_t n = h.g.num_vertices;
  std::vector<uint32_t> adj(n, 0);
  for (uint32_t v = 0; v < n; ++v)
    for (uint64_t e = h.off[v]; e < h.off[v + 1]; ++e) adj[v] |= 1u << h.nbr[e];
  omega = 0;
  std::vector<std::vector<uint32_t> > found;
  for (uint32_t mask = 1; n > 0 && mask < (1u << n); ++mask) {
    uint32_t size = (uint32_t)__builtin_popcount(mask);
    if (size < omega) continue;
    bool clique = true;
    for (uint32_t v = 0; v < n && clique; ++v)
      if ((mask >> v) & 1) clique = ((adj[v] | (1u << v)) & mask) == mask;
    if (!clique) continue;
    if (size > omega) {
      omega = size;
      found.clear();
    }
    std::vector<uint32_t> c;
    for (uint32_t v = 0; v < n; ++v)
      if ((mask >> v) & 1) c.push_back(v);
    found.push_back(c);
  }
  std::sort(found.begin(), found.end());
  flat.clear();
  for (size_t i = 0; i < found.size(); ++i) flat.insert(flat.end(), found[i].begin(), found[i].end());
}

/* Maximum cliques of a graph of at most 64 vertices by plain Bron-Kerbosch
   (every maximal clique, with Tomita's pivot, no bound): a second, unrelated
   method for graphs too large to try every subset. */
static void bk64(const std::vector<uint64_t> &adj, uint64_t R, uint64_t P, uint64_t X, uint32_t &omega,
                 std::vector<uint64_t> &best) {
  if (P == 0 && X == 0) {
    uint32_t size = (uint32_t)__builtin_popcountll(R);
    if (size > omega) omega = size, best.clear();
    if (size == omega) best.push_back(R);
    return;
  }
  uint32_t pivot = 0, most = 0;
  for (uint64_t c = P | X; c; c &= c - 1) { /* the pivot with most neighbours in P */
    uint32_t u = (uint32_t)__builtin_ctzll(c), k = (uint32_t)__builtin_popcountll(P & adj[u]);
    if (k >= most) most = k, pivot = u;
  }
  for (uint64_t c = P & ~adj[pivot]; c; c &= c - 1) {
    uint32_t v = (uint32_t)__builtin_ctzll(c);
    bk64(adj, R | (1ull << v), P & adj[v], X & adj[v], omega, best);
    P &= ~(1ull << v);
    X |= 1ull << v;
  }
}
static void bron_kerbosch_max_cliques(const hgraph &h, uint32_t &omega, std::vector<uint32_t> &flat) {
  uint32_t n = h.g.num_vertices;
  std::vector<uint64_t> adj(n, 0), best;
  for (uint32_t v = 0; v < n; ++v)
    for (uint64_t e = h.off[v]; e < h.off[v + 1]; ++e) adj[v] |= 1ull << h.nbr[e];
  omega = 0;
  bk64(adj, 0, n == 64 ? ~0ull : (1ull << n) - 1, 0, omega, best);
  std::vector<std::vector<uint32_t> > rows;
  for (size_t i = 0; i < best.size(); ++i) {
    std::vector<uint32_t> c;
    for (uint32_t v = 0; v < n; ++v)
      if ((best[i] >> v) & 1) c.push_back(v);
    rows.push_back(c);
  }
  std::sort(rows.begin(), rows.end());
  flat.clear();
  for (size_t i = 0; i < rows.size(); ++i) flat.insert(flat.end(), rows[i].begin(), rows[i].end());
}

/* Core numbers by removing a vertex of minimum degree, again and again. */
static void naive_cores(const hgraph &h, std::vector<uint32_t> &core) {
  uint32_t n = h.g.num_vertices, k = 0;
  std::vector<uint32_t> deg(n);
  std::vector<char> gone(n, 0);
  core.assign(n, 0);
  for (uint32_t v = 0; v < n; ++v) deg[v] = h.degree(v);
  for (uint32_t step = 0; step < n; ++step) {
    uint32_t best = UINT32_MAX, pick = 0;
    for (uint32_t v = 0; v < n; ++v)
      if (!gone[v] && deg[v] < best) best = deg[v], pick = v;
    k = std::max(k, best);
    core[pick] = k;
    gone[pick] = 1;
    for (uint64_t e = h.off[pick]; e < h.off[pick + 1]; ++e)
      if (!gone[h.nbr[e]]) --deg[h.nbr[e]];
  }
}

/* Triangles and 4-cliques over all vertex triples / quadruples. */
static uint64_t naive_triangles(const hgraph &h) {
  uint32_t n = h.g.num_vertices;
  uint64_t t = 0;
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = a + 1; b < n; ++b)
      if (h.adjacent(a, b))
        for (uint32_t c = b + 1; c < n; ++c) t += h.adjacent(a, c) && h.adjacent(b, c);
  return t;
}
static uint64_t naive_4cliques(const hgraph &h) {
  uint32_t n = h.g.num_vertices;
  uint64_t t = 0;
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = a + 1; b < n; ++b) {
      if (!h.adjacent(a, b)) continue;
      for (uint32_t c = b + 1; c < n; ++c) {
        if (!h.adjacent(a, c) || !h.adjacent(b, c)) continue;
        for (uint32_t d = c + 1; d < n; ++d) t += h.adjacent(a, d) && h.adjacent(b, d) && h.adjacent(c, d);
      }
    }
  return t;
}

/* ---- checks ------------------------------------------------------------- */

/* Is every listed clique a clique of g, ascending, and the list strictly
   increasing (no clique twice)? */
static bool cliques_well_formed(const hgraph &h, const uint32_t *c, uint64_t count, uint32_t omega) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t *row = c + i * omega;
    for (uint32_t a = 0; a < omega; ++a) {
      if (row[a] >= h.g.num_vertices) return false;
      if (a > 0 && row[a - 1] >= row[a]) return false;
      for (uint32_t b = a + 1; b < omega; ++b)
        if (!h.adjacent(row[a], row[b])) return false;
    }
    if (i > 0 && !std::lexicographical_compare(row - omega, row, row, row + omega)) return false;
  }
  return true;
}

/* Run all three references on h and compare with the given answers (the
   clique list too when want_cliques is not NULL; want_triangles ANY64 and
   want_max_core ANY32 skip those checks). */
static const uint64_t ANY64 = UINT64_MAX;
static const uint32_t ANY32 = UINT32_MAX;
static void check_graph(const char *what, const hgraph &h, uint32_t want_omega, uint64_t want_count,
                        const std::vector<uint32_t> *want_cliques, uint64_t want_triangles, uint32_t want_max_core) {
  uint32_t omega = 77;
  uint64_t count = 77;
  uint32_t *cl = NULL;
  CHECK_MSG(cliqt_max_cliques(&h.g, 0, &omega, &count, &cl) == GCLQ_SUCCESS, "%s: max_cliques failed", what);
  CHECK_MSG(omega == want_omega && count == want_count, "%s: omega %u count %llu, want %u and %llu", what, omega,
            (unsigned long long)count, want_omega, (unsigned long long)want_count);
  CHECK_MSG(cliques_well_formed(h, cl, count, omega), "%s: the clique list is not sorted cliques", what);
  CHECK_MSG(count == 0 || cl != NULL, "%s: no clique list", what);
  if (want_cliques) {
    CHECK_MSG(want_cliques->size() == count * omega, "%s: clique list size", what);
    CHECK_ARRAYS(want_cliques->data(), cl, want_cliques->size(), what);
  }
  /* find one: same omega, one clique, a member of the list */
  uint32_t omega1 = 77, *one = NULL;
  uint64_t count1 = 77;
  CHECK(cliqt_max_cliques(&h.g, 1, &omega1, &count1, &one) == GCLQ_SUCCESS);
  CHECK_MSG(omega1 == omega && count1 == (omega ? 1u : 0u), "%s: find one gave omega %u count %llu", what, omega1,
            (unsigned long long)count1);
  if (omega > 0) {
    bool member = false;
    for (uint64_t i = 0; i < count && !member; ++i) member = memcmp(cl + i * omega, one, omega * sizeof(uint32_t)) == 0;
    CHECK_MSG(member && cliques_well_formed(h, one, 1, omega), "%s: find one gave a clique not in the list", what);
  }
  GCLQ_FREE(cl);
  GCLQ_FREE(one);
  /* count only (no list) */
  CHECK(cliqt_max_cliques(&h.g, 0, &omega1, &count1, NULL) == GCLQ_SUCCESS);
  CHECK_MSG(omega1 == omega && count1 == count, "%s: counting without a list differs", what);

  uint64_t tri = 77;
  CHECK(cliqt_count_triangles(&h.g, &tri) == GCLQ_SUCCESS);
  CHECK_MSG(want_triangles == ANY64 || tri == want_triangles, "%s: triangles %llu, want %llu", what, (unsigned long long)tri,
            (unsigned long long)want_triangles);
  std::vector<uint32_t> core(h.g.num_vertices + 1);
  uint32_t max_core = 77;
  CHECK(cliqt_core_numbers(&h.g, core.data(), &max_core) == GCLQ_SUCCESS);
  CHECK_MSG(want_max_core == ANY32 || max_core == want_max_core, "%s: max core %u, want %u", what, max_core, want_max_core);
}

static std::vector<uint32_t> rows(std::initializer_list<uint32_t> ids) { return std::vector<uint32_t>(ids); }

/* ---- tests -------------------------------------------------------------- */

TEST(host_clique, hand_made_graphs) {
  hgraph h;
  /* no vertices: omega 0, count 0 */
  make_graph(0, edge_list(), h);
  check_graph("empty", h, 0, 0, NULL, 0, 0);
  CHECK_OK_SO_FAR();
  /* one vertex; five vertices and no edges: omega 1, each vertex a clique */
  make_graph(1, edge_list(), h);
  std::vector<uint32_t> one = rows({0});
  check_graph("one vertex", h, 1, 1, &one, 0, 0);
  CHECK_OK_SO_FAR();
  make_graph(5, edge_list(), h);
  std::vector<uint32_t> five = rows({0, 1, 2, 3, 4});
  check_graph("edgeless", h, 1, 5, &five, 0, 0);
  CHECK_OK_SO_FAR();
  /* K_n: omega n, one clique, C(n,3) triangles, core n - 1 */
  for (uint32_t n = 2; n <= 40; n += (n < 10 ? 1 : 10)) {
    make_graph(n, complete_edges(0, n), h);
    std::vector<uint32_t> all;
    for (uint32_t v = 0; v < n; ++v) all.push_back(v);
    char name[32];
    snprintf(name, sizeof name, "K%u", n);
    check_graph(name, h, n, 1, &all, (uint64_t)n * (n - 1) * (n - 2) / 6, n - 1);
    CHECK_OK_SO_FAR();
    uint64_t q = 0;
    CHECK(cliqt_count_4cliques(&h.g, &q) == GCLQ_SUCCESS);
    CHECK_EQ(q, (uint64_t)n * (n - 1) * (n - 2) * (n - 3) / 24);
  }
  /* path 0-1-2-3-4: four edges are the maximum cliques */
  edge_list e;
  for (uint32_t v = 0; v + 1 < 5; ++v) e.push_back(std::make_pair(v, v + 1));
  make_graph(5, e, h);
  std::vector<uint32_t> path = rows({0, 1, 1, 2, 2, 3, 3, 4});
  check_graph("path", h, 2, 4, &path, 0, 1);
  CHECK_OK_SO_FAR();
  /* cycles: C3 is a triangle, C5 has five edges as maximum cliques */
  e.push_back(std::make_pair(4u, 0u));
  make_graph(5, e, h);
  std::vector<uint32_t> c5 = rows({0, 1, 0, 4, 1, 2, 2, 3, 3, 4});
  check_graph("C5", h, 2, 5, &c5, 0, 2);
  CHECK_OK_SO_FAR();
  make_graph(3, complete_edges(0, 3), h);
  check_graph("C3", h, 3, 1, NULL, 1, 2);
  CHECK_OK_SO_FAR();
  /* star: centre 3, leaves 0..6 except 3 */
  e.clear();
  for (uint32_t v = 0; v < 7; ++v)
    if (v != 3) e.push_back(std::make_pair(3u, v));
  make_graph(7, e, h);
  std::vector<uint32_t> star = rows({0, 3, 1, 3, 2, 3, 3, 4, 3, 5, 3, 6});
  check_graph("star", h, 2, 6, &star, 0, 1);
  CHECK_OK_SO_FAR();
  /* two disjoint maximum cliques (K4 on 4..7 and on 0..3) joined by an edge,
     a triangle 8-9-10 and an isolated vertex 11 */
  e = complete_edges(4, 4);
  edge_list k4 = complete_edges(0, 4), k3 = complete_edges(8, 3);
  e.insert(e.end(), k4.begin(), k4.end());
  e.insert(e.end(), k3.begin(), k3.end());
  e.push_back(std::make_pair(3u, 4u));
  make_graph(12, e, h);
  std::vector<uint32_t> two = rows({0, 1, 2, 3, 4, 5, 6, 7});
  check_graph("two K4", h, 4, 2, &two, 4 + 4 + 1, 3);
  CHECK_OK_SO_FAR();
  /* disconnected: a K5 far from a K3 and a path; ids mixed up */
  e.clear();
  uint32_t k5[5] = {9, 2, 14, 5, 11};
  for (int a = 0; a < 5; ++a)
    for (int b = a + 1; b < 5; ++b) e.push_back(std::make_pair(k5[a], k5[b]));
  e.push_back(std::make_pair(0u, 1u));
  e.push_back(std::make_pair(1u, 3u));
  e.push_back(std::make_pair(0u, 3u));
  e.push_back(std::make_pair(6u, 7u));
  e.push_back(std::make_pair(7u, 8u));
  make_graph(16, e, h);
  std::vector<uint32_t> k5s = rows({2, 5, 9, 11, 14});
  check_graph("disconnected", h, 5, 1, &k5s, 10 + 1, 4);
  CHECK_OK_SO_FAR();
  /* core numbers of a triangle with a pendant path: [2 2 2 1 1] */
  e = complete_edges(0, 3);
  e.push_back(std::make_pair(2u, 3u));
  e.push_back(std::make_pair(3u, 4u));
  make_graph(5, e, h);
  std::vector<uint32_t> core(5), want = rows({2, 2, 2, 1, 1});
  uint32_t mc = 0;
  CHECK(cliqt_core_numbers(&h.g, core.data(), &mc) == GCLQ_SUCCESS && mc == 2);
  CHECK_ARRAYS(want.data(), core.data(), 5, "core numbers");
}

TEST(host_clique, random_graphs_vs_brute_force) {
  test_rng rng = test_rng_for("host_clique.brute");
  const double ps[] = {0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0};
  int graphs = 0;
  for (uint32_t n = 1; n <= 20; ++n) {
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; ++pi) {
      for (int rep = 0; rep < (n <= 12 ? 6 : 2); ++rep) {
        hgraph h;
        random_graph(n, ps[pi], rng, h);
        uint32_t omega = 0;
        std::vector<uint32_t> want;
        brute_force_max_cliques(h, omega, want);
        std::vector<uint32_t> core;
        naive_cores(h, core);
        uint32_t max_core = 0;
        for (uint32_t v = 0; v < n; ++v) max_core = std::max(max_core, core[v]);
        char name[64];
        snprintf(name, sizeof name, "G(%u, %.2f) #%d", n, ps[pi], rep);
        check_graph(name, h, omega, want.size() / omega, &want, naive_triangles(h), max_core);
        CHECK_OK_SO_FAR();
        uint64_t q = 0;
        CHECK(cliqt_count_4cliques(&h.g, &q) == GCLQ_SUCCESS);
        CHECK_MSG(q == naive_4cliques(h), "%s: 4-cliques", name);
        ++graphs;
      }
    }
  }
  CHECK(graphs > 300);
}

TEST(host_clique, random_graphs_vs_bron_kerbosch) {
  test_rng rng = test_rng_for("host_clique.bk");
  const uint32_t ns[] = {21, 33, 48, 64};
  const double ps[] = {0.1, 0.3, 0.5, 0.7, 0.85, 0.95};
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ++ni) {
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; ++pi) {
      for (int rep = 0; rep < 3; ++rep) {
        hgraph h;
        random_graph(ns[ni], ps[pi], rng, h);
        uint32_t omega = 0;
        std::vector<uint32_t> want, core;
        bron_kerbosch_max_cliques(h, omega, want);
        naive_cores(h, core);
        char name[64];
        snprintf(name, sizeof name, "G(%u, %.2f) #%d", ns[ni], ps[pi], rep);
        check_graph(name, h, omega, want.size() / omega, &want, ns[ni] <= 48 ? naive_triangles(h) : ANY64,
                    *std::max_element(core.begin(), core.end()));
        CHECK_OK_SO_FAR();
      }
    }
  }
}

TEST(host_clique, core_numbers_vs_naive_peeling) {
  test_rng rng = test_rng_for("host_clique.cores");
  const uint32_t ns[] = {2, 3, 10, 50, 120, 300};
  const double ps[] = {0.0, 0.02, 0.1, 0.3, 0.7, 1.0};
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ++ni) {
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; ++pi) {
      hgraph h;
      random_graph(ns[ni], ps[pi], rng, h);
      std::vector<uint32_t> want, got(ns[ni]), order(ns[ni]);
      naive_cores(h, want);
      uint32_t max_core = 0, want_max = *std::max_element(want.begin(), want.end());
      CHECK(cliqt_core_numbers(&h.g, got.data(), &max_core) == GCLQ_SUCCESS);
      CHECK(gclq_degeneracy_order(&h.g, order.data()) == GCLQ_SUCCESS);
      CHECK_ARRAYS(want.data(), got.data(), ns[ni], "core numbers");
      CHECK_EQ(max_core, want_max);
      /* the order is a permutation, core numbers never decrease along it, and
         no vertex has more than core[v] neighbours later in it */
      std::vector<uint32_t> rank(ns[ni], UINT32_MAX);
      for (uint32_t i = 0; i < ns[ni]; ++i) rank[order[i]] = i;
      for (uint32_t i = 0; i < ns[ni]; ++i) {
        CHECK(rank[i] != UINT32_MAX);
        if (i > 0) CHECK(got[order[i - 1]] <= got[order[i]]);
        uint32_t later = 0;
        for (uint64_t e = h.off[i]; e < h.off[i + 1]; ++e) later += rank[h.nbr[e]] > rank[i];
        CHECK(later <= got[i]);
      }
      /* triangles and 4-cliques against the naive counts (small n only) */
      if (ns[ni] <= 120) {
        uint64_t t = 0, q = 0;
        CHECK(cliqt_count_triangles(&h.g, &t) == GCLQ_SUCCESS);
        CHECK_EQ(t, naive_triangles(h));
        if (ns[ni] <= 50) {
          CHECK(cliqt_count_4cliques(&h.g, &q) == GCLQ_SUCCESS);
          CHECK_EQ(q, naive_4cliques(h));
        }
      }
    }
  }
}

TEST(host_clique, bad_input_and_allocation_failures) {
  hgraph h;
  uint32_t omega = 0, core[8], mc = 0, *cl = NULL;
  uint64_t count = 0;
  make_graph(6, complete_edges(0, 5), h);
  gclq_kclique_result kr;
  CHECK(cliqt_max_cliques(NULL, 0, &omega, &count, &cl) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_max_cliques(&h.g, NULL, NULL) == GCLQ_ERROR_INVALID_ARGUMENT); /* no result */
  CHECK(cliqt_core_numbers(NULL, core, &mc) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* no core array: the largest core number alone (K5 and a lone vertex) */
  CHECK(cliqt_core_numbers(&h.g, NULL, &mc) == GCLQ_SUCCESS && mc == 4);
  CHECK(gclq_kcliques(&h.g, NULL, NULL) == GCLQ_ERROR_INVALID_ARGUMENT); /* no result */
  CHECK(gclq_kcliques(NULL, NULL, &kr) == GCLQ_ERROR_INVALID_ARGUMENT && kr.h_counts == NULL);
  CHECK(cliqt_count_4cliques(NULL, &count) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* malformed CSR: an id out of range, an unsorted list, a self-loop, offsets
     that disagree with num_edges, missing arrays */
  const int cases = 5;
  for (int c = 0; c < cases; ++c) {
    make_graph(6, complete_edges(0, 5), h);
    gclq_graph bad = h.g;
    std::vector<uint32_t> nbr = h.nbr;
    bad.h_neighbors = nbr.data();
    if (c == 0) nbr[3] = 6;
    if (c == 1) std::swap(nbr[0], nbr[1]);
    if (c == 2) nbr[0] = 0;
    if (c == 3) bad.num_edges += 1;
    if (c == 4) bad.h_offsets = NULL;
    CHECK_MSG(cliqt_max_cliques(&bad, 0, &omega, &count, &cl) == GCLQ_ERROR_INVALID_ARGUMENT, "case %d", c);
    CHECK(omega == 0 && count == 0 && cl == NULL);
    CHECK(cliqt_count_triangles(&bad, &count) == GCLQ_ERROR_INVALID_ARGUMENT);
    CHECK(cliqt_core_numbers(&bad, core, &mc) == GCLQ_ERROR_INVALID_ARGUMENT);
  }
  /* fail each allocation in turn: out of memory, outputs zeroed, nothing
     leaked; then the same call succeeds. A graph with several maximum cliques
     so that the result list grows. */
  test_rng rng = test_rng_for("host_clique.oom");
  random_graph(60, 0.5, rng, h);
  uint32_t want_omega = 0;
  uint64_t want_count = 0;
  CHECK(cliqt_max_cliques(&h.g, 0, &want_omega, &want_count, NULL) == GCLQ_SUCCESS);
  for (int fn = 0; fn < 4; ++fn) {
    int failures = 0;
    for (long long k = 0;; ++k) {
      long long live = g_alloc_live;
      g_alloc_calls = 0;
      g_alloc_fail_at = k;
      gclq_status s;
      uint64_t tri = 0;
      std::vector<uint32_t> cores(60);
      if (fn == 0) s = cliqt_max_cliques(&h.g, 0, &omega, &count, &cl);
      else if (fn == 1) s = cliqt_max_cliques(&h.g, 1, &omega, &count, &cl);
      else if (fn == 2) s = cliqt_count_4cliques(&h.g, &tri);
      else s = cliqt_core_numbers(&h.g, cores.data(), &mc);
      g_alloc_fail_at = -1;
      bool hit = k < g_alloc_calls;
      if (!hit) { /* every allocation passed */
        CHECK(s == GCLQ_SUCCESS);
        if (fn <= 1) CHECK(omega == want_omega && count == (fn ? 1 : want_count) && cl != NULL);
        if (fn <= 1) GCLQ_FREE(cl);
        cl = NULL;
        break;
      }
      ++failures;
      CHECK_MSG(s == GCLQ_ERROR_OUT_OF_MEMORY, "function %d, allocation %lld: status %d", fn, k, (int)s);
      if (fn <= 1) CHECK(omega == 0 && count == 0 && cl == NULL);
      CHECK_MSG(g_alloc_live == live, "function %d, allocation %lld: %lld blocks leaked", fn, k, g_alloc_live - live);
    }
    CHECK(failures >= 1);
  }
}

/* ---- the data sets ------------------------------------------------------ */

/* A small loader of its own (DIMACS "e u v", SNAP "u v" with '#' comments):
   the graphs come from gclq_graph_load, and this one only confirms that the
   same edges arrived (DIMACS keeps all N vertices; the library's SNAP loader
   keeps a loop-only id as an isolated vertex, this one drops it, so it
   compares edge sets by id). */
static bool load_data_graph(const std::string &path, bool dimacs, hgraph &h) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return false;
  char line[512];
  std::vector<std::pair<uint64_t, uint64_t> > raw;
  uint64_t n_decl = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long a, b;
    if (dimacs) {
      if (line[0] == 'p') {
        char kind[32];
        if (sscanf(line, "p %31s %llu %llu", kind, &a, &b) == 3) n_decl = a;
      } else if (line[0] == 'e' && sscanf(line + 1, "%llu %llu", &a, &b) == 2) {
        raw.push_back(std::make_pair((uint64_t)a - 1, (uint64_t)b - 1));
      }
    } else if (line[0] != '#' && sscanf(line, "%llu %llu", &a, &b) == 2 && a != b) {
      raw.push_back(std::make_pair((uint64_t)a, (uint64_t)b));
    }
  }
  fclose(f);
  std::map<uint64_t, uint32_t> id;
  if (dimacs) {
    for (uint64_t v = 0; v < n_decl; ++v) id[v] = (uint32_t)v;
  } else {
    for (size_t i = 0; i < raw.size(); ++i) id[raw[i].first] = id[raw[i].second] = 0;
    uint32_t next = 0;
    for (std::map<uint64_t, uint32_t>::iterator it = id.begin(); it != id.end(); ++it) it->second = next++;
  }
  edge_list e;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!id.count(raw[i].first) || !id.count(raw[i].second)) return false;
    e.push_back(std::make_pair(id[raw[i].first], id[raw[i].second]));
  }
  make_graph((uint32_t)id.size(), e, h);
  for (std::map<uint64_t, uint32_t>::iterator it = id.begin(); it != id.end(); ++it)
    h.ids[it->second] = it->first + (dimacs ? 1 : 0); /* the file's ids (DIMACS: 1-based) */
  return true;
}

/* The same undirected edges, in the file's ids (h_original_ids). */
static bool same_edges(const hgraph &lib, const hgraph &mine) {
  std::vector<std::pair<uint64_t, uint64_t> > a, b;
  for (int which = 0; which < 2; ++which) {
    const hgraph &h = which ? mine : lib;
    std::vector<std::pair<uint64_t, uint64_t> > &out = which ? b : a;
    for (uint32_t v = 0; v < h.g.num_vertices; ++v)
      for (uint64_t e = h.off[v]; e < h.off[v + 1]; ++e) {
        uint64_t x = h.ids.empty() ? v : h.ids[v], y = h.ids.empty() ? h.nbr[e] : h.ids[h.nbr[e]];
        out.push_back(std::make_pair(x, y));
      }
    std::sort(out.begin(), out.end());
  }
  return a == b;
}

/* REFERENCE.tsv: a "# graph <column> ..." header, then one row per graph. */
typedef std::map<std::string, std::string> ref_row;
static std::vector<ref_row> read_reference(const std::string &path) {
  std::vector<ref_row> out;
  std::vector<std::string> cols;
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return out;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    std::vector<std::string> fields;
    std::string cur;
    for (char *p = line; *p && *p != '\n' && *p != '\r'; ++p) {
      if (*p == '\t') {
        fields.push_back(cur);
        cur.clear();
      } else {
        cur += *p;
      }
    }
    fields.push_back(cur);
    if (fields[0].size() && fields[0][0] == '#') {
      fields[0] = fields[0].substr(fields[0].find_first_not_of("# "));
      cols = fields;
      continue;
    }
    if (cols.empty() || fields.size() != cols.size()) continue;
    ref_row r;
    for (size_t i = 0; i < cols.size(); ++i) r[cols[i]] = fields[i];
    out.push_back(r);
  }
  fclose(f);
  return out;
}

static void check_data_set(const char *sub, const char *ext, bool dimacs) {
  const char *dir = test_data_dir();
  if (!dir) {
    printf("    skipped: ../shared/data not found\n");
    g_test.skipped = 1;
    return;
  }
  std::string base = std::string(dir) + "/" + sub + "/";
  std::vector<ref_row> ref = read_reference(base + "REFERENCE.tsv");
  CHECK_MSG(!ref.empty(), "%sREFERENCE.tsv: no rows", base.c_str());
  for (size_t i = 0; i < ref.size(); ++i) {
    ref_row &r = ref[i];
    const char *name = r["graph"].c_str();
    hgraph h, mine;
    gclq_graph lib;
    gclq_load_error err;
    std::string path = base + r["graph"] + ext;
    CHECK_MSG(gclq_graph_load(path.c_str(), GCLQ_FORMAT_AUTO, &lib, &err) == GCLQ_SUCCESS,
              "%s: gclq_graph_load failed at line %llu: %s", name, (unsigned long long)err.line, err.message);
    adopt_graph(lib, h);
    CHECK_MSG(load_data_graph(path, dimacs, mine), "%s: cannot load", name);
    CHECK_MSG(same_edges(h, mine), "%s: gclq_graph_load and the test's loader disagree", name);
    /* the graph as the reference counts it */
    uint64_t nonisolated = 0;
    for (uint32_t v = 0; v < h.g.num_vertices; ++v) nonisolated += h.degree(v) > 0;
    const std::string &nv = dimacs ? r["vertices"] : r["vertices_nonisolated"];
    const std::string &ne = dimacs ? r["edges"] : r["edges_simple"];
    CHECK_MSG((dimacs ? (uint64_t)h.g.num_vertices : nonisolated) == strtoull(nv.c_str(), NULL, 10) &&
                  h.g.num_edges == strtoull(ne.c_str(), NULL, 10),
              "%s: %u vertices, %llu edges, want %s and %s", name, h.g.num_vertices,
              (unsigned long long)h.g.num_edges, nv.c_str(), ne.c_str());

    clock_t t0 = clock();
    uint32_t omega = 0, *cl = NULL;
    uint64_t count = 0;
    CHECK(cliqt_max_cliques(&h.g, 0, &omega, &count, &cl) == GCLQ_SUCCESS);
    double t_all = (double)(clock() - t0) / CLOCKS_PER_SEC;
    t0 = clock();
    uint32_t omega1 = 0, *one = NULL;
    uint64_t count1 = 0;
    CHECK(cliqt_max_cliques(&h.g, 1, &omega1, &count1, &one) == GCLQ_SUCCESS);
    double t_one = (double)(clock() - t0) / CLOCKS_PER_SEC;
    t0 = clock();
    uint64_t tri = 0, four = 0;
    CHECK(cliqt_count_triangles(&h.g, &tri) == GCLQ_SUCCESS);
    double t_tri = (double)(clock() - t0) / CLOCKS_PER_SEC;
    std::vector<uint32_t> core(h.g.num_vertices);
    uint32_t max_core = 0;
    t0 = clock();
    CHECK(cliqt_core_numbers(&h.g, core.data(), &max_core) == GCLQ_SUCCESS);
    double t_core = (double)(clock() - t0) / CLOCKS_PER_SEC;
    double t_four = 0;
    if (r.count("four_cliques") && r["four_cliques"] != "-") {
      t0 = clock();
      CHECK(cliqt_count_4cliques(&h.g, &four) == GCLQ_SUCCESS);
      t_four = (double)(clock() - t0) / CLOCKS_PER_SEC;
    }
    char four_time[32] = "-";
    if (r.count("four_cliques")) snprintf(four_time, sizeof four_time, "%.3fs", t_four);
    printf("    %-18s omega %3u  max cliques %6llu  triangles %8llu  max core %3u | all %.3fs one %.3fs tri %.3fs "
           "core %.3fs 4-cliques %s\n",
           name, omega, (unsigned long long)count, (unsigned long long)tri, max_core, t_all, t_one, t_tri, t_core,
           four_time);
    fflush(stdout);

    CHECK_MSG(omega == strtoul(r["omega"].c_str(), NULL, 10), "%s: omega %u, want %s", name, omega, r["omega"].c_str());
    if (r["maximum_cliques"] != "-")
      CHECK_MSG(count == strtoull(r["maximum_cliques"].c_str(), NULL, 10), "%s: %llu maximum cliques, want %s", name,
                (unsigned long long)count, r["maximum_cliques"].c_str());
    CHECK_MSG(cliques_well_formed(h, cl, count, omega), "%s: clique list malformed", name);
    CHECK_MSG(omega1 == omega && count1 == 1 && cliques_well_formed(h, one, 1, omega), "%s: find one", name);
    CHECK_MSG(tri == strtoull(r["triangles"].c_str(), NULL, 10), "%s: %llu triangles, want %s", name,
              (unsigned long long)tri, r["triangles"].c_str());
    CHECK_MSG(max_core == strtoul(r["max_core"].c_str(), NULL, 10), "%s: max core %u, want %s", name, max_core,
              r["max_core"].c_str());
    if (r.count("four_cliques") && r["four_cliques"] != "-")
      CHECK_MSG(four == strtoull(r["four_cliques"].c_str(), NULL, 10), "%s: %llu 4-cliques, want %s", name,
                (unsigned long long)four, r["four_cliques"].c_str());
    GCLQ_FREE(cl);
    GCLQ_FREE(one);
  }
}

TEST(host_clique, dimacs_reference) { check_data_set("dimacs", ".clq", true); }
TEST(host_clique, snap_reference) { check_data_set("snap", ".txt", false); }

/* A planted clique far larger than G(n, p) could hold alone: it is the one
   maximum clique, and the references find exactly it. */
TEST(host_clique, planted_clique) {
  const uint32_t sizes[] = {8, 25, 60};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    gclq_graph lib;
    std::vector<uint32_t> planted(sizes[i]);
    CHECK(gclq_graph_planted_clique(3000, 0.004, sizes[i], 17 + i, &lib, planted.data()) == GCLQ_SUCCESS);
    hgraph h;
    adopt_graph(lib, h);
    char name[64];
    snprintf(name, sizeof name, "planted K%u in G(3000, 0.004)", sizes[i]);
    uint64_t k = sizes[i];
    /* the planted clique's own triangles and core, at least */
    uint64_t tri = 0;
    uint32_t max_core = 0;
    std::vector<uint32_t> core(3000);
    CHECK(cliqt_count_triangles(&h.g, &tri) == GCLQ_SUCCESS);
    CHECK(cliqt_core_numbers(&h.g, core.data(), &max_core) == GCLQ_SUCCESS);
    CHECK(tri >= k * (k - 1) * (k - 2) / 6 && max_core >= k - 1);
    for (uint32_t j = 0; j < k; ++j) CHECK(core[planted[j]] >= k - 1);
    check_graph(name, h, sizes[i], 1, &planted, ANY64, ANY32);
    CHECK_OK_SO_FAR();
  }
}

/* R-MAT graphs (skewed degrees, many small maximum cliques): the list, the
   count-only run and find-one agree, and the core numbers match the naive
   peeling. */
TEST(host_clique, rmat_consistency) {
  for (int scale = 6; scale <= 12; scale += 3) {
    gclq_graph lib;
    CHECK(gclq_graph_rmat(scale, 8, 99 + scale, &lib) == GCLQ_SUCCESS);
    hgraph h;
    adopt_graph(lib, h);
    std::vector<uint32_t> core;
    naive_cores(h, core);
    uint32_t omega = 0, *cl = NULL;
    uint64_t count = 0;
    CHECK(cliqt_max_cliques(&h.g, 0, &omega, &count, &cl) == GCLQ_SUCCESS);
    GCLQ_FREE(cl);
    char name[32];
    snprintf(name, sizeof name, "rmat scale %d", scale);
    check_graph(name, h, omega, count, NULL, scale <= 9 ? naive_triangles(h) : ANY64,
                *std::max_element(core.begin(), core.end()));
    CHECK_OK_SO_FAR();
  }
}
