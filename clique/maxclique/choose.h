/* clique/maxclique/choose.h - the maximum-clique search's chooser: its
   tuning constants, the plan (gclq__mc_plan), and gclq__mc_choose, which
   turns the options and the graph into the plan that the HOST search
   (clique/maxclique/host.h), the CUDA driver (clique/maxclique/cuda.cuh)
   and the public call (clique/maxclique/api.h) only read. Rules and
   evidence: docs/maxclique.md, "AUTO's rules".

   Tuning constants, each with the result file that justifies it:
     GCLQ_AUTO_HOST_MAX_EDGES, GCLQ_AUTO_HOST_MAX_CORE (public, gpuclique.h
       section 6; definable before the implementation include): AUTO runs
       HOST on a graph inside both limits, done before the CUDA start-up
       would be (bench/results/maxclique_h200.md, "AUTO's backend
       crossover");
     GCLQ__STEP_ENTRIES, GCLQ__FIRST_WIDTH (below): the CUDA search's step
       and its first, narrower descent (bench/results/maxclique_h200.md,
       "History": the step-size sweep);
     GCLQ__BITS_MAX (clique/common.h, where the test hook starts at it):
       the largest local graph the bitset search takes, a limit of its
       kernels (WPL 1, 2, 4 words a lane), not a measured crossover;
     search BITSET, heuristic MULTI_DEGREE, bound COLOUR, orientation
       DEGREE: the defaults of gclq__mc_resolve (bench/results/
       maxclique_h200.md, "The table" and "Why the bitset search is
       faster"; docs/maxclique.md names the evidence of each). */

/* ---- tuning constants ---- */

/* The most parents, and children, one step of a level takes (the device and
   the simulation): small enough that the search reaches the deep levels, and
   raises its target, early; large enough that the steps (one host
   synchronisation each) stay few. The value, and GCLQ__FIRST_WIDTH's, come
   from bench_maxclique's sweep of both on R-MAT 15 and facebook_combined
   (the step-size sweep: bench/results/maxclique_h200.md, "History"). */
#define GCLQ__STEP_ENTRIES ((uint64_t)1 << 20)
/* The children one step of a level may write: GCLQ__FIRST_WIDTH at first,
   doubling with every step up to the chunk (GCLQ__STEP_ENTRIES). The first
   descent is narrower than the rest, so large cliques (and a higher target)
   are found before the levels widen. Too narrow a start costs more in
   steps than it saves in candidates: on R-MAT graphs a first width of 4096
   writes an order of magnitude fewer candidates than full-width steps, but
   its many steps take far longer (the same sweep). */
#define GCLQ__FIRST_WIDTH ((uint64_t)1 << 17)
/* A step counts the children of `span` parents but takes only the prefix
   whose children fit: the parents after it are counted again by the next
   step. Counting twice as many as the last step took keeps that recount
   small (the device and the tests' simulation share this rule). */
static inline uint64_t gclq__next_span(uint64_t taken, uint64_t chunk) {
  uint64_t s = 2 * taken;
  return s < 32 ? 32 : s > chunk ? chunk : s;
}

/* ---- the plan ---- */

/* A maximum-clique run's plan: the options with every default filled in,
   and what the chooser decided (private; gclq__mc_resolve writes the
   options' part, gclq__mc_choose the rest; both backends read it). */
typedef struct gclq__mc_plan {
  gclq_backend backend;     /* gclq__mc_choose: HOST or CUDA (gclq__mc_resolve leaves it 0) */
  int find_one;
  gclq_heuristic heuristic; /* never DEFAULT */
  uint32_t seeds;           /* multi-run seeds; gclq__mc_resolve: 0 for 5% of the vertices, which
                               gclq__mc_choose resolves */
  int orient_index;         /* 0: by degree (or by degeneracy) */
  int orient_degeneracy;    /* by (peeling round, id) */
  int prune_core;           /* 0: by degree */
  gclq_bound bound;         /* never DEFAULT */
  gclq_search search;       /* never DEFAULT */
  uint32_t bits_max;        /* GCLQ__BITS_MAX (tests: gclq__bits_max) */
  uint64_t max_stored;      /* 0: every clique */
  uint64_t window;          /* 0: one window */
  gclq_window_order order;  /* never DEFAULT */
  size_t budget;            /* 0: 90% of the free device memory */
  void (*log)(void *user, const char *line);
  void *log_user;
  gclq_device_allocator allocator;
  gclq_stream stream;
  int no_split; /* 0 (bench: gclq__no_budget_split) */
  int symmetric; /* 1: AUTO's small-graph test found the graph symmetric (HOST need not check again) */
  uint64_t first_width, step; /* GCLQ__FIRST_WIDTH, GCLQ__STEP_ENTRIES unless the bench tunes them */
} gclq__mc_plan;

