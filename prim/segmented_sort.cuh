/* gpuprim section: segmented_sort (see gpuprim.cuh).

   Ascending, STABLE sort of every segment of an array on its own: keys, or
   key-value pairs. Keys are uint32_t or uint64_t, values any 4- or 8-byte type
   (moved as raw words), offsets uint32_t or uint64_t in CSR form: segment s is
   [offsets[s], offsets[s + 1]).

     offsets = [0, 3, 3, 5], keys = [5, 1, 5, 9, 2]            ->  keys [1, 5, 5, 2, 9]
     same, vals = [0, 1, 2, 3, 4]                              ->  vals [1, 0, 2, 4, 3]

   Requirements (documented, not all checked): offsets[0] == 0, offsets
   nondecreasing, offsets[num_segments] == n; items outside every segment do
   not exist (they are neither read nor written). A segment with
   offsets[s + 1] < offsets[s] or offsets[s + 1] > n is skipped (cheap guard,
   its output is undefined). n < 2^32 and num_segments < 2^32 - 1, else
   cudaErrorInvalidValue. In place is allowed (d_keys_in == d_keys_out, and
   d_vals_in == d_vals_out); other overlaps are not.

   Method: segments are binned by length (a classify kernel compacts the
   segment ids of each bin with one atomic per bin per block, and hands each
   large segment a range of tiles by atomic ticket), then one launch per bin:
     small   (1 .. 128):     a warp stages up to 512 keys of several whole
                             segments in shared memory; each item's rank in its
                             segment is counted (keys smaller, or equal and
                             earlier), so the sort is stable by construction.
     medium  (129 .. 4096):  one block per segment, LSD radix sort in shared
                             memory (8-bit digits, warp-level multisplit
                             ranking), passes whose digit is constant in the
                             segment skipped. Two launches: <= 1024, <= 4096.
     large   (> 4096):       segmented onesweep: tiles of 4096 keys never cross
                             a segment; one kernel counts every digit pass of
                             every large segment, then one kernel per 8-bit
                             pass ranks a tile, finds the digit counts of the
                             segment's earlier tiles by decoupled look-back
                             (stopping at the segment's first tile) and
                             scatters through shared memory.
   Temp storage: the bin lists (4 bytes per segment at most) and, when
   n > 4096, a ping-pong copy of the keys and values, the digit counts of the
   possible large segments (sizeof(K) KB per 4097 keys) and 2 KB of look-back
   words plus a 16-byte descriptor per possible tile: about
   n * (sizeof(K) + sizeof(V)) + n * (sizeof(K) / 4 + 1) bytes. */

/* ---------------------------------------------------------------------------
   device code
   ------------------------------------------------------------------------- */
#if defined(__CUDACC__)

enum {
  GPRIM__SEGSORT_SMALL_MAX = 128,  /* small bin: 1 .. 128 keys */
  GPRIM__SEGSORT_MED1_MAX = 1024,  /* medium bins: one block per segment */
  GPRIM__SEGSORT_MED2_MAX = 4096,
  GPRIM__SEGSORT_WBUF = 512,       /* small bin: keys staged per warp */
  GPRIM__SEGSORT_SMALL_WARPS = 4,
  GPRIM__SEGSORT_BLOCK = 256,      /* medium and large blocks: thread d owns digit d */
  GPRIM__SEGSORT_WARPS = 8,
  GPRIM__SEGSORT_ITEMS = 16,       /* large tiles: 256 threads x 16 keys */
  GPRIM__SEGSORT_TILE = 4096,
  GPRIM__SEGSORT_DIGITS = 256,
  /* counters in temp storage: bin sizes, large tiles, one ticket per pass */
  GPRIM__SEGSORT_BIN_SMALL = 0, GPRIM__SEGSORT_BIN_MED1 = 1, GPRIM__SEGSORT_BIN_MED2 = 2,
  GPRIM__SEGSORT_BIN_LARGE = 3, GPRIM__SEGSORT_NTILES = 4, GPRIM__SEGSORT_TICKET = 8,
  GPRIM__SEGSORT_COUNTERS = 16
};
/* look-back word: epoch (pass + 1) << 34 | flag << 32 | count */
#define GPRIM__SEGSORT_AGGREGATE 1ull
#define GPRIM__SEGSORT_PREFIX 2ull

/* the unsigned word of a value's size: values are only moved */
template <int BYTES> struct gprim__segsort_word;
template <> struct gprim__segsort_word<4> { typedef uint32_t type; };
template <> struct gprim__segsort_word<8> { typedef unsigned long long type; };

/* 1 when the key `other` at staging index u goes before `mine` at index t:
   smaller, or equal and earlier. For 32-bit keys, one 64-bit compare of
   (key, index). */
template <typename K>
__device__ __forceinline__ uint32_t gprim__segsort_goes_before(K other, uint32_t u, K mine, uint32_t t) {
  return (uint32_t)(other < mine) | ((uint32_t)(other == mine) & (uint32_t)(u < t));
}
template <>
__device__ __forceinline__ uint32_t gprim__segsort_goes_before<uint32_t>(uint32_t other, uint32_t u, uint32_t mine,
                                                                        uint32_t t) {
  return (((unsigned long long)other << 32) | u) < (((unsigned long long)mine << 32) | t);
}

template <typename K>
__device__ __forceinline__ uint32_t gprim__segsort_digit(K key, int shift) {
  return (uint32_t)(key >> shift) & 0xffu;
}

