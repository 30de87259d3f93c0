/* clique/maxclique/kernels.cuh - device code of the maximum clique search
   (ch. 2 of Geil, "Tackling GPU Memory Size Limitations"): the greedy
   heuristic's helpers, the colour bound, the 2-clique list and the levels
   of the breadth-first search, and the bitset search over local graphs. Its
   driver is clique/maxclique/cuda.cuh. */
/* ---------------------------------------------------------------------------
   heuristic helpers (the dissertation, sec. 2.4.3, Alg. 2)
   ------------------------------------------------------------------------- */

/* select predicate: is x a neighbour of v? */
struct gclq__adjacent_to {
  const uint64_t *off;
  const uint32_t *nbr;
  uint32_t v;
  __device__ bool operator()(uint32_t x) const { return gclq__d_adjacent(off, nbr, v, x); }
};

/* out = {number selected, the first of them (0 when none)}: one read per step */
static __global__ void gclq__peek_kernel(const size_t *num, const uint32_t *list, uint64_t *out) {
  out[0] = *num;
  out[1] = *num ? list[0] : 0;
}

/* Multi-run: segment s holds the candidates of run s; cnt[s] = deg(seed s). */
static __global__ void gclq__seed_degree_kernel(const uint32_t *seeds, uint32_t h, const uint32_t *deg,
                                                uint64_t *cnt) {
  uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < h) cnt[s] = deg[seeds[s]];
  if (s == h) cnt[h] = 0;
}

/* Multi-run setup: item j of segment parent[j] is the rank[j]-th neighbour of its seed. */
static __global__ void gclq__seed_fill_kernel(const uint64_t *parent, const uint64_t *rank, uint64_t total,
                                              const uint32_t *seeds, const uint64_t *off, const uint32_t *nbr,
                                              const uint32_t *key, uint32_t *cv, uint32_t *ck, uint32_t *cs) {
  uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= total) return;
  uint32_t s = (uint32_t)parent[j], v = nbr[off[seeds[s]] + rank[j]];
  cv[j] = v;
  ck[j] = key[v];
  cs[j] = s;
}

/* Multi-run step: each non-empty run takes its candidate of highest key. */
static __global__ void gclq__pick_kernel(const uint64_t *idx, uint32_t h, const uint32_t *cv, uint32_t *pick,
                                         uint32_t *size) {
  uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= h) return;
  uint64_t i = idx[s];
  if (i == ~(uint64_t)0) {
    pick[s] = 0xffffffffu;
  } else {
    pick[s] = cv[i];
    size[s] += 1;
  }
}

/* Multi-run step: a candidate stays when it is a neighbour of its run's pick. */
static __global__ void gclq__keep_kernel(const uint32_t *cv, const uint32_t *cs, uint64_t total, const uint32_t *pick,
                                         const uint64_t *off, const uint32_t *nbr, uint8_t *flag) {
  uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= total) return;
  uint32_t p = pick[cs[j]], v = cv[j];
  flag[j] = (uint8_t)(v != p && gclq__d_adjacent(off, nbr, p, v));
}

/* ---------------------------------------------------------------------------
   colour bound, a warp per candidate list (cliqt_bfs_simulate in
   tests/internal_clique.h is the serial twin: the same lists, colours and
   order, so its figures predict the device's). The children of a parent (its later siblings adjacent to it, or
   a source's kept out-neighbours) are gathered into shared memory in list
   order; with at most GCLQ__COLOUR_CAP of them, their adjacency matrix is
   built (one bit per pair) and coloured greedily class by class in list
   order; colour classes are independent sets, so k + colours bounds every
   clique through the parent. Children are written highest colour first (the
   colouring order reversed), so each child's own candidates lie in lower
   classes (Tomita's MCQ order).
   ------------------------------------------------------------------------- */
#define GCLQ__CWORDS (GCLQ__COLOUR_CAP / 32)
struct gclq__colour_smem {
  uint32_t list[GCLQ__COLOUR_CAP];
  uint32_t seq[GCLQ__COLOUR_CAP];
  uint32_t adj[GCLQ__COLOUR_CAP][GCLQ__CWORDS];
};

/* Greedy colouring of sm->list[0 .. c), c <= GCLQ__COLOUR_CAP, by the warp.
   sm->seq gets the list positions in colouring order; *low = how many of
   them are in classes below need. Returns the colours. */
