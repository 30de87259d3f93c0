/* test_gpm_motifs_cuda.cu - motifs of 3 and 4 vertices by counting on the
   device (clique/gpm/motifs.cuh, through gclq_motifs with backend CUDA)
   against the HOST count (method COUNT), exactly: the counts, their total
   and the non-induced counts (gclq_match's edge-induced count of each
   pattern on CUDA, against a derivation from the HOST induced counts by the
   patterns' containment). Constructed graphs
   (empty, one vertex, 31-33 vertices, K_4, K_5, K_33, a star of degree
   5000, a hub joined to a sparse graph of 3000 vertices, C_4, a long
   cycle, K_40,40) with their closed forms, random Erdos-Renyi and R-MAT
   graphs of fresh seeds, and device budgets from too small to plenty:
   GCLQ_ERROR_OUT_OF_MEMORY or the same counts, never another answer.

   Included after test_gpm.cu in unit_clique.cu (its helpers gm_from_pairs
   and gm_choose). */

/* The HOST counts of k by the COUNT method into want (6 entries) and *total. */
static void gmc_host(const gclq_graph &g, uint32_t k, uint64_t *want, uint64_t *total) {
  gclq_motif_options o;
  gclq_motif_result r;
  memset(&o, 0, sizeof o);
  memset(&r, 0xA5, sizeof r);
  o.backend = GCLQ_BACKEND_HOST;
  o.method = GCLQ_MOTIF_COUNT;
  const gclq_status st = gclq_motifs(&g, k, &o, &r);
  CHECK_MSG(st == GCLQ_SUCCESS, "HOST k %u: %s", k, gclq_status_string(st));
  memcpy(want, r.counts, 6 * sizeof(uint64_t));
  *total = r.subgraphs;
}

/* The non-induced counts of the induced ones I: each pattern's copies in
   every pattern that contains it (k = 4: 3-star, 4-path, tailed triangle,
   4-cycle, diamond, 4-clique; k = 3: triangle, wedge). */
static void gmc_noninduced(uint32_t k, const uint64_t *I, uint64_t *N) {
  if (k == 3) {
    N[0] = I[0], N[1] = I[1] + 3 * I[0];
    return;
  }
  N[0] = I[0] + I[2] + 2 * I[4] + 4 * I[5];
  N[1] = I[1] + 2 * I[2] + 4 * I[3] + 6 * I[4] + 12 * I[5];
  N[2] = I[2] + 4 * I[4] + 12 * I[5];
  N[3] = I[3] + I[4] + 3 * I[5];
  N[4] = I[4] + 6 * I[5];
  N[5] = I[5];
}

/* The CUDA count of k under budget (gclq_motifs, backend CUDA, method
   COUNT) against HOST; then each pattern's non-induced count, gclq_match's
   edge-induced count of it (its CUDA counted path, the same sums), against
   the derivation from HOST's induced counts. *st gets the count's status (a
   refusal is no failure here when refusal_ok). got: the CUDA counts. */
