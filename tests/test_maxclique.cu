/* test_maxclique.cu - the public maximum-clique call, gclq_max_cliques.

   TEST: the HOST backend through the public API (runs in CI, no GPU): the
   data graphs against REFERENCE.tsv, hand-made graphs, mode ONE, options,
   NULLs, leaks and allocation failures.
   GPU_TEST: the CUDA backend against the HOST backend (omega, count and the
   clique lists byte for byte) on every data graph in many configurations
   (heuristics, orientations, windows and orders, budgets), random and
   planted graphs, the small cases; core numbers against the host reference.

   Like test_host_clique.cu, this file compiles its own static copy of the
   implementation with a counting host allocator. */
#include <math.h>
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
#include <string>

#include "testing.h"

/* ---- helpers ------------------------------------------------------------- */

struct mc_ref {
  std::string path;
  uint32_t omega;
  long long count; /* -1: unknown */
};

/* Every graph of REFERENCE.tsv in data/dimacs and data/snap. */
static std::vector<mc_ref> mc_references(void) {
  std::vector<mc_ref> out;
  const char *dir = test_data_dir();
  if (dir == NULL) return out;
  const char *subs[2] = {"dimacs", "snap"}, *exts[2] = {".clq", ".txt"};
  for (int s = 0; s < 2; ++s) {
    std::string tsv = std::string(dir) + "/" + subs[s] + "/REFERENCE.tsv";
    FILE *f = fopen(tsv.c_str(), "rb");
    if (!f) continue;
    char line[512];
    while (fgets(line, sizeof line, f)) {
      if (line[0] == '#' || line[0] == '\n') continue;
      char name[256], cnt[64];
      unsigned long long nv, ne;
      unsigned omega;
      if (sscanf(line, "%255s %llu %llu %u %63s", name, &nv, &ne, &omega, cnt) != 5) continue;
      mc_ref r;
      r.path = std::string(dir) + "/" + subs[s] + "/" + name + exts[s];
      r.omega = omega;
      r.count = strcmp(cnt, "-") == 0 ? -1 : atoll(cnt);
      out.push_back(r);
    }
    fclose(f);
  }
  return out;
}