static __device__ uint32_t gclq__d_warp_colour(gclq__colour_smem *sm, uint32_t c, uint32_t need, uint32_t *low,
                                               const uint64_t *off, const uint32_t *nbr) {
  const uint32_t lane = threadIdx.x & 31, words = (c + 31) / 32;
  for (uint32_t i = lane; i < c * GCLQ__CWORDS; i += 32) sm->adj[i / GCLQ__CWORDS][i % GCLQ__CWORDS] = 0;
  __syncwarp();
  /* adjacency: row x, words from x's own; lanes take y = 32 w + lane > x */
  for (uint32_t x = 0; x < c; ++x) {
    uint32_t vx = sm->list[x];
    for (uint32_t w = (x + 1) / 32; w < words; ++w) {
      uint32_t y = 32 * w + lane;
      bool a = y > x && y < c && gclq__d_adjacent(off, nbr, vx, sm->list[y]);
      uint32_t bits = __ballot_sync(0xffffffffu, a);
      if (lane == 0) sm->adj[x][w] |= bits;
      if (a) sm->adj[y][x / 32] |= 1u << (x % 32); /* row y: one lane each, no conflict */
      __syncwarp();
    }
  }
  /* class by class: lane w holds word w of the uncoloured and open sets */
  uint32_t uncol = lane < words ? (lane + 1 < words || c % 32 == 0 ? 0xffffffffu : (1u << (c % 32)) - 1u) : 0u;
  uint32_t colours = 0, n = 0;
  *low = 0;
  while (n < c) {
    uint32_t open = uncol;
    if (++colours == need) *low = n;
    for (;;) {
      uint32_t any = __ballot_sync(0xffffffffu, open != 0);
      if (any == 0) break;
      uint32_t fl = __ffs(any) - 1, word = __shfl_sync(0xffffffffu, open, fl);
      uint32_t v = 32 * fl + __ffs(word) - 1;
      if (lane < words) open &= ~sm->adj[v][lane];
      if (lane == fl) {
        open &= ~(1u << (v % 32));
        uncol &= ~(1u << (v % 32));
      }
      if (lane == 0) sm->seq[n] = v;
      ++n;
    }
  }
  if (colours < need) *low = c; /* every class is below need */
  __syncwarp();
  return colours;
}

/* The children of a parent of size k: cand[j] (0 <= j < nc) adjacent to v
   (v == ~0: all, with keep[] deciding; used by the setup). cand may carry
   GCLQ__DEAD bits (a sibling list). Returns their number c, or 0 when the
   parent is pruned; when c <= GCLQ__COLOUR_CAP they are in sm->list in output
   order. *live: how many of them (a prefix) may be expanded: the rest start
   no clique of the target's size (their colour class is too low) and are
   written with GCLQ__DEAD. Warp-uniform. */
struct gclq__list_src {
  const uint32_t *cand; /* the list, or a CSR row (setup) */
  uint64_t nc;
  uint32_t v;           /* the parent's vertex, ~0 in the setup */
};
template <typename Keep>
static __device__ uint32_t gclq__d_children(gclq__colour_smem *sm, const gclq__list_src &s, uint32_t k,
                                            uint32_t target, int colour, const uint64_t *off, const uint32_t *nbr,
                                            Keep keep, uint32_t *live) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t c = 0;
  *live = 0;
  for (uint64_t j0 = 0; j0 < s.nc; j0 += 32) {
    if ((uint64_t)k + c + (s.nc - j0) < target) return 0; /* cannot reach the target any more */
    uint64_t j = j0 + lane;
    uint32_t u = j < s.nc ? __ldg(s.cand + j) & ~GCLQ__DEAD : 0;
    bool a = j < s.nc && keep(u) && (s.v == 0xffffffffu || gclq__d_adjacent(off, nbr, s.v, u));
    uint32_t ballot = __ballot_sync(0xffffffffu, a);
    uint32_t at = c + __popc(ballot & ((1u << lane) - 1u));
    if (a && at < GCLQ__COLOUR_CAP) sm->list[at] = u;
    c += __popc(ballot);
  }
  __syncwarp();
  if ((uint64_t)k + c < target) return 0;
  *live = c;
  if (colour && c <= GCLQ__COLOUR_CAP && c > 0) {
    uint32_t low, colours = gclq__d_warp_colour(sm, c, target > k ? target - k : 0, &low, off, nbr);
    if ((uint64_t)k + colours < target) {
      *live = 0;
      return 0;
    }
    *live = c - low;
    /* highest colour first: list[i] = old list[seq[c - 1 - i]] (via adj's storage, now free) */
    uint32_t *tmp = &sm->adj[0][0];
    for (uint32_t i = lane; i < c; i += 32) tmp[i] = sm->list[sm->seq[c - 1 - i]];
    __syncwarp();
    for (uint32_t i = lane; i < c; i += 32) sm->list[i] = tmp[i];
    __syncwarp();
  }
  return c;
}

