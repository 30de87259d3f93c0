/* clique/sets/all_pairs.cuh - all pairs of a collection at once (MISI), the
   CUDA backend of GCLQ_INTERSECT_INVERTED_INDEX and GCLQ_INTERSECT_BIT_MATRIX
   (Bellas and Gounaris, "Exploiting GPUs for fast intersection of large
   sets", sections 3.1.5, 3.1.6 and 3.2): the index math and the kernels.
   Their drivers are at the end of clique/sets/cuda.cuh (they run on its
   device state, gclq__sets_dev, and its device context,
   clique/device.cuh).

   Both methods count every pair i < j of the collection into the dense
   upper triangle in row order, (0,1), (0,2) .. (k-2,k-1), one row tile at a
   time (the paper's Fig. 7): rows [r0, r1) of the triangle are one stretch
   of the row-order counts, sized to what the device memory budget leaves;
   each tile goes back to the host and through the call's sink in batches of
   pairs, exactly as the pairwise batches do, so the answers never depend on
   the budget.

     INVERTED_INDEX  sf-gssjoin (section 3.1.5): the index value -> sets, by
                     a radix sort of (value, set) and a run-length encoding,
                     then for each value every pair (a, b) of its list adds
                     one to count (a, b) with an atomic. A value in c sets
                     makes c (c - 1) / 2 increments; short lists run a
                     thread each, long ones are cut into tiles of their pairs
                     (a block per tile), so one value in every set spreads
                     over the device.
     BIT_MATRIX      the paper's MM (section 3.2) as a hand-written product
                     of bits: the universe compacted to the values in two or
                     more sets (the others meet nothing), each set a row of
                     bits over it, each count the popcount of the AND of two
                     rows. A tiled kernel (rows in shared memory, 4 x 4
                     counts a thread), or tensor cores (mma .b1 AND/POPC, a
                     warp per 32 x 32 counts). When the matrix does not fit
                     the budget beside the counts it is built in chunks of
                     columns, each adding to the tile's counts.

   The index math is __host__ __device__ (gclq__sets_row_start and friends)
   so that the tests check it on the host. */

#define GCLQ__SETS_II_SHORT 16u     /* lists of at most this many sets: a thread each */
#define GCLQ__SETS_II_VT 8u         /* increments a thread takes in a long list's tile */
#define GCLQ__SETS_II_TILE (GCLQ__SETS_NT * GCLQ__SETS_II_VT) /* increments per tile: 2048 */
#define GCLQ__SETS_BM_B 64u         /* rows (and columns) of a block's tile of counts */
#define GCLQ__SETS_BM_KW 8u         /* words of a row a block stages at once: 256 bits */
#define GCLQ__SETS_BM_MAX_ROWS (65000ull * GCLQ__SETS_BM_B) /* rows of a tile: grid.y stays below 65536 */

/* ---- index math (host and device) ---- */

/* R(i): the row-order index of the first pair of row i, (i, i + 1), that is
   the pairs of the rows above it, i (2k - i - 1) / 2; R(k - 1) = R(k) is the
   number of pairs. Either factor is halved first, so nothing overflows for
   k <= 2^32. */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_row_start(uint64_t k, uint64_t i) {
  const uint64_t m = 2 * k - i - 1;
  return i % 2 == 0 ? (i / 2) * m : i * (m / 2);
}

/* The row-order index of pair (i, j), i < j < k. */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_pair_index(uint64_t k, uint64_t i, uint64_t j) {
  return gclq__sets_row_start(k, i) + (j - i - 1);
}

/* The pair (*i, *j) at row-order index p < k (k - 1) / 2: its row is the
   last r with R(r) <= p (a binary search, exact in integers). */
static __host__ __device__ __forceinline__ void gclq__sets_pair_of(uint64_t k, uint64_t p, uint64_t *i, uint64_t *j) {
  uint64_t lo = 0, hi = k - 2;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (gclq__sets_row_start(k, mid) <= p) lo = mid;
    else hi = mid - 1;
  }
  *i = lo;
  *j = p - gclq__sets_row_start(k, lo) + lo + 1;
}

