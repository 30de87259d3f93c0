/* clique/kcliques/pivot.cuh - k-clique counting by pivoting on the device
   (GCLQ_KCLIQUE_PIVOT on CUDA; its driver is in clique/kcliques/cuda.cuh):
   the succinct clique trees of Jain and Seshadhri, "The Power of Pivoting
   for Exact Clique Counting", built node for node as the HOST method builds
   them (gclq__kc_pivot in clique/kcliques/host.h: the same pivot rule, so
   the node counts compare).

   Per source v, its out-neighbours out(v) (d of them, ascending ids) are a
   local graph with FULL adjacency among them (undirected inside, as
   pivoting needs): d bit rows of W = ceil(d / 32) words, built by a warp per
   local vertex (lanes over the other vertices, adjacency by binary search
   in the undirected graph). Warps walk the trees depth-first, each with an
   explicit stack of its own: a level holds the candidates P (W words), what
   is left to branch on (W words) and the node's required / pivot counts.
   At a node the pivot is the candidate with the most candidate neighbours
   (ties: the highest local index; lanes over the 32 vertices of a word, a
   warp argmax); candidates adjacent to all others become pivots together.
   The children: the pivot u (P & N(u)), then each candidate w not adjacent
   to u in ascending order (P & N(w), less u and the earlier such w).

   Load balance (one source's tree can hold a large share of all nodes):
   the trees run as tasks in rounds, a warp slot taking the next task by
   ticket. A task is a source's tree from its root, or a level handed on.
   A task that has visited GCLQ__KCP_SPILL_NODES nodes hands each open
   level of its stack (one with branches left) on as a task of its own (the
   level's candidates, branches left, counts and the ids above it: those
   subtrees share nothing unvisited) and stops. Handed-on tasks go on a
   stack of tasks in device memory; a round takes the top
   GCLQ__KCP_ROUND_TASKS tasks per warp slot from it (the newest first, so
   the stack stays shallow, as a depth-first walk's does) and, while there
   is room in the round, the next sources of the window from their roots.
   Its tasks push what they hand on above the stack's top; the host then
   moves the newest of those into the hole the round's tasks left
   (gclq__kcp_settle). So no task walks more than about
   GCLQ__KCP_SPILL_NODES nodes and no round takes long, unless the stack is
   full: a task with room for only some of its open levels hands on the
   shallowest and walks the rest itself. A round takes fewer tasks (not
   fewer than the warp slots) when the room left over the top would not
   hold twice what they hand on at the last round's rate.

   A leaf with r required and p pivot vertices holds C(p, j) cliques of size
   r + j for every j:
     one k:      C(p, k - r) added to a per-warp sum (its wrap flagged), one
                 gclq__kc_d_add per warp; per-vertex counts get C(p, k - r)
                 per required vertex and C(p - 1, k - r - 1) per pivot vertex
                 (a table of binomials saturated at UINT64_MAX: a saturated
                 term flags the count);
     every size: the leaf is tallied by (r, p) in a triangular table of
                 64-bit counters (a warp adds each run of equal leaves at
                 once); the host adds tally * C(p, j) into
                 h_count[r + j] (saturated) and d->deepest is the largest
                 r + p of a leaf (omega).

   One k without per-vertex counts: a node with at most two required
   vertices to go is closed where it stands (gclq__kcp_close): its subtree
   holds the required vertices with any pivots and any clique of the
   candidates' graph, and cliques of one or two candidates are the
   candidates and their edges. That cuts the trees' last two levels of
   required vertices (R-MAT 16, k = 4: 64.1M nodes become 0.94M).

   Small candidate sets (at most 32: nearly all nodes; R-MAT 15, k = 8:
   98% of the nodes that pick a pivot) are walked in registers
   (gclq__kcp_small): the node's candidates become the lanes, their
   candidate neighbours a 32-bit mask each, and the subtree below runs on
   masks, the same tree node for node: no row of the local graph is read
   again below such a node, which made R-MAT 16 and 20 at k = 8 several
   times faster (the figures: the change's commit message; R-MAT 20's time
   in bench/results/kcliques_h200.md, "Large graphs").

   Memory (gclq__kcp_plan_room): a stack per warp slot (for max_out local
   vertices; 64 slots per multiprocessor, at most a quarter of the room the
   budget leaves, at least one), the adjacency rows of a window of sources
   (consecutive ids; half of what is left, at most GCLQ__KCP_WINDOW_BYTES,
   or all of it for one large source), the stack of tasks in the rest (at
   most GCLQ__KCP_QUEUE_BYTES; none: tasks are never split). Any budget that
   holds the graph, the counters, one stack and one source's rows gives the
   same counts; less is GCLQ_ERROR_OUT_OF_MEMORY. */

#define GCLQ__KCP_WINDOW_BYTES ((uint64_t)1 << 30) /* a window's rows, at most (one source may take more) */
#define GCLQ__KCP_QUEUE_BYTES ((uint64_t)1 << 29) /* the stack of handed-on tasks, at most */
#define GCLQ__KCP_SPILL_NODES 2048 /* nodes a task visits before it hands its open levels on */
#define GCLQ__KCP_ROUND_TASKS 8    /* tasks a round takes per warp slot, at most */

