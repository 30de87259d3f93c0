/* gpuprim section: scan and select (see gpuprim.cuh).

   Scan        gprim_scan_inclusive, gprim_scan_exclusive: any associative operator
               (no identity needed), in place allowed (d_in == d_out).
   Select      gprim_select_flagged, gprim_select_if, gprim_partition_if, gprim_unique,
               gprim_run_length_encode. d_out must not overlap d_in. n < 2^32.

   All of them are single pass: one block per tile, tile ids taken by an atomic
   ticket, and each tile finds the reduction of all tiles before it by
   decoupled look-back (Merrill & Garland 2016, "Single-pass Parallel Prefix
   Scan with Decoupled Look-back", NVR-2016-002, section 4). The look-back is
   written once (gprim__lookback below) and is meant to be reused by the other
   primitives (radix sort digit offsets, quotient-filter scans).

   Tile layout (gprim__tiles): BLOCK threads, each lane holds ROWS x CHUNK items.
   Row r of warp w is one coalesced run of 32 * CHUNK items; lane l holds CHUNK
   consecutive items of it, loaded as one or two 16-byte vectors when the
   pointer is aligned:
     item (r, c) of lane l, warp w  =  tile * TILE + w * WARP_ITEMS + r * 32 * CHUNK + l * CHUNK + c
   Scans combine a serial scan of the chunk, a warp scan (__shfl_up_sync) per
   row, the rows in order, the warps in order (warp 0), and the look-back. */

/* ---------------------------------------------------------------------------
   device code
   ------------------------------------------------------------------------- */
#if defined(__CUDACC__)

/* ---- warp exchange of any type whose size is a multiple of 4 bytes ---- */
template <typename T>
struct gprim__words {
  enum { N = (int)((sizeof(T) + 3) / 4) };
};
template <typename T>
__device__ __forceinline__ T gprim__shfl_idx(T v, int src) {
  uint32_t w[gprim__words<T>::N];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < gprim__words<T>::N; ++i) w[i] = __shfl_sync(0xffffffffu, w[i], src);
  memcpy(&v, w, sizeof(T));
  return v;
}
template <typename T>
__device__ __forceinline__ T gprim__shfl_up(T v, int d) {
  uint32_t w[gprim__words<T>::N];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < gprim__words<T>::N; ++i) w[i] = __shfl_up_sync(0xffffffffu, w[i], d);
  memcpy(&v, w, sizeof(T));
  return v;
}
template <typename T>
__device__ __forceinline__ T gprim__shfl_down(T v, int d) {
  uint32_t w[gprim__words<T>::N];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < gprim__words<T>::N; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], d);
  memcpy(&v, w, sizeof(T));
  return v;
}
/* Inclusive sum of v over the lanes 0 .. lane of a full warp. */
__device__ __forceinline__ uint32_t gprim__warp_inclusive_sum_u32(uint32_t v) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    uint32_t o = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += o;
  }
  return v;
}
__device__ __forceinline__ uint32_t gprim__warp_max_u32(uint32_t v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, v);
#else
  for (int d = 16; d > 0; d >>= 1) {
    uint32_t o = __shfl_xor_sync(0xffffffffu, v, d);
    v = v < o ? o : v;
  }
  return v;
#endif
}

/* ---- relaxed 64-bit accesses at gpu scope (single-copy atomic when aligned) ---- */
__device__ __forceinline__ uint64_t gprim__ld_relaxed_u64(const uint64_t *p) {
  uint64_t v;
#if __CUDA_ARCH__ >= 700
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
#else
  v = *(const volatile uint64_t *)p;
#endif
  return v;
}
__device__ __forceinline__ void gprim__st_relaxed_u64(uint64_t *p, uint64_t v) {
#if __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  *(volatile uint64_t *)p = v;
#endif
}

/* ---------------------------------------------------------------------------
   gprim__lookback<T>: tile statuses for decoupled look-back (Merrill & Garland
   2016, section 4), generic over the value type T (any trivially copyable type
   whose size is a multiple of 4 bytes) and over the associative operator
   (given per call; no identity needed).

   Each tile's status goes INVALID -> AGGREGATE (the tile's own reduction) ->
   PREFIX (the reduction of tiles 0..tile, inclusive). Host side:
     size_t bytes = gprim__lookback<T>::bytes(tiles);   // carve this from temp storage
     gprim__lookback<T> lb;  lb.bind(d_mem, tiles);
     lb.reset(stream);                                  // before every launch: one memset
                                                        // (statuses and the tile ticket)
   Device side:
     uint32_t tile = lb.take_ticket();                  // one thread; broadcast via shared
     lb.publish(tile, GPRIM__TILE_AGGREGATE, agg);      // one thread, as early as possible
     T before = lb.exclusive_prefix<WIDTH, SPIN_NS>(tile, op);
                                                        // a whole warp, tile > 0: the
                                                        // op-reduction of tiles [0, tile)
     lb.publish(tile, GPRIM__TILE_PREFIX, op(before, agg));
   Tile 0 publishes GPRIM__TILE_PREFIX directly. Tiles must be numbered by
   take_ticket, never by blockIdx, and a block must work on its tickets in the
   order it took them: then a tile only waits on tiles with smaller tickets,
   held by running blocks, and the smallest unfinished ticket can always
   finish, so the wait always ends (also for persistent blocks that hold the
   ticket of their next tile while they finish the current one).

   Storage: W = sizeof(T) / 4 words of 64 bits per tile; word i holds
   flag << 32 | 32-bit piece i of the value, written and read with single
   aligned 64-bit relaxed accesses (single-copy atomic). Each (word, flag) pair
   is written at most once (the aggregate once, the inclusive prefix once), so
   a reader that sees the same flag in all W words holds all pieces of one
   write; mixed flags (a publish under way) read as INVALID and are re-read.
   No fences, one round trip per window, correct by the PTX memory model for
   any W (4-byte T: one word; 64-bit keys and pairs: two). A single 128-bit
   word would need 16-byte single-copy atomicity, which PTX does not promise.

   One tile per block with WIDTH 1 is the fastest shape here (2^28 u32;
   git show 8b53d45:notes/perf.md). Persistent blocks that prefetch their next tile ran
   several times slower (the blocks fall into lockstep waves and the PREFIX
   front has to cross a whole wave each time), and WIDTH 2 to 8 did not help.
   ------------------------------------------------------------------------- */
enum { GPRIM__TILE_INVALID = 0, GPRIM__TILE_AGGREGATE = 1, GPRIM__TILE_PREFIX = 2 };

template <typename T>
struct gprim__lookback {
  enum { W = (int)(sizeof(T) / 4) };
  static_assert(sizeof(T) % 4 == 0, "look-back values must be a multiple of 4 bytes");
  uint32_t *ticket;
  uint64_t *status;
  size_t tiles;

  static size_t bytes(size_t tiles) { return GPRIM_TEMP_ALIGN + tiles * W * sizeof(uint64_t); }
  void bind(void *mem, size_t n_tiles) {
    ticket = (uint32_t *)mem;
    status = (uint64_t *)((char *)mem + GPRIM_TEMP_ALIGN);
    tiles = n_tiles;
  }
  cudaError_t reset(cudaStream_t stream) const { return cudaMemsetAsync(ticket, 0, bytes(tiles), stream); }

