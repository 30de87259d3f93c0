/* clique/gpm/table.h - the embedding table on the host (GAMMA, paper 003
   sections 4-5): levels of rows stored as a prefix tree, the extension that
   grows each connected subgraph once, the filter, and the aggregation by
   canonical pattern with minimum-image support. The reference of the CUDA
   table (clique/gpm/cuda.cuh, which keeps the pattern tables here on the
   host); serial and plain. Host code only, in the common subset of C99 and
   C++.

   Level l holds rows of l + 1 vertices (kind VERTEX) or l + 1 edges (kind
   EDGE); a row stores its newest item (a vertex id, or an edge u << 32 | v,
   u < v) and its parent's index in level l - 1.

   Each connected subgraph is grown in one order only: Arabesque's canonical
   test (Teixeira et al., "Arabesque", SOSP 2015). A sequence x_0 .. x_l
   (vertices, or edges compared as u << 32 | v, where two edges are
   neighbours when they share an end point) takes a new item w when w is
   not in it, w > x_0, and every x_j after w's first neighbour x_i in the
   sequence is below w. A passing sequence starts at the set's smallest
   item; of the orders of a connected set that keep every prefix connected,
   exactly one passes (the tests compare with brute force over every subset
   of small graphs). */

#define GCLQ__EMB_LEVELS_VERTEX GCLQ_EMB_MAX_VERTICES     /* 8 vertices */
#define GCLQ__EMB_LEVELS_EDGE (GCLQ_EMB_MAX_VERTICES - 1) /* 7 edges: at most 8 end points */

struct gclq_emb_table {
  const gclq_graph *g;
  gclq_emb_kind kind;
  uint64_t max_bytes;
  uint32_t levels;
  uint64_t n[GCLQ_EMB_MAX_VERTICES];
  uint64_t *col[GCLQ_EMB_MAX_VERTICES]; /* the newest item of each row */
  uint64_t *par[GCLQ_EMB_MAX_VERTICES]; /* the parent row (level 0: NULL) */
  void *dev; /* a CUDA table's device side (clique/gpm/cuda.cuh; col and par are NULL), or NULL */
};

static uint32_t gclq__emb_max_levels(const gclq_emb_table *t) {
  return t->kind == GCLQ_EMB_VERTEX ? GCLQ__EMB_LEVELS_VERTEX : GCLQ__EMB_LEVELS_EDGE;
}

static uint64_t gclq__emb_level_bytes(uint32_t level, uint64_t rows) {
  return rows * (level == 0 ? 8u : 16u);
}

static uint64_t gclq__emb_bytes(const gclq_emb_table *t) {
  uint64_t b = 0;
  uint32_t l;
  for (l = 0; l < t->levels; ++l) b += gclq__emb_level_bytes(l, t->n[l]);
  return b;
}

/* Row i of level: its items x_0 .. x_level into items. */
static void gclq__emb_items(const gclq_emb_table *t, uint32_t level, uint64_t i, uint64_t *items) {
  uint32_t l = level + 1;
  while (l-- > 0) {
    items[l] = t->col[l][i];
    if (l > 0) i = t->par[l][i];
  }
}

/* The vertices of an edge sequence in the order they first appear. */
static uint32_t gclq__emb_edge_vertices(const uint64_t *items, uint32_t len, uint32_t *vert) {
  uint32_t nv = 0, i, k, s;
  for (i = 0; i < len; ++i)
    for (s = 0; s < 2; ++s) {
      const uint32_t x = s == 0 ? (uint32_t)(items[i] >> 32) : (uint32_t)items[i];
      for (k = 0; k < nv && vert[k] != x; ++k) {
      }
      if (k == nv) vert[nv++] = x;
    }
  return nv;
}

static int gclq__emb_edges_touch(uint64_t a, uint64_t b) {
  const uint32_t a0 = (uint32_t)(a >> 32), a1 = (uint32_t)a, b0 = (uint32_t)(b >> 32), b1 = (uint32_t)b;
  return a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1;
}

