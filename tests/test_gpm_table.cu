/* test_gpm_table.cu - embedding tables (gpuclique section 9, gclq_emb_*):
   rows against brute force over every vertex subset and every edge subset
   of small random graphs (each connected one exactly once, no other),
   aggregation against gclq_motifs, task blocks against whole levels,
   matching by a query's pattern tables against gclq_match, FPM written
   with the primitives against gclq_fpm, the label and degree filters, bad
   arguments and every allocation failing. Host code only.

   Included after test_gpm.cu in unit_clique.cu (its helpers and
   configuration: the counting allocator). */

/* The rows of the last level as sorted vertex sets (VERTEX) or sorted edge
   sets (EDGE, each edge u << 32 | v in compact ids). */
static std::vector<std::vector<uint64_t> > et_rows(const gclq_emb_table *t, gclq_emb_kind kind) {
  std::vector<std::vector<uint64_t> > rows;
  const uint64_t n = gclq_emb_rows(t, gclq_emb_levels(t) - 1);
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t v[GCLQ_EMB_MAX_VERTICES];
    uint32_t e[56], ne = 0;
    const uint32_t nv = gclq_emb_row(t, gclq_emb_levels(t) - 1, i, v, e, &ne);
    std::vector<uint64_t> r;
    if (kind == GCLQ_EMB_VERTEX) r.assign(v, v + nv);
    else
      for (uint32_t j = 0; j < ne; ++j) {
        const uint64_t a = std::min(v[e[2 * j]], v[e[2 * j + 1]]), b = std::max(v[e[2 * j]], v[e[2 * j + 1]]);
        r.push_back(a << 32 | b);
      }
    std::sort(r.begin(), r.end());
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/* Is the vertex set (bit mask over n <= 20 vertices) connected in g? */
static bool et_connected(const gclq_graph &g, uint32_t set) {
  if (set == 0) return false;
  uint32_t seen = set & (~set + 1), grew = 1;
  while (grew) {
    grew = 0;
    for (uint32_t u = 0; u < g.num_vertices; ++u)
      if ((seen >> u) & 1u)
        for (uint64_t e = g.h_offsets[u]; e < g.h_offsets[u + 1]; ++e) {
          const uint32_t w = g.h_neighbors[e];
          if (((set >> w) & 1u) && !((seen >> w) & 1u)) seen |= 1u << w, grew = 1;
        }
  }
  return seen == set;
}

/* Every connected vertex set of k vertices, sorted. */
static std::vector<std::vector<uint64_t> > et_brute_vertex(const gclq_graph &g, uint32_t k) {
  std::vector<std::vector<uint64_t> > out;
  for (uint32_t s = 0; s < (1u << g.num_vertices); ++s) {
    if ((uint32_t)__builtin_popcount(s) != k || !et_connected(g, s)) continue;
    std::vector<uint64_t> r;
    for (uint32_t u = 0; u < g.num_vertices; ++u)
      if ((s >> u) & 1u) r.push_back(u);
    out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  return out;
}

/* Every connected edge set of k edges (edges u << 32 | v, u < v), sorted. */
static std::vector<std::vector<uint64_t> > et_brute_edge(const gclq_graph &g, uint32_t k) {
  std::vector<uint64_t> edges;
  for (uint32_t u = 0; u < g.num_vertices; ++u)
    for (uint64_t e = g.h_offsets[u]; e < g.h_offsets[u + 1]; ++e)
      if (g.h_neighbors[e] > u) edges.push_back((uint64_t)u << 32 | g.h_neighbors[e]);
  std::vector<std::vector<uint64_t> > out;
  for (uint32_t s = 0; s < (1u << edges.size()); ++s) {
    if ((uint32_t)__builtin_popcount(s) != k) continue;
    std::vector<uint64_t> r;
    uint32_t touched = 0;
    for (size_t i = 0; i < edges.size(); ++i)
      if ((s >> i) & 1u) r.push_back(edges[i]);
    bool grew = true; /* connected: grow from the first edge through shared end points */
    std::vector<bool> in(r.size(), false);
    in[0] = true;
    touched = 1u << (uint32_t)(r[0] >> 32) | 1u << (uint32_t)r[0];
    while (grew) {
      grew = false;
      for (size_t i = 0; i < r.size(); ++i)
        if (!in[i] && (((touched >> (uint32_t)(r[i] >> 32)) & 1u) || ((touched >> (uint32_t)r[i]) & 1u))) {
          in[i] = true, grew = true;
          touched |= 1u << (uint32_t)(r[i] >> 32) | 1u << (uint32_t)r[i];
        }
    }
    if (std::find(in.begin(), in.end(), false) == in.end()) out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  return out;
}

static gclq_emb_table *et_create(const gclq_graph &g, gclq_emb_kind kind) {
  gclq_emb_options o;
  memset(&o, 0, sizeof o);
  o.kind = kind;
  gclq_emb_table *t = (gclq_emb_table *)&o; /* poison: create must set it */
  if (gclq_emb_create(&g, &o, &t) != GCLQ_SUCCESS || t == NULL) g_test.failed = 1;
  return t;
}

/* Random graphs of 0 .. 12 vertices (VERTEX) and of up to 20 edges (EDGE),
   every level up to 6 vertices (5 edges): the rows are exactly the
   connected sets, each once. */
TEST(gpm_table, rows_are_every_connected_set_once) {
  test_rng rng = test_rng_for("gpm_table.rows");
  const uint32_t sizes[] = {0, 1, 2, 5, 9, 12};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
    for (int kind = 0; kind < 2; ++kind) {
      gclq_graph g;
      const double p = kind == 0 ? 0.15 + 0.5 * (double)rng.below(2) : 0.3;
      CHECK(gclq_graph_erdos_renyi(sizes[si], p, rng.next(), &g) == GCLQ_SUCCESS);
      if (kind == 1 && g.num_edges > 20) { /* the brute force walks 2^m edge sets */
        gclq_graph_free(&g);
        CHECK(gclq_graph_erdos_renyi(sizes[si], 14.0 / (sizes[si] * (sizes[si] - 1) / 2.0 + 1), rng.next(), &g) ==
              GCLQ_SUCCESS);
      }
      if (kind == 1 && g.num_edges > 20) {
        gclq_graph_free(&g);
        continue;
      }
      gclq_emb_table *t = et_create(g, (gclq_emb_kind)kind);
      for (uint32_t level = 0; level < 6 && t != NULL && !g_test.failed; ++level) {
        if (level > 0) CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
        const std::vector<std::vector<uint64_t> > got = et_rows(t, (gclq_emb_kind)kind);
        const std::vector<std::vector<uint64_t> > want =
            kind == 0 ? et_brute_vertex(g, level + 1) : et_brute_edge(g, level + 1);
        CHECK_MSG(got == want, "n %u m %llu %s level %u: %zu rows, want %zu", g.num_vertices,
                  (unsigned long long)g.num_edges, kind ? "edge" : "vertex", level, got.size(), want.size());
        CHECK(gclq_emb_levels(t) == level + 1 && gclq_emb_rows(t, level) == want.size());
      }
      gclq_emb_free(t);
      gclq_graph_free(&g);
    }
}

/* A pattern's motif index, by this file's canonical mask. */
static uint32_t et_motif_of(const gclq_emb_pattern &p, const std::map<uint32_t, uint32_t> &cat) {
  uint32_t mask = 0;
  for (uint32_t i = 0; i < p.num_vertices; ++i)
    for (uint32_t j = i + 1; j < p.num_vertices; ++j)
      if ((p.adj[i] >> j) & 1u) mask |= 1u << gm_bit(p.num_vertices, i, j);
  std::map<uint32_t, uint32_t>::const_iterator it = cat.find(gm_canon(p.num_vertices, mask));
  return it == cat.end() ? UINT32_MAX : it->second;
}

/* Aggregation at k = 3, 4, 5 vertices equals gclq_motifs, the level made
   whole and in random task blocks (extend a block, aggregate, pop). */
TEST(gpm_table, aggregate_equals_motifs_whole_and_in_blocks) {
  test_rng rng = test_rng_for("gpm_table.motifs");
  for (int rep = 0; rep < 6 && !g_test.failed; ++rep) {
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(20 + (uint32_t)rng.below(40), 0.08 + 0.1 * (double)rng.below(3), rng.next(), &g) ==
          GCLQ_SUCCESS);
    for (uint32_t k = 3; k <= 5; ++k) {
      const std::map<uint32_t, uint32_t> cat = gm_catalogue(k);
      gclq_motif_result m = gm_run(g, k);
      for (int blocks = 0; blocks < 2; ++blocks) {
        gclq_emb_table *t = et_create(g, GCLQ_EMB_VERTEX);
        gclq_emb_patterns pats;
        memset(&pats, 0, sizeof pats);
        for (uint32_t l = 1; l + 1 < k; ++l) CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
        const uint64_t parents = gclq_emb_rows(t, k - 2);
        uint64_t made = 0;
        for (uint64_t at = 0; at < parents || (at == 0 && parents == 0);) {
          const uint64_t step = blocks ? 1 + rng.below(parents / 3 + 2) : UINT64_MAX;
          CHECK(gclq_emb_extend(t, at, step) == GCLQ_SUCCESS);
          made += gclq_emb_rows(t, k - 1);
          CHECK(gclq_emb_aggregate(t, 0, &pats) == GCLQ_SUCCESS);
          CHECK(gclq_emb_pop(t) == GCLQ_SUCCESS);
          at = step > parents - at ? parents : at + step;
          if (parents == 0) break;
        }
        std::vector<uint64_t> counts(m.num_patterns, 0);
        for (uint64_t i = 0; i < pats.num_patterns; ++i) {
          const uint32_t idx = et_motif_of(pats.h_patterns[i], cat);
          CHECK(idx < m.num_patterns && pats.h_patterns[i].support == 0);
          if (idx < m.num_patterns) counts[idx] += pats.h_patterns[i].count;
          if (i > 0) CHECK(strcmp(pats.h_patterns[i - 1].code, pats.h_patterns[i].code) != 0);
        }
        for (uint32_t i = 0; i < m.num_patterns; ++i)
          CHECK_MSG(counts[i] == m.counts[i], "k %u %s%s: %llu, want %llu", k, gclq_motif_name(k, i),
                    blocks ? " (blocks)" : "", (unsigned long long)counts[i], (unsigned long long)m.counts[i]);
        CHECK(made == m.subgraphs);
        gclq_emb_patterns_free(&pats);
        gclq_emb_free(t);
      }
    }
    gclq_graph_free(&g);
  }
}

/* The pattern tables of a query's connected pieces, level by level
   (pieces[l]: those of l + 1 vertices, or edges). */
static std::vector<gclq_emb_patterns> et_query_pieces(const gclq_graph &Q, gclq_emb_kind kind, uint32_t levels) {
  std::vector<gclq_emb_patterns> pieces(levels);
  gclq_emb_table *t = et_create(Q, kind);
  for (uint32_t l = 0; l < levels; ++l) {
    memset(&pieces[l], 0, sizeof pieces[l]);
    if (t == NULL || (l > 0 && gclq_emb_extend(t, 0, UINT64_MAX) != GCLQ_SUCCESS) ||
        gclq_emb_aggregate(t, 0, &pieces[l]) != GCLQ_SUCCESS)
      g_test.failed = 1;
  }
  gclq_emb_free(t);
  return pieces;
}

/* Matching written with the primitives: each level filtered by the
   query's pieces of that size; the last level's count of the query's own
   pattern equals gclq_match (VERTEX: vertex-induced; EDGE: edge-induced). */
TEST(gpm_table, query_filters_match_like_gclq_match) {
  test_rng rng = test_rng_for("gpm_table.match");
  for (int rep = 0; rep < 8 && !g_test.failed; ++rep) {
    const int labelled = rep & 1;
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(30 + (uint32_t)rng.below(30), 0.1 + 0.1 * (double)rng.below(2), rng.next(), &g) ==
          GCLQ_SUCCESS);
    if (labelled) CHECK(gclq_graph_random_labels(&g, 2, rng.next()) == GCLQ_SUCCESS);
    const uint32_t k = 3 + (uint32_t)rng.below(3);
    uint32_t pairs[20], pick;
    do pick = (uint32_t)rng.below(k == 3 ? 2 : k == 4 ? 6 : 21);
    while (k == 5 && gclq_motif_edges(5, pick, NULL) > 6); /* EDGE tables reach 7 edges */
    const uint32_t ne = gclq_motif_edges(k, pick, pairs);
    gclq_graph Q = gm_query(k, std::vector<uint32_t>(pairs, pairs + 2 * ne));
    if (labelled) CHECK(gclq_graph_random_labels(&Q, 2, rng.next()) == GCLQ_SUCCESS);
    for (int kind = 0; kind < 2; ++kind) {
      const uint32_t levels = kind == 0 ? k : ne;
      std::vector<gclq_emb_patterns> pieces = et_query_pieces(Q, (gclq_emb_kind)kind, levels);
      gclq_emb_table *t = et_create(g, (gclq_emb_kind)kind);
      gclq_emb_filter f;
      memset(&f, 0, sizeof f);
      f.min_count = 1;
      for (uint32_t l = 0; l < levels; ++l) {
        if (l > 0) CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
        f.patterns = &pieces[l];
        CHECK(gclq_emb_filter_rows(t, &f) == GCLQ_SUCCESS);
      }
      gclq_emb_patterns last;
      memset(&last, 0, sizeof last);
      CHECK(gclq_emb_aggregate(t, 0, &last) == GCLQ_SUCCESS);
      /* the query's own pattern is the one piece of its last level */
      CHECK(pieces[levels - 1].num_patterns == 1);
      uint64_t got = 0;
      for (uint64_t i = 0; i < last.num_patterns; ++i) {
        CHECK(strcmp(last.h_patterns[i].code, pieces[levels - 1].h_patterns[0].code) == 0);
        got += last.h_patterns[i].count;
      }
      gclq_match_result r = gm_match(g, Q, kind == 0 ? GCLQ_MATCH_VERTEX_INDUCED : GCLQ_MATCH_EDGE_INDUCED, 0);
      CHECK_MSG(got == r.count, "%s query %s (%s): %llu, want %llu", kind ? "edge" : "vertex", gclq_motif_name(k, pick),
                labelled ? "labelled" : "unlabelled", (unsigned long long)got, (unsigned long long)r.count);
      gclq_emb_patterns_free(&last);
      for (uint32_t l = 0; l < levels; ++l) gclq_emb_patterns_free(&pieces[l]);
      gclq_emb_free(t);
    }
    gclq_graph_free(&Q);
    gclq_graph_free(&g);
  }
}

/* FPM written with the primitives (GAMMA's Algorithm 2: aggregate with
   support, filter by it, extend by an edge) gives gclq_fpm's patterns,
   codes and supports. */
TEST(gpm_table, primitives_fpm_equals_gclq_fpm) {
  test_rng rng = test_rng_for("gpm_table.fpm");
  for (int rep = 0; rep < 8 && !g_test.failed; ++rep) {
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(15 + (uint32_t)rng.below(25), 0.15, rng.next(), &g) == GCLQ_SUCCESS);
    const uint32_t nl = (uint32_t)rng.below(4);
    if (nl > 0) CHECK(gclq_graph_random_labels(&g, nl, rng.next()) == GCLQ_SUCCESS);
    const uint64_t support = 1 + rng.below(4);
    const uint32_t max_edges = 1 + (uint32_t)rng.below(3);
    gclq_fpm_options fo;
    memset(&fo, 0, sizeof fo);
    fo.min_support = support;
    fo.max_edges = max_edges;
    gclq_fpm_result want;
    CHECK(gclq_fpm(&g, &fo, &want) == GCLQ_SUCCESS);
    std::vector<std::pair<std::string, uint64_t> > got;
    gclq_emb_table *t = et_create(g, GCLQ_EMB_EDGE);
    for (uint32_t e = 1; e <= max_edges && t != NULL; ++e) {
      if (e > 1) CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
      gclq_emb_patterns pats;
      memset(&pats, 0, sizeof pats);
      CHECK(gclq_emb_aggregate(t, 1, &pats) == GCLQ_SUCCESS);
      for (uint64_t i = 0; i < pats.num_patterns; ++i)
        if (pats.h_patterns[i].support >= support) got.push_back(std::make_pair(std::string(pats.h_patterns[i].code), pats.h_patterns[i].support));
      gclq_emb_filter f;
      memset(&f, 0, sizeof f);
      f.patterns = &pats;
      f.min_support = support;
      CHECK(gclq_emb_filter_rows(t, &f) == GCLQ_SUCCESS);
      gclq_emb_patterns_free(&pats);
    }
    CHECK_MSG(got.size() == want.num_patterns, "labels %u support %llu edges %u: %zu patterns, want %llu", nl,
              (unsigned long long)support, max_edges, got.size(), (unsigned long long)want.num_patterns);
    for (size_t i = 0; i < got.size() && i < want.num_patterns; ++i)
      CHECK_MSG(got[i].first == want.h_patterns[i].code && got[i].second == want.h_patterns[i].support,
                "pattern %zu: %s %llu, want %s %llu", i, got[i].first.c_str(), (unsigned long long)got[i].second,
                want.h_patterns[i].code, (unsigned long long)want.h_patterns[i].support);
    gclq_fpm_result_free(&want);
    gclq_emb_free(t);
    gclq_graph_free(&g);
  }
}

