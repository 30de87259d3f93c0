/* gpuprim section: radix_sort (see gpuprim.cuh).

   LSD radix sort of keys and key-value pairs: 32- and 64-bit unsigned keys,
   values of any 4- or 8-byte type, by the key bits [begin_bit, end_bit),
   ascending or descending, always STABLE (keys equal in those bits keep their
   input order). Onesweep (Adinets & Merrill, "Onesweep: a faster least
   significant digit radix sort for GPUs", 2022): one kernel counts the digits
   of every pass at once, then one kernel per 8-bit digit pass ranks a tile in
   shared memory (warp multisplit), finds the tile's global offsets by
   decoupled look-back on per-digit status words (8 earlier tiles read per
   round) and scatters through shared memory.

     keys = [3, 1, 4, 1, 5]                       ->  [1, 1, 3, 4, 5]
     keys = [3, 1, 4, 1], vals = [a, b, c, d]     ->  keys [1, 1, 3, 4], vals [b, d, a, c]
     descending, keys = [3, 1, 4, 1]              ->  [4, 3, 1, 1]
     bits [0, 4), keys = [0x21, 0x12, 0x31]       ->  [0x21, 0x31, 0x12]  (stable in 0x1)

   Limits: n <= 2^31 - 1 (larger n returns cudaErrorInvalidValue). The input
   arrays are not modified; d_keys_in == d_keys_out (and d_vals_in ==
   d_vals_out) is allowed; other overlaps are not. Temp storage holds one
   ping-pong copy of the keys (and of the values) plus 2 KB per tile of
   look-back state: at most n * (sizeof(K) + sizeof(V)) + n / 2 + 10 KB bytes.
   Its size depends on n, K and V only, not on the bits or the direction. */

/* ---------------------------------------------------------------------------
   device code
   ------------------------------------------------------------------------- */
#if defined(__CUDACC__)

#define GPRIM__RADIX_DIGITS 256          /* 8-bit digits */
#define GPRIM__RADIX_PREFIX 0x80000000u  /* look-back word: inclusive prefix */
#define GPRIM__RADIX_MAX_N 0x7fffffffu   /* prefixes fit in 31 bits */

/* Tile shapes, by the widest element moved (key or value): 4 or 8 bytes.
   Chosen at n = 2^28 by the sweep in bench/bench_radix_sort.cu (build with
   -DGPRIM_RADIX_TUNE; the figures: bench/results/, the gpuprim runs): the
   pass kernel is bound by instruction issue, so 3 blocks per SM (56
   registers at 384 threads) win for keys; pairs need the registers of 2
   blocks, and 512 x 12 beat 384 x 16 for u32 / u32 pairs. */
template <int WIDE, bool PAIRS> struct gprim__radix_shape;
template <> struct gprim__radix_shape<4, false> { enum { BLOCK = 384, ITEMS = 16, MIN_BLOCKS = 3 }; };
template <> struct gprim__radix_shape<4, true> { enum { BLOCK = 512, ITEMS = 12, MIN_BLOCKS = 2 }; };
template <> struct gprim__radix_shape<8, false> { enum { BLOCK = 256, ITEMS = 16, MIN_BLOCKS = 3 }; };
template <> struct gprim__radix_shape<8, true> { enum { BLOCK = 384, ITEMS = 12, MIN_BLOCKS = 2 }; };
/* keys per tile for a key / value width (tests size their inputs around it) */
template <typename K, typename V, bool PAIRS> static inline size_t gprim__radix_tile(void) {
  typedef gprim__radix_shape<(sizeof(K) > 4 || (PAIRS && sizeof(V) > 4)) ? 8 : 4, PAIRS> S;
  return (size_t)S::BLOCK * S::ITEMS;
}

/* the unsigned word of the same size, which moves values of any type */
template <int BYTES> struct gprim__radix_word;
template <> struct gprim__radix_word<4> { typedef uint32_t type; };
template <> struct gprim__radix_word<8> { typedef unsigned long long type; };

