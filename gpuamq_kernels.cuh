/* gpuamq_kernels.cuh - device code of the AMQ half (quotient filters,
   non-associative scans). Included by gpuamq.h's implementation only, when it
   is compiled by nvcc, after gpuprim.cuh and the host code of the scans.

   Contents
     1. non-associative scans (section IV-C of Geil, Farach-Colton, Owens,
        "Quotient Filters: Approximate Membership Queries on the GPU", IPDPS
        2018, "the QF paper" below; gpuamq.h section 5 documents
        the recurrence, the value ranges and the four methods)
          maps and their composition ........ gamq__map, gamq__compose_op
          the problem as the kernels see it . gamq__na_dev
          one tile's scan + decoupled look-back gprim__tile_scan (prim/scan.cuh)
          ASSOCIATIVE ........................ gamq__pos_scan_kernel (position scan
                                               without heads: one prefix max),
                                               gamq__map_scan_kernel (any recurrence)
          PARALLEL_MERGING ................... gamq__merge_tile_kernel, gamq__merge_round_kernel
          SEQUENTIAL_SHIFTING ................ gamq__run_flags_kernel, gamq__run_prep_kernel,
                                               gamq__shift_round_kernel
          SEGMENTED_LAYOUTS .................. gamq__layout_round_kernel, gamq__layout_final_kernel
          the host side ...................... gamq__cuda_scan
     2. quotient filters (gpuamq.h section 6; lookups are gamq_qf_ref_contains,
        declared with the public API for users' kernels)
          hash, lookup ....................... gamq__qf_hash_kernel, gamq__qf_lookup_kernel (unsorted),
                                               gamq__qf_hash_index_kernel, gamq__qf_lookup_sorted_kernel
          bulk build ......................... gamq__sqf_items_kernel, gamq__sqf_occupied_kernel,
                                               gamq__rsqf_blocks_kernel; gamq__cuda_qf_build
          extract ............................ gamq__qf_block_counts_kernel, gamq__qf_ranks_kernel,
                                               gamq__qf_walk_kernel (SQF), gamq__rsqf_walk_kernel
                                               (RSQF); gamq__cuda_qf_extract
          multiset difference (deletes) ...... gamq__qf_keep_kernel; gamq__cuda_qf_difference
          in-place batches (section 2b) ...... SQF supercluster bidding: gamq__sqf_bid_kernel,
                                               gamq__sqf_apply_kernel; RSQF growing regions:
                                               gamq__rsqf_region_kernel; gamq__cuda_qf_rounds
          in-place batches (section 2c) ...... window re-layout: gamq__win_bounds_kernel,
                                               gamq__win_chain_kernel, gamq__win_write_kernel
     3. blocked Bloom filter (gpuamq.h section 7)
          insert, lookup ..................... gamq__bloom_insert_kernel, gamq__bloom_lookup_kernel

   Everything is a template (or static), so several translation units may each
   hold a private implementation (GPUAMQ_STATIC) without clashing symbols. */
#ifndef GPUAMQ_KERNELS_CUH
#define GPUAMQ_KERNELS_CUH

/* ---------------------------------------------------------------------------
   1. non-associative scans

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

/* Tile shapes: 4-byte values as gprim's scan (128 x 8 x 4), 8-byte 128 x 8 x 2,
   16-byte maps 128 x 4 x 2, 32-byte maps 128 x 2 x 2 (registers). */
template <int SIZE> struct gamq__scan_cfg { typedef gprim__tiles<128, 8, 4> type; };
template <> struct gamq__scan_cfg<8> { typedef gprim__tiles<128, 8, 2> type; };
template <> struct gamq__scan_cfg<16> { typedef gprim__tiles<128, 4, 2> type; };
template <> struct gamq__scan_cfg<32> { typedef gprim__tiles<128, 2, 2> type; };

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
   on shared memory; the rest one launch each, on the map array in temp. */
enum { GAMQ__MERGE_THREADS = 256, GAMQ__MERGE_TILE_LOG2 = 10, GAMQ__MERGE_TILE = 1 << GAMQ__MERGE_TILE_LOG2 };

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

/* ---- the host side ---- */

/* grid for a grid-stride loop over `items` */
static inline unsigned gamq__grid(size_t items, int threads) {
  size_t blocks = gprim__div_up(items ? items : 1, (size_t)threads);
  const size_t cap = (size_t)gprim__sm_count() * 16;
  return (unsigned)(blocks < cap ? blocks : cap);
}

enum { GAMQ__ROUND_BATCH = 8 }; /* rounds launched between two looks at their flags */

/* Temp layout: [0] flags (overflow, then one per round of a batch),
   [1] look-back of the fused scan, [2..] the method's arrays. */
template <typename P>
struct gamq__na_plan {
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
  return gamq__launch_map_scan<typename gamq__na_plan<P>::MapCfg, P, GAMQ__MODE_OUT>(p, none, lb_mem, stream);
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

template <typename V>
__global__ void gamq__fill_kernel(V *p, size_t n, V v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}

/* One problem, one method, on the stream: temp query (d_temp == NULL) or the
   whole run, then the overflow flag read back (this synchronises the
   stream). fast: the ASSOCIATIVE position scan applies (T the position type,
   v the input). Arguments were checked by the caller, n > 0 when running. */
template <typename P, typename T>
static inline cudaError_t gamq__na_cuda(const P &p0, int method, int max_rounds, bool fast, const T *v, int has_init,
                                        T init_term, void *d_temp, size_t *temp_bytes, int *overflow,
                                        gamq__na_stats *stats, cudaStream_t stream) {
  typedef typename P::value V;
  typedef gamq__map<V> M;
  typedef gamq__na_plan<P> Plan;
  typedef typename gamq__scan_cfg<(int)sizeof(T)>::type FastCfg;
  Plan plan;
  P p = p0;
  plan.size(p.n, method, fast ? gprim__lookback<T>::bytes(gprim__div_up(p.n, FastCfg::TILE)) : 0);
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 7, plan.sizes, plan.ptrs));
  if (d_temp == NULL) return cudaSuccess;
  uint32_t *flags = (uint32_t *)plan.ptrs[0];
  void *lb_mem = plan.ptrs[1];
  p.flag = flags;
  GPRIM_TRY(cudaMemsetAsync(flags, 0, plan.sizes[0], stream));
  int rounds = 0, converged = 1;
  const bool fast_ok = fast && method == GAMQ__NA_ASSOCIATIVE;
  if (method == GAMQ__NA_ASSOCIATIVE) {
    GPRIM_TRY(gamq__associative(p, fast_ok, v, (T *)p.x, has_init, init_term, lb_mem, flags, stream));
    rounds = 1;
  } else if (method == GAMQ__NA_PARALLEL_MERGING) {
    M *maps = (M *)plan.ptrs[2];
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
    uint32_t *count = (uint32_t *)plan.ptrs[2];
    gamq__runs<V> runs = {count, (V *)plan.ptrs[3], (V *)plan.ptrs[5], (V *)plan.ptrs[6]};
    gamq__run_flags_kernel<P><<<gamq__grid(p.n, 256), 256, 0, stream>>>(p, count);
    GPRIM_TRY(cudaGetLastError());
    size_t st = plan.sizes[1];
    GPRIM_TRY(gprim_scan_inclusive(lb_mem, &st, count, count, p.n, gprim_op_sum(), stream));
    uint32_t nruns = 0;
    GPRIM_TRY(cudaMemcpyAsync(&nruns, count + p.n - 1, sizeof nruns, cudaMemcpyDeviceToHost, stream));
    GPRIM_TRY(cudaStreamSynchronize(stream));
    GPRIM_TRY((gamq__launch_map_scan<typename Plan::MapCfg, P, GAMQ__MODE_RUNS_FIRST>(p, runs, lb_mem, stream)));
    gamq__run_prep_kernel<V><<<gamq__grid(nruns, 256), 256, 0, stream>>>(runs.first, runs.last, runs.a_start, nruns);
    GPRIM_TRY(cudaGetLastError());
    gamq__shift_round<V> round = {{(V *)plan.ptrs[3], (V *)plan.ptrs[4]}, runs.a_start, nruns, stream};
    GPRIM_TRY(gamq__rounds(round, max_rounds, flags + 1, &rounds, &converged, stream));
    if (converged) {
      runs.first = round.buf[rounds & 1]; /* equal to the other buffer after a round with no move */
      GPRIM_TRY((gamq__launch_map_scan<typename Plan::MapCfg, P, GAMQ__MODE_RUNS_FINAL>(p, runs, lb_mem, stream)));
    }
  } else { /* GAMQ__NA_SEGMENTED_LAYOUTS */
    gamq__layout_round<P> round = {p, {(V *)plan.ptrs[2], (V *)plan.ptrs[3]}, plan.len, plan.segs, stream};
    gamq__fill_kernel<V><<<gamq__grid(plan.segs, 256), 256, 0, stream>>>(round.buf[0], plan.segs, p.carry0);
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gamq__rounds(round, max_rounds, flags + 1, &rounds, &converged, stream));
    if (converged) {
      gamq__layout_final_kernel<P><<<gamq__grid(plan.segs, 128), 128, 0, stream>>>(p, plan.len, plan.segs,
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

/* The five operations as problems for gamq__na_cuda. */
static inline cudaError_t gamq__cuda_scan(const gamq__scan_call *c, int method, int max_rounds, void *d_temp,
                                          size_t *temp_bytes, int *overflow, gamq__na_stats *stats,
                                          cudaStream_t stream) {
  switch (c->op) {
    case GAMQ__OP_POSITION_U32: {
      gamq__na_dev<uint32_t, uint32_t, uint32_t, int64_t> p;
      memset(&p, 0, sizeof p);
      p.b = (const uint32_t *)c->b, p.heads = c->heads, p.x = (uint32_t *)c->x, p.n = c->n;
      p.a_const = 1, p.lo = 0, p.hi = (int64_t)UINT32_MAX, p.carry0 = INT64_MIN;
      p.has_init = c->init != NULL, p.init = c->init ? *(const uint32_t *)c->init : 0;
      const uint32_t init_term = c->init ? *(const uint32_t *)c->init + 1u : 0u; /* used when init < UINT32_MAX */
      const bool fast = c->heads == NULL && !(c->init && *(const uint32_t *)c->init == UINT32_MAX);
      return gamq__na_cuda(p, method, max_rounds, fast, p.b, p.has_init, init_term, d_temp, temp_bytes, overflow,
                           stats, stream);
    }
    case GAMQ__OP_POSITION_U64: {
      gamq__na_dev<uint64_t, uint64_t, uint64_t, gamq__i128> p;
      memset(&p, 0, sizeof p);
      p.b = (const uint64_t *)c->b, p.heads = c->heads, p.x = (uint64_t *)c->x, p.n = c->n;
      p.a_const = 1, p.lo = 0, p.hi = (gamq__i128)UINT64_MAX;
      p.carry0 = 0; /* the host simulates u64 biased by -2^63: its INT64_MIN is our 0 */
      p.has_init = c->init != NULL, p.init = c->init ? *(const uint64_t *)c->init : 0;
      const uint64_t init_term = c->init ? *(const uint64_t *)c->init + 1u : 0u; /* used when init < UINT64_MAX */
      const bool fast = c->heads == NULL && !(c->init && *(const uint64_t *)c->init == UINT64_MAX);
      return gamq__na_cuda(p, method, max_rounds, fast, p.b, p.has_init, init_term, d_temp, temp_bytes, overflow,
                           stats, stream);
    }
    case GAMQ__OP_SATSUM_I32: {
      gamq__na_dev<int32_t, int32_t, int32_t, int64_t> p;
      memset(&p, 0, sizeof p);
      p.a = (const int32_t *)c->a, p.heads = c->heads, p.x = (int32_t *)c->x, p.n = c->n;
      p.lo = 0, p.hi = INT32_MAX, p.carry0 = INT64_MIN;
      p.has_init = 1, p.init = c->init ? *(const int32_t *)c->init : 0;
      return gamq__na_cuda(p, method, max_rounds, false, (const uint32_t *)NULL, 0, 0u, d_temp, temp_bytes, overflow,
                           stats, stream);
    }
    case GAMQ__OP_SATSUM_I64: {
      gamq__na_dev<int64_t, int64_t, int64_t, gamq__i128> p;
      memset(&p, 0, sizeof p);
      p.a = (const int64_t *)c->a, p.heads = c->heads, p.x = (int64_t *)c->x, p.n = c->n;
      p.lo = 0, p.hi = INT64_MAX, p.check_steps = 1, p.carry0 = INT64_MIN;
      p.has_init = 1, p.init = c->init ? *(const int64_t *)c->init : 0;
      return gamq__na_cuda(p, method, max_rounds, false, (const uint32_t *)NULL, 0, 0u, d_temp, temp_bytes, overflow,
                           stats, stream);
    }
    default: { /* GAMQ__OP_MAXPLUS_I64 */
      gamq__na_dev<int64_t, int64_t, int64_t, gamq__i128> p;
      memset(&p, 0, sizeof p);
      p.a = (const int64_t *)c->a, p.b = (const int64_t *)c->b, p.heads = c->heads, p.x = (int64_t *)c->x;
      p.n = c->n, p.lo = INT64_MIN, p.hi = INT64_MAX, p.check_steps = 1, p.carry0 = INT64_MIN;
      p.has_init = c->init != NULL, p.init = c->init ? *(const int64_t *)c->init : 0;
      return gamq__na_cuda(p, method, max_rounds, false, (const uint32_t *)NULL, 0, 0u, d_temp, temp_bytes, overflow,
                           stats, stream);
    }
  }
}

/* ---------------------------------------------------------------------------
   2. quotient filters (the QF paper, III-V; gpuamq.h section 6 documents the
      layouts; the host reference there is what these must equal, byte for
      byte)

   A CUDA filter is a gamq__qf whose data is device memory, passed to kernels
   by value. Lookups run gamq_qf_ref_contains (gpuamq.h, next to the public
   API, so users' kernels can call it), the walk the HOST backend runs too.
   Builds and extracts are written here, for the parallel shape:

   BUILD (the QF paper, IV-C) from sorted fingerprints fp[0..n):
     quot[i] = fp[i] >> r; pos = the position scan of quot (section 5, any
     method); FULL when pos[n-1] >= nslots (read back: the caller leaves the
     filter alone); then
       SQF   one thread per item writes its slot (remainder, continuation =
             not the first of its quotient, shifted = pos != quot), then one
             thread per distinct quotient sets that slot's occupied bit (a
             second launch: the slot may belong to another item);
       RSQF  one warp per 64-slot block gathers everything of its block:
             the items in it are a contiguous index range (pos ascends), its
             occupied quotients another (quot ascends), its offset comes from
             the last item whose quotient is below the block. The warp owns
             the whole block (and, PACKED, its byte of the offset array), so
             nothing races, and every byte is written (but the PACKED zero
             tail, which nothing ever writes).
   EXTRACT (the QF paper, IV-E): runs lie in quotient order, so slot order is
     fingerprint order. Per block: count occupied quotients and run marks
     (SQF run starts, RSQF runends); inclusive scans over blocks; scatter the
     occupied quotients by rank (quot_of_rank); per block count, scan, then
     write the items:
       SQF   a nonempty slot belongs to run (run starts at or before it) - 1;
       RSQF  slot s holds an item iff quot_of_rank[k] <= s, k = runends
             before s (the run k is the first that ends at or after s, and it
             starts at max(its quotient, the end of run k-1 + 1)).
   MULTISET DIFFERENCE (batch delete): a[i] is kept iff its rank among the
     equal values of a is at least the count of that value in b.
   ------------------------------------------------------------------------- */

/* first index with a[i] >= v (LOWER) or a[i] > v, in sorted a[0..n) */
template <bool LOWER>
__device__ __forceinline__ size_t gamq__bound(const uint64_t *a, size_t n, uint64_t v) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (LOWER ? a[mid] < v : a[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* fp[i] = the fingerprint of keys[i] (K = uint32_t / uint64_t: zero-extended) */
template <typename K>
__global__ void gamq__qf_hash_kernel(const K *keys, size_t n, uint64_t seed, int q, int r, uint64_t *fp) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    fp[i] = gamq__qf_fingerprint_of((uint64_t)keys[i], seed, q, r);
}

/* one thread per query, unsorted: gamq_qf_ref_contains (gpuamq.h) */
template <typename K>
__global__ void gamq__qf_lookup_kernel(gamq_qf_ref f, const K *keys, size_t n, uint8_t *found) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    found[i] = (uint8_t)gamq_qf_ref_contains(&f, (uint64_t)keys[i]);
}

/* sorted lookups: fp[i] = fingerprint(keys[i]), idx[i] = i; after the sort
   of the pairs by fingerprint, thread i looks up the i-th smallest, so
   neighbouring threads read neighbouring slots, and scatters its answer */
template <typename K>
__global__ void gamq__qf_hash_index_kernel(const K *keys, size_t n, uint64_t seed, int q, int r, uint64_t *fp,
                                           uint32_t *idx) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    fp[i] = gamq__qf_fingerprint_of((uint64_t)keys[i], seed, q, r);
    idx[i] = (uint32_t)i;
  }
}
static __global__ void gamq__qf_lookup_sorted_kernel(gamq_qf_ref f, const uint64_t *fp, const uint32_t *idx, size_t n,
                                                     uint8_t *found) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    found[idx[i]] = (uint8_t)gamq_qf_ref_contains_fp(&f, fp[i]);
}