__device__ __forceinline__ void gprim__segsort_store_word(unsigned long long *p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long gprim__segsort_load_word(const unsigned long long *p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

/* Exclusive scan over the 256 threads of the block (x of thread d -> sum of
   x over threads < d); *total gets the sum. Every thread calls it. */
__device__ __forceinline__ uint32_t gprim__segsort_scan256(uint32_t x, uint32_t *s_warp /* [8] */,
                                                           uint32_t *total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint32_t inc = gprim__warp_inclusive_sum_u32(x);
  if (lane == 31) s_warp[warp] = inc;
  __syncthreads();
  uint32_t before = 0, sum = 0;
#pragma unroll
  for (int w = 0; w < GPRIM__SEGSORT_WARPS; ++w) {
    uint32_t s = s_warp[w];
    before += w < warp ? s : 0u;
    sum += s;
  }
  __syncthreads(); /* s_warp may be reused right after */
  *total = sum;
  return before + inc - x;
}

/* Warp-level multisplit ranking of 8-bit digits, stable: item i of lane l
   (warp-local index i * 32 + l, valid when < wvalid) gets the number of
   earlier items of the warp with its digit. The warp's counters wcnt[256]
   (zeroed by the caller) end holding the warp's digit counts. Peers of a
   digit are found with one ballot per digit bit. */
template <typename K, int ITEMS>
__device__ __forceinline__ void gprim__segsort_warp_rank(const K (&key)[ITEMS], int shift, uint32_t wvalid,
                                                         uint32_t (&rank)[ITEMS], uint32_t *wcnt) {
  const uint32_t lane = threadIdx.x & 31, below = (1u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if ((uint32_t)i * 32u < wvalid) { /* warp-uniform */
      const bool ok = (uint32_t)i * 32u + lane < wvalid;
      const uint32_t d = gprim__segsort_digit(key[i], shift);
      uint32_t peers = __ballot_sync(0xffffffffu, ok);
#pragma unroll
      for (int b = 0; b < 8; ++b) {
        uint32_t bit = (d >> b) & 1u;
        uint32_t vote = __ballot_sync(0xffffffffu, bit);
        peers &= bit ? vote : ~vote;
      }
      uint32_t before = ok ? wcnt[d] : 0u;
      __syncwarp();
      if (ok && (peers & below) == 0u) wcnt[d] = before + __popc(peers); /* lowest peer updates */
      __syncwarp();
      rank[i] = before + __popc(peers & below);
    }
  }
}

/* After gprim__segsort_warp_rank by every warp (and __syncthreads): turns
   wcnt[w][d] into the count of digit d in warps < w, returns the block's count
   of digit d for thread d. */
__device__ __forceinline__ uint32_t gprim__segsort_warp_prefix(uint32_t *wcnt /* [8][256] */) {
  uint32_t sum = 0;
#pragma unroll
  for (int w = 0; w < GPRIM__SEGSORT_WARPS; ++w) {
    uint32_t c = wcnt[w * GPRIM__SEGSORT_DIGITS + threadIdx.x];
    wcnt[w * GPRIM__SEGSORT_DIGITS + threadIdx.x] = sum;
    sum += c;
  }
  return sum;
}

/* Segment classification and compaction of the ids of each bin: per block,
   ballot ranks per bin, one atomicAdd per bin for the block's base (the order
   of blocks in a list does not matter). A large segment gets a slot for its
   digit counters (zeroed here) and a range of tiles by atomic ticket; each
   tile gets a descriptor {first key, keys | FIRST for the segment's first
   tile, segment begin, slot}. */
template <typename O>
__global__ void __launch_bounds__(256)
gprim__segsort_bin_kernel(const O *offsets, size_t num_segments, size_t n, uint32_t *counters, uint32_t *list_small,
                          uint32_t *list_med1, uint32_t *list_med2, uint32_t *seg_hist, uint4 *tile_desc,
                          int passes) {
  __shared__ uint32_t s_warp[GPRIM__SEGSORT_WARPS][4];
  __shared__ uint32_t s_base[4], s_total_large, s_tile_base;
  __shared__ uint32_t s_scan[GPRIM__SEGSORT_WARPS];
  __shared__ uint32_t s_first[256], s_begin[256], s_len[256]; /* the block's large segments */
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint32_t below = (1u << lane) - 1u;
  for (size_t first = (size_t)blockIdx.x * 256; first < num_segments; first += (size_t)gridDim.x * 256) {
    const size_t s = first + threadIdx.x;
    int bin = -1;
    uint32_t begin = 0, len = 0; /* n < 2^32 */
    if (s < num_segments) {
      size_t b = (size_t)offsets[s], e = (size_t)offsets[s + 1];
      if (e > b && e <= n) {
        begin = (uint32_t)b;
        len = (uint32_t)(e - b);
        bin = len <= GPRIM__SEGSORT_SMALL_MAX ? 0 : len <= GPRIM__SEGSORT_MED1_MAX ? 1
            : len <= GPRIM__SEGSORT_MED2_MAX ? 2 : 3;
      }
    }
    uint32_t my_rank = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      uint32_t m = __ballot_sync(0xffffffffu, bin == k);
      if (bin == k) my_rank = __popc(m & below);
      if (lane == 0) s_warp[warp][k] = __popc(m);
    }
    __syncthreads();
    if (threadIdx.x < 4) {
      const int k = threadIdx.x;
      uint32_t sum = 0;
      for (int w = 0; w < GPRIM__SEGSORT_WARPS; ++w) {
        uint32_t c = s_warp[w][k];
        s_warp[w][k] = sum;
        sum += c;
      }
      s_base[k] = sum ? atomicAdd(&counters[k], sum) : 0u;
      if (k == 3) s_total_large = sum;
    }
    __syncthreads();
    if (bin >= 0 && bin < 3) {
      uint32_t *list = bin == 0 ? list_small : bin == 1 ? list_med1 : list_med2;
      list[s_base[bin] + s_warp[warp][bin] + my_rank] = (uint32_t)s;
    }
    const uint32_t tiles = bin == 3 ? (len + GPRIM__SEGSORT_TILE - 1) / GPRIM__SEGSORT_TILE : 0u;
    uint32_t tiles_total;
    const uint32_t tiles_before = gprim__segsort_scan256(tiles, s_scan, &tiles_total);
    if (threadIdx.x == 0) s_tile_base = tiles_total ? atomicAdd(&counters[GPRIM__SEGSORT_NTILES], tiles_total) : 0u;
    if (bin == 3) {
      const uint32_t k = s_warp[warp][3] + my_rank; /* block-local large index */
      s_first[k] = tiles_before;
      s_begin[k] = begin;
      s_len[k] = len;
    }
    __syncthreads();
    const uint32_t nlarge = s_total_large, slot0 = s_base[3], tile0 = s_tile_base;
    const size_t words = (size_t)nlarge * passes * GPRIM__SEGSORT_DIGITS;
    uint32_t *hist = seg_hist + (size_t)slot0 * passes * GPRIM__SEGSORT_DIGITS;
    for (size_t w = threadIdx.x; w < words; w += 256) hist[w] = 0;
    for (uint32_t k = 0; k < nlarge; ++k) {
      const uint32_t b = s_begin[k], l = s_len[k], t0 = tile0 + s_first[k];
      for (uint32_t q = threadIdx.x; (size_t)q * GPRIM__SEGSORT_TILE < l; q += 256) {
        const uint32_t at = q * GPRIM__SEGSORT_TILE, keys = min((uint32_t)GPRIM__SEGSORT_TILE, l - at);
        tile_desc[t0 + q] = make_uint4(b + at, keys | (q == 0 ? 0x80000000u : 0u), b, slot0 + k);
      }
    }
    __syncthreads(); /* shared arrays reused by the next round */
  }
}

/* Small segments (<= 128 keys) by rank counting: a warp takes `group` (a
   power of two <= 32) segments of the bin, one per lane (lanes beyond hold
   nothing), stages as many whole segments as fit in 512 slots in shared memory,
   and each item counts the keys of its segment that go before it (smaller, or
   equal and earlier: stable). The staging makes in-place use safe. */
template <typename K, typename V, typename O, bool PAIRS>
__global__ void __launch_bounds__(GPRIM__SEGSORT_SMALL_WARPS * 32)
gprim__segsort_small_kernel(const K *keys_in, K *keys_out, const V *vals_in, V *vals_out, const O *offsets,
                            const uint32_t *list, const uint32_t *counters, uint32_t group) {
  enum { WBUF = GPRIM__SEGSORT_WBUF, WARPS = GPRIM__SEGSORT_SMALL_WARPS };
  __shared__ K s_keys[WARPS][WBUF];
  __shared__ V s_vals[WARPS][PAIRS ? WBUF : 1];
  __shared__ uint32_t s_lo[WARPS][33]; /* batch-local start of each lane's segment; [32] = end */
  __shared__ size_t s_begin[WARPS][32];
  __shared__ uint8_t s_owner[WARPS][WBUF]; /* batch lane of each staged item's segment */
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  K *sk = s_keys[warp];
  V *sv = s_vals[warp];
  uint32_t *lo = s_lo[warp];
  size_t *gbeg = s_begin[warp];
  uint8_t *owner = s_owner[warp];
  const uint32_t count = counters[GPRIM__SEGSORT_BIN_SMALL];
  const uint32_t groups = count / group + (count % group != 0);
  for (uint32_t g = blockIdx.x * WARPS + warp; g < groups; g += gridDim.x * WARPS) {
    const size_t at = (size_t)g * group + lane;
    uint32_t len = 0;
    size_t begin = 0;
    if ((uint32_t)lane < group && at < count) {
      const uint32_t seg = list[at];
      begin = (size_t)offsets[seg];
      len = (uint32_t)((size_t)offsets[seg + 1] - begin);
    }
    const uint32_t incl = gprim__warp_inclusive_sum_u32(len), excl = incl - len;
    int first = 0;
    while (first < 32) { /* batches of whole segments, lanes [first, last] */
      const uint32_t base = __shfl_sync(0xffffffffu, excl, first);
      const uint32_t fits = __ballot_sync(0xffffffffu, lane >= first && incl - base <= (uint32_t)WBUF);
      const int last = 31 - __clz(fits);
      const uint32_t total = __shfl_sync(0xffffffffu, incl, last) - base;
      lo[lane] = lane < first ? 0u : excl - base; /* lanes after last start at >= total */
      if (lane == 31) lo[32] = incl - base;
      gbeg[lane] = begin;
      __syncwarp();
      for (uint32_t t = lane; t < total; t += 32) {
        uint32_t j = 0; /* the last segment starting at or before t */
#pragma unroll
        for (int step = 16; step > 0; step >>= 1)
          if (lo[j + step] <= t) j += step;
        const size_t from = gbeg[j] + (t - lo[j]);
        sk[t] = keys_in[from];
        if (PAIRS) sv[t] = vals_in[from];
        owner[t] = (uint8_t)j;
      }
      __syncwarp();
      for (uint32_t t = lane; t < total; t += 32) {
        const uint32_t j = owner[t], s = lo[j], e = lo[j + 1];
        const K mine = sk[t];
        uint32_t r = 0;
#pragma unroll 4
        for (uint32_t u = s; u < e; ++u) r += gprim__segsort_goes_before(sk[u], u, mine, t);
        keys_out[gbeg[j] + r] = mine;
        if (PAIRS) vals_out[gbeg[j] + r] = sv[t];
      }
      __syncwarp(); /* before the next batch overwrites the staging */
      first = last + 1;
    }
  }
}

/* Medium segments (<= 256 * ITEMS keys): one block per segment, LSD radix
   sort in shared memory. Warp w ranks the keys [w * chunk, (w + 1) * chunk)
   (warp multisplit), the block scans the digit counts, keys move to their
   positions; a pass whose digit is the same for all keys is skipped. */
template <typename K, typename V, typename O, bool PAIRS, int ITEMS>
__global__ void __launch_bounds__(GPRIM__SEGSORT_BLOCK)
gprim__segsort_medium_kernel(const K *keys_in, K *keys_out, const V *vals_in, V *vals_out, const O *offsets,
                             const uint32_t *list, const uint32_t *counters, int bin) {
  enum { WARPS = GPRIM__SEGSORT_WARPS, DIGITS = GPRIM__SEGSORT_DIGITS, MAXLEN = GPRIM__SEGSORT_BLOCK * ITEMS };
  extern __shared__ __align__(16) unsigned char gprim__segsort_dyn[];
  K *sk = (K *)gprim__segsort_dyn;
  V *sv = (V *)(sk + MAXLEN);
  __shared__ uint32_t s_wcnt[WARPS * DIGITS];
  __shared__ uint32_t s_start[DIGITS];
  __shared__ uint32_t s_scan[WARPS];
  __shared__ K s_diff[WARPS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint32_t count = counters[bin];
  for (uint32_t b = blockIdx.x; b < count; b += gridDim.x) {
    const uint32_t seg = list[b];
    const size_t begin = (size_t)offsets[seg];
    const uint32_t len = (uint32_t)((size_t)offsets[seg + 1] - begin);
    const K first = keys_in[begin];
    K diff = 0; /* bits that differ between keys of the segment */
    for (uint32_t t = threadIdx.x; t < len; t += GPRIM__SEGSORT_BLOCK) {
      K k = keys_in[begin + t];
      sk[t] = k;
      diff |= k ^ first;
      if (PAIRS) sv[t] = vals_in[begin + t];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) diff |= __shfl_xor_sync(0xffffffffu, diff, o);
    if (lane == 0) s_diff[warp] = diff;
    __syncthreads();
    diff = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) diff |= s_diff[w];
    const uint32_t chunk = ((len + WARPS - 1) / WARPS + 31) & ~31u; /* <= 32 * ITEMS */
    const uint32_t wvalid = len > warp * chunk ? min(chunk, len - warp * chunk) : 0u;
    uint32_t *wcnt = s_wcnt + warp * DIGITS;
    for (int shift = 0; shift < 8 * (int)sizeof(K); shift += 8) {
      if (((diff >> shift) & 0xffu) == 0) continue; /* block-uniform */
#pragma unroll
      for (int w = 0; w < WARPS; ++w) s_wcnt[w * DIGITS + threadIdx.x] = 0;
      __syncthreads();
      K k[ITEMS];
      V v[PAIRS ? ITEMS : 1];
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        const uint32_t at = warp * chunk + i * 32 + lane;
        const bool ok = (uint32_t)i * 32u + lane < wvalid;
        k[i] = ok ? sk[at] : (K)0;
        if (PAIRS) v[i] = ok ? sv[at] : (V)0;
      }
      uint32_t rank[ITEMS];
      gprim__segsort_warp_rank<K, ITEMS>(k, shift, wvalid, rank, wcnt);
      __syncthreads();
      uint32_t total;
      s_start[threadIdx.x] = gprim__segsort_scan256(gprim__segsort_warp_prefix(s_wcnt), s_scan, &total);
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        if ((uint32_t)i * 32u + lane < wvalid) {
          const uint32_t d = gprim__segsort_digit(k[i], shift);
          const uint32_t pos = s_start[d] + wcnt[d] + rank[i];
          sk[pos] = k[i];
          if (PAIRS) sv[pos] = v[i];
        }
      }
      __syncthreads();
    }
    for (uint32_t t = threadIdx.x; t < len; t += GPRIM__SEGSORT_BLOCK) {
      keys_out[begin + t] = sk[t];
      if (PAIRS) vals_out[begin + t] = sv[t];
    }
    __syncthreads(); /* before the next segment reuses shared memory */
  }
}