  __device__ __forceinline__ uint32_t take_ticket() const { return atomicAdd(ticket, 1u); }
  __device__ __forceinline__ void publish(uint32_t tile, uint32_t flag, T v) const {
    uint32_t w[W];
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < W; ++i) gprim__st_relaxed_u64(status + (size_t)tile * W + i, ((uint64_t)flag << 32) | w[i]);
  }
  __device__ __forceinline__ void load(uint32_t tile, uint32_t &flag, T &v) const {
    uint64_t s[W];
#pragma unroll
    for (int i = 0; i < W; ++i) s[i] = gprim__ld_relaxed_u64(status + (size_t)tile * W + i);
    uint32_t w[W];
    flag = (uint32_t)(s[0] >> 32);
#pragma unroll
    for (int i = 0; i < W; ++i) {
      if ((uint32_t)(s[i] >> 32) != flag) flag = GPRIM__TILE_INVALID;
      w[i] = (uint32_t)s[i];
    }
    memcpy(&v, w, sizeof(T));
  }

  /* The walk: the warp reads 32 * WIDTH statuses at once (lane l holds
     WIDTH consecutive tiles; lane 31's last one is tile - 1). It waits until
     every status newer than the newest PREFIX is valid (or, with no PREFIX,
     all of them), reduces in order back to that PREFIX, and moves the window
     back if it holds none. Positions before tile 0 re-read tile 0, a PREFIX
     that sits after them, so they never count. */
  template <int WIDTH, int SPIN_NS, typename Op>
  __device__ __forceinline__ T exclusive_prefix(uint32_t tile, Op op) const {
    const int lane = threadIdx.x & 31;
    T total;
    bool have = false;
    int64_t oldest = (int64_t)tile - 32 * WIDTH;
    for (;;) {
      uint32_t f[WIDTH];
      T v[WIDTH];
      int mine, first;
      unsigned lanes;
      for (;;) {
        int invalid = -1;
        mine = -1; /* the lane's newest PREFIX */
#pragma unroll
        for (int j = 0; j < WIDTH; ++j) {
          const int64_t idx = oldest + lane * WIDTH + j;
          load(idx < 0 ? 0u : (uint32_t)idx, f[j], v[j]);
          if (f[j] == GPRIM__TILE_PREFIX) mine = j;
          if (f[j] == GPRIM__TILE_INVALID) invalid = j;
        }
        lanes = __ballot_sync(0xffffffffu, mine >= 0);
        first = lanes ? 31 - __clz((int)lanes) : 0;
        /* positions lane * WIDTH + j; ready when no INVALID sits after the newest PREFIX */
        const int p = lanes ? first * WIDTH + __shfl_sync(0xffffffffu, mine, first) : -1;
        const bool blocked = invalid >= 0 && lane * WIDTH + invalid > p;
        if (!__any_sync(0xffffffffu, blocked)) break;
        if (SPIN_NS > 0) __nanosleep(SPIN_NS);
      }
      const int start = lane == first && mine > 0 ? mine : 0;
      T acc = v[WIDTH - 1];
#pragma unroll
      for (int j = WIDTH - 2; j >= 0; --j)
        if (j >= start) acc = op(v[j], acc);
      /* in-order reduction of lanes [first, 32): lane `first` ends with it */
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        T o = gprim__shfl_down(acc, d);
        if (lane + d < 32) acc = op(acc, o);
      }
      const T window = gprim__shfl_idx(acc, first);
      total = have ? op(window, total) : window;
      have = true;
      if (lanes) return total;
      oldest -= 32 * WIDTH;
    }
  }
};

/* ---- tile shape and blocked loads ---- */

/* BLOCK threads, each with ROWS x CHUNK items; the look-back reads
   32 * LB_WIDTH statuses per round trip and sleeps SPIN_NS between polls. */
template <int BLOCK_, int ROWS_, int CHUNK_, int LB_WIDTH_ = 1, int SPIN_NS_ = 0>
struct gprim__tiles {
  enum {
    BLOCK = BLOCK_, ROWS = ROWS_, CHUNK = CHUNK_, LB_WIDTH = LB_WIDTH_, SPIN_NS = SPIN_NS_,
    WARPS = BLOCK_ / 32,
    WARP_ITEMS = 32 * ROWS_ * CHUNK_,
    TILE = BLOCK_ * ROWS_ * CHUNK_
  };
};

/* A tile shape whose tile is staged in shared memory. On sm_90 and newer one
   thread starts a bulk copy of a full tile (cp.async.bulk, the copy engine,
   completing on an mbarrier), so the bytes in flight do not depend on the
   registers the loads would need; threads then read their chunks from shared
   memory. MIN_BLOCKS goes to __launch_bounds__ (blocks per SM to fit). */
template <int BLOCK_, int ROWS_, int CHUNK_, int MIN_BLOCKS_>
struct gprim__staged : gprim__tiles<BLOCK_, ROWS_, CHUNK_> {
  enum { MIN_BLOCKS = MIN_BLOCKS_ };
};

/* CHUNK consecutive items of type X, aligned to the largest power of two
   (at most 16) dividing their size, so a copy is one or two vector accesses. */
template <typename X, int C>
struct gprim__chunk_align {
  enum { B = (int)sizeof(X) * C, LOW = B & -B, A = LOW < 16 ? LOW : 16 };
};
template <typename X, int C>
struct alignas(gprim__chunk_align<X, C>::A) gprim__chunk {
  X v[C];
};
template <typename X, int C>
static inline bool gprim__chunk_aligned(const void *p) {
  return ((uintptr_t)p % gprim__chunk_align<X, C>::A) == 0;
}

/* Load the lane's ROWS x CHUNK items of `tile` (layout at the top of this
   section): vector loads when the whole tile is in range and the pointer is
   aligned, otherwise scalar loads clamped to n - 1 (items past the end hold
   a copy of a real item). */
template <typename Cfg, typename X>
__device__ __forceinline__ void gprim__load_tile(const X *p, uint32_t tile, size_t n, bool aligned,
                                                 X (&x)[Cfg::ROWS][Cfg::CHUNK]) {
  const int lane = threadIdx.x & 31;
  const size_t tile_base = (size_t)tile * Cfg::TILE;
  const size_t base = tile_base + (size_t)(threadIdx.x >> 5) * Cfg::WARP_ITEMS + lane * Cfg::CHUNK;
  if (aligned && tile_base + Cfg::TILE <= n) {
#pragma unroll
    for (int r = 0; r < Cfg::ROWS; ++r) {
      gprim__chunk<X, Cfg::CHUNK> c = *(const gprim__chunk<X, Cfg::CHUNK> *)(p + base + r * 32 * Cfg::CHUNK);
#pragma unroll
      for (int k = 0; k < Cfg::CHUNK; ++k) x[r][k] = c.v[k];
    }
  } else {
#pragma unroll
    for (int r = 0; r < Cfg::ROWS; ++r)
#pragma unroll
      for (int k = 0; k < Cfg::CHUNK; ++k) {
        const size_t i = base + r * 32 * Cfg::CHUNK + k;
        x[r][k] = p[i < n ? i : n - 1];
      }
  }
}
template <typename Cfg, typename X>
__device__ __forceinline__ void gprim__store_tile(X *p, uint32_t tile, size_t n, bool aligned,
                                                  const X (&x)[Cfg::ROWS][Cfg::CHUNK]) {
  const int lane = threadIdx.x & 31;
  const size_t tile_base = (size_t)tile * Cfg::TILE;
  const size_t base = tile_base + (size_t)(threadIdx.x >> 5) * Cfg::WARP_ITEMS + lane * Cfg::CHUNK;
  if (aligned && tile_base + Cfg::TILE <= n) {
#pragma unroll
    for (int r = 0; r < Cfg::ROWS; ++r) {
      gprim__chunk<X, Cfg::CHUNK> c;
#pragma unroll
      for (int k = 0; k < Cfg::CHUNK; ++k) c.v[k] = x[r][k];
      *(gprim__chunk<X, Cfg::CHUNK> *)(p + base + r * 32 * Cfg::CHUNK) = c;
    }
  } else {
#pragma unroll
    for (int r = 0; r < Cfg::ROWS; ++r)
#pragma unroll
      for (int k = 0; k < Cfg::CHUNK; ++k) {
        const size_t i = base + r * 32 * Cfg::CHUNK + k;
        if (i < n) p[i] = x[r][k];
      }
  }
}