static __global__ void gamq__qf_quotients_kernel(const uint64_t *fp, size_t n, int r, uint64_t *quot) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    quot[i] = fp[i] >> r;
}

/* SQF slots are 1, 2, 3 or 4 bytes, little-endian like gamq__store_le; 1-,
   2- and 4-byte slots are aligned to their size (data is 256-byte aligned),
   3-byte slots go byte by byte. */
static __device__ __forceinline__ uint32_t gamq__sqf_dev_get(const gamq__qf &f, uint64_t s) {
  switch (gamq__sqf_slot_bytes(f.r)) {
    case 1: return f.data[s];
    case 2: return ((const uint16_t *)f.data)[s];
    case 3: return (uint32_t)f.data[3 * s] | (uint32_t)f.data[3 * s + 1] << 8 | (uint32_t)f.data[3 * s + 2] << 16;
    default: return ((const uint32_t *)f.data)[s];
  }
}
static __device__ __forceinline__ void gamq__sqf_dev_put(const gamq__qf &f, uint64_t s, uint32_t v) {
  switch (gamq__sqf_slot_bytes(f.r)) {
    case 1: f.data[s] = (uint8_t)v; break;
    case 2: ((uint16_t *)f.data)[s] = (uint16_t)v; break;
    case 3: f.data[3 * s] = (uint8_t)v, f.data[3 * s + 1] = (uint8_t)(v >> 8), f.data[3 * s + 2] = (uint8_t)(v >> 16); break;
    default: ((uint32_t *)f.data)[s] = v; break;
  }
}

/* SQF build, pass 1: item i into slot pos[i] (occupied bits come in pass 2). */
static __global__ void gamq__sqf_items_kernel(gamq__qf f, const uint64_t *fp, const uint64_t *quot, const uint64_t *pos,
                                       size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t x = quot[i], rem = gamq__qf_remainder(&f, fp[i]);
    const bool first = i == 0 || quot[i - 1] != x;
    uint32_t v = (uint32_t)(rem << 3);
    if (!first) v |= GAMQ__SQF_CONTINUATION;
    if (pos[i] != x) v |= GAMQ__SQF_SHIFTED;
    gamq__sqf_dev_put(f, pos[i], v);
  }
}
/* SQF build, pass 2: the first item of each quotient sets the occupied bit of
   its home slot (distinct quotients: distinct slots, one writer each). */
static __global__ void gamq__sqf_occupied_kernel(gamq__qf f, const uint64_t *quot, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t x = quot[i];
    if (i == 0 || quot[i - 1] != x) gamq__sqf_dev_put(f, x, gamq__sqf_dev_get(f, x) | GAMQ__SQF_OCCUPIED);
  }
}

/* RSQF block words (8 bytes, little-endian; ALIGNED blocks are 64-byte
   aligned, PACKED ones 8-byte): 0 occupieds, 1 runends, then ALIGNED: 2 the
   offset in its low byte, 3.. the remainders as a little-endian bit stream,
   then zero padding; PACKED: 2.. the remainders (no padding), the offsets in
   the byte array after the blocks (gamq__rsqf_offset_at). */
static __device__ __forceinline__ uint64_t *gamq__rsqf_dev_words(const gamq__qf &f, uint64_t b) {
  return (uint64_t *)(f.data + b * gamq__rsqf_stride(&f));
}
static __device__ __forceinline__ uint64_t gamq__warp_or64(uint64_t v) {
  for (int d = 16; d; d >>= 1) v |= __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

#define GAMQ__RSQF_WARPS 4 /* warps per CTA of the RSQF block kernels */
#define GAMQ__RSQF_MAX_WORDS 40 /* words of the largest block (r = 32: 320 bytes) */

/* RSQF build: one warp writes all of block b (every word, so nothing needs
   clearing first). Lanes 0-3 find, by binary search, the items whose slots
   lie in the block [i0, i1) (pos ascends: at most 64) and whose quotients do
   [j0, j1) (any number: long runs). Items set runends and OR their remainder
   bits into the block's words in shared memory; first-of-quotient items set
   occupieds; the offset is the spill of the last item whose quotient is below
   the block; then the warp stores the words, coalesced. */
static __global__ void __launch_bounds__(32 * GAMQ__RSQF_WARPS)
gamq__rsqf_blocks_kernel(gamq__qf f, const uint64_t *fp, const uint64_t *quot, const uint64_t *pos, size_t n) {
  __shared__ unsigned long long sw[GAMQ__RSQF_WARPS][GAMQ__RSQF_MAX_WORDS];
  unsigned long long *w = sw[threadIdx.x / 32];
  const int lane = threadIdx.x & 31, r = f.r, words = (int)(gamq__rsqf_stride(&f) / 8);
  const int rw = gamq__rsqf_rem_byte(&f) / 8; /* the first remainder word */
  const uint64_t nblocks = f.nslots / 64, mask = ((uint64_t)1 << r) - 1;
  const uint64_t nwarps = (uint64_t)gridDim.x * GAMQ__RSQF_WARPS;
  for (uint64_t b = blockIdx.x * (uint64_t)GAMQ__RSQF_WARPS + threadIdx.x / 32; b < nblocks; b += nwarps) {
    const uint64_t lo = b * 64;
    size_t v = 0;
    if (lane < 4) v = gamq__bound<true>(lane < 2 ? pos : quot, n, lo + (lane & 1 ? 64 : 0));
    const size_t i0 = __shfl_sync(0xffffffffu, v, 0), i1 = __shfl_sync(0xffffffffu, v, 1);
    const size_t j0 = __shfl_sync(0xffffffffu, v, 2), j1 = __shfl_sync(0xffffffffu, v, 3);
    for (int k = lane; k < words; k += 32) w[k] = 0;
    __syncwarp();
    uint64_t ends = 0, occ = 0;
    for (size_t i = i0 + lane; i < i1; i += 32) {
      const uint64_t slot = pos[i] - lo, bit = slot * (uint64_t)r, rem = fp[i] & mask;
      const int sh = (int)(bit & 63);
      if (i == n - 1 || quot[i + 1] != quot[i]) ends |= (uint64_t)1 << slot;
      if (rem) {
        atomicOr(&w[rw + bit / 64], (unsigned long long)(rem << sh));
        if (sh + r > 64) atomicOr(&w[rw + bit / 64 + 1], (unsigned long long)(rem >> (64 - sh)));
      }
    }
    for (size_t i = j0 + lane; i < j1; i += 32)
      if (i == 0 || quot[i - 1] != quot[i]) occ |= (uint64_t)1 << (quot[i] - lo);
    ends = gamq__warp_or64(ends);
    occ = gamq__warp_or64(occ);
    __syncwarp();
    if (lane == 0) {
      uint64_t off = 0;
      if (j0 > 0 && pos[j0 - 1] + 1 > lo) off = pos[j0 - 1] + 1 - lo;
      w[0] = occ;
      w[1] = ends;
      if (off > GAMQ__RSQF_OFFSET_MAX) off = GAMQ__RSQF_OFFSET_MAX;
      if (f.packed) *gamq__rsqf_offset_at(&f, b) = (uint8_t)off; /* the byte array after the blocks */
      else w[2] = off;
    }
    __syncwarp();
    uint64_t *out = gamq__rsqf_dev_words(f, b);
    for (int k = lane; k < words; k += 32) out[k] = w[k];
    __syncwarp();
  }
}

/* Extract, pass 1: per block, occupied quotients and run marks (SQF: run
   starts, RSQF: runends). */
static __global__ void gamq__qf_block_counts_kernel(gamq__qf f, uint64_t *occ, uint64_t *marks) {
  const uint64_t nblocks = f.nslots / 64;
  for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nblocks;
       b += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t o = 0, m = 0;
    if (f.kind == GAMQ__QF_SQF) {
      for (uint64_t s = b * 64; s < b * 64 + 64; ++s) {
        const uint32_t v = gamq__sqf_dev_get(f, s);
        o += v & GAMQ__SQF_OCCUPIED;
        m += (v & 7u) != 0 && !(v & GAMQ__SQF_CONTINUATION);
      }
    } else {
      const uint64_t *w = gamq__rsqf_dev_words(f, b);
      o = (uint64_t)__popcll(w[0]);
      m = (uint64_t)__popcll(w[1]);
    }
    occ[b] = o;
    marks[b] = m;
  }
}

/* Extract, pass 2: the occupied quotients by rank (occ_incl: inclusive scan
   of the per-block counts). */
static __global__ void gamq__qf_ranks_kernel(gamq__qf f, const uint64_t *occ_incl, uint64_t *quot_of_rank) {
  const uint64_t nblocks = f.nslots / 64;
  for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nblocks;
       b += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t k = b ? occ_incl[b - 1] : 0;
    if (f.kind == GAMQ__QF_SQF) {
      for (uint64_t s = b * 64; s < b * 64 + 64; ++s)
        if (gamq__sqf_dev_get(f, s) & GAMQ__SQF_OCCUPIED) quot_of_rank[k++] = s;
    } else {
      for (uint64_t o = gamq__rsqf_dev_words(f, b)[0]; o; o &= o - 1) quot_of_rank[k++] = b * 64 + __ffsll((long long)o) - 1;
    }
  }
}