/* Large segments, onesweep's upfront pass: per tile, the counts of every
   digit of every pass (shared-memory histograms, runs of equal digits added
   at once), added to the segment's counters. Also zeroes the tile's
   look-back words. */
template <typename K>
__global__ void __launch_bounds__(GPRIM__SEGSORT_BLOCK)
gprim__segsort_hist_kernel(const K *keys_in, const uint4 *tile_desc, const uint32_t *counters, uint32_t *seg_hist,
                           unsigned long long *status) {
  enum { PASSES = (int)sizeof(K), DIGITS = GPRIM__SEGSORT_DIGITS, ITEMS = GPRIM__SEGSORT_ITEMS };
  __shared__ uint32_t s_hist[PASSES * DIGITS];
  const uint32_t tiles = counters[GPRIM__SEGSORT_NTILES];
  for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x) {
#pragma unroll
    for (int p = 0; p < PASSES; ++p) s_hist[p * DIGITS + threadIdx.x] = 0;
    status[(size_t)t * DIGITS + threadIdx.x] = 0;
    const uint4 desc = tile_desc[t];
    const uint32_t begin = desc.x, valid = desc.y & 0x7fffffffu, slot = desc.w;
    K k[ITEMS];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
      const uint32_t at = it * GPRIM__SEGSORT_BLOCK + threadIdx.x;
      k[it] = at < valid ? keys_in[(size_t)begin + at] : (K)0;
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < PASSES; ++p) {
      uint32_t prev = 0, run = 0;
#pragma unroll
      for (int it = 0; it < ITEMS; ++it) {
        if (it * GPRIM__SEGSORT_BLOCK + threadIdx.x < valid) {
          const uint32_t d = gprim__segsort_digit(k[it], 8 * p);
          if (run > 0 && d != prev) {
            atomicAdd(&s_hist[p * DIGITS + prev], run);
            run = 0;
          }
          prev = d;
          ++run;
        }
      }
      if (run > 0) atomicAdd(&s_hist[p * DIGITS + prev], run);
    }
    __syncthreads();
    uint32_t *out = seg_hist + (size_t)slot * PASSES * DIGITS;
