/* amq/nonassoc/kernels.cuh - the non-associative scans' device code (nvcc
   only): the recurrence as the kernels see it and one set of kernels per
   method. The launches are in amq/nonassoc/cuda.cuh. */

/* ---------------------------------------------------------------------------
   The non-associative scans' kernels

   Values. Every kernel computes in a value type V wide enough that no sum it
   forms can wrap: int64_t for the u32 position scan and the i32 saturating
   sum (every value and every sum of a_i stays below n * 2^32 < 2^63 for
   n < 2^31), __int128 for the u64 position scan, the i64 saturating sum and
   the general i64 recurrence (sums of n terms of 2^63 stay below 2^95). So
   the kernels compute exact results and check the value range once, per
   element, at the end: x_i inside the output type, and (i64 operations) every
   step x_{i-1} + a_i (init + a_i at a head) inside int64, the serial loop's
   exact condition for overflow. A violation sets a flag in temp storage that
   the host reads back.

   Maps. f(x) = max(x + a, b) is gamq__map {a, b}; a constant map (a segment
   head: f(x) = b) has a = gamq__konst<V>(), far below any real sum of a_i.
   ------------------------------------------------------------------------- */
typedef __int128 gamq__i128;

template <typename V> __host__ __device__ __forceinline__ V gamq__konst();
template <> __host__ __device__ __forceinline__ int64_t gamq__konst<int64_t>() { return INT64_MIN; }
template <> __host__ __device__ __forceinline__ gamq__i128 gamq__konst<gamq__i128>() {
  return -((gamq__i128)1 << 126);
}

template <typename V>
struct gamq__map {
  V a, b;
};

/* (f then g): g(f(x)) = max(x + (fa + ga), max(fb + ga, gb)); a constant g
   wins outright, a constant f keeps the result constant. */
template <typename V>
struct gamq__compose_op {
  __device__ __forceinline__ gamq__map<V> operator()(const gamq__map<V> &f, const gamq__map<V> &g) const {
    if (g.a == gamq__konst<V>()) return g;
    gamq__map<V> r;
    const V t = f.b + g.a;
    r.a = f.a == gamq__konst<V>() ? f.a : f.a + g.a;
    r.b = t > g.b ? t : g.b;
    return r;
  }
};

/* max(prev + a, b), where prev == INT64_MIN stands for "nothing from the
   left yet" (the host simulations' starting carry): exact for both V. */
template <typename V>
__device__ __forceinline__ V gamq__step(V prev, V a, V b) {
  if (prev == (V)INT64_MIN && a < 0) return b; /* INT64_MIN + a < INT64_MIN <= b */
  const V t = prev + a;
  return t > b ? t : b;
}

/* The recurrence x_i = max(x_{i-1} + a_i, b_i) as the kernels see it: inputs
   of types TA / TB (NULL: the constant), heads, the optional init, the output
   of type TO with its range [lo, hi], and whether steps need checking. */
template <typename TA, typename TB, typename TO, typename V>
struct gamq__na_dev {
  typedef V value;
  typedef TO out_type;
  const TA *a;
  const TB *b;
  const uint8_t *heads;
  TO *x;
  size_t n;
  V a_const, b_const, init, lo, hi;
  V carry0; /* SEGMENTED_LAYOUTS' starting carry, as the host simulation's INT64_MIN */
  int has_init, check_steps;
  uint32_t *flag; /* set to 1 on overflow */