struct gclq__keep_all {
  __device__ bool operator()(uint32_t) const { return true; }
};

/* ---------------------------------------------------------------------------
   2-clique setup (the dissertation, Alg. 3), a warp per source vertex
   ------------------------------------------------------------------------- */
struct gclq__setup_args {
  const uint32_t *order;  /* source vertices in window order */
  uint32_t n;
  const uint64_t *off;
  const uint32_t *nbr;
  const uint32_t *deg;
  const uint32_t *filter; /* degree or core number: pre-pruning */
  uint32_t target;        /* cliques searched have at least this size */
  const uint32_t *round;  /* non-NULL: oriented by (peeling round, id) */
  int orient_index;
  int colour;             /* the colour bound (else the length bound) */
};

/* Does the edge v -> u belong to v (orientation), and can u be in a clique of size target? */
static __device__ __forceinline__ bool gclq__d_keep_edge(const gclq__setup_args &a, uint32_t v, uint32_t u) {
  bool owned = a.round != NULL ? a.round[v] < a.round[u] || (a.round[v] == a.round[u] && v < u)
               : a.orient_index ? v < u
                                : (a.deg[v] < a.deg[u] || (a.deg[v] == a.deg[u] && v < u));
  return owned && (uint64_t)a.filter[u] + 1 >= a.target;
}

struct gclq__keep_edge_of {
  const gclq__setup_args *a;
  uint32_t v;
  __device__ bool operator()(uint32_t u) const { return gclq__d_keep_edge(*a, v, u); }
};

/* Alg. 3 COUNTTWOCLIQUES, a warp per source: cnt[p] = kept out-neighbours of
   order[p], 0 when the source is pre-pruned or its list is bounded out
   (1 + count, or 1 + colours, below the target). */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__two_count_kernel(gclq__setup_args a, uint64_t *cnt) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (p > a.n) return;
  if (p == a.n) {
    if (lane == 0) cnt[a.n] = 0;
    return;
  }
  uint32_t v = a.order[p], c = 0;
  if ((uint64_t)a.filter[v] + 1 >= a.target) {
    gclq__list_src s = {a.nbr + a.off[v], a.off[v + 1] - a.off[v], 0xffffffffu};
    gclq__keep_edge_of keep = {&a, v};
    uint32_t live;
    c = gclq__d_children(&smem[threadIdx.x / 32], s, 1, a.target, a.colour, a.off, a.nbr, keep, &live);
  }
  if (lane == 0) cnt[p] = c;
}

/* Alg. 3 OUTPUTTWOCLIQUES: the kept out-neighbours of order[p] as sort keys
   (rank << 32 | vertex) and source ids; the rank is the colour order for a
   coloured list, the degree otherwise (the dissertation, Alg. 3: by degree), so the
   segmented sort that follows puts every sublist in its order. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__two_write_kernel(gclq__setup_args a, const uint64_t *pos,
                                                                               uint64_t *key, uint32_t *sid) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  gclq__colour_smem *sm = &smem[threadIdx.x / 32];
  uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (p >= a.n) return;
  uint64_t at = pos[p];
  if (pos[p + 1] == at) return;
  uint32_t v = a.order[p];
  gclq__list_src s = {a.nbr + a.off[v], a.off[v + 1] - a.off[v], 0xffffffffu};
  gclq__keep_edge_of keep = {&a, v};
  uint32_t c = (uint32_t)(pos[p + 1] - at);
  if (a.colour && c <= GCLQ__COLOUR_CAP) {
    uint32_t live;
    gclq__d_children(sm, s, 1, a.target, 1, a.off, a.nbr, keep, &live); /* the same list again, in colour order */
    for (uint32_t i = lane; i < c; i += 32) {
      key[at + i] = (uint64_t)i << 32 | sm->list[i] | (i < live ? 0u : GCLQ__DEAD);
      sid[at + i] = v;
    }
    return;
  }
  for (uint64_t e0 = a.off[v]; e0 < a.off[v + 1]; e0 += 32) {
    uint64_t e = e0 + lane;
    uint32_t u = e < a.off[v + 1] ? a.nbr[e] : 0;
    bool kept = e < a.off[v + 1] && gclq__d_keep_edge(a, v, u);
    uint32_t ballot = __ballot_sync(0xffffffffu, kept);
    if (kept) {
      uint64_t q = at + __popc(ballot & ((1u << lane) - 1u));
      key[q] = (uint64_t)a.deg[u] << 32 | u;
      sid[q] = v;
    }
    at += __popc(ballot);
  }
}