/* The label and degree filters keep exactly the rows whose added vertices
   pass (checked row by row from gclq_emb_row). */
TEST(gpm_table, label_and_degree_filters) {
  test_rng rng = test_rng_for("gpm_table.filters");
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(40, 0.12, rng.next(), &g) == GCLQ_SUCCESS);
  CHECK(gclq_graph_random_labels(&g, 3, rng.next()) == GCLQ_SUCCESS);
  for (int kind = 0; kind < 2; ++kind)
    for (uint32_t level = 0; level < 3; ++level) {
      gclq_emb_table *t = et_create(g, (gclq_emb_kind)kind);
      for (uint32_t l = 0; l < level; ++l) CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
      gclq_emb_filter f;
      memset(&f, 0, sizeof f);
      f.min_degree = 2 + (uint32_t)rng.below(4);
      f.by_label = 1;
      f.label = (uint32_t)rng.below(3);
      /* what should stay: the rows whose new vertices (not in the parent) pass */
      std::vector<std::vector<uint64_t> > keep;
      const uint64_t n = gclq_emb_rows(t, level);
      for (uint64_t i = 0; i < n; ++i) {
        uint64_t v[GCLQ_EMB_MAX_VERTICES];
        uint64_t pv[GCLQ_EMB_MAX_VERTICES];
        const uint32_t nv = gclq_emb_row(t, level, i, v, NULL, NULL);
        /* the vertices past the parent's are the new ones (rows list vertices as they joined) */
        const uint32_t from = level == 0 ? 0 : gclq_emb_row(t, level - 1, gclq_emb_parent(t, level, i), pv, NULL, NULL);
        CHECK(level == 0 || (from > 0 && std::equal(pv, pv + from, v)));
        bool ok = true;
        for (uint32_t j = from; j < nv; ++j)
          ok = ok && g.h_offsets[v[j] + 1] - g.h_offsets[v[j]] >= f.min_degree && g.h_labels[v[j]] == f.label;
        if (ok) keep.push_back(std::vector<uint64_t>(v, v + nv));
      }
      CHECK(gclq_emb_filter_rows(t, &f) == GCLQ_SUCCESS);
      CHECK_MSG(gclq_emb_rows(t, level) == keep.size(), "%s level %u: %llu rows kept, want %zu", kind ? "edge" : "vertex",
                level, (unsigned long long)gclq_emb_rows(t, level), keep.size());
      for (uint64_t i = 0; i < keep.size() && i < gclq_emb_rows(t, level); ++i) {
        uint64_t v[GCLQ_EMB_MAX_VERTICES];
        const uint32_t nv = gclq_emb_row(t, level, i, v, NULL, NULL);
        CHECK(std::vector<uint64_t>(v, v + nv) == keep[i]);
      }
      gclq_emb_free(t);
    }
  gclq_graph_free(&g);
}

