/* clique/sets/kernels.cuh - device code of set intersection by merge path
   and binary search: the pairs, their tiles and cuts, and the warp, path
   and search kernels. The table methods are clique/sets/methods.cuh, all
   pairs at once clique/sets/all_pairs.cuh, the driver clique/sets/cuda.cuh. */
/* ---------------------------------------------------------------------------
   set intersection (Bellas and Gounaris, "Exploiting GPUs for fast
   intersection of large sets", section 3.1): a batch of pairs (i, j) of a
   collection in CSR form, counted and, asked, written. A pair is (a, b)
   with |a| <= |b| (swapped when not). Small pairs run a warp each, larger
   ones a block per tile of work (merge steps, or elements of a searched),
   so a giant pair among tiny ones spreads over the whole device. Writing
   takes two passes: count, scan, write at the scanned positions.

   The cuts and pieces are __host__ __device__ helpers (gclq__sets_*), so
   the tests run the same partitions on the host, block by block and
   thread by thread; the kernels add only the loads, barriers and sums.
   ------------------------------------------------------------------------- */
#define GCLQ__SETS_NT 256
#define GCLQ__SETS_VT 15                                /* merge steps per thread (odd: no bank conflicts) */
#define GCLQ__SETS_TILE (GCLQ__SETS_NT * GCLQ__SETS_VT) /* merge steps per block: 3840 */
#define GCLQ__SETS_OBS_CHUNK (GCLQ__SETS_NT * 8)        /* elements of a per block, binary search */
#define GCLQ__SETS_OBS_CACHE 1024u                      /* keys of b's search tree cached per block */
#define GCLQ__SETS_GRID (1u << 20)                       /* blocks of a tile launch at most (they loop) */

struct gclq__sets_args {
  const uint64_t *off;      /* the collection */
  const uint32_t *elem;
  const uint32_t *pairs;    /* 2n: (i, j) */
  uint32_t *counts;         /* n, zeroed before the count pass */
  const uint64_t *pair_pos; /* write pass: n + 1 output offsets */
  uint32_t *out;            /* write pass: the intersections */
};

/* The tiles of one kind (merge path or binary search): tile t belongs to
   entry q with first[q] <= t < first[q + 1] (entries may have no tiles),
   pair[q] its pair (NULL: q itself); count[t] its matches (count pass,
   materialising), scan[t] their exclusive scan (write pass). */
struct gclq__sets_tiles {
  const uint32_t *pair;  /* nq pair indices, or NULL */
  const uint64_t *first; /* nq + 1: first[nq] is the number of tiles */
  uint32_t nq;
  uint64_t *count;
  const uint64_t *scan;
  const uint32_t *split; /* the tiles' ends from the partition kernels (merge path, binary search: 2 a
                            tile; a table method: 4), or NULL: each block finds its own */
  gprim__lookback<unsigned long long> lb; /* the one pass: tile tickets and the tiles' output counts */
  uint32_t first_shift; /* first's entries lie 2^first_shift words apart (the device call's tables, scanned
                           together: gclq__cuda_pairs_device); 0: one after another */
};

/* Entry q of T's first (the tiles before pair q of T's). */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_first(const gclq__sets_tiles &T, uint64_t q) {
  return T.first[q << T.first_shift];
}

struct gclq__sets_pair {
  const uint32_t *a, *b;
  uint32_t na, nb;
};

/* Pair p of the batch, the smaller set first. */
static __host__ __device__ __forceinline__ gclq__sets_pair gclq__sets_pair_at(const gclq__sets_args &g, uint32_t p) {
  uint32_t i = g.pairs[2 * p], j = g.pairs[2 * p + 1];
  gclq__sets_pair q;
  q.a = g.elem + g.off[i];
  q.na = (uint32_t)(g.off[i + 1] - g.off[i]);
  q.b = g.elem + g.off[j];
  q.nb = (uint32_t)(g.off[j + 1] - g.off[j]);
  if (q.na > q.nb) {
    const uint32_t *t = q.a;
    uint32_t n = q.na;
    q.a = q.b, q.na = q.nb;
    q.b = t, q.nb = n;
  }
  return q;
}

