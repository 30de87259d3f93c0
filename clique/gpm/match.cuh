/* clique/gpm/match.cuh - subgraph matching on the device (backend CUDA):
   the count, and the smallest max_stored rows as HOST keeps them, of any
   connected query of up to GCLQ_MATCH_MAX_QUERY vertices, labelled or not,
   in the four modes, by the HOST matcher's
   search (clique/gpm/host.h: the same matching order, candidate filters and
   symmetry-breaking restrictions, gclq__query_order, gclq__query_restrict),
   a warp a list entry (a root and its neighbour).

   The query goes to the kernel by position in the matching order
   (gclq__mq): position i's parent (the placed neighbour whose list gives
   its candidates), its edges to the positions before it, its restrictions
   against them (image below / above theirs), its label and degree.

   The data graph: the caller's CSR uploaded (compact ids, lists ascending),
   or a prepared graph's undirected lists (rank ids; the labels scattered to
   ranks). The restrictions hold in any total order of the data vertices, so
   rank ids count the same matches.

   A warp takes a list entry (root, neighbour): the images of positions 0
   and 1 (position 1's parent is the root), so that a hub's search is split
   over its edges; then it searches depth first with its own stack in
   device memory: a level per position 2 .. q - 2, each room for the
   largest degree (the candidates of a position are a subset of one list).
   A level's candidates are made by the warp together: its lanes over the
   shortest list of the position's placed neighbours, cut to the range the
   restrictions allow (in a labelled query, to the part of that list with
   the position's label: each list is kept a second time sorted by (label,
   id), so that the candidates a label test would drop are never read),
   each testing one vertex (label, degree, injectivity,
   adjacency to the other placed neighbours and, in VERTEX_INDUCED,
   non-adjacency to the others, each by a search of the placed vertex's
   list), the passing ones compacted by a ballot. The last position's
   candidates are only counted. Memory: the
   upload (8 n + 8 m bytes, 4 n of labels), the lists by label (16 m bytes
   and the sort's room; without them, when they do not fit, every candidate's
   label is tested), then (q - 3) * max degree * 4 bytes a warp, for as many
   warps as are resident and the budget holds (at least one: less room is
   GCLQ_ERROR_OUT_OF_MEMORY).

   Listing (max_stored > 0) keeps HOST's answer, the smallest max_stored
   rows (query vertex order, compact ids), without holding every match: a
   pass of the search writes the rows of a window (above lo, at most hi,
   lexicographic) to a buffer of C rows and counts them all (from the
   caller's CSR, a prepared graph given or not: the rows are then the
   embeddings that meet the restrictions in compact id order). When the
   window's rows fit, they go to a host max-heap of max_stored rows (HOST's
   own, gclq__match_found) and the next window starts above hi; when they
   do not, hi drops to the t-th smallest of the C rows the buffer holds
   (t = min(C / 2, rows still wanted): at least t rows lie in the window,
   and at least C - t fewer than before), and the pass is run again. C is
   2 max_stored within [2^16, 2^22] rows and half the room the budget
   leaves, so a listing of up to 2^15 rows takes one pass when the matches
   fit and about two or three when they are many. */

/* Listing's buffer on the device, in rows (2 max_stored within these). */
#define GCLQ__MATCH_LIST_MIN_ROWS ((uint64_t)1 << 16)
#define GCLQ__MATCH_LIST_MAX_ROWS ((uint64_t)1 << 22)

/* The query by matching-order position (all masks over earlier positions). */
struct gclq__mq {
  uint32_t q, injective, induced, labelled;
  uint32_t vertex[GCLQ_MATCH_MAX_QUERY]; /* the query vertex at position i */
  uint32_t parent[GCLQ_MATCH_MAX_QUERY]; /* a position before i, adjacent to it */
  uint32_t edge[GCLQ_MATCH_MAX_QUERY];   /* bit j: an edge between positions i and j */
  uint32_t below[GCLQ_MATCH_MAX_QUERY];  /* bit j: image(i) < image(j) */
  uint32_t above[GCLQ_MATCH_MAX_QUERY];  /* bit j: image(j) < image(i) */
  uint32_t label[GCLQ_MATCH_MAX_QUERY], degree[GCLQ_MATCH_MAX_QUERY];
};