  __device__ __forceinline__ V A(size_t i) const { return a ? (V)a[i] : a_const; }
  __device__ __forceinline__ V B(size_t i) const { return b ? (V)b[i] : b_const; }
  __device__ __forceinline__ bool head(size_t i) const { return i == 0 || (heads && heads[i]); }
  __device__ __forceinline__ V head_value(size_t i) const {
    const V bb = B(i);
    if (!has_init) return bb;
    const V t = init + A(i);
    return t > bb ? t : bb;
  }
  /* element i's own map: constant at a head */
  __device__ __forceinline__ gamq__map<V> map(size_t i) const {
    gamq__map<V> m;
    if (head(i)) {
      m.a = gamq__konst<V>();
      m.b = head_value(i);
    } else {
      m.a = A(i);
      m.b = B(i);
    }
    return m;
  }
  /* x_i out of range, or its step out of int64 (prev = x_{i-1}) */
  __device__ __forceinline__ bool bad(size_t i, V xi, V prev) const {
    if (xi < lo || xi > hi) return true;
    if (!check_steps) return false;
    V s;
    if (head(i)) {
      if (!has_init) return false;
      s = init + A(i);
    } else {
      s = prev + A(i);
    }
    return s < (V)INT64_MIN || s > (V)INT64_MAX;
  }
  __device__ __forceinline__ void store(size_t i, V xi) const { x[i] = (TO)xi; }
};

/* One flag write per warp that saw a bad element. */
__device__ __forceinline__ void gamq__raise(uint32_t *flag, bool bad) {
  if (__any_sync(0xffffffffu, bad) && (threadIdx.x & 31) == 0) *(volatile uint32_t *)flag = 1u;
}

/* Tile shapes by the size of the scanned element, in registers (the
   constants and their evidence: amq/nonassoc/choose.h). */
template <int SIZE> struct gamq__scan_cfg {
  typedef gprim__tiles<GAMQ__SCAN_THREADS, GAMQ__SCAN_ROWS_4, GAMQ__SCAN_CHUNK_4> type;
};
template <> struct gamq__scan_cfg<8> {
  typedef gprim__tiles<GAMQ__SCAN_THREADS, GAMQ__SCAN_ROWS_8, GAMQ__SCAN_CHUNK_8> type;
};
template <> struct gamq__scan_cfg<16> {
  typedef gprim__tiles<GAMQ__SCAN_THREADS, GAMQ__SCAN_ROWS_16, GAMQ__SCAN_CHUNK_16> type;
};
template <> struct gamq__scan_cfg<32> {
  typedef gprim__tiles<GAMQ__SCAN_THREADS, GAMQ__SCAN_ROWS_32, GAMQ__SCAN_CHUNK_32> type;
};

/* ---- ASSOCIATIVE, position scan without heads: one fused prefix max ----
   x_i = i + max(init + 1, max_{j<=i} (v_j - j)); a term v_j - j < 0 never wins
   (v_0 >= 0 is a term), so it is taken as 0 and everything stays unsigned.
   Load v, transform, scan (max, decoupled look-back), transform, check, store:
   the same bytes as a plain prefix max. T = uint32_t / uint64_t. */
template <typename Cfg, typename T>
__global__ void __launch_bounds__(Cfg::BLOCK)
gamq__pos_scan_kernel(const T *v, T *x, size_t n, int has_init, T init_term, gprim__lookback<T> lb, uint32_t *flag,
                      bool aligned) {
  enum { ROWS = Cfg::ROWS, CHUNK = Cfg::CHUNK };
  __shared__ uint32_t s_tile;
  __shared__ T s_warp[Cfg::WARPS];
  if (threadIdx.x == 0) s_tile = lb.take_ticket();
  __syncthreads();
  const uint32_t tile = s_tile;
  /* 32-bit indices: n < 2^31 (GAMQ_SCAN_MAX_N), and fewer registers */
  const uint32_t base = tile * (uint32_t)Cfg::TILE + (threadIdx.x >> 5) * (uint32_t)Cfg::WARP_ITEMS +
                        (threadIdx.x & 31) * (uint32_t)CHUNK;
  T t[ROWS][CHUNK];
  gprim__load_tile<Cfg>(v, tile, n, aligned, t);
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int k = 0; k < CHUNK; ++k) {
      const uint32_t i = base + r * 32 * CHUNK + k;
      t[r][k] = t[r][k] >= i ? (T)(t[r][k] - i) : (T)0;
    }
  if (has_init && tile == 0 && threadIdx.x == 0 && t[0][0] < init_term) t[0][0] = init_term;
  T pre[ROWS];
  bool has_pre[ROWS];
  gprim__tile_scan<Cfg>(tile, lb, gprim_op_max(), t, pre, has_pre, s_warp);
  bool bad = false;
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int k = 0; k < CHUNK; ++k) {
      const uint32_t i = base + r * 32 * CHUNK + k;
      const T m = t[r][k];
      bad |= m > (T)~(T)0 - i && i < n; /* i + m beyond T */
      t[r][k] = (T)(m + i);
    }
  gamq__raise(flag, bad);
  gprim__store_tile<Cfg>(x, tile, n, aligned, t);
}

