/* clique/gpm/api.h - the pattern mining module's public entry points:
   gclq_motifs (HOST: clique/gpm/host.h; COUNT on CUDA:
   clique/gpm/motifs.cuh) and the motif catalogue's names and
   edges; gclq_match (the query's checks here, HOST in clique/gpm/host.h,
   the count on CUDA in clique/gpm/motifs.cuh or clique/gpm/match.cuh). */
GCLQ_DEF gclq_status gclq_motifs(const gclq_graph *graph, uint32_t k, const gclq_motif_options *options,
                                 gclq_motif_result *result) {
  gclq_backend backend = options != NULL ? options->backend : GCLQ_BACKEND_AUTO;
  gclq_motif_method method = options != NULL ? options->method : GCLQ_MOTIF_AUTO;
  clock_t t0 = clock();
  gclq_status st;
  if (result != NULL) memset(result, 0, sizeof *result);
  if (graph == NULL || result == NULL || k < 3 || k > 5) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)backend < 0 || (int)backend > (int)GCLQ_BACKEND_HOST || (int)method < 0 ||
      (int)method > (int)GCLQ_MOTIF_COUNT || (method == GCLQ_MOTIF_COUNT && k == 5))
    return GCLQ_ERROR_INVALID_ARGUMENT;
  if (method == GCLQ_MOTIF_AUTO) method = k <= 4 ? GCLQ_MOTIF_COUNT : GCLQ_MOTIF_ENUMERATE;
  if (backend == GCLQ_BACKEND_CUDA && method == GCLQ_MOTIF_ENUMERATE) return GCLQ_ERROR_BACKEND_UNAVAILABLE;
  st = gclq__graph_check(graph);
#if defined(__CUDACC__)
  if (st == GCLQ_SUCCESS && method == GCLQ_MOTIF_COUNT && backend != GCLQ_BACKEND_HOST) {
    st = gclq__cuda_motifs_count(graph, k, gclq__fm_need(k, ~0u), options ? options->device_budget_bytes : 0,
                                 options ? options->prepared : NULL, options ? options->log : NULL,
                                 options ? options->log_user : NULL, result->counts, &result->subgraphs, NULL,
                                 &result->count_ms);
    if (st == GCLQ_SUCCESS) backend = GCLQ_BACKEND_CUDA;
    else if (backend == GCLQ_BACKEND_AUTO && (st == GCLQ_ERROR_OUT_OF_MEMORY || st == GCLQ_ERROR_NO_DEVICE))
      st = GCLQ_SUCCESS; /* then HOST, as if CUDA had not been tried */
  }
#else
  if (st == GCLQ_SUCCESS && backend == GCLQ_BACKEND_CUDA) st = GCLQ_ERROR_BACKEND_UNAVAILABLE; /* an nvcc build has it */
#endif
  if (st == GCLQ_SUCCESS && backend != GCLQ_BACKEND_CUDA) {
    const int count = method == GCLQ_MOTIF_COUNT;
    backend = GCLQ_BACKEND_HOST;
    st = count ? gclq__host_motifs_count(graph, k, options ? options->log : NULL, options ? options->log_user : NULL,
                                         result->counts, &result->subgraphs, NULL)
               : gclq__host_motifs(graph, k, options ? options->log : NULL, options ? options->log_user : NULL,
                                   result->counts, &result->subgraphs);
  }
  if (st != GCLQ_SUCCESS) {
    memset(result, 0, sizeof *result);
    return st;
  }
  gclq__motif_catalogue(k, &result->num_patterns);
  result->k = k;
  result->method = method;
  result->backend = backend;
  result->total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  if (backend == GCLQ_BACKEND_HOST) result->count_ms = result->total_ms;
  return GCLQ_SUCCESS;
}

GCLQ_DEF const char *gclq_motif_name(uint32_t k, uint32_t pattern) {
  uint32_t count;
  const gclq__motif_pattern *cat = gclq__motif_catalogue(k, &count);
  return pattern < count ? cat[pattern].name : NULL;
}

GCLQ_DEF uint32_t gclq_motif_edges(uint32_t k, uint32_t pattern, uint32_t *pairs) {
  uint32_t count, e;
  const gclq__motif_pattern *cat = gclq__motif_catalogue(k, &count);
  if (pattern >= count) return 0;
  for (e = 0; pairs != NULL && e < cat[pattern].num_edges; ++e) {
    pairs[2 * e] = cat[pattern].edges[e][0];
    pairs[2 * e + 1] = cat[pattern].edges[e][1];
  }
  return cat[pattern].num_edges;
}

/* A failed match: the result zeroed, its message set. */
static gclq_status gclq__match_fail(gclq_match_result *r, gclq_status st, const char *why) {
  memset(r, 0, sizeof *r);
  snprintf(r->message, sizeof r->message, "%s", why);
  return st;
}