/* Q (its restrictions made for mode) by position in its matching order. */
static inline void gclq__mq_make(const gclq__query *Q, gclq_match_mode mode, gclq__mq *m) {
  uint32_t order[GCLQ_MATCH_MAX_QUERY], parent[GCLQ_MATCH_MAX_QUERY], i, j;
  memset(m, 0, sizeof *m);
  gclq__query_order(Q, order, parent);
  m->q = Q->q;
  m->injective = mode != GCLQ_MATCH_HOMOMORPHISMS;
  m->induced = mode == GCLQ_MATCH_VERTEX_INDUCED;
  m->labelled = Q->labels != NULL;
  for (i = 0; i < Q->q; ++i) {
    const uint32_t u = order[i];
    m->vertex[i] = u;
    m->parent[i] = i == 0 ? 0 : parent[i];
    m->label[i] = Q->labels != NULL ? Q->labels[u] : 0;
    m->degree[i] = gclq__query_degree(Q, u);
    for (j = 0; j < i; ++j) {
      const uint32_t w = order[j];
      if ((Q->adj[u] >> w) & 1u) m->edge[i] |= 1u << j;
      if ((Q->less[u] >> w) & 1u) m->below[i] |= 1u << j;
      if ((Q->less[w] >> u) & 1u) m->above[i] |= 1u << j;
    }
  }
}

/* May data vertex x, taken from the list of img[src] (src a placed
   neighbour of position i), be the image of position i after img[0 .. i)?
   Its label is not tested when lab is NULL (x came from the part of the
   list with position i's label), nor the restrictions from position 2 on
   (x came from the range they leave, gclq__mqd_candidates). */
static __device__ __forceinline__ bool gclq__mqd_ok(const gclq__mq &Q, uint32_t i, uint32_t src, uint32_t x,
                                                    const uint32_t *img, const uint64_t *off, const uint32_t *nbr,
                                                    const uint32_t *lab) {
  if (Q.labelled && lab != NULL && __ldg(lab + x) != Q.label[i]) return false;
  if (Q.injective && off[x + 1] - off[x] < Q.degree[i]) return false;
  for (uint32_t j = 0; j < i; ++j) {
    const uint32_t y = img[j];
    if (Q.injective && x == y) return false;
    if (i == 1 && ((Q.below[1] >> j) & 1u) && !(x < y)) return false;
    if (i == 1 && ((Q.above[1] >> j) & 1u) && !(y < x)) return false;
  }
  for (uint32_t j = 0; j < i; ++j) {
    const bool edge = (Q.edge[i] >> j) & 1u;
    if (j == src || (!edge && !Q.induced)) continue; /* x is in src's list */
    if (gclq__d_adjacent(off, nbr, img[j], x) != edge) return false;
  }
  return true;
}

/* Listing's window: the rows (query vertex order, compact ids) above lo
   (when has_lo) and at most hi go to rows (room for cap rows, q ids each),
   each counted in *emitted, written or not. */
struct gclq__mwin {
  uint32_t *rows;
  unsigned long long *emitted;
  uint64_t cap;
  uint32_t has_lo, lo[GCLQ_MATCH_MAX_QUERY], hi[GCLQ_MATCH_MAX_QUERY];
};

/* A match img[0 .. q) in the lanes where ok (the warp together): its row
   into W's buffer when it lies in the window, a slot a row by the warp's
   one atomic. */
