/* amq/nonassoc/api.h - section 5's entry points: argument checks, the plan
   (gamq__nonassoc_choose, amq/nonassoc/choose.h), and the dispatch to HOST
   (amq/nonassoc/host.h) or CUDA (amq/nonassoc/cuda.cuh). */

/* ---- the public scans ---- */

GAMQ_DEF const char *gamq_scan_method_name(gamq_scan_method method) {
  switch (method) {
    case GAMQ_SCAN_AUTO: return "auto";
    case GAMQ_SCAN_ASSOCIATIVE: return "associative";
    case GAMQ_SCAN_PARALLEL_MERGING: return "parallel_merging";
    case GAMQ_SCAN_SEQUENTIAL_SHIFTING: return "sequential_shifting";
    case GAMQ_SCAN_SEGMENTED_LAYOUTS: return "segmented_layouts";
    default: return "unknown";
  }
}

static gamq_status gamq__scan_status(gamq__na_result r) {
  switch (r) {
    case GAMQ__NA_OK: return GAMQ_SUCCESS;
    case GAMQ__NA_OVERFLOW: return GAMQ_ERROR_OVERFLOW;
    case GAMQ__NA_NO_MEMORY: return GAMQ_ERROR_OUT_OF_MEMORY;
    default: return GAMQ_ERROR_INVALID_ARGUMENT;
  }
}

/* HOST backend: the host simulations on host memory. */
static gamq_status gamq__scan_host(const gamq__scan_call *c, const gamq__nonassoc_plan *plan, gamq__na_stats *st) {
  const gamq__na_method m = plan->method;
  const int max_rounds = plan->max_rounds;
  gamq__na_problem p;
  switch (c->op) {
    case GAMQ__OP_SATSUM_I32:
      return gamq__scan_status(gamq__host_satsum_i32(c->n, (const int32_t *)c->a, c->heads, (const int32_t *)c->init,
                                                     m, max_rounds, (int32_t *)c->x, st));
    case GAMQ__OP_SATSUM_I64:
      return gamq__scan_status(gamq__host_satsum_i64(c->n, (const int64_t *)c->a, c->heads, (const int64_t *)c->init,
                                                     m, max_rounds, (int64_t *)c->x, st));
    case GAMQ__OP_POSITION_U32:
      return gamq__scan_status(gamq__host_position_u32(c->n, (const uint32_t *)c->b, c->heads,
                                                       (const uint32_t *)c->init, m, max_rounds, (uint32_t *)c->x, st));
    case GAMQ__OP_POSITION_U64:
      return gamq__scan_status(gamq__host_position_u64(c->n, (const uint64_t *)c->b, c->heads,
                                                       (const uint64_t *)c->init, m, max_rounds, (uint64_t *)c->x, st));
    default:
      memset(&p, 0, sizeof p);
      p.n = c->n, p.a = (const int64_t *)c->a, p.b = (const int64_t *)c->b, p.heads = c->heads;
      p.has_init = c->init != NULL, p.init = c->init ? *(const int64_t *)c->init : 0;
      return gamq__scan_status(gamq__host_maxplus(&p, m, max_rounds, (int64_t *)c->x, st));
  }
}

/* The arrays of a call that runs (n > 0) are given. */
static int gamq__scan_arrays_given(const gamq__scan_call *c) {
  return c->n == 0 || (c->x != NULL && (!gamq__call_a_size(c->op) || c->a != NULL) &&
                       (!gamq__call_b_size(c->op) || c->b != NULL));
}

/* One call by its plan (gamq__nonassoc_choose), on the plan's backend: the
   temp query (d_temp == NULL) or the run, and the stats. */
