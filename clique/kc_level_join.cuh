/* clique/kc_level_join.cuh - k-clique counting by the level-wise join, after
   Wu et al., "Multipredicate Join Algorithms for Accelerating Relational
   Graph Processing on GPUs", section 4 (the GPU-optimized approach). A
   section of gpuclique_kernels.cuh.

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
   (they are on the device). A single parent whose step does not fit:
   GCLQ_ERROR_OUT_OF_MEMORY. d->method_note reports the largest window's
   bytes per level, the paper's memory growth per level. */
#ifndef GPUCLIQUE_KC_LEVEL_JOIN_CUH
#define GPUCLIQUE_KC_LEVEL_JOIN_CUH

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

/* The run: the levels so far (index = clique size), the largest window's
   bytes per level, the windows. */
struct gclq__kc_lj_run {
  gclq__kc_dev *d;
  gclq__kc_lj_level *lv;  /* top + 1 */
  uint64_t *level_bytes; /* top + 1 */
  uint64_t windows;
  uint64_t nodes;
  int counted; /* with per-vertex counts (on the device, not taken back): a failure after counts
                  were added is fatal, no retry in smaller windows */
};

/* Whether bytes more (rounded, with a margin for the primitives' temporary
   storage) fit the budget now. */
static inline int gclq__kc_lj_fits(const gclq__mc_ctx *c, uint64_t bytes) {
  const uint64_t need = bytes + 8 * 256 + bytes / 64 + 65536;
  return c->used <= c->budget && need <= c->budget - c->used;
}

/* h += v, saturated. */
static inline void gclq__kc_lj_add(uint64_t *h, uint64_t v) { *h = *h > UINT64_MAX - v ? UINT64_MAX : *h + v; }

static gclq_status gclq__kc_lj_extend(gclq__kc_lj_run *r, uint32_t L, uint64_t p0, uint64_t p1);

/* The per-vertex counts of a last step (ch over nc children, scan their
   counts' scan): the chain of levels 2 .. L to the device, then the kernel. */
