/* fuzz_csr.c - bytes -> a caller-built gclq_graph -> the calls that take one.
   The input builds a CSR of at most FUZZ_N vertices, in one of two ways:
     raw    num_edges, the offsets and the neighbour ids straight from the
            bytes (mostly malformed: offsets out of order, ids out of range);
     edges  a simple graph from pairs of bytes, stored properly, then up to
            four mutations (an id changed, two swapped, an offset or
            num_edges moved, an entry dropped or added at one end only, a
            vertex less, num_edges fitted to the offsets), so that graphs a
            step away from valid are common (the one-sided CSR that
            overflowed k-cliques' orientation was one).
   The arrays are allocated at exactly their size (n + 1 offsets; as many
   neighbours as the offsets claim), so that ASan sees any read past them.
   Checked against a reference check written here: gclq__host_graph_ok (the
   shape: offsets, ids, order, loops, num_edges) and gclq__graph_check (the
   shape and the symmetry) agree with it; a graph that breaks the contract
   is GCLQ_ERROR_INVALID_ARGUMENT on every HOST call with the result zeroed
   (on CUDA, which this host-only build lacks: a broken shape is still
   INVALID_ARGUMENT, found on the host before the backend; a one-sided edge
   is the device's to find, so BACKEND_UNAVAILABLE comes first); the sets
   view needs the shape only. On a valid graph the HOST k-clique counts (one
   k, all k, per vertex, listing), maximum cliques, core numbers, the
   degeneracy order, the sets view's intersections and the pattern mining
   calls (motifs of 3 vertices, matching as data and as query, FPM up to two
   edges) agree with brute force over the adjacency bitmasks. */
#include "fuzz_common.h"

#define FUZZ_N 16 /* at most 2^16 cliques: brute force stays cheap */

typedef struct fuzz_in {
  const uint8_t *p;
  size_t n;
} fuzz_in;

static uint8_t fuzz_take(fuzz_in *in) {
  if (in->n == 0) return 0;
  --in->n;
  return *in->p++;
}

/* The graph under test, built in fixed arrays, then copied to exact ones. */
typedef struct fuzz_csr {
  uint32_t n, n_alloc;
  uint64_t m;
  uint64_t off[FUZZ_N + 1];
  uint32_t nbr[FUZZ_N * FUZZ_N + 8];
  uint32_t len; /* entries in nbr */
} fuzz_csr;

static void fuzz_build_raw(fuzz_in *in, fuzz_csr *c) {
  uint32_t i;
  c->m = fuzz_take(in) % 64;
  c->off[0] = fuzz_take(in) % 8 == 0 ? 1 : 0;
  for (i = 1; i <= c->n; ++i) c->off[i] = c->off[i - 1] + fuzz_take(in) % 8 - (fuzz_take(in) % 16 == 0 ? 3 : 0);
  c->len = 0;
  while (c->len < FUZZ_N * FUZZ_N && c->len < c->off[c->n] && c->off[c->n] <= FUZZ_N * FUZZ_N)
    c->nbr[c->len++] = fuzz_take(in) % (c->n + 2);
}

static void fuzz_build_edges(fuzz_in *in, fuzz_csr *c) {
  uint32_t adj[FUZZ_N], v, u, pairs = fuzz_take(in) % 96, i;
  memset(adj, 0, sizeof adj);
  for (i = 0; i < pairs && c->n > 0; ++i) {
    v = fuzz_take(in) % c->n, u = fuzz_take(in) % c->n;
    if (u != v) adj[v] |= 1u << u, adj[u] |= 1u << v;
  }
  c->len = 0, c->m = 0;
  for (v = 0; v < c->n; ++v) {
    c->off[v] = c->len;
    for (u = 0; u < c->n; ++u)
      if (adj[v] >> u & 1) c->nbr[c->len++] = u, c->m += u > v;
  }
  c->off[c->n] = c->len;
}