static gamq_status gamq__scan_run(const gamq__nonassoc_plan *plan, void *d_temp, size_t *temp_bytes,
                                  const gamq__scan_call *c, gamq_scan_stats *stats, gamq_stream stream) {
  gamq__na_stats st;
  gamq_status s = GAMQ_SUCCESS;
  size_t need = 1;
#if defined(__CUDACC__)
  int overflow = 0;
  if (plan->backend == GAMQ_BACKEND_CUDA &&
      gamq__cuda_scan(c, plan, NULL, &need, &overflow, NULL, (cudaStream_t)stream) != cudaSuccess)
    return GAMQ_ERROR_CUDA;
#endif
  if (d_temp == NULL) {
    *temp_bytes = need;
    return GAMQ_SUCCESS;
  }
  if (*temp_bytes < need || !gamq__scan_arrays_given(c)) return GAMQ_ERROR_INVALID_ARGUMENT;
  st.rounds = 0, st.fell_back = 0;
  if (c->n > 0 && plan->backend == GAMQ_BACKEND_HOST) {
    s = gamq__scan_host(c, plan, &st);
  } else if (c->n > 0) {
#if defined(__CUDACC__)
    if (gamq__cuda_scan(c, plan, d_temp, temp_bytes, &overflow, &st, (cudaStream_t)stream) != cudaSuccess)
      return GAMQ_ERROR_CUDA;
    s = overflow ? GAMQ_ERROR_OVERFLOW : GAMQ_SUCCESS;
#else
    (void)stream;
    return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (stats) { /* the plan, and what its method did */
    stats->backend = plan->backend;
    stats->method = (gamq_scan_method)plan->method;
    stats->rounds = st.rounds;
    stats->fell_back = st.fell_back;
  }
  return s;
}

/* The expert form of every operation. */
static gamq_status gamq__scan_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                   const gamq__scan_call *c, gamq_scan_stats *stats, gamq_stream stream) {
  gamq__nonassoc_plan plan;
  gamq_status s;
  if (temp_bytes == NULL || c->n > GAMQ_SCAN_MAX_N) return GAMQ_ERROR_INVALID_ARGUMENT;
  s = gamq__nonassoc_choose(desc, c, &plan);
  if (s != GAMQ_SUCCESS) return s;
  return gamq__scan_run(&plan, d_temp, temp_bytes, c, stats, stream);
}

