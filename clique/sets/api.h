/* clique/sets/api.h - the public calls of set intersection and what they
   run: every batch through the plan's backend (gclq__sets_batches: HOST, or
   the CUDA driver), all pairs at once on CUDA, the containment join's split
   (gclq__mmjoin_plan) run serially or beside the device (co-processing),
   and the entry points that check, choose (gclq__sets_choose,
   clique/sets/choose.h), run and finish. */
#if defined(__CUDACC__)
/* All pairs at once on CUDA, by the plan's all-pairs method (INVERTED_INDEX
   or BIT_MATRIX), into the sink; *ran = 0 when the plan takes the pairs in
   batches, or AUTO's structure does not fit the budget (the batches then
   run, halving until they fit). The one choice made on device data: where
   the plan's estimate is unsure (count_columns) the bit matrix's columns
   are counted here, and gclq__sets_choose_columns picks again (the columns
   stay for the bit matrix). */
static gclq_status gclq__sets_whole_run(gclq__sets_dev *dev, gclq__sets_sink *k, const gclq__sets_plan *plan,
                                        int *ran) {
  gclq__sets_all_state all(&dev->c); /* freed at the return, before the close */
  gclq_intersect_method whole = plan->all_method;
  gclq_status st;
  int fed;
  *ran = 0;
  if (plan->count_columns) {
    const gclq_status cs = gclq__sets_bm_columns(dev, &all.mx);
    if (cs == GCLQ_SUCCESS) whole = gclq__sets_choose_columns(plan, k->work, all.mx.cols);
    else if (cs != GCLQ_ERROR_OUT_OF_MEMORY) return cs;
    else if (k->opt->log != NULL)
      k->opt->log(k->opt->log_user, "sets: AUTO had no room to count the columns; the estimate's pick stands");
  }
  if (!gclq__sets_whole(whole)) return GCLQ_SUCCESS;
  st = gclq__cuda_sets_all(dev, k, whole, plan->tensor, all, &fed);
  *ran = 1;
  if (st == GCLQ_ERROR_OUT_OF_MEMORY && !fed && plan->method == GCLQ_INTERSECT_AUTO) {
    /* AUTO's structure does not fit the budget: the pairs in batches, which halve until they fit */
    if (k->opt->log != NULL) {
      char line[120];
      snprintf(line, sizeof line, "sets: AUTO's %s does not fit the device budget; pairs in batches instead",
               gclq_intersect_method_name(whole));
      k->opt->log(k->opt->log_user, line);
    }
    st = GCLQ_SUCCESS;
    *ran = 0;
    k->r->stats.method = GCLQ_INTERSECT_AUTO;
  }
  return st;
}
#endif

/* Every batch of the call through the plan's backend into the sink: the
   pairs h_pairs, or (h_pairs NULL) all pairs i < j, which INVERTED_INDEX
   and BIT_MATRIX count at once. */
