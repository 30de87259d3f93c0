/* clique/graph/cuda.cuh - the CUDA backend's shared steps: the launch
   shapes, the device context of a run (gclq__mc_ctx: stream, allocator,
   log, budget, used and peak bytes, upload time) and the device memory it
   hands out (gclq__dmem, gclq__mc_prim), the upload of a graph, and its
   core numbers by parallel peeling. Every module's CUDA driver works
   through them: maximum cliques, set intersection (the budget and the
   allocator), k-cliques (upload, cores) and gclq_core_numbers. Kernels: clique/graph/kernels.cuh. */
static inline unsigned gclq__grid(uint64_t threads) { return (unsigned)((threads + GCLQ__BLOCK - 1) / GCLQ__BLOCK); }
/* blocks of GCLQ__CWARPS warps for a warp per item */
static inline unsigned gclq__grid_warps(uint64_t items) { return (unsigned)((items + GCLQ__CWARPS - 1) / GCLQ__CWARPS); }

/* The state of one run, the device context of every module's driver: its
   stream, allocator, log, budget, used and peak bytes (what graph/cuda.cuh
   reads), and the maximum-clique search's own state below (plan, stats,
   levels, answer), which the other modules leave zero. */
struct gclq__mc_ctx {
  const gclq__mc_plan *plan;   /* the maximum-clique search's plan (NULL elsewhere) */
  cudaStream_t stream;
  gclq_maxclique_stats *stats; /* the maximum-clique search's stats (NULL elsewhere) */
  gclq_device_allocator allocator; /* zero: the default (cudaMallocAsync) */
  void (*log)(void *user, const char *line); /* NULL: silent */
  void *log_user;
  double upload_ms; /* gclq__mc_run_upload's time */
  size_t used, peak, budget;
  /* the graph on the device */
  uint32_t n;
  uint64_t *d_off;
  uint32_t *d_nbr, *d_deg, *d_core, *d_filter;
  uint32_t *d_round; /* NULL, or where the peeling writes each vertex's round (k-cliques) */
  /* levels: host table of pointers (index = clique size), its device copy */
  uint32_t max_levels;
  gclq__level_ptrs *levels;
  uint64_t *level_len;
  gclq__level_ptrs *d_levels;
  /* the answer so far: cliques of size best (compact ids, rows of best) */
  uint32_t best, target;
  uint32_t *rows;
  uint64_t num_rows, rows_cap; /* rows_cap: ids */
  uint64_t found;              /* cliques of size best found (num_rows of them kept: plan->max_stored) */
  double readout_ms;
  /* per-step buffers of the search, allocated once: counts / positions
     (pos_cap + 1), the scan's temp storage, the step's numbers */
  uint64_t *d_pos, *d_step;
  uint64_t pos_cap; /* parents d_pos can count (GCLQ__STEP_ENTRIES unless the budget is small) */
  void *d_scan_temp;
  size_t scan_temp_bytes;
  const char *phase; /* for the log's out-of-memory line */
  int bits_found;    /* the bitset search recorded a clique in this run */
};

/* With the default allocator, a run keeps freed blocks in the stream-ordered
   pool across synchronisations (release threshold 0, the default, hands
   them back to the driver at every synchronisation and maps them again at
   the next cudaMallocAsync); _end puts the old threshold back. */
struct gclq__pool_keep {
  cudaMemPool_t pool; /* NULL: nothing changed */
  uint64_t old_threshold;
};
static inline void gclq__pool_keep_begin(gclq__pool_keep *k, const gclq_device_allocator *allocator) {
  int device = 0;
  k->pool = NULL;
  k->old_threshold = 0;
  if (allocator->alloc == NULL && cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetMemPool(&k->pool, device) == cudaSuccess &&
      cudaMemPoolGetAttribute(k->pool, cudaMemPoolAttrReleaseThreshold, &k->old_threshold) == cudaSuccess) {
    uint64_t keep = ~(uint64_t)0;
    if (cudaMemPoolSetAttribute(k->pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) k->pool = NULL;
  } else {
    k->pool = NULL;
  }
  cudaGetLastError();
}
static inline void gclq__pool_keep_end(gclq__pool_keep *k) {
  if (k->pool == NULL) return;
  cudaMemPoolSetAttribute(k->pool, cudaMemPoolAttrReleaseThreshold, &k->old_threshold);
  cudaMemPoolTrimTo(k->pool, (size_t)k->old_threshold);
}

/* The default device budget: 90% of the free memory now. */
static inline gclq_status gclq__default_budget(size_t *budget) {
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return GCLQ_ERROR_CUDA;
  }
  *budget = free_b / 10 * 9;
  return GCLQ_SUCCESS;
}

/* Would bytes more fit the budget now? (for allocations that are optional) */
static inline bool gclq__mc_fits(const gclq__mc_ctx *c, size_t bytes) {
  const size_t r = (bytes + 255) / 256 * 256;
  return r <= c->budget && c->used <= c->budget - r;
}