#ifdef GPUCLIQUE_TESTING
/* The plan's tuning fields from the hooks. */
static inline void gclq__mc_tuning(gclq__mc_plan *p) {
  p->bits_max = gclq__bits_max;
  p->no_split = gclq__no_budget_split;
  p->step = gclq__tune_step ? gclq__tune_step : GCLQ__STEP_ENTRIES;
  p->first_width = gclq__tune_first_width ? gclq__tune_first_width : GCLQ__FIRST_WIDTH;
}
#else
/* The plan's tuning fields: the constants. */
static inline void gclq__mc_tuning(gclq__mc_plan *p) {
  p->bits_max = GCLQ__BITS_MAX;
  p->no_split = 0;
  p->step = GCLQ__STEP_ENTRIES;
  p->first_width = GCLQ__FIRST_WIDTH;
}
#endif

/* Options (NULL: defaults) into a plan; an enum out of range is invalid. */
static inline gclq_status gclq__mc_resolve(const gclq_maxclique_options *o, gclq__mc_plan *p, gclq_backend *backend) {
  gclq_maxclique_options d;
  if (o == NULL) {
    gclq_maxclique_options_defaults(&d);
    o = &d;
  }
  if ((int)o->backend < 0 || (int)o->backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->mode < 0 || (int)o->mode > (int)GCLQ_MODE_ONE) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->heuristic < 0 || (int)o->heuristic > (int)GCLQ_HEURISTIC_MULTI_CORE) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->orientation < 0 || (int)o->orientation > (int)GCLQ_ORIENT_DEGENERACY) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->prune < 0 || (int)o->prune > (int)GCLQ_PRUNE_CORE) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->bound < 0 || (int)o->bound > (int)GCLQ_BOUND_COLOUR) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->search < 0 || (int)o->search > (int)GCLQ_SEARCH_LIST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->window_order < 0 || (int)o->window_order > (int)GCLQ_WINDOW_ORDER_CORE_DESC)
    return GCLQ_ERROR_INVALID_ARGUMENT;
  if (o->allocator.alloc != NULL && o->allocator.free == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(p, 0, sizeof *p);
  p->find_one = o->mode == GCLQ_MODE_ONE;
  p->heuristic = o->heuristic == GCLQ_HEURISTIC_DEFAULT ? GCLQ_HEURISTIC_MULTI_DEGREE : o->heuristic;
  p->seeds = o->seeds;
  p->orient_index = o->orientation == GCLQ_ORIENT_INDEX;
  p->orient_degeneracy = o->orientation == GCLQ_ORIENT_DEGENERACY;
  p->prune_core = o->prune != GCLQ_PRUNE_DEGREE;
  p->bound = o->bound == GCLQ_BOUND_DEFAULT ? GCLQ_BOUND_COLOUR : o->bound;
  p->search = o->search == GCLQ_SEARCH_DEFAULT ? GCLQ_SEARCH_BITSET : o->search;
  p->max_stored = o->max_stored;
  p->window = o->window_size;
  p->order = o->window_order == GCLQ_WINDOW_ORDER_DEFAULT ? GCLQ_WINDOW_ORDER_DEGREE_DESC : o->window_order;
  p->budget = o->device_budget_bytes;
  p->log = o->log;
  p->log_user = o->log_user;
  p->allocator = o->allocator;
  p->stream = o->stream;
  gclq__mc_tuning(p);
  if (p->first_width > p->step) p->first_width = p->step;
  *backend = o->backend;
  return GCLQ_SUCCESS;
}

/* ---- the backend rule ---- */

/* Is g small work for AUTO (GCLQ_AUTO_HOST_MAX_EDGES, _MAX_CORE)? The
   core numbers are computed only under the edge limit; *max_core gets the
   largest (0 when not computed). A failed allocation, or a graph that
   breaks the contract's symmetry (the backend that runs refuses it),
   answers "not small"; *symmetric says whether the symmetry was checked
   and held. */
