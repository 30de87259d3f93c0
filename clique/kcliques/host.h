/* clique/kcliques/host.h - k-clique counting on the host: the options, the
   oriented graph, the two host methods (ORDERED, PIVOT), and the run that
   fills a result (AUTO's rules and the plan: clique/kcliques/choose.h).

   Host code in the common subset of C99 and C++. Counts are kept saturated
   at UINT64_MAX (gclq__kc_add): a count that reaches it is reported as
   GCLQ_ERROR_OVERFLOW for its k. The CUDA backend is clique/kcliques/cuda.cuh,
   the public call clique/kcliques/api.h. */
GCLQ_DEF void gclq_kclique_options_defaults(gclq_kclique_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->backend = GCLQ_BACKEND_AUTO;
  options->method = GCLQ_KCLIQUE_AUTO;
  options->k = 3;
  options->orientation = GCLQ_ORIENT_BY_DEGENERACY;
}

GCLQ_DEF const char *gclq_kclique_method_name(gclq_kclique_method method) {
  switch (method) {
    case GCLQ_KCLIQUE_AUTO: return "auto";
    case GCLQ_KCLIQUE_ORDERED: return "ordered";
    case GCLQ_KCLIQUE_PIVOT: return "pivot";
    case GCLQ_KCLIQUE_LFTJ: return "lftj";
    case GCLQ_KCLIQUE_LEVEL_JOIN: return "level-join";
    case GCLQ_KCLIQUE_GROUPED: return "grouped";
    case GCLQ_KCLIQUE_BITSET: return "bitset";
    default: return "unknown";
  }
}

GCLQ_DEF const char *gclq_orient_by_name(gclq_orient_by orientation) {
  switch (orientation) {
    case GCLQ_ORIENT_BY_DEFAULT: return "default";
    case GCLQ_ORIENT_BY_DEGREE: return "degree";
    case GCLQ_ORIENT_BY_DEGENERACY: return "degeneracy";
    default: return "unknown";
  }
}

/* a + b and a * b, saturated at UINT64_MAX (which stands for "2^64 - 1 or more") */
static inline uint64_t gclq__kc_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static inline uint64_t gclq__kc_mul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a == UINT64_MAX || b == UINT64_MAX || a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* ---- PIVOT's sums, one definition for HOST and CUDA ----
   A leaf of a pivot tree with r required and p pivot vertices stands for
   C(p, j) cliques of each size r + j. Counting one k, each leaf adds its
   C(p, k - r) from a table of binomials; counting every size, leaves are
   tallied by (r, p), r + p <= top, and the tally is summed at the end. */

/* The tally's entry (r, p): a triangle, row r holding top + 1 - r entries. */
static GCLQ__HD inline uint64_t gclq__kc_tally_at(uint32_t top, uint32_t r, uint32_t p) {
  return (uint64_t)r * (top + 1) - (uint64_t)r * (r - (r > 0)) / 2 + p;
}
static inline uint64_t gclq__kc_tally_entries(uint32_t top) { return ((uint64_t)top + 1) * (top + 2) / 2; }

/* Pascal's triangle saturated at UINT64_MAX: tab[p * cols + j] = C(p, j)
   for p < rows, j < cols. */
static inline void gclq__kc_pascal(uint64_t *tab, uint32_t rows, uint32_t cols) {
  uint32_t p, j;
  for (p = 0; p < rows; ++p)
    for (j = 0; j < cols; ++j) {
      uint64_t *at = tab + (uint64_t)p * cols + j;
      if (j == 0 || j == p) *at = 1;
      else if (j > p) *at = 0;
      else *at = gclq__kc_add(at[-(int64_t)cols], at[-(int64_t)cols - 1]);
    }
}

/* Every size: count[r + j] += tally(r, p) * C(p, j) for r + p <= top, all
   saturated (count: top + 1 entries); flagged (a tally wrapped) saturates
   every count. Pascal's rows one at a time. Returns 0 when out of memory. */