static void gmc_same(const gclq_graph &g, uint32_t k, size_t budget, const char *what, int refusal_ok,
                     gclq_status *st, uint64_t *got) {
  uint64_t want[6], want_total = 0, want_non[6];
  gmc_host(g, k, want, &want_total);
  CHECK_OK_SO_FAR();
  gmc_noninduced(k, want, want_non);
  gclq_motif_options o;
  gclq_motif_result r;
  memset(&o, 0, sizeof o);
  memset(&r, 0xA5, sizeof r);
  o.backend = GCLQ_BACKEND_CUDA;
  o.method = GCLQ_MOTIF_COUNT;
  o.device_budget_bytes = budget;
  *st = gclq_motifs(&g, k, &o, &r);
  if (refusal_ok && *st == GCLQ_ERROR_OUT_OF_MEMORY) return;
  CHECK_MSG(*st == GCLQ_SUCCESS && r.backend == GCLQ_BACKEND_CUDA, "%s k %u budget %zu: %s", what, k, budget,
            gclq_status_string(*st));
  memcpy(got, r.counts, 6 * sizeof(uint64_t));
  for (uint32_t i = 0; i < (k == 3 ? 2u : 6u); ++i) {
    CHECK_MSG(got[i] == want[i], "%s k %u: %s %llu, HOST %llu", what, k, gclq_motif_name(k, i),
              (unsigned long long)got[i], (unsigned long long)want[i]);
    uint32_t pairs[12];
    const uint32_t ne = gclq_motif_edges(k, i, pairs);
    std::vector<uint64_t> u, v;
    for (uint32_t e = 0; e < ne; ++e) u.push_back(pairs[2 * e]), v.push_back(pairs[2 * e + 1]);
    gclq_graph Q;
    CHECK(gclq_graph_from_edges(u.data(), v.data(), ne, &Q) == GCLQ_SUCCESS);
    gclq_match_options mo;
    gclq_match_result mr;
    memset(&mo, 0, sizeof mo);
    memset(&mr, 0xA5, sizeof mr);
    mo.backend = GCLQ_BACKEND_CUDA;
    mo.device_budget_bytes = budget;
    const gclq_status ms = gclq_match(&g, &Q, &mo, &mr);
    gclq_graph_free(&Q);
    CHECK_MSG(ms == GCLQ_SUCCESS && mr.backend == GCLQ_BACKEND_CUDA && mr.count == want_non[i],
              "%s k %u: non-induced %s %llu (%s), want %llu", what, k, gclq_motif_name(k, i),
              (unsigned long long)mr.count, gclq_status_string(ms), (unsigned long long)want_non[i]);
  }
  CHECK_MSG(r.subgraphs == want_total, "%s k %u: %llu subgraphs, HOST %llu", what, k, (unsigned long long)r.subgraphs,
            (unsigned long long)want_total);
}

/* k = 3 and 4 equal to HOST, the default budget; with a closed form, pattern
   p3 (k = 3) and p4 (k = 4) alone have c3 and c4 (p = -1: no check). */
static void gmc_check(const gclq_graph &g, const char *what, int p3, uint64_t c3, int p4, uint64_t c4) {
  for (uint32_t k = 3; k <= 4; ++k) {
    uint64_t got[6];
    gclq_status st;
    gmc_same(g, k, 0, what, 0, &st, got);
    CHECK_OK_SO_FAR();
    const int p = k == 3 ? p3 : p4;
    for (uint32_t i = 0; p >= 0 && i < (k == 3 ? 2u : 6u); ++i)
      CHECK_MSG(got[i] == ((int)i == p ? (k == 3 ? c3 : c4) : 0), "%s k %u: %s %llu, closed form %llu", what, k,
                gclq_motif_name(k, i), (unsigned long long)got[i],
                (unsigned long long)((int)i == p ? (k == 3 ? c3 : c4) : 0));
  }
}

static gclq_graph gmc_complete(uint64_t n) {
  std::vector<std::pair<uint64_t, uint64_t> > e;
  for (uint64_t u = 0; u < n; ++u)
    for (uint64_t v = u + 1; v < n; ++v) e.push_back(std::make_pair(u, v));
  return gm_from_pairs(e);
}

static gclq_graph gmc_cycle(uint64_t n) {
  std::vector<std::pair<uint64_t, uint64_t> > e;
  for (uint64_t v = 0; v < n; ++v) e.push_back(std::make_pair(v, (v + 1) % n));
  return gm_from_pairs(e);
}