/* Arabesque's test for w after items[0 .. len), whose first neighbour is items[i]. */
static int gclq__emb_canonical(const gclq_emb_table *t, const uint64_t *items, uint32_t len, uint32_t i, uint64_t w) {
  uint32_t j;
  if (w <= items[0]) return 0;
  for (j = 0; j < len; ++j) {
    if (items[j] == w || (j > i && items[j] > w)) return 0;
    if (j < i && (t->kind == GCLQ_EMB_VERTEX ? gclq__adjacent(t->g, (uint32_t)items[j], (uint32_t)w)
                                            : gclq__emb_edges_touch(items[j], w)))
      return 0;
  }
  return 1;
}

/* The children of one row (items[0 .. len)): their count, and when col is
   not NULL their items written there in order. */
static uint64_t gclq__emb_children(const gclq_emb_table *t, const uint64_t *items, uint32_t len, uint64_t *col) {
  const gclq_graph *g = t->g;
  uint64_t made = 0, e;
  uint32_t i, s;
  for (i = 0; i < len; ++i)
    for (s = 0; s < (t->kind == GCLQ_EMB_VERTEX ? 1u : 2u); ++s) {
      const uint32_t x = t->kind == GCLQ_EMB_VERTEX ? (uint32_t)items[i]
                         : s == 0                   ? (uint32_t)(items[i] >> 32)
                                                    : (uint32_t)items[i];
      for (e = g->h_offsets[x]; e < g->h_offsets[x + 1]; ++e) {
        const uint32_t y = g->h_neighbors[e];
        const uint64_t w = t->kind == GCLQ_EMB_VERTEX ? y
                           : x < y                    ? (uint64_t)x << 32 | y
                                                      : (uint64_t)y << 32 | x;
        if (!gclq__emb_canonical(t, items, len, i, w)) continue;
        if (col != NULL) col[made] = w;
        ++made;
      }
    }
  return made;
}