/* One step away from valid (the kinds of malformation the contract names). */
static void fuzz_mutate(fuzz_in *in, fuzz_csr *c) {
  uint8_t kind = fuzz_take(in) % 8, at = fuzz_take(in), x = fuzz_take(in);
  uint32_t e = c->len ? at % c->len : 0, v, t;
  int tail = c->off[c->n] == c->len; /* offsets and entries agree: an entry can move */
  if (kind == 0 && c->len) { /* an id out of range, a loop, a repeat, out of order */
    c->nbr[e] = x % (c->n + 2);
  } else if (kind == 1 && c->len > 1) { /* two neighbours swapped */
    e = at % (c->len - 1);
    t = c->nbr[e], c->nbr[e] = c->nbr[e + 1], c->nbr[e + 1] = t;
  } else if (kind == 2 && c->n) { /* an offset moved (may wrap below 0) */
    c->off[1 + at % c->n] += (uint64_t)(int64_t)(int8_t)x;
  } else if (kind == 3) { /* num_edges moved (may wrap) */
    c->m += (uint64_t)(int64_t)(int8_t)x;
  } else if (kind == 4 && c->len && tail) { /* an entry dropped: its edge at one end only */
    memmove(c->nbr + e, c->nbr + e + 1, (c->len - e - 1) * sizeof(uint32_t));
    --c->len;
    for (v = 1; v <= c->n; ++v) c->off[v] -= c->off[v] > e;
  } else if (kind == 5 && c->n && tail && c->len < FUZZ_N * FUZZ_N) { /* an entry added at the end of a list */
    v = at % c->n;
    if (c->off[v + 1] > c->len) return; /* offsets already moved past the entries */
    e = (uint32_t)c->off[v + 1];
    memmove(c->nbr + e + 1, c->nbr + e, (c->len - e) * sizeof(uint32_t));
    c->nbr[e] = x % c->n;
    ++c->len;
    for (++v; v <= c->n; ++v) ++c->off[v];
  } else if (kind == 6) { /* num_edges fitted to the offsets */
    c->m = c->off[c->n] / 2;
  } else if (kind == 7 && c->n) { /* a vertex less: its ids now out of range */
    --c->n;
  }
}

/* What the reference check says of a graph: its shape (everything but the
   symmetry) and the whole contract. */
typedef struct fuzz_verdict {
  int shape, valid;
} fuzz_verdict;

/* The status a CUDA request gets in this host-only build. */
static gclq_status fuzz_cuda_want(const fuzz_verdict *k) {
  return k->shape ? GCLQ_ERROR_BACKEND_UNAVAILABLE : GCLQ_ERROR_INVALID_ARGUMENT;
}

/* The contract, checked the slow way: offsets first (so that nothing is
   read past them), then ids, order, loops (the shape: 1 in *shape), and
   symmetry by bitmasks (the return). */
static int fuzz_reference_valid(const gclq_graph *g, int *shape) {
  uint32_t adj[FUZZ_N + 1], n = g->num_vertices, v, u;
  uint64_t e;
  *shape = 0;
  if (n == 0) return *shape = g->num_edges == 0;
  if (g->h_offsets == NULL || g->h_offsets[0] != 0) return 0;
  for (v = 0; v < n; ++v)
    if (g->h_offsets[v + 1] < g->h_offsets[v]) return 0;
  if (g->h_offsets[n] / 2 != g->num_edges || g->h_offsets[n] % 2) return 0;
  if (g->num_edges > (uint64_t)n * (n - 1) / 2) return 0; /* a simple graph (and 2m does not wrap) */
  if (g->num_edges && g->h_neighbors == NULL) return 0;
  memset(adj, 0, sizeof adj);
  for (v = 0; v < n; ++v)
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) {
      u = g->h_neighbors[e];
      if (u >= n || u == v || (e > g->h_offsets[v] && g->h_neighbors[e - 1] >= u)) return 0;
      adj[v] |= 1u << u;
    }
  *shape = 1;
  for (v = 0; v < n; ++v)
    for (u = 0; u < n; ++u)
      if ((adj[v] >> u & 1) != (adj[u] >> v & 1)) return 0;
  return 1;
}

/* Brute force over a valid graph: the cliques of each size, per vertex. */
typedef struct fuzz_truth {
  uint32_t adj[FUZZ_N];
  uint64_t count[FUZZ_N + 2];                  /* count[s]: cliques of s vertices */
  uint64_t per_vertex[FUZZ_N + 2][FUZZ_N];     /* per_vertex[s][v] */
  uint32_t omega, core[FUZZ_N];
} fuzz_truth;

