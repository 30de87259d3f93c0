/* clique/kcliques/bitset.cuh - k-clique counting by per-source local bit
   graphs (GCLQ_KCLIQUE_BITSET; its driver is in clique/kcliques/cuda.cuh).
   The way Almasri et al., "Parallel k-clique counting
   on GPUs" (ICS'22) count: orientation, each source's induced subgraph in
   binary encoding, a warp-level depth-first search.

   Local graphs. For a source v with out-degree d, L = out(v) (ascending ids)
   and d bit rows of W = ceil(d / 32) words: row i holds bit j, for j > i,
   when L[i] and L[j] are adjacent (an oriented local graph: a clique of it is
   found once, in ascending local order). A warp builds a row, testing
   adjacency by binary search in the undirected lists.

   Units. A warp takes one (source, first local vertex i) unit at a time from
   a work counter (an oriented edge each: better balance than a warp per
   source). Its depth-first search keeps the candidates of each level as a
   bitset of W words on a per-warp stack (lane t owns the words t, t + 32,
   ...): level 0 is row i; taking candidate j (the lowest bit, by ballot and
   __ffs) gives the next level, the level AND row j, counted by __popc and a
   warp reduction. One k: level k - 4 is counted, not searched: the sum over
   its candidates j of |level & row j|, the lanes taking different j; a level
   with fewer candidates than the clique still needs is left. Every size
   (k == 0): each level's AND adds to the count of its size. Per-vertex
   counts (one k): level k - 4 is taken a candidate j at a time, and at j
   (c cliques) the chosen vertices get c each, each candidate 1; v and L[i]
   get the unit's total. Triangles (k = 3) need no search: a thread per unit
   counts row i. Counts are summed in 64-bit registers per warp (a wrap sets
   the count's flag) and added once per warp (one k), or once per level per
   unit (every size, sizes 4 and up).

   The stack. A warp's area holds, per level, 4 words (the level's count
   for every size, its chosen vertex, its candidates left) and the level's W
   words: (4 + W) * levels words, levels = k - 3 for one k, min(top - 2, d)
   for every size. When the warps of a block fit 48 KiB it sits in shared
   memory; past that each warp of a fixed grid gets a slice of a global
   stack (half the budget's room, less when the largest source's rows need
   it), so any out-degree runs while one block's slices and that source's
   rows fit the budget.

   Windows. The sources run in windows (ranges of the sources kept: d + 1 >=
   k, or d >= 2 for every size) whose rows and table fit the budget's room
   left after the stack, so any budget that holds the graph, the stack and
   one source's rows gives the same counts; a smaller one gives
   GCLQ_ERROR_OUT_OF_MEMORY. */

#define GCLQ__KCB_SMEM_BYTES (48u * 1024u) /* shared memory a block's stacks may take */
#define GCLQ__KCB_SLACK 4096u              /* budget bytes the windows leave (allocation rounding) */

/* One source of a window. */
struct gclq__kcb_src {
  uint64_t unit; /* its first unit (local vertex 0) in the window's numbering */
  uint64_t aoff; /* its rows at adj + aoff: d rows of W words */
  uint64_t loff; /* L = out + loff (its out-list) */
  uint32_t v, d;
};

/* The stack levels a source of out-degree d needs: k - 3 for one k (0 for
   triangles), min(top - 2, d) (at least 1) for every size (k == 0). */
static __host__ __device__ __forceinline__ uint32_t gclq__kcb_levels(uint32_t k, uint32_t top, uint32_t d) {
  if (k != 0) return k > 3 ? k - 3 : 0;
  const uint32_t lv = top - 2 < d ? top - 2 : d;
  return lv > 0 ? lv : 1;
}

/* The words of a warp's stack area for a source of out-degree d (even: the
   level counts are 64-bit). */
static __host__ __device__ __forceinline__ uint64_t gclq__kcb_area_words(uint32_t k, uint32_t top, uint32_t d) {
  const uint64_t lv = gclq__kcb_levels(k, top, d);
  const uint64_t w = lv * (4 + gclq__bwords(d));
  return (w + 1) / 2 * 2;
}

/* The source of unit r: the last of src[0, ns) with unit <= r (ns >= 1,
   src[0].unit == 0, units ascending). */
