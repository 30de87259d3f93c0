/* amq/nonassoc/cuda.cuh - the non-associative scans' CUDA driver (nvcc
   only): temp storage, the launches of amq/nonassoc/kernels.cuh for each
   method, the rounds loop, and the five operations as problems
   (gamq__cuda_scan, which the entry points and the QF build call). It runs
   the plan of gamq__nonassoc_choose (amq/nonassoc/choose.h) and takes no
   decision of its own; GAMQ__ROUND_BATCH is there too. */

/* Temp layout: [0] flags (overflow, then one per round of a batch),
   [1] look-back of the fused scan, [2..] the method's arrays. */
template <typename P>
struct gamq__na_temp {
  typedef typename P::value V;
  typedef gamq__map<V> M;
  typedef typename gamq__scan_cfg<(int)sizeof(M)>::type MapCfg;
  size_t sizes[7];
  void *ptrs[7];
  size_t scan_temp;
  size_t len, segs;

  void size(size_t n, int method, size_t fast_lb_bytes) {
    const size_t map_tiles = gprim__div_up(n, MapCfg::TILE);
    size_t lb = gprim__lookback<M>::bytes(map_tiles);
    if (fast_lb_bytes > lb) lb = fast_lb_bytes;
    for (int i = 0; i < 7; ++i) sizes[i] = 0;
    sizes[0] = (1 + GAMQ__ROUND_BATCH) * sizeof(uint32_t);
    sizes[1] = lb;
    len = gamq__na_segment_length(n);
    segs = gprim__div_up(n, len);
    scan_temp = 0;
    if (method == GAMQ__NA_PARALLEL_MERGING) {
      sizes[2] = n * sizeof(M);
    } else if (method == GAMQ__NA_SEQUENTIAL_SHIFTING) {
      gprim_scan_inclusive((void *)NULL, &scan_temp, (const uint32_t *)NULL, (uint32_t *)NULL, n, gprim_op_sum(),
                           (cudaStream_t)0);
      sizes[2] = n * sizeof(uint32_t);
      sizes[3] = sizes[4] = sizes[5] = sizes[6] = n * sizeof(V); /* first (= F, buffer 0), F buffer 1, last, g */
      sizes[1] = lb > scan_temp ? lb : scan_temp; /* the count scan and the fused scans take turns */
    } else if (method == GAMQ__NA_SEGMENTED_LAYOUTS) {
      sizes[2] = sizes[3] = segs * sizeof(V);
    }
  }
};

template <typename Cfg, typename P, int MODE>
static inline cudaError_t gamq__launch_map_scan(const P &p, gamq__runs<typename P::value> runs, void *lb_mem,
                                                cudaStream_t stream) {
  typedef gamq__map<typename P::value> M;
  const size_t tiles = gprim__div_up(p.n, Cfg::TILE);
  gprim__lookback<M> lb;
  lb.bind(lb_mem, tiles);
  GPRIM_TRY(lb.reset(stream));
  gamq__map_scan_kernel<Cfg, P, MODE><<<(unsigned)tiles, Cfg::BLOCK, 0, stream>>>(p, runs, lb);
  return cudaGetLastError();
}

/* ASSOCIATIVE: the fast position scan when it applies (POS: T is its type),
   else the map scan. */
template <typename P, typename T>
static inline cudaError_t gamq__associative(const P &p, bool fast, const T *v, T *x, int has_init, T init_term,
                                            void *lb_mem, uint32_t *flag, cudaStream_t stream) {
  if (fast) {
    typedef typename gamq__scan_cfg<(int)sizeof(T)>::type Cfg;
    const size_t tiles = gprim__div_up(p.n, Cfg::TILE);
    gprim__lookback<T> lb;
    lb.bind(lb_mem, tiles);
    GPRIM_TRY(lb.reset(stream));
    const bool aligned = gprim__chunk_aligned<T, Cfg::CHUNK>(v) && gprim__chunk_aligned<T, Cfg::CHUNK>(x);
    gamq__pos_scan_kernel<Cfg, T><<<(unsigned)tiles, Cfg::BLOCK, 0, stream>>>(v, x, p.n, has_init, init_term, lb,
                                                                            flag, aligned);
    return cudaGetLastError();
  }
  gamq__runs<typename P::value> none = {NULL, NULL, NULL, NULL};
  return gamq__launch_map_scan<typename gamq__na_temp<P>::MapCfg, P, GAMQ__MODE_OUT>(p, none, lb_mem, stream);
}

