/* clique/sets/methods.cuh - set intersection by tables: the hash, bitmap
   and hybrid methods of Bellas and Gounaris, "Exploiting GPUs for fast
   intersection of large sets" (sections 3.1.3, 3.1.4 and 3.1.6), for one
   pair and batched pairs, counted and written; at the end, the batch's
   partition kernel and the device call's tile kernels, which use them.

   It builds on clique/sets/kernels.cuh (the pairs, tiles, cuts and block
   sums), and runs inside the launch code of clique/sets/cuda.cuh (the
   pairs classified into a warp each or tiles, the count pass, the scan of
   the tiles' counts, the write pass at the scanned positions).

   Every method here is one shape: a tile of a pair (a, b), |a| <= |b|, is
   two slices a[x0, x1) and b[y0, y1) that hold every match of the tile and
   no match of another tile; one slice is put into a table in shared memory
   (the build side), then every element of the other slice (the probe
   side), in order, asks the table whether it holds it.

     method           tiles (search_tiles or path_tiles)      table, built from
     HASH             chunks of GCLQ__SETS_OBS_CHUNK of a,      bucketed hash of a's slice
                      b's slice the span of their values
     BITMAP           windows of GCLQ__SETS_BITMAP_BITS values  bits of a's slice
                      over a's range [a_0, a_last]
     BITMAP_DYNAMIC   the same windows over the range both      bits of a's slice
                      sets share, [max(a_0, b_0), min(a_last, b_last)]
     IP_OBS           Intersect Path's tiles (merge steps cut   b's slice, sorted: each
                      on the grid-level cross diagonals)        element of a binary-searches it
     IP_HASH          Intersect Path's tiles                    bucketed hash of a's slice

   The bitmaps live in shared memory a window at a time, so they take no
   device memory and no budget: a window clears only the words across its
   a slice's values, and a window where a has no element costs four binary
   searches.

   A small pair (|a| + |b| <= GCLQ__SETS_WARP_WORK; for the bitmaps also a
   range of at most GCLQ__SETS_WARP_BITMAP_BITS values) runs a warp, as one
   tile of the whole pair (the bitmaps: one window over the range) with the
   warp's own smaller table.

   Written output is ascending: the probe side is walked in order and a
   match is written as that element, so each tile's matches come out in
   the order of a sorted slice (b's for the hashes and bitmaps, a's for
   IP_OBS); the tiles of a pair cover increasing values (chunks of a,
   windows, merge tiles all go up), and each starts at its pair's offset
   plus the scanned counts of the tiles before it.

   The cuts, the tables' inserts and probes are __host__ __device__ (the
   atomics run as plain operations on the host), so the tests run the same
   tiles on the host, table by table; the kernels add the loads, barriers
   and sums. */

#define GCLQ__SETS_HASH_SLOTS 8u                          /* elements a bucket holds; more overflow */
#define GCLQ__SETS_HASH_LOG2 10u                          /* a block's table: 2^10 buckets */
#define GCLQ__SETS_WARP_HASH_LOG2 7u                      /* a warp's table: 2^7 buckets */
/* Values a block's window covers: 16 KB of bits. The smaller the window,
   the more of the multiprocessor's memory stays L1 for a second read of a
   probe run (the one pass reads a run with more matches than a warp keeps,
   GCLQ__SETS_KEEP, twice), and the more tiles a sparse pair pays for. 2^17
   is the compromise of a sweep of 2^16, 2^17 and 2^18 over two uniform
   sets of 10^7 and of 10^8 over U = 10^9, counted and written: smaller
   windows lost on the smaller sets, larger ones on the larger. */
#ifndef GCLQ__SETS_BITMAP_BITS
#define GCLQ__SETS_BITMAP_BITS ((uint64_t)1 << 17)
#endif
#define GCLQ__SETS_WARP_WORDS 1152u                       /* a warp's table: 2^7 counts + 2^10 slots, 2^10 words of
                                                             bits, or a small pair's b (below 2^10 elements) */
#define GCLQ__SETS_WARP_BITMAP_BITS (1024u * 32u)         /* values a warp's window covers (1024 words) */
/* Matches of its run a warp of the one pass keeps in shared memory
   between its count and its write (gclq__d_block_probe_once): a warp
   whose run has more reads the rest of its run a second time. */
#define GCLQ__SETS_KEEP 256u
/* Elements a thread of a block loads at once in the build and the count
   of the bitmaps and HASH (each table's LOADS): a tile waits for its data
   once per GCLQ__SETS_LOADS * GCLQ__SETS_NT elements of a side, not once
   per GCLQ__SETS_NT (faster than one load on two uniform sets of 10^7;
   IP_OBS keeps 1, as R-MAT's every edge runs slower with 4). */
#define GCLQ__SETS_LOADS 4u
/* The bitmaps' streamed count's shapes (GCLQ__STREAM_*) and the rules that
   pick them, with their constants, are the chooser's (clique/sets/choose.h);
   gclq__sets_stream_balanced, which walks a batch's tiles, is below. */

/* Does this file run method m? */
static __host__ __device__ __forceinline__ bool gclq__sets_methods_has(gclq_intersect_method m) {
  return m == GCLQ_INTERSECT_HASH || m == GCLQ_INTERSECT_BITMAP || m == GCLQ_INTERSECT_BITMAP_DYNAMIC ||
         m == GCLQ_INTERSECT_IP_OBS || m == GCLQ_INTERSECT_IP_HASH;
}

static __host__ __device__ __forceinline__ bool gclq__sets_is_bitmap(gclq_intersect_method m) {
  return m == GCLQ_INTERSECT_BITMAP || m == GCLQ_INTERSECT_BITMAP_DYNAMIC;
}

/* One added to *p, the old value returned: atomic on the device, plain on
   the host (where the tests run the tables one thread at a time). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_add_one(uint32_t *p) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(p, 1u);
#else
  return (*p)++;
#endif
}

/* *p |= bits: atomic on the device, plain on the host. */
static __host__ __device__ __forceinline__ void gclq__sets_or(uint32_t *p, uint32_t bits) {
#if defined(__CUDA_ARCH__)
  atomicOr(p, bits);
#else
  *p |= bits;
#endif
}

/* ---- the value ranges of the bitmaps ---- */

/* The values [lo, lo + bits) a pair's bitmap covers (na, nb >= 1): a's range
   (BITMAP) or the range both sets share (BITMAP_DYNAMIC; bits 0: none). */
struct gclq__sets_range {
  uint32_t lo;
  uint64_t bits;
};
static __host__ __device__ __forceinline__ gclq__sets_range gclq__sets_bitmap_range(gclq_intersect_method m,
                                                                                  const gclq__sets_pair &pr) {
  const uint32_t a0 = pr.a[0], a1 = pr.a[pr.na - 1], b0 = pr.b[0], b1 = pr.b[pr.nb - 1];
  gclq__sets_range s;
  if (m == GCLQ_INTERSECT_BITMAP) {
    s.lo = a0;
    s.bits = (uint64_t)(a1 - a0) + 1;
    return s;
  }
  const uint32_t hi = a1 < b1 ? a1 : b1;
  s.lo = a0 > b0 ? a0 : b0;
  s.bits = s.lo <= hi ? (uint64_t)(hi - s.lo) + 1 : 0;
  return s;
}

/* The first index of b[0, n) whose element is not below v, for v up to 2^32. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_lower_bound64(const uint32_t *b, uint32_t n,
                                                                             uint64_t v) {
  return v > 0xffffffffu ? n : gclq__sets_lower_bound(b, 0, n, (uint32_t)v);
}

/* ---- which pairs run a warp, and how many tiles the rest take ---- */

/* gclq__sets_work for every method, from the pair itself (the bitmaps'
   tiles depend on its values): nothing (na = 0), a warp (both counts 0),
   or tiles of one table kernel: *path_tiles of Intersect Path (IP_OBS,
   IP_HASH; MERGE_PATH), or *search_tiles (HASH's chunks, the bitmaps'
   windows; BINARY_SEARCH's chunks). A bitmap pair whose ranges do not
   overlap (BITMAP_DYNAMIC) gets no tiles: its warp finds nothing to do. */
static __host__ __device__ __forceinline__ void gclq__sets_work_pair(gclq_intersect_method m, const gclq__sets_pair &pr,
                                                                     uint64_t *path_tiles, uint64_t *search_tiles) {
  if (!gclq__sets_methods_has(m)) {
    gclq__sets_work(m, pr.na, pr.nb, path_tiles, search_tiles);
    return;
  }
  *path_tiles = *search_tiles = 0;
  if (pr.na == 0) return;
  const bool small = (uint64_t)pr.na + pr.nb <= GCLQ__SETS_WARP_WORK;
  if (gclq__sets_is_bitmap(m)) {
    const gclq__sets_range s = gclq__sets_bitmap_range(m, pr);
    if (small && s.bits <= GCLQ__SETS_WARP_BITMAP_BITS) return;
    *search_tiles = (s.bits + GCLQ__SETS_BITMAP_BITS - 1) / GCLQ__SETS_BITMAP_BITS;
  } else if (small) {
    return;
  } else if (m == GCLQ_INTERSECT_HASH) {
    *search_tiles = (pr.na + GCLQ__SETS_OBS_CHUNK - 1) / GCLQ__SETS_OBS_CHUNK;
  } else {
    *path_tiles = ((uint64_t)pr.na + pr.nb + GCLQ__SETS_TILE - 1) / GCLQ__SETS_TILE;
  }
}

