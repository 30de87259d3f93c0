/* clique/maxclique/cuda.cuh - the CUDA backend of gclq_max_cliques (ch. 2
   of Geil, "Tackling GPU Memory Size Limitations", the dissertation below):
     upload      CSR to the device, degrees (clique/graph/cuda.cuh)
     cores       k-core numbers by parallel peeling (Alg. 1; clique/graph/cuda.cuh)
     heuristic   greedy lower bound, single run (select) or multi-run
                 (segmented argmax, select, sorted search) (Alg. 2)
     setup       the oriented, pre-pruned 2-clique list, candidates sorted by
                 degree inside each sublist (Alg. 3)
     search      breadth-first over the clique list, one level per clique
                 size: count / scan / write (Alg. 4), in windows, inside the
                 device memory budget (a range whose next level does not fit
                 is split, recursively; the result never depends on it)
     readout     every clique of the last level, by following sublistIDs back
   Everything the search allocates goes through gclq__mc_alloc, which keeps
   the bytes held under the budget; kernels are static so that several
   translation units may each compile the implementation. Kernels:
   clique/maxclique/kernels.cuh. */

/* The maximum-clique search's run state: its device context and graph, the
   plan and stats, the levels, the answer so far and the per-step buffers. */
struct gclq__mc_ctx {
  gclq__dev dev;
  gclq__dgraph dg;
  const gclq__mc_plan *plan;
  gclq_maxclique_stats *stats;
  uint32_t *d_filter; /* the bound the search filters by: d_core (prune_core) or d_deg */
  /* levels: host table of pointers (index = clique size), its device copy */
  uint32_t max_levels;
  gclq__level_ptrs *levels;
  uint64_t *level_len;
  gclq__level_ptrs *d_levels;
  /* the answer so far: cliques of size best (compact ids, rows of best) */
  uint32_t best, target;
  uint32_t *rows;
  uint64_t num_rows, rows_cap; /* rows_cap: ids */
  uint64_t found;              /* cliques of size best found (num_rows of them kept: plan->max_stored) */
  double readout_ms;
  /* per-step buffers of the search, allocated once: counts / positions
     (pos_cap + 1), the scan's temp storage, the step's numbers */
  uint64_t *d_pos, *d_step;
  uint64_t pos_cap; /* parents d_pos can count (GCLQ__STEP_ENTRIES unless the budget is small) */
  void *d_scan_temp;
  size_t scan_temp_bytes;
  int bits_found; /* the bitset search recorded a clique in this run */
};

static inline gclq_status gclq__mc_count_level(gclq__mc_ctx *c, uint32_t k, uint64_t entries) {
  gclq_maxclique_stats *s = c->stats;
  if (k >= s->num_levels) {
    uint32_t cap = k + 8, i;
    uint64_t *grown = (uint64_t *)GCLQ_REALLOC(s->candidates_per_level, cap * sizeof(uint64_t));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    for (i = s->num_levels; i < cap; ++i) grown[i] = 0;
    s->candidates_per_level = grown;
    s->num_levels = k + 1;
  }
  s->candidates_per_level[k] += entries;
  return GCLQ_SUCCESS;
}

/* Keep rows of size k (host, compact ids). replace: start a new list (the
   row width may change then; rows_cap counts ids, not rows). */
static inline gclq_status gclq__mc_keep_rows(gclq__mc_ctx *c, const uint32_t *rows, uint64_t count, uint32_t k,
                                             int replace, uint64_t found) {
  uint64_t need;
  const uint64_t limit = c->plan->max_stored;
  if (replace) c->num_rows = 0, c->found = 0;
  c->found += found;
  if (limit && count > limit - c->num_rows) count = limit - c->num_rows;
  need = (c->num_rows + count) * k;
  if (need > c->rows_cap) {
    uint64_t cap = c->rows_cap ? c->rows_cap : 256;
    uint32_t *grown;
    while (cap < need) cap *= 2;
    grown = (uint32_t *)GCLQ_REALLOC(c->rows, (size_t)cap * sizeof(uint32_t));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    c->rows = grown;
    c->rows_cap = cap;
  }
  memcpy(c->rows + (size_t)c->num_rows * k, rows, (size_t)count * k * sizeof(uint32_t));
  c->num_rows += count;
  return GCLQ_SUCCESS;
}

/* Entries [a, b) of level k are k-cliques that end here: keep them when they
   are at least as large as the best so far (all mode), or larger (one mode). */
static inline gclq_status gclq__mc_record(gclq__mc_ctx *c, uint32_t k, uint64_t a, uint64_t b) {
  int one = c->plan->find_one;
  if (one ? k <= c->best : k < c->best) return GCLQ_SUCCESS;
  if (one) b = a + 1;
  gclq__clock::time_point t0 = gclq__clock::now();
  int replace = k > c->best;
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_levels, c->levels, ((size_t)k + 1) * sizeof(gclq__level_ptrs),
                                 cudaMemcpyHostToDevice, c->dev.stream));
  while (a < b) {
    /* as many rows as fit (at least one) */
    uint64_t n = b - a;
    size_t row_bytes = (size_t)k * sizeof(uint32_t);
    size_t room = c->dev.budget - c->dev.used > 4096 ? c->dev.budget - c->dev.used - 4096 : 0;
    if ((uint64_t)n * row_bytes > room) n = room / row_bytes > 0 ? room / row_bytes : 1;
    gclq__dmem out(&c->dev);
    uint32_t *h;
    GCLQ__TRY(out.get((size_t)n * row_bytes));
    gclq__readout_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->dev.stream>>>(c->d_levels, k, a, n, out.as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    h = (uint32_t *)GCLQ_MALLOC((size_t)n * row_bytes);
    if (h == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    gclq_status st = gclq__dev_read(&c->dev, h, out.p, (size_t)n * row_bytes);
    if (st == GCLQ_SUCCESS) st = gclq__mc_keep_rows(c, h, n, k, replace, n);
    GCLQ_FREE(h);
    if (st != GCLQ_SUCCESS) return st;
    replace = 0;
    a += n;
  }
  c->best = k;
  c->target = one ? k + 1 : k;
  c->readout_ms += gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* The step rule of both searches. A step counts the children of `span`
   parents (into c->d_pos, at most pc) and takes the prefix of them whose
   children fit in `width` entries and in a fair share of the budget's room
   left (at least one parent); the rest is counted again in the next step,
   against a target that may have risen. width starts at the plan's first
   width (GCLQ__FIRST_WIDTH) and doubles per step up to the step size
   (GCLQ__STEP_ENTRIES; a narrow first descent finds large cliques early);
   span is twice the last step's take. The fair share is room / (the levels
   that may still come, at least 2; omega <= max core + 1), so the levels
   below always have theirs (the levels are nested: a level 3 that takes
   everything leaves nothing for level 6 of a dense graph under 6 MiB, and
   halving alone starves the 60 levels of facebook under 32 MiB into
   one-parent steps).
   plan.no_split: every counted parent, pc at a time. */
struct gclq__steps {
  gclq__mc_ctx *c;
  uint64_t pc, width, span;
  int split;
  gclq__steps(gclq__mc_ctx *ctx, uint64_t parents) : c(ctx), pc(parents), split(!ctx->plan->no_split) {
    width = split ? c->plan->first_width : ~(uint64_t)0;
    span = split ? width : pc;
  }
  /* the parents the next step counts, of [a, b) */
  uint64_t parents(uint64_t a, uint64_t b) const {
    uint64_t n = b - a < span ? b - a : span;
    return n < pc ? n : pc;
  }
  /* After the count kernel wrote the children of n parents of level k into
     c->d_pos[0, n] (d_pos[n] = 0): scan them into positions (the dissertation, Alg. 4
     lines 28-31), size the step and read `words` numbers of c->d_step (the
     step kernel's three, then what the count kernel left there). One
     synchronisation. */
  gclq_status size(uint32_t k, uint64_t n, size_t child_bytes, uint64_t *step, size_t words) {
    const size_t slack = (size_t)64 << 10;
    const uint64_t share = c->max_levels > k + 4 ? c->max_levels - 2 - k : 2;
    const uint64_t room = c->dev.used <= c->dev.budget && c->dev.budget - c->dev.used > slack
                              ? (c->dev.budget - c->dev.used - slack) / child_bytes / share : 0;
    const uint64_t cap = !split ? ~(uint64_t)0 : room < width ? room : width;
    size_t tb = c->scan_temp_bytes;
    GCLQ__CUDA_TRY(gprim_scan_exclusive(c->d_scan_temp, &tb, (const uint64_t *)c->d_pos, c->d_pos, (size_t)(n + 1),
                                        gprim_op_sum(), (uint64_t)0, c->dev.stream));
    gclq__step_kernel<<<1, 1, 0, c->dev.stream>>>(c->d_pos, n, cap, c->d_step);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__dev_read(&c->dev, step, c->d_step, words * sizeof(uint64_t)));
    if (split) {
      const uint64_t m = step[1];
      span = gclq__next_span(m, c->plan->step);
      if (m < n && room < width) c->stats->budget_splits++; /* the budget, not the step width, cut it */
      width = width * 2 < c->plan->step ? width * 2 : c->plan->step;
    }
    return GCLQ_SUCCESS;
  }
};