/* ---- index maps and tables (host and device) ---- */

/* Words of a bit row over d local vertices (at least 1). */
static __host__ __device__ __forceinline__ uint32_t gclq__kcp_row_words(uint32_t d) { return d > 0 ? (d + 31) / 32 : 1; }

/* Words of a source's adjacency rows (d rows), a multiple of 8 (32-byte
   sectors). */
static __host__ __device__ __forceinline__ uint64_t gclq__kcp_adj_words(uint32_t d) {
  return ((uint64_t)d * gclq__kcp_row_words(d) + 7) / 8 * 8;
}

/* Word offsets of a warp's stack, for sources of up to D local vertices
   (W = row words of D, L = D + 2 levels): per level the candidates and the
   vertices left to branch on (a source of d vertices uses rows of its own
   W(d) words, level t at t * W(d)), the required and pivot counts, then the
   required and pivot vertex ids (L each); words: the whole, a multiple of
   8. */
struct gclq__kcp_frame {
  uint32_t W, L;
  uint64_t cand, rest, req, piv, rid, pid, words;
};
static __host__ __device__ __forceinline__ gclq__kcp_frame gclq__kcp_layout(uint32_t D) {
  gclq__kcp_frame f;
  f.W = gclq__kcp_row_words(D);
  f.L = D + 2;
  f.cand = 0;
  f.rest = f.cand + (uint64_t)f.L * f.W;
  f.req = f.rest + (uint64_t)f.L * f.W;
  f.piv = f.req + f.L;
  f.rid = f.piv + f.L;
  f.pid = f.rid + f.L;
  f.words = (f.pid + f.L + 7) / 8 * 8;
  return f;
}

/* Words of a task record for sources of up to D local vertices: the
   source's index in its window, r, p, a spare word, the candidates and the
   vertices left to branch on (W(D) words each), and with ids the required
   and pivot ids (D + 2 each); a multiple of 8. */
static __host__ __device__ __forceinline__ uint64_t gclq__kcp_task_words(uint32_t D, int ids) {
  const gclq__kcp_frame f = gclq__kcp_layout(D);
  return (4 + 2 * (uint64_t)f.W + (ids ? 2 * (uint64_t)f.L : 0) + 7) / 8 * 8;
}

/* C(p, j) from the table of `cols` columns (0 when j > p). */
static __host__ __device__ __forceinline__ uint64_t gclq__kcp_binom(const unsigned long long *tab, uint32_t cols,
                                                                    uint32_t p, uint32_t j) {
  return j <= p ? (uint64_t)tab[(uint64_t)p * cols + j] : 0;
}

/* Bytes of the window of sources [a, b): their adjacency offsets (b - a + 1
   entries, rounded to 32 bytes), then their adjacency rows. pre: the prefix
   sums of gclq__kcp_adj_words(d) over the sources. */
static __host__ __device__ __forceinline__ uint64_t gclq__kcp_window_bytes(const uint64_t *pre, uint32_t a, uint32_t b) {
  return ((uint64_t)8 * (b - a + 1) + 31) / 32 * 32 + 4 * (pre[b] - pre[a]);
}

/* The end b of the window that starts at a: the most sources (of n) that
   fit in limit bytes; b == a when source a alone does not. */
static inline uint32_t gclq__kcp_window_end(const uint64_t *pre, uint32_t n, uint32_t a, uint64_t limit) {
  uint32_t b = a;
  while (b < n && gclq__kcp_window_bytes(pre, a, b + 1) <= limit) ++b;
  return b;
}

/* ---- the kernels ---- */

/* Counters of a run besides the counts; a round's count of tasks handed
   on and its ticket (zeroed per round). */
struct gclq__kcp_misc {
  unsigned long long nodes;
  unsigned int tally_flag; /* a tally wrapped */
  unsigned int deepest;    /* the largest r + p of a leaf */
  unsigned long long spilled; /* tasks the round handed on (may pass the room above the stack) */
  unsigned int ticket;        /* the round's next task */
  unsigned int widest;        /* the most open levels a task had when it handed them on */
};

struct gclq__kcp_args {
  const uint64_t *off;            /* the oriented graph */
  const uint32_t *out;
  const uint64_t *uoff;           /* the undirected graph: adjacency tests */
  const uint32_t *unbr;
  uint32_t first, ns;             /* the window: sources first .. first + ns - 1 */
  const uint64_t *soff;           /* ns + 1: their rows at scratch + soff[i] - soff[0] words */
  uint32_t *scratch;
  uint32_t *stacks;               /* a stack per warp slot (gclq__kcp_layout(max_out).words) */
  uint32_t max_out;
  uint32_t k, top;                /* one k, or 0: every size up to top */
  const unsigned long long *binom; /* one k: C(p, j), k + 1 columns */
  unsigned long long *tally;      /* every size: leaves by (r, p), gclq__kc_tally_at */
  unsigned long long *count;
  unsigned int *flags;
  unsigned long long *pv;         /* per-vertex counts, or NULL */
  unsigned int *pvf;
  gclq__kcp_misc *misc;
};