/* The motif counts of the query's size for the counted path of gclq_match:
   on CUDA (asked, or AUTO with a device, falling back to HOST when it has
   no memory or no device; only the sums the mode's count of the query's
   pattern needs, gclq__fm_need, and *count_ms their time) or HOST (every
   count, *count_ms untouched); *backend the one that ran. */
static gclq_status gclq__match_counts(const gclq_graph *g, const gclq__query *Q, uint32_t pattern,
                                      const gclq_match_options *o, gclq_backend *backend, uint64_t *induced,
                                      uint64_t *noninduced, double *count_ms) {
  uint64_t subgraphs;
  gclq_status st = GCLQ_SUCCESS;
  *backend = GCLQ_BACKEND_HOST;
#if defined(__CUDACC__)
  if (o->backend != GCLQ_BACKEND_HOST) {
    st = gclq__cuda_motifs_count(g, Q->q, gclq__fm_need(Q->q, o->mode == GCLQ_MATCH_VERTEX_INDUCED ? ~0u : pattern),
                                 o->device_budget_bytes, o->prepared, o->log, o->log_user, induced, &subgraphs,
                                 noninduced, count_ms);
    if (st == GCLQ_SUCCESS) *backend = GCLQ_BACKEND_CUDA;
    if (st == GCLQ_SUCCESS || o->backend == GCLQ_BACKEND_CUDA ||
        (st != GCLQ_ERROR_OUT_OF_MEMORY && st != GCLQ_ERROR_NO_DEVICE))
      return st;
  }
#else
  (void)pattern, (void)count_ms;
  if (o->backend == GCLQ_BACKEND_CUDA) return GCLQ_ERROR_BACKEND_UNAVAILABLE; /* an nvcc build has it */
#endif
  st = gclq__host_motifs_count(g, Q->q, o->log, o->log_user, induced, &subgraphs, noninduced);
  return st;
}

/* The query's own checks: size, connected, labels where the data has them. */
static const char *gclq__query_problem(const gclq_graph *graph, const gclq_graph *query) {
  uint32_t seen = 1, grew = 1, u;
  uint64_t e;
  if (query->num_vertices == 0) return "the query has no vertices";
  if (query->num_vertices > GCLQ_MATCH_MAX_QUERY) return "the query has more than 10 vertices (GCLQ_MATCH_MAX_QUERY)";
  if (query->h_labels != NULL && graph->h_labels == NULL) return "the query has labels and the data graph has none";
  while (grew) {
    grew = 0;
    for (u = 0; u < query->num_vertices; ++u)
      for (e = query->h_offsets[u]; ((seen >> u) & 1u) && e < query->h_offsets[u + 1]; ++e)
        if (!((seen >> query->h_neighbors[e]) & 1u)) seen |= 1u << query->h_neighbors[e], grew = 1;
  }
  if (seen != (1u << query->num_vertices) - 1) return "the query is not connected";
  return NULL;
}

