/* clique/device.cuh - the device context every CUDA driver of the graph half
   runs in (gclq__dev: stream, allocator, budget, used and peak bytes, log,
   the phase for the log), the device memory it hands out under the budget
   (gclq__dmem, gclq__dev_prim) and the launch shapes. Each module's run
   state holds one: the maximum-clique search's gclq__mc_ctx, the set
   collection on the device (gclq_sets_device), the k-clique run, the
   core numbers of gclq_core_numbers. Nothing here knows a module. */
#define GCLQ__FULL 0xffffffffu /* every lane of a warp */
#define GCLQ__CWARPS 4 /* warps per block of the warp-per-item kernels (a list, a vertex, a source a warp) */
static inline unsigned gclq__grid(uint64_t threads) { return (unsigned)((threads + GCLQ__BLOCK - 1) / GCLQ__BLOCK); }
/* blocks of GCLQ__CWARPS warps for a warp per item */
static inline unsigned gclq__grid_warps(uint64_t items) { return (unsigned)((items + GCLQ__CWARPS - 1) / GCLQ__CWARPS); }

struct gclq__dev {
  cudaStream_t stream;
  gclq_device_allocator allocator;           /* zero: the default (cudaMallocAsync) */
  void (*log)(void *user, const char *line); /* NULL: silent */
  void *log_user;
  size_t used, peak, budget; /* bytes held now, the most held, the most allowed */
  const char *phase;         /* what the run is doing, for the log's out-of-memory line */
};

/* A context on stream with allocator (NULL: the default) and budget, silent. */
static inline void gclq__dev_init(gclq__dev *d, gclq_stream stream, const gclq_device_allocator *allocator,
                                  size_t budget) {
  memset(d, 0, sizeof *d);
  d->stream = (cudaStream_t)stream;
  if (allocator != NULL) d->allocator = *allocator;
  d->budget = budget;
}

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

/* A call's start on the device: GCLQ_ERROR_NO_DEVICE (the error cleared)
   when there is none, else *budget 0 made the default. */
static inline gclq_status gclq__device_start(size_t *budget) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    return GCLQ_ERROR_NO_DEVICE;
  }
  return *budget == 0 ? gclq__default_budget(budget) : GCLQ_SUCCESS;
}

/* Would bytes more fit the budget now? (for allocations that are optional) */
static inline bool gclq__dev_fits(const gclq__dev *c, size_t bytes) {
  const size_t r = (bytes + 255) / 256 * 256;
  return r <= c->budget && c->used <= c->budget - r;
}

/* Device memory under the budget; bytes rounded up to 256. */
static inline gclq_status gclq__dev_alloc(gclq__dev *c, void **p, size_t *held, size_t bytes) {
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
  gclq__dev *c;
  void *p;
  size_t held;
  explicit gclq__dmem(gclq__dev *dev) : c(dev), p(NULL), held(0) {}
  ~gclq__dmem() { release(); }
  gclq_status get(size_t bytes) {
    release();
    return gclq__dev_alloc(c, &p, &held, bytes);
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
static inline gclq_status gclq__dev_prim(gclq__dev *c, F f) {
  size_t bytes = 0;
  GCLQ__CUDA_TRY(f((void *)NULL, &bytes));
  gclq__dmem temp(c);
  GCLQ__TRY(temp.get(bytes));
  GCLQ__CUDA_TRY(f(temp.p, &bytes));
  return GCLQ_SUCCESS;
}

/* Copy device bytes to the host and wait for them. */
static inline gclq_status gclq__dev_read(gclq__dev *c, void *h, const void *d, size_t bytes) {
  GCLQ__CUDA_TRY(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, c->stream));
  GCLQ__CUDA_TRY(cudaStreamSynchronize(c->stream));
  return GCLQ_SUCCESS;
}

static inline void gclq__dev_log(gclq__dev *c, const char *line) {
  if (c->log) c->log(c->log_user, line);
}