/* A round: n_in handed-on tasks (records at in), then n_src sources of the
   window from their roots (src, src + 1, ...); what it hands on goes to out
   (room for cap records of `stride` words; cap 0: nothing is handed on). */
struct gclq__kcp_round {
  const uint32_t *in;
  uint32_t n_in, src, n_src, warps; /* warps: the slots running them */
  uint32_t *out;
  uint64_t cap, stride;
  uint64_t spill_after;   /* a task that has taken this many nodes hands its open levels on */
};

/* The adjacency rows of source i of the window. */
static __device__ __forceinline__ uint32_t *gclq__kcp_scratch(const gclq__kcp_args &a, uint32_t i) {
  return a.scratch + (a.soff[i] - a.soff[0]);
}

/* The adjacency rows of the window's local graphs: a warp per local vertex
   (oriented edge e of the window; its source by binary search on off).
   Sources too small for k are skipped (their trees stop at the root). */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__kcp_rows_kernel(gclq__kcp_args a, uint64_t rows) {
  const uint64_t r = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (r >= rows) return;
  const uint64_t e = a.off[a.first] + r;
  uint32_t lo = a.first, hi = a.first + a.ns - 1; /* the last source with off <= e */
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    if (a.off[mid] <= e) lo = mid;
    else hi = mid - 1;
  }
  const uint64_t e0 = a.off[lo];
  const uint32_t d = (uint32_t)(a.off[lo + 1] - e0), x = (uint32_t)(e - e0), u = a.out[e];
  if (a.k != 0 && (uint64_t)d + 1 < a.k) return;
  const uint32_t W = gclq__kcp_row_words(d);
  uint32_t *row = gclq__kcp_scratch(a, lo - a.first) + (uint64_t)x * W;
  for (uint32_t w = 0; w < W; ++w) {
    const uint32_t y = 32 * w + lane;
    const bool bit = y < d && y != x && gclq__d_adjacent(a.uoff, a.unbr, u, a.out[e0 + y]);
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, bit);
    if (lane == 0) row[w] = ballot;
  }
}

/* One source's tree, as the warp sees it: the local graph, the stack. */
struct gclq__kcp_tree {
  const uint32_t *adj; /* d rows of W words */
  uint32_t *cand, *rest; /* level t: at t * W */
  uint32_t *req, *piv;   /* level t's counts, kept while its children run */
  uint32_t *rid, *pid;   /* the required and pivot vertex ids (per-vertex counts) */
  const uint32_t *nbr;   /* out(v): local index -> vertex id */
  uint32_t W;
};

/* Size, first and last nonempty word of the set s (W words), warp-uniform;
   lo > hi when empty. */
static __device__ __forceinline__ uint32_t gclq__kcp_measure(const uint32_t *s, uint32_t W, uint32_t *lo,
                                                             uint32_t *hi) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t size = 0, first = 0xffffffffu, last = 0;
  for (uint32_t w = lane; w < W; w += 32) {
    const uint32_t x = s[w];
    size += __popc(x);
    if (x != 0) first = min(first, w), last = max(last, w + 1);
  }
  *lo = __reduce_min_sync(GCLQ__FULL, first);
  *hi = __reduce_max_sync(GCLQ__FULL, last); /* one past */
  return __reduce_add_sync(GCLQ__FULL, size);
}

/* The lowest vertex of the set s (W words), or 0xffffffff when empty;
   warp-uniform. */
static __device__ __forceinline__ uint32_t gclq__kcp_lowest(const uint32_t *s, uint32_t W) {
  const uint32_t lane = threadIdx.x & 31;
  for (uint32_t w0 = 0; w0 < W; w0 += 32) {
    const uint32_t x = w0 + lane < W ? s[w0 + lane] : 0u;
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, x != 0);
    if (ballot != 0) {
      const uint32_t f = __ffs(ballot) - 1;
      return 32 * (w0 + f) + __ffs(__shfl_sync(GCLQ__FULL, x, f)) - 1;
    }
  }
  return 0xffffffffu;
}

/* f(x) on every lane, for the candidates C (nonempty words [lo, hi)) 32 at
   a time: lane l gets the next candidate of a batch, in ascending order, or
   0xffffffff when the batch (the last) has none left for it; warp-uniform
   calls. A node's work over its candidates (a row scan each) is then spread
   over all lanes, however few candidates a word holds (faster on R-MAT 20,
   k = 6, than a lane per bit of each word in turn; the small graphs' trees
   lose a little: measured with the change, its commit message has the
   figures). */
template <typename F>
static __device__ __forceinline__ void gclq__kcp_each32(const uint32_t *C, uint32_t lo, uint32_t hi, F f) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t mine = 0xffffffffu, fill = 0;
  for (uint32_t w = lo; w < hi; ++w) {
    uint32_t cw = C[w];
    while (cw != 0) {
      const uint32_t pc = __popc(cw), take = min(pc, 32u - fill);
      if (lane >= fill && lane < fill + take) mine = 32 * w + gprim_select32(cw, (int)(lane - fill));
      cw = take == pc ? 0u : cw & ~(0xffffffffu >> (31 - gprim_select32(cw, (int)take - 1)));
      fill += take;
      if (fill == 32) {
        f(mine);
        mine = 0xffffffffu, fill = 0;
      }
    }
  }
  if (fill > 0) f(mine);
}