GPU_TEST(gpm_cuda, motifs_count_closed_forms) {
  gclq_graph g;
  CHECK(gclq_graph_from_edges(NULL, NULL, 0, &g) == GCLQ_SUCCESS);
  gmc_check(g, "empty", 0, 0, 0, 0);
  gclq_graph_free(&g);
  CHECK_OK_SO_FAR();
  CHECK(gclq_graph_erdos_renyi(1, 0.5, 1, &g) == GCLQ_SUCCESS && g.num_vertices == 1);
  gmc_check(g, "one vertex", 0, 0, 0, 0);
  gclq_graph_free(&g);
  CHECK_OK_SO_FAR();
  const uint64_t kn[3] = {4, 5, 33};
  for (int i = 0; i < 3; ++i) { /* K_n: every subset a clique */
    g = gmc_complete(kn[i]);
    gmc_check(g, "K_n", 0, gm_choose(kn[i], 3), 5, gm_choose(kn[i], 4));
    gclq_graph_free(&g);
    CHECK_OK_SO_FAR();
  }
  std::vector<std::pair<uint64_t, uint64_t> > e;
  for (uint64_t v = 1; v <= 5000; ++v) e.push_back(std::make_pair(0, v));
  g = gm_from_pairs(e); /* a hub of degree 5000: wedges and 3-stars at it alone */
  gmc_check(g, "K_1,5000", 1, gm_choose(5000, 2), 0, gm_choose(5000, 3));
  gclq_graph_free(&g);
  CHECK_OK_SO_FAR();
  g = gmc_cycle(4);
  gmc_check(g, "C_4", 1, 4, 3, 1);
  gclq_graph_free(&g);
  CHECK_OK_SO_FAR();
  g = gmc_cycle(1001);
  gmc_check(g, "C_1001", 1, 1001, 1, 1001);
  gclq_graph_free(&g);
  CHECK_OK_SO_FAR();
  e.clear();
  for (uint64_t u = 0; u < 40; ++u)
    for (uint64_t v = 0; v < 40; ++v) e.push_back(std::make_pair(u, 100 + v));
  g = gm_from_pairs(e); /* K_40,40: 4-cycles C(40, 2)^2; 3-stars 80 C(40, 3); no triangle */
  gmc_check(g, "K_40,40", -1, 0, -1, 0);
  CHECK_OK_SO_FAR();
  uint64_t got[6];
  gclq_status st;
  gmc_same(g, 4, 0, "K_40,40", 0, &st, got);
  CHECK_OK_SO_FAR();
  CHECK(got[3] == gm_choose(40, 2) * gm_choose(40, 2) && got[0] == 80 * gm_choose(40, 3) && got[4] == 0 &&
        got[5] == 0 && got[2] == 0);
  gclq_graph_free(&g);
}

GPU_TEST(gpm_cuda, motifs_count_equals_host_on_small_and_hub_graphs) {
  test_rng rng = test_rng_for("gpm_cuda.small");
  const uint32_t sizes[3] = {31, 32, 33};
  const double ps[4] = {0.05, 0.3, 0.6, 0.95};
  for (int si = 0; si < 3; ++si)
    for (int pi = 0; pi < 4; ++pi) {
      gclq_graph g;
      CHECK(gclq_graph_erdos_renyi(sizes[si], ps[pi], rng.next(), &g) == GCLQ_SUCCESS);
      gmc_check(g, "G(31..33, p)", -1, 0, -1, 0);
      gclq_graph_free(&g);
      CHECK_OK_SO_FAR();
    }
  /* a hub joined to every vertex of a sparse graph: its 4-cycles run
     through the hub's wedges, 3000 neighbours below it in one block */
  gclq_graph er;
  CHECK(gclq_graph_erdos_renyi(3000, 0.003, rng.next(), &er) == GCLQ_SUCCESS);
  std::vector<std::pair<uint64_t, uint64_t> > e;
  for (uint32_t u = 0; u < er.num_vertices; ++u) {
    e.push_back(std::make_pair((uint64_t)0, (uint64_t)u + 1));
    for (uint64_t x = er.h_offsets[u]; x < er.h_offsets[u + 1]; ++x)
      if (er.h_neighbors[x] > u) e.push_back(std::make_pair((uint64_t)u + 1, (uint64_t)er.h_neighbors[x] + 1));
  }
  gclq_graph_free(&er);
  gclq_graph g = gm_from_pairs(e);
  gmc_check(g, "hub + G(3000, 0.003)", -1, 0, -1, 0);
  gclq_graph_free(&g);
}

GPU_TEST(gpm_cuda, motifs_count_equals_host_on_random_graphs) {
  test_rng rng = test_rng_for("gpm_cuda.random");
  const uint32_t sizes[3] = {200, 1000, 3000};
  const double ps[3] = {0.2, 0.02, 0.004};
  for (int i = 0; i < 3; ++i) {
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(sizes[i], ps[i] * (0.5 + (double)rng.below(100) / 100.0), rng.next(), &g) ==
          GCLQ_SUCCESS);
    gmc_check(g, "Erdos-Renyi", -1, 0, -1, 0);
    gclq_graph_free(&g);
    CHECK_OK_SO_FAR();
  }
  for (int scale = 6; scale <= 12; scale += 3) {
    gclq_graph g;
    CHECK(gclq_graph_rmat(scale, 4 + (int)rng.below(13), rng.next(), &g) == GCLQ_SUCCESS);
    gmc_check(g, "R-MAT", -1, 0, -1, 0);
    gclq_graph_free(&g);
    CHECK_OK_SO_FAR();
  }
}

