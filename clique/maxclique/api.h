/* clique/maxclique/api.h - gclq_max_cliques and its result.

   The chooser (gclq__mc_choose, clique/maxclique/choose.h) checks the
   options and writes the plan, which the rest only reads; graphs without
   edges are answered here; otherwise the plan's backend runs, and its
   cliques (compact ids) are sorted, each clique and then the list, and
   mapped to file ids. Sorting compact ids sorts file ids too: the loaders
   compact in increasing order of file id. */
GCLQ_DEF gclq_status gclq_max_cliques(const gclq_graph *graph, const gclq_maxclique_options *options,
                                      gclq_maxclique_result *result) {
  gclq__mc_plan plan;
  gclq_status st;
  uint32_t omega = 0, *rows = NULL;
  uint64_t count = 0, stored = 0, i;
  clock_t t0 = clock();
#if defined(__CUDACC__)
  gclq__clock::time_point w0 = gclq__clock::now();
#endif
  if (result != NULL) memset(result, 0, sizeof *result);
  if (graph == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq__mc_choose(options, graph, &plan, &result->stats); /* checks the graph's shape */
  /* the symmetry: here for HOST, on the device in the CUDA upload */
  if (st == GCLQ_SUCCESS && plan.backend == GCLQ_BACKEND_HOST && !plan.symmetric) st = gclq__graph_symmetric(graph);
  if (st != GCLQ_SUCCESS) {
    memset(result, 0, sizeof *result);
    return st;
  }
  if (graph->num_vertices == 0) return GCLQ_SUCCESS;
  if (graph->num_edges == 0) { /* every vertex alone is a maximum clique */
    omega = 1;
    count = plan.find_one ? 1 : graph->num_vertices;
    stored = plan.max_stored && plan.max_stored < count ? plan.max_stored : count;
    rows = (uint32_t *)gclq__alloc_array(stored, sizeof(uint32_t));
    if (rows == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    for (i = 0; i < stored; ++i) rows[i] = (uint32_t)i;
  } else if (plan.backend == GCLQ_BACKEND_HOST) {
    st = gclq__host_max_cliques_kept(graph, plan.find_one, plan.max_stored, plan.log, plan.log_user, &omega, &count,
                                     &stored, &rows);
  } else {
#if defined(__CUDACC__)
    st = gclq__cuda_max_cliques(graph, &plan, &omega, &count, &stored, &rows, &result->stats);
#else
    st = GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (st == GCLQ_SUCCESS) st = gclq__mc_finish(graph, omega, count, stored, rows, result);
  else GCLQ_FREE(rows);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(result->h_cliques);
    GCLQ_FREE(result->stats.candidates_per_level);
    memset(result, 0, sizeof *result);
    return st;
  }
#if defined(__CUDACC__)
  result->stats.total_ms = gclq__ms_since(w0);
  (void)t0;
#else
  result->stats.total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC; /* processor time */
#endif
  if (plan.backend == GCLQ_BACKEND_HOST) result->stats.search_ms = result->stats.total_ms;
  return GCLQ_SUCCESS;
}

GCLQ_DEF void gclq_maxclique_result_free(gclq_maxclique_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_cliques);
  GCLQ_FREE(result->stats.candidates_per_level);
  memset(result, 0, sizeof *result);
}