/* Extract, passes 3 and 4 for the SQF: walk each block's slots knowing the
   run of its first slot. WRITE = false: items[b] = the block's item count; WRITE = true:
   items holds their inclusive scan and out[.. cap) gets the fingerprints. */
template <bool WRITE>
__global__ void gamq__qf_walk_kernel(gamq__qf f, const uint64_t *marks_incl, const uint64_t *quot_of_rank,
                                     const uint64_t *nruns_at, uint64_t *items, uint64_t *out, uint64_t cap) {
  const uint64_t nblocks = f.nslots / 64, nruns = *nruns_at;
  for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nblocks;
       b += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t k = b ? marks_incl[b - 1] : 0; /* run marks before the block */
    uint64_t idx = WRITE ? (b ? items[b - 1] : 0) : 0;
    for (uint64_t s = b * 64; s < b * 64 + 64; ++s) {
      uint64_t x = 0, rem = 0;
      bool item = false;
      const uint32_t v = gamq__sqf_dev_get(f, s);
      if (v & 7u) {
        if (!(v & GAMQ__SQF_CONTINUATION)) ++k; /* a run starts: k counts starts up to s */
        item = k >= 1 && k <= nruns;
        if (item) x = quot_of_rank[k - 1], rem = v >> 3;
      }
      if (item) {
        if (WRITE && idx < cap) out[idx] = (x << f.r) | rem;
        ++idx;
      }
    }
    if (!WRITE) items[b] = idx;
  }
}

/* Extract, passes 3 and 4 for the RSQF: one warp per block, a lane per two
   slots. Slot s holds an item iff quot_of_rank[k] <= s, k = the runends
   before s (before the block: marks_incl[b - 1]; inside it: a popcount). */
template <bool WRITE>
__global__ void __launch_bounds__(32 * GAMQ__RSQF_WARPS)
gamq__rsqf_walk_kernel(gamq__qf f, const uint64_t *marks_incl, const uint64_t *quot_of_rank, const uint64_t *nruns_at,
                       uint64_t *items, uint64_t *out, uint64_t cap) {
  const uint64_t nblocks = f.nslots / 64, nruns = *nruns_at;
  const uint64_t nwarps = (uint64_t)gridDim.x * GAMQ__RSQF_WARPS;
  const int lane = threadIdx.x & 31;
  for (uint64_t b = blockIdx.x * (uint64_t)GAMQ__RSQF_WARPS + threadIdx.x / 32; b < nblocks; b += nwarps) {
    const uint64_t *w = gamq__rsqf_dev_words(f, b), *rw = w + gamq__rsqf_rem_byte(&f) / 8;
    const uint64_t ends = w[1], k0 = b ? marks_incl[b - 1] : 0;
    uint64_t idx = WRITE ? (b ? items[b - 1] : 0) : 0;
    for (int half = 0; half < 2; ++half) {
      const int i = lane + 32 * half;
      const uint64_t s = b * 64 + i, k = k0 + (uint64_t)__popcll(ends & (((uint64_t)1 << i) - 1));
      const bool item = k < nruns && quot_of_rank[k] <= s;
      const unsigned ballot = __ballot_sync(0xffffffffu, item);
      if (WRITE && item) {
        const uint64_t at = idx + (uint64_t)__popc(ballot & ((1u << lane) - 1));
        if (at < cap) out[at] = (quot_of_rank[k] << f.r) | gamq__ref_rsqf_word_rem(rw, f.r, (uint64_t)i);
      }
      idx += (uint64_t)__popc(ballot);
    }
    if (!WRITE && lane == 0) items[b] = idx;
  }
}

/* keep[i] = 1 iff a[i] survives deleting b once per element (a, b sorted) */
static __global__ void gamq__qf_keep_kernel(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint8_t *keep) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < na; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t x = a[i];
    const size_t rank = i - gamq__bound<true>(a, i, x); /* equal values before i */
    const size_t in_b = gamq__bound<false>(b, nb, x) - gamq__bound<true>(b, nb, x);
    keep[i] = rank >= in_b;
  }
}

/* ---- the host side: (d_temp, temp_bytes) as everywhere; d_temp == NULL
   only writes the bytes needed ---- */

/* fp[i] = fingerprint(keys[i]) for a batch of 4- or 8-byte keys. */
static inline cudaError_t gamq__cuda_qf_hash(const gamq__qf *f, const void *keys, int key_bytes, size_t n,
                                             uint64_t *fp, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (key_bytes == 4)
    gamq__qf_hash_kernel<uint32_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint32_t *)keys, n, f->seed, f->q,
                                                                           f->r, fp);
  else
    gamq__qf_hash_kernel<uint64_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint64_t *)keys, n, f->seed, f->q,
                                                                           f->r, fp);
  return cudaGetLastError();
}

static inline cudaError_t gamq__cuda_qf_lookup(const gamq__qf *f, const void *keys, int key_bytes, size_t n,
                                               uint8_t *found, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const gamq_qf_ref ref = gamq__qf_ref_of(f);
  if (key_bytes == 4)
    gamq__qf_lookup_kernel<uint32_t><<<gamq__grid(n, 256), 256, 0, stream>>>(ref, (const uint32_t *)keys, n, found);
  else
    gamq__qf_lookup_kernel<uint64_t><<<gamq__grid(n, 256), 256, 0, stream>>>(ref, (const uint64_t *)keys, n, found);
  return cudaGetLastError();
}

/* Lookups in fingerprint order (see gamq__qf_lookup_sorted_kernel); n <= 2^31 - 1. */
static inline cudaError_t gamq__cuda_qf_lookup_sorted(const gamq__qf *f, const void *keys, int key_bytes, size_t n,
                                                      uint8_t *found, void *d_temp, size_t *temp_bytes,
                                                      cudaStream_t stream) {
  size_t sizes[3], sort_bytes = 0;
  void *ptrs[3];
  GPRIM_TRY(gprim_radix_sort_pairs((void *)NULL, &sort_bytes, (const uint64_t *)NULL, (uint64_t *)NULL,
                                   (const uint32_t *)NULL, (uint32_t *)NULL, n, 0, f->q + f->r, false, stream));
  sizes[0] = n * sizeof(uint64_t), sizes[1] = n * sizeof(uint32_t), sizes[2] = sort_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 3, sizes, ptrs));
  if (d_temp == NULL || n == 0) return cudaSuccess;
  uint64_t *fp = (uint64_t *)ptrs[0];
  uint32_t *idx = (uint32_t *)ptrs[1];
  if (key_bytes == 4)
    gamq__qf_hash_index_kernel<uint32_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint32_t *)keys, n, f->seed,
                                                                                 f->q, f->r, fp, idx);
  else
    gamq__qf_hash_index_kernel<uint64_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint64_t *)keys, n, f->seed,
                                                                                 f->q, f->r, fp, idx);
  GPRIM_TRY(cudaGetLastError());
  GPRIM_TRY(gprim_radix_sort_pairs(ptrs[2], &sizes[2], (const uint64_t *)fp, fp, (const uint32_t *)idx, idx, n, 0,
                                   f->q + f->r, false, stream));
  gamq__qf_lookup_sorted_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(gamq__qf_ref_of(f), fp, idx, n, found);
  return cudaGetLastError();
}

/* Sort n fingerprints in place by their q + r bits (gprim's radix sort). */
static inline cudaError_t gamq__cuda_qf_sort(const gamq__qf *f, uint64_t *fp, size_t n, void *d_temp,
                                             size_t *temp_bytes, cudaStream_t stream) {
  return gprim_radix_sort_keys(d_temp, temp_bytes, (const uint64_t *)fp, fp, n, 0, f->q + f->r, false, stream);
}

/* Bulk build from n sorted fingerprints (see BUILD above). *full = 1: the
   filter was not touched. Synchronises the stream (the FULL check). */
static inline cudaError_t gamq__cuda_qf_build(const gamq__qf *f, const uint64_t *fp, size_t n, int method,
                                              void *d_temp, size_t *temp_bytes, int *full, cudaStream_t stream) {
  gamq__scan_call c;
  size_t sizes[3], scan_bytes = 0;
  void *ptrs[3];
  int overflow = 0;
  c.op = GAMQ__OP_POSITION_U64, c.a = NULL, c.b = NULL, c.heads = NULL, c.init = NULL, c.x = NULL, c.n = n;
  if (n > 0) GPRIM_TRY(gamq__cuda_scan(&c, method, GAMQ_SCAN_DEFAULT_MAX_ROUNDS, NULL, &scan_bytes, &overflow, NULL,
                                       stream));
  sizes[0] = sizes[1] = n * sizeof(uint64_t);
  sizes[2] = scan_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 3, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  *full = 0;
  if (n > f->nslots) {
    *full = 1;
    return cudaSuccess;
  }
  if (n == 0) return cudaMemsetAsync(f->data, 0, f->bytes, stream);
  uint64_t *quot = (uint64_t *)ptrs[0], *pos = (uint64_t *)ptrs[1], last = 0;
  gamq__qf_quotients_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(fp, n, f->r, quot);
  GPRIM_TRY(cudaGetLastError());
  c.b = quot, c.x = pos;
  GPRIM_TRY(gamq__cuda_scan(&c, method, GAMQ_SCAN_DEFAULT_MAX_ROUNDS, ptrs[2], &sizes[2], &overflow, NULL, stream));
  GPRIM_TRY(cudaMemcpyAsync(&last, pos + n - 1, sizeof last, cudaMemcpyDeviceToHost, stream));
  GPRIM_TRY(cudaStreamSynchronize(stream));
  if (overflow || last >= f->nslots) { /* overflow cannot happen: positions stay below 2^33 */
    *full = 1;
    return cudaSuccess;
  }
  if (f->kind == GAMQ__QF_SQF) {
    GPRIM_TRY(cudaMemsetAsync(f->data, 0, f->bytes, stream));
    gamq__sqf_items_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(*f, fp, quot, pos, n);
    GPRIM_TRY(cudaGetLastError());
    gamq__sqf_occupied_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(*f, quot, n);
  } else {
    gamq__rsqf_blocks_kernel<<<gamq__grid(f->nslots / 64, GAMQ__RSQF_WARPS), 32 * GAMQ__RSQF_WARPS, 0, stream>>>(
        *f, fp, quot, pos, n);
  }
  GPRIM_TRY(cudaGetLastError());
  return cudaStreamSynchronize(stream);
}

/* Extract all f->nitems fingerprints, ascending, into out (see EXTRACT). */
static inline cudaError_t gamq__cuda_qf_extract(const gamq__qf *f, uint64_t *out, void *d_temp, size_t *temp_bytes,
                                                cudaStream_t stream) {
  const size_t nblocks = (size_t)(f->nslots / 64);
  size_t sizes[5], scan_bytes = 0;
  void *ptrs[5];
  GPRIM_TRY(gprim_scan_inclusive((void *)NULL, &scan_bytes, (const uint64_t *)NULL, (uint64_t *)NULL, nblocks,
                                 gprim_op_sum(), stream));
  sizes[0] = sizes[1] = sizes[2] = nblocks * sizeof(uint64_t); /* occupieds, marks, items per block */
  sizes[3] = (size_t)f->nitems * sizeof(uint64_t);               /* quot_of_rank: runs <= items */
  sizes[4] = scan_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 5, sizes, ptrs));
  if (d_temp == NULL || f->nitems == 0) return cudaSuccess;
  uint64_t *occ = (uint64_t *)ptrs[0], *marks = (uint64_t *)ptrs[1], *items = (uint64_t *)ptrs[2];
  uint64_t *ranks = (uint64_t *)ptrs[3];
  const unsigned grid = gamq__grid(nblocks, 128);
  gamq__qf_block_counts_kernel<<<grid, 128, 0, stream>>>(*f, occ, marks);
  GPRIM_TRY(cudaGetLastError());
  GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)occ, occ, nblocks, gprim_op_sum(), stream));
  GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)marks, marks, nblocks, gprim_op_sum(), stream));
  gamq__qf_ranks_kernel<<<grid, 128, 0, stream>>>(*f, occ, ranks);
  GPRIM_TRY(cudaGetLastError());
  if (f->kind == GAMQ__QF_SQF) {
    gamq__qf_walk_kernel<false><<<grid, 128, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out, 0);
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)items, items, nblocks, gprim_op_sum(), stream));
    gamq__qf_walk_kernel<true><<<grid, 128, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out, f->nitems);
  } else {
    const unsigned wgrid = gamq__grid(nblocks, GAMQ__RSQF_WARPS), wthreads = 32 * GAMQ__RSQF_WARPS;
    gamq__rsqf_walk_kernel<false><<<wgrid, wthreads, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out, 0);
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)items, items, nblocks, gprim_op_sum(), stream));
    gamq__rsqf_walk_kernel<true><<<wgrid, wthreads, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out,
                                                                f->nitems);
  }
  return cudaGetLastError();
}

/* out = a minus b as multisets (one copy of a removed per element of b),
   both sorted; *d_kept (device) gets the count. */