static __device__ __forceinline__ void gclq__mqd_emit(const gclq__mq &Q, const uint32_t *img, bool ok,
                                                      const gclq__mwin &W) {
  const uint32_t lane = threadIdx.x % 32;
  uint32_t row[GCLQ_MATCH_MAX_QUERY], u;
  bool in = false;
  if (ok) {
    int vs_lo = 0, vs_hi = 0;
    for (u = 0; u < Q.q; ++u) row[Q.vertex[u]] = img[u];
    for (u = 0; u < Q.q; ++u) {
      if (vs_lo == 0 && row[u] != W.lo[u]) vs_lo = row[u] < W.lo[u] ? -1 : 1;
      if (vs_hi == 0 && row[u] != W.hi[u]) vs_hi = row[u] < W.hi[u] ? -1 : 1;
    }
    in = (!W.has_lo || vs_lo > 0) && vs_hi <= 0;
  }
  const unsigned mask = __ballot_sync(GCLQ__FULL, in);
  if (mask == 0) return;
  const uint32_t first = __ffs(mask) - 1;
  unsigned long long slot = 0;
  if (lane == first) slot = atomicAdd(W.emitted, (unsigned long long)__popc(mask));
  slot = __shfl_sync(GCLQ__FULL, slot, first) + __popc(mask & ((1u << lane) - 1u));
  if (in && slot < W.cap)
    for (u = 0; u < Q.q; ++u) W.rows[slot * Q.q + u] = row[u];
}

/* Position i's candidates (the warp together, img the same in every lane):
   written to out in list order when out is not NULL; their number, the
   same in every lane. They come from the shortest list of i's placed
   neighbours (a hub's list is scanned only when every neighbour is a hub),
   cut to the range the restrictions leave (image above every img[j] of
   Q.above[i], below every img[j] of Q.below[i]) by two searches: the lists
   ascend, so the rest of the list fails a restriction. With lkey (a
   labelled query; the lists by (label, id), label << 32 | id) the two
   searches also cut the list to position i's label, and the candidates are
   read from there, ascending too. With W (position i the last) each
   candidate completes a match, emitted to W's window. */
static __device__ __forceinline__ uint32_t gclq__mqd_candidates(const gclq__mq &Q, uint32_t i, uint32_t *img,
                                                                const uint64_t *off, const uint32_t *nbr,
                                                                const uint32_t *lab, const uint64_t *lkey,
                                                                uint32_t *out, const gclq__mwin *W) {
  const uint32_t lane = threadIdx.x % 32;
  uint32_t src = Q.parent[i], lo = 0, hi = 0xffffffffu, n = 0, j;
  uint64_t a = off[img[src]], b = off[img[src] + 1];
  for (j = 0; j < i; ++j) {
    const uint32_t y = img[j];
    if (((Q.edge[i] >> j) & 1u) && off[y + 1] - off[y] < b - a) src = j, a = off[y], b = off[y + 1];
    if (((Q.above[i] >> j) & 1u) && y + 1 > lo) lo = y + 1; /* ids are below n <= 2^32 - 1 */
    if (((Q.below[i] >> j) & 1u) && y < hi) hi = y;
  }
  if (lkey != NULL) { /* no id is 2^32 - 1: (label, 2^32 - 1) bounds the label's part */
    const uint64_t L = (uint64_t)Q.label[i] << 32;
    a = gclq__d_lower(lkey, a, b, L | lo);
    b = gclq__d_lower(lkey, a, b, L | hi);
    lab = NULL;
  } else {
    if (lo > 0) a = gclq__d_lower(nbr, a, b, lo);
    if (hi != 0xffffffffu) b = gclq__d_lower(nbr, a, b, hi);
  }
  for (uint64_t base = a; base < b; base += 32) {
    const uint64_t e = base + lane;
    const uint32_t x = e >= b ? 0 : lkey != NULL ? (uint32_t)__ldg(lkey + e) : __ldg(nbr + e);
    const bool ok = e < b && gclq__mqd_ok(Q, i, src, x, img, off, nbr, lab);
    const unsigned mask = __ballot_sync(GCLQ__FULL, ok);
    if (W != NULL) { /* this lane's own images: img[i] is not read again */
      img[i] = x;
      gclq__mqd_emit(Q, img, ok, *W);
    }
    if (out != NULL && ok) out[n + __popc(mask & ((1u << lane) - 1u))] = x;
    n += __popc(mask);
  }
  return n;
}

/* The matches of Q (q >= 2) in the graph of n vertices: warps 0 .. workers
   - 1 each take an entry e of the lists (strided by workers; the grid's
   other warps idle): the root is e's vertex (a search of the offsets), the
   image of position 1 (whose parent is the root) the entry's neighbour, and
   the warp searches the rest. A hub's search is so split over its edges.
   Warp w's stack at stack + w * (q - 3) * room (position l's candidates at
   (l - 2) * room). *acc += the count; LIST: each match also to W. */