template <typename K>
__device__ __forceinline__ uint32_t gprim__radix_digit(K key, int shift, uint32_t mask, uint32_t flip) {
  return ((uint32_t)(key >> shift) & mask) ^ flip;
}

/* Lanes of the warp holding the same digit as this lane among the lanes with
   ok set: one ballot per digit bit (warp-level multisplit). */
__device__ __forceinline__ uint32_t gprim__radix_peers(uint32_t d, bool ok) {
  uint32_t peers = __ballot_sync(0xffffffffu, ok);
#pragma unroll
  for (int b = 0; b < 8; ++b) {
    uint32_t bit = (d >> b) & 1u;
    uint32_t vote = __ballot_sync(0xffffffffu, bit);
    peers &= bit ? vote : ~vote;
  }
  return peers;
}

/* Exclusive scan of two counters per digit over threads [0, 256) (threads
   above pass zeros and get garbage). Every thread of the block calls it. */
__device__ __forceinline__ uint2 gprim__radix_scan256(uint2 x, uint2 *s_warp /* [8] */) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint2 inc = x;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    uint32_t a = __shfl_up_sync(0xffffffffu, inc.x, o), b = __shfl_up_sync(0xffffffffu, inc.y, o);
    if (lane >= o) { inc.x += a; inc.y += b; }
  }
  if (lane == 31 && warp < 8) s_warp[warp] = inc;
  __syncthreads();
  uint2 ex = make_uint2(inc.x - x.x, inc.y - x.y);
  for (int w = 0; w < warp && w < 8; ++w) { ex.x += s_warp[w].x; ex.y += s_warp[w].y; }
  return ex;
}

/* Histograms of every digit pass at once (onesweep's upfront pass): each
   block counts into shared memory, then adds its counts to bins[pass][digit]. */
template <typename K, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
gprim__radix_histogram_kernel(const K *__restrict__ keys, size_t n, int begin_bit, int end_bit, bool descending,
                              uint32_t *__restrict__ bins) {
  enum { PASSES = (int)sizeof(K), UNROLL = 16 / (int)sizeof(K) };
  __shared__ uint32_t s_hist[PASSES * GPRIM__RADIX_DIGITS];
  for (int i = threadIdx.x; i < PASSES * GPRIM__RADIX_DIGITS; i += BLOCK) s_hist[i] = 0;
  __syncthreads();
  int shift[PASSES];
  uint32_t mask[PASSES], flip[PASSES];
#pragma unroll
  for (int p = 0; p < PASSES; ++p) {
    shift[p] = begin_bit + 8 * p;
    int bits = end_bit - shift[p] < 8 ? end_bit - shift[p] : 8;
    mask[p] = bits > 0 ? (1u << bits) - 1u : 0u;
    flip[p] = descending ? mask[p] : 0u;
  }
  size_t stride = (size_t)gridDim.x * BLOCK;
  for (size_t i = (size_t)blockIdx.x * BLOCK + threadIdx.x; i < n; i += UNROLL * stride) {
    K k[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) k[u] = i + u * stride < n ? keys[i + u * stride] : 0;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (i + u * stride >= n) break;
#pragma unroll
      for (int p = 0; p < PASSES; ++p)
        if (shift[p] < end_bit) atomicAdd(&s_hist[p * GPRIM__RADIX_DIGITS + gprim__radix_digit(k[u], shift[p], mask[p], flip[p])], 1u);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < PASSES * GPRIM__RADIX_DIGITS; i += BLOCK)
    if (s_hist[i]) atomicAdd(&bins[i], s_hist[i]);
}

/* Look-back window: each digit's thread reads the status words of this many
   earlier tiles at once, so that a chain of tiles that have only published
   their own counts costs one round trip per window, not one per tile. */
#define GPRIM__RADIX_LOOKBACK 8 /* default; a template parameter of the pass kernel */
/* How a warp finds the lanes holding the same digit: 0 = 8 ballots, 1 = a
   shared atomicOr per key (default), 2 = __match_any_sync (a template
   parameter of the pass kernel). The default is the fastest of the three
   for u32 keys at 2^28, __match_any_sync the slowest (the sweep of
   bench/bench_radix_sort.cu built with -DGPRIM_RADIX_TUNE). */
