/* internal_clique.h - the graph half's tests' one door into gpuclique.h's
   private part.

   The graph tests (test_graph.cu, test_host_clique.cu, test_maxclique.cu,
   test_kcliques.cu) use the public API of gpuclique.h and this header,
   nothing else of the implementation. This header is the only place that
   names private gclq__ / GCLQ__ identifiers; it names these 16, each
   because no public call reaches what a test must check:

   the maximum-clique search's steps, replayed by cliqt_bfs_simulate:
     GCLQ__STEP_ENTRIES ...... the most parents, and children, one step of a
     GCLQ__FIRST_WIDTH ....... level takes, and the narrower first descent;
     gclq__next_span ......... how many parents the next step counts. The
                               simulation must take the device's steps for
                               its candidates per level to equal the CUDA
                               run's stats.candidates_per_level; no call or
                               stat reports the step rule
   test hooks (GPUCLIQUE_TESTING), each forcing a path that no input reaches
   cheaply:
     gclq__bits_max .......... the largest local graph of the bitset search:
                               lowered, a small graph shows the fallback to
                               the list search (else a local graph of more
                               than 4096 vertices is needed)
     gclq__peel_by_launches .. the core peeling as a loop of launches, as on a
                               device without cooperative launch
     gclq__kcp_spill_nodes ... the CUDA PIVOT's nodes before a task hands its
     gclq__kcp_round_tasks     open levels on, and the tasks a round takes:
                               small, tasks split often and the task stack
                               runs deep
     gclq__emb_chunk_rows .... the CUDA embedding table's rows a key sort
                               takes: small, aggregation and filters merge
                               many chunks (else 2^26 rows are needed)

   the BITSET method's sizing (clique/kcliques/bitset.cuh), against its
   definition: a CUDA count shows that windows and stacks fit (the peak
   within the budget), not that they use the room they are given:
     gclq__kcb_window_end .... the end of a window: as many sources as fit
     gclq__kcb_window_bytes .. a window's bytes (the fit is checked by them)
     gclq__kcb_stack_blocks .. a global stack's blocks: half the room, the
                               reserve left
     gclq__kcb_area_words .... a warp's stack area: its levels (k - 3, or
                               every size's min(top - 2, d)), no more
   the LFTJ general path (clique/kcliques/lftj.cuh), run on the host by
   cliqt_lftj_general_host: the kernel's per-source walk, whose stack and
   scratch layout no call exposes (a CUDA count shows only the total):
     gclq__kc_lftj_args ...... the walk's arguments (graph, k, scratch)
     gclq__kc_lftj_thread_words  one thread's scratch words
     gclq__kc_lftj_stack ..... the scratch laid out as the kernel lays it
     gclq__kc_lftj_source .... the walk from one source

   No private field of a public struct is read. The rest of this header is
   public or test code: the host references through the public calls with
   the HOST backend (maximum cliques, core numbers, triangles and
   4-cliques by the k-clique count), the k-clique methods' oriented graph
   from the public orders, and a host simulation of the CUDA
   breadth-first search resolved from the public options as the public
   header documents their defaults. Helpers are named cliqt_*.

   Include it after a private implementation with the test hooks (the
   hooks need GPUCLIQUE_TESTING, the BITSET and LFTJ parts nvcc):
     #define GPUCLIQUE_STATIC
     #define GPUCLIQUE_TESTING
     #define GPUCLIQUE_IMPLEMENTATION
     #include "../gpuclique.h"
     #include "internal_clique.h" */
#ifndef TESTS_INTERNAL_CLIQUE_H
#define TESTS_INTERNAL_CLIQUE_H
#if !defined(GPUCLIQUE_IMPLEMENTATION_DONE)
#error "internal_clique.h: include it after #define GPUCLIQUE_IMPLEMENTATION and gpuclique.h"
#endif

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

/* ===========================================================================
   Private: the step rule, the hooks, BITSET's sizing, LFTJ's walk (the
   list above)
   ========================================================================= */

