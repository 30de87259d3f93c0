/* clique/graph/api.h - the graph module's public entry points that run on a
   backend: core numbers (HOST or CUDA), the degeneracy order, and the
   prepared device graph (gclq_graph_prepare: clique/graph/cuda.cuh). */
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

GCLQ_DEF gclq_status gclq_graph_prepare(const gclq_graph *graph, const gclq_prepare_options *options,
                                        gclq_prepared_graph **prepared) {
  gclq_prepare_options o;
  if (prepared != NULL) *prepared = NULL;
  if (graph == NULL || prepared == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (options != NULL) o = *options;
  else memset(&o, 0, sizeof o);
  if ((int)o.orientation < 0 || (int)o.orientation > (int)GCLQ_ORIENT_BY_DEGENERACY) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__host_graph_ok(graph)) return GCLQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  {
    gclq_prepared_graph *pg;
    size_t budget = o.device_budget_bytes;
    gclq_status st;
    GCLQ__TRY(gclq__device_start(&budget));
    pg = (gclq_prepared_graph *)GCLQ_MALLOC(sizeof *pg);
    if (pg == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    memset(pg, 0, sizeof *pg);
    gclq__dev_init(&pg->c, NULL, NULL, budget);
    pg->n = graph->num_vertices;
    pg->num_edges = graph->num_edges;
    pg->orientation = o.orientation == GCLQ_ORIENT_BY_DEFAULT ? GCLQ_ORIENT_BY_DEGENERACY : o.orientation;
    st = gclq__prepared_build(pg, graph);
    if (st != GCLQ_SUCCESS) {
      gclq__prepared_release(pg);
      GCLQ_FREE(pg);
      return st;
    }
    *prepared = pg;
    return GCLQ_SUCCESS;
  }
#else
  return GCLQ_ERROR_BACKEND_UNAVAILABLE; /* an nvcc build has it */
#endif
}

GCLQ_DEF gclq_status gclq_prepared_info_get(const gclq_prepared_graph *prepared, gclq_prepared_info *info) {
  if (prepared == NULL || info == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(info, 0, sizeof *info);
#if defined(__CUDACC__)
  info->num_vertices = prepared->n;
  info->num_edges = prepared->num_edges;
  info->orientation = prepared->orientation;
  info->max_core = prepared->max_core;
  info->max_out_degree = prepared->o.max_out;
  info->device_bytes = prepared->c.used;
  info->upload_ms = prepared->upload_ms;
  info->order_ms = prepared->order_ms;
  return GCLQ_SUCCESS;
#else
  return GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GCLQ_DEF void gclq_prepared_free(gclq_prepared_graph *prepared) {
#if defined(__CUDACC__)
  if (prepared == NULL) return;
  gclq__prepared_release(prepared);
  GCLQ_FREE(prepared);
#else
  (void)prepared;
#endif
}
