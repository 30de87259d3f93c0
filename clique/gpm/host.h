/* clique/gpm/host.h - graph pattern mining on the host: the motif
   catalogue (every connected pattern of 3, 4 and 5 vertices, named and
   ordered), the canonical table that maps any pattern of k vertices to its
   catalogue entry, the HOST motif count, and HOST subgraph matching (the
   references of the CUDA mining to come; serial and plain). Host code only,
   in the common subset of C99 and C++.

   A pattern of k vertices is a mask of k (k - 1) / 2 bits, bit
   gclq__pair_bit(k, i, j) set when vertices i < j are adjacent. Two masks are
   the same pattern when a permutation of the vertices maps one onto the
   other; the table, built per call from the catalogue's edge lists under
   every permutation, gives each mask its catalogue index (or none: the
   pattern is not connected).

   The count enumerates every connected vertex-induced subgraph of k
   vertices once, by ESU (Wernicke, "Efficient detection of network motifs",
   2006): from each vertex v, a subgraph grows by the vertices of its
   extension set, which takes only vertices after v in id order that are
   exclusive neighbours of the vertex just added (adjacent to it, to no
   earlier member, and not members), so no subgraph is reached twice. Each
   subgraph's mask (adjacency by binary search in the sorted lists) picks its
   pattern through the table. */

/* The catalogue: per k, the patterns in their order, each a name and its
   edges as vertex pairs (the edges define the pattern; the name is for
   people). Ordered by edges, as the mining literature lists them for k = 4
   (k = 3: the triangle first). */
typedef struct gclq__motif_pattern {
  const char *name;
  uint32_t num_edges;
  unsigned char edges[10][2];
} gclq__motif_pattern;

static const gclq__motif_pattern gclq__motifs3[2] = {
    {"triangle", 3, {{0, 1}, {0, 2}, {1, 2}}},
    {"wedge", 2, {{0, 1}, {1, 2}}},
};
static const gclq__motif_pattern gclq__motifs4[6] = {
    {"3-star", 3, {{0, 1}, {0, 2}, {0, 3}}},
    {"4-path", 3, {{0, 1}, {1, 2}, {2, 3}}},
    {"tailed-triangle", 4, {{0, 1}, {0, 2}, {1, 2}, {2, 3}}},
    {"4-cycle", 4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}}},
    {"diamond", 5, {{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}}},
    {"4-clique", 6, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}},
};
static const gclq__motif_pattern gclq__motifs5[21] = {
    {"5-path", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}},
    {"4-star", 4, {{0, 1}, {0, 2}, {0, 3}, {0, 4}}},
    {"fork", 4, {{0, 1}, {1, 2}, {2, 3}, {1, 4}}},
    {"5-cycle", 5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}}},
    {"bull", 5, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 4}}},
    {"cricket", 5, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {0, 4}}},
    {"banner", 5, {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {0, 4}}},
    {"lollipop", 5, {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}}},
    {"house", 6, {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {0, 4}, {1, 4}}},
    {"bipartite-2-3", 6, {{0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}}},
    {"bowtie", 6, {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {0, 4}, {3, 4}}},
    {"dart", 6, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {0, 4}}},
    {"kite", 6, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 4}}},
    {"gem", 7, {{1, 2}, {2, 3}, {3, 4}, {0, 1}, {0, 2}, {0, 3}, {0, 4}}},
    {"3-book", 7, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}}},
    {"4-clique-pendant", 7, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {0, 4}}},
    {"wheel-minus-spoke", 7, {{1, 2}, {2, 3}, {3, 4}, {1, 4}, {0, 1}, {0, 2}, {0, 3}}},
    {"wheel", 8, {{1, 2}, {2, 3}, {3, 4}, {1, 4}, {0, 1}, {0, 2}, {0, 3}, {0, 4}}},
    {"5-clique-minus-wedge", 8, {{0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}},
    {"5-clique-minus-edge", 9, {{0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}},
    {"5-clique", 10, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}},
};

/* The catalogue of k (3 .. 5; *count patterns), or NULL. */
static const gclq__motif_pattern *gclq__motif_catalogue(uint32_t k, uint32_t *count) {
  *count = k == 3 ? 2 : k == 4 ? 6 : k == 5 ? 21 : 0;
  return k == 3 ? gclq__motifs3 : k == 4 ? gclq__motifs4 : k == 5 ? gclq__motifs5 : NULL;
}

/* The bit of pair i < j among k vertices (row by row). */
static uint32_t gclq__pair_bit(uint32_t k, uint32_t i, uint32_t j) { return i * k - i * (i + 1) / 2 + (j - i - 1); }

#define GCLQ__MOTIF_NONE 0xffu /* a mask of no catalogue pattern (not connected) */

/* table[mask] = the catalogue index of mask's pattern (2^(k (k - 1) / 2)
   entries, at most 1024): every catalogue entry under every permutation of
   its k vertices (k^k digit strings, the distinct ones). */
static void gclq__motif_table(uint32_t k, unsigned char *table) {
  uint32_t count, p, e, code, i;
  const gclq__motif_pattern *cat = gclq__motif_catalogue(k, &count);
  const uint32_t masks = 1u << (k * (k - 1) / 2);
  uint32_t strings = 1;
  for (i = 0; i < k; ++i) strings *= k;
  memset(table, GCLQ__MOTIF_NONE, masks);
  for (code = 0; code < strings; ++code) {
    uint32_t perm[5], used = 0, c = code;
    for (i = 0; i < k; ++i, c /= k) perm[i] = c % k, used |= 1u << perm[i];
    if (used != (1u << k) - 1) continue; /* not a permutation */
    for (p = 0; p < count; ++p) {
      uint32_t mask = 0;
      for (e = 0; e < cat[p].num_edges; ++e) {
        uint32_t a = perm[cat[p].edges[e][0]], b = perm[cat[p].edges[e][1]];
        mask |= 1u << (a < b ? gclq__pair_bit(k, a, b) : gclq__pair_bit(k, b, a));
      }
      table[mask] = (unsigned char)p;
    }
  }
}

/* Is v in the sorted list of u? */
static int gclq__adjacent(const gclq_graph *g, uint32_t u, uint32_t v) {
  const uint64_t d = g->h_offsets[u + 1] - g->h_offsets[u];
  const uint64_t i = gclq__lower_bound_u32(g->h_neighbors + g->h_offsets[u], d, v);
  return i < d && g->h_neighbors[g->h_offsets[u] + i] == v;
}

/* One HOST motif count's state: the subgraph (sub[0 .. depth)), an
   extension set per level (ext + level * cap, next[level] entries), the
   table and the counts, the progress line. */
typedef struct gclq__motif_run {
  const gclq_graph *g;
  uint32_t k, sub[5];
  uint32_t *ext, *next;
  uint64_t cap;
  unsigned char table[1024];
  uint64_t *counts, subgraphs, check_at;
  uint32_t root;
  void (*log)(void *user, const char *line);
  void *log_user;
  clock_t last_log;
} gclq__motif_run;