template <bool LIST>
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__match_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, const uint32_t *lab, const uint64_t *lkey,
                       const gclq__mq Q, uint32_t *stack, uint64_t room, uint64_t workers, unsigned long long *acc,
                       const gclq__mwin W) {
  const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32, entries = off[n];
  const uint32_t lane = threadIdx.x % 32, last = Q.q - 1;
  const gclq__mwin *win = LIST ? &W : NULL;
  uint32_t *mine = stack + (warp < workers ? warp : 0) * (uint64_t)(Q.q > 3 ? Q.q - 3 : 0) * room;
  uint32_t img[GCLQ_MATCH_MAX_QUERY], count[GCLQ_MATCH_MAX_QUERY], at[GCLQ_MATCH_MAX_QUERY];
  unsigned long long found = 0;
  for (uint64_t e = warp; warp < workers && e < entries; e += workers) {
    img[0] = gclq__fmd_source(off, n, e);
    if (!gclq__mqd_ok(Q, 0, 0, img[0], img, off, nbr, lab)) continue;
    img[1] = __ldg(nbr + e);
    if (!gclq__mqd_ok(Q, 1, 0, img[1], img, off, nbr, lab)) continue;
    if (last == 1) {
      found += 1;
      if (LIST) gclq__mqd_emit(Q, img, lane == 0, W);
      continue;
    }
    if (last == 2) {
      found += gclq__mqd_candidates(Q, 2, img, off, nbr, lab, lkey, NULL, win);
      continue;
    }
    uint32_t level = 2; /* positions 2 .. last - 1 keep their candidates */
    count[2] = gclq__mqd_candidates(Q, 2, img, off, nbr, lab, lkey, mine, NULL);
    at[2] = 0;
    __syncwarp();
    while (level >= 2) {
      if (at[level] == count[level]) {
        --level;
        continue;
      }
      img[level] = mine[(uint64_t)(level - 2) * room + at[level]++];
      if (level + 1 == last) {
        found += gclq__mqd_candidates(Q, last, img, off, nbr, lab, lkey, NULL, win);
        continue;
      }
      ++level;
      count[level] =
          gclq__mqd_candidates(Q, level, img, off, nbr, lab, lkey, mine + (uint64_t)(level - 2) * room, NULL);
      at[level] = 0;
      __syncwarp(); /* the level's candidates written before any lane reads them */
    }
  }
  gclq__fmd_block_add(lane == 0 ? found : 0, acc);
}

/* A root alone matches a one-vertex query: the vertices of its label. */
static __global__ void gclq__match_roots_kernel(uint32_t n, const uint32_t *lab, uint32_t label,
                                                unsigned long long *acc) {
  unsigned long long found = 0;
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += (uint64_t)gridDim.x * blockDim.x)
    found += lab == NULL || __ldg(lab + v) == label;
  gclq__fmd_block_add(found, acc);
}

/* The lists by label: key[e] = lab[nbr[e]] << 32 | nbr[e] (then sorted in
   each list). */
static __global__ void gclq__match_label_keys_kernel(uint64_t entries, const uint32_t *nbr, const uint32_t *lab,
                                                     uint64_t *key) {
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < entries;
       e += (uint64_t)gridDim.x * blockDim.x) {
    const uint32_t x = __ldg(nbr + e);
    key[e] = (uint64_t)__ldg(lab + x) << 32 | x;
  }
}

/* Labels to rank ids: to[rank[v]] = from[v]. */
static __global__ void gclq__match_rank_labels_kernel(uint32_t n, const uint32_t *rank, const uint32_t *from,
                                                      uint32_t *to) {
  const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) to[rank[v]] = from[v];
}

/* The device graph the search runs on: lists (off, nbr: entries list
   entries, ids below n), the labels of its ids (NULL when the query has
   none), the same lists by (label, id) (lkey; NULL when the query has no
   labels or they did not fit), the largest degree. */
struct gclq__mgraph {
  uint32_t n, max_degree;
  uint64_t entries;
  const uint64_t *off;
  const uint32_t *nbr, *lab;
  const uint64_t *lkey;
};