/* ---- ASSOCIATIVE, any recurrence: one fused scan over the maps ----
   Modes: OUT writes x (checked). The two SEQUENTIAL_SHIFTING passes see run
   starts (runs.count: inclusive count of run starts up to i) as constant maps:
   RUNS_FIRST with the start's own value (each run laid out alone; writes each
   run's first value, last value and a_start), RUNS_FINAL with the run's value
   after the shifting rounds (writes x, checked). */
enum { GAMQ__MODE_OUT = 0, GAMQ__MODE_RUNS_FIRST = 1, GAMQ__MODE_RUNS_FINAL = 2 };
template <typename V>
struct gamq__runs {
  const uint32_t *count; /* inclusive count of run starts */
  V *first;              /* per run: value of its first element (RUNS_FIRST writes, RUNS_FINAL reads) */
  V *last;               /* per run: value of its last element, laid out alone */
  V *a_start;            /* per run: a at its first element, konst at a head */
};

template <typename Cfg, typename P, int MODE>
__global__ void __launch_bounds__(Cfg::BLOCK)
gamq__map_scan_kernel(P p, gamq__runs<typename P::value> runs, gprim__lookback<gamq__map<typename P::value> > lb) {
  typedef typename P::value V;
  typedef gamq__map<V> M;
  enum { ROWS = Cfg::ROWS, CHUNK = Cfg::CHUNK };
  __shared__ uint32_t s_tile;
  __shared__ M s_warp[Cfg::WARPS];
  if (threadIdx.x == 0) s_tile = lb.take_ticket();
  __syncthreads();
  const uint32_t tile = s_tile;
  const int lane = threadIdx.x & 31;
  const size_t n = p.n;
  const size_t base = (size_t)tile * Cfg::TILE + (size_t)(threadIdx.x >> 5) * Cfg::WARP_ITEMS + lane * CHUNK;
  M m[ROWS][CHUNK];
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int k = 0; k < CHUNK; ++k) {
      size_t i = base + r * 32 * CHUNK + k;
      if (i >= n) i = n - 1;
      if (MODE != GAMQ__MODE_OUT && (i == 0 || runs.count[i] != runs.count[i - 1])) {
        m[r][k].a = gamq__konst<V>();
        m[r][k].b = MODE == GAMQ__MODE_RUNS_FINAL ? runs.first[runs.count[i] - 1]
                                                   : (p.head(i) ? p.head_value(i) : p.B(i));
      } else {
        m[r][k] = p.map(i);
      }
    }
  M pre[ROWS];
  bool has_pre[ROWS];
  gprim__tile_scan<Cfg>(tile, lb, gamq__compose_op<V>(), m, pre, has_pre, s_warp);
  bool bad = false;
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int k = 0; k < CHUNK; ++k) {
      const size_t i = base + r * 32 * CHUNK + k;
      if (i >= n) continue;
      const V xi = m[r][k].b;
      if (MODE == GAMQ__MODE_RUNS_FIRST) {
        const uint32_t run = runs.count[i] - 1;
        if (i == 0 || runs.count[i] != runs.count[i - 1]) {
          runs.first[run] = xi;
          runs.a_start[run] = p.head(i) ? gamq__konst<V>() : p.A(i);
        }
        if (i == n - 1 || runs.count[i + 1] != runs.count[i]) runs.last[run] = xi;
      } else {
        const V prev = k > 0 ? m[r][k - 1].b : pre[r].b; /* unused at i == 0 (a head) */
        bad |= p.bad(i, xi, prev);
        p.store(i, xi);
      }
    }
  if (MODE != GAMQ__MODE_RUNS_FIRST) gamq__raise(p.flag, bad);
}

