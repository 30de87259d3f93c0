/* amq/nonassoc/choose.h - the non-associative scans' chooser: the tuning
   constants of the module, and gamq__nonassoc_choose, which turns a call's
   options (gamq_scan_desc) and its problem (gamq__scan_call) into the plan
   the HOST simulations (amq/nonassoc/host.h) and the CUDA driver
   (amq/nonassoc/cuda.cuh) only read. The quotient filters' builds take their
   position scan's plan from here too (amq/qf/choose.h). Rules and evidence:
   docs/nonassoc.md, "AUTO". */

/* ---- tuning constants (compile-time shapes of the CUDA backend) ---- */
enum {
  /* Fused-scan tiles (gamq__scan_cfg, gprim__tiles): threads a block, and
     rows x chunk items a thread by the size of the scanned element. 4-byte
     values take gprim's register scan shape, wider ones fewer items so the
     tile stays in registers: bench/results/2026-11-21-h200-b.md ("Scan
     tuning"); the map sizes: bench/results/nonassoc_h200.md. */
  GAMQ__SCAN_THREADS = 128,
  GAMQ__SCAN_ROWS_4 = 8,  GAMQ__SCAN_CHUNK_4 = 4,  /* u32 positions */
  GAMQ__SCAN_ROWS_8 = 8,  GAMQ__SCAN_CHUNK_8 = 2,  /* u64 positions */
  GAMQ__SCAN_ROWS_16 = 4, GAMQ__SCAN_CHUNK_16 = 2, /* int64 maps */
  GAMQ__SCAN_ROWS_32 = 2, GAMQ__SCAN_CHUNK_32 = 2, /* __int128 maps */
  /* PARALLEL_MERGING: its first 10 rounds in one launch on 1024 maps of
     shared memory (32 KiB at the widest map), the rest one launch a round;
     a paper method AUTO never picks, not swept: its rounds and times are in
     bench/results/nonassoc_h200.md. */
  GAMQ__MERGE_THREADS = 256,
  GAMQ__MERGE_TILE_LOG2 = 10,
  GAMQ__MERGE_TILE = 1 << GAMQ__MERGE_TILE_LOG2,
  /* SHIFTING / LAYOUTS: rounds launched between two reads of their flags;
     a read is a host round trip, and the methods take 2 to 256 rounds at a
     filter's fills: bench/results/nonassoc_h200.md. */
  GAMQ__ROUND_BATCH = 8
};

/* ---- the plan ---- */
typedef struct gamq__nonassoc_plan {
  gamq_backend backend;   /* CUDA or HOST (resolved) */
  gamq__na_method method; /* ASSOCIATIVE or a paper method by name; never SERIAL */
  int max_rounds;         /* SHIFTING / LAYOUTS: the bound before the associative finish (0: none) */
  int prefix_max;         /* CUDA: the problem is a position scan as one prefix max (gamq__pos_scan_kernel),
                             for ASSOCIATIVE and for the finish of a bounded method */
} gamq__nonassoc_plan;

/* The plan of one call. desc NULL: the defaults. c: the operation, its heads
   and its init (a host pointer); its arrays are not read. Rules:
     backend      gamq_backend_resolve(desc.backend): AUTO is CUDA when a
                  device is present, else HOST;
     method       AUTO is ASSOCIATIVE, always: one pass at every fill, while
                  the paper's methods take rounds (bench/results/nonassoc_h200.md);
     max_rounds   0 in the desc: GAMQ_SCAN_DEFAULT_MAX_ROUNDS; < 0: no bound;
     prefix_max   CUDA, a position scan, no heads, and init (if given) below
                  the type's largest value (init + 1 must not wrap).
   Returns GAMQ_SUCCESS, or the status of an unknown method or of the
   backend's resolution; the plan is then unspecified.
   gamq__nonassoc_choose_on takes a backend already resolved (a filter's
   build scan: the filter's chooser has asked for the device once). */
static gamq_status gamq__nonassoc_choose_on(gamq_backend backend, const gamq_scan_desc *desc,
                                            const gamq__scan_call *c, gamq__nonassoc_plan *plan) {
  gamq_scan_desc d;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  memset(plan, 0, sizeof *plan);
  if ((int)d.method < 0 || (int)d.method > 4) return GAMQ_ERROR_INVALID_ARGUMENT;
  plan->backend = backend;
  plan->method = d.method == GAMQ_SCAN_AUTO ? GAMQ__NA_ASSOCIATIVE : (gamq__na_method)d.method;
  plan->max_rounds = d.max_rounds == 0 ? GAMQ_SCAN_DEFAULT_MAX_ROUNDS : d.max_rounds < 0 ? 0 : d.max_rounds;
  if (backend == GAMQ_BACKEND_CUDA && c->heads == NULL) {
    if (c->op == GAMQ__OP_POSITION_U32) plan->prefix_max = !(c->init && *(const uint32_t *)c->init == UINT32_MAX);
    if (c->op == GAMQ__OP_POSITION_U64) plan->prefix_max = !(c->init && *(const uint64_t *)c->init == UINT64_MAX);
  }
  return GAMQ_SUCCESS;
}

static gamq_status gamq__nonassoc_choose(const gamq_scan_desc *desc, const gamq__scan_call *c,
                                         gamq__nonassoc_plan *plan) {
  gamq_backend backend;
  gamq_status s;
  if (desc && ((int)desc->method < 0 || (int)desc->method > 4)) return GAMQ_ERROR_INVALID_ARGUMENT;
  s = gamq_backend_resolve(desc ? desc->backend : GAMQ_BACKEND_AUTO, &backend);
  if (s != GAMQ_SUCCESS) return s;
  return gamq__nonassoc_choose_on(backend, desc, c, plan);
}