/* The progress line (at most one every GCLQ__HOST_LOG_SECONDS of processor
   time, the clock read every GCLQ__HOST_LOG_WORK subgraphs). */
static void gclq__motif_progress(gclq__motif_run *r) {
  char line[160];
  clock_t now;
  r->check_at = r->subgraphs + GCLQ__HOST_LOG_WORK;
  now = clock();
  if ((double)(now - r->last_log) < GCLQ__HOST_LOG_SECONDS * CLOCKS_PER_SEC) return;
  r->last_log = now;
  snprintf(line, sizeof line, "motifs (k %u): vertex %u of %u (%.0f%%), %llu subgraphs", r->k, r->root,
           r->g->num_vertices, 100.0 * r->root / r->g->num_vertices, (unsigned long long)r->subgraphs);
  r->log(r->log_user, line);
}

/* The subgraph sub[0 .. k) counted under its pattern. */
static void gclq__motif_record(gclq__motif_run *r) {
  uint32_t mask = 0, i, j;
  for (i = 0; i < r->k; ++i)
    for (j = i + 1; j < r->k; ++j)
      if (gclq__adjacent(r->g, r->sub[i], r->sub[j])) mask |= 1u << gclq__pair_bit(r->k, i, j);
  r->counts[r->table[mask]]++; /* connected by construction: a catalogue pattern */
  if (++r->subgraphs >= r->check_at && r->log != NULL) gclq__motif_progress(r);
}

/* ESU's extension at depth d (sub[0 .. d) chosen, the extension set at
   level d - 1): take each w in turn out of the set, add w's exclusive
   neighbours after the root, go one deeper. */
static void gclq__motif_extend(gclq__motif_run *r, uint32_t d) {
  uint32_t *ext = r->ext + (size_t)(d - 1) * r->cap, *deeper = r->ext + (size_t)d * r->cap;
  const gclq_graph *g = r->g;
  if (d >= 5) return; /* k <= 5: sub holds five (a bound the compiler can see) */
  while (r->next[d - 1] > 0) {
    const uint32_t w = ext[--r->next[d - 1]];
    uint32_t n = r->next[d - 1], i;
    uint64_t e;
    r->sub[d] = w;
    if (d + 1 == r->k) {
      gclq__motif_record(r);
      continue;
    }
    memcpy(deeper, ext, n * sizeof(uint32_t));
    for (e = g->h_offsets[w]; e < g->h_offsets[w + 1]; ++e) {
      const uint32_t u = g->h_neighbors[e];
      int exclusive = u > r->root;
      for (i = 0; exclusive && i < d; ++i) exclusive = u != r->sub[i] && !gclq__adjacent(g, r->sub[i], u);
      if (exclusive) deeper[n++] = u;
    }
    r->next[d] = n;
    gclq__motif_extend(r, d + 1);
  }
}

/* counts[0 .. catalogue size) += the occurrences of each pattern. */
static gclq_status gclq__host_motifs(const gclq_graph *g, uint32_t k, void (*log)(void *, const char *),
                                     void *log_user, uint64_t *counts, uint64_t *subgraphs) {
  gclq__motif_run r;
  uint32_t v, max_degree = 0;
  memset(&r, 0, sizeof r);
  r.g = g;
  r.k = k;
  r.counts = counts;
  r.log = log;
  r.log_user = log_user;
  r.last_log = clock();
  r.check_at = GCLQ__HOST_LOG_WORK;
  gclq__motif_table(k, r.table);
  for (v = 0; v < g->num_vertices; ++v)
    if (g->h_offsets[v + 1] - g->h_offsets[v] > max_degree) max_degree = (uint32_t)(g->h_offsets[v + 1] - g->h_offsets[v]);
  r.cap = (uint64_t)k * max_degree + 1; /* an extension set holds at most the members' neighbours */
  r.ext = (uint32_t *)gclq__alloc_array(r.cap * k, sizeof(uint32_t));
  r.next = (uint32_t *)gclq__alloc_array(k, sizeof(uint32_t));
  if (r.ext == NULL || r.next == NULL) {
    GCLQ_FREE(r.ext);
    GCLQ_FREE(r.next);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (v = 0; v < g->num_vertices; ++v) {
    uint64_t e;
    uint32_t n = 0;
    r.root = v;
    r.sub[0] = v;
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e)
      if (g->h_neighbors[e] > v) r.ext[n++] = g->h_neighbors[e];
    r.next[0] = n;
    gclq__motif_extend(&r, 1);
  }
  *subgraphs = r.subgraphs;
  GCLQ_FREE(r.ext);
  GCLQ_FREE(r.next);
  return GCLQ_SUCCESS;
}

/* ---- motifs of 3 and 4 vertices by counting (method COUNT) ----
   The induced counts follow from non-induced ones, which need no
   enumeration of 4-vertex subgraphs: with degrees d, triangles T, the
   triangles t_e on each edge and t_v at each vertex, 4-cliques K and
   4-cycles C (each found once at its highest vertex in (degree, id) order,
   from the wedges below it: Chiba and Nishizeki, 1985),
     3-stars  S = sum_v C(d_v, 3)          4-paths  P = sum_uv (d_u - 1)(d_v - 1) - 3T
     tailed   L = sum_v t_v (d_v - 2)      diamonds D = sum_e C(t_e, 2)
   and each pattern contains a fixed number of copies of the smaller ones
   (a 4-clique holds 6 diamonds, 3 4-cycles, 12 tailed triangles, 12
   4-paths and 4 3-stars; a diamond 1 4-cycle, 4 tailed triangles, 6
   4-paths and 2 3-stars; a 4-cycle 4 4-paths; a tailed triangle 2 4-paths
   and a 3-star), so the induced counts come out of that triangular system
   from the largest pattern down (Ahmed et al., "Efficient graphlet counting
   for large networks", 2015, count this way). The arithmetic is modulo
   2^64 and linear, so every count below 2^64 is exact. */

/* C(x, 2) and C(x, 3) without overflow on the way (modulo 2^64 beyond). */
static uint64_t gclq__fm_c2(uint64_t x) { return x < 2 ? 0 : x % 2 == 0 ? x / 2 * (x - 1) : (x - 1) / 2 * x; }
static uint64_t gclq__fm_c3(uint64_t x) {
  return x < 3 ? 0 : (x - 2) % 3 == 0 ? gclq__fm_c2(x) * ((x - 2) / 3) : gclq__fm_c2(x) / 3 * (x - 2);
}

/* Is v after u in the (degree, id) order? */
static int gclq__fm_after(const gclq_graph *g, uint32_t u, uint32_t v) {
  const uint64_t du = g->h_offsets[u + 1] - g->h_offsets[u], dv = g->h_offsets[v + 1] - g->h_offsets[v];
  return dv > du || (dv == du && v > u);
}

/* The position of v in u's list (it is there). */
static uint64_t gclq__fm_pos(const gclq_graph *g, uint32_t u, uint32_t v) {
  return g->h_offsets[u] + gclq__lower_bound_u32(g->h_neighbors + g->h_offsets[u], g->h_offsets[u + 1] - g->h_offsets[u], v);
}

