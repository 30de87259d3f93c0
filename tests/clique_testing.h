/* clique_testing.h - test-only code of the graph half: the host references
   only tests call (core numbers alone, triangle and 4-clique counts, the
   maximum-clique wrapper without a store limit) and the host simulation of
   the CUDA breadth-first search. The device core numbers are the library's
   own gclq_core_numbers (backend CUDA).

   Include it after a private implementation of gpuclique.h (each test file
   compiles its own static copy):

     #define GPUCLIQUE_STATIC
     #define GPUCLIQUE_IMPLEMENTATION
     #include "../gpuclique.h"
     #include "clique_testing.h"

   It uses the implementation's private helpers (gclq__host_*, gclq__mc_plan,
   GCLQ_MALLOC), so it is part of the tests, never of the library. */
#ifndef TESTS_CLIQUE_TESTING_H
#define TESTS_CLIQUE_TESTING_H
#if !defined(GPUCLIQUE_IMPLEMENTATION_DONE)
#error "include clique_testing.h after the implementation of gpuclique.h"
#endif

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------
   Host references only the tests call
   ------------------------------------------------------------------------- */
/* Core numbers of every vertex (core: n entries) and the largest of them
   (max_core may be NULL). An empty graph gives max_core 0. */
static inline gclq_status gclq__host_core_numbers(const gclq_graph *g, uint32_t *core, uint32_t *max_core) {
  return gclq__host_core_order(g, core, NULL, max_core);
}

/* ---- triangles and 4-cliques -------------------------------------------- */

/* The degree orientation: keep each edge once, from the endpoint that is
   lower by (degree, id) to the higher. Out-lists stay ascending by id (they
   are filtered from sorted lists), so they can be merge-intersected, and no
   vertex has more than sqrt(2m) out-neighbours. Every clique has one order
   along this orientation, so counting oriented cliques counts each once.
   *out_offsets (n + 1) and *out_neighbors (m) are GCLQ_MALLOC'd. */
static inline int gclq__host_before(const gclq_graph *g, uint32_t u, uint32_t v) {
  uint32_t du = gclq__host_degree(g, u), dv = gclq__host_degree(g, v);
  return du < dv || (du == dv && u < v);
}
static inline gclq_status gclq__host_orient(const gclq_graph *g, uint64_t **out_offsets, uint32_t **out_neighbors,
                                            uint32_t *max_out_degree) {
  uint32_t n = g->num_vertices, v;
  uint64_t e, k = 0;
  uint64_t *off = (uint64_t *)GCLQ_MALLOC(((size_t)n + 1) * sizeof(uint64_t));
  uint32_t *nbr = (uint32_t *)GCLQ_MALLOC((size_t)(g->num_edges ? g->num_edges : 1) * sizeof(uint32_t));
  *max_out_degree = 0;
  if (off == NULL || nbr == NULL) {
    GCLQ_FREE(off);
    GCLQ_FREE(nbr);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (v = 0; v < n; ++v) {
    off[v] = k;
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e)
      if (gclq__host_before(g, v, g->h_neighbors[e])) nbr[k++] = g->h_neighbors[e];
    if (k - off[v] > *max_out_degree) *max_out_degree = (uint32_t)(k - off[v]);
  }
  off[n] = k;
  *out_offsets = off;
  *out_neighbors = nbr;
  return GCLQ_SUCCESS;
}

/* Triangles: for each oriented edge u -> v, every w in out(u) & out(v)
   closes the triangle u -> v -> w, and each triangle is seen exactly once.
     K4: 4 triangles; path 0-1-2: 0; facebook_combined: 1,612,010 */