static __host__ __device__ __forceinline__ uint32_t gclq__kcb_unit_source(const gclq__kcb_src *src, uint32_t ns,
                                                                          uint64_t r) {
  uint32_t lo = 0, hi = ns - 1;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    if (src[mid].unit <= r) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The device bytes of a window of `count` sources with `row_words` words of
   rows: its table (rounded to 256) then its rows. */
static inline uint64_t gclq__kcb_window_bytes(uint64_t count, uint64_t row_words) {
  const uint64_t table = count * sizeof(gclq__kcb_src);
  return (table + 255) / 256 * 256 + row_words * sizeof(uint32_t);
}

/* The end of the window that starts at kept source `from` (out-degrees
   d[0, ns)): the most sources whose window fits `room` bytes; `from` itself
   when not even one does. */
static inline uint32_t gclq__kcb_window_end(const uint32_t *d, uint32_t ns, uint32_t from, uint64_t room) {
  uint64_t words = 0;
  uint32_t end = from;
  while (end < ns) {
    const uint64_t more = words + (uint64_t)d[end] * gclq__bwords(d[end]);
    if (gclq__kcb_window_bytes((uint64_t)end - from + 1, more) > room) break;
    words = more;
    ++end;
  }
  return end;
}

/* The blocks of a global stack of block_bytes a block in `room` bytes: at
   most cap, in half the room or one block's bytes, whichever is more, and
   always leaving `reserve` bytes (the largest source's window); 0 when not
   one block fits. */
static inline uint64_t gclq__kcb_stack_blocks(uint64_t room, uint64_t reserve, uint64_t block_bytes, uint64_t cap) {
  const uint64_t avail = room > reserve ? room - reserve : 0;
  uint64_t share = room / 2 > block_bytes ? room / 2 : block_bytes;
  if (share > avail) share = avail;
  const uint64_t fit = share / block_bytes;
  return fit < cap ? fit : cap;
}

/* What the count kernel reads and where it adds. */
struct gclq__kcb_args {
  const gclq__kcb_src *src;
  uint32_t ns;
  uint64_t units;                /* the window's units: its sum of out-degrees */
  const uint32_t *out, *adj;     /* the oriented lists, the window's rows */
  uint32_t k, top;               /* k == 0: every size up to top */
  uint64_t stride;               /* words of a warp's stack area */
  uint32_t *stack;               /* global stack (a slice per warp of the grid), or NULL: shared memory */
  unsigned long long *count;     /* d_count, d_flags */
  unsigned int *flags;
  unsigned long long *pv;        /* per-vertex counts, or NULL */
  unsigned int *pvf;
  unsigned long long *next;      /* the work counter */
  unsigned long long *nodes;     /* search nodes, for stats */
};

/* The rows of a window: a warp per local vertex x (the unit numbering), bit
   y of row x set for y > x when L[x] and L[y] are adjacent. L ascends in
   rank, so L[y] comes after L[x]: adjacent is L[y] in L[x]'s out-list (off,
   out: the oriented graph, at most the largest out-degree to search). */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__kcb_rows_kernel(const gclq__kcb_src *src, uint32_t ns, uint64_t units, const uint64_t *off,
                          const uint32_t *out, uint32_t *adj) {
  const uint64_t r = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (r >= units) return;
  const gclq__kcb_src s = src[gclq__kcb_unit_source(src, ns, r)];
  const uint32_t x = (uint32_t)(r - s.unit), W = gclq__bwords(s.d);
  const uint32_t *L = out + s.loff;
  const uint32_t u = L[x];
  uint32_t *row = adj + s.aoff + (uint64_t)x * W;
  for (uint32_t w = 0; w < W; ++w) {
    const uint32_t y = 32 * w + lane;
    const bool bit = y > x && y < s.d && gclq__d_adjacent(off, out, u, L[y]);
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, bit);
    if (lane == 0) row[w] = ballot;
  }
}

/* Count cliques of size 2 (the oriented edges) for every size. */
static __global__ void gclq__kcb_edges_kernel(unsigned long long *count, unsigned int *flags, unsigned long long m) {
  if (threadIdx.x == 0 && blockIdx.x == 0) gclq__kc_d_add(count + 2, flags + 2, m);
}

/* dst = a & b over the words lo + lane, lo + lane + 32, ... below W (dst may
   be NULL: count only); returns the popcount over the warp. lo is a multiple
   of 32, so a lane always touches the words it owns. */
static __device__ __forceinline__ uint32_t gclq__kcb_and(uint32_t *dst, const uint32_t *a, const uint32_t *b,
                                                         uint32_t W, uint32_t lo) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t c = 0;
  for (uint32_t w = lo + lane; w < W; w += 32) {
    const uint32_t x = a[w] & __ldg(b + w);
    if (dst != NULL) dst[w] = x;
    c += __popc(x);
  }
  return __reduce_add_sync(GCLQ__FULL, c);
}

/* The lowest set bit of S at or past word lo (a multiple of 32), cleared by
   the lane that owns its word. S must hold one. */