/* Triangles: T, per list entry te (both entries of an edge), per vertex tv;
   k4: the 4-cliques too (each triangle's later common neighbours). cand:
   room for the largest degree. */
static void gclq__fm_triangles(const gclq_graph *g, int k4, uint64_t *te, uint64_t *tv, uint32_t *cand,
                               uint64_t *T, uint64_t *K) {
  uint32_t u, v, w, nc, i, j;
  uint64_t a, b;
  *T = *K = 0;
  for (u = 0; u < g->num_vertices; ++u)
    for (a = g->h_offsets[u]; a < g->h_offsets[u + 1]; ++a) {
      v = g->h_neighbors[a];
      if (!gclq__fm_after(g, u, v)) continue;
      nc = 0; /* the common neighbours after v: each triangle once, at its first two vertices */
      for (b = g->h_offsets[v]; b < g->h_offsets[v + 1]; ++b) {
        w = g->h_neighbors[b];
        if (gclq__fm_after(g, v, w) && gclq__adjacent(g, u, w)) cand[nc++] = w;
      }
      for (i = 0; i < nc; ++i) {
        const uint32_t x[3] = {u, v, cand[i]};
        uint32_t p, q;
        ++*T;
        for (p = 0; p < 3; ++p)
          for (q = 0; q < 3; ++q)
            if (p != q) te[gclq__fm_pos(g, x[p], x[q])]++;
        for (j = i + 1; k4 && j < nc; ++j) *K += (uint64_t)gclq__adjacent(g, cand[i], cand[j]);
      }
    }
  for (u = 0; u < g->num_vertices; ++u) {
    uint64_t s = 0;
    for (a = g->h_offsets[u]; a < g->h_offsets[u + 1]; ++a) s += te[a];
    tv[u] = s / 2; /* each triangle at u lies on two of u's edges */
  }
}

/* 4-cycles, each at its highest vertex a: pairs of wedges a-b-c below a. */
static uint64_t gclq__fm_cycles(const gclq_graph *g, uint32_t *cnt, uint32_t *touched) {
  uint64_t C = 0, e, f;
  uint32_t a, i, nt;
  for (a = 0; a < g->num_vertices; ++a) {
    nt = 0;
    for (e = g->h_offsets[a]; e < g->h_offsets[a + 1]; ++e) {
      const uint32_t b = g->h_neighbors[e];
      if (!gclq__fm_after(g, b, a)) continue;
      for (f = g->h_offsets[b]; f < g->h_offsets[b + 1]; ++f) {
        const uint32_t c = g->h_neighbors[f];
        if (c == a || !gclq__fm_after(g, c, a)) continue;
        if (cnt[c]++ == 0) touched[nt++] = c;
      }
    }
    for (i = 0; i < nt; ++i) {
      C += gclq__fm_c2(cnt[touched[i]]);
      cnt[touched[i]] = 0;
    }
  }
  return C;
}

/* The sums the counting method solves from (the CUDA twin,
   clique/gpm/motifs.cuh, fills the same). */
typedef struct gclq__fm_sums {
  uint64_t T, K, C;       /* triangles, 4-cliques, 4-cycles */
  uint64_t W, S, P, L, D; /* sum C(d, 2), sum C(d, 3), sum_uv (d_u - 1)(d_v - 1), sum t_v (d_v - 2), sum C(t_e, 2) */
} gclq__fm_sums;

/* The induced counts of k = 3 or 4 (catalogue order) from the sums, their
   total, and when noninduced is not NULL the non-induced ones. */
static void gclq__fm_solve(uint32_t k, const gclq__fm_sums *s, uint64_t *counts, uint64_t *subgraphs,
                           uint64_t *noninduced) {
  uint32_t i;
  if (noninduced != NULL && k == 3) noninduced[0] = s->T, noninduced[1] = s->W;
  if (noninduced != NULL && k == 4)
    noninduced[0] = s->S, noninduced[1] = s->P - 3 * s->T, noninduced[2] = s->L, noninduced[3] = s->C,
    noninduced[4] = s->D, noninduced[5] = s->K;
  if (k == 3) {
    counts[0] = s->T, counts[1] = s->W - 3 * s->T;
  } else { /* the induced counts, from the 4-clique down */
    counts[5] = s->K;
    counts[4] = s->D - 6 * s->K;
    counts[3] = s->C - counts[4] - 3 * s->K;
    counts[2] = s->L - 4 * counts[4] - 12 * s->K;
    counts[1] = s->P - 3 * s->T - 2 * counts[2] - 4 * counts[3] - 6 * counts[4] - 12 * s->K;
    counts[0] = s->S - counts[2] - 2 * counts[4] - 4 * s->K;
  }
  for (*subgraphs = 0, i = 0; i < (k == 3 ? 2u : 6u); ++i) *subgraphs += counts[i];
}

/* The motif counts of k = 3 or 4 (catalogue order) by counting, and when
   noninduced is not NULL the non-induced ones (subgraphs with at least the
   pattern's edges: the edge-induced matches) in the same order. */