static gclq_status gclq__sets_batches(gclq__sets_sink *k, const gclq__sets_plan *plan, const uint32_t *h_pairs,
                                      uint64_t num_pairs) {
  const gclq_backend backend = plan->backend;
  uint64_t cap = num_pairs < GCLQ__SETS_BATCH ? num_pairs : GCLQ__SETS_BATCH, at = 0;
  uint32_t *counts, *buf = NULL, ai = 0, aj = 1;
  gclq_status st = GCLQ_SUCCESS;
#if defined(__CUDACC__)
  gclq__sets_dev dev;
  int whole_ran = 0;
  if (backend == GCLQ_BACKEND_CUDA) {
    st = gclq__cuda_sets_open(&dev, k->work, k->opt, &k->r->stats);
    dev.method = plan->method; /* the device state reads the plan */
    dev.auto_ip_obs = plan->auto_ip_obs;
  }
  if (st == GCLQ_SUCCESS && backend == GCLQ_BACKEND_CUDA && h_pairs == NULL)
    st = gclq__sets_whole_run(&dev, k, plan, &whole_ran);
  if (whole_ran) {
    gclq__cuda_sets_close(&dev, &st);
    return st;
  }
#endif
  counts = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  if (h_pairs == NULL) buf = (uint32_t *)gclq__alloc_array(2 * cap, sizeof(uint32_t));
  if (counts == NULL || (h_pairs == NULL && buf == NULL)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  while (st == GCLQ_SUCCESS && at < num_pairs) {
    uint64_t n = num_pairs - at < cap ? num_pairs - at : cap;
    const uint32_t *pairs = h_pairs ? h_pairs + 2 * at : buf;
    if (h_pairs == NULL) gclq__sets_next_pairs(k->work->num_sets, &ai, &aj, buf, n);
    if (k->opt->log != NULL && num_pairs > cap) {
      char line[96];
      snprintf(line, sizeof line, "sets: pairs %llu to %llu of %llu", (unsigned long long)at,
               (unsigned long long)(at + n), (unsigned long long)num_pairs);
      k->opt->log(k->opt->log_user, line);
    }
    if (backend == GCLQ_BACKEND_HOST) {
      st = gclq__host_sets_run(k, pairs, n, counts);
    } else {
#if defined(__CUDACC__)
      st = gclq__cuda_sets_run(&dev, k, pairs, n, counts);
#else
      st = GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
    }
    at += n;
  }
#if defined(__CUDACC__)
  if (backend == GCLQ_BACKEND_CUDA) gclq__cuda_sets_close(&dev, &st);
#endif
  GCLQ_FREE(counts);
  GCLQ_FREE(buf);
  return st;
}

/* Both halves one after the other (HOST, or a build without nvcc): the
   light part, then the heavy part through the backend. */
static gclq_status gclq__mmjoin_serial(gclq__sets_sink *k, const gclq__sets_plan *plan, uint64_t num_pairs) {
  clock_t t0 = clock(), t1;
  gclq_status st = gclq__mmjoin_light(k->sets, k->light);
  k->light->status = st;
  t1 = clock();
  k->r->stats.split.host_ms = (double)(t1 - t0) * 1000.0 / CLOCKS_PER_SEC;
  if (st == GCLQ_SUCCESS) st = gclq__sets_batches(k, plan, NULL, num_pairs);
  k->r->stats.split.device_ms = (double)(clock() - t1) * 1000.0 / CLOCKS_PER_SEC;
  return st;
}

#if defined(__CUDACC__)
/* Co-processing: the light part in a host thread while this one runs the
   heavy part on the device; the sink joins the thread before it adds the
   first light count (gclq__mmjoin_join, through the sink's wait). Times
   are from origin, when both halves start. */
struct gclq__mmjoin_host {
  gclq__mmjoin *m;
  const gclq_sets *sets;
  std::thread th;
  bool running;
  gclq__clock::time_point origin;
  double begin_ms, end_ms, wait_at_ms, wait_ms;
};

static gclq_status gclq__mmjoin_join(void *user) {
  gclq__mmjoin_host *h = (gclq__mmjoin_host *)user;
  if (h->running) {
    gclq__clock::time_point w = gclq__clock::now();
    h->th.join();
    h->running = false;
    h->wait_ms = gclq__ms_since(w);
    h->wait_at_ms = std::chrono::duration<double, std::milli>(w - h->origin).count();
  }
  return h->m->status;
}

static void gclq__mmjoin_body(gclq__mmjoin_host *h) {
  h->begin_ms = gclq__ms_since(h->origin);
  h->m->status = gclq__mmjoin_light(h->sets, h->m);
  h->end_ms = gclq__ms_since(h->origin);
}

static gclq_status gclq__mmjoin_cuda(gclq__sets_sink *k, const gclq__sets_plan *plan, uint64_t num_pairs) {
  gclq__mmjoin_host h;
  gclq_intersect_stats *stats = &k->r->stats;
  gclq_status st, js;
  double device_end;
  h.m = k->light;
  h.sets = k->sets;
  h.running = false;
  h.begin_ms = h.end_ms = h.wait_ms = 0.0;
  h.wait_at_ms = -1.0;
  h.origin = gclq__clock::now();
  try {
    h.th = std::thread(gclq__mmjoin_body, &h);
    h.running = true;
  } catch (...) { /* no thread to be had: the light part first, here */
    gclq__mmjoin_body(&h);
  }
  k->wait = gclq__mmjoin_join;
  k->wait_user = &h;
  st = gclq__sets_batches(k, plan, NULL, num_pairs);
  device_end = gclq__ms_since(h.origin);
  js = gclq__mmjoin_join(&h); /* still running when the device failed before its first count */
  k->wait = NULL;
  if (st == GCLQ_SUCCESS) st = js;
  if (h.wait_at_ms < 0.0) h.wait_at_ms = device_end; /* the device never waited */
  stats->split.host_ms = h.end_ms - h.begin_ms;
  stats->split.device_ms = device_end - h.wait_ms;
  stats->split.wait_ms = h.wait_ms;
  stats->split.overlap_ms = (h.end_ms < h.wait_at_ms ? h.end_ms : h.wait_at_ms) - h.begin_ms;
  if (stats->split.overlap_ms < 0.0) stats->split.overlap_ms = 0.0;
  return st;
}
#endif

/* The containment join with the split: the heavy part is what the backend
   counts (k->work), the light counts are added in the sink. */
static gclq_status gclq__mmjoin_batches(gclq__sets_sink *k, const gclq__sets_plan *plan, uint64_t num_pairs) {
  gclq_status st;
#if defined(__CUDACC__)
  if (plan->backend == GCLQ_BACKEND_CUDA) st = gclq__mmjoin_cuda(k, plan, num_pairs);
  else st = gclq__mmjoin_serial(k, plan, num_pairs);
#else
  st = gclq__mmjoin_serial(k, plan, num_pairs);
#endif
  gclq__mmjoin_stats(k->light, &k->r->stats);
  return st;
}

/* The split of a containment join at threshold `below` (the plan's,
   gclq__sets_split_rule: GCLQ_SPLIT_OFF, none; 0, AUTO's, priced from the
   index by gclq__mmjoin_auto): the index, the heavy part and the sink's row
   of counters (*split = 1), or no split. */
static gclq_status gclq__mmjoin_build(const gclq_sets *s, uint64_t below, gclq__mmjoin *m, int *split) {
  gclq_status st;
  *split = 0;
  memset(m, 0, sizeof *m);
  m->at = UINT64_MAX;
  if (below == GCLQ_SPLIT_OFF) return GCLQ_SUCCESS;
  st = gclq__mmjoin_index(s, m);
  if (st == GCLQ_SUCCESS && below == 0) below = gclq__mmjoin_auto(s, m);
  if (st != GCLQ_SUCCESS || below == GCLQ_SPLIT_OFF) {
    gclq__mmjoin_free(m);
    return st;
  }
  m->below = below;
  m->at = UINT64_MAX;
  st = gclq__mmjoin_heavy(s, m);
  if (st == GCLQ_SUCCESS) {
    m->dense = (uint32_t *)gclq__alloc_array(s->num_sets, sizeof(uint32_t));
    if (m->dense == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    else memset(m->dense, 0, (size_t)s->num_sets * sizeof(uint32_t));
  }
  if (st != GCLQ_SUCCESS) {
    gclq__mmjoin_free(m);
    return st;
  }
  *split = 1;
  return GCLQ_SUCCESS;
}

/* Whether the containment join splits by the options o on backend (the
   chooser's rule, gclq__sets_split_rule), and if so the split's index,
   heavy part and the sink's row of counters (*split = 1). */
static inline gclq_status gclq__mmjoin_plan(const gclq_sets *s, const gclq_intersect_options *o, gclq_backend backend,
                                            gclq__mmjoin *m, int *split) {
  return gclq__mmjoin_build(s, gclq__sets_split_rule(s, o->split_below, backend), m, split);
}

/* The split at the plan's threshold (gclq__mmjoin_build), the index's time
   into the stats. */
static gclq_status gclq__mmjoin_plan_timed(const gclq_sets *sets, uint64_t below, gclq__mmjoin *m, int *split,
                                           gclq_intersect_stats *stats) {
  gclq_status st;
  clock_t i0 = clock();
#if defined(__CUDACC__)
  gclq__clock::time_point iw = gclq__clock::now();
#endif
  st = gclq__mmjoin_build(sets, below, m, split);
#if defined(__CUDACC__)
  if (*split) stats->split.index_ms = gclq__ms_since(iw);
  (void)i0;
#else
  if (*split) stats->split.index_ms = (double)(clock() - i0) * 1000.0 / CLOCKS_PER_SEC;
#endif
  return st;
}

/* The list sink's arrays in the result: a count a pair, and the offsets of
   the intersections when they are written. */
static gclq_status gclq__sets_list_arrays(gclq_intersect_result *r, uint64_t num_pairs, int materialise) {
  r->num_pairs = num_pairs;
  r->h_counts = (uint32_t *)gclq__alloc_array(num_pairs, sizeof(uint32_t));
  if (materialise) r->h_offsets = (uint64_t *)gclq__alloc_array(num_pairs + 1, sizeof(uint64_t));
  if (r->h_counts == NULL || (materialise && r->h_offsets == NULL)) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (materialise) r->h_offsets[0] = 0;
  return GCLQ_SUCCESS;
}

/* Every public intersection call: check, resolve, choose (the plan, which
   the rest only reads), run the batches, finish. kind: GCLQ__SINK_*; all:
   every pair i < j (num_pairs of them), else the pairs h_pairs. */
static gclq_status gclq__sets_call(const gclq_sets *sets, const uint32_t *h_pairs, uint64_t num_pairs, int all,
                                   int kind, const gclq_intersect_options *options, gclq_intersect_result *r) {
  gclq_intersect_options opt;
  gclq__sets_plan plan;
  gclq__sets_sink k;
  gclq__mmjoin m;
  int split = 0;
  gclq_status st;
  clock_t t0 = clock();
#if defined(__CUDACC__)
  gclq__clock::time_point w0 = gclq__clock::now();
#endif
  st = gclq__sets_resolve(options, &opt);
  if (st != GCLQ_SUCCESS) return st;
  if (all) opt.materialise = 0;
  if (!all && gclq__sets_whole(opt.method)) return GCLQ_ERROR_INVALID_ARGUMENT; /* all pairs only */
  if (gclq__sets_check(sets, NULL) != GCLQ_SUCCESS) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (all && kind == GCLQ__SINK_LIST && num_pairs > opt.max_pairs) return GCLQ_ERROR_TOO_LARGE; /* dense counts */
  st = gclq__sets_choose(sets, h_pairs, num_pairs, all, kind, &opt, &plan, &r->stats);
  if (st != GCLQ_SUCCESS) return st;
  memset(&k, 0, sizeof k);
  memset(&m, 0, sizeof m);
  k.kind = kind;
  k.sets = sets;
  k.work = sets;
  k.opt = &opt;
  k.r = r;
  if (kind == GCLQ__SINK_CONTAIN) { /* MMJoin's split: the index and the heavy part first */
    st = gclq__mmjoin_plan_timed(sets, plan.split_below, &m, &split, &r->stats);
    if (split) k.light = &m, k.work = &m.heavy; /* the backend counts the heavy part */
  }
  if (st == GCLQ_SUCCESS && all && plan.backend == GCLQ_BACKEND_CUDA) gclq__sets_choose_all(&plan, k.work);
  if (kind == GCLQ__SINK_LIST) st = gclq__sets_list_arrays(r, num_pairs, opt.materialise);
  if (st == GCLQ_SUCCESS && split) st = gclq__mmjoin_batches(&k, &plan, num_pairs);
  else if (st == GCLQ_SUCCESS) st = gclq__sets_batches(&k, &plan, all ? NULL : h_pairs, num_pairs);
  if (st == GCLQ_SUCCESS) st = gclq__sets_finish(&k);
  gclq__mmjoin_free(&m);
  GCLQ_FREE(k.pairs.a);
  GCLQ_FREE(k.counts.a);
  GCLQ_FREE(k.elements.a);
  GCLQ_FREE(k.keys.a);
  if (st != GCLQ_SUCCESS) {
    gclq_intersect_result_free(r);
    return st;
  }
#if defined(__CUDACC__)
  r->stats.total_ms = gclq__ms_since(w0);
  (void)t0;
#else
  r->stats.total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC; /* processor time */
#endif
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_intersect_pairs(const gclq_sets *sets, const uint32_t *h_pairs, uint64_t num_pairs,
                                          const gclq_intersect_options *options, gclq_intersect_result *result) {
  if (result != NULL) memset(result, 0, sizeof *result);
  if (sets == NULL || result == NULL || (h_pairs == NULL && num_pairs > 0)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (num_pairs > ((uint64_t)1 << 62)) return GCLQ_ERROR_INVALID_ARGUMENT;
  return gclq__sets_call(sets, h_pairs, num_pairs, 0, GCLQ__SINK_LIST, options, result);
}

GCLQ_DEF gclq_status gclq_intersect_pair(const gclq_sets *sets, uint32_t i, uint32_t j,
                                         const gclq_intersect_options *options, gclq_intersect_result *result) {
  uint32_t pair[2];
  pair[0] = i;
  pair[1] = j;
  return gclq_intersect_pairs(sets, pair, 1, options, result);
}

GCLQ_DEF gclq_status gclq_intersect_all(const gclq_sets *sets, const gclq_intersect_options *options,
                                        gclq_intersect_result *result) {
  uint64_t k;
  int sparse = options != NULL && options->sparse;
  if (result != NULL) memset(result, 0, sizeof *result);
  if (sets == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  k = sets->num_sets;
  return gclq__sets_call(sets, NULL, k * (k - (k > 0)) / 2, 1, sparse ? GCLQ__SINK_SPARSE : GCLQ__SINK_LIST,
                         options, result);
}

GCLQ_DEF gclq_status gclq_containment_join(const gclq_sets *sets, const gclq_intersect_options *options,
                                           gclq_intersect_result *result) {
  uint64_t k;
  if (result != NULL) memset(result, 0, sizeof *result);
  if (sets == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  k = sets->num_sets;
  return gclq__sets_call(sets, NULL, k * (k - (k > 0)) / 2, 1, GCLQ__SINK_CONTAIN, options, result);
}

GCLQ_DEF gclq_status gclq_sets_upload(const gclq_sets *sets, const gclq_device_allocator *allocator,
                                      gclq_sets_device *d_sets, gclq_stream stream) {
  if (d_sets != NULL) memset(d_sets, 0, sizeof *d_sets);
  if (sets == NULL || d_sets == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (gclq__sets_check(sets, NULL) != GCLQ_SUCCESS) return GCLQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  return gclq__cuda_sets_upload(sets, allocator, d_sets, stream);
#else
  (void)allocator;
  (void)stream;
  return GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GCLQ_DEF gclq_status gclq_intersect_pairs_device(const gclq_sets_device *sets, const uint32_t *d_pairs,
                                                 uint64_t num_pairs, uint32_t *d_counts,
                                                 gclq_intersect_method method, void *d_temp, size_t *temp_bytes,
                                                 gclq_stream stream) {
  if (sets == NULL || temp_bytes == NULL || num_pairs >= ((uint64_t)1 << 31)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__sets_method_known(method) || method == GCLQ_INTERSECT_SERIAL_MERGE || gclq__sets_whole(method))
    return GCLQ_ERROR_INVALID_ARGUMENT;
  if (d_temp != NULL && num_pairs > 0 && (d_pairs == NULL || d_counts == NULL || sets->d_offsets == NULL))
    return GCLQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  return gclq__cuda_pairs_device(sets, d_pairs, (uint32_t)num_pairs, d_counts, method, d_temp, temp_bytes,
                                 (cudaStream_t)stream);
#else
  (void)d_pairs;
  (void)d_counts;
  (void)d_temp;
  (void)stream;
  return GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GCLQ_DEF void gclq_sets_device_free(gclq_sets_device *d_sets, const gclq_device_allocator *allocator,
                                    gclq_stream stream) {
  if (d_sets == NULL) return;
#if defined(__CUDACC__)
  gclq__device_free(allocator, d_sets->d_offsets, stream);
  gclq__device_free(allocator, d_sets->d_elements, stream);
#else
  (void)allocator;
  (void)stream;
#endif
  memset(d_sets, 0, sizeof *d_sets);
}