static void fuzz_cliques(fuzz_truth *t, uint32_t clique, uint32_t size, uint32_t cand) {
  uint32_t v;
  t->count[size]++;
  for (v = 0; v < FUZZ_N; ++v)
    if (clique >> v & 1) t->per_vertex[size][v]++;
  if (size > t->omega) t->omega = size;
  while (cand) {
    v = (uint32_t)__builtin_ctz(cand);
    cand &= cand - 1;
    fuzz_cliques(t, clique | 1u << v, size + 1, cand & t->adj[v]);
  }
}

static void fuzz_truth_of(const gclq_graph *g, fuzz_truth *t) {
  uint32_t n = g->num_vertices, v, alive, k = 0;
  uint64_t e;
  memset(t, 0, sizeof *t);
  for (v = 0; v < n; ++v)
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) t->adj[v] |= 1u << g->h_neighbors[e];
  fuzz_cliques(t, 0, 0, (1u << n) - 1);
  /* core numbers: peel a vertex of least degree; core = the largest k seen */
  alive = (1u << n) - 1;
  while (alive) {
    uint32_t best = 0, bd = 99;
    for (v = 0; v < n; ++v)
      if (alive >> v & 1 && (uint32_t)__builtin_popcount(t->adj[v] & alive) < bd)
        best = v, bd = (uint32_t)__builtin_popcount(t->adj[v] & alive);
    if (bd > k) k = bd;
    t->core[best] = k;
    alive &= ~(1u << best);
  }
}

/* The compact id of a reported file id (ids: 5v + 2 when the graph has them). */
static uint32_t fuzz_compact(const gclq_graph *g, uint64_t id) {
  return (uint32_t)(g->h_original_ids ? (id - 2) / 5 : id);
}

/* rows: count rows of k file ids each: each a clique, ascending, the rows
   in strictly increasing lexicographic order. */
static void fuzz_check_rows(const gclq_graph *g, const fuzz_truth *t, const uint64_t *rows, uint64_t count, uint32_t k) {
  uint64_t i;
  uint32_t a, b;
  for (i = 0; i < count; ++i) {
    const uint64_t *row = rows + i * k;
    for (a = 0; a < k; ++a) {
      FUZZ_CHECK(fuzz_compact(g, row[a]) < g->num_vertices);
      if (a) FUZZ_CHECK(row[a - 1] < row[a]);
      for (b = 0; b < a; ++b) FUZZ_CHECK(t->adj[fuzz_compact(g, row[a])] >> fuzz_compact(g, row[b]) & 1);
    }
    if (i) { /* strictly after the row before it */
      const uint64_t *prev = row - k;
      for (a = 0; a < k && prev[a] == row[a]; ++a) {
      }
      FUZZ_CHECK(a < k && prev[a] < row[a]);
    }
  }
}

static void fuzz_kcliques(const gclq_graph *g, const fuzz_verdict *k, const fuzz_truth *t, fuzz_in *in) {
  gclq_kclique_options o;
  gclq_kclique_result r;
  gclq_status st;
  uint8_t b = fuzz_take(in);
  uint32_t i, v;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  o.method = (gclq_kclique_method)(b % 3); /* AUTO, ORDERED, PIVOT */
  o.orientation = (gclq_orient_by)(b / 3 % 3);
  o.all = b / 9 % 2;
  if (!o.all) {
    o.k = 3 + fuzz_take(in) % 4;
    o.per_vertex = b / 18 % 2;
    o.max_stored = b / 36 % 4 * 3;
  }
  memset(&r, 0xab, sizeof r);
  st = gclq_kcliques(g, &o, &r);
  if (!k->valid) {
    FUZZ_CHECK(st == GCLQ_ERROR_INVALID_ARGUMENT && fuzz_zeroed(&r, sizeof r));
    o.backend = GCLQ_BACKEND_CUDA;
    memset(&r, 0xab, sizeof r);
    FUZZ_CHECK(gclq_kcliques(g, &o, &r) == fuzz_cuda_want(k) && fuzz_zeroed(&r, sizeof r));
    return;
  }
  FUZZ_CHECK(st == GCLQ_SUCCESS);
  if (o.all) {
    FUZZ_CHECK(r.k_first == 3 && r.num_k == (t->omega >= 3 ? t->omega - 2 : 0));
    FUZZ_CHECK(r.omega == t->omega);
    for (i = 0; i < r.num_k; ++i) FUZZ_CHECK(r.h_counts[i] == t->count[3 + i] && r.h_status[i] == GCLQ_SUCCESS);
  } else {
    uint64_t want = o.max_stored < t->count[o.k] ? o.max_stored : t->count[o.k];
    FUZZ_CHECK(r.k_first == o.k && r.num_k == 1 && r.h_counts[0] == t->count[o.k]);
    FUZZ_CHECK(o.per_vertex ? r.h_per_vertex != NULL : r.h_per_vertex == NULL);
    for (v = 0; o.per_vertex && v < g->num_vertices; ++v) FUZZ_CHECK(r.h_per_vertex[v] == t->per_vertex[o.k][v]);
    FUZZ_CHECK(r.stored == want);
    fuzz_check_rows(g, t, r.h_cliques, r.stored, o.k);
  }
  gclq_kclique_result_free(&r);
}