/* Does a warp run the pair (na >= 1, and no tiles)? */
static __host__ __device__ __forceinline__ bool gclq__sets_warp_runs(gclq_intersect_method m,
                                                                     const gclq__sets_pair &pr) {
  uint64_t path_tiles, search_tiles;
  gclq__sets_work_pair(m, pr, &path_tiles, &search_tiles);
  return pr.na > 0 && path_tiles == 0 && search_tiles == 0;
}

/* ---- a tile's slices ---- */

/* A tile's slices a[x0, x1) and b[y0, y1). */
struct gclq__sets_slices {
  uint32_t x0, x1, y0, y1;
};

/* The ends of the slices are four independent searches (end 0: x0, 1: x1,
   2: y0, 3: y1), so four threads find them at once; gclq__sets_slices_at
   puts them together. */

/* Intersect Path's tile (IP_OBS, IP_HASH): the merge path's cuts on the
   tile's two cross diagonals, and b's guard: a match of a's last element
   of the tile may be the first element of b of the next tile
   (gclq__sets_merge says why), so b's slice takes it too. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_ip_end(const gclq__sets_pair &pr, uint64_t tile,
                                                                      uint32_t end) {
  const uint32_t x = gclq__sets_tile_split(pr, tile, end & 1);
  if (end < 2) return x;
  const uint32_t y = (uint32_t)(gclq__sets_tile_diag(pr, tile, end & 1) - x);
  return end == 3 && y < pr.nb ? y + 1 : y;
}

/* HASH's tile: a chunk of a and the span of b its values cover
   (gclq__sets_chunk_end, as binary search's). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_chunk_slice_end(const gclq__sets_pair &pr, uint64_t tile,
                                                                               uint32_t end) {
  const uint32_t x0 = (uint32_t)(tile * GCLQ__SETS_OBS_CHUNK);
  if (end == 0) return x0;
  if (end == 1) return gclq__sets_min(x0 + (uint32_t)GCLQ__SETS_OBS_CHUNK, pr.na);
  return gclq__sets_chunk_end(pr, tile, end - 2);
}

/* Window `tile` of `window` values of a bitmap pair's span s: the values
   [lo, hi) (up to 2^32), cut at the span's end. */
struct gclq__sets_window {
  uint64_t lo, hi;
};
static __host__ __device__ __forceinline__ gclq__sets_window gclq__sets_window_in(const gclq__sets_range &s,
                                                                                  uint64_t tile, uint64_t window) {
  const uint64_t lo = s.lo + tile * window, top = (uint64_t)s.lo + s.bits;
  gclq__sets_window w;
  w.lo = lo < top ? lo : top;
  w.hi = lo + window < top ? lo + window : top;
  return w;
}
/* The same from the pair (its range's four loads). */
static __host__ __device__ __forceinline__ gclq__sets_window gclq__sets_window_at(gclq_intersect_method m,
                                                                                  const gclq__sets_pair &pr,
                                                                                  uint64_t tile, uint64_t window) {
  return gclq__sets_window_in(gclq__sets_bitmap_range(m, pr), tile, window);
}

/* A bitmap's tile: window `tile` of `window` values of the pair's span,
   a's elements in it and b's (four independent searches). Both slices
   empty when a has none there. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_window_end(gclq_intersect_method m,
                                                                          const gclq__sets_pair &pr, uint64_t tile,
                                                                          uint64_t window, uint32_t end) {
  const gclq__sets_window w = gclq__sets_window_at(m, pr, tile, window);
  const uint32_t x0 = gclq__sets_lower_bound64(pr.a, pr.na, w.lo), x1 = gclq__sets_lower_bound64(pr.a, pr.na, w.hi);
  if (end == 0) return x0;
  if (end == 1) return x1;
  if (x0 == x1) return 0;
  return gclq__sets_lower_bound64(pr.b, pr.nb, end == 2 ? w.lo : w.hi);
}

/* End `end` of block tile `tile` of a pair, by method. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_slice_end(gclq_intersect_method m,
                                                                         const gclq__sets_pair &pr, uint64_t tile,
                                                                         uint32_t end) {
  if (gclq__sets_is_bitmap(m)) return gclq__sets_window_end(m, pr, tile, GCLQ__SETS_BITMAP_BITS, end);
  if (m == GCLQ_INTERSECT_HASH) return gclq__sets_chunk_slice_end(pr, tile, end);
  return gclq__sets_ip_end(pr, tile, end);
}

/* End `end` of a small pair's one tile: the whole pair, or the bitmaps'
   single window over the span. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_warp_end(gclq_intersect_method m,
                                                                        const gclq__sets_pair &pr, uint32_t end) {
  if (gclq__sets_is_bitmap(m)) return gclq__sets_window_end(m, pr, 0, GCLQ__SETS_WARP_BITMAP_BITS, end);
  return end == 0 || end == 2 ? 0 : end == 1 ? pr.na : pr.nb;
}

/* The slices from their four ends; when either is empty there is no match,
   and both are left empty. */
static __host__ __device__ __forceinline__ gclq__sets_slices gclq__sets_slices_at(const uint32_t *e) {
  gclq__sets_slices c;
  c.x0 = e[0];
  c.x1 = e[1];
  c.y0 = e[2];
  c.y1 = e[3];
  if (c.x0 == c.x1 || c.y0 == c.y1) c.x1 = c.x0, c.y1 = c.y0;
  return c;
}

/* ---- a tile's ends by groups of lanes ----
   The bitmaps' and HASH's partition kernel (gclq__sets_table_split_kernel)
   runs these for a large pair instead of a thread's binary search an end:
   a binary search is a chain of dependent loads, 24 on a set of 10^7 (on
   two uniform sets of 10^7 over U = 10^9, windows of 2^17 values, a thread
   an end took a third of the count's time, and half warps, a's ends then
   b's from them, cut that partition by a third). A group of G lanes
   searches together, (G + 1)-way
   steps: a bitmap's four ends are independent, a quarter warp each (8 steps
   on 10^7); HASH's two ends of b, a half warp each (6). A small pair's
   tile keeps four threads' searches (R-MAT's every edge: a warp's searches
   on small sets cost more than they save). */

#define GCLQ__SETS_CUT_LANES 16u         /* lanes of HASH's searches: a half warp */
#define GCLQ__SETS_CUT_LANES_FROM 16384u /* |a| + |b| from which a pair's tiles search by lanes */

/* The first index of b[lo, hi) whose element is not below v (v up to 2^32),
   by each group of G lanes (every lane of the warp
   calls it, each group with its own arguments, the same on its lanes; an
   empty range returns lo at once). A step loads G pivots s apart
   (s = ceil(n / G)); the pivots below v are a prefix, and the answer lies
   after the last of them, before the next one. */
template <uint32_t G>
static __device__ __forceinline__ uint32_t gclq__d_group_lower_bound(const uint32_t *b, uint32_t lo, uint32_t hi,
                                                                     uint64_t v) {
  const uint32_t lane = threadIdx.x & 31, r = lane % G, first = lane - r;
  const uint32_t mask = G == 32 ? 0xffffffffu : (1u << (G % 32)) - 1;
  for (;;) {
    const uint32_t n = hi - lo;
    if (!__any_sync(0xffffffffu, n > 0)) return lo;
    const uint32_t s = n <= G ? 1u : (uint32_t)(((uint64_t)n + G - 1) / G);
    const uint64_t q = (uint64_t)lo + (uint64_t)(r + 1) * s - 1;
    const bool below = n > 0 && q < hi && (uint64_t)__ldg(b + q) < v;
    const uint32_t c = __popc((__ballot_sync(0xffffffffu, below) >> first) & mask);
    if (n == 0) continue;
    if (s == 1) {
      lo += c;
      hi = lo;
    } else {
      const uint64_t top = (uint64_t)lo + (uint64_t)(c + 1) * s - 1;
      lo += c * s;
      hi = top < hi ? (uint32_t)top : hi;
    }
  }
}

/* Block tile `tile`'s four ends of a bitmap or HASH (gclq__sets_slice_end's)
   by a warp, e[0..3] on every lane; every lane calls it. A pair of
   GCLQ__SETS_CUT_LANES_FROM elements or more: the bitmaps' four searches
   at once, a quarter warp each (9-way steps, 8 on 10^7); HASH's halves
   find b's two ends from a's chunk. A smaller pair: four lanes' own
   searches. */