/* A graph of over a million vertices: the bitmap triangle kernel's n-bit
   bitmap (over 128 KiB) leaves no room for GCLQ__FM_BITS_MIN_BLOCKS blocks
   an SM of any device (at most 228 KiB of shared memory an SM), so T alone
   is counted by the warp-an-edge kernel; the small graphs above take the
   bitmap. A path with chords i - (i + 2) (each a triangle) and long edges. */
GPU_TEST(gpm_cuda, motifs_count_triangles_past_the_bitmap) {
  test_rng rng = test_rng_for("gpm_cuda.big_n");
  const uint64_t n = ((uint64_t)1 << 20) + 1 + rng.below(1000);
  std::vector<uint64_t> u, v;
  for (uint64_t i = 0; i + 1 < n; ++i) {
    u.push_back(i), v.push_back(i + 1);
    if (i + 2 < n && rng.below(2) == 0) u.push_back(i), v.push_back(i + 2);
    if (rng.below(8) == 0) u.push_back(i), v.push_back(rng.below(n));
  }
  gclq_graph g;
  CHECK(gclq_graph_from_edges(u.data(), v.data(), u.size(), &g) == GCLQ_SUCCESS && g.num_vertices == n);
  uint64_t got[6];
  gclq_status st;
  gmc_same(g, 3, 0, "past the bitmap", 0, &st, got);
  CHECK_MSG(got[0] > n / 4, "%llu triangles", (unsigned long long)got[0]);
  gclq_graph_free(&g);
}

GPU_TEST(gpm_cuda, motifs_count_budget) {
  test_rng rng = test_rng_for("gpm_cuda.budget");
  gclq_graph g;
  CHECK(gclq_graph_rmat(11, 8, rng.next(), &g) == GCLQ_SUCCESS);
  uint64_t got[6];
  gclq_status st;
  gclq_motif_options o;
  gclq_motif_result r;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_CUDA;
  o.method = GCLQ_MOTIF_COUNT;
  for (uint32_t k = 3; k <= 4; ++k) {
    o.device_budget_bytes = 1024; /* CUDA asked: no fallback, the refusal said */
    CHECK(gclq_motifs(&g, k, &o, &r) == GCLQ_ERROR_OUT_OF_MEMORY);
    int ran = 0;
    /* from too small for the upload to room for many blocks' counters
       (4 n bytes each): each a refusal or the HOST counts */
    for (size_t budget = (size_t)1 << 14; budget <= (size_t)1 << 27; budget += budget / 4) {
      gmc_same(g, k, budget, "R-MAT 11", 1, &st, got);
      CHECK_OK_SO_FAR();
      ran += st == GCLQ_SUCCESS;
    }
    CHECK_MSG(ran > 0, "k %u: no budget ran", k);
  }
  o.device_budget_bytes = 0;
  CHECK(gclq_motifs(&g, 5, &o, &r) == GCLQ_ERROR_INVALID_ARGUMENT);
  gclq_graph_free(&g);
}

/* ---- matching's search on the device (clique/gpm/match.cuh: gclq_match,
   backend CUDA, a count alone, every query the motif counts do not take) ---- */

/* A random connected query of q vertices (a random tree, then each other
   pair an edge with probability 1/3), labelled from labels values when
   labels > 0. */
static gclq_graph gmc_query(test_rng &rng, uint32_t q, uint32_t labels) {
  std::vector<uint32_t> pairs;
  std::set<std::pair<uint32_t, uint32_t> > seen;
  for (uint32_t v = 1; v < q; ++v) {
    const uint32_t u = (uint32_t)rng.below(v);
    pairs.push_back(u), pairs.push_back(v), seen.insert(std::make_pair(u, v));
  }
  for (uint32_t u = 0; u < q; ++u)
    for (uint32_t v = u + 1; v < q; ++v)
      if (!seen.count(std::make_pair(u, v)) && rng.below(3) == 0) pairs.push_back(u), pairs.push_back(v);
  gclq_graph Q = gm_query(q, pairs);
  if (labels > 0 && gclq_graph_random_labels(&Q, labels, rng.next()) != GCLQ_SUCCESS) g_test.failed = 1;
  return Q;
}