static __device__ __forceinline__ uint32_t gclq__kcb_take(uint32_t *S, uint32_t W, uint32_t lo) {
  const uint32_t lane = threadIdx.x & 31;
  for (uint32_t w0 = lo; w0 < W; w0 += 32) {
    const uint32_t w = w0 + lane;
    const uint32_t x = w < W ? S[w] : 0u;
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, x != 0);
    if (ballot != 0) {
      const uint32_t owner = __ffs(ballot) - 1;
      const uint32_t got = __shfl_sync(GCLQ__FULL, 32 * w + (uint32_t)(__ffs(x) - 1), owner);
      if (lane == owner) S[w] = x & (x - 1);
      return got;
    }
  }
  return 0xffffffffu;
}

/* The word chunk (a multiple of 32) that holds local vertex j's word. */
static __device__ __forceinline__ uint32_t gclq__kcb_chunk(uint32_t j) { return (j >> 5) & ~31u; }

/* Per-vertex counts: +1 to each vertex L[y] with y in a & b (words from lo). */
static __device__ __forceinline__ void gclq__kcb_pv_each(const gclq__kcb_args &a, const uint32_t *L,
                                                         const uint32_t *x, const uint32_t *y, uint32_t W,
                                                         uint32_t lo) {
  const uint32_t lane = threadIdx.x & 31;
  for (uint32_t w = lo + lane; w < W; w += 32) {
    uint32_t bits = x[w] & __ldg(y + w);
    while (bits != 0) {
      const uint32_t u = L[32 * w + (uint32_t)(__ffs(bits) - 1)];
      gclq__kc_d_add(a.pv + u, a.pvf + u, 1ull);
      bits &= bits - 1;
    }
  }
}

/* Per-vertex counts of v and L[i]: the unit's total (flagged when it
   wrapped). */
static __device__ __forceinline__ void gclq__kcb_pv_unit(const gclq__kcb_args &a, uint32_t v, uint32_t li,
                                                         unsigned long long total, bool wrapped) {
  if ((threadIdx.x & 31) != 0) return;
  if (wrapped) {
    atomicOr(a.pvf + v, 1u);
    atomicOr(a.pvf + li, 1u);
  }
  gclq__kc_d_add(a.pv + v, a.pvf + v, total);
  gclq__kc_d_add(a.pv + li, a.pvf + li, total);
}

/* Per-vertex counts at a leaf of c cliques at level l: the vertices chosen
   at levels 0 .. l - 1 (aux) and j get c, the candidates (S & rj) 1 each. */
static __device__ __forceinline__ void gclq__kcb_pv_leaf(const gclq__kcb_args &a, const uint32_t *L, const uint32_t *aux,
                                                         uint32_t l, uint32_t j, const uint32_t *S, const uint32_t *rj,
                                                         uint32_t W, uint32_t lo, uint32_t c) {
  for (uint32_t t = threadIdx.x & 31; t <= l; t += 32) {
    const uint32_t u = L[t < l ? aux[4 * t + 2] : j];
    gclq__kc_d_add(a.pv + u, a.pvf + u, (unsigned long long)c);
  }
  gclq__kcb_pv_each(a, L, S, rj, W, lo);
}

/* The warp's sum of its lanes' 64-bit values, *wrap set when a partial sum
   passes 2^64 - 1 (on every lane). */
static __device__ __forceinline__ unsigned long long gclq__kcb_warp_sum(unsigned long long x, bool *wrap) {
  bool over = *wrap;
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long y = __shfl_xor_sync(GCLQ__FULL, x, o);
    if (x + y < x) over = true;
    x += y;
  }
  *wrap = __any_sync(GCLQ__FULL, over);
  return x;
}

/* The cliques the last level closes at once (one k, no per-vertex counts):
   the sum over the candidates j of S (words from lo) of |S & row j|, the
   lanes taking different j (row j holds only bits past j). */
static __device__ __forceinline__ unsigned long long gclq__kcb_leaf_sum(const uint32_t *S, const uint32_t *rows,
                                                                        uint32_t W, uint32_t d, uint32_t lo,
                                                                        bool *wrap) {
  unsigned long long c = 0;
  __syncwarp(); /* the lanes read words other lanes wrote */
  for (uint32_t j = 32 * lo + (threadIdx.x & 31); j < d; j += 32) {
    if ((S[j >> 5] >> (j & 31) & 1u) == 0) continue;
    const uint32_t *rj = rows + (uint64_t)j * W;
    for (uint32_t w = j >> 5; w < W; ++w) c += __popc(S[w] & __ldg(rj + w));
  }
  c = gclq__kcb_warp_sum(c, wrap);
  __syncwarp();
  return c;
}