#pragma unroll
    for (int p = 0; p < PASSES; ++p) {
      const uint32_t c = s_hist[p * DIGITS + threadIdx.x];
      if (c) atomicAdd(&out[p * DIGITS + threadIdx.x], c);
    }
    __syncthreads();
  }
}

/* Large segments, one 8-bit pass of segmented onesweep. A block takes tiles
   by atomic ticket when it is ready to start one (a ticket taken early would
   hold back the segment's later tiles in their look-back); a tile lies in
   one segment. It ranks its keys
   (warp multisplit), publishes its digit counts, and thread d looks back over
   the segment's earlier tiles (decoupled look-back; the segment's first tile
   publishes an inclusive prefix at once, so the walk never leaves the
   segment). Key of digit d at tile position q goes to
   segment begin + (keys of the segment with digit < d) + (digit d in earlier
   tiles) + q - (first tile position of d); the scatter goes through shared
   memory so that writes are coalesced. One function: the tile loop keeps the
   tile's keys, values and ranks in registers from the ranking to the
   scatter, and its phases hand over the per-warp counters and the one shared
   buffer (keys, then values) at barriers the next tile's ticket also waits on. */
template <typename K, typename V, bool PAIRS>
__global__ void __launch_bounds__(GPRIM__SEGSORT_BLOCK, sizeof(K) == 4 && !PAIRS ? 3 : 2) /* >= 80 registers */
gprim__segsort_onesweep_kernel(const K *keys_in, K *keys_out, const V *vals_in, V *vals_out, const uint4 *tile_desc,
                               uint32_t *counters, const uint32_t *seg_hist, unsigned long long *status, int pass) {
  enum {
    WARPS = GPRIM__SEGSORT_WARPS, DIGITS = GPRIM__SEGSORT_DIGITS, ITEMS = GPRIM__SEGSORT_ITEMS,
    TILE = GPRIM__SEGSORT_TILE, BLOCK = GPRIM__SEGSORT_BLOCK, PASSES = (int)sizeof(K),
    WIDE = sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V)
  };
  __shared__ __align__(16) unsigned char s_buf[TILE * WIDE]; /* keys, then values, in sorted order */
  __shared__ uint32_t s_wcnt[WARPS * DIGITS];
  __shared__ uint32_t s_start[DIGITS];
  __shared__ long long s_base[DIGITS]; /* output index - tile position, per digit */
  __shared__ uint32_t s_scan[WARPS];
  __shared__ uint32_t s_tile;
  __shared__ uint4 s_desc;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int shift = 8 * pass;
  const unsigned long long epoch = (unsigned long long)(pass + 1) << 34;
  const uint32_t tiles = counters[GPRIM__SEGSORT_NTILES];
  if (tiles == 0) return;
  uint32_t *ticket = &counters[GPRIM__SEGSORT_TICKET + pass];
  uint32_t *wcnt = s_wcnt + warp * DIGITS;
  for (;;) {
#pragma unroll
    for (int w = 0; w < WARPS; ++w) s_wcnt[w * DIGITS + threadIdx.x] = 0;
    if (threadIdx.x == 0) {
      const uint32_t tt = atomicAdd(ticket, 1u);
      s_tile = tt;
      if (tt < tiles) s_desc = tile_desc[tt];
    }
    __syncthreads();
    const uint32_t t = s_tile;
    if (t >= tiles) break; /* block-uniform */
    const uint4 desc = s_desc;
    const uint32_t begin = desc.x, valid = desc.y & 0x7fffffffu, seg_begin = desc.z, slot = desc.w;
    const bool first_tile = (desc.y >> 31) != 0;
    const uint32_t seg_count = seg_hist[((size_t)slot * PASSES + pass) * DIGITS + threadIdx.x];
    const uint32_t wfirst = warp * 32 * ITEMS;
    const uint32_t wvalid = valid > wfirst ? min((uint32_t)(32 * ITEMS), valid - wfirst) : 0u;
    K k[ITEMS];
    V v[PAIRS ? ITEMS : 1];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
      const bool ok = (uint32_t)it * 32u + lane < wvalid;
      const size_t at = (size_t)begin + wfirst + it * 32 + lane;
      k[it] = ok ? keys_in[at] : (K)0;
      if (PAIRS) v[it] = ok ? vals_in[at] : (V)0;
    }
    uint32_t rank[ITEMS];
    gprim__segsort_warp_rank<K, ITEMS>(k, shift, wvalid, rank, wcnt);
    __syncthreads();
    const uint32_t mine = gprim__segsort_warp_prefix(s_wcnt);
    unsigned long long *st = status + (size_t)t * DIGITS + threadIdx.x;
    gprim__segsort_store_word(st, epoch | (first_tile ? GPRIM__SEGSORT_PREFIX : GPRIM__SEGSORT_AGGREGATE) << 32 | mine);
    uint32_t total;
    const uint32_t start = gprim__segsort_scan256(mine, s_scan, &total);
    const uint32_t below = gprim__segsort_scan256(seg_count, s_scan, &total);
    uint32_t earlier = 0;
    if (!first_tile) {
      const unsigned long long *p = st;
      for (;;) {
        p -= DIGITS;
        unsigned long long w;
        do {
          w = gprim__segsort_load_word(p);
        } while ((w & ~0x3ffffffffull) != epoch);
        earlier += (uint32_t)w;
        if ((w >> 32 & 3ull) == GPRIM__SEGSORT_PREFIX) break;
      }
      gprim__segsort_store_word(st, epoch | GPRIM__SEGSORT_PREFIX << 32 | (earlier + mine));
    }
    s_start[threadIdx.x] = start;
    s_base[threadIdx.x] = (long long)seg_begin + below + earlier - (long long)start;
    __syncthreads();
    K *sk = (K *)s_buf;
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
      if ((uint32_t)it * 32u + lane < wvalid) {
        const uint32_t d = gprim__segsort_digit(k[it], shift);
        rank[it] += s_start[d] + wcnt[d]; /* tile position */
        sk[rank[it]] = k[it];
      }
    }
    __syncthreads();
    uint32_t digits[PAIRS ? (ITEMS + 3) / 4 : 1]; /* 8-bit digit of each position written, for the values */
