/* clique/kcliques/kernels.cuh - k-clique counting, the device code every
   method shares: a method's device state (gclq__kc_dev: the oriented graph
   on the device and the counters every method adds into). The graph is
   oriented by the graph module (gclq__graph_orient, clique/graph/cuda.cuh;
   its kernels in clique/graph/kernels.cuh). The methods' kernels are in
   clique/kcliques/<method>.cuh; gclq_kcliques's driver
   (clique/kcliques/cuda.cuh, gclq__kc_cuda) builds a gclq__kc_dev and calls
   one of them.

   The graph the methods see is renamed by the order: vertex v becomes its
   position in it (its rank), so out(r) = the neighbours of r with a larger
   id, ascending, as CSR (d_off, d_out), and for PIVOT (which needs whole
   adjacency inside its local graphs) the undirected lists in the same ids
   (d_uoff, d_unbr). The order is by a 64-bit key per vertex,
   (degree, id) or (peeling round, id); the rounds are those of the
   parallel peeling (gclq__graph_cores), which
   gclq_degeneracy_order reproduces on the host, so both backends orient
   every edge the same way. The keys sorted give the ranks; a warp per
   vertex counts and writes its lists at its rank; a segmented sort puts
   each list in ascending order. Per-vertex counts come back by rank
   (gclq__kc_cuda_per_vertex maps them to the graph's ids).

   Counts are 64-bit atomics. A count that passes 2^64 - 1 sets its flag
   (the add that wraps sees old + v < old); the driver then reports
   GCLQ_ERROR_OVERFLOW for that k. */

/* What a method gets: the oriented graph, what to count, where to add. */
struct gclq__kc_dev {
  gclq__dev *c;                     /* device memory under the budget (gclq__dmem), stream, log */
  uint32_t n;                       /* vertices */
  uint64_t m;                       /* oriented edges */
  const uint64_t *d_off;            /* n + 1: out(v) = d_out[d_off[v] .. d_off[v + 1]) */
  const uint32_t *d_out;            /* ascending ids */
  const uint64_t *d_uoff;           /* PIVOT only (else NULL): the undirected graph (n + 1, 2 edges) */
  const uint32_t *d_unbr;           /* (u, v) adjacent: v in d_unbr[d_uoff[u] .. d_uoff[u + 1]) */
  const uint32_t *d_rank;           /* n: vertex v of the graph is vertex d_rank[v] here */
  uint32_t max_out, max_core;       /* the largest out-degree, the largest core number */
  uint32_t k;                       /* one size (3 or more), or 0: every size from 3 to top */
  uint32_t top;                     /* the largest size counted: k, or max_out + 1 (at least 3) */
  unsigned long long *d_count;      /* top + 1 entries, zeroed: s-cliques in d_count[s] */
  unsigned int *d_flags;            /* top + 1 entries, zeroed: nonzero when d_count[s] wrapped */
  unsigned long long *d_per_vertex; /* n entries, zeroed (one k, asked), else NULL */
  unsigned int *d_pv_flags;         /* n entries, zeroed, when d_per_vertex */
  uint64_t *h_count;                /* host, top + 1 entries, saturated: a method may add here
                                       (after its device counts are read, gclq__kc_dev_read) */
  uint32_t deepest;                 /* every size: the largest clique the method saw (0: from the counts) */
  uint64_t nodes;                   /* the method's work units (search nodes, partial cliques), for stats */
  const char *method_note;          /* optional: what the method wants stats.notes to say */
};

/* Add v to *cnt; a sum that passes 2^64 - 1 sets *flag. */
static __device__ __forceinline__ void gclq__kc_d_add(unsigned long long *cnt, unsigned int *flag,
                                                      unsigned long long v) {
  if (v == 0) return;
  const unsigned long long old = atomicAdd(cnt, v);
  if (old + v < old) atomicOr(flag, 1u);
}