static inline int gclq__kc_combine(const uint64_t *tally, uint32_t top, int flagged, uint64_t *count) {
  uint64_t *row = (uint64_t *)gclq__alloc_array((uint64_t)top + 1, sizeof(uint64_t));
  uint32_t p, j, r, s;
  if (row == NULL) return 0;
  for (p = 0; p <= top; ++p) {
    row[p] = 1; /* row p of Pascal's triangle, from row p - 1 */
    for (j = p - 1; p > 0 && j > 0; --j) row[j] = gclq__kc_add(row[j], row[j - 1]);
    for (r = 0; r + p <= top; ++r) {
      const uint64_t t = tally[gclq__kc_tally_at(top, r, p)];
      for (j = 0; t != 0 && j <= p; ++j) count[r + j] = gclq__kc_add(count[r + j], gclq__kc_mul(t, row[j]));
    }
  }
  for (s = 0; flagged && s <= top; ++s) count[s] = UINT64_MAX;
  GCLQ_FREE(row);
  return 1;
}

/* One counting run: the oriented graph, what is counted, the work buffers. */
typedef struct gclq__kc_run {
  const gclq_graph *g;
  /* the oriented graph: out(v) = the neighbours later in the order, by id */
  uint64_t *off;
  uint32_t *out;
  uint32_t max_out, max_core;
  /* what is counted: one k (k > 0) or every size (k == 0) */
  uint32_t k;
  uint32_t top;    /* the largest size counted: k, or max_out + 1 */
  uint64_t *count; /* top + 1 entries: count[s] = s-cliques (saturated) */
  uint64_t *per_vertex;
  /* listing: rows of k compact ids, grown by doubling up to list_cap */
  uint64_t list_cap, listed, rows_cap;
  uint32_t *rows;
  int list_only;     /* an ORDERED pass that only lists, and stops when full */
  int out_of_memory; /* the rows could not grow */
  /* ORDERED: candidate lists per depth, the clique so far */
  uint32_t *cand;
  uint32_t *clique;
  /* PIVOT: the local graph of one source (bit rows), candidate bitsets per
     level, the required and pivot vertices (file order ids), binomials */
  uint32_t words;
  uint32_t *local, *slot;
  uint64_t *adj, *bits;
  uint32_t *required, *pivots;
  uint64_t *binom; /* (max_out + 1) rows of binom_cols: C(p, j), saturated */
  uint32_t binom_cols;
  uint64_t *leaves; /* every size: the tally by (req, piv), gclq__kc_tally_at(top, ..), saturated */
  uint32_t deepest; /* the largest required + pivots of a leaf (every size: omega) */
  uint64_t nodes;
  /* progress */
  void (*log)(void *user, const char *line);
  void *log_user;
  clock_t last_log;
  const char *counting; /* the method of the counting line */
  uint32_t source;      /* the source being counted */
  uint64_t check_at;    /* the nodes at which the clock is read next */
} gclq__kc_run;

static inline void gclq__kc_free(gclq__kc_run *r) {
  GCLQ_FREE(r->off);
  GCLQ_FREE(r->out);
  GCLQ_FREE(r->count);
  GCLQ_FREE(r->per_vertex);
  GCLQ_FREE(r->rows);
  GCLQ_FREE(r->cand);
  GCLQ_FREE(r->clique);
  GCLQ_FREE(r->local);
  GCLQ_FREE(r->slot);
  GCLQ_FREE(r->adj);
  GCLQ_FREE(r->bits);
  GCLQ_FREE(r->required);
  GCLQ_FREE(r->pivots);
  GCLQ_FREE(r->binom);
  GCLQ_FREE(r->leaves);
  memset(r, 0, sizeof *r);
}

static inline void gclq__kc_log(const gclq__kc_run *r, const char *line) {
  if (r->log != NULL) r->log(r->log_user, line);
}

/* The counting line (at r->source), at most one every
   GCLQ__HOST_LOG_SECONDS of processor time. The recursions call it once
   r->nodes reaches r->check_at (every source visits a node), so the clock
   is read once per GCLQ__HOST_LOG_WORK nodes (why: at GCLQ__HOST_LOG_WORK,
   clique/maxclique/host.h). */
static void gclq__kc_progress(gclq__kc_run *r) {
  char line[160];
  clock_t now;
  const uint32_t n = r->g->num_vertices;
  r->check_at = r->log != NULL ? r->nodes + GCLQ__HOST_LOG_WORK : UINT64_MAX;
  if (r->log == NULL) return;
  now = clock();
  if ((double)(now - r->last_log) < GCLQ__HOST_LOG_SECONDS * CLOCKS_PER_SEC) return;
  r->last_log = now;
  snprintf(line, sizeof line, "count (%s): source %u of %u (%.0f%%), %llu nodes", r->counting, r->source, n,
           100.0 * r->source / n, (unsigned long long)r->nodes);
  gclq__kc_log(r, line);
}

/* ---- the oriented graph ---- */

