/* clique/maxclique/host.h - maximum cliques on the host: the search's
   shared constants, the HOST search (greedy lower bound, then branch and
   bound with a colouring bound over the degeneracy order), and the
   finishing step that sorts the cliques and maps them to file ids. Host
   code in the common subset of C99 and C++; the chooser (the plan both
   backends read, AUTO's rules) is clique/maxclique/choose.h, the CUDA
   search clique/maxclique/cuda.cuh, the public call
   clique/maxclique/api.h. */

/* Candidate lists longer than this are not coloured (length bound only). */
#define GCLQ__COLOUR_CAP 256u
/* A level entry whose vertex id carries this bit is a candidate only: its
   earlier siblings may take it, but it is never expanded itself (its colour
   class bounds every clique it starts below the target). Vertex ids stay
   below it (graphs of at most 2^31 - 1 vertices on the CUDA backend). */
#define GCLQ__DEAD 0x80000000u

/* ---- maximum cliques ---------------------------------------------------- */

/* The search, in three steps:

   1. Core numbers and a degeneracy order (gclq__host_core_order,
      clique/graph/host.h). A clique of size s needs every member to have
      core number >= s - 1, so with a lower bound `best` every vertex of
      core < best - 1 is out.

   2. A greedy lower bound (the paper's multi-run heuristic, the dissertation, sec. 2.4.3.2,
      by core number): from each vertex, repeatedly add the candidate of
      highest core number and keep only its neighbours. best = the largest
      clique any run finds.

   3. Exact search, one subproblem per vertex v: the cliques whose first
      vertex in the degeneracy order is v, i.e. v plus a clique among its
      later neighbours (at most core[v] of them, so every subproblem is small
      even in a large sparse graph). Each clique has one first vertex, so it
      is found in exactly one subproblem. The later neighbours become a small
      dense graph of bitsets, searched depth first: R the clique so far, P the
      candidates adjacent to all of R. P is coloured greedily (colour classes
      are independent sets, so a clique takes at most one vertex of each);
      the vertices are tried from the highest colour down, and the branch on
      the i-th vertex can reach at most |R| + colour[i] vertices. Branch on
      vertex i with P restricted to its neighbours, then drop it from P (the
      branches are disjoint, so no clique is reached twice).
      (Tomita and Seki's MCQ, with San Segundo's bitset colouring; the
      per-vertex decomposition as in PMC, Rossi et al.)

   Pruning: "enumerate all" prunes a branch when |R| + colour < best,
   strictly, so branches that could tie the best survive and every maximum
   clique is reached (once). "Find one" prunes when |R| + colour <= best: it
   only looks for something larger than what it has. A node with P empty is a
   clique that cannot grow within its branch; it is recorded when its size is
   >= best (all; > best resets the list) or > best (one). A recorded clique
   that is not maximal is always smaller than the final omega, so the reset
   removes it. */

typedef struct gclq__host_mc {
  const gclq_graph *g;
  const uint32_t *core;
  int find_one;
  int keep_cliques; /* store the vertices, or only count */
  uint64_t limit;   /* store at most this many (0: all) */
  uint64_t stored;  /* cliques in `cliques` */
  int out_of_memory;

  /* the answer so far: the best size, and that many vertices per clique */
  uint32_t best;
  uint64_t count;
  uint32_t *cliques;
  size_t cliques_cap; /* in ids */

  /* the current subproblem: k local vertices (the later neighbours of the
     seed), adjacency bitsets of `words` 64-bit words each */
  uint32_t k, words, capacity; /* capacity: the largest k the buffers hold */
  uint32_t *local_to_global;
  uint64_t *adj;       /* capacity * words_cap */
  uint64_t *pbits;     /* (capacity + 2) * words_cap: P at each depth */
  uint64_t *scratch;   /* 2 * words_cap: colouring work sets */
  uint32_t *clique;    /* R, in global ids: capacity + 1 entries */
  uint32_t *stack;     /* order and colour of P at each depth */
  size_t stack_cap;

  /* progress lines (options.log; NULL: silent) */
  void (*log)(void *user, const char *line);
  void *log_user;
  clock_t last_log;  /* processor time of the last search line */
  uint32_t source;   /* the search's position in the order */
  uint64_t nodes;    /* nodes of the search so far */
  uint64_t check_at; /* the work (nodes + sources) at which the clock is read next */
} gclq__host_mc;