static __host__ __device__ __forceinline__ uint32_t gclq__sets_min(uint32_t x, uint32_t y) { return x < y ? x : y; }

/* What runs a pair (na <= nb): nothing (na = 0: its count is 0), a warp
   (na + nb <= GCLQ__SETS_WARP_WORK), or tiles of the one method: *path_tiles
   of merge steps or *search_tiles chunks of a (the other 0). Which method,
   for AUTO, is the chooser's per-pair rule (gclq__sets_searches,
   clique/sets/choose.h), applied here pair by pair. */
static __host__ __device__ __forceinline__ void gclq__sets_work(gclq_intersect_method m, uint64_t na, uint64_t nb,
                                                                uint64_t *path_tiles, uint64_t *search_tiles) {
  *path_tiles = *search_tiles = 0;
  if (na == 0 || na + nb <= GCLQ__SETS_WARP_WORK) return;
  if (gclq__sets_searches(m, na, nb)) *search_tiles = (na + GCLQ__SETS_OBS_CHUNK - 1) / GCLQ__SETS_OBS_CHUNK;
  else *path_tiles = (na + nb + GCLQ__SETS_TILE - 1) / GCLQ__SETS_TILE;
}

/* The first index of b[lo, hi) whose element is not below v (hi if none). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_lower_bound(const uint32_t *b, uint32_t lo, uint32_t hi,
                                                                           uint32_t v) {
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (b[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The first index of b[0, n) whose element is above v (n if none). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_upper_bound(const uint32_t *b, uint32_t n, uint32_t v) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (b[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Intersect Path, one piece (section 3.1.1): a[x0, x1) against b from y0.
   A match of a[x] is the first element of b not below it, which the merge
   path (a first on ties) puts in this piece, before y1, or first in the
   next one: the loop reads through y1 up to the guard ny. */
template <bool WRITE>
static __host__ __device__ __forceinline__ uint32_t gclq__sets_merge(const uint32_t *a, uint32_t x0, uint32_t x1,
                                                                     const uint32_t *b, uint32_t y0, uint32_t y1,
                                                                     uint32_t ny, uint32_t *out) {
  uint32_t c = 0;
  for (uint32_t x = x0; x < x1; ++x) {
    uint32_t v = a[x];
    while (y0 < y1 && b[y0] < v) ++y0;
    if (y0 < ny && b[y0] == v) {
      if (WRITE) out[c] = v;
      ++c;
    }
  }
  return c;
}

/* Cross diagonal `end` (0: the start, 1: the end) of a tile of merge steps
   of a pair, the tile's merge steps [tile * GCLQ__SETS_TILE, ...) clipped
   to |a| + |b|. */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_tile_diag(const gclq__sets_pair &pr, uint64_t tile,
                                                                         uint32_t end) {
  const uint64_t work = (uint64_t)pr.na + pr.nb, d = (tile + end) * GCLQ__SETS_TILE;
  return d < work ? d : work;
}

/* A tile's slices a[x0, x1) and b[y0, y1), from the a items before each of
   its two diagonals (merge path: gclq__sets_tile_split), and whether b has
   a next element (the guard, b[y1]). */
struct gclq__sets_cut {
  uint32_t x0, x1, y0, y1, guard;
};
static __host__ __device__ __forceinline__ uint32_t gclq__sets_tile_split(const gclq__sets_pair &pr, uint64_t tile,
                                                                          uint32_t end) {
  const uint64_t d = gclq__sets_tile_diag(pr, tile, end);
  return (uint32_t)gprim_merge_path<true, uint64_t>(pr.a, pr.na, pr.b, pr.nb, d, gprim_less());
}
static __host__ __device__ __forceinline__ gclq__sets_cut gclq__sets_tile_cut(const gclq__sets_pair &pr, uint64_t tile,
                                                                              uint32_t x0, uint32_t x1) {
  gclq__sets_cut c;
  c.x0 = x0;
  c.x1 = x1;
  c.y0 = (uint32_t)(gclq__sets_tile_diag(pr, tile, 0) - x0);
  c.y1 = (uint32_t)(gclq__sets_tile_diag(pr, tile, 1) - x1);
  c.guard = c.y1 < pr.nb;
  return c;
}

