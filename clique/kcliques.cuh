/* clique/kcliques.cuh - k-clique counting, the CUDA backend's common part
   (a section of gpuclique_kernels.cuh): the oriented graph on the device and
   the counters every method adds into. The methods are in the files named
   clique/kc_*.cuh; gclq_kcliques's driver (gpuclique.h, gclq__kc_cuda) builds
   a gclq__kc_dev and calls one of them.

   The graph the methods see is renamed by the order: vertex v becomes its
   position in it (its rank), so out(r) = the neighbours of r with a larger
   id, ascending, as CSR (d_off, d_out), and for PIVOT (which needs whole
   adjacency inside its local graphs) the undirected lists in the same ids
   (d_uoff, d_unbr). The order is by a 64-bit key per vertex,
   (degree, id) or (peeling round, id); the rounds are those of the maximum
   clique search's parallel peeling (gclq__mc_cores), which
   gclq_degeneracy_order reproduces on the host, so both backends orient
   every edge the same way. The keys sorted give the ranks; a warp per
   vertex counts and writes its lists at its rank; a segmented sort puts
   each list in ascending order. Per-vertex counts come back by rank
   (gclq__kc_cuda_per_vertex maps them to the graph's ids).

   Counts are 64-bit atomics. A count that passes 2^64 - 1 sets its flag
   (the add that wraps sees old + v < old); the driver then reports
   GCLQ_ERROR_OVERFLOW for that k. */
#ifndef GPUCLIQUE_KCLIQUES_CUH
#define GPUCLIQUE_KCLIQUES_CUH

/* What a method gets: the oriented graph, what to count, where to add. */
struct gclq__kc_dev {
  gclq__mc_ctx *c;                  /* device memory under the budget (gclq__dmem), stream, log */
  uint32_t n;                       /* vertices */
  uint64_t m;                       /* oriented edges */
  const uint64_t *d_off;            /* n + 1: out(v) = d_out[d_off[v] .. d_off[v + 1]) */
  const uint32_t *d_out;            /* ascending ids */
  const uint64_t *d_uoff;           /* PIVOT only (else NULL): the undirected graph (n + 1, 2 edges) */
  const uint32_t *d_unbr;           /* (u, v) adjacent: v in d_unbr[d_uoff[u] .. d_uoff[u + 1]) */
  const uint32_t *d_rank;           /* n: vertex v of the graph is vertex d_rank[v] here */
  uint32_t max_out, max_core;       /* the largest out-degree, the largest core number */
  uint32_t k;                       /* one size (3 or more), or 0: every size from 3 to top */
  uint32_t top;                     /* the largest size counted: k, or max_out + 1 (at least 3) */
  unsigned long long *d_count;      /* top + 1 entries, zeroed: s-cliques in d_count[s] */
  unsigned int *d_flags;            /* top + 1 entries, zeroed: nonzero when d_count[s] wrapped */
  unsigned long long *d_per_vertex; /* n entries, zeroed (one k, asked), else NULL */
  unsigned int *d_pv_flags;         /* n entries, zeroed, when d_per_vertex */
  uint64_t *h_count;                /* host, top + 1 entries, saturated: a method may add here
                                       (after its device counts are read, gclq__kc_dev_read) */
  uint32_t deepest;                 /* every size: the largest clique the method saw (0: from the counts) */
  uint64_t nodes;                   /* the method's work units (search nodes, partial cliques), for stats */
  const char *method_note;          /* optional: what the method wants stats.notes to say */
};

/* Add v to *cnt; a sum that passes 2^64 - 1 sets *flag. */
static __device__ __forceinline__ void gclq__kc_d_add(unsigned long long *cnt, unsigned int *flag,
                                                      unsigned long long v) {
  if (v == 0) return;
  const unsigned long long old = atomicAdd(cnt, v);
  if (old + v < old) atomicOr(flag, 1u);
}

/* The 64-bit order key of vertex v: (degree, id), or (round, id) when round
   is given. Keys are distinct (the id is in the low half). */
static __device__ __forceinline__ uint64_t gclq__kc_key(const uint32_t *deg, const uint32_t *round, uint32_t v) {
  return (uint64_t)(round != NULL ? round[v] : deg[v]) << 32 | v;
}

static __global__ void gclq__kc_keys_kernel(uint32_t n, const uint32_t *deg, const uint32_t *round, uint64_t *key) {
  const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) key[v] = gclq__kc_key(deg, round, (uint32_t)v);
}

/* rank[v] = the position of v in the order (the keys sorted ascending). */
static __global__ void gclq__kc_rank_kernel(uint32_t n, const uint64_t *sorted, uint32_t *rank) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) rank[(uint32_t)sorted[i]] = (uint32_t)i;
}

