/* clique/graph/cuda.cuh - the graph on the device: its upload (the CSR and
   the degrees), its core numbers by parallel peeling (Alg. 1) and its
   orientation by an order, the steps every CUDA driver that reads a whole
   graph shares: the maximum-clique search, k-cliques and
   gclq_core_numbers. They run in a device context
   (clique/device.cuh). Kernels: clique/graph/kernels.cuh. */

/* A graph on the device. The upload fills n, d_off, d_nbr and d_deg and
   takes d_core for the peeling; d_round, when set, receives each vertex's
   peeling round (the k-clique orientation reads it). */
struct gclq__dgraph {
  uint32_t n;
  uint64_t *d_off;
  uint32_t *d_nbr, *d_deg, *d_core;
  uint32_t *d_round; /* NULL, or n entries */
  double upload_ms;  /* the upload's time */
};

/* What gclq__graph_symmetric_kernel finds. */
struct gclq__graph_sym {
  unsigned long long upper; /* entries (v, u) with u > v */
  unsigned int missing;     /* 1: some such entry has no reverse */
};

/* The CSR to the device (off, nbr) and the degrees (deg); core is taken for
   the peeling. The upload checks the contract's symmetry there
   (gclq__graph_symmetric_kernel): a graph with an edge stored at one end
   only is GCLQ_ERROR_INVALID_ARGUMENT before any kernel reads it as a
   graph. Its time goes to dg->upload_ms. */