/* Expand the parents [a, b) of level k, then every level below them: depth
   first over steps (gclq__steps), breadth first inside one. Candidate-only
   entries (GCLQ__DEAD) count no children. A single parent whose children
   cannot fit is out of memory. Splitting changes the order of the work,
   never its result. */
static inline gclq_status gclq__mc_expand(gclq__mc_ctx *c, uint32_t k, uint64_t a, uint64_t b) {
  cudaStream_t stream = c->dev.stream;
  gclq__steps steps(c, c->pos_cap);
  while (a < b) {
    uint64_t n = steps.parents(a, b), step[3];
    gclq__level_args la;
    la.vid = c->levels[k].vid;
    la.sid = c->levels[k].sid;
    la.len = c->level_len[k];
    la.a = a;
    la.n = n;
    la.k = k;
    la.target = c->target;
    la.colour = c->plan->bound != GCLQ_BOUND_LENGTH;
    la.off = c->dg.d_off;
    la.nbr = c->dg.d_nbr;
    if (k + 1 >= c->max_levels) return GCLQ_ERROR_CUDA; /* cannot happen: omega <= max core + 1 */

    uint64_t *d = c->d_pos;
    gclq__level_count_kernel<<<gclq__grid_warps(n + 1), 32 * GCLQ__CWARPS, 0, stream>>>(la, d);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(steps.size(k, n, 2 * sizeof(uint32_t), step, 3)); /* children: vid + sid */
    uint64_t m = step[1], total = step[2];
    if (step[0] == 0) { /* no parent of this step extends: these k-cliques are final */
      GCLQ__TRY(gclq__mc_record(c, k, a, a + n));
      a += n;
      continue;
    }
    if (total == 0) { /* parents that end here, while others of the step extend: not maximum */
      a += m;
      continue;
    }
    gclq__dmem vid(&c->dev), sid(&c->dev);
    gclq_status st = total < ((uint64_t)1 << 32) ? vid.get((size_t)total * sizeof(uint32_t)) : GCLQ_ERROR_OUT_OF_MEMORY;
    if (st == GCLQ_SUCCESS) st = sid.get((size_t)total * sizeof(uint32_t));
    GCLQ__TRY(st); /* one parent's children do not fit */
    la.n = m;
    gclq__level_write_kernel<<<gclq__grid_warps(m), 32 * GCLQ__CWARPS, 0, stream>>>(la, d, vid.as<uint32_t>(),
                                                                                      sid.as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    c->levels[k + 1].vid = vid.as<uint32_t>();
    c->levels[k + 1].sid = sid.as<uint32_t>();
    c->level_len[k + 1] = total;
    GCLQ__TRY(gclq__mc_count_level(c, k + 1, total));
    if (c->plan->log) {
      char line[160];
      snprintf(line, sizeof line, "level %u: %llu candidates (parents %llu..%llu of %llu, %.1f MiB held)", k + 1,
               (unsigned long long)total, (unsigned long long)a, (unsigned long long)(a + m),
               (unsigned long long)la.len, (double)c->dev.used / 1048576.0);
      gclq__dev_log(&c->dev, line);
    }
    st = gclq__mc_expand(c, k + 1, 0, total);
    c->levels[k + 1].vid = NULL;
    c->levels[k + 1].sid = NULL;
    c->level_len[k + 1] = 0;
    GCLQ__TRY(st);
    a += m;
  }
  return GCLQ_SUCCESS;
}

/* ---- the bitset search (its kernels: clique/maxclique/kernels.cuh) ---- */

/* One window's local graphs, and its per-step scratch. */
struct gclq__bits_win {
  const gclq__bsrc *src;
  const uint32_t *L, *adj;
  uint32_t ns, nw, wpl; /* sources, words a node set, words a lane (1, 2, 4) */
  uint32_t *bset;       /* pc * nw: the count kernel's B sets */
  uint64_t pc;          /* parents a step may count */
};

template <int WPL>
static inline void gclq__bits_launch_count(gclq__mc_ctx *c, const gclq__bits_args &a, const gclq__bits_win &w) {
  gclq__bits_count_kernel<WPL><<<gclq__grid_warps(a.n + 1), 32 * GCLQ__CWARPS, 0, c->dev.stream>>>(
      a, c->d_pos, w.bset, (unsigned long long *)(c->d_step + 3));
}
template <int WPL>
static inline void gclq__bits_launch_write(gclq__mc_ctx *c, const gclq__bits_args &a, const gclq__bits_win &w,
                                           uint32_t *out) {
  gclq__bits_write_kernel<WPL><<<gclq__grid_warps(a.n), 32 * GCLQ__CWARPS, 0, c->dev.stream>>>(a, c->d_pos, w.bset, out);
}
template <int WPL>
static inline void gclq__bits_launch_record(gclq__mc_ctx *c, const gclq__bits_args &a, uint32_t *rows,
                                            unsigned long long *num, uint64_t cap) {
  gclq__bits_record_kernel<WPL><<<gclq__grid_warps(a.n), 32 * GCLQ__CWARPS, 0, c->dev.stream>>>(a, rows, num, cap);
}
template <int WPL>
static inline void gclq__bits_launch_ub(gclq__mc_ctx *c, const gclq__bits_win &w, uint32_t *ub) {
  gclq__bits_ub_kernel<WPL><<<gclq__grid_warps(w.ns), 32 * GCLQ__CWARPS, 0, c->dev.stream>>>(w.src, w.ns, w.adj, ub);
}
#define GCLQ__BITS_WPL(w, call) \
  ((w).wpl == 1 ? call<1> : (w).wpl == 2 ? call<2> : call<4>)

/* The cliques among the parents [a, a + m) of level k whose P is empty (at
   most `leaves`): kept as rows when they reach the target. */
static inline gclq_status gclq__bits_record(gclq__mc_ctx *c, const gclq__bits_args &pa, const gclq__bits_win &w,
                                            uint64_t a, uint64_t m, uint64_t leaves) {
  const int one = c->plan->find_one;
  const uint32_t k = pa.k;
  if (one ? k <= c->best : k < c->best) return GCLQ_SUCCESS;
  gclq__clock::time_point t0 = gclq__clock::now();
  int replace = one || k > c->best;
  const size_t row_bytes = (size_t)k * sizeof(uint32_t);
  while (m > 0) {
    /* parents [a, a + q): their rows (at most one each) fit the room */
    size_t room = c->dev.budget - c->dev.used > 4096 + 256 ? c->dev.budget - c->dev.used - 4096 - 256 : 0;
    uint64_t q = m, cap = leaves < m ? leaves : m, got = 0;
    if (cap * row_bytes > room) {
      cap = room / row_bytes > 0 ? room / row_bytes : 1;
      if (q > cap) q = cap; /* at most one clique a parent: all of [a, a + q) fit */
    }
    /* rows still to keep (the rest is only counted) */
    const uint64_t kept = replace ? 0 : c->num_rows, limit = one ? 1 : c->plan->max_stored;
    if (limit) cap = cap < limit - kept ? cap : limit - kept;
    gclq__dmem out(&c->dev), num(&c->dev);
    GCLQ__TRY(out.get((size_t)(cap ? cap : 1) * row_bytes));
    GCLQ__TRY(num.get(sizeof(unsigned long long)));
    GCLQ__CUDA_TRY(cudaMemsetAsync(num.p, 0, sizeof(unsigned long long), c->dev.stream));
    gclq__bits_args ra = pa;
    ra.a = a;
    ra.n = q;
    GCLQ__BITS_WPL(w, gclq__bits_launch_record)(c, ra, out.as<uint32_t>(), num.as<unsigned long long>(), cap);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__dev_read(&c->dev, &got, num.p, sizeof got));
    if (got > 0) {
      const uint64_t nr = got < cap ? got : cap;
      uint32_t *h = (uint32_t *)GCLQ_MALLOC((size_t)nr * row_bytes + 1);
      if (h == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
      gclq_status st = nr ? gclq__dev_read(&c->dev, h, out.p, (size_t)nr * row_bytes) : GCLQ_SUCCESS;
      if (st == GCLQ_SUCCESS) st = gclq__mc_keep_rows(c, h, nr, k, replace, one ? 1 : got);
      GCLQ_FREE(h);
      GCLQ__TRY(st);
      replace = 0;
      c->best = k;
      c->target = one ? k + 1 : k;
      c->bits_found = 1;
      if (one) break;
      leaves -= got < leaves ? got : leaves;
    }
    a += q;
    m -= q;
  }
  c->readout_ms += gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* Expand the nodes [a, b) of level k (nodes: its buffer), then every level
   below them, in the steps of gclq__mc_expand (gclq__steps), with nodes of
   2 nw + 1 words. */
static inline gclq_status gclq__bits_expand(gclq__mc_ctx *c, const gclq__bits_win &w, uint32_t k,
                                            const uint32_t *nodes, uint64_t a, uint64_t b) {
  const size_t node_bytes = (2 * (size_t)w.nw + 1) * sizeof(uint32_t);
  cudaStream_t stream = c->dev.stream;
  gclq__steps steps(c, w.pc);
  if (k + 1 >= c->max_levels) return GCLQ_ERROR_CUDA; /* cannot happen: omega <= max core + 1 */
  while (a < b) {
    uint64_t n = steps.parents(a, b), step[4];
    gclq__bits_args ba;
    ba.src = w.src;
    ba.L = w.L;
    ba.adj = w.adj;
    ba.nodes = nodes;
    ba.nw = w.nw;
    ba.a = a;
    ba.n = n;
    ba.k = k;
    ba.target = c->target;
    ba.colour = c->plan->bound != GCLQ_BOUND_LENGTH;
    GCLQ__CUDA_TRY(cudaMemsetAsync(c->d_step + 3, 0, sizeof(uint64_t), stream));
    GCLQ__BITS_WPL(w, gclq__bits_launch_count)(c, ba, w);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(steps.size(k, n, node_bytes, step, 4)); /* step[3]: the parents with P empty */
    uint64_t m = step[1], total = step[2];
    if (step[3] > 0 && k >= c->target) GCLQ__TRY(gclq__bits_record(c, ba, w, a, m, step[3]));
    if (total > 0) {
      gclq__dmem next(&c->dev);
      GCLQ__TRY(next.get((size_t)total * node_bytes)); /* one parent's children do not fit */
      ba.n = m;
      GCLQ__BITS_WPL(w, gclq__bits_launch_write)(c, ba, w, next.as<uint32_t>());
      GCLQ__CUDA_TRY(cudaGetLastError());
      GCLQ__TRY(gclq__mc_count_level(c, k + 1, total));
      if (c->plan->log) {
        char line[160];
        snprintf(line, sizeof line, "level %u: %llu candidates (parents %llu..%llu of %llu, %.1f MiB held)", k + 1,
                 (unsigned long long)total, (unsigned long long)a, (unsigned long long)(a + m),
                 (unsigned long long)b, (double)c->dev.used / 1048576.0);
        gclq__dev_log(&c->dev, line);
      }
      GCLQ__TRY(gclq__bits_expand(c, w, k + 1, next.as<uint32_t>(), 0, total));
    }
    a += m;
  }
  return GCLQ_SUCCESS;
}

/* The local graph sizes of the sources sa.order[0, sa.n) against sa.target
   (gclq__bits_size_kernel) into h_d (host, sa.n entries). */
static inline gclq_status gclq__bits_sizes(gclq__mc_ctx *c, const gclq__setup_args &sa, uint32_t *h_d) {
  gclq__dmem d(&c->dev);
  GCLQ__TRY(d.get((size_t)sa.n * sizeof(uint32_t)));
  gclq__bits_size_kernel<<<gclq__grid_warps(sa.n), 32 * GCLQ__CWARPS, 0, c->dev.stream>>>(sa, d.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  return gclq__dev_read(&c->dev, h_d, d.p, (size_t)sa.n * sizeof(uint32_t));
}

/* Build the local graphs of the sources sa.order[0, sa.n) against sa.target
   into src / L / adj (scoped by the caller); *w gets the window's shape, *ub
   its colour bound (0 when no source is left). */
static inline gclq_status gclq__bits_build(gclq__mc_ctx *c, const gclq__setup_args &sa, const uint32_t *h_order,
                                           gclq__dmem *src,
                                           gclq__dmem *L, gclq__dmem *adj, gclq__bits_win *w, uint32_t *ub) {
  cudaStream_t stream = c->dev.stream;
  uint32_t *hd = NULL, maxd = 0;
  gclq__bsrc *tab = NULL;
  uint64_t sum_d = 0, sum_a = 0;
  gclq_status st = GCLQ_SUCCESS;
  *ub = 0;
  memset(w, 0, sizeof *w);
  hd = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  tab = (gclq__bsrc *)GCLQ_MALLOC((size_t)sa.n * sizeof(gclq__bsrc) + 1);
  st = hd == NULL || tab == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : gclq__bits_sizes(c, sa, hd);
  if (st == GCLQ_SUCCESS) {
    for (uint32_t p = 0; p < sa.n; ++p) {
      if (hd[p] == 0) continue;
      gclq__bsrc e;
      e.loff = sum_d;
      e.aoff = sum_a;
      e.v = h_order[p];
      e.d = hd[p];
      tab[w->ns++] = e;
      sum_d += hd[p];
      sum_a += (uint64_t)hd[p] * gclq__bwords(hd[p]);
      if (hd[p] > maxd) maxd = hd[p];
    }
  }
  GCLQ_FREE(hd);
  if (st == GCLQ_SUCCESS && w->ns > 0) {
    gclq__dmem d_ub(&c->dev);
    w->nw = gclq__bwords(maxd);
    w->wpl = w->nw <= 32 ? 1 : w->nw <= 64 ? 2 : 4;
    st = src->get((size_t)w->ns * sizeof(gclq__bsrc));
    if (st == GCLQ_SUCCESS) st = L->get((size_t)sum_d * sizeof(uint32_t));
    if (st == GCLQ_SUCCESS) st = adj->get((size_t)sum_a * sizeof(uint32_t));
    if (st == GCLQ_SUCCESS) st = d_ub.get(sizeof(uint32_t));
    if (st == GCLQ_SUCCESS && (cudaMemcpyAsync(src->p, tab, (size_t)w->ns * sizeof(gclq__bsrc), cudaMemcpyHostToDevice,
                                               stream) != cudaSuccess ||
                               cudaMemsetAsync(d_ub.p, 0, sizeof(uint32_t), stream) != cudaSuccess))
      st = GCLQ_ERROR_CUDA;
    if (st == GCLQ_SUCCESS) {
      w->src = src->as<gclq__bsrc>();
      w->L = L->as<uint32_t>();
      w->adj = adj->as<uint32_t>();
      gclq__bits_list_kernel<<<gclq__grid_warps(w->ns), 32 * GCLQ__CWARPS, 0, stream>>>(sa, w->src, w->ns,
                                                                                       L->as<uint32_t>());
      gclq__bits_rows_kernel<<<gclq__grid_warps(sum_d), 32 * GCLQ__CWARPS, 0, stream>>>(
          w->src, w->ns, sum_d, w->L, sa.off, sa.nbr, adj->as<uint32_t>());
      GCLQ__BITS_WPL(*w, gclq__bits_launch_ub)(c, *w, d_ub.as<uint32_t>());
      if (cudaGetLastError() != cudaSuccess) st = GCLQ_ERROR_CUDA;
    }
    if (st == GCLQ_SUCCESS) st = gclq__dev_read(&c->dev, ub, d_ub.p, sizeof *ub); /* also: tab is copied */
    c->stats->two_cliques += sum_d;
  }
  GCLQ_FREE(tab);
  return st;
}

/* The sources that survive the bound: kv[0, *nk) their ids in window
   order, hd[0, *nk) their local graph sizes, *maxd the largest (hd and kv
   GCLQ_MALLOC'd, sa.n + 1 entries, the caller frees them either way). */
static inline gclq_status gclq__bits_sources(gclq__mc_ctx *c, const gclq__setup_args &sa, uint32_t **hd_out,
                                             uint32_t **kv_out, uint32_t *nk, uint32_t *maxd) {
  uint32_t *hd, *ho, *kv;
  gclq_status st;
  hd = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  ho = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  kv = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  *hd_out = hd;
  *kv_out = kv;
  st = hd == NULL || ho == NULL || kv == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : gclq__bits_sizes(c, sa, hd);
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(&c->dev, ho, sa.order, (size_t)sa.n * sizeof(uint32_t));
  for (uint32_t i = 0; st == GCLQ_SUCCESS && i < sa.n; ++i)
    if (hd[i] > 0) {
      kv[*nk] = ho[i];
      hd[(*nk)++] = hd[i];
      if (hd[i] > *maxd) *maxd = hd[i];
    }
  GCLQ_FREE(ho);
  return st;
}

/* The search's per-step counts, allocated once: c->pos_cap = pc parents,
   their counts / positions (d_pos, pc + 1) and the scan's temp storage
   (d_scan). */
static inline gclq_status gclq__mc_step_counts(gclq__mc_ctx *c, uint64_t pc, gclq__dmem *d_pos, gclq__dmem *d_scan) {
  gclq_status st = GCLQ_SUCCESS;
  size_t tb = 0;
  c->pos_cap = pc;
  if (gprim_scan_exclusive((void *)NULL, &tb, (const uint64_t *)NULL, (uint64_t *)NULL, (size_t)pc + 1,
                           gprim_op_sum(), (uint64_t)0, c->dev.stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st == GCLQ_SUCCESS) st = d_pos->get(((size_t)pc + 1) * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS) st = d_scan->get(tb);
  c->d_pos = d_pos->as<uint64_t>();
  c->d_scan_temp = d_scan->p;
  c->scan_temp_bytes = tb;
  return st;
}

/* The kept sources on the device (ksrc, from kv) and the per-step buffers
   (d_step, d_scan, d_pos). Parents counted per step: GCLQ__STEP_ENTRIES,
   fewer under a small budget (counts and B sets take at most an eighth of
   what is left). */
static inline gclq_status gclq__bits_buffers(gclq__mc_ctx *c, const uint32_t *kv, uint32_t nk, uint32_t maxd,
                                             gclq__dmem *ksrc, gclq__dmem *d_step, gclq__dmem *d_scan,
                                             gclq__dmem *d_pos) {
  const gclq__mc_plan *p = c->plan;
  cudaStream_t stream = c->dev.stream;
  gclq_status st = ksrc->get((size_t)nk * sizeof(uint32_t) + 4);
  if (st == GCLQ_SUCCESS && nk > 0 &&
      cudaMemcpyAsync(ksrc->p, kv, (size_t)nk * sizeof(uint32_t), cudaMemcpyHostToDevice, stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st == GCLQ_SUCCESS) st = d_step->get(4 * sizeof(uint64_t));
  c->d_step = d_step->as<uint64_t>();
  uint64_t pc = p->step, left = c->dev.budget > c->dev.used ? c->dev.budget - c->dev.used : 0;
  const uint64_t per = 2 * sizeof(uint64_t) + gclq__bwords(maxd) * sizeof(uint32_t);
  while (pc > 32 && (pc + 1) * per > left / 8) pc /= 2;
  if (st == GCLQ_SUCCESS) st = gclq__mc_step_counts(c, pc, d_pos, d_scan);
  return st;
}

/* The runs of one window (its local graphs built in w, colour bound ub): the
   target descends from ub; a run that finds a clique, or the run at the
   floor (the best so far), ends the window. */
static inline gclq_status gclq__bits_runs(gclq__mc_ctx *c, gclq__bits_win &w, uint32_t ub) {
  const gclq__mc_plan *p = c->plan;
  cudaStream_t stream = c->dev.stream;
  gclq_status st = GCLQ_SUCCESS;
  char line[200];
  for (uint32_t T = ub; st == GCLQ_SUCCESS; --T) {
    const uint32_t fl = p->find_one ? c->best + 1 : c->best;
    if (T < fl) T = fl;
    c->target = T;
    c->bits_found = 0;
    if (p->log) {
      snprintf(line, sizeof line, "run: target %u", T);
      gclq__dev_log(&c->dev, line);
    }
    gclq__dmem roots(&c->dev);
    const uint64_t words = (uint64_t)w.ns * (2 * w.nw + 1);
    st = roots.get((size_t)words * sizeof(uint32_t));
    if (st != GCLQ_SUCCESS) break;
    gclq__bits_root_kernel<<<gclq__grid(words), GCLQ__BLOCK, 0, stream>>>(w.src, w.ns, w.nw, roots.as<uint32_t>());
    if (cudaGetLastError() != cudaSuccess) {
      st = GCLQ_ERROR_CUDA;
      break;
    }
    st = gclq__bits_expand(c, w, 1, roots.as<uint32_t>(), 0, w.ns);
    c->target = p->find_one ? c->best + 1 : c->best;
    if (c->bits_found || T <= fl) break;
  }
  return st;
}

/* One window from kept source ka: whole sources, local graphs within a
   quarter of the room (at least one source), at least `window` 2-cliques
   when the user asked for windows (*kb: the source after it). Its local
   graphs are built, then searched unless the colour bound is below the
   floor. */
static inline gclq_status gclq__bits_window(gclq__mc_ctx *c, const gclq__setup_args &sa, const gclq__dmem &ksrc,
                                            uint32_t *kv, const uint32_t *hd, uint32_t nk, uint32_t ka, uint32_t *kb_out) {
  const gclq__mc_plan *p = c->plan;
  const uint64_t room = c->dev.used < c->dev.budget ? (uint64_t)(c->dev.budget - c->dev.used) / 4 : 0;
  uint64_t bytes = 0, twos = 0;
  uint32_t kb = ka;
  gclq_status st;
  char line[200];
  while (kb < nk) {
    const uint64_t d = hd[kb], more = 4 * d * (1 + gclq__bwords((uint32_t)d)) + sizeof(gclq__bsrc) + 8;
    if (kb > ka && !p->no_split && bytes + more > room) break;
    bytes += more;
    twos += d;
    ++kb;
    if (p->window > 0 && twos >= p->window) break;
  }
  *kb_out = kb;
  gclq__setup_args wa = sa;
  wa.order = ksrc.as<uint32_t>() + ka;
  wa.n = kb - ka;
  wa.target = c->target;
  c->dev.phase = "a window's local graphs";
  gclq__dmem src(&c->dev), L(&c->dev), adj(&c->dev), bset(&c->dev);
  gclq__bits_win w;
  uint32_t ub = 0;
  gclq__clock::time_point t0 = gclq__clock::now();
  st = gclq__bits_build(c, wa, kv + ka, &src, &L, &adj, &w, &ub);
  c->stats->setup_ms += gclq__ms_since(t0);
  c->stats->windows++;
  const uint32_t lowest = p->find_one ? c->best + 1 : c->best;
  if (p->log && st == GCLQ_SUCCESS) {
    snprintf(line, sizeof line, "window %u: sources %u..%u of %u, %u with local graphs (%u words), colour bound %u, "
             "best %u", c->stats->windows, ka, kb, nk, w.ns, w.nw, ub, c->best);
    gclq__dev_log(&c->dev, line);
  }
  if (st != GCLQ_SUCCESS || w.ns == 0 || ub < lowest) return st;
  w.pc = c->pos_cap;
  {
    const uint64_t left = c->dev.budget > c->dev.used ? c->dev.budget - c->dev.used : 0;
    while (w.pc > 32 && w.pc * w.nw * sizeof(uint32_t) > left / 8) w.pc /= 2;
  }
  c->dev.phase = "search";
  st = bset.get((size_t)w.pc * w.nw * sizeof(uint32_t));
  w.bset = bset.as<uint32_t>();
  if (st != GCLQ_SUCCESS) return st;
  return gclq__bits_runs(c, w, ub);
}

/* The bitset search over the sources in window order (sa.order, sa.n = n).
   *ran = 0 when a local graph would exceed plan.bits_max vertices (the
   caller runs the list search then). Windows: sources whose local graphs fit
   a quarter of the room (and the user's window: 2-cliques, whole sources).
   In each window the target descends from the window's colour bound: a run
   that finds nothing proves there is no clique of its target in the window,
   and a run that finds some has found every clique of the window at least
   that large; the run at the floor (the best so far) ends it. Large targets
   prune hard, so the runs above omega cost less than one run from a weak
   lower bound (on R-MAT 15 about a third of its nodes). */
static inline gclq_status gclq__mc_bits(gclq__mc_ctx *c, gclq__setup_args sa, int *ran) {
  const gclq__mc_plan *p = c->plan;
  uint32_t *hd = NULL, *kv = NULL, nk = 0, maxd = 0;
  gclq_status st;
  *ran = 0;
  st = gclq__bits_sources(c, sa, &hd, &kv, &nk, &maxd);
  if (st != GCLQ_SUCCESS || maxd > p->bits_max) {
    if (st == GCLQ_SUCCESS) {
      snprintf(c->stats->notes, sizeof c->stats->notes,
               "a local graph of %u vertices (> %u): the list search ran", maxd, p->bits_max);
      gclq__dev_log(&c->dev, c->stats->notes);
    }
    GCLQ_FREE(hd);
    GCLQ_FREE(kv);
    return st;
  }
  *ran = 1;
  c->stats->search = GCLQ_SEARCH_BITSET;
  gclq__dmem ksrc(&c->dev), d_step(&c->dev), d_scan(&c->dev), d_pos(&c->dev);
  st = gclq__bits_buffers(c, kv, nk, maxd, &ksrc, &d_step, &d_scan, &d_pos);
  for (uint32_t ka = 0, kb = 0; st == GCLQ_SUCCESS && ka < nk; ka = kb)
    st = gclq__bits_window(c, sa, ksrc, kv, hd, nk, ka, &kb);
  GCLQ_FREE(hd);
  GCLQ_FREE(kv);
  return st;
}

/* Vertices sorted by key (descending or ascending; ties by id), into d_out. */
static inline gclq_status gclq__mc_sort_by(gclq__mc_ctx *c, const uint32_t *d_key, int descending, uint32_t *d_out) {
  const uint32_t n = c->dg.n;
  cudaStream_t stream = c->dev.stream;
  gclq__dmem ids(&c->dev), keys(&c->dev);
  GCLQ__TRY(ids.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(keys.get((size_t)n * sizeof(uint32_t)));
  gclq__iota_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(ids.as<uint32_t>(), n);
  GCLQ__CUDA_TRY(cudaGetLastError());
  uint32_t *ko = keys.as<uint32_t>(), *vi = ids.as<uint32_t>();
  return gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
    return gprim_radix_sort_pairs(t, tb, d_key, ko, (const uint32_t *)vi, d_out, (size_t)n, 0, 32, descending != 0,
                                  stream);
  });
}

/* Single-run greedy (the dissertation, sec. 2.4.3.1): candidates sorted by key, descending;
   take the first, keep its neighbours (select, order kept), repeat. */
static inline gclq_status gclq__mc_greedy_single(gclq__mc_ctx *c, const uint32_t *d_key, uint32_t *clique, uint32_t *size) {
  const uint32_t n = c->dg.n;
  cudaStream_t stream = c->dev.stream;
  gclq__dmem cand(&c->dev), cand2(&c->dev), num(&c->dev), peek(&c->dev);
  uint64_t h[2];
  GCLQ__TRY(cand.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(cand2.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(num.get(sizeof(size_t)));
  GCLQ__TRY(peek.get(2 * sizeof(uint64_t)));
  GCLQ__TRY(gclq__mc_sort_by(c, d_key, 1, cand.as<uint32_t>()));
  uint32_t *src = cand.as<uint32_t>(), *dst = cand2.as<uint32_t>();
  GCLQ__TRY(gclq__dev_read(&c->dev, &h[1], src, sizeof(uint32_t)));
  h[0] = n;
  h[1] &= 0xffffffffu;
  *size = 0;
  while (h[0] > 0) {
    gclq__adjacent_to pred;
    size_t count = (size_t)h[0];
    pred.off = c->dg.d_off;
    pred.nbr = c->dg.d_nbr;
    pred.v = (uint32_t)h[1];
    clique[(*size)++] = pred.v;
    size_t *d_num = num.as<size_t>();
    GCLQ__TRY(gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
      return gprim_select_if(t, tb, (const uint32_t *)src, dst, d_num, count, pred, stream);
    }));
    gclq__peek_kernel<<<1, 1, 0, stream>>>(d_num, dst, peek.as<uint64_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__dev_read(&c->dev, h, peek.p, sizeof h));
    uint32_t *t = src;
    src = dst;
    dst = t;
  }
  return GCLQ_SUCCESS;
}

/* The multi-run greedy's device buffers: the vertices sorted by key, the
   runs' candidate segments (vertex, key, run: cv / ck / cs, double-buffered
   with cv2 / ck2 / cs2), their keep flags, segment offsets (cnt), and per
   run the size, pick, argmax index and key, the segment needles, and the
   select's count. */
struct gclq__greedy_bufs {
  gclq__dmem sorted, cnt, cv, ck, cs, cv2, ck2, cs2, flag, sizes, pick, idx, mx, needles, num;
  explicit gclq__greedy_bufs(gclq__dev *d)
      : sorted(d), cnt(d), cv(d), ck(d), cs(d), cv2(d), ck2(d), cs2(d), flag(d), sizes(d), pick(d), idx(d), mx(d),
        needles(d), num(d) {}
};

/* Fill: run s's candidates are the neighbours of seed s (sorted[s]), segment
   s of cv / ck / cs (offsets in cnt, total in all); every run has size 1. */
static inline gclq_status gclq__greedy_fill(gclq__mc_ctx *c, const uint32_t *d_key, uint32_t h, uint64_t total,
                                            gclq__greedy_bufs &b) {
  cudaStream_t stream = c->dev.stream;
  uint32_t *sd = b.sorted.as<uint32_t>();
  uint64_t *co;
  gclq_status st;
  GCLQ__TRY(b.cnt.get(((size_t)h + 1) * sizeof(uint64_t)));
  co = b.cnt.as<uint64_t>();
  gclq__seed_degree_kernel<<<gclq__grid((uint64_t)h + 1), GCLQ__BLOCK, 0, stream>>>(sd, h, c->dg.d_deg, co);
  if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  GCLQ__TRY(gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)co, co, (size_t)h + 1, gprim_op_sum(), (uint64_t)0, stream);
  }));
  if ((st = b.cv.get(total * 4)) || (st = b.ck.get(total * 4)) || (st = b.cs.get(total * 4)) ||
      (st = b.cv2.get(total * 4)) || (st = b.ck2.get(total * 4)) || (st = b.cs2.get(total * 4)) ||
      (st = b.flag.get(total)) || (st = b.sizes.get((size_t)h * 4)) || (st = b.pick.get((size_t)h * 4)) ||
      (st = b.idx.get((size_t)h * 8)) || (st = b.mx.get((size_t)h * 4)) || (st = b.needles.get(((size_t)h + 1) * 4)) ||
      (st = b.num.get(sizeof(size_t))))
    return st;
  if (total > 0) { /* expand the segments: load-balancing search */
    gclq__dmem parent(&c->dev), rank(&c->dev);
    uint64_t *pa, *ra;
    if ((st = parent.get(total * 8)) || (st = rank.get(total * 8))) return st;
    pa = parent.as<uint64_t>();
    ra = rank.as<uint64_t>();
    GCLQ__TRY(gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
      return gprim_load_balance_search(t, tb, (const uint64_t *)co, (size_t)h, (size_t)total, pa, ra, stream);
    }));
    gclq__seed_fill_kernel<<<gclq__grid(total), GCLQ__BLOCK, 0, stream>>>(
        pa, ra, total, sd, c->dg.d_off, c->dg.d_nbr, d_key, b.cv.as<uint32_t>(), b.ck.as<uint32_t>(), b.cs.as<uint32_t>());
    if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  }
  gclq__fill_kernel<<<gclq__grid(h), GCLQ__BLOCK, 0, stream>>>(b.sizes.as<uint32_t>(), h, 1);
  gclq__iota_kernel<<<gclq__grid((uint64_t)h + 1), GCLQ__BLOCK, 0, stream>>>(b.needles.as<uint32_t>(), (uint64_t)h + 1);
  if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  return GCLQ_SUCCESS;
}