GCLQ_DEF gclq_status gclq_match(const gclq_graph *graph, const gclq_graph *query, const gclq_match_options *options,
                                gclq_match_result *result) {
  gclq_match_options o;
  gclq__query Q;
  const char *problem;
  uint32_t *rows = NULL;
  uint64_t i, induced[6], noninduced[6];
  gclq_backend backend = GCLQ_BACKEND_HOST;
  int counted;
  clock_t t0 = clock();
  gclq_status st;
  if (result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(result, 0, sizeof *result);
  if (graph == NULL || query == NULL) return gclq__match_fail(result, GCLQ_ERROR_INVALID_ARGUMENT, "NULL argument");
  if (options != NULL) o = *options;
  else memset(&o, 0, sizeof o);
  if ((int)o.backend < 0 || (int)o.backend > (int)GCLQ_BACKEND_HOST || (int)o.mode < 0 ||
      (int)o.mode > (int)GCLQ_MATCH_HOMOMORPHISMS)
    return gclq__match_fail(result, GCLQ_ERROR_INVALID_ARGUMENT, "backend or mode out of range");
  st = gclq__graph_check(query);
  if (st != GCLQ_SUCCESS)
    return gclq__match_fail(result, st,
                            st == GCLQ_ERROR_INVALID_ARGUMENT ? "the query breaks the gclq_graph contract"
                                                               : gclq_status_string(st));
  st = gclq__graph_check(graph);
  if (st != GCLQ_SUCCESS)
    return gclq__match_fail(result, st,
                            st == GCLQ_ERROR_INVALID_ARGUMENT ? "the data graph breaks the gclq_graph contract"
                                                               : gclq_status_string(st));
  problem = gclq__query_problem(graph, query);
  if (problem != NULL) return gclq__match_fail(result, GCLQ_ERROR_INVALID_ARGUMENT, problem);
  gclq__query_make(query, o.mode, &Q);
  counted = o.max_stored == 0 && query->h_labels == NULL && (Q.q == 3 || Q.q == 4) && o.mode != GCLQ_MATCH_HOMOMORPHISMS;
  if (counted) {
    const uint32_t pattern = gclq__query_pattern(Q.q, Q.adj);
    st = gclq__match_counts(graph, &Q, pattern, &o, &backend, induced, noninduced, &result->count_ms);
    if (st == GCLQ_SUCCESS) result->count = gclq__match_by_count(pattern, Q.automorphisms, o.mode, induced, noninduced);
  } else {
    /* The device's search (clique/gpm/match.cuh), count and listing, when
       asked, and under AUTO when a device is there: far ahead of HOST's on
       every graph measured (bench/results/gpm_g2miner_h200.md); out of
       memory, or no device, AUTO falls back to HOST. */
    int host = o.backend != GCLQ_BACKEND_CUDA;
#if defined(__CUDACC__)
    if (o.backend != GCLQ_BACKEND_HOST) {
      st = gclq__cuda_match(graph, &Q, o.mode, o.device_budget_bytes, o.prepared, o.log, o.log_user, o.max_stored,
                            &result->count, &result->count_ms, &result->stored, &rows);
      backend = GCLQ_BACKEND_CUDA;
      host = o.backend == GCLQ_BACKEND_AUTO && (st == GCLQ_ERROR_OUT_OF_MEMORY || st == GCLQ_ERROR_NO_DEVICE);
    }
#else
    if (!host) st = GCLQ_ERROR_BACKEND_UNAVAILABLE; /* an nvcc build has it */
#endif
    if (host) {
      backend = GCLQ_BACKEND_HOST;
      result->count = 0, result->count_ms = 0;
      st = gclq__host_match(graph, &Q, o.mode, o.max_stored, o.log, o.log_user, &result->count, &result->stored,
                            &rows);
    }
  }
  if (st == GCLQ_SUCCESS && result->stored > 0) {
    result->h_matches = (uint64_t *)gclq__alloc_array(result->stored * Q.q, sizeof(uint64_t));
    if (result->h_matches == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    for (i = 0; st == GCLQ_SUCCESS && i < result->stored * Q.q; ++i)
      result->h_matches[i] = graph->h_original_ids ? graph->h_original_ids[rows[i]] : rows[i];
  }
  GCLQ_FREE(rows);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(result->h_matches);
    return gclq__match_fail(result, st, gclq_status_string(st));
  }
  result->query_vertices = Q.q;
  result->automorphisms = Q.automorphisms;
  result->backend = backend;
  result->total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  if (backend == GCLQ_BACKEND_HOST) result->count_ms = result->total_ms;
  return GCLQ_SUCCESS;
}

GCLQ_DEF void gclq_match_result_free(gclq_match_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_matches);
  memset(result, 0, sizeof *result);
}

/* A found pattern in the public form (its code string written). */
static void gclq__fpm_public(const gclq__lpat *p, gclq_fpm_pattern *out) {
  uint32_t i, j, e = 0;
  memset(out, 0, sizeof *out);
  out->num_vertices = p->v;
  out->num_edges = p->e;
  out->support = p->support;
  for (i = 0; i < p->v; ++i) out->labels[i] = p->label[i];
  for (i = 0; i < p->v; ++i)
    for (j = i + 1; j < p->v; ++j)
      if ((p->adj[i] >> j) & 1u) out->edges[e][0] = i, out->edges[e][1] = j, ++e;
  gclq__lpat_write_code(p, out->code, sizeof out->code);
}

static gclq_status gclq__fpm_fail(gclq_fpm_result *r, gclq_status st, const char *why) {
  memset(r, 0, sizeof *r);
  snprintf(r->message, sizeof r->message, "%s", why);
  return st;
}

/* The frequent patterns of pats (support at least min) appended to r's
   list in the public form. */
static gclq_status gclq__fpm_take(const gclq_emb_patterns *pats, uint64_t min, gclq_fpm_result *r) {
  uint64_t i, kept = 0, at;
  uint32_t u, v, e;
  size_t n;
  gclq_fpm_pattern *grown;
  for (i = 0; i < pats->num_patterns; ++i) kept += pats->h_patterns[i].support >= min;
  if (kept == 0) return GCLQ_SUCCESS;
  grown = (gclq_fpm_pattern *)GCLQ_REALLOC(r->h_patterns, (size_t)(r->num_patterns + kept) * sizeof *grown);
  if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  r->h_patterns = grown;
  for (i = 0, at = r->num_patterns; i < pats->num_patterns; ++i) {
    const gclq_emb_pattern *p = &pats->h_patterns[i];
    gclq_fpm_pattern *o = &grown[at];
    if (p->support < min) continue;
    memset(o, 0, sizeof *o);
    o->num_vertices = p->num_vertices, o->num_edges = p->num_edges, o->support = p->support;
    for (u = 0, e = 0; u < p->num_vertices; ++u) {
      o->labels[u] = p->labels[u];
      for (v = u + 1; v < p->num_vertices; ++v)
        if ((p->adj[u] >> v) & 1u) o->edges[e][0] = u, o->edges[e][1] = v, ++e;
    }
    n = strlen(p->code); /* fits: at most 6 edges and 7 labels of 10 digits */
    if (n >= sizeof o->code) n = sizeof o->code - 1;
    memcpy(o->code, p->code, n);
    o->code[n] = 0;
    ++at;
  }
  r->num_patterns = at;
  return GCLQ_SUCCESS;
}

