/* clique/kcliques/api.h - gclq_kcliques and its result: the plan from the
   chooser (gclq__kc_choose, clique/kcliques/choose.h: the options checked,
   the backend and method), the HOST or CUDA run that reads it, the result
   cleaned on failure. */
GCLQ_DEF void gclq_kclique_result_free(gclq_kclique_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_counts);
  GCLQ_FREE(result->h_status);
  GCLQ_FREE(result->h_per_vertex);
  GCLQ_FREE(result->h_cliques);
  memset(result, 0, sizeof *result);
}

GCLQ_DEF gclq_status gclq_kcliques(const gclq_graph *graph, const gclq_kclique_options *options,
                                   gclq_kclique_result *result) {
  gclq__kc_plan plan;
  gclq_status st;
  clock_t t0 = clock();
  if (result != NULL) memset(result, 0, sizeof *result);
  if (graph == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq__kc_choose(options, graph, &plan, &result->stats); /* checks the graph's shape */
  /* the symmetry: here for HOST, on the device in the CUDA upload */
  if (st == GCLQ_SUCCESS && plan.backend == GCLQ_BACKEND_HOST) st = gclq__graph_symmetric(graph);
  if (st != GCLQ_SUCCESS) {
    memset(result, 0, sizeof *result);
    return st;
  }
#if defined(__CUDACC__)
  if (plan.backend == GCLQ_BACKEND_CUDA) {
    gclq__clock::time_point w0 = gclq__clock::now();
    st = gclq__kc_cuda(graph, &plan, result);
    result->stats.total_ms = gclq__ms_since(w0);
  } else
#endif
  {
    st = gclq__kc_host(graph, &plan.opt, plan.method, plan.pivot_above_core, result);
    result->stats.total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC; /* processor time */
  }
  if (st != GCLQ_SUCCESS) {
    gclq_kclique_result_free(result);
    return st;
  }
  return GCLQ_SUCCESS;
}