static inline cudaError_t gamq__cuda_qf_difference(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                                                   uint64_t *out, size_t *d_kept, void *d_temp, size_t *temp_bytes,
                                                   cudaStream_t stream) {
  size_t sizes[2], sel_bytes = 0;
  void *ptrs[2];
  GPRIM_TRY(gprim_select_flagged((void *)NULL, &sel_bytes, a, (const uint8_t *)NULL, out, d_kept, na, stream));
  sizes[0] = na;
  sizes[1] = sel_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 2, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if (na > 0) {
    gamq__qf_keep_kernel<<<gamq__grid(na, 256), 256, 0, stream>>>(a, na, b, nb, (uint8_t *)ptrs[0]);
    GPRIM_TRY(cudaGetLastError());
  }
  return gprim_select_flagged(ptrs[1], &sizes[1], a, (const uint8_t *)ptrs[0], out, d_kept, na, stream);
}

/* ---------------------------------------------------------------------------
   2b. in-place batch inserts and deletes (the QF paper, IV-B Alg. 3, IV-D Alg. 7,
       V-B Alg. 9)

   The batch is hashed and sorted; a list of pending items (indices into the
   sorted fingerprints) goes through ROUNDS. In a round every pending item
   either is applied by the host reference's point insert / delete
   (gamq__sqf_insert, gamq__rsqf_delete, ... marked GAMQ__HD), on the device,
   by one thread, or waits; the waiting ones are compacted (gprim select) and
   the host reads back one small status (pending count, FULL, items changed)
   per round. Layouts are a function of the multiset, so the order in which
   items go in does not matter: the bytes equal the HOST ones.

   SQF, SUPERCLUSTER BIDDING (Alg. 3 / Alg. 7). Bid kernel, from the state
   before the round:
     insert  group = e, the first empty slot at or after the home slot: an
             insert touches only slots from its cluster's start to e (it
             reads left to the cluster start, shifts right into e), and a
             cluster start lies after the previous empty slot, so inserts of
             different e touch disjoint slots;
     delete  group = c, the cluster start (walk left while shifted; the home
             slot itself when empty; top bit set when the quotient has no run:
             nothing to delete). A delete shifts left only inside [c, h), h =
             the next cluster start or empty slot; it READS slot h's low three
             bits to stop, and the delete running in h's cluster keeps those
             bits "empty or not shifted" (it may only empty the slot or write
             another unshifted run head there), so the read decides the same
             either way.
   e and c are monotone in the home slot, so a group is a contiguous range of
   the sorted pending list: its first item is the winner (the paper's
   bidding, with a deterministic winner and no O(nslots) label array or
   full-filter scan). Apply kernel: winners run the point operation.
   Rounds = the most items any one supercluster receives, growing as inserts
   fill the empty slots between superclusters.

   RSQF, GROWING REGIONS (Alg. 9, and deletes the same way). Blocks share
   their metadata words and (r not a multiple of 8) bytes, so the unit is a
   region of whole blocks. Round k splits the blocks into regions of size s
   with phase p: s = 1, then 2, 2, 4, 4, 8, ... with p = s/2 and p = 0 in turn,
   so any span of w blocks fits a region within about 2 log2(w) + 1 rounds.
   One thread per region takes the region's queue (pending items whose home
   block is in it, contiguous in sorted order) in order; an item goes in only
   when everything its point operation reads or writes lies in the region's
   blocks (gamq__rsqf_insert_in / gamq__rsqf_delete_in: a read-only dry run
   with region-bounded rank/select, offsets rebuilt without leaving the
   region), else it waits for a larger or shifted region.

   FULL: an SQF insert whose e is nslots, an RSQF insert whose first unused
   slot is nslots; the caller rolls back what went in (deleting it in place
   restores the bytes). Rounds are capped by the caller: the rest then goes
   to a rebuild (same bytes). The tests' host simulation of the rounds
   (tests/amq_testing.h) runs the same steps serially and can poison every
   byte outside a winner's window, which shows that no thread depends on,
   or changes, a byte another thread of its round may change.
   ------------------------------------------------------------------------- */

enum { GAMQ__QF_STEP_OK = 0, GAMQ__QF_STEP_NOT_FOUND = 1, GAMQ__QF_STEP_FULL = 2, GAMQ__QF_STEP_OUT = 3 };
#define GAMQ__QF_NO_RUN ((uint64_t)1 << 63) /* delete group flag: the quotient has no run */

/* SQF bid: the supercluster an item's insert (e) or delete (c) works in. */
static inline GAMQ__HD uint64_t gamq__sqf_group(const gamq__qf *f, int del, uint64_t fq) {
  uint64_t s, v;
  if (!del) return gamq__sqf_next_empty(f, fq); /* nslots: no empty slot, FULL */
  v = gamq__sqf_get(f, fq);
  if ((v & 7u) == 0) return fq | GAMQ__QF_NO_RUN; /* empty */
  s = gamq__sqf_cluster_start(f, fq);
  return v & GAMQ__SQF_OCCUPIED ? s : s | GAMQ__QF_NO_RUN;
}

/* RSQF region of a home block in round (s, p): blocks [lo, hi). */
static inline GAMQ__HD uint64_t gamq__rsqf_region(uint64_t nblocks, uint64_t blk, uint64_t s, uint64_t p, uint64_t *lo,
                                                 uint64_t *hi) {
  const uint64_t k = (blk + s - p) / s;
  if (lo) *lo = k * s + p >= s ? k * s + p - s : 0;
  if (hi) *hi = k * s + p < nblocks ? k * s + p : nblocks;
  return k;
}
/* The region schedule: round 0 single blocks, then s = 2, 2, 4, 4, ... with
   phases s/2, 0; one region of all blocks once s reaches nblocks. */
static inline GAMQ__HD void gamq__rsqf_schedule(uint64_t nblocks, int round, uint64_t *s, uint64_t *p) {
  const int k = (round + 1) / 2;
  *s = k >= 40 || ((uint64_t)1 << k) >= nblocks ? nblocks : (uint64_t)1 << k;
  *p = *s < nblocks && (round & 1) ? *s / 2 : 0;
}

/* Region-bounded rank / select: *ok = 0 when the answer needs a slot at or
   past lim (a multiple of 64) or a block before lo. */
static inline GAMQ__HD uint64_t gamq__rsqf_select_lim(const gamq__qf *f, uint64_t pos, uint64_t d, uint64_t lim, int *ok) {
  while (pos < lim) {
    const uint64_t b = pos >> 6, w = gamq__rsqf_runends(f, b) & (~(uint64_t)0 << (pos & 63));
    const uint64_t c = (uint64_t)gamq__popcount64(w);
    if (c >= d) return b * 64 + (uint64_t)gamq__select64(w, (int)(d - 1));
    d -= c;
    pos = (b + 1) * 64;
  }
  *ok = 0;
  return lim;
}
static inline GAMQ__HD uint64_t gamq__rsqf_runs_end_lim(const gamq__qf *f, uint64_t x, uint64_t off, uint64_t lim, int *ok) {
  const uint64_t b = x >> 6, i = x & 63, mask = i == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (i + 1)) - 1;
  const int d = gamq__popcount64(gamq__rsqf_occupieds(f, b) & mask);
  if (d == 0) return b * 64 + off;
  return gamq__rsqf_select_lim(f, b * 64 + off, (uint64_t)d, lim, ok) + 1;
}
/* gamq__rsqf_offset(b), reading blocks lo .. lim/64 - 1 only. */
static inline GAMQ__HD uint64_t gamq__rsqf_offset_lim(const gamq__qf *f, uint64_t b, uint64_t lo, uint64_t lim, int *ok) {
  uint64_t a = b, off, end;
  while (a > 0 && gamq__rsqf_stored_offset(f, a) == GAMQ__RSQF_OFFSET_MAX) {
    if (a <= lo) {
      *ok = 0;
      return 0;
    }
    --a;
  }
  off = gamq__rsqf_stored_offset(f, a);
  for (++a; a <= b && *ok; ++a) {
    end = gamq__rsqf_runs_end_lim(f, a * 64 - 1, off, lim, ok);
    off = end > a * 64 ? end - a * 64 : 0;
  }
  return off;
}
/* The run bounds of quotient x as the point operations compute them, or
   *ok = 0 (start: where the run starts or would; end: one past its end). */
static inline GAMQ__HD void gamq__rsqf_run_lim(const gamq__qf *f, uint64_t x, uint64_t lo, uint64_t lim, uint64_t *start,
                                              uint64_t *end, int *ok) {
  uint64_t t;
  *start = x;
  if (x > 0) {
    if (((x - 1) >> 6) < lo) {
      *ok = 0;
      return;
    }
    t = gamq__rsqf_runs_end_lim(f, x - 1, gamq__rsqf_offset_lim(f, (x - 1) >> 6, lo, lim, ok), lim, ok);
    if (t > x) *start = t;
  }
  *end = gamq__rsqf_runs_end_lim(f, x, gamq__rsqf_offset_lim(f, x >> 6, lo, lim, ok), lim, ok);
}

/* Insert one copy if everything gamq__rsqf_insert reads or writes lies in
   blocks [lo, hi): a dry run (first unused slot e at or after fq, the
   offsets of the blocks it consults), then the point insert. */
static inline GAMQ__HD int gamq__rsqf_insert_in(gamq__qf *f, uint64_t fq, uint64_t fr, uint64_t lo, uint64_t hi) {
  const uint64_t lim = hi * 64;
  uint64_t e = fq, t, start, end;
  int ok = 1;
  gamq__rsqf_run_lim(f, fq, lo, lim, &start, &end, &ok);
  if (!ok) return GAMQ__QF_STEP_OUT;
  for (;;) {
    if (e >= lim) return lim >= f->nslots ? GAMQ__QF_STEP_FULL : GAMQ__QF_STEP_OUT;
    t = gamq__rsqf_runs_end_lim(f, e, gamq__rsqf_offset_lim(f, e >> 6, lo, lim, &ok), lim, &ok);
    if (!ok) return GAMQ__QF_STEP_OUT;
    if (t <= e) break;
    e = t;
  }
  return gamq__rsqf_insert(f, fq, fr) == GAMQ__QF_OK ? GAMQ__QF_STEP_OK : GAMQ__QF_STEP_FULL;
}

/* Delete one copy if everything gamq__rsqf_delete reads or writes lies in
   blocks [lo, hi): find it, dry-run the left shift to the slot it stops
   before (read-only: the shift reads each slot before it writes the one
   before it), then the point delete. */
static inline GAMQ__HD int gamq__rsqf_delete_in(gamq__qf *f, uint64_t fq, uint64_t fr, uint64_t lo, uint64_t hi) {
  const uint64_t lim = hi * 64;
  uint64_t start, end, p, i, j, x, quot;
  int ok = 1, ended;
  if (!gamq__rsqf_occupied(f, fq)) return GAMQ__QF_STEP_NOT_FOUND;
  gamq__rsqf_run_lim(f, fq, lo, lim, &start, &end, &ok);
  if (!ok) return GAMQ__QF_STEP_OUT;
  for (p = start; p < end && gamq__rsqf_rem(f, p) < fr; ++p) {
  }
  if (p >= end || gamq__rsqf_rem(f, p) != fr) return GAMQ__QF_STEP_NOT_FOUND;
  ended = gamq__rsqf_runend(f, p);
  for (i = p, quot = fq;; i = j) {
    j = i + 1;
    if (j >= f->nslots) break;
    if (j >= lim) return GAMQ__QF_STEP_OUT;
    if (ended) {
      for (x = quot + 1; x < j && !gamq__rsqf_occupied(f, x); ++x) {
      }
      if (x >= j) break;
      quot = x;
    }
    ended = gamq__rsqf_runend(f, j);
  }
  return gamq__rsqf_delete(f, fq, fr) == GAMQ__QF_OK ? GAMQ__QF_STEP_OK : GAMQ__QF_STEP_NOT_FOUND;
}

/* The SQF winner's point operation. */
static inline GAMQ__HD int gamq__sqf_step(gamq__qf *f, int del, uint64_t fp) {
  const uint64_t fq = gamq__qf_quotient(f, fp), fr = gamq__qf_remainder(f, fp);
  gamq__qf_result res = del ? gamq__sqf_delete(f, fq, fr) : gamq__sqf_insert(f, fq, fr);
  return res == GAMQ__QF_OK ? GAMQ__QF_STEP_OK : res == GAMQ__QF_FULL ? GAMQ__QF_STEP_FULL : GAMQ__QF_STEP_NOT_FOUND;
}

/* One RSQF region's queue, items k0 .. k1-1 of the pending list: each goes
   in (keep 0) or waits (keep 1); a FULL insert stops the queue. Returns the
   items changed; *full = 1 on FULL. */
static inline GAMQ__HD uint64_t gamq__rsqf_queue(gamq__qf *f, int del, const uint64_t *fp, const uint32_t *idx, size_t k0,
                                                size_t k1, uint64_t lo, uint64_t hi, uint8_t *keep, int *full) {
  uint64_t changed = 0;
  size_t k;
  for (k = k0; k < k1; ++k) {
    const uint64_t x = gamq__qf_quotient(f, fp[idx[k]]), rem = gamq__qf_remainder(f, fp[idx[k]]);
    int res = *full ? GAMQ__QF_STEP_FULL : del ? gamq__rsqf_delete_in(f, x, rem, lo, hi) : gamq__rsqf_insert_in(f, x, rem, lo, hi);
    if (res == GAMQ__QF_STEP_FULL) *full = 1;
    changed += res == GAMQ__QF_STEP_OK;
    keep[k] = res == GAMQ__QF_STEP_OUT || res == GAMQ__QF_STEP_FULL;
  }
  return changed;
}