/* A hub 0 of 200 leaves (1 .. 200) and `extra` random edges among them. */
static gclq_graph gmc_hub(test_rng &rng, int extra) {
  std::vector<uint64_t> hu, hv;
  for (uint64_t i = 1; i <= 200; ++i) hu.push_back(0), hv.push_back(i);
  for (int i = 0; i < extra; ++i) hu.push_back(1 + rng.below(200)), hv.push_back(1 + rng.below(200));
  gclq_graph g;
  memset(&g, 0, sizeof g);
  if (gclq_graph_from_edges(hu.data(), hv.data(), hu.size(), &g) != GCLQ_SUCCESS) g_test.failed = 1;
  return g;
}

/* The count of Q in g in mode on CUDA (budget, prepared pg or NULL) against
   HOST's, and with list > 0 the first list rows too (list UINT64_MAX: every
   row while there are at most 10^5, else 1000); *st gets CUDA's status (a
   refusal is no failure when refusal_ok); *nonzero += 1 when HOST's count
   is not 0; CUDA's progress lines to log. */
static void gmc_match(const gclq_graph &g, const gclq_graph &Q, gclq_match_mode mode, size_t budget,
                      const gclq_prepared_graph *pg, int refusal_ok, gclq_status *st, const char *what,
                      uint64_t *nonzero, uint64_t list = 0, void (*log)(void *, const char *) = NULL,
                      void *log_user = NULL) {
  gclq_match_options o;
  gclq_match_result want, got;
  memset(&o, 0, sizeof o);
  o.mode = mode;
  o.backend = GCLQ_BACKEND_HOST;
  CHECK(gclq_match(&g, &Q, &o, &want) == GCLQ_SUCCESS);
  if (list == UINT64_MAX && want.count > 100000) list = 1000;
  if (list > 0) {
    gclq_match_result_free(&want);
    o.max_stored = list;
    CHECK(gclq_match(&g, &Q, &o, &want) == GCLQ_SUCCESS);
  }
  o.backend = GCLQ_BACKEND_CUDA;
  o.device_budget_bytes = budget;
  o.prepared = pg;
  o.log = log;
  o.log_user = log_user;
  memset(&got, 0xA5, sizeof got);
  *st = gclq_match(&g, &Q, &o, &got);
  if (!(refusal_ok && *st == GCLQ_ERROR_OUT_OF_MEMORY)) {
    CHECK_MSG(*st == GCLQ_SUCCESS && got.backend == GCLQ_BACKEND_CUDA && got.count == want.count &&
                  got.automorphisms == want.automorphisms && got.count_ms >= 0 && got.stored == want.stored,
              "%s: %u-vertex query%s, mode %d, list %llu: %s, %llu (%llu rows), HOST %llu (%llu)", what,
              Q.num_vertices, Q.h_labels ? " (labelled)" : "", (int)mode, (unsigned long long)list,
              gclq_status_string(*st), (unsigned long long)got.count, (unsigned long long)got.stored,
              (unsigned long long)want.count, (unsigned long long)want.stored);
    for (uint64_t i = 0; *st == GCLQ_SUCCESS && !g_test.failed && i < want.stored * Q.num_vertices; ++i)
      CHECK_MSG(got.h_matches[i] == want.h_matches[i], "%s: mode %d, list %llu: row %llu differs from HOST's", what,
                (int)mode, (unsigned long long)list, (unsigned long long)(i / Q.num_vertices));
  }
  *nonzero += want.count > 0;
  gclq_match_result_free(&got);
  gclq_match_result_free(&want);
}

/* Random queries of 1-7 vertices (unlabelled and labelled) in every mode on
   a dense small graph, a sparse one (the larger queries), an R-MAT graph
   and a hub of degree 200 (candidate lists of several warp strides): CUDA
   equals HOST, and many counts are not 0. */