/* The end r1 of the row tile that starts at row r0 < k - 1: the most rows
   (at most max_rows, r1 <= k - 1) whose pairs number at most max_pairs, and
   r0 + 1 at least (the caller checks that one row fits). */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_row_tile_end(uint64_t k, uint64_t r0,
                                                                            uint64_t max_pairs, uint64_t max_rows) {
  uint64_t lo = r0 + 1, hi = k - 1;
  if (max_rows < hi - r0) hi = r0 + max_rows;
  if (hi < lo) hi = lo;
  const uint64_t base = gclq__sets_row_start(k, r0);
  while (lo < hi) { /* the largest r1 in [lo, hi] that fits, or lo */
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (gclq__sets_row_start(k, mid) - base <= max_pairs) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The set that holds element e < off[k] of a CSR collection: the last i
   with off[i] <= e (empty sets own nothing). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_owner(const uint64_t *off, uint32_t k, uint64_t e) {
  uint32_t lo = 0, hi = k;
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (off[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* The bit matrix's column of value v: its rank among the values in two or
   more sets (seen2, a bit a value; colbase[w] = such values below 32 w), or
   UINT64_MAX when v is in fewer than two sets. */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_column(const uint32_t *seen2, const uint64_t *colbase,
                                                                      uint32_t v) {
  const uint32_t word = seen2[v >> 5], bit = 1u << (v & 31);
  if (!(word & bit)) return UINT64_MAX;
#if defined(__CUDA_ARCH__)
  return colbase[v >> 5] + (uint64_t)__popc(word & (bit - 1));
#else
  uint32_t below = word & (bit - 1), n = 0;
  for (; below; below &= below - 1) ++n;
  return colbase[v >> 5] + n;
#endif
}

/* One tile of counts: rows [r0, r1) of the triangle of k sets, count (i, j)
   at counts[R(i) - R(r0) + j - i - 1]. */
struct gclq__sets_tri {
  uint64_t k, r0, r1, base; /* base = R(r0) */
  uint32_t *counts;
};

/* Where count (i, j) of the tile sits; UINT64_MAX when it is not the tile's
   (i outside [r0, r1), or not i < j < k). */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_tri_at(const gclq__sets_tri &t, uint64_t i, uint64_t j) {
  if (i < t.r0 || i >= t.r1 || j <= i || j >= t.k) return UINT64_MAX;
  return gclq__sets_row_start(t.k, i) - t.base + (j - i - 1);
}

/* ---- the inverted index ---- */

/* The pieces of sf-gssjoin's kernels, thread by thread (the tests run them
   on the host): add(slot) counts one more for the tile's slot. */

/* Every pair (a, b) of a short list of c ascending sets whose row a is the
   tile's. */
template <typename Add>
static __host__ __device__ __forceinline__ void gclq__sets_ii_short_list(const uint32_t *list, uint32_t c,
                                                                         const gclq__sets_tri &t, Add add) {
  for (uint32_t x = 0; x + 1 < c; ++x) {
    const uint32_t a = list[x];
    if (a >= t.r1) break;
    if (a < t.r0) continue;
    const uint64_t row = gclq__sets_row_start(t.k, a) - t.base;
    for (uint32_t y = x + 1; y < c; ++y) add(row + (list[y] - a - 1));
  }
}

/* The pairs of a long list of c ascending sets whose row is the tile's: the
   list's own row-order pairs [*lo, *hi), the rows of its positions at or
   above r0 and below r1. */
static __host__ __device__ __forceinline__ void gclq__sets_ii_long_span(const uint32_t *list, uint32_t c,
                                                                        const gclq__sets_tri &t, uint64_t *lo,
                                                                        uint64_t *hi) {
  const uint32_t x0 = gclq__sets_lower_bound(list, 0, c, (uint32_t)t.r0);
  const uint32_t x1 = gclq__sets_lower_bound(list, x0, c, (uint32_t)t.r1);
  *lo = gclq__sets_row_start(c, x0);
  *hi = gclq__sets_row_start(c, x1);
}

/* Pairs [g0, g1) of a long list (its own row order, g0 < g1): the first by
   gclq__sets_pair_of, then along the rows. */
template <typename Add>
static __host__ __device__ __forceinline__ void gclq__sets_ii_long_piece(const uint32_t *list, uint32_t c,
                                                                         uint64_t g0, uint64_t g1,
                                                                         const gclq__sets_tri &t, Add add) {
  uint64_t x, y;
  gclq__sets_pair_of(c, g0, &x, &y);
  uint32_t a = list[x];
  uint64_t row = gclq__sets_row_start(t.k, a) - t.base;
  for (uint64_t g = g0; g < g1; ++g) {
    add(row + (list[y] - a - 1));
    if (++y == c) { /* the next row of the list's pairs */
      ++x;
      y = x + 1;
      a = list[x];
      row = gclq__sets_row_start(t.k, a) - t.base;
    }
  }
}

/* One more for a slot of the device's counts. */
struct gclq__d_count_add {
  uint32_t *counts;
  __device__ __forceinline__ void operator()(uint64_t at) const { atomicAdd(&counts[at], 1u); }
};

/* Element e's set, for every element. */
static __global__ void gclq__sets_owner_kernel(const uint64_t *off, uint32_t k, uint64_t total, uint32_t *owner) {
  const uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e < total) owner[e] = gclq__sets_owner(off, k, e);
}

/* Sum of v over the block (every thread gets it; blockDim.x = GCLQ__BLOCK). */
static __device__ __forceinline__ uint64_t gclq__d_block_sum_u64(uint64_t v, uint64_t *s_warp) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x / 32] = v;
  __syncthreads();
  uint64_t sum = 0;
  for (uint32_t w = 0; w < GCLQ__BLOCK / 32; ++w) sum += s_warp[w];
  return sum;
}

/* Lists longer than GCLQ__SETS_II_SHORT into longs (in any order: the
   counts are sums), and the number of pair increments of every list into
   *increments. */
static __global__ void __launch_bounds__(GCLQ__BLOCK) gclq__sets_ii_classify_kernel(const uint32_t *len, uint32_t runs,
                                                                                   uint32_t *longs, uint32_t *num_long,
                                                                                   unsigned long long *increments) {
  __shared__ uint64_t s_warp[GCLQ__BLOCK / 32];
  const uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t w = 0;
  if (r < runs) {
    const uint64_t c = len[r];
    w = c * (c - (c > 0)) / 2;
    if (c > GCLQ__SETS_II_SHORT) longs[atomicAdd(num_long, 1u)] = (uint32_t)r;
  }
  const uint64_t sum = gclq__d_block_sum_u64(w, s_warp);
  if (threadIdx.x == 0 && sum > 0) atomicAdd(increments, (unsigned long long)sum);
}

/* sf-gssjoin, short lists: a thread per list of 2 to GCLQ__SETS_II_SHORT
   sets adds one to every pair (a, b) of it whose row a is the tile's. The
   list is ascending, so a < b. */
static __global__ void gclq__sets_ii_short_kernel(const uint32_t *sv, const uint32_t *start, const uint32_t *len,
                                                  uint32_t runs, gclq__sets_tri t) {
  const uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= runs) return;
  const uint32_t c = len[r];
  if (c < 2 || c > GCLQ__SETS_II_SHORT) return;
  const gclq__d_count_add add = {t.counts};
  gclq__sets_ii_short_list(sv + start[r], c, t, add);
}

/* sf-gssjoin, long lists, step 1: the pairs of long list q whose row is the
   tile's are the list's own row-order pairs [R_c(x0), R_c(x1)) (x0, x1: the
   list's first positions at or above r0 and r1), cut into tiles of
   GCLQ__SETS_II_TILE: tiles[q], lo[q], hi[q]; tiles[nl] = 0 so that the
   scan of tiles ends in the total. */
static __global__ void gclq__sets_ii_long_tiles_kernel(const uint32_t *sv, const uint32_t *start, const uint32_t *len,
                                                       const uint32_t *longs, uint32_t nl, gclq__sets_tri t,
                                                       uint64_t *tiles, uint64_t *lo, uint64_t *hi) {
  const uint64_t q = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (q > nl) return;
  if (q == nl) {
    tiles[nl] = 0;
    return;
  }
  const uint32_t r = longs[q];
  uint64_t l, h;
  gclq__sets_ii_long_span(sv + start[r], len[r], t, &l, &h);
  lo[q] = l;
  hi[q] = h;
  tiles[q] = (h - l + GCLQ__SETS_II_TILE - 1) / GCLQ__SETS_II_TILE;
}

/* sf-gssjoin, long lists, step 2: a block per tile of a list's pairs (the
   blocks loop over the tiles; first: the scanned tile counts), each thread
   GCLQ__SETS_II_VT consecutive pairs from the first one's (x, y). */
static __global__ void __launch_bounds__(GCLQ__SETS_NT) gclq__sets_ii_long_kernel(
    const uint32_t *sv, const uint32_t *start, const uint32_t *len, const uint32_t *longs, uint32_t nl,
    const uint64_t *first, const uint64_t *lo, const uint64_t *hi, gclq__sets_tri t) {
  const gclq__sets_tiles T = {NULL, first, nl, NULL, NULL};
  const gclq__d_count_add add = {t.counts};
  const uint64_t tiles = first[nl];
  for (uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const uint32_t q = gclq__sets_tile_owner(T, tile), r = longs[q];
    const uint64_t g0 = lo[q] + (tile - first[q]) * GCLQ__SETS_II_TILE + (uint64_t)threadIdx.x * GCLQ__SETS_II_VT;
    const uint64_t g1 = g0 + GCLQ__SETS_II_VT < hi[q] ? g0 + GCLQ__SETS_II_VT : hi[q];
    if (g0 < g1) gclq__sets_ii_long_piece(sv + start[r], len[r], g0, g1, t, add);
  }
}

/* ---- the bit matrix ---- */

/* Which values are in two or more sets: the first set that holds v sets its
   bit in seen1, every later one in seen2 (sets hold a value once). */
static __global__ void gclq__sets_bm_mark_kernel(const uint32_t *elem, uint64_t total, uint32_t *seen1,
                                                 uint32_t *seen2) {
  const uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= total) return;
  const uint32_t v = elem[e], bit = 1u << (v & 31);
  if (atomicOr(&seen1[v >> 5], bit) & bit) atomicOr(&seen2[v >> 5], bit);
}