static __device__ __forceinline__ void gclq__d_table_ends(gclq_intersect_method m, const gclq__sets_pair &pr,
                                                          uint64_t tile, uint32_t *e) {
  const uint32_t lane = threadIdx.x & 31;
  if ((uint64_t)pr.na + pr.nb < GCLQ__SETS_CUT_LANES_FROM) { /* the whole warp: one pair */
    const uint32_t mine = lane < 4 ? gclq__sets_slice_end(m, pr, tile, lane) : 0;
    for (uint32_t k = 0; k < 4; ++k) e[k] = __shfl_sync(0xffffffffu, mine, k);
    return;
  }
  if (gclq__sets_is_bitmap(m)) { /* the window's bounds in a and in b, as gclq__sets_window_end's */
    const gclq__sets_window w = gclq__sets_window_at(m, pr, tile, GCLQ__SETS_BITMAP_BITS);
    const uint32_t q = lane / 8;
    const uint32_t x = gclq__d_group_lower_bound<8>(q < 2 ? pr.a : pr.b, 0, q < 2 ? pr.na : pr.nb,
                                                    q & 1 ? w.hi : w.lo);
    for (uint32_t k = 0; k < 4; ++k) e[k] = __shfl_sync(0xffffffffu, x, 8 * k);
    if (e[0] == e[1]) e[2] = e[3] = 0; /* no element of a in the window (gclq__sets_window_end's 0) */
    return;
  }
  /* HASH: b's first element not below a's chunk's first, and one past the
     first not below its last (gclq__sets_chunk_end) */
  const bool last = lane >= 16;
  e[0] = gclq__sets_chunk_slice_end(pr, tile, 0);
  e[1] = gclq__sets_chunk_slice_end(pr, tile, 1);
  const uint32_t y = gclq__d_group_lower_bound<GCLQ__SETS_CUT_LANES>(pr.b, 0, pr.nb, last ? pr.a[e[1] - 1] : pr.a[e[0]]);
  e[2] = __shfl_sync(0xffffffffu, y, 0);
  e[3] = gclq__sets_min(__shfl_sync(0xffffffffu, y, 16) + 1, pr.nb);
}

/* A run of sorted elements: one side of a tile. */
struct gclq__sets_run {
  const uint32_t *v;
  uint32_t n;
};
/* Side b (1) or a (0) of a tile. */
static __host__ __device__ __forceinline__ gclq__sets_run gclq__sets_side(const gclq__sets_pair &pr,
                                                                          const gclq__sets_slices &c, bool b) {
  gclq__sets_run r;
  r.v = b ? pr.b + c.y0 : pr.a + c.x0;
  r.n = b ? c.y1 - c.y0 : c.x1 - c.x0;
  return r;
}

/* ---- the tables ----
   Each is made over shared words (make: `block` says a block's size or a
   warp's), zeroes `clear` words of them before the build, takes the build
   side's elements (insert, any order, from any thread) and answers probes
   (operator()). FROM_B: built from b's slice, probed by a's; BLOCK_WORDS:
   the shared words of a block's table. */

/* The bucket of v among 2^log2 buckets (1 <= log2 <= 31): Fibonacci
   hashing, the top bits of v times 2^32 / golden ratio, which spreads runs
   of consecutive values evenly. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_bucket(uint32_t v, uint32_t log2) {
  return (v * 2654435769u) >> (32 - log2);
}

/* Hash-based intersection's table (the paper, 3.1.3): 2^log2 buckets of
   GCLQ__SETS_HASH_SLOTS slots; count[k] is every element that hashed to
   bucket k, held or not. An element whose bucket is full is not stored,
   and a probe into a bucket that overflowed ends in a binary search of the
   build side itself (src, sorted), so no element is ever lost. */
struct gclq__sets_hash {
  enum { FROM_B = 0, BLOCK_WORDS = (1u << GCLQ__SETS_HASH_LOG2) * (1 + GCLQ__SETS_HASH_SLOTS), LOADS = GCLQ__SETS_LOADS };
  uint32_t *count, *slot;
  uint32_t log2;
  gclq__sets_run src;

  static __host__ __device__ __forceinline__ gclq__sets_hash make(uint32_t *mem, bool block, const gclq__sets_pair &pr,
                                                                  const gclq__sets_slices &c) {
    gclq__sets_hash h;
    h.log2 = block ? GCLQ__SETS_HASH_LOG2 : GCLQ__SETS_WARP_HASH_LOG2;
    h.count = mem;
    h.slot = mem + (1u << h.log2);
    h.src = gclq__sets_side(pr, c, false);
    return h;
  }
  __host__ __device__ __forceinline__ uint32_t *clear() const { return count; }
  __host__ __device__ __forceinline__ uint32_t clear_words() const { return src.n ? 1u << log2 : 0; }
  __host__ __device__ __forceinline__ void insert(uint32_t v, uint32_t) const {
    const uint32_t k = gclq__sets_bucket(v, log2), rank = gclq__sets_add_one(&count[k]);
    if (rank < GCLQ__SETS_HASH_SLOTS) slot[k * GCLQ__SETS_HASH_SLOTS + rank] = v;
  }
  __host__ __device__ __forceinline__ bool operator()(uint32_t v) const {
    const uint32_t k = gclq__sets_bucket(v, log2), held = count[k];
    for (uint32_t r = 0; r < gclq__sets_min(held, GCLQ__SETS_HASH_SLOTS); ++r)
      if (slot[k * GCLQ__SETS_HASH_SLOTS + r] == v) return true;
    return held > GCLQ__SETS_HASH_SLOTS && gclq__sets_has(src.v, src.n, v);
  }
};

/* Bitmap-based intersection's table (the paper, 3.1.4): bit v - base of
   word[] for every element v of a's slice, base its first element; the
   slice lies in one window, so its words fit (GCLQ__SETS_BITMAP_BITS / 32
   a block, GCLQ__SETS_WARP_BITMAP_BITS / 32 a warp). Probes come from b's
   slice, the same window: those outside a's first and last element find
   nothing. */
struct gclq__sets_bits {
  enum { FROM_B = 0, BLOCK_WORDS = (uint32_t)(GCLQ__SETS_BITMAP_BITS / 32), LOADS = GCLQ__SETS_LOADS };
  uint32_t *word;
  uint32_t base, words;

  static __host__ __device__ __forceinline__ gclq__sets_bits make(uint32_t *mem, bool, const gclq__sets_pair &pr,
                                                                  const gclq__sets_slices &c) {
    gclq__sets_bits t;
    t.word = mem;
    t.base = c.x0 < c.x1 ? pr.a[c.x0] : 0;
    t.words = c.x0 < c.x1 ? ((pr.a[c.x1 - 1] - t.base) >> 5) + 1 : 0;
    return t;
  }
  __host__ __device__ __forceinline__ uint32_t *clear() const { return word; }
  __host__ __device__ __forceinline__ uint32_t clear_words() const { return words; }
  __host__ __device__ __forceinline__ void insert(uint32_t v, uint32_t) const {
    const uint32_t i = v - base;
    gclq__sets_or(&word[i >> 5], 1u << (i & 31));
  }
  __host__ __device__ __forceinline__ bool operator()(uint32_t v) const {
    const uint32_t i = v - base; /* v below base: a large i */
    return i < 32 * words && ((word[i >> 5] >> (i & 31)) & 1u);
  }
};

/* Optimized binary search's table (the paper, 3.1.2) for IP_OBS: the
   whole of b's slice copied to shared memory (every level of its search
   tree cached), each element of a's slice binary-searched there. */
struct gclq__sets_sorted {
  enum { FROM_B = 1, BLOCK_WORDS = GCLQ__SETS_TILE + 1, LOADS = 1 }; /* words: a tile's b slice and its guard */
  uint32_t *key;
  uint32_t n;

  static __host__ __device__ __forceinline__ gclq__sets_sorted make(uint32_t *mem, bool, const gclq__sets_pair &,
                                                                    const gclq__sets_slices &c) {
    gclq__sets_sorted t;
    t.key = mem;
    t.n = c.y1 - c.y0;
    return t;
  }
  __host__ __device__ __forceinline__ uint32_t *clear() const { return key; }
  __host__ __device__ __forceinline__ uint32_t clear_words() const { return 0; }
  __host__ __device__ __forceinline__ void insert(uint32_t v, uint32_t i) const { key[i] = v; }
  __host__ __device__ __forceinline__ bool operator()(uint32_t v) const { return gclq__sets_has(key, n, v); }
};

/* ---- the kernels ---- */

/* A barrier of the group: the block, or the warp. */
template <bool BLOCK>
static __device__ __forceinline__ void gclq__d_group_sync() {
  if (BLOCK) __syncthreads();
  else __syncwarp();
}

/* The table of a tile built by the group (a block, or a warp): its words
   cleared, then the build side inserted; barriers after each. */