/* ---- PARALLEL_MERGING (Alg. 4), over maps ----
   Round k merges segments of 2^k elements pairwise: every element of an odd
   segment composes the left segment's total map (held by that segment's last
   element) in front of its own. In place: a round writes odd segments only
   and reads even ones. The first MERGE_TILE_LOG2 rounds run inside one block
   on shared memory; the rest one launch each, on the map array in temp
   (GAMQ__MERGE_*: amq/nonassoc/choose.h). */

template <typename P>
__global__ void __launch_bounds__(GAMQ__MERGE_THREADS)
gamq__merge_tile_kernel(P p, gamq__map<typename P::value> *maps, int rounds) {
  typedef typename P::value V;
  __shared__ gamq__map<V> s[GAMQ__MERGE_TILE];
  const size_t base = (size_t)blockIdx.x * GAMQ__MERGE_TILE;
  const gamq__compose_op<V> op;
  for (int j = threadIdx.x; j < GAMQ__MERGE_TILE; j += GAMQ__MERGE_THREADS) {
    const size_t i = base + j;
    s[j] = p.map(i < p.n ? i : p.n - 1);
  }
  for (int k = 0; k < rounds; ++k) {
    __syncthreads();
    for (int h = threadIdx.x; h < GAMQ__MERGE_TILE / 2; h += GAMQ__MERGE_THREADS) {
      const int seg = ((h >> k) << 1) | 1, j = (seg << k) | (h & ((1 << k) - 1));
      s[j] = op(s[(seg << k) - 1], s[j]);
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j < GAMQ__MERGE_TILE; j += GAMQ__MERGE_THREADS)
    if (base + j < p.n) maps[base + j] = s[j];
}

/* round k >= MERGE_TILE_LOG2: one thread per element of an odd segment */
template <typename V>
__global__ void gamq__merge_round_kernel(gamq__map<V> *maps, size_t n, int k) {
  const gamq__compose_op<V> op;
  const size_t half = (size_t)1 << k;
  for (size_t h = blockIdx.x * (size_t)blockDim.x + threadIdx.x; h < (n + 1) / 2; h += (size_t)gridDim.x * blockDim.x) {
    const size_t seg = ((h >> k) << 1) | 1, i = (seg << k) | (h & (half - 1));
    if (i < n) maps[i] = op(maps[(seg << k) - 1], maps[i]);
  }
}

/* the last step of merging: x_i is the b of element i's map (constant) */
template <typename P>
__global__ void gamq__merge_final_kernel(P p, const gamq__map<typename P::value> *maps) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < ((p.n + 31) & ~(size_t)31);
       i += (size_t)gridDim.x * blockDim.x) {
    bool bad = false;
    if (i < p.n) {
      const typename P::value xi = maps[i].b;
      bad = p.bad(i, xi, i > 0 ? maps[i - 1].b : xi);
      p.store(i, xi);
    }
    gamq__raise(p.flag, bad);
  }
}

/* ---- SEQUENTIAL_SHIFTING (Alg. 5), over runs ----
   Element i (not a head) is bound to i - 1 when b_i <= b_{i-1} + a_i: then
   x_i = x_{i-1} + a_i whatever arrives from the left. Runs are maximal bound
   stretches; a run moves as one piece, so it is kept as its first value F_r,
   and G_r = (last - first of run r - 1, laid out alone) + a at run r's start
   says where run r - 1 pushes it: F_r <- max(F_r, F_{r-1} + G_r). One thread
   per run per round; rounds until nothing moved. */
