/* test_kcliques.cu - k-clique counting (gclq_kcliques), core numbers and the
   degeneracy order (gclq_core_numbers, gclq_degeneracy_order).

   TEST: the HOST backend through the public API (runs in CI, no GPU): every
   data graph against ../shared/data/kcliques.tsv with both methods where each
   finishes in seconds, facebook_combined for every k by PIVOT (counts past
   2^53 and past 2^64: the overflow flags), complete graphs against C(n, k)
   (K_80: counts over 2^64 flagged), random and planted graphs against a
   brute-force count for k = 3 .. 10 (per-vertex counts and listings too),
   the small cases, options, NULLs, leaks and allocation failures; host
   twins of the CUDA methods' walks (PIVOT's tasks and rounds, LFTJ's
   general path, GROUPED's levels) against brute force.
   GPU_TEST: gclq_core_numbers on CUDA against HOST; every CUDA method
   against HOST on data, random, R-MAT and complete graphs, under small
   budgets, split PIVOT tasks, and graphs built to reach the edges of the
   methods' windows, rows and stacks.

   Like test_maxclique.cu, this file compiles its own static copy of the
   implementation with a counting host allocator. */
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

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "testing.h"

/* ---- helpers ------------------------------------------------------------- */

/* A graph built from an adjacency matrix (n <= 64), file ids 10 v + 7 so
   that the results' id mapping is exercised. */
struct kc_graph {
  uint32_t n;
  std::vector<uint64_t> adj; /* bit rows */
  std::vector<uint64_t> off, ids;
  std::vector<uint32_t> nbr;
  gclq_graph g;
  explicit kc_graph(uint32_t n_) : n(n_), adj(n_, 0) { memset(&g, 0, sizeof g); }
  void edge(uint32_t u, uint32_t v) {
    if (u == v) return;
    adj[u] |= 1ull << v;
    adj[v] |= 1ull << u;
  }
  void finish(void) {
    off.assign(n + 1, 0);
    nbr.clear();
    ids.resize(n);
    for (uint32_t v = 0; v < n; ++v) {
      for (uint32_t u = 0; u < n; ++u)
        if (adj[v] >> u & 1) nbr.push_back(u);
      off[v + 1] = nbr.size();
      ids[v] = 10ull * v + 7;
    }
    g.num_vertices = n;
    g.num_edges = nbr.size() / 2;
    g.h_offsets = off.data();
    g.h_neighbors = nbr.empty() ? NULL : nbr.data();
    g.h_original_ids = ids.data();
  }
};

static kc_graph kc_random(uint32_t n, double p, uint32_t planted, test_rng &rng) {
  kc_graph k(n);
  for (uint32_t u = 0; u < n; ++u)
    for (uint32_t v = u + 1; v < n; ++v)
      if ((double)(rng.next() >> 11) / 9007199254740992.0 < p) k.edge(u, v);
  std::vector<uint32_t> c;
  for (uint32_t v = 0; v < n; ++v) c.push_back(v);
  for (uint32_t i = 0; i < planted && i < n; ++i) std::swap(c[i], c[i + rng.below(n - i)]);
  for (uint32_t i = 0; i < planted && i < n; ++i)
    for (uint32_t j = i + 1; j < planted && j < n; ++j) k.edge(c[i], c[j]);
  k.finish();
  return k;
}

/* Brute force: every clique, by extension with higher vertices. count[s]
   s-cliques, per[s][v] those containing v, list[s] the s-cliques (file ids,
   ascending, in lexicographic order: the recursion visits them so). */
struct kc_brute {
  std::vector<uint64_t> count;
  std::vector<std::vector<uint64_t> > per;
  std::vector<std::vector<std::vector<uint64_t> > > list;
  const kc_graph *k;
  std::vector<uint32_t> clique;
  explicit kc_brute(const kc_graph &g) : count(g.n + 2, 0), per(g.n + 2), list(g.n + 2), k(&g) {
    for (size_t s = 0; s < per.size(); ++s) per[s].assign(g.n, 0);
    for (uint32_t v = 0; v < g.n; ++v) {
      clique.assign(1, v);
      grow(g.adj[v] & ~((2ull << v) - 1));
    }
  }
  void grow(uint64_t cand) {
    size_t s = clique.size();
    ++count[s];
    std::vector<uint64_t> row;
    for (size_t i = 0; i < s; ++i) {
      ++per[s][clique[i]];
      row.push_back(k->ids[clique[i]]);
    }
    if (s <= 10) list[s].push_back(row);
    for (uint32_t u = 0; u < k->n; ++u)
      if (cand >> u & 1) {
        clique.push_back(u);
        grow(cand & k->adj[u] & ~((2ull << u) - 1));
        clique.pop_back();
      }
  }
  uint32_t omega(void) const {
    uint32_t w = 0;
    for (size_t s = 0; s < count.size(); ++s)
      if (count[s]) w = (uint32_t)s;
    return w;
  }
};

static gclq_kclique_options kc_opts(gclq_kclique_method m, uint32_t k, int all) {
  gclq_kclique_options o;
  gclq_kclique_options_defaults(&o);
  o.backend = GCLQ_BACKEND_HOST;
  o.method = m;
  o.k = k;
  o.all = all;
  return o;
}

/* A backend and a method: the HOST methods, and every CUDA method. */
struct kc_method {
  gclq_backend backend;
  gclq_kclique_method method;
};
static std::vector<kc_method> kc_host_methods(void) {
  std::vector<kc_method> v;
  v.push_back(kc_method{GCLQ_BACKEND_HOST, GCLQ_KCLIQUE_ORDERED});
  v.push_back(kc_method{GCLQ_BACKEND_HOST, GCLQ_KCLIQUE_PIVOT});
  return v;
}
/* The CUDA methods, or those named in $GPUAMQ_KC_METHODS (comma-separated
   method names, e.g. "bitset,pivot"), to run one method per process. */
static std::vector<kc_method> kc_cuda_methods(void) {
  static const gclq_kclique_method all[] = {GCLQ_KCLIQUE_BITSET, GCLQ_KCLIQUE_PIVOT, GCLQ_KCLIQUE_LFTJ,
                                            GCLQ_KCLIQUE_LEVEL_JOIN, GCLQ_KCLIQUE_GROUPED};
  const char *only = getenv("GPUAMQ_KC_METHODS");
  if (only != NULL && only[0] == 0) only = NULL;
  std::vector<kc_method> v;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
    std::string list = only != NULL ? "," + std::string(only) + "," : "";
    if (only == NULL || list.find("," + std::string(gclq_kclique_method_name(all[i])) + ",") != std::string::npos)
      v.push_back(kc_method{GCLQ_BACKEND_CUDA, all[i]});
  }
  return v;
}
static const char *kc_method_name(const kc_method &m) {
  static char name[64];
  snprintf(name, sizeof name, "%s/%s", gclq_backend_name(m.backend), gclq_kclique_method_name(m.method));
  return name;
}

static int kc_zeroed(const gclq_kclique_result &r) {
  gclq_kclique_result z;
  memset(&z, 0, sizeof z);
  return memcmp(&r, &z, sizeof r) == 0;
}

/* C(n, k) in 128 bits (n <= 128). */
static unsigned __int128 kc_binom128(uint32_t n, uint32_t k) {
  if (k > n) return 0;
  unsigned __int128 c = 1;
  if (k > n - k) k = n - k;
  for (uint32_t i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

/* ---- data graphs ----------------------------------------------------------- */

struct kc_ref {
  std::string path;
  std::map<uint32_t, uint64_t> counts; /* k -> count */
};

/* kcliques.tsv, with the path of each graph. */
static std::vector<kc_ref> kc_references(void) {
  std::vector<kc_ref> out;
  const char *dir = test_data_dir();
  if (dir == NULL) return out;
  FILE *f = fopen((std::string(dir) + "/kcliques.tsv").c_str(), "rb");
  if (!f) return out;
  std::map<std::string, size_t> at;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    char name[256];
    unsigned k;
    unsigned long long c;
    if (line[0] == '#' || sscanf(line, "%255s %u %llu", name, &k, &c) != 3) continue;
    if (!at.count(name)) {
      kc_ref r;
      std::string snap = std::string(dir) + "/snap/" + name + ".txt";
      FILE *t = fopen(snap.c_str(), "rb");
      r.path = t ? snap : std::string(dir) + "/dimacs/" + name + ".clq";
      if (t) fclose(t);
      at[name] = out.size();
      out.push_back(r);
    }
    out[at[name]].counts[k] = c;
  }
  fclose(f);
  return out;
}

static std::string kc_base(const std::string &path) {
  size_t s = path.find_last_of('/'), d = path.find_last_of('.');
  return path.substr(s + 1, d - s - 1);
}

/* The graphs whose every-k run (or ORDERED's visit of every clique up to k)
   takes more than a few seconds here: single k by PIVOT only for them. */
static int kc_slow_all(const std::string &name) {
  return name == "san200_0.7_1" || name == "sanr200_0.7" || name == "facebook_combined";
}

TEST(kcliques, data_graphs_match_reference) {
  std::vector<kc_ref> refs = kc_references();
  if (refs.empty()) {
    printf("    (skipped: no test data)\n");
    return;
  }
  for (size_t i = 0; i < refs.size(); ++i) {
    const kc_ref &ref = refs[i];
    std::string name = kc_base(ref.path);
    gclq_graph g;
    CHECK_MSG(gclq_graph_load(ref.path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS, "%s: cannot load",
              ref.path.c_str());
    uint64_t visited = 0; /* cliques ORDERED visits up to this k */
    for (std::map<uint32_t, uint64_t>::const_iterator it = ref.counts.begin(); it != ref.counts.end(); ++it) {
      uint32_t k = it->first;
      visited += it->second;
      if ((name == "san200_0.7_1" || name == "sanr200_0.7") && k > 5) continue; /* 5 s to minutes each */
      for (int m = 1; m <= 2; ++m) {
        if (m == GCLQ_KCLIQUE_ORDERED && visited > 5000000ull) continue;
        if (m == GCLQ_KCLIQUE_PIVOT && name == "facebook_combined" && k > 5) continue; /* the every-k test */
        if (m == GCLQ_KCLIQUE_PIVOT && !kc_slow_all(name) && k > 6) continue; /* the every-k run below */
        gclq_kclique_options o = kc_opts((gclq_kclique_method)m, k, 0);
        o.orientation = (k & 1) ? GCLQ_ORIENT_BY_DEGENERACY : GCLQ_ORIENT_BY_DEGREE;
        gclq_kclique_result r;
        CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
        CHECK_MSG(r.num_k == 1 && r.k_first == k && r.h_status[0] == GCLQ_SUCCESS, "%s k %u", name.c_str(), k);
        CHECK_MSG(r.h_counts[0] == it->second, "%s k %u %s: %llu, want %llu", name.c_str(), k,
                  gclq_kclique_method_name((gclq_kclique_method)m), (unsigned long long)r.h_counts[0],
                  (unsigned long long)it->second);
        gclq_kclique_result_free(&r);
      }
    }
    if (!kc_slow_all(name)) {
      gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_PIVOT, 0, 1);
      gclq_kclique_result r;
      CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
      for (uint32_t j = 0; j < r.num_k; ++j) {
        uint32_t k = r.k_first + j;
        std::map<uint32_t, uint64_t>::const_iterator it = ref.counts.find(k);
        CHECK_MSG(it != ref.counts.end() || r.h_status[j] != GCLQ_SUCCESS || r.h_counts[j] > (1ull << 53),
                  "%s all: k %u not in the reference", name.c_str(), k);
        if (it != ref.counts.end())
          CHECK_MSG(r.h_status[j] == GCLQ_SUCCESS && r.h_counts[j] == it->second, "%s all k %u: %llu, want %llu",
                    name.c_str(), k, (unsigned long long)r.h_counts[j], (unsigned long long)it->second);
      }
      /* the reference lists k = 3 .. omega, with zeros past omega for some graphs */
      for (std::map<uint32_t, uint64_t>::const_iterator it = ref.counts.begin(); it != ref.counts.end(); ++it)
        if (it->first > r.omega) CHECK_MSG(it->second == 0, "%s: omega %u, reference k %u nonzero", name.c_str(),
                                           r.omega, it->first);
      gclq_kclique_result_free(&r);
    }
    printf("    %s: %.1f s so far\n", name.c_str(), (double)clock() / CLOCKS_PER_SEC);
    gclq_graph_free(&g);
  }
}

/* facebook_combined, every k by PIVOT: the reference's rows match; the rows
   it leaves out (past 2^53) are over 2^53 or flagged as overflowing; the
   flagged k are one run in the middle of the unimodal sequence, saturated. */
TEST(kcliques, facebook_every_k_and_overflow_flags) {
  const char *dir = test_data_dir();
  std::vector<kc_ref> refs = kc_references();
  const kc_ref *ref = NULL;
  for (size_t i = 0; i < refs.size(); ++i)
    if (kc_base(refs[i].path) == "facebook_combined") ref = &refs[i];
  if (dir == NULL || ref == NULL) {
    printf("    (skipped: no test data)\n");
    return;
  }
  gclq_graph g;
  CHECK(gclq_graph_load(ref->path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS);
  gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_PIVOT, 0, 1);
  gclq_kclique_result r;
  CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
  CHECK(r.omega == 69 && r.k_first == 3 && r.num_k == 67);
  uint32_t flagged = 0, first = 0, last = 0;
  for (uint32_t j = 0; j < r.num_k; ++j) {
    uint32_t k = r.k_first + j;
    std::map<uint32_t, uint64_t>::const_iterator it = ref->counts.find(k);
    if (it != ref->counts.end()) {
      CHECK_MSG(r.h_status[j] == GCLQ_SUCCESS && r.h_counts[j] == it->second, "k %u: %llu, want %llu", k,
                (unsigned long long)r.h_counts[j], (unsigned long long)it->second);
    } else if (r.h_status[j] == GCLQ_SUCCESS) {
      CHECK_MSG(r.h_counts[j] > (1ull << 53) && r.h_counts[j] != UINT64_MAX, "k %u: %llu", k,
                (unsigned long long)r.h_counts[j]);
    } else {
      CHECK(r.h_status[j] == GCLQ_ERROR_OVERFLOW && r.h_counts[j] == UINT64_MAX);
      if (!flagged++) first = k;
      last = k;
    }
    if (j > 0 && r.h_status[j] == GCLQ_SUCCESS && r.h_status[j - 1] == GCLQ_SUCCESS && k <= 30)
      CHECK_MSG(r.h_counts[j] > r.h_counts[j - 1], "k %u: not increasing", k);
  }
  CHECK(flagged == r.overflowed && flagged > 0 && last - first + 1 == flagged);
  printf("    facebook_combined: k %u .. %u overflow 64 bits (%u of %u), %.0f ms\n", first, last, flagged, r.num_k,
         r.stats.total_ms);
  gclq_kclique_result_free(&r);
  gclq_graph_free(&g);
}

/* ---- complete graphs and overflow ------------------------------------------ */

static kc_graph kc_complete(uint32_t n) {
  kc_graph k(n);
  for (uint32_t u = 0; u < n; ++u)
    for (uint32_t v = u + 1; v < n; ++v) k.edge(u, v);
  k.finish();
  return k;
}

TEST(kcliques, complete_graphs_give_binomials) {
  const uint32_t sizes[] = {1, 2, 3, 4, 5, 9, 16, 20, 33, 64};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    uint32_t n = sizes[s];
    kc_graph k = kc_complete(n);
    for (int m = 1; m <= 2; ++m) {
      if (m == GCLQ_KCLIQUE_ORDERED && n > 20) continue; /* ORDERED visits all 2^n cliques */
      gclq_kclique_options o = kc_opts((gclq_kclique_method)m, 0, 1);
      gclq_kclique_result r;
      CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
      CHECK_MSG(r.omega == n && r.num_k == (n >= 3 ? n - 2 : 0), "K_%u: omega %u", n, r.omega);
      for (uint32_t j = 0; j < r.num_k; ++j)
        CHECK_MSG(r.h_status[j] == GCLQ_SUCCESS && r.h_counts[j] == (uint64_t)kc_binom128(n, 3 + j),
                  "K_%u k %u %s", n, 3 + j, gclq_kclique_method_name((gclq_kclique_method)m));
      gclq_kclique_result_free(&r);
      for (uint32_t kk = 3; kk <= n + 2 && kk <= 12; ++kk) {
        o = kc_opts((gclq_kclique_method)m, kk, 0);
        CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
        CHECK_MSG(r.h_counts[0] == (uint64_t)kc_binom128(n, kk), "K_%u k %u", n, kk);
        gclq_kclique_result_free(&r);
      }
    }
  }
}

