/* clique/kcliques/api.h - gclq_kcliques and its result: the options
   checked, the backend resolved (GCLQ_KCLIQUE_CUDA 0 leaves CUDA out), the
   HOST or CUDA run, the result cleaned on failure. */
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
  gclq_kclique_options p;
  gclq_backend backend = GCLQ_BACKEND_HOST;
  gclq_status st;
  clock_t t0 = clock();
  if (result != NULL) memset(result, 0, sizeof *result);
  if (graph == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq__kc_resolve(options, &p);
  if (st != GCLQ_SUCCESS) return st;
  if (!gclq__host_graph_ok(graph)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!GCLQ_KCLIQUE_CUDA && p.backend == GCLQ_BACKEND_CUDA) return GCLQ_ERROR_BACKEND_UNAVAILABLE;
  if (GCLQ_KCLIQUE_CUDA || p.backend != GCLQ_BACKEND_AUTO) st = gclq_backend_resolve(p.backend, &backend);
  if (st != GCLQ_SUCCESS) return st;
  result->stats.backend = backend;
  result->stats.orientation = p.orientation;
#if defined(__CUDACC__)
  if (GCLQ_KCLIQUE_CUDA && backend == GCLQ_BACKEND_CUDA) {
    gclq__clock::time_point w0 = gclq__clock::now();
    st = gclq__kc_cuda(graph, &p, result);
    result->stats.total_ms = gclq__ms_since(w0);
  } else
#endif
  {
    st = gclq__kc_host(graph, &p, result);
    result->stats.total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC; /* processor time */
    if (st == GCLQ_SUCCESS && p.backend == GCLQ_BACKEND_AUTO)
      strcpy(result->stats.notes, GCLQ_KCLIQUE_CUDA ? "AUTO: no CUDA device (or built without nvcc): ran the host backend"
                                                    : "AUTO: the CUDA k-clique methods are off (GCLQ_KCLIQUE_CUDA 0): "
                                                      "ran the host backend");
  }
  if (st != GCLQ_SUCCESS) {
    gclq_kclique_result_free(result);
    return st;
  }
  return GCLQ_SUCCESS;
}