/* Device memory under the budget; bytes rounded up to 256. */
static inline gclq_status gclq__mc_alloc(gclq__mc_ctx *c, void **p, size_t *held, size_t bytes) {
  size_t r = (bytes + 255) / 256 * 256;
  *p = NULL;
  *held = 0;
  if (r == 0) r = 256;
  if (r > c->budget || c->used > c->budget - r) {
    if (c->log) {
      char line[200];
      snprintf(line, sizeof line, "out of memory (%s): %zu bytes wanted, %zu of the %zu-byte budget held",
               c->phase ? c->phase : "start", r, c->used, c->budget);
      c->log(c->log_user, line);
    }
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  GCLQ__TRY(gclq__device_alloc(&c->allocator, p, r, (gclq_stream)c->stream));
  c->used += r;
  if (c->used > c->peak) c->peak = c->used;
  *held = r;
  return GCLQ_SUCCESS;
}

/* A device allocation owned by a scope (freed, stream-ordered, when it ends). */
struct gclq__dmem {
  gclq__mc_ctx *c;
  void *p;
  size_t held;
  explicit gclq__dmem(gclq__mc_ctx *ctx) : c(ctx), p(NULL), held(0) {}
  ~gclq__dmem() { release(); }
  gclq_status get(size_t bytes) {
    release();
    return gclq__mc_alloc(c, &p, &held, bytes);
  }
  void release() {
    if (p != NULL) {
      gclq__device_free(&c->allocator, p, (gclq_stream)c->stream);
      c->used -= held;
    }
    p = NULL;
    held = 0;
  }
  template <typename T> T *as() const { return (T *)p; }

 private:
  gclq__dmem(const gclq__dmem &);
  gclq__dmem &operator=(const gclq__dmem &);
};

/* Run a gprim call f(d_temp, &bytes): size query, temp storage, call. */
template <typename F>
static inline gclq_status gclq__mc_prim(gclq__mc_ctx *c, F f) {
  size_t bytes = 0;
  GCLQ__CUDA_TRY(f((void *)NULL, &bytes));
  gclq__dmem temp(c);
  GCLQ__TRY(temp.get(bytes));
  GCLQ__CUDA_TRY(f(temp.p, &bytes));
  return GCLQ_SUCCESS;
}

/* Copy device bytes to the host and wait for them. */
static inline gclq_status gclq__mc_read(gclq__mc_ctx *c, void *h, const void *d, size_t bytes) {
  GCLQ__CUDA_TRY(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, c->stream));
  GCLQ__CUDA_TRY(cudaStreamSynchronize(c->stream));
  return GCLQ_SUCCESS;
}

static inline void gclq__mc_log(gclq__mc_ctx *c, const char *line) {
  if (c->log) c->log(c->log_user, line);
}

/* upload: the CSR to the device (off, nbr) and the degrees (deg); core is
   taken for the cores phase. Its time goes to c->upload_ms. */