/* The next level aggregated with support in task blocks of parents (each
   made, aggregated and dropped), the block halved while a block's children
   do not fit. */
static gclq_status gclq__fpm_aggregate_in_blocks(gclq_emb_table *t, gclq_emb_patterns *pats) {
  const uint64_t parents = gclq_emb_rows(t, gclq_emb_levels(t) - 1);
  uint64_t at = 0, block = parents;
  gclq_status st = GCLQ_SUCCESS;
  while (at < parents && st == GCLQ_SUCCESS) {
    st = gclq_emb_extend(t, at, block);
    if (st == GCLQ_ERROR_OUT_OF_MEMORY && block > 1) { /* nothing changed: a smaller block */
      block = (block + 1) / 2;
      st = GCLQ_SUCCESS;
      continue;
    }
    if (st == GCLQ_SUCCESS) st = gclq_emb_aggregate(t, 1, pats);
    if (st == GCLQ_SUCCESS) st = gclq_emb_pop(t);
    at += block;
  }
  return st;
}

/* The children that pass keep of the next task block of parents (rows
   *at .. *at + *block - 1 of the level below the last, the block halved
   while they do not fit) appended to the last level; *at moves past it. */
static gclq_status gclq__fpm_append_block(gclq_emb_table *t, const gclq_emb_filter *keep, uint64_t *at,
                                          uint64_t *block) {
  for (;;) {
    const gclq_status st = gclq_emb_extend_append(t, *at, *block, keep);
    if (st == GCLQ_ERROR_OUT_OF_MEMORY && *block > 1) { /* nothing changed: a smaller block */
      *block = (*block + 1) / 2;
      continue;
    }
    if (st == GCLQ_SUCCESS) *at += *block;
    return st;
  }
}

/* The next level made from an empty one, a task block of parents at a
   time, each block's rows of frequent patterns (pats, min support) appended;
   the block halved while it does not fit. */
static gclq_status gclq__fpm_keep_in_blocks(gclq_emb_table *t, const gclq_emb_patterns *pats, uint64_t min) {
  const uint64_t parents = gclq_emb_rows(t, gclq_emb_levels(t) - 1);
  uint64_t at = 0, block = parents;
  gclq_emb_filter keep;
  gclq_status st = gclq_emb_extend(t, 0, 0); /* an empty level */
  memset(&keep, 0, sizeof keep);
  keep.patterns = pats;
  keep.min_support = min;
  while (at < parents && st == GCLQ_SUCCESS) st = gclq__fpm_append_block(t, &keep, &at, &block);
  return st;
}

/* The e-edge patterns (into pats, with support) of every embedding below
   the table's last level (d < e edges, its rows all of frequent patterns),
   depth first: a task block of its rows at a time extended to d + 1 edges,
   keeping the rows whose pattern is frequent in known[d + 1] (support min),
   and below them the same down to e, aggregated there in task blocks; each
   block halved while its rows do not fit. No level below d is ever held
   whole: memory for the rows of one block a level, work done again for
   each e instead. Each embedding is still met once (blocks partition a
   level's rows, and a row's children are its own). */
static gclq_status gclq__fpm_depth_first(gclq_emb_table *t, uint32_t d, uint32_t e, const gclq_emb_patterns *known,
                                         uint64_t min, gclq_emb_patterns *pats) {
  const uint64_t parents = gclq_emb_rows(t, gclq_emb_levels(t) - 1);
  uint64_t at = 0, block = parents;
  gclq_emb_filter keep;
  gclq_status st;
  if (d + 1 == e) return gclq__fpm_aggregate_in_blocks(t, pats);
  memset(&keep, 0, sizeof keep);
  keep.patterns = &known[d + 1];
  keep.min_support = min;
  st = gclq_emb_extend(t, 0, 0); /* an empty level of d + 1 edges */
  while (at < parents && st == GCLQ_SUCCESS) {
    st = gclq__fpm_append_block(t, &keep, &at, &block);
    if (st == GCLQ_SUCCESS) st = gclq__fpm_depth_first(t, d + 1, e, known, min, pats);
    if (st == GCLQ_SUCCESS) st = gclq_emb_pop(t); /* the block's rows, then an empty level again */
    if (st == GCLQ_SUCCESS) st = gclq_emb_extend(t, 0, 0);
  }
  return st == GCLQ_SUCCESS ? gclq_emb_pop(t) : st;
}

/* Level e of TABLE's FPM (e >= 2) into pats, from a table whose last level
   has e - 1 edges and keeps the rows of frequent patterns; then the level's
   rows of frequent patterns (min) kept as the table's last level, unless e
   is the last (*kept: they already are; *deep: they do not fit, the table is
   as before and later levels go depth first). */
