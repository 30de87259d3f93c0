/* bench_maxclique.cu - maximum cliques (gpuclique.h section 6): the CUDA
   backend against the HOST backend (the serial branch and bound, the
   reference) on every graph of the data directory and on R-MAT graphs
   (Graph500 parameters, edge factor 16).

   Rows of the shared table: primitive "maxclique", variant "<graph>
   <heuristic>", n = edges, ours = CUDA ms (one run: a search is seconds, not
   microseconds; the first call pays the context), baseline = HOST ms (the
   default options; "-" where it was not run). Besides the table, one line per
   run with omega, count, the phases, the candidates, the peak device memory
   and edges per second, prefixed "mc,", and a CSV line prefixed "csv,":
     csv,graph,n,m,avg_degree,heuristic,budget_mib,omega,count,cuda_ms,host_ms,
         candidates,levels,peak_mib,windows,splits,edges_per_s
   Environment:
     GPUAMQ_DATA_DIR        the data directory (default ../shared/data)
     MAXCLIQUE_RMAT         R-MAT scales, e.g. "16,18,20,22" (default 16,18,20)
     MAXCLIQUE_HOST_MAX     the largest R-MAT scale the HOST backend runs on
                            (default 16: it takes ~10 s there and grows ~8x
                            per scale)
     MAXCLIQUE_HEURISTICS   "all" (default) or "default" (multi-degree only) on
                            the data graphs; R-MAT runs the default only
     MAXCLIQUE_FILES        a comma list of data files (default: all below)
     MAXCLIQUE_LOG          set: print the search's log lines ("log,")
     MAXCLIQUE_STORED       options.max_stored on the R-MAT graphs (default 0: every
                            clique; R-MAT 19 has 18.9 million maximum cliques)
     MAXCLIQUE_ONE          set: mode ONE on the R-MAT graphs
     MAXCLIQUE_SEARCH       "bitset" (default), "list" or "both" (the list
                            search with the default heuristic, variant "... list")
     MAXCLIQUE_FIRST_WIDTH, MAXCLIQUE_STEP  tune the CUDA search's steps
                            (gclq__tune_first_width / _step; default
                            GCLQ__FIRST_WIDTH / GCLQ__STEP_ENTRIES)
   facebook_combined also runs under budgets of 256 and 32 MiB with the
   budget mechanism off ("nosplit": gclq__no_budget_split, the paper's
   whole-level scheme) and on: off runs out of memory, on gives HOST's answer.

   The crossover of AUTO (GCLQ_AUTO_HOST_MAX_EDGES / _MAX_CORE in
   gpuclique.h) comes from a second benchmark, clique_crossover, which runs
   only when MAXCLIQUE_CROSSOVER is set (about a minute on an H200):
     MAXCLIQUE_CROSSOVER=1 ./gpuamq_bench --filter=clique_crossover
   For a sweep of generated graphs (G(n, p), R-MAT scales 8..16, planted
   cliques) and the data graphs it prints one row each, prefixed "cx,":
     graph, edges, max core, omega, HOST ms, CUDA ms fresh, CUDA ms warm, AUTO
   "fresh" is the first CUDA call of a new process (this binary run again
   with MAXCLIQUE_CROSSOVER_CHILD set, which measures before main() makes a
   context), so it includes the CUDA start-up a one-shot CLI run pays; "warm"
   is the median of three calls in this process. HOST is the median of three
   (one above 200 ms); MAXCLIQUE_CROSSOVER_HOST_MAX (default 15) is the
   largest R-MAT scale HOST runs on. AUTO is the backend AUTO picks with the
   constants compiled in. */
#include <chrono>
#include <string>
#include <vector>

#include <unistd.h> /* readlink, _exit: the crossover's child process */

#define GPUCLIQUE_STATIC
#define GPUCLIQUE_TESTING
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"
#include "bench.h"