template <bool BLOCK, typename Table>
static __device__ __forceinline__ void gclq__d_table_build(const Table &t, const gclq__sets_run &build) {
  enum { U = BLOCK ? Table::LOADS : 1 };
  const uint32_t rank = BLOCK ? threadIdx.x : threadIdx.x & 31, step = BLOCK ? GCLQ__SETS_NT : 32;
  uint32_t *words = t.clear();
  for (uint32_t k = rank; k < t.clear_words(); k += step) words[k] = 0;
  gclq__d_group_sync<BLOCK>();
  for (uint32_t i0 = rank; i0 < build.n; i0 += U * step) {
    uint32_t v[U];
#pragma unroll
    for (uint32_t u = 0; u < U; ++u) v[u] = i0 + u * step < build.n ? build.v[i0 + u * step] : 0u;
#pragma unroll
    for (uint32_t u = 0; u < U; ++u)
      if (i0 + u * step < build.n) t.insert(v[u], i0 + u * step);
  }
  gclq__d_group_sync<BLOCK>();
}

/* The probe side counted by the block, Table::LOADS elements a thread
   loaded at once: the count of those the table holds (every thread gets it). */
template <typename Table>
static __device__ __forceinline__ uint32_t gclq__d_block_count(const Table &t, const gclq__sets_run &probe,
                                                               uint32_t *s_warp) {
  enum { U = Table::LOADS };
  uint32_t mine = 0, total;
  for (uint32_t i0 = threadIdx.x; i0 < probe.n; i0 += U * GCLQ__SETS_NT) {
    uint32_t v[U];
#pragma unroll
    for (uint32_t u = 0; u < U; ++u) v[u] = i0 + u * GCLQ__SETS_NT < probe.n ? probe.v[i0 + u * GCLQ__SETS_NT] : 0u;
#pragma unroll
    for (uint32_t u = 0; u < U; ++u) mine += i0 + u * GCLQ__SETS_NT < probe.n && t(v[u]);
  }
  gclq__d_block_exclusive_sum(mine, s_warp, &total);
  return total;
}

/* The probe side walked in order by the block, GCLQ__SETS_NT elements a
   round: the elements the table holds written at out, in the probe side's
   (sorted) order (a block scan a round); returns how many. */
template <typename Table>
static __device__ __forceinline__ uint32_t gclq__d_block_write(const Table &t, const gclq__sets_run &probe,
                                                               uint32_t *s_warp, uint32_t *out) {
  uint32_t written = 0, total;
  for (uint64_t r = 0; r < probe.n; r += GCLQ__SETS_NT) {
    const uint64_t i = r + threadIdx.x;
    const uint32_t found = i < probe.n && t(probe.v[i]);
    const uint32_t before = gclq__d_block_exclusive_sum(found, s_warp, &total);
    if (found) out[written + before] = probe.v[i];
    written += total;
  }
  return written;
}

/* The count (WRITE false) or the write of the probe side by the block. */
template <bool WRITE, typename Table>
static __device__ __forceinline__ uint32_t gclq__d_block_probe(const Table &t, const gclq__sets_run &probe,
                                                               uint32_t *s_warp, uint32_t *out) {
  return WRITE ? gclq__d_block_write(t, probe, s_warp, out) : gclq__d_block_count(t, probe, s_warp);
}

/* The one pass's probe (gclq__sets_table_kernel with ONE): the probe side
   cut into one contiguous run per warp, counted (a ballot a round of 32,
   four rounds' loads at once), the first GCLQ__SETS_KEEP matches kept in
   the warp's words of keep (in order, up to the first round that would
   not fit), the tile placed by the block's total (gclq__d_tile_place),
   then each warp writes its kept matches and, from the round it stopped
   keeping, walks the rest of its run again: no block barrier a round, as
   gclq__d_block_probe's write has, and a run whose matches fit is read
   once. */
template <typename Table>
static __device__ __forceinline__ void gclq__d_block_probe_once(const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                                uint32_t t, uint32_t p, const Table &table,
                                                                const gclq__sets_run &probe, uint32_t *s_warp,
                                                                uint32_t *keep, unsigned long long *s_place) {
  enum { U = 4 };
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32, warps = GCLQ__SETS_NT / 32;
  const uint32_t below = (1u << lane) - 1;
  const uint32_t per = (probe.n + warps - 1) / warps;
  const uint32_t lo = gclq__sets_min(warp * per, probe.n), hi = gclq__sets_min(lo + per, probe.n);
  uint32_t c = 0, kept = 0, stop = hi, total;
  keep += warp * GCLQ__SETS_KEEP;
  for (uint32_t i0 = lo; i0 < hi; i0 += 32 * U) {
    uint32_t v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const uint32_t i = i0 + 32 * u + lane;
      v[u] = i < hi ? probe.v[i] : 0u;
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const uint32_t i = i0 + 32 * u + lane;
      const bool found = i < hi && table(v[u]);
      const uint32_t ballot = __ballot_sync(0xffffffffu, found), n = __popc(ballot);
      if (stop == hi && kept + n <= GCLQ__SETS_KEEP) {
        if (found) keep[kept + __popc(ballot & below)] = v[u];
        kept += n;
      } else if (stop == hi) {
        stop = i0 + 32 * u; /* below hi: a round at or past hi has no matches */
      }
      c += n;
    }
  }
  /* the runs before this warp's: lane 0's exclusive sum over the block */
  const uint32_t before = __shfl_sync(0xffffffffu, gclq__d_block_exclusive_sum(lane == 0 ? c : 0, s_warp, &total), 0);
  uint32_t *out = g.out + gclq__d_tile_place(g, T, t, p, total, s_place) + before;
  for (uint32_t k = lane; k < kept; k += 32) out[k] = keep[k];
  out += kept;
  for (uint32_t i0 = stop; i0 < hi; i0 += 32) {
    const uint32_t i = i0 + lane;
    const bool found = i < hi && table(probe.v[i]);
    const uint32_t ballot = __ballot_sync(0xffffffffu, found);
    if (found) out[__popc(ballot & below)] = probe.v[i];
    out += __popc(ballot);
  }
}

/* The same by a warp, 32 elements a round (a ballot a round). */
template <bool WRITE, typename Table>
static __device__ __forceinline__ uint32_t gclq__d_warp_probe(const Table &t, const gclq__sets_run &probe,
                                                              uint32_t *out) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t c = 0;
  for (uint64_t r = 0; r < probe.n; r += 32) {
    const uint64_t i = r + lane;
    const bool found = i < probe.n && t(probe.v[i]);
    const uint32_t ballot = __ballot_sync(0xffffffffu, found);
    if (WRITE && found) out[c + __popc(ballot & ((1u << lane) - 1))] = probe.v[i];
    c += __popc(ballot);
  }
  return c;
}

/* A bitmap tile of the count pass as the partition kernel leaves it for
   gclq__sets_bits_count_kernel: its two slices (a's builds the bitmap, b's
   probes it), the bitmap's base and words (gclq__sets_bits::make), its
   pair. Ten words, which a block loads for its next tile while it counts
   the current one. */
struct gclq__sets_bits_tile {
  const uint32_t *a, *b;
  uint32_t na, nb, base, words, p, unused;
};

/* The bitmaps' and HASH's partition kernel: tile t's four ends into
   split[4t, 4t + 4), a warp a tile (gclq__d_table_ends); or, with rec
   (the bitmaps' count pass), the whole tile into rec[t]. */
static __global__ void gclq__sets_table_split_kernel(gclq__sets_args g, gclq__sets_tiles T,
                                                     gclq_intersect_method method, uint32_t *split,
                                                     gclq__sets_bits_tile *rec) {
  const uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (t >= gclq__sets_first(T, T.nq)) return; /* the whole warp */
  uint32_t q, p, e[4];
  const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
  gclq__d_table_ends(method, pr, t - gclq__sets_first(T, q), e);
  const uint32_t lane = threadIdx.x & 31;
  if (rec == NULL) {
    if (lane < 4) split[4 * t + lane] = e[lane];
  } else if (lane == 0) {
    const gclq__sets_slices c = gclq__sets_slices_at(e);
    const gclq__sets_bits bits = gclq__sets_bits::make(NULL, true, pr, c);
    const gclq__sets_run x = gclq__sets_side(pr, c, false), y = gclq__sets_side(pr, c, true);
    const gclq__sets_bits_tile r = {x.v, y.v, x.n, y.n, bits.base, bits.words, p, 0};
    rec[t] = r;
  }
}

/* The bitmaps' count pass from the partition kernel's tiles (rec), for
   batches of large pairs that do not stream (gclq__sets_stream_balanced):
   each block runs a tile at a time, the blocks in turn (a grid of as many as
   the device holds at once), and loads its next tile's record while it
   counts the current one. A tile's first loads are then its data's: a
   block per tile (gclq__sets_table_kernel) waits for its pair, its ends,
   then the bitmap's base, before them (faster than a block a tile on two
   uniform sets of 10^7 and of 10^8 over U = 10^9). */
