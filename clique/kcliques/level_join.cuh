/* clique/kcliques/level_join.cuh - k-clique counting by the level-wise
   join, after Wu et al., "Multipredicate Join Algorithms for Accelerating
   Relational Graph Processing on GPUs", section 4 (the GPU-optimized
   approach). Its driver is in clique/kcliques/cuda.cuh.

   Level L holds the partial cliques of L vertices, each with its candidate
   set (the vertices later than all of it and adjacent to all of it, sorted).
   Level 1 is the oriented graph itself: vertex v with candidates out(v).
   Level L + 1 is made from level L in one horizontal step over all of it:

   - expansion: every candidate w of a parent p is a child (p, w); the
     children are the candidate positions, and the load-balancing search
     over the parents' candidate offsets gives each child its parent and
     rank (the paper's children expansion, gprim_load_balance_search);
   - intersection: the child's candidates are p's candidates after w,
     intersected with out(w), a binary search of the shorter list in the
     longer one. The paper's three cases: the first variable's two edge
     predicates are not intersected at all (their values agree: level 1 is
     out(v) as it is), the processed predicates E(x_i, z) are already one
     sorted set (the parent's candidates, the result of the earlier
     intersections), and the one new predicate E(w, z) is met by binary
     search;
   - count, scan, stream compaction: the children's candidate counts, their
     exclusive scan (the new offsets), the children with candidates kept
     (gprim_select_if; one k also drops those that cannot reach k), and
     their candidates written.

   One k: level k - 1 is not materialised; the scan of its children's
   candidate counts is the number of k-cliques. Every size (k = 0): level
   L's candidates are the (L + 1)-cliques, counted; the steps go on while a
   level is non-empty.

   Memory: the levels are materialised. When a step (its scratch or the
   next level) does not fit the budget, the parents are split into two
   windows, recursively (as the maximum clique search's windows); the counts
   never depend on it. A deeper level that does not fit even for one
   parent halves the windows above it: what they had counted is taken back
   first (the counts are on the host), unless per-vertex counts are kept
   (they are on the device); from then on a window of several parents
   materialises a level in at most half the room left, so that the levels
   below find room and the windows above do not run again (each rerun
   throws away all they had counted). A single parent whose step does not
   fit: GCLQ_ERROR_OUT_OF_MEMORY. d->method_note reports the largest window's
   bytes per level, the paper's memory growth per level. */

#define GCLQ__KC_LJ_BLOCK 128 /* threads per block */

/* One materialised level: n partial cliques, entry i's last vertex, its
   parent in the level below, its candidates cand[coff[i] .. coff[i + 1]).
   Level 1: vert and par NULL (entry i is vertex i), coff, cand = the
   oriented graph. */
struct gclq__kc_lj_level {
  uint64_t n;
  const uint32_t *vert;
  const uint32_t *par;
  const uint64_t *coff;
  const uint32_t *cand;
};

/* One step's children: the parents [p0, p0 + np) of a level and their nc
   children, each child's parent (relative to p0) and rank among them. */
struct gclq__kc_lj_children {
  gclq__kc_lj_level lv;
  uint64_t p0;
  const uint32_t *par, *rank;
  const uint32_t *out; /* the oriented graph */
  const uint64_t *off;
};

/* The bytes of a level of entries partial cliques with cands candidates
   (last vertex, parent, offsets, candidates). */
static __host__ __device__ inline uint64_t gclq__kc_lj_level_bytes(uint64_t entries, uint64_t cands) {
  return entries * (2 * sizeof(uint32_t)) + (entries + 1) * sizeof(uint64_t) + cands * sizeof(uint32_t);
}

/* The bytes of a step's scratch over np parents and nc children: the
   relative offsets, each child's parent and rank and count (then scan),
   and unless last, the children's ids and the kept ones. */
static __host__ __device__ inline uint64_t gclq__kc_lj_step_bytes(uint64_t np, uint64_t nc, int last) {
  const uint64_t per_child = 2 * sizeof(uint32_t) + sizeof(uint64_t) + (last ? 0 : 2 * sizeof(uint32_t));
  return (np + 1) * sizeof(uint32_t) + nc * per_child + sizeof(uint64_t);
}

/* The windows [p0, mid) and [mid, p1) a window of parents splits into. */
static __host__ __device__ inline uint64_t gclq__kc_lj_split(uint64_t p0, uint64_t p1) { return p0 + (p1 - p0) / 2; }

/* The intersection of two sorted lists (each element of the shorter one
   searched in the longer one, from where the last search ended): emit(x)
   for each common x, ascending; returns their number. */
template <typename Emit>
static __host__ __device__ __forceinline__ uint32_t gclq__kc_lj_intersect(const uint32_t *a, uint32_t na,
                                                                          const uint32_t *b, uint32_t nb, Emit emit) {
  if (na > nb) {
    const uint32_t *t = a;
    a = b;
    b = t;
    const uint32_t tn = na;
    na = nb;
    nb = tn;
  }
  uint32_t lo = 0, found = 0;
  for (uint32_t i = 0; i < na && lo < nb; ++i) {
    const uint32_t x = a[i];
    uint32_t hi = nb;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (b[mid] < x)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo < nb && b[lo] == x) {
      emit(x);
      ++found;
      ++lo;
    }
  }
  return found;
}