static __global__ void gclq__low_word_kernel(const uint64_t *key, uint64_t n, uint32_t *out) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (uint32_t)key[i];
}

/* ---------------------------------------------------------------------------
   breadth-first expansion (the dissertation, Alg. 4): level k holds k-cliques as
   (vertexID, sublistID); entries with the same sublistID form the candidate
   list of their parent. Entry i extends by every later entry j of its sublist
   whose vertex is adjacent to vertexID[i]; the children form a new sublist of
   level k + 1 with sublistID i. A child list so short that k + count < target
   is dropped (pruning by sublist length).
   ------------------------------------------------------------------------- */
struct gclq__level_args {
  const uint32_t *vid, *sid;
  uint64_t len;     /* entries of the level (sublists may run past the range) */
  uint64_t a, n;    /* the range of parents [a, a + n) */
  uint32_t k;       /* clique size of the level */
  uint32_t target;  /* only cliques of at least this size are wanted */
  int colour;       /* the colour bound (else the length bound) */
  const uint64_t *off;
  const uint32_t *nbr;
};

/* The candidate list of entry i: its later siblings (a warp finds the end). */
static __device__ gclq__list_src gclq__d_siblings(const gclq__level_args &a, uint64_t i) {
  const uint32_t lane = threadIdx.x & 31, s = a.sid[i];
  uint64_t e = i + 1;
  for (;;) {
    uint64_t j = e + lane;
    uint32_t out = __ballot_sync(0xffffffffu, j >= a.len || a.sid[j] != s);
    if (out) {
      e += __ffs(out) - 1;
      break;
    }
    e += 32;
  }
  gclq__list_src r = {a.vid + i + 1, e - i - 1, a.vid[i]};
  return r;
}

/* Alg. 4 COUNTCLIQUES with the bound, a warp per parent; cnt[n] = 0 so that
   an exclusive scan of n + 1 counts ends in the total. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__level_count_kernel(gclq__level_args a, uint64_t *cnt) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (t > a.n) return;
  if (t == a.n || (a.vid[a.a + t] & GCLQ__DEAD)) { /* the end, or a candidate-only entry */
    if (lane == 0) cnt[t] = 0;
    return;
  }
  gclq__list_src s = gclq__d_siblings(a, a.a + t);
  uint32_t live, c = gclq__d_children(&smem[threadIdx.x / 32], s, a.k, a.target, a.colour, a.off, a.nbr,
                                      gclq__keep_all(), &live);
  if (lane == 0) cnt[t] = c;
}

/* Alg. 4 OUTPUTNEWCLIQUES: parents with a non-empty child list write it at
   pos[t] - pos[0] (pos may be a suffix of a step's scanned counts), in the
   count kernel's order. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__level_write_kernel(gclq__level_args a, const uint64_t *pos,
                                                                                 uint32_t *vid_out, uint32_t *sid_out) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  gclq__colour_smem *sm = &smem[threadIdx.x / 32];
  uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (t >= a.n) return;
  uint64_t at = pos[t] - pos[0], end = pos[t + 1] - pos[0];
  if (at == end) return;
  uint64_t i = a.a + t;
  uint32_t c = (uint32_t)(end - at);
  gclq__list_src s = gclq__d_siblings(a, i);
  if (c <= GCLQ__COLOUR_CAP) {
    uint32_t live;
    gclq__d_children(sm, s, a.k, a.target, a.colour, a.off, a.nbr, gclq__keep_all(), &live);
    for (uint32_t q = lane; q < c; q += 32) {
      vid_out[at + q] = sm->list[q] | (q < live ? 0u : GCLQ__DEAD);
      sid_out[at + q] = (uint32_t)i;
    }
    return;
  }
  for (uint64_t j0 = 0; j0 < s.nc; j0 += 32) { /* a long list: list order, ballot compaction, all live */
    uint64_t j = j0 + lane;
    uint32_t u = j < s.nc ? s.cand[j] & ~GCLQ__DEAD : 0;
    bool keep = j < s.nc && gclq__d_adjacent(a.off, a.nbr, s.v, u);
    uint32_t ballot = __ballot_sync(0xffffffffu, keep);
    if (keep) {
      uint64_t q = at + __popc(ballot & ((1u << lane) - 1u));
      vid_out[q] = u;
      sid_out[q] = (uint32_t)i;
    }
    at += __popc(ballot);
  }
}

/* One step's size (one read): out[0] = pos[n], the children of all n parents;
   out[1] = m, the most parents from the first whose children fit in cap
   (pos[m] <= cap; at least 1 when n > 0); out[2] = pos[m]. One thread. */