static std::string mc_name(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

static gclq_maxclique_options mc_opts(gclq_backend backend) {
  gclq_maxclique_options o;
  gclq_maxclique_options_defaults(&o);
  o.backend = backend;
  return o;
}

/* A graph from an undirected edge list over ids 0 .. n - 1 (all n vertices
   kept, even isolated ones), built by hand: the loaders are not under test. */
struct mc_graph {
  std::vector<uint64_t> off, ids;
  std::vector<uint32_t> nbr;
  gclq_graph g;
  mc_graph() { memset(&g, 0, sizeof g); }
  void build(uint32_t n, std::vector<std::pair<uint32_t, uint32_t> > edges) {
    std::vector<std::vector<uint32_t> > adj(n);
    for (size_t i = 0; i < edges.size(); ++i) {
      uint32_t u = edges[i].first, v = edges[i].second;
      if (u == v) continue;
      adj[u].push_back(v);
      adj[v].push_back(u);
    }
    off.assign(n + 1, 0);
    nbr.clear();
    ids.resize(n);
    for (uint32_t v = 0; v < n; ++v) {
      std::sort(adj[v].begin(), adj[v].end());
      adj[v].erase(std::unique(adj[v].begin(), adj[v].end()), adj[v].end());
      nbr.insert(nbr.end(), adj[v].begin(), adj[v].end());
      off[v + 1] = nbr.size();
      ids[v] = 100 + 10 * (uint64_t)v; /* file ids differ from compact ids */
    }
    g.num_vertices = n;
    g.num_edges = nbr.size() / 2;
    g.h_offsets = off.data();
    g.h_neighbors = nbr.empty() ? NULL : nbr.data();
    g.h_original_ids = n ? ids.data() : NULL;
  }
};

static void mc_clique_edges(std::vector<std::pair<uint32_t, uint32_t> > &e, const std::vector<uint32_t> &vs) {
  for (size_t i = 0; i < vs.size(); ++i)
    for (size_t j = i + 1; j < vs.size(); ++j) e.push_back(std::make_pair(vs[i], vs[j]));
}

/* Is every row of r a clique of g, in file ids, ascending, the rows ascending? */
static bool mc_result_valid(const gclq_graph *g, const gclq_maxclique_result *r) {
  std::map<uint64_t, uint32_t> back;
  for (uint32_t v = 0; v < g->num_vertices; ++v) back[g->h_original_ids ? g->h_original_ids[v] : v] = v;
  for (uint64_t c = 0; c < r->count; ++c) {
    const uint64_t *row = r->h_cliques + c * r->omega;
    for (uint32_t i = 0; i < r->omega; ++i) {
      if (back.find(row[i]) == back.end()) return false;
      if (i > 0 && row[i - 1] >= row[i]) return false;
      for (uint32_t j = 0; j < i; ++j) {
        uint32_t u = back[row[i]], v = back[row[j]];
        if (!std::binary_search(g->h_neighbors + g->h_offsets[u], g->h_neighbors + g->h_offsets[u + 1], v))
          return false;
      }
    }
    if (c > 0 && !std::lexicographical_compare(row - r->omega, row, row, row + r->omega)) return false;
  }
  return true;
}

/* ---- HOST backend through the public API -------------------------------- */

TEST(maxclique, options_defaults_and_bad_arguments) {
  gclq_maxclique_options o, zero;
  gclq_maxclique_result r;
  memset(&zero, 0, sizeof zero);
  gclq_maxclique_options_defaults(&o);
  CHECK(o.heuristic == GCLQ_HEURISTIC_MULTI_DEGREE && o.prune == GCLQ_PRUNE_CORE);
  CHECK(o.orientation == GCLQ_ORIENT_DEGREE && o.window_order == GCLQ_WINDOW_ORDER_DEGREE_DESC);
  CHECK(o.mode == GCLQ_MODE_ALL && o.window_size == 0 && o.device_budget_bytes == 0);
  CHECK(o.search == GCLQ_SEARCH_BITSET && o.bound == GCLQ_BOUND_COLOUR);
  gclq_maxclique_options_defaults(NULL); /* harmless */

  mc_graph k4;
  std::vector<std::pair<uint32_t, uint32_t> > e;
  mc_clique_edges(e, std::vector<uint32_t>{0, 1, 2, 3});
  k4.build(5, e);
  o.backend = GCLQ_BACKEND_HOST;
  r.omega = 77;
  CHECK(gclq_max_cliques(NULL, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(r.omega == 0 && r.h_cliques == NULL); /* zeroed */
  CHECK(gclq_max_cliques(&k4.g, &o, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* every enum out of range */
  gclq_maxclique_options bad = o;
  bad.mode = (gclq_maxclique_mode)7;
  CHECK(gclq_max_cliques(&k4.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  bad = o, bad.heuristic = (gclq_heuristic)-1;
  CHECK(gclq_max_cliques(&k4.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  bad = o, bad.orientation = (gclq_orientation)4;
  CHECK(gclq_max_cliques(&k4.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  bad = o, bad.prune = (gclq_prune)9;
  CHECK(gclq_max_cliques(&k4.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  bad = o, bad.window_order = (gclq_window_order)6;
  CHECK(gclq_max_cliques(&k4.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  bad = o, bad.backend = (gclq_backend)3;
  CHECK(gclq_max_cliques(&k4.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  bad = o, bad.search = (gclq_search)3;
  CHECK(gclq_max_cliques(&k4.g, &bad, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* a malformed graph: an edge stored one way out of order */
  mc_graph broken = k4;
  broken.g.h_offsets = broken.off.data();
  broken.g.h_neighbors = broken.nbr.data();
  broken.g.h_original_ids = broken.ids.data();
  std::swap(broken.nbr[0], broken.nbr[1]);
  CHECK(gclq_max_cliques(&broken.g, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* NULL options = defaults; the zero struct = defaults */
  CHECK(gclq_max_cliques(&k4.g, NULL, &r) == GCLQ_SUCCESS && r.omega == 4 && r.count == 1 && r.stored == 1);
  CHECK(r.stats.backend == GCLQ_BACKEND_HOST && r.stats.auto_small == 1); /* AUTO: a small graph */
  CHECK(strstr(r.stats.notes, "small graph") != NULL);
  gclq_maxclique_result_free(&r);
  CHECK(gclq_max_cliques(&k4.g, &zero, &r) == GCLQ_SUCCESS && r.omega == 4 && r.count == 1);
  gclq_maxclique_result_free(&r);
  gclq_maxclique_result_free(&r); /* twice: zeroed by the first */
  gclq_maxclique_result_free(NULL);
  /* CUDA asked for explicitly: either it runs or it says why not */
  gclq_maxclique_options cu = o;
  cu.backend = GCLQ_BACKEND_CUDA;
  gclq_status st = gclq_max_cliques(&k4.g, &cu, &r);
  if (g_test.have_gpu) CHECK(st == GCLQ_SUCCESS && r.omega == 4);
  else CHECK(st == GCLQ_ERROR_NO_DEVICE || st == GCLQ_ERROR_BACKEND_UNAVAILABLE);
  gclq_maxclique_result_free(&r);
}

/* The small graphs every backend must get right; want rows in file ids. */
struct mc_case {
  const char *name;
  mc_graph graph;
  uint32_t omega;
  std::vector<std::vector<uint64_t> > cliques;
};

static std::vector<mc_case *> mc_small_cases(void) {
  std::vector<mc_case *> out;
  typedef std::vector<std::pair<uint32_t, uint32_t> > el;
  mc_case *c;
  /* K_n for a few n */
  const uint32_t ks[4] = {2, 3, 7, 40};
  for (int i = 0; i < 4; ++i) {
    c = new mc_case;
    c->name = "K_n";
    std::vector<uint32_t> vs;
    for (uint32_t v = 0; v < ks[i]; ++v) vs.push_back(v);
    el e;
    mc_clique_edges(e, vs);
    c->graph.build(ks[i], e);
    c->omega = ks[i];
    std::vector<uint64_t> row;
    for (uint32_t v = 0; v < ks[i]; ++v) row.push_back(100 + 10 * v);
    c->cliques.push_back(row);
    out.push_back(c);
  }
  /* the empty graph */
  c = new mc_case;
  c->name = "empty";
  c->graph.build(0, el());
  c->omega = 0;
  out.push_back(c);
  /* one vertex */
  c = new mc_case;
  c->name = "one vertex";
  c->graph.build(1, el());
  c->omega = 1;
  c->cliques.push_back(std::vector<uint64_t>{100});
  out.push_back(c);
  /* vertices, no edges */
  c = new mc_case;
  c->name = "no edges";
  c->graph.build(4, el());
  c->omega = 1;
  for (uint64_t v = 0; v < 4; ++v) c->cliques.push_back(std::vector<uint64_t>{100 + 10 * v});
  out.push_back(c);
  /* one edge and isolated vertices */
  c = new mc_case;
  c->name = "one edge";
  c->graph.build(5, el{{3, 1}});
  c->omega = 2;
  c->cliques.push_back(std::vector<uint64_t>{110, 130});
  out.push_back(c);
  /* two disjoint maximum cliques (K5 and K5) plus a triangle, disconnected */
  c = new mc_case;
  c->name = "two disjoint K5 + triangle";
  {
    el e;
    mc_clique_edges(e, std::vector<uint32_t>{0, 2, 4, 6, 8});
    mc_clique_edges(e, std::vector<uint32_t>{1, 3, 5, 7, 9});
    mc_clique_edges(e, std::vector<uint32_t>{10, 11, 12});
    c->graph.build(14, e);
  }
  c->omega = 5;
  c->cliques.push_back(std::vector<uint64_t>{100, 120, 140, 160, 180});
  c->cliques.push_back(std::vector<uint64_t>{110, 130, 150, 170, 190});
  out.push_back(c);
  /* two K4 sharing two vertices, joined by a path to a K4 elsewhere */
  c = new mc_case;
  c->name = "overlapping K4s";
  {
    el e;
    mc_clique_edges(e, std::vector<uint32_t>{0, 1, 2, 3});
    mc_clique_edges(e, std::vector<uint32_t>{2, 3, 4, 5});
    e.push_back(std::make_pair(5u, 6u));
    e.push_back(std::make_pair(6u, 7u));
    mc_clique_edges(e, std::vector<uint32_t>{7, 8, 9, 10});
    c->graph.build(11, e);
  }
  c->omega = 4;
  c->cliques.push_back(std::vector<uint64_t>{100, 110, 120, 130});
  c->cliques.push_back(std::vector<uint64_t>{120, 130, 140, 150});
  c->cliques.push_back(std::vector<uint64_t>{170, 180, 190, 200});
  out.push_back(c);
  /* a 5-cycle: omega 2, five maximum cliques */
  c = new mc_case;
  c->name = "C5";
  c->graph.build(5, el{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
  c->omega = 2;
  c->cliques = std::vector<std::vector<uint64_t> >{{100, 110}, {100, 140}, {110, 120}, {120, 130}, {130, 140}};
  out.push_back(c);
  return out;
}

static void mc_check_case(const mc_case &c, const gclq_maxclique_options &o) {
  gclq_maxclique_result r;
  gclq_status st = gclq_max_cliques(&c.graph.g, &o, &r);
  CHECK_MSG(st == GCLQ_SUCCESS, "%s: %s", c.name, gclq_status_string(st));
  CHECK_MSG(r.omega == c.omega, "%s: omega %u, want %u", c.name, r.omega, c.omega);
  if (o.mode == GCLQ_MODE_ONE) {
    CHECK_MSG(r.count == (c.omega ? 1u : 0u), "%s: one mode gave %llu cliques", c.name, (unsigned long long)r.count);
    bool found = c.omega == 0;
    for (size_t i = 0; i < c.cliques.size(); ++i)
      if (r.count == 1 && std::equal(c.cliques[i].begin(), c.cliques[i].end(), r.h_cliques)) found = true;
    CHECK_MSG(found, "%s: one mode returned a clique not in the list", c.name);
  } else {
    CHECK_MSG(r.count == c.cliques.size(), "%s: %llu cliques, want %zu", c.name, (unsigned long long)r.count,
              c.cliques.size());
    for (size_t i = 0; i < c.cliques.size(); ++i)
      CHECK_MSG(std::equal(c.cliques[i].begin(), c.cliques[i].end(), r.h_cliques + i * r.omega),
                "%s: clique %zu differs", c.name, i);
  }
  gclq_maxclique_result_free(&r);
}

static void mc_small_cases_on(gclq_backend backend) {
  std::vector<mc_case *> cases = mc_small_cases();
  for (size_t i = 0; i < cases.size() && !g_test.failed; ++i) {
    gclq_maxclique_options o = mc_opts(backend);
    mc_check_case(*cases[i], o);
    o.mode = GCLQ_MODE_ONE;
    if (!g_test.failed) mc_check_case(*cases[i], o);
    if (backend == GCLQ_BACKEND_CUDA) { /* a few configurations on the device */
      for (int h = GCLQ_HEURISTIC_NONE; h <= GCLQ_HEURISTIC_MULTI_CORE && !g_test.failed; ++h) {
        o = mc_opts(backend);
        o.heuristic = (gclq_heuristic)h;
        o.orientation = (gclq_orientation)(1 + h % 3); /* index, degeneracy, degree, index, degeneracy */
        o.prune = h & 2 ? GCLQ_PRUNE_DEGREE : GCLQ_PRUNE_CORE;
        o.window_size = h >= 3 ? 1 : 0;
        mc_check_case(*cases[i], o);
      }
    }
  }
  for (size_t i = 0; i < cases.size(); ++i) delete cases[i];
}

TEST(maxclique, host_small_graphs) { mc_small_cases_on(GCLQ_BACKEND_HOST); }

TEST(maxclique, host_data_graphs_match_reference) {
  const long long live0 = g_alloc_live;
  std::vector<mc_ref> refs = mc_references();
  if (refs.empty()) {
    printf("    skipped: data dir absent (../shared/data not found; set GPUAMQ_DATA_DIR)\n");
    g_test.skipped = 1;
    return;
  }
  for (size_t i = 0; i < refs.size(); ++i) {
    gclq_graph g;
    gclq_maxclique_result r, one;
    CHECK_MSG(gclq_graph_load(refs[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS, "%s: cannot load",
              refs[i].path.c_str());
    gclq_maxclique_options o = mc_opts(GCLQ_BACKEND_HOST);
    CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS);
    CHECK_MSG(r.omega == refs[i].omega, "%s: omega %u, want %u", refs[i].path.c_str(), r.omega, refs[i].omega);
    CHECK_MSG(refs[i].count < 0 || (long long)r.count == refs[i].count, "%s: %llu maximum cliques, want %lld",
              refs[i].path.c_str(), (unsigned long long)r.count, refs[i].count);
    CHECK_MSG(mc_result_valid(&g, &r), "%s: the cliques are not cliques in file ids, sorted", refs[i].path.c_str());
    o.mode = GCLQ_MODE_ONE;
    CHECK(gclq_max_cliques(&g, &o, &one) == GCLQ_SUCCESS);
    CHECK(one.omega == r.omega && one.count == 1 && mc_result_valid(&g, &one));
    gclq_maxclique_result_free(&r);
    gclq_maxclique_result_free(&one);
    gclq_graph_free(&g);
  }
  CHECK_EQ(g_alloc_live, live0); /* this test's host blocks all freed */
}

/* The CUDA search's exact twin on the host (cliqt_bfs_simulate: the
   same heuristic, 2-clique list, bound, step sizes and order): with the
   colour bound it must give every graph's reference omega and count (so the
   bound is checked for exactness in CI), stay below 1e8 candidates and keep
   the held entries well under a 256 MiB budget. The length bound (the
   paper's) is checked on the graphs where it is cheap. */
TEST(maxclique, host_bfs_simulation_matches_reference) {
  std::vector<mc_ref> refs = mc_references();
  if (refs.empty()) {
    printf("    skipped: data dir absent (../shared/data not found; set GPUAMQ_DATA_DIR)\n");
    g_test.skipped = 1;
    return;
  }
  for (size_t i = 0; i < refs.size(); ++i) {
    gclq_graph g;
    CHECK_MSG(gclq_graph_load(refs[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS, "%s: cannot load",
              refs[i].path.c_str());
    for (int mode = 0; mode < 2; ++mode) {
      for (int bound = 0; bound < 2; ++bound) {
        gclq_maxclique_options o = mc_opts(GCLQ_BACKEND_HOST);
        cliqt_bfs_sim s;
        o.mode = mode ? GCLQ_MODE_ONE : GCLQ_MODE_ALL;
        o.bound = bound ? GCLQ_BOUND_LENGTH : GCLQ_BOUND_COLOUR;
        if (bound && refs[i].path.find("hamming6-4") == std::string::npos &&
            refs[i].path.find("johnson8") == std::string::npos && refs[i].path.find("c-fat200") == std::string::npos &&
            refs[i].path.find("ca-") == std::string::npos)
          continue; /* the length bound: billions of candidates on the others */
        if (mode && refs[i].path.find("sanr200") == std::string::npos && refs[i].path.find("MANN") == std::string::npos &&
            refs[i].path.find("p_hat") == std::string::npos)
          continue; /* mode ONE: a few graphs */
        memset(&s, 0, sizeof s);
        s.limit = (uint64_t)100000000;
        CHECK(cliqt_bfs_simulate(&g, &o, &s) == GCLQ_SUCCESS);
        const char *name = strrchr(refs[i].path.c_str(), '/') + 1;
        if (bound == 0 && mode == 0)
          printf("    %-22s lb %3u omega %3u count %6llu candidates %10llu peak level %8llu held %8llu steps %llu\n",
                 name, s.lower_bound, s.omega, (unsigned long long)s.count, (unsigned long long)s.total,
                 (unsigned long long)s.peak_level, (unsigned long long)s.peak_held, (unsigned long long)s.steps);
        CHECK_MSG(!s.aborted, "%s: more than 1e8 candidates", name);
        CHECK_MSG(s.omega == refs[i].omega, "%s: simulated omega %u, want %u", name, s.omega, refs[i].omega);
        CHECK_MSG(mode || refs[i].count < 0 || (long long)s.count == refs[i].count,
                  "%s: simulated %llu maximum cliques, want %lld", name, (unsigned long long)s.count, refs[i].count);
        CHECK(!mode || s.count == 1);
        CHECK_MSG(s.peak_held * 8 < ((uint64_t)128 << 20), "%s: %llu entries held at once", name,
                  (unsigned long long)s.peak_held);
      }
    }
    gclq_graph_free(&g);
  }
}

TEST(maxclique, host_no_leaks_and_allocation_failures) {
  gclq_graph g;
  CHECK(gclq_graph_planted_clique(300, 0.05, 9, 3, &g, NULL) == GCLQ_SUCCESS);
  gclq_maxclique_options o = mc_opts(GCLQ_BACKEND_HOST);
  gclq_maxclique_result want, r;
  long long live = g_alloc_live, calls0 = g_alloc_calls;
  CHECK(gclq_max_cliques(&g, &o, &want) == GCLQ_SUCCESS && want.omega >= 9);
  long long used = g_alloc_calls - calls0;
  CHECK(g_alloc_live == live + 1 + (want.stats.candidates_per_level ? 1 : 0));
  /* fail each allocation in turn: OUT_OF_MEMORY, result zeroed, nothing leaked */
  for (long long k = 0; k < used; ++k) {
    long long before = g_alloc_live;
    g_alloc_fail_at = g_alloc_calls + k;
    gclq_status st = gclq_max_cliques(&g, &o, &r);
    g_alloc_fail_at = -1;
    if (st == GCLQ_SUCCESS) {
      gclq_maxclique_result_free(&r);
    } else {
      CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY, "allocation %lld: %s", k, gclq_status_string(st));
      CHECK(r.h_cliques == NULL && r.count == 0);
    }
    CHECK_MSG(g_alloc_live == before, "allocation %lld failed: %lld blocks leaked", k, g_alloc_live - before);
  }
  gclq_maxclique_result_free(&want);
  CHECK(g_alloc_live == live);
  gclq_graph_free(&g);
}

/* max_stored: count stays exact, at most that many cliques come back, each
   one of the full list (and, sorted, in its order). */
static void mc_check_stored(gclq_backend backend, gclq_search search) {
  gclq_graph g;
  CHECK(gclq_graph_rmat(14, 16, 1, &g) == GCLQ_SUCCESS); /* omega 48, 340 maximum cliques */
  gclq_maxclique_options o = mc_opts(GCLQ_BACKEND_HOST);
  gclq_maxclique_result all, some;
  CHECK(gclq_max_cliques(&g, &o, &all) == GCLQ_SUCCESS);
  CHECK(all.count > 20 && all.stored == all.count);
  o.backend = backend;
  o.search = search;
  const uint64_t limits[3] = {1, 17, all.count + 5};
  for (int t = 0; t < 3 && !g_test.failed; ++t) {
    o.max_stored = limits[t];
    CHECK(gclq_max_cliques(&g, &o, &some) == GCLQ_SUCCESS);
    const uint64_t want = limits[t] < all.count ? limits[t] : all.count;
    CHECK_MSG(some.omega == all.omega && some.count == all.count && some.stored == want,
              "max_stored %llu: omega %u count %llu stored %llu", (unsigned long long)limits[t], some.omega,
              (unsigned long long)some.count, (unsigned long long)some.stored);
    /* each stored clique is in the full list, and they are in its order */
    uint64_t j = 0;
    for (uint64_t i = 0; i < some.stored && !g_test.failed; ++i) {
      while (j < all.count &&
             memcmp(all.h_cliques + j * all.omega, some.h_cliques + i * all.omega, all.omega * sizeof(uint64_t)) != 0)
        ++j;
      CHECK_MSG(j < all.count, "stored clique %llu is not a maximum clique", (unsigned long long)i);
      ++j;
    }
    gclq_maxclique_result_free(&some);
  }
  gclq_maxclique_result_free(&all);
  gclq_graph_free(&g);
  /* no edges: every vertex is a maximum clique */
  mc_graph empty;
  empty.build(30, std::vector<std::pair<uint32_t, uint32_t> >());
  o.max_stored = 7;
  CHECK(gclq_max_cliques(&empty.g, &o, &some) == GCLQ_SUCCESS);
  CHECK(some.omega == 1 && some.count == 30 && some.stored == 7 && some.h_cliques[6] == 160);
  gclq_maxclique_result_free(&some);
}
TEST(maxclique, host_max_stored) { mc_check_stored(GCLQ_BACKEND_HOST, GCLQ_SEARCH_DEFAULT); }
/* ---- self-loops, AUTO for small work, progress lines ---- */

/* A file of self-loops only: every looped id is an isolated vertex, so
   omega is 1 and each vertex is a maximum clique (mode ONE: one of them). */
static void mc_self_loops_only(gclq_backend backend) {
  const char *text = "# loops only\n7 7\n3 3\n7 7\n12 12\n";
  gclq_graph g;
  gclq_load_error e;
  CHECK(gclq_graph_parse(text, strlen(text), GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_SUCCESS);
  CHECK(g.num_vertices == 3 && g.num_edges == 0);
  gclq_maxclique_options o = mc_opts(backend);
  gclq_maxclique_result r;
  gclq_status st = gclq_max_cliques(&g, &o, &r);
  CHECK_MSG(st == GCLQ_SUCCESS, "%s", gclq_status_string(st));
  CHECK(r.omega == 1 && r.count == 3 && r.stored == 3 && r.stats.backend == backend);
  uint64_t want[3] = {3, 7, 12};
  CHECK_ARRAYS(want, r.h_cliques, 3, "cliques");
  gclq_maxclique_result_free(&r);
  o.mode = GCLQ_MODE_ONE;
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS && r.omega == 1 && r.count == 1 && r.stored == 1);
  CHECK(r.h_cliques[0] == 3 || r.h_cliques[0] == 7 || r.h_cliques[0] == 12);
  gclq_maxclique_result_free(&r);
  /* loops beside an edge: the isolated vertex is not a maximum clique */
  gclq_graph_free(&g);
  CHECK(gclq_graph_parse("5 5\n1 2\n", 8, GCLQ_FORMAT_SNAP, &g, &e) == GCLQ_SUCCESS && g.num_vertices == 3);
  o.mode = GCLQ_MODE_ALL;
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS && r.omega == 2 && r.count == 1);
  CHECK(r.h_cliques[0] == 1 && r.h_cliques[1] == 2);
  gclq_maxclique_result_free(&r);
  gclq_graph_free(&g);
}
TEST(maxclique, host_self_loops_only) { mc_self_loops_only(GCLQ_BACKEND_HOST); }
GPU_TEST(maxclique, cuda_self_loops_only) { mc_self_loops_only(GCLQ_BACKEND_CUDA); }

/* AUTO runs HOST on small work (GCLQ_AUTO_HOST_*) and says so; above the
   edge limit it runs CUDA when a device is present, else HOST (fell_back). */
TEST(maxclique, auto_small_work_runs_host) {
  gclq_graph g;
  gclq_maxclique_result r;
  gclq_maxclique_options o = mc_opts(GCLQ_BACKEND_AUTO);
  CHECK(gclq_graph_planted_clique(300, 0.02, 8, 5, &g, NULL) == GCLQ_SUCCESS);
  CHECK(g.num_edges <= GCLQ_AUTO_HOST_MAX_EDGES);
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS && r.omega == 8);
  CHECK(r.stats.backend == GCLQ_BACKEND_HOST && r.stats.auto_small == 1);
  /* without a device the note and fell_back say so, whichever rule applied;
     the small graph's max core is reported in the stat and the note alike */
  CHECK_MSG(r.stats.fell_back == (g_test.have_gpu ? 0 : 1), "fell_back %d, notes %s", r.stats.fell_back,
            r.stats.notes);
  CHECK_MSG((strstr(r.stats.notes, "no CUDA device") != NULL) == !g_test.have_gpu, "notes %s", r.stats.notes);
  CHECK(strstr(r.stats.notes, "small graph") != NULL);
  {
    std::vector<uint32_t> core(g.num_vertices);
    uint32_t max_core = 0;
    char says[32];
    CHECK(cliqt_core_numbers(&g, core.data(), &max_core) == GCLQ_SUCCESS);
    snprintf(says, sizeof says, "max core %u", max_core);
    CHECK_MSG(r.stats.max_core == max_core && max_core > 0, "stats.max_core %u, want %u", r.stats.max_core, max_core);
    CHECK_MSG(strstr(r.stats.notes, says) != NULL, "notes %s, want %s", r.stats.notes, says);
  }
  gclq_maxclique_result_free(&r);
  gclq_graph_free(&g);
  /* about 1.5x the edge limit, mode ONE (quick on either backend) */
  double p = 0.05, want_m = 1.5 * GCLQ_AUTO_HOST_MAX_EDGES;
  uint32_t n = (uint32_t)sqrt(2.0 * want_m / p) + 2;
  CHECK(gclq_graph_erdos_renyi(n, p, 11, &g) == GCLQ_SUCCESS);
  CHECK(g.num_edges > GCLQ_AUTO_HOST_MAX_EDGES);
  o.mode = GCLQ_MODE_ONE;
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS && r.count == 1);
  CHECK(r.stats.auto_small == 0);
  if (g_test.have_gpu) CHECK(r.stats.backend == GCLQ_BACKEND_CUDA);
  else CHECK(r.stats.backend == GCLQ_BACKEND_HOST && r.stats.fell_back == 1);
  if (!g_test.have_gpu) CHECK(strstr(r.stats.notes, "no CUDA device") && !strstr(r.stats.notes, "small"));
  gclq_maxclique_result_free(&r);
  gclq_graph_free(&g);
  /* under the edge limit but dense (max core over GCLQ_AUTO_HOST_MAX_CORE): not small */
  CHECK(gclq_graph_erdos_renyi(200, 0.7, 13, &g) == GCLQ_SUCCESS);
  CHECK(g.num_edges <= GCLQ_AUTO_HOST_MAX_EDGES);
  {
    std::vector<uint32_t> core(g.num_vertices);
    uint32_t max_core = 0;
    CHECK(cliqt_core_numbers(&g, core.data(), &max_core) == GCLQ_SUCCESS);
    CHECK(max_core > GCLQ_AUTO_HOST_MAX_CORE);
  }
  o = mc_opts(GCLQ_BACKEND_AUTO);
  o.mode = GCLQ_MODE_ONE;
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS && r.count == 1);
  CHECK(r.stats.auto_small == 0);
  if (g_test.have_gpu) CHECK(r.stats.backend == GCLQ_BACKEND_CUDA);
  gclq_maxclique_result_free(&r);
  /* an explicit HOST or CUDA request is never changed */
  o = mc_opts(GCLQ_BACKEND_HOST);
  o.mode = GCLQ_MODE_ONE;
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS && r.stats.auto_small == 0);
  gclq_maxclique_result_free(&r);
  gclq_graph_free(&g);
}

/* The other choosers' AUTO on a machine without a device says so too:
   k-cliques (no small rule; the note) and set intersection (small work
   runs HOST either way: fell_back and the note name the missing device). */
TEST(maxclique, auto_notes_of_the_other_choosers) {
  gclq_graph g;
  CHECK(gclq_graph_planted_clique(300, 0.02, 8, 5, &g, NULL) == GCLQ_SUCCESS);
  gclq_kclique_options ko;
  gclq_kclique_result kr;
  gclq_kclique_options_defaults(&ko);
  ko.k = 4;
  CHECK(gclq_kcliques(&g, &ko, &kr) == GCLQ_SUCCESS && kr.h_counts[0] > 0);
  if (kr.stats.backend == GCLQ_BACKEND_HOST)
    CHECK_MSG(strstr(kr.stats.notes, "ran the host backend") != NULL, "notes %s", kr.stats.notes);
  if (!g_test.have_gpu)
    CHECK_MSG(kr.stats.backend == GCLQ_BACKEND_HOST && strstr(kr.stats.notes, "no CUDA device"), "notes %s",
              kr.stats.notes);
  CHECK(kr.stats.max_core > 0);
  gclq_kclique_result_free(&kr);
  gclq_sets sets;
  gclq_intersect_result ir;
  CHECK(gclq_sets_from_graph(&g, &sets) == GCLQ_SUCCESS);
  CHECK(gclq_intersect_pair(&sets, 0, 1, NULL, &ir) == GCLQ_SUCCESS);
  CHECK(ir.stats.backend == GCLQ_BACKEND_HOST && ir.stats.auto_small == 1);
  CHECK_MSG(ir.stats.fell_back == (g_test.have_gpu ? 0 : 1), "fell_back %d, notes %s", ir.stats.fell_back,
            ir.stats.notes);
  CHECK_MSG((strstr(ir.stats.notes, "no CUDA device") != NULL) == !g_test.have_gpu, "notes %s", ir.stats.notes);
  CHECK_MSG(strstr(ir.stats.notes, "small work") != NULL, "notes %s", ir.stats.notes);
  gclq_intersect_result_free(&ir);
  gclq_sets_free(&sets);
  gclq_graph_free(&g);
}

/* The log option on every backend: HOST writes a line per phase (and one a
   second of the search), CUDA one per level. */
struct mc_log_lines {
  int lines = 0, cores = 0, done = 0;
  static void fn(void *user, const char *line) {
    mc_log_lines *l = (mc_log_lines *)user;
    ++l->lines;
    if (strstr(line, "max core")) l->cores = 1;
    if (strstr(line, "done: omega")) l->done = 1;
  }
};
/* A planted K12 run on backend with a log: at least three lines, one of
   them naming the max core (HOST, and AUTO on this small graph, also end
   with a "done" line). */
static void mc_check_log(gclq_backend backend) {
  const long long live0 = g_alloc_live;
  gclq_graph g;
  gclq_maxclique_result r;
  CHECK(gclq_graph_planted_clique(2000, 0.01, 12, 9, &g, NULL) == GCLQ_SUCCESS);
  mc_log_lines seen;
  gclq_maxclique_options o = mc_opts(backend);
  o.log = mc_log_lines::fn;
  o.log_user = &seen;
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS && r.omega == 12);
  CHECK_MSG(seen.lines >= 3 && seen.cores, "%s: %d lines", gclq_backend_name(backend), seen.lines);
  if (r.stats.backend == GCLQ_BACKEND_HOST) CHECK(seen.done);
  gclq_maxclique_result_free(&r);
  gclq_graph_free(&g);
  CHECK_EQ(g_alloc_live, live0); /* this run's host blocks all freed */
}
TEST(maxclique, host_calls_the_log) {
  mc_check_log(GCLQ_BACKEND_HOST);
  mc_check_log(GCLQ_BACKEND_AUTO);
}
GPU_TEST(maxclique, cuda_calls_the_log) { mc_check_log(GCLQ_BACKEND_CUDA); }

GPU_TEST(maxclique, cuda_max_stored) {
  mc_check_stored(GCLQ_BACKEND_CUDA, GCLQ_SEARCH_BITSET);
  mc_check_stored(GCLQ_BACKEND_CUDA, GCLQ_SEARCH_LIST);
}

/* ---- CUDA backend against the HOST backend ------------------------------- */

/* Device bytes of the graph as the CUDA search holds it: offsets,
   neighbours, degrees, cores, the window order, the 2-clique counts. */
static size_t mc_graph_bytes(const gclq_graph *g) {
  return ((size_t)g->num_vertices + 1) * 16 + (size_t)g->num_edges * 8 + (size_t)g->num_vertices * 12;
}

/* Run CUDA with o, compare with the host result want (all mode: byte for
   byte; one mode: size and validity). Returns the CUDA run's milliseconds;
   on failure prints the log's out-of-memory line, if any. */
static double mc_cuda_vs(const gclq_graph *g, const gclq_maxclique_options &o, const gclq_maxclique_result &want,
                         const char *what, gclq_maxclique_stats *stats_out = NULL) {
  gclq_maxclique_result r;
  struct oom_line { /* the log's out-of-memory line, when the caller has no log */
    std::string text;
    static void fn(void *user, const char *line) {
      if (strstr(line, "out of memory")) ((oom_line *)user)->text = line;
    }
  } oom;
  gclq_maxclique_options oo = o;
  if (!oo.log) oo.log = oom_line::fn, oo.log_user = &oom;
  const long long live0 = g_alloc_live; /* host blocks: the call leaves none behind but its result */
  auto t0 = std::chrono::steady_clock::now();
  gclq_status st = gclq_max_cliques(g, &oo, &r);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "    %s: %s %s\n", what, gclq_status_string(st), oom.text.c_str());
    g_test.failed = 1;
    return ms;
  }
  bool ok = r.omega == want.omega && r.stats.backend == GCLQ_BACKEND_CUDA;
  if (o.mode == GCLQ_MODE_ONE) {
    ok = ok && r.count == (want.omega ? 1u : 0u) && mc_result_valid(g, &r);
  } else {
    ok = ok && r.count == want.count &&
         (r.count == 0 || memcmp(r.h_cliques, want.h_cliques, r.count * r.omega * sizeof(uint64_t)) == 0);
  }
  if (o.device_budget_bytes && r.stats.peak_device_bytes > o.device_budget_bytes) ok = false;
  if (!ok) {
    fprintf(stderr, "    %s: CUDA omega %u count %llu (peak %zu, budget %zu), HOST omega %u count %llu\n", what,
            r.omega, (unsigned long long)r.count, r.stats.peak_device_bytes, o.device_budget_bytes, want.omega,
            (unsigned long long)want.count);
    g_test.failed = 1;
  }
  long long taken = 0;
  if (stats_out) {
    /* the caller takes the candidates array (GCLQ_FREE it) */
    *stats_out = r.stats;
    taken = r.stats.candidates_per_level != NULL;
    r.stats.candidates_per_level = NULL;
  }
  gclq_maxclique_result_free(&r);
  if (g_alloc_live != live0 + taken) {
    fprintf(stderr, "    %s: %lld host blocks leaked\n", what, g_alloc_live - live0 - taken);
    g_test.failed = 1;
  }
  return ms;
}

/* The default CUDA run and its host twin (cliqt_bfs_simulate) must
   write the same candidates at every level: the same algorithm, step for
   step. Heavy graphs (seconds to simulate) only print the device's stats. */
static void mc_check_against_simulation(const gclq_graph *g, gclq_maxclique_options o, const gclq_maxclique_stats &cs,
                                        const std::string &name, bool heavy) {
  uint64_t total = 0;
  for (uint32_t k = 0; cs.candidates_per_level && k < cs.num_levels; ++k) total += cs.candidates_per_level[k];
  printf("\n      [default] cuda phases ms: upload %.1f cores %.1f heuristic %.1f setup %.1f search %.1f readout %.1f"
         " (total %.1f); lb %u, candidates %llu, levels %u, windows %u, splits %u\n      ",
         cs.upload_ms, cs.cores_ms, cs.heuristic_ms, cs.setup_ms, cs.search_ms, cs.readout_ms, cs.total_ms,
         cs.lower_bound, (unsigned long long)total, cs.num_levels, cs.windows, cs.budget_splits);
  if (heavy || !cs.candidates_per_level) return;
  cliqt_bfs_sim sim;
  o.backend = GCLQ_BACKEND_HOST;
  memset(&sim, 0, sizeof sim);
  CHECK(cliqt_bfs_simulate(g, &o, &sim) == GCLQ_SUCCESS);
  CHECK_MSG(sim.lower_bound == cs.lower_bound, "%s: simulated lower bound %u, CUDA %u", name.c_str(), sim.lower_bound,
            cs.lower_bound);
  for (uint32_t k = 2; k < sim.num_levels || k < cs.num_levels; ++k) {
    uint64_t a = k < sim.num_levels ? sim.candidates[k] : 0, b = k < cs.num_levels ? cs.candidates_per_level[k] : 0;
    CHECK_MSG(a == b, "%s: level %u: simulation %llu candidates, CUDA %llu", name.c_str(), k, (unsigned long long)a,
              (unsigned long long)b);
  }
}

/* The configurations every data graph runs in. */
struct mc_config {
  const char *name;
  gclq_heuristic heuristic;
  gclq_orientation orientation;
  gclq_prune prune;
  uint64_t window;
  gclq_window_order order;
  size_t budget;
  int one;
  gclq_search search; /* 0: the default (BITSET) */
};
static const size_t MC_TINY = (size_t)6 << 20;
/* HEURISTIC_NONE leaves the search without a bound (every clique of the
   graph is enumerated): it runs on the small and random graphs only. */
static const mc_config mc_configs[] = {
    {"default", GCLQ_HEURISTIC_DEFAULT, GCLQ_ORIENT_DEFAULT, GCLQ_PRUNE_DEFAULT, 0, GCLQ_WINDOW_ORDER_DEFAULT, 0, 0},
    {"one", GCLQ_HEURISTIC_DEFAULT, GCLQ_ORIENT_DEFAULT, GCLQ_PRUNE_DEFAULT, 0, GCLQ_WINDOW_ORDER_DEFAULT, 0, 1},
    {"budget 256 MiB", GCLQ_HEURISTIC_DEFAULT, GCLQ_ORIENT_DEFAULT, GCLQ_PRUNE_DEFAULT, 0, GCLQ_WINDOW_ORDER_DEFAULT,
     (size_t)256 << 20, 0},
    {"budget 6 MiB", GCLQ_HEURISTIC_DEFAULT, GCLQ_ORIENT_DEFAULT, GCLQ_PRUNE_DEFAULT, 0, GCLQ_WINDOW_ORDER_DEFAULT,
     MC_TINY, 0},
    /* the light matrix ends here */
    {"single-degree", GCLQ_HEURISTIC_SINGLE_DEGREE, GCLQ_ORIENT_DEGREE, GCLQ_PRUNE_DEGREE, 0,
     GCLQ_WINDOW_ORDER_DEGREE_ASC, 0, 0},
    {"single-core", GCLQ_HEURISTIC_SINGLE_CORE, GCLQ_ORIENT_DEGREE, GCLQ_PRUNE_CORE, 0, GCLQ_WINDOW_ORDER_CORE_DESC, 0,
     0},
    {"multi-degree/index", GCLQ_HEURISTIC_MULTI_DEGREE, GCLQ_ORIENT_INDEX, GCLQ_PRUNE_CORE, 0,
     GCLQ_WINDOW_ORDER_INDEX, 0, 0},
    {"multi-core/degeneracy", GCLQ_HEURISTIC_MULTI_CORE, GCLQ_ORIENT_DEGENERACY, GCLQ_PRUNE_CORE, 0,
     GCLQ_WINDOW_ORDER_CORE_ASC, 0, 0},
    {"window 64 degree-desc", GCLQ_HEURISTIC_MULTI_DEGREE, GCLQ_ORIENT_DEGREE, GCLQ_PRUNE_CORE, 64,
     GCLQ_WINDOW_ORDER_DEGREE_DESC, 0, 0},
    {"window 1000 core-desc/index", GCLQ_HEURISTIC_SINGLE_CORE, GCLQ_ORIENT_INDEX, GCLQ_PRUNE_DEGREE, 1000,
     GCLQ_WINDOW_ORDER_CORE_DESC, 0, 0},
    {"budget 6 MiB window 500 index", GCLQ_HEURISTIC_MULTI_CORE, GCLQ_ORIENT_INDEX, GCLQ_PRUNE_DEGREE, 500,
     GCLQ_WINDOW_ORDER_INDEX, MC_TINY, 0},
    {"one window 100 budget 6 MiB degeneracy", GCLQ_HEURISTIC_SINGLE_DEGREE, GCLQ_ORIENT_DEGENERACY, GCLQ_PRUNE_CORE, 100,
     GCLQ_WINDOW_ORDER_DEGREE_DESC, MC_TINY, 1},
    /* the paper's list search (the default above is the bitset search) */
    {"list", GCLQ_HEURISTIC_DEFAULT, GCLQ_ORIENT_DEFAULT, GCLQ_PRUNE_DEFAULT, 0, GCLQ_WINDOW_ORDER_DEFAULT, 0, 0,
     GCLQ_SEARCH_LIST},
    {"list one", GCLQ_HEURISTIC_DEFAULT, GCLQ_ORIENT_DEFAULT, GCLQ_PRUNE_DEFAULT, 0, GCLQ_WINDOW_ORDER_DEFAULT, 0, 1,
     GCLQ_SEARCH_LIST},
    {"list budget 6 MiB window 500 index", GCLQ_HEURISTIC_MULTI_CORE, GCLQ_ORIENT_INDEX, GCLQ_PRUNE_DEGREE, 500,
     GCLQ_WINDOW_ORDER_INDEX, MC_TINY, 0, GCLQ_SEARCH_LIST},
    {"list single-core/degeneracy", GCLQ_HEURISTIC_SINGLE_CORE, GCLQ_ORIENT_DEGENERACY, GCLQ_PRUNE_CORE, 0,
     GCLQ_WINDOW_ORDER_CORE_DESC, 0, 0, GCLQ_SEARCH_LIST},
    {"length bound", GCLQ_HEURISTIC_DEFAULT, GCLQ_ORIENT_DEFAULT, GCLQ_PRUNE_DEFAULT, 0, GCLQ_WINDOW_ORDER_DEFAULT, 0,
     0},
    {"none", GCLQ_HEURISTIC_NONE, GCLQ_ORIENT_DEGREE, GCLQ_PRUNE_DEGREE, 0, GCLQ_WINDOW_ORDER_INDEX, 0, 0},
};
static const size_t MC_LIGHT = 4;            /* configurations of the light matrix */
static const size_t MC_LIST_FIRST = 12;      /* the list search's configurations */
static const size_t MC_DATA_CONFIGS = 17;    /* all but NONE */
static const size_t MC_LENGTH = 16;          /* the length bound (cheap graphs only) */

/* Graphs the device tests skip (the sublist-length bound alone left > 3e9
   candidates on facebook_combined, c-fat500-10, san200_0.7_1: notes/clique_status.md). */
static bool mc_too_heavy(const std::string &name) {
  (void)name; /* none since the colour bound (host simulation: every graph below 2e7 candidates) */
  return false;
}
/* Graphs with 1e6 - 2e7 candidates under the colour bound (host simulation;
   san200_0.7_1, sanr200_0.7, brock200_4 need ~1e9 adjacency tests): the
   light matrix only. */
static bool mc_heavy(const std::string &name) {
  return name == "MANN_a9.clq" || name == "brock200_4.clq" || name == "sanr200_0.7.clq" ||
         name == "san200_0.7_1.clq" || name == "facebook_combined.txt";
}

static gclq_maxclique_options mc_config_opts(const mc_config &c) {
  gclq_maxclique_options o = mc_opts(GCLQ_BACKEND_CUDA);
  o.heuristic = c.heuristic;
  o.orientation = c.orientation;
  o.prune = c.prune;
  o.window_size = c.window;
  o.window_order = c.order;
  o.device_budget_bytes = c.budget;
  o.mode = c.one ? GCLQ_MODE_ONE : GCLQ_MODE_ALL;
  o.search = c.search;
  if (&c == &mc_configs[MC_LENGTH]) o.bound = GCLQ_BOUND_LENGTH;
  return o;
}

static void mc_gpu_data(const char *which) {
  std::vector<mc_ref> refs = mc_references();
  if (refs.empty()) {
    printf("    skipped: data dir absent (../shared/data not found; set GPUAMQ_DATA_DIR)\n");
    g_test.skipped = 1;
    return;
  }
  for (size_t i = 0; i < refs.size(); ++i) {
    if (refs[i].path.find(which) == std::string::npos) continue;
    gclq_graph g;
    gclq_maxclique_result want;
    std::string name = mc_name(refs[i].path);
    size_t nconf = mc_heavy(name) ? MC_LIGHT : MC_DATA_CONFIGS;
    if (mc_too_heavy(name)) {
      printf("    %-20s not run on the device: > 3e9 candidates with this bound (see notes)\n", name.c_str());
      continue;
    }
    CHECK_MSG(gclq_graph_load(refs[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS, "%s: cannot load",
              name.c_str());
    gclq_maxclique_options ho = mc_opts(GCLQ_BACKEND_HOST);
    auto t0 = std::chrono::steady_clock::now();
    CHECK(gclq_max_cliques(&g, &ho, &want) == GCLQ_SUCCESS);
    double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK_MSG(want.omega == refs[i].omega && (refs[i].count < 0 || (long long)want.count == refs[i].count),
              "%s: HOST disagrees with REFERENCE.tsv", name.c_str());
    printf("    %-20s omega %3u count %6llu host %8.1f ms | cuda ms:", name.c_str(), want.omega,
           (unsigned long long)want.count, host_ms);
    size_t default_peak = 0;
    for (size_t c = 0; c < MC_DATA_CONFIGS; ++c) {
      /* heavy graphs: the light matrix and the list search's default */
      if (c >= nconf && c != MC_LIST_FIRST) continue;
      if (c == MC_LENGTH && mc_heavy(name)) continue;
      std::string what = name + " [" + mc_configs[c].name + "]";
      gclq_maxclique_stats s;
      memset(&s, 0, sizeof s);
      double ms = mc_cuda_vs(&g, mc_config_opts(mc_configs[c]), want, what.c_str(), &s);
      CHECK_MSG(s.search == (mc_configs[c].search ? mc_configs[c].search : GCLQ_SEARCH_BITSET), "%s: search %d ran",
                what.c_str(), (int)s.search);
      if (c == 0) default_peak = s.peak_device_bytes;
      if (c == MC_LIST_FIRST)
        mc_check_against_simulation(&g, mc_config_opts(mc_configs[c]), s, name, mc_heavy(name));
      GCLQ_FREE(s.candidates_per_level);
      /* Under the budget (mc_cuda_vs checks peak <= budget and the result):
         the search shrinks its count buffer first and splits steps only if
         that is not enough, so a run above the budget by default need not
         have split. */
      printf(" %.0f", ms);
      fflush(stdout);
    }
    printf(" | peak %.1f MiB\n", (double)default_peak / 1048576.0);
    gclq_maxclique_result_free(&want);
    gclq_graph_free(&g);
    CHECK_OK_SO_FAR();
  }
}

GPU_TEST(maxclique, cuda_dimacs_graphs) { mc_gpu_data("/dimacs/"); }
GPU_TEST(maxclique, cuda_snap_graphs) { mc_gpu_data("/snap/"); }

GPU_TEST(maxclique, cuda_small_graphs) { mc_small_cases_on(GCLQ_BACKEND_CUDA); }

GPU_TEST(maxclique, cuda_core_numbers) {
  std::vector<gclq_graph> gs;
  gclq_graph g;
  CHECK(gclq_graph_rmat(14, 16, 5, &g) == GCLQ_SUCCESS);
  gs.push_back(g);
  CHECK(gclq_graph_erdos_renyi(2000, 0.01, 6, &g) == GCLQ_SUCCESS);
  gs.push_back(g);
  std::vector<mc_ref> refs = mc_references();
  for (size_t i = 0; i < refs.size(); ++i)
    if (gclq_graph_load(refs[i].path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) == GCLQ_SUCCESS) gs.push_back(g);
  for (size_t i = 0; i < gs.size(); ++i) {
    uint32_t n = gs[i].num_vertices, mh = 0, md = 0;
    std::vector<uint32_t> want(n + 1), got(n + 1, 0xdeadbeef);
    CHECK(cliqt_core_numbers(&gs[i], want.data(), &mh) == GCLQ_SUCCESS);
    CHECK(gclq_core_numbers(&gs[i], GCLQ_BACKEND_CUDA, got.data(), &md) == GCLQ_SUCCESS);
    CHECK_EQ(mh, md);
    CHECK_ARRAYS(want.data(), got.data(), n, "core numbers");
  }
  for (size_t i = 0; i < gs.size(); ++i) gclq_graph_free(&gs[i]);
}

GPU_TEST(maxclique, cuda_random_and_planted) {
  test_rng rng = test_rng_for("maxclique.random");
  for (int t = 0; t < 24 && !g_test.failed; ++t) {
    gclq_graph g;
    uint32_t n = 20 + (uint32_t)(rng.next() % (t < 12 ? 400 : 150));
    double p = 0.02 + (double)(rng.next() % 1000) / 1000.0 * (t < 12 ? 0.3 : 0.6);
    uint64_t seed = rng.next();
    if (t % 3 == 2) {
      uint32_t k = 5 + (uint32_t)(rng.next() % 25);
      if (k > n) k = n;
      CHECK(gclq_graph_planted_clique(n, p / 4, k, seed, &g, NULL) == GCLQ_SUCCESS);
    } else {
      CHECK(gclq_graph_erdos_renyi(n, p, seed, &g) == GCLQ_SUCCESS);
    }
    gclq_maxclique_result want;
    gclq_maxclique_options ho = mc_opts(GCLQ_BACKEND_HOST);
    CHECK(gclq_max_cliques(&g, &ho, &want) == GCLQ_SUCCESS);
    char what[128];
    snprintf(what, sizeof what, "random %d (n %u, p %.3f, seed %llu)", t, n, p, (unsigned long long)seed);
    const mc_config &c = mc_configs[rng.next() % (sizeof mc_configs / sizeof mc_configs[0])];
    gclq_maxclique_options o = mc_config_opts(c);
    /* these graphs are small: a budget just above the graph, so the 2-clique
       list is built window by window and the levels split */
    if (c.budget == MC_TINY) o.device_budget_bytes = mc_graph_bytes(&g) + ((size_t)192 << 10);
    mc_cuda_vs(&g, mc_config_opts(mc_configs[0]), want, what);
    mc_cuda_vs(&g, o, want, (std::string(what) + " [" + c.name + "]").c_str());
    gclq_maxclique_result_free(&want);
    gclq_graph_free(&g);
  }
  /* larger planted cliques in sparse graphs */
  for (int t = 0; t < 3 && !g_test.failed; ++t) {
    gclq_graph g;
    uint32_t planted[64];
    CHECK(gclq_graph_planted_clique(20000 + 10000 * t, 0.001, 20 + 15 * t, 40 + t, &g, planted) == GCLQ_SUCCESS);
    gclq_maxclique_result want;
    gclq_maxclique_options ho = mc_opts(GCLQ_BACKEND_HOST);
    CHECK(gclq_max_cliques(&g, &ho, &want) == GCLQ_SUCCESS);
    CHECK(want.omega == 20u + 15u * t && want.count == 1);
    for (uint32_t i = 0; i < want.omega; ++i) CHECK(want.h_cliques[i] == planted[i]);
    mc_cuda_vs(&g, mc_config_opts(mc_configs[0]), want, "planted");
    /* only the graph must fit: the 2-clique list is built window by window */
    gclq_maxclique_options to = mc_config_opts(mc_configs[3]);
    to.device_budget_bytes = mc_graph_bytes(&g) + ((size_t)512 << 10);
    mc_cuda_vs(&g, to, want, "planted, graph + 512 KiB");
    gclq_maxclique_result_free(&want);
    gclq_graph_free(&g);
  }
}

/* The budget tests' graphs: the first (t == 0) is n 383, p 0.243, then
   random dense G(n, p); *want = HOST's answer. */
static void mc_budget_graph(test_rng &rng, int t, gclq_graph *g, gclq_maxclique_result *want, uint32_t *n, double *p,
                            uint64_t *seed) {
  *n = t == 0 ? 383 : 100 + (uint32_t)(rng.next() % 500);
  *p = t == 0 ? 0.243 : 0.05 + (double)(rng.next() % 1000) / 1000.0 * 0.3;
  *seed = rng.next();
  CHECK(gclq_graph_erdos_renyi(*n, *p, *seed, g) == GCLQ_SUCCESS);
  gclq_maxclique_options ho = mc_opts(GCLQ_BACKEND_HOST);
  CHECK(gclq_max_cliques(g, &ho, want) == GCLQ_SUCCESS);
}

/* Budgets just above the graph: the 2-clique list does not fit whole, so
   it is built window by window (log line, windows > 1), and the nested levels
   of dense graphs split; the result equals HOST's in every configuration.
   The first graph is the one (n 383, p 0.243) that once ran out of memory
   under 256 KiB: its 2-clique list alone did not fit. */
GPU_TEST(maxclique, cuda_budget_builds_windows) {
  const long long live0 = g_alloc_live;
  test_rng rng = test_rng_for("maxclique.budget_windows");
  for (int t = 0; t < 6 && !g_test.failed; ++t) {
    gclq_graph g;
    gclq_maxclique_result want;
    uint32_t n;
    double p;
    uint64_t seed;
    mc_budget_graph(rng, t, &g, &want, &n, &p, &seed);
    const size_t extra[3] = {(size_t)128 << 10, (size_t)384 << 10, (size_t)2 << 20};
    const int cfgs[3] = {0, 1, 11}; /* default, one, one window 100 */
    for (int b = 0; b < 3 && !g_test.failed; ++b)
      for (int k = 0; k < 3 && !g_test.failed; ++k) {
        struct lines {
          static void fn(void *, const char *line) {
            if (strstr(line, "out of memory")) fprintf(stderr, "      %s\n", line);
          }
        } seen;
        gclq_maxclique_options o = mc_config_opts(mc_configs[cfgs[k]]);
        o.device_budget_bytes = mc_graph_bytes(&g) + extra[b];
        o.log = lines::fn;
        o.log_user = &seen;
        char what[160];
        snprintf(what, sizeof what, "budget %d (n %u, p %.3f, seed %llu, graph + %zu KiB, %s)", t, n, p,
                 (unsigned long long)seed, extra[b] >> 10, mc_configs[cfgs[k]].name);
        gclq_maxclique_stats s;
        memset(&s, 0, sizeof s);
        mc_cuda_vs(&g, o, want, what, &s);
        /* the bitset search's local graphs take at least 8 bytes a 2-clique
           and may hold a quarter of the room: more than budget / 32 2-cliques
           need several windows */
        CHECK(s.search == GCLQ_SEARCH_BITSET);
        if (s.two_cliques * 32 > o.device_budget_bytes) CHECK(s.windows > 1);
        if (t == 0 && b == 0 && k == 0)
          printf("    n 383 p 0.243, graph + 128 KiB: %llu 2-cliques, %u windows, %u budget splits, peak %zu\n",
                 (unsigned long long)s.two_cliques, s.windows, s.budget_splits, s.peak_device_bytes);
        GCLQ_FREE(s.candidates_per_level);
      }
    gclq_maxclique_result_free(&want);
    gclq_graph_free(&g);
  }
  CHECK_EQ(g_alloc_live, live0); /* this test's host blocks all freed */
}

/* The list search under the same budgets: its 2-clique list is built window
   by window when it does not fit a quarter of the room at 32 bytes an entry. */
GPU_TEST(maxclique, cuda_list_budget_builds_windows) {
  const long long live0 = g_alloc_live;
  test_rng rng = test_rng_for("maxclique.list_windows");
  for (int t = 0; t < 3 && !g_test.failed; ++t) {
    gclq_graph g;
    gclq_maxclique_result want;
    uint32_t n;
    double p;
    uint64_t seed;
    mc_budget_graph(rng, t, &g, &want, &n, &p, &seed);
    struct lines {
      int chunked = 0;
      static void fn(void *user, const char *line) {
        if (strstr(line, "built window by window")) ((lines *)user)->chunked = 1;
      }
    } seen;
    gclq_maxclique_options o = mc_config_opts(mc_configs[MC_LIST_FIRST]);
    o.device_budget_bytes = mc_graph_bytes(&g) + ((size_t)128 << 10);
    o.log = lines::fn;
    o.log_user = &seen;
    gclq_maxclique_stats s;
    memset(&s, 0, sizeof s);
    char what[160];
    snprintf(what, sizeof what, "list budget %d (n %u, p %.3f, seed %llu)", t, n, p, (unsigned long long)seed);
    mc_cuda_vs(&g, o, want, what, &s);
    CHECK(s.search == GCLQ_SEARCH_LIST);
    if (s.two_cliques * 128 > o.device_budget_bytes) {
      CHECK(seen.chunked);
      CHECK(s.windows > 1);
    }
    GCLQ_FREE(s.candidates_per_level);
    gclq_maxclique_result_free(&want);
    gclq_graph_free(&g);
  }
  CHECK_EQ(g_alloc_live, live0); /* this test's host blocks all freed */
}

/* Local graphs of more than 1024 and 2048 vertices (2 and 4 words a lane),
   and the fallback to the list search above the bitset search's limit
   (lowered by the test hook). */
GPU_TEST(maxclique, cuda_bitset_wide_and_fallback) {
  const long long live0 = g_alloc_live;
  const uint32_t sizes[2] = {1100, 2100};
  for (int t = 0; t < 2 && !g_test.failed; ++t) {
    gclq_graph g;
    std::vector<uint32_t> planted(sizes[t]);
    CHECK(gclq_graph_planted_clique(sizes[t] + 700, 0.01, sizes[t], 77 + t, &g, planted.data()) == GCLQ_SUCCESS);
    gclq_maxclique_result want;
    gclq_maxclique_options ho = mc_opts(GCLQ_BACKEND_HOST);
    CHECK(gclq_max_cliques(&g, &ho, &want) == GCLQ_SUCCESS);
    CHECK(want.omega == sizes[t] && want.count == 1);
    gclq_maxclique_stats s;
    memset(&s, 0, sizeof s);
    mc_cuda_vs(&g, mc_config_opts(mc_configs[0]), want, t ? "planted 2100" : "planted 1100", &s);
    CHECK(s.search == GCLQ_SEARCH_BITSET);
    GCLQ_FREE(s.candidates_per_level);
    mc_cuda_vs(&g, mc_config_opts(mc_configs[1]), want, "planted, one");
    gclq_maxclique_result_free(&want);
    gclq_graph_free(&g);
  }
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(300, 0.3, 5, &g) == GCLQ_SUCCESS);
  gclq_maxclique_result want;
  gclq_maxclique_options ho = mc_opts(GCLQ_BACKEND_HOST);
  CHECK(gclq_max_cliques(&g, &ho, &want) == GCLQ_SUCCESS);
  const uint32_t keep = cliqt_bits_max();
  cliqt_set_bits_max(16);
  gclq_maxclique_stats s;
  memset(&s, 0, sizeof s);
  mc_cuda_vs(&g, mc_config_opts(mc_configs[0]), want, "fallback", &s);
  cliqt_set_bits_max(keep);
  CHECK(s.search == GCLQ_SEARCH_LIST && strstr(s.notes, "list search") != NULL);
  GCLQ_FREE(s.candidates_per_level);
  gclq_maxclique_result_free(&want);
  gclq_graph_free(&g);
  CHECK_EQ(g_alloc_live, live0); /* this test's host blocks all freed */
}

GPU_TEST(maxclique, cuda_budget_too_small_and_log) {
  const long long live0 = g_alloc_live;
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(500, 0.2, 9, &g) == GCLQ_SUCCESS);
  gclq_maxclique_options o = mc_opts(GCLQ_BACKEND_CUDA);
  gclq_maxclique_result r;
  o.device_budget_bytes = 4096; /* smaller than the graph */
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_ERROR_OUT_OF_MEMORY);
  CHECK(r.h_cliques == NULL && r.count == 0);
  /* the log sees one line per level at least */
  struct counter {
    static void fn(void *user, const char *line) {
      (void)line;
      ++*(int *)user;
    }
  };
  int lines = 0;
  o.device_budget_bytes = 0;
  o.log = counter::fn;
  o.log_user = &lines;
  CHECK(gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS);
  CHECK(lines >= (int)r.omega - 1 && r.stats.num_levels == r.omega + 1);
  CHECK(r.stats.candidates_per_level[r.omega] >= r.count);
  gclq_maxclique_result_free(&r);
  gclq_graph_free(&g);
  CHECK_EQ(g_alloc_live, live0); /* this test's host blocks all freed */
}