/* The search's progress lines come at most this often (seconds of
   processor time). The clock is read once per GCLQ__HOST_LOG_WORK units of
   work (a source, or a node of its search): often enough for a line about
   every second however long one source takes, and rarely enough that the
   read costs nothing next to the work between two reads. */
#define GCLQ__HOST_LOG_SECONDS 1.0
#define GCLQ__HOST_LOG_WORK 16384u

/* A progress line through the log callback (nothing when there is none). */
static inline void gclq__host_mc_log(const gclq__host_mc *mc, const char *line) {
  if (mc->log != NULL) mc->log(mc->log_user, line);
}

/* The search's line (at mc->source) when GCLQ__HOST_LOG_SECONDS have
   passed since the last one. The search calls it once its work (nodes +
   sources) reaches mc->check_at. */
static void gclq__host_mc_progress(gclq__host_mc *mc) {
  char line[192];
  clock_t now;
  const uint32_t n = mc->g->num_vertices;
  mc->check_at = mc->log != NULL ? mc->nodes + mc->source + GCLQ__HOST_LOG_WORK : UINT64_MAX;
  if (mc->log == NULL) return;
  now = clock();
  if ((double)(now - mc->last_log) < GCLQ__HOST_LOG_SECONDS * CLOCKS_PER_SEC) return;
  mc->last_log = now;
  snprintf(line, sizeof line, "search: source %u of %u (%.0f%%), best %u, %llu cliques of that size, %llu nodes",
           mc->source, n, 100.0 * mc->source / n, mc->best, (unsigned long long)mc->count,
           (unsigned long long)mc->nodes);
  gclq__host_mc_log(mc, line);
}

/* Record R (mc->clique[0 .. size)) when it ties or beats the best ("all"),
   or beats it ("find one"). A larger R empties the list first. */
static inline void gclq__host_mc_record(gclq__host_mc *mc, uint32_t size) {
  uint32_t i, j, *dst;
  if (mc->find_one ? size <= mc->best : size < mc->best) return;
  if (size > mc->best || mc->find_one) {
    mc->best = size;
    mc->count = 0;
    mc->stored = 0;
  }
  ++mc->count;
  if (!mc->keep_cliques || (mc->limit && mc->stored >= mc->limit)) return;
  ++mc->stored;
  if ((size_t)mc->stored * size > mc->cliques_cap) {
    size_t cap = mc->cliques_cap ? 2 * mc->cliques_cap : 64 * (size_t)size;
    uint32_t *grown;
    while (cap < (size_t)mc->stored * size) cap *= 2;
    grown = (uint32_t *)GCLQ_REALLOC(mc->cliques, cap * sizeof(uint32_t));
    if (grown == NULL) {
      mc->out_of_memory = 1;
      return;
    }
    mc->cliques = grown;
    mc->cliques_cap = cap;
  }
  dst = mc->cliques + (size_t)(mc->stored - 1) * size;
  /* insertion sort into place: each clique is stored ascending */
  for (i = 0; i < size; ++i) {
    uint32_t x = mc->clique[i];
    for (j = i; j > 0 && dst[j - 1] > x; --j) dst[j] = dst[j - 1];
    dst[j] = x;
  }
}

/* Greedy colouring of P (bitset) into order[] / colour[] with colours
   non-decreasing: colour class c takes, in index order, every vertex still
   uncoloured and not adjacent to one already in class c. Returns |P|. */