/* Candidate x's candidate neighbours: |C & N(x)| over C's words [lo, hi). */
static __device__ __forceinline__ uint32_t gclq__kcp_links(const gclq__kcp_tree &T, const uint32_t *C, uint32_t x,
                                                           uint32_t lo, uint32_t hi) {
  const uint32_t *row = T.adj + (uint64_t)x * T.W;
  uint32_t links = 0;
  for (uint32_t i = lo; i < hi; ++i) links += __popc(C[i] & __ldg(row + i));
  return links;
}

/* f(x, links) for every candidate x of C (nonempty words [lo, hi)) on
   the lane that holds x in gclq__kcp_each32's batches, links = |C & N(x)|
   (0 with x = 0xffffffff): each lane scans its own candidate's row. (Rows
   scanned by groups of lanes, a group's lanes over consecutive words of
   one row, lost: slower on R-MAT 20, k = 6, and never faster beyond the
   noise; measured when they were removed, the figures in that commit's
   message.) */
template <typename F>
static __device__ __forceinline__ void gclq__kcp_each_links(const gclq__kcp_tree &T, const uint32_t *C, uint32_t lo,
                                                            uint32_t hi, F f) {
  gclq__kcp_each32(C, lo, hi, [&](uint32_t x) { f(x, x != 0xffffffffu ? gclq__kcp_links(T, C, x, lo, hi) : 0u); });
}

/* The pivot of candidates C (size of them, nonempty words [lo, hi)): the
   candidate with the most candidate neighbours, the highest index among
   equals. Candidates adjacent to all others go into uni (W words) and,
   when ids are kept, into pid from pid_at on; *universal: how many. */
static __device__ __forceinline__ uint32_t gclq__kcp_pivot(const gclq__kcp_tree &T, const uint32_t *C, uint32_t size,
                                                           uint32_t lo, uint32_t hi, uint32_t *uni, uint32_t pid_at,
                                                           bool ids, uint32_t *universal) {
  const uint32_t lane = threadIdx.x & 31;
  unsigned long long best = 0; /* (links + 1) << 32 | x */
  uint32_t count = 0;
  for (uint32_t w = lane; w < T.W; w += 32) uni[w] = 0;
  __syncwarp();
  gclq__kcp_each_links(T, C, lo, hi, [&](uint32_t x, uint32_t links) {
    const bool in = x != 0xffffffffu;
    const unsigned long long key = (unsigned long long)(links + 1) << 32 | x;
    if (in && key > best) best = key;
    const bool all = in && links + 1 == size;
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, all);
    if (all) {
      atomicOr(uni + x / 32, 1u << (x % 32));
      if (ids) T.pid[pid_at + count + __popc(ballot & ((1u << lane) - 1u))] = T.nbr[x];
    }
    count += __popc(ballot);
  });
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long other = __shfl_xor_sync(GCLQ__FULL, best, o);
    if (other > best) best = other;
  }
  *universal = count;
  __syncwarp();
  return (uint32_t)best;
}

/* The warp's running totals of one source; every size: the run of leaves
   of one (r, p) not yet added to the tally. */
struct gclq__kcp_sums {
  unsigned long long nodes, acc;
  bool wrap;
  uint32_t deepest;
  uint64_t tally_at;
  unsigned long long tally_run;
};

/* The run of equal leaves into the tally (lane 0). */
static __device__ __forceinline__ void gclq__kcp_flush(const gclq__kcp_args &a, gclq__kcp_sums *s) {
  if (s->tally_run != 0 && (threadIdx.x & 31) == 0)
    gclq__kc_d_add(a.tally + s->tally_at, &a.misc->tally_flag, s->tally_run);
  s->tally_run = 0;
}

/* A leaf with r required and p pivot vertices (ids in rid, pid). */
static __device__ __forceinline__ void gclq__kcp_leaf(const gclq__kcp_args &a, const gclq__kcp_tree &T,
                                                      gclq__kcp_sums *s, uint32_t r, uint32_t p) {
  const uint32_t lane = threadIdx.x & 31;
  if (r + p > s->deepest) s->deepest = r + p;
  if (a.k == 0) {
    const uint64_t at = gclq__kc_tally_at(a.top, r, p);
    if (at != s->tally_at) gclq__kcp_flush(a, s);
    s->tally_at = at;
    ++s->tally_run;
    return;
  }
  if (r > a.k || a.k - r > p) return;
  const uint32_t j = a.k - r;
  const unsigned long long term = gclq__kcp_binom(a.binom, a.k + 1, p, j);
  s->acc += term;
  s->wrap = s->wrap || s->acc < term || term == ~0ull;
  if (a.pv == NULL) return;
  __syncwarp();
  for (uint32_t i = lane; i < r; i += 32) gclq__kc_d_add(a.pv + T.rid[i], a.pvf + T.rid[i], term);
  if (j == 0) return;
  const unsigned long long below = gclq__kcp_binom(a.binom, a.k + 1, p - 1, j - 1);
  for (uint32_t i = lane; i < p; i += 32) gclq__kc_d_add(a.pv + T.pid[i], a.pvf + T.pid[i], below);
}