static gclq_status gclq__host_motifs_count(const gclq_graph *g, uint32_t k, void (*log)(void *, const char *),
                                           void *log_user, uint64_t *counts, uint64_t *subgraphs,
                                           uint64_t *noninduced) {
  const uint32_t n = g->num_vertices;
  uint64_t *te = (uint64_t *)gclq__alloc_array(2 * g->num_edges, sizeof(uint64_t));
  uint64_t *tv = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
  uint32_t *cnt = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  uint32_t *aux = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  gclq__fm_sums s;
  uint64_t e;
  uint32_t u;
  if (te == NULL || tv == NULL || cnt == NULL || aux == NULL) {
    GCLQ_FREE(te), GCLQ_FREE(tv), GCLQ_FREE(cnt), GCLQ_FREE(aux);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  memset(&s, 0, sizeof s);
  memset(te, 0, (size_t)(2 * g->num_edges * sizeof(uint64_t)));
  memset(cnt, 0, (size_t)n * sizeof(uint32_t));
  gclq__fm_triangles(g, k == 4, te, tv, aux, &s.T, &s.K);
  if (log != NULL) log(log_user, "motifs: triangles counted");
  if (k == 4) s.C = gclq__fm_cycles(g, cnt, aux);
  if (log != NULL && k == 4) log(log_user, "motifs: 4-cycles counted");
  for (u = 0; u < n; ++u) {
    const uint64_t d = g->h_offsets[u + 1] - g->h_offsets[u];
    s.W += gclq__fm_c2(d);
    s.S += gclq__fm_c3(d);
    s.L += d < 2 ? 0 : tv[u] * (d - 2);
    for (e = g->h_offsets[u]; e < g->h_offsets[u + 1]; ++e)
      if (g->h_neighbors[e] > u) {
        const uint64_t dv = g->h_offsets[g->h_neighbors[e] + 1] - g->h_offsets[g->h_neighbors[e]];
        s.P += (d - 1) * (dv - 1);
        s.D += gclq__fm_c2(te[e]);
      }
  }
  gclq__fm_solve(k, &s, counts, subgraphs, noninduced);
  GCLQ_FREE(te), GCLQ_FREE(tv), GCLQ_FREE(cnt), GCLQ_FREE(aux);
  return GCLQ_SUCCESS;
}

/* The catalogue index of the pattern of a query of 3 or 4 vertices (adj:
   its bit rows, q vertices). */
static uint32_t gclq__query_pattern(uint32_t q, const uint32_t *adj) {
  unsigned char table[64];
  uint32_t mask = 0, i, j;
  for (i = 0; i < q; ++i)
    for (j = i + 1; j < q; ++j)
      if ((adj[i] >> j) & 1u) mask |= 1u << gclq__pair_bit(q, i, j);
  gclq__motif_table(q, table);
  return table[mask];
}

/* Matches of an unlabelled query of 3 or 4 vertices counted from the motif
   counts (induced, noninduced: gclq__host_motifs_count's or its CUDA
   twin's) instead of matched: vertex-induced, the induced count of the
   query's pattern p (gclq__query_pattern); edge-induced, the non-induced
   one; every embedding, that times the query's automorphisms. */
static uint64_t gclq__match_by_count(uint32_t p, uint64_t automorphisms, gclq_match_mode mode, const uint64_t *induced,
                                     const uint64_t *noninduced) {
  return (mode == GCLQ_MATCH_VERTEX_INDUCED ? induced[p] : noninduced[p]) *
         (mode == GCLQ_MATCH_EMBEDDINGS ? automorphisms : 1);
}

/* ---- subgraph matching (HOST) ----
   A connected query of q <= GCLQ_MATCH_MAX_QUERY vertices is matched by
   backtracking in a matching order: the query vertex of most edges first,
   then always the one with most neighbours already placed (ties: more
   edges, then the smaller id), so that every vertex after the first has a
   placed neighbour, whose data list gives its candidates. A candidate must
   carry the query vertex's label (labelled queries) and be adjacent to the
   images of all its placed neighbours; but for homomorphisms it must also
   be unused and of at least the query vertex's degree; vertex-induced
   matching also wants it non-adjacent to the images of its placed
   non-neighbours.

   Each subgraph is found once (EDGE_INDUCED, VERTEX_INDUCED) through the
   symmetry-breaking restrictions of GraphZero (Mawhirter et al., 2019):
   while the automorphism group G of the query (labels kept) is not trivial,
   take the smallest vertex v whose orbit under G has another vertex,
   require image(v) < image(u) for every other u of that orbit, and go on
   with the stabilizer of v in G. Of the embeddings of one subgraph (an
   orbit of the embeddings under the automorphisms) exactly one meets every
   restriction; |Aut| is the product of the orbits' sizes. */

/* The query as bit rows (adj[u] has bit w when u and w are adjacent), its
   labels (NULL: unlabelled), and the restrictions (less[u]: bit w when
   image(u) < image(w) is required). */
typedef struct gclq__query {
  uint32_t q, adj[GCLQ_MATCH_MAX_QUERY], less[GCLQ_MATCH_MAX_QUERY];
  const uint32_t *labels;
  uint64_t automorphisms;
} gclq__query;

static uint32_t gclq__query_degree(const gclq__query *Q, uint32_t u) { return gclq__host_popcount64(Q->adj[u]); }

/* Does map[0 .. q) (GCLQ__MOTIF_NONE where free; the targets in `used`)
   extend to an automorphism? Vertices placed in id order from `at`. */
static int gclq__query_extends(const gclq__query *Q, uint32_t *map, uint32_t used, uint32_t at) {
  uint32_t w, x;
  if (at == Q->q) return 1;
  for (x = 0; x < Q->q; ++x) {
    int ok;
    if (map[at] != GCLQ__MOTIF_NONE && x != map[at]) continue; /* placed before the search */
    ok = (map[at] != GCLQ__MOTIF_NONE || !((used >> x) & 1u)) &&
         gclq__query_degree(Q, x) == gclq__query_degree(Q, at) && (Q->labels == NULL || Q->labels[x] == Q->labels[at]);
    for (w = 0; ok && w < at; ++w) ok = ((Q->adj[at] >> w) & 1u) == ((Q->adj[x] >> map[w]) & 1u);
    if (ok) {
      const uint32_t was = map[at];
      map[at] = x;
      if (gclq__query_extends(Q, map, used | 1u << x, at + 1)) {
        map[at] = was;
        return 1;
      }
      map[at] = was;
    }
  }
  return 0;
}

/* The restrictions and |Aut| (fixed: the vertices the stabilizer fixes). */
static void gclq__query_restrict(gclq__query *Q) {
  uint32_t fixed = 0, v, u, i;
  Q->automorphisms = 1;
  memset(Q->less, 0, sizeof Q->less);
  for (v = 0; v < Q->q; ++v) {
    uint32_t orbit = 1; /* v itself */
    for (u = 0; u < Q->q; ++u) {
      uint32_t map[GCLQ_MATCH_MAX_QUERY], used = 1u << u;
      if (u == v || ((fixed >> u) & 1u)) continue; /* a fixed vertex is only its own image */
      for (i = 0; i < Q->q; ++i) map[i] = GCLQ__MOTIF_NONE;
      for (i = 0; i < Q->q; ++i)
        if ((fixed >> i) & 1u) map[i] = i, used |= 1u << i;
      map[v] = u;
      if (gclq__query_extends(Q, map, used, 0)) Q->less[v] |= 1u << u, ++orbit;
    }
    Q->automorphisms *= orbit;
    fixed |= 1u << v; /* the stabilizer of v from here on (a trivial orbit fixes v already) */
  }
}

/* The matching order (order[0 .. q)) and, per position, the placed
   neighbour whose list gives the candidates (parent[i], an index into
   order; none for the first). */
static void gclq__query_order(const gclq__query *Q, uint32_t *order, uint32_t *parent) {
  uint32_t placed = 0, i, u;
  for (i = 0; i < Q->q; ++i) {
    uint32_t best = GCLQ__MOTIF_NONE, best_links = 0;
    for (u = 0; u < Q->q; ++u) {
      uint32_t links;
      if ((placed >> u) & 1u) continue;
      links = gclq__host_popcount64(Q->adj[u] & placed);
      if (i > 0 && links == 0) continue; /* keep the placed prefix connected */
      if (best == GCLQ__MOTIF_NONE || links > best_links ||
          (links == best_links && gclq__query_degree(Q, u) > gclq__query_degree(Q, best)))
        best = u, best_links = links;
    }
    order[i] = best;
    parent[i] = GCLQ__MOTIF_NONE;
    for (u = 0; i > 0 && u < i; ++u)
      if ((Q->adj[best] >> order[u]) & 1u) {
        parent[i] = u;
        break;
      }
    placed |= 1u << best;
  }
}

/* One HOST matching run: the data graph, the query, the order, the images
   so far (img[query vertex]), the count, and the kept rows (a max-heap of
   the smallest max_stored rows in query vertex order, compact ids). */
typedef struct gclq__match_run {
  const gclq_graph *g;
  const gclq__query *Q;
  gclq_match_mode mode;
  uint32_t order[GCLQ_MATCH_MAX_QUERY], parent[GCLQ_MATCH_MAX_QUERY], img[GCLQ_MATCH_MAX_QUERY];
  uint64_t count, max_stored, stored, cap, nodes, check_at;
  uint32_t *heap; /* stored rows of q ids, room for cap rows (grown up to max_stored) */
  const uint64_t *lkey; /* a labelled query's lists by (label, id), label << 32 | id; NULL: none */
  void (*visit)(void *user, const uint32_t *img); /* every match's images, when set (FPM's domains) */
  void *visit_user;
  gclq_status status; /* OUT_OF_MEMORY when the heap could not grow: the search stops */
  void (*log)(void *user, const char *line);
  void *log_user;
  clock_t last_log;
} gclq__match_run;

/* Row a of the heap against row b (or the images, b == UINT64_MAX). */
static int gclq__match_row_cmp(const gclq__match_run *r, uint64_t a, uint64_t b) {
  const uint32_t q = r->Q->q, *x = r->heap + a * q, *y = b == UINT64_MAX ? r->img : r->heap + b * q;
  uint32_t i;
  for (i = 0; i < q; ++i)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

static void gclq__match_row_swap(gclq__match_run *r, uint64_t a, uint64_t b) {
  uint32_t i, t;
  for (i = 0; i < r->Q->q; ++i) {
    t = r->heap[a * r->Q->q + i];
    r->heap[a * r->Q->q + i] = r->heap[b * r->Q->q + i];
    r->heap[b * r->Q->q + i] = t;
  }
}

/* Row `at` down the max-heap of n rows. */
static void gclq__match_sift_down(gclq__match_run *r, uint64_t at, uint64_t n) {
  for (;;) {
    uint64_t big = at, c;
    for (c = 2 * at + 1; c <= 2 * at + 2 && c < n; ++c)
      if (gclq__match_row_cmp(r, c, big) > 0) big = c;
    if (big == at) return;
    gclq__match_row_swap(r, at, big);
    at = big;
  }
}

/* A full match: counted, and kept when it is among the smallest rows. */
static void gclq__match_found(gclq__match_run *r) {
  const uint32_t q = r->Q->q;
  uint64_t at;
  r->count++;
  if (r->visit != NULL) r->visit(r->visit_user, r->img);
  if (r->max_stored == 0) return;
  if (r->stored < r->max_stored) { /* append, sift up */
    if (r->stored == r->cap) {
      uint64_t cap = r->cap == 0 ? 64 : r->cap > UINT64_MAX / 2 ? UINT64_MAX : 2 * r->cap;
      uint32_t *grown;
      if (cap > r->max_stored) cap = r->max_stored;
      grown = cap <= (uint64_t)((size_t)-1 / (4 * q)) ? (uint32_t *)GCLQ_REALLOC(r->heap, (size_t)cap * q * 4) : NULL;
      if (grown == NULL) {
        r->status = GCLQ_ERROR_OUT_OF_MEMORY;
        return;
      }
      r->heap = grown;
      r->cap = cap;
    }
    memcpy(r->heap + r->stored * q, r->img, q * sizeof(uint32_t));
    for (at = r->stored++; at > 0 && gclq__match_row_cmp(r, (at - 1) / 2, at) < 0; at = (at - 1) / 2)
      gclq__match_row_swap(r, at, (at - 1) / 2);
  } else if (gclq__match_row_cmp(r, 0, UINT64_MAX) > 0) { /* smaller than the largest kept */
    memcpy(r->heap, r->img, q * sizeof(uint32_t));
    gclq__match_sift_down(r, 0, r->stored);
  }
}

/* May data vertex x be the image of query vertex u (placed after the
   vertices order[0 .. i))? x comes from the list of data vertex src (a
   placed neighbour's image; none for i = 0), so adjacency to src holds,
   cut to the range the restrictions leave (gclq__match_extend), so they
   hold too. */
static int gclq__match_ok(const gclq__match_run *r, uint32_t i, uint32_t u, uint32_t x, uint32_t src) {
  const gclq__query *Q = r->Q;
  const gclq_graph *g = r->g;
  const int injective = r->mode != GCLQ_MATCH_HOMOMORPHISMS;
  uint32_t j;
  if (Q->labels != NULL && g->h_labels[x] != Q->labels[u]) return 0;
  if (injective && g->h_offsets[x + 1] - g->h_offsets[x] < gclq__query_degree(Q, u)) return 0;
  for (j = 0; j < i; ++j) {
    const uint32_t w = r->order[j], y = r->img[w];
    const int edge = (Q->adj[u] >> w) & 1u;
    if (injective && y == x) return 0;
    if (edge && y != src && !gclq__adjacent(g, x, y)) return 0;
    if (!edge && r->mode == GCLQ_MATCH_VERTEX_INDUCED && gclq__adjacent(g, x, y)) return 0;
  }
  return 1;
}

static void gclq__match_progress(gclq__match_run *r) {
  char line[160];
  clock_t now = clock();
  r->check_at = r->nodes + GCLQ__HOST_LOG_WORK;
  if ((double)(now - r->last_log) < GCLQ__HOST_LOG_SECONDS * CLOCKS_PER_SEC) return;
  r->last_log = now;
  snprintf(line, sizeof line, "match: first vertex %u of %u, %llu matches so far", r->img[r->order[0]],
           r->g->num_vertices, (unsigned long long)r->count);
  r->log(r->log_user, line);
}

/* Position i of the order: every candidate of its query vertex. */
static void gclq__match_extend(gclq__match_run *r, uint32_t i) {
  const uint32_t u = r->order[i];
  const gclq_graph *g = r->g;
  if (++r->nodes >= r->check_at && r->log != NULL) gclq__match_progress(r);
  if (i == 0) {
    uint32_t x;
    for (x = 0; x < g->num_vertices && r->status == GCLQ_SUCCESS; ++x)
      if (gclq__match_ok(r, 0, u, x, UINT32_MAX)) {
        r->img[u] = x;
        if (r->Q->q == 1) gclq__match_found(r);
        else gclq__match_extend(r, 1);
      }
  } else { /* from the shortest list of u's placed neighbours, cut to the range the restrictions leave */
    uint32_t from = r->img[r->order[r->parent[i]]], lo = 0, hi = UINT32_MAX, j;
    uint64_t a = g->h_offsets[from], b = g->h_offsets[from + 1], e;
    for (j = 0; j < i; ++j) {
      const uint32_t w = r->order[j], y = r->img[w];
      if (((r->Q->adj[u] >> w) & 1u) && g->h_offsets[y + 1] - g->h_offsets[y] < b - a)
        from = y, a = g->h_offsets[y], b = g->h_offsets[y + 1];
      if (((r->Q->less[u] >> w) & 1u) && y < hi) hi = y;         /* image(u) < image(w) */
      if (((r->Q->less[w] >> u) & 1u) && y + 1 > lo) lo = y + 1; /* image(w) < image(u) */
    }
    if (a < b && r->lkey != NULL) { /* also cut to u's label (no id is 2^32 - 1) */
      const uint64_t L = (uint64_t)r->Q->labels[u] << 32;
      a += gclq__lower_bound_u64(r->lkey + a, b - a, L | lo);
      b = a + gclq__lower_bound_u64(r->lkey + a, b - a, L | hi);
    } else if (a < b) { /* an empty list may have no array at all (h_neighbors NULL) */
      a += gclq__lower_bound_u32(g->h_neighbors + a, b - a, lo);
      if (hi != UINT32_MAX) b = a + gclq__lower_bound_u32(g->h_neighbors + a, b - a, hi);
    }
    for (e = a; e < b && r->status == GCLQ_SUCCESS; ++e) {
      const uint32_t x = r->lkey != NULL ? (uint32_t)r->lkey[e] : g->h_neighbors[e];
      if (!gclq__match_ok(r, i, u, x, from)) continue;
      r->img[u] = x;
      if (i + 1 == r->Q->q) gclq__match_found(r);
      else gclq__match_extend(r, i + 1);
    }
  }
}

/* g's lists by (label, id) (label << 32 | id, each list sorted), or NULL
   when the memory is short: the search then tests each candidate's label.
   Within a label the ids ascend, so the search meets the same candidates
   in the same order, less those of other labels. */
static uint64_t *gclq__match_label_lists(const gclq_graph *g) {
  const uint64_t entries = g->h_offsets[g->num_vertices];
  uint64_t *key = (uint64_t *)gclq__alloc_array(entries, sizeof(uint64_t)), e;
  uint32_t v;
  if (key == NULL) return NULL;
  for (e = 0; e < entries; ++e) key[e] = (uint64_t)g->h_labels[g->h_neighbors[e]] << 32 | g->h_neighbors[e];
  for (v = 0; v < g->num_vertices; ++v)
    if (gclq__sort_u64(key + g->h_offsets[v], (size_t)(g->h_offsets[v + 1] - g->h_offsets[v])) != GCLQ_SUCCESS) {
      GCLQ_FREE(key);
      return NULL;
    }
  return key;
}

/* The query (checked by the caller: 1 .. GCLQ_MATCH_MAX_QUERY vertices,
   connected) as bit rows, with its restrictions for the mode. */
static void gclq__query_make(const gclq_graph *query, gclq_match_mode mode, gclq__query *Q) {
  uint32_t u;
  uint64_t e;
  memset(Q, 0, sizeof *Q);
  Q->q = query->num_vertices;
  Q->labels = query->h_labels;
  for (u = 0; u < Q->q; ++u)
    for (e = query->h_offsets[u]; e < query->h_offsets[u + 1]; ++e) Q->adj[u] |= 1u << query->h_neighbors[e];
  gclq__query_restrict(Q);
  if (mode == GCLQ_MATCH_EMBEDDINGS || mode == GCLQ_MATCH_HOMOMORPHISMS) memset(Q->less, 0, sizeof Q->less);
}

/* Count (and keep up to max_stored, smallest first, compact ids) the
   matches of the query in g, each one's images also to visit when it is
   set; a labelled query of 3 or more vertices reads g's lists by label
   (lists, gclq__match_label_lists; NULL: made here for the call). *rows:
   stored * q ids, GCLQ_MALLOC'd (NULL when none are kept). */
static gclq_status gclq__host_match_visit(const gclq_graph *g, const gclq__query *Q, gclq_match_mode mode,
                                          uint64_t max_stored, void (*log)(void *, const char *), void *log_user,
                                          void (*visit)(void *, const uint32_t *), void *visit_user,
                                          const uint64_t *lists, uint64_t *count, uint64_t *stored, uint32_t **rows) {
  gclq__match_run r;
  uint64_t *own = NULL;
  memset(&r, 0, sizeof r);
  r.visit = visit;
  r.visit_user = visit_user;
  r.g = g;
  r.Q = Q;
  r.mode = mode;
  r.max_stored = max_stored;
  r.log = log;
  r.log_user = log_user;
  r.last_log = clock();
  r.check_at = GCLQ__HOST_LOG_WORK;
  *rows = NULL;
  gclq__query_order(Q, r.order, r.parent);
  if (Q->labels != NULL && Q->q > 2 && g->num_edges > 0) {
    r.lkey = lists != NULL ? lists : (own = gclq__match_label_lists(g));
    if (r.lkey == NULL && log != NULL)
      log(log_user, "match: no room for the lists by label; each candidate's label is tested instead");
  }
  if (g->num_vertices > 0) gclq__match_extend(&r, 0);
  GCLQ_FREE(own);
  if (r.status != GCLQ_SUCCESS) {
    GCLQ_FREE(r.heap);
    return r.status;
  }
  *count = r.count;
  *stored = r.stored;
  while (r.stored > 1) { /* heap sort: ascending rows */
    gclq__match_row_swap(&r, 0, --r.stored);
    gclq__match_sift_down(&r, 0, r.stored);
  }
  *rows = r.heap;
  return GCLQ_SUCCESS;
}

static gclq_status gclq__host_match(const gclq_graph *g, const gclq__query *Q, gclq_match_mode mode,
                                    uint64_t max_stored, void (*log)(void *, const char *), void *log_user,
                                    uint64_t *count, uint64_t *stored, uint32_t **rows) {
  return gclq__host_match_visit(g, Q, mode, max_stored, log, log_user, NULL, NULL, NULL, count, stored, rows);
}

/* ---- frequent pattern mining (HOST) ----
   Every connected pattern of at most max_edges edges, vertex labels kept,
   whose minimum-image support (MNI: the fewest distinct data vertices any
   one pattern vertex is mapped to, over every embedding) reaches
   min_support; GAMMA's Algorithm 2 on the host, level by level in edges:
   the single-edge patterns of the label pairs on edges, then each frequent
   pattern extended by one edge, between two of its vertices or to a new
   vertex (only by edges whose label pair is frequent: MNI never grows with
   a pattern), the candidates made canonical and deduplicated, and each
   one's support taken from its embeddings (the matcher, every embedding,
   marking each pattern vertex's images). An unlabelled graph is one label
   0 everywhere.

   Canonical form: the vertices sorted by (label, degree), then of the
   orders that keep that sort (permutations within each group of equal
   keys) the one with the smallest adjacency code (pairs i < j row by row,
   bit 0 the first). Isomorphic patterns give equal forms. */

/* A labelled pattern (canonical once gclq__lpat_canon ran): vertex labels,
   bit rows, and the code of its edges (the pair bits). */
typedef struct gclq__lpat {
  uint32_t v, e;
  uint32_t label[GCLQ_EMB_MAX_VERTICES], adj[GCLQ_EMB_MAX_VERTICES];
  uint32_t code;
  uint64_t support;
} gclq__lpat;

static uint32_t gclq__lpat_code(const gclq__lpat *p, const uint32_t *perm) {
  uint32_t code = 0, i, j, bit = 0;
  for (i = 0; i < p->v; ++i)
    for (j = i + 1; j < p->v; ++j, ++bit)
      if ((p->adj[perm[i]] >> perm[j]) & 1u) code |= 1u << bit;
  return code;
}

/* The smallest code over the orders that put at position i a vertex of
   key key[i] (perm[0 .. at) chosen; used: their mask). */
static void gclq__lpat_best(const gclq__lpat *p, const uint64_t *key_of, const uint64_t *key, uint32_t *perm,
                            uint32_t at, uint32_t used, uint32_t *best, uint32_t *best_perm) {
  uint32_t x;
  if (at == p->v) {
    const uint32_t code = gclq__lpat_code(p, perm);
    if (code < *best) *best = code, memcpy(best_perm, perm, p->v * sizeof(uint32_t));
    return;
  }
  for (x = 0; x < p->v; ++x)
    if (!((used >> x) & 1u) && key_of[x] == key[at]) {
      perm[at] = x;
      gclq__lpat_best(p, key_of, key, perm, at + 1, used | 1u << x, best, best_perm);
    }
}

/* p in canonical form (relabelled in place); canonical vertex i was
   vertex from[i] of p (when from is not NULL). */
static void gclq__lpat_canon_from(gclq__lpat *p, uint32_t *from) {
  uint64_t key_of[GCLQ_EMB_MAX_VERTICES], key[GCLQ_EMB_MAX_VERTICES];
  uint32_t perm[GCLQ_EMB_MAX_VERTICES], best_perm[GCLQ_EMB_MAX_VERTICES], best = UINT32_MAX, i, j;
  gclq__lpat q = *p;
  memset(key_of, 0, sizeof key_of); /* (only p->v of them are read) */
  memset(key, 0, sizeof key);
  memset(best_perm, 0, sizeof best_perm);
  for (i = 0; i < p->v; ++i) key_of[i] = key[i] = (uint64_t)p->label[i] << 32 | gclq__host_popcount64(p->adj[i]);
  for (i = 1; i < p->v; ++i) /* insertion sort of the keys */
    for (j = i; j > 0 && key[j - 1] > key[j]; --j) {
      const uint64_t t = key[j];
      key[j] = key[j - 1], key[j - 1] = t;
    }
  gclq__lpat_best(p, key_of, key, perm, 0, 0, &best, best_perm);
  for (i = 0; i < p->v; ++i) {
    q.label[i] = p->label[best_perm[i]];
    q.adj[i] = 0;
    for (j = 0; j < p->v; ++j)
      if ((p->adj[best_perm[i]] >> best_perm[j]) & 1u) q.adj[i] |= 1u << j;
  }
  q.code = best;
  *p = q;
  if (from != NULL) memcpy(from, best_perm, p->v * sizeof(uint32_t));
}

static void gclq__lpat_canon(gclq__lpat *p) { gclq__lpat_canon_from(p, NULL); }

/* p's code, "(label,label,...)[u-v,u-v,...]" (edges u < v in row order). */
static void gclq__lpat_write_code(const gclq__lpat *p, char *out, size_t size) {
  uint32_t i, j, e = 0;
  size_t at = 0;
  at += (size_t)snprintf(out + at, size - at, "(");
  for (i = 0; i < p->v && at < size; ++i) at += (size_t)snprintf(out + at, size - at, "%s%u", i ? "," : "", p->label[i]);
  if (at < size) at += (size_t)snprintf(out + at, size - at, ")[");
  for (i = 0; i < p->v; ++i)
    for (j = i + 1; j < p->v && at < size; ++j)
      if ((p->adj[i] >> j) & 1u) at += (size_t)snprintf(out + at, size - at, "%s%u-%u", e++ ? "," : "", i, j);
  if (at < size) snprintf(out + at, size - at, "]");
}

/* Patterns by edges, vertices, labels, code (the output order). */
static int gclq__lpat_cmp(const void *a, const void *b) {
  const gclq__lpat *x = (const gclq__lpat *)a, *y = (const gclq__lpat *)b;
  uint32_t i;
  if (x->e != y->e) return x->e < y->e ? -1 : 1;
  if (x->v != y->v) return x->v < y->v ? -1 : 1;
  for (i = 0; i < x->v; ++i)
    if (x->label[i] != y->label[i]) return x->label[i] < y->label[i] ? -1 : 1;
  return x->code < y->code ? -1 : x->code > y->code;
}

/* The images of each pattern vertex: a bitmap of n bits a vertex, and the
   number of distinct images so far. */
typedef struct gclq__mni {
  uint32_t q;
  uint64_t words; /* words a bitmap */
  uint64_t *bits, seen[GCLQ_EMB_MAX_VERTICES];
} gclq__mni;

static void gclq__mni_visit(void *user, const uint32_t *img) {
  gclq__mni *m = (gclq__mni *)user;
  uint32_t u;
  for (u = 0; u < m->q; ++u) {
    uint64_t *w = m->bits + u * m->words + (img[u] >> 6);
    const uint64_t bit = 1ull << (img[u] & 63);
    if (!(*w & bit)) *w |= bit, m->seen[u]++;
  }
}

/* p->support: MNI over the embeddings of p in g (labels: g's, never NULL
   here; lists: g's lists by label, or NULL). */
static gclq_status gclq__lpat_support(const gclq_graph *g, gclq__lpat *p, uint64_t *bits, const uint64_t *lists) {
  gclq__query Q;
  gclq__mni m;
  uint64_t count, stored, u;
  uint32_t *rows = NULL;
  gclq_status st;
  memset(&Q, 0, sizeof Q);
  Q.q = p->v;
  Q.labels = p->label;
  memcpy(Q.adj, p->adj, p->v * sizeof(uint32_t));
  memset(&m, 0, sizeof m);
  m.q = p->v;
  m.words = ((uint64_t)g->num_vertices + 63) / 64;
  m.bits = bits;
  memset(bits, 0, (size_t)(m.words * p->v * sizeof(uint64_t)));
  st = gclq__host_match_visit(g, &Q, GCLQ_MATCH_EMBEDDINGS, 0, NULL, NULL, gclq__mni_visit, &m, lists, &count, &stored,
                              &rows);
  GCLQ_FREE(rows);
  p->support = UINT64_MAX;
  for (u = 0; u < p->v; ++u)
    if (m.seen[u] < p->support) p->support = m.seen[u];
  return st;
}

/* A growable array of patterns. */
typedef struct gclq__lpats {
  gclq__lpat *a;
  uint64_t n, cap;
} gclq__lpats;

static int gclq__lpats_push(gclq__lpats *v, const gclq__lpat *p) {
  if (v->n == v->cap) {
    const uint64_t cap = v->cap ? 2 * v->cap : 64;
    gclq__lpat *grown = (gclq__lpat *)GCLQ_REALLOC(v->a, (size_t)cap * sizeof(gclq__lpat));
    if (grown == NULL) return 0;
    v->a = grown, v->cap = cap;
  }
  v->a[v->n++] = *p;
  return 1;
}

/* Is the label pair (a, b) on a frequent edge? (pairs: sorted a <= b keys) */
static int gclq__fpm_edge_ok(const uint64_t *pairs, uint64_t n, uint32_t a, uint32_t b) {
  const uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
  const uint64_t at = gclq__lower_bound_u64(pairs, n, key);
  return at < n && pairs[at] == key;
}

/* The candidates one edge larger than the frequent patterns cur (canonical,
   deduplicated) into next, their vertices at most max_v. */
static gclq_status gclq__fpm_extend(const gclq__lpats *cur, const uint64_t *pairs, uint64_t npairs, uint32_t max_v,
                                    gclq__lpats *next) {
  uint64_t i, k, w;
  uint32_t a, b;
  for (i = 0; i < cur->n; ++i) {
    const gclq__lpat *p = &cur->a[i];
    for (a = 0; a < p->v; ++a) {
      for (b = a + 1; b < p->v; ++b) /* an edge between two of its vertices */
        if (!((p->adj[a] >> b) & 1u) && gclq__fpm_edge_ok(pairs, npairs, p->label[a], p->label[b])) {
          gclq__lpat c = *p;
          c.adj[a] |= 1u << b, c.adj[b] |= 1u << a, c.e++;
          gclq__lpat_canon(&c);
          if (!gclq__lpats_push(next, &c)) return GCLQ_ERROR_OUT_OF_MEMORY;
        }
      for (k = 0; p->v < max_v && k < npairs; ++k) { /* an edge to a new vertex */
        const uint32_t x = (uint32_t)(pairs[k] >> 32), y = (uint32_t)pairs[k];
        for (w = 0; w < 2; ++w) {
          gclq__lpat c = *p;
          if ((w == 0 ? x : y) != p->label[a] || (w == 1 && x == y)) continue;
          c.label[c.v] = w == 0 ? y : x;
          c.adj[c.v] = 1u << a;
          c.adj[a] |= 1u << c.v;
          c.v++, c.e++;
          gclq__lpat_canon(&c);
          if (!gclq__lpats_push(next, &c)) return GCLQ_ERROR_OUT_OF_MEMORY;
        }
      }
    }
  }
  if (next->n > 0) { /* sort, unique */
    qsort(next->a, (size_t)next->n, sizeof(gclq__lpat), gclq__lpat_cmp);
    for (i = 1, k = 1; i < next->n; ++i)
      if (gclq__lpat_cmp(&next->a[i], &next->a[k - 1]) != 0) next->a[k++] = next->a[i];
    next->n = k;
  }
  return GCLQ_SUCCESS;
}

/* The frequent patterns of g (labels: g->h_labels, not NULL) into *out
   (sorted by gclq__lpat_cmp); *candidates: the patterns whose support was
   taken. */
static gclq_status gclq__host_fpm(const gclq_graph *g, uint64_t min_support, uint32_t max_edges,
                                  void (*log)(void *, const char *), void *log_user, gclq__lpats *out,
                                  uint64_t *candidates) {
  gclq__lpats cur, next;
  gclq__vec64 pairs;
  uint64_t *bits, *lists = NULL, i;
  uint32_t v, e;
  size_t np = 0;
  char line[128];
  gclq_status st = GCLQ_SUCCESS;
  memset(&cur, 0, sizeof cur);
  memset(&next, 0, sizeof next);
  memset(out, 0, sizeof *out);
  gclq__vec64_init(&pairs);
  *candidates = 0;
  bits = (uint64_t *)gclq__alloc_array(((uint64_t)g->num_vertices + 63) / 64 * (max_edges + 1), sizeof(uint64_t));
  if (bits == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (g->num_edges > 0) lists = gclq__match_label_lists(g); /* once for every pattern (NULL: each call's own) */
  for (v = 0; v < g->num_vertices && st == GCLQ_SUCCESS; ++v) /* the label pairs on edges */
    for (i = g->h_offsets[v]; i < g->h_offsets[v + 1] && st == GCLQ_SUCCESS; ++i) {
      const uint32_t a = g->h_labels[v], b = g->h_labels[g->h_neighbors[i]];
      if (g->h_neighbors[i] > v && !gclq__vec64_push(&pairs, a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a))
        st = GCLQ_ERROR_OUT_OF_MEMORY;
    }
  if (st == GCLQ_SUCCESS) st = gclq__sort_unique_u64(pairs.a, pairs.n, &np);
  for (i = 0; st == GCLQ_SUCCESS && i < np; ++i) { /* level 1: the single edges */
    gclq__lpat p;
    memset(&p, 0, sizeof p);
    p.v = 2, p.e = 1, p.label[0] = (uint32_t)(pairs.a[i] >> 32), p.label[1] = (uint32_t)pairs.a[i];
    p.adj[0] = 2, p.adj[1] = 1;
    gclq__lpat_canon(&p);
    if (!gclq__lpats_push(&next, &p)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (e = 1; st == GCLQ_SUCCESS && next.n > 0; ++e) {
    uint64_t kept = 0;
    for (i = 0; st == GCLQ_SUCCESS && i < next.n; ++i) { /* supports; the frequent ones kept */
      st = gclq__lpat_support(g, &next.a[i], bits, lists);
      if (st == GCLQ_SUCCESS && next.a[i].support >= min_support) next.a[kept++] = next.a[i];
    }
    *candidates += next.n;
    if (log != NULL) {
      snprintf(line, sizeof line, "fpm: %u edges: %llu candidates, %llu frequent", e, (unsigned long long)next.n,
               (unsigned long long)kept);
      log(log_user, line);
    }
    next.n = kept;
    if (e == 1) { /* the frequent label pairs: the only edges a larger pattern may add */
      for (i = 0, np = 0; i < next.n; ++i) /* labels sorted in a canonical pattern: label[0] <= label[1] */
        pairs.a[np++] = (uint64_t)next.a[i].label[0] << 32 | next.a[i].label[1];
      st = gclq__sort_unique_u64(pairs.a, np, &np);
    }
    for (i = 0; st == GCLQ_SUCCESS && i < next.n; ++i)
      if (!gclq__lpats_push(out, &next.a[i])) st = GCLQ_ERROR_OUT_OF_MEMORY;
    GCLQ_FREE(cur.a);
    cur = next;
    memset(&next, 0, sizeof next);
    if (st == GCLQ_SUCCESS && e < max_edges) st = gclq__fpm_extend(&cur, pairs.a, np, max_edges + 1, &next);
  }
  GCLQ_FREE(cur.a);
  GCLQ_FREE(next.a);
  GCLQ_FREE(pairs.a);
  GCLQ_FREE(bits);
  GCLQ_FREE(lists);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(out->a);
    memset(out, 0, sizeof *out);
  }
  return st;
}