static __global__ void gclq__step_kernel(const uint64_t *pos, uint64_t n, uint64_t cap, uint64_t *out) {
  uint64_t lo = 0, hi = n; /* pos[lo] <= cap */
  while (lo < hi) {
    uint64_t mid = (lo + hi + 1) >> 1;
    if (pos[mid] <= cap) lo = mid;
    else hi = mid - 1;
  }
  if (lo == 0 && n > 0) lo = 1;
  out[0] = pos[n];
  out[1] = lo;
  out[2] = pos[lo];
}

struct gclq__level_ptrs {
  const uint32_t *vid, *sid;
};

/* Readout (the dissertation, sec. 2.4.4): clique of entry a + t of level k, by following
   sublistIDs back to the 2-clique list, whose sublistID is the source. */
static __global__ void gclq__readout_kernel(const gclq__level_ptrs *lv, uint32_t k, uint64_t a, uint64_t n,
                                            uint32_t *out) {
  uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t *row = out + t * k;
  uint64_t p = a + t;
  for (uint32_t lev = k; lev > 2; --lev) {
    row[lev - 1] = lv[lev].vid[p] & ~GCLQ__DEAD;
    p = lv[lev].sid[p];
  }
  row[1] = lv[2].vid[p] & ~GCLQ__DEAD;
  row[0] = lv[2].sid[p];
}

/* ---------------------------------------------------------------------------
   The bitset search (gclq_search BITSET): the same breadth-first levels, but a
   k-clique is a node that carries its candidates. Each source s (a vertex
   that survives pre-pruning) gets a local graph: its kept out-neighbours
   L(s) (ascending ids) and their adjacency as d x words(d) bit rows, built
   once per window. A node of level k is (source, R, P): R the local vertices
   of the clique besides s (k - 1 bits), P the local vertices adjacent to all
   of it. Per node, a warp colours P greedily, class by class in index order,
   for need - 1 classes (need = target - k): every clique of the target's size
   through the node takes a vertex of what stays uncoloured, B (Tomita's MCQ
   bound, as in San Segundo's BBMC). The children are the b in B, highest index
   first, each with P_b = (P minus the B vertices above b) & N(b), kept when
   k + 1 + |P_b| reaches the target. Every clique is found once: in the branch
   of its highest B vertex. Nodes with P empty are cliques that cannot grow.
   Count / scan / write per step as the list search; words per lane WPL = 1, 2,
   4 (local graphs of up to 1024, 2048, 4096 vertices).
   ------------------------------------------------------------------------- */

struct gclq__bsrc { /* one source of a window */
  uint64_t loff;    /* L(s) at L + loff */
  uint64_t aoff;    /* its rows at adj + aoff: d rows of words(d) words */
  uint32_t v, d;
};
static __host__ __device__ __forceinline__ uint32_t gclq__bwords(uint32_t d) { return (d + 31) / 32; }

struct gclq__bits_args {
  const gclq__bsrc *src;
  const uint32_t *L, *adj;
  const uint32_t *nodes; /* level k: stride 2 nw + 1 words: [source][R: nw][P: nw] */
  uint32_t nw;
  uint64_t a, n;         /* the parents [a, a + n) */
  uint32_t k, target;
  int colour;            /* the colour bound (else the length bound: B = P) */
};

/* Words lane * WPL + j of a bit row of W words (zero past W). */
template <int WPL>
static __device__ __forceinline__ void gclq__bits_load(const uint32_t *row, uint32_t W, uint32_t (&x)[WPL]) {
  const uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int j = 0; j < WPL; ++j) x[j] = lane * WPL + j < W ? __ldg(row + lane * WPL + j) : 0u;
}
template <int WPL>
static __device__ __forceinline__ uint32_t gclq__bits_or(const uint32_t (&x)[WPL]) {
  uint32_t o = 0;
#pragma unroll
  for (int j = 0; j < WPL; ++j) o |= x[j];
  return o;
}
/* The lowest (first) or highest set bit of the warp's set x (not empty):
   its local index, the same on every lane. */
template <int WPL, bool HIGH>
static __device__ __forceinline__ uint32_t gclq__bits_pick(const uint32_t (&x)[WPL], uint32_t ballot) {
  const uint32_t at = HIGH ? 31 - __clz(ballot) : __ffs(ballot) - 1;
  uint32_t idx = 0;
  if (HIGH) {
#pragma unroll
    for (int j = 0; j < WPL; ++j)
      if (x[j]) idx = 32 * j + 31 - __clz(x[j]);
  } else {
#pragma unroll
    for (int j = WPL - 1; j >= 0; --j)
      if (x[j]) idx = 32 * j + __ffs(x[j]) - 1;
  }
  return 32 * WPL * at + __shfl_sync(GCLQ__FULL, idx, at);
}
template <int WPL>
static __device__ __forceinline__ void gclq__bits_clear(uint32_t (&x)[WPL], uint32_t v) {
  const uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int j = 0; j < WPL; ++j)
    if (v / 32 == lane * WPL + j) x[j] &= ~(1u << (v % 32));
}