/* One k without per-vertex counts, at most two required vertices to go
   (j = k - r is 1 or 2): the node's k-cliques counted without its subtree,
   C(p, j) + size * C(p, j - 1) + (j == 2: the edges among the candidates,
   links / 2 with links the sum of their candidate neighbours), as
   gclq__kc_pivot_close on the host. gclq__kcp_close counts the links of
   the candidates C (nonempty words [lo, hi)). */
static __device__ __forceinline__ void gclq__kcp_close_sum(const gclq__kcp_args &a, gclq__kcp_sums *s,
                                                           uint32_t size, unsigned long long links, uint32_t r,
                                                           uint32_t p) {
  const uint32_t j = a.k - r;
  if (r + p > s->deepest) s->deepest = r + p;
  const unsigned long long b0 = gclq__kcp_binom(a.binom, a.k + 1, p, j);
  const unsigned long long b1 = gclq__kcp_binom(a.binom, a.k + 1, p, j - 1);
  const unsigned long long term = b0 + (unsigned long long)size * b1 + links / 2;
  s->acc += term;
  s->wrap = s->wrap || s->acc < term || term < b0 || b0 == ~0ull;
}
static __device__ __forceinline__ void gclq__kcp_close(const gclq__kcp_args &a, const gclq__kcp_tree &T,
                                                       gclq__kcp_sums *s, const uint32_t *C, uint32_t size,
                                                       uint32_t lo, uint32_t hi, uint32_t r, uint32_t p) {
  unsigned long long links = 0;
  if (a.k - r == 2)
    gclq__kcp_each_links(T, C, lo, hi, [&](uint32_t, uint32_t l) { links += l; });
  for (int o = 16; o > 0; o >>= 1) links += __shfl_xor_sync(GCLQ__FULL, links, o);
  gclq__kcp_close_sum(a, s, size, links, r, p);
}

/* What a node of `size` candidates, r required and p pivot vertices is:
   NONE when too few candidates are left to reach k (no child), a LEAF (no
   candidates, or k required vertices), CLOSE (gclq__kcp_close), or a node
   that picks a pivot (PIVOT). */
enum { GCLQ__KCP_NONE, GCLQ__KCP_LEAF, GCLQ__KCP_CLOSE, GCLQ__KCP_PIVOT };
static __device__ __forceinline__ int gclq__kcp_kind(const gclq__kcp_args &a, uint32_t size, uint32_t r, uint32_t p) {
  if (a.k != 0 && (r > a.k || (uint64_t)r + p + size < a.k)) return GCLQ__KCP_NONE;
  if (size == 0 || (a.k != 0 && r == a.k)) return GCLQ__KCP_LEAF;
  if (a.k != 0 && a.pv == NULL && r + 2 >= a.k) return GCLQ__KCP_CLOSE;
  return GCLQ__KCP_PIVOT;
}

/* The subtree of a node whose candidates C (nonempty words [lo, hi)) are
   size <= 32 vertices, walked in registers (the node itself counted, and
   neither a leaf nor closed): lane l holds the l-th candidate (ascending
   local index) and its candidate neighbours as a mask over lanes (row),
   the sets of the walk are masks over lanes, and lane t keeps level t's
   candidates, branches left and counts while its children run. The tree
   is the one gclq__kcp_task walks (the same pivots: the most candidate
   neighbours, the highest index among equals; universal candidates
   together; required branches in ascending order), so the node counts
   agree; it only costs less: a node's pivot is a popcount per lane and a
   warp max, not a row scan per candidate. Most nodes have so few
   candidates (R-MAT 15, k = 8: 98% of those that pick a pivot). */
