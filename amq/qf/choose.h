/* amq/qf/choose.h - the quotient filters' chooser: the tuning constants of
   the module, and gamq__qf_choose, which turns a filter's options (its
   gamq_qf_desc at creation, kept in the handle) and a call's size into the
   plan that the entry points (amq/qf/api.h), the HOST reference
   (amq/qf/host.h) and the CUDA drivers (amq/qf/cuda.cuh) only read. Rules
   and evidence: docs/qf.md, "AUTO's rules". */

/* ---- tuning constants ---- */

/* In place or rebuild: a batch of n keys into a filter holding nitems goes
   in place when this holds (both backends), else by a rebuild. In place
   costs about the batch, a rebuild about the filter; a rule of thumb, far on
   the safe side where measured, the crossover not measured:
   bench/results/qf_h200.md ("In-place batches by path and fill"). */
#define GAMQ__QF_IN_PLACE(n, nitems) ((n) < (nitems) / 4)
/* CUDA in-place rounds of a batch before what is left goes in by a rebuild:
   a bound well above the rounds the in-place rows take at every fill
   measured (rounds= in the qf insdel rows of bench/results/qf_h200.md). */
#define GAMQ__QF_MAX_ROUNDS 32
/* The same cap for a build by inserts (a paper method AUTO never picks),
   higher because a whole build in rounds needs more of them than a batch;
   its cost: the by_inserts rows of bench/results/qf_h200.md. */
#define GAMQ__QF_BUILD_ROUNDS 1024
/* CUDA in-place temporaries stay with the filter between calls (default
   allocator only) while they are at most a quarter of the filter's bytes +
   1 MiB: the default pool hands memory back at every synchronisation, so
   small batches paid for mapping it again: bench/results/qf_h200.md ("In-place
   batches by path and fill"). */
#define GAMQ__QF_KEEP_SHARE 4
#define GAMQ__QF_KEEP_SLACK ((size_t)1 << 20)
/* Warps a thread block of the RSQF block kernels (build, extract: a warp owns
   a 64-slot block); not swept, the figures at this shape are in
   bench/results/qf_h200.md (build and merge rows). */
#define GAMQ__RSQF_WARPS 4

/* ---- the plan ---- */

/* What a plan is for: the changes (the CUDA drivers' op codes too), the
   lookups, and the creation of a filter. */
enum {
  GAMQ__QF_OP_BUILD = 0,
  GAMQ__QF_OP_INSERT = 1,
  GAMQ__QF_OP_DELETE = 2,
  GAMQ__QF_OP_MERGE = 3,
  GAMQ__QF_OP_LOOKUP = 4,
  GAMQ__QF_OP_LOOKUP_SORTED = 5,
  GAMQ__QF_OP_CREATE = 6
};

typedef struct gamq__qf_plan {
  gamq_backend backend;     /* CUDA or HOST (resolved at creation) */
  gamq__nonassoc_plan scan; /* the position scan of builds, rebuilds and merges */
  gamq__qf_batch_path path; /* build, insert, delete, merge: IN_PLACE, WINDOWS or REBUILD, never AUTO */
  int dedup;                /* build: keep one copy of each fingerprint */
  int sorted;               /* lookup: hash, sort, then walk in fingerprint order */
  int max_rounds;           /* CUDA IN_PLACE: rounds before what is left goes in by a rebuild */
  size_t keep_bytes;        /* CUDA insert / delete: temporaries up to this size stay with the filter (0: never) */
} gamq__qf_plan;

/* The plan of one call. op CREATE reads desc (NULL: the defaults) and
   resolves the backend and the build's scan; every other op reads the filter
   F (what its creation chose, its options and private knobs: path,
   max_rounds) and n, the batch's keys. Rules:
     backend     CREATE: gamq_backend_resolve(desc.backend) (AUTO: CUDA when
                 a device is present); after that, the filter's;
     scan        gamq__nonassoc_choose on the build's problem (sorted
                 quotients, no heads): build_method AUTO is ASSOCIATIVE;
     build       by inserts (IN_PLACE) when desc.build_by_inserts, on CUDA
                 only without dedup_build and for n > 0; else REBUILD;
     insert,     F->path when forced; AUTO: in place when
     delete      GAMQ__QF_IN_PLACE(n, count), by WINDOWS for a CUDA RSQF and
                 IN_PLACE (supercluster bidding, point operations on HOST)
                 otherwise; else REBUILD. HOST deletes are point deletes and
                 HOST has no windows: IN_PLACE;
     merge       REBUILD;
     lookup      sorted (the LOOKUP_SORTED op) on CUDA for n > 0; HOST walks;
     max_rounds  CUDA in place: F->max_rounds when set, else
                 GAMQ__QF_BUILD_ROUNDS for a build, GAMQ__QF_MAX_ROUNDS;
     keep_bytes  CUDA insert / delete with the default allocator.
   Returns GAMQ_SUCCESS or (CREATE) the status of the backend's resolution. */