/* The k-cliques (one k >= 4) of unit (s, i): the depth-first search over
   the local graph; area: the warp's stack. Returns the unit's count, *wrap
   set when it passed 2^64 - 1 (else left); *nodes gets the branches taken. */
static __device__ unsigned long long gclq__kcb_unit_one(const gclq__kcb_args &a, const gclq__kcb_src &s, uint32_t i,
                                                        uint32_t *area, bool *wrap, uint64_t *nodes) {
  const uint32_t lane = threadIdx.x & 31, k = a.k, lv = k - 3, W = gclq__bwords(s.d);
  const uint32_t *rows = a.adj + s.aoff, *L = a.out + s.loff;
  uint32_t *aux = area, *S = area + 4 * lv; /* per level: [count lo, count hi, chosen, left] */
  uint32_t lo = gclq__kcb_chunk(i), l = 0;
  uint32_t left = gclq__kcb_and(S, rows + (uint64_t)i * W, rows + (uint64_t)i * W, W, lo); /* level 0: row i */
  unsigned long long total = 0;
  bool wrapped = false;
  for (;;) {
    if (left < k - 2 - l) { /* too few candidates left for a k-clique: back up */
      if (l == 0) break;
      --l;
      left = aux[4 * l + 3];
      lo = gclq__kcb_chunk(aux[4 * l + 2]);
      continue;
    }
    uint32_t *Sl = S + (uint64_t)l * W;
    if (l + 1 == lv && a.pv == NULL) { /* the last level at once */
      const unsigned long long c = gclq__kcb_leaf_sum(Sl, rows, W, s.d, lo, &wrapped);
      if (total + c < total) wrapped = true;
      total += c;
      *nodes += left;
      left = 0;
      continue;
    }
    const uint32_t j = gclq__kcb_take(Sl, W, lo);
    const uint32_t *rj = rows + (uint64_t)j * W;
    --left;
    ++*nodes;
    lo = gclq__kcb_chunk(j); /* every bit left here, and below, is past j */
    if (l + 1 == lv) { /* per-vertex counts: a candidate at a time, each closing c k-cliques */
      const uint32_t c = gclq__kcb_and(NULL, Sl, rj, W, lo);
      if (total + c < total) wrapped = true;
      total += c;
      if (c > 0) gclq__kcb_pv_leaf(a, L, aux, l, j, Sl, rj, W, lo, c);
      continue;
    }
    const uint32_t c = gclq__kcb_and(Sl + W, Sl, rj, W, lo);
    if (c >= k - 3 - l) { /* enough candidates for the rest: go down */
      __syncwarp(); /* the lanes' reads of this level's words are done */
      if (lane == 0) {
        aux[4 * l + 2] = j;
        aux[4 * l + 3] = left;
      }
      __syncwarp();
      ++l;
      left = c;
    }
  }
  if (a.pv != NULL) {
    __syncwarp();
    gclq__kcb_pv_unit(a, s.v, L[i], total, wrapped);
  }
  if (wrapped) *wrap = true;
  return total;
}

/* The cliques of every size from 4 up of unit (s, i), added to a.count per
   level; returns its triangles (the popcount of row i). */
static __device__ unsigned long long gclq__kcb_unit_all(const gclq__kcb_args &a, const gclq__kcb_src &s, uint32_t i,
                                                        uint32_t *area, uint64_t *nodes) {
  const uint32_t lane = threadIdx.x & 31, lv = gclq__kcb_levels(0, a.top, s.d), W = gclq__bwords(s.d);
  const uint32_t *rows = a.adj + s.aoff;
  uint32_t *aux = area, *S = area + 4 * lv; /* per level: [count lo, count hi, chosen, left] */
  uint32_t lo = gclq__kcb_chunk(i), l = 0, used = 0;
  const uint32_t three = gclq__kcb_and(S, rows + (uint64_t)i * W, rows + (uint64_t)i * W, W, lo);
  uint32_t left = three;
  if (three < 2) return three;
  for (uint32_t t = lane; t < lv; t += 32) *(unsigned long long *)(aux + 4 * t) = 0;
  __syncwarp();
  for (;;) {
    if (left < 2) { /* one candidate closes no larger clique: back up */
      if (l == 0) break;
      --l;
      left = aux[4 * l + 3];
      lo = gclq__kcb_chunk(aux[4 * l + 2]);
      continue;
    }
    uint32_t *Sl = S + (uint64_t)l * W;
    const uint32_t j = gclq__kcb_take(Sl, W, lo);
    const uint32_t *rj = rows + (uint64_t)j * W;
    const bool store = l + 1 < lv; /* past lv no clique is large enough to need a level */
    --left;
    ++*nodes;
    lo = gclq__kcb_chunk(j);
    const uint32_t c = gclq__kcb_and(store ? Sl + W : NULL, Sl, rj, W, lo);
    if (c > 0 && lane == 0) { /* c cliques of size l + 4 */
      unsigned long long *acc = (unsigned long long *)(aux + 4 * l);
      if (*acc + c < *acc) atomicOr(a.flags + l + 4, 1u);
      *acc += c;
    }
    if (c > 0 && l + 1 > used) used = l + 1;
    if (store && c >= 2) {
      __syncwarp(); /* the lanes' reads of this level's words are done */
      if (lane == 0) {
        aux[4 * l + 2] = j;
        aux[4 * l + 3] = left;
      }
      __syncwarp();
      ++l;
      left = c;
    }
  }
  __syncwarp();
  for (uint32_t t = lane; t < used; t += 32)
    gclq__kc_d_add(a.count + t + 4, a.flags + t + 4, *(unsigned long long *)(aux + 4 * t));
  return three;
}