/* What a round leaves for the host to read back: one small struct. */
typedef struct gamq__qf_round_status {
  size_t pending;             /* written by the select */
  unsigned long long changed; /* items inserted / deleted so far */
  unsigned int full;          /* an insert found no room */
} gamq__qf_round_status;

static __global__ void gamq__qf_iota_kernel(uint32_t *idx, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    idx[i] = (uint32_t)i;
}
static __global__ void gamq__qf_gather_kernel(const uint64_t *fp, const uint32_t *idx, size_t n, uint64_t *out) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = fp[idx[i]];
}

/* The batch kernels count what they changed with this, once each thread's
   grid-stride loop is done (every lane of the 256-thread blocks calls it):
   one atomic per warp. An atomicAdd per window on the one counter
   serialised 2^20 atomics at one L2 address: 0.25-0.45 ms of the RSQF
   window writer (measured, H200). */
static __device__ __forceinline__ void gamq__warp_count(unsigned long long *p, unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(p, v);
}

/* SQF round, step 1 (supercluster bidding, Alg. 3 / 7): every pending item's
   group, from the filter as the round found it. */
static __global__ void gamq__sqf_bid_kernel(gamq__qf f, int del, const uint64_t *fp, const uint32_t *idx, size_t n,
                                            uint64_t *group) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x)
    group[k] = gamq__sqf_group(&f, del, gamq__qf_quotient(&f, fp[idx[k]]));
}
/* SQF round, step 2: the first item of each group wins and runs its point
   operation; no two winners touch the same slot (see 2b). */
static __global__ void gamq__sqf_apply_kernel(gamq__qf f, int del, const uint64_t *fp, const uint32_t *idx, size_t n,
                                              const uint64_t *group, uint8_t *keep, gamq__qf_round_status *st) {
  unsigned long long changed = 0;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
    const uint64_t g = group[k];
    if (del && (g & GAMQ__QF_NO_RUN)) { /* nothing of this quotient is stored */
      keep[k] = 0;
    } else if (k > 0 && (group[k - 1] & ~GAMQ__QF_NO_RUN) == (g & ~GAMQ__QF_NO_RUN)) {
      keep[k] = 1; /* lost the bid: next round */
    } else if (!del && g >= f.nslots) {
      keep[k] = 1;
      st->full = 1;
    } else {
      const int res = gamq__sqf_step(&f, del, fp[idx[k]]);
      changed += res == GAMQ__QF_STEP_OK;
      keep[k] = 0;
    }
  }
  gamq__warp_count(&st->changed, changed);
}
/* RSQF round (growing regions, Alg. 9): the first pending item of each
   region runs the region's queue. */
static __global__ void gamq__rsqf_region_kernel(gamq__qf f, int del, const uint64_t *fp, const uint32_t *idx, size_t n,
                                                uint64_t s, uint64_t p, uint8_t *keep, gamq__qf_round_status *st) {
  const uint64_t nblocks = f.nslots / 64;
  unsigned long long total = 0;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
    uint64_t lo, hi;
    const uint64_t g = gamq__rsqf_region(nblocks, gamq__qf_quotient(&f, fp[idx[k]]) >> 6, s, p, &lo, &hi);
    if (k > 0 && gamq__rsqf_region(nblocks, gamq__qf_quotient(&f, fp[idx[k - 1]]) >> 6, s, p, NULL, NULL) == g) continue;
    size_t k1 = k + 1;
    while (k1 < n && gamq__rsqf_region(nblocks, gamq__qf_quotient(&f, fp[idx[k1]]) >> 6, s, p, NULL, NULL) == g) ++k1;
    int full = 0;
    total += gamq__rsqf_queue(&f, del, fp, idx, k, k1, lo, hi, keep, &full);
    if (full) st->full = 1;
  }
  gamq__warp_count(&st->changed, total);
}

/* What gamq__cuda_qf_rounds did. */
typedef struct gamq__qf_rounds_out {
  size_t left;      /* items not applied (FULL, or max_rounds reached); rest[0 .. left) holds them, sorted */
  uint64_t changed; /* items inserted / deleted */
  int full;         /* an insert found no room (what went in is still in) */
  int rounds;
} gamq__qf_rounds_out;

/* In-place rounds over n sorted fingerprints (see 2b): del = 0 inserts, 1
   deletes. Stops when nothing is pending, on FULL, or after max_rounds;
   leaves the items not applied in rest (not overlapping fp). Synchronises
   the stream once per round. */
static inline cudaError_t gamq__cuda_qf_rounds(const gamq__qf *f, int del, const uint64_t *fp, size_t n, int max_rounds,
                                               uint64_t *rest, void *d_temp, size_t *temp_bytes, gamq__qf_rounds_out *out,
                                               cudaStream_t stream) {
  size_t sizes[6], sel_bytes = 0;
  void *ptrs[6];
  GPRIM_TRY(gprim_select_flagged((void *)NULL, &sel_bytes, (const uint32_t *)NULL, (const uint8_t *)NULL,
                                 (uint32_t *)NULL, (size_t *)NULL, n, stream));
  sizes[0] = sizes[1] = n * sizeof(uint32_t); /* pending lists, in turn */
  sizes[2] = f->kind == GAMQ__QF_SQF ? n * sizeof(uint64_t) : 0; /* groups */
  sizes[3] = n;                                /* keep flags */
  sizes[4] = sizeof(gamq__qf_round_status);
  sizes[5] = sel_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 6, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  uint32_t *idx = (uint32_t *)ptrs[0], *idx2 = (uint32_t *)ptrs[1];
  uint64_t *group = (uint64_t *)ptrs[2];
  uint8_t *keep = (uint8_t *)ptrs[3];
  gamq__qf_round_status *st = (gamq__qf_round_status *)ptrs[4], h;
  memset(out, 0, sizeof *out);
  memset(&h, 0, sizeof h);
  h.pending = n;
  if (n == 0) return cudaSuccess;
  GPRIM_TRY(cudaMemsetAsync(st, 0, sizeof *st, stream));
  gamq__qf_iota_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(idx, n);
  GPRIM_TRY(cudaGetLastError());
  while (h.pending > 0 && !h.full && out->rounds < max_rounds) {
    const size_t m = h.pending;
    const unsigned grid = gamq__grid(m, 256);
    if (f->kind == GAMQ__QF_SQF) {
      gamq__sqf_bid_kernel<<<grid, 256, 0, stream>>>(*f, del, fp, idx, m, group);
      GPRIM_TRY(cudaGetLastError());
      gamq__sqf_apply_kernel<<<grid, 256, 0, stream>>>(*f, del, fp, idx, m, group, keep, st);
    } else {
      uint64_t s, p;
      gamq__rsqf_schedule(f->nslots / 64, out->rounds, &s, &p);
      gamq__rsqf_region_kernel<<<grid, 256, 0, stream>>>(*f, del, fp, idx, m, s, p, keep, st);
    }
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gprim_select_flagged(ptrs[5], &sizes[5], (const uint32_t *)idx, (const uint8_t *)keep, idx2, &st->pending,
                                   m, stream));
    GPRIM_TRY(cudaMemcpyAsync(&h, st, sizeof h, cudaMemcpyDeviceToHost, stream));
    GPRIM_TRY(cudaStreamSynchronize(stream));
    uint32_t *t = idx;
    idx = idx2, idx2 = t;
    out->rounds++;
  }
  out->left = h.pending, out->changed = h.changed, out->full = h.full != 0;
  if (h.pending > 0) {
    gamq__qf_gather_kernel<<<gamq__grid(h.pending, 256), 256, 0, stream>>>(fp, idx, h.pending, rest);
    GPRIM_TRY(cudaGetLastError());
  }
  return cudaSuccess;
}

/* ---------------------------------------------------------------------------
   2c. in-place batches by window re-layout (the CUDA default for batches
       small against the filter; gamq__qf_cuda_windows in gpuamq.h drives it)

   One layout per multiset makes a batch a local rewrite: the bytes change
   only in windows of slots, and each window's new layout is the position
   scan of its old items merged with (inserts) or minus (deletes) the batch
   items that fall in it. A window starts at a STRETCH START a (slot a - 1
   unused: nothing before a moves into it) and one thread rewrites it in one
   pass; there are no rounds.
     BOUNDS  thread per sorted batch item: a = the stretch start of its home
             slot h (h itself when unused); inserts also t = the first unused
             slot at or after h. Items with equal a form a group (contiguous
             in the sorted batch: a is monotone in h).
     CHAINS  inserts, thread per chain head: k items fill the first k unused
             slots at or after t, so the new stretch is [a, z) with z - 1 the
             k-th unused slot at or after t (old stretches it reaches are
             absorbed). When z passes the next group's a the two are one
             window: the head links it and recomputes, as long as its window
             grows into the next group. A link is set only on a real overlap,
             so links only grow; a launch that adds none is the fixed point
             (usually the second; one 4-byte read back each). z > nslots:
             FULL, before anything was written.
     WRITE   inserts right to left over [a, z): the old items decoded from
             the top (runs pair with the occupied quotients in order) merged
             with the window's batch items, each written at its final slot;
             old items never move left, so a slot is read before it is
             written. Deletes left to right over the old stretch: survivors
             at max(previous + 1, quotient); items never move right; SQF
             occupied bits stay until their run is known to be empty. RSQF
             blocks are shared by windows: a window changes only its own
             bits, as one atomic XOR per 64-bit word it leaves (XORs of
             disjoint bit sets commute), and reads only its own bits; the
             offsets of blocks starting inside a window are its own bytes.
             The order of windows does not matter (the tests' host simulation runs
             them shuffled). RSQF windows of ONE key (99% of them for 2^20
             keys into 2^30 slots) take a word-by-word path instead
             (gamq__win_insert1 / _delete1): the key's run found by counting
             bits, the shift done as 64-bit word moves; same bytes.
   Work is linear in window lengths; the span is the longest window (one
   thread): tens to a few hundred slots at 70-90% fill. The kernels count
   what they changed once per warp (gamq__warp_count).
   ------------------------------------------------------------------------- */
#define GAMQ__NONE (~(uint64_t)0)

/* RSQF: whether slot 64b + i is in no run, from block b's words occ / ends
   and stored offset off alone. Slots below the offset hold the spill of
   earlier quotients' runs; from the offset on, slot i is unused exactly
   when the runs of the block's quotients <= i all ended before it: runends
   in [off, i) >= occupied quotients in [0, i] (a run starts at or after its
   quotient, so none of a larger one covers i). A stored offset >= 64 (255,
   "255 or more", included) means the whole block is spill. Two popcounts a
   slot, where the walk from a block's true offset takes a rank and a select. */
static inline GAMQ__HD int gamq__rsqf_unused_in(uint64_t occ, uint64_t ends, uint64_t off, int i) {
  if ((uint64_t)i < off) return 0;
  return gamq__popcount64(ends & (((uint64_t)1 << i) - 1) & ~(((uint64_t)1 << off) - 1)) >=
         gamq__popcount64(occ & (((uint64_t)2 << i) - 1));
}
/* The first unused slot at or after s (nslots: none); the RSQF block by
   block, slot by slot from the block's words. */
static inline GAMQ__HD uint64_t gamq__qf_next_unused(const gamq__qf *f, uint64_t s) {
  uint64_t b;
  int i;
  if (f->kind == GAMQ__QF_SQF) return gamq__sqf_next_empty(f, s);
  for (b = s >> 6, i = (int)(s & 63); b < f->nslots / 64; ++b, i = 0) {
    const uint64_t occ = gamq__rsqf_occupieds(f, b), ends = gamq__rsqf_runends(f, b), off = gamq__rsqf_stored_offset(f, b);
    for (; i < 64; ++i)
      if (gamq__rsqf_unused_in(occ, ends, off, i)) return 64 * b + (uint64_t)i;
  }
  return f->nslots;
}
/* BOUNDS of home slot h. Inserts: a = t = the first unused slot at or after
   h (the group key: one stretch, one t). Deletes: a = the start of h's
   stretch (h when unused) and t = 1 when h is used (the stretch holds
   items), else 0 - the write kernel must not look (it would read blocks
   other windows write). */