#define GPRIM__RADIX_MATCH 1

/* Onesweep step (1), after the tile's keys are loaded warp-striped (key[i] of
   this lane at tile position first + 32 i, valid below `valid`): per-warp digit
   counts in hist[w][d] (the digit written differently from the ranking's, so
   that the compiler recomputes it there instead of keeping ITEMS more
   registers alive), summed over the warps; thread d < 256 publishes the
   tile's count of digit d at once (tile 0: as an inclusive prefix) and
   zeroes the next pass's word. hist[w][d] ends as warp w's first tile
   position of digit d. Returns, for thread d: x = the tile's first position
   of digit d, y = the first output position of digit d; *count = the tile's
   count of d. Every thread of the block calls it. */
template <typename K, int WARPS, int ITEMS>
__device__ __forceinline__ uint2 gprim__radix_count_digits(const K (&key)[ITEMS], uint32_t first, uint32_t valid,
                                                           int shift, uint32_t mask, uint32_t flip,
                                                           uint32_t (*hist)[GPRIM__RADIX_DIGITS], uint32_t tile,
                                                           const uint32_t *__restrict__ bins, uint32_t *status,
                                                           uint32_t *status_next, uint2 *s_scan, uint32_t *count) {
  enum { DIGITS = GPRIM__RADIX_DIGITS };
  const int tid = threadIdx.x, warp = tid >> 5;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (first + i * 32 < valid) atomicAdd(&hist[warp][((uint32_t)(key[i] >> shift) ^ flip) & mask], 1u);
  __syncthreads();
  uint32_t total = 0, bin = 0;
  if (tid < DIGITS) {
    for (int w = 0; w < WARPS; ++w) { /* counts -> prefix over warps */
      uint32_t c = hist[w][tid];
      hist[w][tid] = total;
      total += c;
    }
    volatile uint32_t *mine = status + (size_t)tile * DIGITS + tid;
    *mine = tile == 0 ? (GPRIM__RADIX_PREFIX | total) : total + 1u;
    bin = bins[tid];
    if (status_next) status_next[(size_t)tile * DIGITS + tid] = 0;
  }
  const uint2 ex = gprim__radix_scan256(make_uint2(total, bin), s_scan);
  if (tid < DIGITS)
    for (int w = 0; w < WARPS; ++w) hist[w][tid] += ex.x;
  __syncthreads();
  *count = total;
  return ex;
}

/* Onesweep step (2), warp multisplit ranking: item i of lane l comes after
   items < i of all lanes of the warp and after item i of lanes < l. The lanes
   with the same digit (peers) are found by each lane setting its bit in the
   warp's shared word of its digit, match[d] (MATCH == 1), by 8 ballots (0) or
   by __match_any_sync (2); the last of the peers bumps the warp's counter
   hist[d] for all of them. pos[i]: item i's position in the tile sorted by
   digit. */
template <int MATCH, typename K, int ITEMS>
__device__ __forceinline__ void gprim__radix_rank(const K (&key)[ITEMS], uint32_t first, uint32_t valid, int shift,
                                                  uint32_t mask, uint32_t flip, uint32_t *hist, uint32_t *match,
                                                  uint32_t (&pos)[ITEMS]) {
  const int lane = threadIdx.x & 31;
  const uint32_t below_me = (1u << lane) - 1u;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    bool ok = first + i * 32 < valid;
    uint32_t d = gprim__radix_digit(key[i], shift, mask, flip);
    uint32_t peers;
    if (MATCH == 1) {
      if (ok) atomicOr(&match[d], 1u << lane);
      __syncwarp();
      peers = ok ? match[d] : 0u;
    } else if (MATCH == 2) {
      peers = __match_any_sync(0xffffffffu, ok ? d : 0xffffffffu) & __ballot_sync(0xffffffffu, ok);
    } else {
      peers = gprim__radix_peers(d, ok);
    }
    int leader = 31 - __clz(peers | 1u);
    uint32_t at = 0;
    if (ok && lane == leader) at = atomicAdd(&hist[d], __popc(peers));
    pos[i] = __shfl_sync(0xffffffffu, at, leader) + __popc(peers & below_me);
    if (MATCH == 1) {
      if (ok && lane == leader) match[d] = 0; /* every peer has read it (shfl above) */
      __syncwarp();
    }
  }
}