static inline uint32_t gclq__host_mc_colour(gclq__host_mc *mc, const uint64_t *P, uint32_t *order,
                                            uint32_t *colour) {
  const uint32_t W = mc->words;
  uint64_t *uncoloured = mc->scratch, *open = mc->scratch + W;
  uint32_t w, n = 0, c = 0, left = 0;
  for (w = 0; w < W; ++w) {
    uncoloured[w] = P[w];
    left += gclq__host_popcount64(P[w]);
  }
  while (left > 0) {
    ++c;
    memcpy(open, uncoloured, W * sizeof(uint64_t));
    for (w = 0; w < W; ++w) {
      while (open[w]) {
        uint32_t v = 64 * w + gclq__host_ctz64(open[w]), x;
        uncoloured[w] &= ~((uint64_t)1 << (v % 64));
        for (x = w; x < W; ++x) open[x] &= ~mc->adj[(size_t)v * W + x]; /* v's neighbours leave the class */
        open[w] &= ~((uint64_t)1 << (v % 64));
        order[n] = v;
        colour[n] = c;
        ++n, --left;
      }
    }
  }
  return n;
}

/* Expand R (depth vertices, in mc->clique) with the candidates in
   P = mc->pbits + depth * words. `base` is where this depth's order and
   colour arrays start in mc->stack (offsets, not pointers: the stack may
   move when it grows). */
static inline void gclq__host_mc_expand(gclq__host_mc *mc, uint32_t depth, size_t base) {
  const uint32_t W = mc->words;
  uint64_t *P = mc->pbits + (size_t)depth * W;
  uint32_t w, np = 0, i;
  if (++mc->nodes + mc->source >= mc->check_at) gclq__host_mc_progress(mc);
  for (w = 0; w < W; ++w) np += gclq__host_popcount64(P[w]);
  if (np == 0) {
    gclq__host_mc_record(mc, depth);
    return;
  }
  if (base + 2 * (size_t)np > mc->stack_cap) {
    size_t cap = 2 * (base + 2 * (size_t)np);
    uint32_t *grown = (uint32_t *)GCLQ_REALLOC(mc->stack, cap * sizeof(uint32_t));
    if (grown == NULL) {
      mc->out_of_memory = 1;
      return;
    }
    mc->stack = grown;
    mc->stack_cap = cap;
  }
  gclq__host_mc_colour(mc, P, mc->stack + base, mc->stack + base + np);
  for (i = np; i-- > 0;) {
    uint32_t v = mc->stack[base + i], bound = depth + mc->stack[base + np + i];
    uint64_t *child = P + W;
    if (mc->find_one ? bound <= mc->best : bound < mc->best) return; /* and so for every i below */
    for (w = 0; w < W; ++w) child[w] = P[w] & mc->adj[(size_t)v * W + w];
    mc->clique[depth] = mc->local_to_global[v];
    gclq__host_mc_expand(mc, depth + 1, base + 2 * (size_t)np);
    if (mc->out_of_memory) return;
    P[v / 64] &= ~((uint64_t)1 << (v % 64));
  }
}

/* The subproblem of seed v: v and its later neighbours (rank > rank[v]) that
   can still be in a clique of size best. `slot` is an n-entry scratch map,
   all zero on entry and on return (local index + 1 of the candidates). */