#pragma unroll
    for (int q = 0; q < (PAIRS ? (ITEMS + 3) / 4 : 1); ++q) digits[q] = 0;
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
      const uint32_t q = it * BLOCK + threadIdx.x;
      if (q < valid) {
        const K key = sk[q];
        const uint32_t d = gprim__segsort_digit(key, shift);
        keys_out[s_base[d] + q] = key;
        if (PAIRS) digits[it / 4] |= d << (8 * (it % 4));
      }
    }
    if (PAIRS) {
      __syncthreads();
      V *sv = (V *)s_buf;
#pragma unroll
      for (int it = 0; it < ITEMS; ++it)
        if ((uint32_t)it * 32u + lane < wvalid) sv[rank[it]] = v[it];
      __syncthreads();
#pragma unroll
      for (int it = 0; it < ITEMS; ++it) {
        const uint32_t q = it * BLOCK + threadIdx.x;
        if (q < valid) vals_out[s_base[(digits[it / 4] >> (8 * (it % 4))) & 0xffu] + q] = sv[q];
      }
    }
    __syncthreads(); /* shared memory, s_tile and s_desc reused by the next tile */
  }
}

/* blocks to launch: enough for `work` units, at most what fits `per_sm` per SM */
static inline unsigned gprim__segsort_grid(size_t work, int per_sm) {
  size_t cap = (size_t)gprim__sm_count() * (size_t)(per_sm > 0 ? per_sm : 1);
  size_t g = work < cap ? work : cap;
  return (unsigned)(g > 0 ? g : 1);
}

