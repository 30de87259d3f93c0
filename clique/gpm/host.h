/* clique/gpm/host.h - graph pattern mining on the host: the motif
   catalogue (every connected pattern of 3, 4 and 5 vertices, named and
   ordered), the canonical table that maps any pattern of k vertices to its
   catalogue entry, and the HOST motif count (the reference of the CUDA
   mining to come; serial and plain). Host code only, in the common subset of
   C99 and C++.

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
  uint64_t lo = g->h_offsets[u], hi = g->h_offsets[u + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (g->h_neighbors[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < g->h_offsets[u + 1] && g->h_neighbors[lo] == v;
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