static gclq_status gclq__fpm_level(gclq_emb_table *t, uint32_t e, const gclq_fpm_options *o, gclq_emb_patterns *pats,
                                   int *kept, int *deep) {
  gclq_status st;
  *kept = 0;
  if (e == o->max_edges) return gclq__fpm_aggregate_in_blocks(t, pats);
  st = gclq_emb_extend(t, 0, UINT64_MAX);
  if (st == GCLQ_SUCCESS) return gclq_emb_aggregate(t, 1, pats);
  if (st != GCLQ_ERROR_OUT_OF_MEMORY) return st;
  /* too large whole: aggregated in task blocks, then made again keeping each block's frequent rows */
  st = gclq__fpm_aggregate_in_blocks(t, pats);
  if (st != GCLQ_SUCCESS) return st;
  *kept = 1;
  st = gclq__fpm_keep_in_blocks(t, pats, o->min_support);
  if (st != GCLQ_ERROR_OUT_OF_MEMORY) return st;
  *deep = 1; /* the frequent rows do not fit either: back to the table before them */
  return gclq_emb_levels(t) > e - 1 ? gclq_emb_pop(t) : GCLQ_SUCCESS;
}

/* gclq_fpm by the embedding table (method TABLE) on backend (HOST or CUDA):
   level 0 every edge; per level, aggregate with support, take the frequent
   patterns, keep their rows, extend. A level that does not fit whole goes
   in task blocks: the last one aggregated a block at a time, a middle one
   aggregated so, then made again keeping each block's frequent rows; when
   even those do not fit, each later level is made depth first from the last
   level held (gclq__fpm_depth_first). */
static gclq_status gclq__fpm_table(const gclq_graph *g, const gclq_fpm_options *o, gclq_backend backend,
                                   gclq_fpm_result *r) {
  gclq_emb_options eo;
  gclq_emb_table *t = NULL;
  gclq_emb_patterns all[GCLQ_FPM_MAX_EDGES + 1]; /* [e]: the e-edge candidates with support */
  uint32_t e, at = 1, base = 0;                  /* base: the last level's edges once depth first */
  uint64_t frequent = 1;
  char line[160];
  gclq_status st;
  memset(&eo, 0, sizeof eo);
  memset(all, 0, sizeof all);
  eo.kind = GCLQ_EMB_EDGE;
  eo.backend = backend;
  eo.device_budget_bytes = o->device_budget_bytes;
  eo.max_bytes = o->max_table_bytes;
  st = gclq_emb_create(g, &eo, &t);
  for (e = 1; e <= o->max_edges && st == GCLQ_SUCCESS && frequent > 0; ++e) {
    gclq_emb_filter keep;
    const uint64_t before = r->num_patterns;
    int kept = 0, deep = base > 0;
    at = e;
    if (e == 1) st = gclq_emb_aggregate(t, 1, &all[1]);
    else if (deep) st = gclq__fpm_depth_first(t, base, e, all, o->min_support, &all[e]);
    else st = gclq__fpm_level(t, e, o, &all[e], &kept, &deep);
    if (st == GCLQ_SUCCESS && deep && base == 0) {
      base = e - 1;
      if (o->log != NULL) {
        snprintf(line, sizeof line, "fpm: the %u-edge rows of frequent patterns do not fit: %u edges and up "
                 "depth first", e, e + 1);
        o->log(o->log_user, line);
      }
    }
    if (st == GCLQ_SUCCESS) st = gclq__fpm_take(&all[e], o->min_support, r);
    r->candidates += all[e].num_patterns;
    frequent = r->num_patterns - before;
    memset(&keep, 0, sizeof keep);
    keep.patterns = &all[e];
    keep.min_support = o->min_support;
    if (st == GCLQ_SUCCESS && e < o->max_edges && !kept && !deep) st = gclq_emb_filter_rows(t, &keep);
    if (st == GCLQ_SUCCESS && o->log != NULL) {
      snprintf(line, sizeof line, "fpm: %u edges: %llu candidates, %llu frequent", e,
               (unsigned long long)all[e].num_patterns, (unsigned long long)frequent);
      o->log(o->log_user, line);
    }
    /* the level before: needed again only as a depth-first filter (below base's level) */
    if (e >= 2 && (base == 0 || e - 1 <= base)) gclq_emb_patterns_free(&all[e - 1]);
  }
  for (e = 0; e <= GCLQ_FPM_MAX_EDGES; ++e) gclq_emb_patterns_free(&all[e]);
  gclq_emb_free(t);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY) /* which level, and what would help */
    snprintf(r->message, sizeof r->message,
             "the %u-edge embeddings do not fit the table's memory: raise min_support or lower max_edges", at);
  return st;
}

/* gclq_fpm by SEARCH (HOST): the host search on the graph, labels 0 where
   it has none. */