/* rank[v] = position of v in the order: the degeneracy order, or ascending
   (degree, id). Also fills r->max_core. */
static inline gclq_status gclq__kc_rank(gclq__kc_run *r, gclq_orient_by by, uint32_t *rank) {
  const gclq_graph *g = r->g;
  uint32_t n = g->num_vertices, v, *core, *order;
  gclq_status st;
  core = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  order = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  if (core == NULL || order == NULL) {
    GCLQ_FREE(core);
    GCLQ_FREE(order);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  st = gclq__host_core_order(g, core, NULL, &r->max_core);
  if (st == GCLQ_SUCCESS && by == GCLQ_ORIENT_BY_DEGENERACY) st = gclq__host_peel_order(g, core, r->max_core, order);
  if (st == GCLQ_SUCCESS && by == GCLQ_ORIENT_BY_DEGREE) {
    uint64_t *keys = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
    if (keys == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    for (v = 0; keys != NULL && v < n; ++v) keys[v] = (uint64_t)gclq__host_degree(g, v) << 32 | v;
    if (st == GCLQ_SUCCESS) st = gclq__sort_u64(keys, n);
    for (v = 0; st == GCLQ_SUCCESS && v < n; ++v) order[v] = (uint32_t)keys[v];
    GCLQ_FREE(keys);
  }
  for (v = 0; st == GCLQ_SUCCESS && v < n; ++v) rank[order[v]] = v;
  GCLQ_FREE(core);
  GCLQ_FREE(order);
  return st;
}

/* out(v): the neighbours of v of higher rank, ascending by id (r->off,
   r->out, r->max_out). */
static inline gclq_status gclq__kc_orient(gclq__kc_run *r, gclq_orient_by by) {
  const gclq_graph *g = r->g;
  uint32_t n = g->num_vertices, v, *rank;
  uint64_t e, at = 0, kept = 0;
  rank = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  r->off = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  r->out = (uint32_t *)gclq__alloc_array(g->num_edges, sizeof(uint32_t));
  if (rank == NULL || r->off == NULL || r->out == NULL) {
    GCLQ_FREE(rank);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (gclq__kc_rank(r, by, rank) != GCLQ_SUCCESS) {
    GCLQ_FREE(rank);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  r->max_out = 0;
  for (v = 0; v < n; ++v) {
    r->off[v] = at;
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) {
      if (rank[g->h_neighbors[e]] <= rank[v]) continue;
      if (kept++ < g->num_edges) r->out[at++] = g->h_neighbors[e];
    }
    if (at - r->off[v] > r->max_out) r->max_out = (uint32_t)(at - r->off[v]);
  }
  r->off[n] = at;
  GCLQ_FREE(rank);
  /* A symmetric CSR keeps each edge at exactly one end, m in all. A caller's
     CSR that passes gclq__host_graph_ok but lists an edge at one end only
     may keep another number (r->out has room for m: no more are written):
     refused, so that no method reads lists that are not the graph's. */
  return kept == g->num_edges ? GCLQ_SUCCESS : GCLQ_ERROR_INVALID_ARGUMENT;
}

static inline uint32_t gclq__kc_out_degree(const gclq__kc_run *r, uint32_t v) {
  return (uint32_t)(r->off[v + 1] - r->off[v]);
}

/* ---- ORDERED: kClist-style recursion ---- */

/* Room for twice as many listed rows (at most list_cap); 0 when out of
   memory (r->out_of_memory set). */
static inline int gclq__kc_grow_rows(gclq__kc_run *r) {
  uint64_t cap = r->rows_cap ? 2 * r->rows_cap : 64;
  uint32_t *rows;
  if (cap > r->list_cap) cap = r->list_cap;
  rows = cap > ((size_t)-1) / sizeof(uint32_t) / r->k ? NULL
                                                      : (uint32_t *)GCLQ_REALLOC(r->rows, (size_t)cap * r->k * sizeof(uint32_t));
  if (rows == NULL) {
    r->out_of_memory = 1;
    return 0;
  }
  r->rows = rows;
  r->rows_cap = cap;
  return 1;
}

/* The k-cliques made of the clique so far (d vertices) and each of its nc
   candidates: counted, credited to their vertices, listed. */
static inline void gclq__kc_ordered_leaf(gclq__kc_run *r, uint32_t d, const uint32_t *cand, uint32_t nc) {
  uint32_t i, j;
  if (!r->list_only) r->count[d + 1] = gclq__kc_add(r->count[d + 1], nc);
  if (r->per_vertex != NULL && !r->list_only) {
    for (j = 0; j < d; ++j) r->per_vertex[r->clique[j]] = gclq__kc_add(r->per_vertex[r->clique[j]], nc);
    for (i = 0; i < nc; ++i) r->per_vertex[cand[i]] = gclq__kc_add(r->per_vertex[cand[i]], 1);
  }
  for (i = 0; i < nc && r->listed < r->list_cap; ++i) {
    uint32_t *row;
    if (r->listed == r->rows_cap && !gclq__kc_grow_rows(r)) return;
    row = r->rows + r->listed++ * (size_t)(d + 1);
    for (j = 0; j < d; ++j) row[j] = r->clique[j];
    row[d] = cand[i];
  }
}

/* The clique so far is r->clique[0 .. d); cand (nc vertices, ascending ids)
   are the vertices later than all of it in the order and adjacent to all
   of it. One k: stop at depth k - 1 (the candidates complete it). Every
   size: each candidate makes a (d + 1)-clique; go on while any remain. */
static void gclq__kc_ordered(gclq__kc_run *r, uint32_t d, const uint32_t *cand, uint32_t nc) {
  uint32_t i, *next;
  if (++r->nodes >= r->check_at) gclq__kc_progress(r);
  if (nc == 0 || r->out_of_memory || (r->list_only && r->listed >= r->list_cap)) return;
  if (r->k != 0 && d + 1 == r->k) {
    gclq__kc_ordered_leaf(r, d, cand, nc);
    return;
  }
  if (r->k == 0) r->count[d + 1] = gclq__kc_add(r->count[d + 1], nc);
  next = r->cand + (size_t)d * r->max_out;
  for (i = 0; i < nc; ++i) {
    uint32_t w = cand[i], nn;
    nn = gclq__host_intersect(cand, nc, r->out + r->off[w], gclq__kc_out_degree(r, w), next);
    if (nn == 0 || (r->k != 0 && d + 1 + nn < r->k)) continue; /* too few to reach k */
    r->clique[d] = w;
    gclq__kc_ordered(r, d + 1, next, nn);
  }
}

/* Buffers of the ORDERED recursion: candidate lists for depths 1 .. top,
   the clique. */
static inline int gclq__kc_ordered_buffers(gclq__kc_run *r) {
  r->cand = (uint32_t *)gclq__alloc_array(((uint64_t)r->top + 1) * r->max_out, sizeof(uint32_t));
  r->clique = (uint32_t *)gclq__alloc_array((uint64_t)r->top + 1, sizeof(uint32_t));
  return r->cand != NULL && r->clique != NULL;
}

static inline void gclq__kc_ordered_all_sources(gclq__kc_run *r) {
  uint32_t v, n = r->g->num_vertices;
  for (v = 0; v < n; ++v) {
    if (r->list_only && r->listed >= r->list_cap) return;
    r->counting = r->list_only ? "ordered, listing" : "ordered";
    r->source = v;
    r->clique[0] = v;
    if (!r->list_only && r->k == 0) r->count[1] = gclq__kc_add(r->count[1], 1);
    gclq__kc_ordered(r, 1, r->out + r->off[v], gclq__kc_out_degree(r, v));
  }
}

/* ---- PIVOT: succinct clique trees ---- */

/* C(p, j), saturated, for p <= max_out and j < binom_cols (0 otherwise). */
static inline uint64_t gclq__kc_binom(const gclq__kc_run *r, uint32_t p, uint32_t j) {
  return j <= p && j < r->binom_cols ? r->binom[(size_t)p * r->binom_cols + j] : 0;
}

/* Pascal's triangle, rows 0 .. max_out, columns 0 .. binom_cols - 1. */
static inline int gclq__kc_binomials(gclq__kc_run *r) {
  r->binom = (uint64_t *)gclq__alloc_array(((uint64_t)r->max_out + 1) * r->binom_cols, sizeof(uint64_t));
  if (r->binom == NULL) return 0;
  gclq__kc_pascal(r->binom, r->max_out + 1, r->binom_cols);
  return 1;
}

/* A leaf: every clique of the required vertices plus any j of the pivots,
   C(p, j) of each size req + j. Counting every size, leaves are only
   tallied by (req, piv) here; gclq__kc_combine adds them up at the end. */
static inline void gclq__kc_pivot_leaf(gclq__kc_run *r, uint32_t req, uint32_t piv) {
  uint32_t j, i;
  if (req + piv > r->deepest) r->deepest = req + piv;
  if (r->k == 0) {
    uint64_t *tally = r->leaves + gclq__kc_tally_at(r->top, req, piv);
    *tally = gclq__kc_add(*tally, 1);
    return;
  }
  if (r->k < req || r->k - req > piv) return;
  j = r->k - req;
  r->count[r->k] = gclq__kc_add(r->count[r->k], gclq__kc_binom(r, piv, j));
  if (r->per_vertex == NULL) return;
  for (i = 0; i < req; ++i)
    r->per_vertex[r->required[i]] = gclq__kc_add(r->per_vertex[r->required[i]], gclq__kc_binom(r, piv, j));
  if (j == 0) return;
  for (i = 0; i < piv; ++i)
    r->per_vertex[r->pivots[i]] = gclq__kc_add(r->per_vertex[r->pivots[i]], gclq__kc_binom(r, piv - 1, j - 1));
}

/* A node of the clique tree at level t: candidates C (bitset at level t),
   req required and piv pivot vertices so far. The pivot u is the candidate
   with the most candidate neighbours; the branches are u as a pivot (its
   candidate neighbours), and each candidate w not adjacent to u as a
   required vertex (its candidate neighbours, less u and the earlier such w).
   Each clique of the subtree is then reached on exactly one path, as the
   required vertices of a leaf plus some of its pivots. A candidate adjacent
   to every other candidate would be the pivot with no other branch, again
   and again: all of them become pivots in one step. */
static void gclq__kc_pivot(gclq__kc_run *r, uint32_t t, uint32_t req, uint32_t piv);

/* The child at level t + 1 (candidates already in its bitset): a leaf is
   taken here, without the call. */
static inline void gclq__kc_pivot_child(gclq__kc_run *r, uint32_t t, uint32_t req, uint32_t piv) {
  const uint64_t *next = r->bits + (size_t)(t + 1) * 2 * r->words;
  uint32_t w;
  for (w = 0; w < r->words; ++w)
    if (next[w]) {
      gclq__kc_pivot(r, t + 1, req, piv);
      return;
    }
  ++r->nodes;
  gclq__kc_pivot_leaf(r, req, piv);
}

/* One k, no per-vertex counts, and at most two required vertices to go
   (j = k - req is 1 or 2): the node's subtree holds, for each clique Y of
   the candidates' graph, the cliques of the required vertices, Y and any
   of the pivots; so its k-cliques number C(piv, j) + size * C(piv, j - 1)
   + (j == 2: the candidates' edges), counted here without the subtree. */
static inline int gclq__kc_pivot_closes(const gclq__kc_run *r, uint32_t req) {
  return r->k != 0 && r->per_vertex == NULL && req < r->k && req + 2 >= r->k;
}
static inline void gclq__kc_pivot_close(gclq__kc_run *r, const uint64_t *C, uint32_t size, uint32_t req,
                                        uint32_t piv) {
  const uint32_t j = r->k - req, W = r->words;
  uint64_t edges = 0, sum;
  uint32_t w, i;
  if (req + piv > r->deepest) r->deepest = req + piv;
  for (w = 0; j == 2 && w < W; ++w) {
    uint64_t m = C[w];
    while (m) {
      const uint32_t x = w * 64 + gclq__host_ctz64(m);
      m &= m - 1;
      for (i = 0; i < W; ++i) edges += gclq__host_popcount64(C[i] & r->adj[(size_t)x * W + i]);
    }
  }
  sum = gclq__kc_add(gclq__kc_binom(r, piv, j), gclq__kc_mul(size, gclq__kc_binom(r, piv, j - 1)));
  sum = gclq__kc_add(sum, edges / 2);
  r->count[r->k] = gclq__kc_add(r->count[r->k], sum);
}

static void gclq__kc_pivot(gclq__kc_run *r, uint32_t t, uint32_t req, uint32_t piv) {
  uint32_t W = r->words, i, w, size = 0, best = 0, u = 0, universal = 0;
  uint64_t *C = r->bits + (size_t)t * 2 * W, *rest = C + W, *next = C + 2 * W;
  if (++r->nodes >= r->check_at) gclq__kc_progress(r);
  for (w = 0; w < W; ++w) size += gclq__host_popcount64(C[w]);
  if (r->k != 0 && (req > r->k || req + piv + size < r->k)) return;
  if (size == 0 || (r->k != 0 && req == r->k)) {
    gclq__kc_pivot_leaf(r, req, piv);
    return;
  }
  if (gclq__kc_pivot_closes(r, req)) {
    gclq__kc_pivot_close(r, C, size, req, piv);
    return;
  }
  for (w = 0; w < W; ++w) rest[w] = 0;
  for (w = 0; w < W; ++w) { /* the pivot: most neighbours among the candidates */
    uint64_t m = C[w];
    while (m) {
      uint32_t x = w * 64 + gclq__host_ctz64(m), links = 0;
      m &= m - 1;
      for (i = 0; i < W; ++i) links += gclq__host_popcount64(C[i] & r->adj[(size_t)x * W + i]);
      if (links >= best) best = links, u = x;
      if (links + 1 == size) {
        rest[w] |= (uint64_t)1 << (x % 64);
        r->pivots[piv + universal++] = r->local[x];
      }
    }
  }
  if (universal > 0) { /* every candidate adjacent to all others is a pivot */
    for (w = 0; w < W; ++w) next[w] = C[w] & ~rest[w];
    gclq__kc_pivot_child(r, t, req, piv + universal);
    return;
  }
  for (w = 0; w < W; ++w) next[w] = C[w] & r->adj[(size_t)u * W + w];
  r->pivots[piv] = r->local[u];
  gclq__kc_pivot_child(r, t, req, piv + 1);
  C[u / 64] &= ~((uint64_t)1 << (u % 64));
  for (w = 0; w < W; ++w) rest[w] = C[w] & ~r->adj[(size_t)u * W + w];
  for (w = 0; w < W; ++w) {
    while (rest[w]) {
      uint32_t x = w * 64 + gclq__host_ctz64(rest[w]);
      rest[w] &= rest[w] - 1;
      for (i = 0; i < W; ++i) next[i] = C[i] & r->adj[(size_t)x * W + i];
      r->required[req] = r->local[x];
      gclq__kc_pivot_child(r, t, req + 1, piv);
      C[x / 64] &= ~((uint64_t)1 << (x % 64));
    }
  }
}

/* The tree of source v: its out-neighbours as a local graph of bit rows
   (the oriented edges among them suffice: each joins two of them once),
   all of them candidates, v required. */
static inline void gclq__kc_pivot_source(gclq__kc_run *r, uint32_t v) {
  uint32_t d = gclq__kc_out_degree(r, v), W = (d + 63) / 64, i;
  uint64_t e;
  r->words = W > 0 ? W : 1;
  W = r->words;
  for (i = 0; i < d; ++i) {
    r->local[i] = r->out[r->off[v] + i];
    r->slot[r->local[i]] = i + 1;
  }
  memset(r->adj, 0, (size_t)d * W * sizeof(uint64_t));
  for (i = 0; i < d; ++i) {
    uint32_t x = r->local[i];
    for (e = r->off[x]; e < r->off[x + 1]; ++e) {
      uint32_t j = r->slot[r->out[e]];
      if (j == 0) continue;
      --j;
      r->adj[(size_t)i * W + j / 64] |= (uint64_t)1 << (j % 64);
      r->adj[(size_t)j * W + i / 64] |= (uint64_t)1 << (i % 64);
    }
  }
  for (i = 0; i < d; ++i) r->slot[r->local[i]] = 0;
  memset(r->bits, 0, (size_t)W * sizeof(uint64_t));
  for (i = 0; i < d; ++i) r->bits[i / 64] |= (uint64_t)1 << (i % 64);
  r->required[0] = v;
  gclq__kc_pivot(r, 0, 1, 0);
}

/* Buffers of the pivot trees: the local graph (at most max_out vertices),
   two bitsets per level (at most max_out + 2 levels), the vertex stacks,
   the binomials. */
static inline int gclq__kc_pivot_buffers(gclq__kc_run *r) {
  uint64_t W = ((uint64_t)r->max_out + 63) / 64 + 1, cap = (uint64_t)r->max_out + 2;
  r->binom_cols = r->k == 0 ? r->max_out + 1 : (r->k < r->max_out + 1 ? r->k : r->max_out + 1);
  r->local = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  r->slot = (uint32_t *)gclq__alloc_array(r->g->num_vertices, sizeof(uint32_t));
  r->adj = (uint64_t *)gclq__alloc_array(cap * W, sizeof(uint64_t));
  r->bits = (uint64_t *)gclq__alloc_array((cap + 1) * 2 * W, sizeof(uint64_t));
  r->required = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  r->pivots = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  if (!r->local || !r->slot || !r->adj || !r->bits || !r->required || !r->pivots) return 0;
  if (r->k == 0) {
    const uint64_t entries = gclq__kc_tally_entries(r->top);
    r->leaves = (uint64_t *)gclq__alloc_array(entries, sizeof(uint64_t));
    if (r->leaves == NULL) return 0;
    memset(r->leaves, 0, (size_t)entries * sizeof(uint64_t));
  }
  memset(r->slot, 0, (size_t)r->g->num_vertices * sizeof(uint32_t));
  return gclq__kc_binomials(r);
}

/* Returns 0 when out of memory (the sum of every size's tally). */
static inline int gclq__kc_pivot_all_sources(gclq__kc_run *r) {
  uint32_t v, n = r->g->num_vertices;
  r->counting = "pivot";
  for (v = 0; v < n; ++v) {
    r->source = v;
    gclq__kc_pivot_source(r, v);
  }
  return r->k != 0 || gclq__kc_combine(r->leaves, r->top, 0, r->count);
}

/* ---- the public call ---- */

/* The options (NULL: defaults), checked; a copy with the defaults filled in. */
static inline gclq_status gclq__kc_resolve(const gclq_kclique_options *o, gclq_kclique_options *p) {
  if (o == NULL) {
    gclq_kclique_options_defaults(p);
    return GCLQ_SUCCESS;
  }
  if ((int)o->backend < 0 || (int)o->backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->method < 0 || (int)o->method > (int)GCLQ_KCLIQUE_BITSET) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->orientation < 0 || (int)o->orientation > (int)GCLQ_ORIENT_BY_DEGENERACY)
    return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!o->all && (o->k == 1 || o->k == 2)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (o->all && (o->per_vertex || o->max_stored)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (o->allocator.alloc != NULL && o->allocator.free == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *p = *o;
  if (p->orientation == GCLQ_ORIENT_BY_DEFAULT) p->orientation = GCLQ_ORIENT_BY_DEGENERACY;
  if (p->k == 0) p->k = 3;
  if (p->all) p->k = 0; /* every size */
  return GCLQ_SUCCESS;
}

/* The counting buffers: count[0 .. top], per-vertex counts, listed rows. */
static inline int gclq__kc_outputs(gclq__kc_run *r, const gclq_kclique_options *p) {
  /* one k above max_out + 1 (so above omega) counts nothing: top 0 */
  r->top = r->k == 0 ? r->max_out + 1 : r->k <= r->max_out + 1 ? r->k : 0;
  r->count = (uint64_t *)gclq__alloc_array((uint64_t)r->top + 1, sizeof(uint64_t));
  if (r->count == NULL) return 0;
  memset(r->count, 0, ((size_t)r->top + 1) * sizeof(uint64_t));
  if (p->per_vertex) {
    r->per_vertex = (uint64_t *)gclq__alloc_array(r->g->num_vertices, sizeof(uint64_t));
    if (r->per_vertex == NULL) return 0;
    memset(r->per_vertex, 0, (size_t)r->g->num_vertices * sizeof(uint64_t));
  }
  if (p->max_stored && r->top != 0) r->list_cap = p->max_stored;
  return 1;
}

/* Count (and list) with the chosen method; PIVOT lists by a separate
   ORDERED pass that stops when full. */
static inline gclq_status gclq__kc_count(gclq__kc_run *r, gclq_kclique_method method, gclq_kclique_stats *stats) {
  clock_t t0 = clock();
  if (r->top == 0) return GCLQ_SUCCESS; /* k > omega: nothing to visit */
  if (method == GCLQ_KCLIQUE_ORDERED) {
    if (!gclq__kc_ordered_buffers(r)) return GCLQ_ERROR_OUT_OF_MEMORY;
    gclq__kc_ordered_all_sources(r);
    stats->count_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
    return r->out_of_memory ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS;
  }
  if (!gclq__kc_pivot_buffers(r)) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (!gclq__kc_pivot_all_sources(r)) return GCLQ_ERROR_OUT_OF_MEMORY;
  stats->count_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  if (r->list_cap > 0) {
    t0 = clock();
    if (!gclq__kc_ordered_buffers(r)) return GCLQ_ERROR_OUT_OF_MEMORY;
    r->list_only = 1;
    gclq__kc_ordered_all_sources(r);
    stats->list_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  }
  return r->out_of_memory ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS;
}

/* The result's counts and statuses from the run (k_first, num_k, omega). */
static inline gclq_status gclq__kc_counts_out(const gclq__kc_run *r, gclq_kclique_method method,
                                              gclq_kclique_result *res) {
  uint32_t i, omega = 0, s;
  if (r->k == 0) {
    for (s = r->top; s >= 1 && omega == 0; --s)
      if (r->count[s] != 0) omega = s;
    if (method == GCLQ_KCLIQUE_PIVOT && r->deepest > omega) omega = r->deepest;
    if (omega == 0 && r->g->num_vertices > 0) omega = 1;
    res->omega = omega;
    res->k_first = 3;
    res->num_k = omega >= 3 ? omega - 2 : 0;
  } else {
    res->k_first = r->k;
    res->num_k = 1;
  }
  res->h_counts = (uint64_t *)gclq__alloc_array(res->num_k, sizeof(uint64_t));
  res->h_status = (gclq_status *)gclq__alloc_array(res->num_k, sizeof(gclq_status));
  if (res->h_counts == NULL || res->h_status == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < res->num_k; ++i) {
    s = res->k_first + i;
    res->h_counts[i] = s <= r->top ? r->count[s] : 0;
    res->h_status[i] = res->h_counts[i] == UINT64_MAX ? GCLQ_ERROR_OVERFLOW : GCLQ_SUCCESS;
    res->overflowed += res->h_status[i] != GCLQ_SUCCESS;
  }
  return GCLQ_SUCCESS;
}

/* The listed cliques, each ascending, the list in lexicographic order, in
   file ids (gclq__graph_rows_out, as the maximum clique search's). */
static inline gclq_status gclq__kc_cliques_out(gclq__kc_run *r, gclq_kclique_result *res) {
  uint32_t *rows = r->rows;
  gclq_status st;
  r->rows = NULL; /* consumed by gclq__graph_rows_out */
  st = gclq__graph_rows_out(r->g, r->k, r->listed, rows, &res->h_cliques);
  if (st == GCLQ_SUCCESS) res->stored = r->listed;
  return st;
}

/* The whole HOST run, into res (not yet cleaned on failure): p, planned
   (ORDERED or PIVOT) and pivot_above_core are the plan's (gclq__kc_plan,
   clique/kcliques/choose.h). The plan's one data-dependent test runs here,
   once the orientation has the max core: ORDERED gives way to PIVOT above
   pivot_above_core (AUTO's rule; UINT32_MAX otherwise). */
static inline gclq_status gclq__kc_host(const gclq_graph *g, const gclq_kclique_options *p,
                                        gclq_kclique_method planned, uint32_t pivot_above_core,
                                        gclq_kclique_result *res) {
  gclq__kc_run r;
  gclq_kclique_method method;
  gclq_status st;
  char line[200];
  clock_t t0 = clock();
  memset(&r, 0, sizeof r);
  r.g = g;
  r.k = p->k;
  r.log = p->log;
  r.log_user = p->log_user;
  r.last_log = clock();
  st = gclq__kc_orient(&r, p->orientation);
  res->stats.order_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  method = planned == GCLQ_KCLIQUE_ORDERED && r.max_core > pivot_above_core ? GCLQ_KCLIQUE_PIVOT : planned;
  res->stats.method = method;
  res->stats.max_core = r.max_core;
  res->stats.max_out_degree = r.max_out;
  if (st == GCLQ_SUCCESS) {
    snprintf(line, sizeof line, "order: %s, max core %u, max out-degree %u; counting by %s",
             gclq_orient_by_name(p->orientation), r.max_core, r.max_out, gclq_kclique_method_name(method));
    gclq__kc_log(&r, line);
    if (!gclq__kc_outputs(&r, p)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) st = gclq__kc_count(&r, method, &res->stats);
  res->stats.nodes = r.nodes;
  if (st == GCLQ_SUCCESS) st = gclq__kc_counts_out(&r, method, res);
  if (st == GCLQ_SUCCESS && r.per_vertex != NULL) {
    res->h_per_vertex = r.per_vertex;
    r.per_vertex = NULL;
  }
  if (st == GCLQ_SUCCESS && r.list_cap > 0) st = gclq__kc_cliques_out(&r, res);
  if (st == GCLQ_SUCCESS) {
    snprintf(line, sizeof line, "count: done, %llu nodes", (unsigned long long)r.nodes);
    gclq__kc_log(&r, line);
  }
  gclq__kc_free(&r);
  return st;
}
