/* clique/gpm/kernels.cuh - the embedding table's kernels (the CUDA side of
   clique/gpm/table.h, whose rules they follow line for line): a thread a
   row, which walks its parents for its items (at most 8), tests each
   neighbour of them by Arabesque's rule (gclq__emb_canonical) and counts or
   writes its children; a row's raw pattern key; the filters' flags; the
   support's bitmaps (an atomic OR a vertex). Driver: clique/gpm/cuda.cuh. */

#define GCLQ__EMB_BLOCK 128 /* threads per block */

/* The graph and the levels as the kernels read them. */
struct gclq__emb_dview {
  const uint64_t *off;
  const uint32_t *nbr;
  const uint8_t *rank;   /* a vertex's label rank (< 16), or NULL: unlabelled */
  int edge;              /* kind EDGE */
  uint32_t last;         /* the last level */
  const uint64_t *col[GCLQ_EMB_MAX_VERTICES];
  const uint64_t *par[GCLQ_EMB_MAX_VERTICES];
};

static __device__ __forceinline__ void gclq__emb_d_items(const gclq__emb_dview &v, uint32_t L, uint64_t i,
                                                         uint64_t *items) {
  for (uint32_t l = L + 1; l-- > 0;) {
    items[l] = v.col[l][i];
    if (l > 0) i = v.par[l][i];
  }
}

static __device__ __forceinline__ int gclq__emb_d_adjacent(const gclq__emb_dview &v, uint32_t a, uint32_t b) {
  return gclq__d_adjacent(v.off, v.nbr, a, b);
}

static __device__ __forceinline__ int gclq__emb_d_touch(uint64_t a, uint64_t b) {
  const uint32_t a0 = (uint32_t)(a >> 32), a1 = (uint32_t)a, b0 = (uint32_t)(b >> 32), b1 = (uint32_t)b;
  return a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1;
}

/* gclq__emb_canonical on the device. */
static __device__ __forceinline__ int gclq__emb_d_canonical(const gclq__emb_dview &v, const uint64_t *items,
                                                            uint32_t len, uint32_t i, uint64_t w) {
  if (w <= items[0]) return 0;
  for (uint32_t j = 0; j < len; ++j) {
    if (items[j] == w || (j > i && items[j] > w)) return 0;
    if (j < i && (v.edge ? gclq__emb_d_touch(items[j], w)
                         : gclq__emb_d_adjacent(v, (uint32_t)items[j], (uint32_t)w)))
      return 0;
  }
  return 1;
}

/* Rows [first, first + count) of the last level: each one's children
   counted into cnt[t] (pos == NULL), or written from pos[t] on (their items
   into col, the row into par). */
__global__ void gclq__emb_extend_kernel(gclq__emb_dview v, uint64_t first, uint64_t count, uint64_t *cnt,
                                        const uint64_t *pos, uint64_t *col, uint64_t *par) {
  const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  uint64_t items[GCLQ_EMB_MAX_VERTICES], made = 0;
  const uint32_t len = v.last + 1;
  gclq__emb_d_items(v, v.last, first + t, items);
  for (uint32_t i = 0; i < len; ++i)
    for (uint32_t s = 0; s < (v.edge ? 2u : 1u); ++s) {
      const uint32_t x = !v.edge ? (uint32_t)items[i] : s == 0 ? (uint32_t)(items[i] >> 32) : (uint32_t)items[i];
      for (uint64_t e = v.off[x]; e < v.off[x + 1]; ++e) {
        const uint32_t y = v.nbr[e];
        const uint64_t w = !v.edge ? y : x < y ? (uint64_t)x << 32 | y : (uint64_t)y << 32 | x;
        if (!gclq__emb_d_canonical(v, items, len, i, w)) continue;
        if (pos != NULL) col[pos[t] + made] = w, par[pos[t] + made] = first + t;
        ++made;
      }
    }
  if (pos == NULL) cnt[t] = made;
}

/* A row's vertices in joining order and its raw pattern: bit rows adj. */
static __device__ __forceinline__ uint32_t gclq__emb_d_pattern(const gclq__emb_dview &v, uint64_t i, uint32_t *vert,
                                                               uint32_t *adj) {
  uint64_t items[GCLQ_EMB_MAX_VERTICES];
  uint32_t nv = 0;
  gclq__emb_d_items(v, v.last, i, items);
  for (uint32_t a = 0; a < GCLQ_EMB_MAX_VERTICES; ++a) adj[a] = 0;
  if (!v.edge) {
    nv = v.last + 1;
    for (uint32_t a = 0; a < nv; ++a) vert[a] = (uint32_t)items[a];
    for (uint32_t a = 0; a < nv; ++a)
      for (uint32_t b = a + 1; b < nv; ++b)
        if (gclq__emb_d_adjacent(v, vert[a], vert[b])) adj[a] |= 1u << b, adj[b] |= 1u << a;
    return nv;
  }
  for (uint32_t e = 0; e <= v.last; ++e) {
    uint32_t at[2];
    for (uint32_t s = 0; s < 2; ++s) {
      const uint32_t x = s == 0 ? (uint32_t)(items[e] >> 32) : (uint32_t)items[e];
      uint32_t k = 0;
      while (k < nv && vert[k] != x) ++k;
      if (k == nv) vert[nv++] = x;
      at[s] = k;
    }
    adj[at[0]] |= 1u << at[1], adj[at[1]] |= 1u << at[0];
  }
  return nv;
}