static inline gclq_status gclq__graph_upload(gclq__dev *c, const gclq_graph *g, gclq__dgraph *dg, gclq__dmem *off,
                                             gclq__dmem *nbr, gclq__dmem *deg, gclq__dmem *core) {
  const uint32_t n = g->num_vertices;
  const uint64_t m2 = 2 * g->num_edges;
  cudaStream_t stream = c->stream;
  dg->n = n;
  gclq__clock::time_point t0 = gclq__clock::now();
  GCLQ__TRY(off->get(((size_t)n + 1) * sizeof(uint64_t)));
  GCLQ__TRY(nbr->get((size_t)m2 * sizeof(uint32_t)));
  GCLQ__TRY(deg->get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(core->get((size_t)n * sizeof(uint32_t)));
  dg->d_off = off->as<uint64_t>();
  dg->d_nbr = nbr->as<uint32_t>();
  dg->d_deg = deg->as<uint32_t>();
  dg->d_core = core->as<uint32_t>();
  GCLQ__CUDA_TRY(cudaMemcpyAsync(dg->d_off, g->h_offsets, ((size_t)n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(dg->d_nbr, g->h_neighbors, (size_t)m2 * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
  gclq__degree_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(dg->d_off, n, dg->d_deg);
  GCLQ__CUDA_TRY(cudaGetLastError());
  gclq__graph_sym sym;
  gclq__dmem d_sym(c);
  GCLQ__TRY(d_sym.get(sizeof sym));
  GCLQ__CUDA_TRY(cudaMemsetAsync(d_sym.p, 0, sizeof sym, stream));
  if (n > 0) {
    gclq__graph_symmetric_kernel<<<gclq__grid_warps(n), 32 * GCLQ__CWARPS, 0, stream>>>(
        dg->d_off, dg->d_nbr, n, &d_sym.as<gclq__graph_sym>()->upper, &d_sym.as<gclq__graph_sym>()->missing);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  GCLQ__TRY(gclq__dev_read(c, &sym, d_sym.p, sizeof sym)); /* synchronizes the stream */
  dg->upload_ms = gclq__ms_since(t0);
  return sym.missing || sym.upper != g->num_edges ? GCLQ_ERROR_INVALID_ARGUMENT : GCLQ_SUCCESS;
}

/* The peeling's blocks a multiprocessor, at most (0: as many as fit). Its
   rounds are short and many (R-MAT 18: 588 iterations, two grid barriers
   each), so the barriers' arrivals dominate: fewer blocks wait on each
   barrier for less. 2 a multiprocessor was the fastest on the larger graphs
   (R-MAT 18 and 20) and level on the small ones (bench/results/
   kcliques_h200.md, "The orientation"). */
#ifndef GCLQ__PEEL_BLOCKS_PER_SM
#define GCLQ__PEEL_BLOCKS_PER_SM 2
#endif

/* The peeling in one cooperative launch (gclq__core_peel_kernel), at most
   GCLQ__PEEL_BLOCKS_PER_SM blocks a multiprocessor (all resident at once),
   at most one a 256 vertices. *ran = 0 where
   the device has no cooperative launch (the caller then loops). */
static inline gclq_status gclq__graph_cores_coop(gclq__dev *c, gclq__dgraph *dg, gclq__dmem *deg, gclq__dmem *gone,
                                                 gclq__dmem *frontier, uint32_t *max_core, int *ran) {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  *ran = 0;
#ifdef GPUCLIQUE_TESTING
  if (gclq__peel_by_launches) return GCLQ_SUCCESS;
#endif
  GCLQ__CUDA_TRY(cudaGetDevice(&dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GCLQ__CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gclq__core_peel_kernel, GCLQ__BLOCK, 0));
  if (!coop || sms <= 0 || per_sm <= 0) return GCLQ_SUCCESS;
  if (GCLQ__PEEL_BLOCKS_PER_SM > 0 && per_sm > GCLQ__PEEL_BLOCKS_PER_SM) per_sm = GCLQ__PEEL_BLOCKS_PER_SM;
  gclq__dmem state(c);
  GCLQ__TRY(state.get(sizeof(gclq__peel_state)));
  gclq__peel_state *s = (gclq__peel_state *)state.p;
  gclq__peel_state init;
  memset(&init, 0, sizeof init);
  init.low[0] = 0xffffffffu;
  GCLQ__CUDA_TRY(cudaMemcpyAsync(s, &init, sizeof init, cudaMemcpyHostToDevice, c->stream));
  uint32_t n = dg->n;
  const uint64_t *off = dg->d_off;
  const uint32_t *nbr = dg->d_nbr;
  uint32_t *d = deg->as<uint32_t>(), *core = dg->d_core, *round = dg->d_round, *f = frontier->as<uint32_t>();
  uint8_t *g = gone->as<uint8_t>();
  void *args[] = {&n, &off, &nbr, &d, &g, &core, &round, &f, &s};
  uint64_t blocks = (uint64_t)sms * (uint64_t)per_sm;
  if (blocks > gclq__grid(n)) blocks = gclq__grid(n);
  GCLQ__CUDA_TRY(cudaLaunchCooperativeKernel((const void *)gclq__core_peel_kernel, dim3((unsigned)blocks),
                                             dim3(GCLQ__BLOCK), args, 0, c->stream));
  GCLQ__TRY(gclq__dev_read(c, max_core, &s->max_core, sizeof(uint32_t)));
  *ran = 1;
  return GCLQ_SUCCESS;
}

/* k-core numbers of every vertex into dg->d_core (Alg. 1); returns the largest.
   One cooperative launch where the device has it, else a launch pair and a
   read back a round. */
static inline gclq_status gclq__graph_cores(gclq__dev *c, gclq__dgraph *dg, uint32_t *max_core) {
  const uint32_t n = dg->n;
  uint32_t k = 0, left = n, info[2], best = 0, rounds = 0;
  int ran = 0;
  gclq__dmem deg(c), gone(c), frontier(c), d_info(c);
  GCLQ__TRY(deg.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gone.get(n));
  GCLQ__TRY(frontier.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(d_info.get(2 * sizeof(uint32_t)));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(deg.p, dg->d_deg, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, c->stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(gone.p, 0, n, c->stream));
  if (n > 0) GCLQ__TRY(gclq__graph_cores_coop(c, dg, &deg, &gone, &frontier, max_core, &ran));
  if (ran) return GCLQ_SUCCESS;
  while (left > 0) {
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0xff, 2 * sizeof(uint32_t), c->stream));
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0, sizeof(uint32_t), c->stream));
    gclq__core_filter_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(
        n, k, deg.as<uint32_t>(), dg->d_core, gone.as<uint8_t>(), frontier.as<uint32_t>(), d_info.as<uint32_t>(),
        dg->d_round, rounds);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__dev_read(c, info, d_info.p, sizeof info));
    if (info[0] == 0) { /* nobody left at k: jump to the smallest degree still present */
      k = info[1];
      continue;
    }
    best = k;
    left -= info[0];
    ++rounds;
    gclq__core_advance_kernel<<<gclq__grid((uint64_t)info[0] * 32), GCLQ__BLOCK, 0, c->stream>>>(
        frontier.as<uint32_t>(), info[0], dg->d_off, dg->d_nbr, deg.as<uint32_t>(), gone.as<uint8_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  *max_core = best;
  return GCLQ_SUCCESS;
}

/* The graph renamed by the order and oriented, on the device: vertex v
   becomes its rank (o->d_rank), so that "later in the order" is "larger
   id" (the join methods take the tail of a sorted list after a vertex as
   the vertices after it). The order is by (degree, id), or by (peeling
   round, id) when dg->d_round is set. From the uploaded graph dg (d_off,
   d_nbr, d_deg, d_round): o->d_off, o->d_out (out-lists, ascending), with
   `undirected` o->d_uoff, o->d_unbr (the undirected lists in rank ids,
   ascending; else NULL), o->m, o->max_out, o->d_rank, in the allocations
   given (held by the caller). Without `undirected` the orientation skips
   those lists' writes and their segmented sort (2m entries). */
struct gclq__doriented {
  uint64_t m;       /* oriented edges */
  uint32_t max_out; /* the largest out-degree */
  const uint32_t *d_rank;
  const uint64_t *d_off, *d_uoff;
  const uint32_t *d_out, *d_unbr;
};
static inline gclq_status gclq__graph_orient(gclq__dev *c, const gclq__dgraph *dg, int undirected, gclq__dmem *rank,
                                             gclq__dmem *ooff, gclq__dmem *oout, gclq__dmem *uoff, gclq__dmem *unbr,
                                             gclq__doriented *o) {
  const uint32_t n = dg->n;
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
    gclq__orient_keys_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(n, dg->d_deg, dg->d_round, k);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
      return gprim_radix_sort_keys(t, tb, (const uint64_t *)k, k, (size_t)n, 0, 64, false, stream);
    }));
    gclq__orient_rank_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(n, k, rank->as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    keys.release();
    gclq__orient_count_kernel<<<gclq__grid_warps(n), 32 * GCLQ__CWARPS, 0, stream>>>(
        n, dg->d_off, dg->d_nbr, rank->as<uint32_t>(), uo, oo, d_max.as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)oo, oo, (size_t)n + 1, gprim_op_sum(), (uint64_t)0, stream);
  }));
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)uo, uo, (size_t)n + 1, gprim_op_sum(), (uint64_t)0, stream);
  }));
  GCLQ__TRY(gclq__dev_read(c, &o->m, oo + n, sizeof(uint64_t)));
  GCLQ__TRY(gclq__dev_read(c, &total, uo + n, sizeof(uint64_t)));
  GCLQ__TRY(gclq__dev_read(c, &mo, d_max.p, sizeof(uint32_t)));
  o->max_out = mo;
  GCLQ__TRY(oout->get((size_t)(o->m > 0 ? o->m : 1) * sizeof(uint32_t)));
  if (undirected) GCLQ__TRY(unbr->get((size_t)(total > 0 ? total : 1) * sizeof(uint32_t)));
  if (n > 0) {
    uint32_t *on = oout->as<uint32_t>(), *un = undirected ? unbr->as<uint32_t>() : NULL;
    gclq__orient_write_kernel<<<gclq__grid_warps(n), 32 * GCLQ__CWARPS, 0, stream>>>(
        n, dg->d_off, dg->d_nbr, rank->as<uint32_t>(), uo, un, oo, on);
    GCLQ__CUDA_TRY(cudaGetLastError());
    if (o->m > 0)
      GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
        return gprim_segmented_sort_keys(t, tb, (const uint32_t *)on, on, (size_t)o->m, (size_t)n, (const uint64_t *)oo,
                                         stream);
      }));
    if (undirected && total > 0)
      GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
        return gprim_segmented_sort_keys(t, tb, (const uint32_t *)un, un, (size_t)total, (size_t)n,
                                         (const uint64_t *)uo, stream);
      }));
  }
  o->d_rank = rank->as<uint32_t>();
  o->d_off = oo;
  o->d_out = oout->as<uint32_t>();
  o->d_uoff = undirected ? uo : NULL;
  o->d_unbr = undirected ? unbr->as<uint32_t>() : NULL;
  return GCLQ_SUCCESS;
}