/* Values in two or more sets per word of seen2 (entry words: 0), for the
   scan that gives colbase. */
static __global__ void gclq__sets_bm_popc_words_kernel(const uint32_t *seen2, uint64_t words, uint64_t *out) {
  const uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (w <= words) out[w] = w < words ? (uint64_t)__popc(seen2[w]) : 0;
}

/* The matrix's columns [w0 * 32, (w0 + cw) * 32): each element of a value in
   two or more sets sets its bit in its set's row (rows of cw words). */
static __global__ void gclq__sets_bm_fill_kernel(const uint64_t *off, uint32_t k, const uint32_t *elem, uint64_t total,
                                                 const uint32_t *seen2, const uint64_t *colbase, uint64_t w0,
                                                 uint32_t cw, uint32_t *bits) {
  const uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= total) return;
  const uint64_t col = gclq__sets_column(seen2, colbase, elem[e]);
  if (col == UINT64_MAX || col / 32 < w0 || col / 32 >= w0 + cw) return;
  const uint64_t set = gclq__sets_owner(off, k, e);
  atomicOr(&bits[set * cw + (col / 32 - w0)], 1u << (col & 31));
}

/* A block's tile of counts: rows ib * 64 .. and columns jb * 64 .. of the
   product (blocks below the diagonal have nothing to do). */