/* Step: segmented argmax picks each run's candidate of highest key (the
   picks go to (*hpicks)[iter * h ..], grown as needed); a candidate stays
   when adjacent to its run's pick (select); the segments are found again by
   sorted search. *total: the candidates left. */
static inline gclq_status gclq__greedy_step(gclq__mc_ctx *c, uint32_t h, uint32_t iter, uint64_t *total,
                                            uint32_t **hpicks, uint64_t *picks_cap, gclq__greedy_bufs &b) {
  cudaStream_t stream = c->dev.stream;
  uint32_t *a_v = b.cv.as<uint32_t>(), *a_k = b.ck.as<uint32_t>(), *a_s = b.cs.as<uint32_t>();
  uint32_t *b_v = b.cv2.as<uint32_t>(), *b_k = b.ck2.as<uint32_t>(), *b_s = b.cs2.as<uint32_t>();
  uint64_t *co = b.cnt.as<uint64_t>(), *ix = b.idx.as<uint64_t>();
  uint32_t *mo = b.mx.as<uint32_t>(), *ne = b.needles.as<uint32_t>();
  uint8_t *fl = b.flag.as<uint8_t>();
  size_t *d_num = b.num.as<size_t>(), ntot = (size_t)*total, got = 0;
  gclq_status st;
  GCLQ__TRY(gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
    return gprim_segmented_argmax(t, tb, (const uint32_t *)a_k, mo, ix, (size_t)h, (const uint64_t *)co, stream);
  }));
  gclq__pick_kernel<<<gclq__grid(h), GCLQ__BLOCK, 0, stream>>>(ix, h, a_v, b.pick.as<uint32_t>(), b.sizes.as<uint32_t>());
  gclq__keep_kernel<<<gclq__grid(*total), GCLQ__BLOCK, 0, stream>>>(a_v, a_s, *total, b.pick.as<uint32_t>(), c->dg.d_off,
                                                                    c->dg.d_nbr, fl);
  if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  if ((uint64_t)(iter + 1) * h > *picks_cap) {
    uint64_t cap = *picks_cap ? 2 * *picks_cap : 8 * (uint64_t)h;
    uint32_t *grown = (uint32_t *)GCLQ_REALLOC(*hpicks, (size_t)cap * sizeof(uint32_t));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    *hpicks = grown;
    *picks_cap = cap;
  }
  GCLQ__TRY(gclq__dev_read(&c->dev, *hpicks + (size_t)iter * h, b.pick.p, (size_t)h * sizeof(uint32_t)));
  st = gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
    return gprim_select_flagged(t, tb, (const uint32_t *)a_v, (const uint8_t *)fl, b_v, d_num, ntot, stream);
  });
  if (st == GCLQ_SUCCESS)
    st = gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
      return gprim_select_flagged(t, tb, (const uint32_t *)a_k, (const uint8_t *)fl, b_k, d_num, ntot, stream);
    });
  if (st == GCLQ_SUCCESS)
    st = gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
      return gprim_select_flagged(t, tb, (const uint32_t *)a_s, (const uint8_t *)fl, b_s, d_num, ntot, stream);
    });
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(&c->dev, &got, d_num, sizeof got);
  if (st != GCLQ_SUCCESS) return st;
  *total = got;
  if (*total > 0) {
    GCLQ__TRY(gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
      return gprim_sorted_search(t, tb, (const uint32_t *)ne, (size_t)h + 1, (const uint32_t *)b_s, (size_t)*total,
                                 co, GPRIM_LOWER_BOUND, stream);
    }));
  }
  { /* the kept candidates become the current ones */
    void *t = b.cv.p;
    b.cv.p = b.cv2.p, b.cv2.p = t;
    t = b.ck.p, b.ck.p = b.ck2.p, b.ck2.p = t;
    t = b.cs.p, b.cs.p = b.cs2.p, b.cs2.p = t;
  }
  return GCLQ_SUCCESS;
}

