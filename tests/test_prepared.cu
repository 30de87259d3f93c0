/* test_prepared.cu - the prepared device graph (gclq_graph_prepare): its
   info against the HOST core numbers; every CUDA k-clique method and the
   CUDA motif count from it equal to the HOST counts, in both orientations
   (the k-clique call's orientation must be the prepared graph's); one
   prepared graph for many calls; empty and one-vertex graphs; a graph
   other than the prepared one, bad arguments and a budget too small, each
   a clear status; gclq_match's counted path on CUDA. Through the public API
   only. */

/* HOST's count of k-cliques of g. */
static uint64_t prep_host_kcliques(const gclq_graph &g, uint32_t k) {
  gclq_kclique_options o;
  gclq_kclique_result r;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  o.k = k;
  if (gclq_kcliques(&g, &o, &r) != GCLQ_SUCCESS) return UINT64_MAX;
  const uint64_t c = r.h_counts[0];
  gclq_kclique_result_free(&r);
  return c;
}

/* Every CUDA method's count of k from pg (orientation orient) against want;
   order_ms is 0 (no orientation in the call). */
static void prep_check_kcliques(const gclq_graph &g, const gclq_prepared_graph *pg, gclq_orient_by orient, uint32_t k,
                                uint64_t want, const char *what) {
  const gclq_kclique_method methods[] = {GCLQ_KCLIQUE_AUTO, GCLQ_KCLIQUE_BITSET, GCLQ_KCLIQUE_PIVOT,
                                         GCLQ_KCLIQUE_LFTJ, GCLQ_KCLIQUE_LEVEL_JOIN, GCLQ_KCLIQUE_GROUPED};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0] && !g_test.failed; ++i) {
    gclq_kclique_options o;
    gclq_kclique_result r;
    memset(&o, 0, sizeof o);
    memset(&r, 0xA5, sizeof r);
    o.backend = GCLQ_BACKEND_CUDA;
    o.method = methods[i];
    o.orientation = orient;
    o.k = k;
    o.prepared = pg;
    const gclq_status st = gclq_kcliques(&g, &o, &r);
    CHECK_MSG(st == GCLQ_SUCCESS, "%s k %u method %s: %s", what, k, gclq_kclique_method_name(methods[i]),
              gclq_status_string(st));
    CHECK_MSG(r.h_counts[0] == want && r.stats.order_ms == 0.0, "%s k %u method %s: %llu, HOST %llu", what, k,
              gclq_kclique_method_name(r.stats.method), (unsigned long long)r.h_counts[0], (unsigned long long)want);
    gclq_kclique_result_free(&r);
  }
}

/* The CUDA motif counts of k from pg against HOST's. */
static void prep_check_motifs(const gclq_graph &g, const gclq_prepared_graph *pg, uint32_t k, const char *what) {
  gclq_motif_options o;
  gclq_motif_result want, got;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  CHECK(gclq_motifs(&g, k, &o, &want) == GCLQ_SUCCESS);
  o.backend = GCLQ_BACKEND_CUDA;
  o.prepared = pg;
  memset(&got, 0xA5, sizeof got);
  const gclq_status st = gclq_motifs(&g, k, &o, &got);
  CHECK_MSG(st == GCLQ_SUCCESS && got.backend == GCLQ_BACKEND_CUDA, "%s motifs k %u: %s", what, k,
            gclq_status_string(st));
  CHECK_MSG(memcmp(got.counts, want.counts, sizeof want.counts) == 0 && got.subgraphs == want.subgraphs,
            "%s motifs k %u: %llu subgraphs, HOST %llu", what, k, (unsigned long long)got.subgraphs,
            (unsigned long long)want.subgraphs);
}