static void fuzz_max_cliques(const gclq_graph *g, const fuzz_verdict *k, const fuzz_truth *t, fuzz_in *in) {
  gclq_maxclique_options o;
  gclq_maxclique_result r;
  gclq_status st;
  uint8_t b = fuzz_take(in);
  uint64_t count, want;
  gclq_maxclique_options_defaults(&o);
  o.backend = GCLQ_BACKEND_HOST;
  o.mode = (gclq_maxclique_mode)(b & 1);
  o.max_stored = b / 2 % 4;
  memset(&r, 0xab, sizeof r);
  st = gclq_max_cliques(g, &o, &r);
  if (!k->valid) {
    FUZZ_CHECK(st == GCLQ_ERROR_INVALID_ARGUMENT && fuzz_zeroed(&r, sizeof r));
    o.backend = GCLQ_BACKEND_CUDA;
    memset(&r, 0xab, sizeof r);
    FUZZ_CHECK(gclq_max_cliques(g, &o, &r) == fuzz_cuda_want(k) && fuzz_zeroed(&r, sizeof r));
    return;
  }
  FUZZ_CHECK(st == GCLQ_SUCCESS);
  count = g->num_vertices == 0 ? 0 : o.mode == GCLQ_MODE_ONE ? 1 : t->count[t->omega];
  want = o.max_stored && o.max_stored < count ? o.max_stored : count;
  FUZZ_CHECK(r.omega == t->omega && r.count == count && r.stored == want);
  fuzz_check_rows(g, t, r.h_cliques, r.stored, r.omega);
  gclq_maxclique_result_free(&r);
}

/* Core numbers (HOST, and CUDA refused) and the degeneracy order. */
static void fuzz_cores(const gclq_graph *g, const fuzz_verdict *k, const fuzz_truth *t, fuzz_in *in) {
  uint32_t n = g->num_vertices, *core, *order, *pos, max_core = 0, best = 0, v, later;
  uint64_t e;
  int pass_null = fuzz_take(in) & 1;
  core = (uint32_t *)malloc((size_t)n * sizeof(uint32_t) + 1);
  order = (uint32_t *)malloc((size_t)n * sizeof(uint32_t) + 1);
  pos = (uint32_t *)malloc((size_t)n * sizeof(uint32_t) + 1);
  FUZZ_CHECK(core && order && pos);
  if (!k->valid) {
    FUZZ_CHECK(gclq_core_numbers(g, GCLQ_BACKEND_HOST, core, &max_core) == GCLQ_ERROR_INVALID_ARGUMENT);
    FUZZ_CHECK(gclq_core_numbers(g, GCLQ_BACKEND_CUDA, core, &max_core) == fuzz_cuda_want(k));
    FUZZ_CHECK(gclq_core_numbers(g, GCLQ_BACKEND_AUTO, NULL, NULL) == GCLQ_ERROR_INVALID_ARGUMENT);
    FUZZ_CHECK(gclq_degeneracy_order(g, order) == GCLQ_ERROR_INVALID_ARGUMENT);
  } else {
    FUZZ_CHECK(gclq_core_numbers(g, GCLQ_BACKEND_HOST, pass_null ? NULL : core, &max_core) == GCLQ_SUCCESS);
    FUZZ_CHECK(gclq_core_numbers(g, GCLQ_BACKEND_CUDA, core, NULL) == GCLQ_ERROR_BACKEND_UNAVAILABLE);
    FUZZ_CHECK(gclq_core_numbers(g, GCLQ_BACKEND_HOST, core, NULL) == GCLQ_SUCCESS);
    for (v = 0; v < n; ++v) {
      FUZZ_CHECK(core[v] == t->core[v]);
      if (core[v] > best) best = core[v];
    }
    FUZZ_CHECK(max_core == best);
    FUZZ_CHECK(gclq_degeneracy_order(g, order) == GCLQ_SUCCESS);
    for (v = 0; v < n; ++v) pos[v] = n;
    for (v = 0; v < n; ++v) {
      FUZZ_CHECK(order[v] < n && pos[order[v]] == n); /* a permutation */
      pos[order[v]] = v;
      if (v) FUZZ_CHECK(core[order[v - 1]] <= core[order[v]]);
    }
    for (v = 0; v < n; ++v) {
      for (later = 0, e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) later += pos[g->h_neighbors[e]] > pos[v];
      FUZZ_CHECK(later <= core[v]);
    }
  }
  free(core);
  free(order);
  free(pos);
}