/* Greedy colouring of the set U (rows adj, W words each), class by class in
   index order, at most `classes` classes: U keeps what is left uncoloured.
   Returns the classes used. Warp-uniform. */
template <int WPL>
static __device__ uint32_t gclq__bits_colour(const uint32_t *adj, uint32_t W, uint32_t (&U)[WPL], uint32_t classes) {
  uint32_t used = 0;
  while (used < classes && __any_sync(GCLQ__FULL, gclq__bits_or(U) != 0)) {
    uint32_t open[WPL];
#pragma unroll
    for (int j = 0; j < WPL; ++j) open[j] = U[j];
    ++used;
    for (;;) {
      uint32_t ballot = __ballot_sync(GCLQ__FULL, gclq__bits_or(open) != 0);
      if (ballot == 0) break;
      uint32_t v = gclq__bits_pick<WPL, false>(open, ballot), r[WPL];
      gclq__bits_load<WPL>(adj + (uint64_t)v * W, W, r);
#pragma unroll
      for (int j = 0; j < WPL; ++j) open[j] &= ~r[j];
      gclq__bits_clear<WPL>(open, v);
      gclq__bits_clear<WPL>(U, v);
    }
  }
  return used;
}

/* A node's source, W, P (and R when asked). */
struct gclq__bits_node {
  gclq__bsrc s;
  uint32_t si, W;
  const uint32_t *p; /* the node */
};
static __device__ __forceinline__ gclq__bits_node gclq__bits_at(const gclq__bits_args &a, uint64_t i) {
  gclq__bits_node nd;
  nd.p = a.nodes + i * (2 * (uint64_t)a.nw + 1);
  nd.si = nd.p[0];
  nd.s = a.src[nd.si];
  nd.W = gclq__bwords(nd.s.d);
  return nd;
}

/* The branch set B of a node with P (not empty): what need - 1 colour classes
   leave (all of P under the length bound). */
template <int WPL>
static __device__ __forceinline__ void gclq__bits_branch(const gclq__bits_args &a, const gclq__bits_node &nd,
                                                         const uint32_t (&P)[WPL], uint32_t (&B)[WPL]) {
  const uint32_t need = a.target > a.k ? a.target - a.k : 0;
#pragma unroll
  for (int j = 0; j < WPL; ++j) B[j] = P[j];
  if (a.colour && need > 1) gclq__bits_colour<WPL>(a.adj + nd.s.aoff, nd.W, B, need - 1);
}

/* Visit the children of a node, highest b of B first: f(b, P_b) for each one
   kept (k + 1 + |P_b| >= target). Returns how many. */
template <int WPL, typename F>
static __device__ __forceinline__ uint32_t gclq__bits_children(const gclq__bits_args &a, const gclq__bits_node &nd,
                                                               const uint32_t (&P)[WPL], const uint32_t (&B)[WPL],
                                                               F f) {
  uint32_t rest[WPL], cur[WPL], kept = 0;
#pragma unroll
  for (int j = 0; j < WPL; ++j) rest[j] = B[j], cur[j] = P[j];
  for (;;) {
    uint32_t ballot = __ballot_sync(GCLQ__FULL, gclq__bits_or(rest) != 0);
    if (ballot == 0) break;
    uint32_t b = gclq__bits_pick<WPL, true>(rest, ballot), r[WPL], c = 0;
    gclq__bits_clear<WPL>(rest, b);
    gclq__bits_clear<WPL>(cur, b);
    gclq__bits_load<WPL>(a.adj + nd.s.aoff + (uint64_t)b * nd.W, nd.W, r);
#pragma unroll
    for (int j = 0; j < WPL; ++j) r[j] &= cur[j], c += __popc(r[j]);
    c = __reduce_add_sync(GCLQ__FULL, c);
    if ((uint64_t)a.k + 1 + c >= a.target) f(kept++, b, r);
  }
  return kept;
}

struct gclq__bits_nop {
  template <int WPL> __device__ void operator()(uint32_t, uint32_t, const uint32_t (&)[WPL]) const {}
};