static inline GAMQ__HD void gamq__win_bounds(const gamq__qf *f, int del, uint64_t h, uint64_t *a, uint64_t *t) {
  if (!del) {
    *a = *t = gamq__qf_next_unused(f, h);
    return;
  }
  if (f->kind == GAMQ__QF_SQF) {
    if (gamq__sqf_empty(f, h)) {
      *a = h, *t = 0;
      return;
    }
    *a = h > 0 ? gamq__sqf_prev_with(f, h - 1, 7u, 0) + 1 : 0, *t = 1; /* after the last empty slot below h (~0 + 1 = 0: none) */
    return;
  }
  { /* RSQF: the last unused slot at or below h, block by block: h itself (home unused), or the one the stretch starts after */
    uint64_t b = h >> 6;
    int i = (int)(h & 63) + 1;
    for (;; --b, i = 64) {
      const uint64_t occ = gamq__rsqf_occupieds(f, b), ends = gamq__rsqf_runends(f, b), off = gamq__rsqf_stored_offset(f, b);
      while (i-- > 0)
        if (gamq__rsqf_unused_in(occ, ends, off, i)) {
          const uint64_t u = 64 * b + (uint64_t)i;
          *a = u == h ? h : u + 1, *t = u != h;
          return;
        }
      if (b == 0) break;
    }
    *a = 0, *t = 1;
  }
}
static inline GAMQ__HD int gamq__win_head(const uint64_t *A, size_t i) { return i == 0 || A[i] != A[i - 1]; }
static inline GAMQ__HD size_t gamq__win_group_end(const uint64_t *A, size_t n, size_t i) {
  size_t j = i + 1;
  while (j < n && A[j] == A[i]) ++j;
  return j;
}
/* A chain head's window: items [i, *j) (its group and the linked ones after
   it), and z (nslots + 1: no room). */
static inline GAMQ__HD uint64_t gamq__win_chain(const gamq__qf *f, const uint64_t *A, const uint64_t *T, const uint8_t *link,
                                               size_t n, size_t i, size_t *jend) {
  size_t j = gamq__win_group_end(A, n, i);
  uint64_t k, t = T[i];
  while (j < n && link[j]) j = gamq__win_group_end(A, n, j);
  *jend = j;
  for (k = j - i;; ++t) { /* the k-th unused slot at or after t */
    t = gamq__qf_next_unused(f, t);
    if (t >= f->nslots) return f->nslots + 1;
    if (--k == 0) return t + 1;
  }
}

/* RSQF writes: a pending XOR of one 64-bit word, and the word's value when
   the window first touched it. Each bit is written at most once a batch and
   only by its window, so the bits a window writes still hold their old
   values there: one load a word, not one a slot. */
typedef struct gamq__win_acc {
  uint64_t *w, x, old;
} gamq__win_acc;
static inline GAMQ__HD void gamq__win_flush(gamq__win_acc *c) {
  if (c->w != NULL && c->x != 0) {
#if defined(__CUDA_ARCH__)
    atomicXor((unsigned long long *)c->w, (unsigned long long)c->x);
#else
    *c->w ^= c->x;
#endif
  }
  c->w = NULL, c->x = 0;
}
/* The bits mask of word *w become those of val. */
static inline GAMQ__HD void gamq__win_put(gamq__win_acc *c, uint64_t *w, uint64_t val, uint64_t mask) {
  if (c->w != w) {
    gamq__win_flush(c);
    c->w = w, c->old = *w;
  }
  c->x ^= (c->old ^ val) & mask;
}
/* Slot s's bit of block word 0 (occupieds) or 1 (runends) becomes v. */
static inline GAMQ__HD void gamq__win_set_bit(const gamq__qf *f, gamq__win_acc *c, uint64_t s, int word, int v) {
  const uint64_t m = (uint64_t)1 << (s & 63);
  gamq__win_put(c, (uint64_t *)gamq__rsqf_block(f, s >> 6) + word, v ? m : 0, m);
}
/* Slot s's remainder becomes rem; down = 1 when slots are written right to
   left (the high word first, so the pending word only moves one way). */
static inline GAMQ__HD void gamq__win_set_rem(const gamq__qf *f, gamq__win_acc *c, uint64_t s, uint64_t rem, int down) {
  uint64_t *base = (uint64_t *)(gamq__rsqf_block(f, s >> 6) + gamq__rsqf_rem_byte(f)); /* 8-byte aligned in both layouts */
  const uint64_t bit = (s & 63) * (uint64_t)f->r, k = bit >> 6, sh = bit & 63, m = ((uint64_t)1 << f->r) - 1;
  const int two = sh + (uint64_t)f->r > 64; /* the remainder spans words k and k + 1 */
  if (down && two) gamq__win_put(c, base + k + 1, rem >> (64 - sh), m >> (64 - sh));
  gamq__win_put(c, base + k, rem << sh, m << sh);
  if (!down && two) gamq__win_put(c, base + k + 1, rem >> (64 - sh), m >> (64 - sh));
}
/* RSQF reads of the decoder: the last word loaded, kept while the walk
   stays in it. The decoder reads a slot before any window writes it, so a
   kept word still holds the old values of the bits it reads. */
typedef struct gamq__win_rd {
  const uint64_t *p;
  uint64_t v;
} gamq__win_rd;
static inline GAMQ__HD uint64_t gamq__win_word(gamq__win_rd *c, const uint64_t *p) {
  if (c->p != p) c->p = p, c->v = *p;
  return c->v;
}
static inline GAMQ__HD int gamq__win_runend(const gamq__qf *f, gamq__win_rd *c, uint64_t s) {
  return (int)((gamq__win_word(c, (const uint64_t *)gamq__rsqf_block(f, s >> 6) + 1) >> (s & 63)) & 1);
}
static inline GAMQ__HD uint64_t gamq__win_occupieds(const gamq__qf *f, gamq__win_rd *c, uint64_t b) {
  return gamq__win_word(c, (const uint64_t *)gamq__rsqf_block(f, b));
}
/* Slot s's remainder; down as for gamq__win_set_rem (the word the walk
   goes on in is loaded last). */
static inline GAMQ__HD uint64_t gamq__win_rem(const gamq__qf *f, gamq__win_rd *c, uint64_t s, int down) {
  const uint64_t *base = (const uint64_t *)(gamq__rsqf_block(f, s >> 6) + gamq__rsqf_rem_byte(f));
  const uint64_t bit = (s & 63) * (uint64_t)f->r, k = bit >> 6, sh = bit & 63;
  const int two = sh + (uint64_t)f->r > 64;
  uint64_t v = 0;
  if (down && two) v = gamq__win_word(c, base + k + 1) << (64 - sh);
  v |= gamq__win_word(c, base + k) >> sh;
  if (!down && two) v |= gamq__win_word(c, base + k + 1) << (64 - sh);
  return v & (((uint64_t)1 << f->r) - 1);
}
/* The largest occupied quotient in [lo, x) / the smallest in (x, lim]; NONE.
   The RSQF reads its occupieds through c. */
static inline GAMQ__HD uint64_t gamq__win_prev_occ(const gamq__qf *f, gamq__win_rd *c, uint64_t x, uint64_t lo) {
  if (f->kind == GAMQ__QF_SQF) {
    while (x > lo)
      if (gamq__sqf_occupied(f, --x)) return x;
    return GAMQ__NONE;
  }
  while (x > lo) {
    const uint64_t y = x - 1, m = (y & 63) == 63 ? ~(uint64_t)0 : ((uint64_t)2 << (y & 63)) - 1;
    const uint64_t wd = gamq__win_occupieds(f, c, y >> 6) & m;
    if (wd) {
      const uint64_t p = (y & ~(uint64_t)63) + (uint64_t)gamq__select64(wd, gamq__popcount64(wd) - 1);
      return p >= lo ? p : GAMQ__NONE;
    }
    x = y & ~(uint64_t)63;
  }
  return GAMQ__NONE;
}
static inline GAMQ__HD uint64_t gamq__win_next_occ(const gamq__qf *f, gamq__win_rd *c, uint64_t x, uint64_t lim) {
  uint64_t y = x + 1;
  if (f->kind == GAMQ__QF_SQF) {
    for (; y <= lim && y < f->nslots; ++y)
      if (gamq__sqf_occupied(f, y)) return y;
    return GAMQ__NONE;
  }
  while (y <= lim && y < f->nslots) {
    const uint64_t wd = gamq__win_occupieds(f, c, y >> 6) >> (y & 63);
    if (wd) {
      y += (uint64_t)gamq__select64(wd, 0);
      return y <= lim ? y : GAMQ__NONE;
    }
    y = (y | 63) + 1;
  }
  return GAMQ__NONE;
}

/* INSERT the sorted batch items fp[i0 .. i1) into the window that ends at z
   (z - 1 is the last old unused slot they fill), right to left: the old
   items are decoded from the top and merged with the batch's. Once the
   smallest batch item N is placed every item below it keeps its slot, so
   the pass stops there: only the run marks between N and the item right
   below it are fixed (SQF N's continuation bit, the RSQF runend bit below
   N) and the SQF occupied bits of batch homes below N set. Every old item
   larger than N sits at or above N's home, so the decoder never reads
   below it (nor another window's slots). Returns 0 when the items do not
   fit the window (cannot happen). */
static inline GAMQ__HD int gamq__win_insert(gamq__qf *f, const uint64_t *fp, size_t i0, size_t i1, uint64_t z) {
  const int sqf = f->kind == GAMQ__QF_SQF;
  const uint64_t lo = gamq__qf_quotient(f, fp[i0]);
  uint64_t u = z, oq = z, oldq = 0, oldr = 0, oldpos = 0, w = z, pq = 0, pr = 0, lastnew = GAMQ__NONE, v;
  uint64_t B = (z - 1) & ~(uint64_t)63; /* the next block start below z whose offset is due */
  size_t k = i1, hp = i1;
  int need = 1, inrun = 0, have = 0, pend = 0;
  gamq__win_acc rem = {NULL, 0, 0}, ends = {NULL, 0, 0}, occ = {NULL, 0, 0};
  gamq__win_rd rc = {NULL, 0}, ec = {NULL, 0}, oc = {NULL, 0}; /* the decoder's remainder, runend, occupied words */
  for (;;) {
    uint64_t q, rr;
    while (!have && u > lo) { /* the next old item, from the top */
      --u;
      if (sqf) {
        v = gamq__sqf_get(f, u);
        if ((v & 7u) == 0) continue;
        if (need) oq = gamq__win_prev_occ(f, &oc, oq, 0);
        need = (v & GAMQ__SQF_CONTINUATION) == 0;
        oldq = oq, oldr = v >> 3, oldpos = u, have = 1;
      } else if (gamq__win_runend(f, &ec, u)) {
        oq = gamq__win_prev_occ(f, &oc, oq, 0);
        inrun = 1, oldq = oq, oldr = gamq__win_rem(f, &rc, u, 1), oldpos = u, have = 1;
      } else if (inrun && u >= oq) {
        oldq = oq, oldr = gamq__win_rem(f, &rc, u, 1), oldpos = u, have = 1;
      } else {
        inrun = 0;
      }
      if (oq == GAMQ__NONE) return 0;
    }
    if (k == i0) break;
    if (w == 0) return 0;
    --w; /* place the larger of the next old and the next batch item at w */
    if (!have || fp[k - 1] >= ((oldq << f->r) | oldr)) {
      --k;
      q = gamq__qf_quotient(f, fp[k]), rr = gamq__qf_remainder(f, fp[k]);
      if (!sqf && q != lastnew) gamq__win_set_bit(f, &occ, q, 0, 1);
      lastnew = q;
    } else {
      q = oldq, rr = oldr, have = 0;
    }
    if (sqf) { /* slot w + 1 is complete now that its lower neighbour is known */
      if (pend) {
        while (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) > w + 1) --hp;
        v = (gamq__sqf_get(f, w + 1) & GAMQ__SQF_OCCUPIED) | (pr << 3) | (pq == q ? GAMQ__SQF_CONTINUATION : 0) |
            (pq != w + 1 ? GAMQ__SQF_SHIFTED : 0);
        if (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) == w + 1) v |= GAMQ__SQF_OCCUPIED;
        gamq__sqf_put(f, w + 1, v);
      }
      pq = q, pr = rr, pend = 1;
    } else {
      gamq__win_set_rem(f, &rem, w, rr, 1);
      gamq__win_set_bit(f, &ends, w, 1, w == z - 1 || pq != q);
      pq = q;
      for (; B > q; B -= 64) gamq__rsqf_store_offset(f, B >> 6, w + 1 > B ? w + 1 - B : 0);
    }
  }
  /* N (quotient pq) is at w; the item right below it, if at or above N's
     home, was decoded */
  const int next_to = have && oldpos + 1 == w, below = next_to && oldq == pq; /* below: the same run */
  if (sqf) {
    while (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) > w) --hp;
    v = (gamq__sqf_get(f, w) & GAMQ__SQF_OCCUPIED) | (pr << 3) | (below ? GAMQ__SQF_CONTINUATION : 0) |
        (pq != w ? GAMQ__SQF_SHIFTED : 0);
    if (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) == w) v |= GAMQ__SQF_OCCUPIED;
    gamq__sqf_put(f, w, v);
    for (k = i0; k < i1 && gamq__qf_quotient(f, fp[k]) < w; ++k) gamq__sqf_set_occupied(f, gamq__qf_quotient(f, fp[k]), 1);
  } else {
    if (next_to) gamq__win_set_bit(f, &ends, w - 1, 1, !below);
    gamq__win_flush(&rem), gamq__win_flush(&ends), gamq__win_flush(&occ);
  }
  return 1;
}

/* DELETE one copy of each of fp[i0 .. i1) present in the (non-empty)
   stretch that starts at a; left to right, survivors at max(previous + 1,
   quotient). Returns how many were removed. */