/* A raw pattern as one 64-bit key: the vertices (4 bits), the edge code
   (pair (a, b), a < b, row by row: 28 bits), each vertex's label rank
   (4 bits each). gclq__emb_key_decode (clique/gpm/cuda.cuh) reads it back. */
static __host__ __device__ __forceinline__ uint64_t gclq__emb_key(uint32_t nv, const uint32_t *adj,
                                                                  const uint32_t *rank) {
  uint64_t code = 0, bit = 0, labels = 0;
  for (uint32_t a = 0; a < nv; ++a) {
    for (uint32_t b = a + 1; b < nv; ++b, ++bit)
      if ((adj[a] >> b) & 1u) code |= 1ull << bit;
    labels |= (uint64_t)rank[a] << (4 * a);
  }
  return (uint64_t)nv << 60 | code << 32 | labels;
}

/* The raw keys of rows [first, first + n) of the last level. */
__global__ void gclq__emb_key_kernel(gclq__emb_dview v, uint64_t first, uint64_t n, uint64_t *keys) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t vert[GCLQ_EMB_MAX_VERTICES], adj[GCLQ_EMB_MAX_VERTICES], rank[GCLQ_EMB_MAX_VERTICES];
  const uint32_t nv = gclq__emb_d_pattern(v, first + i, vert, adj);
  for (uint32_t a = 0; a < nv; ++a) rank[a] = v.rank != NULL ? v.rank[vert[a]] : 0;
  keys[i] = gclq__emb_key(nv, adj, rank);
}

/* The index of key among the sorted distinct keys (it is there). */
static __device__ __forceinline__ uint64_t gclq__emb_d_find(const uint64_t *keys, uint64_t n, uint64_t key) {
  uint64_t lo = 0, hi = n;
  while (lo + 1 < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] <= key) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* The support's bitmaps: each row of the last level sets, for each of its
   vertices, the vertex's bit in the bitmap (words words) of its orbit. For
   distinct key j, orbit_of[j * 8 + c] is canonical position c's bitmap and
   from[j * 8 + c] the raw position it came from. */
__global__ void gclq__emb_support_kernel(gclq__emb_dview v, uint64_t n, const uint64_t *keys, uint64_t nkeys,
                                         const uint32_t *orbit_of, const uint8_t *from, uint64_t words,
                                         unsigned long long *bits) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t vert[GCLQ_EMB_MAX_VERTICES], adj[GCLQ_EMB_MAX_VERTICES], rank[GCLQ_EMB_MAX_VERTICES];
  const uint32_t nv = gclq__emb_d_pattern(v, i, vert, adj);
  for (uint32_t a = 0; a < nv; ++a) rank[a] = v.rank != NULL ? v.rank[vert[a]] : 0;
  const uint64_t j = gclq__emb_d_find(keys, nkeys, gclq__emb_key(nv, adj, rank));
  for (uint32_t c = 0; c < nv; ++c) {
    const uint32_t x = vert[from[j * GCLQ_EMB_MAX_VERTICES + c]];
    atomicOr(&bits[(uint64_t)orbit_of[j * GCLQ_EMB_MAX_VERTICES + c] * words + (x >> 6)], 1ull << (x & 63));
  }
}

/* The filter's flags: the added vertices' label and degree (label_rank:
   the rank asked, or -1 for any), and the row's pattern among the keys
   that pass (pass != NULL: pass[j] for distinct key j). */
__global__ void gclq__emb_filter_kernel(gclq__emb_dview v, uint64_t n, uint32_t min_degree, int label_rank,
                                        const uint64_t *keys, uint64_t nkeys, const uint8_t *pass, uint8_t *flags) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t vert[GCLQ_EMB_MAX_VERTICES], adj[GCLQ_EMB_MAX_VERTICES], rank[GCLQ_EMB_MAX_VERTICES];
  const uint32_t nv = gclq__emb_d_pattern(v, i, vert, adj);
  uint32_t from = nv - 1; /* VERTEX: the last vertex is the new one */
  if (v.edge) { /* EDGE: the vertices past those of the parent's edges (a row lists them in order) */
    uint64_t items[GCLQ_EMB_MAX_VERTICES];
    uint32_t pv[2 * GCLQ_EMB_MAX_VERTICES], np = 0;
    gclq__emb_d_items(v, v.last, i, items);
    for (uint32_t e = 0; e < v.last; ++e)
      for (uint32_t s = 0; s < 2; ++s) {
        const uint32_t x = s == 0 ? (uint32_t)(items[e] >> 32) : (uint32_t)items[e];
        uint32_t k = 0;
        while (k < np && pv[k] != x) ++k;
        if (k == np) pv[np++] = x;
      }
    from = np;
  }
  int ok = 1;
  for (uint32_t a = v.last == 0 ? 0 : from; a < nv && ok; ++a) {
    if (v.off[vert[a] + 1] - v.off[vert[a]] < min_degree) ok = 0;
    if (label_rank >= 0 && (v.rank != NULL ? v.rank[vert[a]] : 0) != (uint32_t)label_rank) ok = 0;
  }
  if (ok && pass != NULL) {
    for (uint32_t a = 0; a < nv; ++a) rank[a] = v.rank != NULL ? v.rank[vert[a]] : 0;
    ok = pass[gclq__emb_d_find(keys, nkeys, gclq__emb_key(nv, adj, rank))];
  }
  flags[i] = (uint8_t)ok;
}