/* The search's warps (resident, of the listing kernel when list, at most
   one an entry, their stacks within the budget: fewer warps as it falls,
   one at least) and their stacks. */
static inline gclq_status gclq__match_stacks(gclq__dev *c, const gclq__mgraph *G, const gclq__mq *Q, bool list,
                                             gclq__dmem *stack, uint64_t *warps) {
  const uint64_t room = G->max_degree > 0 ? G->max_degree : 1, levels = Q->q > 3 ? Q->q - 3 : 0;
  const uint64_t per_warp = levels * room * sizeof(uint32_t);
  uint64_t blocks = 0, room_bytes, w;
  if (list) GCLQ__TRY(gclq__fm_resident(gclq__match_kernel<true>, 32 * GCLQ__CWARPS, &blocks));
  else GCLQ__TRY(gclq__fm_resident(gclq__match_kernel<false>, 32 * GCLQ__CWARPS, &blocks));
  w = blocks * GCLQ__CWARPS;
  if (w > G->entries) w = G->entries > 0 ? G->entries : 1;
  room_bytes = c->used < c->budget ? c->budget - c->used : 0;
  if (per_warp > 0 && w > room_bytes / per_warp) w = room_bytes / per_warp;
  while (w > 1 && per_warp > 0 && !gclq__dev_fits(c, (size_t)(w * per_warp))) w = w * 3 / 4;
  if (w == 0) w = 1; /* the allocation below then reports the shortage */
  *warps = w;
  return stack->get((size_t)(per_warp > 0 ? w * per_warp : sizeof(uint32_t)));
}

/* One pass of the search (W listing's window, or NULL for a count alone)
   adding its count to acc[0]. */