static inline GAMQ__HD uint64_t gamq__win_delete(gamq__qf *f, const uint64_t *fp, size_t i0, size_t i1, uint64_t a) {
  const int sqf = f->kind == GAMQ__QF_SQF;
  uint64_t u = a, oq = a, w = a, changed = 0, kept = 0, prev = GAMQ__NONE, pq = 0, v = 0;
  uint64_t B = (a | 63) + 1; /* the next block start above a whose offset is due */
  size_t k = i0;
  int first = 1, ended = 0;
  gamq__win_acc rem = {NULL, 0, 0}, ends = {NULL, 0, 0}, occ = {NULL, 0, 0};
  gamq__win_rd rc = {NULL, 0}, ec = {NULL, 0}, oc = {NULL, 0}; /* the decoder's remainder, runend, occupied words */
  for (; u < f->nslots; ++u) {
    uint64_t q, rr, x, s;
    if (sqf) { /* the next old item */
      v = gamq__sqf_get(f, u);
      if ((v & 7u) == 0) break;
      if (!first && !(v & GAMQ__SQF_CONTINUATION)) { /* a new run */
        if (kept == 0) gamq__sqf_set_occupied(f, oq, 0);
        oq = gamq__win_next_occ(f, &oc, oq, u), kept = 0;
      }
      rr = v >> 3;
    } else {
      if (!first && ended) { /* the next run starts here, or the stretch ended */
        const uint64_t y = gamq__win_next_occ(f, &oc, oq, u);
        if (y == GAMQ__NONE) break;
        if (kept == 0) gamq__win_set_bit(f, &occ, oq, 0, 0);
        oq = y, kept = 0;
      }
      rr = gamq__win_rem(f, &rc, u, 0);
      ended = gamq__win_runend(f, &ec, u);
    }
    first = 0;
    q = oq, x = (q << f->r) | rr;
    while (k < i1 && fp[k] < x) ++k;
    if (k < i1 && fp[k] == x) { /* deleted */
      ++k, ++changed;
      continue;
    }
    s = w > q ? w : q; /* a survivor: slots w .. s-1 stay unused */
    if (!sqf) {
      if (prev != GAMQ__NONE) gamq__win_set_bit(f, &ends, prev, 1, pq != q);
      for (; B <= q; B += 64) gamq__rsqf_store_offset(f, B >> 6, prev != GAMQ__NONE && prev + 1 > B ? prev + 1 - B : 0);
    }
    for (; w < s; ++w) {
      if (sqf) {
        gamq__sqf_put(f, w, gamq__sqf_get(f, w) & GAMQ__SQF_OCCUPIED);
      } else {
        gamq__win_set_rem(f, &rem, w, 0, 0);
        gamq__win_set_bit(f, &ends, w, 1, 0);
      }
    }
    if (sqf)
      gamq__sqf_put(f, s, (gamq__sqf_get(f, s) & GAMQ__SQF_OCCUPIED) | (rr << 3) |
                              (prev != GAMQ__NONE && pq == q ? GAMQ__SQF_CONTINUATION : 0) | (s != q ? GAMQ__SQF_SHIFTED : 0));
    else
      gamq__win_set_rem(f, &rem, s, rr, 0);
    prev = s, pq = q, w = s + 1, ++kept;
  }
  if (kept == 0) {
    if (sqf) gamq__sqf_set_occupied(f, oq, 0);
    else gamq__win_set_bit(f, &occ, oq, 0, 0);
  }
  if (!sqf) {
    if (prev != GAMQ__NONE) gamq__win_set_bit(f, &ends, prev, 1, 1);
    for (; B < u; B += 64) gamq__rsqf_store_offset(f, B >> 6, prev != GAMQ__NONE && prev + 1 > B ? prev + 1 - B : 0);
  }
  for (; w < u; ++w) { /* the stretch's tail is unused now */
    if (sqf) {
      gamq__sqf_put(f, w, 0);
    } else {
      gamq__win_set_rem(f, &rem, w, 0, 0);
      gamq__win_set_bit(f, &ends, w, 1, 0);
    }
  }
  if (!sqf) gamq__win_flush(&rem), gamq__win_flush(&ends), gamq__win_flush(&occ);
  return changed;
}

/* ---- RSQF windows of one batch item, word by word ----
   Most windows hold one item (2^20 keys into 2^30 slots: 99%). For those
   the RSQF is changed the way its layout allows: the item's run is found
   by counting bits, and the slots between the item and the end of the
   shift move one slot as whole 64-bit words (64 / r remainders a word), not
   slot by slot through the merge above. The result is the same bytes.
   Everything read is in the window's own stretch (or the unused slot that
   ends it), as above. */

/* Bits [lo, hi) of a word, 0 <= lo < hi <= 64. */
static inline GAMQ__HD uint64_t gamq__bit_range(uint64_t lo, uint64_t hi) {
  return (hi >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << hi) - 1) & (~(uint64_t)0 << lo);
}
static inline GAMQ__HD void gamq__win_xor_now(uint64_t *w, uint64_t x) {
  gamq__win_acc c = {w, x, 0};
  gamq__win_flush(&c);
}
/* The slots [*s0, *s1) of block b that lie in [lo, hi] (b in lo / 64 .. hi / 64). */
static inline GAMQ__HD void gamq__win_span(uint64_t b, uint64_t lo, uint64_t hi, uint64_t *s0, uint64_t *s1) {
  *s0 = b == lo >> 6 ? lo & 63 : 0;
  *s1 = b == hi >> 6 ? (hi & 63) + 1 : 64;
}
/* Set bits of block word `word` (0 occupieds, 1 runends) in slots [lo, hi]. */
static inline GAMQ__HD uint64_t gamq__win_count(const gamq__qf *f, int word, uint64_t lo, uint64_t hi) {
  uint64_t b, c = 0, s0, s1;
  for (b = lo >> 6; lo <= hi && b <= hi >> 6; ++b) {
    gamq__win_span(b, lo, hi, &s0, &s1);
    c += (uint64_t)gamq__popcount64(((const uint64_t *)gamq__rsqf_block(f, b))[word] & gamq__bit_range(s0, s1));
  }
  return c;
}
/* The d-th (d >= 1) runend counting down from slot hi to slot lo; NONE if
   there are fewer. */
static inline GAMQ__HD uint64_t gamq__win_runend_below(const gamq__qf *f, uint64_t lo, uint64_t hi, uint64_t d) {
  uint64_t b, s0, s1;
  for (b = hi >> 6; lo <= hi; --b) {
    gamq__win_span(b, lo, hi, &s0, &s1);
    const uint64_t w = gamq__rsqf_runends(f, b) & gamq__bit_range(s0, s1), c = (uint64_t)gamq__popcount64(w);
    if (c >= d) return 64 * b + (uint64_t)gamq__select64(w, (int)(c - d));
    d -= c;
    if (b == lo >> 6) break;
  }
  return GAMQ__NONE;
}
/* Slots [lo, hi] of the per-block array at byte `at` of each block (width
   bits a slot: runends at 8 with width 1, the remainders with width r) take
   the values of the slots one below (up) or one above (!up; slot hi + 1
   exists). Each old word is read before it is written, and only the
   range's bits change (an XOR, like the windows above). */
static inline GAMQ__HD void gamq__win_move(const gamq__qf *f, int at, uint64_t width, uint64_t lo, uint64_t hi, int up) {
  const uint64_t nblocks = f->nslots / 64;
  uint64_t b, prev = 0, s0, s1;
  for (b = lo >> 6; lo <= hi && b <= hi >> 6; ++b) {
    uint64_t *w = (uint64_t *)(gamq__rsqf_block(f, b) + at);
    gamq__win_span(b, lo, hi, &s0, &s1);
    const uint64_t b0 = s0 * width, b1 = s1 * width, klast = (b1 - 1) >> 6; /* the slots' bits [b0, b1) */
    uint64_t k = b0 >> 6, cur;
    if (up && b == lo >> 6) /* the word below the first one written */
      prev = k > 0 ? w[k - 1] : b > 0 ? ((const uint64_t *)(gamq__rsqf_block(f, b - 1) + at))[width - 1] : 0;
    for (cur = w[k]; k <= klast; ++k) {
      const uint64_t m = gamq__bit_range(64 * k < b0 ? b0 - 64 * k : 0, b1 - 64 * k < 64 ? b1 - 64 * k : 64);
      uint64_t nw, next = 0;
      if (up) {
        nw = (cur << width) | (prev >> (64 - width));
        prev = cur;
      } else {
        if (k + 1 < width) next = w[k + 1];
        else if (b + 1 < nblocks) next = ((const uint64_t *)(gamq__rsqf_block(f, b + 1) + at))[0];
        nw = (cur >> width) | (next << (64 - width));
      }
      gamq__win_xor_now(w + k, (cur ^ nw) & m);
      if (k + 1 <= klast) cur = up ? w[k + 1] : next;
    }
  }
}
/* Slot s's remainder (0 clears it) / runend bit becomes v, right now. */
static inline GAMQ__HD void gamq__win_put_rem(const gamq__qf *f, uint64_t s, uint64_t v) {
  gamq__win_acc c = {NULL, 0, 0};
  gamq__win_set_rem(f, &c, s, v, 0);
  gamq__win_flush(&c);
}
static inline GAMQ__HD void gamq__win_put_bit(const gamq__qf *f, uint64_t s, int word, int v) {
  gamq__win_acc c = {NULL, 0, 0};
  gamq__win_set_bit(f, &c, s, word, v);
  gamq__win_flush(&c);
}
/* INSERT fingerprint x alone; t = the first unused slot at or after its
   quotient q. The runs in [q, t) are, from the top, those of the occupied
   quotients in (q, t) and then q's (or the one before, spilled past q).
   x goes to slot P (after the equal and smaller remainders of its run, or
   after the runs below q), the items in [P, t) move up one, and the blocks
   that start in (q, t] have one more slot of spill. */
static inline GAMQ__HD void gamq__win_insert1(gamq__qf *f, uint64_t x, uint64_t t) {
  const uint64_t q = gamq__qf_quotient(f, x), xr = gamq__qf_remainder(f, x);
  const int occ = gamq__rsqf_occupied(f, q);
  const uint64_t above = q + 1 < t ? gamq__win_count(f, 0, q + 1, t - 1) : 0; /* runs above q's */
  const uint64_t e = q < t ? gamq__win_runend_below(f, q, t - 1, above + 1) : GAMQ__NONE;
  uint64_t P, b;
  if (occ) { /* q's run is [its start, e] */
    const uint64_t below = e > q ? gamq__win_runend_below(f, q, e - 1, 1) : GAMQ__NONE;
    for (P = below == GAMQ__NONE ? q : below + 1; P <= e && gamq__rsqf_rem(f, P) <= xr;) ++P;
  } else {
    P = e == GAMQ__NONE ? q : e + 1;
  }
  gamq__win_move(f, gamq__rsqf_rem_byte(f), (uint64_t)f->r, P + 1, t, 1);
  gamq__win_move(f, 8, 1, P + 1, t, 1);
  gamq__win_put_rem(f, P, xr);
  if (!occ) {
    gamq__win_put_bit(f, q, 0, 1);
    gamq__win_put_bit(f, P, 1, 1); /* a run of one */
  } else if (P == e + 1) {        /* x ends its run */
    gamq__win_put_bit(f, e, 1, 0);
    gamq__win_put_bit(f, P, 1, 1);
  } else {
    gamq__win_put_bit(f, P, 1, 0);
  }
  for (b = (q >> 6) + 1; b <= t >> 6; ++b) {
    const uint64_t o = gamq__rsqf_stored_offset(f, b);
    if (o < GAMQ__RSQF_OFFSET_MAX) gamq__rsqf_store_offset(f, b, o + 1);
  }
}
/* DELETE one copy of x alone from the stretch that starts at a. q's run is
   the j-th of the stretch (j: occupied quotients in [a, q]). After the copy
   at slot D, the items move down one up to F: the first slot with no run
   open (unused, or an item at its home). Blocks that start in (q, F) lose
   one slot of spill; a saturated one (255, "255 or more") is not known
   exactly: returns -1 before anything changed and the caller takes the
   slot-by-slot path. Returns 1 deleted, 0 absent. */