/* A table's state, to check that a failed call left it as it was. */
static std::vector<uint64_t> et_state(const gclq_emb_table *t) {
  std::vector<uint64_t> s(1, gclq_emb_levels(t));
  for (uint32_t l = 0; l < gclq_emb_levels(t); ++l) {
    s.push_back(gclq_emb_rows(t, l));
    for (uint64_t i = 0; i < gclq_emb_rows(t, l); ++i) {
      uint64_t v[GCLQ_EMB_MAX_VERTICES];
      const uint32_t nv = gclq_emb_row(t, l, i, v, NULL, NULL);
      s.insert(s.end(), v, v + nv);
      s.push_back(gclq_emb_parent(t, l, i));
    }
  }
  return s;
}

TEST(gpm_table, bad_arguments_limits_and_failing_allocations) {
  gclq_graph g, bad;
  CHECK(gclq_graph_erdos_renyi(25, 0.2, 11, &g) == GCLQ_SUCCESS);
  gclq_emb_options o;
  memset(&o, 0, sizeof o);
  gclq_emb_table *t = (gclq_emb_table *)&o;
  CHECK(gclq_emb_create(NULL, &o, &t) == GCLQ_ERROR_INVALID_ARGUMENT && t == NULL);
  CHECK(gclq_emb_create(&g, &o, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  o.kind = (gclq_emb_kind)2;
  CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_ERROR_INVALID_ARGUMENT && t == NULL);
  o.kind = GCLQ_EMB_EDGE;
  o.backend = GCLQ_BACKEND_CUDA;
  { /* CUDA: made on a GPU (cuda_* tests below), NO_DEVICE without one (this file is nvcc's) */
    const gclq_status st = gclq_emb_create(&g, &o, &t);
    CHECK(g_test.have_gpu ? st == GCLQ_SUCCESS && t != NULL : st == GCLQ_ERROR_NO_DEVICE && t == NULL);
    gclq_emb_free(t);
  }
  o.backend = (gclq_backend)7;
  CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_ERROR_INVALID_ARGUMENT && t == NULL);
  o.backend = GCLQ_BACKEND_AUTO;
  bad = g;
  bad.h_offsets = NULL;
  CHECK(gclq_emb_create(&bad, &o, &t) == GCLQ_ERROR_INVALID_ARGUMENT && t == NULL);
  o.max_bytes = 8 * (g.num_edges / 2) - 1; /* level 0 of the edges does not fit */
  CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_ERROR_OUT_OF_MEMORY && t == NULL);
  o.max_bytes = 0;
  /* the calls on NULL */
  gclq_emb_filter f;
  memset(&f, 0, sizeof f);
  gclq_emb_patterns pats;
  memset(&pats, 0, sizeof pats);
  CHECK(gclq_emb_extend(NULL, 0, 1) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_emb_filter_rows(NULL, &f) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_emb_aggregate(NULL, 0, &pats) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_emb_pop(NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_emb_levels(NULL) == 0 && gclq_emb_rows(NULL, 0) == 0 && gclq_emb_bytes(NULL) == 0);
  CHECK(gclq_emb_parent(NULL, 1, 0) == UINT64_MAX);
  gclq_emb_free(NULL);
  gclq_emb_patterns_free(NULL);
  /* ranges, levels, pop, a budget, support mixed */
  for (int kind = 0; kind < 2; ++kind) {
    o.kind = (gclq_emb_kind)kind;
    CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_SUCCESS);
    uint64_t v[GCLQ_EMB_MAX_VERTICES];
    CHECK(gclq_emb_row(t, 0, gclq_emb_rows(t, 0), v, NULL, NULL) == 0 && gclq_emb_row(t, 1, 0, v, NULL, NULL) == 0);
    CHECK(gclq_emb_filter_rows(t, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
    CHECK(gclq_emb_aggregate(t, 0, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
    CHECK(gclq_emb_pop(t) == GCLQ_ERROR_INVALID_ARGUMENT && gclq_emb_levels(t) == 1);
    CHECK(gclq_emb_extend(t, gclq_emb_rows(t, 0) + 1, 1) == GCLQ_ERROR_INVALID_ARGUMENT && gclq_emb_levels(t) == 1);
    CHECK(gclq_emb_extend(t, gclq_emb_rows(t, 0), 5) == GCLQ_SUCCESS && gclq_emb_rows(t, 1) == 0);
    CHECK(gclq_emb_pop(t) == GCLQ_SUCCESS);
    CHECK(gclq_emb_extend(t, 0, 0) == GCLQ_SUCCESS && gclq_emb_rows(t, 1) == 0 && gclq_emb_pop(t) == GCLQ_SUCCESS);
    /* the level limit: 8 vertices, 7 edges (on a path, whose rows stay few) */
    gclq_graph path = gm_query(12, std::vector<uint32_t>{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11});
    gclq_emb_table *pt;
    CHECK(gclq_emb_create(&path, &o, &pt) == GCLQ_SUCCESS);
    const uint32_t top = kind == 0 ? 8 : 7;
    for (uint32_t l = 1; l < top; ++l) CHECK(gclq_emb_extend(pt, 0, UINT64_MAX) == GCLQ_SUCCESS);
    CHECK(gclq_emb_levels(pt) == top && gclq_emb_rows(pt, top - 1) == 5) /* 8 of 12 vertices, 7 of 11 edges */;
    CHECK(gclq_emb_extend(pt, 0, UINT64_MAX) == GCLQ_ERROR_INVALID_ARGUMENT && gclq_emb_levels(pt) == top);
    gclq_emb_free(pt);
    gclq_graph_free(&path);
    /* a budget the next level does not fit: OUT_OF_MEMORY, the table as it was */
    CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
    const std::vector<uint64_t> before = et_state(t);
    {
      gclq_emb_options lo = o;
      lo.max_bytes = gclq_emb_bytes(t) + 16 * 3; /* level 1 and three rows more */
      gclq_emb_table *lt;
      CHECK(gclq_emb_create(&g, &lo, &lt) == GCLQ_SUCCESS);
      CHECK(gclq_emb_extend(lt, 0, UINT64_MAX) == GCLQ_SUCCESS && et_state(lt) == before);
      CHECK(gclq_emb_extend(lt, 0, UINT64_MAX) == GCLQ_ERROR_OUT_OF_MEMORY && et_state(lt) == before);
      for (uint64_t i = 0; i < gclq_emb_rows(lt, 1); ++i) { /* one parent a block: fits when it has three children or fewer */
        const gclq_status bs = gclq_emb_extend(lt, i, 1);
        CHECK(bs == GCLQ_SUCCESS || (bs == GCLQ_ERROR_OUT_OF_MEMORY && et_state(lt) == before));
        if (bs == GCLQ_SUCCESS) CHECK(gclq_emb_rows(lt, 2) <= 3 && gclq_emb_pop(lt) == GCLQ_SUCCESS);
      }
      gclq_emb_free(lt);
    }
    /* support every time or never; a support filter needs it */
    CHECK(gclq_emb_aggregate(t, 0, &pats) == GCLQ_SUCCESS && pats.num_patterns > 0);
    const uint64_t np = pats.num_patterns;
    CHECK(gclq_emb_aggregate(t, 1, &pats) == GCLQ_ERROR_INVALID_ARGUMENT && pats.num_patterns == np);
    f.patterns = &pats;
    f.min_support = 1;
    CHECK(gclq_emb_filter_rows(t, &f) == GCLQ_ERROR_INVALID_ARGUMENT && et_state(t) == before);
    gclq_emb_patterns empty;
    memset(&empty, 0, sizeof empty);
    f.patterns = &empty;
    f.min_support = 0;
    CHECK(gclq_emb_filter_rows(t, &f) == GCLQ_SUCCESS && gclq_emb_rows(t, 1) == 0); /* no row's pattern is in it */
    memset(&f, 0, sizeof f);
    gclq_emb_patterns_free(&pats);
    gclq_emb_free(t);
  }
  /* every allocation failing in turn: create, extend, aggregate with
     support, filter by it; a failed call leaves its table (and patterns) as
     they were, and nothing leaks */
  for (int kind = 0; kind < 2; ++kind) {
    o.kind = (gclq_emb_kind)kind;
    bool done = false;
    for (long long k = 0; !done && k < 400; ++k) {
      const long long live = g_alloc_live;
      g_alloc_fail_at = g_alloc_calls + k;
      gclq_emb_table *ft = NULL;
      gclq_emb_patterns fp;
      memset(&fp, 0, sizeof fp);
      gclq_status st = gclq_emb_create(&g, &o, &ft);
      if (st == GCLQ_SUCCESS) {
        std::vector<uint64_t> s0 = et_state(ft);
        st = gclq_emb_extend(ft, 0, UINT64_MAX);
        if (st != GCLQ_SUCCESS) CHECK(et_state(ft) == s0);
        if (st == GCLQ_SUCCESS) {
          st = gclq_emb_aggregate(ft, 1, &fp);
          if (st != GCLQ_SUCCESS) CHECK(fp.num_patterns == 0 && fp.h_patterns == NULL && fp.internal == NULL);
        }
        if (st == GCLQ_SUCCESS) {
          gclq_emb_filter ff;
          memset(&ff, 0, sizeof ff);
          ff.patterns = &fp;
          ff.min_support = 2;
          s0 = et_state(ft);
          st = gclq_emb_filter_rows(ft, &ff);
          if (st != GCLQ_SUCCESS) CHECK(et_state(ft) == s0);
        }
      } else {
        CHECK(ft == NULL);
      }
      const bool never_came = g_alloc_fail_at >= g_alloc_calls;
      g_alloc_fail_at = -1;
      CHECK(st == GCLQ_SUCCESS || st == GCLQ_ERROR_OUT_OF_MEMORY);
      if (never_came) {
        CHECK(st == GCLQ_SUCCESS);
        done = true;
      } else CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY, "allocation %lld failed, yet the calls succeeded", k);
      gclq_emb_patterns_free(&fp);
      gclq_emb_free(ft);
      CHECK(g_alloc_live == live);
    }
    CHECK(done);
  }
  gclq_graph_free(&g);
}

/* Two pattern tables hold the same patterns, counts and supports. */
static bool et_same_patterns(const gclq_emb_patterns &a, const gclq_emb_patterns &b) {
  if (a.num_patterns != b.num_patterns) return false;
  for (uint64_t i = 0; i < a.num_patterns; ++i)
    if (strcmp(a.h_patterns[i].code, b.h_patterns[i].code) != 0 || a.h_patterns[i].count != b.h_patterns[i].count ||
        a.h_patterns[i].support != b.h_patterns[i].support)
      return false;
  return true;
}

/* The CUDA table against the HOST one, step by step on random graphs
   (labelled and not, both kinds): every level's rows and parents in the
   same order, the aggregates with support (whole, and in task blocks), the
   label / degree and support filters; the last four reps sort the keys a
   few rows at a time, so that aggregation and filters merge chunks. */
GPU_TEST(gpm_table, cuda_equals_host) {
  test_rng rng = test_rng_for("gpm_table.cuda");
  uint64_t chunked = 0; /* the most rows a level of the chunked reps had */
  for (int rep = 0; rep < 8 && !g_test.failed; ++rep) {
    const int kind = rep & 1, labelled = (rep >> 1) & 1;
    const uint64_t chunk = rep >= 4 ? 1 + rng.below(7) : 0; /* the last four: keys sorted 1-7 rows at a time */
    cliqt_set_emb_chunk_rows(chunk);
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(rep < 2 ? (uint32_t)rep : 20 + (uint32_t)rng.below(30), 0.12, rng.next(), &g) ==
          GCLQ_SUCCESS);
    if (labelled) CHECK(gclq_graph_random_labels(&g, 1 + (uint32_t)rng.below(4), rng.next()) == GCLQ_SUCCESS);
    gclq_emb_options o;
    memset(&o, 0, sizeof o);
    o.kind = (gclq_emb_kind)kind;
    gclq_emb_table *h = NULL, *d = NULL;
    CHECK(gclq_emb_create(&g, &o, &h) == GCLQ_SUCCESS);
    o.backend = GCLQ_BACKEND_CUDA;
    CHECK(gclq_emb_create(&g, &o, &d) == GCLQ_SUCCESS);
    if (h == NULL || d == NULL) break;
    const uint32_t levels = kind == 0 ? 4 : 3;
    for (uint32_t l = 0; l < levels && !g_test.failed; ++l) {
      if (l > 0) {
        CHECK(gclq_emb_extend(h, 0, UINT64_MAX) == GCLQ_SUCCESS);
        CHECK(gclq_emb_extend(d, 0, UINT64_MAX) == GCLQ_SUCCESS);
      }
      CHECK_MSG(et_state(h) == et_state(d), "rep %d level %u: %llu rows, HOST %llu", rep, l,
                (unsigned long long)gclq_emb_rows(d, l), (unsigned long long)gclq_emb_rows(h, l));
      if (chunk != 0 && gclq_emb_rows(d, l) > chunked) chunked = gclq_emb_rows(d, l);
      gclq_emb_patterns ph, pd, pb;
      memset(&ph, 0, sizeof ph), memset(&pd, 0, sizeof pd), memset(&pb, 0, sizeof pb);
      CHECK(gclq_emb_aggregate(h, 1, &ph) == GCLQ_SUCCESS);
      CHECK(gclq_emb_aggregate(d, 1, &pd) == GCLQ_SUCCESS);
      CHECK_MSG(et_same_patterns(ph, pd), "rep %d level %u: %llu patterns, HOST %llu", rep, l,
                (unsigned long long)pd.num_patterns, (unsigned long long)ph.num_patterns);
      if (l > 0) { /* the same level again in task blocks of the device table */
        CHECK(gclq_emb_pop(d) == GCLQ_SUCCESS);
        const uint64_t parents = gclq_emb_rows(d, l - 1);
        for (uint64_t at = 0; at < parents && !g_test.failed;) {
          const uint64_t step = 1 + rng.below(parents / 2 + 1);
          CHECK(gclq_emb_extend(d, at, step) == GCLQ_SUCCESS);
          CHECK(gclq_emb_aggregate(d, 1, &pb) == GCLQ_SUCCESS);
          CHECK(gclq_emb_pop(d) == GCLQ_SUCCESS);
          at += step;
        }
        CHECK(gclq_emb_extend(d, 0, UINT64_MAX) == GCLQ_SUCCESS);
        if (parents > 0) CHECK_MSG(et_same_patterns(ph, pb), "rep %d level %u: blocks differ", rep, l);
      }
      /* filters: label and degree on copies of this level, then support on the tables */
      gclq_emb_filter f;
      memset(&f, 0, sizeof f);
      f.patterns = &ph;
      f.min_support = 1 + rng.below(3);
      gclq_emb_filter fd = f;
      fd.patterns = &pd;
      if (rep % 4 == 3) { /* label and degree instead */
        memset(&f, 0, sizeof f);
        f.min_degree = 1 + (uint32_t)rng.below(3);
        f.by_label = labelled;
        f.label = (uint32_t)rng.below(2);
        fd = f;
      }
      CHECK(gclq_emb_filter_rows(h, &f) == GCLQ_SUCCESS);
      CHECK(gclq_emb_filter_rows(d, &fd) == GCLQ_SUCCESS);
      CHECK_MSG(et_state(h) == et_state(d), "rep %d level %u: filtered rows differ", rep, l);
      gclq_emb_patterns_free(&ph), gclq_emb_patterns_free(&pd), gclq_emb_patterns_free(&pb);
    }
    gclq_emb_free(h);
    gclq_emb_free(d);
    gclq_graph_free(&g);
  }
  cliqt_set_emb_chunk_rows(0);
  CHECK_MSG(chunked > 7, "the chunked reps' largest level has %llu rows: one chunk", (unsigned long long)chunked);
}

/* A CUDA table's limits: a device budget below the graph, more than 16
   labels, a level past max_bytes; each a clear status, the table intact. */
GPU_TEST(gpm_table, cuda_budgets_and_limits) {
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(200, 0.05, 9, &g) == GCLQ_SUCCESS);
  gclq_emb_options o;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_CUDA;
  o.device_budget_bytes = 1024; /* not even the offsets */
  gclq_emb_table *t = NULL;
  CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_ERROR_OUT_OF_MEMORY && t == NULL);
  o.device_budget_bytes = 0;
  CHECK(gclq_graph_random_labels(&g, 17, 3) == GCLQ_SUCCESS);
  uint32_t distinct = 0;
  {
    std::set<uint32_t> seen(g.h_labels, g.h_labels + g.num_vertices);
    distinct = (uint32_t)seen.size();
  }
  CHECK(gclq_emb_create(&g, &o, &t) == (distinct > 16 ? GCLQ_ERROR_BACKEND_UNAVAILABLE : GCLQ_SUCCESS));
  gclq_emb_free(t);
  t = NULL;
  CHECK(gclq_graph_random_labels(&g, 3, 3) == GCLQ_SUCCESS);
  CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_SUCCESS);
  CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
  const std::vector<uint64_t> before = et_state(t);
  gclq_emb_free(t);
  o.max_bytes = 0;
  for (int b = 0; b < 2; ++b) { /* max_bytes, then a device budget, too small for level 2 */
    memset(&o, 0, sizeof o);
    o.backend = GCLQ_BACKEND_CUDA;
    CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_SUCCESS);
    CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS);
    const uint64_t bytes = gclq_emb_bytes(t);
    gclq_emb_free(t);
    if (b == 0) o.max_bytes = bytes + 16 * 3;
    else /* the graph, levels 0 and 1 and 64 KiB of scratch: level 2 (about 10^4 rows of 16 bytes) does not fit */
      o.device_budget_bytes = bytes + (size_t)(g.num_vertices + 1) * 8 + 2 * g.num_edges * 4 + g.num_vertices + 65536;
    CHECK(gclq_emb_create(&g, &o, &t) == GCLQ_SUCCESS);
    CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS && et_state(t) == before);
    CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_ERROR_OUT_OF_MEMORY && et_state(t) == before);
    gclq_emb_free(t);
  }
  gclq_graph_free(&g);
}