GPU_TEST(prepared, every_call_from_one_prepared_graph) {
  test_rng rng = test_rng_for("prepared.calls");
  gclq_graph g;
  CHECK(gclq_graph_rmat(9 + (uint32_t)rng.below(2), 8, rng.next(), &g) == GCLQ_SUCCESS);
  uint32_t host_max_core = 0;
  CHECK(gclq_core_numbers(&g, GCLQ_BACKEND_HOST, NULL, &host_max_core) == GCLQ_SUCCESS);
  const uint64_t want3 = prep_host_kcliques(g, 3), want4 = prep_host_kcliques(g, 4), want5 = prep_host_kcliques(g, 5);
  CHECK(want4 > 0);
  for (int way = 0; way < 2 && !g_test.failed; ++way) { /* DEFAULT (DEGENERACY), then DEGREE */
    gclq_prepare_options po;
    memset(&po, 0, sizeof po);
    po.orientation = way == 0 ? GCLQ_ORIENT_BY_DEFAULT : GCLQ_ORIENT_BY_DEGREE;
    const gclq_orient_by used = way == 0 ? GCLQ_ORIENT_BY_DEGENERACY : GCLQ_ORIENT_BY_DEGREE;
    gclq_prepared_graph *pg = (gclq_prepared_graph *)&po;
    CHECK(gclq_graph_prepare(&g, &po, &pg) == GCLQ_SUCCESS && pg != NULL);
    gclq_prepared_info info;
    memset(&info, 0xA5, sizeof info);
    CHECK(gclq_prepared_info_get(pg, &info) == GCLQ_SUCCESS);
    CHECK(info.num_vertices == g.num_vertices && info.num_edges == g.num_edges && info.orientation == used &&
          info.max_core == host_max_core && info.device_bytes > 0 && info.upload_ms >= 0 && info.order_ms >= 0);
    CHECK(way == 1 || info.max_out_degree <= host_max_core); /* the degeneracy order's bound */
    prep_check_kcliques(g, pg, used, 3, want3, "rmat");
    prep_check_kcliques(g, pg, used, 4, want4, "rmat");
    prep_check_kcliques(g, pg, used, 5, want5, "rmat");
    prep_check_motifs(g, pg, 3, "rmat");
    prep_check_motifs(g, pg, 4, "rmat");
    /* an orientation other than the prepared graph's */
    gclq_kclique_options o;
    gclq_kclique_result r;
    memset(&o, 0, sizeof o);
    o.backend = GCLQ_BACKEND_CUDA;
    o.orientation = way == 0 ? GCLQ_ORIENT_BY_DEGREE : GCLQ_ORIENT_BY_DEFAULT;
    o.prepared = pg;
    CHECK(gclq_kcliques(&g, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
    gclq_prepared_free(pg);
  }
  gclq_graph_free(&g);
}

GPU_TEST(prepared, small_graphs_other_graphs_and_bad_arguments) {
  gclq_prepared_graph *pg = NULL;
  for (uint32_t n = 0; n <= 1 && !g_test.failed; ++n) { /* no vertex, one vertex */
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(n, 0.5, 3, &g) == GCLQ_SUCCESS);
    CHECK(gclq_graph_prepare(&g, NULL, &pg) == GCLQ_SUCCESS);
    prep_check_kcliques(g, pg, GCLQ_ORIENT_BY_DEGENERACY, 3, 0, "tiny");
    prep_check_motifs(g, pg, 4, "tiny");
    gclq_prepared_free(pg);
    gclq_graph_free(&g);
  }
  gclq_graph a, b;
  CHECK(gclq_graph_erdos_renyi(60, 0.2, 5, &a) == GCLQ_SUCCESS);
  CHECK(gclq_graph_erdos_renyi(61, 0.2, 5, &b) == GCLQ_SUCCESS);
  CHECK(gclq_graph_prepare(&a, NULL, &pg) == GCLQ_SUCCESS);
  { /* b with a's prepared graph */
    gclq_kclique_options o;
    gclq_kclique_result r;
    memset(&o, 0, sizeof o);
    o.backend = GCLQ_BACKEND_CUDA;
    o.prepared = pg;
    CHECK(gclq_kcliques(&b, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
    gclq_motif_options mo;
    gclq_motif_result mr;
    memset(&mo, 0, sizeof mo);
    mo.backend = GCLQ_BACKEND_CUDA;
    mo.prepared = pg;
    CHECK(gclq_motifs(&b, 4, &mo, &mr) == GCLQ_ERROR_INVALID_ARGUMENT);
    mo.backend = GCLQ_BACKEND_HOST; /* HOST does not read it */
    CHECK(gclq_motifs(&b, 4, &mo, &mr) == GCLQ_SUCCESS && mr.backend == GCLQ_BACKEND_HOST);
  }
  gclq_prepared_free(pg);
  /* bad arguments and a budget below the graph: a clear status, nothing made */
  gclq_prepare_options po;
  memset(&po, 0, sizeof po);
  pg = (gclq_prepared_graph *)&po;
  CHECK(gclq_graph_prepare(NULL, &po, &pg) == GCLQ_ERROR_INVALID_ARGUMENT && pg == NULL);
  CHECK(gclq_graph_prepare(&a, &po, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  po.orientation = (gclq_orient_by)7;
  pg = (gclq_prepared_graph *)&po;
  CHECK(gclq_graph_prepare(&a, &po, &pg) == GCLQ_ERROR_INVALID_ARGUMENT && pg == NULL);
  po.orientation = GCLQ_ORIENT_BY_DEFAULT;
  po.device_budget_bytes = 1024;
  pg = (gclq_prepared_graph *)&po;
  CHECK(gclq_graph_prepare(&a, &po, &pg) == GCLQ_ERROR_OUT_OF_MEMORY && pg == NULL);
  gclq_prepared_info info;
  CHECK(gclq_prepared_info_get(NULL, &info) == GCLQ_ERROR_INVALID_ARGUMENT);
  gclq_prepared_free(NULL);
  gclq_graph_free(&a);
  gclq_graph_free(&b);
}

TEST(prepared, without_a_device_says_so) {
  if (g_test.have_gpu) return; /* the GPU tests above cover a device */
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(10, 0.5, 1, &g) == GCLQ_SUCCESS);
  gclq_prepared_graph *pg = (gclq_prepared_graph *)&g;
  CHECK(gclq_graph_prepare(&g, NULL, &pg) == GCLQ_ERROR_NO_DEVICE && pg == NULL);
  CHECK(gclq_graph_prepare(NULL, NULL, &pg) == GCLQ_ERROR_INVALID_ARGUMENT);
  /* matching's counted path asked on CUDA: no device, said so */
  const uint64_t u[] = {0, 1, 2}, v[] = {1, 2, 0};
  gclq_graph Q;
  CHECK(gclq_graph_from_edges(u, v, 3, &Q) == GCLQ_SUCCESS);
  gclq_match_options o;
  gclq_match_result r;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_CUDA;
  CHECK(gclq_match(&g, &Q, &o, &r) == GCLQ_ERROR_NO_DEVICE && r.count == 0);
  o.backend = GCLQ_BACKEND_AUTO; /* HOST then */
  CHECK(gclq_match(&g, &Q, &o, &r) == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_HOST);
  gclq_graph_free(&Q);
  gclq_graph_free(&g);
}

/* gclq_match's counted path (an unlabelled query of 3 or 4 vertices, a
   count alone) on CUDA, from the graph and from a prepared one, against
   HOST in the three modes it takes; a 5-vertex query's count by CUDA's
   search (AUTO runs it on HOST); listing on CUDA is unavailable. */
GPU_TEST(prepared, match_counts_on_cuda_equal_host) {
  test_rng rng = test_rng_for("prepared.match");
  gclq_graph g;
  CHECK(gclq_graph_rmat(9, 8, rng.next(), &g) == GCLQ_SUCCESS);
  gclq_prepared_graph *pg = NULL;
  CHECK(gclq_graph_prepare(&g, NULL, &pg) == GCLQ_SUCCESS);
  const uint32_t shapes[][12] = {{3, 0, 1, 1, 2, 2, 0},                   /* triangle (q, then pairs) */
                                 {4, 0, 1, 1, 2, 2, 3, 3, 0},             /* 4-cycle */
                                 {4, 0, 1, 1, 2, 2, 3, 3, 0, 0, 2},       /* diamond */
                                 {4, 0, 1, 0, 2, 0, 3}};                  /* 3-star */
  const uint32_t pairs[] = {3, 4, 5, 3};
  const gclq_match_mode modes[] = {GCLQ_MATCH_EDGE_INDUCED, GCLQ_MATCH_VERTEX_INDUCED, GCLQ_MATCH_EMBEDDINGS};
  for (size_t s = 0; s < 4 && !g_test.failed; ++s) {
    gclq_graph Q;
    std::vector<uint64_t> u, v;
    for (uint32_t e = 0; e < pairs[s]; ++e) u.push_back(shapes[s][1 + 2 * e]), v.push_back(shapes[s][2 + 2 * e]);
    CHECK(gclq_graph_from_edges(u.data(), v.data(), u.size(), &Q) == GCLQ_SUCCESS && Q.num_vertices == shapes[s][0]);
    for (size_t m = 0; m < 3 && !g_test.failed; ++m)
      for (int way = 0; way < 2; ++way) {
        gclq_match_options o;
        gclq_match_result want, got;
        memset(&o, 0, sizeof o);
        o.mode = modes[m];
        o.backend = GCLQ_BACKEND_HOST;
        CHECK(gclq_match(&g, &Q, &o, &want) == GCLQ_SUCCESS);
        o.backend = way == 0 ? GCLQ_BACKEND_CUDA : GCLQ_BACKEND_AUTO;
        o.prepared = way == 0 ? pg : NULL;
        memset(&got, 0xA5, sizeof got);
        CHECK(gclq_match(&g, &Q, &o, &got) == GCLQ_SUCCESS);
        CHECK_MSG(got.count == want.count && got.backend == GCLQ_BACKEND_CUDA && got.automorphisms == want.automorphisms,
                  "shape %zu mode %zu way %d: %llu, HOST %llu", s, m, way, (unsigned long long)got.count,
                  (unsigned long long)want.count);
        CHECK(want.count_ms == want.total_ms && got.count_ms >= 0 && got.count_ms <= got.total_ms + 1e3);
      }
    gclq_graph_free(&Q);
  }
  { /* a 5-vertex path: not counted from the motifs; CUDA searches it (the
       prepared graph given or not) and so does AUTO, counted and listed, the
       rows HOST's */
    const uint64_t u[] = {0, 1, 2, 3}, v[] = {1, 2, 3, 4};
    gclq_graph Q;
    CHECK(gclq_graph_from_edges(u, v, 4, &Q) == GCLQ_SUCCESS);
    gclq_match_options o;
    gclq_match_result r, c;
    memset(&o, 0, sizeof o);
    o.backend = GCLQ_BACKEND_HOST;
    o.max_stored = 5;
    CHECK(gclq_match(&g, &Q, &o, &r) == GCLQ_SUCCESS && r.count > 5 && r.stored == 5);
    for (int way = 0; way < 6 && !g_test.failed; ++way) {
      o.backend = way % 3 == 2 ? GCLQ_BACKEND_AUTO : GCLQ_BACKEND_CUDA;
      o.prepared = way % 3 == 1 ? pg : NULL;
      o.max_stored = way < 3 ? 0 : 5;
      CHECK_MSG(gclq_match(&g, &Q, &o, &c) == GCLQ_SUCCESS && c.backend == GCLQ_BACKEND_CUDA && c.count == r.count &&
                    c.stored == o.max_stored,
                "way %d: %llu (%llu rows), HOST %llu", way, (unsigned long long)c.count, (unsigned long long)c.stored,
                (unsigned long long)r.count);
      for (uint64_t i = 0; i < c.stored * 5; ++i) CHECK_MSG(c.h_matches[i] == r.h_matches[i], "way %d: row %llu", way,
                                                             (unsigned long long)(i / 5));
      gclq_match_result_free(&c);
    }
    gclq_match_result_free(&r);
    gclq_graph_free(&Q);
  }
  gclq_prepared_free(pg);
  gclq_graph_free(&g);
}