static const uint64_t CLIQT_STEP_ENTRIES = GCLQ__STEP_ENTRIES;
static const uint64_t CLIQT_FIRST_WIDTH = GCLQ__FIRST_WIDTH;
static inline uint64_t cliqt_next_span(uint64_t taken, uint64_t chunk) { return gclq__next_span(taken, chunk); }

#ifdef GPUCLIQUE_TESTING
/* The bitset search's largest local graph (restored by the caller). */
static inline uint32_t cliqt_bits_max(void) { return gclq__bits_max; }
static inline void cliqt_set_bits_max(uint32_t v) { gclq__bits_max = v; }
/* Nonzero: the core peeling loops over launches. */
static inline void cliqt_set_peel_by_launches(int on) { gclq__peel_by_launches = on; }
/* The CUDA PIVOT's spill threshold and round size (0, 0: the constants). */
static inline void cliqt_set_pivot_splits(uint64_t spill_nodes, uint64_t round_tasks) {
  gclq__kcp_spill_nodes = spill_nodes;
  gclq__kcp_round_tasks = round_tasks;
}
/* The CUDA embedding table's rows a key sort takes (0: the budget's rule). */
static inline void cliqt_set_emb_chunk_rows(uint64_t rows) { gclq__emb_chunk_rows = rows; }
#endif

#if defined(__CUDACC__)
/* BITSET's windows and global stack, sized on the host. */
static inline uint32_t cliqt_bitset_window_end(const uint32_t *d, uint32_t ns, uint32_t from, uint64_t room) {
  return gclq__kcb_window_end(d, ns, from, room);
}
static inline uint64_t cliqt_bitset_window_bytes(uint64_t sources, uint64_t row_words) {
  return gclq__kcb_window_bytes(sources, row_words);
}
static inline uint64_t cliqt_bitset_area_words(uint32_t k, uint32_t top, uint32_t d) {
  return gclq__kcb_area_words(k, top, d);
}
static inline uint64_t cliqt_bitset_stack_blocks(uint64_t room, uint64_t reserve, uint64_t block_bytes, uint64_t cap) {
  return gclq__kcb_stack_blocks(room, reserve, block_bytes, cap);
}

/* Per-vertex counts on the host for the LFTJ source walk. */
struct cliqt_lftj_pv_host {
  uint64_t *pv; /* NULL: not asked */
  __host__ __device__ bool on() const { return pv != NULL; }
  __host__ __device__ void operator()(uint32_t x, unsigned long long c) const { pv[x] += c; }
};
/* The LFTJ general path's per-source walk (the kernel's body) run on the
   host for every source of an oriented graph (off: n + 1, out: sorted
   out-lists, max_out its largest out-degree), in one thread's scratch laid
   out as the kernel lays it. One k (k >= 3): returns the count, per (n
   entries, or NULL) gets the per-vertex counts. k == 0: sizes[s] (top + 1 =
   max_out + 2 entries) gets the s-cliques of every size. *wrapped: the
   walk's wrap flags. */
static inline unsigned long long cliqt_lftj_general_host(const uint64_t *off, const uint32_t *out, uint32_t n,
                                                         uint32_t max_out, uint32_t k, uint64_t *per,
                                                         uint64_t *sizes, unsigned int *wrapped) {
  gclq__kc_lftj_args a;
  memset(&a, 0, sizeof a);
  a.off = off;
  a.out = out;
  a.n = n;
  a.k = k;
  a.top = k != 0 ? k : max_out + 1;
  a.deepest = k != 0 ? k - 2 : a.top - 1;
  a.words = gclq__kc_lftj_thread_words(max_out, k, a.top, a.deepest);
  std::vector<uint64_t> scratch(a.words / 2 + 1);
  a.scratch = (uint32_t *)scratch.data();
  cliqt_lftj_pv_host pv = {per};
  gclq__kc_lftj_stack st(a, 0);
  for (uint32_t s = 0; k == 0 && s <= a.top; ++s) {
    st.size_count[s] = 0;
    st.size_wrapped[s] = 0;
  }
  unsigned long long acc = 0, nodes = 0;
  *wrapped = 0;
  for (uint32_t v = 0; v < n; ++v) gclq__kc_lftj_source(a, st, pv, v, &acc, wrapped, &nodes);
  for (uint32_t s = 0; k == 0 && s <= a.top; ++s) {
    sizes[s] = st.size_count[s];
    *wrapped |= st.size_wrapped[s];
  }
  return acc;
}