/* Per vertex, at its rank r: ucnt[r] its degree, ocnt[r] its later
   neighbours; *max_out the most of those. A warp per vertex. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__kc_orient_count_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, const uint32_t *rank,
                                 uint64_t *ucnt, uint64_t *ocnt, uint32_t *max_out) {
  const uint64_t v = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (v >= n) return;
  const uint32_t r = rank[v];
  uint32_t c = 0;
  for (uint64_t e0 = off[v]; e0 < off[v + 1]; e0 += 32) {
    const uint64_t e = e0 + lane;
    c += __popc(__ballot_sync(GCLQ__FULL, e < off[v + 1] && rank[nbr[e]] > r));
  }
  if (lane == 0) {
    ucnt[r] = off[v + 1] - off[v];
    ocnt[r] = c;
    atomicMax(max_out, c);
  }
}

/* The lists of vertex v at its rank r, in rank ids: every neighbour into
   unbr at uoff[r] (unless unbr is NULL), the later ones into oout at
   ooff[r] (each list still to be sorted). A warp per vertex. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__kc_orient_write_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, const uint32_t *rank,
                                 const uint64_t *uoff, uint32_t *unbr, const uint64_t *ooff, uint32_t *oout) {
  const uint64_t v = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (v >= n) return;
  const uint32_t r = rank[v];
  uint64_t at = ooff[r];
  for (uint64_t e0 = off[v]; e0 < off[v + 1]; e0 += 32) {
    const uint64_t e = e0 + lane;
    const uint32_t ru = e < off[v + 1] ? rank[nbr[e]] : 0;
    const bool later = e < off[v + 1] && ru > r;
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, later);
    if (unbr != NULL && e < off[v + 1]) unbr[uoff[r] + (e - off[v])] = ru;
    if (later) oout[at + __popc(ballot & ((1u << lane) - 1u))] = ru;
    at += __popc(ballot);
  }
}

/* The graph renamed by the order and oriented, on the device: vertex v
   becomes its rank (d->d_rank), so that "later in the order" is "larger
   id" for every method (the join methods take the tail of a sorted list
   after a vertex as the vertices after it). From the uploaded graph
   (c->d_off, c->d_nbr, c->d_deg; c->d_round when by degeneracy, else NULL):
   d->d_off, d->d_out (out-lists, ascending), with `undirected` (PIVOT
   needs them) d->d_uoff, d->d_unbr (the undirected lists, ascending; else
   NULL), d->m, d->max_out, d->d_rank, in the allocations given (held by the
   caller). Without them the orientation skips their writes and their
   segmented sort (2m entries; R-MAT 18: 7.6 million). */
static inline gclq_status gclq__kc_cuda_orient(gclq__kc_dev *d, int undirected, gclq__dmem *rank, gclq__dmem *ooff,
                                               gclq__dmem *oout, gclq__dmem *uoff, gclq__dmem *unbr) {
  gclq__mc_ctx *c = d->c;
  const uint32_t n = d->n;
  uint64_t *oo, *uo, total = 0;
  uint32_t mo = 0;
  gclq__dmem keys(c), d_max(c);
  cudaStream_t stream = c->stream;
  GCLQ__TRY(rank->get((size_t)(n > 0 ? n : 1) * sizeof(uint32_t)));
  GCLQ__TRY(ooff->get(((size_t)n + 1) * sizeof(uint64_t)));
  GCLQ__TRY(uoff->get(((size_t)n + 1) * sizeof(uint64_t)));
  GCLQ__TRY(d_max.get(sizeof(uint32_t)));
  oo = ooff->as<uint64_t>();
  uo = uoff->as<uint64_t>();
  GCLQ__CUDA_TRY(cudaMemsetAsync(d_max.p, 0, sizeof(uint32_t), stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(oo + n, 0, sizeof(uint64_t), stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(uo + n, 0, sizeof(uint64_t), stream));
  if (n > 0) { /* the ranks: the keys sorted */
    GCLQ__TRY(keys.get((size_t)n * sizeof(uint64_t)));
    uint64_t *k = keys.as<uint64_t>();
    gclq__kc_keys_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(n, c->d_deg, c->d_round, k);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_radix_sort_keys(t, tb, (const uint64_t *)k, k, (size_t)n, 0, 64, false, stream);
    }));
    gclq__kc_rank_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(n, k, rank->as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    keys.release();
    gclq__kc_orient_count_kernel<<<gclq__grid_warps(n), 32 * GCLQ__CWARPS, 0, stream>>>(
        n, c->d_off, c->d_nbr, rank->as<uint32_t>(), uo, oo, d_max.as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)oo, oo, (size_t)n + 1, gprim_op_sum(), (uint64_t)0, stream);
  }));
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)uo, uo, (size_t)n + 1, gprim_op_sum(), (uint64_t)0, stream);
  }));
  GCLQ__TRY(gclq__mc_read(c, &d->m, oo + n, sizeof(uint64_t)));
  GCLQ__TRY(gclq__mc_read(c, &total, uo + n, sizeof(uint64_t)));
  GCLQ__TRY(gclq__mc_read(c, &mo, d_max.p, sizeof(uint32_t)));
  d->max_out = mo;
  GCLQ__TRY(oout->get((size_t)(d->m > 0 ? d->m : 1) * sizeof(uint32_t)));
  if (undirected) GCLQ__TRY(unbr->get((size_t)(total > 0 ? total : 1) * sizeof(uint32_t)));
  if (n > 0) {
    uint32_t *on = oout->as<uint32_t>(), *un = undirected ? unbr->as<uint32_t>() : NULL;
    gclq__kc_orient_write_kernel<<<gclq__grid_warps(n), 32 * GCLQ__CWARPS, 0, stream>>>(
        n, c->d_off, c->d_nbr, rank->as<uint32_t>(), uo, un, oo, on);
    GCLQ__CUDA_TRY(cudaGetLastError());
    if (d->m > 0)
      GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
        return gprim_segmented_sort_keys(t, tb, (const uint32_t *)on, on, (size_t)d->m, (size_t)n, (const uint64_t *)oo,
                                         stream);
      }));
    if (undirected && total > 0)
      GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
        return gprim_segmented_sort_keys(t, tb, (const uint32_t *)un, un, (size_t)total, (size_t)n,
                                         (const uint64_t *)uo, stream);
      }));
  }
  d->d_rank = rank->as<uint32_t>();
  d->d_off = oo;
  d->d_out = oout->as<uint32_t>();
  d->d_uoff = undirected ? uo : NULL;
  d->d_unbr = undirected ? unbr->as<uint32_t>() : NULL;
  return GCLQ_SUCCESS;
}