GPU_TEST(gpm_cuda, match_search_equals_host) {
  test_rng rng = test_rng_for("gpm_cuda.match");
  gclq_graph gs[4];
  CHECK(gclq_graph_erdos_renyi(40, 0.2 + (double)rng.below(10) / 100.0, rng.next(), &gs[0]) == GCLQ_SUCCESS);
  CHECK(gclq_graph_erdos_renyi(60, 0.05 + (double)rng.below(3) / 100.0, rng.next(), &gs[1]) == GCLQ_SUCCESS);
  CHECK(gclq_graph_rmat(7, 4, rng.next(), &gs[2]) == GCLQ_SUCCESS);
  gs[3] = gmc_hub(rng, 150);
  const char *names[4] = {"Erdos-Renyi 40", "Erdos-Renyi 60", "R-MAT 7", "hub"};
  const uint32_t largest[4] = {5, 7, 4, 4}; /* HOST's time: the hubs' maps grow as degree^(q-1) */
  const gclq_match_mode modes[4] = {GCLQ_MATCH_EDGE_INDUCED, GCLQ_MATCH_VERTEX_INDUCED, GCLQ_MATCH_EMBEDDINGS,
                                    GCLQ_MATCH_HOMOMORPHISMS};
  uint64_t nonzero = 0;
  for (int gi = 0; gi < 4 && !g_test.failed; ++gi)
    for (uint32_t labels = 0; labels <= 3 && !g_test.failed; labels += 3) {
      if (labels > 0) CHECK(gclq_graph_random_labels(&gs[gi], 2 + (uint32_t)rng.below(2), rng.next()) == GCLQ_SUCCESS);
      for (uint32_t q = 1; q <= largest[gi] && !g_test.failed; ++q)
        for (int rep = 0; rep < 2 && !g_test.failed; ++rep) {
          gclq_graph Q = gmc_query(rng, q, labels > 0 ? 2 : 0);
          for (int m = 0; m < 4 && !g_test.failed; ++m) {
            if (modes[m] == GCLQ_MATCH_HOMOMORPHISMS && q > 5) continue; /* too many maps for HOST */
            gclq_status st;
            gmc_match(gs[gi], Q, modes[m], 0, NULL, 0, &st, names[gi], &nonzero,
                      rep == 0 ? 0 : m % 2 == 0 ? UINT64_MAX : 1 + rng.below(40));
          }
          gclq_graph_free(&Q);
        }
    }
  CHECK_MSG(nonzero > 40, "only %llu nonzero counts", (unsigned long long)nonzero);
  for (int gi = 0; gi < 4; ++gi) gclq_graph_free(&gs[gi]);
}

/* Budgets from too small for the upload to plenty (the stacks of a
   5-vertex query on the hub: 3 levels of 200 candidates a warp, fewer warps
   as the budget falls): each the HOST count or out of memory, both seen;
   labelled queries counted from a prepared graph (labels to rank ids) and
   listed with it given (from the graph's own lists: HOST's rows). */