static __global__ void __launch_bounds__(GCLQ__SETS_NT, 2048 / GCLQ__SETS_NT)
    gclq__sets_bits_count_kernel(gclq__sets_args g, gclq__sets_tiles T, const gclq__sets_bits_tile *rec) {
  enum { W = sizeof(gclq__sets_bits_tile) / 4 };
  __shared__ uint32_t s_mem[gclq__sets_bits::BLOCK_WORDS];
  __shared__ gclq__sets_bits_tile s_rec;
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  const uint64_t tiles = gclq__sets_first(T, T.nq);
  const uint32_t tid = threadIdx.x, *from = (const uint32_t *)rec;
  uint32_t *mine = (uint32_t *)&s_rec;
  uint64_t t = blockIdx.x;
  if (t < tiles && tid < W) mine[tid] = __ldg(from + W * t + tid);
  __syncthreads();
  for (; t < tiles; t += gridDim.x) {
    const uint64_t next = t + gridDim.x;
    const uint32_t ahead = next < tiles && tid < W ? __ldg(from + W * next + tid) : 0u;
    gclq__sets_bits table;
    table.word = s_mem;
    table.base = s_rec.base;
    table.words = s_rec.words;
    gclq__sets_run build, probe;
    build.v = s_rec.a, build.n = s_rec.na;
    probe.v = s_rec.b, probe.n = s_rec.nb;
    const uint32_t p = s_rec.p;
    gclq__d_table_build<true>(table, build);
    gclq__d_tile_total(g, T, t, p, gclq__d_block_probe<false>(table, probe, s_warp, NULL));
    __syncthreads(); /* s_mem and s_rec are the next tile's */
    if (tid < W) mine[tid] = ahead;
    __syncthreads();
  }
}

/* Whether the bitmaps' count pass of a batch may stream its windows
   (gclq__sets_bits_stream_kernel, `grid` blocks): its pairs span
   GCLQ__SETS_STREAM_TILES windows or more on average, there are no more
   pairs than blocks, and the blocks' runs balance. Block k runs tiles
   [tiles k / grid, tiles (k + 1) / grid), in order; its work is the
   elements of both sides in those windows, plus
   GCLQ__SETS_STREAM_WINDOW_COST a window. Skewed sets (zipf's: most
   elements in the first windows) put most of the work in a few runs,
   which a block would walk alone while the others wait: when a run takes
   more than GCLQ__SETS_STREAM_SKEW times the mean, the batch keeps the
   partition kernel's records, whose blocks take tiles in turn. (With no
   more tiles than blocks, each block runs one tile either way.) Of the
   paper's Fig. 9 pairs (uniform, normal, zipf; U = 10^8, 10^9; 10^6 and
   10^7 elements) this streams all but normal and zipf at U = 10^9 with
   10^7 elements, and zipf at 10^9 with 10^6: streamed, those three ran
   slower than by the records (bench/results/sets_h200.md, "The bitmaps'
   streamed count": balance). h: the collection and pairs on the host; the
   tiles as
   gclq__sets_classify cut them (pair[q], first[q], nq entries). */
static inline bool gclq__sets_stream_balanced(gclq_intersect_method m, const gclq__sets_args &h, const uint32_t *pair,
                                              const uint64_t *first, uint32_t nq, uint32_t grid) {
  const uint64_t tiles = nq ? first[nq] : 0;
  if (nq == 0 || grid == 0 || nq > grid || tiles < (uint64_t)GCLQ__SETS_STREAM_TILES * nq) return false;
  if (tiles <= grid) return true; /* a tile a block, as with the records */
  double most = 0.0, total = 0.0;
  uint32_t q = 0;
  for (uint32_t k = 0; k < grid; ++k) {
    const uint64_t t0 = tiles * k / grid, t1 = tiles * (k + 1) / grid;
    double work = (double)GCLQ__SETS_STREAM_WINDOW_COST * (double)(t1 - t0);
    for (uint64_t t = t0; t < t1;) {
      while (first[q + 1] <= t) ++q;
      const uint64_t u1 = (t1 < first[q + 1] ? t1 : first[q + 1]) - first[q];
      const gclq__sets_pair pr = gclq__sets_pair_at(h, pair[q]);
      const gclq__sets_range r = gclq__sets_bitmap_range(m, pr);
      const uint64_t lo = gclq__sets_window_in(r, t - first[q], GCLQ__SETS_BITMAP_BITS).lo;
      const uint64_t hi = gclq__sets_window_in(r, u1 - 1, GCLQ__SETS_BITMAP_BITS).hi;
      work += (double)(gclq__sets_lower_bound64(pr.a, pr.na, hi) - gclq__sets_lower_bound64(pr.a, pr.na, lo)) +
              (double)(gclq__sets_lower_bound64(pr.b, pr.nb, hi) - gclq__sets_lower_bound64(pr.b, pr.nb, lo));
      t = first[q] + u1;
    }
    most = work > most ? work : most;
    total += work;
  }
  return most <= GCLQ__SETS_STREAM_SKEW * total / grid;
}

/* ---- the bitmaps' count pass by streaming windows ----
   gclq__sets_bits_stream_kernel: for batches whose pairs span many
   windows each. Block k takes the k-th run of consecutive search tiles
   (tiles / blocks of them, give or take one), or of slots (SLOTS: a
   window then holds a tile's worth of values from where the run or the
   slot starts, up to the run's or the pair's end), and walks its windows
   in value order: a window's slices start where the previous window's
   ended, and end where its elements reach the window's top, which the
   build and the probe see as they read. So no partition kernel runs, and
   a block searches only at its first window of a pair, or for b's start
   after a window a's slice left empty (b is then skipped, as a tile
   without a's elements has no match). A side is read in rounds of U quads
   (16-byte loads) a thread (U = 2 when WIDE). In PAIRS (counting alone:
   T.count is NULL) a window spans 2 tiles over a bitmap of twice a tile's
   values, and a round prefetches the next. A round reads on past the
   window, and the next window reads those elements again, from L1. The
   bitmap covers the window's values from its first (base = the window's
   low end), is cleared 16 bytes a store, and is built and probed without
   branches: an element's offset r from the base is in the window when
   r < span, and an element past the side's end gets r = 2^32 - 1. On two
   uniform sets of 10^7 over U = 10^9 this is faster than 4-byte loads with
   64-bit index arithmetic, and than branches around each element's bitmap
   access. */

/* A side of a window, read in rounds: quads (4 elements, 16 bytes) from
   the 16-byte boundary at or below the window's first element, thread tid
   taking quads q + tid + k NT (k < V) of a round that starts at quad q.
   v[0, n) = [v, end): the side's set. Elements are kept as offsets from
   the window's low end lo, where every element before the window's first
   (the set's own elements, below lo) wraps to 2^32 - lo or more: at least
   the window's span. Elements outside [v, end) get 2^32 - 1; *last is the
   round's last element's offset (every thread; 2^32 - 1 when the round
   reaches end). AHEAD: the first NT quads of the next round are asked of
   L2 (a thread's quad each). */
template <int V, bool AHEAD>
static __device__ __forceinline__ void gclq__d_stream_round(const uint32_t *v, const uint32_t *end, const uint4 *q,
                                                            uint32_t lo, uint32_t *r, uint32_t *last) {
#pragma unroll
  for (int k = 0; k < V; ++k) {
    const uint32_t *e = (const uint32_t *)(q + threadIdx.x + k * GCLQ__SETS_NT);
    if (e >= v && e + 4 <= end) {
      const uint4 x = __ldg((const uint4 *)e);
      r[4 * k] = x.x - lo, r[4 * k + 1] = x.y - lo, r[4 * k + 2] = x.z - lo, r[4 * k + 3] = x.w - lo;
    } else {
#pragma unroll
      for (int m = 0; m < 4; ++m) r[4 * k + m] = e + m >= v && e + m < end ? __ldg(e + m) - lo : 0xffffffffu;
    }
  }
  if (AHEAD) { /* the thread's first quad of the next round */
    const uint32_t *f = (const uint32_t *)(q + threadIdx.x + V * GCLQ__SETS_NT);
    if (f + 4 <= end) asm volatile("prefetch.global.L2 [%0];" ::"l"(f));
  }
  const uint32_t *next = (const uint32_t *)(q + V * GCLQ__SETS_NT); /* the next round's first element */
  *last = next < end ? __ldg(next - 1) - lo : 0xffffffffu;
}

/* The quad of the 16-byte boundary at or below p. */
static __device__ __forceinline__ const uint4 *gclq__d_stream_first(const uint32_t *p) {
  return (const uint4 *)((uintptr_t)p & ~(uintptr_t)15);
}

/* The word of offset r (r < BITS) in a bitmap of BITS bits: its shared
   byte address from base (a wrong word for r outside the window, but
   inside the bitmap). */
template <uint32_t BITS>
static __device__ __forceinline__ uint32_t gclq__d_bits_addr(uint32_t base, uint32_t r) {
  return base + ((r >> 3) & (BITS / 8 - 4));
}

