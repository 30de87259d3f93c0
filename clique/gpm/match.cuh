/* clique/gpm/match.cuh - subgraph matching's count on the device (backend
   CUDA, max_stored 0): any connected query of up to GCLQ_MATCH_MAX_QUERY
   vertices, labelled or not, in the four modes, by the HOST matcher's
   search (clique/gpm/host.h: the same matching order, candidate filters and
   symmetry-breaking restrictions, gclq__query_order, gclq__query_restrict),
   a warp a list entry (a root and its neighbour).

   The query goes to the kernel by position in the matching order
   (gclq__mq): position i's parent (the placed neighbour whose list gives
   its candidates), its edges to the positions before it, its restrictions
   against them (image below / above theirs), its label and degree.

   The data graph: the caller's CSR uploaded (compact ids, lists ascending),
   or a prepared graph's undirected lists (rank ids; the labels scattered to
   ranks). The restrictions hold in any total order of the data vertices, so
   rank ids count the same matches.

   A warp takes a list entry (root, neighbour): the images of positions 0
   and 1 (position 1's parent is the root), so that a hub's search is split
   over its edges; then it searches depth first with its own stack in
   device memory: a level per position 2 .. q - 2, each room for the
   largest degree (the candidates of a position are a subset of one list). A level's candidates are made by the warp
   together: its lanes over the parent's list, each testing one vertex
   (label, degree, injectivity, adjacency to the placed neighbours and, in
   VERTEX_INDUCED, non-adjacency to the others, each by a search of the
   placed vertex's list, and the restrictions), the passing ones compacted by
   a ballot. The last position's candidates are only counted. Memory: the
   upload (8 n + 8 m bytes, 4 n of labels), then (q - 3) * max degree * 4
   bytes a warp, for as many warps as are resident and the budget holds (at
   least one: less room is GCLQ_ERROR_OUT_OF_MEMORY). */

/* The query by matching-order position (all masks over earlier positions). */
struct gclq__mq {
  uint32_t q, injective, induced, labelled;
  uint32_t parent[GCLQ_MATCH_MAX_QUERY]; /* a position before i, adjacent to it */
  uint32_t edge[GCLQ_MATCH_MAX_QUERY];   /* bit j: an edge between positions i and j */
  uint32_t below[GCLQ_MATCH_MAX_QUERY];  /* bit j: image(i) < image(j) */
  uint32_t above[GCLQ_MATCH_MAX_QUERY];  /* bit j: image(j) < image(i) */
  uint32_t label[GCLQ_MATCH_MAX_QUERY], degree[GCLQ_MATCH_MAX_QUERY];
};

/* Q (its restrictions made for mode) by position in its matching order. */
static inline void gclq__mq_make(const gclq__query *Q, gclq_match_mode mode, gclq__mq *m) {
  uint32_t order[GCLQ_MATCH_MAX_QUERY], parent[GCLQ_MATCH_MAX_QUERY], i, j;
  memset(m, 0, sizeof *m);
  gclq__query_order(Q, order, parent);
  m->q = Q->q;
  m->injective = mode != GCLQ_MATCH_HOMOMORPHISMS;
  m->induced = mode == GCLQ_MATCH_VERTEX_INDUCED;
  m->labelled = Q->labels != NULL;
  for (i = 0; i < Q->q; ++i) {
    const uint32_t u = order[i];
    m->parent[i] = i == 0 ? 0 : parent[i];
    m->label[i] = Q->labels != NULL ? Q->labels[u] : 0;
    m->degree[i] = gclq__query_degree(Q, u);
    for (j = 0; j < i; ++j) {
      const uint32_t w = order[j];
      if ((Q->adj[u] >> w) & 1u) m->edge[i] |= 1u << j;
      if ((Q->less[u] >> w) & 1u) m->below[i] |= 1u << j;
      if ((Q->less[w] >> u) & 1u) m->above[i] |= 1u << j;
    }
  }
}