/* The number of ids in both lists a and b of g (a valid shape: sorted, in range). */
static uint32_t fuzz_common(const gclq_graph *g, uint32_t a, uint32_t b) {
  uint32_t ra = 0, rb = 0;
  uint64_t e;
  for (e = g->h_offsets[a]; e < g->h_offsets[a + 1]; ++e) ra |= 1u << g->h_neighbors[e];
  for (e = g->h_offsets[b]; e < g->h_offsets[b + 1]; ++e) rb |= 1u << g->h_neighbors[e];
  return (uint32_t)__builtin_popcount(ra & rb);
}

/* The sets view of the adjacency lists (the shape is all it needs: a
   one-sided edge still makes sorted sets) and its HOST intersections. */
static void fuzz_sets_view(const gclq_graph *g, const fuzz_verdict *k, fuzz_in *in) {
  gclq_sets s;
  gclq_intersect_options o;
  gclq_intersect_result r;
  gclq_status st;
  uint32_t n = g->num_vertices, a, b;
  uint64_t p = 0;
  memset(&s, 0xab, sizeof s);
  st = gclq_sets_from_graph(g, &s);
  if (!k->shape) {
    FUZZ_CHECK(st == GCLQ_ERROR_INVALID_ARGUMENT && fuzz_zeroed(&s, sizeof s));
    return;
  }
  FUZZ_CHECK(st == GCLQ_SUCCESS && s.is_view && s.num_sets == n && s.total == 2 * g->num_edges);
  if (n == 0) return;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  o.materialise = fuzz_take(in) & 1;
  a = fuzz_take(in) % n, b = fuzz_take(in) % n;
  FUZZ_CHECK(gclq_intersect_pair(&s, a, b, &o, &r) == GCLQ_SUCCESS);
  FUZZ_CHECK(r.num_pairs == 1 && r.h_counts[0] == fuzz_common(g, a, b));
  gclq_intersect_result_free(&r);
  if (n >= 2) {
    o.materialise = 0;
    FUZZ_CHECK(gclq_intersect_all(&s, &o, &r) == GCLQ_SUCCESS);
    for (a = 0; a < n; ++a)
      for (b = a + 1; b < n; ++b) FUZZ_CHECK(r.h_counts[p++] == fuzz_common(g, a, b));
    gclq_intersect_result_free(&r);
  }
  gclq_sets_free(&s);
}

/* Embedding tables on the graph: the rows of each level against counts
   from the adjacency (vertices, edges, connected triples; edges, pairs of
   edges that meet), the triples' patterns aggregated (triangles, open
   wedges), the triangles' support (the vertices on one), and the last
   level again in task blocks of 1 .. 4 parents. */