GPU_TEST(gpm_cuda, match_search_budgets_prepared_and_listing) {
  test_rng rng = test_rng_for("gpm_cuda.match_budget");
  gclq_graph g = gmc_hub(rng, 300);
  gclq_graph Q = gm_query(5, std::vector<uint32_t>{0, 1, 1, 2, 2, 3, 3, 4}); /* a 5-vertex path */
  int ok = 0, oom = 0;
  uint64_t nonzero = 0;
  for (size_t budget = (size_t)1 << 12; budget <= (size_t)1 << 24 && !g_test.failed; budget += budget / 3) {
    gclq_status st;
    gmc_match(g, Q, GCLQ_MATCH_EDGE_INDUCED, budget, NULL, 1, &st, "hub under a budget", &nonzero);
    ok += st == GCLQ_SUCCESS, oom += st == GCLQ_ERROR_OUT_OF_MEMORY;
  }
  CHECK_MSG(ok > 0 && oom > 0 && nonzero > 0, "%d budgets ran, %d were out of memory", ok, oom);
  gclq_graph_free(&Q);
  gclq_graph r;
  CHECK(gclq_graph_rmat(9, 6, rng.next(), &r) == GCLQ_SUCCESS);
  CHECK(gclq_graph_random_labels(&r, 3, rng.next()) == GCLQ_SUCCESS);
  gclq_prepared_graph *pg = NULL;
  CHECK(gclq_graph_prepare(&r, NULL, &pg) == GCLQ_SUCCESS);
  for (uint32_t q = 2; q <= 5 && !g_test.failed; ++q) {
    gclq_graph L = gmc_query(rng, q, 3);
    gclq_status st;
    gmc_match(r, L, GCLQ_MATCH_VERTEX_INDUCED, 0, pg, 0, &st, "prepared R-MAT 9", &nonzero);
    gmc_match(r, L, GCLQ_MATCH_EMBEDDINGS, 0, pg, 0, &st, "prepared R-MAT 9", &nonzero);
    gmc_match(r, L, GCLQ_MATCH_EDGE_INDUCED, 0, pg, 0, &st, "prepared R-MAT 9, listed", &nonzero, 1 + rng.below(50));
    gmc_match(r, L, GCLQ_MATCH_VERTEX_INDUCED, 0, pg, 0, &st, "prepared R-MAT 9, listed", &nonzero, UINT64_MAX);
    gclq_graph_free(&L);
  }
  gclq_prepared_free(pg);
  { /* a labelled 4-path under a ladder of budgets: the lists by label (16 bytes an edge, twice the
       upload's lists) left out where the search alone fits, the count HOST's either way */
    struct fallback {
      static void fn(void *user, const char *line) {
        if (strstr(line, "no room for the lists by label") != NULL) *(int *)user = 1;
      }
    };
    gclq_graph P = gm_query(4, std::vector<uint32_t>{0, 1, 1, 2, 2, 3});
    CHECK(gclq_graph_random_labels(&P, 3, rng.next()) == GCLQ_SUCCESS);
    int without = 0, with = 0, ran = 0;
    for (size_t budget = (size_t)1 << 12; budget <= (size_t)1 << 24 && !g_test.failed; budget += budget / 8) {
      gclq_status st;
      int seen = 0;
      gmc_match(r, P, GCLQ_MATCH_EDGE_INDUCED, budget, NULL, 1, &st, "labelled 4-path under a budget", &nonzero, 0,
                fallback::fn, &seen);
      ran += st == GCLQ_SUCCESS;
      without += st == GCLQ_SUCCESS && seen, with += st == GCLQ_SUCCESS && !seen;
    }
    CHECK_MSG(without > 0 && with > 0, "%d budgets ran: %d without the lists by label, %d with", ran, without, with);
    gclq_graph_free(&P);
  }
  gclq_match_options o;
  gclq_match_result res;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_CUDA;
  Q = gm_query(2, std::vector<uint32_t>{0, 1});
  { /* 7 vertices, no edge: a vertex matches 7 times, an edge never */
    const uint64_t loops[7] = {0, 1, 2, 3, 4, 5, 6};
    gclq_graph e;
    gclq_graph one = gm_query(1, std::vector<uint32_t>{});
    CHECK(gclq_graph_from_edges(loops, loops, 7, &e) == GCLQ_SUCCESS && e.num_vertices == 7 && e.num_edges == 0);
    CHECK(gclq_match(&e, &one, &o, &res) == GCLQ_SUCCESS && res.count == 7 && res.backend == GCLQ_BACKEND_CUDA);
    CHECK(gclq_match(&e, &Q, &o, &res) == GCLQ_SUCCESS && res.count == 0 && res.backend == GCLQ_BACKEND_CUDA);
    gclq_graph_free(&one);
    gclq_graph_free(&e);
  }
  gclq_graph_free(&Q);
  gclq_graph_free(&r);
  gclq_graph_free(&g);
}

/* Progress lines that report a second listing pass (a window too full for
   the buffer, or the window after a full one). */
static void gmc_count_passes(void *user, const char *line) {
  if (strstr(line, "listing pass 2:") != NULL) ++*(int *)user;
}

/* Listing past the device's buffer: 3-stars on a hub of 200 leaves (over
   C(200, 3) = 1,313,400 of them, past the 2^16 rows of the smallest buffer)
   listed 1, 7, 1000 and 40,000 at a time: the first pass's window holds
   every match, so the rows come from a second pass at least, and equal
   HOST's; then every row under a ladder of budgets (4 KiB, then 1 MiB up),
   the buffer under half of each: many windows, each run HOST's rows or out
   of memory, both seen; every host allocation failing in turn. */