/* Bit r's word |= its bit when on (when not, the word of r |= 0): one
   shared reduction either way, no branch. */
template <uint32_t BITS>
static __device__ __forceinline__ void gclq__d_bits_set_if(bool on, uint32_t base, uint32_t r) {
  asm volatile("red.shared.or.b32 [%0], %1;" ::"r"(gclq__d_bits_addr<BITS>(base, r)), "r"(on ? 1u << (r & 31) : 0u)
               : "memory");
}

/* Bit r (0 or 1), and 0 when not on. */
template <uint32_t BITS>
static __device__ __forceinline__ uint32_t gclq__d_bits_get_if(bool on, uint32_t base, uint32_t r) {
  uint32_t w;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(w) : "r"(gclq__d_bits_addr<BITS>(base, r)) : "memory");
  return (w >> (r & 31)) & (uint32_t)on;
}

/* A side's elements in the window, from its first round (r, last, read
   at quad q) on: set in the bitmap (the build), or looked up there (PROBE:
   *c += the matches); *n += the elements in the window. A quad none of
   whose warp's elements is in the window is skipped. PAIRS: the bitmap
   spans 2 tiles, and a round prefetches (gclq__d_stream_round's AHEAD). */
template <int U, bool PROBE, bool PAIRS>
static __device__ __forceinline__ void gclq__d_stream_side(const uint32_t *v, const uint32_t *end, const uint4 *q,
                                                           uint32_t lo, uint32_t span, uint32_t base, uint32_t *r,
                                                           uint32_t last, uint32_t *n, uint32_t *c) {
  for (;;) {
#pragma unroll
    for (int k = 0; k < U; ++k) {
      bool in[4];
#pragma unroll
      for (int m = 0; m < 4; ++m) in[m] = r[4 * k + m] < span;
      if (__any_sync(0xffffffffu, in[0] || in[1] || in[2] || in[3])) {
#pragma unroll
        for (int m = 0; m < 4; ++m) {
          *n += in[m];
          if (PROBE) *c += gclq__d_bits_get_if<(GCLQ__SETS_BITMAP_BITS << PAIRS)>(in[m], base, r[4 * k + m]);
          else gclq__d_bits_set_if<(GCLQ__SETS_BITMAP_BITS << PAIRS)>(in[m], base, r[4 * k + m]);
        }
      }
    }
    q += U * GCLQ__SETS_NT;
    if (last >= span) return;
    gclq__d_stream_round<U, PAIRS>(v, end, q, lo, r, &last);
  }
}

/* The slices' starts of a window from lo: a's and b's first elements not
   below lo (a's from x0 on, that is x0 itself, when have_x; b's from
   y_floor on), found by the block's first warp, a half-warp a side, and
   handed to every thread through s_start. */
static __device__ __forceinline__ void gclq__d_stream_starts(const gclq__sets_pair &pr, uint64_t lo, bool have_x,
                                                             uint32_t y_floor, uint32_t *s_start, uint32_t *x0,
                                                             uint32_t *y0) {
  const uint32_t lane = threadIdx.x & 31;
  if (threadIdx.x < 32) {
    const bool on_b = lane >= 16;
    const uint32_t from = on_b ? y_floor : have_x ? *x0 : 0, to = on_b ? pr.nb : have_x ? *x0 : pr.na;
    const uint32_t s = gclq__d_group_lower_bound<16>(on_b ? pr.b : pr.a, from, to, lo);
    if (lane == 0 || lane == 16) s_start[on_b] = s;
  }
  __syncthreads();
  *x0 = s_start[0];
  *y0 = s_start[1];
}

/* Three sums over the block (WARPS warps), left in every thread; s holds a
   warp's partial sums. */
template <int WARPS>
static __device__ __forceinline__ void gclq__d_block_sums(uint32_t (*s)[WARPS], uint32_t *a, uint32_t *b,
                                                          uint32_t *c) {
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  *a = __reduce_add_sync(0xffffffffu, *a);
  *b = __reduce_add_sync(0xffffffffu, *b);
  *c = __reduce_add_sync(0xffffffffu, *c);
  if (lane == 0) s[0][warp] = *a, s[1][warp] = *b, s[2][warp] = *c;
  __syncthreads();
  *a = __reduce_add_sync(0xffffffffu, lane < WARPS ? s[0][lane] : 0u);
  *b = __reduce_add_sync(0xffffffffu, lane < WARPS ? s[1][lane] : 0u);
  *c = __reduce_add_sync(0xffffffffu, lane < WARPS ? s[2][lane] : 0u);
}

template <int U, bool PAIRS>
static __global__ void __launch_bounds__(GCLQ__SETS_NT, 2048 / GCLQ__SETS_NT)
    gclq__sets_bits_stream_kernel(gclq__sets_args g, gclq__sets_tiles T, gclq_intersect_method method,
                                  uint32_t slots_log2) {
  enum { NT = GCLQ__SETS_NT, WARPS = GCLQ__SETS_NT / 32 };
  __shared__ uint4 s_bits[(GCLQ__SETS_BITMAP_BITS << PAIRS) / 128];
  __shared__ uint32_t s_sum[3][WARPS];
  __shared__ uint32_t s_start[2];
  const uint32_t base = (uint32_t)__cvta_generic_to_shared(s_bits);
  const uint32_t tid = threadIdx.x;
  const uint32_t ls = T.count ? 0u : slots_log2; /* a tile's slots, 2^ls: 1 when the tiles' own counts are kept */
  /* T.first is read one entry after another (first_shift = 0: the host's batches, gclq__sets_bits_count): with
     gclq__sets_first's shift ptxas spills the WIDE kernel */
  const uint64_t slots = T.first[T.nq] << ls, width = GCLQ__SETS_BITMAP_BITS >> ls; /* width: a slot's values */
  uint64_t u = slots * blockIdx.x / gridDim.x;
  const uint64_t u_end = slots * (blockIdx.x + 1) / gridDim.x;
  uint32_t q = 0, p = 0, x0 = 0, y0 = 0, y_floor = 0;
  uint64_t q_first = 0, q_next = 0;
  bool have_x = false, have_y = false;
  gclq__sets_pair pr = {NULL, NULL, 0, 0};
  gclq__sets_range range = {0, 0};
  for (uint64_t u1; u < u_end; u = u1) {
    if (u >= q_next) { /* the first slot of a pair, or of the block */
      q = gclq__sets_tile_owner(T, u >> ls);
      q_first = T.first[q] << ls;
      q_next = T.first[q + 1] << ls;
      p = T.pair ? T.pair[q] : q;
      pr = gclq__sets_pair_at(g, p);
      range = gclq__sets_bitmap_range(method, pr);
      have_x = have_y = false;
      y_floor = 0;
    }
    /* the window: slots [u, u1) of the pair, a tile's at most (2 in PAIRS), in the block's run */
    u1 = u + (1u << (ls + PAIRS)) < u_end ? u + (1u << (ls + PAIRS)) : u_end;
    u1 = u1 < q_next ? u1 : q_next;
    gclq__sets_window w = gclq__sets_window_in(range, u - q_first, width);
    w.hi = gclq__sets_window_in(range, u1 - 1 - q_first, width).hi;
    const uint32_t span = (uint32_t)(w.hi - w.lo);
    if (span == 0) continue; /* slots past the pair's last value (its last tile's) */
    if (!have_x || !have_y) { /* the slices' starts: a's and b's first elements not below w.lo */
      gclq__d_stream_starts(pr, w.lo, have_x, y_floor, s_start, &x0, &y0);
      have_x = have_y = true;
    }
    const uint32_t wl = (uint32_t)w.lo; /* below 2^32: the window starts inside the range */
    uint32_t ar[4 * U], br[4 * U], a_last, b_last;
    const uint32_t *a_end = pr.a + pr.na, *b_end = pr.b + pr.nb;
    const uint4 *qa = gclq__d_stream_first(pr.a + x0), *qb = gclq__d_stream_first(pr.b + y0);
    gclq__d_stream_round<U, PAIRS>(pr.a, a_end, qa, wl, ar, &a_last);
    gclq__d_stream_round<U, PAIRS>(pr.b, b_end, qb, wl, br, &b_last);
    const bool a_none = x0 >= pr.na || __ldg(pr.a + x0) - wl >= span; /* the same on every thread */
    for (uint32_t k = tid; k < (span + 127) / 128; k += NT) s_bits[k] = make_uint4(0, 0, 0, 0);
    __syncthreads();
    uint32_t na_in = 0, nb_in = 0, c = 0;
    gclq__d_stream_side<U, false, PAIRS>(pr.a, a_end, qa, wl, span, base, ar, a_last, &na_in, NULL); /* the build */
    __syncthreads();
    if (!a_none) /* the probe */
      gclq__d_stream_side<U, true, PAIRS>(pr.b, b_end, qb, wl, span, base, br, b_last, &nb_in, &c);
    gclq__d_block_sums<WARPS>(s_sum, &c, &na_in, &nb_in); /* the tile's matches, a's and b's elements in the window */
    if (tid == 0) {
      if (c) atomicAdd(&g.counts[p], c);
      if (T.count) T.count[u] = c; /* ls = 0: slot u is tile u */
    }
    x0 += na_in;
    if (a_none) { /* b not read: its start is searched again, from here on */
      y_floor = y0;
      have_y = false;
    } else {
      y0 += nb_in;
    }
  }
}