#endif

/* ===========================================================================
   Public: the host references
   ========================================================================= */

/* Core numbers of every vertex (core: n entries, or NULL) and the largest
   (max_core may be NULL): gclq_core_numbers on HOST. */
static inline gclq_status cliqt_core_numbers(const gclq_graph *g, uint32_t *core, uint32_t *max_core) {
  return gclq_core_numbers(g, GCLQ_BACKEND_HOST, core, max_core);
}

/* The k-cliques of g on HOST by method m, edges oriented by degree (the
   orientation of the former serial triangle and 4-clique references). */
static inline gclq_status cliqt_count_kcliques(const gclq_graph *g, uint32_t k, gclq_kclique_method m,
                                               uint64_t *count) {
  gclq_kclique_options o;
  gclq_kclique_result r;
  gclq_status s;
  *count = 0;
  gclq_kclique_options_defaults(&o);
  o.backend = GCLQ_BACKEND_HOST;
  o.method = m;
  o.k = k;
  o.orientation = GCLQ_ORIENT_BY_DEGREE;
  s = gclq_kcliques(g, &o, &r);
  if (s == GCLQ_SUCCESS) *count = r.h_counts[0];
  gclq_kclique_result_free(&r);
  return s;
}
/*   K4: 4 triangles; path 0-1-2: 0; facebook_combined: 1,612,010 */
static inline gclq_status cliqt_count_triangles(const gclq_graph *g, uint64_t *count) {
  return cliqt_count_kcliques(g, 3, GCLQ_KCLIQUE_ORDERED, count);
}
/*   K5: 5 four-cliques; facebook_combined: 30,004,668 */
static inline gclq_status cliqt_count_4cliques(const gclq_graph *g, uint64_t *count) {
  return cliqt_count_kcliques(g, 4, GCLQ_KCLIQUE_ORDERED, count);
}

/* The k-clique methods' oriented graph, from the public orders: each edge
   from the earlier to the later vertex of the order (BY_DEGREE: ascending
   (degree, id); BY_DEGENERACY: gclq_degeneracy_order), out-lists ascending
   by id. off: n + 1 entries; *max_out the largest out-degree (what
   stats.max_out_degree reports). */
static inline gclq_status cliqt_orient(const gclq_graph *g, gclq_orient_by by, std::vector<uint64_t> &off,
                                       std::vector<uint32_t> &out, uint32_t *max_out) {
  const uint32_t n = g->num_vertices;
  std::vector<uint32_t> order(n), rank(n);
  if (by == GCLQ_ORIENT_BY_DEGREE) {
    for (uint32_t v = 0; v < n; ++v) order[v] = v;
    std::sort(order.begin(), order.end(), [g](uint32_t a, uint32_t b) {
      const uint64_t da = g->h_offsets[a + 1] - g->h_offsets[a], db = g->h_offsets[b + 1] - g->h_offsets[b];
      return da < db || (da == db && a < b);
    });
  } else {
    const gclq_status s = gclq_degeneracy_order(g, order.data());
    if (s != GCLQ_SUCCESS) return s;
  }
  for (uint32_t i = 0; i < n; ++i) rank[order[i]] = i;
  off.assign((size_t)n + 1, 0);
  out.clear();
  *max_out = 0;
  for (uint32_t v = 0; v < n; ++v) {
    for (uint64_t e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e)
      if (rank[g->h_neighbors[e]] > rank[v]) out.push_back(g->h_neighbors[e]);
    off[v + 1] = out.size();
    *max_out = std::max(*max_out, (uint32_t)(off[v + 1] - off[v]));
  }
  return GCLQ_SUCCESS;
}