static double bench_mc_ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct bench_mc_heur {
  const char *name;
  gclq_heuristic h;
};
static const bench_mc_heur bench_mc_heuristics[] = {
    {"multi-degree", GCLQ_HEURISTIC_MULTI_DEGREE},
    {"multi-core", GCLQ_HEURISTIC_MULTI_CORE},
    {"single-degree", GCLQ_HEURISTIC_SINGLE_DEGREE},
    {"single-core", GCLQ_HEURISTIC_SINGLE_CORE},
};

/* One CUDA run (and its HOST twin when host_ms < 0 is to be measured). */
static void bench_mc_run(const std::string &name, const gclq_graph *g, gclq_heuristic h, const char *hname,
                         size_t budget, double host_ms, uint32_t host_omega, uint64_t host_count, bool no_split = false,
                         gclq_search search = GCLQ_SEARCH_BITSET) {
  gclq_maxclique_options o;
  gclq_maxclique_options_defaults(&o);
  o.backend = GCLQ_BACKEND_CUDA;
  o.search = search;
  o.heuristic = h;
  o.device_budget_bytes = budget;
  const bool rmat = name.compare(0, 4, "rmat") == 0;
  if (rmat && getenv("MAXCLIQUE_STORED")) o.max_stored = strtoull(getenv("MAXCLIQUE_STORED"), NULL, 0);
  if (rmat && getenv("MAXCLIQUE_ONE")) o.mode = GCLQ_MODE_ONE;
  gclq_maxclique_result r;
  std::string oom; /* the log's out-of-memory line */
  struct logger {
    static void fn(void *user, const char *line) {
      static const bool all = getenv("MAXCLIQUE_LOG") != NULL;
      if (all) printf("log,%s\n", line), fflush(stdout);
      if (strstr(line, "out of memory")) *(std::string *)user = line;
    }
  };
  o.log = logger::fn;
  o.log_user = &oom;
  gclq__no_budget_split = no_split;
  auto t0 = std::chrono::steady_clock::now();
  gclq_status st = gclq_max_cliques(g, &o, &r);
  double ms = bench_mc_ms_since(t0);
  gclq__no_budget_split = 0;
  char variant[96];
  const char *sname = search == GCLQ_SEARCH_LIST ? " list" : o.mode == GCLQ_MODE_ONE ? " one" : "";
  if (budget)
    snprintf(variant, sizeof variant, "%s %s %zuMiB%s%s", name.c_str(), hname, budget >> 20, no_split ? " nosplit" : "",
             sname);
  else
    snprintf(variant, sizeof variant, "%s %s%s%s", name.c_str(), hname, no_split ? " nosplit" : "", sname);
  if (st != GCLQ_SUCCESS) {
    printf("mc,%s: CUDA failed after %.1f ms: %s (%s)\n", variant, ms, gclq_status_string(st), oom.c_str());
    return;
  }
  uint64_t cand = 0;
  for (uint32_t k = 0; k < r.stats.num_levels; ++k) cand += r.stats.candidates_per_level[k];
  const char *agree = host_ms < 0 ? "" : (r.omega == host_omega && r.count == host_count ? "" : " !!! DIFFERS FROM HOST");
  double avg = g->num_vertices ? 2.0 * (double)g->num_edges / g->num_vertices : 0.0;
  printf("mc,%-34s n %8u m %9llu avg deg %7.1f | omega %3u count %7llu | cuda %9.1f ms (upload %.1f cores %.1f "
         "heur %.1f setup %.1f search %.1f readout %.1f) lb %u | cand %llu levels %u peak %.1f MiB windows %u "
         "splits %u | host %s%9.1f ms | %.3g edges/s%s\n",
         variant, g->num_vertices, (unsigned long long)g->num_edges, avg, r.omega, (unsigned long long)r.count, ms,
         r.stats.upload_ms, r.stats.cores_ms, r.stats.heuristic_ms, r.stats.setup_ms, r.stats.search_ms,
         r.stats.readout_ms, r.stats.lower_bound, (unsigned long long)cand, r.stats.num_levels,
         (double)r.stats.peak_device_bytes / 1048576.0, r.stats.windows, r.stats.budget_splits,
         host_ms < 0 ? "(not run) " : "", host_ms < 0 ? 0.0 : host_ms, (double)g->num_edges / (ms * 1e-3), agree);
  printf("csv,%s,%u,%llu,%.2f,%s%s,%.0f,%u,%llu,%.3f,%.3f,%llu,%u,%.2f,%u,%u,%.4g\n", name.c_str(), g->num_vertices,
         (unsigned long long)g->num_edges, avg, hname, search == GCLQ_SEARCH_LIST ? "-list" : "",
         (double)budget / 1048576.0, r.omega,
         (unsigned long long)r.count, ms, host_ms, (unsigned long long)cand, r.stats.num_levels,
         (double)r.stats.peak_device_bytes / 1048576.0, r.stats.windows, r.stats.budget_splits,
         (double)g->num_edges / (ms * 1e-3));
  fflush(stdout);
  bench_report_vs("maxclique", variant, (size_t)g->num_edges, ms, "HOST", host_ms, 0.0);
  gclq_maxclique_result_free(&r);
}