static void fuzz_tables(const gclq_graph *g, const fuzz_truth *t, uint64_t wedges) {
  const uint64_t T = t->count[3];
  gclq_emb_options o;
  gclq_emb_table *et;
  gclq_emb_patterns p;
  uint64_t on_triangle = 0, at, blocked = 0, i;
  uint32_t v, kind;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_CUDA; /* a build without nvcc has none */
  et = (gclq_emb_table *)&o;
  FUZZ_CHECK(gclq_emb_create(g, &o, &et) == GCLQ_ERROR_BACKEND_UNAVAILABLE && et == NULL);
  o.backend = GCLQ_BACKEND_AUTO;
  for (v = 0; v < g->num_vertices; ++v) { /* on a triangle: two neighbours adjacent */
    uint32_t a, hit = 0;
    for (a = 0; a < g->num_vertices && !hit; ++a)
      if (t->adj[v] >> a & 1) hit = (t->adj[a] & t->adj[v]) != 0;
    on_triangle += hit;
  }
  for (kind = 0; kind < 2; ++kind) {
    o.kind = (gclq_emb_kind)kind;
    FUZZ_CHECK(gclq_emb_create(g, &o, &et) == GCLQ_SUCCESS);
    FUZZ_CHECK(gclq_emb_rows(et, 0) == (kind == 0 ? g->num_vertices : g->num_edges));
    FUZZ_CHECK(gclq_emb_extend(et, 0, UINT64_MAX) == GCLQ_SUCCESS);
    FUZZ_CHECK(gclq_emb_rows(et, 1) == (kind == 0 ? g->num_edges : wedges));
    if (kind == 0) {
      FUZZ_CHECK(gclq_emb_extend(et, 0, UINT64_MAX) == GCLQ_SUCCESS);
      FUZZ_CHECK(gclq_emb_rows(et, 2) == wedges - 2 * T);
      memset(&p, 0, sizeof p);
      FUZZ_CHECK(gclq_emb_aggregate(et, 1, &p) == GCLQ_SUCCESS);
      FUZZ_CHECK(p.num_patterns == (T > 0) + (wedges > 3 * T));
      for (i = 0; i < p.num_patterns; ++i) {
        const int tri = p.h_patterns[i].num_edges == 3;
        FUZZ_CHECK(p.h_patterns[i].count == (tri ? T : wedges - 3 * T));
        if (tri) FUZZ_CHECK(p.h_patterns[i].support == on_triangle);
      }
      gclq_emb_patterns_free(&p);
      FUZZ_CHECK(gclq_emb_pop(et) == GCLQ_SUCCESS);
      for (at = 0; at < gclq_emb_rows(et, 1); at += 1 + at % 4) { /* blocks of 1 .. 4 parents */
        FUZZ_CHECK(gclq_emb_extend(et, at, 1 + at % 4) == GCLQ_SUCCESS);
        blocked += gclq_emb_rows(et, 2);
        FUZZ_CHECK(gclq_emb_pop(et) == GCLQ_SUCCESS);
      }
      FUZZ_CHECK(blocked == wedges - 2 * T);
      /* level 2 again from an empty one, blocks of 1 .. 3 parents appended */
      FUZZ_CHECK(gclq_emb_extend(et, 0, 0) == GCLQ_SUCCESS && gclq_emb_rows(et, 2) == 0);
      for (at = 0; at < gclq_emb_rows(et, 1); at += 1 + at % 3)
        FUZZ_CHECK(gclq_emb_extend_append(et, at, 1 + at % 3, NULL) == GCLQ_SUCCESS);
      FUZZ_CHECK(gclq_emb_rows(et, 2) == wedges - 2 * T);
    }
    gclq_emb_free(et);
  }
}

/* Pattern mining on the graph (HOST): motifs of 3 vertices, a small query
   matched in it, the graph itself as a query, and FPM up to two edges, each
   against brute force over the adjacency bitmasks; a broken graph is
   INVALID_ARGUMENT everywhere (as data and as query). */