/* Multi-run greedy (the dissertation, Alg. 2): h runs side by side, run s
   seeded by the vertex of s-th highest key, its candidates the seed's
   neighbours (one segment each): seeds, fill, then steps until no run has
   a candidate left. The best run is the bound. */
static inline gclq_status gclq__mc_greedy_multi(gclq__mc_ctx *c, const gclq_graph *g, const uint32_t *d_key, uint32_t seeds,
                                         uint32_t *clique, uint32_t *size) {
  const uint32_t n = c->dg.n;
  uint32_t h = seeds < n ? seeds : n, s, best_s = 0, it, iters = 0;
  uint32_t *hseeds = NULL, *hpicks = NULL, *hsizes = NULL;
  uint64_t total = 0, picks_cap = 0;
  gclq_status st = GCLQ_SUCCESS;
  gclq__greedy_bufs b(&c->dev);
  /* seeds: the h vertices of highest key */
  GCLQ__TRY(b.sorted.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gclq__mc_sort_by(c, d_key, 1, b.sorted.as<uint32_t>()));
  hseeds = (uint32_t *)GCLQ_MALLOC((size_t)h * sizeof(uint32_t));
  hsizes = (uint32_t *)GCLQ_MALLOC((size_t)h * sizeof(uint32_t));
  if (hseeds == NULL || hsizes == NULL) {
    st = GCLQ_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  st = gclq__dev_read(&c->dev, hseeds, b.sorted.p, (size_t)h * sizeof(uint32_t));
  if (st != GCLQ_SUCCESS) goto done;
  /* the candidates of every run must fit 32-bit select sizes: fewer seeds if not */
  for (;;) {
    total = 0;
    for (s = 0; s < h; ++s) total += g->h_offsets[hseeds[s] + 1] - g->h_offsets[hseeds[s]];
    if (total < 0xffffffffull || h == 1) break;
    h /= 2;
  }
  st = gclq__greedy_fill(c, d_key, h, total, b);
  if (st != GCLQ_SUCCESS) goto done;
  while (total > 0) {
    st = gclq__greedy_step(c, h, iters, &total, &hpicks, &picks_cap, b);
    if (st != GCLQ_SUCCESS) goto done;
    ++iters;
  }
  /* the best run */
  if ((st = gclq__dev_read(&c->dev, hsizes, b.sizes.p, (size_t)h * sizeof(uint32_t))) != GCLQ_SUCCESS) goto done;
  for (s = 1; s < h; ++s)
    if (hsizes[s] > hsizes[best_s]) best_s = s;
  *size = 0;
  clique[(*size)++] = hseeds[best_s];
  for (it = 0; it < iters && hpicks[(size_t)it * h + best_s] != 0xffffffffu; ++it)
    clique[(*size)++] = hpicks[(size_t)it * h + best_s];
done:
  GCLQ_FREE(hseeds);
  GCLQ_FREE(hpicks);
  GCLQ_FREE(hsizes);
  return st;
}

/* The 2-clique counts of the sources a.order[0, a.n), scanned into *pos
   (a.n + 1 entries, allocated here); *total = their sum. */
static inline gclq_status gclq__mc_two_count(gclq__mc_ctx *c, const gclq__setup_args &a, gclq__dmem *pos,
                                             uint64_t *total) {
  cudaStream_t stream = c->dev.stream;
  GCLQ__TRY(pos->get(((size_t)a.n + 1) * sizeof(uint64_t)));
  uint64_t *d_pos = pos->as<uint64_t>();
  gclq__two_count_kernel<<<gclq__grid_warps((uint64_t)a.n + 1), 32 * GCLQ__CWARPS, 0, stream>>>(a, d_pos);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)d_pos, d_pos, (size_t)a.n + 1, gprim_op_sum(), (uint64_t)0,
                                stream);
  }));
  GCLQ__TRY(gclq__dev_read(&c->dev, total, d_pos + a.n, sizeof *total));
  return *total >= 0xffffffffull ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS; /* entries are u32 sublist ids */
}