static inline gclq_status gclq__match_pass(gclq__dev *c, const gclq__mgraph *G, const gclq__mq *Q,
                                           gclq__dmem *stack, uint64_t warps, unsigned long long *acc,
                                           const gclq__mwin *W) {
  const unsigned grid = (unsigned)((warps + GCLQ__CWARPS - 1) / GCLQ__CWARPS);
  const uint64_t room = G->max_degree > 0 ? G->max_degree : 1;
  gclq__mwin none;
  if (W != NULL) {
    gclq__match_kernel<true><<<grid, 32 * GCLQ__CWARPS, 0, c->stream>>>(
        G->n, G->off, G->nbr, G->lab, G->lkey, *Q, stack->as<uint32_t>(), room, warps, acc, *W);
  } else {
    memset(&none, 0, sizeof none);
    gclq__match_kernel<false><<<grid, 32 * GCLQ__CWARPS, 0, c->stream>>>(
        G->n, G->off, G->nbr, G->lab, G->lkey, *Q, stack->as<uint32_t>(), room, warps, acc, none);
  }
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* The count on the device graph into *count. */
static inline gclq_status gclq__match_cuda_count(gclq__dev *c, const gclq__mgraph *G, const gclq__mq *Q,
                                                 uint64_t *count) {
  gclq__dmem acc(c), stack(c);
  unsigned long long h = 0;
  uint64_t warps = 0;
  c->phase = "match: count";
  GCLQ__TRY(acc.get(sizeof h));
  GCLQ__CUDA_TRY(cudaMemsetAsync(acc.p, 0, sizeof h, c->stream));
  if (Q->q == 1) {
    gclq__match_roots_kernel<<<gclq__grid(G->n), GCLQ__BLOCK, 0, c->stream>>>(G->n, Q->labelled ? G->lab : NULL,
                                                                              Q->label[0], acc.as<unsigned long long>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  } else {
    GCLQ__TRY(gclq__match_stacks(c, G, Q, false, &stack, &warps));
    GCLQ__TRY(gclq__match_pass(c, G, Q, &stack, warps, acc.as<unsigned long long>(), NULL));
  }
  GCLQ__TRY(gclq__dev_read(c, &h, acc.p, sizeof h));
  *count = h;
  gclq__dev_log(c, "match: counted");
  return GCLQ_SUCCESS;
}

/* Each of n rows of q ids (rows) into the host heap K (HOST's keep:
   gclq__match_found); OUT_OF_MEMORY when it cannot grow. */
static inline gclq_status gclq__match_keep_rows(gclq__match_run *K, const uint32_t *rows, uint64_t n) {
  uint64_t i;
  for (i = 0; i < n && K->status == GCLQ_SUCCESS; ++i) {
    memcpy(K->img, rows + i * K->Q->q, K->Q->q * sizeof(uint32_t));
    gclq__match_found(K);
  }
  return K->status;
}

/* The t-th smallest of n rows (t <= n) into hi. */
static inline gclq_status gclq__match_tth_row(const gclq__query *HQ, const uint32_t *rows, uint64_t n, uint64_t t,
                                              uint32_t *hi) {
  gclq__match_run T;
  memset(&T, 0, sizeof T);
  T.Q = HQ;
  T.max_stored = t;
  if (gclq__match_keep_rows(&T, rows, n) == GCLQ_SUCCESS) memcpy(hi, T.heap, HQ->q * sizeof(uint32_t));
  GCLQ_FREE(T.heap);
  return T.status;
}

/* One listing pass over window W: h[0] its count, h[1] its window's rows,
   the first min(h[1], W->cap) of them into buf. */
static inline gclq_status gclq__match_list_pass(gclq__dev *c, const gclq__mgraph *G, const gclq__mq *Q,
                                                gclq__dmem *stack, uint64_t warps, gclq__dmem *acc,
                                                const gclq__mwin *W, uint32_t *buf, unsigned long long *h) {
  GCLQ__CUDA_TRY(cudaMemsetAsync(acc->p, 0, 2 * sizeof(unsigned long long), c->stream));
  GCLQ__TRY(gclq__match_pass(c, G, Q, stack, warps, acc->as<unsigned long long>(), W));
  GCLQ__TRY(gclq__dev_read(c, h, acc->p, 2 * sizeof(unsigned long long)));
  if (h[1] > 0)
    GCLQ__TRY(gclq__dev_read(c, buf, W->rows, (size_t)((h[1] < W->cap ? h[1] : W->cap) * Q->q * sizeof(uint32_t))));
  return GCLQ_SUCCESS;
}

/* Listing's passes (see the top of this file) into the host heap K (K->Q
   the query, K->max_stored the rows wanted); *count from the first. */
static inline gclq_status gclq__match_cuda_list(gclq__dev *c, const gclq__mgraph *G, const gclq__mq *Q,
                                                gclq__match_run *K, uint64_t *count) {
  gclq__dmem acc(c), rows(c), stack(c);
  gclq__mwin W;
  unsigned long long h[2];
  const uint64_t q = Q->q, want = K->max_stored;
  uint64_t cap, warps = 0, pass, room_bytes, t;
  uint32_t *buf = NULL;
  gclq_status st = GCLQ_SUCCESS;
  char line[128];
  c->phase = "match: list";
  cap = want > GCLQ__MATCH_LIST_MAX_ROWS / 2 ? GCLQ__MATCH_LIST_MAX_ROWS : 2 * want;
  if (cap < GCLQ__MATCH_LIST_MIN_ROWS) cap = GCLQ__MATCH_LIST_MIN_ROWS;
  room_bytes = c->used < c->budget ? c->budget - c->used : 0;
  if (cap > room_bytes / 2 / (q * sizeof(uint32_t))) cap = room_bytes / 2 / (q * sizeof(uint32_t));
  if (cap < 2) return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ__TRY(acc.get(sizeof h));
  GCLQ__TRY(rows.get((size_t)(cap * q * sizeof(uint32_t))));
  GCLQ__TRY(gclq__match_stacks(c, G, Q, true, &stack, &warps));
  buf = (uint32_t *)gclq__alloc_array(cap * q, sizeof(uint32_t));
  if (buf == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(&W, 0, sizeof W);
  memset(W.hi, 0xff, sizeof W.hi);
  W.rows = rows.as<uint32_t>(), W.emitted = acc.as<unsigned long long>() + 1, W.cap = cap;
  for (pass = 0; st == GCLQ_SUCCESS; ++pass) {
    st = gclq__match_list_pass(c, G, Q, &stack, warps, &acc, &W, buf, h);
    if (st != GCLQ_SUCCESS) break;
    if (pass == 0) *count = h[0];
    snprintf(line, sizeof line, "match: listing pass %llu: %llu rows in the window, room for %llu",
             (unsigned long long)pass + 1, (unsigned long long)h[1], (unsigned long long)cap);
    gclq__dev_log(c, line);
    if (h[1] > cap) { /* the window holds more than the buffer: lower hi */
      t = want - K->stored < cap / 2 ? want - K->stored : cap / 2;
      st = gclq__match_tth_row(K->Q, buf, cap, t, W.hi);
      continue;
    }
    st = gclq__match_keep_rows(K, buf, h[1]);
    if (st != GCLQ_SUCCESS || K->stored == want || W.hi[0] == 0xffffffffu) break; /* every row seen, or enough */
    W.has_lo = 1; /* the next window: above this one */
    memcpy(W.lo, W.hi, sizeof W.lo);
    memset(W.hi, 0xff, sizeof W.hi);
  }
  GCLQ_FREE(buf);
  return st;
}

/* G's lists by (label, id) into key (G->lkey then points there): each
   entry's key, then each list sorted; OUT_OF_MEMORY, nothing tried, when
   the keys and as much again for the sort do not fit. */
static inline gclq_status gclq__match_cuda_label_lists(gclq__dev *c, gclq__mgraph *G, gclq__dmem *key) {
  const cudaStream_t stream = c->stream;
  const uint64_t *off = G->off;
  c->phase = "match: lists by label";
  if (!gclq__dev_fits(c, (size_t)(2 * G->entries * sizeof(uint64_t)))) return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ__TRY(key->get((size_t)G->entries * sizeof(uint64_t)));
  uint64_t *k = key->as<uint64_t>();
  gclq__match_label_keys_kernel<<<gclq__grid(G->entries), GCLQ__BLOCK, 0, stream>>>(G->entries, G->nbr, G->lab, k);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_segmented_sort_keys(t, tb, (const uint64_t *)k, k, (size_t)G->entries, (size_t)G->n, off, stream);
  }));
  G->lkey = k;
  return GCLQ_SUCCESS;
}