/* One case of gclq_emb_extend_append: on random graphs (labelled and not,
   both kinds), each level built whole (extend, then filter) in one HOST
   table and, in a table of backend, from an empty level a random block of
   parents at a time with the same filter (none, label and degree, or the
   whole level's patterns by support): the same rows and parents. */
static void et_append_case(gclq_backend backend, test_rng &rng) {
  for (int rep = 0; rep < 8 && !g_test.failed; ++rep) {
    const int kind = rep & 1, labelled = (rep >> 1) & 1;
    gclq_graph g;
    CHECK(gclq_graph_erdos_renyi(18 + (uint32_t)rng.below(20), 0.15, rng.next(), &g) == GCLQ_SUCCESS);
    if (labelled) CHECK(gclq_graph_random_labels(&g, 3, rng.next()) == GCLQ_SUCCESS);
    gclq_emb_options o;
    memset(&o, 0, sizeof o);
    o.kind = (gclq_emb_kind)kind;
    gclq_emb_table *w = NULL, *b = NULL;
    CHECK(gclq_emb_create(&g, &o, &w) == GCLQ_SUCCESS);
    o.backend = backend;
    CHECK(gclq_emb_create(&g, &o, &b) == GCLQ_SUCCESS);
    for (uint32_t l = 1; l <= 3 && !g_test.failed; ++l) {
      const int how = (int)rng.below(3); /* 0: no filter, 1: label and degree, 2: patterns */
      gclq_emb_patterns pats;
      gclq_emb_filter f;
      memset(&pats, 0, sizeof pats);
      memset(&f, 0, sizeof f);
      CHECK(gclq_emb_extend(w, 0, UINT64_MAX) == GCLQ_SUCCESS);
      if (how == 1) f.min_degree = 1 + (uint32_t)rng.below(3), f.by_label = labelled, f.label = (uint32_t)rng.below(3);
      if (how == 2) {
        CHECK(gclq_emb_aggregate(w, 1, &pats) == GCLQ_SUCCESS);
        f.patterns = &pats;
        f.min_support = 1 + rng.below(4);
      }
      if (how != 0) CHECK(gclq_emb_filter_rows(w, &f) == GCLQ_SUCCESS);
      const uint64_t parents = gclq_emb_rows(b, l - 1);
      CHECK(gclq_emb_extend(b, 0, 0) == GCLQ_SUCCESS && gclq_emb_rows(b, l) == 0); /* an empty level */
      for (uint64_t at = 0; at < parents && !g_test.failed;) {
        const uint64_t step = 1 + rng.below(parents / 3 + 1);
        CHECK(gclq_emb_extend_append(b, at, step, how != 0 ? &f : NULL) == GCLQ_SUCCESS);
        at += step;
      }
      CHECK_MSG(et_state(w) == et_state(b), "rep %d level %u filter %d: %llu rows, whole %llu", rep, l, how,
                (unsigned long long)gclq_emb_rows(b, l), (unsigned long long)gclq_emb_rows(w, l));
      gclq_emb_patterns_free(&pats);
    }
    gclq_emb_free(w);
    gclq_emb_free(b);
    gclq_graph_free(&g);
  }
}