/* Default tile shapes, picked by the timings of bench/bench_scan.cu (the
   sweep: "Scan tuning" in bench/results/, the gpuprim runs). Scans of 4-
   and 8-byte items stage their tiles in shared memory: the bulk copy keeps
   more bytes in flight per SM than register loads can, so at 2^28 the
   staged tiles with enough blocks per SM beat every register tile, for the
   exclusive sum u32 and the inclusive max u64 alike. Other sizes keep the
   register tile (a staged tile of 16-byte items would not fit in 48 KiB).
   Select family (`type` for select_if, select_flagged, partition_if and
   unique; `rle` for run-length encoding): the shapes of the same sweep that
   came closest to CUB at 2^28 u32. */
template <int SIZE> struct gprim__scan_cfg { typedef gprim__tiles<128, 8, 4> type; };
template <> struct gprim__scan_cfg<4> { typedef gprim__staged<128, 16, 4, 6> type; };
template <> struct gprim__scan_cfg<8> { typedef gprim__staged<128, 8, 2, 12> type; };
/* 32-byte items (gclq__sets_dev_tiles: four counters): two a thread, so
   that the items and their scan fit the registers (with 32 a thread the
   kernel spilled). */
template <> struct gprim__scan_cfg<32> { typedef gprim__tiles<128, 2, 1> type; };
template <int SIZE> struct gprim__select_cfg {
  typedef gprim__tiles<128, 10, 4> type;
  typedef gprim__tiles<256, 4, 4> rle;
};
template <> struct gprim__select_cfg<8> {
  typedef gprim__tiles<256, 4, 2> type;
  typedef gprim__tiles<256, 4, 2> rle;
};

/* ---------------------------------------------------------------------------
   scan
   ------------------------------------------------------------------------- */

/* Warp 0 of a block, once the warp totals of its tile sit in s_warp[0..WARPS)
   (in order; the caller syncs before and after): scan them, publish the
   tile's aggregate, look back, publish its inclusive prefix, and leave in
   s_warp[w] the op-reduction of everything before warp w (earlier tiles
   included, and `init` first when has_init). Nothing comes before warp 0 of
   tile 0: s_warp[0] is then init (has_init) or meaningless. */
template <typename Cfg, typename T, typename Op>
__device__ __forceinline__ void gprim__warp0_tile_prefix(uint32_t tile, const gprim__lookback<T> &lb, Op op,
                                                         T *s_warp, bool has_init, T init) {
  enum { WARPS = Cfg::WARPS };
  const int lane = threadIdx.x & 31;
  T w = s_warp[lane < WARPS ? lane : WARPS - 1];
#pragma unroll
  for (int d = 1; d < WARPS; d <<= 1) {
    T o = gprim__shfl_up(w, d);
    if (lane >= d) w = op(o, w);
  }
  const T agg = gprim__shfl_idx(w, WARPS - 1);
  const T w_ex = gprim__shfl_up(w, 1);
  T tile_pre = init;
  if (tile == 0) {
    if (lane == 0) lb.publish(0, GPRIM__TILE_PREFIX, has_init ? op(init, agg) : agg);
  } else {
    if (lane == 0) lb.publish(tile, GPRIM__TILE_AGGREGATE, agg);
    tile_pre = lb.template exclusive_prefix<Cfg::LB_WIDTH, Cfg::SPIN_NS>(tile, op);
    if (lane == 0) lb.publish(tile, GPRIM__TILE_PREFIX, op(tile_pre, agg));
  }
  const bool has_tile_pre = has_init || tile > 0;
  __syncwarp();
  if (lane < WARPS) s_warp[lane] = lane == 0 ? tile_pre : has_tile_pre ? op(tile_pre, w_ex) : w_ex;
}

/* One tile's inclusive scan in registers, over the whole array (the tile
   layout at the top of this section; any associative op). x: the lane's
   ROWS x CHUNK items, scanned in place. pre[r]: the inclusive value of the
   item just before row r's chunk, where has_pre[r] (everywhere but the first
   item of tile 0). Chunk scan, warp scan of the chunk totals by shuffles,
   rows in order, warps in order and the look-back (gprim__warp0_tile_prefix).
   The whole block calls it; s_warp: WARPS values of shared memory. Also the
   engine of scans fused into other kernels (amq/nonassoc/kernels.cuh). */
template <typename Cfg, typename T, typename Op>
__device__ __forceinline__ void gprim__tile_scan(uint32_t tile, const gprim__lookback<T> &lb, Op op,
                                                 T (&x)[Cfg::ROWS][Cfg::CHUNK], T (&pre)[Cfg::ROWS],
                                                 bool (&has_pre)[Cfg::ROWS], T *s_warp) {
  enum { ROWS = Cfg::ROWS, CHUNK = Cfg::CHUNK };
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  T lane_ex[ROWS], row_tot[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
#pragma unroll
    for (int k = 1; k < CHUNK; ++k) x[r][k] = op(x[r][k - 1], x[r][k]);
    T s = x[r][CHUNK - 1];
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      T o = gprim__shfl_up(s, d);
      if (lane >= d) s = op(o, s);
    }
    lane_ex[r] = gprim__shfl_up(s, 1); /* meaningful for lane > 0 */
    row_tot[r] = gprim__shfl_idx(s, 31);
  }
  T row_pre[ROWS]; /* the rows before r within the warp (r >= 1) */
  row_pre[0] = row_tot[0];
#pragma unroll
  for (int r = 1; r < ROWS; ++r) row_pre[r] = r == 1 ? row_tot[0] : op(row_pre[r - 1], row_tot[r - 1]);
  if (lane == 0) s_warp[warp] = ROWS == 1 ? row_tot[0] : op(row_pre[ROWS - 1], row_tot[ROWS - 1]);
  __syncthreads();
  if (warp == 0) gprim__warp0_tile_prefix<Cfg>(tile, lb, op, s_warp, false, row_tot[0] /* no init: unused */);
  __syncthreads();
  const bool has_blk = tile > 0 || warp > 0;
  const T blk = s_warp[warp];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const bool has_in = r > 0 || lane > 0;
    const T in_pre = r == 0 ? lane_ex[0] : lane == 0 ? row_pre[r] : op(row_pre[r], lane_ex[r]);
    has_pre[r] = has_blk || has_in;
    pre[r] = has_blk ? (has_in ? op(blk, in_pre) : blk) : in_pre;
    if (has_pre[r]) {
#pragma unroll
      for (int k = 0; k < CHUNK; ++k) x[r][k] = op(pre[r], x[r][k]);
    }
  }
}