static inline GAMQ__HD int gamq__win_delete1(gamq__qf *f, uint64_t x, uint64_t a) {
  const uint64_t q = gamq__qf_quotient(f, x), xr = gamq__qf_remainder(f, x);
  uint64_t j, e, rs, D, F, open, b, r = 0;
  gamq__win_rd oc = {NULL, 0}, ec = {NULL, 0};
  if (!gamq__rsqf_occupied(f, q)) return 0;
  j = gamq__win_count(f, 0, a, q);
  rs = j > 1 ? gamq__rsqf_select_runend(f, a, j - 1) + 1 : a; /* q's run is [rs, e] */
  e = gamq__rsqf_select_runend(f, rs, 1);
  for (D = rs; D <= e && (r = gamq__rsqf_rem(f, D)) < xr;) ++D;
  if (D > e || r != xr) return 0;
  /* runs open at slot D + 1: occupieds in [a, D] (j, and those in (q, D])
     less runends in [a, D] (the j - 1 runs before q's, and e if D = e) */
  open = 1 + (D > q ? gamq__win_count(f, 0, q + 1, D) : 0) - (D == e);
  for (F = D + 1; open > 0 && F < f->nslots; ++F)
    open += ((gamq__win_occupieds(f, &oc, F >> 6) >> (F & 63)) & 1) - (uint64_t)gamq__win_runend(f, &ec, F);
  for (b = (q >> 6) + 1; 64 * b < F; ++b)
    if (gamq__rsqf_stored_offset(f, b) == GAMQ__RSQF_OFFSET_MAX) return -1;
  if (rs == e) gamq__win_put_bit(f, q, 0, 0); /* its only item */
  else if (D == e) gamq__win_put_bit(f, D - 1, 1, 1);
  if (F > D + 1) { /* items in (D, F) */
    gamq__win_move(f, gamq__rsqf_rem_byte(f), (uint64_t)f->r, D, F - 2, 0);
    gamq__win_move(f, 8, 1, D, F - 2, 0);
  }
  gamq__win_put_rem(f, F - 1, 0);
  gamq__win_put_bit(f, F - 1, 1, 0);
  for (b = (q >> 6) + 1; 64 * b < F; ++b) gamq__rsqf_store_offset(f, b, gamq__rsqf_stored_offset(f, b) - 1);
  return 1;
}

/* What one thread of the chain and write launches does for item i (the
   kernels and the tests' host simulation call these). Chain: flags |= 1 FULL,
   2 a link was added. Write: *changed += items inserted / deleted; returns
   0 when a window did not fill (cannot happen). */
static inline GAMQ__HD unsigned gamq__win_chain_one(const gamq__qf *f, const uint64_t *A, const uint64_t *T, uint8_t *link,
                                                   size_t n, size_t i, uint64_t *Z) {
  size_t j;
  unsigned flags = 0;
  if (!gamq__win_head(A, i) || link[i]) return 0;
  for (;;) { /* absorb the next group while the window reaches it */
    Z[i] = gamq__win_chain(f, A, T, link, n, i, &j);
    if (Z[i] > f->nslots) return flags | 1u;
    if (j >= n || A[j] >= Z[i]) return flags;
    link[j] = 1, flags |= 2u;
  }
}
/* Write: which = 1 the RSQF's one-key windows, 2 the others, 3 both. The
   device runs 1 and then 2 as two launches (GAMQ__WIN_ONE, GAMQ__WIN_MANY):
   the one-key kernel is small (about a third of the registers of the
   slot-by-slot writer), so many more of its threads are resident to hide
   their memory latency. A one-key delete that must take the slot-by-slot
   path (a saturated offset) sets link[i] (deletes have no chains) for
   pass 2. */
#define GAMQ__WIN_ONE 1
#define GAMQ__WIN_MANY 2
static inline GAMQ__HD int gamq__win_write_one(gamq__qf *f, int del, const uint64_t *fp, const uint64_t *A, const uint64_t *T,
                                              uint8_t *link, const uint64_t *Z, size_t n, size_t i, uint64_t *changed,
                                              int which) {
  size_t j;
  int one;
  if (!gamq__win_head(A, i)) return 1;
  if (del) {
    j = gamq__win_group_end(A, n, i);
    if (T[i] == 0) return 1; /* home slots unused */
    one = f->kind == GAMQ__QF_RSQF && j == i + 1;
    if (one && (which & GAMQ__WIN_ONE)) {
      const int d = gamq__win_delete1(f, fp[i], A[i]);
      if (d >= 0) {
        *changed += (uint64_t)d;
        return 1;
      }
      link[i] = 1; /* for pass 2 */
    }
    if ((which & GAMQ__WIN_MANY) && (!one || link[i])) *changed += gamq__win_delete(f, fp, i, j, A[i]);
    return 1;
  }
  if (link[i]) return 1; /* inside an earlier group's window */
  for (j = gamq__win_group_end(A, n, i); j < n && link[j];) j = gamq__win_group_end(A, n, j);
  one = f->kind == GAMQ__QF_RSQF && j == i + 1;
  if (!(which & (one ? GAMQ__WIN_ONE : GAMQ__WIN_MANY))) return 1;
  *changed += j - i;
  if (one) {
    gamq__win_insert1(f, fp[i], Z[i] - 1);
    return 1;
  }
  return gamq__win_insert(f, fp, i, j, Z[i]);
}

/* The kernels (gamq__qf_cuda_windows runs them). */
static __global__ void gamq__win_bounds_kernel(gamq__qf f, int del, const uint64_t *fp, size_t n, uint64_t *A, uint64_t *T) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    gamq__win_bounds(&f, del, gamq__qf_quotient(&f, fp[i]), &A[i], &T[i]);
}
static __global__ void gamq__win_chain_kernel(gamq__qf f, const uint64_t *A, const uint64_t *T, uint8_t *link, size_t n,
                                              uint64_t *Z, unsigned int *flags) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const unsigned fl = gamq__win_chain_one(&f, A, T, link, n, i, Z);
    if (fl) atomicOr(flags, fl);
  }
}
template <int WHICH>
static __global__ void __launch_bounds__(256, WHICH == GAMQ__WIN_ONE ? 4 : 1) gamq__win_write_kernel(gamq__qf f, int del, const uint64_t *fp, const uint64_t *A, const uint64_t *T,
                                              uint8_t *link, const uint64_t *Z, size_t n, gamq__qf_round_status *st) {
  uint64_t c = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    if (!gamq__win_write_one(&f, del, fp, A, T, link, Z, n, i, &c, WHICH)) st->full = 2;
  gamq__warp_count(&st->changed, c);
}

/* ---------------------------------------------------------------------------
   3. blocked Bloom filter (gpuamq.h section 7 documents the layout and the
      false-positive rate; the HOST backend there is what these must equal,
      bit for bit)

   A key's block and bit positions come from GAMQ__HD functions defined with
   the host code at the end of gpuamq.h (declared here, ahead of their
   definitions), so both backends set and test the same bits.
     INSERT  one thread per key: the eight word masks in registers, one
             64-bit atomicOr per pair of words that gets a bit (at most
             four a key; OR is idempotent and commutes, so the bytes do not
             depend on the order of keys or on repeats).
     LOOKUP  four keys per thread: one 16- or 32-byte load of keys, then per
             key one 32-byte read of its block (two 16-byte read-only loads,
             all eight in flight together), each position tested by picking
             its word with three selects, and the four flags written as one
             32-bit store. Arrays not aligned for that take one key a thread.
   ------------------------------------------------------------------------- */
static inline GAMQ__HD uint64_t gamq__bloom_hash(uint64_t key, uint64_t seed);
static inline GAMQ__HD uint64_t gamq__bloom_block(uint64_t h, uint64_t num_blocks);
static inline GAMQ__HD void gamq__bloom_stream(uint64_t h, int k, uint64_t *lo, uint64_t *hi);
static inline GAMQ__HD uint64_t gamq__bloom_masks(uint64_t key, uint64_t seed, uint64_t num_blocks, int k,
                                                  uint32_t mask[8]);

template <typename K>
__global__ void __launch_bounds__(256)
    gamq__bloom_insert_kernel(uint32_t *words, uint64_t num_blocks, uint64_t seed, int k, const K *keys, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t m[8];
    uint64_t *block = reinterpret_cast<uint64_t *>(words + 8 * gamq__bloom_masks((uint64_t)keys[i], seed, num_blocks,
                                                                                  k, m));
#pragma unroll
    for (int w = 0; w < 4; ++w) { /* words 2w and 2w + 1 as one little-endian 64-bit word */
      const uint64_t m64 = m[2 * w] | (uint64_t)m[2 * w + 1] << 32;
      if (m64) atomicOr(reinterpret_cast<unsigned long long *>(block + w), (unsigned long long)m64);
    }
  }
}

/* 1 if every position of hash h is set in its block (words 0..3 in a, 4..7
   in b), else 0. Each position's word is picked by three selects on its
   bits (no dynamic register index); the stream shifts down a byte a step.
   Host code too, so the CPU-only tests check it against the layout. */
__host__ __device__ __forceinline__ uint32_t gamq__bloom_test(uint4 a, uint4 b, uint64_t h, int k) {
  uint64_t lo, hi;
  uint32_t ok = 1;
  gamq__bloom_stream(h, k, &lo, &hi);
  for (int i = 0; i < k; ++i, lo = (lo >> 8) | (hi << 56), hi >>= 8) {
    const uint32_t x = (uint32_t)lo & 0xff;
    const bool b7 = x & 128, b6 = x & 64, b5 = x & 32; /* word x >> 5 = (b7 b6 b5) */
    const uint32_t t0 = b7 ? b.x : a.x, t1 = b7 ? b.y : a.y, t2 = b7 ? b.z : a.z, t3 = b7 ? b.w : a.w;
    const uint32_t u0 = b6 ? t2 : t0, u1 = b6 ? t3 : t1;
    ok &= (b5 ? u1 : u0) >> (x & 31);
  }
  return ok & 1;
}

/* four consecutive keys from a 4 * sizeof(K)-aligned address */
__device__ __forceinline__ void gamq__load4(const uint32_t *p, uint64_t key[4]) {
  const uint4 v = __ldg(reinterpret_cast<const uint4 *>(p));
  key[0] = v.x, key[1] = v.y, key[2] = v.z, key[3] = v.w;
}
__device__ __forceinline__ void gamq__load4(const uint64_t *p, uint64_t key[4]) {
  const ulonglong2 v = __ldg(reinterpret_cast<const ulonglong2 *>(p));
  const ulonglong2 w = __ldg(reinterpret_cast<const ulonglong2 *>(p) + 1);
  key[0] = v.x, key[1] = v.y, key[2] = w.x, key[3] = w.y;
}

template <typename K, bool VEC>
__global__ void __launch_bounds__(256) gamq__bloom_lookup_kernel(const uint4 *blocks, uint64_t num_blocks,
                                                                 uint64_t seed, int k, const K *keys, size_t n,
                                                                 uint8_t *found) {
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
  const size_t groups = n / 4, tail = VEC ? 4 * groups : 0;
  for (size_t g = tid; VEC && g < groups; g += stride) {
    uint64_t key[4], h[4];
    uint4 a[4], b[4];
    uint32_t flags = 0;
    gamq__load4(keys + 4 * g, key);
#pragma unroll
    for (int j = 0; j < 4; ++j) { /* all eight block loads first, then the tests */
      h[j] = gamq__bloom_hash(key[j], seed);
      const uint4 *p = blocks + 2 * gamq__bloom_block(h[j], num_blocks);
      a[j] = __ldg(p), b[j] = __ldg(p + 1);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) flags |= gamq__bloom_test(a[j], b[j], h[j], k) << (8 * j);
    reinterpret_cast<uint32_t *>(found)[g] = flags;
  }
  for (size_t i = tail + tid; i < n; i += stride) {
    const uint64_t h = gamq__bloom_hash((uint64_t)keys[i], seed);
    const uint4 *p = blocks + 2 * gamq__bloom_block(h, num_blocks);
    found[i] = (uint8_t)gamq__bloom_test(__ldg(p), __ldg(p + 1), h, k);
  }
}

/* ---- the host side ---- */
static inline cudaError_t gamq__cuda_bloom_insert(uint32_t *words, uint64_t num_blocks, uint64_t seed, int k,
                                                  const void *keys, int key_bytes, size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (key_bytes == 4)
    gamq__bloom_insert_kernel<uint32_t><<<gamq__grid(n, 256), 256, 0, stream>>>(words, num_blocks, seed, k,
                                                                               (const uint32_t *)keys, n);
  else
    gamq__bloom_insert_kernel<uint64_t><<<gamq__grid(n, 256), 256, 0, stream>>>(words, num_blocks, seed, k,
                                                                               (const uint64_t *)keys, n);
  return cudaGetLastError();
}

template <typename K>
static inline void gamq__bloom_lookup_launch(const uint32_t *words, uint64_t num_blocks, uint64_t seed, int k,
                                             const K *keys, size_t n, uint8_t *found, cudaStream_t stream) {
  const uint4 *blocks = reinterpret_cast<const uint4 *>(words);
  if ((uintptr_t)keys % (4 * sizeof(K)) == 0 && (uintptr_t)found % 4 == 0)
    gamq__bloom_lookup_kernel<K, true><<<gamq__grid((n + 3) / 4, 256), 256, 0, stream>>>(blocks, num_blocks, seed, k,
                                                                                          keys, n, found);
  else
    gamq__bloom_lookup_kernel<K, false><<<gamq__grid(n, 256), 256, 0, stream>>>(blocks, num_blocks, seed, k, keys, n,
                                                                                 found);
}
static inline cudaError_t gamq__cuda_bloom_lookup(const uint32_t *words, uint64_t num_blocks, uint64_t seed, int k,
                                                  const void *keys, int key_bytes, size_t n, uint8_t *found,
                                                  cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (key_bytes == 4)
    gamq__bloom_lookup_launch(words, num_blocks, seed, k, (const uint32_t *)keys, n, found, stream);
  else
    gamq__bloom_lookup_launch(words, num_blocks, seed, k, (const uint64_t *)keys, n, found, stream);
  return cudaGetLastError();
}

#endif /* GPUAMQ_KERNELS_CUH */