/* All maximum cliques of g (find_one == 0), or one of them, by
   gclq_max_cliques on HOST with every clique stored: *cliques (when not
   NULL) gets count * omega compact ids, GCLQ_MALLOC'd. cliques NULL stores
   one clique (count stays exact). On an error every output is zeroed. */
static inline gclq_status cliqt_max_cliques(const gclq_graph *g, int find_one, uint32_t *omega, uint64_t *count,
                                            uint32_t **cliques) {
  gclq_maxclique_options o;
  gclq_maxclique_result r;
  gclq_status s;
  if (omega) *omega = 0;
  if (count) *count = 0;
  if (cliques) *cliques = NULL;
  if (omega == NULL || count == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  gclq_maxclique_options_defaults(&o);
  o.backend = GCLQ_BACKEND_HOST;
  o.mode = find_one ? GCLQ_MODE_ONE : GCLQ_MODE_ALL;
  o.max_stored = cliques ? 0 : 1;
  s = gclq_max_cliques(g, &o, &r);
  if (s != GCLQ_SUCCESS) return s;
  if (cliques && r.stored) {
    const size_t entries = (size_t)r.stored * r.omega;
    uint32_t *c = (uint32_t *)GCLQ_MALLOC(entries * sizeof(uint32_t));
    if (c == NULL) {
      gclq_maxclique_result_free(&r);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < entries; ++i) /* file ids back to compact ids (the ids ascend) */
      c[i] = (uint32_t)(std::lower_bound(g->h_original_ids, g->h_original_ids + g->num_vertices, r.h_cliques[i]) -
                        g->h_original_ids);
    *cliques = c;
  }
  *omega = r.omega;
  *count = r.count;
  gclq_maxclique_result_free(&r);
  return GCLQ_SUCCESS;
}

/* ===========================================================================
   Host simulation of the CUDA breadth-first search
   ========================================================================= */
/* It runs what gclq_max_cliques does on CUDA (the list search), serially:
   core numbers, the greedy heuristic of the options (ties to the lowest
   id, as the device's stable sorts and first-index argmax give), the
   oriented and pre-pruned 2-clique list in the options' window order,
   then the levels, depth first over ranges and breadth first inside one
   (no budget splits: they change the order of the work only). It reports
   omega, the number of maximum cliques, the candidates written per level
   and the most entries held at once, so that a bound can be measured on
   graphs that the device cannot finish, and checked for exactness where it
   is cheap.

   The bound (options.bound):
   - LENGTH (Geil, "Tackling GPU Memory Size Limitations", Alg. 4): a parent of size k with c children is
     dropped when k + c < target; sublists sorted by (degree, id).
   - COLOUR: the children of a parent (and the out-list of a source) are
     coloured greedily (class by class, in list order: colour classes are
     independent sets, so a clique takes one vertex of each at most); the
     parent is dropped when k + colours < target; the children are written
     highest colour first. A child's own children then lie in lower colour
     classes only, as in Tomita's MCQ, so a child of colour class x starts no
     clique larger than k + x: when k + x < target it is written as a
     candidate only (CLIQT_DEAD: its earlier siblings still take it, it is
     never expanded), MCQ's per-branch prune. Lists longer than
     CLIQT_COLOUR_CAP are not coloured (length bound, list order).
   The target: best (mode ALL: a branch that can still tie survives) or
   best + 1 (mode ONE); it rises when a larger clique is recorded. */

/* The longest list the colour bound colours (gclq_bound's documented 256). */
#define CLIQT_COLOUR_CAP 256u
/* The flag of a candidate written but never expanded (the simulation's own
   lists; vertex ids stay below it). */
#define CLIQT_DEAD 0x80000000u

/* The options as the search reads them, every DEFAULT replaced as
   gpuclique.h documents it. */
typedef struct cliqt_plan {
  int find_one;
  gclq_heuristic heuristic; /* never DEFAULT */
  uint32_t seeds;           /* 0: 5% of the vertices */
  int orient_index;         /* 0: by degree */
  int prune_core;           /* 0: by degree */
  gclq_bound bound;         /* never DEFAULT */
  gclq_window_order order;  /* never DEFAULT */
} cliqt_plan;

static inline cliqt_plan cliqt_plan_of(const gclq_maxclique_options *o) {
  cliqt_plan p;
  p.find_one = o->mode == GCLQ_MODE_ONE;
  p.heuristic = o->heuristic == GCLQ_HEURISTIC_DEFAULT ? GCLQ_HEURISTIC_MULTI_DEGREE : o->heuristic;
  p.seeds = o->seeds;
  p.orient_index = o->orientation == GCLQ_ORIENT_INDEX;
  p.prune_core = o->prune != GCLQ_PRUNE_DEGREE;
  p.bound = o->bound == GCLQ_BOUND_DEFAULT ? GCLQ_BOUND_COLOUR : o->bound;
  p.order = o->window_order == GCLQ_WINDOW_ORDER_DEFAULT ? GCLQ_WINDOW_ORDER_DEGREE_DESC : o->window_order;
  return p;
}

typedef struct cliqt_bfs_sim {
  uint64_t limit;       /* in: stop once this many candidates were written (0: no limit) */
  uint64_t chunk;       /* in: the most parents, and children, per step (0: CLIQT_STEP_ENTRIES) */
  int aborted;          /* out: 1 when the limit stopped it (the figures are then lower bounds) */
  uint32_t lower_bound; /* the heuristic's size */
  uint32_t omega;
  uint64_t count;       /* maximum cliques (mode ONE: 1) */
  uint64_t candidates[CLIQT_COLOUR_CAP + 8]; /* [k]: k-cliques written, k >= 2 */
  uint32_t num_levels;  /* highest k written + 1 */
  uint64_t total;       /* sum of candidates[] */
  uint64_t peak_level;  /* the largest single level (one range) */
  uint64_t peak_held;   /* the most entries of all levels held at once */
  uint64_t max_list;    /* the longest candidate list seen */
  uint64_t pair_checks; /* adjacency tests (intersections + colourings): the work */
  uint64_t steps;       /* count steps (one count, scan and total read each on the device) */
} cliqt_bfs_sim;

typedef struct cliqt_sim_state {
  const gclq_graph *g;
  const cliqt_plan *p;
  cliqt_bfs_sim *out;
  const uint32_t *filter, *core;
  uint32_t best, target;
  uint64_t held;
  uint32_t **vid, **sid; /* per level */
  uint64_t *len;
  uint32_t max_levels;
  uint32_t *list, *seq, *tmp, *slot; /* list, seq, tmp: cap entries; slot: n entries, zero */
  uint32_t live; /* cliqt_sim_children: how many of the children may be expanded */
  uint64_t *adj, *uncol, *open; /* cap * words, words, words */
  int oom;
} cliqt_sim_state;

static inline uint32_t cliqt_degree(const gclq_graph *g, uint32_t v) {
  return (uint32_t)(g->h_offsets[v + 1] - g->h_offsets[v]);
}

/* The sorted lists a and b merged: their common entries into out (may be a;
   NULL: only counted). Returns how many. */
static inline uint32_t cliqt_intersect(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb, uint32_t *out) {
  uint32_t i = 0, j = 0, c = 0;
  while (i < na && j < nb) {
    if (a[i] < b[j]) ++i;
    else if (b[j] < a[i]) ++j;
    else {
      if (out) out[c] = a[i];
      ++c, ++i, ++j;
    }
  }
  return c;
}

static inline int cliqt_sim_adjacent(const gclq_graph *g, uint32_t v, uint32_t u) {
  return std::binary_search(g->h_neighbors + g->h_offsets[v], g->h_neighbors + g->h_offsets[v + 1], u);
}

/* Greedy colouring of s->list[0 .. c) (c <= cap), class by class in list
   order. s->seq gets the list positions in the order they were coloured
   (class 1 first); *low = how many of them are in classes below need.
   Returns the number of colours. */
static inline uint32_t cliqt_sim_colour(cliqt_sim_state *s, uint32_t c, uint32_t need, uint32_t *low) {
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
        uint32_t v = 64 * w + (uint32_t)__builtin_ctzll(s->open[w]), x;
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
   number c, 0 when the parent is pruned; when c <= CLIQT_COLOUR_CAP they are in
   s->list[0 .. c) in output order (highest colour first under COLOUR), and
   s->live of them (a prefix) may be expanded; the rest are CLIQT_DEAD. cand
   entries may carry CLIQT_DEAD (a sibling list). */
static inline uint32_t cliqt_sim_children(cliqt_sim_state *s, uint32_t k, uint32_t v, const uint32_t *cand,
                                          uint64_t nc) {
  uint64_t j;
  uint32_t c = 0, i;
  for (j = 0; j < nc; ++j) {
    uint32_t u = cand[j] & ~CLIQT_DEAD;
    if ((uint64_t)k + c + (nc - j) < s->target) return 0; /* the device's early exit */
    if (v != 0xffffffffu) ++s->out->pair_checks;
    if (v == 0xffffffffu || cliqt_sim_adjacent(s->g, v, u)) {
      if (c < CLIQT_COLOUR_CAP) s->list[c] = u;
      ++c;
    }
  }
  if ((uint64_t)k + c < s->target) return 0;
  if (c > s->out->max_list) s->out->max_list = c;
  s->live = c;
  if (s->p->bound != GCLQ_BOUND_LENGTH && c <= CLIQT_COLOUR_CAP) {
    uint32_t low, colours = cliqt_sim_colour(s, c, s->target > k ? s->target - k : 0, &low);
    if ((uint64_t)k + colours < s->target) return 0;
    s->live = c - low;
    for (i = 0; i < c; ++i) s->tmp[i] = s->list[s->seq[c - 1 - i]]; /* highest colour first */
    memcpy(s->list, s->tmp, (size_t)c * sizeof(uint32_t));
  }
  return c;
}

/* Write the children found by cliqt_sim_children (c of them) at out. */
static inline void cliqt_sim_write(cliqt_sim_state *s, uint32_t v, const uint32_t *cand, uint64_t nc, uint32_t c,
                                   uint32_t *out) {
  uint64_t j;
  uint32_t w = 0;
  if (c <= CLIQT_COLOUR_CAP) {
    for (w = 0; w < c; ++w) out[w] = s->list[w] | (w < s->live ? 0u : CLIQT_DEAD);
    return;
  }
  for (j = 0; j < nc && w < c; ++j)
    if (v == 0xffffffffu || cliqt_sim_adjacent(s->g, v, cand[j] & ~CLIQT_DEAD)) out[w++] = cand[j] & ~CLIQT_DEAD;
}

static inline void cliqt_sim_record(cliqt_sim_state *s, uint32_t k, uint64_t entries) {
  int one = s->p->find_one;
  if (one ? k <= s->best : k < s->best) return;
  if (one) s->out->count = 1;
  else if (k > s->best) s->out->count = entries;
  else s->out->count += entries;
  s->best = k;
  s->target = one ? k + 1 : k;
}

static inline void cliqt_sim_note(cliqt_sim_state *s, uint32_t k, uint64_t total) {
  cliqt_bfs_sim *o = s->out;
  if (k < sizeof o->candidates / sizeof o->candidates[0]) o->candidates[k] += total;
  if (k + 1 > o->num_levels) o->num_levels = k + 1;
  o->total += total;
  if (total > o->peak_level) o->peak_level = total;
  s->held += total;
  if (s->held > o->peak_held) o->peak_held = s->held;
  if (o->limit && o->total > o->limit) o->aborted = 1;
}

/* Parents [a, b) of level k, then their descendants: the device's step
   loop with an unlimited budget. A step takes at most `chunk` parents, and
   of those the prefix whose children fit in `chunk` entries (at least one
   parent), so the search reaches the deep levels early and raises the
   target there. */
static inline void cliqt_sim_expand(cliqt_sim_state *s, uint32_t k, uint64_t a, uint64_t b) {
  const uint32_t *vid = s->vid[k], *sid = s->sid[k];
  const uint64_t len = s->len[k], chunk = s->out->chunk ? s->out->chunk : CLIQT_STEP_ENTRIES;
  if (k + 1 >= s->max_levels) { /* cannot happen: omega <= max core + 1 */
    s->oom = 1;
    return;
  }
  uint64_t width = CLIQT_FIRST_WIDTH < chunk ? CLIQT_FIRST_WIDTH : chunk; /* children per step: narrow first,
                                                                             then doubling */
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
      cnt[i] = vid[p] & CLIQT_DEAD ? 0 : cliqt_sim_children(s, k, vid[p], vid + p + 1, e - p - 1);
    }
    for (m = 0; m < n && (m == 0 || total + cnt[m] <= width); ++m) total += cnt[m];
    span = cliqt_next_span(m, chunk);
    width = width * 2 < chunk ? width * 2 : chunk;
    if (total == 0 && m == n) { /* nothing in these parents extends: final k-cliques */
      s->held -= n;
      GCLQ_FREE(cnt);
      cliqt_sim_record(s, k, n);
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
      cliqt_sim_children(s, k, vid[p], vid + p + 1, e - p - 1); /* the write kernel recolours */
      cliqt_sim_write(s, vid[p], vid + p + 1, e - p - 1, cnt[i], nv + at);
      for (j = 0; j < cnt[i]; ++j) ns[at + j] = (uint32_t)p;
      at += cnt[i];
    }
    s->held -= n;
    GCLQ_FREE(cnt);
    cliqt_sim_note(s, k + 1, total);
    s->vid[k + 1] = nv;
    s->sid[k + 1] = ns;
    s->len[k + 1] = total;
    cliqt_sim_expand(s, k + 1, 0, total);
    s->held -= total;
    s->vid[k + 1] = s->sid[k + 1] = NULL;
    GCLQ_FREE(nv);
    GCLQ_FREE(ns);
    a += m;
  }
}