/* Single-pass scan by decoupled look-back (Merrill & Garland 2016, s. 4),
   tile in registers: one tile per block, tile id by atomic ticket. An
   exclusive scan with init is the inclusive scan of [init op x0, x1, ...]
   shifted right by one, init first. */
template <typename Cfg, typename T, typename Op, bool EXCLUSIVE>
__global__ void __launch_bounds__(Cfg::BLOCK)
gprim__scan_kernel(const T *in, T *out, size_t n, Op op, T init, gprim__lookback<T> lb, bool aligned) {
  enum { ROWS = Cfg::ROWS, CHUNK = Cfg::CHUNK };
  __shared__ uint32_t s_tile;
  __shared__ T s_warp[Cfg::WARPS];
  if (threadIdx.x == 0) s_tile = lb.take_ticket();
  __syncthreads();
  const uint32_t tile = s_tile;
  T x[ROWS][CHUNK], pre[ROWS];
  bool has_pre[ROWS];
  gprim__load_tile<Cfg>(in, tile, n, aligned, x);
  if (EXCLUSIVE && tile == 0 && threadIdx.x == 0) x[0][0] = op(init, x[0][0]);
  gprim__tile_scan<Cfg>(tile, lb, op, x, pre, has_pre, s_warp);
  if (EXCLUSIVE) {
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
#pragma unroll
      for (int k = CHUNK - 1; k > 0; --k) x[r][k] = x[r][k - 1];
      x[r][0] = has_pre[r] ? pre[r] : init;
    }
  }
  gprim__store_tile<Cfg>(out, tile, n, aligned, x);
}

/* ---- staged tiles: the whole tile is copied to shared memory first ---- */

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GPRIM__BULK_COPY 1
/* One thread: arm `bar` (fresh, used once) and start copying `bytes` (a
   multiple of 16; both addresses 16-byte aligned) from global to shared. */
__device__ __forceinline__ void gprim__bulk_load(void *dst, const void *src, uint32_t bytes, uint64_t *bar) {
  const uint32_t b = (uint32_t)__cvta_generic_to_shared(bar), d = (uint32_t)__cvta_generic_to_shared(dst);
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(d),
               "l"(src), "r"(bytes), "r"(b)
               : "memory");
}
/* Every thread: wait until the copy armed on `bar` has landed (phase 0). */
__device__ __forceinline__ void gprim__bulk_wait(uint64_t *bar) {
  const uint32_t b = (uint32_t)__cvta_generic_to_shared(bar);
  uint32_t done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(b)
                 : "memory");
}
#endif

/* Take a ticket and stage that tile of `in` in s_items (items past n hold a
   copy of item n - 1). Returns the tile; ends with the tile visible to all. */
template <typename Cfg, typename T, typename LB>
__device__ __forceinline__ uint32_t gprim__stage_tile(const T *in, size_t n, bool aligned, const LB &lb,
                                                      T *s_items, uint32_t *s_tile, uint64_t *s_bar) {
  if (threadIdx.x == 0) {
    const uint32_t t = lb.take_ticket();
    *s_tile = t;
#if defined(GPRIM__BULK_COPY)
    const size_t base = (size_t)t * Cfg::TILE;
    if (aligned && base + Cfg::TILE <= n) gprim__bulk_load(s_items, in + base, (uint32_t)(Cfg::TILE * sizeof(T)), s_bar);
#endif
  }
  __syncthreads();
  const uint32_t tile = *s_tile;
  const size_t base = (size_t)tile * Cfg::TILE;
#if defined(GPRIM__BULK_COPY)
  if (aligned && base + Cfg::TILE <= n) {
    gprim__bulk_wait(s_bar);
    return tile;
  }
#else
  (void)s_bar;
  (void)aligned;
#endif
  for (int i = threadIdx.x; i < Cfg::TILE; i += Cfg::BLOCK) s_items[i] = in[base + i < n ? base + i : n - 1];
  __syncthreads();
  return tile;
}

/* The scan kernel above with the tile staged in shared memory. Pass 1 scans
   each row of the warp in place in shared memory (chunk, lanes, the rows
   before it), leaving only the warp's prefix to add; warp 0 scans the warp
   totals and looks back; pass 2 adds the tile/warp prefix and stores. Few
   registers live across the look-back, so many blocks fit on an SM. */
template <typename Cfg, typename T, typename Op, bool EXCLUSIVE>
__global__ void __launch_bounds__(Cfg::BLOCK, Cfg::MIN_BLOCKS)
gprim__scan_staged_kernel(const T *in, T *out, size_t n, Op op, T init, gprim__lookback<T> lb, bool aligned) {
  enum { ROWS = Cfg::ROWS, CHUNK = Cfg::CHUNK, WARPS = Cfg::WARPS };
  typedef gprim__chunk<T, CHUNK> Chunk;
  __shared__ Chunk s_items[Cfg::TILE / CHUNK];
  __shared__ uint64_t s_bar;
  __shared__ uint32_t s_tile;
  __shared__ T s_warp[WARPS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint32_t tile = gprim__stage_tile<Cfg>(in, n, aligned, lb, (T *)s_items, &s_tile, &s_bar);
  Chunk *mine = s_items + warp * (Cfg::WARP_ITEMS / CHUNK) + lane;

  /* pass 1: row r of the warp becomes its scan within the warp (exclusive:
     without the warp's first item, which holds garbage until pass 2) */
  T run = T(); /* op of the earlier rows' totals (valid for r > 0) */
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    Chunk c = mine[r * 32];
    T s = c.v[0];
#pragma unroll
    for (int k = 1; k < CHUNK; ++k) s = op(s, c.v[k]);
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      T o = gprim__shfl_up(s, d);
      if (lane >= d) s = op(o, s);
    }
    T pre = gprim__shfl_up(s, 1); /* lanes before this one in the row */
    const T tot = gprim__shfl_idx(s, 31);
    const bool has_pre = r > 0 || lane > 0;
    if (r > 0) pre = lane > 0 ? op(run, pre) : run;
    if (EXCLUSIVE) {
      T acc = pre;
#pragma unroll
      for (int k = 0; k < CHUNK; ++k) {
        const T x = c.v[k];
        c.v[k] = acc;
        acc = (k == 0 && !has_pre) ? x : op(acc, x);
      }
    } else {
      if (has_pre) c.v[0] = op(pre, c.v[0]);
#pragma unroll
      for (int k = 1; k < CHUNK; ++k) c.v[k] = op(c.v[k - 1], c.v[k]);
    }
    mine[r * 32] = c;
    run = r == 0 ? tot : op(run, tot);
  }
  if (lane == 0) s_warp[warp] = run;
  __syncthreads();

  if (warp == 0) gprim__warp0_tile_prefix<Cfg>(tile, lb, op, s_warp, EXCLUSIVE, init);
  __syncthreads();

  /* pass 2: add the tile/warp prefix, store */
  const bool has_blk = EXCLUSIVE || tile > 0 || warp > 0;
  const T blk = s_warp[warp];
  const size_t tile_base = (size_t)tile * Cfg::TILE;
  const size_t base = tile_base + (size_t)warp * Cfg::WARP_ITEMS + lane * CHUNK;
  const bool full = aligned && tile_base + Cfg::TILE <= n;
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    Chunk c = mine[r * 32];
    if (has_blk) {
#pragma unroll
      for (int k = 0; k < CHUNK; ++k) c.v[k] = (EXCLUSIVE && r == 0 && lane == 0 && k == 0) ? blk : op(blk, c.v[k]);
    }
    const size_t at = base + r * 32 * CHUNK;
    if (full) {
      *(Chunk *)(out + at) = c;
    } else {
#pragma unroll
      for (int k = 0; k < CHUNK; ++k)
        if (at + k < n) out[at + k] = c.v[k];
    }
  }
}