/* Run round kernels in batches until one changes nothing or the bound is hit.
   round(j, flag) launches round j. Returns the rounds counted as the host
   simulations count them; *converged = 0 when the bound was hit. */
template <typename Round>
static inline cudaError_t gamq__rounds(Round round, int max_rounds, uint32_t *d_flags, int *rounds, int *converged,
                                       cudaStream_t stream) {
  uint32_t h[GAMQ__ROUND_BATCH];
  int done = 0;
  *converged = 0;
  for (;;) {
    int batch = GAMQ__ROUND_BATCH;
    if (max_rounds > 0 && max_rounds - done < batch) batch = max_rounds - done;
    if (batch <= 0) break;
    GPRIM_TRY(cudaMemsetAsync(d_flags, 0, batch * sizeof(uint32_t), stream));
    for (int j = 0; j < batch; ++j) GPRIM_TRY(round(done + j, d_flags + j));
    GPRIM_TRY(cudaMemcpyAsync(h, d_flags, batch * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
    GPRIM_TRY(cudaStreamSynchronize(stream));
    for (int j = 0; j < batch; ++j)
      if (!h[j]) {
        *rounds = done + j + 1;
        *converged = 1;
        return cudaSuccess;
      }
    done += batch;
  }
  *rounds = done;
  return cudaSuccess;
}

template <typename V>
struct gamq__shift_round {
  V *buf[2];
  const V *g;
  size_t runs;
  cudaStream_t stream;
  cudaError_t operator()(int j, uint32_t *flag) const {
    gamq__shift_round_kernel<V><<<gamq__grid(runs, 256), 256, 0, stream>>>(buf[j & 1], buf[(j + 1) & 1], g, runs, flag);
    return cudaGetLastError();
  }
};
template <typename P>
struct gamq__layout_round {
  P p;
  typename P::value *buf[2];
  size_t len, segs;
  cudaStream_t stream;
  cudaError_t operator()(int j, uint32_t *flag) const {
    gamq__layout_round_kernel<P><<<gamq__grid(segs, 128), 128, 0, stream>>>(p, len, segs, buf[j & 1], buf[(j + 1) & 1],
                                                                          flag);
    return cudaGetLastError();
  }
};

/* One problem by the plan's method, on the stream: temp query (d_temp ==
   NULL) or the whole run, then the overflow flag read back (this
   synchronises the stream). plan->prefix_max: the position scan as one
   prefix max (T the position type, v the input). Arguments were checked by
   the caller, n > 0 when running. */
template <typename P, typename T>
static inline cudaError_t gamq__na_cuda(const P &p0, const gamq__nonassoc_plan *plan, const T *v, int has_init,
                                        T init_term, void *d_temp, size_t *temp_bytes, int *overflow,
                                        gamq__na_stats *stats, cudaStream_t stream) {
  typedef typename P::value V;
  typedef gamq__map<V> M;
  typedef gamq__na_temp<P> Temp;
  typedef typename gamq__scan_cfg<(int)sizeof(T)>::type FastCfg;
  const int method = (int)plan->method, max_rounds = plan->max_rounds, fast = plan->prefix_max != 0;
  Temp tmp;
  P p = p0;
  tmp.size(p.n, method, fast ? gprim__lookback<T>::bytes(gprim__div_up(p.n, FastCfg::TILE)) : 0);
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 7, tmp.sizes, tmp.ptrs));
  if (d_temp == NULL) return cudaSuccess;
  uint32_t *flags = (uint32_t *)tmp.ptrs[0];
  void *lb_mem = tmp.ptrs[1];
  p.flag = flags;
  GPRIM_TRY(cudaMemsetAsync(flags, 0, tmp.sizes[0], stream));
  int rounds = 0, converged = 1;
  if (method == GAMQ__NA_ASSOCIATIVE) {
    GPRIM_TRY(gamq__associative(p, fast, v, (T *)p.x, has_init, init_term, lb_mem, flags, stream));
    rounds = 1;
  } else if (method == GAMQ__NA_PARALLEL_MERGING) {
    M *maps = (M *)tmp.ptrs[2];
    const int total = gamq__na_ceil_log2(p.n);
    const int inside = total < GAMQ__MERGE_TILE_LOG2 ? total : GAMQ__MERGE_TILE_LOG2;
    gamq__merge_tile_kernel<P><<<(unsigned)gprim__div_up(p.n, GAMQ__MERGE_TILE), GAMQ__MERGE_THREADS, 0, stream>>>(
        p, maps, inside);
    GPRIM_TRY(cudaGetLastError());
    for (int k = inside; k < total; ++k) {
      gamq__merge_round_kernel<V><<<gamq__grid((p.n + 1) / 2, 256), 256, 0, stream>>>(maps, p.n, k);
      GPRIM_TRY(cudaGetLastError());
    }
    gamq__merge_final_kernel<P><<<gamq__grid(p.n, 256), 256, 0, stream>>>(p, maps);
    GPRIM_TRY(cudaGetLastError());
    rounds = total;
  } else if (method == GAMQ__NA_SEQUENTIAL_SHIFTING) {
    uint32_t *count = (uint32_t *)tmp.ptrs[2];
    gamq__runs<V> runs = {count, (V *)tmp.ptrs[3], (V *)tmp.ptrs[5], (V *)tmp.ptrs[6]};
    gamq__run_flags_kernel<P><<<gamq__grid(p.n, 256), 256, 0, stream>>>(p, count);
    GPRIM_TRY(cudaGetLastError());
    size_t st = tmp.sizes[1];
    GPRIM_TRY(gprim_scan_inclusive(lb_mem, &st, count, count, p.n, gprim_op_sum(), stream));
    uint32_t nruns = 0;
    GPRIM_TRY(cudaMemcpyAsync(&nruns, count + p.n - 1, sizeof nruns, cudaMemcpyDeviceToHost, stream));
    GPRIM_TRY(cudaStreamSynchronize(stream));
    GPRIM_TRY((gamq__launch_map_scan<typename Temp::MapCfg, P, GAMQ__MODE_RUNS_FIRST>(p, runs, lb_mem, stream)));
    gamq__run_prep_kernel<V><<<gamq__grid(nruns, 256), 256, 0, stream>>>(runs.first, runs.last, runs.a_start, nruns);
    GPRIM_TRY(cudaGetLastError());
    gamq__shift_round<V> round = {{(V *)tmp.ptrs[3], (V *)tmp.ptrs[4]}, runs.a_start, nruns, stream};
    GPRIM_TRY(gamq__rounds(round, max_rounds, flags + 1, &rounds, &converged, stream));
    if (converged) {
      runs.first = round.buf[rounds & 1]; /* equal to the other buffer after a round with no move */
      GPRIM_TRY((gamq__launch_map_scan<typename Temp::MapCfg, P, GAMQ__MODE_RUNS_FINAL>(p, runs, lb_mem, stream)));
    }
  } else { /* GAMQ__NA_SEGMENTED_LAYOUTS */
    gamq__layout_round<P> round = {p, {(V *)tmp.ptrs[2], (V *)tmp.ptrs[3]}, tmp.len, tmp.segs, stream};
    gamq__fill_kernel<V><<<gamq__grid(tmp.segs, 256), 256, 0, stream>>>(round.buf[0], tmp.segs, p.carry0);
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gamq__rounds(round, max_rounds, flags + 1, &rounds, &converged, stream));
    if (converged) {
      gamq__layout_final_kernel<P><<<gamq__grid(tmp.segs, 128), 128, 0, stream>>>(p, tmp.len, tmp.segs,
                                                                                 round.buf[rounds & 1]);
      GPRIM_TRY(cudaGetLastError());
    }
  }
  if (!converged) /* the bound was hit: finish with the associative method */
    GPRIM_TRY(gamq__associative(p, fast, v, (T *)p.x, has_init, init_term, lb_mem, flags, stream));
  uint32_t h_flag = 0;
  GPRIM_TRY(cudaMemcpyAsync(&h_flag, flags, sizeof h_flag, cudaMemcpyDeviceToHost, stream));
  GPRIM_TRY(cudaStreamSynchronize(stream));
  *overflow = h_flag != 0;
  if (stats) {
    stats->rounds = rounds;
    stats->fell_back = !converged;
  }
  return cudaSuccess;
}