GPU_TEST(gpm_cuda, match_listing_passes_and_windows) {
  test_rng rng = test_rng_for("gpm_cuda.match_listing");
  gclq_graph g = gmc_hub(rng, 300);
  gclq_graph Q = gm_query(4, std::vector<uint32_t>{0, 1, 0, 2, 0, 3}); /* a 3-star */
  gclq_match_options o;
  gclq_match_result want, got;
  memset(&o, 0, sizeof o);
  const uint64_t sizes[5] = {1, 7, 1000, 40000, UINT64_MAX};
  int ok = 0, oom = 0;
  for (int si = 0; si < 5 && !g_test.failed; ++si) {
    o.backend = GCLQ_BACKEND_HOST;
    o.max_stored = sizes[si];
    o.device_budget_bytes = 0;
    o.log = NULL;
    CHECK(gclq_match(&g, &Q, &o, &want) == GCLQ_SUCCESS && want.count > 1313400);
    const size_t first = si < 4 ? 0 : (size_t)1 << 12, last = si < 4 ? 0 : (size_t)1 << 26;
    for (size_t budget = first; budget <= last && !g_test.failed;
         budget = budget < ((size_t)1 << 20) ? (size_t)1 << 20 : budget + budget / 2) {
      int second = 0;
      o.backend = GCLQ_BACKEND_CUDA;
      o.device_budget_bytes = budget;
      o.log = gmc_count_passes;
      o.log_user = &second;
      memset(&got, 0xA5, sizeof got);
      const gclq_status st = gclq_match(&g, &Q, &o, &got);
      if (st == GCLQ_ERROR_OUT_OF_MEMORY && si == 4) {
        ++oom;
        continue;
      }
      CHECK_MSG(st == GCLQ_SUCCESS && got.count == want.count && got.stored == want.stored && (si == 4 || second == 1),
                "list %llu, budget %zu: %s, %llu (%llu rows, second pass %d), HOST %llu (%llu)",
                (unsigned long long)sizes[si], budget, gclq_status_string(st), (unsigned long long)got.count,
                (unsigned long long)got.stored, second, (unsigned long long)want.count,
                (unsigned long long)want.stored);
      for (uint64_t i = 0; st == GCLQ_SUCCESS && !g_test.failed && i < want.stored * 4; ++i)
        CHECK_MSG(got.h_matches[i] == want.h_matches[i], "list %llu, budget %zu: row %llu differs from HOST's",
                  (unsigned long long)sizes[si], budget, (unsigned long long)(i / 4));
      ok += si == 4 && st == GCLQ_SUCCESS && second > 0;
      gclq_match_result_free(&got);
      if (budget == 0) break;
    }
    gclq_match_result_free(&want);
  }
  CHECK_MSG(ok > 0 && oom > 0, "every row under a budget: %d runs listed them in windows, %d were out of memory", ok,
            oom);
  o.backend = GCLQ_BACKEND_CUDA; /* every host allocation of a listing failing in turn: out of memory, none kept */
  o.device_budget_bytes = 0;
  o.log = NULL;
  o.max_stored = 1000;
  for (long long k = 0; k < 40 && !g_test.failed; ++k) {
    const long long live = g_alloc_live;
    g_alloc_fail_at = g_alloc_calls + k;
    const gclq_status st = gclq_match(&g, &Q, &o, &got);
    const bool never_came = g_alloc_fail_at >= g_alloc_calls;
    g_alloc_fail_at = -1;
    if (never_came) {
      CHECK(st == GCLQ_SUCCESS && got.stored == 1000);
      gclq_match_result_free(&got);
      CHECK(g_alloc_live == live);
      break;
    }
    CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && got.h_matches == NULL && g_alloc_live == live, "allocation %lld: %s",
              k, gclq_status_string(st));
  }
  { /* one vertex: its label's vertices, listed as HOST lists them */
    gclq_graph one = gm_query(1, std::vector<uint32_t>{});
    o.backend = GCLQ_BACKEND_CUDA;
    o.device_budget_bytes = 0;
    o.log = NULL;
    o.max_stored = 5;
    CHECK(gclq_match(&g, &one, &o, &got) == GCLQ_SUCCESS && got.count == g.num_vertices && got.stored == 5 &&
          got.h_matches[0] == 0 && got.h_matches[4] == 4 && got.backend == GCLQ_BACKEND_CUDA);
    gclq_match_result_free(&got);
    gclq_graph_free(&one);
  }
  gclq_graph_free(&Q);
  gclq_graph_free(&g);
}