static inline gclq_status gclq__kc_lj_per_vertex(gclq__kc_lj_run *r, const gclq__kc_lj_children &ch, uint64_t nc,
                                                 const uint64_t *scan, uint32_t L) {
  gclq__kc_dev *d = r->d;
  gclq__mc_ctx *c = d->c;
  gclq__dmem d_chain(c);
  gclq__kc_lj_chain *h_chain = (gclq__kc_lj_chain *)gclq__alloc_array((uint64_t)L + 1, sizeof(gclq__kc_lj_chain));
  if (h_chain == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (uint32_t l = 0; l <= L; ++l) {
    h_chain[l].vert = r->lv[l].vert;
    h_chain[l].par = r->lv[l].par;
  }
  gclq_status st = d_chain.get(((size_t)L + 1) * sizeof(gclq__kc_lj_chain));
  if (st == GCLQ_SUCCESS &&
      (cudaMemcpyAsync(d_chain.p, h_chain, ((size_t)L + 1) * sizeof(gclq__kc_lj_chain), cudaMemcpyHostToDevice,
                       c->stream) != cudaSuccess ||
       cudaStreamSynchronize(c->stream) != cudaSuccess))
    st = GCLQ_ERROR_CUDA;
  GCLQ_FREE(h_chain);
  GCLQ__TRY(st);
  gclq__kc_lj_per_vertex_kernel<<<(unsigned)((nc + GCLQ__KC_LJ_BLOCK - 1) / GCLQ__KC_LJ_BLOCK), GCLQ__KC_LJ_BLOCK, 0,
                                  c->stream>>>(ch, nc, scan, d_chain.as<gclq__kc_lj_chain>(), L, d->d_per_vertex,
                                               d->d_pv_flags);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* One step over the parents [p0, p1) of level L (nc children): expansion,
   counts, scan; the last step counts, the others materialise level L + 1
   and go on from it. GCLQ_ERROR_OUT_OF_MEMORY when its memory does not
   fit: nothing was counted unless r->counted is set (a deeper level failed). */
static gclq_status gclq__kc_lj_step(gclq__kc_lj_run *r, uint32_t L, uint64_t p0, uint64_t p1, uint64_t nc) {
  gclq__kc_dev *d = r->d;
  gclq__mc_ctx *c = d->c;
  const uint64_t np = p1 - p0;
  const int last = d->k != 0 && L + 1 == d->k - 1;
  gclq__dmem rel(c), par(c), rank(c), scan(c), ids(c), kept(c), num(c);
  gclq__kc_lj_children ch;
  uint64_t total = 0;
  GCLQ__TRY(rel.get((size_t)np * sizeof(uint32_t)));
  GCLQ__TRY(par.get((size_t)nc * sizeof(uint32_t)));
  GCLQ__TRY(rank.get((size_t)nc * sizeof(uint32_t)));
  GCLQ__TRY(scan.get(((size_t)nc + 1) * sizeof(uint64_t)));
  gclq__kc_lj_rel_kernel<<<(unsigned)((np + GCLQ__KC_LJ_BLOCK - 1) / GCLQ__KC_LJ_BLOCK), GCLQ__KC_LJ_BLOCK, 0,
                           c->stream>>>(r->lv[L].coff, p0, np, rel.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_load_balance_search(t, tb, (const uint32_t *)rel.p, (size_t)np, (size_t)nc, par.as<uint32_t>(),
                                     rank.as<uint32_t>(), c->stream);
  }));
  rel.release();
  if (!last) GCLQ__TRY(ids.get((size_t)nc * sizeof(uint32_t)));
  ch.lv = r->lv[L];
  ch.p0 = p0;
  ch.par = par.as<uint32_t>();
  ch.rank = rank.as<uint32_t>();
  ch.out = d->d_out;
  ch.off = d->d_off;
  uint64_t *cnt = scan.as<uint64_t>();
  GCLQ__CUDA_TRY(cudaMemsetAsync(cnt + nc, 0, sizeof(uint64_t), c->stream));
  gclq__kc_lj_count_kernel<<<(unsigned)((nc + GCLQ__KC_LJ_BLOCK - 1) / GCLQ__KC_LJ_BLOCK), GCLQ__KC_LJ_BLOCK, 0,
                             c->stream>>>(ch, nc, L + 1, d->k, cnt, last ? NULL : ids.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)cnt, cnt, (size_t)nc + 1, gprim_op_sum(), (uint64_t)0,
                                c->stream);
  }));
  GCLQ__TRY(gclq__mc_read(c, &total, cnt + nc, sizeof total));
  if (last) { /* the k-cliques, counted */
    if (d->d_per_vertex != NULL && total > 0) GCLQ__TRY(gclq__kc_lj_per_vertex(r, ch, nc, cnt, L));
    gclq__kc_lj_add(&d->h_count[d->k], total);
    if (nc * sizeof(uint64_t) > r->level_bytes[L + 1]) r->level_bytes[L + 1] = nc * sizeof(uint64_t);
    return GCLQ_SUCCESS;
  }
  /* the children with candidates, in order */
  size_t nk = 0;
  gclq__kc_lj_has_cands pred = {cnt};
  GCLQ__TRY(kept.get((size_t)nc * sizeof(uint32_t)));
  GCLQ__TRY(num.get(sizeof(size_t)));
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_select_if(t, tb, (const uint32_t *)ids.p, kept.as<uint32_t>(), num.as<size_t>(), (size_t)nc, pred,
                           c->stream);
  }));
  GCLQ__TRY(gclq__mc_read(c, &nk, num.p, sizeof nk));
  ids.release();
  if (nk == 0) return GCLQ_SUCCESS;
  /* level L + 1 */
  const uint64_t bytes = gclq__kc_lj_level_bytes(nk, total);
  if (!gclq__kc_lj_fits(c, bytes)) return GCLQ_ERROR_OUT_OF_MEMORY;
  gclq__dmem vert(c), npar(c), coff(c), cand(c);
  GCLQ__TRY(vert.get((size_t)nk * sizeof(uint32_t)));
  GCLQ__TRY(npar.get((size_t)nk * sizeof(uint32_t)));
  GCLQ__TRY(coff.get(((size_t)nk + 1) * sizeof(uint64_t)));
  GCLQ__TRY(cand.get((size_t)total * sizeof(uint32_t)));
  gclq__kc_lj_write_kernel<<<(unsigned)((nk + GCLQ__KC_LJ_BLOCK - 1) / GCLQ__KC_LJ_BLOCK), GCLQ__KC_LJ_BLOCK, 0,
                             c->stream>>>(ch, kept.as<uint32_t>(), nk, cnt, vert.as<uint32_t>(), npar.as<uint32_t>(),
                                          coff.as<uint64_t>(), cand.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__CUDA_TRY(cudaMemcpyAsync(coff.as<uint64_t>() + nk, cnt + nc, sizeof(uint64_t), cudaMemcpyDeviceToDevice,
                                 c->stream));
  if (bytes > r->level_bytes[L + 1]) r->level_bytes[L + 1] = bytes;
  kept.release();
  par.release();
  rank.release();
  scan.release();
  num.release();
  gclq__kc_lj_level next = {nk, vert.as<uint32_t>(), npar.as<uint32_t>(), coff.as<uint64_t>(), cand.as<uint32_t>()};
  r->lv[L + 1] = next;
  gclq_status st = gclq__kc_lj_extend(r, L + 1, 0, nk);
  memset(&r->lv[L + 1], 0, sizeof r->lv[L + 1]);
  if (st != GCLQ_SUCCESS) r->counted = 1; /* counts were added: no window may run again */
  return st;
}