/* The device counts added into h_count (saturated: a flagged or saturated
   count stays UINT64_MAX), and the device counters zeroed again. */
static inline gclq_status gclq__kc_dev_read(gclq__kc_dev *d) {
  const size_t entries = (size_t)d->top + 1;
  unsigned long long *cnt = (unsigned long long *)GCLQ_MALLOC(entries * sizeof(unsigned long long));
  unsigned int *flags = (unsigned int *)GCLQ_MALLOC(entries * sizeof(unsigned int));
  gclq_status st = GCLQ_SUCCESS;
  if (cnt == NULL || flags == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) st = gclq__mc_read(d->c, cnt, d->d_count, entries * sizeof(unsigned long long));
  if (st == GCLQ_SUCCESS) st = gclq__mc_read(d->c, flags, d->d_flags, entries * sizeof(unsigned int));
  for (size_t s = 0; st == GCLQ_SUCCESS && s < entries; ++s) {
    const uint64_t h = d->h_count[s], v = (uint64_t)cnt[s];
    d->h_count[s] = flags[s] || h > UINT64_MAX - v ? UINT64_MAX : h + v;
  }
  if (st == GCLQ_SUCCESS && (cudaMemsetAsync(d->d_count, 0, entries * sizeof(unsigned long long), d->c->stream) != cudaSuccess ||
                             cudaMemsetAsync(d->d_flags, 0, entries * sizeof(unsigned int), d->c->stream) != cudaSuccess))
    st = GCLQ_ERROR_CUDA;
  GCLQ_FREE(cnt);
  GCLQ_FREE(flags);
  return st;
}

/* The per-vertex counts to the host (h: n entries, by the graph's ids; the
   device keeps them by rank), a flagged one as UINT64_MAX. */
static inline gclq_status gclq__kc_cuda_per_vertex(gclq__kc_dev *d, uint64_t *h) {
  unsigned int *flags = (unsigned int *)gclq__alloc_array(d->n, sizeof(unsigned int));
  uint64_t *by_rank = (uint64_t *)gclq__alloc_array(d->n, sizeof(uint64_t));
  uint32_t *rank = (uint32_t *)gclq__alloc_array(d->n, sizeof(uint32_t));
  gclq_status st = flags == NULL || by_rank == NULL || rank == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS;
  if (st == GCLQ_SUCCESS) st = gclq__mc_read(d->c, by_rank, d->d_per_vertex, (size_t)d->n * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS) st = gclq__mc_read(d->c, flags, d->d_pv_flags, (size_t)d->n * sizeof(unsigned int));
  if (st == GCLQ_SUCCESS) st = gclq__mc_read(d->c, rank, d->d_rank, (size_t)d->n * sizeof(uint32_t));
  for (uint32_t v = 0; st == GCLQ_SUCCESS && v < d->n; ++v)
    h[v] = flags[rank[v]] ? UINT64_MAX : by_rank[rank[v]];
  GCLQ_FREE(flags);
  GCLQ_FREE(by_rank);
  GCLQ_FREE(rank);
  return st;
}

#endif /* GPUCLIQUE_KCLIQUES_CUH */