struct gclq__sets_bm_args {
  const uint32_t *bits; /* rows of cw words, the row count padded to GCLQ__SETS_BM_B with zero rows */
  uint32_t cw;
  uint64_t blk0;        /* the first block row: r0 / 64 */
  gclq__sets_tri t;
};

/* Add v to count (i, j) when it is the tile's (one thread owns each). */
static __device__ __forceinline__ void gclq__d_bm_add(const gclq__sets_tri &t, uint64_t i, uint64_t j, uint32_t v) {
  const uint64_t at = gclq__sets_tri_at(t, i, j);
  if (at != UINT64_MAX && v != 0) t.counts[at] += v;
}

/* AND + popcount product, tiled: a block of 256 threads per 64 x 64 counts,
   the two blocks of rows staged GCLQ__SETS_BM_KW words at a time in shared
   memory (word-major, padded: no bank conflicts on the reads), each thread
   4 x 4 counts in registers (rows ty + 16 m, columns tx + 16 n). */
static __global__ void __launch_bounds__(256) gclq__sets_bm_popc_kernel(gclq__sets_bm_args g) {
  const uint64_t ib = g.blk0 + blockIdx.y, jb = g.blk0 + blockIdx.x;
  if (jb < ib) return;
  __shared__ uint32_t sa[GCLQ__SETS_BM_KW][GCLQ__SETS_BM_B + 1], sb[GCLQ__SETS_BM_KW][GCLQ__SETS_BM_B + 1];
  const uint32_t tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const uint32_t *A = g.bits + ib * GCLQ__SETS_BM_B * g.cw, *B = g.bits + jb * GCLQ__SETS_BM_B * g.cw;
  uint32_t acc[4][4];
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n) acc[m][n] = 0;
  for (uint32_t kw = 0; kw < g.cw; kw += GCLQ__SETS_BM_KW) {
    for (uint32_t l = threadIdx.x; l < GCLQ__SETS_BM_B * GCLQ__SETS_BM_KW; l += 256) {
      const uint32_t r = l / GCLQ__SETS_BM_KW, w = l % GCLQ__SETS_BM_KW;
      sa[w][r] = A[(uint64_t)r * g.cw + kw + w];
      sb[w][r] = B[(uint64_t)r * g.cw + kw + w];
    }
    __syncthreads();
#pragma unroll
    for (uint32_t w = 0; w < GCLQ__SETS_BM_KW; ++w) {
      uint32_t a[4], b[4];
#pragma unroll
      for (int m = 0; m < 4; ++m) a[m] = sa[w][ty + 16 * m];
#pragma unroll
      for (int n = 0; n < 4; ++n) b[n] = sb[w][tx + 16 * n];
#pragma unroll
      for (int m = 0; m < 4; ++m)
#pragma unroll
        for (int n = 0; n < 4; ++n) acc[m][n] += __popc(a[m] & b[n]);
    }
    __syncthreads(); /* sa and sb are the next stage's */
  }
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 4; ++n)
      gclq__d_bm_add(g.t, ib * GCLQ__SETS_BM_B + ty + 16 * m, jb * GCLQ__SETS_BM_B + tx + 16 * n, acc[m][n]);
}