static void fuzz_mining(const gclq_graph *g, const fuzz_verdict *k, const fuzz_truth *t, fuzz_in *in) {
  static const uint64_t qa[3] = {0, 1, 2}, qb[3] = {1, 2, 0};
  const uint32_t n = g->num_vertices, q = 2 + fuzz_take(in) % 2, closed = q == 3 && (fuzz_take(in) & 1);
  uint64_t wedges = 0, nonisolated = 0, centres = 0, leaves = 0, want;
  uint32_t v, u, mark = 0;
  gclq_graph query;
  gclq_motif_result mr;
  gclq_match_result r;
  gclq_match_options mo;
  gclq_fpm_options fo;
  gclq_fpm_result fr;
  memset(&mo, 0, sizeof mo);
  memset(&fo, 0, sizeof fo);
  fo.min_support = 1, fo.max_edges = 2;
  /* an edge, a wedge or a triangle */
  FUZZ_CHECK(gclq_graph_from_edges(qa, qb, q == 2 ? 1 : closed ? 3 : 2, &query) == GCLQ_SUCCESS);
  memset(&mr, 0xab, sizeof mr);
  memset(&r, 0xab, sizeof r);
  memset(&fr, 0xab, sizeof fr);
  if (!k->valid) {
    FUZZ_CHECK(gclq_motifs(g, 3, NULL, &mr) == GCLQ_ERROR_INVALID_ARGUMENT && fuzz_zeroed(&mr, sizeof mr));
    FUZZ_CHECK(gclq_match(g, &query, &mo, &r) == GCLQ_ERROR_INVALID_ARGUMENT && r.count == 0 && r.message[0]);
    FUZZ_CHECK(gclq_match(&query, g, &mo, &r) == GCLQ_ERROR_INVALID_ARGUMENT && r.h_matches == NULL);
    FUZZ_CHECK(gclq_fpm(g, &fo, &fr) == GCLQ_ERROR_INVALID_ARGUMENT && fr.h_patterns == NULL);
    {
      gclq_emb_table *et = (gclq_emb_table *)&mr; /* poison: create sets it */
      FUZZ_CHECK(gclq_emb_create(g, NULL, &et) == GCLQ_ERROR_INVALID_ARGUMENT && et == NULL);
    }
    gclq_graph_free(&query);
    return;
  }
  for (v = 0; v < n; ++v) {
    const uint64_t d = (uint64_t)__builtin_popcount(t->adj[v]);
    wedges += d * (d - (d > 0)) / 2;
    nonisolated += d > 0;
    if (d >= 2) centres++, mark |= t->adj[v];
  }
  for (u = 0; u < n; ++u) leaves += mark >> u & 1;
  FUZZ_CHECK(gclq_motifs(g, 3, NULL, &mr) == GCLQ_SUCCESS);
  FUZZ_CHECK(mr.counts[0] == t->count[3] && mr.counts[1] == wedges - 3 * t->count[3]);
  { /* 4 vertices: counting (AUTO) and enumerating agree, and the 4-cliques are the truth's */
    gclq_motif_result me;
    gclq_motif_options oe;
    memset(&oe, 0, sizeof oe);
    oe.method = GCLQ_MOTIF_ENUMERATE;
    FUZZ_CHECK(gclq_motifs(g, 4, NULL, &mr) == GCLQ_SUCCESS && mr.method == GCLQ_MOTIF_COUNT);
    FUZZ_CHECK(gclq_motifs(g, 4, &oe, &me) == GCLQ_SUCCESS && me.method == GCLQ_MOTIF_ENUMERATE);
    FUZZ_CHECK(memcmp(mr.counts, me.counts, sizeof mr.counts) == 0 && mr.subgraphs == me.subgraphs);
    FUZZ_CHECK(mr.counts[5] == t->count[4]);
  }
  mo.mode = (gclq_match_mode)(fuzz_take(in) % 4);
  FUZZ_CHECK(gclq_match(g, &query, &mo, &r) == GCLQ_SUCCESS);
  if (q == 2) want = mo.mode >= GCLQ_MATCH_EMBEDDINGS ? 2 * g->num_edges : g->num_edges;
  else if (closed) want = (mo.mode >= GCLQ_MATCH_EMBEDDINGS ? 6 : 1) * t->count[3];
  else if (mo.mode == GCLQ_MATCH_VERTEX_INDUCED) want = wedges - 3 * t->count[3];
  else if (mo.mode == GCLQ_MATCH_EDGE_INDUCED) want = wedges;
  else if (mo.mode == GCLQ_MATCH_EMBEDDINGS) want = 2 * wedges;
  else { /* homomorphisms of a wedge: a centre and two neighbours, equal or not */
    want = 0;
    for (v = 0; v < n; ++v) want += (uint64_t)__builtin_popcount(t->adj[v]) * __builtin_popcount(t->adj[v]);
  }
  FUZZ_CHECK(r.count == want);
  gclq_match_result_free(&r);
  /* the graph as the query: refused when empty, over 10 vertices or not connected */
  {
    const gclq_status st = gclq_match(&query, g, &mo, &r);
    int connected = n > 0;
    uint32_t seen = 1, grew = 1;
    while (connected && grew)
      for (grew = 0, v = 0; v < n; ++v)
        if (seen >> v & 1 && (t->adj[v] & ~seen)) seen |= t->adj[v], grew = 1;
    connected = connected && seen == (1u << n) - 1;
    FUZZ_CHECK(n > 0 && n <= GCLQ_MATCH_MAX_QUERY && connected ? st == GCLQ_SUCCESS : st == GCLQ_ERROR_INVALID_ARGUMENT);
    gclq_match_result_free(&r);
  }
  /* FPM up to two edges, unlabelled: the edge (support: the vertices with
     an edge) and the wedge (the fewer of its centres and its leaves) */
  FUZZ_CHECK(gclq_fpm(g, &fo, &fr) == GCLQ_SUCCESS);
  FUZZ_CHECK(fr.num_patterns == (g->num_edges > 0) + (centres > 0));
  if (g->num_edges > 0) FUZZ_CHECK(fr.h_patterns[0].num_edges == 1 && fr.h_patterns[0].support == nonisolated);
  if (centres > 0) FUZZ_CHECK(fr.h_patterns[1].num_edges == 2 && fr.h_patterns[1].support == (centres < leaves ? centres : leaves));
  gclq_fpm_result_free(&fr);
  gclq_graph_free(&query);
  fuzz_tables(g, t, wedges);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_in in;
  fuzz_csr c;
  fuzz_truth t;
  gclq_graph g;
  uint64_t *off, *ids = NULL, nb;
  uint32_t *nbr, i, muts;
  uint8_t ctl;
  fuzz_verdict k;
  in.p = data, in.n = size;
  ctl = fuzz_take(&in);
  memset(&c, 0, sizeof c);
  c.n = c.n_alloc = fuzz_take(&in) % (FUZZ_N + 1);
  if (ctl & 1) {
    fuzz_build_raw(&in, &c);
  } else {
    fuzz_build_edges(&in, &c);
    for (muts = ctl >> 1 & 3, i = 0; i < muts; ++i) fuzz_mutate(&in, &c);
  }
  /* the caller's arrays, exactly as long as it says: n + 1 offsets (of the
     n it started with), as many neighbours as the last offset claims */
  off = (uint64_t *)malloc(((size_t)c.n_alloc + 1) * sizeof(uint64_t));
  nb = c.off[c.n] <= 4096 && c.off[c.n] > c.len ? c.off[c.n] : c.len;
  nbr = (uint32_t *)malloc((size_t)nb * sizeof(uint32_t) + (nb == 0));
  FUZZ_CHECK(off && nbr);
  memcpy(off, c.off, ((size_t)c.n_alloc + 1) * sizeof(uint64_t));
  memcpy(nbr, c.nbr, (size_t)c.len * sizeof(uint32_t));
  for (i = c.len; i < nb; ++i) nbr[i] = fuzz_take(&in) % (c.n + 2);
  memset(&g, 0, sizeof g);
  g.num_vertices = c.n, g.num_edges = c.m, g.h_offsets = off, g.h_neighbors = nbr;
  if ((ctl >> 3 & 7) == 7) g.h_offsets = NULL;
  if ((ctl >> 3 & 7) == 6) g.h_neighbors = NULL;
  if (ctl & 0x40 && c.n) {
    ids = (uint64_t *)malloc((size_t)c.n * sizeof(uint64_t));
    FUZZ_CHECK(ids);
    for (i = 0; i < c.n; ++i) ids[i] = 5 * (uint64_t)i + 2;
    g.h_original_ids = ids;
  }
  k.valid = fuzz_reference_valid(&g, &k.shape);
  FUZZ_CHECK(gclq__host_graph_ok(&g) == k.shape);
  FUZZ_CHECK((gclq__graph_check(&g) == GCLQ_SUCCESS) == k.valid);
  if (k.valid) fuzz_truth_of(&g, &t);
  else memset(&t, 0, sizeof t);
  fuzz_kcliques(&g, &k, &t, &in);
  fuzz_max_cliques(&g, &k, &t, &in);
  fuzz_cores(&g, &k, &t, &in);
  fuzz_sets_view(&g, &k, &in);
  fuzz_mining(&g, &k, &t, &in);
  free(off);
  free(nbr);
  free(ids);
  return 0;
}