/* The temp storage of a segmented sort, carved: the most segments each bin
   can hold (a bin's segments are at most num_segments and at most
   n / (its shortest length)) and the buffers sized by them. */
template <typename K, typename V> struct gprim__segsort_temp {
  size_t up_small, up_med1, up_med2, up_large, up_tiles;
  uint32_t *counters, *list_small, *list_med1, *list_med2, *seg_hist;
  uint4 *tile_desc;
  unsigned long long *status;
  K *alt_keys;
  V *alt_vals;
};
template <typename K, typename V, bool PAIRS>
static cudaError_t gprim__segsort_carve(void *d_temp, size_t *temp_bytes, size_t n, size_t num_segments,
                                        gprim__segsort_temp<K, V> *t) {
  enum { PASSES = (int)sizeof(K), DIGITS = GPRIM__SEGSORT_DIGITS };
  t->up_small = std::min(num_segments, n);
  t->up_med1 = std::min(num_segments, n / (GPRIM__SEGSORT_SMALL_MAX + 1));
  t->up_med2 = std::min(num_segments, n / (GPRIM__SEGSORT_MED1_MAX + 1));
  t->up_large = std::min(num_segments, n / (GPRIM__SEGSORT_MED2_MAX + 1));
  t->up_tiles = t->up_large ? n / GPRIM__SEGSORT_TILE + t->up_large : 0;
  size_t sizes[9] = {GPRIM__SEGSORT_COUNTERS * sizeof(uint32_t),
                     t->up_small * sizeof(uint32_t),
                     t->up_med1 * sizeof(uint32_t),
                     t->up_med2 * sizeof(uint32_t),
                     t->up_large * PASSES * DIGITS * sizeof(uint32_t),
                     t->up_tiles * sizeof(uint4),
                     t->up_tiles * DIGITS * sizeof(unsigned long long),
                     t->up_large ? n * sizeof(K) : 0,
                     t->up_large && PAIRS ? n * sizeof(V) : 0};
  void *p[9];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 9, sizes, p));
  if (d_temp == NULL) return cudaSuccess;
  t->counters = (uint32_t *)p[0], t->list_small = (uint32_t *)p[1], t->list_med1 = (uint32_t *)p[2];
  t->list_med2 = (uint32_t *)p[3], t->seg_hist = (uint32_t *)p[4];
  t->tile_desc = (uint4 *)p[5];
  t->status = (unsigned long long *)p[6];
  t->alt_keys = (K *)p[7];
  t->alt_vals = (V *)p[8];
  return cudaSuccess;
}