/* Count a step's parents, a warp each: cnt[t] = children (cnt[n] = 0 for the
   scan), B into bset (nw words a parent); nodes with P empty are counted in
   *leaves (cliques of size k that cannot grow). */
template <int WPL>
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_count_kernel(gclq__bits_args a, uint64_t *cnt,
                                                                                uint32_t *bset,
                                                                                unsigned long long *leaves) {
  const uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (t > a.n) return;
  if (t == a.n) {
    if (lane == 0) cnt[t] = 0;
    return;
  }
  gclq__bits_node nd = gclq__bits_at(a, a.a + t);
  uint32_t P[WPL], B[WPL], c = 0;
  gclq__bits_load<WPL>(nd.p + 1 + a.nw, nd.W, P);
  if (!__any_sync(GCLQ__FULL, gclq__bits_or(P) != 0)) {
    if (lane == 0) atomicAdd(leaves, 1ull);
  } else {
    gclq__bits_branch<WPL>(a, nd, P, B);
    c = gclq__bits_children<WPL>(a, nd, P, B, gclq__bits_nop());
#pragma unroll
    for (int j = 0; j < WPL; ++j)
      if (lane * WPL + j < a.nw) bset[t * a.nw + lane * WPL + j] = B[j];
  }
  if (lane == 0) cnt[t] = c;
}

/* Write the children of the parents [a, a + n) at pos[t] - pos[0], in the
   count kernel's order. */
template <int WPL>
struct gclq__bits_emit {
  uint32_t *out;
  uint64_t at;
  uint32_t nw, si;
  uint32_t R[WPL];
  __device__ void operator()(uint32_t i, uint32_t b, const uint32_t (&pb)[WPL]) const {
    const uint32_t lane = threadIdx.x & 31;
    uint32_t *o = out + (at + i) * (2 * (uint64_t)nw + 1);
    if (lane == 0) o[0] = si;
#pragma unroll
    for (int j = 0; j < WPL; ++j) {
      const uint32_t w = lane * WPL + j;
      if (w < nw) {
        o[1 + w] = R[j] | (b / 32 == w ? 1u << (b % 32) : 0u);
        o[1 + nw + w] = pb[j];
      }
    }
  }
};
template <int WPL>
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_write_kernel(gclq__bits_args a, const uint64_t *pos,
                                                                                const uint32_t *bset, uint32_t *out) {
  const uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (t >= a.n) return;
  const uint64_t at = pos[t] - pos[0];
  if (pos[t + 1] - pos[0] == at) return;
  gclq__bits_node nd = gclq__bits_at(a, a.a + t);
  uint32_t P[WPL], B[WPL];
  gclq__bits_emit<WPL> e;
  e.out = out, e.at = at, e.nw = a.nw, e.si = nd.si;
  gclq__bits_load<WPL>(nd.p + 1 + a.nw, nd.W, P);
  gclq__bits_load<WPL>(nd.p + 1, nd.W, e.R);
#pragma unroll
  for (int j = 0; j < WPL; ++j) B[j] = lane * WPL + j < a.nw ? bset[t * a.nw + lane * WPL + j] : 0u;
  gclq__bits_children<WPL>(a, nd, P, B, e);
}

/* Cliques of the parents [a, a + n) whose P is empty, as rows of k vertex ids
   (the source, then L(s) at R's bits) at rows + k * atomicAdd(num, 1), while
   fewer than cap. */
template <int WPL>
static __global__ void gclq__bits_record_kernel(gclq__bits_args a, uint32_t *rows, unsigned long long *num,
                                                unsigned long long cap) {
  const uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (t >= a.n) return;
  gclq__bits_node nd = gclq__bits_at(a, a.a + t);
  uint32_t P[WPL], R[WPL], mine = 0;
  gclq__bits_load<WPL>(nd.p + 1 + a.nw, nd.W, P);
  if (__any_sync(GCLQ__FULL, gclq__bits_or(P) != 0)) return;
  gclq__bits_load<WPL>(nd.p + 1, nd.W, R);
  unsigned long long r = 0;
  if (lane == 0) r = atomicAdd(num, 1ull);
  r = __shfl_sync(GCLQ__FULL, r, 0);
  if (r >= cap) return;
  uint32_t *row = rows + r * a.k;
#pragma unroll
  for (int j = 0; j < WPL; ++j) mine += __popc(R[j]);
  uint32_t at = gprim__warp_inclusive_sum_u32(mine) - mine + 1; /* after the source */
  if (lane == 0) row[0] = nd.s.v;
#pragma unroll
  for (int j = 0; j < WPL; ++j)
    for (uint32_t x = R[j]; x; x &= x - 1) row[at++] = a.L[nd.s.loff + 32 * (lane * WPL + j) + __ffs(x) - 1];
}