/* One tensor-core step, D = C + popc(A AND B) over 256 bits: A 16 x 256
   (row-major, a0..a3), B 256 x 8 (column-major, b0, b1), C and D 16 x 8 s32. */
static __device__ __forceinline__ void gclq__d_mma_and_popc(int *c, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                                            uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

/* The same product on tensor cores (mma.sync m16n8k256 .b1 AND/POPC, sm_80
   and newer): a block of 4 warps per 64 x 64 counts, each warp 32 x 32 (2 x 4
   tiles of 16 x 8), one 256-bit step per stage. Rows in shared memory,
   row-major with a stride of 12 words, so the fragment reads of a warp (8
   rows x 4 words) hit 32 different banks. Fragments (PTX ISA, mma .b1):
   lane = 4 g + q; a0, a1, a2, a3 = A rows g, g + 8, g, g + 8, words q, q,
   q + 4, q + 4; b0, b1 = B column g, words q, q + 4; c0..c3 = (g, 2q),
   (g, 2q + 1), (g + 8, 2q), (g + 8, 2q + 1). */
#define GCLQ__SETS_BM_STRIDE 12
static __global__ void __launch_bounds__(128) gclq__sets_bm_mma_kernel(gclq__sets_bm_args g) {
  const uint64_t ib = g.blk0 + blockIdx.y, jb = g.blk0 + blockIdx.x;
  if (jb < ib) return;
  __shared__ uint32_t sa[GCLQ__SETS_BM_B][GCLQ__SETS_BM_STRIDE], sb[GCLQ__SETS_BM_B][GCLQ__SETS_BM_STRIDE];
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32, gr = lane / 4, q = lane % 4;
  const uint32_t wm = (warp / 2) * 32, wn = (warp % 2) * 32;
  const uint32_t *A = g.bits + ib * GCLQ__SETS_BM_B * g.cw, *B = g.bits + jb * GCLQ__SETS_BM_B * g.cw;
  int acc[2][4][4];
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 4; ++n)
      for (int r = 0; r < 4; ++r) acc[m][n][r] = 0;
  for (uint32_t kw = 0; kw < g.cw; kw += GCLQ__SETS_BM_KW) {
    for (uint32_t l = threadIdx.x; l < GCLQ__SETS_BM_B * GCLQ__SETS_BM_KW; l += 128) {
      const uint32_t r = l / GCLQ__SETS_BM_KW, w = l % GCLQ__SETS_BM_KW;
      sa[r][w] = A[(uint64_t)r * g.cw + kw + w];
      sb[r][w] = B[(uint64_t)r * g.cw + kw + w];
    }
    __syncthreads();
#pragma unroll
    for (int m = 0; m < 2; ++m) {
      const uint32_t ra = wm + 16 * m + gr;
      const uint32_t a0 = sa[ra][q], a1 = sa[ra + 8][q], a2 = sa[ra][q + 4], a3 = sa[ra + 8][q + 4];
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        const uint32_t cb = wn + 8 * n + gr;
        gclq__d_mma_and_popc(acc[m][n], a0, a1, a2, a3, sb[cb][q], sb[cb][q + 4]);
      }
    }
    __syncthreads(); /* sa and sb are the next stage's */
  }
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 4; ++n) {
      const uint64_t i = ib * GCLQ__SETS_BM_B + wm + 16 * m + gr, j = jb * GCLQ__SETS_BM_B + wn + 8 * n + 2 * q;
      gclq__d_bm_add(g.t, i, j, (uint32_t)acc[m][n][0]);
      gclq__d_bm_add(g.t, i, j + 1, (uint32_t)acc[m][n][1]);
      gclq__d_bm_add(g.t, i + 8, j, (uint32_t)acc[m][n][2]);
      gclq__d_bm_add(g.t, i + 8, j + 1, (uint32_t)acc[m][n][3]);
    }
}