/* K_80 (not built as a kc_graph: more than 64 vertices): C(80, k) passes
   2^64 - 1 for k = 25 .. 55; those k are flagged, the others exact. */
TEST(kcliques, overflow_is_flagged_never_wrapped) {
  const uint32_t n = 80;
  std::vector<uint64_t> src, dst;
  for (uint32_t u = 0; u < n; ++u)
    for (uint32_t v = u + 1; v < n; ++v) src.push_back(u), dst.push_back(v);
  gclq_graph g;
  CHECK(gclq_graph_from_edges(src.data(), dst.data(), src.size(), &g) == GCLQ_SUCCESS);
  const unsigned __int128 limit = (unsigned __int128)UINT64_MAX;
  gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_PIVOT, 0, 1);
  gclq_kclique_result r;
  CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
  CHECK(r.omega == n && r.num_k == n - 2);
  uint32_t want_flagged = 0;
  for (uint32_t j = 0; j < r.num_k; ++j) {
    unsigned __int128 c = kc_binom128(n, 3 + j);
    if (c >= limit) {
      ++want_flagged;
      CHECK_MSG(r.h_status[j] == GCLQ_ERROR_OVERFLOW && r.h_counts[j] == UINT64_MAX, "k %u not flagged", 3 + j);
    } else {
      CHECK_MSG(r.h_status[j] == GCLQ_SUCCESS && r.h_counts[j] == (uint64_t)c, "k %u", 3 + j);
    }
  }
  CHECK(r.overflowed == want_flagged && want_flagged > 0);
  gclq_kclique_result_free(&r);
  /* one k: k = 40 (C(80, 40) ~ 1.07e23) flagged; per-vertex C(79, 39) too */
  o = kc_opts(GCLQ_KCLIQUE_PIVOT, 40, 0);
  o.per_vertex = 1;
  CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
  CHECK(r.num_k == 1 && r.h_status[0] == GCLQ_ERROR_OVERFLOW && r.h_counts[0] == UINT64_MAX && r.overflowed == 1);
  for (uint32_t v = 0; v < n; ++v) CHECK(r.h_per_vertex[v] == UINT64_MAX);
  gclq_kclique_result_free(&r);
  /* k = 12: C(80, 12) fits; per vertex C(79, 11) */
  o = kc_opts(GCLQ_KCLIQUE_PIVOT, 12, 0);
  o.per_vertex = 1;
  CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
  CHECK(r.h_status[0] == GCLQ_SUCCESS && r.h_counts[0] == (uint64_t)kc_binom128(80, 12));
  for (uint32_t v = 0; v < n; ++v) CHECK(r.h_per_vertex[v] == (uint64_t)kc_binom128(79, 11));
  gclq_kclique_result_free(&r);
  gclq_graph_free(&g);
}

/* ---- random and planted graphs against brute force ----------------------- */

/* Every method and orientation on k: counts, per-vertex counts, listings. */
static void kc_check_one_k(const kc_graph &k, const kc_brute &b, uint32_t kk, test_rng &rng, const char *what,
                           const std::vector<kc_method> &methods) {
  uint64_t want = kk < b.count.size() ? b.count[kk] : 0;
  for (size_t m = 0; m < methods.size(); ++m)
    for (int orient = 1; orient <= 2; ++orient) {
      gclq_kclique_options o = kc_opts(methods[m].method, kk, 0);
      o.backend = methods[m].backend;
      o.orientation = (gclq_orient_by)orient;
      o.per_vertex = rng.below(4) != 0; /* without: PIVOT closes its last two levels (the CUDA PIVOT's closed levels) */
      o.max_stored = rng.below(3) == 0 ? want + 5 : 1 + rng.below(want + 2);
      gclq_kclique_result r;
      CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
      CHECK_MSG(r.h_counts[0] == want, "%s k %u %s/%s: %llu, want %llu", what, kk, kc_method_name(methods[m]),
                gclq_orient_by_name((gclq_orient_by)orient), (unsigned long long)r.h_counts[0],
                (unsigned long long)want);
      if (o.per_vertex) {
        uint64_t sum = 0;
        for (uint32_t v = 0; v < k.n; ++v) {
          uint64_t pv = kk < b.per.size() ? b.per[kk][v] : 0;
          CHECK_MSG(r.h_per_vertex[v] == pv, "%s k %u: vertex %u", what, kk, v);
          sum += r.h_per_vertex[v];
        }
        CHECK(sum == (uint64_t)kk * want);
      }
      /* listed: as many as asked (or all), each a k-clique, ascending, distinct, sorted */
      uint64_t expect = o.max_stored < want ? o.max_stored : want;
      CHECK_MSG(r.stored == expect, "%s k %u: %llu listed, want %llu", what, kk, (unsigned long long)r.stored,
                (unsigned long long)expect);
      static const std::vector<std::vector<uint64_t> > none;
      const std::vector<std::vector<uint64_t> > &cliques = kk < b.list.size() ? b.list[kk] : none;
      std::set<std::vector<uint64_t> > all(cliques.begin(), cliques.end());
      for (uint64_t i = 0; i < r.stored; ++i) {
        std::vector<uint64_t> row(r.h_cliques + i * kk, r.h_cliques + (i + 1) * kk);
        CHECK_MSG(all.count(row) == 1, "%s k %u: listed row %llu is not a k-clique", what, kk, (unsigned long long)i);
        if (i > 0) {
          std::vector<uint64_t> prev(r.h_cliques + (i - 1) * kk, r.h_cliques + i * kk);
          CHECK(prev < row); /* sorted, hence distinct */
        }
      }
      for (uint64_t i = 0; r.stored == want && i < r.stored; ++i) /* all of them: the brute-force list */
        CHECK(std::equal(cliques[i].begin(), cliques[i].end(), r.h_cliques + i * kk));
      gclq_kclique_result_free(&r);
    }
}

static void kc_check_graph(const kc_graph &k, test_rng &rng, const char *what, const std::vector<kc_method> &methods) {
  kc_brute b(k);
  for (uint32_t kk = 3; kk <= 10; ++kk) kc_check_one_k(k, b, kk, rng, what, methods);
  for (size_t m = 0; m < methods.size(); ++m)
    for (int orient = 1; orient <= 2; ++orient) {
      gclq_kclique_options o = kc_opts(methods[m].method, 0, 1);
      o.backend = methods[m].backend;
      o.orientation = (gclq_orient_by)orient;
      gclq_kclique_result r;
      CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
      CHECK_MSG(r.omega == b.omega(), "%s %s all: omega %u, want %u", what, kc_method_name(methods[m]), r.omega,
                b.omega());
      for (uint32_t j = 0; j < r.num_k; ++j)
        CHECK_MSG(r.h_counts[j] == b.count[3 + j], "%s %s all: k %u", what, kc_method_name(methods[m]), 3 + j);
      gclq_kclique_result_free(&r);
    }
}

static void kc_random_graphs(const char *seed_name, int graphs, const std::vector<kc_method> &methods) {
  test_rng rng = test_rng_for(seed_name);
  char what[96];
  CHECK(!methods.empty());
  for (int t = 0; t < graphs; ++t) {
    uint32_t n = 1 + (uint32_t)rng.below(40);
    double p = 0.1 + 0.5 * (double)rng.below(1000) / 1000.0;
    uint32_t planted = t % 2 ? (uint32_t)rng.below(n < 14 ? n + 1 : 14) : 0;
    kc_graph k = kc_random(n, p, planted, rng);
    snprintf(what, sizeof what, "G(%u, %.3f) + K_%u", n, p, planted);
    kc_check_graph(k, rng, what, methods);
    CHECK_OK_SO_FAR();
  }
}

TEST(kcliques, random_and_planted_graphs_match_brute_force) {
  kc_random_graphs("kcliques_random", 40, kc_host_methods());
}
GPU_TEST(kcliques, cuda_random_and_planted_graphs_match_brute_force) {
  kc_random_graphs("kcliques_cuda_random", 24, kc_cuda_methods());
}

/* ---- small cases -------------------------------------------------------------- */

TEST(kcliques, empty_edgeless_one_vertex_and_k_above_omega) {
  test_rng rng = test_rng_for("kcliques_small");
  gclq_graph empty;
  memset(&empty, 0, sizeof empty);
  kc_graph one(1), edgeless(7), path(4);
  one.finish();
  edgeless.finish();
  path.edge(0, 1), path.edge(1, 2), path.edge(2, 3);
  path.finish();
  const gclq_graph *gs[4] = {&empty, &one.g, &edgeless.g, &path.g};
  const uint32_t omegas[4] = {0, 1, 1, 2};
  for (int i = 0; i < 4; ++i)
    for (int m = 0; m <= 2; ++m) {
      gclq_kclique_options o = kc_opts((gclq_kclique_method)m, 0, 1);
      gclq_kclique_result r;
      CHECK(gclq_kcliques(gs[i], &o, &r) == GCLQ_SUCCESS);
      CHECK_MSG(r.omega == omegas[i] && r.num_k == 0 && r.overflowed == 0, "graph %d: omega %u", i, r.omega);
      gclq_kclique_result_free(&r);
      o = kc_opts((gclq_kclique_method)m, 3 + (uint32_t)rng.below(5), 0);
      o.per_vertex = 1;
      o.max_stored = 10;
      CHECK(gclq_kcliques(gs[i], &o, &r) == GCLQ_SUCCESS);
      CHECK(r.num_k == 1 && r.h_counts[0] == 0 && r.h_status[0] == GCLQ_SUCCESS && r.stored == 0);
      for (uint32_t v = 0; v < gs[i]->num_vertices; ++v) CHECK(r.h_per_vertex[v] == 0);
      gclq_kclique_result_free(&r);
    }
  /* k far above omega (no buffers of k entries) */
  kc_graph k5 = kc_complete(5);
  for (int m = 1; m <= 2; ++m) {
    gclq_kclique_options o = kc_opts((gclq_kclique_method)m, 4000000000u, 0);
    o.max_stored = 3;
    gclq_kclique_result r;
    CHECK(gclq_kcliques(&k5.g, &o, &r) == GCLQ_SUCCESS);
    CHECK(r.k_first == 4000000000u && r.h_counts[0] == 0 && r.stored == 0);
    gclq_kclique_result_free(&r);
    o.k = 6;
    CHECK(gclq_kcliques(&k5.g, &o, &r) == GCLQ_SUCCESS && r.h_counts[0] == 0);
    gclq_kclique_result_free(&r);
  }
}