static void bench_mc_graph(const std::string &name, const gclq_graph *g, bool run_host, bool all_heuristics,
                           size_t budget_demo) {
  double host_ms = -1.0;
  uint32_t omega = 0;
  uint64_t count = 0;
  if (run_host) {
    gclq_maxclique_options o;
    gclq_maxclique_options_defaults(&o);
    o.backend = GCLQ_BACKEND_HOST;
    gclq_maxclique_result r;
    auto t0 = std::chrono::steady_clock::now();
    if (gclq_max_cliques(g, &o, &r) == GCLQ_SUCCESS) {
      host_ms = bench_mc_ms_since(t0);
      omega = r.omega;
      count = r.count;
      gclq_maxclique_result_free(&r);
    }
  }
  size_t nh = all_heuristics ? sizeof bench_mc_heuristics / sizeof bench_mc_heuristics[0] : 1;
  const char *which = getenv("MAXCLIQUE_SEARCH") ? getenv("MAXCLIQUE_SEARCH") : "bitset";
  const bool bits = strcmp(which, "list") != 0, list = strcmp(which, "list") == 0 || strcmp(which, "both") == 0;
  for (size_t i = 0; bits && i < nh; ++i)
    bench_mc_run(name, g, bench_mc_heuristics[i].h, bench_mc_heuristics[i].name, 0, host_ms, omega, count);
  if (list && (name.compare(0, 4, "rmat") != 0 || g->num_edges < 1000000)) /* the list search: R-MAT <= 16 */
    bench_mc_run(name, g, bench_mc_heuristics[0].h, bench_mc_heuristics[0].name, 0, host_ms, omega, count, false,
                 GCLQ_SEARCH_LIST);
  /* the budget mechanism on and off (gclq__no_budget_split): under the
     same budget, off runs out of memory where on gives HOST's answer */
  const size_t graph_bytes = (size_t)28 * g->num_vertices + (size_t)8 * g->num_edges;
  for (size_t b : {budget_demo, budget_demo / 8})
    if (b && b > graph_bytes + (graph_bytes >> 1))
      for (bool off : {true, false})
        bench_mc_run(name, g, bench_mc_heuristics[0].h, bench_mc_heuristics[0].name, b, host_ms, omega, count, off);
}