/* May data vertex x be the image of position i, after img[0 .. i)? */
static __device__ __forceinline__ bool gclq__mqd_ok(const gclq__mq &Q, uint32_t i, uint32_t x, const uint32_t *img,
                                                    const uint64_t *off, const uint32_t *nbr, const uint32_t *lab) {
  if (Q.labelled && __ldg(lab + x) != Q.label[i]) return false;
  if (Q.injective && off[x + 1] - off[x] < Q.degree[i]) return false;
  for (uint32_t j = 0; j < i; ++j) {
    const uint32_t y = img[j];
    if (Q.injective && x == y) return false;
    if (((Q.below[i] >> j) & 1u) && !(x < y)) return false;
    if (((Q.above[i] >> j) & 1u) && !(y < x)) return false;
  }
  for (uint32_t j = 0; j < i; ++j) {
    const bool edge = (Q.edge[i] >> j) & 1u;
    if (j == Q.parent[i] || (!edge && !Q.induced)) continue; /* x is in the parent's list */
    if (gclq__d_adjacent(off, nbr, img[j], x) != edge) return false;
  }
  return true;
}

/* Position i's candidates (the warp together, img the same in every lane):
   written to out in list order when out is not NULL; their number, the
   same in every lane. */
static __device__ __forceinline__ uint32_t gclq__mqd_candidates(const gclq__mq &Q, uint32_t i, const uint32_t *img,
                                                                const uint64_t *off, const uint32_t *nbr,
                                                                const uint32_t *lab, uint32_t *out) {
  const uint32_t lane = threadIdx.x % 32, from = img[Q.parent[i]];
  const uint64_t b = off[from + 1];
  uint32_t n = 0;
  for (uint64_t base = off[from]; base < b; base += 32) {
    const uint64_t e = base + lane;
    const uint32_t x = e < b ? __ldg(nbr + e) : 0;
    const bool ok = e < b && gclq__mqd_ok(Q, i, x, img, off, nbr, lab);
    const unsigned mask = __ballot_sync(GCLQ__FULL, ok);
    if (out != NULL && ok) out[n + __popc(mask & ((1u << lane) - 1u))] = x;
    n += __popc(mask);
  }
  return n;
}

/* The matches of Q (q >= 2) in the graph of n vertices: warps 0 .. workers
   - 1 each take an entry e of the lists (strided by workers; the grid's
   other warps idle): the root is e's vertex (a search of the offsets), the
   image of position 1 (whose parent is the root) the entry's neighbour, and
   the warp searches the rest. A hub's search is so split over its edges.
   Warp w's stack at stack + w * (q - 3) * room (position l's candidates at
   (l - 2) * room). *acc += the count. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__match_count_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, const uint32_t *lab,
                             const gclq__mq Q, uint32_t *stack, uint64_t room, uint64_t workers,
                             unsigned long long *acc) {
  const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32, entries = off[n];
  const uint32_t lane = threadIdx.x % 32, last = Q.q - 1;
  uint32_t *mine = stack + (warp < workers ? warp : 0) * (uint64_t)(Q.q > 3 ? Q.q - 3 : 0) * room;
  uint32_t img[GCLQ_MATCH_MAX_QUERY], count[GCLQ_MATCH_MAX_QUERY], at[GCLQ_MATCH_MAX_QUERY];
  unsigned long long found = 0;
  for (uint64_t e = warp; warp < workers && e < entries; e += workers) {
    img[0] = gclq__fmd_source(off, n, e);
    if (!gclq__mqd_ok(Q, 0, img[0], img, off, nbr, lab)) continue;
    img[1] = __ldg(nbr + e);
    if (!gclq__mqd_ok(Q, 1, img[1], img, off, nbr, lab)) continue;
    if (last == 1) {
      found += 1;
      continue;
    }
    if (last == 2) {
      found += gclq__mqd_candidates(Q, 2, img, off, nbr, lab, NULL);
      continue;
    }
    uint32_t level = 2; /* positions 2 .. last - 1 keep their candidates */
    count[2] = gclq__mqd_candidates(Q, 2, img, off, nbr, lab, mine);
    at[2] = 0;
    __syncwarp();
    while (level >= 2) {
      if (at[level] == count[level]) {
        --level;
        continue;
      }
      img[level] = mine[(uint64_t)(level - 2) * room + at[level]++];
      if (level + 1 == last) {
        found += gclq__mqd_candidates(Q, last, img, off, nbr, lab, NULL);
        continue;
      }
      ++level;
      count[level] = gclq__mqd_candidates(Q, level, img, off, nbr, lab, mine + (uint64_t)(level - 2) * room);
      at[level] = 0;
      __syncwarp(); /* the level's candidates written before any lane reads them */
    }
  }
  gclq__fmd_block_add(lane == 0 ? found : 0, acc);
}