/* Launch either kernel: registers (gprim__tiles) or staged (gprim__staged). */
template <typename Cfg> struct gprim__is_staged { enum { YES = 0 }; };
template <int B, int R, int C, int M> struct gprim__is_staged<gprim__staged<B, R, C, M> > { enum { YES = 1 }; };
template <bool STAGED> struct gprim__scan_launch {
  template <typename Cfg, typename T, typename Op, bool EXCLUSIVE>
  static void go(unsigned tiles, cudaStream_t stream, const T *in, T *out, size_t n, Op op, T init,
                 const gprim__lookback<T> &lb) {
    const bool aligned = gprim__chunk_aligned<T, Cfg::CHUNK>(in) && gprim__chunk_aligned<T, Cfg::CHUNK>(out);
    gprim__scan_kernel<Cfg, T, Op, EXCLUSIVE><<<tiles, Cfg::BLOCK, 0, stream>>>(in, out, n, op, init, lb, aligned);
  }
};
template <> struct gprim__scan_launch<true> {
  template <typename Cfg, typename T, typename Op, bool EXCLUSIVE>
  static void go(unsigned tiles, cudaStream_t stream, const T *in, T *out, size_t n, Op op, T init,
                 const gprim__lookback<T> &lb) {
    /* the bulk copy wants 16-byte aligned sources and sizes; stores want aligned chunks */
    const bool aligned = (uintptr_t)in % 16 == 0 && (Cfg::CHUNK * sizeof(T)) % 16 == 0 &&
                         gprim__chunk_aligned<T, Cfg::CHUNK>(out);
    gprim__scan_staged_kernel<Cfg, T, Op, EXCLUSIVE><<<tiles, Cfg::BLOCK, 0, stream>>>(in, out, n, op, init, lb,
                                                                                      aligned);
  }
};

/* Host side of both scans; Cfg picks the tile shape (the bench tries others). */
template <typename Cfg, typename T, typename Op, bool EXCLUSIVE>
inline cudaError_t gprim__scan_run(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out, size_t n, Op op,
                                   T init, cudaStream_t stream) {
  const size_t tiles = gprim__div_up(n, Cfg::TILE);
  size_t sizes[1] = {gprim__lookback<T>::bytes(tiles)};
  void *ptrs[1];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 1, sizes, ptrs));
  if (d_temp == NULL || n == 0) return cudaSuccess;
  if (d_in == NULL || d_out == NULL || tiles > 0x7fffffffu) return cudaErrorInvalidValue;
  gprim__lookback<T> lb;
  lb.bind(ptrs[0], tiles);
  GPRIM_TRY(lb.reset(stream));
  gprim__scan_launch<gprim__is_staged<Cfg>::YES>::template go<Cfg, T, Op, EXCLUSIVE>((unsigned)tiles, stream, d_in,
                                                                                   d_out, n, op, init, lb);
  return cudaGetLastError();
}

/* Inclusive scan with any associative op (T operator()(T, T) const, callable
   on the device; no identity needed). d_in == d_out allowed.
     d_in = [3, 1, 4, 1, 5], op = gprim_op_sum  ->  d_out = [3, 4, 8, 9, 14]
     d_in = [3, 1, 4, 1, 5], op = gprim_op_max  ->  d_out = [3, 3, 4, 4, 5]
   Temp storage: about 8 bytes per 8192 items (4-byte T), 16 per 2048 (8-byte T). */
template <typename T, typename Op>
inline cudaError_t gprim_scan_inclusive(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out, size_t n, Op op,
                                        cudaStream_t stream) {
  return gprim__scan_run<typename gprim__scan_cfg<(int)sizeof(T)>::type, T, Op, false>(d_temp, temp_bytes, d_in,
                                                                                       d_out, n, op, T(), stream);
}

/* Exclusive scan: out[0] = init, out[i] = op(init, in[0], ..., in[i - 1]).
   d_in == d_out allowed.
     d_in = [3, 1, 4, 1, 5], op = gprim_op_sum, init = 0  ->  d_out = [0, 3, 4, 8, 9] */
template <typename T, typename Op>
inline cudaError_t gprim_scan_exclusive(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out, size_t n, Op op,
                                        T init, cudaStream_t stream) {
  return gprim__scan_run<typename gprim__scan_cfg<(int)sizeof(T)>::type, T, Op, true>(d_temp, temp_bytes, d_in, d_out,
                                                                                      n, op, init, stream);
}

/* ---------------------------------------------------------------------------
   select family
   ------------------------------------------------------------------------- */

/* Where selection flags come from. AUX: a per-item array loaded beside the
   items (the flags); BEFORE: the item before each warp's first one is needed
   (head flags). test() decides one item. */
template <typename F>
struct gprim__sel_flags { /* a flag array, any type testable as bool */
  typedef F aux_type;
  enum { AUX = 1, BEFORE = 0 };
  const F *aux;
  bool aux_aligned;
  template <typename T>
  __device__ __forceinline__ bool test(const T &, const F &f) const { return (bool)f; }
};
template <typename Pred>
struct gprim__sel_pred { /* a predicate on the item */
  typedef uint8_t aux_type;
  enum { AUX = 0, BEFORE = 0 };
  const uint8_t *aux;
  bool aux_aligned;
  Pred pred;
  template <typename T>
  __device__ __forceinline__ bool test(const T &x, const uint8_t &) const { return (bool)pred(x); }
};
template <typename T>
struct gprim__sel_unique { /* run heads: i == 0 or !(in[i] == in[i - 1]) */
  typedef uint8_t aux_type;
  enum { AUX = 0, BEFORE = 1 };
  const uint8_t *aux;
  bool aux_aligned;
};

/* One tile's inputs in registers: items, per-item aux (flags), and the item
   before each warp's first one (head flags). */
template <typename Cfg, typename T, typename Src>
struct gprim__sel_stage {
  T x[Cfg::ROWS][Cfg::CHUNK];
  typename Src::aux_type a[Cfg::ROWS][Cfg::CHUNK];
  T before; /* lane 0: the item before the warp's first one */

  __device__ __forceinline__ void load(const T *in, const Src &src, uint32_t tile, size_t n, bool aligned) {
    gprim__load_tile<Cfg>(in, tile, n, aligned, x);
    if (Src::AUX) gprim__load_tile<Cfg>(src.aux, tile, n, src.aux_aligned, a);
    if (Src::BEFORE) {
      const size_t base = (size_t)tile * Cfg::TILE + (size_t)(threadIdx.x >> 5) * Cfg::WARP_ITEMS;
      before = T();
      if ((threadIdx.x & 31) == 0 && base > 0) before = in[base - 1 < n ? base - 1 : n - 1];
    }
  }
};

