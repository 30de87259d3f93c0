/* clique/kcliques/choose.h - k-clique counting's chooser: its tuning
   constants, the plan (gclq__kc_plan), and gclq__kc_choose, which turns
   the options into the plan that the public call (clique/kcliques/api.h),
   the HOST run (gclq__kc_host, clique/kcliques/host.h) and the CUDA run
   (gclq__kc_cuda, clique/kcliques/cuda.cuh) only read. Rules and evidence:
   docs/kcliques.md, "AUTO's rules".

   Tuning constants (public, gpuclique.h section 8; definable before the
   implementation include), each with the result file that justifies it:
     GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K       CUDA: PIVOT from this k on (and for
       every k at once), where the counts grow so fast that pivoting's
       leaves, each many cliques at once, pay on every graph measured
       (bench/results/kcliques_h200.md, "AUTO's crossover between BITSET
       and PIVOT"); below it BITSET, and LEVEL_JOIN for triangles (same
       section, and "Every method");
     GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K,
     GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE  HOST: ORDERED for one small k on a
       graph of small cores, PIVOT otherwise. Provisional: set by
       reasoning (ORDERED visits every clique it counts), not measured.
   The orientation's default, DEGENERACY (out-degrees at most the max core,
   which is what the local graphs of BITSET and PIVOT cost), is
   gclq__kc_resolve's (clique/kcliques/host.h); the peeling's blocks a
   multiprocessor, GCLQ__PEEL_BLOCKS_PER_SM, are the graph module's
   (clique/graph/cuda.cuh; bench/results/kcliques_h200.md, "The
   orientation"). */

/* ---- the plan ---- */

typedef struct gclq__kc_plan {
  gclq_kclique_options opt;   /* the options checked, every default filled in (gclq__kc_resolve): k 0 is
                                 every k, orientation never DEFAULT */
  gclq_backend backend;       /* HOST or CUDA */
  gclq_kclique_method method; /* what counts. HOST: ORDERED or PIVOT; CUDA: LFTJ, LEVEL_JOIN, GROUPED,
                                 BITSET or PIVOT (never AUTO, never ORDERED) */
  uint32_t pivot_above_core;  /* HOST ORDERED: PIVOT counts instead when the max core is above this (AUTO's
                                 rule; UINT32_MAX: never) */
} gclq__kc_plan;

/* ---- the chooser ---- */

/* AUTO's method on CUDA (GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K): PIVOT for every k
   at once and from that k (the counts explode), LEVEL_JOIN for triangles,
   BITSET between. */
static inline gclq_kclique_method gclq__kc_choose_cuda(const gclq_kclique_options *p) {
  if (p->all || p->k >= GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K) return GCLQ_KCLIQUE_PIVOT;
  return p->k == 3 ? GCLQ_KCLIQUE_LEVEL_JOIN : GCLQ_KCLIQUE_BITSET;
}

/* The method on HOST: PIVOT asked, or AUTO for every k or a k above
   GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K: PIVOT; any other method asked: ORDERED
   (the CUDA-only methods' host counterpart); AUTO for a small k: ORDERED
   unless the max core is above GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE. The max
   core is known only once the host run has oriented the graph, so that one
   test is the run's (gclq__kc_host), with the bound fixed here. */
static inline void gclq__kc_choose_host(const gclq_kclique_options *p, gclq__kc_plan *plan) {
  plan->pivot_above_core = UINT32_MAX;
  if (p->method == GCLQ_KCLIQUE_PIVOT) {
    plan->method = GCLQ_KCLIQUE_PIVOT;
  } else if (p->method != GCLQ_KCLIQUE_AUTO) {
    plan->method = GCLQ_KCLIQUE_ORDERED;
  } else if (p->k != 0 && p->k <= GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K) {
    plan->method = GCLQ_KCLIQUE_ORDERED;
    plan->pivot_above_core = GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE;
  } else {
    plan->method = GCLQ_KCLIQUE_PIVOT;
  }
}

/* The plan of one call (o NULL: the defaults; g a valid graph, checked
   here after the options, in the order the call's errors are returned):
     options   gclq__kc_resolve: checked, defaults filled in;
     backend   GCLQ_KCLIQUE_CUDA 0: CUDA asked is BACKEND_UNAVAILABLE, AUTO
               runs HOST; else gclq_backend_resolve (AUTO: CUDA when a
               device is present);
     method    CUDA: the one asked (ORDERED asked runs LFTJ, the same
               recursion on the device), AUTO by gclq__kc_choose_cuda;
               HOST: gclq__kc_choose_host, whose max-core test the host
               run applies.
   The CUDA drivers' windows, rounds and arena sizes follow the budget held
   while they run and stay in them (no count depends on them). stats:
   backend, orientation and, for AUTO on HOST, notes report the plan now;
   the runs report the method once it counts. */
static inline gclq_status gclq__kc_choose(const gclq_kclique_options *o, const gclq_graph *g, gclq__kc_plan *plan,
                                          gclq_kclique_stats *stats) {
  const gclq_kclique_options *p = &plan->opt;
  gclq_status st;
  memset(plan, 0, sizeof *plan);
  plan->backend = GCLQ_BACKEND_HOST;
  st = gclq__kc_resolve(o, &plan->opt);
  if (st != GCLQ_SUCCESS) return st;
  if (!gclq__host_graph_ok(g)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!GCLQ_KCLIQUE_CUDA && p->backend == GCLQ_BACKEND_CUDA) return GCLQ_ERROR_BACKEND_UNAVAILABLE;
  if (GCLQ_KCLIQUE_CUDA || p->backend != GCLQ_BACKEND_AUTO) st = gclq_backend_resolve(p->backend, &plan->backend);
  if (st != GCLQ_SUCCESS) return st;
  if (plan->backend == GCLQ_BACKEND_CUDA) {
    plan->method = p->method != GCLQ_KCLIQUE_AUTO ? p->method : gclq__kc_choose_cuda(p);
    if (plan->method == GCLQ_KCLIQUE_ORDERED) plan->method = GCLQ_KCLIQUE_LFTJ; /* the same recursion on the device */
  } else {
    gclq__kc_choose_host(p, plan);
    if (p->backend == GCLQ_BACKEND_AUTO)
      strcpy(stats->notes, GCLQ_KCLIQUE_CUDA ? "AUTO: no CUDA device (or built without nvcc): ran the host backend"
                                             : "AUTO: the CUDA k-clique methods are off (GCLQ_KCLIQUE_CUDA 0): "
                                               "ran the host backend");
  }
  stats->backend = plan->backend;
  stats->orientation = p->orientation;
  return GCLQ_SUCCESS;
}