static inline void gclq__host_mc_seed(gclq__host_mc *mc, uint32_t v, const uint32_t *rank, uint32_t *slot) {
  const gclq_graph *g = mc->g;
  uint32_t k = 0, i, w, need = mc->best > 0 ? mc->best - 1 : 0;
  uint64_t e;
  for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) {
    uint32_t u = g->h_neighbors[e];
    if (rank[u] > rank[v] && mc->core[u] >= need) mc->local_to_global[k++] = u;
  }
  GCLQ_ASSERT(k <= mc->capacity);
  if (mc->find_one ? k + 1 <= mc->best : k + 1 < mc->best) return;
  mc->k = k;
  mc->words = (k + 63) / 64;
  /* the local graph: bit j of row i when local i and j are adjacent */
  for (i = 0; i < k; ++i) slot[mc->local_to_global[i]] = i + 1;
  memset(mc->adj, 0, (size_t)k * mc->words * sizeof(uint64_t));
  for (i = 0; i < k; ++i) {
    uint32_t u = mc->local_to_global[i];
    for (e = g->h_offsets[u]; e < g->h_offsets[u + 1]; ++e) {
      uint32_t j = slot[g->h_neighbors[e]];
      if (j) mc->adj[(size_t)i * mc->words + (j - 1) / 64] |= (uint64_t)1 << ((j - 1) % 64);
    }
  }
  for (i = 0; i < k; ++i) slot[mc->local_to_global[i]] = 0;
  /* P = every local vertex; R = {v} */
  for (w = 0; w < mc->words; ++w) mc->pbits[mc->words + w] = 0;
  for (i = 0; i < k; ++i) mc->pbits[mc->words + i / 64] |= (uint64_t)1 << (i % 64);
  mc->clique[0] = v;
  gclq__host_mc_expand(mc, 1, 0);
}

/* Greedy lower bound from seed s (the dissertation, sec. 2.4.3): add the candidate of
   highest core number (then highest degree, then lowest id), keep only its
   neighbours, repeat. The clique goes to mc->clique; returns its size.
   cand: scratch of deg(s) entries. */
static inline uint32_t gclq__host_mc_greedy(gclq__host_mc *mc, uint32_t s, uint32_t *cand) {
  const gclq_graph *g = mc->g;
  uint32_t size = 1, nc = gclq__host_degree(g, s);
  if (nc > 0) memcpy(cand, g->h_neighbors + g->h_offsets[s], (size_t)nc * sizeof(uint32_t));
  mc->clique[0] = s;
  while (nc > 0) {
    uint32_t i, pick = cand[0];
    for (i = 1; i < nc; ++i) {
      uint32_t u = cand[i];
      if (mc->core[u] > mc->core[pick] ||
          (mc->core[u] == mc->core[pick] && gclq__host_degree(g, u) > gclq__host_degree(g, pick)))
        pick = u;
    }
    mc->clique[size++] = pick;
    nc = gclq__host_intersect(cand, nc, g->h_neighbors + g->h_offsets[pick], gclq__host_degree(g, pick), cand);
  }
  return size;
}

/* 1. The later neighbourhoods (rank: the position of each vertex in the
   degeneracy order) and the search's buffers, sized by the largest of them
   (mc->capacity <= max core) and the largest degree. Returns 0 when out of
   memory. */
static inline int gclq__host_mc_buffers(gclq__host_mc *mc, const uint32_t *order, uint32_t *rank) {
  const gclq_graph *g = mc->g;
  uint32_t n = g->num_vertices, v, i, max_degree = 0;
  size_t words_cap;
  for (i = 0; i < n; ++i) rank[order[i]] = i;
  for (v = 0; v < n; ++v) {
    uint32_t later = 0;
    uint64_t e;
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) later += rank[g->h_neighbors[e]] > rank[v];
    if (later > mc->capacity) mc->capacity = later; /* <= max_core */
    if (gclq__host_degree(g, v) > max_degree) max_degree = gclq__host_degree(g, v);
  }
  words_cap = ((size_t)mc->capacity + 63) / 64 + 1;
  mc->local_to_global = (uint32_t *)GCLQ_MALLOC(((size_t)max_degree + 1) * sizeof(uint32_t));
  mc->clique = (uint32_t *)GCLQ_MALLOC(((size_t)max_degree + 2) * sizeof(uint32_t));
  mc->adj = (uint64_t *)GCLQ_MALLOC(((size_t)mc->capacity + 1) * words_cap * sizeof(uint64_t));
  mc->pbits = (uint64_t *)GCLQ_MALLOC(((size_t)mc->capacity + 3) * words_cap * sizeof(uint64_t));
  mc->scratch = (uint64_t *)GCLQ_MALLOC(2 * words_cap * sizeof(uint64_t));
  return mc->local_to_global && mc->clique && mc->adj && mc->pbits && mc->scratch;
}