BENCH(maxclique) {
  const char *dir = getenv("GPUAMQ_DATA_DIR") ? getenv("GPUAMQ_DATA_DIR") : "../shared/data";
  const char *heur = getenv("MAXCLIQUE_HEURISTICS");
  bool all_h = heur == NULL || strcmp(heur, "default") != 0;
  const char *files[] = {"dimacs/MANN_a9.clq",     "dimacs/brock200_2.clq",   "dimacs/brock200_4.clq",
                         "dimacs/c-fat200-1.clq",  "dimacs/c-fat500-10.clq",  "dimacs/hamming6-2.clq",
                         "dimacs/hamming6-4.clq",  "dimacs/johnson8-2-4.clq", "dimacs/johnson8-4-4.clq",
                         "dimacs/p_hat300-1.clq",  "dimacs/san200_0.7_1.clq", "dimacs/sanr200_0.7.clq",
                         "snap/ca-GrQc.txt",       "snap/ca-HepTh.txt",       "snap/facebook_combined.txt"};
  { /* the first CUDA call pays the context and the pool: outside the figures */
    gclq_graph g;
    gclq_maxclique_options o;
    gclq_maxclique_result r;
    gclq_maxclique_options_defaults(&o);
    o.backend = GCLQ_BACKEND_CUDA;
    if (gclq_graph_planted_clique(200, 0.1, 8, 1, &g, NULL) == GCLQ_SUCCESS) {
      if (gclq_max_cliques(&g, &o, &r) == GCLQ_SUCCESS) gclq_maxclique_result_free(&r);
      gclq_graph_free(&g);
    }
  }
  if (getenv("MAXCLIQUE_FIRST_WIDTH")) gclq__tune_first_width = strtoull(getenv("MAXCLIQUE_FIRST_WIDTH"), NULL, 0);
  if (getenv("MAXCLIQUE_STEP")) gclq__tune_step = strtoull(getenv("MAXCLIQUE_STEP"), NULL, 0);
  if (gclq__tune_first_width || gclq__tune_step)
    printf("mc,tuned steps: first width %llu, step %llu (0: default)\n", (unsigned long long)gclq__tune_first_width,
           (unsigned long long)gclq__tune_step);
  int loaded = 0;
  const char *only = getenv("MAXCLIQUE_FILES");
  for (const char *f : files) {
    if (only && !strstr(only, strrchr(f, '/') + 1)) continue;
    std::string path = std::string(dir) + "/" + f;
    gclq_graph g;
    if (gclq_graph_load(path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) != GCLQ_SUCCESS) continue;
    ++loaded;
    std::string name = strrchr(f, '/') + 1;
    bool fb = name == "facebook_combined.txt";
    bench_mc_graph(name, &g, true, all_h, fb ? (size_t)256 << 20 : 0);
    gclq_graph_free(&g);
  }
  if (loaded == 0) printf("mc,data graphs skipped: %s not found (set GPUAMQ_DATA_DIR)\n", dir);
  const char *scales = getenv("MAXCLIQUE_RMAT") ? getenv("MAXCLIQUE_RMAT") : "16,18,20";
  int host_max = getenv("MAXCLIQUE_HOST_MAX") ? atoi(getenv("MAXCLIQUE_HOST_MAX")) : 16;
  for (const char *p = scales; *p;) {
    char *end;
    long s = strtol(p, &end, 10);
    if (end == p) break;
    p = *end == ',' ? end + 1 : end;
    gclq_graph g;
    if (gclq_graph_rmat((int)s, 16, 1, &g) != GCLQ_SUCCESS) {
      printf("mc,R-MAT %ld: cannot generate\n", s);
      continue;
    }
    char name[32];
    snprintf(name, sizeof name, "rmat%ld", s);
    /* R-MAT: the default heuristic; from scale 20 the budget demonstration at 1 GiB */
    bench_mc_graph(name, &g, s <= host_max, false, s >= 20 ? (size_t)1 << 30 : 0);
    gclq_graph_free(&g);
  }
}

/* ---------------------------------------------------------------------------
   clique_crossover: HOST against CUDA with and without its start-up, for
   AUTO's small-work constants (see the opening comment)
   ------------------------------------------------------------------------- */

/* A graph from a spec: "gnp,N,P,SEED", "rmat,SCALE,SEED",
   "planted,N,P,K,SEED" or "file,PATH". */