/* ---- options, NULLs, backends, logs ---------------------------------------- */

/* A log's lines: how many, the first and the last. */
struct kc_log_seen {
  int lines = 0;
  char first[160] = "", last[160] = "";
};

static void kc_note_lines(void *user, const char *line) {
  CHECK(line != NULL && line[0] != '\0');
  kc_log_seen *s = (kc_log_seen *)user;
  if (line == NULL) return;
  snprintf(s->lines++ == 0 ? s->first : s->last, sizeof s->last, "%s", line);
}

TEST(kcliques, options_and_bad_arguments) {
  kc_graph k5 = kc_complete(5);
  gclq_kclique_options o, bad;
  gclq_kclique_result r;
  gclq_kclique_options_defaults(&o);
  CHECK(o.backend == GCLQ_BACKEND_AUTO && o.method == GCLQ_KCLIQUE_AUTO && o.k == 3 && !o.all);
  CHECK(o.orientation == GCLQ_ORIENT_BY_DEGENERACY && !o.per_vertex && o.max_stored == 0);
  gclq_kclique_options_defaults(NULL); /* no crash */
  /* NULL options: k = 3; AUTO runs CUDA with a device, else HOST and says why */
  CHECK(gclq_kcliques(&k5.g, NULL, &r) == GCLQ_SUCCESS && r.h_counts[0] == 10);
  if (g_test.have_gpu) {
    CHECK(r.stats.backend == GCLQ_BACKEND_CUDA && r.stats.method != GCLQ_KCLIQUE_AUTO);
  } else {
    CHECK(r.stats.backend == GCLQ_BACKEND_HOST && strstr(r.stats.notes, "no CUDA device") != NULL);
    CHECK(r.stats.method == GCLQ_KCLIQUE_ORDERED); /* AUTO: small k, small cores */
  }
  gclq_kclique_result_free(&r);
  o.all = 1;
  CHECK(gclq_kcliques(&k5.g, &o, &r) == GCLQ_SUCCESS && r.omega == 5);
  CHECK(g_test.have_gpu || r.stats.method == GCLQ_KCLIQUE_PIVOT);
  gclq_kclique_result_free(&r);
  /* errors leave the result zeroed */
  memset(&r, 0xab, sizeof r);
  CHECK(gclq_kcliques(NULL, NULL, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  CHECK(gclq_kcliques(&k5.g, NULL, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  gclq_kclique_options_defaults(&o);
  bad = o, bad.k = 2;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  bad = o, bad.k = 1;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  /* a zeroed struct is the defaults: k = 3 */
  gclq_kclique_options zero;
  memset(&zero, 0, sizeof zero);
  CHECK(gclq_kcliques(&k5.g, &zero, &r) == GCLQ_SUCCESS && r.k_first == 3 && r.h_counts[0] == 10);
  gclq_kclique_result_free(&r);
  bad = o, bad.method = (gclq_kclique_method)-1;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  bad = o, bad.orientation = (gclq_orient_by)3;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  bad = o, bad.backend = (gclq_backend)7;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  bad = o, bad.all = 1, bad.per_vertex = 1;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  bad = o, bad.all = 1, bad.max_stored = 4;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  bad = o, bad.method = (gclq_kclique_method)7;
  CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  bad = o, bad.backend = GCLQ_BACKEND_CUDA;
  if (!g_test.have_gpu) {
    gclq_status st = gclq_kcliques(&k5.g, &bad, &r);
    CHECK((st == GCLQ_ERROR_NO_DEVICE || st == GCLQ_ERROR_BACKEND_UNAVAILABLE) && kc_zeroed(r));
  }
  /* HOST asked for a CUDA-only method counts by ORDERED */
  for (int m = GCLQ_KCLIQUE_LFTJ; m <= GCLQ_KCLIQUE_BITSET; ++m) {
    bad = o, bad.method = (gclq_kclique_method)m, bad.backend = GCLQ_BACKEND_HOST;
    CHECK(gclq_kcliques(&k5.g, &bad, &r) == GCLQ_SUCCESS && r.h_counts[0] == 10 &&
          r.stats.method == GCLQ_KCLIQUE_ORDERED);
    CHECK(strcmp(gclq_kclique_method_name((gclq_kclique_method)m), "unknown") != 0);
    gclq_kclique_result_free(&r);
  }
  /* a malformed graph */
  kc_graph broken = kc_complete(4);
  broken.nbr[1] = broken.nbr[0]; /* not strictly ascending */
  CHECK(gclq_kcliques(&broken.g, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r));
  /* the log: phase lines, the order's first and the count's last, on
     either backend */
  for (int cuda = 0; cuda <= (g_test.have_gpu ? 1 : 0); ++cuda) {
    kc_log_seen seen;
    o.log = kc_note_lines;
    o.log_user = &seen;
    o.backend = cuda ? GCLQ_BACKEND_CUDA : GCLQ_BACKEND_HOST;
    CHECK(gclq_kcliques(&k5.g, &o, &r) == GCLQ_SUCCESS && seen.lines >= 2);
    CHECK_MSG(strncmp(seen.first, "order: ", 7) == 0 && strncmp(seen.last, "count: done", 11) == 0,
              "%s log: first \"%s\", last \"%s\"", cuda ? "CUDA" : "HOST", seen.first, seen.last);
    gclq_kclique_result_free(&r);
  }
  gclq_kclique_result_free(NULL);
  gclq_kclique_result_free(&r); /* zeroed: fine */
  CHECK(strcmp(gclq_kclique_method_name(GCLQ_KCLIQUE_PIVOT), "pivot") == 0);
  CHECK(strcmp(gclq_kclique_method_name((gclq_kclique_method)9), "unknown") == 0);
  CHECK(strcmp(gclq_orient_by_name(GCLQ_ORIENT_BY_DEGREE), "degree") == 0);
  CHECK(strcmp(gclq_status_string(GCLQ_ERROR_OVERFLOW), "unknown status") != 0);
}

/* A caller's CSR that passes the CSR checks (offsets, sorted lists, ids in
   range, no loops) but lists edges at one end only: 0:{3} 1:{3} 2:{3} 3:{0},
   m = 2. Orienting it keeps three edges where a symmetric CSR keeps m; every
   HOST method and orientation refuses it, with the result zeroed and nothing
   leaked (it used to write past the out-lists). A symmetric CSR whose edges
   are listed in the same places still counts. */
TEST(kcliques, one_sided_csr_is_refused) {
  uint64_t off[5] = {0, 1, 2, 3, 4};
  uint32_t nbr[4] = {3, 3, 3, 0};
  gclq_graph g;
  memset(&g, 0, sizeof g);
  g.num_vertices = 4, g.num_edges = 2, g.h_offsets = off, g.h_neighbors = nbr;
  for (int by = 0; by < 2; ++by)
    for (int m = 0; m < 2; ++m)
      for (int all = 0; all < 2; ++all) {
        gclq_kclique_options o = kc_opts(m ? GCLQ_KCLIQUE_PIVOT : GCLQ_KCLIQUE_ORDERED, all ? 0 : 3, all);
        o.orientation = by ? GCLQ_ORIENT_BY_DEGENERACY : GCLQ_ORIENT_BY_DEGREE;
        o.per_vertex = !all;
        gclq_kclique_result r;
        memset(&r, 0xab, sizeof r);
        const long long live = g_alloc_live;
        CHECK_MSG(gclq_kcliques(&g, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT && kc_zeroed(r),
                  "orientation %d method %d all %d", by, m, all);
        CHECK(g_alloc_live == live);
      }
  /* the star 3 - {0, 1, 2} listed at both ends: m = 3, no triangle */
  uint64_t off2[5] = {0, 1, 2, 3, 6};
  uint32_t nbr2[6] = {3, 3, 3, 0, 1, 2};
  g.num_edges = 3, g.h_offsets = off2, g.h_neighbors = nbr2;
  gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_ORDERED, 3, 0);
  gclq_kclique_result r;
  CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS && r.num_k == 1 && r.h_counts[0] == 0);
  gclq_kclique_result_free(&r);
}

/* Every allocation of a run fails in turn: the call reports OUT_OF_MEMORY,
   zeroes the result and leaks nothing; then it succeeds with the counts. */
TEST(kcliques, allocation_failures_leak_nothing) {
  test_rng rng = test_rng_for("kcliques_alloc");
  kc_graph k = kc_random(30, 0.5, 8, rng);
  kc_brute b(k);
  for (int m = 1; m <= 2; ++m)
    for (int all = 0; all <= 1; ++all) {
      gclq_kclique_options o = kc_opts((gclq_kclique_method)m, 5, all);
      o.orientation = m == 1 ? GCLQ_ORIENT_BY_DEGREE : GCLQ_ORIENT_BY_DEGENERACY;
      if (!all) o.per_vertex = 1, o.max_stored = 100000;
      for (long long at = 0;; ++at) {
        long long live = g_alloc_live;
        gclq_kclique_result r;
        g_alloc_fail_at = g_alloc_calls + at;
        gclq_status st = gclq_kcliques(&k.g, &o, &r);
        g_alloc_fail_at = -1;
        if (st == GCLQ_SUCCESS) {
          CHECK(r.h_counts[0] == b.count[all ? 3 : 5] && at > 3);
          gclq_kclique_result_free(&r);
          CHECK(g_alloc_live == live);
          break;
        }
        CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && kc_zeroed(r), "failing allocation %lld: %s", at,
                  gclq_status_string(st));
        CHECK_MSG(g_alloc_live == live, "failing allocation %lld leaked %lld blocks", at, g_alloc_live - live);
        CHECK_OK_SO_FAR();
      }
    }
}

/* ---- core numbers and the degeneracy order ----------------------------------- */

/* Core numbers by the definition: repeatedly remove a vertex of degree < c. */
static std::vector<uint32_t> kc_cores_slow(const gclq_graph &g) {
  uint32_t n = g.num_vertices;
  std::vector<uint32_t> core(n, 0), deg(n);
  std::vector<char> gone(n, 0);
  for (uint32_t v = 0; v < n; ++v) deg[v] = (uint32_t)(g.h_offsets[v + 1] - g.h_offsets[v]);
  for (uint32_t c = 0, left = n; left > 0; ++c)
    for (int changed = 1; changed;) {
      changed = 0;
      for (uint32_t v = 0; v < n; ++v)
        if (!gone[v] && deg[v] <= c) {
          gone[v] = 1, core[v] = c, --left, changed = 1;
          for (uint64_t e = g.h_offsets[v]; e < g.h_offsets[v + 1]; ++e) --deg[g.h_neighbors[e]];
        }
    }
  return core;
}

/* The parallel peeling's order, slowly: at level k (ascending), every vertex
   left of remaining degree <= k leaves in one round (a scan of all vertices
   per round); the order is by (round, id). */
static std::vector<uint32_t> kc_rounds_order_slow(const gclq_graph &g) {
  uint32_t n = g.num_vertices, left = n, k = 0, r = 0;
  std::vector<uint32_t> deg(n), round(n, UINT32_MAX), order;
  for (uint32_t v = 0; v < n; ++v) deg[v] = (uint32_t)(g.h_offsets[v + 1] - g.h_offsets[v]);
  while (left > 0) {
    std::vector<uint32_t> leave;
    uint32_t smallest = UINT32_MAX;
    for (uint32_t v = 0; v < n; ++v)
      if (round[v] == UINT32_MAX) {
        if (deg[v] <= k) leave.push_back(v);
        else smallest = std::min(smallest, deg[v]);
      }
    if (leave.empty()) {
      k = smallest;
      continue;
    }
    for (size_t i = 0; i < leave.size(); ++i) round[leave[i]] = r;
    for (size_t i = 0; i < leave.size(); ++i)
      for (uint64_t e = g.h_offsets[leave[i]]; e < g.h_offsets[leave[i] + 1]; ++e)
        if (round[g.h_neighbors[e]] == UINT32_MAX) --deg[g.h_neighbors[e]];
    left -= (uint32_t)leave.size();
    ++r;
  }
  for (uint32_t q = 0; q < r; ++q)
    for (uint32_t v = 0; v < n; ++v)
      if (round[v] == q) order.push_back(v);
  return order;
}

static void kc_check_cores(const gclq_graph &g, gclq_backend backend, const char *what) {
  std::vector<uint32_t> want = kc_cores_slow(g), core(g.num_vertices + 1, 0xdeadbeef), order(g.num_vertices + 1);
  uint32_t max_core = 12345, want_max = 0;
  for (size_t i = 0; i < want.size(); ++i) want_max = std::max(want_max, want[i]);
  CHECK(gclq_core_numbers(&g, backend, core.data(), &max_core) == GCLQ_SUCCESS);
  CHECK_MSG(max_core == want_max, "%s: max core %u, want %u", what, max_core, want_max);
  CHECK_MSG(std::equal(want.begin(), want.end(), core.begin()), "%s: core numbers differ", what);
  CHECK(gclq_core_numbers(&g, backend, NULL, &max_core) == GCLQ_SUCCESS && max_core == want_max);
  if (backend != GCLQ_BACKEND_HOST) return;
  /* the order: a permutation, cores non-decreasing, at most core[v] later neighbours */
  CHECK(gclq_degeneracy_order(&g, order.data()) == GCLQ_SUCCESS);
  std::vector<uint32_t> rank(g.num_vertices, UINT32_MAX);
  for (uint32_t i = 0; i < g.num_vertices; ++i) {
    CHECK(order[i] < g.num_vertices && rank[order[i]] == UINT32_MAX);
    rank[order[i]] = i;
    if (i > 0) CHECK(want[order[i - 1]] <= want[order[i]]);
  }
  for (uint32_t v = 0; v < g.num_vertices; ++v) {
    uint32_t later = 0;
    for (uint64_t e = g.h_offsets[v]; e < g.h_offsets[v + 1]; ++e) later += rank[g.h_neighbors[e]] > rank[v];
    CHECK_MSG(later <= want[v], "%s: vertex %u has %u later neighbours, core %u", what, v, later, want[v]);
  }
  if (g.num_vertices <= 20000) { /* and it is exactly the parallel peeling's (round, id) order */
    std::vector<uint32_t> slow = kc_rounds_order_slow(g);
    CHECK_MSG(std::equal(slow.begin(), slow.end(), order.begin()), "%s: not the peeling rounds' order", what);
  }
}

static void kc_cores_on(gclq_backend backend) {
  test_rng rng = test_rng_for("kcliques_cores");
  char what[64];
  for (int t = 0; t < 30; ++t) {
    kc_graph k = kc_random(1 + (uint32_t)rng.below(64), (double)rng.below(1000) / 1000.0, 0, rng);
    snprintf(what, sizeof what, "random graph %d", t);
    kc_check_cores(k.g, backend, what);
  }
  gclq_graph g;
  memset(&g, 0, sizeof g);
  kc_check_cores(g, backend, "empty graph");
  CHECK(gclq_graph_rmat(12, 16, rng.next(), &g) == GCLQ_SUCCESS);
  kc_check_cores(g, backend, "R-MAT 12");
  gclq_graph_free(&g);
  std::vector<kc_ref> refs = kc_references();
  for (size_t i = 0; i < refs.size(); ++i) {
    CHECK(gclq_graph_load(refs[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS);
    kc_check_cores(g, backend, refs[i].path.c_str());
    gclq_graph_free(&g);
  }
}

TEST(kcliques, host_core_numbers_and_degeneracy_order) {
  kc_cores_on(GCLQ_BACKEND_HOST);
  kc_graph k5 = kc_complete(5);
  uint32_t core[5], max_core = 0;
  CHECK(gclq_core_numbers(NULL, GCLQ_BACKEND_HOST, core, &max_core) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_core_numbers(&k5.g, (gclq_backend)5, core, &max_core) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_degeneracy_order(&k5.g, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_degeneracy_order(NULL, core) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_core_numbers(&k5.g, GCLQ_BACKEND_AUTO, core, &max_core) == GCLQ_SUCCESS && max_core == 4);
  gclq_status st = gclq_core_numbers(&k5.g, GCLQ_BACKEND_CUDA, core, &max_core);
  if (g_test.have_gpu) CHECK(st == GCLQ_SUCCESS && max_core == 4);
  else CHECK(st == GCLQ_ERROR_NO_DEVICE || st == GCLQ_ERROR_BACKEND_UNAVAILABLE);
}

/* Both device peelings (one cooperative launch; a loop of launches) give
   the host's cores, and their rounds orient the CUDA methods' edges as
   gclq_degeneracy_order does on the host: a CUDA count by the degeneracy
   order reports the largest core and out-degree of the host's oriented
   graph (cliqt_orient) and the HOST count. (The rounds themselves are not
   public: the device's order is seen through its out-degrees.) */
static void kc_check_peel(const gclq_graph &g, const char *what) {
  std::vector<uint32_t> want(g.num_vertices + 1);
  uint32_t want_max = 0, want_out = 0;
  CHECK(gclq_core_numbers(&g, GCLQ_BACKEND_HOST, want.data(), &want_max) == GCLQ_SUCCESS); /* checked above */
  std::vector<uint64_t> off;
  std::vector<uint32_t> out;
  CHECK(cliqt_orient(&g, GCLQ_ORIENT_BY_DEGENERACY, off, out, &want_out) == GCLQ_SUCCESS);
  gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_ORDERED, 3, 0);
  o.orientation = GCLQ_ORIENT_BY_DEGENERACY;
  gclq_kclique_result host;
  CHECK(gclq_kcliques(&g, &o, &host) == GCLQ_SUCCESS);
  CHECK(host.stats.max_out_degree == want_out);
  static const char *const modes[] = {"cooperative", "launches"};
  for (int mode = 0; mode < 2; ++mode) {
    cliqt_set_peel_by_launches(mode == 1);
    std::vector<uint32_t> core(g.num_vertices + 1, 0xdeadbeef);
    uint32_t max_core = 12345;
    gclq_status st = gclq_core_numbers(&g, GCLQ_BACKEND_CUDA, core.data(), &max_core);
    CHECK_MSG(st == GCLQ_SUCCESS, "%s (%s, %u vertices, %llu edges): %s", what, modes[mode], g.num_vertices,
              (unsigned long long)g.num_edges, gclq_status_string(st));
    CHECK_MSG(max_core == want_max, "%s (%s): max core %u, want %u", what, modes[mode], max_core, want_max);
    CHECK_MSG(std::equal(core.begin(), core.begin() + g.num_vertices, want.begin()), "%s (%s): cores differ", what,
              modes[mode]);
    CHECK_MSG(core[g.num_vertices] == 0xdeadbeef, "%s (%s): written past the cores", what, modes[mode]);
    gclq_kclique_options co = o;
    co.backend = GCLQ_BACKEND_CUDA;
    co.method = GCLQ_KCLIQUE_LFTJ;
    gclq_kclique_result r;
    st = gclq_kcliques(&g, &co, &r);
    CHECK_MSG(st == GCLQ_SUCCESS, "%s (%s): LFTJ by degeneracy: %s", what, modes[mode], gclq_status_string(st));
    if (st == GCLQ_SUCCESS) {
      CHECK_MSG(r.stats.max_core == want_max && r.stats.max_out_degree == want_out,
                "%s (%s): max core %u, max out-degree %u; want %u, %u", what, modes[mode], r.stats.max_core,
                r.stats.max_out_degree, want_max, want_out);
      CHECK_MSG(r.h_counts[0] == host.h_counts[0], "%s (%s): %llu triangles, want %llu", what, modes[mode],
                (unsigned long long)r.h_counts[0], (unsigned long long)host.h_counts[0]);
      gclq_kclique_result_free(&r);
    }
  }
  cliqt_set_peel_by_launches(0);
  gclq_kclique_result_free(&host);
}

GPU_TEST(kcliques, cuda_core_numbers_match_host) {
  kc_cores_on(GCLQ_BACKEND_CUDA);
  test_rng rng = test_rng_for("kcliques_peel");
  char what[64];
  for (int t = 0; t < 20; ++t) {
    kc_graph k = kc_random(1 + (uint32_t)rng.below(64), (double)rng.below(1000) / 1000.0, 0, rng);
    snprintf(what, sizeof what, "random graph %d", t);
    kc_check_peel(k.g, what);
  }
  gclq_graph g;
  const uint32_t scales[] = {8, 12, 16};
  for (size_t i = 0; i < 3; ++i) {
    CHECK(gclq_graph_rmat(scales[i], 4 + (uint32_t)rng.below(13), rng.next(), &g) == GCLQ_SUCCESS);
    snprintf(what, sizeof what, "R-MAT %u", scales[i]);
    kc_check_peel(g, what);
    gclq_graph_free(&g);
  }
  std::vector<kc_ref> refs = kc_references();
  for (size_t i = 0; i < refs.size(); ++i) {
    CHECK(gclq_graph_load(refs[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS);
    kc_check_peel(g, refs[i].path.c_str());
    gclq_graph_free(&g);
  }
}

/* ---- the CUDA methods ------------------------------------------------------ */

/* The enumerating methods (all but PIVOT) visit every clique up to k: they
   run where the reference counts that many at most (seconds on a GPU). LFTJ
   (a thread per first vertex) and GROUPED (a warp per group) have few
   threads on the small dense DIMACS graphs: fewer. */
static uint64_t kc_cuda_max_visited(gclq_kclique_method m) {
  return m == GCLQ_KCLIQUE_LFTJ || m == GCLQ_KCLIQUE_GROUPED ? 30000000ull : 3000000000ull;
}

static double kc_wall_ms(void) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* Every data graph, every CUDA method: each k of the reference (PIVOT every
   k; the others up to k = 8 and kc_cuda_max_visited cliques), and every k at
   once (the others only where every k is within that). */
GPU_TEST(kcliques, cuda_data_graphs_match_reference) {
  std::vector<kc_ref> refs = kc_references();
  std::vector<kc_method> methods = kc_cuda_methods();
  CHECK(!methods.empty());
  if (refs.empty()) {
    printf("    (skipped: no test data)\n");
    return;
  }
  for (size_t i = 0; i < refs.size(); ++i) {
    const kc_ref &ref = refs[i];
    std::string name = kc_base(ref.path);
    gclq_graph g;
    CHECK(gclq_graph_load(ref.path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS);
    uint64_t total = 0; /* the cliques an enumerating method visits for every k */
    for (std::map<uint32_t, uint64_t>::const_iterator it = ref.counts.begin(); it != ref.counts.end(); ++it)
      total += it->second;
    for (size_t m = 0; m < methods.size(); ++m) {
      const int pivot = methods[m].method == GCLQ_KCLIQUE_PIVOT;
      const double t0 = kc_wall_ms();
      uint64_t visited = 0; /* the cliques an enumerating method visits up to this k */
      for (std::map<uint32_t, uint64_t>::const_iterator it = ref.counts.begin(); it != ref.counts.end(); ++it) {
        uint32_t k = it->first;
        visited += it->second;
        if (!pivot && (k > 8 || visited > kc_cuda_max_visited(methods[m].method))) continue;
        gclq_kclique_options o = kc_opts(methods[m].method, k, 0);
        o.backend = GCLQ_BACKEND_CUDA;
        o.orientation = (k & 1) ? GCLQ_ORIENT_BY_DEGENERACY : GCLQ_ORIENT_BY_DEGREE;
        gclq_kclique_result r;
        CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
        CHECK_MSG(r.num_k == 1 && r.h_status[0] == GCLQ_SUCCESS && r.h_counts[0] == it->second,
                  "%s k %u %s: %llu, want %llu", name.c_str(), k, kc_method_name(methods[m]),
                  (unsigned long long)(r.num_k ? r.h_counts[0] : 0), (unsigned long long)it->second);
        gclq_kclique_result_free(&r);
      }
      if ((!pivot && (kc_slow_all(name) || total > kc_cuda_max_visited(methods[m].method))) ||
          name == "san200_0.7_1") { /* every k of san200_0.7_1 takes minutes, on HOST too */
        printf("    %s %s: %.0f ms (one k at a time)\n", name.c_str(), kc_method_name(methods[m]),
               kc_wall_ms() - t0);
        continue;
      }
      gclq_kclique_options o = kc_opts(methods[m].method, 0, 1);
      o.backend = GCLQ_BACKEND_CUDA;
      gclq_kclique_result r;
      CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
      for (uint32_t j = 0; j < r.num_k; ++j) {
        std::map<uint32_t, uint64_t>::const_iterator it = ref.counts.find(r.k_first + j);
        if (it != ref.counts.end())
          CHECK_MSG(r.h_status[j] == GCLQ_SUCCESS && r.h_counts[j] == it->second, "%s all k %u %s: %llu, want %llu",
                    name.c_str(), r.k_first + j, kc_method_name(methods[m]), (unsigned long long)r.h_counts[j],
                    (unsigned long long)it->second);
      }
      for (std::map<uint32_t, uint64_t>::const_iterator it = ref.counts.begin(); it != ref.counts.end(); ++it)
        if (it->first > r.omega) CHECK_MSG(it->second == 0, "%s %s: omega %u", name.c_str(), kc_method_name(methods[m]),
                                           r.omega);
      gclq_kclique_result_free(&r);
      printf("    %s %s: %.0f ms\n", name.c_str(), kc_method_name(methods[m]),
             kc_wall_ms() - t0);
      fflush(stdout);
    }
    gclq_graph_free(&g);
    CHECK_OK_SO_FAR();
  }
}

/* Small inputs for the sanitizers (compute-sanitizer runs this test in a
   minute where the larger ones take many): every method, k = 3 .. 6 with
   per-vertex counts and every k at once, on K_9 and two random graphs with
   a planted clique, against brute force. */
GPU_TEST(kcliques, cuda_small_graphs_every_method) {
  test_rng rng = test_rng_for("kcliques_cuda_small");
  std::vector<kc_method> methods = kc_cuda_methods();
  CHECK(!methods.empty());
  for (int t = 0; t < 3; ++t) {
    kc_graph k = t == 0 ? kc_complete(9) : kc_random(20 + (uint32_t)rng.below(20), 0.3 + 0.3 * t, 7, rng);
    kc_brute b(k);
    for (size_t m = 0; m < methods.size(); ++m) {
      for (uint32_t kk = 3; kk <= 6; ++kk) {
        gclq_kclique_options o = kc_opts(methods[m].method, kk, 0);
        o.backend = GCLQ_BACKEND_CUDA;
        o.orientation = (kk & 1) ? GCLQ_ORIENT_BY_DEGENERACY : GCLQ_ORIENT_BY_DEGREE;
        o.per_vertex = t != 1; /* graph 1 without: PIVOT closes its last two levels */
        gclq_kclique_result r;
        CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
        const uint64_t want = kk < b.count.size() ? b.count[kk] : 0;
        CHECK_MSG(r.h_counts[0] == want, "graph %d k %u %s: %llu, want %llu", t, kk, kc_method_name(methods[m]),
                  (unsigned long long)r.h_counts[0], (unsigned long long)want);
        for (uint32_t v = 0; o.per_vertex && v < k.n; ++v)
          CHECK_MSG(r.h_per_vertex[v] == (kk < b.per.size() ? b.per[kk][v] : 0), "graph %d k %u %s: vertex %u", t,
                    kk, kc_method_name(methods[m]), v);
        gclq_kclique_result_free(&r);
      }
      gclq_kclique_options o = kc_opts(methods[m].method, 0, 1);
      o.backend = GCLQ_BACKEND_CUDA;
      gclq_kclique_result r;
      CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
      CHECK(r.omega == b.omega());
      for (uint32_t j = 0; j < r.num_k; ++j)
        CHECK_MSG(r.h_counts[j] == b.count[3 + j], "graph %d all, k %u %s", t, 3 + j, kc_method_name(methods[m]));
      gclq_kclique_result_free(&r);
    }
  }
}

/* AUTO on CUDA: LEVEL_JOIN for triangles, BITSET below
   GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K, PIVOT from it and for every k; the counts
   equal HOST's. */
GPU_TEST(kcliques, cuda_auto_picks_a_method_and_counts) {
  test_rng rng = test_rng_for("kcliques_cuda_auto");
  gclq_graph g;
  CHECK(gclq_graph_rmat(10 + (uint32_t)rng.below(3), 8 + (uint32_t)rng.below(9), rng.next(), &g) == GCLQ_SUCCESS);
  const uint32_t ks[] = {0, 3, 4, 5, GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K - 1, GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
    gclq_kclique_options h = kc_opts(GCLQ_KCLIQUE_PIVOT, ks[i], ks[i] == 0);
    gclq_kclique_result want, r;
    CHECK(gclq_kcliques(&g, &h, &want) == GCLQ_SUCCESS);
    gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_AUTO, ks[i], ks[i] == 0);
    o.backend = GCLQ_BACKEND_AUTO;
    CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS);
    CHECK(r.stats.backend == GCLQ_BACKEND_CUDA);
    CHECK_MSG(r.stats.method == (ks[i] == 0 || ks[i] >= GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K ? GCLQ_KCLIQUE_PIVOT
                                 : ks[i] == 3                                       ? GCLQ_KCLIQUE_LEVEL_JOIN
                                                                                    : GCLQ_KCLIQUE_BITSET),
              "k %u: %s", ks[i], gclq_kclique_method_name(r.stats.method));
    CHECK(r.num_k == want.num_k && r.omega == want.omega);
    for (uint32_t j = 0; j < r.num_k && j < want.num_k; ++j)
      CHECK_MSG(r.h_counts[j] == want.h_counts[j] && r.h_status[j] == want.h_status[j], "k %u: %llu, want %llu",
                want.k_first + j, (unsigned long long)r.h_counts[j], (unsigned long long)want.h_counts[j]);
    gclq_kclique_result_free(&r);
    gclq_kclique_result_free(&want);
  }
  gclq_graph_free(&g);
}

/* Complete graphs: C(n, k) for every method, every k at once and one k. */
GPU_TEST(kcliques, cuda_complete_graphs_give_binomials) {
  const uint32_t sizes[] = {1, 2, 3, 4, 5, 9, 16, 20, 31, 32, 33, 64};
  std::vector<kc_method> methods = kc_cuda_methods();
  CHECK(!methods.empty());
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    uint32_t n = sizes[s];
    kc_graph k = kc_complete(n);
    for (size_t m = 0; m < methods.size(); ++m) {
      if (methods[m].method != GCLQ_KCLIQUE_PIVOT && n > 20) continue; /* they visit all 2^n cliques */
      gclq_kclique_options o = kc_opts(methods[m].method, 0, 1);
      o.backend = GCLQ_BACKEND_CUDA;
      gclq_kclique_result r;
      CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
      CHECK_MSG(r.omega == n && r.num_k == (n >= 3 ? n - 2 : 0), "K_%u %s: omega %u", n, kc_method_name(methods[m]),
                r.omega);
      for (uint32_t j = 0; j < r.num_k; ++j)
        CHECK_MSG(r.h_status[j] == GCLQ_SUCCESS && r.h_counts[j] == (uint64_t)kc_binom128(n, 3 + j), "K_%u k %u %s",
                  n, 3 + j, kc_method_name(methods[m]));
      gclq_kclique_result_free(&r);
      for (uint32_t kk = 3; kk <= n + 2 && kk <= 12; ++kk) {
        o = kc_opts(methods[m].method, kk, 0);
        o.backend = GCLQ_BACKEND_CUDA;
        CHECK(gclq_kcliques(&k.g, &o, &r) == GCLQ_SUCCESS);
        CHECK_MSG(r.h_counts[0] == (uint64_t)kc_binom128(n, kk), "K_%u k %u %s", n, kk, kc_method_name(methods[m]));
        gclq_kclique_result_free(&r);
      }
    }
  }
}

/* R-MAT graphs: every CUDA method equals HOST (counts, per-vertex counts,
   the first listed cliques, the orientation's statistics) for k = 3 .. 6
   and every k, under the default budget and under budgets small enough to
   force windows; a budget below the graph itself is OUT_OF_MEMORY with the
   result zeroed. */
GPU_TEST(kcliques, cuda_rmat_and_budgets_match_host) {
  test_rng rng = test_rng_for("kcliques_cuda_rmat");
  std::vector<kc_method> methods = kc_cuda_methods();
  CHECK(!methods.empty());
  gclq_graph g;
  CHECK(gclq_graph_rmat(9 + (uint32_t)rng.below(2), 6 + (uint32_t)rng.below(7), rng.next(), &g) == GCLQ_SUCCESS);
  const size_t graph_bytes = (size_t)(g.num_vertices + 1) * 8 + (size_t)g.num_edges * 8 + (size_t)g.num_vertices * 8;
  for (uint32_t kk = 0; kk <= 6; ++kk) {
    if (kk == 1 || kk == 2) continue;
    for (int orient = 1; orient <= 2; ++orient) {
      gclq_kclique_options h = kc_opts(GCLQ_KCLIQUE_PIVOT, kk, kk == 0);
      h.orientation = (gclq_orient_by)orient;
      h.per_vertex = kk != 0;
      h.max_stored = kk != 0 ? 1 + rng.below(200) : 0;
      gclq_kclique_result want;
      CHECK(gclq_kcliques(&g, &h, &want) == GCLQ_SUCCESS);
      for (size_t m = 0; m < methods.size(); ++m)
        for (int b = 0; b < 3; ++b) {
          if (b > 0 && kk != 0 && kk != 4) continue; /* small budgets: one k and every size */
          gclq_kclique_options o = h;
          o.backend = GCLQ_BACKEND_CUDA;
          o.method = methods[m].method;
          o.device_budget_bytes = b == 0 ? 0 : graph_bytes * 4 + (b == 1 ? (4u << 20) : (1u << 20));
          gclq_kclique_result r;
          const double t0 = kc_wall_ms();
          gclq_status st = gclq_kcliques(&g, &o, &r);
          printf("    %s k %u %s budget %zu: %.1f ms\n", kc_method_name(methods[m]), kk,
                 gclq_orient_by_name(h.orientation), o.device_budget_bytes, kc_wall_ms() - t0);
          fflush(stdout);
          CHECK_MSG(st == GCLQ_SUCCESS, "%s k %u budget %zu: %s", kc_method_name(methods[m]), kk, o.device_budget_bytes,
                    gclq_status_string(st));
          if (st != GCLQ_SUCCESS) continue;
          CHECK_MSG(r.num_k == want.num_k && r.omega == want.omega, "%s k %u: num_k %u omega %u",
                    kc_method_name(methods[m]), kk, r.num_k, r.omega);
          for (uint32_t j = 0; j < r.num_k && j < want.num_k; ++j)
            CHECK_MSG(r.h_counts[j] == want.h_counts[j] && r.h_status[j] == want.h_status[j],
                      "%s k %u budget %zu: %llu, want %llu", kc_method_name(methods[m]), want.k_first + j,
                      o.device_budget_bytes, (unsigned long long)r.h_counts[j], (unsigned long long)want.h_counts[j]);
          CHECK(r.stats.max_out_degree == want.stats.max_out_degree && r.stats.max_core == want.stats.max_core);
          if (kk != 0) {
            CHECK(std::equal(want.h_per_vertex, want.h_per_vertex + g.num_vertices, r.h_per_vertex));
            CHECK(r.stored == want.stored &&
                  std::equal(want.h_cliques, want.h_cliques + want.stored * kk, r.h_cliques));
          }
          CHECK(r.stats.backend == GCLQ_BACKEND_CUDA && r.stats.method == methods[m].method);
          CHECK(b == 0 || r.stats.peak_device_bytes <= o.device_budget_bytes);
          gclq_kclique_result_free(&r);
        }
      gclq_kclique_result_free(&want);
    }
  }
  gclq_kclique_options o = kc_opts(methods[0].method, 4, 0);
  o.backend = GCLQ_BACKEND_CUDA;
  o.device_budget_bytes = 4096;
  gclq_kclique_result r;
  CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_ERROR_OUT_OF_MEMORY && kc_zeroed(r));
  gclq_graph_free(&g);
}

/* A budget that splits the work into windows: three times the graph and
   64 KiB .. 2 MiB more, drawn evenly in log scale. Not less: below it the
   windows hold a few parents each and a run costs minutes (each window
   waits for the device several times), which says nothing more about the
   layouts. */
static size_t kc_small_budget(size_t graph_bytes, test_rng &rng) {
  return graph_bytes * 3 + ((size_t)64 << 10 << rng.below(6));
}

/* The CUDA PIVOT with tasks that hand their levels on after 1 to 64 nodes,
   rounds of 1 to 300 tasks, task stacks from a few records (budgets just
   above what the graph and one stack need) to many: every k, every size, per-vertex counts, each equal to the HOST PIVOT's,
   and as many nodes as the CUDA PIVOT without the hooks (splitting walks
   the same trees; the device's orientation may break ties unlike the
   host's, so the HOST's node count may differ). The graphs: R-MAT, and a
   K_1060 less a random matching of 8 edges among sparse edges (rows of
   34 words, universal candidates; 2^8 maximal cliques, a small tree). */
GPU_TEST(kcliques, cuda_pivot_split_tasks_match_host) {
  test_rng rng = test_rng_for("kcliques_cuda_pivot_split");
  struct hook {
    ~hook() { cliqt_set_pivot_splits(0, 0); }
  } restore;
  static const uint64_t spills[] = {1, 2, 7, 64}, rounds[] = {1, 3, 300, 0};
  for (int gi = 0; gi < 5; ++gi) {
    gclq_graph g;
    if (gi == 4) { /* the near-clique */
      const uint32_t n = 1100, big = 1060;
      std::vector<uint64_t> src, dst;
      std::vector<uint32_t> perm(big);
      for (uint32_t i = 0; i < big; ++i) perm[i] = i;
      for (uint32_t i = big; i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
      for (uint32_t u = 0; u < big; ++u)
        for (uint32_t v = u + 1; v < big; ++v) {
          bool cut = false; /* the matching: perm[0]-perm[1], perm[2]-perm[3], ... */
          for (uint32_t j = 0; j < 16 && !cut; j += 2)
            cut = (perm[j] == u && perm[j + 1] == v) || (perm[j] == v && perm[j + 1] == u);
          if (!cut) src.push_back(u), dst.push_back(v);
        }
      for (uint32_t e = 0; e < 3 * n; ++e) {
        const uint32_t u = big + (uint32_t)rng.below(n - big), v = (uint32_t)rng.below(n);
        if (u != v) src.push_back(u), dst.push_back(v);
      }
      CHECK(gclq_graph_from_edges(src.data(), dst.data(), src.size(), &g) == GCLQ_SUCCESS);
    } else {
      CHECK(gclq_graph_rmat(8 + (uint32_t)rng.below(3), 8 + (uint32_t)rng.below(9), rng.next(), &g) == GCLQ_SUCCESS);
    }
    for (uint32_t kk = 0; kk <= 8; ++kk) {
      if (kk == 1 || kk == 2) continue;
      gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_PIVOT, kk, kk == 0);
      o.per_vertex = kk != 0 && rng.below(2) == 0;
      gclq_kclique_result want, base, r;
      CHECK(gclq_kcliques(&g, &o, &want) == GCLQ_SUCCESS);
      o.backend = GCLQ_BACKEND_CUDA;
      cliqt_set_pivot_splits(0, 0);
      CHECK(gclq_kcliques(&g, &o, &base) == GCLQ_SUCCESS);
      const uint64_t spill = spills[rng.below(4)], round = rounds[rng.below(4)];
      cliqt_set_pivot_splits(spill, round);
      const size_t graph_bytes = (size_t)(g.num_vertices + 1) * 16 + (size_t)g.num_edges * 8 + (size_t)g.num_vertices * 16;
      o.device_budget_bytes = rng.below(2) ? 0 : graph_bytes * 3 + (size_t)rng.below(2u << 20);
      gclq_status st = gclq_kcliques(&g, &o, &r);
      if (st == GCLQ_ERROR_OUT_OF_MEMORY && o.device_budget_bytes != 0) { /* too small a budget: a larger one */
        o.device_budget_bytes *= 4;
        st = gclq_kcliques(&g, &o, &r);
      }
      CHECK_MSG(st == GCLQ_SUCCESS, "graph %d k %u spill %llu round %llu budget %zu: %s", gi, kk,
                (unsigned long long)spill, (unsigned long long)round,
                o.device_budget_bytes, gclq_status_string(st));
      if (st == GCLQ_SUCCESS) {
        CHECK_MSG(r.num_k == want.num_k && r.omega == want.omega && r.stats.nodes == base.stats.nodes,
                  "graph %d k %u: num_k %u/%u omega %u/%u nodes %llu, %llu without splits (host %llu)", gi, kk,
                  r.num_k, want.num_k, r.omega, want.omega, (unsigned long long)r.stats.nodes,
                  (unsigned long long)base.stats.nodes, (unsigned long long)want.stats.nodes);
        for (uint32_t j = 0; j < r.num_k && j < want.num_k; ++j)
          CHECK_MSG(r.h_counts[j] == want.h_counts[j] && r.h_status[j] == want.h_status[j],
                    "graph %d k %u spill %llu round %llu: %llu, want %llu", gi, want.k_first + j,
                    (unsigned long long)spill, (unsigned long long)round,
                    (unsigned long long)r.h_counts[j], (unsigned long long)want.h_counts[j]);
        if (o.per_vertex) CHECK(std::equal(want.h_per_vertex, want.h_per_vertex + g.num_vertices, r.h_per_vertex));
        gclq_kclique_result_free(&r);
      }
      gclq_kclique_result_free(&base);
      gclq_kclique_result_free(&want);
      CHECK_OK_SO_FAR();
    }
    gclq_graph_free(&g);
  }
}

/* ---- the CUDA methods' layouts at their edges ----------------------------- */

/* A union of complete graphs K_s for s in sizes (vertex ids consecutive). */
static gclq_status kc_complete_union(const std::vector<uint32_t> &sizes, gclq_graph *g) {
  std::vector<uint64_t> src, dst;
  uint32_t base = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    for (uint32_t u = 0; u < sizes[i]; ++u)
      for (uint32_t v = u + 1; v < sizes[i]; ++v) src.push_back(base + u), dst.push_back(base + v);
    base += sizes[i];
  }
  return gclq_graph_from_edges(src.data(), dst.data(), src.size(), g);
}

/* One CUDA run (o: backend CUDA, a method) against want, the HOST PIVOT's
   result for the same k, orientation and per_vertex: the counts, their
   flags, the per-vertex counts, the method and orientation that ran, and
   with a budget the peak within it. A budget that proves too small for the
   graph and one window grows fourfold, at most four times. */
static void kc_cuda_equals(const gclq_graph &g, gclq_kclique_options o, const gclq_kclique_result &want,
                           const char *what) {
  gclq_kclique_result r;
  gclq_status st = gclq_kcliques(&g, &o, &r);
  for (int grow = 0; st == GCLQ_ERROR_OUT_OF_MEMORY && o.device_budget_bytes != 0 && grow < 4; ++grow) {
    CHECK(kc_zeroed(r));
    o.device_budget_bytes *= 4;
    st = gclq_kcliques(&g, &o, &r);
  }
  CHECK_MSG(st == GCLQ_SUCCESS, "%s %s k %u budget %zu: %s", what, gclq_kclique_method_name(o.method), o.k,
            o.device_budget_bytes, gclq_status_string(st));
  if (st != GCLQ_SUCCESS) return;
  CHECK_MSG(r.num_k == want.num_k && r.omega == want.omega && r.overflowed == want.overflowed,
            "%s %s k %u: num_k %u/%u omega %u/%u overflowed %u/%u", what, gclq_kclique_method_name(o.method), o.k,
            r.num_k, want.num_k, r.omega, want.omega, r.overflowed, want.overflowed);
  for (uint32_t j = 0; j < r.num_k && j < want.num_k; ++j)
    CHECK_MSG(r.h_counts[j] == want.h_counts[j] && r.h_status[j] == want.h_status[j],
              "%s %s k %u budget %zu: %llu, want %llu", what, gclq_kclique_method_name(o.method), want.k_first + j,
              o.device_budget_bytes, (unsigned long long)r.h_counts[j], (unsigned long long)want.h_counts[j]);
  if (o.per_vertex)
    CHECK_MSG(r.h_per_vertex != NULL && std::equal(want.h_per_vertex, want.h_per_vertex + g.num_vertices, r.h_per_vertex),
              "%s %s k %u: per-vertex counts differ", what, gclq_kclique_method_name(o.method), o.k);
  CHECK(r.stats.backend == GCLQ_BACKEND_CUDA && r.stats.method == o.method && r.stats.orientation == want.stats.orientation);
  CHECK(r.stats.max_out_degree == want.stats.max_out_degree && r.stats.max_core == want.stats.max_core);
  CHECK_MSG(o.device_budget_bytes == 0 || r.stats.peak_device_bytes <= o.device_budget_bytes,
            "%s %s k %u: peak %zu over the budget %zu", what, gclq_kclique_method_name(o.method), o.k,
            r.stats.peak_device_bytes, o.device_budget_bytes);
  gclq_kclique_result_free(&r);
}

/* The index math of the CUDA methods' windows, rows, stacks and tables,
   checked by what it serves: exact counts on graphs built to reach its
   edges, under budgets small enough that the work splits into many windows
   and the stacks shrink (each method's layout must then still fit, and
   count every clique once).
   - Complete graphs K_31, K_32, K_33, K_63, K_64, K_65 (one graph): their
     oriented out-degrees are every value 0 .. 64, so rows end on either
     side of each word (BITSET's units and rows, PIVOT's row words and
     frames), one k and, for PIVOT, every k.
   - G(1500, 0.1): out-lists of every length up to about a hundred (GROUPED's
     column-first lists and Bloom filters past a warp slot, LEVEL_JOIN's
     intersections and windows, BITSET's and PIVOT's windows over thousands
     of sources), k = 3 .. 6 and every k, both orientations.
   - K_20: k = 3 .. 22 and every k, the deepest stacks (BITSET's levels,
     LFTJ's stack words), and k past omega (0). The enumerating methods
     visit 2^19 cliques from its first source alone at every k past 10,
     so the small budget runs on half the k (both orientations).
   - K_67 and K_68, PIVOT, every k and k = 33, 34 with per-vertex counts:
     C(67, 33) fits in 64 bits, C(68, 34) does not (the binomial table's
     saturation and the tally's combination into flagged counts).
   - K_390, triangles (and PIVOT every k): out-lists of every length up to
     389, past GROUPED's warp slot of 384 candidates.
   One test a graph (gi), so that the suite's processes run them side by
   side. */
static void kc_layout_edges(int gi) {
  static const char *const names[] = {"K_31 .. K_65", "G(1500, 0.1)", "K_20", "K_67, K_68", "K_390"};
  test_rng rng = test_rng_for((std::string("kcliques_cuda_layout_edges ") + names[gi]).c_str());
  std::vector<kc_method> methods = kc_cuda_methods();
  CHECK(!methods.empty());
  {
    gclq_graph g;
    const char *what = names[gi];
    if (gi == 0) CHECK(kc_complete_union(std::vector<uint32_t>{31, 32, 33, 63, 64, 65}, &g) == GCLQ_SUCCESS);
    if (gi == 1) CHECK(gclq_graph_erdos_renyi(1500, 0.1, rng.next(), &g) == GCLQ_SUCCESS);
    if (gi == 2) CHECK(kc_complete_union(std::vector<uint32_t>{20}, &g) == GCLQ_SUCCESS);
    if (gi == 3) CHECK(kc_complete_union(std::vector<uint32_t>{67, 68}, &g) == GCLQ_SUCCESS);
    if (gi == 4) CHECK(kc_complete_union(std::vector<uint32_t>{390}, &g) == GCLQ_SUCCESS);
    const size_t graph_bytes = (size_t)(g.num_vertices + 1) * 16 + (size_t)g.num_edges * 8 + (size_t)g.num_vertices * 16;
    std::vector<uint32_t> ks;
    if (gi == 0) ks = {0, 3, 4, 5};
    if (gi == 1) ks = {0, 3, 4, 5, 6};
    if (gi == 2)
      for (uint32_t kk = 0; kk <= 22; ++kk)
        if (kk != 1 && kk != 2) ks.push_back(kk);
    if (gi == 3) ks = {0, 33, 34};
    if (gi == 4) ks = {0, 3};
    for (size_t ki = 0; ki < ks.size(); ++ki) {
      const uint32_t kk = ks[ki];
      gclq_kclique_options h = kc_opts(GCLQ_KCLIQUE_PIVOT, kk, kk == 0);
      h.orientation = (ki & 1) ? GCLQ_ORIENT_BY_DEGREE : GCLQ_ORIENT_BY_DEGENERACY;
      h.per_vertex = kk != 0;
      gclq_kclique_result want;
      CHECK(gclq_kcliques(&g, &h, &want) == GCLQ_SUCCESS);
      if (gi == 3 && kk == 0) { /* the documented flags: C(n, k) at or past 2^64 - 1 saturated and flagged */
        for (uint32_t j = 0; j < want.num_k; ++j) {
          unsigned __int128 c = kc_binom128(67, 3 + j) + kc_binom128(68, 3 + j);
          const bool over = c >= (unsigned __int128)UINT64_MAX;
          CHECK_MSG(want.h_status[j] == (over ? GCLQ_ERROR_OVERFLOW : GCLQ_SUCCESS) &&
                        want.h_counts[j] == (over ? UINT64_MAX : (uint64_t)c),
                    "K_67 + K_68, k %u", 3 + j);
        }
        CHECK(want.overflowed > 0);
      }
      for (size_t m = 0; m < methods.size(); ++m) {
        const gclq_kclique_method method = methods[m].method;
        /* the enumerating methods visit every clique up to k: not 2^65 of them */
        if (method != GCLQ_KCLIQUE_PIVOT && (gi == 3 || ((gi == 0 || gi == 4) && kk == 0))) continue;
        for (int b = 0; b < 2; ++b) {
          if (b == 1 && gi == 2 && ki % 4 >= 2 && method != GCLQ_KCLIQUE_PIVOT) continue;
          gclq_kclique_options o = h;
          o.backend = GCLQ_BACKEND_CUDA;
          o.method = method;
          o.device_budget_bytes = b == 0 ? 0 : kc_small_budget(graph_bytes, rng);
          /* LEVEL_JOIN holds a window's every level: on K_20 at every k, below
             1 MiB its windows run again and again (512 KiB: over 20 s, 256 KiB:
             minutes; docs/kcliques.md, Open), so it gets 1 or 2 MiB there,
             which still splits its levels (the tenth alone is over 6 MB) */
          if (b == 1 && gi == 2 && method == GCLQ_KCLIQUE_LEVEL_JOIN)
            o.device_budget_bytes = graph_bytes * 3 + ((size_t)1 << 20 << rng.below(2));
          const double t0 = kc_wall_ms();
          kc_cuda_equals(g, o, want, what);
          const double ms = kc_wall_ms() - t0;
          if (ms > 2000) /* the slow configurations, for the suite's time */
            printf("    %s, k %u, %s, %s: %.1f s\n", what, kk, gclq_kclique_method_name(method),
                   b ? "small budget" : "default budget", ms / 1000);
        }
      }
      gclq_kclique_result_free(&want);
      CHECK_OK_SO_FAR();
    }
    gclq_graph_free(&g);
  }
}
GPU_TEST(kcliques, cuda_layout_edges_word_sizes) { kc_layout_edges(0); }
GPU_TEST(kcliques, cuda_layout_edges_random_lists) { kc_layout_edges(1); }
GPU_TEST(kcliques, cuda_layout_edges_deep_stacks) { kc_layout_edges(2); }
GPU_TEST(kcliques, cuda_layout_edges_binomial_saturation) { kc_layout_edges(3); }
GPU_TEST(kcliques, cuda_layout_edges_past_the_warp_slot) { kc_layout_edges(4); }

/* ---- BITSET (clique/kc_bitset.cuh): windows and stacks use the room they get -- */

/* Out-degrees of kept sources for the BITSET tests: mostly small, some at
   the word edges (31, 32, 33), a few large. */
static std::vector<uint32_t> kcb_degrees(test_rng &rng, size_t n) {
  static const uint32_t edges[] = {1, 2, 31, 32, 33, 63, 64, 65, 1000};
  std::vector<uint32_t> d(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t pick = rng.below(10);
    d[i] = pick < 6 ? 1 + (uint32_t)rng.below(40) : pick < 9 ? edges[rng.below(9)] : 1 + (uint32_t)rng.below(3000);
  }
  return d;
}

/* The row words of sources [from, end). */
static uint64_t kcb_words(const std::vector<uint32_t> &d, size_t from, size_t end) {
  uint64_t words = 0;
  for (size_t p = from; p < end; ++p) words += (uint64_t)d[p] * ((d[p] + 31) / 32);
  return words;
}
/* The device bytes of a window (table of 32-byte entries rounded to 256,
   then the rows), counted here without the library's helper. */
static uint64_t kcb_bytes(const std::vector<uint32_t> &d, size_t from, size_t end) {
  return ((end - from) * 32 + 255) / 256 * 256 + 4 * kcb_words(d, from, end);
}

TEST(kcliques, bitset_windows_cover_the_sources_and_fit) {
  test_rng rng = test_rng_for("kcb_windows");
  const size_t sizes[] = {0, 1, 2, 31, 32, 33, 257, 2000};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
    const std::vector<uint32_t> d = kcb_degrees(rng, sizes[si]);
    uint64_t largest = 0;
    for (size_t p = 0; p < d.size(); ++p) largest = std::max(largest, kcb_bytes(d, p, p + 1));
    const uint64_t rooms[] = {0, 255, largest, largest + 1 + rng.below(100000), ~(uint64_t)0 / 8};
    for (size_t ri = 0; ri < sizeof rooms / sizeof rooms[0]; ++ri) {
      const uint64_t room = rooms[ri];
      size_t from = 0;
      while (from < d.size()) {
        const uint32_t end = cliqt_bitset_window_end(d.data(), (uint32_t)d.size(), (uint32_t)from, room);
        CHECK(end >= from && end <= d.size());
        if (end == from) { /* only when its first source alone does not fit */
          CHECK_MSG(kcb_bytes(d, from, from + 1) > room, "n %zu room %llu: empty window at %zu", d.size(),
                    (unsigned long long)room, from);
          CHECK(room < largest);
          break;
        }
        CHECK_EQ(cliqt_bitset_window_bytes(end - from, kcb_words(d, from, end)), kcb_bytes(d, from, end));
        CHECK_MSG(kcb_bytes(d, from, end) <= room, "n %zu room %llu: window [%zu, %u) too large", d.size(),
                  (unsigned long long)room, from, end);
        CHECK_MSG(end == d.size() || kcb_bytes(d, from, end + 1) > room, "n %zu room %llu: window [%zu, %u) not maximal",
                  d.size(), (unsigned long long)room, from, end);
        from = end;
      }
      if (room >= largest) CHECK_EQ(from, d.size());
    }
  }
}

/* A warp's stack area: per level 4 words and a row of W = ceil(d / 32)
   words, rounded up to even; the levels k - 3 for one k (none for
   triangles), min(top - 2, d) and at least 1 for every size. */
TEST(kcliques, bitset_stack_levels_and_areas) {
  CHECK_EQ(cliqt_bitset_area_words(3, 3, 50), 0);
  const uint32_t ds[] = {1, 2, 31, 32, 33, 64, 65, 1000, 100000};
  for (size_t i = 0; i < sizeof ds / sizeof ds[0]; ++i)
    for (uint32_t k = 0; k <= 12; k += (k == 0 ? 3 : 1)) {
      const uint32_t tops[] = {k, 3, 10, ds[i] + 1, ds[i] + 2};
      for (size_t ti = k != 0 ? 0 : 1; ti < (k != 0 ? 1 : 5); ++ti) {
        const uint32_t top = tops[ti];
        const uint64_t lv = k != 0 ? (k > 3 ? k - 3 : 0) : std::max<uint64_t>(1, std::min<uint64_t>(top - 2, ds[i]));
        const uint64_t want = (lv * (4 + (ds[i] + 31) / 32) + 1) / 2 * 2;
        CHECK_MSG(cliqt_bitset_area_words(k, top, ds[i]) == want, "k %u top %u d %u: %llu words, want %llu", k, top,
                  ds[i], (unsigned long long)cliqt_bitset_area_words(k, top, ds[i]), (unsigned long long)want);
      }
    }
}

TEST(kcliques, bitset_global_stack_leaves_the_reserve) {
  test_rng rng = test_rng_for("kcb_stack");
  for (int t = 0; t < 2000; ++t) {
    const uint64_t block = 1 + rng.below(t % 2 ? 1000 : 1u << 24), reserve = rng.below(1u << 26);
    const uint64_t room = rng.below(4) == 0 ? rng.below(2 * block + reserve + 1) : rng.below((uint64_t)1 << 34);
    const uint64_t cap = rng.below(3) == 0 ? 1 + rng.below(4) : 1056;
    const uint64_t fit = cliqt_bitset_stack_blocks(room, reserve, block, cap);
    const uint64_t avail = room > reserve ? room - reserve : 0;
    CHECK_MSG(fit <= cap && fit * block <= avail, "room %llu reserve %llu block %llu: %llu blocks",
              (unsigned long long)room, (unsigned long long)reserve, (unsigned long long)block, (unsigned long long)fit);
    CHECK(fit * block <= std::max(room / 2, block));
    if (avail >= block) CHECK(fit >= 1);
    if (fit < cap && avail >= room / 2 + block) CHECK((fit + 1) * block > room / 2); /* half the room is used */
  }
}

/* ---- PIVOT on CUDA (clique/kc_pivot.cuh): a host twin of its walk ------------ */

/* C(n, k) saturated at UINT64_MAX, as the device's tables hold it. */
static uint64_t kcp_binom_sat(uint32_t n, uint32_t k) {
  unsigned __int128 c = kc_binom128(n, k);
  return c >= (unsigned __int128)UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

/* A serial twin of the device walk (clique/kcliques/pivot.cuh's task walk
   and spill, the driver's rounds over the task stack): the same stack of
   levels, pivot rule, leaf sums, hand-on of open levels to the task stack
   and rounds over its top, with tiny spill thresholds, task stacks and
   rounds so that tasks split (or find no room) often. It checks the walk's
   design, in the test's own arithmetic (binomials, a tally per (r, p), the
   settling of a round's records); the GPU tests check the kernels
   (cuda_pivot_split_tasks_match_host splits the device's tasks the same
   way). */
struct kcp_twin {
  struct task {
    uint32_t v, r, p;
    int root;
    std::vector<uint32_t> C, rest;
  };
  const kc_graph *g;
  std::vector<uint64_t> off;
  std::vector<uint32_t> out;
  uint32_t k, top, max_out, deepest;
  uint64_t spill_after, cap, room, spilled, count, nodes, handed;
  std::vector<std::vector<uint64_t> > tally; /* every size: leaves by (r, p) */
  std::vector<task> next;

  kcp_twin(const kc_graph &graph, gclq_orient_by by, uint32_t kk, uint64_t spill, uint64_t queue)
      : g(&graph), k(kk), deepest(0), spill_after(spill), cap(queue), room(0), spilled(0), count(0), nodes(0), handed(0) {
    CHECK(cliqt_orient(&graph.g, by, off, out, &max_out) == GCLQ_SUCCESS);
    top = k == 0 ? max_out + 1 : k;
    tally.assign((size_t)top + 1, std::vector<uint64_t>((size_t)top + 1, 0));
  }
  static uint32_t popc(const uint32_t *s, uint32_t W) {
    uint32_t c = 0;
    for (uint32_t w = 0; w < W; ++w) c += (uint32_t)__builtin_popcount(s[w]);
    return c;
  }
  static bool any(const uint32_t *s, uint32_t W) { return popc(s, W) != 0; }
  void leaf(uint32_t r, uint32_t p) {
    deepest = std::max(deepest, r + p);
    if (k == 0) ++tally[r][p];
    else if (r <= k && k - r <= p) count += kcp_binom_sat(p, k - r);
  }
  void walk(const task &tk) {
    const uint32_t v = tk.v, d = (uint32_t)(off[v + 1] - off[v]), W = d > 0 ? (d + 31) / 32 : 1;
    std::vector<uint32_t> adj((size_t)d * W, 0), cand((size_t)(d + 2) * W, 0), rest((size_t)(d + 2) * W, 0);
    std::vector<uint32_t> req(d + 2), piv(d + 2);
    for (uint32_t x = 0; x < d; ++x)
      for (uint32_t y = 0; y < d; ++y)
        if (g->adj[out[off[v] + x]] >> out[off[v] + y] & 1) adj[(size_t)x * W + y / 32] |= 1u << (y % 32);
    uint32_t t = 0, r = tk.r, p = tk.p;
    bool enter = tk.root != 0, may_spill = room > 0;
    if (tk.root)
      for (uint32_t y = 0; y < d; ++y) cand[y / 32] |= 1u << (y % 32);
    else
      for (uint32_t w = 0; w < W; ++w) cand[w] = tk.C[w], rest[w] = tk.rest[w];
    const uint64_t first = nodes;
    for (;;) {
      if (!enter && may_spill && nodes - first >= spill_after) {
        uint32_t m = 0;
        for (uint32_t l = 0; l <= t; ++l) m += any(&rest[(size_t)l * W], W);
        const uint64_t base = spilled, got = base >= room ? 0 : std::min<uint64_t>(m, room - base);
        spilled += m;
        for (uint32_t l = 0, at = 0; l <= t && at < got; ++l) /* the shallowest that fit */
          if (any(&rest[(size_t)l * W], W)) {
            task n;
            n.v = v, n.r = l == t ? r : req[l], n.p = l == t ? p : piv[l], n.root = 0;
            n.C.assign(cand.begin() + (size_t)l * W, cand.begin() + (size_t)(l + 1) * W);
            n.rest.assign(rest.begin() + (size_t)l * W, rest.begin() + (size_t)(l + 1) * W);
            std::fill(rest.begin() + (size_t)l * W, rest.begin() + (size_t)(l + 1) * W, 0u);
            next.push_back(n);
            ++at;
          }
        if (m > 0 && got == m) return;
        may_spill = false;
      }
      uint32_t *C = &cand[(size_t)t * W], *R = &rest[(size_t)t * W], *N = C + W;
      uint32_t cr = 0, cp = 0;
      if (enter) {
        const uint32_t size = popc(C, W);
        ++nodes;
        if (k != 0 && (r > k || r + p + size < k)) {
        } else if (size == 0 || (k != 0 && r == k)) {
          leaf(r, p);
        } else if (k != 0 && r + 2 >= k) { /* closed: the candidates and their edges (the device's closed levels) */
          uint64_t links = 0;
          for (uint32_t x = 0; x < 32 * W; ++x)
            if (C[x / 32] >> (x % 32) & 1)
              for (uint32_t i = 0; i < W; ++i) links += (uint32_t)__builtin_popcount(C[i] & adj[(size_t)x * W + i]);
          deepest = std::max(deepest, r + p);
          count += kcp_binom_sat(p, k - r) + size * kcp_binom_sat(p, k - r - 1) + (k - r == 2 ? links / 2 : 0);
        } else {
          uint64_t best = 0;
          uint32_t universal = 0;
          std::vector<uint32_t> uni(W, 0);
          for (uint32_t x = 0; x < 32 * W; ++x)
            if (C[x / 32] >> (x % 32) & 1) {
              uint32_t links = 0;
              for (uint32_t i = 0; i < W; ++i) links += (uint32_t)__builtin_popcount(C[i] & adj[(size_t)x * W + i]);
              best = std::max(best, (uint64_t)(links + 1) << 32 | x);
              if (links + 1 == size) uni[x / 32] |= 1u << (x % 32), ++universal;
            }
          const uint32_t u = (uint32_t)best;
          if (universal > 0) {
            for (uint32_t w = 0; w < W; ++w) N[w] = C[w] & ~uni[w], R[w] = 0;
            cr = r, cp = p + universal;
          } else {
            C[u / 32] &= ~(1u << (u % 32));
            for (uint32_t w = 0; w < W; ++w) N[w] = C[w] & adj[(size_t)u * W + w], R[w] = C[w] & ~adj[(size_t)u * W + w];
            cr = r, cp = p + 1;
          }
        }
      } else {
        uint32_t x = UINT32_MAX;
        for (uint32_t y = 0; y < 32 * W && x == UINT32_MAX; ++y)
          if (R[y / 32] >> (y % 32) & 1) x = y;
        if (x != UINT32_MAX) {
          R[x / 32] &= ~(1u << (x % 32));
          C[x / 32] &= ~(1u << (x % 32));
          for (uint32_t w = 0; w < W; ++w) N[w] = C[w] & adj[(size_t)x * W + w];
          cr = r + 1, cp = p;
        }
      }
      if (cr != 0 && any(N, W)) {
        req[t] = r, piv[t] = p;
        ++t, r = cr, p = cp;
        enter = true;
        continue;
      }
      if (cr != 0) {
        ++nodes;
        leaf(cr, cp);
        enter = false;
        continue;
      }
      if (t == 0) return;
      --t;
      r = req[t], p = piv[t];
      enter = false;
    }
  }
  /* Rounds of at most per_round tasks: the top of the task stack (cap
     records), then sources from their roots; what they hand on pushed
     above the top, then settled. */
  void run(uint64_t per_round) {
    std::vector<task> stack;
    uint64_t top = 0;
    uint32_t src = 0;
    while (top > 0 || src < g->n) {
      const uint64_t m = std::min(top, per_round), ns = std::min<uint64_t>(g->n - src, per_round - m);
      next.clear();
      spilled = 0;
      room = cap - top;
      for (uint64_t i = top - m; i < top; ++i) walk(stack[i]);
      for (uint32_t v = src; v < src + ns; ++v) {
        task tk;
        tk.v = v, tk.r = 1, tk.p = 0, tk.root = 1;
        walk(tk);
      }
      const uint64_t s = std::min(spilled, room);
      CHECK(next.size() == s);
      handed += next.size();
      stack.resize(top);
      stack.insert(stack.end(), next.begin(), next.end());
      /* settle: the newest min(s, m) records move down into the hole the
         round's m left, [top - m, ...), without overlap */
      const uint64_t moved = std::min(s, m), from = top + s - moved, to = top - m, now = top - m + s;
      CHECK(moved == 0 || (to + moved <= top && from >= top));
      for (uint64_t j = 0; j < moved; ++j) stack[to + j] = stack[from + j];
      stack.resize(now);
      top = now;
      src += (uint32_t)ns;
    }
  }
};

/* The twin against brute force (one k, every size with the tally combined
   as the driver does, omega) and against the HOST PIVOT's node count, with
   tasks split after 1, 2, 7 nodes or never, task stacks of 0, 3 or many
   records and rounds of 1, 2, 5 or many tasks. */
TEST(kcliques, pivot_cuda_walk_twin_matches_brute_force) {
  test_rng rng = test_rng_for("kcliques_pivot_twin");
  const uint64_t spills[] = {1, 2, 7, UINT64_MAX};
  const uint64_t caps[] = {0, 3, UINT64_MAX}, rounds_of[] = {1, 2, 5, 1000};
  uint32_t split_rounds = 0;
  for (int gi = 0; gi < 24; ++gi) {
    const uint32_t n = 1 + (uint32_t)rng.below(40);
    const double p = 0.1 + 0.5 * (double)rng.below(1000) / 1000.0;
    kc_graph kg = kc_random(n, p, gi % 2 ? (uint32_t)rng.below(n < 14 ? n + 1 : 14) : 0, rng);
    kc_brute b(kg);
    for (int orient = 1; orient <= 2; ++orient)
      for (uint32_t kk = 0; kk <= 9; ++kk) {
        if (kk == 1 || kk == 2) continue;
        gclq_kclique_options o = kc_opts(GCLQ_KCLIQUE_PIVOT, kk, kk == 0);
        o.orientation = (gclq_orient_by)orient;
        gclq_kclique_result want;
        CHECK(gclq_kcliques(&kg.g, &o, &want) == GCLQ_SUCCESS);
        const uint64_t spill = spills[rng.below(4)], cap = caps[rng.below(3)], per_round = rounds_of[rng.below(4)];
        kcp_twin tw(kg, (gclq_orient_by)orient, kk, spill, cap);
        if (kk != 0 && kk > tw.max_out + 1) { /* the driver counts nothing there */
          gclq_kclique_result_free(&want);
          continue;
        }
        tw.run(per_round);
        split_rounds += tw.handed > 0;
        CHECK_MSG(tw.nodes == want.stats.nodes, "graph %d k %u: %llu nodes, host %llu", gi, kk,
                  (unsigned long long)tw.nodes, (unsigned long long)want.stats.nodes);
        if (kk != 0) {
          CHECK_MSG(tw.count == b.count[kk], "graph %d k %u spill %llu cap %llu: %llu, want %llu", gi, kk,
                    (unsigned long long)spill, (unsigned long long)cap, (unsigned long long)tw.count,
                    (unsigned long long)b.count[kk]);
        } else {
          std::vector<uint64_t> count(tw.top + 1, 0); /* count[r + j] += tally(r, p) C(p, j) */
          for (uint32_t r = 0; r <= tw.top; ++r)
            for (uint32_t q = 0; r + q <= tw.top; ++q)
              for (uint32_t j = 0; j <= q; ++j) count[r + j] += tw.tally[r][q] * kcp_binom_sat(q, j);
          CHECK_MSG(tw.deepest == b.omega() || (b.omega() == 0 && tw.deepest <= 1), "graph %d: deepest %u, omega %u",
                    gi, tw.deepest, b.omega());
          for (uint32_t s = 1; s <= tw.top; ++s)
            CHECK_MSG(count[s] == (s < b.count.size() ? b.count[s] : 0), "graph %d all, size %u: %llu, want %llu", gi,
                      s, (unsigned long long)count[s], (unsigned long long)(s < b.count.size() ? b.count[s] : 0));
        }
        gclq_kclique_result_free(&want);
        CHECK_OK_SO_FAR();
      }
  }
  CHECK(split_rounds > 0); /* tasks were handed on */
}

/* ---- LFTJ (clique/kc_lftj.cuh): the general path run on the host -------------- */

/* The general path's join from every first value, run on the host over the
   graph oriented by id, against the brute-force counts: k = 3 .. 9 with
   per-vertex counts, and every size. */
TEST(kcliques, lftj_general_path_matches_brute_force) {
  test_rng rng = test_rng_for("kcliques_lftj_general");
  for (int t = 0; t < 24; ++t) {
    const uint32_t n = 1 + (uint32_t)rng.below(36);
    const double p = 0.1 + 0.6 * (double)rng.below(1000) / 1000.0;
    kc_graph g = kc_random(n, p, t % 2 ? (uint32_t)rng.below(n < 12 ? n + 1 : 12) : 0, rng);
    kc_brute b(g);
    std::vector<uint64_t> off(n + 1, 0);
    std::vector<uint32_t> out;
    uint32_t max_out = 0;
    for (uint32_t v = 0; v < n; ++v) {
      for (uint32_t u = v + 1; u < n; ++u)
        if (g.adj[v] >> u & 1) out.push_back(u);
      off[v + 1] = out.size();
      if (off[v + 1] - off[v] > max_out) max_out = (uint32_t)(off[v + 1] - off[v]);
    }
    out.push_back(0); /* never read: data() is not NULL */
    for (uint32_t k = 0; k <= 9; ++k) {
      if (k == 1 || k == 2 || (k == 0 && max_out < 2)) continue;
      const uint32_t top = k != 0 ? k : max_out + 1;
      std::vector<uint64_t> per(n, 0), sizes(top + 1, 0);
      unsigned int wrapped = 0;
      const unsigned long long acc = cliqt_lftj_general_host(off.data(), out.data(), n, max_out, k,
                                                            k != 0 ? per.data() : NULL, sizes.data(), &wrapped);
      CHECK(wrapped == 0);
      if (k != 0) {
        const uint64_t want = k < b.count.size() ? b.count[k] : 0;
        CHECK_MSG(acc == want, "n %u k %u: %llu, want %llu", n, k, acc, (unsigned long long)want);
        for (uint32_t v = 0; v < n; ++v)
          CHECK_MSG(per[v] == (k < b.per.size() ? b.per[k][v] : 0), "n %u k %u: vertex %u", n, k, v);
      } else {
        for (uint32_t s = 3; s < b.count.size(); ++s)
          CHECK_MSG((s <= top ? sizes[s] : 0) == b.count[s], "n %u every size: %u-cliques", n, s);
      }
    }
  }
}

/* ---- GROUPED (clique/kc_grouped.cuh): a host simulation of the levels ------- */

/* The grouped levels on the host, as the kernel runs them: the graph
   oriented by id, groups with parent links, the intersection of a group's
   candidates with a member's out-list, children recorded when
   they have need candidates, counts at t + 2, per-vertex counts through the
   prefix links. */
struct kg_sim {
  struct rec {
    std::vector<uint32_t> cand;
    long parent; /* a record of the level before, or -1 - the first vertex */
    uint32_t w;
  };
  const kc_graph *g;
  std::vector<std::vector<uint32_t> > out;
  std::vector<std::vector<rec> > levels; /* levels[t]: the groups of depth t (t >= 2) */
  std::vector<uint64_t> count, per;
  explicit kg_sim(const kc_graph &k) : g(&k), out(k.n), count(k.n + 3, 0), per(k.n, 0) {
    for (uint32_t v = 0; v < k.n; ++v)
      for (uint32_t u = v + 1; u < k.n; ++u)
        if (k.adj[v] >> u & 1) out[v].push_back(u);
  }
  /* The three-stage intersection's result: out(w) within C (the kernel's
     Bloom filter, collection and column-first search keep exactly these;
     their layout is checked by the GPU tests' GROUPED counts). */
  std::vector<uint32_t> intersect(const std::vector<uint32_t> &C, uint32_t w) {
    std::vector<uint32_t> hits;
    std::set_intersection(out[w].begin(), out[w].end(), C.begin(), C.end(), std::back_inserter(hits));
    return hits;
  }
  void add_prefix(uint32_t t, long ref, uint64_t v) {
    for (; ref >= 0; --t) {
      const rec &r = levels[t][ref];
      per[r.w] += v;
      ref = r.parent;
    }
    per[-1 - ref] += v;
  }
  /* One k (k >= 3), or every size (k == 0). */
  void run(uint32_t k) {
    const bool one = k != 0;
    levels.assign(g->n + 3, std::vector<rec>());
    for (uint32_t t = 1; t <= g->n; ++t) {
      const bool counted = !one || t == k - 2, materialize = !one || t < k - 2;
      const uint32_t need = one ? k - t - 1 : 2;
      const size_t groups = t == 1 ? g->n : levels[t].size();
      if (groups == 0) break;
      for (size_t i = 0; i < groups; ++i) {
        const std::vector<uint32_t> &C = t == 1 ? out[i] : levels[t][i].cand;
        const long ref = t == 1 ? -1 - (long)i : (long)i;
        uint64_t group_sum = 0;
        if (C.size() < 2) continue;
        for (uint32_t w : C) {
          if (out[w].size() < (counted ? 1 : need)) continue;
          std::vector<uint32_t> c = intersect(C, w);
          if (counted) count[t + 2] += c.size();
          if (one && counted) {
            for (uint32_t x : c) ++per[x];
            per[w] += c.size();
            group_sum += c.size();
          }
          if (materialize && c.size() >= need) levels[t + 1].push_back(rec{c, ref, w});
        }
        if (group_sum) add_prefix(t, ref, group_sum);
      }
      if (!materialize) break;
    }
  }
};

TEST(kcliques, grouped_levels_on_the_host_match_brute_force) {
  test_rng rng = test_rng_for(__func__);
  for (uint32_t round = 0; round < 24; ++round) {
    const uint32_t n = 1 + (uint32_t)rng.below(48);
    kc_graph k = kc_random(n, 0.2 + 0.6 * (double)(rng.next() >> 11) / 9007199254740992.0, (uint32_t)rng.below(12), rng);
    kc_brute want(k);
    kg_sim all(k);
    all.run(0);
    for (uint32_t s = 3; s < want.count.size(); ++s) CHECK_MSG(all.count[s] == want.count[s], "n %u every size: s %u", n, s);
    for (uint32_t kk = 3; kk <= 10 && kk <= n; ++kk) {
      kg_sim one(k);
      one.run(kk);
      CHECK_MSG(one.count[kk] == want.count[kk], "n %u k %u: %llu, want %llu", n, kk, (unsigned long long)one.count[kk],
                (unsigned long long)want.count[kk]);
      CHECK(one.per == want.per[kk]);
    }
  }
}