/* 2. The greedy lower bound from every vertex that could still beat it
   (the greedy clique is a clique: "find one" keeps it as its first answer;
   "enumerate all" only takes its size and finds it again in step 3); sets
   mc->best. Returns 0 when out of memory. */
static inline int gclq__host_mc_bound(gclq__host_mc *mc, const uint32_t *order) {
  uint32_t i, v, greedy_size = 0;
  for (i = mc->g->num_vertices; i-- > 0;) {
    uint32_t s = order[i]; /* highest core first */
    if (mc->core[s] + 1 <= greedy_size) continue;
    v = gclq__host_mc_greedy(mc, s, mc->local_to_global);
    if (v > greedy_size) {
      greedy_size = v;
      if (mc->find_one) {
        mc->best = 0;
        gclq__host_mc_record(mc, v);
        if (mc->out_of_memory) return 0;
      }
    }
  }
  mc->best = greedy_size; /* >= 1: there is a vertex */
  return 1;
}

/* 3. The exact search: one subproblem per vertex that might be in a clique
   of size best, in degeneracy order. Returns 0 when out of memory. */
static inline int gclq__host_mc_search(gclq__host_mc *mc, const uint32_t *order, const uint32_t *rank, uint32_t *slot) {
  uint32_t i, v, n = mc->g->num_vertices;
  memset(slot, 0, (size_t)n * sizeof(uint32_t));
  mc->last_log = clock();
  for (i = 0; i < n; ++i) {
    mc->source = i;
    if (mc->nodes + i >= mc->check_at) gclq__host_mc_progress(mc);
    v = order[i];
    if (mc->find_one ? mc->core[v] + 1 <= mc->best : mc->core[v] + 1 < mc->best) continue;
    gclq__host_mc_seed(mc, v, rank, slot);
    if (mc->out_of_memory) return 0;
  }
  return 1;
}

/* All maximum cliques of g (find_one == 0), or one of them (find_one != 0),
   with progress lines through log (may be NULL): one after the cores, one
   after the greedy bound, one every GCLQ__HOST_LOG_SECONDS of the search and
   one at its end.
     *omega    the clique number
     *count    how many maximum cliques (1 with find_one)
     *stored   how many of them are in *cliques: at most `limit` (0: all)
     *cliques  (may be NULL: count only) GCLQ_MALLOC'd, stored * omega
               compacted vertex ids (map with h_original_ids); each clique
               ascending, the cliques in lexicographic order, so two correct
               answers compare byte for byte. The caller frees it with
               GCLQ_FREE. NULL when count is 0.
   Conventions: no vertices -> omega 0, count 0; vertices but no edges ->
   omega 1 and count n (each vertex alone is a maximum clique). With
   find_one, which maximum clique comes back depends on the search order
   (not necessarily the lexicographically first); compare its size and that
   it is a clique. On failure the outputs are 0 / NULL.
     K4 plus an isolated vertex:   omega 4, count 1, cliques [0 1 2 3]
     two triangles 0-1-2, 3-4-5:   omega 3, count 2, cliques [0 1 2, 3 4 5] */