/* A root alone matches a one-vertex query: the vertices of its label. */
static __global__ void gclq__match_roots_kernel(uint32_t n, const uint32_t *lab, uint32_t label,
                                                unsigned long long *acc) {
  unsigned long long found = 0;
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += (uint64_t)gridDim.x * blockDim.x)
    found += lab == NULL || __ldg(lab + v) == label;
  gclq__fmd_block_add(found, acc);
}

/* Labels to rank ids: to[rank[v]] = from[v]. */
static __global__ void gclq__match_rank_labels_kernel(uint32_t n, const uint32_t *rank, const uint32_t *from,
                                                      uint32_t *to) {
  const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) to[rank[v]] = from[v];
}

/* The count on the device graph (off, nbr: off_entries list entries; lab
   NULL when the query has no labels) into *count; *count_ms from here. */
static inline gclq_status gclq__match_cuda_run(gclq__dev *c, uint32_t n, uint64_t off_entries, const uint64_t *off,
                                               const uint32_t *nbr, const uint32_t *lab, uint32_t max_degree,
                                               const gclq__mq *Q, uint64_t *count, double *count_ms) {
  gclq__dmem acc(c), stack(c);
  unsigned long long h = 0;
  const gclq__clock::time_point t0 = gclq__clock::now();
  const uint64_t room = max_degree > 0 ? max_degree : 1, levels = Q->q > 3 ? Q->q - 3 : 0;
  c->phase = "match: count";
  GCLQ__TRY(acc.get(sizeof h));
  GCLQ__CUDA_TRY(cudaMemsetAsync(acc.p, 0, sizeof h, c->stream));
  if (Q->q == 1) {
    gclq__match_roots_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(n, Q->labelled ? lab : NULL, Q->label[0],
                                                                          acc.as<unsigned long long>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  } else {
    uint64_t blocks = 0, warps, room_bytes;
    const uint64_t per_warp = levels * room * sizeof(uint32_t);
    GCLQ__TRY(gclq__fm_resident(gclq__match_count_kernel, 32 * GCLQ__CWARPS, &blocks));
    warps = blocks * GCLQ__CWARPS;
    if (warps > off_entries) warps = off_entries > 0 ? off_entries : 1;
    room_bytes = c->used < c->budget ? c->budget - c->used : 0;
    if (per_warp > 0 && warps > room_bytes / per_warp) warps = room_bytes / per_warp;
    while (warps > 1 && per_warp > 0 && !gclq__dev_fits(c, (size_t)(warps * per_warp))) warps = warps * 3 / 4;
    if (warps == 0) warps = 1; /* the allocation below then reports the shortage */
    GCLQ__TRY(stack.get((size_t)(per_warp > 0 ? warps * per_warp : sizeof(uint32_t))));
    gclq__match_count_kernel<<<(unsigned)((warps + GCLQ__CWARPS - 1) / GCLQ__CWARPS), 32 * GCLQ__CWARPS, 0,
                               c->stream>>>(n, off, nbr, lab, *Q, stack.as<uint32_t>(), room, warps,
                                            acc.as<unsigned long long>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  GCLQ__TRY(gclq__dev_read(c, &h, acc.p, sizeof h));
  *count = h;
  *count_ms = gclq__ms_since(t0);
  gclq__dev_log(c, "match: counted");
  return GCLQ_SUCCESS;
}

/* The graph on the device (uploaded, or pg's lists and ranks) and the labels
   the query needs, then the count. */
static inline gclq_status gclq__match_cuda_graph(gclq__dev *c, const gclq_graph *g, const gclq_prepared_graph *pg,
                                                 const gclq__mq *Q, uint64_t *count, double *count_ms) {
  const uint32_t n = g->num_vertices;
  gclq__dgraph dg;
  gclq__dmem off(c), nbr(c), deg(c), core(c), lab(c), ranked(c);
  const uint64_t *d_off;
  const uint32_t *d_nbr, *d_lab = NULL;
  uint32_t max_degree = 0, v;
  for (v = 0; v < n; ++v)
    if (g->h_offsets[v + 1] - g->h_offsets[v] > max_degree) max_degree = (uint32_t)(g->h_offsets[v + 1] - g->h_offsets[v]);
  memset(&dg, 0, sizeof dg);
  c->phase = "match: upload";
  if (pg != NULL) {
    d_off = pg->o.d_uoff, d_nbr = pg->o.d_unbr;
  } else {
    GCLQ__TRY(gclq__graph_upload(c, g, &dg, &off, &nbr, &deg, &core));
    deg.release();
    core.release();
    d_off = dg.d_off, d_nbr = dg.d_nbr;
  }
  if (Q->labelled) {
    GCLQ__TRY(lab.get((size_t)n * sizeof(uint32_t)));
    GCLQ__CUDA_TRY(cudaMemcpyAsync(lab.p, g->h_labels, (size_t)n * sizeof(uint32_t), cudaMemcpyHostToDevice, c->stream));
    d_lab = lab.as<uint32_t>();
    if (pg != NULL) { /* the labels of rank ids */
      GCLQ__TRY(ranked.get((size_t)n * sizeof(uint32_t)));
      gclq__match_rank_labels_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(n, pg->o.d_rank, d_lab,
                                                                                  ranked.as<uint32_t>());
      GCLQ__CUDA_TRY(cudaGetLastError());
      d_lab = ranked.as<uint32_t>();
    }
  }
  return gclq__match_cuda_run(c, n, 2 * g->num_edges, d_off, d_nbr, d_lab, max_degree, Q, count, count_ms);
}

/* The count of Q's matches in g in mode on the current device under budget
   bytes (0: the default), from pg when not NULL; *count_ms the count's wall
   time from the graph on the device. */
static inline gclq_status gclq__cuda_match_count(const gclq_graph *g, const gclq__query *Q, gclq_match_mode mode,
                                                 size_t budget, const gclq_prepared_graph *pg,
                                                 void (*log)(void *, const char *), void *log_user, uint64_t *count,
                                                 double *count_ms) {
  gclq__dev c;
  gclq__mq m;
  gclq__pool_keep keep;
  gclq_status st = GCLQ_SUCCESS;
  *count = 0, *count_ms = 0;
  if (pg != NULL && !gclq__prepared_of(pg, g)) return GCLQ_ERROR_INVALID_ARGUMENT;
  GCLQ__TRY(gclq__device_start(&budget));
  if (g->num_vertices == 0 || (g->num_edges == 0 && Q->q > 1)) return GCLQ_SUCCESS; /* nothing to match */
  gclq__mq_make(Q, mode, &m);
  gclq__dev_init(&c, NULL, NULL, budget);
  c.log = log;
  c.log_user = log_user;
  gclq__pool_keep_begin(&keep, &c.allocator);
  st = gclq__match_cuda_graph(&c, g, pg, &m, count, count_ms);
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  gclq__pool_keep_end(&keep);
  return st;
}