static gclq_status bench_cx_build(const char *spec, gclq_graph *g) {
  unsigned long n = 0, k = 0, scale = 0;
  unsigned long long seed = 1;
  double p = 0.0;
  if (sscanf(spec, "gnp,%lu,%lf,%llu", &n, &p, &seed) == 3) return gclq_graph_erdos_renyi((uint32_t)n, p, seed, g);
  if (sscanf(spec, "rmat,%lu,%llu", &scale, &seed) == 2) return gclq_graph_rmat((int)scale, 16, seed, g);
  if (sscanf(spec, "planted,%lu,%lf,%lu,%llu", &n, &p, &k, &seed) == 4)
    return gclq_graph_planted_clique((uint32_t)n, p, (uint32_t)k, seed, g, NULL);
  if (strncmp(spec, "file,", 5) == 0) return gclq_graph_load(spec + 5, GCLQ_FORMAT_AUTO, g, NULL);
  return GCLQ_ERROR_INVALID_ARGUMENT;
}

/* One gclq_max_cliques call on backend; its wall ms (negative on failure). */
static double bench_cx_time(const gclq_graph *g, gclq_backend backend, uint32_t *omega) {
  gclq_maxclique_options o;
  gclq_maxclique_result r;
  gclq_maxclique_options_defaults(&o);
  o.backend = backend;
  auto t0 = std::chrono::steady_clock::now();
  gclq_status st = gclq_max_cliques(g, &o, &r);
  double ms = bench_mc_ms_since(t0);
  if (st != GCLQ_SUCCESS) return -1.0;
  *omega = r.omega;
  gclq_maxclique_result_free(&r);
  return ms;
}

/* The child: when MAXCLIQUE_CROSSOVER_CHILD names a graph, build it, time
   the process's first CUDA call (the context is created inside it), print
   "fresh MS OMEGA" and exit, all before main() touches CUDA. */
static int bench_cx_child(void) {
  const char *spec = getenv("MAXCLIQUE_CROSSOVER_CHILD");
  gclq_graph g;
  uint32_t omega = 0;
  if (spec == NULL) return 0;
  if (bench_cx_build(spec, &g) != GCLQ_SUCCESS) {
    printf("fresh -1 0\n");
  } else {
    double ms = bench_cx_time(&g, GCLQ_BACKEND_CUDA, &omega);
    printf("fresh %.3f %u\n", ms, omega);
    gclq_graph_free(&g);
  }
  fflush(stdout);
  _exit(0);
}
static const int bench_cx_child_ran = bench_cx_child();

/* The fresh CUDA ms of a spec, from a child process (negative on failure). */
static double bench_cx_fresh_ms(const char *spec) {
  char exe[4096], cmd[8192];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0 || strchr(spec, '\'') != NULL) return -1.0;
  exe[len] = '\0';
  snprintf(cmd, sizeof cmd, "MAXCLIQUE_CROSSOVER_CHILD='%s' '%s'", spec, exe);
  FILE *f = popen(cmd, "r");
  if (f == NULL) return -1.0;
  double ms = -1.0;
  unsigned omega = 0;
  if (fscanf(f, "fresh %lf %u", &ms, &omega) != 2) ms = -1.0;
  pclose(f);
  return ms;
}

/* The median of three timings of backend (one when the first exceeds 200 ms). */
static double bench_cx_median(const gclq_graph *g, gclq_backend backend, uint32_t *omega) {
  double t[3];
  t[0] = bench_cx_time(g, backend, omega);
  if (t[0] < 0 || t[0] > 200.0) return t[0];
  t[1] = bench_cx_time(g, backend, omega);
  t[2] = bench_cx_time(g, backend, omega);
  std::sort(t, t + 3);
  return t[1];
}

static void bench_cx_row(const std::string &name, const std::string &spec, bool run_host) {
  gclq_graph g;
  if (bench_cx_build(spec.c_str(), &g) != GCLQ_SUCCESS) {
    printf("cx,%s: cannot build\n", name.c_str());
    return;
  }
  uint32_t max_core = 0, small_core = 0, host_omega = 0, cuda_omega = 0;
  std::vector<uint32_t> core(g.num_vertices + 1);
  gclq__host_core_order(&g, core.data(), NULL, &max_core);
  int symmetric = 0;
  const bool small = gclq__mc_small(&g, &small_core, &symmetric);
  double host = run_host ? bench_cx_median(&g, GCLQ_BACKEND_HOST, &host_omega) : -1.0;
  double fresh = bench_cx_fresh_ms(spec.c_str());
  double warm = bench_cx_median(&g, GCLQ_BACKEND_CUDA, &cuda_omega);
  const char *differs = run_host && host >= 0 && warm >= 0 && host_omega != cuda_omega ? " !!! omega differs" : "";
  printf("cx,%-26s %10llu %6u %5u %10.3f %10.3f %10.3f   %s%s\n", name.c_str(), (unsigned long long)g.num_edges,
         max_core, cuda_omega ? cuda_omega : host_omega, host, fresh, warm, small ? "host" : "cuda", differs);
  fflush(stdout);
  gclq_graph_free(&g);
}