/* One medium bin's launch: segments of at most MAXLEN keys, one block each,
   at most per_sm blocks per SM. The bin above GPRIM__SEGSORT_MED1_MAX may
   need more than the default 48 KiB of dynamic shared memory: its kernel
   opts in, once per device (ids < 64 cached). */
template <typename K, typename V, typename O, bool PAIRS, int MAXLEN>
static cudaError_t gprim__segsort_medium(const K *d_keys_in, K *d_keys_out, const V *d_vals_in, V *d_vals_out,
                                         const O *d_offsets, const uint32_t *list, const uint32_t *counters,
                                         int bin, size_t up, int per_sm, int dev, cudaStream_t stream) {
  const size_t smem = MAXLEN * (sizeof(K) + (PAIRS ? sizeof(V) : 0));
  void (*kernel)(const K *, K *, const V *, V *, const O *, const uint32_t *, const uint32_t *, int) =
      gprim__segsort_medium_kernel<K, V, O, PAIRS, MAXLEN / GPRIM__SEGSORT_BLOCK>;
  if (MAXLEN > GPRIM__SEGSORT_MED1_MAX) {
    static bool s_opt_in[64];
    const bool cache = dev >= 0 && dev < 64;
    if (!cache || !s_opt_in[dev]) {
      GPRIM_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
      if (cache) s_opt_in[dev] = true;
    }
  }
  kernel<<<gprim__segsort_grid(up, per_sm), GPRIM__SEGSORT_BLOCK, smem, stream>>>(
      d_keys_in, d_keys_out, d_vals_in, d_vals_out, d_offsets, list, counters, bin);
  return cudaGetLastError();
}

/* The large bin: onesweep's counts of every pass, then one onesweep launch
   per 8-bit pass, as many blocks as fit (occupancy cached per device, ids <
   64). PASSES is even, so the passes ping-pong in -> alt -> out -> alt ->
   ... -> out. */
template <typename K, typename V, bool PAIRS>
static cudaError_t gprim__segsort_large(const gprim__segsort_temp<K, V> &t, const K *d_keys_in, K *d_keys_out,
                                        const V *d_vals_in, V *d_vals_out, int dev, cudaStream_t stream) {
  enum { PASSES = (int)sizeof(K) };
  static int s_per_sm[64];
  const bool cache = dev >= 0 && dev < 64;
  gprim__segsort_hist_kernel<K><<<gprim__segsort_grid(t.up_tiles, 8), GPRIM__SEGSORT_BLOCK, 0, stream>>>(
      d_keys_in, t.tile_desc, t.counters, t.seg_hist, t.status);
  GPRIM_TRY(cudaGetLastError());
  void (*kernel)(const K *, K *, const V *, V *, const uint4 *, uint32_t *, const uint32_t *, unsigned long long *,
                 int) = gprim__segsort_onesweep_kernel<K, V, PAIRS>;
  int per_sm = cache ? s_per_sm[dev] : 0;
  if (per_sm <= 0) {
    GPRIM_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, GPRIM__SEGSORT_BLOCK, 0));
    if (cache) s_per_sm[dev] = per_sm;
  }
  const unsigned grid = gprim__segsort_grid(t.up_tiles, per_sm);
  for (int pass = 0; pass < PASSES; ++pass) {
    const K *ksrc = pass == 0 ? d_keys_in : (pass & 1) ? t.alt_keys : d_keys_out;
    K *kdst = (pass & 1) ? d_keys_out : t.alt_keys;
    const V *vsrc = pass == 0 ? d_vals_in : (pass & 1) ? t.alt_vals : d_vals_out;
    V *vdst = (pass & 1) ? d_vals_out : t.alt_vals;
    kernel<<<grid, GPRIM__SEGSORT_BLOCK, 0, stream>>>(ksrc, kdst, vsrc, vdst, t.tile_desc, t.counters, t.seg_hist,
                                                       t.status, pass);
    GPRIM_TRY(cudaGetLastError());
  }
  return cudaSuccess;
}

/* The whole segmented sort. V is an unsigned word; PAIRS == false ignores the
   value pointers. */