/* One thread's piece of a tile held as s = a's slice (la) then b's (lb, and
   the guard when there is one): its own diagonal cut by merge path in s,
   then GCLQ__SETS_VT merge steps. Returns its matches (written to out). */
template <bool WRITE>
static __host__ __device__ __forceinline__ uint32_t gclq__sets_tile_piece(const uint32_t *s, uint32_t la, uint32_t lb,
                                                                          uint32_t guard, uint32_t thread,
                                                                          uint32_t *out) {
  const uint32_t n = la + lb, e0 = gclq__sets_min(thread * GCLQ__SETS_VT, n), e1 = gclq__sets_min(e0 + GCLQ__SETS_VT, n);
  const uint32_t i0 = gprim_merge_path<true, uint32_t>(s, la, s + la, lb, e0, gprim_less());
  const uint32_t i1 = gprim_merge_path<true, uint32_t>(s, la, s + la, lb, e1, gprim_less());
  return gclq__sets_merge<WRITE>(s, i0, i1, s + la, e0 - i0, e1 - i1, lb + guard, out);
}

/* One lane's piece of a small pair (Intersect Path at warp width): its own
   cross diagonal of the pair's merge grid, cut in global memory. */
template <bool WRITE>
static __host__ __device__ __forceinline__ uint32_t gclq__sets_lane_piece(const gclq__sets_pair &pr, uint32_t lane,
                                                                          uint32_t *out) {
  const uint32_t work = pr.na + pr.nb, per = (work + 31) / 32;
  const uint32_t d0 = gclq__sets_min(lane * per, work), d1 = gclq__sets_min(d0 + per, work);
  const uint32_t i0 = gprim_merge_path<true, uint32_t>(pr.a, pr.na, pr.b, pr.nb, d0, gprim_less());
  const uint32_t i1 = gprim_merge_path<true, uint32_t>(pr.a, pr.na, pr.b, pr.nb, d1, gprim_less());
  return gclq__sets_merge<WRITE>(pr.a, i0, i1, pr.b, d0 - i0, d1 - i1, pr.nb, out);
}

/* Is v in sorted b[0, n)? (binary search at warp width) */
static __host__ __device__ __forceinline__ bool gclq__sets_has(const uint32_t *b, uint32_t n, uint32_t v) {
  uint32_t y = gclq__sets_lower_bound(b, 0, n, v);
  return y < n && b[y] == v;
}

/* A binary-search chunk a[x0, x1) of a pair and the part of b its values
   span, b[lo, hi): every match lies there. keys = the cached keys, b at
   lo + k len / keys for k < keys (len = hi - lo): the top of the span's
   search tree, evenly spaced. The span's two ends are independent binary
   searches (gclq__sets_chunk_end, two threads at once). */
struct gclq__sets_chunk {
  uint32_t x0, x1, lo, hi, keys;
};
static __host__ __device__ __forceinline__ uint32_t gclq__sets_chunk_end(const gclq__sets_pair &pr, uint64_t chunk,
                                                                         uint32_t end) {
  const uint32_t x0 = (uint32_t)(chunk * GCLQ__SETS_OBS_CHUNK);
  const uint32_t x1 = gclq__sets_min(x0 + (uint32_t)GCLQ__SETS_OBS_CHUNK, pr.na);
  if (end == 0) return gclq__sets_lower_bound(pr.b, 0, pr.nb, pr.a[x0]);
  return gclq__sets_min(gclq__sets_lower_bound(pr.b, 0, pr.nb, pr.a[x1 - 1]) + 1, pr.nb);
}
static __host__ __device__ __forceinline__ gclq__sets_chunk gclq__sets_chunk_at(const gclq__sets_pair &pr, uint64_t chunk,
                                                                                uint32_t lo, uint32_t hi) {
  gclq__sets_chunk s;
  s.x0 = (uint32_t)(chunk * GCLQ__SETS_OBS_CHUNK);
  s.x1 = gclq__sets_min(s.x0 + (uint32_t)GCLQ__SETS_OBS_CHUNK, pr.na);
  s.lo = lo;
  s.hi = hi;
  s.keys = gclq__sets_min(hi > lo ? hi - lo : 0, GCLQ__SETS_OBS_CACHE);
  return s;
}
/* Where cached key k (0 <= k <= keys; keys: hi) sits in b. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_key_at(const gclq__sets_chunk &s, uint32_t k) {
  return k == s.keys ? s.hi : s.lo + (uint32_t)((uint64_t)k * (s.hi - s.lo) / s.keys);
}
/* Optimized binary search for one element v of the chunk: the cached keys
   not above v say which stretch of b between two keys may hold it, then a
   binary search there. */