/* The graph on the device (pg's lists in rank ids for a count, the
   caller's CSR uploaded otherwise: a listing's rows are the embeddings that
   meet the restrictions in compact id order, HOST's) and the labels the
   query needs, then (a labelled query) the lists by label when they fit,
   and the count (K NULL) or the listing into K; *ms the wall time of the
   last two, the graph on the device. */
static inline gclq_status gclq__match_cuda_graph(gclq__dev *c, const gclq_graph *g, const gclq_prepared_graph *pg,
                                                 const gclq__mq *Q, gclq__match_run *K, uint64_t *count, double *ms) {
  const uint32_t n = g->num_vertices;
  gclq__dgraph dg;
  gclq__dmem off(c), nbr(c), deg(c), core(c), lab(c), ranked(c), lkey(c);
  gclq__mgraph G;
  uint32_t v;
  memset(&G, 0, sizeof G);
  G.n = n, G.entries = 2 * g->num_edges;
  for (v = 0; v < n; ++v)
    if (g->h_offsets[v + 1] - g->h_offsets[v] > G.max_degree) G.max_degree = (uint32_t)(g->h_offsets[v + 1] - g->h_offsets[v]);
  memset(&dg, 0, sizeof dg);
  c->phase = "match: upload";
  if (K != NULL) pg = NULL;
  if (pg != NULL) {
    G.off = pg->o.d_uoff, G.nbr = pg->o.d_unbr;
  } else {
    GCLQ__TRY(gclq__graph_upload(c, g, &dg, &off, &nbr, &deg, &core));
    deg.release();
    core.release();
    G.off = dg.d_off, G.nbr = dg.d_nbr;
  }
  if (Q->labelled) {
    GCLQ__TRY(lab.get((size_t)n * sizeof(uint32_t)));
    GCLQ__CUDA_TRY(cudaMemcpyAsync(lab.p, g->h_labels, (size_t)n * sizeof(uint32_t), cudaMemcpyHostToDevice, c->stream));
    G.lab = lab.as<uint32_t>();
    if (pg != NULL) { /* the labels of rank ids */
      GCLQ__TRY(ranked.get((size_t)n * sizeof(uint32_t)));
      gclq__match_rank_labels_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(n, pg->o.d_rank, G.lab,
                                                                                  ranked.as<uint32_t>());
      GCLQ__CUDA_TRY(cudaGetLastError());
      G.lab = ranked.as<uint32_t>();
    }
  }
  GCLQ__CUDA_TRY(cudaStreamSynchronize(c->stream));
  const gclq__clock::time_point t0 = gclq__clock::now();
  const bool by_label = Q->labelled && Q->q > 2 && G.entries > 0;
  gclq_status st = by_label ? gclq__match_cuda_label_lists(c, &G, &lkey) : GCLQ_SUCCESS;
  if (st == GCLQ_ERROR_OUT_OF_MEMORY) st = GCLQ_SUCCESS; /* G.lkey stays NULL */
  if (st == GCLQ_SUCCESS)
    st = K != NULL ? gclq__match_cuda_list(c, &G, Q, K, count) : gclq__match_cuda_count(c, &G, Q, count);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY && G.lkey != NULL && (K == NULL || K->stored == 0)) {
    /* no room for the search beside the lists by label (and no row kept yet): again without them */
    G.lkey = NULL;
    lkey.release();
    st = K != NULL ? gclq__match_cuda_list(c, &G, Q, K, count) : gclq__match_cuda_count(c, &G, Q, count);
  }
  if (by_label && G.lkey == NULL)
    gclq__dev_log(c, "match: no room for the lists by label; each candidate's label is tested instead");
  *ms = gclq__ms_since(t0);
  return st;
}