/* Onesweep step (3), decoupled look-back by thread d < 256 of a tile > 0:
   the keys of digit d in the earlier tiles, from their status words, LB
   earlier tiles per round; then publishes this tile's inclusive prefix
   (count: the tile's own keys of d). */
template <int LB>
__device__ __forceinline__ uint32_t gprim__radix_look_back(uint32_t *status, uint32_t tile, uint32_t count) {
  enum { DIGITS = GPRIM__RADIX_DIGITS };
  const int tid = threadIdx.x;
  uint32_t earlier = 0;
  int j = (int)tile - 1; /* nearest earlier tile not yet added */
  for (bool found = false; !found;) {
    const volatile uint32_t *from = status + (size_t)j * DIGITS + tid;
    uint32_t w[LB];
#pragma unroll
    for (int u = 0; u < LB; ++u) w[u] = j - u >= 0 ? from[-u * DIGITS] : GPRIM__RADIX_PREFIX;
    bool blocked = false; /* a tile that has published nothing yet: read again from there */
#pragma unroll
    for (int u = 0; u < LB; ++u) {
      if (found || blocked) continue;
      if (w[u] == 0) {
        blocked = true;
      } else {
        found = (w[u] & GPRIM__RADIX_PREFIX) != 0;
        earlier += found ? (w[u] & ~GPRIM__RADIX_PREFIX) : w[u] - 1u;
        --j;
      }
    }
  }
  volatile uint32_t *mine = status + (size_t)tile * DIGITS + tid;
  *mine = GPRIM__RADIX_PREFIX | (earlier + count);
  return earlier;
}

/* Onesweep step (4), once the tile's keys sit in s_keys in sorted order and
   s_base[d] = output position - tile position of digit d: thread t writes
   tile positions t, t + BLOCK, ..., so that runs of one digit are contiguous
   in the output. With PAIRS the values follow the same way, through s_vals
   (the key buffer's memory, reused after a barrier): val[i] goes to tile
   position pos[i]. */
template <typename K, typename V, bool PAIRS, int BLOCK, int ITEMS>
__device__ __forceinline__ void gprim__radix_scatter(const K *s_keys, V *s_vals, const uint32_t *s_base,
                                                     uint32_t valid, int shift, uint32_t mask, uint32_t flip,
                                                     uint32_t first, const uint32_t (&pos)[ITEMS],
                                                     const V (&val)[PAIRS ? ITEMS : 1], K *__restrict__ keys_out,
                                                     V *__restrict__ vals_out) {
  const int tid = threadIdx.x;
  uint32_t dst[PAIRS ? ITEMS : 1];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    uint32_t at = j * BLOCK + tid;
    if (at < valid) {
      K k = s_keys[at];
      uint32_t to = s_base[gprim__radix_digit(k, shift, mask, flip)] + at;
      keys_out[to] = k;
      if (PAIRS) dst[j] = to;
    }
  }
  if (PAIRS) {
    __syncthreads(); /* the key buffer becomes the value buffer */
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
      if (first + i * 32 < valid) s_vals[pos[i]] = val[i];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
      uint32_t at = j * BLOCK + tid;
      if (at < valid) vals_out[dst[j]] = s_vals[at];
    }
  }
}