/* Counting: each warp takes units from a.next until none is left; its
   stack area in shared memory or in its slice of a.stack. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__kcb_count_kernel(gclq__kcb_args a) {
  extern __shared__ unsigned long long gclq__kcb_smem[];
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  uint32_t *area = a.stack != NULL ? a.stack + ((uint64_t)blockIdx.x * GCLQ__CWARPS + warp) * a.stride
                                   : (uint32_t *)gclq__kcb_smem + (uint64_t)warp * a.stride;
  const uint32_t at = a.k != 0 ? a.k : 3; /* the count summed in registers */
  unsigned long long sum = 0;
  bool wrap = false;
  uint64_t nodes = 0;
  for (;;) {
    unsigned long long r = 0;
    if (lane == 0) r = atomicAdd(a.next, 1ull);
    r = __shfl_sync(GCLQ__FULL, r, 0);
    if (r >= a.units) break;
    const gclq__kcb_src s = a.src[gclq__kcb_unit_source(a.src, a.ns, r)];
    const uint32_t i = (uint32_t)(r - s.unit);
    unsigned long long c;
    __syncwarp();
    ++nodes;
    if (a.k == 0) c = gclq__kcb_unit_all(a, s, i, area, &nodes);
    else c = gclq__kcb_unit_one(a, s, i, area, &wrap, &nodes);
    if (sum + c < sum) wrap = true;
    sum += c;
  }
  if (lane == 0) {
    if (wrap) atomicOr(a.flags + at, 1u);
    gclq__kc_d_add(a.count + at, a.flags + at, sum);
    if (nodes > 0) atomicAdd(a.nodes, (unsigned long long)nodes);
  }
}

/* Triangles (k = 3): a thread per unit (s, i), grid-stride, the popcount of
   row i (its words past i's); per-vertex: v and L[i] get it, each vertex of
   the row 1. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__kcb_three_kernel(gclq__kcb_args a) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  unsigned long long sum = 0;
  bool wrap = false;
  for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r < a.units; r += stride) {
    const gclq__kcb_src s = a.src[gclq__kcb_unit_source(a.src, a.ns, r)];
    const uint32_t i = (uint32_t)(r - s.unit), W = gclq__bwords(s.d);
    const uint32_t *row = a.adj + s.aoff + (uint64_t)i * W, *L = a.out + s.loff;
    uint32_t c = 0;
    for (uint32_t w = i / 32; w < W; ++w) c += __popc(__ldg(row + w));
    if (sum + c < sum) wrap = true;
    sum += c;
    if (a.pv == NULL || c == 0) continue;
    gclq__kc_d_add(a.pv + s.v, a.pvf + s.v, c);
    gclq__kc_d_add(a.pv + L[i], a.pvf + L[i], c);
    for (uint32_t w = i / 32; w < W; ++w)
      for (uint32_t bits = __ldg(row + w); bits != 0; bits &= bits - 1) {
        const uint32_t u = L[32 * w + (uint32_t)(__ffs(bits) - 1)];
        gclq__kc_d_add(a.pv + u, a.pvf + u, 1ull);
      }
  }
  sum = gclq__kcb_warp_sum(sum, &wrap);
  if ((threadIdx.x & 31) == 0) {
    if (wrap) atomicOr(a.flags + 3, 1u);
    gclq__kc_d_add(a.count + 3, a.flags + 3, sum);
  }
}