/* Head flags: item i starts a run when i == 0 or !(x[i] == x[i - 1]). The
   item before each chunk comes from the lane before (shuffle), the row before
   (lane 31) or, for the warp's first item, from `before`. base = the warp's
   first item. */
template <typename Cfg, typename T>
__device__ __forceinline__ void gprim__head_flags(const T (&x)[Cfg::ROWS][Cfg::CHUNK], T before, size_t base,
                                                  bool (&f)[Cfg::ROWS][Cfg::CHUNK]) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int r = 0; r < Cfg::ROWS; ++r) {
    T from_lane = gprim__shfl_up(x[r][Cfg::CHUNK - 1], 1);
    T from_row = r > 0 ? gprim__shfl_idx(x[r > 0 ? r - 1 : 0][Cfg::CHUNK - 1], 31) : before;
    T prev = lane > 0 ? from_lane : from_row;
    f[r][0] = !(x[r][0] == prev) || (base == 0 && r == 0 && lane == 0);
#pragma unroll
    for (int k = 1; k < Cfg::CHUNK; ++k) f[r][k] = !(x[r][k] == x[r][k - 1]);
  }
}
template <typename Cfg, typename T, typename Src>
__device__ __forceinline__ void gprim__sel_test(const Src &src, const gprim__sel_stage<Cfg, T, Src> &st, size_t,
                                                bool (&f)[Cfg::ROWS][Cfg::CHUNK]) {
#pragma unroll
  for (int r = 0; r < Cfg::ROWS; ++r)
#pragma unroll
    for (int k = 0; k < Cfg::CHUNK; ++k) f[r][k] = src.test(st.x[r][k], st.a[r][k]);
}
template <typename Cfg, typename T>
__device__ __forceinline__ void gprim__sel_test(const gprim__sel_unique<T> &,
                                                const gprim__sel_stage<Cfg, T, gprim__sel_unique<T> > &st,
                                                size_t base, bool (&f)[Cfg::ROWS][Cfg::CHUNK]) {
  gprim__head_flags<Cfg>(st.x, st.before, base, f);
}

/* Clear the flags of items past n (only the last tile has any). */
template <typename Cfg>
__device__ __forceinline__ void gprim__mask_tail(size_t base, size_t n, bool (&f)[Cfg::ROWS][Cfg::CHUNK]) {
  const size_t first = base + (threadIdx.x & 31) * Cfg::CHUNK;
#pragma unroll
  for (int r = 0; r < Cfg::ROWS; ++r)
#pragma unroll
    for (int k = 0; k < Cfg::CHUNK; ++k) f[r][k] = f[r][k] && first + r * 32 * Cfg::CHUNK + k < n;
}

/* Rank of each lane's first selected item in the warp, per row, and the
   warp's count: one ballot per item position, popc of the lanes below. */
template <typename Cfg>
__device__ __forceinline__ uint32_t gprim__warp_ranks(const bool (&f)[Cfg::ROWS][Cfg::CHUNK],
                                                      uint32_t (&rank)[Cfg::ROWS]) {
  const unsigned below = (1u << (threadIdx.x & 31)) - 1u;
  uint32_t off = 0;
#pragma unroll
  for (int r = 0; r < Cfg::ROWS; ++r) {
    uint32_t mine = 0, row = 0;
#pragma unroll
    for (int k = 0; k < Cfg::CHUNK; ++k) {
      unsigned m = __ballot_sync(0xffffffffu, f[r][k]);
      mine += __popc(m & below);
      row += __popc(m);
    }
    rank[r] = off + mine;
    off += row;
  }
  return off;
}

/* Warp 0, once s_warp[0..WARPS) holds the warps' counts in order: their
   inclusive scan over its lanes (lane l: warps 0 .. l); *own = the lane's own
   count (0 past the warps). */
template <int WARPS>
__device__ __forceinline__ uint32_t gprim__warp_counts_scan(const uint32_t *s_warp, uint32_t *own) {
  const int lane = threadIdx.x & 31;
  *own = lane < WARPS ? s_warp[lane] : 0u;
  uint32_t w = *own;
#pragma unroll
  for (int d = 1; d < WARPS; d <<= 1) {
    uint32_t o = __shfl_up_sync(0xffffffffu, w, d);
    if (lane >= d) w += o;
  }
  return w;
}

/* Warp 0, with its tile's aggregate: publish it (tile 0: as the inclusive
   prefix), look back, publish the tile's inclusive prefix. Returns what
   comes before the tile, op-reduced (S() for tile 0). */
template <typename Cfg, typename S, typename Op>
__device__ __forceinline__ S gprim__tile_look_back(uint32_t tile, const gprim__lookback<S> &lb, Op op, S agg) {
  const int lane = threadIdx.x & 31;
  S before = S();
  if (tile == 0) {
    if (lane == 0) lb.publish(0, GPRIM__TILE_PREFIX, agg);
  } else {
    if (lane == 0) lb.publish(tile, GPRIM__TILE_AGGREGATE, agg);
    before = lb.template exclusive_prefix<Cfg::LB_WIDTH, Cfg::SPIN_NS>(tile, op);
    if (lane == 0) lb.publish(tile, GPRIM__TILE_PREFIX, op(before, agg));
  }
  return before;
}

/* Warp 0: scan the per-warp counts in s_warp (they become exclusive offsets),
   publish the tile's count and look back. s_tile_sum = {offset, count}. */
template <typename Cfg>
__device__ __forceinline__ void gprim__select_offsets(uint32_t tile, const gprim__lookback<uint32_t> &lb,
                                                      uint32_t *s_warp, uint32_t *s_tile_sum) {
  const int lane = threadIdx.x & 31;
  uint32_t own;
  const uint32_t w = gprim__warp_counts_scan<Cfg::WARPS>(s_warp, &own);
  const uint32_t count = __shfl_sync(0xffffffffu, w, Cfg::WARPS - 1);
  const uint32_t before = gprim__tile_look_back<Cfg>(tile, lb, gprim_op_sum(), count);
  __syncwarp();
  if (lane < Cfg::WARPS) s_warp[lane] = w - own;
  if (lane == 0) {
    s_tile_sum[0] = before;
    s_tile_sum[1] = count;
  }
}

enum { GPRIM__SEL_COMPACT = 0, GPRIM__SEL_PARTITION = 1 };

/* Single-pass stream compaction by decoupled look-back over selected counts
   (Merrill & Garland 2016): one tile per block, tile id by atomic ticket;
   ballot ranks, tile offset by look-back, items gathered in shared memory in
   output order, then written coalesced. PARTITION also writes the rejected
   items from the back, in reverse order. */