BENCH(clique_crossover) {
  (void)bench_cx_child_ran;
  if (getenv("MAXCLIQUE_CROSSOVER") == NULL) {
    printf("cx,skipped: set MAXCLIQUE_CROSSOVER=1 to run the AUTO crossover sweep\n");
    return;
  }
  const char *dir = getenv("GPUAMQ_DATA_DIR") ? getenv("GPUAMQ_DATA_DIR") : "../shared/data";
  int host_max = getenv("MAXCLIQUE_CROSSOVER_HOST_MAX") ? atoi(getenv("MAXCLIQUE_CROSSOVER_HOST_MAX")) : 15;
  printf("cx,AUTO now: HOST when edges <= %u and max core <= %u; -1: not run or failed\n",
         (unsigned)GCLQ_AUTO_HOST_MAX_EDGES, (unsigned)GCLQ_AUTO_HOST_MAX_CORE);
  printf("cx,%-26s %10s %6s %5s %10s %10s %10s   %s\n", "graph", "edges", "core", "omega", "host ms", "cuda fresh",
         "cuda warm", "AUTO");
  static const struct {
    unsigned n;
    double p;
  } gnp[] = {{300, 0.05}, {500, 0.1}, {500, 0.3}, {2000, 0.005}, {2000, 0.02}, {2000, 0.05},
             {10000, 0.001}, {10000, 0.004}, {30000, 0.0005}, {30000, 0.002}};
  char spec[256], name[64];
  for (const auto &x : gnp) {
    snprintf(spec, sizeof spec, "gnp,%u,%g,1", x.n, x.p);
    snprintf(name, sizeof name, "G(%u, %g)", x.n, x.p);
    bench_cx_row(name, spec, true);
  }
  for (int s = 8; s <= 16; ++s) {
    snprintf(spec, sizeof spec, "rmat,%d,1", s);
    snprintf(name, sizeof name, "rmat%d", s);
    bench_cx_row(name, spec, s <= host_max);
  }
  static const struct {
    unsigned n;
    double p;
    unsigned k;
  } planted[] = {{1000, 0.01, 10}, {3000, 0.01, 20}, {10000, 0.001, 30}, {5000, 0.01, 60}, {20000, 0.001, 100}};
  for (const auto &x : planted) {
    snprintf(spec, sizeof spec, "planted,%u,%g,%u,1", x.n, x.p, x.k);
    snprintf(name, sizeof name, "K%u in G(%u, %g)", x.k, x.n, x.p);
    bench_cx_row(name, spec, true);
  }
  const char *files[] = {"dimacs/MANN_a9.clq",     "dimacs/brock200_2.clq",   "dimacs/brock200_4.clq",
                         "dimacs/c-fat200-1.clq",  "dimacs/c-fat500-10.clq",  "dimacs/hamming6-2.clq",
                         "dimacs/hamming6-4.clq",  "dimacs/johnson8-2-4.clq", "dimacs/johnson8-4-4.clq",
                         "dimacs/p_hat300-1.clq",  "dimacs/san200_0.7_1.clq", "dimacs/sanr200_0.7.clq",
                         "snap/ca-GrQc.txt",       "snap/ca-HepTh.txt",       "snap/facebook_combined.txt"};
  for (const char *f : files) {
    snprintf(spec, sizeof spec, "file,%s/%s", dir, f);
    bench_cx_row(strrchr(f, '/') + 1, spec, true);
  }
}