static __device__ void gclq__kcp_small(const gclq__kcp_args &a, const gclq__kcp_tree &T, gclq__kcp_sums *s,
                                       const uint32_t *C, uint32_t size, uint32_t lo, uint32_t hi, uint32_t r,
                                       uint32_t p) {
  const uint32_t lane = threadIdx.x & 31, below = (1u << lane) - 1u;
  const bool ids = a.pv != NULL;
  uint32_t x = 0xffffffffu; /* this lane's candidate (local index): the one batch of at most 32 */
  gclq__kcp_each32(C, lo, hi, [&](uint32_t y) { x = y; });
  uint32_t row = 0; /* lane j gets candidate j's row: bit l when candidate l is a neighbour */
  for (uint32_t j = 0; j < size; ++j) {
    const uint32_t y = __shfl_sync(GCLQ__FULL, x, j);
    const bool bit = x != 0xffffffffu && (__ldg(T.adj + (uint64_t)x * T.W + y / 32) >> (y % 32) & 1u);
    const uint32_t b = __ballot_sync(GCLQ__FULL, bit);
    if (lane == j) row = b;
  }
  uint32_t c = size == 32 ? GCLQ__FULL : (1u << size) - 1u, rest = 0; /* the level's sets */
  uint32_t lc = 0, lrest = 0, lr = 0, lp = 0;                          /* level `lane`'s, kept */
  uint32_t t = 0;
  bool enter = true, counted = true;
  for (;;) {
    if (ids) __syncwarp(); /* the ids the last step wrote or read */
    uint32_t cr = 0, cp = 0, next = 0; /* the child's counts; cr == 0: no child, go up */
    if (enter) {
      const uint32_t n = __popc(c);
      if (!counted) ++s->nodes;
      counted = false;
      const int kind = gclq__kcp_kind(a, n, r, p);
      if (kind == GCLQ__KCP_NONE) {
      } else if (kind == GCLQ__KCP_LEAF) {
        gclq__kcp_leaf(a, T, s, r, p);
      } else if (kind == GCLQ__KCP_CLOSE) {
        const uint32_t links = c >> lane & 1u ? __popc(c & row) : 0u;
        gclq__kcp_close_sum(a, s, n, a.k - r == 2 ? __reduce_add_sync(GCLQ__FULL, links) : 0u, r, p);
      } else {
        const bool in = c >> lane & 1u;
        const uint32_t links = __popc(c & row);
        const uint32_t best = __reduce_max_sync(GCLQ__FULL, in ? (links + 1) << 5 | lane : 0u);
        const uint32_t uni = __ballot_sync(GCLQ__FULL, in && links + 1 == n);
        if (uni != 0) { /* every candidate adjacent to all others is a pivot: one child */
          if (ids && (uni >> lane & 1u)) T.pid[p + __popc(uni & below)] = T.nbr[x];
          next = c & ~uni, rest = 0;
          cr = r, cp = p + __popc(uni);
        } else { /* the pivot's child; its non-neighbours are left to branch on */
          const uint32_t u = best & 31, nu = __shfl_sync(GCLQ__FULL, row, u);
          if (ids && lane == u) T.pid[p] = T.nbr[x];
          c &= ~(1u << u);
          next = c & nu, rest = c & ~nu;
          cr = r, cp = p + 1;
        }
      }
    } else if (rest != 0) { /* the lowest branch left required: its candidate neighbours, less the earlier ones */
      const uint32_t v = __ffs(rest) - 1;
      if (ids && lane == v) T.rid[r] = T.nbr[x];
      rest &= ~(1u << v), c &= ~(1u << v);
      next = c & __shfl_sync(GCLQ__FULL, row, v);
      cr = r + 1, cp = p;
    }
    if (cr != 0 && next != 0) { /* down to the child */
      if (lane == t) lc = c, lrest = rest, lr = r, lp = p;
      ++t, c = next, r = cr, p = cp;
      enter = true;
      continue;
    }
    if (cr != 0) { /* a child without candidates: a leaf, taken here; then the node's next branch */
      ++s->nodes;
      gclq__kcp_leaf(a, T, s, cr, cp);
      enter = false;
      continue;
    }
    if (t == 0) return;
    --t;
    c = __shfl_sync(GCLQ__FULL, lc, t), rest = __shfl_sync(GCLQ__FULL, lrest, t);
    r = __shfl_sync(GCLQ__FULL, lr, t), p = __shfl_sync(GCLQ__FULL, lp, t);
    enter = false;
  }
}

/* Does the set s (W words) have a vertex? Warp-uniform. */
static __device__ __forceinline__ bool gclq__kcp_any(const uint32_t *s, uint32_t W) {
  const uint32_t lane = threadIdx.x & 31;
  bool any = false;
  for (uint32_t w = lane; w < W; w += 32) any = any || s[w] != 0;
  return __any_sync(GCLQ__FULL, any);
}

/* Hand the open levels 0 .. t of the stack (those with branches left) on,
   a task each: the level's candidates, its branches left, its counts
   (level t: r, p) and the ids above it. Each is a subtree of its own: the
   path to it is fixed and nothing of it has been visited. With room for
   only some, the shallowest go (the largest subtrees) and their branches
   are cleared here, so the task walks only the deeper ones. True when
   every open level was handed on (the task is done). */
static __device__ bool gclq__kcp_spill(const gclq__kcp_args &a, const gclq__kcp_round &q, const gclq__kcp_tree &T,
                                       uint32_t i, uint32_t t, uint32_t r, uint32_t p) {
  const uint32_t lane = threadIdx.x & 31, W = T.W;
  const gclq__kcp_frame f = gclq__kcp_layout(a.max_out);
  const bool ids = a.pv != NULL;
  uint32_t m = 0;
  for (uint32_t l = 0; l <= t; ++l) m += gclq__kcp_any(T.rest + (uint64_t)l * W, W);
  if (m == 0) return false;
  unsigned long long base = 0;
  if (lane == 0) {
    base = atomicAdd(&a.misc->spilled, (unsigned long long)m);
    atomicMax(&a.misc->widest, m);
  }
  base = __shfl_sync(GCLQ__FULL, base, 0);
  const uint64_t got = base >= q.cap ? 0 : q.cap - base < m ? q.cap - base : m;
  for (uint32_t l = 0, at = 0; l <= t && at < got; ++l) {
    const uint32_t *C = T.cand + (uint64_t)l * W;
    uint32_t *rest = T.rest + (uint64_t)l * W;
    if (!gclq__kcp_any(rest, W)) continue;
    const uint32_t rl = l == t ? r : T.req[l], pl = l == t ? p : T.piv[l];
    uint32_t *rec = q.out + (base + at++) * q.stride;
    if (lane == 0) rec[0] = i, rec[1] = rl, rec[2] = pl, rec[3] = 0;
    for (uint32_t w = lane; w < W; w += 32) rec[4 + w] = C[w], rec[4 + f.W + w] = rest[w], rest[w] = 0;
    for (uint32_t j = lane; ids && j < rl; j += 32) rec[4 + 2 * f.W + j] = T.rid[j];
    for (uint32_t j = lane; ids && j < pl; j += 32) rec[4 + 2 * f.W + f.L + j] = T.pid[j];
  }
  __syncwarp();
  return got == m;
}