/* Level 0: every vertex, or every edge u < v. */
static gclq_status gclq__emb_level0(gclq_emb_table *t) {
  const gclq_graph *g = t->g;
  uint64_t rows = 0, e, k = 0;
  uint32_t u;
  if (t->kind == GCLQ_EMB_VERTEX) rows = g->num_vertices;
  else
    for (u = 0; u < g->num_vertices; ++u)
      for (e = g->h_offsets[u]; e < g->h_offsets[u + 1]; ++e) rows += g->h_neighbors[e] > u;
  if (t->max_bytes != 0 && gclq__emb_level_bytes(0, rows) > t->max_bytes) return GCLQ_ERROR_OUT_OF_MEMORY;
  t->col[0] = (uint64_t *)gclq__alloc_array(rows, sizeof(uint64_t));
  if (t->col[0] == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (u = 0; u < g->num_vertices; ++u) {
    if (t->kind == GCLQ_EMB_VERTEX) t->col[0][k++] = u;
    else
      for (e = g->h_offsets[u]; e < g->h_offsets[u + 1]; ++e)
        if (g->h_neighbors[e] > u) t->col[0][k++] = (uint64_t)u << 32 | g->h_neighbors[e];
  }
  t->n[0] = rows;
  t->levels = 1;
  return GCLQ_SUCCESS;
}

/* Rows [first, first + count) of the last level extended into a new one:
   children counted, the bytes checked, then written. */
static gclq_status gclq__emb_extend(gclq_emb_table *t, uint64_t first, uint64_t count) {
  const uint32_t L = t->levels - 1;
  uint64_t items[GCLQ_EMB_MAX_VERTICES], rows = 0, i, at = 0;
  uint64_t *col, *par;
  for (i = first; i < first + count; ++i) {
    gclq__emb_items(t, L, i, items);
    rows += gclq__emb_children(t, items, L + 1, NULL);
  }
  if (t->max_bytes != 0 && gclq__emb_bytes(t) + gclq__emb_level_bytes(L + 1, rows) > t->max_bytes)
    return GCLQ_ERROR_OUT_OF_MEMORY;
  col = (uint64_t *)gclq__alloc_array(rows, sizeof(uint64_t));
  par = (uint64_t *)gclq__alloc_array(rows, sizeof(uint64_t));
  if (col == NULL || par == NULL) {
    GCLQ_FREE(col);
    GCLQ_FREE(par);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (i = first; i < first + count; ++i) {
    uint64_t made, k;
    gclq__emb_items(t, L, i, items);
    made = gclq__emb_children(t, items, L + 1, col + at);
    for (k = 0; k < made; ++k) par[at + k] = i;
    at += made;
  }
  t->col[L + 1] = col;
  t->par[L + 1] = par;
  t->n[L + 1] = rows;
  t->levels = L + 2;
  return GCLQ_SUCCESS;
}

/* The last level held aside while a block of its rows is made in its
   place (gclq_emb_extend_append): its rows (HOST columns, or a CUDA
   table's device blocks and their sizes) and count. */
typedef struct gclq__emb_aside {
  uint64_t *col, *par, n;
  size_t col_held, par_held; /* CUDA: the device blocks' bytes */
} gclq__emb_aside;

/* The last level L aside (the table's last level is then L - 1). */
static void gclq__emb_set_aside(gclq_emb_table *t, gclq__emb_aside *a) {
  const uint32_t L = t->levels - 1;
  memset(a, 0, sizeof *a);
  a->col = t->col[L], a->par = t->par[L], a->n = t->n[L];
  t->col[L] = t->par[L] = NULL;
  t->n[L] = 0;
  t->levels = L;
}

/* The level aside back as the last level (the block, if any, dropped first). */
static void gclq__emb_put_back(gclq_emb_table *t, const gclq__emb_aside *a) {
  const uint32_t L = t->levels;
  t->col[L] = a->col, t->par[L] = a->par, t->n[L] = a->n;
  t->levels = L + 1;
}

/* HOST: the block (the last level) after the level aside's rows, as one
   last level; on failure nothing changed. */
static gclq_status gclq__emb_concat(gclq_emb_table *t, gclq__emb_aside *a) {
  const uint32_t L = t->levels - 1;
  const uint64_t n = a->n + t->n[L];
  uint64_t *col = (uint64_t *)GCLQ_REALLOC(a->col, (size_t)(n ? n : 1) * sizeof(uint64_t));
  uint64_t *par;
  if (col == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  a->col = col;
  par = (uint64_t *)GCLQ_REALLOC(a->par, (size_t)(n ? n : 1) * sizeof(uint64_t));
  if (par == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  a->par = par;
  if (t->n[L] > 0) {
    memcpy(col + a->n, t->col[L], (size_t)t->n[L] * sizeof(uint64_t));
    memcpy(par + a->n, t->par[L], (size_t)t->n[L] * sizeof(uint64_t));
  }
  GCLQ_FREE(t->col[L]);
  GCLQ_FREE(t->par[L]);
  t->col[L] = col, t->par[L] = par, t->n[L] = n;
  return GCLQ_SUCCESS;
}

/* The row of items[0 .. L] as a labelled pattern in the order its vertices
   joined (vert: their ids), edges as the row has them; gclq__emb_pattern:
   row i of level L. */
static void gclq__emb_pattern_items(const gclq_emb_table *t, const uint64_t *items, uint32_t L, gclq__lpat *p,
                                    uint32_t *vert) {
  uint32_t a, b;
  memset(p, 0, sizeof *p);
  if (t->kind == GCLQ_EMB_VERTEX) {
    p->v = L + 1;
    for (a = 0; a < p->v; ++a) vert[a] = (uint32_t)items[a];
    for (a = 0; a < p->v; ++a)
      for (b = a + 1; b < p->v; ++b)
        if (gclq__adjacent(t->g, vert[a], vert[b])) p->adj[a] |= 1u << b, p->adj[b] |= 1u << a, ++p->e;
  } else {
    p->v = gclq__emb_edge_vertices(items, L + 1, vert);
    p->e = L + 1;
    for (a = 0; a <= L; ++a) {
      uint32_t x = 0, y = 0;
      for (b = 0; b < p->v; ++b) {
        if (vert[b] == (uint32_t)(items[a] >> 32)) x = b;
        if (vert[b] == (uint32_t)items[a]) y = b;
      }
      p->adj[x] |= 1u << y, p->adj[y] |= 1u << x;
    }
  }
  for (a = 0; a < p->v; ++a) p->label[a] = t->g->h_labels != NULL ? t->g->h_labels[vert[a]] : 0;
}

static void gclq__emb_pattern(const gclq_emb_table *t, uint32_t L, uint64_t i, gclq__lpat *p, uint32_t *vert) {
  uint64_t items[GCLQ_EMB_MAX_VERTICES];
  gclq__emb_items(t, L, i, items);
  gclq__emb_pattern_items(t, items, L, p, vert);
}

/* ---- a map from patterns (vertices, labels, bit rows) to 64-bit values ---- */
typedef struct gclq__pat_map {
  gclq__lpat *key; /* cap of them; v == 0: empty */
  uint64_t *val;
  uint64_t n, cap;
} gclq__pat_map;

static uint64_t gclq__pat_hash(const gclq__lpat *p) {
  uint64_t h = 1469598103934665603ull ^ p->v;
  uint32_t i;
  for (i = 0; i < p->v; ++i) h = (h ^ p->label[i]) * 1099511628211ull, h = (h ^ p->adj[i]) * 1099511628211ull;
  return h ^ (h >> 29);
}

static int gclq__pat_same(const gclq__lpat *a, const gclq__lpat *b) {
  uint32_t i;
  if (a->v != b->v) return 0;
  for (i = 0; i < a->v; ++i)
    if (a->label[i] != b->label[i] || a->adj[i] != b->adj[i]) return 0;
  return 1;
}

/* The slot of p: its key, or the empty slot where it would go. */
static uint64_t gclq__pat_slot(const gclq__pat_map *m, const gclq__lpat *p) {
  uint64_t s = gclq__pat_hash(p) & (m->cap - 1);
  while (m->key[s].v != 0 && !gclq__pat_same(&m->key[s], p)) s = (s + 1) & (m->cap - 1);
  return s;
}

static int gclq__pat_find(const gclq__pat_map *m, const gclq__lpat *p, uint64_t *val) {
  uint64_t s;
  if (m->cap == 0) return 0;
  s = gclq__pat_slot(m, p);
  if (m->key[s].v == 0) return 0;
  *val = m->val[s];
  return 1;
}

/* Room for n keys (the map at most half full): 1, or 0 when growing
   failed (m unchanged). */
static int gclq__pat_reserve(gclq__pat_map *m, uint64_t n) {
  gclq__pat_map grown;
  uint64_t i, s;
  if (2 * n <= m->cap) return 1;
  grown.cap = m->cap ? m->cap : 64;
  while (grown.cap < 2 * n) grown.cap *= 2;
  grown.n = m->n;
  grown.key = (gclq__lpat *)gclq__alloc_array(grown.cap, sizeof(gclq__lpat));
  grown.val = (uint64_t *)gclq__alloc_array(grown.cap, sizeof(uint64_t));
  if (grown.key == NULL || grown.val == NULL) {
    GCLQ_FREE(grown.key);
    GCLQ_FREE(grown.val);
    return 0;
  }
  memset(grown.key, 0, (size_t)grown.cap * sizeof(gclq__lpat));
  for (i = 0; i < m->cap; ++i)
    if (m->key[i].v != 0) {
      s = gclq__pat_slot(&grown, &m->key[i]);
      grown.key[s] = m->key[i];
      grown.val[s] = m->val[i];
    }
  GCLQ_FREE(m->key);
  GCLQ_FREE(m->val);
  *m = grown;
  return 1;
}

/* key p (p->v > 0) to val: 1, or 0 when growing failed (m unchanged). */
static int gclq__pat_put(gclq__pat_map *m, const gclq__lpat *p, uint64_t val) {
  uint64_t s;
  if (!gclq__pat_reserve(m, m->n + 1)) return 0;
  s = gclq__pat_slot(m, p);
  if (m->key[s].v == 0) m->n++;
  m->key[s] = *p;
  m->val[s] = val;
  return 1;
}

static void gclq__pat_map_free(gclq__pat_map *m) {
  GCLQ_FREE(m->key);
  GCLQ_FREE(m->val);
  memset(m, 0, sizeof *m);
}

/* The canonical form of raw patterns, each worked out once: raw -> index
   into canon / from (the canonical pattern, and from[i * 8 + c]: the raw
   vertex at canonical position c). */
typedef struct gclq__emb_canon {
  gclq__pat_map raw;
  gclq__lpats canon;
  uint32_t *from;
} gclq__emb_canon;

static gclq_status gclq__emb_canon_of(gclq__emb_canon *cc, const gclq__lpat *raw, uint64_t *index) {
  gclq__lpat c = *raw;
  uint32_t from[GCLQ_EMB_MAX_VERTICES];
  if (gclq__pat_find(&cc->raw, raw, index)) return GCLQ_SUCCESS;
  gclq__lpat_canon_from(&c, from);
  c.support = 0;
  if (cc->canon.n == cc->canon.cap) { /* from grows with canon */
    const uint64_t cap = cc->canon.cap ? 2 * cc->canon.cap : 64;
    uint32_t *grown = (uint32_t *)GCLQ_REALLOC(cc->from, (size_t)cap * GCLQ_EMB_MAX_VERTICES * sizeof(uint32_t));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    cc->from = grown;
  }
  if (!gclq__lpats_push(&cc->canon, &c)) return GCLQ_ERROR_OUT_OF_MEMORY;
  memcpy(cc->from + (cc->canon.n - 1) * GCLQ_EMB_MAX_VERTICES, from, sizeof from);
  if (!gclq__pat_put(&cc->raw, raw, cc->canon.n - 1)) {
    cc->canon.n--;
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  *index = cc->canon.n - 1;
  return GCLQ_SUCCESS;
}

static void gclq__emb_canon_free(gclq__emb_canon *cc) {
  gclq__pat_map_free(&cc->raw);
  GCLQ_FREE(cc->canon.a);
  GCLQ_FREE(cc->from);
  memset(cc, 0, sizeof *cc);
}

/* ---- pattern tables ---- */
/* One pattern of a table: its canonical form, rows, the orbit of each
   vertex under its automorphisms, and per orbit the graph's vertices seen
   there (NULL until support is asked). */
typedef struct gclq__emb_slot {
  gclq__lpat p;
  uint64_t count;
  uint32_t orbit[GCLQ_EMB_MAX_VERTICES], orbits;
  uint64_t *seen;
} gclq__emb_slot;

typedef struct gclq__emb_agg {
  gclq__pat_map index; /* canonical pattern -> slot */
  gclq__emb_slot *slot;
  uint64_t n, cap;
  uint64_t words; /* bitmap words an orbit (0 until support is asked) */
} gclq__emb_agg;

/* Does map (set on the positions in placed, onto the vertices in used)
   extend to an automorphism of p? Positions from at on, in order. */
static int gclq__emb_auto(const gclq__lpat *p, uint32_t *map, uint32_t placed, uint32_t used, uint32_t at) {
  uint32_t y, j;
  while (at < p->v && ((placed >> at) & 1u)) ++at;
  if (at == p->v) return 1;
  for (y = 0; y < p->v; ++y) {
    int ok = !((used >> y) & 1u) && p->label[y] == p->label[at];
    for (j = 0; ok && j < p->v; ++j)
      if ((placed >> j) & 1u) ok = ((p->adj[at] >> j) & 1u) == ((p->adj[y] >> map[j]) & 1u);
    if (!ok) continue;
    map[at] = y;
    if (gclq__emb_auto(p, map, placed | 1u << at, used | 1u << y, at + 1)) return 1;
  }
  return 0;
}

/* The orbits of the pattern's vertices under its automorphisms (u and x
   share one when an automorphism maps u to x), numbered from 0 in the
   order of their first vertex. */
static void gclq__emb_orbits(gclq__emb_slot *s) {
  const gclq__lpat *p = &s->p;
  uint32_t u, x, map[GCLQ_EMB_MAX_VERTICES];
  s->orbits = 0;
  for (u = 0; u < p->v; ++u) s->orbit[u] = UINT32_MAX;
  for (u = 0; u < p->v; ++u) {
    if (s->orbit[u] != UINT32_MAX) continue;
    s->orbit[u] = s->orbits;
    for (x = u + 1; x < p->v; ++x) {
      if (s->orbit[x] != UINT32_MAX || p->label[x] != p->label[u]) continue;
      map[u] = x;
      if (gclq__emb_auto(p, map, 1u << u, 1u << x, 0)) s->orbit[x] = s->orbits;
    }
    s->orbits++;
  }
}

/* The slots of the canonical patterns canon[0 .. nc) in a: made for the new
   ones (with orbits, and seen bitmaps of words words an orbit when words is
   not 0), all memory taken before anything changes; slot_of[j]: canon[j]'s
   slot. On failure a is as it was. */
static gclq_status gclq__emb_agg_slots(gclq__emb_agg *a, const gclq__lpat *canon, uint64_t nc, uint64_t words,
                                       uint64_t *slot_of) {
  uint64_t j, k, at = a->n;
  for (j = 0; j < nc; ++j)
    if (!gclq__pat_find(&a->index, &canon[j], &slot_of[j])) slot_of[j] = UINT64_MAX;
  if (a->n + nc > a->cap) {
    const uint64_t cap = a->n + nc + a->cap;
    gclq__emb_slot *grown = (gclq__emb_slot *)GCLQ_REALLOC(a->slot, (size_t)cap * sizeof(gclq__emb_slot));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    a->slot = grown;
    a->cap = cap;
  }
  if (!gclq__pat_reserve(&a->index, a->n + nc)) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (j = 0; j < nc; ++j) { /* the new slots past a->n (raw forms of one pattern share one) */
    gclq__emb_slot *s;
    if (slot_of[j] != UINT64_MAX) continue;
    for (k = a->n; k < at && !gclq__pat_same(&a->slot[k].p, &canon[j]); ++k) {
    }
    slot_of[j] = k;
    if (k < at) continue;
    s = &a->slot[at++];
    memset(s, 0, sizeof *s);
    s->p = canon[j];
    gclq__emb_orbits(s);
    if (words == 0) continue;
    s->seen = (uint64_t *)gclq__alloc_array(words * s->orbits, sizeof(uint64_t));
    if (s->seen == NULL) {
      for (k = a->n; k < at; ++k) GCLQ_FREE(a->slot[k].seen);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    memset(s->seen, 0, (size_t)(words * s->orbits * sizeof(uint64_t)));
  }
  for (k = a->n; k < at; ++k) gclq__pat_put(&a->index, &a->slot[k].p, k); /* room reserved: cannot fail */
  a->n = at;
  return GCLQ_SUCCESS;
}

/* The canonical pattern of every row of the last level: index[i] into cc. */
static gclq_status gclq__emb_resolve(const gclq_emb_table *t, gclq__emb_canon *cc, uint64_t *index) {
  const uint64_t rows = t->n[t->levels - 1];
  uint32_t vert[GCLQ_EMB_MAX_VERTICES];
  uint64_t i;
  gclq_status st = GCLQ_SUCCESS;
  for (i = 0; i < rows && st == GCLQ_SUCCESS; ++i) {
    gclq__lpat raw;
    gclq__emb_pattern(t, t->levels - 1, i, &raw, vert);
    st = gclq__emb_canon_of(cc, &raw, &index[i]);
  }
  return st;
}

/* A slot's MNI support: the fewest vertices any orbit has seen. */
static uint64_t gclq__emb_slot_support(const gclq__emb_agg *a, const gclq__emb_slot *s) {
  uint64_t best = UINT64_MAX, o, w;
  if (s->seen == NULL) return 0;
  for (o = 0; o < s->orbits; ++o) {
    uint64_t c = 0;
    for (w = 0; w < a->words; ++w) c += gclq__host_popcount64(s->seen[o * a->words + w]);
    if (c < best) best = c;
  }
  return best;
}

/* A pattern and its slot, sorted in the output order (gclq__lpat_cmp). */
typedef struct gclq__emb_sorted {
  gclq__lpat p;
  uint64_t slot;
} gclq__emb_sorted;

/* The public view of a's slots into view (a->n entries, sorted; order: room
   for a->n entries). */
static void gclq__emb_view(const gclq__emb_agg *a, gclq__emb_sorted *order, gclq_emb_pattern *view) {
  uint64_t i;
  uint32_t u;
  for (i = 0; i < a->n; ++i) order[i].p = a->slot[i].p, order[i].slot = i;
  qsort(order, (size_t)a->n, sizeof *order, gclq__lpat_cmp);
  for (i = 0; i < a->n; ++i) {
    const gclq__emb_slot *s = &a->slot[order[i].slot];
    gclq_emb_pattern *o = &view[i];
    memset(o, 0, sizeof *o);
    o->num_vertices = s->p.v;
    o->num_edges = s->p.e;
    for (u = 0; u < s->p.v; ++u) o->labels[u] = s->p.label[u], o->adj[u] = s->p.adj[u];
    o->count = s->count;
    o->support = gclq__emb_slot_support(a, s);
    gclq__lpat_write_code(&s->p, o->code, sizeof o->code);
  }
}

/* Before any count changes: the slots of cc's patterns in a (*slot_of:
   cc's index -> slot) and the memory of the view to come (*order, *view);
   what it took stays with the caller to free. */
static gclq_status gclq__emb_agg_prepare(gclq__emb_agg *a, const gclq__emb_canon *cc, uint64_t words,
                                         uint64_t **slot_of, gclq__emb_sorted **order, gclq_emb_pattern **view) {
  *slot_of = (uint64_t *)gclq__alloc_array(cc->canon.n, sizeof(uint64_t));
  *order = (gclq__emb_sorted *)gclq__alloc_array(a->n + cc->canon.n, sizeof(gclq__emb_sorted));
  *view = (gclq_emb_pattern *)gclq__alloc_array(a->n + cc->canon.n, sizeof(gclq_emb_pattern));
  if (*slot_of == NULL || *order == NULL || *view == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  return gclq__emb_agg_slots(a, cc->canon.a, cc->canon.n, words, *slot_of);
}

/* a's view into view (room for a->n; order: scratch as large), then into
   pats in place of its old list; *view is taken (set to NULL). */
static void gclq__emb_publish(const gclq__emb_agg *a, gclq__emb_sorted *order, gclq_emb_pattern **view,
                              gclq_emb_patterns *pats) {
  gclq__emb_view(a, order, *view);
  GCLQ_FREE(pats->h_patterns);
  pats->h_patterns = *view;
  pats->num_patterns = a->n;
  *view = NULL;
}

/* The last level's rows added to a (and its view into pats): every row's
   canonical pattern first, then the slots and the view's memory, then the
   counts and vertex sets; on failure a and pats are as they were. */
static gclq_status gclq__emb_aggregate(const gclq_emb_table *t, int support, gclq__emb_agg *a,
                                       gclq_emb_patterns *pats) {
  const uint64_t rows = t->n[t->levels - 1];
  const uint64_t words = support ? ((uint64_t)t->g->num_vertices + 63) / 64 + 1 : 0;
  gclq__emb_canon cc;
  uint64_t *index = NULL, *slot_of = NULL, i;
  gclq__emb_sorted *order = NULL;
  gclq_emb_pattern *view = NULL;
  uint32_t vert[GCLQ_EMB_MAX_VERTICES], c;
  gclq_status st;
  if (a->n > 0 && a->words != words) return GCLQ_ERROR_INVALID_ARGUMENT; /* support asked every time or never, one graph size */
  memset(&cc, 0, sizeof cc);
  index = (uint64_t *)gclq__alloc_array(rows, sizeof(uint64_t));
  st = index == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : gclq__emb_resolve(t, &cc, index);
  if (st == GCLQ_SUCCESS) st = gclq__emb_agg_prepare(a, &cc, words, &slot_of, &order, &view);
  if (st == GCLQ_SUCCESS) {
    a->words = words;
    for (i = 0; i < rows; ++i) {
      gclq__emb_slot *s = &a->slot[slot_of[index[i]]];
      const uint32_t *from = cc.from + index[i] * GCLQ_EMB_MAX_VERTICES;
      gclq__lpat raw;
      s->count++;
      if (words == 0) continue;
      gclq__emb_pattern(t, t->levels - 1, i, &raw, vert);
      for (c = 0; c < raw.v; ++c) s->seen[s->orbit[c] * words + (vert[from[c]] >> 6)] |= 1ull << (vert[from[c]] & 63);
    }
    gclq__emb_publish(a, order, &view, pats);
  }
  GCLQ_FREE(view);
  GCLQ_FREE(order);
  GCLQ_FREE(slot_of);
  GCLQ_FREE(index);
  gclq__emb_canon_free(&cc);
  return st;
}

/* Do the vertices row i of the last level added pass the filter's label
   and degree? (EDGE: the new edge's end points not in the parent.) */
static int gclq__emb_added_ok(const gclq_emb_table *t, uint64_t i, const gclq_emb_filter *f) {
  const uint32_t L = t->levels - 1;
  uint64_t items[GCLQ_EMB_MAX_VERTICES];
  uint32_t add[2], na = 0, vert[GCLQ_EMB_MAX_VERTICES], nv = 0, k, s;
  gclq__emb_items(t, L, i, items);
  if (t->kind == GCLQ_EMB_VERTEX) add[na++] = (uint32_t)items[L];
  else {
    if (L > 0) nv = gclq__emb_edge_vertices(items, L, vert);
    for (s = 0; s < 2; ++s) {
      const uint32_t x = s == 0 ? (uint32_t)(items[L] >> 32) : (uint32_t)items[L];
      for (k = 0; k < nv && vert[k] != x; ++k) {
      }
      if (k == nv) add[na++] = x;
    }
  }
  for (k = 0; k < na; ++k) {
    const uint32_t x = add[k];
    if (t->g->h_offsets[x + 1] - t->g->h_offsets[x] < f->min_degree) return 0;
    if (f->by_label && (t->g->h_labels != NULL ? t->g->h_labels[x] : 0) != f->label) return 0;
  }
  return 1;
}

/* The last level's rows that pass f, kept in order. The patterns' test per
   distinct pattern (their slots' rows and support), then one pass. */
static gclq_status gclq__emb_filter(gclq_emb_table *t, const gclq_emb_filter *f, const gclq__emb_agg *a) {
  const uint32_t L = t->levels - 1;
  const uint64_t rows = t->n[L];
  gclq__emb_canon cc;
  uint64_t *index = NULL, i, kept = 0, slot;
  unsigned char *pass = NULL;
  gclq_status st = GCLQ_SUCCESS;
  memset(&cc, 0, sizeof cc);
  if (a != NULL) {
    index = (uint64_t *)gclq__alloc_array(rows, sizeof(uint64_t));
    st = index == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : gclq__emb_resolve(t, &cc, index);
    if (st == GCLQ_SUCCESS) pass = (unsigned char *)gclq__alloc_array(cc.canon.n, 1);
    if (st == GCLQ_SUCCESS && pass == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    for (i = 0; st == GCLQ_SUCCESS && i < cc.canon.n; ++i)
      pass[i] = gclq__pat_find(&a->index, &cc.canon.a[i], &slot) && a->slot[slot].count >= f->min_count &&
                (f->min_support == 0 || gclq__emb_slot_support(a, &a->slot[slot]) >= f->min_support);
  }
  for (i = 0; st == GCLQ_SUCCESS && i < rows; ++i) {
    if ((a != NULL && !pass[index[i]]) || !gclq__emb_added_ok(t, i, f)) continue;
    t->col[L][kept] = t->col[L][i];
    if (L > 0) t->par[L][kept] = t->par[L][i];
    ++kept;
  }
  if (st == GCLQ_SUCCESS) t->n[L] = kept;
  GCLQ_FREE(pass);
  GCLQ_FREE(index);
  gclq__emb_canon_free(&cc);
  return st;
}

static void gclq__emb_agg_free(gclq__emb_agg *a) {
  uint64_t i;
  for (i = 0; i < a->n; ++i) GCLQ_FREE(a->slot[i].seen);
  GCLQ_FREE(a->slot);
  gclq__pat_map_free(&a->index);
  GCLQ_FREE(a);
}