template <typename K, typename V, typename O, bool PAIRS>
static cudaError_t gprim__segsort_run(void *d_temp, size_t *temp_bytes, const K *d_keys_in, K *d_keys_out,
                                      const V *d_vals_in, V *d_vals_out, size_t n, size_t num_segments,
                                      const O *d_offsets, cudaStream_t stream) {
  enum { PASSES = (int)sizeof(K) };
  if (temp_bytes == NULL || n > 0xffffffffull || num_segments >= 0xffffffffull) return cudaErrorInvalidValue;
  gprim__segsort_temp<K, V> t;
  GPRIM_TRY((gprim__segsort_carve<K, V, PAIRS>(d_temp, temp_bytes, n, num_segments, &t)));
  if (d_temp == NULL) return cudaSuccess;
  if (n > 0 && (d_keys_in == NULL || d_keys_out == NULL)) return cudaErrorInvalidValue;
  if (n > 0 && PAIRS && (d_vals_in == NULL || d_vals_out == NULL)) return cudaErrorInvalidValue;
  if (num_segments > 0 && d_offsets == NULL) return cudaErrorInvalidValue;
  if (n == 0 || num_segments == 0) return cudaSuccess;
  int dev = 0;
  GPRIM_TRY(cudaGetDevice(&dev));

  GPRIM_TRY(cudaMemsetAsync(t.counters, 0, GPRIM__SEGSORT_COUNTERS * sizeof(uint32_t), stream));
  gprim__segsort_bin_kernel<O><<<gprim__segsort_grid(gprim__div_up(num_segments, 256), 8), 256, 0, stream>>>(
      d_offsets, num_segments, n, t.counters, t.list_small, t.list_med1, t.list_med2, t.seg_hist, t.tile_desc,
      PASSES);
  GPRIM_TRY(cudaGetLastError());

  /* segments per warp: fewer when there are few, so that enough warps run */
  uint32_t group = 32;
  while (group > 4 && t.up_small / group < (size_t)gprim__sm_count() * 48) group /= 2;
  gprim__segsort_small_kernel<K, V, O, PAIRS>
      <<<gprim__segsort_grid(gprim__div_up(t.up_small, group * GPRIM__SEGSORT_SMALL_WARPS), 16),
         GPRIM__SEGSORT_SMALL_WARPS * 32, 0, stream>>>(d_keys_in, d_keys_out, d_vals_in, d_vals_out, d_offsets,
                                                       t.list_small, t.counters, group);
  GPRIM_TRY(cudaGetLastError());

  if (t.up_med1)
    GPRIM_TRY((gprim__segsort_medium<K, V, O, PAIRS, GPRIM__SEGSORT_MED1_MAX>(
        d_keys_in, d_keys_out, d_vals_in, d_vals_out, d_offsets, t.list_med1, t.counters, GPRIM__SEGSORT_BIN_MED1,
        t.up_med1, 8, dev, stream)));
  if (t.up_med2)
    GPRIM_TRY((gprim__segsort_medium<K, V, O, PAIRS, GPRIM__SEGSORT_MED2_MAX>(
        d_keys_in, d_keys_out, d_vals_in, d_vals_out, d_offsets, t.list_med2, t.counters, GPRIM__SEGSORT_BIN_MED2,
        t.up_med2, 4, dev, stream)));
  if (t.up_large) GPRIM_TRY((gprim__segsort_large<K, V, PAIRS>(t, d_keys_in, d_keys_out, d_vals_in, d_vals_out, dev,
                                                                stream)));
  return cudaSuccess;
}

/* Sorts the keys of every segment [d_offsets[s], d_offsets[s + 1]), ascending
   and stable; temp-storage query when d_temp == NULL.
     d_offsets = [0, 3, 3, 5], d_keys_in = [5, 1, 5, 9, 2]  ->  d_keys_out = [1, 5, 5, 2, 9]
   K: uint32_t or uint64_t; O: uint32_t or uint64_t. In place allowed. */
template <typename K, typename O>
inline cudaError_t gprim_segmented_sort_keys(void *d_temp, size_t *temp_bytes, const K *d_keys_in, K *d_keys_out,
                                             size_t n, size_t num_segments, const O *d_offsets,
                                             cudaStream_t stream) {
  return gprim__segsort_run<K, uint32_t, O, false>(d_temp, temp_bytes, d_keys_in, d_keys_out, (const uint32_t *)NULL,
                                                   (uint32_t *)NULL, n, num_segments, d_offsets, stream);
}

/* Sorts the key-value pairs of every segment by key, ascending and stable
   (equal keys keep their input order); values of any 4- or 8-byte type.
     d_offsets = [0, 3, 3, 5], d_keys_in = [5, 1, 5, 9, 2], d_vals_in = [0, 1, 2, 3, 4]
       ->  d_keys_out = [1, 5, 5, 2, 9], d_vals_out = [1, 0, 2, 4, 3]
   In place allowed (keys and values each). */
template <typename K, typename V, typename O>
inline cudaError_t gprim_segmented_sort_pairs(void *d_temp, size_t *temp_bytes, const K *d_keys_in, K *d_keys_out,
                                              const V *d_vals_in, V *d_vals_out, size_t n, size_t num_segments,
                                              const O *d_offsets, cudaStream_t stream) {
  typedef typename gprim__segsort_word<(int)sizeof(V)>::type W;
  return gprim__segsort_run<K, W, O, true>(d_temp, temp_bytes, d_keys_in, d_keys_out, (const W *)d_vals_in,
                                           (W *)d_vals_out, n, num_segments, d_offsets, stream);
}

#endif /* __CUDACC__ */