/* Core numbers on the current device (gclq_core_numbers' CUDA backend): the
   upload, then the peeling, on the default stream and allocator. */
static inline gclq_status gclq__graph_core_numbers(const gclq_graph *g, uint32_t *h_core, uint32_t *max_core) {
  gclq__dev c;
  gclq__dgraph dg;
  gclq_status st;
  gclq__dev_init(&c, NULL, NULL, ~(size_t)0);
  memset(&dg, 0, sizeof dg);
  c.phase = "cores";
  *max_core = 0;
  if (g->num_vertices == 0) return GCLQ_SUCCESS;
  {
    gclq__dmem off(&c), nbr(&c), deg(&c), core(&c);
    st = gclq__graph_upload(&c, g, &dg, &off, &nbr, &deg, &core);
    if (st == GCLQ_SUCCESS) st = gclq__graph_cores(&c, &dg, max_core);
    if (st == GCLQ_SUCCESS) st = gclq__dev_read(&c, h_core, dg.d_core, (size_t)dg.n * sizeof(uint32_t));
  }
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  return st;
}

/* The oriented graph of g on the device, as the k-clique, motif and
   prepared-graph runs take it: the upload, then (with_cores) the cores
   peeled, their rounds the order for DEGENERACY and *max_core the largest,
   then gclq__graph_orient (the undirected lists too when undirected) into
   the holders; the upload's blocks are freed on return. *upload_ms and
   *order_ms: the upload's wall time and the rest's. */