TEST(gpm_table, extend_append_in_blocks_equals_whole) {
  test_rng rng = test_rng_for("gpm_table.append");
  et_append_case(GCLQ_BACKEND_HOST, rng);
}

GPU_TEST(gpm_table, cuda_extend_append_in_blocks_equals_whole) {
  test_rng rng = test_rng_for("gpm_table.cuda_append");
  et_append_case(GCLQ_BACKEND_CUDA, rng);
}

/* extend_append's errors leave the table as it was: too few levels, a
   range past the level, max_bytes, and every allocation failing in turn
   (then the same rows as without failures). */
TEST(gpm_table, extend_append_errors_leave_the_table) {
  gclq_graph g;
  CHECK(gclq_graph_erdos_renyi(25, 0.2, 17, &g) == GCLQ_SUCCESS);
  gclq_emb_table *t = NULL;
  CHECK(gclq_emb_create(&g, NULL, &t) == GCLQ_SUCCESS);
  CHECK(gclq_emb_extend_append(NULL, 0, 1, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(gclq_emb_extend_append(t, 0, 1, NULL) == GCLQ_ERROR_INVALID_ARGUMENT); /* level 0 only */
  CHECK(gclq_emb_extend(t, 0, UINT64_MAX) == GCLQ_SUCCESS && gclq_emb_extend(t, 0, 5) == GCLQ_SUCCESS);
  const std::vector<uint64_t> before = et_state(t);
  CHECK(gclq_emb_extend_append(t, gclq_emb_rows(t, 1) + 1, 1, NULL) == GCLQ_ERROR_INVALID_ARGUMENT &&
        et_state(t) == before);
  gclq_emb_filter bad;
  memset(&bad, 0, sizeof bad);
  gclq_emb_patterns none;
  memset(&none, 0, sizeof none);
  CHECK(gclq_emb_aggregate(t, 0, &none) == GCLQ_SUCCESS);
  bad.patterns = &none;
  bad.min_support = 1; /* support asked of a table aggregated without it */
  CHECK(gclq_emb_extend_append(t, 5, 3, &bad) == GCLQ_ERROR_INVALID_ARGUMENT && et_state(t) == before);
  gclq_emb_patterns_free(&none);
  { /* max_bytes: the rows appended would pass it */
    gclq_emb_options lo;
    memset(&lo, 0, sizeof lo);
    gclq_emb_table *lt = NULL;
    lo.max_bytes = gclq_emb_bytes(t) + 16; /* one row more than t holds */
    CHECK(gclq_emb_create(&g, &lo, &lt) == GCLQ_SUCCESS);
    CHECK(gclq_emb_extend(lt, 0, UINT64_MAX) == GCLQ_SUCCESS && gclq_emb_extend(lt, 0, 5) == GCLQ_SUCCESS);
    CHECK(et_state(lt) == before);
    CHECK(gclq_emb_extend_append(lt, 5, 10, NULL) == GCLQ_ERROR_OUT_OF_MEMORY && et_state(lt) == before);
    gclq_emb_free(lt);
  }
  gclq_emb_table *want = NULL; /* the rows of parents 0 .. 9 of level 1 */
  CHECK(gclq_emb_create(&g, NULL, &want) == GCLQ_SUCCESS);
  CHECK(gclq_emb_extend(want, 0, UINT64_MAX) == GCLQ_SUCCESS && gclq_emb_extend(want, 0, 10) == GCLQ_SUCCESS);
  long long k = 0;
  for (;; ++k) {
    const long long live = g_alloc_live;
    g_alloc_fail_at = g_alloc_calls + k;
    const gclq_status st = gclq_emb_extend_append(t, 5, 5, NULL);
    const bool never_came = g_alloc_fail_at >= g_alloc_calls;
    g_alloc_fail_at = -1;
    if (never_came) {
      CHECK(st == GCLQ_SUCCESS && et_state(t) == et_state(want));
      break;
    }
    CHECK_MSG(st == GCLQ_ERROR_OUT_OF_MEMORY && et_state(t) == before && g_alloc_live == live, "allocation %lld: %s",
              k, gclq_status_string(st));
  }
  CHECK_MSG(k >= 3, "only %lld allocations", k);
  gclq_emb_free(want);
  gclq_emb_free(t);
  gclq_graph_free(&g);
}