static inline gclq_status gclq__mc_run_upload(gclq__mc_ctx *c, const gclq_graph *g, gclq__dmem *off, gclq__dmem *nbr,
                                              gclq__dmem *deg, gclq__dmem *core) {
  const uint32_t n = g->num_vertices;
  const uint64_t m2 = 2 * g->num_edges;
  cudaStream_t stream = c->stream;
  gclq__clock::time_point t0 = gclq__clock::now();
  GCLQ__TRY(off->get(((size_t)n + 1) * sizeof(uint64_t)));
  GCLQ__TRY(nbr->get((size_t)m2 * sizeof(uint32_t)));
  GCLQ__TRY(deg->get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(core->get((size_t)n * sizeof(uint32_t)));
  c->d_off = off->as<uint64_t>();
  c->d_nbr = nbr->as<uint32_t>();
  c->d_deg = deg->as<uint32_t>();
  c->d_core = core->as<uint32_t>();
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_off, g->h_offsets, ((size_t)n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_nbr, g->h_neighbors, (size_t)m2 * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
  gclq__degree_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(c->d_off, n, c->d_deg);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__CUDA_TRY(cudaStreamSynchronize(stream));
  c->upload_ms = gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* The peeling's blocks a multiprocessor, at most (0: as many as fit). Its
   rounds are short and many (R-MAT 18: 588 iterations, two grid barriers
   each), so the barriers' arrivals dominate: fewer blocks wait on each
   barrier for less. 2 a multiprocessor was the fastest on the larger graphs
   (R-MAT 18 and 20) and level on the small ones (bench/results/
   kcliques_h200.md, "The orientation"). */
#ifndef GCLQ__PEEL_BLOCKS_PER_SM
#define GCLQ__PEEL_BLOCKS_PER_SM 2
#endif

/* The peeling in one cooperative launch (gclq__core_peel_kernel), at most
   GCLQ__PEEL_BLOCKS_PER_SM blocks a multiprocessor (all resident at once),
   at most one a 256 vertices. *ran = 0 where
   the device has no cooperative launch (the caller then loops). */
static inline gclq_status gclq__mc_cores_coop(gclq__mc_ctx *c, gclq__dmem *deg, gclq__dmem *gone, gclq__dmem *frontier,
                                              uint32_t *max_core, int *ran) {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  *ran = 0;
#ifdef GPUCLIQUE_TESTING
  if (gclq__peel_by_launches) return GCLQ_SUCCESS;
#endif
  GCLQ__CUDA_TRY(cudaGetDevice(&dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GCLQ__CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gclq__core_peel_kernel, GCLQ__BLOCK, 0));
  if (!coop || sms <= 0 || per_sm <= 0) return GCLQ_SUCCESS;
  if (GCLQ__PEEL_BLOCKS_PER_SM > 0 && per_sm > GCLQ__PEEL_BLOCKS_PER_SM) per_sm = GCLQ__PEEL_BLOCKS_PER_SM;
  gclq__dmem state(c);
  GCLQ__TRY(state.get(sizeof(gclq__peel_state)));
  gclq__peel_state *s = (gclq__peel_state *)state.p;
  gclq__peel_state init;
  memset(&init, 0, sizeof init);
  init.low[0] = 0xffffffffu;
  GCLQ__CUDA_TRY(cudaMemcpyAsync(s, &init, sizeof init, cudaMemcpyHostToDevice, c->stream));
  uint32_t n = c->n;
  const uint64_t *off = c->d_off;
  const uint32_t *nbr = c->d_nbr;
  uint32_t *d = deg->as<uint32_t>(), *core = c->d_core, *round = c->d_round, *f = frontier->as<uint32_t>();
  uint8_t *g = gone->as<uint8_t>();
  void *args[] = {&n, &off, &nbr, &d, &g, &core, &round, &f, &s};
  uint64_t blocks = (uint64_t)sms * (uint64_t)per_sm;
  if (blocks > gclq__grid(n)) blocks = gclq__grid(n);
  GCLQ__CUDA_TRY(cudaLaunchCooperativeKernel((const void *)gclq__core_peel_kernel, dim3((unsigned)blocks),
                                             dim3(GCLQ__BLOCK), args, 0, c->stream));
  GCLQ__TRY(gclq__mc_read(c, max_core, &s->max_core, sizeof(uint32_t)));
  *ran = 1;
  return GCLQ_SUCCESS;
}

/* k-core numbers of every vertex into c->d_core (Alg. 1); returns the largest.
   One cooperative launch where the device has it, else a launch pair and a
   read back a round. */
static inline gclq_status gclq__mc_cores(gclq__mc_ctx *c, uint32_t *max_core) {
  const uint32_t n = c->n;
  uint32_t k = 0, left = n, info[2], best = 0, rounds = 0;
  int ran = 0;
  gclq__dmem deg(c), gone(c), frontier(c), d_info(c);
  GCLQ__TRY(deg.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gone.get(n));
  GCLQ__TRY(frontier.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(d_info.get(2 * sizeof(uint32_t)));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(deg.p, c->d_deg, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, c->stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(gone.p, 0, n, c->stream));
  if (n > 0) GCLQ__TRY(gclq__mc_cores_coop(c, &deg, &gone, &frontier, max_core, &ran));
  if (ran) return GCLQ_SUCCESS;
  while (left > 0) {
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0xff, 2 * sizeof(uint32_t), c->stream));
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0, sizeof(uint32_t), c->stream));
    gclq__core_filter_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(
        n, k, deg.as<uint32_t>(), c->d_core, gone.as<uint8_t>(), frontier.as<uint32_t>(), d_info.as<uint32_t>(),
        c->d_round, rounds);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_read(c, info, d_info.p, sizeof info));
    if (info[0] == 0) { /* nobody left at k: jump to the smallest degree still present */
      k = info[1];
      continue;
    }
    best = k;
    left -= info[0];
    ++rounds;
    gclq__core_advance_kernel<<<gclq__grid((uint64_t)info[0] * 32), GCLQ__BLOCK, 0, c->stream>>>(
        frontier.as<uint32_t>(), info[0], c->d_off, c->d_nbr, deg.as<uint32_t>(), gone.as<uint8_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  *max_core = best;
  return GCLQ_SUCCESS;
}

/* Core numbers on the current device: the CSR uploaded as the maximum clique
   search uploads it (gclq__mc_run_upload), then its peeling (gclq__mc_cores). */
static inline gclq_status gclq__kc_cuda_cores(const gclq_graph *g, uint32_t *h_core, uint32_t *max_core) {
  gclq__mc_ctx c;
  gclq_status st;
  memset(&c, 0, sizeof c); /* the default allocator and stream, no log */
  c.budget = ~(size_t)0;
  c.n = g->num_vertices;
  c.phase = "cores";
  *max_core = 0;
  if (c.n == 0) return GCLQ_SUCCESS;
  {
    gclq__dmem off(&c), nbr(&c), deg(&c), core(&c);
    st = gclq__mc_run_upload(&c, g, &off, &nbr, &deg, &core);
    if (st == GCLQ_SUCCESS) st = gclq__mc_cores(&c, max_core);
    if (st == GCLQ_SUCCESS) st = gclq__mc_read(&c, h_core, c.d_core, (size_t)c.n * sizeof(uint32_t));
  }
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  return st;
}