static __host__ __device__ __forceinline__ bool gclq__sets_obs_find(const gclq__sets_pair &pr, const gclq__sets_chunk &s,
                                                                    const uint32_t *key, uint32_t v) {
  const uint32_t k = gclq__sets_upper_bound(key, s.keys, v);
  if (k == 0) return false; /* below b[lo]: not in b */
  const uint32_t y = gclq__sets_lower_bound(pr.b, gclq__sets_key_at(s, k - 1), gclq__sets_key_at(s, k), v);
  return y < s.hi && pr.b[y] == v;
}

/* The tile's entry: the last q with first[q] <= t (a binary search). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_tile_owner(const gclq__sets_tiles &T, uint64_t t) {
  uint32_t lo = 0, hi = T.nq;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (gclq__sets_first(T, mid) <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Tile t's entry *q, pair *p, and the pair's sets. */
static __host__ __device__ __forceinline__ gclq__sets_pair gclq__sets_tile_pair(const gclq__sets_args &g,
                                                                                const gclq__sets_tiles &T, uint64_t t,
                                                                                uint32_t *q, uint32_t *p) {
  *q = gclq__sets_tile_owner(T, t);
  *p = T.pair ? T.pair[*q] : *q;
  return gclq__sets_pair_at(g, *p);
}

/* Where a tile writes: its pair's offset plus the tiles of the pair before it. */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_tile_base(const gclq__sets_args &g,
                                                                         const gclq__sets_tiles &T, uint64_t t,
                                                                         uint32_t q, uint32_t p) {
  return g.pair_pos[p] + T.scan[t] - T.scan[gclq__sets_first(T, q)];
}

/* Exclusive sum of v over the block's threads; *total gets the block's sum
   (every thread). s_warp: GCLQ__SETS_NT / 32 words of shared memory. */
static __device__ __forceinline__ uint32_t gclq__d_block_exclusive_sum(uint32_t v, uint32_t *s_warp, uint32_t *total) {
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  uint32_t inc = gprim__warp_inclusive_sum_u32(v);
  __syncthreads(); /* s_warp may still be read by a previous call */
  if (lane == 31) s_warp[warp] = inc;
  __syncthreads();
  uint32_t before = 0, sum = 0;
  for (uint32_t w = 0; w < GCLQ__SETS_NT / 32; ++w) {
    if (w < warp) before += s_warp[w];
    sum += s_warp[w];
  }
  *total = sum;
  return before + inc - v;
}

/* A tile's total: added to its pair's count (count pass), and kept per
   tile when the pass is followed by a write pass. */
static __device__ __forceinline__ void gclq__d_tile_total(const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                          uint64_t t, uint32_t p, uint32_t total) {
  if (threadIdx.x != 0) return;
  if (total) atomicAdd(&g.counts[p], total);
  if (T.count) T.count[t] = total;
}

/* The one pass (count and write in one launch, gclq__sets_one_pass): a
   block takes its tiles by ticket, in order, from T.lb; tiles <= t hold
   tickets taken before. Every thread gets the ticket. */
static __device__ __forceinline__ uint32_t gclq__d_tile_ticket(const gclq__sets_tiles &T, uint32_t *s_ticket) {
  if (threadIdx.x == 0) *s_ticket = T.lb.take_ticket();
  __syncthreads();
  return *s_ticket;
}