/* Q's matches in g in mode on the current device under budget bytes (0: the
   default), from pg when not NULL: the count, and with max_stored > 0 the
   smallest max_stored rows, ascending (query vertex order, compact ids;
   *rows GCLQ_MALLOC'd, NULL when none), as gclq__host_match gives them;
   *count_ms their wall time from the graph on the device. A one-vertex
   query's rows are its label's vertices, read on the host: no search. */
static inline gclq_status gclq__cuda_match(const gclq_graph *g, const gclq__query *Q, gclq_match_mode mode,
                                           size_t budget, const gclq_prepared_graph *pg,
                                           void (*log)(void *, const char *), void *log_user, uint64_t max_stored,
                                           uint64_t *count, double *count_ms, uint64_t *stored, uint32_t **rows) {
  gclq__dev c;
  gclq__mq m;
  gclq__pool_keep keep;
  gclq__match_run K;
  gclq_status st = GCLQ_SUCCESS;
  *count = 0, *count_ms = 0, *stored = 0, *rows = NULL;
  if (pg != NULL && !gclq__prepared_of(pg, g)) return GCLQ_ERROR_INVALID_ARGUMENT;
  GCLQ__TRY(gclq__device_start(&budget));
  if (g->num_vertices == 0 || (g->num_edges == 0 && Q->q > 1)) return GCLQ_SUCCESS; /* nothing to match */
  if (max_stored > 0 && Q->q == 1) return gclq__host_match(g, Q, mode, max_stored, log, log_user, count, stored, rows);
  gclq__mq_make(Q, mode, &m);
  memset(&K, 0, sizeof K);
  K.Q = Q;
  K.max_stored = max_stored;
  gclq__dev_init(&c, NULL, NULL, budget);
  c.log = log;
  c.log_user = log_user;
  gclq__pool_keep_begin(&keep, &c.allocator);
  st = gclq__match_cuda_graph(&c, g, pg, &m, max_stored > 0 ? &K : NULL, count, count_ms);
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  gclq__pool_keep_end(&keep);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(K.heap);
    return st;
  }
  *stored = K.stored;
  while (K.stored > 1) { /* heap sort: ascending rows */
    gclq__match_row_swap(&K, 0, --K.stored);
    gclq__match_sift_down(&K, 0, K.stored);
  }
  *rows = K.heap;
  return GCLQ_SUCCESS;
}
