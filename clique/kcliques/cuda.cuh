/* clique/kcliques/cuda.cuh - the CUDA backend of gclq_kcliques: the graph
   oriented on the device (by the graph module), the counters read back, each method's launches
   (BITSET, PIVOT, LFTJ, LEVEL_JOIN, GROUPED; their kernels are
   clique/kcliques/<method>.cuh), and the run (upload, cores, orientation,
   counting; listing by the host ORDERED pass over the same orientation). */
/* The oriented graph o into d, for the methods. */
static inline void gclq__kc_take(gclq__kc_dev *d, const gclq__doriented *o) {
  d->m = o->m;
  d->max_out = o->max_out;
  d->d_rank = o->d_rank;
  d->d_off = o->d_off;
  d->d_out = o->d_out;
  d->d_uoff = o->d_uoff;
  d->d_unbr = o->d_unbr;
}

/* The oriented graph into d: the prepared one (gclq_graph_prepare, made
   from g with the call's orientation, else INVALID_ARGUMENT), or
   gclq__graph_oriented into the holders (the undirected lists when PIVOT
   asks for them); *order_ms the cores' and the orientation's time (0 when
   prepared). */
static inline gclq_status gclq__kc_cuda_graph(gclq__kc_dev *d, const gclq_kclique_options *p, const gclq_graph *g,
                                              int undirected, gclq__dmem *rank, gclq__dmem *ooff, gclq__dmem *oout,
                                              gclq__dmem *uoff, gclq__dmem *unbr, double *order_ms) {
  const gclq_prepared_graph *pg = p->prepared;
  gclq__doriented o;
  double upload_ms;
  *order_ms = 0;
  if (pg != NULL) {
    if (pg->orientation != p->orientation || !gclq__prepared_of(pg, g)) return GCLQ_ERROR_INVALID_ARGUMENT;
    gclq__kc_take(d, &pg->o);
    d->max_core = pg->max_core;
    return GCLQ_SUCCESS;
  }
  GCLQ__TRY(gclq__graph_oriented(d->c, g, p->orientation, 1, undirected, rank, ooff, oout, uoff, unbr, &o,
                                 &d->max_core, &upload_ms, order_ms));
  gclq__kc_take(d, &o);
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
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(d->c, cnt, d->d_count, entries * sizeof(unsigned long long));
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(d->c, flags, d->d_flags, entries * sizeof(unsigned int));
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
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(d->c, by_rank, d->d_per_vertex, (size_t)d->n * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(d->c, flags, d->d_pv_flags, (size_t)d->n * sizeof(unsigned int));
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(d->c, rank, d->d_rank, (size_t)d->n * sizeof(uint32_t));
  for (uint32_t v = 0; st == GCLQ_SUCCESS && v < d->n; ++v)
    h[v] = flags[rank[v]] ? UINT64_MAX : by_rank[rank[v]];
  GCLQ_FREE(flags);
  GCLQ_FREE(by_rank);
  GCLQ_FREE(rank);
  return st;
}

/* ---- BITSET (kernels: clique/kcliques/bitset.cuh) ---- */
/* The sources kept (out-degree at least dmin) in id order: kv their ids, kd
   their out-degrees, h_off the oriented offsets on the host; *stride the
   largest stack area, *one the largest one-source window's bytes. Arrays
   GCLQ_MALLOC'd (n + 1 entries); the caller frees them either way. */
static inline gclq_status gclq__kcb_sources(gclq__kc_dev *d, uint64_t **h_off, uint32_t **kv, uint32_t **kd,
                                            uint32_t *ns, uint64_t *stride, uint64_t *one) {
  const uint32_t dmin = d->k == 0 ? 2 : d->k - 1;
  *ns = 0;
  *stride = 0;
  *one = 0;
  *h_off = (uint64_t *)GCLQ_MALLOC(((size_t)d->n + 1) * sizeof(uint64_t));
  *kv = (uint32_t *)GCLQ_MALLOC(((size_t)d->n + 1) * sizeof(uint32_t));
  *kd = (uint32_t *)GCLQ_MALLOC(((size_t)d->n + 1) * sizeof(uint32_t));
  if (*h_off == NULL || *kv == NULL || *kd == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ__TRY(gclq__dev_read(d->c, *h_off, d->d_off, ((size_t)d->n + 1) * sizeof(uint64_t)));
  for (uint32_t v = 0; v < d->n; ++v) {
    const uint64_t deg = (*h_off)[v + 1] - (*h_off)[v];
    if (deg < dmin) continue;
    (*kv)[*ns] = v;
    (*kd)[*ns] = (uint32_t)deg;
    ++*ns;
    const uint64_t w = gclq__kcb_area_words(d->k, d->top, (uint32_t)deg);
    if (w > *stride) *stride = w;
    const uint64_t b = gclq__kcb_window_bytes(1, deg * gclq__bwords((uint32_t)deg));
    if (b > *one) *one = b;
  }
  return GCLQ_SUCCESS;
}

/* The count kernel's grid and stack: shared memory when a block's areas fit
   GCLQ__KCB_SMEM_BYTES (*smem its bytes), else a global stack of *blocks
   blocks' areas (gclq__kcb_stack_blocks) that leaves room for the largest
   one-source window (`one` bytes). */
static inline gclq_status gclq__kcb_stack(gclq__kc_dev *d, uint64_t stride, uint64_t one, gclq__dmem *stack,
                                          unsigned *blocks, size_t *smem) {
  gclq__dev *c = d->c;
  int dev = 0, sms = 0;
  GCLQ__CUDA_TRY(cudaGetDevice(&dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const uint64_t block_bytes = stride * sizeof(uint32_t) * GCLQ__CWARPS;
  *smem = 0;
  if (block_bytes <= GCLQ__KCB_SMEM_BYTES) {
    *smem = (size_t)block_bytes;
    *blocks = (unsigned)sms * 16u;
    return GCLQ_SUCCESS;
  }
  const uint64_t room = c->used < c->budget ? c->budget - c->used : 0;
  const uint64_t fit = gclq__kcb_stack_blocks(room, one + GCLQ__KCB_SLACK, block_bytes, (uint64_t)sms * 8u);
  if (fit == 0) return GCLQ_ERROR_OUT_OF_MEMORY;
  *blocks = (unsigned)fit;
  return stack->get((size_t)(fit * block_bytes));
}

/* Count one window, kept sources [from, end): its table (tab, host, filled
   here), rows, then the count kernel over its units. */
static inline gclq_status gclq__kcb_window(gclq__kc_dev *d, gclq__kcb_args a, const uint64_t *h_off, const uint32_t *kv,
                                           const uint32_t *kd, uint32_t from, uint32_t end, gclq__kcb_src *tab,
                                           void *dwin, unsigned blocks, size_t smem) {
  cudaStream_t stream = d->c->stream;
  uint64_t units = 0, words = 0;
  for (uint32_t p = from; p < end; ++p) {
    gclq__kcb_src e;
    e.unit = units;
    e.aoff = words;
    e.loff = h_off[kv[p]];
    e.v = kv[p];
    e.d = kd[p];
    tab[p - from] = e;
    units += kd[p];
    words += (uint64_t)kd[p] * gclq__bwords(kd[p]);
  }
  const uint64_t table = gclq__kcb_window_bytes(end - from, 0);
  a.src = (const gclq__kcb_src *)dwin;
  a.ns = end - from;
  a.units = units;
  a.adj = (const uint32_t *)((char *)dwin + table);
  GCLQ__CUDA_TRY(cudaMemcpyAsync(dwin, tab, (size_t)(end - from) * sizeof(gclq__kcb_src), cudaMemcpyHostToDevice, stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(a.next, 0, sizeof(unsigned long long), stream));
  gclq__kcb_rows_kernel<<<gclq__grid_warps(units), 32 * GCLQ__CWARPS, 0, stream>>>(
      a.src, a.ns, units, d->d_off, a.out, (uint32_t *)((char *)dwin + table));
  GCLQ__CUDA_TRY(cudaGetLastError());
  if (a.k == 3) {
    const uint64_t want = (units + 32 * GCLQ__CWARPS - 1) / (32 * GCLQ__CWARPS);
    gclq__kcb_three_kernel<<<want < blocks ? (unsigned)want : blocks, 32 * GCLQ__CWARPS, 0, stream>>>(a);
  } else {
    const uint64_t want = gclq__grid_warps(units);
    gclq__kcb_count_kernel<<<want < blocks ? (unsigned)want : blocks, 32 * GCLQ__CWARPS, smem, stream>>>(a);
  }
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* The windows over kept sources (out-degrees kd[0, ns)) and their largest
   bytes, in the room left; GCLQ_ERROR_OUT_OF_MEMORY when one source does not
   fit. */
static inline gclq_status gclq__kcb_plan(gclq__kc_dev *d, const uint32_t *kd, uint32_t ns, uint32_t *windows,
                                         uint64_t *bytes) {
  gclq__dev *c = d->c;
  const uint64_t room = c->used < c->budget && c->budget - c->used > GCLQ__KCB_SLACK
                            ? c->budget - c->used - GCLQ__KCB_SLACK
                            : 0;
  *windows = 0;
  *bytes = 0;
  for (uint32_t from = 0; from < ns;) {
    const uint32_t end = gclq__kcb_window_end(kd, ns, from, room);
    if (end == from) return GCLQ_ERROR_OUT_OF_MEMORY;
    uint64_t words = 0;
    for (uint32_t p = from; p < end; ++p) words += (uint64_t)kd[p] * gclq__bwords(kd[p]);
    const uint64_t b = gclq__kcb_window_bytes(end - from, words);
    if (b > *bytes) *bytes = b;
    ++*windows;
    from = end;
  }
  return GCLQ_SUCCESS;
}

/* The counts of the method (see the file's header). */
static inline gclq_status gclq__kcb_count(gclq__kc_dev *d, const uint64_t *h_off, const uint32_t *kv,
                                          const uint32_t *kd, uint32_t ns, uint64_t stride, uint64_t one,
                                          gclq__kcb_src *tab) {
  gclq__dev *c = d->c;
  gclq__dmem counters(c), stack(c), win(c);
  gclq__kcb_args a;
  unsigned blocks = 0;
  size_t smem = 0;
  uint32_t windows = 0;
  uint64_t bytes = 0, nodes = 0;
  memset(&a, 0, sizeof a);
  GCLQ__TRY(counters.get(2 * sizeof(unsigned long long)));
  GCLQ__CUDA_TRY(cudaMemsetAsync(counters.p, 0, 2 * sizeof(unsigned long long), c->stream));
  if (d->k == 0) {
    gclq__kcb_edges_kernel<<<1, 32, 0, c->stream>>>(d->d_count, d->d_flags, (unsigned long long)d->m);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  if (ns == 0) return GCLQ_SUCCESS;
  GCLQ__TRY(gclq__kcb_stack(d, stride, one, &stack, &blocks, &smem));
  GCLQ__TRY(gclq__kcb_plan(d, kd, ns, &windows, &bytes));
  GCLQ__TRY(win.get((size_t)bytes));
  a.out = d->d_out;
  a.k = d->k;
  a.top = d->top;
  a.stride = stride;
  a.stack = stack.as<uint32_t>();
  a.count = d->d_count;
  a.flags = d->d_flags;
  a.pv = d->d_per_vertex;
  a.pvf = d->d_pv_flags;
  a.next = counters.as<unsigned long long>();
  a.nodes = counters.as<unsigned long long>() + 1;
  windows = 0;
  for (uint32_t from = 0; from < ns; ++windows) { /* cut again in the bytes held: no more windows than planned */
    const uint32_t end = gclq__kcb_window_end(kd, ns, from, bytes);
    GCLQ__TRY(gclq__kcb_window(d, a, h_off, kv, kd, from, end, tab + from, win.p, blocks, smem));
    from = end;
  }
  GCLQ__TRY(gclq__dev_read(c, &nodes, a.nodes, sizeof nodes));
  for (uint32_t p = 0; d->k == 3 && p < ns; ++p) nodes += kd[p]; /* the units: the triangle kernel counts none */
  d->nodes = nodes;
  if (stack.p != NULL) d->method_note = windows > 1 ? "bitset: windows, stack in global memory" : "bitset: stack in global memory";
  else d->method_note = windows > 1 ? "bitset: windows" : "bitset";
  return GCLQ_SUCCESS;
}

/* GCLQ_KCLIQUE_BITSET (see the file's header). */
static inline gclq_status gclq__kc_cuda_bitset(gclq__kc_dev *d) {
  uint64_t *h_off = NULL, stride = 0, one = 0;
  uint32_t *kv = NULL, *kd = NULL, ns = 0;
  gclq__kcb_src *tab = NULL;
  gclq_status st = gclq__kcb_sources(d, &h_off, &kv, &kd, &ns, &stride, &one);
  if (st == GCLQ_SUCCESS) {
    tab = (gclq__kcb_src *)GCLQ_MALLOC(((size_t)ns + 1) * sizeof(gclq__kcb_src));
    if (tab == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) st = gclq__kcb_count(d, h_off, kv, kd, ns, stride, one, tab);
  if (cudaStreamSynchronize(d->c->stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA; /* tab read */
  GCLQ_FREE(h_off);
  GCLQ_FREE(kv);
  GCLQ_FREE(kd);
  GCLQ_FREE(tab);
  return st;
}

/* ---- PIVOT (kernels: clique/kcliques/pivot.cuh) ---- */
/* Host buffers of a run, freed with it. */
struct gclq__kcp_host {
  uint64_t *off, *pre;
  uint64_t *table; /* the binomials (one k) or the tally (every size); the device's are unsigned long long */
  gclq__kcp_host() : off(NULL), pre(NULL), table(NULL) {}
  ~gclq__kcp_host() {
    GCLQ_FREE(off);
    GCLQ_FREE(pre);
    GCLQ_FREE(table);
  }
};

/* The end of the window that starts at source a: what fits in cap, or in
   room for a source larger than cap; a when it does not fit in room. */
static inline uint32_t gclq__kcp_next_window(const uint64_t *pre, uint32_t n, uint32_t a, uint64_t cap, uint64_t room) {
  const uint32_t b = gclq__kcp_window_end(pre, n, a, cap);
  return b > a ? b : gclq__kcp_window_end(pre, n, a, room);
}

/* The largest window (gclq__kcp_next_window's), at least 32 bytes; 0 when a
   source does not fit in room. */
static inline uint64_t gclq__kcp_windows_max(const uint64_t *pre, uint32_t n, uint64_t cap, uint64_t room) {
  uint64_t most = 32;
  for (uint32_t a = 0; a < n;) {
    const uint32_t b = gclq__kcp_next_window(pre, n, a, cap, room);
    if (b == a) return 0;
    const uint64_t bytes = gclq__kcp_window_bytes(pre, a, b);
    if (bytes > most) most = bytes;
    a = b;
  }
  return most;
}

/* What the budget's room holds: warp slots (their stacks), windows, and the
   stack of handed-on tasks. */
struct gclq__kcp_plan {
  uint64_t slots, stack_bytes; /* 64 slots per multiprocessor, at most a quarter of the room (at least 1) */
  uint64_t cap, most;          /* windows: at most half of what the stacks leave (a larger source: all of it) */
  uint64_t queue, stride;      /* records of the task stack (0: tasks are never split), words per record:
                                  what is left, at most GCLQ__KCP_QUEUE_BYTES */
};
static inline int gclq__kcp_plan_room(gclq__kcp_plan *pl, const uint64_t *pre, uint32_t n, uint32_t max_out, int ids,
                                      uint64_t room, uint64_t sms) {
  pl->stack_bytes = 4 * gclq__kcp_layout(max_out).words;
  pl->stride = gclq__kcp_task_words(max_out, ids);
  if (pl->stack_bytes > room) return 0;
  pl->slots = 64 * sms;
  if (pl->slots * pl->stack_bytes > room / 4) pl->slots = room / 4 / pl->stack_bytes;
  if (pl->slots == 0) pl->slots = 1;
  room -= pl->slots * pl->stack_bytes;
  pl->cap = room / 2 < GCLQ__KCP_WINDOW_BYTES ? room / 2 : GCLQ__KCP_WINDOW_BYTES;
  pl->most = gclq__kcp_windows_max(pre, n, pl->cap, room);
  if (pl->most == 0) return 0;
  room -= pl->most;
  pl->queue = (room < GCLQ__KCP_QUEUE_BYTES ? room : GCLQ__KCP_QUEUE_BYTES) / (4 * pl->stride);
  return 1;
}

/* After a round that took the top m of the task stack's `top` records and
   pushed s records above them ([top, top + s)): the newest min(s, m) of
   those move down into the hole [top - m, ...) (*from, *to: record
   indices, *moved records; no overlap). Returns the stack's new top. */
static __host__ __device__ inline uint64_t gclq__kcp_settle(uint64_t top, uint64_t m, uint64_t s, uint64_t *from,
                                                            uint64_t *to, uint64_t *moved) {
  *moved = s < m ? s : m;
  *from = top + s - *moved;
  *to = top - m;
  return top - m + s;
}

/* The rounds of one window until every source's tree is walked and the
   task stack (stack: plan.queue records) is empty. */
static inline gclq_status gclq__kcp_rounds(gclq__kc_dev *d, gclq__kcp_args *args, const gclq__kcp_plan *pl,
                                           uint32_t *stack) {
  gclq__dev *c = d->c;
  gclq__kcp_round q;
  gclq__kcp_misc got;
  gclq__clock::time_point said = gclq__clock::now();
  uint64_t per_round = GCLQ__KCP_ROUND_TASKS * pl->slots, bytes = 4 * pl->stride;
  uint64_t top = 0, waiting_most = 0, widest = 0, rate = 1;
  uint32_t round = 0, next = 0;
  memset(&q, 0, sizeof q);
  q.stride = pl->stride;
  q.spill_after = GCLQ__KCP_SPILL_NODES;
#ifdef GPUCLIQUE_TESTING
  if (gclq__kcp_spill_nodes != 0) q.spill_after = gclq__kcp_spill_nodes;
  if (gclq__kcp_round_tasks != 0) per_round = gclq__kcp_round_tasks;
#endif
  while (top > 0 || next < args->ns) {
    /* the tasks whose hand-ons fit twice over the top, at the last round's
       records a task (the first round: a task a slot) */
    uint64_t take = round == 0 ? pl->slots : (pl->queue - top) / (2 * rate);
    if (take < pl->slots) take = pl->slots;
    if (take > per_round) take = per_round;
    const uint64_t m = top < take ? top : take;
    const uint64_t ns = args->ns - next < take - m ? args->ns - next : take - m;
    q.in = stack + (top - m) * pl->stride;
    q.n_in = (uint32_t)m, q.src = next, q.n_src = (uint32_t)ns;
    q.out = stack + top * pl->stride;
    q.cap = pl->queue - top;
    q.warps = (uint32_t)(pl->slots < m + ns ? pl->slots : m + ns);
    GCLQ__CUDA_TRY(cudaMemsetAsync(&args->misc->spilled, 0, sizeof(unsigned long long) + 2 * sizeof(unsigned int),
                                   c->stream));
    gclq__kcp_walk_kernel<<<gclq__grid_warps(q.warps), 32 * GCLQ__CWARPS, 0, c->stream>>>(*args, q);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__dev_read(c, &got, args->misc, sizeof got));
    const uint64_t s = got.spilled < q.cap ? got.spilled : q.cap;
    if (got.widest > widest) widest = got.widest;
    rate = (s + m + ns - 1) / (m + ns); /* records a task, rounded up */
    if (rate == 0) rate = 1;
    uint64_t from, to, moved;
    top = gclq__kcp_settle(top, m, s, &from, &to, &moved);
    if (moved > 0)
      GCLQ__CUDA_TRY(cudaMemcpyAsync(stack + to * pl->stride, stack + from * pl->stride, (size_t)(moved * bytes),
                                     cudaMemcpyDeviceToDevice, c->stream));
    next += (uint32_t)ns;
    ++round;
    if (top > waiting_most) waiting_most = top;
    if (c->log != NULL && gclq__ms_since(said) >= 2000.0) { /* progress of a long run */
      char line[240];
      snprintf(line, sizeof line,
               "pivot: sources %u..%u of %u, %u from their roots; round %u: %llu tasks waiting (at most %llu; "
               "%llu levels in one hand-on), %llu nodes so far",
               args->first, args->first + args->ns - 1, d->n, next, round, (unsigned long long)top,
               (unsigned long long)waiting_most, (unsigned long long)widest, got.nodes);
      c->log(c->log_user, line);
      said = gclq__clock::now();
    }
  }
  return GCLQ_SUCCESS;
}

/* Every source's tree, window by window (args set but for the window). */
static inline gclq_status gclq__kcp_run_windows(gclq__kc_dev *d, gclq__kcp_args *args, const uint64_t *h_off,
                                                const uint64_t *pre, uint64_t room) {
  gclq__dev *c = d->c;
  const uint32_t n = d->n;
  gclq__kcp_plan pl;
  gclq__dmem win(c), stacks(c), tasks(c);
  int device = 0, sms = 1;
  if (n == 0) return GCLQ_SUCCESS;
  GCLQ__CUDA_TRY(cudaGetDevice(&device));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (!gclq__kcp_plan_room(&pl, pre, n, d->max_out, args->pv != NULL, room, (uint64_t)sms))
    return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ__TRY(stacks.get((size_t)(pl.slots * pl.stack_bytes)));
  GCLQ__TRY(win.get((size_t)pl.most));
  if (pl.queue > 0) GCLQ__TRY(tasks.get((size_t)(pl.queue * pl.stride * 4)));
  args->stacks = stacks.as<uint32_t>();
  for (uint32_t a = 0; a < n;) {
    const uint32_t b = gclq__kcp_next_window(pre, n, a, pl.cap, room - pl.slots * pl.stack_bytes);
    const uint64_t head = ((uint64_t)8 * (b - a + 1) + 31) / 32 * 32, rows = h_off[b] - h_off[a];
    GCLQ__CUDA_TRY(cudaMemcpyAsync(win.p, pre + a, (size_t)(b - a + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice,
                                   c->stream));
    args->first = a;
    args->ns = b - a;
    args->soff = win.as<uint64_t>();
    args->scratch = (uint32_t *)(win.as<char>() + head);
    if (rows > 0) {
      gclq__kcp_rows_kernel<<<gclq__grid_warps(rows), 32 * GCLQ__CWARPS, 0, c->stream>>>(*args, rows);
      GCLQ__CUDA_TRY(cudaGetLastError());
    }
    GCLQ__TRY(gclq__kcp_rounds(d, args, &pl, tasks.as<uint32_t>()));
    a = b;
  }
  return GCLQ_SUCCESS;
}

/* GCLQ_KCLIQUE_PIVOT on the device (see the file's header). */
static inline gclq_status gclq__kc_cuda_pivot(gclq__kc_dev *d) {
  gclq__dev *c = d->c;
  const uint32_t n = d->n;
  const uint64_t entries = d->k != 0 ? ((uint64_t)d->max_out + 2) * (d->k + 1) : gclq__kc_tally_entries(d->top);
  gclq__dmem table(c), misc(c);
  gclq__kcp_host h;
  gclq__kcp_args args;
  gclq__kcp_misc got;
  memset(&args, 0, sizeof args);
  GCLQ__TRY(misc.get(sizeof(gclq__kcp_misc)));
  GCLQ__TRY(table.get((size_t)entries * sizeof(unsigned long long)));
  GCLQ__CUDA_TRY(cudaMemsetAsync(misc.p, 0, sizeof(gclq__kcp_misc), c->stream));
  h.off = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  h.pre = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  h.table = (uint64_t *)gclq__alloc_array(entries, sizeof(uint64_t));
  if (h.off == NULL || h.pre == NULL || h.table == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (d->k != 0) { /* the binomials C(p, j), p <= max_out + 1, j <= k */
    gclq__kc_pascal(h.table, d->max_out + 2, d->k + 1);
    GCLQ__CUDA_TRY(cudaMemcpyAsync(table.p, h.table, (size_t)entries * sizeof(unsigned long long),
                                   cudaMemcpyHostToDevice, c->stream));
  } else {
    GCLQ__CUDA_TRY(cudaMemsetAsync(table.p, 0, (size_t)entries * sizeof(unsigned long long), c->stream));
  }
  GCLQ__TRY(gclq__dev_read(c, h.off, d->d_off, ((size_t)n + 1) * sizeof(uint64_t)));
  h.pre[0] = 0;
  for (uint32_t v = 0; v < n; ++v) h.pre[v + 1] = h.pre[v] + gclq__kcp_adj_words((uint32_t)(h.off[v + 1] - h.off[v]));
  args.off = d->d_off, args.out = d->d_out, args.uoff = d->d_uoff, args.unbr = d->d_unbr;
  args.max_out = d->max_out, args.k = d->k, args.top = d->top;
  args.binom = d->k != 0 ? table.as<unsigned long long>() : NULL;
  args.tally = d->k != 0 ? NULL : table.as<unsigned long long>();
  args.count = d->d_count, args.flags = d->d_flags, args.pv = d->d_per_vertex, args.pvf = d->d_pv_flags;
  args.misc = misc.as<gclq__kcp_misc>();
  const size_t margin = 4096; /* the allocator's rounding */
  const uint64_t room = c->budget > c->used + margin ? c->budget - c->used - margin : 0;
  GCLQ__TRY(gclq__kcp_run_windows(d, &args, h.off, h.pre, room));
  GCLQ__TRY(gclq__dev_read(c, &got, misc.p, sizeof got));
  d->nodes = got.nodes;
  if (d->k != 0) return GCLQ_SUCCESS;
  d->deepest = got.deepest;
  GCLQ__TRY(gclq__dev_read(c, h.table, table.p, (size_t)entries * sizeof(unsigned long long)));
  return gclq__kc_combine(h.table, d->top, got.tally_flag != 0, d->h_count) ? GCLQ_SUCCESS
                                                                           : GCLQ_ERROR_OUT_OF_MEMORY;
}

/* ---- LFTJ (kernels: clique/kcliques/lftj.cuh) ---- */
/* k-cliques by LFTJ: k = 3 and 4 unrolled, the general path otherwise
   (windows of first values when the threads' scratch does not fit). */
static inline gclq_status gclq__kc_cuda_lftj(gclq__kc_dev *d) {
  gclq__dev *c = d->c;
  gclq__kc_lftj_args a;
  gclq__dmem d_nodes(c), scratch(c);
  unsigned long long nodes = 0;
  memset(&a, 0, sizeof a);
  a.off = d->d_off;
  a.out = d->d_out;
  a.n = d->n;
  a.k = d->k;
  a.top = d->top;
  a.count = d->d_count;
  a.flags = d->d_flags;
  a.pv = d->d_per_vertex;
  a.pvf = d->d_pv_flags;
  if (d->k == 0 && d->top >= 2) /* every size: the 2-cliques are the edges */
    d->h_count[2] = d->h_count[2] > UINT64_MAX - d->m ? UINT64_MAX : d->h_count[2] + d->m;
  if (d->n == 0 || d->m == 0 || (d->k == 0 && d->top < 3)) return GCLQ_SUCCESS;
  GCLQ__TRY(d_nodes.get(sizeof(unsigned long long)));
  a.nodes = d_nodes.as<unsigned long long>();
  GCLQ__CUDA_TRY(cudaMemsetAsync(a.nodes, 0, sizeof(unsigned long long), c->stream));
  if (d->k == 3 || d->k == 4) {
    const unsigned blocks = (unsigned)(((uint64_t)d->n + GCLQ__KC_LFTJ_BLOCK - 1) / GCLQ__KC_LFTJ_BLOCK);
    if (d->k == 3)
      gclq__kc_lftj3_kernel<<<blocks, GCLQ__KC_LFTJ_BLOCK, 0, c->stream>>>(a);
    else
      gclq__kc_lftj4_kernel<<<blocks, GCLQ__KC_LFTJ_BLOCK, 0, c->stream>>>(a);
    GCLQ__CUDA_TRY(cudaGetLastError());
  } else {
    const size_t slack = 4096; /* the allocator's rounding */
    const size_t left = c->budget > c->used + slack ? c->budget - c->used - slack : 0;
    a.deepest = d->k != 0 ? d->k - 2 : d->top - 1;
    a.words = gclq__kc_lftj_thread_words(d->max_out, d->k, d->top, a.deepest);
    if (a.words > 0xffffffffull) return GCLQ_ERROR_OUT_OF_MEMORY; /* list starts are 32-bit */
    a.threads = gclq__kc_lftj_threads(left, a.words * sizeof(uint32_t), d->n);
    if (a.threads == 0) return GCLQ_ERROR_OUT_OF_MEMORY;
    GCLQ__TRY(scratch.get((size_t)(a.threads * a.words * sizeof(uint32_t))));
    a.scratch = scratch.as<uint32_t>();
    const unsigned blocks = (unsigned)((a.threads + GCLQ__KC_LFTJ_BLOCK - 1) / GCLQ__KC_LFTJ_BLOCK);
    gclq__kc_lftj_general_kernel<<<blocks, GCLQ__KC_LFTJ_BLOCK, 0, c->stream>>>(a);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  GCLQ__TRY(gclq__dev_read(c, &nodes, a.nodes, sizeof nodes));
  d->nodes += nodes;
  return GCLQ_SUCCESS;
}

/* ---- LEVEL_JOIN (kernels: clique/kcliques/level_join.cuh) ---- */
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
  int halve;   /* a deeper level has run out of room: from then on a window of several parents
                  materialises a level in at most half the room left, so that the levels below find
                  room and the windows above need not run again (each time they do, all they had
                  counted is thrown away) */
};

/* Whether bytes more (rounded, with a margin for the primitives' temporary
   storage) fit the budget now. */
static inline int gclq__kc_lj_fits(const gclq__dev *c, uint64_t bytes) {
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
  gclq__dev *c = d->c;
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

/* The children (ids, nc of them) that have candidates (scan: their
   candidate counts, scanned), in order, into kept; *nk of them. */
static gclq_status gclq__kc_lj_kept(gclq__dev *c, const uint32_t *ids, uint64_t nc, const uint64_t *scan, gclq__dmem *kept,
                                    size_t *nk) {
  gclq__kc_lj_has_cands pred = {scan};
  gclq__dmem num(c);
  GCLQ__TRY(kept->get((size_t)nc * sizeof(uint32_t)));
  GCLQ__TRY(num.get(sizeof(size_t)));
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_select_if(t, tb, ids, kept->as<uint32_t>(), num.as<size_t>(), (size_t)nc, pred, c->stream);
  }));
  return gclq__dev_read(c, nk, num.p, sizeof *nk);
}

/* One step over the parents [p0, p1) of level L (nc children): expansion,
   counts, scan; the last step counts, the others materialise level L + 1
   and go on from it. GCLQ_ERROR_OUT_OF_MEMORY when its memory does not
   fit: nothing was counted unless r->counted is set (a deeper level failed). */
static gclq_status gclq__kc_lj_step(gclq__kc_lj_run *r, uint32_t L, uint64_t p0, uint64_t p1, uint64_t nc) {
  gclq__kc_dev *d = r->d;
  gclq__dev *c = d->c;
  const uint64_t np = p1 - p0;
  const int last = d->k != 0 && L + 1 == d->k - 1;
  gclq__dmem rel(c), par(c), rank(c), scan(c), ids(c), kept(c);
  gclq__kc_lj_children ch;
  uint64_t total = 0;
  GCLQ__TRY(rel.get((size_t)np * sizeof(uint32_t)));
  GCLQ__TRY(par.get((size_t)nc * sizeof(uint32_t)));
  GCLQ__TRY(rank.get((size_t)nc * sizeof(uint32_t)));
  GCLQ__TRY(scan.get(((size_t)nc + 1) * sizeof(uint64_t)));
  gclq__kc_lj_rel_kernel<<<(unsigned)((np + GCLQ__KC_LJ_BLOCK - 1) / GCLQ__KC_LJ_BLOCK), GCLQ__KC_LJ_BLOCK, 0,
                           c->stream>>>(r->lv[L].coff, p0, np, rel.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
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
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)cnt, cnt, (size_t)nc + 1, gprim_op_sum(), (uint64_t)0,
                                c->stream);
  }));
  GCLQ__TRY(gclq__dev_read(c, &total, cnt + nc, sizeof total));
  if (last) { /* the k-cliques, counted */
    if (d->d_per_vertex != NULL && total > 0) GCLQ__TRY(gclq__kc_lj_per_vertex(r, ch, nc, cnt, L));
    gclq__kc_lj_add(&d->h_count[d->k], total);
    if (nc * sizeof(uint64_t) > r->level_bytes[L + 1]) r->level_bytes[L + 1] = nc * sizeof(uint64_t);
    return GCLQ_SUCCESS;
  }
  size_t nk = 0;
  GCLQ__TRY(gclq__kc_lj_kept(c, ids.as<uint32_t>(), nc, cnt, &kept, &nk));
  ids.release();
  if (nk == 0) return GCLQ_SUCCESS;
  /* level L + 1; once a deeper level has run out of room, in at most half
     the room left (see the struct; an even share among the levels to come
     splits deep levels that need little: bench/results/kcliques_level_join_budgets.md) */
  const uint64_t bytes = gclq__kc_lj_level_bytes(nk, total);
  const uint64_t room = c->used <= c->budget ? c->budget - c->used : 0;
  if (!gclq__kc_lj_fits(c, bytes) || (r->halve && np > 1 && bytes > room / 2)) return GCLQ_ERROR_OUT_OF_MEMORY;
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
  gclq__kc_lj_level next = {nk, vert.as<uint32_t>(), npar.as<uint32_t>(), coff.as<uint64_t>(), cand.as<uint32_t>()};
  r->lv[L + 1] = next;
  gclq_status st = gclq__kc_lj_extend(r, L + 1, 0, nk);
  memset(&r->lv[L + 1], 0, sizeof r->lv[L + 1]);
  if (st != GCLQ_SUCCESS) r->counted = 1; /* counts were added: no window may run again */
  if (st == GCLQ_ERROR_OUT_OF_MEMORY) r->halve = 1;
  return st;
}

/* Level L's parents [p0, p1) extended to the end: their children counted
   (every size) and stepped; when a step's memory does not fit, the two
   halves of the window one after the other. */
static gclq_status gclq__kc_lj_extend(gclq__kc_lj_run *r, uint32_t L, uint64_t p0, uint64_t p1) {
  gclq__kc_dev *d = r->d;
  gclq__dev *c = d->c;
  uint64_t a = 0, b = 0;
  if (p0 >= p1) return GCLQ_SUCCESS;
  GCLQ__TRY(gclq__dev_read(c, &a, r->lv[L].coff + p0, sizeof a));
  GCLQ__TRY(gclq__dev_read(c, &b, r->lv[L].coff + p1, sizeof b));
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

/* ---- GROUPED (kernels: clique/kcliques/grouped.cuh) ---- */
/* The device buffers of the grouped extension (the arena, a launch's
   control words) and the counts gathered on the host. */
struct gclq__kg_bufs {
  gclq__dmem arena, ctl;
  uint64_t arena_words;
  uint64_t *count; /* top + 1 entries, saturated: UINT64_MAX when wrapped */
  explicit gclq__kg_bufs(gclq__dev *c) : arena(c), ctl(c), arena_words(0), count(NULL) {}
  ~gclq__kg_bufs() {
    if (count != NULL) GCLQ_FREE(count);
  }

 private:
  gclq__kg_bufs(const gclq__kg_bufs &);
  gclq__kg_bufs &operator=(const gclq__kg_bufs &);
};

/* Warps for one launch: as many as groups, at most GCLQ__KG_MAX_WARPS, and
   when it materialises few enough that their open chunks leave most of the
   free arena (words) for data. */
static inline uint64_t gclq__kg_warps(uint64_t groups, uint64_t words, int materialize) {
  uint64_t w = groups < GCLQ__KG_MAX_WARPS ? groups : GCLQ__KG_MAX_WARPS;
  if (materialize && w > words / (8 * GCLQ__KG_CHUNK)) w = words / (8 * GCLQ__KG_CHUNK);
  return w > 0 ? w : 1;
}

/* Place a launch's children in the free arena from word base: a quarter
   for the records, the rest for the candidates. A launch of several groups
   whose children materialise levels of their own (deeper) gets half the
   free arena, so that those levels find room. Returns the warps to launch. */
static inline uint64_t gclq__kg_place(const gclq__kg_bufs *B, gclq__kg_level *lv, uint64_t base, int deeper) {
  const uint64_t out_recs = (base + 1) / 2 * 2; /* records 8-byte aligned */
  uint64_t free_words = B->arena_words > out_recs ? B->arena_words - out_recs : 0;
  if (lv->g1 - lv->g0 > 1 && deeper) free_words /= 2;
  lv->out_recs = out_recs;
  lv->rec_cap = lv->materialize ? free_words / 4 / GCLQ__KG_REC_WORDS : 0;
  lv->cand_lo = out_recs + lv->rec_cap * GCLQ__KG_REC_WORDS;
  lv->cand_cap = lv->materialize ? free_words - lv->rec_cap * GCLQ__KG_REC_WORDS : 0;
  return gclq__kg_warps(lv->g1 - lv->g0, free_words, lv->materialize);
}

/* Add v to the saturated host count *h (a wrapped count stays UINT64_MAX). */
static inline void gclq__kg_add_host(uint64_t *h, uint64_t v, int wrapped) {
  *h = wrapped || *h > UINT64_MAX - v ? UINT64_MAX : *h + v;
}

/* Run one launch over lv's groups; h_ctl gets its control words. */
static inline gclq_status gclq__kg_launch(gclq__kc_dev *d, gclq__kg_bufs *B, gclq__kg_level *lv, uint64_t base,
                                          unsigned long long *h_ctl) {
  gclq__dev *c = d->c;
  const int deeper = d->k == 0 || lv->depth + 1 < d->k - 2;
  const uint64_t warps = gclq__kg_place(B, lv, base, deeper);
  GCLQ__CUDA_TRY(cudaMemsetAsync(B->ctl.p, 0, GCLQ__KG_CTL * sizeof(unsigned long long), c->stream));
  gclq__kg_extend_kernel<<<(unsigned)((warps + GCLQ__KG_WARPS - 1) / GCLQ__KG_WARPS), 32 * GCLQ__KG_WARPS, 0,
                           c->stream>>>(*d, *lv, B->arena.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  return gclq__dev_read(c, h_ctl, B->ctl.p, GCLQ__KG_CTL * sizeof(unsigned long long));
}

/* Extend the groups of depth t (vertices, or the record slots at arena
   word recs) with the arena free from word base: the groups go in chunks
   (all of them first, halved while a launch overflows), and the children
   of a chunk are extended in turn before the next chunk. *full: one group
   alone did not fit. */
static inline gclq_status gclq__kg_extend(gclq__kc_dev *d, gclq__kg_bufs *B, uint32_t t, uint64_t recs,
                                          uint64_t groups, uint64_t base, int *full) {
  const int one = d->k != 0;
  unsigned long long h_ctl[GCLQ__KG_CTL];
  uint64_t g0 = 0, chunk = groups;
  gclq__kg_level lv;
  memset(&lv, 0, sizeof lv);
  lv.depth = t;
  lv.recs = recs;
  lv.counted = !one || t == d->k - 2;
  lv.materialize = !one || t < d->k - 2;
  lv.need = one ? d->k - t - 1 : 2;
  lv.ctl = B->ctl.as<unsigned long long>();
  if (lv.counted && t + 2 > d->top) return GCLQ_SUCCESS; /* no clique that large */
  while (g0 < groups) {
    lv.g0 = g0;
    lv.g1 = groups - g0 < chunk ? groups : g0 + chunk;
    GCLQ__TRY(gclq__kg_launch(d, B, &lv, base, h_ctl));
    if (h_ctl[2] != 0) { /* overflow: fewer groups */
      if (lv.g1 - lv.g0 == 1) {
        *full = 1;
        return GCLQ_SUCCESS;
      }
      chunk = (lv.g1 - lv.g0 + 1) / 2;
      continue;
    }
    d->nodes += lv.g1 - lv.g0;
    if (lv.counted) gclq__kg_add_host(&B->count[t + 2], h_ctl[3], (unsigned int)h_ctl[4] != 0);
    if (lv.materialize && h_ctl[1] > 0) {
      GCLQ__TRY(gclq__kg_extend(d, B, t + 1, lv.out_recs, h_ctl[1], lv.cand_lo + h_ctl[0], full));
      if (*full) return GCLQ_SUCCESS;
    }
    g0 = lv.g1;
    if (chunk <= (groups - 1) / 2) chunk *= 2; /* try more groups again */
  }
  return GCLQ_SUCCESS;
}

/* The device bytes the budget leaves. */
static inline size_t gclq__kg_left(const gclq__dev *c) { return c->budget > c->used ? c->budget - c->used : 0; }

/* The arena for the first try: what the budget leaves, at most
   GCLQ__KG_ARENA_CAP or 64 bytes per edge and 16 MiB. */
static inline size_t gclq__kg_arena_bytes(const gclq__kc_dev *d) {
  const size_t left = gclq__kg_left(d->c);
  const uint64_t edges = d->m < ((uint64_t)1 << 32) ? d->m : ((uint64_t)1 << 32);
  size_t want = (size_t)edges * 64 + ((size_t)16 << 20);
  if (want > GCLQ__KG_ARENA_CAP) want = GCLQ__KG_ARENA_CAP;
  return (want < left ? want : left) / 256 * 256;
}

/* The arena after one group did not fit: four times larger, within the
   budget (held: the arena's bytes, released before the new one is taken);
   0 when it cannot grow. */
static inline size_t gclq__kg_arena_grown(const gclq__dev *c, size_t held) {
  const size_t most = (held + gclq__kg_left(c)) / 256 * 256;
  const size_t next = held <= most / 4 ? held * 4 : most;
  return next > held ? next : 0;
}

/* Count by grouped extension (see the top of this file). */
static inline gclq_status gclq__kc_cuda_grouped(gclq__kc_dev *d) {
  gclq__dev *c = d->c;
  const size_t entries = (size_t)d->top + 1;
  const int arena_needed = d->k == 0 || d->k > 3; /* k = 3 counts the vertices' groups directly */
  const uint64_t nodes0 = d->nodes;
  gclq__kg_bufs B(c);
  size_t bytes;
  if (d->k == 0 && d->top >= 2) gclq__kg_add_host(&d->h_count[2], d->m, 0);
  if (d->n == 0 || d->top < 3) return GCLQ_SUCCESS;
  B.count = (uint64_t *)GCLQ_MALLOC(entries * sizeof(uint64_t));
  if (B.count == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ__TRY(B.ctl.get(GCLQ__KG_CTL * sizeof(unsigned long long)));
  bytes = arena_needed ? gclq__kg_arena_bytes(d) : 0;
  for (;;) {
    int full = 0;
    if (arena_needed) {
      GCLQ__TRY(B.arena.get(bytes));
      B.arena_words = B.arena.held / sizeof(uint32_t);
    }
    memset(B.count, 0, entries * sizeof(uint64_t));
    d->nodes = nodes0;
    GCLQ__TRY(gclq__kg_extend(d, &B, 1, 0, d->n, 0, &full));
    if (!full) break;
    /* one group's levels did not fit: again from the start in a larger arena */
    bytes = gclq__kg_arena_grown(c, B.arena.held);
    if (bytes == 0) return GCLQ_ERROR_OUT_OF_MEMORY;
    B.arena.release();
    if (d->d_per_vertex != NULL) {
      GCLQ__CUDA_TRY(cudaMemsetAsync(d->d_per_vertex, 0, (size_t)d->n * sizeof(unsigned long long), c->stream));
      GCLQ__CUDA_TRY(cudaMemsetAsync(d->d_pv_flags, 0, (size_t)d->n * sizeof(unsigned int), c->stream));
    }
  }
  for (size_t s = 0; s < entries; ++s) gclq__kg_add_host(&d->h_count[s], B.count[s], B.count[s] == UINT64_MAX);
  return GCLQ_SUCCESS;
}

/* ---- the run ---- */
/* Count on the device with the chosen method (d set up: graph, counters). */
static inline gclq_status gclq__kc_cuda_count(gclq__kc_dev *d, gclq_kclique_method method) {
  switch (method) {
    case GCLQ_KCLIQUE_BITSET: return gclq__kc_cuda_bitset(d);
    case GCLQ_KCLIQUE_PIVOT: return gclq__kc_cuda_pivot(d);
    case GCLQ_KCLIQUE_LFTJ: return gclq__kc_cuda_lftj(d);
    case GCLQ_KCLIQUE_LEVEL_JOIN: return gclq__kc_cuda_level_join(d);
    case GCLQ_KCLIQUE_GROUPED: return gclq__kc_cuda_grouped(d);
    default: return GCLQ_ERROR_BACKEND_UNAVAILABLE;
  }
}

/* Upload, cores (and the peeling rounds), orientation, counters, counting
   by the plan's method; r->count and r->per_vertex filled as the host
   methods fill them. */
static inline gclq_status gclq__kc_cuda_run(gclq__dev *c, const gclq__kc_plan *plan, gclq__kc_run *r,
                                            gclq_kclique_result *res) {
  const gclq_kclique_options *p = &plan->opt;
  const gclq_kclique_method method = plan->method;
  const gclq_graph *g = r->g;
  gclq_kclique_stats *stats = &res->stats;
  gclq__kc_dev d;
  gclq__dmem rank(c), ooff(c), oout(c), uoff(c), unbr(c);
  gclq__dmem cnt(c), flags(c), pv(c), pvf(c);
  gclq__clock::time_point t0;
  char line[200];
  memset(&d, 0, sizeof d);
  d.c = c;
  d.n = g->num_vertices;
  d.k = r->k;
  GCLQ__TRY(gclq__kc_cuda_graph(&d, p, g, method == GCLQ_KCLIQUE_PIVOT, &rank, &ooff, &oout, &uoff, &unbr,
                                &stats->order_ms));
  r->max_core = d.max_core;
  r->max_out = d.max_out;
  stats->max_core = d.max_core;
  stats->max_out_degree = d.max_out;
  stats->method = method;
  snprintf(line, sizeof line, "order: %s, max core %u, max out-degree %u; counting by %s on the device",
           gclq_orient_by_name(p->orientation), d.max_core, d.max_out, gclq_kclique_method_name(method));
  gclq__kc_log(r, line);
  if (!gclq__kc_outputs(r, p)) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (r->top == 0) return GCLQ_SUCCESS; /* k > omega: nothing to count */
  d.top = r->top;
  d.h_count = r->count;
  c->phase = "counters";
  GCLQ__TRY(cnt.get(((size_t)d.top + 1) * sizeof(unsigned long long)));
  GCLQ__TRY(flags.get(((size_t)d.top + 1) * sizeof(unsigned int)));
  d.d_count = cnt.as<unsigned long long>();
  d.d_flags = flags.as<unsigned int>();
  GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_count, 0, ((size_t)d.top + 1) * sizeof(unsigned long long), c->stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_flags, 0, ((size_t)d.top + 1) * sizeof(unsigned int), c->stream));
  if (r->per_vertex != NULL) {
    GCLQ__TRY(pv.get((size_t)d.n * sizeof(unsigned long long)));
    GCLQ__TRY(pvf.get((size_t)d.n * sizeof(unsigned int)));
    d.d_per_vertex = pv.as<unsigned long long>();
    d.d_pv_flags = pvf.as<unsigned int>();
    GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_per_vertex, 0, (size_t)d.n * sizeof(unsigned long long), c->stream));
    GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_pv_flags, 0, (size_t)d.n * sizeof(unsigned int), c->stream));
  }
  t0 = gclq__clock::now();
  c->phase = gclq_kclique_method_name(method);
  GCLQ__TRY(gclq__kc_cuda_count(&d, method));
  GCLQ__TRY(gclq__kc_dev_read(&d));
  if (r->per_vertex != NULL) GCLQ__TRY(gclq__kc_cuda_per_vertex(&d, r->per_vertex));
  stats->count_ms = gclq__ms_since(t0);
  r->deepest = d.deepest;
  r->nodes = d.nodes;
  if (d.method_note != NULL) snprintf(stats->notes, sizeof stats->notes, "%s", d.method_note);
  return GCLQ_SUCCESS;
}

/* The whole CUDA run of the plan, into res (not yet cleaned on failure):
   the device counts, then the listing (the host ORDERED pass over the same
   orientation, which stops when full). */
static inline gclq_status gclq__kc_cuda(const gclq_graph *g, const gclq__kc_plan *plan, gclq_kclique_result *res) {
  const gclq_kclique_options *p = &plan->opt;
  gclq__dev c;
  gclq__kc_run r;
  gclq__pool_keep keep;
  gclq_status st;
  gclq__clock::time_point t0;
  gclq__dev_init(&c, p->stream, &p->allocator, p->device_budget_bytes);
  c.log = p->log;
  c.log_user = p->log_user;
  memset(&r, 0, sizeof r);
  r.g = g;
  r.k = p->k;
  r.log = p->log;
  r.log_user = p->log_user;
  r.last_log = clock();
  if (c.budget == 0) GCLQ__TRY(gclq__default_budget(&c.budget));
  gclq__pool_keep_begin(&keep, &c.allocator);
  st = gclq__kc_cuda_run(&c, plan, &r, res);
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  gclq__pool_keep_end(&keep);
  res->stats.peak_device_bytes = c.peak;
  res->stats.nodes = r.nodes;
  if (st == GCLQ_SUCCESS) st = gclq__kc_counts_out(&r, res->stats.method, res);
  if (st == GCLQ_SUCCESS && r.per_vertex != NULL) {
    res->h_per_vertex = r.per_vertex;
    r.per_vertex = NULL;
  }
  if (st == GCLQ_SUCCESS && r.list_cap > 0) {
    t0 = gclq__clock::now();
    st = gclq__kc_orient(&r, p->orientation);
    if (st == GCLQ_SUCCESS && !gclq__kc_ordered_buffers(&r)) st = GCLQ_ERROR_OUT_OF_MEMORY;
    if (st == GCLQ_SUCCESS) {
      r.list_only = 1;
      gclq__kc_ordered_all_sources(&r);
      if (r.out_of_memory) st = GCLQ_ERROR_OUT_OF_MEMORY;
    }
    if (st == GCLQ_SUCCESS) st = gclq__kc_cliques_out(&r, res);
    res->stats.list_ms = gclq__ms_since(t0);
  }
  if (st == GCLQ_SUCCESS) { /* the last phase line, as the host backend's */
    char line[64];
    snprintf(line, sizeof line, "count: done, %llu nodes", (unsigned long long)r.nodes);
    gclq__kc_log(&r, line);
  }
  gclq__kc_free(&r);
  return st;
}