template <typename P>
__global__ void gamq__run_flags_kernel(P p, uint32_t *count) {
  typedef typename P::value V;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < p.n; i += (size_t)gridDim.x * blockDim.x) {
    bool start = p.head(i);
    if (!start) {
      const V reach = p.B(i - 1) + p.A(i);
      start = !(p.B(i) <= reach);
    }
    count[i] = start ? 1u : 0u;
  }
}

/* G_r from the first pass: last_{r-1} - first_{r-1} + a_start_r (konst at a head) */
template <typename V>
__global__ void gamq__run_prep_kernel(const V *first, const V *last, V *g, size_t runs) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < runs; r += (size_t)gridDim.x * blockDim.x)
    if (r > 0 && g[r] != gamq__konst<V>()) g[r] = last[r - 1] - first[r - 1] + g[r];
}

template <typename V>
__global__ void gamq__shift_round_kernel(const V *read, V *write, const V *g, size_t runs, uint32_t *moved) {
  bool any = false;
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < ((runs + 31) & ~(size_t)31);
       r += (size_t)gridDim.x * blockDim.x) {
    if (r < runs) {
      V f = read[r];
      if (r > 0 && g[r] != gamq__konst<V>()) {
        const V pushed = read[r - 1] + g[r];
        if (pushed > f) f = pushed, any = true;
      }
      write[r] = f;
    }
  }
  if (__any_sync(0xffffffffu, any) && (threadIdx.x & 31) == 0) *(volatile uint32_t *)moved = 1u;
}

/* ---- SEGMENTED_LAYOUTS (Alg. 6) ----
   Segments of len elements; each round one thread per segment takes the last
   value its left neighbour produced in the previous round, lays its segment
   out serially and publishes its own last value. Rounds until no carry
   changed; then one more pass lays out and writes x. */
template <typename P>
__device__ __forceinline__ typename P::value gamq__layout_first(const P &p, size_t first, typename P::value carry) {
  return p.head(first) ? p.head_value(first) : gamq__step(carry, p.A(first), p.B(first));
}

template <typename P>
__global__ void gamq__layout_round_kernel(P p, size_t len, size_t segs, const typename P::value *read,
                                          typename P::value *write, uint32_t *changed) {
  typedef typename P::value V;
  bool any = false;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < ((segs + 31) & ~(size_t)31);
       k += (size_t)gridDim.x * blockDim.x) {
    if (k < segs) {
      const size_t first = k * len, end = first + len < p.n ? first + len : p.n;
      V x = gamq__layout_first(p, first, k > 0 ? read[k - 1] : p.carry0);
      for (size_t i = first + 1; i < end; ++i) x = p.head(i) ? p.head_value(i) : gamq__step(x, p.A(i), p.B(i));
      write[k] = x;
      any |= x != read[k];
    }
  }
  if (__any_sync(0xffffffffu, any) && (threadIdx.x & 31) == 0) *(volatile uint32_t *)changed = 1u;
}

template <typename P>
__global__ void gamq__layout_final_kernel(P p, size_t len, size_t segs, const typename P::value *carry) {
  typedef typename P::value V;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < ((segs + 31) & ~(size_t)31);
       k += (size_t)gridDim.x * blockDim.x) {
    bool bad = false;
    if (k < segs) {
      const size_t first = k * len, end = first + len < p.n ? first + len : p.n;
      const V c = k > 0 ? carry[k - 1] : p.carry0;
      V x = gamq__layout_first(p, first, c);
      bad |= p.bad(first, x, c);
      p.store(first, x);
      for (size_t i = first + 1; i < end; ++i) {
        const V prev = x;
        x = p.head(i) ? p.head_value(i) : gamq__step(x, p.A(i), p.B(i));
        bad |= p.bad(i, x, prev);
        p.store(i, x);
      }
    }
    gamq__raise(p.flag, bad);
  }
}

/* SEGMENTED_LAYOUTS' starting carries: every element of p[0..n) becomes v. */
template <typename V>
__global__ void gamq__fill_kernel(V *p, size_t n, V v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}