/* Child j of a step: its vertex w, and its candidates (the parent's after
   w, intersected with out(w)) passed to emit; returns their number. */
template <typename Emit>
static __device__ __forceinline__ uint32_t gclq__kc_lj_child(const gclq__kc_lj_children &ch, uint64_t j, uint32_t *w,
                                                             Emit emit) {
  const uint64_t p = ch.p0 + ch.par[j], at = ch.lv.coff[p] + ch.rank[j], end = ch.lv.coff[p + 1];
  const uint32_t x = ch.lv.cand[at];
  *w = x;
  return gclq__kc_lj_intersect(ch.lv.cand + at + 1, (uint32_t)(end - at - 1), ch.out + ch.off[x],
                               (uint32_t)(ch.off[x + 1] - ch.off[x]), emit);
}

/* Emits nothing (counting only). */
struct gclq__kc_lj_none {
  __host__ __device__ __forceinline__ void operator()(uint32_t) const {}
};

/* rel[i] = coff[p0 + i] - coff[p0] for i < np: the parents' candidate
   offsets from the window's start. */
static __global__ void __launch_bounds__(GCLQ__KC_LJ_BLOCK)
    gclq__kc_lj_rel_kernel(const uint64_t *coff, uint64_t p0, uint64_t np, uint32_t *rel) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < np) rel[i] = (uint32_t)(coff[p0 + i] - coff[p0]);
}

/* cnt[j] = child j's candidates (0 when size + them < k: it cannot reach k),
   ids[j] = j when ids is given. A thread per child. */
static __global__ void __launch_bounds__(GCLQ__KC_LJ_BLOCK)
    gclq__kc_lj_count_kernel(gclq__kc_lj_children ch, uint64_t nc, uint32_t size, uint32_t k, uint64_t *cnt,
                             uint32_t *ids) {
  const uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= nc) return;
  uint32_t w;
  const uint32_t c = gclq__kc_lj_child(ch, j, &w, gclq__kc_lj_none());
  cnt[j] = k != 0 && size + c < k ? 0 : c;
  if (ids != NULL) ids[j] = (uint32_t)j;
}

/* The children with candidates (their scanned counts differ). */
struct gclq__kc_lj_has_cands {
  const uint64_t *scan;
  __device__ __forceinline__ bool operator()(uint32_t j) const { return scan[j + 1] > scan[j]; }
};

/* The next level: entry i is the kept child kept[i], its parent, vertex,
   candidate offset (the scan) and candidates. A thread per entry. */
static __global__ void __launch_bounds__(GCLQ__KC_LJ_BLOCK)
    gclq__kc_lj_write_kernel(gclq__kc_lj_children ch, const uint32_t *kept, uint64_t nk, const uint64_t *scan,
                             uint32_t *vert, uint32_t *par, uint64_t *coff, uint32_t *cand) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nk) return;
  const uint32_t j = kept[i];
  uint32_t *dst = cand + scan[j];
  uint32_t w, at = 0;
  gclq__kc_lj_child(ch, j, &w, [&](uint32_t x) { dst[at++] = x; });
  vert[i] = w;
  par[i] = (uint32_t)(ch.p0 + ch.par[j]);
  coff[i] = scan[j];
}

/* The levels 2 .. L's vertices and parents, for walking a clique's prefix. */
struct gclq__kc_lj_chain {
  const uint32_t *vert, *par;
};

/* Per-vertex counts of the last step (children of level L are the
   (k - 1)-cliques): child j with c candidates gives its vertex and every
   vertex of its prefix c, each candidate 1. A thread per child. */
static __global__ void __launch_bounds__(GCLQ__KC_LJ_BLOCK)
    gclq__kc_lj_per_vertex_kernel(gclq__kc_lj_children ch, uint64_t nc, const uint64_t *scan,
                                  const gclq__kc_lj_chain *chain, uint32_t L, unsigned long long *pv,
                                  unsigned int *pvf) {
  const uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= nc) return;
  const unsigned long long c = scan[j + 1] - scan[j];
  if (c == 0) return;
  uint32_t w;
  gclq__kc_lj_child(ch, j, &w, [&](uint32_t x) { gclq__kc_d_add(pv + x, pvf + x, 1); });
  gclq__kc_d_add(pv + w, pvf + w, c);
  uint64_t p = ch.p0 + ch.par[j];
  for (uint32_t l = L; l >= 2; --l) {
    const uint32_t x = chain[l].vert[p];
    gclq__kc_d_add(pv + x, pvf + x, c);
    p = chain[l].par[p];
  }
  gclq__kc_d_add(pv + p, pvf + p, c);
}