/* The five operations as problems for gamq__na_cuda, by the plan of
   gamq__nonassoc_choose. */
static inline cudaError_t gamq__cuda_scan(const gamq__scan_call *c, const gamq__nonassoc_plan *plan, void *d_temp,
                                          size_t *temp_bytes, int *overflow, gamq__na_stats *stats,
                                          cudaStream_t stream) {
  switch (c->op) {
    case GAMQ__OP_POSITION_U32: {
      gamq__na_dev<uint32_t, uint32_t, uint32_t, int64_t> p;
      memset(&p, 0, sizeof p);
      p.b = (const uint32_t *)c->b, p.heads = c->heads, p.x = (uint32_t *)c->x, p.n = c->n;
      p.a_const = 1, p.lo = 0, p.hi = (int64_t)UINT32_MAX, p.carry0 = INT64_MIN;
      p.has_init = c->init != NULL, p.init = c->init ? *(const uint32_t *)c->init : 0;
      const uint32_t init_term = c->init ? *(const uint32_t *)c->init + 1u : 0u; /* read with prefix_max only */
      return gamq__na_cuda(p, plan, p.b, p.has_init, init_term, d_temp, temp_bytes, overflow, stats, stream);
    }
    case GAMQ__OP_POSITION_U64: {
      gamq__na_dev<uint64_t, uint64_t, uint64_t, gamq__i128> p;
      memset(&p, 0, sizeof p);
      p.b = (const uint64_t *)c->b, p.heads = c->heads, p.x = (uint64_t *)c->x, p.n = c->n;
      p.a_const = 1, p.lo = 0, p.hi = (gamq__i128)UINT64_MAX;
      p.carry0 = 0; /* the host simulates u64 biased by -2^63: its INT64_MIN is our 0 */
      p.has_init = c->init != NULL, p.init = c->init ? *(const uint64_t *)c->init : 0;
      const uint64_t init_term = c->init ? *(const uint64_t *)c->init + 1u : 0u; /* read with prefix_max only */
      return gamq__na_cuda(p, plan, p.b, p.has_init, init_term, d_temp, temp_bytes, overflow, stats, stream);
    }
    case GAMQ__OP_SATSUM_I32: {
      gamq__na_dev<int32_t, int32_t, int32_t, int64_t> p;
      memset(&p, 0, sizeof p);
      p.a = (const int32_t *)c->a, p.heads = c->heads, p.x = (int32_t *)c->x, p.n = c->n;
      p.lo = 0, p.hi = INT32_MAX, p.carry0 = INT64_MIN;
      p.has_init = 1, p.init = c->init ? *(const int32_t *)c->init : 0;
      return gamq__na_cuda(p, plan, (const uint32_t *)NULL, 0, 0u, d_temp, temp_bytes, overflow, stats, stream);
    }
    case GAMQ__OP_SATSUM_I64: {
      gamq__na_dev<int64_t, int64_t, int64_t, gamq__i128> p;
      memset(&p, 0, sizeof p);
      p.a = (const int64_t *)c->a, p.heads = c->heads, p.x = (int64_t *)c->x, p.n = c->n;
      p.lo = 0, p.hi = INT64_MAX, p.check_steps = 1, p.carry0 = INT64_MIN;
      p.has_init = 1, p.init = c->init ? *(const int64_t *)c->init : 0;
      return gamq__na_cuda(p, plan, (const uint32_t *)NULL, 0, 0u, d_temp, temp_bytes, overflow, stats, stream);
    }
    default: { /* GAMQ__OP_MAXPLUS_I64 */
      gamq__na_dev<int64_t, int64_t, int64_t, gamq__i128> p;
      memset(&p, 0, sizeof p);
      p.a = (const int64_t *)c->a, p.b = (const int64_t *)c->b, p.heads = c->heads, p.x = (int64_t *)c->x;
      p.n = c->n, p.lo = INT64_MIN, p.hi = INT64_MAX, p.check_steps = 1, p.carry0 = INT64_MIN;
      p.has_init = c->init != NULL, p.init = c->init ? *(const int64_t *)c->init : 0;
      return gamq__na_cuda(p, plan, (const uint32_t *)NULL, 0, 0u, d_temp, temp_bytes, overflow, stats, stream);
    }
  }
}