template <typename Cfg, typename T, typename Src, int MODE>
__global__ void __launch_bounds__(Cfg::BLOCK)
gprim__select_kernel(const T *in, Src src, T *out, size_t *num_selected, size_t n, gprim__lookback<uint32_t> lb,
                     bool aligned) {
  enum { ROWS = Cfg::ROWS, CHUNK = Cfg::CHUNK, TILE = Cfg::TILE };
  __shared__ uint32_t s_tile, s_tile_sum[2];
  __shared__ uint32_t s_warp[Cfg::WARPS];
  __shared__ T s_items[TILE];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) s_tile = lb.take_ticket();
  __syncthreads();
  const uint32_t tile = s_tile;
  gprim__sel_stage<Cfg, T, Src> cur;
  cur.load(in, src, tile, n, aligned);
  const size_t tile_base = (size_t)tile * TILE;
  const size_t base = tile_base + (size_t)warp * Cfg::WARP_ITEMS;
  const bool full = tile_base + TILE <= n;
  const uint32_t valid = full ? (uint32_t)TILE : (uint32_t)(n - tile_base);
  bool f[ROWS][CHUNK];
  gprim__sel_test<Cfg>(src, cur, base, f);
  if (!full) gprim__mask_tail<Cfg>(base, n, f);
  uint32_t rank[ROWS];
  const uint32_t warp_count = gprim__warp_ranks<Cfg>(f, rank);
  if (lane == 0) s_warp[warp] = warp_count;
  __syncthreads();
  if (warp == 0) gprim__select_offsets<Cfg>(tile, lb, s_warp, s_tile_sum);
  __syncthreads();
  const uint32_t tile_before = s_tile_sum[0], tile_count = s_tile_sum[1];
  const uint32_t warp_before = s_warp[warp];

  /* gather in output order: selected at their rank, rejected after them */
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    uint32_t k = warp_before + rank[r];
#pragma unroll
    for (int c = 0; c < CHUNK; ++c) {
      const uint32_t li = (uint32_t)(warp * Cfg::WARP_ITEMS + r * 32 * CHUNK + lane * CHUNK + c);
      if (f[r][c]) s_items[k++] = cur.x[r][c];
      else if (MODE == GPRIM__SEL_PARTITION && li < valid) s_items[tile_count + (li - k)] = cur.x[r][c];
    }
  }
  __syncthreads();
  const uint32_t end = MODE == GPRIM__SEL_PARTITION ? valid : tile_count;
  const size_t rejected_before = tile_base - tile_before;
  for (uint32_t i = threadIdx.x; i < end; i += Cfg::BLOCK) {
    if (i < tile_count) out[(size_t)tile_before + i] = s_items[i];
    else out[n - 1 - (rejected_before + (i - tile_count))] = s_items[i];
  }
  if (threadIdx.x == 0 && !(tile_base + TILE < n)) *num_selected = (size_t)tile_before + tile_count;
}

template <typename Cfg, typename T, typename Src, int MODE>
inline cudaError_t gprim__select_run(void *d_temp, size_t *temp_bytes, const T *d_in, Src src, T *d_out,
                                     size_t *d_num_selected, size_t n, cudaStream_t stream) {
  const size_t tiles = gprim__div_up(n, Cfg::TILE);
  size_t sizes[1] = {gprim__lookback<uint32_t>::bytes(tiles)};
  void *ptrs[1];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 1, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if (d_num_selected == NULL || n > 0xffffffffu) return cudaErrorInvalidValue;
  if (n == 0) return cudaMemsetAsync(d_num_selected, 0, sizeof(size_t), stream);
  if (d_in == NULL || d_out == NULL || (Src::AUX && src.aux == NULL)) return cudaErrorInvalidValue;
  gprim__lookback<uint32_t> lb;
  lb.bind(ptrs[0], tiles);
  GPRIM_TRY(lb.reset(stream));
  gprim__select_kernel<Cfg, T, Src, MODE><<<(unsigned)tiles, Cfg::BLOCK, 0, stream>>>(
      d_in, src, d_out, d_num_selected, n, lb, gprim__chunk_aligned<T, Cfg::CHUNK>(d_in));
  return cudaGetLastError();
}

/* Keeps the items whose flag is nonzero (F: any type testable as bool), in order.
     d_in = [1, 2, 3, 4], d_flags = [1, 0, 0, 1]  ->  d_out = [1, 4], *d_num_selected = 2
   d_num_selected is device memory; d_out must not overlap d_in; n < 2^32. */
template <typename T, typename F>
inline cudaError_t gprim_select_flagged(void *d_temp, size_t *temp_bytes, const T *d_in, const F *d_flags, T *d_out,
                                        size_t *d_num_selected, size_t n, cudaStream_t stream) {
  typedef typename gprim__select_cfg<(int)sizeof(T)>::type Cfg;
  gprim__sel_flags<F> src = {d_flags, gprim__chunk_aligned<F, Cfg::CHUNK>(d_flags)};
  return gprim__select_run<Cfg, T, gprim__sel_flags<F>, GPRIM__SEL_COMPACT>(d_temp, temp_bytes, d_in, src, d_out,
                                                                           d_num_selected, n, stream);
}

/* Keeps the items x with pred(x) true (pred callable on the device), in order.
     d_in = [1, 2, 3, 4], pred = odd  ->  d_out = [1, 3], *d_num_selected = 2 */
template <typename T, typename Pred>
inline cudaError_t gprim_select_if(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out,
                                   size_t *d_num_selected, size_t n, Pred pred, cudaStream_t stream) {
  typedef typename gprim__select_cfg<(int)sizeof(T)>::type Cfg;
  gprim__sel_pred<Pred> src = {NULL, false, pred};
  return gprim__select_run<Cfg, T, gprim__sel_pred<Pred>, GPRIM__SEL_COMPACT>(d_temp, temp_bytes, d_in, src, d_out,
                                                                             d_num_selected, n, stream);
}

/* Selected items first, in input order; the rejected ones fill the rest from
   the back, so they come out in REVERSE input order (single pass, as CUB does).
     d_in = [1, 2, 3, 4, 5, 6], pred = odd  ->  d_out = [1, 3, 5, 6, 4, 2], *d_num_selected = 3 */
template <typename T, typename Pred>
inline cudaError_t gprim_partition_if(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out,
                                      size_t *d_num_selected, size_t n, Pred pred, cudaStream_t stream) {
  typedef typename gprim__select_cfg<(int)sizeof(T)>::type Cfg;
  gprim__sel_pred<Pred> src = {NULL, false, pred};
  return gprim__select_run<Cfg, T, gprim__sel_pred<Pred>, GPRIM__SEL_PARTITION>(d_temp, temp_bytes, d_in, src,
                                                                               d_out, d_num_selected, n, stream);
}

/* Keeps the first item of each run of equal (operator==) consecutive items.
     d_in = [1, 1, 2, 2, 2, 1, 3]  ->  d_out = [1, 2, 1, 3], *d_num_selected = 4 */
template <typename T>
inline cudaError_t gprim_unique(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out, size_t *d_num_selected,
                                size_t n, cudaStream_t stream) {
  typedef typename gprim__select_cfg<(int)sizeof(T)>::type Cfg;
  gprim__sel_unique<T> src = {NULL, false};
  return gprim__select_run<Cfg, T, gprim__sel_unique<T>, GPRIM__SEL_COMPACT>(d_temp, temp_bytes, d_in, src, d_out,
                                                                            d_num_selected, n, stream);
}

/* ---- run-length encoding ---- */

/* Look-back value of run-length encoding: runs started so far and where the
   latest one started. (a, b) -> (a.runs + b.runs, max(a.start, b.start));
   a tile with no run start has start 0, and tile 0 always has one at 0. */