/* One digit pass of onesweep. Each block takes a tile by atomic ticket and
   (1) counts its digits per warp and publishes the tile's count of each digit
   early; (2) ranks its keys in input order with a warp multisplit (peers
   found through shared memory, one shared atomic per distinct digit), which
   gives each key its position in the tile sorted by digit; (3) finds the
   keys of each digit in earlier tiles by decoupled look-back on status words
   (0 = not yet; 1 + count = this tile's count only; PREFIX | count = count in
   this tile and all before it); (4) scatters through shared memory so that the writes to
   the output are coalesced. status_next (the next pass's words) is zeroed.
   The steps are the functions above; the kernel holds the tile's keys,
   positions and values in registers across them and owns the shared union
   they hand over (counters, then keys, then values) at its barriers. */
template <typename K, typename V, bool PAIRS, int BLOCK, int ITEMS, int MIN_BLOCKS, int LB, int MATCH>
__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
gprim__radix_onesweep_kernel(const K *__restrict__ keys_in, K *__restrict__ keys_out, const V *__restrict__ vals_in,
                             V *__restrict__ vals_out, uint32_t n, int shift, uint32_t mask, uint32_t flip,
                             const uint32_t *__restrict__ bins, uint32_t *ticket, uint32_t *status,
                             uint32_t *status_next) {
  enum { WARPS = BLOCK / 32, TILE = BLOCK * ITEMS, DIGITS = GPRIM__RADIX_DIGITS };
  __shared__ union {
    struct {
      uint32_t hist[WARPS][DIGITS];  /* counts per warp and digit, then each warp's next position per digit */
      uint32_t match[WARPS][DIGITS]; /* MATCH == 1: lanes of the warp holding each digit */
    } r;
    K keys[TILE];             /* keys in sorted order */
    V vals[PAIRS ? TILE : 1]; /* values in sorted order */
  } s;
  __shared__ uint32_t s_base[DIGITS]; /* output position - tile position, per digit */
  __shared__ uint2 s_scan[8];
  __shared__ uint32_t s_tile;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

  for (int i = lane; i < DIGITS; i += 32) s.r.hist[warp][i] = s.r.match[warp][i] = 0;
  if (tid == 0) s_tile = atomicAdd(ticket, 1u);
  __syncthreads();
  const uint32_t tile = s_tile;
  const size_t tile_base = (size_t)tile * TILE;
  const uint32_t valid = n - tile_base < (size_t)TILE ? (uint32_t)(n - tile_base) : (uint32_t)TILE;

  /* load warp-striped: warp w holds tile positions [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) */
  const uint32_t first = warp * 32 * ITEMS + lane;
  K key[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    key[i] = first + i * 32 < valid ? keys_in[tile_base + first + i * 32] : (K)0;

  /* (1) counts, published; x: first tile position of each digit, y: first output position of each digit */
  uint32_t count;
  const uint2 ex = gprim__radix_count_digits<K, WARPS>(key, first, valid, shift, mask, flip, s.r.hist, tile, bins,
                                                       status, status_next, s_scan, &count);
  /* (2) rank */
  uint32_t pos[ITEMS];
  gprim__radix_rank<MATCH>(key, first, valid, shift, mask, flip, s.r.hist[warp], s.r.match[warp], pos);
  __syncthreads(); /* the counters become the key buffer */
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
    if (first + i * 32 < valid) s.keys[pos[i]] = key[i];
  V val[PAIRS ? ITEMS : 1];
  if (PAIRS) {
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
      val[i] = first + i * 32 < valid ? vals_in[tile_base + first + i * 32] : (V)0;
  }

  /* (3) decoupled look-back, one thread per digit */
  if (tid < DIGITS) {
    const uint32_t earlier = tile > 0 ? gprim__radix_look_back<LB>(status, tile, count) : 0u;
    s_base[tid] = ex.y + earlier - ex.x;
  }
  __syncthreads();

  /* (4) scatter */
  gprim__radix_scatter<K, V, PAIRS, BLOCK>(s.keys, s.vals, s_base, valid, shift, mask, flip, first, pos, val,
                                           keys_out, vals_out);
}

/* The whole sort for one tile shape. V is an unsigned word (values are only
   moved); PAIRS == false ignores the value pointers. */
template <typename K, typename V, bool PAIRS, int BLOCK, int ITEMS, int MIN_BLOCKS, int LB = GPRIM__RADIX_LOOKBACK,
          int MATCH = GPRIM__RADIX_MATCH>
static cudaError_t gprim__radix_sort_impl(void *d_temp, size_t *temp_bytes, const K *d_keys_in, K *d_keys_out,
                                          const V *d_vals_in, V *d_vals_out, size_t n, int begin_bit, int end_bit,
                                          bool descending, cudaStream_t stream) {
  enum { TILE = BLOCK * ITEMS, DIGITS = GPRIM__RADIX_DIGITS, MAX_PASSES = (int)sizeof(K), HIST_BLOCK = 256 };
  if (temp_bytes == NULL) return cudaErrorInvalidValue;
  if (begin_bit < 0 || begin_bit > end_bit || end_bit > (int)(8 * sizeof(K))) return cudaErrorInvalidValue;
  if (n > GPRIM__RADIX_MAX_N) return cudaErrorInvalidValue;
  const size_t tiles = gprim__div_up(n, TILE);
  /* control words: bins[MAX_PASSES][256], tickets[64], status[2][tiles][256] */
  const size_t head_words = (size_t)MAX_PASSES * DIGITS + 64, region_words = tiles * DIGITS;
  size_t sizes[3] = {n * sizeof(K), PAIRS ? n * sizeof(V) : 0, (head_words + 2 * region_words) * sizeof(uint32_t)};
  void *ptrs[3] = {NULL, NULL, NULL};
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 3, sizes, ptrs));
  if (d_temp == NULL || n == 0) return cudaSuccess;
  if (d_keys_in == NULL || d_keys_out == NULL) return cudaErrorInvalidValue;
  if (PAIRS && (d_vals_in == NULL || d_vals_out == NULL)) return cudaErrorInvalidValue;

  const int passes = (end_bit - begin_bit + 7) / 8;
  if (passes == 0) { /* no bits: the sort is a copy */
    if (d_keys_out != d_keys_in)
      GPRIM_TRY(cudaMemcpyAsync(d_keys_out, d_keys_in, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if (PAIRS && d_vals_out != d_vals_in)
      GPRIM_TRY(cudaMemcpyAsync(d_vals_out, d_vals_in, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    return cudaSuccess;
  }
  K *alt_keys = (K *)ptrs[0];
  V *alt_vals = (V *)ptrs[1];
  uint32_t *bins = (uint32_t *)ptrs[2], *tickets = bins + MAX_PASSES * DIGITS;
  uint32_t *status[2] = {bins + head_words, bins + head_words + region_words};

  /* Ping-pong between the output and alt so that the last pass writes the
     output: pass p writes the output when (passes - 1 - p) is even. With an
     odd pass count the first pass writes the output, so an in-place input is
     first copied to alt and read from there. */
  const K *keys_src = d_keys_in;
  const V *vals_src = d_vals_in;
  if (passes % 2 == 1 && d_keys_in == d_keys_out) {
    GPRIM_TRY(cudaMemcpyAsync(alt_keys, d_keys_in, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    keys_src = alt_keys;
  }
  if (PAIRS && passes % 2 == 1 && d_vals_in == d_vals_out) {
    GPRIM_TRY(cudaMemcpyAsync(alt_vals, d_vals_in, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    vals_src = alt_vals;
  }
  /* zero the bins, the tickets and the first pass's status words (each pass
     zeroes the next one's) */
  GPRIM_TRY(cudaMemsetAsync(bins, 0, (head_words + region_words) * sizeof(uint32_t), stream));

  size_t hist_grid = gprim__div_up(n, (size_t)HIST_BLOCK * 16);
  size_t hist_max = (size_t)gprim__sm_count() * (2048 / HIST_BLOCK);
  if (hist_grid > hist_max) hist_grid = hist_max;
  gprim__radix_histogram_kernel<K, HIST_BLOCK>
      <<<(unsigned)hist_grid, HIST_BLOCK, 0, stream>>>(d_keys_in, n, begin_bit, end_bit, descending, bins);
  GPRIM_TRY(cudaGetLastError());

  for (int p = 0; p < passes; ++p) {
    int shift = begin_bit + 8 * p;
    int bits = end_bit - shift < 8 ? end_bit - shift : 8;
    uint32_t mask = (1u << bits) - 1u;
    bool to_out = (passes - 1 - p) % 2 == 0;
    K *keys_dst = to_out ? d_keys_out : alt_keys;
    V *vals_dst = to_out ? d_vals_out : alt_vals;
    gprim__radix_onesweep_kernel<K, V, PAIRS, BLOCK, ITEMS, MIN_BLOCKS, LB, MATCH><<<(unsigned)tiles, BLOCK, 0, stream>>>(
        keys_src, keys_dst, vals_src, vals_dst, (uint32_t)n, shift, mask, descending ? mask : 0u,
        bins + p * DIGITS, tickets + p, status[p % 2], p + 1 < passes ? status[(p + 1) % 2] : (uint32_t *)NULL);
    GPRIM_TRY(cudaGetLastError());
    keys_src = keys_dst;
    vals_src = vals_dst;
  }
  return cudaSuccess;
}

/* Sort keys by bits [begin_bit, end_bit) (0 and 8 * sizeof(K) for the whole
   key), stable, ascending or descending. K is uint32_t or uint64_t.
     keys_in = [3, 1, 4, 1, 5, 9, 2, 6]  ->  keys_out = [1, 1, 2, 3, 4, 5, 6, 9]
   d_keys_in is not modified unless it is d_keys_out (in place). begin_bit >
   end_bit, end_bit > 8 * sizeof(K), n > 2^31 - 1 -> cudaErrorInvalidValue;
   begin_bit == end_bit copies. */
template <typename K>
static inline cudaError_t gprim_radix_sort_keys(void *d_temp, size_t *temp_bytes, const K *d_keys_in, K *d_keys_out,
                                                size_t n, int begin_bit, int end_bit, bool descending,
                                                cudaStream_t stream) {
  typedef typename gprim__radix_word<sizeof(K)>::type KU;
  typedef gprim__radix_shape<(int)sizeof(K), false> S;
  return gprim__radix_sort_impl<KU, uint32_t, false, S::BLOCK, S::ITEMS, S::MIN_BLOCKS>(
      d_temp, temp_bytes, (const KU *)d_keys_in, (KU *)d_keys_out, (const uint32_t *)NULL, (uint32_t *)NULL, n,
      begin_bit, end_bit, descending, stream);
}

/* Sort (key, value) pairs by the key bits [begin_bit, end_bit), stable.
   K is uint32_t or uint64_t; V is any 4- or 8-byte type (moved as bits).
     keys_in = [3, 1, 4, 1], vals_in = [0, 1, 2, 3]
       ->  keys_out = [1, 1, 3, 4], vals_out = [1, 3, 0, 2]
     descending: keys_out = [4, 3, 1, 1], vals_out = [2, 0, 1, 3]
   In place (d_keys_in == d_keys_out, d_vals_in == d_vals_out) is allowed. */
template <typename K, typename V>
static inline cudaError_t gprim_radix_sort_pairs(void *d_temp, size_t *temp_bytes, const K *d_keys_in,
                                                 K *d_keys_out, const V *d_vals_in, V *d_vals_out, size_t n,
                                                 int begin_bit, int end_bit, bool descending, cudaStream_t stream) {
  typedef typename gprim__radix_word<sizeof(K)>::type KU;
  typedef typename gprim__radix_word<sizeof(V)>::type VU;
  typedef gprim__radix_shape<(sizeof(K) > sizeof(V) ? (int)sizeof(K) : (int)sizeof(V)), true> S;
  return gprim__radix_sort_impl<KU, VU, true, S::BLOCK, S::ITEMS, S::MIN_BLOCKS>(
      d_temp, temp_bytes, (const KU *)d_keys_in, (KU *)d_keys_out, (const VU *)d_vals_in, (VU *)d_vals_out, n,
      begin_bit, end_bit, descending, stream);
}

#endif /* __CUDACC__ */