static inline gclq_status gclq__host_max_cliques_kept(const gclq_graph *g, int find_one, uint64_t limit,
                                                      void (*log)(void *user, const char *line), void *log_user,
                                                      uint32_t *omega, uint64_t *count, uint64_t *stored,
                                                      uint32_t **cliques) {
  gclq__host_mc mc;
  char line[160];
  uint32_t n, max_core = 0;
  uint32_t *order = NULL, *rank = NULL, *slot = NULL, *core = NULL;
  gclq_status status = GCLQ_SUCCESS;
  if (omega) *omega = 0;
  if (count) *count = 0;
  if (stored) *stored = 0;
  if (cliques) *cliques = NULL;
  if (!gclq__host_graph_ok(g) || omega == NULL || count == NULL || stored == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  n = g->num_vertices;
  if (n == 0) return GCLQ_SUCCESS;

  memset(&mc, 0, sizeof mc);
  mc.g = g;
  mc.find_one = find_one != 0;
  mc.keep_cliques = cliques != NULL;
  mc.limit = limit;
  mc.log = log;
  mc.log_user = log_user;
  core = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  order = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  rank = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  slot = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  if (core == NULL || order == NULL || rank == NULL || slot == NULL) goto out_of_memory;

  /* 1. core numbers, degeneracy order, the buffers */
  status = gclq__host_core_order(g, core, order, &max_core);
  if (status != GCLQ_SUCCESS) goto done;
  mc.core = core;
  snprintf(line, sizeof line, "cores: max core %u (%u vertices, %llu edges)", max_core, n,
           (unsigned long long)g->num_edges);
  gclq__host_mc_log(&mc, line);
  if (!gclq__host_mc_buffers(&mc, order, rank)) goto out_of_memory;
  /* 2. the lower bound */
  if (!gclq__host_mc_bound(&mc, order)) goto out_of_memory;
  snprintf(line, sizeof line, "heuristic: lower bound %u; max core %u", mc.best, max_core);
  gclq__host_mc_log(&mc, line);
  /* 3. the exact search */
  if (!gclq__host_mc_search(&mc, order, rank, slot)) goto out_of_memory;
  snprintf(line, sizeof line, "search: done: omega %u, %llu maximum cliques", mc.best, (unsigned long long)mc.count);
  gclq__host_mc_log(&mc, line);

  if (mc.keep_cliques && !gclq__host_sort_rows(mc.cliques, (size_t)mc.stored, mc.best)) goto out_of_memory;
  *omega = mc.best;
  *count = mc.count;
  *stored = mc.stored;
  if (cliques) {
    *cliques = mc.cliques;
    mc.cliques = NULL;
  }
  goto done;

out_of_memory:
  status = GCLQ_ERROR_OUT_OF_MEMORY;
done:
  GCLQ_FREE(core);
  GCLQ_FREE(order);
  GCLQ_FREE(rank);
  GCLQ_FREE(slot);
  GCLQ_FREE(mc.local_to_global);
  GCLQ_FREE(mc.clique);
  GCLQ_FREE(mc.adj);
  GCLQ_FREE(mc.pbits);
  GCLQ_FREE(mc.scratch);
  GCLQ_FREE(mc.stack);
  GCLQ_FREE(mc.cliques);
  return status;
}

/* ---------------------------------------------------------------------------
   Maximum cliques: the public call's host parts. The options are checked
   and resolved into a plan (clique/maxclique/choose.h); graphs without
   edges are answered by the call; otherwise a backend runs, and its
   cliques (compact ids) are sorted, each clique and then the list, and
   mapped to file ids (gclq__mc_finish, gclq__graph_rows_out).
   ------------------------------------------------------------------------- */

GCLQ_DEF void gclq_maxclique_options_defaults(gclq_maxclique_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->backend = GCLQ_BACKEND_AUTO;
  options->mode = GCLQ_MODE_ALL;
  options->heuristic = GCLQ_HEURISTIC_MULTI_DEGREE;
  options->seeds = 0;
  options->orientation = GCLQ_ORIENT_DEGREE;
  options->prune = GCLQ_PRUNE_CORE;
  options->bound = GCLQ_BOUND_COLOUR;
  options->search = GCLQ_SEARCH_BITSET;
  options->window_size = 0;
  options->window_order = GCLQ_WINDOW_ORDER_DEGREE_DESC;
  options->device_budget_bytes = 0;
}

/* The search's rows (compact ids) as the result's cliques
   (gclq__graph_rows_out). rows is consumed (freed) either way. */
static inline gclq_status gclq__mc_finish(const gclq_graph *g, uint32_t omega, uint64_t count, uint64_t stored,
                                          uint32_t *rows, gclq_maxclique_result *r) {
  r->omega = omega;
  r->count = count;
  r->stored = stored;
  return gclq__graph_rows_out(g, omega, stored, rows, &r->h_cliques);
}