static inline gclq_status gclq__host_count_triangles(const gclq_graph *g, uint64_t *count) {
  uint64_t *off, e, total = 0;
  uint32_t *nbr, u, max_out;
  gclq_status s;
  if (!gclq__host_graph_ok(g) || count == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *count = 0;
  s = gclq__host_orient(g, &off, &nbr, &max_out);
  if (s != GCLQ_SUCCESS) return s;
  for (u = 0; u < g->num_vertices; ++u) {
    for (e = off[u]; e < off[u + 1]; ++e) {
      uint32_t v = nbr[e];
      total += gclq__host_intersect(nbr + off[u], (uint32_t)(off[u + 1] - off[u]), nbr + off[v],
                                    (uint32_t)(off[v + 1] - off[v]), NULL);
    }
  }
  GCLQ_FREE(off);
  GCLQ_FREE(nbr);
  *count = total;
  return GCLQ_SUCCESS;
}

/* 4-cliques: for each oriented edge u -> v, S = out(u) & out(v) holds the
   third vertices; each w in S and each x in S & out(w) make u -> v -> w -> x.
     K5: 5 four-cliques; facebook_combined: 30,004,668 */
static inline gclq_status gclq__host_count_4cliques(const gclq_graph *g, uint64_t *count) {
  uint64_t *off, e, total = 0;
  uint32_t *nbr, *common, u, max_out;
  gclq_status s;
  if (!gclq__host_graph_ok(g) || count == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *count = 0;
  s = gclq__host_orient(g, &off, &nbr, &max_out);
  if (s != GCLQ_SUCCESS) return s;
  common = (uint32_t *)GCLQ_MALLOC(((size_t)max_out + 1) * sizeof(uint32_t));
  if (common == NULL) {
    GCLQ_FREE(off);
    GCLQ_FREE(nbr);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (u = 0; u < g->num_vertices; ++u) {
    for (e = off[u]; e < off[u + 1]; ++e) {
      uint32_t v = nbr[e], i;
      uint32_t ns = gclq__host_intersect(nbr + off[u], (uint32_t)(off[u + 1] - off[u]), nbr + off[v],
                                         (uint32_t)(off[v + 1] - off[v]), common);
      for (i = 0; i < ns; ++i) {
        uint32_t w = common[i];
        total += gclq__host_intersect(common, ns, nbr + off[w], (uint32_t)(off[w + 1] - off[w]), NULL);
      }
    }
  }
  GCLQ_FREE(common);
  GCLQ_FREE(off);
  GCLQ_FREE(nbr);
  *count = total;
  return GCLQ_SUCCESS;
}

/* All maximum cliques of g (find_one == 0), or one of them, with every
   clique stored (gclq__host_max_cliques_kept with no limit, no log). */
static inline gclq_status gclq__host_max_cliques(const gclq_graph *g, int find_one, uint32_t *omega, uint64_t *count,
                                                 uint32_t **cliques) {
  uint64_t stored;
  return gclq__host_max_cliques_kept(g, find_one, 0, NULL, NULL, omega, count, &stored, cliques);
}

/* The children of the first step of a level: GCLQ__FIRST_WIDTH, or the
   whole chunk when that is smaller. */
static inline uint64_t gclq__first_width(uint64_t chunk) { return GCLQ__FIRST_WIDTH < chunk ? GCLQ__FIRST_WIDTH : chunk; }

/* ---------------------------------------------------------------------------
   Host simulation of the CUDA breadth-first search (private; tests, bench and
   the design notes use it). It runs exactly what gclq__cuda_max_cliques does,
   serially: core numbers, the greedy heuristic of the plan (ties to the lowest
   id, as the device's stable sorts and first-index argmax give), the oriented
   and pre-pruned 2-clique list in the plan's source order, then the levels,
   depth first over ranges and breadth first inside one (no budget splits:
   they change the order of the work only). It reports omega, the number of
   maximum cliques, the candidates written per level and the most entries
   held at once, so that a bound can be measured on graphs that the device
   cannot finish, and checked for exactness where it is cheap.

   The bound (plan.bound):
   - LENGTH (Geil, "Tackling GPU Memory Size Limitations", Alg. 4): a parent of size k with c children is
     dropped when k + c < target; sublists sorted by (degree, id).
   - COLOUR: the children of a parent (and the out-list of a source) are
     coloured greedily (class by class, in list order: colour classes are
     independent sets, so a clique takes one vertex of each at most); the
     parent is dropped when k + colours < target; the children are written
     highest colour first. A child's own children then lie in lower colour
     classes only, as in Tomita's MCQ, so a child of colour class x starts no
     clique larger than k + x: when k + x < target it is written as a
     candidate only (GCLQ__DEAD: its earlier siblings still take it, it is
     never expanded), MCQ's per-branch prune. Lists longer than
     GCLQ__COLOUR_CAP are not coloured (length bound, list order).
   The target: best (mode ALL: a branch that can still tie survives) or
   best + 1 (mode ONE); it rises when a larger clique is recorded. */

typedef struct gclq__bfs_sim {
  uint64_t limit;       /* in: stop once this many candidates were written (0: no limit) */
  uint64_t chunk;       /* in: the most parents, and children, per step (0: GCLQ__STEP_ENTRIES) */
  int aborted;          /* out: 1 when the limit stopped it (the figures are then lower bounds) */
  uint32_t lower_bound; /* the heuristic's size */
  uint32_t omega;
  uint64_t count;       /* maximum cliques (mode ONE: 1) */
  uint64_t candidates[GCLQ__COLOUR_CAP + 8]; /* [k]: k-cliques written, k >= 2 */
  uint32_t num_levels;  /* highest k written + 1 */
  uint64_t total;       /* sum of candidates[] */
  uint64_t peak_level;  /* the largest single level (one range) */
  uint64_t peak_held;   /* the most entries of all levels held at once */
  uint64_t max_list;    /* the longest candidate list seen */
  uint64_t pair_checks; /* adjacency tests (intersections + colourings): the work */
  uint64_t steps;       /* count steps (one count, scan and total read each on the device) */
} gclq__bfs_sim;

typedef struct gclq__sim_state {
  const gclq_graph *g;
  const gclq__mc_plan *p;
  gclq__bfs_sim *out;
  const uint32_t *filter, *core;
  uint32_t best, target;
  uint64_t held;
  uint32_t **vid, **sid; /* per level */
  uint64_t *len;
  uint32_t max_levels;
  uint32_t *list, *seq, *tmp, *slot; /* list, seq, tmp: cap entries; slot: n entries, zero */
  uint32_t live; /* gclq__sim_children: how many of the children may be expanded */
  uint64_t *adj, *uncol, *open; /* cap * words, words, words */
  int oom;
} gclq__sim_state;

static inline int gclq__sim_adjacent(const gclq_graph *g, uint32_t v, uint32_t u) {
  uint64_t lo = g->h_offsets[v], hi = g->h_offsets[v + 1];
  while (lo < hi) {
    uint64_t mid = (lo + hi) / 2;
    if (g->h_neighbors[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo < g->h_offsets[v + 1] && g->h_neighbors[lo] == u;
}

/* Greedy colouring of s->list[0 .. c) (c <= cap), class by class in list
   order. s->seq gets the list positions in the order they were coloured
   (class 1 first); *low = how many of them are in classes below need.
   Returns the number of colours. */
static inline uint32_t gclq__sim_colour(gclq__sim_state *s, uint32_t c, uint32_t need, uint32_t *low) {
  const gclq_graph *g = s->g;
  uint32_t words = (c + 63) / 64, i, w, colours = 0, n = 0;
  uint64_t e;
  for (i = 0; i < c; ++i) s->slot[s->list[i]] = i + 1;
  memset(s->adj, 0, (size_t)c * words * sizeof(uint64_t));
  for (i = 0; i < c; ++i) { /* the device tests pairs; here a marker walk: the same matrix */
    for (e = g->h_offsets[s->list[i]]; e < g->h_offsets[s->list[i] + 1]; ++e) {
      uint32_t j = s->slot[g->h_neighbors[e]];
      if (j) s->adj[(size_t)i * words + (j - 1) / 64] |= (uint64_t)1 << ((j - 1) % 64);
    }
  }
  for (i = 0; i < c; ++i) s->slot[s->list[i]] = 0;
  s->out->pair_checks += (uint64_t)c * (c - 1) / 2;
  for (w = 0; w < words; ++w) s->uncol[w] = 0;
  for (i = 0; i < c; ++i) s->uncol[i / 64] |= (uint64_t)1 << (i % 64);
  *low = 0;
  while (n < c) {
    if (++colours == need) *low = n;
    memcpy(s->open, s->uncol, words * sizeof(uint64_t));
    for (w = 0; w < words; ++w) {
      while (s->open[w]) {
        uint32_t v = 64 * w + gclq__host_ctz64(s->open[w]), x;
        for (x = 0; x < words; ++x) s->open[x] &= ~s->adj[(size_t)v * words + x];
        s->open[w] &= ~((uint64_t)1 << (v % 64));
        s->uncol[w] &= ~((uint64_t)1 << (v % 64));
        s->seq[n++] = v;
      }
    }
  }
  if (colours < need) *low = c; /* every class is below need */
  return colours;
}

/* The children of a parent of size k: the candidates cand[0 .. nc) adjacent
   to v (v == ~0: all of them, a source's out-list, k = 1). Returns their
   number c, 0 when the parent is pruned; when c <= GCLQ__COLOUR_CAP they are in
   s->list[0 .. c) in output order (highest colour first under COLOUR), and
   s->live of them (a prefix) may be expanded; the rest are GCLQ__DEAD. cand
   entries may carry GCLQ__DEAD (a sibling list). */
static inline uint32_t gclq__sim_children(gclq__sim_state *s, uint32_t k, uint32_t v, const uint32_t *cand,
                                          uint64_t nc) {
  uint64_t j;
  uint32_t c = 0, i;
  for (j = 0; j < nc; ++j) {
    uint32_t u = cand[j] & ~GCLQ__DEAD;
    if ((uint64_t)k + c + (nc - j) < s->target) return 0; /* the device's early exit */
    if (v != 0xffffffffu) ++s->out->pair_checks;
    if (v == 0xffffffffu || gclq__sim_adjacent(s->g, v, u)) {
      if (c < GCLQ__COLOUR_CAP) s->list[c] = u;
      ++c;
    }
  }
  if ((uint64_t)k + c < s->target) return 0;
  if (c > s->out->max_list) s->out->max_list = c;
  s->live = c;
  if (s->p->bound != GCLQ_BOUND_LENGTH && c <= GCLQ__COLOUR_CAP) {
    uint32_t low, colours = gclq__sim_colour(s, c, s->target > k ? s->target - k : 0, &low);
    if ((uint64_t)k + colours < s->target) return 0;
    s->live = c - low;
    for (i = 0; i < c; ++i) s->tmp[i] = s->list[s->seq[c - 1 - i]]; /* highest colour first */
    memcpy(s->list, s->tmp, (size_t)c * sizeof(uint32_t));
  }
  return c;
}

/* Write the children found by gclq__sim_children (c of them) at out. */
static inline void gclq__sim_write(gclq__sim_state *s, uint32_t v, const uint32_t *cand, uint64_t nc, uint32_t c,
                                   uint32_t *out) {
  uint64_t j;
  uint32_t w = 0;
  if (c <= GCLQ__COLOUR_CAP) {
    for (w = 0; w < c; ++w) out[w] = s->list[w] | (w < s->live ? 0u : GCLQ__DEAD);
    return;
  }
  for (j = 0; j < nc && w < c; ++j)
    if (v == 0xffffffffu || gclq__sim_adjacent(s->g, v, cand[j] & ~GCLQ__DEAD)) out[w++] = cand[j] & ~GCLQ__DEAD;
}

static inline void gclq__sim_record(gclq__sim_state *s, uint32_t k, uint64_t entries) {
  int one = s->p->find_one;
  if (one ? k <= s->best : k < s->best) return;
  if (one) s->out->count = 1;
  else if (k > s->best) s->out->count = entries;
  else s->out->count += entries;
  s->best = k;
  s->target = one ? k + 1 : k;
}

static inline void gclq__sim_note(gclq__sim_state *s, uint32_t k, uint64_t total) {
  gclq__bfs_sim *o = s->out;
  if (k < sizeof o->candidates / sizeof o->candidates[0]) o->candidates[k] += total;
  if (k + 1 > o->num_levels) o->num_levels = k + 1;
  o->total += total;
  if (total > o->peak_level) o->peak_level = total;
  s->held += total;
  if (s->held > o->peak_held) o->peak_held = s->held;
  if (o->limit && o->total > o->limit) o->aborted = 1;
}

/* Parents [a, b) of level k, then their descendants: gclq__mc_expand with an
   unlimited budget. A step takes at most `chunk` parents, and of those the
   prefix whose children fit in `chunk` entries (at least one parent), so the
   search reaches the deep levels early and raises the target there. */
static inline void gclq__sim_expand(gclq__sim_state *s, uint32_t k, uint64_t a, uint64_t b) {
  const uint32_t *vid = s->vid[k], *sid = s->sid[k];
  const uint64_t len = s->len[k], chunk = s->out->chunk ? s->out->chunk : GCLQ__STEP_ENTRIES;
  if (k + 1 >= s->max_levels) { /* cannot happen: omega <= max core + 1 */
    s->oom = 1;
    return;
  }
  uint64_t width = gclq__first_width(chunk); /* children per step: narrow first, then doubling */
  uint64_t span = width; /* parents counted per step: twice the last step's take */
  while (a < b && !s->oom && !s->out->aborted) {
    uint64_t n = b - a < span ? b - a : span, i, m, total = 0, at = 0;
    uint32_t *cnt, *nv, *ns;
    ++s->out->steps;
    cnt = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
    if (cnt == NULL) {
      s->oom = 1;
      return;
    }
    s->held += n; /* the counts (8 bytes each on the device: one entry) */
    if (s->held > s->out->peak_held) s->out->peak_held = s->held;
    for (i = 0; i < n; ++i) {
      uint64_t p = a + i, e = p + 1;
      while (e < len && sid[e] == sid[p]) ++e;
      cnt[i] = vid[p] & GCLQ__DEAD ? 0 : gclq__sim_children(s, k, vid[p], vid + p + 1, e - p - 1);
    }
    for (m = 0; m < n && (m == 0 || total + cnt[m] <= width); ++m) total += cnt[m];
    span = gclq__next_span(m, chunk);
    width = width * 2 < chunk ? width * 2 : chunk;
    if (total == 0 && m == n) { /* nothing in these parents extends: final k-cliques */
      s->held -= n;
      GCLQ_FREE(cnt);
      gclq__sim_record(s, k, n);
      a += n;
      continue;
    }
    if (total == 0) { /* zero-count prefix: its parents end here, but others in this step extend */
      s->held -= n;
      GCLQ_FREE(cnt);
      a += m;
      continue;
    }
    nv = (uint32_t *)GCLQ_MALLOC((size_t)total * sizeof(uint32_t));
    ns = (uint32_t *)GCLQ_MALLOC((size_t)total * sizeof(uint32_t));
    if (nv == NULL || ns == NULL) {
      GCLQ_FREE(nv);
      GCLQ_FREE(ns);
      GCLQ_FREE(cnt);
      s->oom = 1;
      return;
    }
    for (i = 0; i < m; ++i) {
      uint64_t p = a + i, e = p + 1, j;
      if (cnt[i] == 0) continue;
      while (e < len && sid[e] == sid[p]) ++e;
      gclq__sim_children(s, k, vid[p], vid + p + 1, e - p - 1); /* the write kernel recolours */
      gclq__sim_write(s, vid[p], vid + p + 1, e - p - 1, cnt[i], nv + at);
      for (j = 0; j < cnt[i]; ++j) ns[at + j] = (uint32_t)p;
      at += cnt[i];
    }
    s->held -= n;
    GCLQ_FREE(cnt);
    gclq__sim_note(s, k + 1, total);
    s->vid[k + 1] = nv;
    s->sid[k + 1] = ns;
    s->len[k + 1] = total;
    gclq__sim_expand(s, k + 1, 0, total);
    s->held -= total;
    s->vid[k + 1] = s->sid[k + 1] = NULL;
    GCLQ_FREE(nv);
    GCLQ_FREE(ns);
    a += m;
  }
}

/* The device heuristic, serially: greedy from seed, the candidate of highest
   key first (ties: lowest id). Returns the clique size. cand: n scratch. */
static inline uint32_t gclq__sim_greedy(const gclq_graph *g, const uint32_t *key, uint32_t seed, uint32_t *cand) {
  uint32_t size = 1, nc = gclq__host_degree(g, seed), i;
  memcpy(cand, g->h_neighbors + g->h_offsets[seed], (size_t)nc * sizeof(uint32_t));
  while (nc > 0) {
    uint32_t pick = cand[0];
    for (i = 1; i < nc; ++i)
      if (key[cand[i]] > key[pick]) pick = cand[i];
    ++size;
    nc = gclq__host_intersect(cand, nc, g->h_neighbors + g->h_offsets[pick], gclq__host_degree(g, pick), cand);
  }
  return size;
}

/* Vertices by key, descending or ascending, ties by id (the device's stable
   radix sort of (key, id) pairs): a counting sort, keys < n here (degrees,
   core numbers). key NULL: by id. Returns 0 when out of memory. */
static inline int gclq__sim_sort_by(uint32_t n, const uint32_t *key, int desc, uint32_t *out) {
  uint32_t v, *start;
  if (key == NULL) {
    for (v = 0; v < n; ++v) out[v] = v;
    return 1;
  }
  start = (uint32_t *)GCLQ_MALLOC(((size_t)n + 1) * sizeof(uint32_t));
  if (start == NULL) return 0;
  memset(start, 0, ((size_t)n + 1) * sizeof(uint32_t));
  for (v = 0; v < n; ++v) ++start[desc ? n - 1 - key[v] : key[v]];
  for (v = 0; v < n; ++v) start[v + 1] += start[v]; /* start[b]: the end of bucket b */
  for (v = n; v-- > 0;) out[--start[desc ? n - 1 - key[v] : key[v]]] = v;
  GCLQ_FREE(start);
  return 1;
}

/* Simulate gclq__cuda_max_cliques on g (at least one edge) with plan p.
   out->limit is read; everything else in *out is written. */
static inline gclq_status gclq__host_bfs_simulate(const gclq_graph *g, const gclq__mc_plan *p, gclq__bfs_sim *out) {
  gclq__sim_state s;
  uint32_t n = g->num_vertices, v, i, max_core = 0, lb = 1, *core = NULL, *deg = NULL, *order = NULL,
           *cand = NULL;
  uint64_t limit = out->limit, chunk = out->chunk, t2 = 0, e;
  gclq_status st = GCLQ_SUCCESS;
  memset(out, 0, sizeof *out);
  out->limit = limit;
  out->chunk = chunk;
  memset(&s, 0, sizeof s);
  if (!gclq__host_graph_ok(g) || g->num_edges == 0) return GCLQ_ERROR_INVALID_ARGUMENT;
  s.g = g;
  s.p = p;
  s.out = out;
  core = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  deg = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  order = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  cand = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  s.slot = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  s.list = (uint32_t *)GCLQ_MALLOC(GCLQ__COLOUR_CAP * sizeof(uint32_t));
  s.seq = (uint32_t *)GCLQ_MALLOC(GCLQ__COLOUR_CAP * sizeof(uint32_t));
  s.tmp = (uint32_t *)GCLQ_MALLOC(GCLQ__COLOUR_CAP * sizeof(uint32_t));
  s.adj = (uint64_t *)GCLQ_MALLOC((size_t)GCLQ__COLOUR_CAP * (GCLQ__COLOUR_CAP / 64) * sizeof(uint64_t));
  s.uncol = (uint64_t *)GCLQ_MALLOC(GCLQ__COLOUR_CAP / 64 * sizeof(uint64_t));
  s.open = (uint64_t *)GCLQ_MALLOC(GCLQ__COLOUR_CAP / 64 * sizeof(uint64_t));
  if (!core || !deg || !order || !cand || !s.slot || !s.list || !s.seq || !s.tmp || !s.adj || !s.uncol || !s.open)
    goto out_of_memory;
  memset(s.slot, 0, (size_t)n * sizeof(uint32_t));
  st = gclq__host_core_order(g, core, NULL, &max_core);
  if (st != GCLQ_SUCCESS) goto done;
  for (v = 0; v < n; ++v) deg[v] = gclq__host_degree(g, v);
  s.core = core;
  s.filter = p->prune_core ? core : deg;

  /* heuristic */
  if (p->heuristic != GCLQ_HEURISTIC_NONE) {
    const uint32_t *key = p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE || p->heuristic == GCLQ_HEURISTIC_MULTI_CORE
                              ? core : deg;
    uint32_t h = 1;
    if (p->heuristic == GCLQ_HEURISTIC_MULTI_DEGREE || p->heuristic == GCLQ_HEURISTIC_MULTI_CORE)
      h = p->seeds ? (p->seeds < n ? p->seeds : n) : (n + 19) / 20;
    if (!gclq__sim_sort_by(n, key, 1, order)) goto out_of_memory;
    for (i = 0; i < h; ++i) {
      uint32_t size = gclq__sim_greedy(g, key, order[i], cand);
      if (size > lb) lb = size;
    }
  }
  out->lower_bound = lb;
  s.best = lb;
  s.target = p->find_one ? lb + 1 : lb;
  if (p->find_one) out->count = 1;

  /* the 2-clique list, sources in window order */
  {
    int by_core = p->order == GCLQ_WINDOW_ORDER_CORE_ASC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
    int desc = p->order == GCLQ_WINDOW_ORDER_DEGREE_DESC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
    if (!gclq__sim_sort_by(n, p->order == GCLQ_WINDOW_ORDER_INDEX ? NULL : by_core ? core : deg, desc, order))
      goto out_of_memory;
  }
  s.max_levels = max_core + 3;
  s.vid = (uint32_t **)GCLQ_MALLOC(s.max_levels * sizeof(uint32_t *));
  s.sid = (uint32_t **)GCLQ_MALLOC(s.max_levels * sizeof(uint32_t *));
  s.len = (uint64_t *)GCLQ_MALLOC(s.max_levels * sizeof(uint64_t));
  if (!s.vid || !s.sid || !s.len) goto out_of_memory;
  memset(s.vid, 0, s.max_levels * sizeof(uint32_t *));
  memset(s.sid, 0, s.max_levels * sizeof(uint32_t *));
  for (i = 0; i < 2; ++i) {    /* pass 0 counts, pass 1 writes */
    uint64_t at = 0;
    for (v = 0; v < n; ++v) {
      uint32_t src = order[v], nc = 0, c;
      if ((uint64_t)s.filter[src] + 1 < s.target) continue;
      for (e = g->h_offsets[src]; e < g->h_offsets[src + 1]; ++e) {
        uint32_t u = g->h_neighbors[e];
        int owned = p->orient_index ? src < u : deg[src] < deg[u] || (deg[src] == deg[u] && src < u);
        if (owned && (uint64_t)s.filter[u] + 1 >= s.target) cand[nc++] = u;
      }
      if (p->bound == GCLQ_BOUND_LENGTH || nc > GCLQ__COLOUR_CAP) { /* by (degree, id), as the segmented sort */
        uint32_t x, y;
        for (x = 1; x < nc; ++x) {
          uint32_t u = cand[x];
          for (y = x; y > 0 && (deg[cand[y - 1]] > deg[u] || (deg[cand[y - 1]] == deg[u] && cand[y - 1] > u)); --y)
            cand[y] = cand[y - 1];
          cand[y] = u;
        }
      }
      c = gclq__sim_children(&s, 1, 0xffffffffu, cand, nc);
      if (c == 0) continue;
      if (i == 0) {
        t2 += c;
      } else {
        uint32_t x;
        gclq__sim_write(&s, 0xffffffffu, cand, nc, c, s.vid[2] + at);
        for (x = 0; x < c; ++x) s.sid[2][at + x] = src;
        at += c;
      }
    }
    if (i == 0) {
      if (t2 == 0) break;
      s.vid[2] = (uint32_t *)GCLQ_MALLOC((size_t)t2 * sizeof(uint32_t));
      s.sid[2] = (uint32_t *)GCLQ_MALLOC((size_t)t2 * sizeof(uint32_t));
      if (!s.vid[2] || !s.sid[2]) goto out_of_memory;
    }
  }
  s.len[2] = t2;
  gclq__sim_note(&s, 2, t2);
  gclq__sim_expand(&s, 2, 0, t2);
  if (s.oom) goto out_of_memory;
  out->omega = s.best;
  goto done;

out_of_memory:
  st = GCLQ_ERROR_OUT_OF_MEMORY;
done:
  if (s.vid) GCLQ_FREE(s.vid[2]);
  if (s.sid) GCLQ_FREE(s.sid[2]);
  GCLQ_FREE(s.vid);
  GCLQ_FREE(s.sid);
  GCLQ_FREE(s.len);
  GCLQ_FREE(core);
  GCLQ_FREE(deg);
  GCLQ_FREE(order);
  GCLQ_FREE(cand);
  GCLQ_FREE(s.slot);
  GCLQ_FREE(s.list);
  GCLQ_FREE(s.seq);
  GCLQ_FREE(s.tmp);
  GCLQ_FREE(s.adj);
  GCLQ_FREE(s.uncol);
  GCLQ_FREE(s.open);
  return st;
}

#endif /* TESTS_CLIQUE_TESTING_H */