/* The device heuristic, serially: greedy from seed, the candidate of highest
   key first (ties: lowest id). Returns the clique size. cand: n scratch. */
static inline uint32_t cliqt_sim_greedy(const gclq_graph *g, const uint32_t *key, uint32_t seed, uint32_t *cand) {
  uint32_t size = 1, nc = cliqt_degree(g, seed), i;
  memcpy(cand, g->h_neighbors + g->h_offsets[seed], (size_t)nc * sizeof(uint32_t));
  while (nc > 0) {
    uint32_t pick = cand[0];
    for (i = 1; i < nc; ++i)
      if (key[cand[i]] > key[pick]) pick = cand[i];
    ++size;
    nc = cliqt_intersect(cand, nc, g->h_neighbors + g->h_offsets[pick], cliqt_degree(g, pick), cand);
  }
  return size;
}

/* Vertices by key, descending or ascending, ties by id (the device's stable
   radix sort of (key, id) pairs): a counting sort, keys < n here (degrees,
   core numbers). key NULL: by id. Returns 0 when out of memory. */
static inline int cliqt_sim_sort_by(uint32_t n, const uint32_t *key, int desc, uint32_t *out) {
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

/* Simulate gclq_max_cliques on CUDA (the list search) for g (at least one
   edge) with options o. out->limit and out->chunk are read; everything else
   in *out is written. */
static inline gclq_status cliqt_bfs_simulate(const gclq_graph *g, const gclq_maxclique_options *o, cliqt_bfs_sim *out) {
  cliqt_sim_state s;
  const cliqt_plan plan = cliqt_plan_of(o), *p = &plan;
  uint32_t n = g->num_vertices, v, i, max_core = 0, lb = 1, *core = NULL, *deg = NULL, *order = NULL,
           *cand = NULL;
  uint64_t limit = out->limit, chunk = out->chunk, t2 = 0, e;
  gclq_status st = GCLQ_SUCCESS;
  memset(out, 0, sizeof *out);
  out->limit = limit;
  out->chunk = chunk;
  memset(&s, 0, sizeof s);
  if (g == NULL || g->num_edges == 0) return GCLQ_ERROR_INVALID_ARGUMENT; /* a malformed graph: the cores say so */
  s.g = g;
  s.p = p;
  s.out = out;
  core = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  deg = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  order = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  cand = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  s.slot = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  s.list = (uint32_t *)GCLQ_MALLOC(CLIQT_COLOUR_CAP * sizeof(uint32_t));
  s.seq = (uint32_t *)GCLQ_MALLOC(CLIQT_COLOUR_CAP * sizeof(uint32_t));
  s.tmp = (uint32_t *)GCLQ_MALLOC(CLIQT_COLOUR_CAP * sizeof(uint32_t));
  s.adj = (uint64_t *)GCLQ_MALLOC((size_t)CLIQT_COLOUR_CAP * (CLIQT_COLOUR_CAP / 64) * sizeof(uint64_t));
  s.uncol = (uint64_t *)GCLQ_MALLOC(CLIQT_COLOUR_CAP / 64 * sizeof(uint64_t));
  s.open = (uint64_t *)GCLQ_MALLOC(CLIQT_COLOUR_CAP / 64 * sizeof(uint64_t));
  if (!core || !deg || !order || !cand || !s.slot || !s.list || !s.seq || !s.tmp || !s.adj || !s.uncol || !s.open)
    goto out_of_memory;
  memset(s.slot, 0, (size_t)n * sizeof(uint32_t));
  st = cliqt_core_numbers(g, core, &max_core);
  if (st != GCLQ_SUCCESS) goto done;
  for (v = 0; v < n; ++v) deg[v] = cliqt_degree(g, v);
  s.core = core;
  s.filter = p->prune_core ? core : deg;

  /* heuristic */
  if (p->heuristic != GCLQ_HEURISTIC_NONE) {
    const uint32_t *key = p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE || p->heuristic == GCLQ_HEURISTIC_MULTI_CORE
                              ? core : deg;
    uint32_t h = 1;
    if (p->heuristic == GCLQ_HEURISTIC_MULTI_DEGREE || p->heuristic == GCLQ_HEURISTIC_MULTI_CORE)
      h = p->seeds ? (p->seeds < n ? p->seeds : n) : (n + 19) / 20;
    if (!cliqt_sim_sort_by(n, key, 1, order)) goto out_of_memory;
    for (i = 0; i < h; ++i) {
      uint32_t size = cliqt_sim_greedy(g, key, order[i], cand);
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
    if (!cliqt_sim_sort_by(n, p->order == GCLQ_WINDOW_ORDER_INDEX ? NULL : by_core ? core : deg, desc, order))
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
      if (p->bound == GCLQ_BOUND_LENGTH || nc > CLIQT_COLOUR_CAP) { /* by (degree, id), as the segmented sort */
        uint32_t x, y;
        for (x = 1; x < nc; ++x) {
          uint32_t u = cand[x];
          for (y = x; y > 0 && (deg[cand[y - 1]] > deg[u] || (deg[cand[y - 1]] == deg[u] && cand[y - 1] > u)); --y)
            cand[y] = cand[y - 1];
          cand[y] = u;
        }
      }
      c = cliqt_sim_children(&s, 1, 0xffffffffu, cand, nc);
      if (c == 0) continue;
      if (i == 0) {
        t2 += c;
      } else {
        uint32_t x;
        cliqt_sim_write(&s, 0xffffffffu, cand, nc, c, s.vid[2] + at);
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
  cliqt_sim_note(&s, 2, t2);
  cliqt_sim_expand(&s, 2, 0, t2);
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

#endif /* TESTS_INTERNAL_CLIQUE_H */