/* The one pass: tile t's first output word, the matches of the tiles
   before it, by decoupled look-back (warp 0; every thread gets it). The
   tile's matches are added to its pair's count. The tiles of the launch
   are every tile of the batch, in pair order, so the place is also where
   the pair's output goes. */
static __device__ __forceinline__ uint64_t gclq__d_tile_place(const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                              uint32_t t, uint32_t p, uint32_t total,
                                                              unsigned long long *s_place) {
  if (threadIdx.x < 32) {
    const uint32_t lane = threadIdx.x;
    unsigned long long before = 0;
    if (t == 0) {
      if (lane == 0) T.lb.publish(0, GPRIM__TILE_PREFIX, (unsigned long long)total);
    } else {
      if (lane == 0) T.lb.publish(t, GPRIM__TILE_AGGREGATE, (unsigned long long)total);
      before = T.lb.template exclusive_prefix<1, 0>(t, gprim_op_sum());
      if (lane == 0) T.lb.publish(t, GPRIM__TILE_PREFIX, before + total);
    }
    if (lane == 0) {
      *s_place = before;
      if (total) atomicAdd(&g.counts[p], total);
    }
  }
  __syncthreads();
  return *s_place;
}

/* Intersect Path (section 3.1.1): a block per tile of GCLQ__SETS_TILE merge
   steps of a pair (the blocks loop over the tiles). The tile's ends on the
   grid-level cross diagonals by merge path in global memory; its slices of
   a and b, and b's next element (the guard), in shared memory; each thread
   cuts its own diagonal there and merges GCLQ__SETS_VT steps. ONE (with
   WRITE): the one pass, tiles by ticket, counted, placed, then written. */
template <bool WRITE, bool ONE = false>
static __global__ void __launch_bounds__(GCLQ__SETS_NT) gclq__sets_path_kernel(gclq__sets_args g, gclq__sets_tiles T) {
  __shared__ uint32_t s[GCLQ__SETS_TILE + 1];
  __shared__ uint32_t s_split[2], s_ticket;
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  __shared__ unsigned long long s_place;
  const uint64_t tiles = gclq__sets_first(T, T.nq);
  for (uint64_t t = ONE ? gclq__d_tile_ticket(T, &s_ticket) : blockIdx.x; t < tiles;
       t = ONE ? gclq__d_tile_ticket(T, &s_ticket) : t + gridDim.x) {
    uint32_t q, p;
    const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
    if (threadIdx.x < 2) /* both diagonals at once */
      s_split[threadIdx.x] = T.split != NULL ? T.split[2 * t + threadIdx.x]
                                             : gclq__sets_tile_split(pr, t - gclq__sets_first(T, q), threadIdx.x);
    __syncthreads();
    const gclq__sets_cut c = gclq__sets_tile_cut(pr, t - gclq__sets_first(T, q), s_split[0], s_split[1]);
    const uint32_t la = c.x1 - c.x0, lb = c.y1 - c.y0;
    for (uint32_t i = threadIdx.x; i < la + lb + c.guard; i += GCLQ__SETS_NT)
      s[i] = i < la ? pr.a[c.x0 + i] : pr.b[c.y0 + i - la];
    __syncthreads();
    uint32_t total;
    const uint32_t mine = gclq__sets_tile_piece<false>(s, la, lb, c.guard, threadIdx.x, NULL);
    const uint32_t before = gclq__d_block_exclusive_sum(mine, s_warp, &total);
    if (!WRITE) gclq__d_tile_total(g, T, t, p, total);
    if (WRITE) {
      const uint64_t base = ONE ? gclq__d_tile_place(g, T, (uint32_t)t, p, total, &s_place)
                                : gclq__sets_tile_base(g, T, t, q, p);
      gclq__sets_tile_piece<true>(s, la, lb, c.guard, threadIdx.x, g.out + base + before);
    }
    __syncthreads(); /* s and s_split are the next tile's */
  }
}

/* Optimized binary search, OBS (section 3.1.2): a block per chunk of
   GCLQ__SETS_OBS_CHUNK elements of a. The span of b the chunk's values
   cover, and the top of its search tree (evenly spaced keys) cached in
   shared memory; each element searches the cache, then the stretch of b
   between two keys. Rounds of one element a thread keep the output in
   order. The blocks loop over the chunks. */
