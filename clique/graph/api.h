/* clique/graph/api.h - the graph module's public entry points that run on a
   backend: core numbers (HOST or CUDA) and the degeneracy order. */
GCLQ_DEF gclq_status gclq_core_numbers(const gclq_graph *graph, gclq_backend backend, uint32_t *h_core_out,
                                       uint32_t *max_core) {
  gclq_backend resolved = GCLQ_BACKEND_HOST;
  gclq_status st;
  uint32_t best = 0, *core = h_core_out;
  if ((int)backend < 0 || (int)backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__host_graph_ok(graph)) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq_backend_resolve(backend, &resolved);
  if (st != GCLQ_SUCCESS) return st;
  /* the symmetry: here for HOST, on the device in the CUDA upload */
  if (resolved == GCLQ_BACKEND_HOST && (st = gclq__graph_symmetric(graph)) != GCLQ_SUCCESS) return st;
  if (core == NULL) {
    core = (uint32_t *)gclq__alloc_array(graph->num_vertices, sizeof(uint32_t));
    if (core == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (resolved == GCLQ_BACKEND_HOST) {
    st = gclq__host_core_order(graph, core, NULL, &best);
  } else {
#if defined(__CUDACC__)
    st = gclq__graph_core_numbers(graph, core, &best);
#else
    st = GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (core != h_core_out) GCLQ_FREE(core);
  if (st == GCLQ_SUCCESS && max_core != NULL) *max_core = best;
  return st;
}

GCLQ_DEF gclq_status gclq_degeneracy_order(const gclq_graph *graph, uint32_t *h_order_out) {
  uint32_t *core, max_core = 0;
  gclq_status st;
  if (graph == NULL || (h_order_out == NULL && graph->num_vertices > 0)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((st = gclq__graph_check(graph)) != GCLQ_SUCCESS) return st;
  core = (uint32_t *)gclq__alloc_array(graph->num_vertices, sizeof(uint32_t));
  if (core == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  st = gclq__host_core_order(graph, core, NULL, &max_core);
  if (st == GCLQ_SUCCESS) st = gclq__host_peel_order(graph, core, max_core, h_order_out);
  GCLQ_FREE(core);
  return st;
}