static inline int gclq__mc_small(const gclq_graph *g, uint32_t *max_core, int *symmetric) {
  uint32_t *core;
  int small = 0;
  *max_core = 0;
  if (g->num_edges > GCLQ_AUTO_HOST_MAX_EDGES) return 0;
  *symmetric = gclq__graph_symmetric(g) == GCLQ_SUCCESS; /* the peeling reads a symmetric graph only */
  if (!*symmetric) return 0;
  core = (uint32_t *)gclq__alloc_array(g->num_vertices, sizeof(uint32_t));
  if (core == NULL) return 0;
  if (gclq__host_core_order(g, core, NULL, max_core) == GCLQ_SUCCESS) small = *max_core <= GCLQ_AUTO_HOST_MAX_CORE;
  GCLQ_FREE(core);
  return small;
}

/* ---- the chooser ---- */

/* AUTO's backend: HOST for a small graph (gclq__mc_small, decided before
   the device query: stats.auto_small), else CUDA when a device is present.
   The device is asked for either way (a count, no context or memory), so
   that a machine without one says so whichever rule applied:
   stats.fell_back and a note naming the missing device, the small graph's
   size after it. The max core, when gclq__mc_small computed it, goes to
   stats.max_core (the CUDA run writes the same number again). */
static inline void gclq__mc_choose_auto(const gclq_graph *g, gclq__mc_plan *plan, gclq_maxclique_stats *stats) {
  uint32_t core = 0;
  char small[96] = "";
  if (gclq__mc_small(g, &core, &plan->symmetric)) {
    stats->auto_small = 1;
    snprintf(small, sizeof small, "a small graph (%llu edges, max core %u)", (unsigned long long)g->num_edges, core);
  }
  stats->max_core = core;
  if (gclq_backend_resolve(GCLQ_BACKEND_AUTO, &plan->backend) != GCLQ_SUCCESS || plan->backend == GCLQ_BACKEND_HOST) {
    plan->backend = GCLQ_BACKEND_HOST;
    stats->fell_back = 1;
    snprintf(stats->notes, sizeof stats->notes,
             "AUTO: no CUDA device (or built without nvcc): ran the host backend%s%s", small[0] ? "; " : "", small);
  } else if (stats->auto_small) {
    plan->backend = GCLQ_BACKEND_HOST;
    snprintf(stats->notes, sizeof stats->notes, "AUTO: %s: ran the host backend", small);
  }
}

/* The plan of one call (o NULL: the defaults; g a valid graph, checked
   here after the options, in the order the call's errors are returned):
     options    checked and resolved (gclq__mc_resolve): every DEFAULT
                replaced, the tuning fields from the constants (tests: the
                hooks);
     backend    AUTO: gclq__mc_choose_auto (HOST for a small graph,
                stats.auto_small; HOST without a device, stats.fell_back,
                whichever rule applied; else CUDA); CUDA and HOST as
                asked;
     seeds      0: 5% of the vertices, at least 1 ((n + 19) / 20);
     search     BITSET unless LIST is asked. One rule is applied by the
                CUDA driver, because it reads device data: the bitset
                search falls back to LIST when a source's local graph
                (counted on the device, gclq__mc_bits) exceeds plan.bits_max
                vertices (stats.search and stats.notes say so).
   The budget's splits (windows, steps, fewer heuristic runs) follow the
   bytes held while the search runs, so they stay in the driver; none
   changes an answer. stats: backend, auto_small, fell_back, notes and (when
   AUTO computed it) max_core report the plan. Returns GCLQ_SUCCESS,
   GCLQ_ERROR_INVALID_ARGUMENT, or the backend's resolution error. */
static inline gclq_status gclq__mc_choose(const gclq_maxclique_options *o, const gclq_graph *g, gclq__mc_plan *plan,
                                          gclq_maxclique_stats *stats) {
  gclq_backend requested = GCLQ_BACKEND_AUTO;
  gclq_status st = gclq__mc_resolve(o, plan, &requested);
  if (st != GCLQ_SUCCESS) return st;
  if (!gclq__host_graph_ok(g)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (requested == GCLQ_BACKEND_AUTO) {
    gclq__mc_choose_auto(g, plan, stats);
  } else {
    st = gclq_backend_resolve(requested, &plan->backend);
    if (st != GCLQ_SUCCESS) return st;
  }
  if (plan->seeds == 0) plan->seeds = (g->num_vertices + 19) / 20;
  stats->backend = plan->backend;
  return GCLQ_SUCCESS;
}