static gamq_status gamq__qf_choose(const gamq_qf_desc *desc, const gamq_qf *F, int op, uint64_t n,
                                   gamq__qf_plan *plan) {
  int cuda;
  memset(plan, 0, sizeof *plan);
  if (op == GAMQ__QF_OP_CREATE) {
    gamq_scan_desc sd;
    gamq__scan_call c;
    const gamq_status s = gamq_backend_resolve(desc ? desc->backend : GAMQ_BACKEND_AUTO, &plan->backend);
    if (s != GAMQ_SUCCESS) return s;
    memset(&sd, 0, sizeof sd);
    memset(&c, 0, sizeof c);
    sd.method = desc ? desc->build_method : GAMQ_SCAN_AUTO;
    c.op = GAMQ__OP_POSITION_U64;
    return gamq__nonassoc_choose_on(plan->backend, &sd, &c, &plan->scan);
  }
  cuda = F->backend == GAMQ_BACKEND_CUDA;
  plan->backend = F->backend, plan->scan = F->scan;
  if (op == GAMQ__QF_OP_BUILD) {
    plan->path = F->build_inserts && (!cuda || (!F->dedup_build && n > 0)) ? GAMQ__QF_BATCH_IN_PLACE
                                                                           : GAMQ__QF_BATCH_REBUILD;
    plan->dedup = F->dedup_build && (!cuda || n > 0);
  } else if (op == GAMQ__QF_OP_INSERT || op == GAMQ__QF_OP_DELETE) {
    plan->path = F->path != GAMQ__QF_BATCH_AUTO          ? F->path
                 : !GAMQ__QF_IN_PLACE(n, F->f.nitems)     ? GAMQ__QF_BATCH_REBUILD
                 : cuda && F->f.kind == GAMQ__QF_RSQF     ? GAMQ__QF_BATCH_WINDOWS
                                                          : GAMQ__QF_BATCH_IN_PLACE;
    if (!cuda && (op == GAMQ__QF_OP_DELETE || plan->path == GAMQ__QF_BATCH_WINDOWS))
      plan->path = GAMQ__QF_BATCH_IN_PLACE;
    if (cuda && F->allocator.alloc == NULL)
      plan->keep_bytes = F->f.bytes / GAMQ__QF_KEEP_SHARE + GAMQ__QF_KEEP_SLACK;
  } else if (op == GAMQ__QF_OP_MERGE) {
    plan->path = GAMQ__QF_BATCH_REBUILD;
  } else if (op == GAMQ__QF_OP_LOOKUP_SORTED) {
    plan->sorted = cuda && n > 0;
  }
  if (cuda && plan->path == GAMQ__QF_BATCH_IN_PLACE)
    plan->max_rounds = F->max_rounds > 0             ? F->max_rounds
                       : op == GAMQ__QF_OP_BUILD     ? GAMQ__QF_BUILD_ROUNDS
                                                     : GAMQ__QF_MAX_ROUNDS;
  return GAMQ_SUCCESS;
}

/* The host reference's batch insert (gamq__qf_insert_by_path, amq/qf/host.h)
   with AUTO resolved by the chooser as for a HOST filter; the HOST backend
   passes its plan's path, the tests any path. */
static inline gamq__qf_result gamq__qf_insert_batch(gamq__qf *f, const uint64_t *fp, uint64_t n,
                                                   gamq__qf_batch_path path, gamq__na_method method) {
  if (path == GAMQ__QF_BATCH_AUTO && f != NULL) {
    gamq_qf h;
    gamq__qf_plan plan;
    memset(&h, 0, sizeof h);
    h.f = *f, h.backend = GAMQ_BACKEND_HOST;
    gamq__qf_choose(NULL, &h, GAMQ__QF_OP_INSERT, n, &plan);
    path = plan.path;
  }
  return gamq__qf_insert_by_path(f, fp, n, path, method);
}