/* The table methods' block tiles (HASH, the bitmaps: search tiles;
   IP_OBS, IP_HASH: path tiles), a block per tile (the blocks loop over
   them). The tile's four slice ends come from the partition kernel
   (T.split: 4 a tile, gclq__sets_table_split_kernel) or, without it, from
   four of the block's threads; the block builds the table in shared memory and
   walks the probe side; the count pass adds the tile's matches to its pair
   (gclq__d_tile_total), the write pass writes them at the tile's place.
   ONE (with WRITE): the one pass, tiles by ticket, the probe side counted,
   the tile placed, its matches written (gclq__d_block_probe_once). Held
   to 32 registers, so that 8 blocks fit a multiprocessor (with a bound of
   one block, ptxas takes 40-47 for the one pass). */
template <bool WRITE, typename Table, bool ONE>
static __device__ __forceinline__ void gclq__d_table_tile(const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                          uint64_t t, gclq_intersect_method method, uint32_t *s_mem,
                                                          uint32_t *s_end, uint32_t *s_warp, uint32_t *s_keep,
                                                          unsigned long long *s_place) {
  uint32_t q, p;
  const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
  if (threadIdx.x < 4) /* the fallback's own searches kept scalar: they add no registers to the kernel */
    s_end[threadIdx.x] = T.split != NULL ? T.split[4 * t + threadIdx.x]
                                         : gclq__sets_slice_end(method, pr, t - gclq__sets_first(T, q), threadIdx.x);
  __syncthreads();
  const gclq__sets_slices c = gclq__sets_slices_at(s_end);
  const Table table = Table::make(s_mem, true, pr, c);
  gclq__d_table_build<true>(table, gclq__sets_side(pr, c, Table::FROM_B));
  const gclq__sets_run probe = gclq__sets_side(pr, c, !Table::FROM_B);
  if (ONE) {
    gclq__d_block_probe_once(g, T, (uint32_t)t, p, table, probe, s_warp, s_keep, s_place);
  } else {
    uint32_t *out = WRITE ? g.out + gclq__sets_tile_base(g, T, t, q, p) : NULL;
    const uint32_t total = gclq__d_block_probe<WRITE>(table, probe, s_warp, out);
    if (!WRITE) gclq__d_tile_total(g, T, t, p, total);
  }
  __syncthreads(); /* s_mem and s_end are the next tile's */
}

template <bool WRITE, typename Table, bool ONE = false>
static __global__ void __launch_bounds__(GCLQ__SETS_NT, 2048 / GCLQ__SETS_NT)
    gclq__sets_table_kernel(gclq__sets_args g, gclq__sets_tiles T, gclq_intersect_method method) {
  __shared__ uint32_t s_mem[Table::BLOCK_WORDS];
  __shared__ uint32_t s_end[4], s_ticket;
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  __shared__ uint32_t s_keep[ONE ? GCLQ__SETS_NT / 32 * GCLQ__SETS_KEEP : 1];
  __shared__ unsigned long long s_place;
  const uint64_t tiles = gclq__sets_first(T, T.nq);
  for (uint64_t t = ONE ? gclq__d_tile_ticket(T, &s_ticket) : blockIdx.x; t < tiles;
       t = ONE ? gclq__d_tile_ticket(T, &s_ticket) : t + gridDim.x)
    gclq__d_table_tile<WRITE, Table, ONE>(g, T, t, method, s_mem, s_end, s_warp, s_keep, &s_place);
}

/* A small pair by a warp: the tile's four ends found by four lanes and
   shared, the warp's table in mem (GCLQ__SETS_WARP_WORDS), the probe side
   walked. Returns the pair's count (written to out). */
template <bool WRITE, typename Table>
static __device__ __forceinline__ uint32_t gclq__d_warp_table(gclq_intersect_method method, const gclq__sets_pair &pr,
                                                              uint32_t *mem, uint32_t *out) {
  const uint32_t lane = threadIdx.x & 31, mine = lane < 4 ? gclq__sets_warp_end(method, pr, lane) : 0;
  uint32_t e[4];
  for (uint32_t k = 0; k < 4; ++k) e[k] = __shfl_sync(0xffffffffu, mine, k);
  const gclq__sets_slices c = gclq__sets_slices_at(e);
  const Table table = Table::make(mem, false, pr, c);
  gclq__d_table_build<false>(table, gclq__sets_side(pr, c, Table::FROM_B));
  return gclq__d_warp_probe<WRITE>(table, gclq__sets_side(pr, c, !Table::FROM_B), out);
}

/* The table methods' small pairs, a warp each (gclq__sets_warp_runs), as
   gclq__sets_warp_kernel runs the others': warp w takes pair list[w] (list
   NULL: pair w, skipped unless a warp runs it). Blocks of GCLQ__SETS_NT
   threads, each warp with GCLQ__SETS_WARP_WORDS words of its own. IP_HASH's
   small pair is a single piece: HASH's warp runs it. */
template <bool WRITE>
static __global__ void __launch_bounds__(GCLQ__SETS_NT)
    gclq__sets_table_warp_kernel(gclq__sets_args g, const uint32_t *list, uint32_t n, gclq_intersect_method method) {
  __shared__ uint32_t s_mem[GCLQ__SETS_NT / 32][GCLQ__SETS_WARP_WORDS];
  const uint64_t w = ((uint64_t)blockIdx.x * GCLQ__SETS_NT + threadIdx.x) / 32;
  if (w >= n) return;
  const uint32_t p = list ? list[w] : (uint32_t)w;
  const gclq__sets_pair pr = gclq__sets_pair_at(g, p);
  if (!gclq__sets_warp_runs(method, pr)) return;
  uint32_t *mem = s_mem[threadIdx.x / 32], *out = WRITE ? g.out + g.pair_pos[p] : NULL, c;
  if (method == GCLQ_INTERSECT_IP_OBS) c = gclq__d_warp_table<WRITE, gclq__sets_sorted>(method, pr, mem, out);
  else if (gclq__sets_is_bitmap(method)) c = gclq__d_warp_table<WRITE, gclq__sets_bits>(method, pr, mem, out);
  else c = gclq__d_warp_table<WRITE, gclq__sets_hash>(method, pr, mem, out);
  if (!WRITE && (threadIdx.x & 31) == 0) g.counts[p] = c;
}

/* One pass of a table method (WRITE: the write pass): the warp kernel over
   nw pairs (warp_list, or NULL: every pair, as the device call runs), the
   path tiles (IP_OBS, IP_HASH) and the search tiles (HASH, the bitmaps),
   each on its grid (0: nothing to run). */
template <bool WRITE>
static inline gclq_status gclq__sets_methods_launch(gclq_intersect_method m, const gclq__sets_args &g,
                                                    const uint32_t *warp_list, uint32_t nw,
                                                    const gclq__sets_tiles &path, unsigned path_grid,
                                                    const gclq__sets_tiles &search, unsigned search_grid,
                                                    cudaStream_t stream) {
  if (nw > 0) {
    const unsigned blocks = (unsigned)(((uint64_t)nw * 32 + GCLQ__SETS_NT - 1) / GCLQ__SETS_NT);
    gclq__sets_table_warp_kernel<WRITE><<<blocks, GCLQ__SETS_NT, 0, stream>>>(g, warp_list, nw, m);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  if (path_grid > 0 && m == GCLQ_INTERSECT_IP_OBS)
    gclq__sets_table_kernel<WRITE, gclq__sets_sorted><<<path_grid, GCLQ__SETS_NT, 0, stream>>>(g, path, m);
  if (path_grid > 0 && m == GCLQ_INTERSECT_IP_HASH)
    gclq__sets_table_kernel<WRITE, gclq__sets_hash><<<path_grid, GCLQ__SETS_NT, 0, stream>>>(g, path, m);
  GCLQ__CUDA_TRY(cudaGetLastError());
  if (search_grid > 0 && m == GCLQ_INTERSECT_HASH)
    gclq__sets_table_kernel<WRITE, gclq__sets_hash><<<search_grid, GCLQ__SETS_NT, 0, stream>>>(g, search, m);
  if (search_grid > 0 && gclq__sets_is_bitmap(m))
    gclq__sets_table_kernel<WRITE, gclq__sets_bits><<<search_grid, GCLQ__SETS_NT, 0, stream>>>(g, search, m);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* The one pass of a table method over one kind of tiles (T: the path
   tiles of IP_OBS and IP_HASH, or the search tiles of the others). */
static inline gclq_status gclq__sets_methods_one_pass(gclq_intersect_method m, const gclq__sets_args &g,
                                                      const gclq__sets_tiles &T, unsigned grid, cudaStream_t stream) {
  if (m == GCLQ_INTERSECT_IP_OBS)
    gclq__sets_table_kernel<true, gclq__sets_sorted, true><<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T, m);
  else if (gclq__sets_is_bitmap(m))
    gclq__sets_table_kernel<true, gclq__sets_bits, true><<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T, m);
  else
    gclq__sets_table_kernel<true, gclq__sets_hash, true><<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T, m);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* ---- the batch's partition kernel, the device call's tile kernels ---- */