/* Level L's parents [p0, p1) extended to the end: their children counted
   (every size) and stepped; when a step's memory does not fit, the two
   halves of the window one after the other. */
static gclq_status gclq__kc_lj_extend(gclq__kc_lj_run *r, uint32_t L, uint64_t p0, uint64_t p1) {
  gclq__kc_dev *d = r->d;
  gclq__mc_ctx *c = d->c;
  uint64_t a = 0, b = 0;
  if (p0 >= p1) return GCLQ_SUCCESS;
  GCLQ__TRY(gclq__mc_read(c, &a, r->lv[L].coff + p0, sizeof a));
  GCLQ__TRY(gclq__mc_read(c, &b, r->lv[L].coff + p1, sizeof b));
  const uint64_t nc = b - a;
  const int last = d->k != 0 && L + 1 == d->k - 1;
  if (nc == 0) return GCLQ_SUCCESS;
  /* Without per-vertex counts everything a window adds is on the host: kept
     here, and put back when a deeper level runs out of memory, so that the
     window runs again in two halves (a window at a deep level holds its
     ancestors' windows: halving them is what makes room). */
  const int undo = d->d_per_vertex == NULL && p1 - p0 > 1;
  const size_t count_bytes = ((size_t)d->top + 1) * sizeof(uint64_t);
  uint64_t *saved = undo ? (uint64_t *)gclq__alloc_array((uint64_t)d->top + 1, sizeof(uint64_t)) : NULL;
  const uint64_t nodes = r->nodes;
  if (undo && saved == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (undo) memcpy(saved, d->h_count, count_bytes);
  gclq_status st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (nc + (p1 - p0) < 0xffffffffull && gclq__kc_lj_fits(c, gclq__kc_lj_step_bytes(p1 - p0, nc, last)))
    st = gclq__kc_lj_step(r, L, p0, p1, nc);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY && undo) {
    memcpy(d->h_count, saved, count_bytes);
    r->nodes = nodes;
  }
  GCLQ_FREE(saved);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY && (undo || (!r->counted && p1 - p0 > 1))) { /* two windows */
    const uint64_t mid = gclq__kc_lj_split(p0, p1);
    ++r->windows;
    GCLQ__TRY(gclq__kc_lj_extend(r, L, p0, mid));
    return gclq__kc_lj_extend(r, L, mid, p1);
  }
  GCLQ__TRY(st);
  r->nodes += nc;
  if (d->k == 0) gclq__kc_lj_add(&d->h_count[L + 1], nc); /* the (L + 1)-cliques */
  return GCLQ_SUCCESS;
}

/* "level sizes (bytes, the largest window): 2:B, 3:B, ..." (the last one
   of one k holds only the counts), and the windows. */
static inline const char *gclq__kc_lj_note(const gclq__kc_lj_run *r, uint32_t top) {
  static char note[512];
  size_t at = (size_t)snprintf(note, sizeof note, "level sizes (bytes, the largest window):");
  for (uint32_t s = 2; s <= top && at < sizeof note; ++s) {
    if (r->level_bytes[s] == 0) continue;
    at += (size_t)snprintf(note + at, sizeof note - at, " %u:%llu", s, (unsigned long long)r->level_bytes[s]);
  }
  if (at < sizeof note) snprintf(note + at, sizeof note - at, "; windows split %llu", (unsigned long long)r->windows);
  return note;
}

/* k-cliques by the level-wise join, from level 1 (the oriented graph). */
static inline gclq_status gclq__kc_cuda_level_join(gclq__kc_dev *d) {
  gclq__kc_lj_run r;
  memset(&r, 0, sizeof r);
  r.d = d;
  if (d->n == 0 || d->m == 0) return GCLQ_SUCCESS;
  r.lv = (gclq__kc_lj_level *)gclq__alloc_array((uint64_t)d->top + 2, sizeof(gclq__kc_lj_level));
  r.level_bytes = (uint64_t *)gclq__alloc_array((uint64_t)d->top + 2, sizeof(uint64_t));
  gclq_status st = r.lv == NULL || r.level_bytes == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS;
  if (st == GCLQ_SUCCESS) {
    memset(r.lv, 0, ((size_t)d->top + 2) * sizeof(gclq__kc_lj_level));
    memset(r.level_bytes, 0, ((size_t)d->top + 2) * sizeof(uint64_t));
    gclq__kc_lj_level one = {d->n, NULL, NULL, d->d_off, d->d_out};
    r.lv[1] = one;
    st = gclq__kc_lj_extend(&r, 1, 0, d->n);
  }
  if (st == GCLQ_SUCCESS) {
    d->nodes += r.nodes;
    d->method_note = gclq__kc_lj_note(&r, d->top);
  }
  GCLQ_FREE(r.lv);
  GCLQ_FREE(r.level_bytes);
  return st;
}

#endif /* GPUCLIQUE_KC_LEVEL_JOIN_CUH */