/* The 2-clique list of those sources (total > 0 entries at d_pos) into
   *vid / *sid, candidates sorted by degree within sublists (the dissertation, Alg. 3
   line 40); the sort keys live only for the call. */
static inline gclq_status gclq__mc_two_write(gclq__mc_ctx *c, const gclq__setup_args &a, const uint64_t *d_pos,
                                             uint64_t total, gclq__dmem *vid, gclq__dmem *sid) {
  cudaStream_t stream = c->dev.stream;
  gclq__dmem key(&c->dev);
  GCLQ__TRY(key.get((size_t)total * sizeof(uint64_t)));
  GCLQ__TRY(vid->get((size_t)total * sizeof(uint32_t)));
  GCLQ__TRY(sid->get((size_t)total * sizeof(uint32_t)));
  uint64_t *d_key = key.as<uint64_t>();
  gclq__two_write_kernel<<<gclq__grid_warps(a.n), 32 * GCLQ__CWARPS, 0, stream>>>(a, d_pos, d_key, sid->as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__dev_prim(&c->dev, [&](void *t, size_t *tb) {
    return gprim_segmented_sort_keys(t, tb, (const uint64_t *)d_key, d_key, (size_t)total, (size_t)a.n, d_pos, stream);
  }));
  gclq__low_word_kernel<<<gclq__grid(total), GCLQ__BLOCK, 0, stream>>>(d_key, total, vid->as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* 2-cliques a list may hold: a quarter of the budget's room at 32 bytes
   each (key, vid, sid, the sort's room); the rest is for the levels below. */
static inline uint64_t gclq__two_cap(const gclq__mc_ctx *c) {
  return c->dev.used < c->dev.budget ? (uint64_t)(c->dev.budget - c->dev.used) / 4 / 32 : 0;
}

/* The first i in [0, n] with h[i] >= want (h ascending, h[n] >= want). */
static inline uint64_t gclq__first_at_least(const uint64_t *h, uint64_t n, uint64_t want) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (h[mid] < want) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* cores: k-core numbers (always: they bound the clique size, so the level
   table) and, oriented by degeneracy, each vertex's peeling round (into
   round, c->dg.d_round); then the level tables on the host and the device
   (d_levels). */
static inline gclq_status gclq__mc_run_cores(gclq__mc_ctx *c, gclq__dmem *round, gclq__dmem *d_levels,
                                             uint32_t *max_core) {
  gclq_maxclique_stats *stats = c->stats;
  gclq__clock::time_point t0 = gclq__clock::now();
  c->dev.phase = "cores";
  if (c->plan->orient_degeneracy) {
    GCLQ__TRY(round->get((size_t)c->dg.n * sizeof(uint32_t) + 4));
    c->dg.d_round = round->as<uint32_t>();
  }
  GCLQ__TRY(gclq__graph_cores(&c->dev, &c->dg, max_core));
  stats->max_core = *max_core;
  stats->cores_ms = gclq__ms_since(t0);
  c->d_filter = c->plan->prune_core ? c->dg.d_core : c->dg.d_deg;
  c->max_levels = *max_core + 3;
  c->levels = (gclq__level_ptrs *)GCLQ_MALLOC(c->max_levels * sizeof(gclq__level_ptrs));
  c->level_len = (uint64_t *)GCLQ_MALLOC(c->max_levels * sizeof(uint64_t));
  if (c->levels == NULL || c->level_len == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(c->levels, 0, c->max_levels * sizeof(gclq__level_ptrs));
  memset(c->level_len, 0, c->max_levels * sizeof(uint64_t));
  GCLQ__TRY(d_levels->get(c->max_levels * sizeof(gclq__level_ptrs)));
  c->d_levels = d_levels->as<gclq__level_ptrs>();
  return GCLQ_SUCCESS;
}

/* heuristic: the lower bound and a clique of that size (kept in mode ONE);
   sets c->best and c->target. */
static inline gclq_status gclq__mc_run_heuristic(gclq__mc_ctx *c, const gclq_graph *g, uint32_t max_core) {
  const gclq__mc_plan *p = c->plan;
  gclq_maxclique_stats *stats = c->stats;
  uint32_t lb = 1, *hclique;
  gclq_status st = GCLQ_SUCCESS;
  gclq__clock::time_point t0;
  char line[160];
  hclique = (uint32_t *)GCLQ_MALLOC(((size_t)max_core + 2) * sizeof(uint32_t));
  if (hclique == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  c->dev.phase = "heuristic";
  t0 = gclq__clock::now();
  hclique[0] = 0;
  if (p->heuristic != GCLQ_HEURISTIC_NONE) {
    const uint32_t *key = p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE || p->heuristic == GCLQ_HEURISTIC_MULTI_CORE
                              ? c->dg.d_core : c->dg.d_deg;
    uint32_t h = p->seeds; /* resolved by the chooser (gclq__mc_choose) */
    if (p->heuristic == GCLQ_HEURISTIC_SINGLE_DEGREE || p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE)
      st = gclq__mc_greedy_single(c, key, hclique, &lb);
    else
      while ((st = gclq__mc_greedy_multi(c, g, key, h, hclique, &lb)) == GCLQ_ERROR_OUT_OF_MEMORY && h > 1) {
        h = (h + 1) / 2; /* under a small budget: fewer runs */
        if (p->log) {
          snprintf(line, sizeof line, "heuristic: %u runs, to fit the budget", h);
          gclq__dev_log(&c->dev, line);
        }
      }
    if (st == GCLQ_ERROR_OUT_OF_MEMORY) { /* the bound only prunes: go on without it */
      lb = 1, hclique[0] = 0, st = GCLQ_SUCCESS;
      gclq__dev_log(&c->dev, "heuristic: does not fit the budget; lower bound 1");
    }
  }
  stats->heuristic_ms = gclq__ms_since(t0);
  stats->lower_bound = lb;
  c->best = lb;
  c->target = p->find_one ? lb + 1 : lb;
  if (st == GCLQ_SUCCESS && p->find_one) st = gclq__mc_keep_rows(c, hclique, 1, lb, 1, 1);
  GCLQ_FREE(hclique);
  GCLQ__TRY(st);
  if (p->log) {
    snprintf(line, sizeof line, "heuristic: lower bound %u; max core %u", lb, max_core);
    gclq__dev_log(&c->dev, line);
  }
  return GCLQ_SUCCESS;
}

/* setup: the sources in window order (order) and the arguments of the
   2-clique kernels over them (sa). */
static inline gclq_status gclq__mc_run_order(gclq__mc_ctx *c, gclq__dmem *order, gclq__setup_args *sa) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = c->dg.n;
  cudaStream_t stream = c->dev.stream;
  GCLQ__TRY(order->get((size_t)n * sizeof(uint32_t)));
  if (p->order == GCLQ_WINDOW_ORDER_INDEX) {
    gclq__iota_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(order->as<uint32_t>(), n);
    GCLQ__CUDA_TRY(cudaGetLastError());
  } else {
    int by_core = p->order == GCLQ_WINDOW_ORDER_CORE_ASC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
    int desc = p->order == GCLQ_WINDOW_ORDER_DEGREE_DESC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
    GCLQ__TRY(gclq__mc_sort_by(c, by_core ? c->dg.d_core : c->dg.d_deg, desc, order->as<uint32_t>()));
  }
  sa->order = order->as<uint32_t>();
  sa->n = n;
  sa->off = c->dg.d_off;
  sa->nbr = c->dg.d_nbr;
  sa->deg = c->dg.d_deg;
  sa->filter = c->d_filter;
  sa->target = c->target;
  sa->round = p->orient_degeneracy ? c->dg.d_round : NULL;
  sa->orient_index = p->orient_index;
  sa->colour = p->bound != GCLQ_BOUND_LENGTH;
  return GCLQ_SUCCESS;
}

/* setup of the list search: the 2-clique list counted for every source
   (*t2 entries); built whole into vid2 / sid2 when it fits a quarter of the
   budget's room, else left to the windows (*chunked). *hpos gets the host
   copy of the sources' list positions when windows need it (n + 1 entries,
   GCLQ_MALLOC'd; NULL otherwise, and on failure). */
static inline gclq_status gclq__mc_run_two_list(gclq__mc_ctx *c, const gclq__setup_args &sa, gclq__dmem *vid2,
                                                gclq__dmem *sid2, uint64_t *t2, uint64_t **hpos_out, int *chunked) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = c->dg.n;
  gclq__dmem pos(&c->dev);
  uint64_t *hpos = NULL;
  gclq_status st = GCLQ_SUCCESS;
  *hpos_out = NULL;
  GCLQ__TRY(gclq__mc_two_count(c, sa, &pos, t2));
  *chunked = !p->no_split && *t2 > gclq__two_cap(c);
  if (*t2 > 0 && (p->window > 0 || *chunked)) {
    hpos = (uint64_t *)GCLQ_MALLOC(((size_t)n + 1) * sizeof(uint64_t));
    if (hpos == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    st = gclq__dev_read(&c->dev, hpos, pos.p, ((size_t)n + 1) * sizeof(uint64_t));
    if (st != GCLQ_SUCCESS) {
      GCLQ_FREE(hpos);
      return st;
    }
  }
  if (*t2 > 0 && !*chunked) st = gclq__mc_two_write(c, sa, pos.as<uint64_t>(), *t2, vid2, sid2);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(hpos);
    return st;
  }
  *hpos_out = hpos;
  return GCLQ_SUCCESS;
}

/* search: the per-step buffers, once for the whole search (d_pos, d_step,
   d_scan). Parents counted per step: GCLQ__STEP_ENTRIES, fewer under a small
   budget (the counts take at most an eighth of what is left). */
static inline gclq_status gclq__mc_run_step_buffers(gclq__mc_ctx *c, gclq__dmem *d_pos, gclq__dmem *d_step,
                                                    gclq__dmem *d_scan) {
  uint64_t pc = c->plan->step, left = c->dev.budget > c->dev.used ? c->dev.budget - c->dev.used : 0;
  while (pc > 256 && (pc + 1) * 2 * sizeof(uint64_t) > left / 8) pc /= 2;
  gclq_status st = d_step->get(3 * sizeof(uint64_t));
  c->d_step = d_step->as<uint64_t>();
  if (st == GCLQ_SUCCESS) st = gclq__mc_step_counts(c, pc, d_pos, d_scan);
  return st;
}

/* search, window by window over the 2-clique list (hpos: the sources' list
   positions): the user's window, and when the list is built window by window
   (chunked), each window's sublists built against the bound so far. */
static inline gclq_status gclq__mc_run_windows(gclq__mc_ctx *c, const gclq__setup_args &sa, const uint64_t *hpos,
                                               uint64_t t2, int chunked) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = c->dg.n;
  gclq_maxclique_stats *stats = c->stats;
  gclq_status st = GCLQ_SUCCESS;
  char line[160];
  for (uint64_t pa = 0; st == GCLQ_SUCCESS && hpos[pa] < t2;) {
    /* the sources [pa, pb): the user's window (ends at the first sublist end
       at or after a + window), and when the list is built window by window,
       the sublists that fit its share of the budget (at least one) */
    const uint64_t a = hpos[pa];
    uint64_t pb = n;
    if (p->window > 0 && t2 - a > p->window) pb = gclq__first_at_least(hpos, n, a + p->window);
    if (chunked) {
      const uint64_t cap = gclq__two_cap(c), one = gclq__first_at_least(hpos, n, a + 1);
      uint64_t q = cap >= t2 - a ? n : gclq__first_at_least(hpos, n, a + cap + 1) - 1;
      if (q < one) q = one;
      if (q < pb) pb = q;
    }
    const uint64_t b = hpos[pb];
    stats->windows++;
    if (p->log && (p->window > 0 || chunked)) {
      snprintf(line, sizeof line, "window %u: 2-cliques %llu..%llu of %llu, bound %u", stats->windows,
               (unsigned long long)a, (unsigned long long)b, (unsigned long long)t2, c->best);
      gclq__dev_log(&c->dev, line);
    }
    if (!chunked) {
      st = gclq__mc_expand(c, 2, a, b);
    } else { /* this window's sublists, against the bound so far */
      gclq__dmem pos(&c->dev), wv(&c->dev), ws(&c->dev);
      gclq__setup_args wa = sa;
      uint64_t len = 0;
      wa.order = sa.order + pa;
      wa.n = (uint32_t)(pb - pa);
      wa.target = c->target;
      c->dev.phase = "a window's 2-clique list";
      st = gclq__mc_two_count(c, wa, &pos, &len);
      if (st == GCLQ_SUCCESS && len > 0) st = gclq__mc_two_write(c, wa, pos.as<uint64_t>(), len, &wv, &ws);
      pos.release();
      if (st == GCLQ_SUCCESS) st = gclq__mc_count_level(c, 2, len);
      c->dev.phase = "search";
      if (st == GCLQ_SUCCESS && len > 0) {
        c->levels[2].vid = wv.as<uint32_t>();
        c->levels[2].sid = ws.as<uint32_t>();
        c->level_len[2] = len;
        st = gclq__mc_expand(c, 2, 0, len);
        c->levels[2].vid = NULL;
        c->levels[2].sid = NULL;
        c->level_len[2] = 0;
      }
    }
    pa = pb;
  }
  return st;
}

/* The whole CUDA run on a graph with at least one edge, phase by phase
   (upload, cores, heuristic, setup, search). Rows (compact ids, unsorted)
   stay in c->rows, c->num_rows of c->best ids each. */
static inline gclq_status gclq__mc_run(gclq__mc_ctx *c, const gclq_graph *g) {
  const gclq__mc_plan *p = c->plan;
  cudaStream_t stream = c->dev.stream;
  gclq_maxclique_stats *stats = c->stats;
  uint32_t max_core = 0;
  uint64_t t2 = 0, *hpos = NULL;
  gclq_status st = GCLQ_SUCCESS;
  gclq__clock::time_point t0;
  char line[160];
  c->dg.n = g->num_vertices;

  gclq__dmem off(&c->dev), nbr(&c->dev), deg(&c->dev), core(&c->dev), round(&c->dev), d_levels(&c->dev);
  GCLQ__TRY(gclq__graph_upload(&c->dev, g, &c->dg, &off, &nbr, &deg, &core));
  stats->upload_ms = c->dg.upload_ms;
  GCLQ__TRY(gclq__mc_run_cores(c, &round, &d_levels, &max_core));
  GCLQ__TRY(gclq__mc_run_heuristic(c, g, max_core));

  /* setup: the 2-clique list (Alg. 3). Counted for every source; built
     whole when it fits a quarter of the budget's room, else source window
     by source window during the search (each window's list built against the
     bound of that moment), so that only the graph itself must fit. The
     bitset search, when it runs, is the whole rest of the run. */
  t0 = gclq__clock::now();
  c->dev.phase = "the 2-clique list";
  gclq__dmem vid2(&c->dev), sid2(&c->dev), order(&c->dev);
  gclq__setup_args sa;
  int chunked = 0;
  GCLQ__TRY(gclq__mc_run_order(c, &order, &sa));
  if (p->search == GCLQ_SEARCH_BITSET) {
    int ran = 0;
    st = gclq__mc_bits(c, sa, &ran);
    if (st != GCLQ_SUCCESS || ran) {
      stats->search_ms = gclq__ms_since(t0) - stats->setup_ms;
      stats->readout_ms = c->readout_ms;
      return st;
    }
  }
  stats->search = GCLQ_SEARCH_LIST;
  GCLQ__TRY(gclq__mc_run_two_list(c, sa, &vid2, &sid2, &t2, &hpos, &chunked));
  if (!chunked) order.release();
  GCLQ__CUDA_TRY(cudaStreamSynchronize(stream));
  stats->setup_ms = gclq__ms_since(t0);
  stats->two_cliques = t2;
  st = chunked ? GCLQ_SUCCESS : gclq__mc_count_level(c, 2, t2);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(hpos);
    return st;
  }
  if (p->log) {
    snprintf(line, sizeof line, "level 2: %llu candidates (the 2-clique list%s)", (unsigned long long)t2,
             chunked ? ", built window by window: the budget holds no more" : "");
    gclq__dev_log(&c->dev, line);
  }

  /* search: breadth-first over the clique list, window by window (Alg. 4) */
  t0 = gclq__clock::now();
  c->dev.phase = "search";
  c->levels[2].vid = vid2.as<uint32_t>();
  c->levels[2].sid = sid2.as<uint32_t>();
  c->level_len[2] = t2;
  gclq__dmem d_pos(&c->dev), d_step(&c->dev), d_scan(&c->dev);
  if (t2 > 0) st = gclq__mc_run_step_buffers(c, &d_pos, &d_step, &d_scan);
  if (st == GCLQ_SUCCESS && t2 > 0 && hpos == NULL) { /* one window */
    stats->windows++;
    st = gclq__mc_expand(c, 2, 0, t2);
  }
  if (st == GCLQ_SUCCESS && hpos != NULL) st = gclq__mc_run_windows(c, sa, hpos, t2, chunked);
  GCLQ_FREE(hpos);
  stats->search_ms = gclq__ms_since(t0);
  stats->readout_ms = c->readout_ms;
  return st;
}