template <bool WRITE>
static __global__ void __launch_bounds__(GCLQ__SETS_NT) gclq__sets_search_kernel(gclq__sets_args g, gclq__sets_tiles T) {
  __shared__ uint32_t s_key[GCLQ__SETS_OBS_CACHE];
  __shared__ uint32_t s_end[2];
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  const uint64_t tiles = gclq__sets_first(T, T.nq);
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    uint32_t q, p;
    const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
    if (threadIdx.x < 2) /* both at once */
      s_end[threadIdx.x] = T.split != NULL ? T.split[2 * t + threadIdx.x]
                                           : gclq__sets_chunk_end(pr, t - gclq__sets_first(T, q), threadIdx.x);
    __syncthreads();
    const gclq__sets_chunk sp = gclq__sets_chunk_at(pr, t - gclq__sets_first(T, q), s_end[0], s_end[1]);
    for (uint32_t k = threadIdx.x; k < sp.keys; k += GCLQ__SETS_NT) s_key[k] = pr.b[gclq__sets_key_at(sp, k)];
    __syncthreads();
    uint32_t mine = 0, written = 0, total;
    const uint64_t base = WRITE ? gclq__sets_tile_base(g, T, t, q, p) : 0;
    for (uint32_t r = sp.x0; r < sp.x1; r += GCLQ__SETS_NT) {
      const uint32_t x = r + threadIdx.x;
      const uint32_t found = x < sp.x1 && gclq__sets_obs_find(pr, sp, s_key, pr.a[x]);
      if (!WRITE) {
        mine += found;
        continue;
      }
      const uint32_t before = gclq__d_block_exclusive_sum(found, s_warp, &total);
      if (found) g.out[base + written + before] = pr.a[x];
      written += total;
    }
    if (!WRITE) {
      gclq__d_block_exclusive_sum(mine, s_warp, &total);
      gclq__d_tile_total(g, T, t, p, total);
    }
    __syncthreads(); /* s_key and s_end are the next chunk's */
  }
}

/* A warp per small pair (|a| + |b| <= GCLQ__SETS_WARP_WORK), by either
   method at warp width: Intersect Path (section 3.1.1), every lane merging
   its own piece (gclq__sets_lane_piece); or binary search (section 3.1.2),
   the lanes taking a's elements 32 at a time. Warp w takes pair list[w]
   (list NULL: pair w, and a pair that is not small, or empty, is left to
   the tiles). WRITE: lanes write at pair_pos in order (a warp scan of
   their counts, or a ballot per round). */
template <bool WRITE>
static __global__ void gclq__sets_warp_kernel(gclq__sets_args g, const uint32_t *list, uint32_t n,
                                              gclq_intersect_method method) {
  const uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (w >= n) return;
  const uint32_t p = list ? list[w] : (uint32_t)w;
  const gclq__sets_pair pr = gclq__sets_pair_at(g, p);
  if (pr.na == 0 || (uint64_t)pr.na + pr.nb > GCLQ__SETS_WARP_WORK) return;
  uint32_t *out = WRITE ? g.out + g.pair_pos[p] : NULL;
  if (gclq__sets_searches(method, pr.na, pr.nb)) {
    uint32_t c = 0;
    for (uint32_t r = 0; r < pr.na; r += 32) {
      const uint32_t x = r + lane;
      const bool found = x < pr.na && gclq__sets_has(pr.b, pr.nb, pr.a[x]);
      const uint32_t ballot = __ballot_sync(0xffffffffu, found);
      if (WRITE && found) out[c + __popc(ballot & ((1u << lane) - 1))] = pr.a[x];
      c += __popc(ballot);
    }
    if (!WRITE && lane == 0) g.counts[p] = c;
    return;
  }
  const uint32_t c = gclq__sets_lane_piece<false>(pr, lane, NULL);
  const uint32_t inc = gprim__warp_inclusive_sum_u32(c);
  if (!WRITE) {
    if (lane == 31) g.counts[p] = inc;
    return;
  }
  gclq__sets_lane_piece<true>(pr, lane, out + inc - c);
}