static gclq_status gclq__fpm_search(const gclq_graph *graph, const gclq_fpm_options *options, gclq_fpm_result *r) {
  gclq_graph view = *graph;
  gclq__lpats found;
  uint32_t *zeros = NULL;
  uint64_t i;
  gclq_status st;
  if (view.h_labels == NULL) { /* unlabelled: label 0 everywhere */
    zeros = (uint32_t *)gclq__alloc_array(graph->num_vertices, sizeof(uint32_t));
    if (zeros == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    memset(zeros, 0, (size_t)graph->num_vertices * sizeof(uint32_t));
    view.h_labels = zeros;
  }
  st = gclq__host_fpm(&view, options->min_support, options->max_edges, options->log, options->log_user, &found,
                      &r->candidates);
  GCLQ_FREE(zeros);
  if (st == GCLQ_SUCCESS && found.n > 0) {
    r->h_patterns = (gclq_fpm_pattern *)gclq__alloc_array(found.n, sizeof(gclq_fpm_pattern));
    if (r->h_patterns == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    for (i = 0; st == GCLQ_SUCCESS && i < found.n; ++i) gclq__fpm_public(&found.a[i], &r->h_patterns[i]);
  }
  GCLQ_FREE(found.a);
  if (st == GCLQ_SUCCESS) r->num_patterns = found.n;
  return st;
}

GCLQ_DEF gclq_status gclq_fpm(const gclq_graph *graph, const gclq_fpm_options *options, gclq_fpm_result *result) {
  gclq_backend backend;
  gclq_fpm_method method;
  clock_t t0 = clock();
  int ran = 0;
  gclq_status st;
  if (result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(result, 0, sizeof *result);
  if (graph == NULL || options == NULL) return gclq__fpm_fail(result, GCLQ_ERROR_INVALID_ARGUMENT, "NULL argument");
  backend = options->backend, method = options->method;
  if ((int)backend < 0 || (int)backend > (int)GCLQ_BACKEND_HOST || (int)method < 0 || (int)method > (int)GCLQ_FPM_TABLE)
    return gclq__fpm_fail(result, GCLQ_ERROR_INVALID_ARGUMENT, "backend or method out of range");
  if (options->min_support == 0) return gclq__fpm_fail(result, GCLQ_ERROR_INVALID_ARGUMENT, "min_support must be at least 1");
  if (options->max_edges == 0 || options->max_edges > GCLQ_FPM_MAX_EDGES)
    return gclq__fpm_fail(result, GCLQ_ERROR_INVALID_ARGUMENT, "max_edges must be 1 .. GCLQ_FPM_MAX_EDGES");
  if (backend == GCLQ_BACKEND_CUDA && method == GCLQ_FPM_SEARCH)
    return gclq__fpm_fail(result, GCLQ_ERROR_BACKEND_UNAVAILABLE, "method SEARCH runs on HOST only");
  st = gclq__graph_check(graph);
  if (st != GCLQ_SUCCESS)
    return gclq__fpm_fail(result, st, st == GCLQ_ERROR_INVALID_ARGUMENT ? "the graph breaks the gclq_graph contract"
                                                                        : gclq_status_string(st));
#if defined(__CUDACC__)
  if (backend == GCLQ_BACKEND_AUTO && method != GCLQ_FPM_SEARCH) { /* CUDA TABLE first where it can run */
    st = gclq__fpm_table(graph, options, GCLQ_BACKEND_CUDA, result);
    if (st == GCLQ_SUCCESS) backend = GCLQ_BACKEND_CUDA, method = GCLQ_FPM_TABLE, ran = 1;
    else if (st == GCLQ_ERROR_OUT_OF_MEMORY || st == GCLQ_ERROR_NO_DEVICE || st == GCLQ_ERROR_BACKEND_UNAVAILABLE)
      gclq_fpm_result_free(result); /* then HOST, as if CUDA had not been tried */
    else ran = 1;
  }
#endif
  if (!ran) {
    if (backend == GCLQ_BACKEND_AUTO) backend = GCLQ_BACKEND_HOST;
    if (method == GCLQ_FPM_AUTO) method = backend == GCLQ_BACKEND_CUDA ? GCLQ_FPM_TABLE : GCLQ_FPM_SEARCH;
    st = method == GCLQ_FPM_TABLE ? gclq__fpm_table(graph, options, backend, result)
                                  : gclq__fpm_search(graph, options, result);
  }
  if (st != GCLQ_SUCCESS) {
    char why[sizeof result->message];
    snprintf(why, sizeof why, "%s", result->message[0] ? result->message : gclq_status_string(st));
    GCLQ_FREE(result->h_patterns);
    return gclq__fpm_fail(result, st, why);
  }
  result->backend = backend;
  result->method = method;
  result->total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  return GCLQ_SUCCESS;
}

GCLQ_DEF void gclq_fpm_result_free(gclq_fpm_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_patterns);
  memset(result, 0, sizeof *result);
}

/* ---- embedding tables (HOST: clique/gpm/table.h) ---- */
GCLQ_DEF gclq_status gclq_emb_create(const gclq_graph *graph, const gclq_emb_options *options, gclq_emb_table **table) {
  gclq_emb_options o;
  gclq_emb_table *t;
  gclq_status st;
  if (table != NULL) *table = NULL;
  if (graph == NULL || table == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (options != NULL) o = *options;
  else memset(&o, 0, sizeof o);
  if ((int)o.backend < 0 || (int)o.backend > (int)GCLQ_BACKEND_HOST || (int)o.kind < 0 ||
      (int)o.kind > (int)GCLQ_EMB_EDGE)
    return GCLQ_ERROR_INVALID_ARGUMENT;
#if !defined(__CUDACC__)
  if (o.backend == GCLQ_BACKEND_CUDA) return GCLQ_ERROR_BACKEND_UNAVAILABLE; /* an nvcc build has it */
#endif
  st = gclq__graph_check(graph);
  if (st != GCLQ_SUCCESS) return st;
  t = (gclq_emb_table *)GCLQ_MALLOC(sizeof *t);
  if (t == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(t, 0, sizeof *t);
  t->g = graph;
  t->kind = o.kind;
  t->max_bytes = o.max_bytes;
  st = gclq__emb_level0(t);
#if defined(__CUDACC__)
  if (st == GCLQ_SUCCESS && o.backend == GCLQ_BACKEND_CUDA) st = gclq__emb_cuda_create(t, o.device_budget_bytes);
#endif
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(t->col[0]);
    GCLQ_FREE(t);
    return st;
  }
  *table = t;
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_emb_extend(gclq_emb_table *table, uint64_t first, uint64_t count) {
  uint64_t rows;
  if (table == NULL || table->levels >= gclq__emb_max_levels(table)) return GCLQ_ERROR_INVALID_ARGUMENT;
  rows = table->n[table->levels - 1];
  if (first > rows) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (count > rows - first) count = rows - first;
#if defined(__CUDACC__)
  if (table->dev != NULL) return gclq__emb_cuda_extend(table, first, count);
#endif
  return gclq__emb_extend(table, first, count);
}

/* The last level aside, back, or joined after the block made in its place,
   by the table's backend (clique/gpm/table.h, clique/gpm/cuda.cuh). */
static void gclq__emb_aside_take(gclq_emb_table *t, gclq__emb_aside *a) {
#if defined(__CUDACC__)
  if (t->dev != NULL) {
    gclq__emb_cuda_set_aside(t, a);
    return;
  }
#endif
  gclq__emb_set_aside(t, a);
}
static void gclq__emb_aside_back(gclq_emb_table *t, const gclq__emb_aside *a) {
#if defined(__CUDACC__)
  if (t->dev != NULL) {
    gclq__emb_cuda_put_back(t, a);
    return;
  }
#endif
  gclq__emb_put_back(t, a);
}
static gclq_status gclq__emb_aside_join(gclq_emb_table *t, gclq__emb_aside *a) {
#if defined(__CUDACC__)
  if (t->dev != NULL) return gclq__emb_cuda_concat(t, a);
#endif
  return gclq__emb_concat(t, a);
}

GCLQ_DEF gclq_status gclq_emb_extend_append(gclq_emb_table *table, uint64_t first, uint64_t count,
                                           const gclq_emb_filter *filter) {
  gclq__emb_aside a;
  uint64_t rows;
  uint32_t L;
  gclq_status st;
  if (table == NULL || table->levels < 2) return GCLQ_ERROR_INVALID_ARGUMENT;
  L = table->levels - 1;
  rows = table->n[L - 1];
  if (first > rows) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (count > rows - first) count = rows - first;
  gclq__emb_aside_take(table, &a);
  /* the block in the last level's place, filtered, within max_bytes with the rows aside */
  st = gclq_emb_extend(table, first, count);
  if (st == GCLQ_SUCCESS && filter != NULL) st = gclq_emb_filter_rows(table, filter);
  if (st == GCLQ_SUCCESS && table->max_bytes != 0 &&
      gclq__emb_bytes(table) + gclq__emb_level_bytes(L, a.n) > table->max_bytes)
    st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) st = gclq__emb_aside_join(table, &a);
  if (st != GCLQ_SUCCESS) { /* the block dropped, the level as it was */
    if (table->levels == L + 1) gclq_emb_pop(table);
    gclq__emb_aside_back(table, &a);
  }
  return st;
}

GCLQ_DEF gclq_status gclq_emb_filter_rows(gclq_emb_table *table, const gclq_emb_filter *filter) {
  const gclq__emb_agg *a;
  if (table == NULL || filter == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  a = filter->patterns != NULL ? (const gclq__emb_agg *)filter->patterns->internal : NULL;
  if (filter->patterns != NULL && filter->min_support > 0 && (a == NULL || a->words == 0))
    return GCLQ_ERROR_INVALID_ARGUMENT; /* support asked of a table aggregated without it */
  if (filter->patterns != NULL && a == NULL) { /* an empty table: no row's pattern is in it */
    table->n[table->levels - 1] = 0;
    return GCLQ_SUCCESS;
  }
#if defined(__CUDACC__)
  if (table->dev != NULL) return gclq__emb_cuda_filter(table, filter, a);
#endif
  return gclq__emb_filter(table, filter, a);
}

GCLQ_DEF gclq_status gclq_emb_aggregate(const gclq_emb_table *table, int support, gclq_emb_patterns *patterns) {
  gclq__emb_agg *a;
  gclq_status st;
  if (table == NULL || patterns == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  a = (gclq__emb_agg *)patterns->internal;
  if (a == NULL) {
    a = (gclq__emb_agg *)GCLQ_MALLOC(sizeof *a);
    if (a == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    memset(a, 0, sizeof *a);
  }
#if defined(__CUDACC__)
  if (table->dev != NULL) st = gclq__emb_cuda_aggregate(table, support, a, patterns);
  else
#endif
    st = gclq__emb_aggregate(table, support, a, patterns);
  if (st != GCLQ_SUCCESS && patterns->internal == NULL) gclq__emb_agg_free(a); /* with what it grew */
  else patterns->internal = a;
  return st;
}

GCLQ_DEF gclq_status gclq_emb_pop(gclq_emb_table *table) {
  uint32_t L;
  if (table == NULL || table->levels <= 1) return GCLQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  if (table->dev != NULL) gclq__emb_cuda_pop(table);
#endif
  L = --table->levels;
  GCLQ_FREE(table->col[L]);
  GCLQ_FREE(table->par[L]);
  table->col[L] = table->par[L] = NULL;
  table->n[L] = 0;
  return GCLQ_SUCCESS;
}

GCLQ_DEF uint32_t gclq_emb_levels(const gclq_emb_table *table) { return table != NULL ? table->levels : 0; }

GCLQ_DEF uint64_t gclq_emb_rows(const gclq_emb_table *table, uint32_t level) {
  return table != NULL && level < table->levels ? table->n[level] : 0;
}

GCLQ_DEF uint64_t gclq_emb_bytes(const gclq_emb_table *table) { return table != NULL ? gclq__emb_bytes(table) : 0; }

GCLQ_DEF uint64_t gclq_emb_parent(const gclq_emb_table *table, uint32_t level, uint64_t i) {
  if (table == NULL || level == 0 || level >= table->levels || i >= table->n[level]) return UINT64_MAX;
#if defined(__CUDACC__)
  if (table->dev != NULL) { /* from the device (UINT64_MAX on a failure) */
    uint64_t parent;
    return gclq__emb_cuda_parent(table, level, i, &parent) == GCLQ_SUCCESS ? parent : UINT64_MAX;
  }
#endif
  return table->par[level][i];
}

GCLQ_DEF uint32_t gclq_emb_row(const gclq_emb_table *table, uint32_t level, uint64_t i, uint64_t *vertices,
                               uint32_t *edges, uint32_t *num_edges) {
  gclq__lpat p;
  uint32_t vert[GCLQ_EMB_MAX_VERTICES], a, b, e = 0;
  if (num_edges != NULL) *num_edges = 0;
  if (table == NULL || vertices == NULL || level >= table->levels || i >= table->n[level]) return 0;
#if defined(__CUDACC__)
  if (table->dev != NULL) { /* the row's items from the device (zero rows on a failure) */
    if (gclq__emb_cuda_row(table, level, i, &p, vert) != GCLQ_SUCCESS) return 0;
  } else
#endif
    gclq__emb_pattern(table, level, i, &p, vert);
  for (a = 0; a < p.v; ++a) vertices[a] = table->g->h_original_ids ? table->g->h_original_ids[vert[a]] : vert[a];
  for (a = 0; a < p.v; ++a)
    for (b = a + 1; b < p.v; ++b)
      if ((p.adj[a] >> b) & 1u) {
        if (edges != NULL) edges[2 * e] = a, edges[2 * e + 1] = b;
        ++e;
      }
  if (num_edges != NULL) *num_edges = e;
  return p.v;
}

GCLQ_DEF void gclq_emb_free(gclq_emb_table *table) {
  uint32_t l;
  if (table == NULL) return;
#if defined(__CUDACC__)
  gclq__emb_cuda_free(table);
#endif
  for (l = 0; l < table->levels; ++l) {
    GCLQ_FREE(table->col[l]);
    GCLQ_FREE(table->par[l]);
  }
  GCLQ_FREE(table);
}

GCLQ_DEF void gclq_emb_patterns_free(gclq_emb_patterns *patterns) {
  if (patterns == NULL) return;
  if (patterns->internal != NULL) gclq__emb_agg_free((gclq__emb_agg *)patterns->internal);
  GCLQ_FREE(patterns->h_patterns);
  memset(patterns, 0, sizeof *patterns);
}