/* CUDA backend entry: graph with at least one edge, plan resolved. Out:
   omega, the number of rows and the rows (compact ids, GCLQ_MALLOC'd,
   unsorted); stats filled. */
static inline gclq_status gclq__cuda_max_cliques(const gclq_graph *g, const gclq__mc_plan *plan, uint32_t *omega,
                                                 uint64_t *count, uint64_t *stored, uint32_t **rows,
                                                 gclq_maxclique_stats *stats) {
  gclq__mc_ctx c;
  gclq_status st;
  if (g->num_vertices >= GCLQ__DEAD) return GCLQ_ERROR_INVALID_ARGUMENT; /* ids need their top bit free */
  memset(&c, 0, sizeof c);
  gclq__dev_init(&c.dev, plan->stream, &plan->allocator, plan->budget);
  c.dev.log = plan->log;
  c.dev.log_user = plan->log_user;
  c.plan = plan;
  c.stats = stats;
  if (c.dev.budget == 0) GCLQ__TRY(gclq__default_budget(&c.dev.budget));
  stats->budget_bytes = c.dev.budget;
  gclq__pool_keep keep;
  gclq__pool_keep_begin(&keep, &plan->allocator);
  st = gclq__mc_run(&c, g);
  if (cudaStreamSynchronize(c.dev.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  gclq__pool_keep_end(&keep);
  stats->peak_device_bytes = c.dev.peak;
  GCLQ_FREE(c.levels);
  GCLQ_FREE(c.level_len);
  if (st == GCLQ_SUCCESS && c.found == 0) st = GCLQ_ERROR_CUDA; /* cannot happen: the bound's clique is found */
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(c.rows);
    return st;
  }
  *omega = c.best;
  *count = c.found;
  *stored = c.num_rows;
  *rows = c.rows;
  return GCLQ_SUCCESS;
}