/* Window setup. Sizes: d[p] = the kept out-neighbours of order[p] (0 when the
   source is pre-pruned, or 1 + d is below the target), a warp per source. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_size_kernel(gclq__setup_args a, uint32_t *d) {
  const uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (p >= a.n) return;
  const uint32_t v = a.order[p];
  uint32_t c = 0;
  if ((uint64_t)a.filter[v] + 1 >= a.target)
    for (uint64_t e0 = a.off[v]; e0 < a.off[v + 1]; e0 += 32) {
      const uint64_t e = e0 + lane;
      c += __popc(__ballot_sync(GCLQ__FULL, e < a.off[v + 1] && gclq__d_keep_edge(a, v, a.nbr[e])));
    }
  if (lane == 0) d[p] = (uint64_t)c + 1 >= a.target ? c : 0;
}

/* L(s) of each source of the window (its table entry given), a warp each. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_list_kernel(gclq__setup_args a,
                                                                               const gclq__bsrc *src, uint32_t ns,
                                                                               uint32_t *L) {
  const uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (p >= ns) return;
  const gclq__bsrc s = src[p];
  uint64_t at = s.loff;
  if (s.d == 0) return;
  for (uint64_t e0 = a.off[s.v]; e0 < a.off[s.v + 1]; e0 += 32) {
    const uint64_t e = e0 + lane;
    const uint32_t u = e < a.off[s.v + 1] ? a.nbr[e] : 0;
    const bool kept = e < a.off[s.v + 1] && gclq__d_keep_edge(a, s.v, u);
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, kept);
    if (kept) L[at + __popc(ballot & ((1u << lane) - 1u))] = u;
    at += __popc(ballot);
  }
}

/* The adjacency rows: a warp per local vertex (rows [0, total) of the window,
   source found by binary search on loff). */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_rows_kernel(const gclq__bsrc *src, uint32_t ns,
                                                                               uint64_t total, const uint32_t *L,
                                                                               const uint64_t *off, const uint32_t *nbr,
                                                                               uint32_t *adj) {
  const uint64_t r = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (r >= total) return;
  uint32_t lo = 0, hi = ns - 1; /* the last source with loff <= r */
  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) / 2;
    if (src[mid].loff <= r) lo = mid;
    else hi = mid - 1;
  }
  const gclq__bsrc s = src[lo];
  const uint32_t x = (uint32_t)(r - s.loff), W = gclq__bwords(s.d), u = L[r];
  uint32_t *row = adj + s.aoff + (uint64_t)x * W;
  for (uint32_t w = 0; w < W; ++w) {
    const uint32_t y = 32 * w + lane;
    const bool bit = y < s.d && y != x && gclq__d_adjacent(off, nbr, u, L[s.loff + y]);
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, bit);
    if (lane == 0) row[w] = ballot;
  }
}

/* The colour bound of each source's whole local graph: *ub = max over the
   sources of 1 + colours (no clique of the window is larger). */
template <int WPL>
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_ub_kernel(const gclq__bsrc *src, uint32_t ns,
                                                                             const uint32_t *adj, uint32_t *ub) {
  const uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (p >= ns) return;
  const gclq__bsrc s = src[p];
  uint32_t U[WPL];
#pragma unroll
  for (int j = 0; j < WPL; ++j) {
    const uint32_t w = lane * WPL + j;
    U[j] = 32 * w + 32 <= s.d ? GCLQ__FULL : 32 * w < s.d ? (1u << (s.d % 32)) - 1u : 0u;
  }
  const uint32_t colours = gclq__bits_colour<WPL>(adj + s.aoff, gclq__bwords(s.d), U, s.d + 1);
  if (lane == 0) atomicMax(ub, 1 + colours);
}

/* Level 1 of a window: a node per source, R empty, P all of L(s). */
static __global__ void gclq__bits_root_kernel(const gclq__bsrc *src, uint32_t ns, uint32_t nw, uint32_t *nodes) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (uint64_t)ns * (2 * nw + 1)) return;
  const uint64_t p = i / (2 * nw + 1);
  const uint32_t f = (uint32_t)(i % (2 * nw + 1)), d = src[p].d;
  uint32_t x = (uint32_t)p;
  if (f > 0 && f <= nw) x = 0;
  if (f > nw) {
    const uint32_t w = f - nw - 1;
    x = 32 * w + 32 <= d ? GCLQ__FULL : 32 * w < d ? (1u << (d % 32)) - 1u : 0u;
  }
  nodes[i] = x;
}
