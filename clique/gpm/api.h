/* clique/gpm/api.h - the pattern mining module's public entry points:
   gclq_motifs (HOST: clique/gpm/host.h) and the motif catalogue's names and
   edges. */
GCLQ_DEF gclq_status gclq_motifs(const gclq_graph *graph, uint32_t k, const gclq_motif_options *options,
                                 gclq_motif_result *result) {
  gclq_backend backend = options != NULL ? options->backend : GCLQ_BACKEND_AUTO;
  clock_t t0 = clock();
  gclq_status st;
  if (result != NULL) memset(result, 0, sizeof *result);
  if (graph == NULL || result == NULL || k < 3 || k > 5) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)backend < 0 || (int)backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (backend == GCLQ_BACKEND_CUDA) return GCLQ_ERROR_BACKEND_UNAVAILABLE; /* HOST only in this release */
  st = gclq__graph_check(graph);
  if (st == GCLQ_SUCCESS)
    st = gclq__host_motifs(graph, k, options ? options->log : NULL, options ? options->log_user : NULL,
                           result->counts, &result->subgraphs);
  if (st != GCLQ_SUCCESS) {
    memset(result, 0, sizeof *result);
    return st;
  }
  gclq__motif_catalogue(k, &result->num_patterns);
  result->k = k;
  result->backend = GCLQ_BACKEND_HOST;
  result->total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
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