struct gprim__rle_state {
  uint32_t runs, start;
};
struct gprim__rle_op {
  __device__ __forceinline__ gprim__rle_state operator()(const gprim__rle_state &a, const gprim__rle_state &b) const {
    gprim__rle_state s;
    s.runs = a.runs + b.runs;
    s.start = a.start < b.start ? b.start : a.start;
    return s;
  }
};

/* Warp 0 of the run-length kernel, once s_warp holds each warp's count of
   run starts and s_warp_start its latest run start: the tile's (runs, latest
   start) published and looked back; s_warp[w] becomes the runs of the tile
   in warps before w, *s_before what comes before the tile, *s_count the
   tile's runs. */
template <typename Cfg>
__device__ __forceinline__ void gprim__rle_offsets(uint32_t tile, const gprim__lookback<gprim__rle_state> &lb,
                                                   uint32_t *s_warp, const uint32_t *s_warp_start,
                                                   gprim__rle_state *s_before, uint32_t *s_count) {
  const int lane = threadIdx.x & 31;
  uint32_t own;
  const uint32_t w = gprim__warp_counts_scan<Cfg::WARPS>(s_warp, &own);
  gprim__rle_state agg;
  agg.runs = __shfl_sync(0xffffffffu, w, Cfg::WARPS - 1);
  agg.start = gprim__warp_max_u32(lane < Cfg::WARPS ? s_warp_start[lane] : 0u);
  const gprim__rle_state before = gprim__tile_look_back<Cfg>(tile, lb, gprim__rle_op(), agg);
  __syncwarp();
  if (lane < Cfg::WARPS) s_warp[lane] = w - own;
  if (lane == 0) {
    *s_before = before;
    *s_count = agg.runs;
  }
}

/* Single-pass run-length encoding by decoupled look-back over (runs, latest
   run start): one tile per block, tile id by atomic ticket; head flags, ballot
   ranks, run starts gathered in shared memory; run r's length =
   start[r + 1] - start[r], written by the tile holding start[r + 1] (the last
   run's by the last tile). */
template <typename Cfg, typename T>
__global__ void __launch_bounds__(Cfg::BLOCK)
gprim__rle_kernel(const T *in, T *unique_out, uint32_t *counts_out, size_t *num_runs, size_t n,
                  gprim__lookback<gprim__rle_state> lb, bool aligned) {
  enum { ROWS = Cfg::ROWS, CHUNK = Cfg::CHUNK, TILE = Cfg::TILE, WARPS = Cfg::WARPS };
  typedef gprim__sel_unique<T> Src;
  __shared__ uint32_t s_tile;
  __shared__ uint32_t s_warp[WARPS], s_warp_start[WARPS];
  __shared__ gprim__rle_state s_before;
  __shared__ uint32_t s_count;
  __shared__ T s_keys[TILE];
  __shared__ uint32_t s_start[TILE];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const Src src = {NULL, false};
  if (threadIdx.x == 0) s_tile = lb.take_ticket();
  __syncthreads();
  const uint32_t tile = s_tile;
  gprim__sel_stage<Cfg, T, Src> cur;
  cur.load(in, src, tile, n, aligned);
  const size_t tile_base = (size_t)tile * TILE;
  const size_t base = tile_base + (size_t)warp * Cfg::WARP_ITEMS;
  bool f[ROWS][CHUNK];
  gprim__head_flags<Cfg>(cur.x, cur.before, base, f);
  gprim__mask_tail<Cfg>(base, n, f);
  uint32_t last = 0; /* latest run start among the lane's items */
#pragma unroll
  for (int r = 0; r < ROWS; ++r)
#pragma unroll
    for (int k = 0; k < CHUNK; ++k)
      if (f[r][k]) last = (uint32_t)(base + r * 32 * CHUNK + lane * CHUNK + k);
  uint32_t rank[ROWS];
  const uint32_t warp_count = gprim__warp_ranks<Cfg>(f, rank);
  const uint32_t warp_start = gprim__warp_max_u32(last);
  if (lane == 0) {
    s_warp[warp] = warp_count;
    s_warp_start[warp] = warp_start;
  }
  __syncthreads();
  if (warp == 0) gprim__rle_offsets<Cfg>(tile, lb, s_warp, s_warp_start, &s_before, &s_count);
  __syncthreads();
  const gprim__rle_state before = s_before;
  const uint32_t count = s_count;
  const uint32_t warp_before = s_warp[warp];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    uint32_t k = warp_before + rank[r];
#pragma unroll
    for (int c = 0; c < CHUNK; ++c)
      if (f[r][c]) {
        s_keys[k] = cur.x[r][c];
        s_start[k] = (uint32_t)(base + r * 32 * CHUNK + lane * CHUNK + c);
        ++k;
      }
  }
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < count; i += Cfg::BLOCK) {
    const uint32_t run = before.runs + i, start = s_start[i];
    unique_out[run] = s_keys[i];
    if (run > 0) counts_out[run - 1] = start - (i > 0 ? s_start[i - 1] : before.start);
  }
  if (threadIdx.x == 0 && !(tile_base + TILE < n)) {
    const uint32_t runs = before.runs + count;
    const uint32_t last_start = count > 0 ? s_start[count - 1] : before.start;
    counts_out[runs - 1] = (uint32_t)(n - last_start);
    *num_runs = runs;
  }
}

template <typename Cfg, typename T>
inline cudaError_t gprim__rle_run(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_unique_out,
                                  uint32_t *d_counts_out, size_t *d_num_runs, size_t n, cudaStream_t stream) {
  const size_t tiles = gprim__div_up(n, Cfg::TILE);
  size_t sizes[1] = {gprim__lookback<gprim__rle_state>::bytes(tiles)};
  void *ptrs[1];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 1, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if (d_num_runs == NULL || n > 0xffffffffu) return cudaErrorInvalidValue;
  if (n == 0) return cudaMemsetAsync(d_num_runs, 0, sizeof(size_t), stream);
  if (d_in == NULL || d_unique_out == NULL || d_counts_out == NULL) return cudaErrorInvalidValue;
  gprim__lookback<gprim__rle_state> lb;
  lb.bind(ptrs[0], tiles);
  GPRIM_TRY(lb.reset(stream));
  gprim__rle_kernel<Cfg, T><<<(unsigned)tiles, Cfg::BLOCK, 0, stream>>>(
      d_in, d_unique_out, d_counts_out, d_num_runs, n, lb, gprim__chunk_aligned<T, Cfg::CHUNK>(d_in));
  return cudaGetLastError();
}

/* Run-length encoding: the first item of each run of equal (operator==)
   consecutive items and the run's length.
     d_in = [1, 1, 2, 2, 2, 1, 3]  ->  d_unique_out = [1, 2, 1, 3], d_counts_out = [2, 3, 1, 1],
                                       *d_num_runs = 4 */
template <typename T>
inline cudaError_t gprim_run_length_encode(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_unique_out,
                                           uint32_t *d_counts_out, size_t *d_num_runs, size_t n,
                                           cudaStream_t stream) {
  return gprim__rle_run<typename gprim__select_cfg<(int)sizeof(T)>::rle, T>(d_temp, temp_bytes, d_in, d_unique_out,
                                                                            d_counts_out, d_num_runs, n, stream);
}

#endif /* __CUDACC__ */