/* The convenience form: host arrays in, host results out. */
static gamq_status gamq__scan_arrays(const gamq_scan_desc *desc, const gamq__scan_call *h, gamq_scan_stats *stats) {
  gamq__nonassoc_plan plan;
  gamq_status s;
  char one = 0;
  size_t bytes = 1;
  if (h->n > GAMQ_SCAN_MAX_N) return GAMQ_ERROR_INVALID_ARGUMENT;
  s = gamq__nonassoc_choose(desc, h, &plan);
  if (s != GAMQ_SUCCESS) return s;
  if (!gamq__scan_arrays_given(h)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (h->n == 0) { /* nothing runs: the stats report the plan */
    if (stats) {
      stats->backend = plan.backend, stats->method = (gamq_scan_method)plan.method;
      stats->rounds = 0, stats->fell_back = 0;
    }
    return GAMQ_SUCCESS;
  }
  if (plan.backend == GAMQ_BACKEND_HOST) return gamq__scan_run(&plan, &one, &bytes, h, stats, NULL);
#if defined(__CUDACC__)
  {
    const gamq_device_allocator *al = desc ? &desc->allocator : NULL;
    gamq__scan_call c = *h;
    void *d_a = NULL, *d_b = NULL, *d_heads = NULL, *d_x = NULL, *d_temp = NULL;
    size_t n = h->n, sa = gamq__call_a_size(h->op) * n, sb = gamq__call_b_size(h->op) * n;
    size_t sx = gamq__call_x_size(h->op) * n, temp = 0;
    s = gamq__scan_run(&plan, NULL, &temp, h, NULL, NULL);
    if (s == GAMQ_SUCCESS && sa) s = gamq__device_alloc(al, &d_a, sa, NULL);
    if (s == GAMQ_SUCCESS && sb) s = gamq__device_alloc(al, &d_b, sb, NULL);
    if (s == GAMQ_SUCCESS && h->heads) s = gamq__device_alloc(al, &d_heads, n, NULL);
    if (s == GAMQ_SUCCESS) s = gamq__device_alloc(al, &d_x, sx, NULL);
    if (s == GAMQ_SUCCESS) s = gamq__device_alloc(al, &d_temp, temp, NULL);
    if (s == GAMQ_SUCCESS &&
        ((sa && cudaMemcpyAsync(d_a, h->a, sa, cudaMemcpyHostToDevice, 0) != cudaSuccess) ||
         (sb && cudaMemcpyAsync(d_b, h->b, sb, cudaMemcpyHostToDevice, 0) != cudaSuccess) ||
         (h->heads && cudaMemcpyAsync(d_heads, h->heads, n, cudaMemcpyHostToDevice, 0) != cudaSuccess)))
      s = GAMQ_ERROR_CUDA;
    if (s == GAMQ_SUCCESS) {
      c.a = d_a, c.b = d_b, c.heads = (const uint8_t *)d_heads, c.x = d_x;
      s = gamq__scan_run(&plan, d_temp, &temp, &c, stats, NULL);
      if (s == GAMQ_SUCCESS && cudaMemcpy(h->x, d_x, sx, cudaMemcpyDeviceToHost) != cudaSuccess) s = GAMQ_ERROR_CUDA;
    }
    gamq__device_free(al, d_a, NULL);
    gamq__device_free(al, d_b, NULL);
    gamq__device_free(al, d_heads, NULL);
    gamq__device_free(al, d_x, NULL);
    gamq__device_free(al, d_temp, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

static gamq__scan_call gamq__call(int op, const void *a, const void *b, const uint8_t *heads, const void *init,
                                  void *x, size_t n) {
  gamq__scan_call c;
  c.op = op, c.a = a, c.b = b, c.heads = heads, c.init = init, c.x = x, c.n = n;
  return c;
}

GAMQ_DEF gamq_status gamq_satsum_i32_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                          const int32_t *d_a, const uint8_t *d_heads, const int32_t *init,
                                          int32_t *d_x, size_t n, gamq_scan_stats *stats, gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I32, d_a, NULL, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_satsum_i32(const gamq_scan_desc *desc, const int32_t *h_a, const uint8_t *h_heads,
                                     const int32_t *init, int32_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I32, h_a, NULL, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_satsum_i64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                          const int64_t *d_a, const uint8_t *d_heads, const int64_t *init,
                                          int64_t *d_x, size_t n, gamq_scan_stats *stats, gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I64, d_a, NULL, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_satsum_i64(const gamq_scan_desc *desc, const int64_t *h_a, const uint8_t *h_heads,
                                     const int64_t *init, int64_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I64, h_a, NULL, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_position_scan_u32_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                                 const uint32_t *d_v, const uint8_t *d_heads, const uint32_t *init,
                                                 uint32_t *d_x, size_t n, gamq_scan_stats *stats,
                                                 gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U32, NULL, d_v, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_position_scan_u32(const gamq_scan_desc *desc, const uint32_t *h_v, const uint8_t *h_heads,
                                            const uint32_t *init, uint32_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U32, NULL, h_v, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_position_scan_u64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                                 const uint64_t *d_v, const uint8_t *d_heads, const uint64_t *init,
                                                 uint64_t *d_x, size_t n, gamq_scan_stats *stats,
                                                 gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U64, NULL, d_v, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_position_scan_u64(const gamq_scan_desc *desc, const uint64_t *h_v, const uint8_t *h_heads,
                                            const uint64_t *init, uint64_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U64, NULL, h_v, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_maxplus_i64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                           const int64_t *d_a, const int64_t *d_b, const uint8_t *d_heads,
                                           const int64_t *init, int64_t *d_x, size_t n, gamq_scan_stats *stats,
                                           gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_MAXPLUS_I64, d_a, d_b, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_maxplus_i64(const gamq_scan_desc *desc, const int64_t *h_a, const int64_t *h_b,
                                      const uint8_t *h_heads, const int64_t *init, int64_t *h_x, size_t n,
                                      gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_MAXPLUS_I64, h_a, h_b, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