/* The kinds of block tiles whose ends a partition kernel can cut. */
enum { GCLQ__CUT_PATH = 0, GCLQ__CUT_SEARCH = 1, GCLQ__CUT_TABLE = 2 };

/* The ends of every tile, a thread each, before the tiles run: merge
   path's cuts of the tile's two diagonals (PATH, 2 a tile), binary search's
   span of b (SEARCH, 2 a tile), or a table method's four slice ends
   (TABLE, 4 a tile, gclq__sets_slice_end). An end is a chain of dependent
   binary searches in global memory, which a block finding its own would
   wait for tile after tile. A batch of mostly large pairs has its bitmaps'
   and HASH's ends by gclq__sets_table_split_kernel instead. */
template <int KIND>
static __global__ void gclq__sets_split_kernel(gclq__sets_args g, gclq__sets_tiles T, gclq_intersect_method method,
                                               uint32_t *split) {
  const uint32_t per = KIND == GCLQ__CUT_TABLE ? 4 : 2;
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= per * gclq__sets_first(T, T.nq)) return;
  uint32_t q, p;
  const uint64_t t = i / per;
  const uint32_t end = (uint32_t)(i % per);
  const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
  split[i] = KIND == GCLQ__CUT_TABLE    ? gclq__sets_slice_end(method, pr, t - gclq__sets_first(T, q), end)
             : KIND == GCLQ__CUT_SEARCH ? gclq__sets_chunk_end(pr, t - gclq__sets_first(T, q), end)
                                        : gclq__sets_tile_split(pr, t - gclq__sets_first(T, q), end);
}

/* A pair's entry in the device call's tables: its path tiles and its search
   tiles (gclq__sets_work_pair: merge path or IP_OBS, AUTO's other pairs
   included; binary search, HASH or a bitmap), its tiles of the bitmap
   (AUTO's dense pairs, gclq__sets_bitmap_dense), and a pad. The three
   tables are scanned at once (gclq__sets_dev_tiles_sum) and the tile
   kernels read them 4 words apart (gclq__sets_tiles::first_shift = 2). */
struct gclq__sets_dev_tiles {
  uint64_t w[4];
};
struct gclq__sets_dev_tiles_sum {
  template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const {
    T c;
    for (int i = 0; i < 4; ++i) c.w[i] = a.w[i] + b.w[i];
    return c;
  }
  template <typename T> static __host__ __device__ T identity() {
    T z;
    for (int i = 0; i < 4; ++i) z.w[i] = 0;
    return z;
  }
};

/* The device call's bitmap test of a pair (the chooser's rule and
   constants, clique/sets/choose.h, applied pair by pair on the device)
   before its stretches are read:
   0, the bitmap does not pay; 1, it does (the ranges do not overlap: no
   tiles, the count stays 0); 2, it does if the pair's stretches say so
   (gclq__sets_bitmap_spread over the peak densities of
   GCLQ__SETS_DEVICE_STRETCHES stretches, gclq__sets_tiles_kernel), *dense
   the pair's density. */
static __host__ __device__ __forceinline__ int gclq__sets_bitmap_dense(const gclq__sets_pair &pr, double *dense) {
  const uint64_t work = (uint64_t)pr.na + pr.nb;
  if (work < GCLQ__SETS_DEVICE_BITMAP_FROM || pr.na < GCLQ__SETS_DEVICE_STRETCHES) return 0;
  const gclq__sets_range r = gclq__sets_bitmap_range(GCLQ_INTERSECT_BITMAP_DYNAMIC, pr);
  if (r.bits == 0) return 1;
  *dense = (double)work / (double)r.bits;
  return *dense >= GCLQ__SETS_DEVICE_BITMAP_DENSITY ? 2 : 0;
}

/* gclq__sets_peak_density_of(x, n, 32) by a warp (every lane, the same x
   and n): lane i reads stretch i, and the densest is found by shuffles, so
   the warp waits on its loads once. */
static __device__ __forceinline__ double gclq__d_warp_peak_density(const uint32_t *x, uint32_t n) {
  uint64_t c, w;
  gclq__sets_stretch(x, n, 32, threadIdx.x & 31, &c, &w);
  for (int o = 16; o > 0; o >>= 1) {
    const uint64_t c2 = __shfl_xor_sync(0xffffffffu, c, o), w2 = __shfl_xor_sync(0xffffffffu, w, o);
    if (c2 * w > c * w2) c = c2, w = w2;
  }
  return (double)c / (double)w;
}

/* The device call's AUTO over its two tile tables in one launch (their
   totals stay on the device, so a kernel a table would launch even when
   its table is empty): a block's tiles t run through P's (IP_OBS), then
   B's (BITMAP_DYNAMIC), the table kernel's own tile body over one shared
   buffer. Held to the table kernel's 32 registers, so that the grid's
   8 blocks a multiprocessor are resident at once. */
static __global__ void __launch_bounds__(GCLQ__SETS_NT, 2048 / GCLQ__SETS_NT)
    gclq__sets_auto_tiles_kernel(gclq__sets_args g, gclq__sets_tiles P, gclq__sets_tiles B) {
  __shared__ uint32_t s_mem[(uint32_t)gclq__sets_sorted::BLOCK_WORDS > (uint32_t)gclq__sets_bits::BLOCK_WORDS
                                ? (uint32_t)gclq__sets_sorted::BLOCK_WORDS
                                : (uint32_t)gclq__sets_bits::BLOCK_WORDS];
  __shared__ uint32_t s_end[4];
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  const uint64_t np = gclq__sets_first(P, P.nq), nb = gclq__sets_first(B, B.nq);
  for (uint64_t t = blockIdx.x; t < np + nb; t += gridDim.x) {
    if (t < np)
      gclq__d_table_tile<false, gclq__sets_sorted, false>(g, P, t, GCLQ_INTERSECT_IP_OBS, s_mem, s_end, s_warp, NULL,
                                                          NULL);
    else
      gclq__d_table_tile<false, gclq__sets_bits, false>(g, B, t - np, GCLQ_INTERSECT_BITMAP_DYNAMIC, s_mem, s_end,
                                                        s_warp, NULL, NULL);
  }
}

/* Each pair's entry (gclq__sets_dev_tiles); entry n is 0, so that the scan
   ends in the totals. */
static __global__ void gclq__sets_tiles_kernel(gclq__sets_args g, uint32_t n, gclq_intersect_method method,
                                               gclq__sets_dev_tiles *tiles) {
  const uint64_t p = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; /* every lane of a warp runs to the end */
  const uint32_t lane = threadIdx.x & 31;
  gclq__sets_pair pr = {NULL, NULL, 0, 0};
  if (p < n) pr = gclq__sets_pair_at(g, (uint32_t)p);
  double dense = 0.0;
  const int d = p < n && method == GCLQ_INTERSECT_AUTO ? gclq__sets_bitmap_dense(pr, &dense) : 0;
  bool bitmap = d == 1;
  for (uint32_t m = __ballot_sync(0xffffffffu, d == 2); m != 0; m &= m - 1) { /* the warp reads each one's stretches */
    const int l = __ffs(m) - 1;
    const uint32_t *a = (const uint32_t *)__shfl_sync(0xffffffffu, (unsigned long long)pr.a, l);
    const uint32_t *b = (const uint32_t *)__shfl_sync(0xffffffffu, (unsigned long long)pr.b, l);
    const uint32_t na = __shfl_sync(0xffffffffu, pr.na, l), nb = __shfl_sync(0xffffffffu, pr.nb, l);
    const double peak_a = gclq__d_warp_peak_density(a, na), peak_b = gclq__d_warp_peak_density(b, nb);
    if (lane == (uint32_t)l)
      bitmap = gclq__sets_bitmap_spread((uint64_t)na + nb, dense, peak_a, peak_b, GCLQ_SETS_AUTO_BITMAP_WINDOWS) != 0;
  }
  if (p > n) return;
  gclq__sets_dev_tiles e = {{0, 0, 0, 0}};
  if (p < n) {
    uint64_t none;
    if (bitmap)
      gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP_DYNAMIC, pr, &none, &e.w[2]);
    else
      gclq__sets_work_pair(method == GCLQ_INTERSECT_AUTO ? GCLQ_INTERSECT_IP_OBS : method, pr, &e.w[0], &e.w[1]);
  }
  tiles[p] = e;
}