static inline gclq_status gclq__graph_oriented(gclq__dev *c, const gclq_graph *g, gclq_orient_by by, int with_cores,
                                               int undirected, gclq__dmem *rank, gclq__dmem *ooff, gclq__dmem *oout,
                                               gclq__dmem *uoff, gclq__dmem *unbr, gclq__doriented *o,
                                               uint32_t *max_core, double *upload_ms, double *order_ms) {
  gclq__dgraph dg;
  gclq__dmem off(c), nbr(c), deg(c), core(c), round(c);
  gclq__clock::time_point t0;
  memset(&dg, 0, sizeof dg);
  GCLQ__TRY(gclq__graph_upload(c, g, &dg, &off, &nbr, &deg, &core));
  *upload_ms = dg.upload_ms;
  t0 = gclq__clock::now(); /* the order's time starts from the device-resident graph */
  if (with_cores) {
    c->phase = "cores";
    if (by == GCLQ_ORIENT_BY_DEGENERACY) {
      GCLQ__TRY(round.get((size_t)dg.n * sizeof(uint32_t) + 4));
      dg.d_round = round.as<uint32_t>();
    }
    GCLQ__TRY(gclq__graph_cores(c, &dg, max_core));
  }
  core.release();
  c->phase = "orientation";
  GCLQ__TRY(gclq__graph_orient(c, &dg, undirected, rank, ooff, oout, uoff, unbr, o));
  GCLQ__CUDA_TRY(cudaStreamSynchronize(c->stream));
  *order_ms = gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* ---- the prepared device graph (gclq_graph_prepare) ----
   A context of its own (default stream and allocator, the caller's budget)
   and the oriented graph the k-clique and motif calls would build: upload,
   cores (their rounds for DEGENERACY), gclq__graph_orient with the
   undirected lists. The blocks are taken out of their gclq__dmem holders
   and held until gclq_prepared_free. */
#define GCLQ__PREP_BLOCKS 5 /* rank, oriented offsets and lists, undirected offsets and lists */
struct gclq_prepared_graph {
  gclq__dev c;
  uint32_t n;
  uint64_t num_edges;
  gclq_orient_by orientation;
  uint32_t max_core;
  gclq__doriented o;
  void *block[GCLQ__PREP_BLOCKS];
  size_t held[GCLQ__PREP_BLOCKS];
  double upload_ms, order_ms;
};

static inline void gclq__prepared_release(gclq_prepared_graph *pg) {
  int i;
  for (i = 0; i < GCLQ__PREP_BLOCKS; ++i)
    if (pg->block[i] != NULL) {
      gclq__device_free(&pg->c.allocator, pg->block[i], (gclq_stream)pg->c.stream);
      pg->c.used -= pg->held[i];
      pg->block[i] = NULL;
    }
  cudaStreamSynchronize(pg->c.stream);
  cudaGetLastError();
}

/* The build into pg (its context set up: gclq__graph_oriented with the
   cores and the undirected lists); on failure nothing is held. */
static inline gclq_status gclq__prepared_build(gclq_prepared_graph *pg, const gclq_graph *g) {
  gclq__dev *c = &pg->c;
  gclq__dmem rank(c), ooff(c), oout(c), uoff(c), unbr(c);
  gclq__dmem *keep[GCLQ__PREP_BLOCKS] = {&rank, &ooff, &oout, &uoff, &unbr};
  int i;
  if (g->num_vertices == 0) return GCLQ_SUCCESS; /* nothing to hold: no edge, no list */
  c->phase = "prepare: upload";
  GCLQ__TRY(gclq__graph_oriented(c, g, pg->orientation, 1, 1, &rank, &ooff, &oout, &uoff, &unbr, &pg->o,
                                 &pg->max_core, &pg->upload_ms, &pg->order_ms));
  for (i = 0; i < GCLQ__PREP_BLOCKS; ++i) { /* held by pg from here on */
    pg->block[i] = keep[i]->p, pg->held[i] = keep[i]->held;
    keep[i]->p = NULL, keep[i]->held = 0;
  }
  return GCLQ_SUCCESS;
}

/* Is pg the prepared form of g (its vertex and edge counts)? */
static inline int gclq__prepared_of(const gclq_prepared_graph *pg, const gclq_graph *g) {
  return pg->n == g->num_vertices && pg->num_edges == g->num_edges;
}