/* The task's tree on the warp's stack: source i's local graph (vertex v)
   and, from its root (rec == NULL: every out-neighbour a candidate, v
   required) or from a handed-on level (record rec: its candidates,
   branches left and the ids above it, r required and p pivots). */
static __device__ __forceinline__ void gclq__kcp_task_tree(const gclq__kcp_args &a, uint32_t *stack,
                                                           const uint32_t *rec, uint32_t i, uint32_t v, uint32_t r,
                                                           uint32_t p, gclq__kcp_tree *T) {
  const uint32_t lane = threadIdx.x & 31;
  const uint64_t e0 = a.off[v];
  const uint32_t d = (uint32_t)(a.off[v + 1] - e0), W = gclq__kcp_row_words(d);
  const gclq__kcp_frame f = gclq__kcp_layout(a.max_out);
  const bool ids = a.pv != NULL;
  T->adj = gclq__kcp_scratch(a, i), T->cand = stack + f.cand, T->rest = stack + f.rest, T->req = stack + f.req;
  T->piv = stack + f.piv, T->rid = stack + f.rid, T->pid = stack + f.pid, T->nbr = a.out + e0, T->W = W;
  if (rec == NULL) {
    for (uint32_t w = lane; w < W; w += 32)
      T->cand[w] = 32 * w + 32 <= d ? GCLQ__FULL : 32 * w < d ? (1u << (d % 32)) - 1u : 0u;
    if (lane == 0) T->rid[0] = v;
  } else {
    for (uint32_t w = lane; w < W; w += 32) T->cand[w] = rec[4 + w], T->rest[w] = rec[4 + f.W + w];
    for (uint32_t j = lane; ids && j < r; j += 32) T->rid[j] = rec[4 + 2 * f.W + j];
    for (uint32_t j = lane; ids && j < p; j += 32) T->pid[j] = rec[4 + 2 * f.W + f.L + j];
  }
}

/* A node entered with more than 32 candidates C (size of them, words lo ..
   hi): its pivot's child into next, the branches left in rest, the child's
   counts in *cr, *cp. True on the lanes that wrote a candidate of the
   child. */
static __device__ __forceinline__ bool gclq__kcp_pivot_child(const gclq__kcp_tree &T, uint32_t *C, uint32_t size,
                                                             uint32_t lo, uint32_t hi, uint32_t *rest, uint32_t *next,
                                                             bool ids, uint32_t r, uint32_t p, uint32_t *cr,
                                                             uint32_t *cp) {
  const uint32_t lane = threadIdx.x & 31, W = T.W;
  bool any = false;
  uint32_t universal;
  const uint32_t u = gclq__kcp_pivot(T, C, size, lo, hi, rest, p, ids, &universal);
  if (universal > 0) { /* every candidate adjacent to all others is a pivot: one child */
    for (uint32_t w = lane; w < W; w += 32) {
      next[w] = C[w] & ~rest[w];
      any = any || next[w] != 0;
      rest[w] = 0;
    }
    *cr = r, *cp = p + universal;
  } else { /* the pivot's child; its non-neighbours are left to branch on */
    if (ids && lane == 0) T.pid[p] = T.nbr[u];
    for (uint32_t w = lane; w < W; w += 32) {
      const uint32_t nu = __ldg(T.adj + (uint64_t)u * W + w);
      const uint32_t c = w == u / 32 ? C[w] & ~(1u << (u % 32)) : C[w];
      C[w] = c;
      next[w] = c & nu;
      rest[w] = c & ~nu;
      any = any || next[w] != 0;
    }
    *cr = r, *cp = p + 1;
  }
  return any;
}

/* A node's next branch: its lowest branch left x, required, whose child
   is x's candidate neighbours less the earlier branches (into next; the
   child's counts in *cr, *cp). No branch left: *cr stays 0. True on the
   lanes that wrote a candidate of the child. */
static __device__ __forceinline__ bool gclq__kcp_branch(const gclq__kcp_tree &T, uint32_t *C, uint32_t *rest,
                                                        uint32_t *next, bool ids, uint32_t r, uint32_t p, uint32_t *cr,
                                                        uint32_t *cp) {
  const uint32_t lane = threadIdx.x & 31, W = T.W;
  bool any = false;
  const uint32_t x = gclq__kcp_lowest(rest, W);
  if (x == 0xffffffffu) return false;
  if (ids && lane == 0) T.rid[r] = T.nbr[x];
  for (uint32_t w = lane; w < W; w += 32) {
    const uint32_t bit = w == x / 32 ? 1u << (x % 32) : 0u;
    rest[w] &= ~bit;
    C[w] &= ~bit;
    next[w] = C[w] & __ldg(T.adj + (uint64_t)x * W + w);
    any = any || next[w] != 0;
  }
  *cr = r + 1, *cp = p;
  return any;
}

/* One task of a round on the warp's stack: source i's tree from its root
   (rec == NULL), or a handed-on level's remaining branches (record rec);
   depth-first (gclq__kc_pivot's tree: see the file's header). After
   spill_after nodes the open levels are handed on, when there is room. */
static __device__ void gclq__kcp_task(const gclq__kcp_args &a, const gclq__kcp_round &q, uint32_t *stack,
                                      const uint32_t *rec, uint32_t i, gclq__kcp_sums *s) {
  const uint32_t lane = threadIdx.x & 31;
  __syncwarp(); /* the stack's last task is done on every lane */
  if (rec != NULL) i = rec[0];
  const uint32_t v = a.first + i;
  uint32_t t = 0, r = rec != NULL ? rec[1] : 1, p = rec != NULL ? rec[2] : 0;
  const bool ids = a.pv != NULL;
  const unsigned long long first_node = s->nodes;
  gclq__kcp_tree T;
  gclq__kcp_task_tree(a, stack, rec, i, v, r, p, &T);
  const uint32_t W = T.W;
  bool enter = rec == NULL, may_spill = q.cap > 0;
  for (;;) {
    __syncwarp();
    if (!enter && may_spill && s->nodes - first_node >= q.spill_after) {
      if (gclq__kcp_spill(a, q, T, i, t, r, p)) return;
      may_spill = false;
    }
    uint32_t *C = T.cand + (uint64_t)t * W, *rest = T.rest + (uint64_t)t * W, *next = C + W;
    uint32_t cr = 0, cp = 0; /* the child's counts; cr == 0: no child, go up */
    bool any = false;
    if (enter) {
      uint32_t lo, hi;
      const uint32_t size = gclq__kcp_measure(C, W, &lo, &hi);
      ++s->nodes;
      const int kind = gclq__kcp_kind(a, size, r, p);
      if (kind == GCLQ__KCP_NONE) {
      } else if (kind == GCLQ__KCP_LEAF) {
        gclq__kcp_leaf(a, T, s, r, p);
      } else if (kind == GCLQ__KCP_CLOSE) {
        gclq__kcp_close(a, T, s, C, size, lo, hi, r, p);
      } else if (size <= 32) {
        gclq__kcp_small(a, T, s, C, size, lo, hi, r, p);
      } else {
        any = gclq__kcp_pivot_child(T, C, size, lo, hi, rest, next, ids, r, p, &cr, &cp);
      }
    } else {
      any = gclq__kcp_branch(T, C, rest, next, ids, r, p, &cr, &cp);
    }
    any = __any_sync(GCLQ__FULL, any);
    if (cr != 0 && any) { /* down to the child */
      if (lane == 0) T.req[t] = r, T.piv[t] = p;
      ++t, r = cr, p = cp;
      enter = true;
      continue;
    }
    if (cr != 0) { /* a child without candidates: a leaf, taken here; then the node's next branch */
      ++s->nodes;
      gclq__kcp_leaf(a, T, s, cr, cp);
      enter = false;
      continue;
    }
    /* this node is done: up to its parent */
    if (t == 0) return;
    --t;
    __syncwarp();
    r = T.req[t], p = T.piv[t];
    enter = false;
  }
}

/* A round's tasks, a warp slot each at a time (tickets), the stack the
   slot's; the warp's sums added once at the end. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__kcp_walk_kernel(gclq__kcp_args a, gclq__kcp_round q) {
  const uint64_t slot = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (slot >= q.warps) return;
  uint32_t *stack = a.stacks + slot * gclq__kcp_layout(a.max_out).words;
  gclq__kcp_sums s = {0, 0, false, 0, 0, 0};
  for (;;) {
    uint32_t task = 0;
    if (lane == 0) task = atomicAdd(&a.misc->ticket, 1u);
    task = __shfl_sync(GCLQ__FULL, task, 0);
    if (task >= q.n_in + q.n_src) break;
    if (task < q.n_in) gclq__kcp_task(a, q, stack, q.in + (uint64_t)task * q.stride, 0, &s);
    else gclq__kcp_task(a, q, stack, NULL, q.src + (task - q.n_in), &s);
  }
  if (a.k == 0) gclq__kcp_flush(a, &s);
  if (lane == 0) {
    atomicAdd(&a.misc->nodes, s.nodes);
    atomicMax(&a.misc->deepest, s.deepest);
    if (a.k != 0) {
      gclq__kc_d_add(a.count + a.k, a.flags + a.k, s.acc);
      if (s.wrap) atomicOr(a.flags + a.k, 1u);
    }
  }
}
