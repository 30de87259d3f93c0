/* amq/qf/cuda.cuh - the quotient filters' CUDA driver (nvcc only): the
   launches of amq/qf/kernels.cuh ((d_temp, temp_bytes) as everywhere) and
   the batch drivers a plan's path names: rebuild, in-place rounds, window
   re-layout. They run the plan of gamq__qf_choose (amq/qf/choose.h, with
   the caps and limits they read) and take no decision of their own. */

/* ---- the launches: (d_temp, temp_bytes) as everywhere; d_temp == NULL
   only writes the bytes needed ---- */

/* fp[i] = fingerprint(keys[i]) for a batch of 4- or 8-byte keys. */
static inline cudaError_t gamq__cuda_qf_hash(const gamq__qf *f, const void *keys, int key_bytes, size_t n,
                                             uint64_t *fp, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (key_bytes == 4)
    gamq__qf_hash_kernel<uint32_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint32_t *)keys, n, f->seed, f->q,
                                                                           f->r, fp);
  else
    gamq__qf_hash_kernel<uint64_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint64_t *)keys, n, f->seed, f->q,
                                                                           f->r, fp);
  return cudaGetLastError();
}

static inline cudaError_t gamq__cuda_qf_lookup(const gamq__qf *f, const void *keys, int key_bytes, size_t n,
                                               uint8_t *found, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  const gamq_qf_ref ref = gamq__qf_ref_of(f);
  if (key_bytes == 4)
    gamq__qf_lookup_kernel<uint32_t><<<gamq__grid(n, 256), 256, 0, stream>>>(ref, (const uint32_t *)keys, n, found);
  else
    gamq__qf_lookup_kernel<uint64_t><<<gamq__grid(n, 256), 256, 0, stream>>>(ref, (const uint64_t *)keys, n, found);
  return cudaGetLastError();
}

/* Lookups in fingerprint order (see gamq__qf_lookup_sorted_kernel); n <= 2^31 - 1. */
static inline cudaError_t gamq__cuda_qf_lookup_sorted(const gamq__qf *f, const void *keys, int key_bytes, size_t n,
                                                      uint8_t *found, void *d_temp, size_t *temp_bytes,
                                                      cudaStream_t stream) {
  size_t sizes[3], sort_bytes = 0;
  void *ptrs[3];
  GPRIM_TRY(gprim_radix_sort_pairs((void *)NULL, &sort_bytes, (const uint64_t *)NULL, (uint64_t *)NULL,
                                   (const uint32_t *)NULL, (uint32_t *)NULL, n, 0, f->q + f->r, false, stream));
  sizes[0] = n * sizeof(uint64_t), sizes[1] = n * sizeof(uint32_t), sizes[2] = sort_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 3, sizes, ptrs));
  if (d_temp == NULL || n == 0) return cudaSuccess;
  uint64_t *fp = (uint64_t *)ptrs[0];
  uint32_t *idx = (uint32_t *)ptrs[1];
  if (key_bytes == 4)
    gamq__qf_hash_index_kernel<uint32_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint32_t *)keys, n, f->seed,
                                                                                 f->q, f->r, fp, idx);
  else
    gamq__qf_hash_index_kernel<uint64_t><<<gamq__grid(n, 256), 256, 0, stream>>>((const uint64_t *)keys, n, f->seed,
                                                                                 f->q, f->r, fp, idx);
  GPRIM_TRY(cudaGetLastError());
  GPRIM_TRY(gprim_radix_sort_pairs(ptrs[2], &sizes[2], (const uint64_t *)fp, fp, (const uint32_t *)idx, idx, n, 0,
                                   f->q + f->r, false, stream));
  gamq__qf_lookup_sorted_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(gamq__qf_ref_of(f), fp, idx, n, found);
  return cudaGetLastError();
}

/* Sort n fingerprints in place by their q + r bits (gprim's radix sort). */
static inline cudaError_t gamq__cuda_qf_sort(const gamq__qf *f, uint64_t *fp, size_t n, void *d_temp,
                                             size_t *temp_bytes, cudaStream_t stream) {
  return gprim_radix_sort_keys(d_temp, temp_bytes, (const uint64_t *)fp, fp, n, 0, f->q + f->r, false, stream);
}

/* Bulk build from n sorted fingerprints (see BUILD in amq/qf/kernels.cuh),
   the position scan by the plan scan. *full = 1: the filter was not
   touched. Synchronises the stream (the FULL check). */
static inline cudaError_t gamq__cuda_qf_build(const gamq__qf *f, const uint64_t *fp, size_t n,
                                              const gamq__nonassoc_plan *scan, void *d_temp, size_t *temp_bytes,
                                              int *full, cudaStream_t stream) {
  gamq__scan_call c;
  size_t sizes[3], scan_bytes = 0;
  void *ptrs[3];
  int overflow = 0;
  c.op = GAMQ__OP_POSITION_U64, c.a = NULL, c.b = NULL, c.heads = NULL, c.init = NULL, c.x = NULL, c.n = n;
  if (n > 0) GPRIM_TRY(gamq__cuda_scan(&c, scan, NULL, &scan_bytes, &overflow, NULL, stream));
  sizes[0] = sizes[1] = n * sizeof(uint64_t);
  sizes[2] = scan_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 3, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  *full = 0;
  if (n > f->nslots) {
    *full = 1;
    return cudaSuccess;
  }
  if (n == 0) return cudaMemsetAsync(f->data, 0, f->bytes, stream);
  uint64_t *quot = (uint64_t *)ptrs[0], *pos = (uint64_t *)ptrs[1], last = 0;
  gamq__qf_quotients_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(fp, n, f->r, quot);
  GPRIM_TRY(cudaGetLastError());
  c.b = quot, c.x = pos;
  GPRIM_TRY(gamq__cuda_scan(&c, scan, ptrs[2], &sizes[2], &overflow, NULL, stream));
  GPRIM_TRY(cudaMemcpyAsync(&last, pos + n - 1, sizeof last, cudaMemcpyDeviceToHost, stream));
  GPRIM_TRY(cudaStreamSynchronize(stream));
  if (overflow || last >= f->nslots) { /* overflow cannot happen: positions stay below 2^33 */
    *full = 1;
    return cudaSuccess;
  }
  if (f->kind == GAMQ__QF_SQF) {
    GPRIM_TRY(cudaMemsetAsync(f->data, 0, f->bytes, stream));
    gamq__sqf_items_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(*f, fp, quot, pos, n);
    GPRIM_TRY(cudaGetLastError());
    gamq__sqf_occupied_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(*f, quot, n);
  } else {
    gamq__rsqf_blocks_kernel<<<gamq__grid(f->nslots / 64, GAMQ__RSQF_WARPS), 32 * GAMQ__RSQF_WARPS, 0, stream>>>(
        *f, fp, quot, pos, n);
  }
  GPRIM_TRY(cudaGetLastError());
  return cudaStreamSynchronize(stream);
}

/* Extract all f->nitems fingerprints, ascending, into out (see EXTRACT in amq/qf/kernels.cuh). */
static inline cudaError_t gamq__cuda_qf_extract(const gamq__qf *f, uint64_t *out, void *d_temp, size_t *temp_bytes,
                                                cudaStream_t stream) {
  const size_t nblocks = (size_t)(f->nslots / 64);
  size_t sizes[5], scan_bytes = 0;
  void *ptrs[5];
  GPRIM_TRY(gprim_scan_inclusive((void *)NULL, &scan_bytes, (const uint64_t *)NULL, (uint64_t *)NULL, nblocks,
                                 gprim_op_sum(), stream));
  sizes[0] = sizes[1] = sizes[2] = nblocks * sizeof(uint64_t); /* occupieds, marks, items per block */
  sizes[3] = (size_t)f->nitems * sizeof(uint64_t);               /* quot_of_rank: runs <= items */
  sizes[4] = scan_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 5, sizes, ptrs));
  if (d_temp == NULL || f->nitems == 0) return cudaSuccess;
  uint64_t *occ = (uint64_t *)ptrs[0], *marks = (uint64_t *)ptrs[1], *items = (uint64_t *)ptrs[2];
  uint64_t *ranks = (uint64_t *)ptrs[3];
  const unsigned grid = gamq__grid(nblocks, 128);
  gamq__qf_block_counts_kernel<<<grid, 128, 0, stream>>>(*f, occ, marks);
  GPRIM_TRY(cudaGetLastError());
  GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)occ, occ, nblocks, gprim_op_sum(), stream));
  GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)marks, marks, nblocks, gprim_op_sum(), stream));
  gamq__qf_ranks_kernel<<<grid, 128, 0, stream>>>(*f, occ, ranks);
  GPRIM_TRY(cudaGetLastError());
  if (f->kind == GAMQ__QF_SQF) {
    gamq__qf_walk_kernel<false><<<grid, 128, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out, 0);
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)items, items, nblocks, gprim_op_sum(), stream));
    gamq__qf_walk_kernel<true><<<grid, 128, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out, f->nitems);
  } else {
    const unsigned wgrid = gamq__grid(nblocks, GAMQ__RSQF_WARPS), wthreads = 32 * GAMQ__RSQF_WARPS;
    gamq__rsqf_walk_kernel<false><<<wgrid, wthreads, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out, 0);
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gprim_scan_inclusive(ptrs[4], &sizes[4], (const uint64_t *)items, items, nblocks, gprim_op_sum(), stream));
    gamq__rsqf_walk_kernel<true><<<wgrid, wthreads, 0, stream>>>(*f, marks, ranks, occ + nblocks - 1, items, out,
                                                                f->nitems);
  }
  return cudaGetLastError();
}

/* out = a minus b as multisets (one copy of a removed per element of b),
   both sorted; *d_kept (device) gets the count. */
static inline cudaError_t gamq__cuda_qf_difference(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
                                                   uint64_t *out, size_t *d_kept, void *d_temp, size_t *temp_bytes,
                                                   cudaStream_t stream) {
  size_t sizes[2], sel_bytes = 0;
  void *ptrs[2];
  GPRIM_TRY(gprim_select_flagged((void *)NULL, &sel_bytes, a, (const uint8_t *)NULL, out, d_kept, na, stream));
  sizes[0] = na;
  sizes[1] = sel_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 2, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if (na > 0) {
    gamq__qf_keep_kernel<<<gamq__grid(na, 256), 256, 0, stream>>>(a, na, b, nb, (uint8_t *)ptrs[0]);
    GPRIM_TRY(cudaGetLastError());
  }
  return gprim_select_flagged(ptrs[1], &sizes[1], a, (const uint8_t *)ptrs[0], out, d_kept, na, stream);
}

/* What gamq__cuda_qf_rounds did. */
typedef struct gamq__qf_rounds_out {
  size_t left;      /* items not applied (FULL, or max_rounds reached); rest[0 .. left) holds them, sorted */
  uint64_t changed; /* items inserted / deleted */
  int full;         /* an insert found no room (what went in is still in) */
  int rounds;
} gamq__qf_rounds_out;

/* In-place rounds over n sorted fingerprints (see IN-PLACE ROUNDS in amq/qf/kernels.cuh): del = 0 inserts, 1
   deletes. Stops when nothing is pending, on FULL, or after max_rounds;
   leaves the items not applied in rest (not overlapping fp). Synchronises
   the stream once per round. */
static inline cudaError_t gamq__cuda_qf_rounds(const gamq__qf *f, int del, const uint64_t *fp, size_t n, int max_rounds,
                                               uint64_t *rest, void *d_temp, size_t *temp_bytes, gamq__qf_rounds_out *out,
                                               cudaStream_t stream) {
  size_t sizes[6], sel_bytes = 0;
  void *ptrs[6];
  GPRIM_TRY(gprim_select_flagged((void *)NULL, &sel_bytes, (const uint32_t *)NULL, (const uint8_t *)NULL,
                                 (uint32_t *)NULL, (size_t *)NULL, n, stream));
  sizes[0] = sizes[1] = n * sizeof(uint32_t); /* pending lists, in turn */
  sizes[2] = f->kind == GAMQ__QF_SQF ? n * sizeof(uint64_t) : 0; /* groups */
  sizes[3] = n;                                /* keep flags */
  sizes[4] = sizeof(gamq__qf_round_status);
  sizes[5] = sel_bytes;
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 6, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  uint32_t *idx = (uint32_t *)ptrs[0], *idx2 = (uint32_t *)ptrs[1];
  uint64_t *group = (uint64_t *)ptrs[2];
  uint8_t *keep = (uint8_t *)ptrs[3];
  gamq__qf_round_status *st = (gamq__qf_round_status *)ptrs[4], h;
  memset(out, 0, sizeof *out);
  memset(&h, 0, sizeof h);
  h.pending = n;
  if (n == 0) return cudaSuccess;
  GPRIM_TRY(cudaMemsetAsync(st, 0, sizeof *st, stream));
  gamq__qf_iota_kernel<<<gamq__grid(n, 256), 256, 0, stream>>>(idx, n);
  GPRIM_TRY(cudaGetLastError());
  while (h.pending > 0 && !h.full && out->rounds < max_rounds) {
    const size_t m = h.pending;
    const unsigned grid = gamq__grid(m, 256);
    if (f->kind == GAMQ__QF_SQF) {
      gamq__sqf_bid_kernel<<<grid, 256, 0, stream>>>(*f, del, fp, idx, m, group);
      GPRIM_TRY(cudaGetLastError());
      gamq__sqf_apply_kernel<<<grid, 256, 0, stream>>>(*f, del, fp, idx, m, group, keep, st);
    } else {
      uint64_t s, p;
      gamq__rsqf_schedule(f->nslots / 64, out->rounds, &s, &p);
      gamq__rsqf_region_kernel<<<grid, 256, 0, stream>>>(*f, del, fp, idx, m, s, p, keep, st);
    }
    GPRIM_TRY(cudaGetLastError());
    GPRIM_TRY(gprim_select_flagged(ptrs[5], &sizes[5], (const uint32_t *)idx, (const uint8_t *)keep, idx2, &st->pending,
                                   m, stream));
    GPRIM_TRY(cudaMemcpyAsync(&h, st, sizeof h, cudaMemcpyDeviceToHost, stream));
    GPRIM_TRY(cudaStreamSynchronize(stream));
    uint32_t *t = idx;
    idx = idx2, idx2 = t;
    out->rounds++;
  }
  out->left = h.pending, out->changed = h.changed, out->full = h.full != 0;
  if (h.pending > 0) {
    gamq__qf_gather_kernel<<<gamq__grid(h.pending, 256), 256, 0, stream>>>(fp, idx, h.pending, rest);
    GPRIM_TRY(cudaGetLastError());
  }
  return cudaSuccess;
}

/* ---- CUDA: a rebuild (extract, merge / difference, build); op is
   GAMQ__QF_OP_* (amq/qf/choose.h) ---- */

/* Device buffers of one call, through the filter's allocator: all or none. */
enum { GAMQ__QF_BUFS = 6 };
typedef struct gamq__qf_bufs {
  void *p[GAMQ__QF_BUFS];
  int kept; /* the pointers are into F->scratch (gamq__qf_bufs_keep): nothing to free */
} gamq__qf_bufs;
static void gamq__qf_bufs_free(const gamq_qf *F, gamq__qf_bufs *b, cudaStream_t stream) {
  int i;
  for (i = 0; i < GAMQ__QF_BUFS && !b->kept; ++i) gamq__device_free(&F->allocator, b->p[i], (gamq_stream)stream);
  memset(b, 0, sizeof *b);
}
static gamq_status gamq__qf_bufs_alloc(const gamq_qf *F, gamq__qf_bufs *b, const size_t *bytes, cudaStream_t stream) {
  int i;
  gamq_status s = GAMQ_SUCCESS;
  memset(b, 0, sizeof *b);
  for (i = 0; i < GAMQ__QF_BUFS && s == GAMQ_SUCCESS; ++i)
    s = gamq__device_alloc(&F->allocator, &b->p[i], bytes[i], (gamq_stream)stream);
  if (s != GAMQ_SUCCESS) gamq__qf_bufs_free(F, b, stream);
  return s;
}
/* The same buffers for the in-place batch calls, carved from one block the
   filter keeps between calls (grown to the largest batch; freed by
   gamq_qf_destroy) while the block stays at most keep_bytes (the plan's:
   0 with a user's allocator, which is called for every buffer and caches as
   it likes; the limit and its evidence: GAMQ__QF_KEEP_SHARE in
   amq/qf/choose.h). The default memory pool returns freed memory at every
   synchronisation, so fresh allocations would map the temporaries again in
   every call. Calls that change a filter never run concurrently, and each
   synchronises before it returns, so one block serves them all. */
static gamq_status gamq__qf_bufs_keep(gamq_qf *F, size_t keep_bytes, gamq__qf_bufs *b, const size_t *bytes,
                                      cudaStream_t stream) {
  size_t off[GAMQ__QF_BUFS], total = 0;
  int i;
  for (i = 0; i < GAMQ__QF_BUFS; ++i) off[i] = total, total += (bytes[i] + 255) / 256 * 256;
  if (keep_bytes == 0 || total > keep_bytes) return gamq__qf_bufs_alloc(F, b, bytes, stream);
  if (F->scratch_bytes < total) {
    void *p = NULL;
    gamq_status s = gamq__device_alloc(&F->allocator, &p, total, (gamq_stream)stream);
    if (s != GAMQ_SUCCESS) return s;
    gamq__device_free(&F->allocator, F->scratch, (gamq_stream)stream);
    F->scratch = p, F->scratch_bytes = total;
  }
  memset(b, 0, sizeof *b);
  b->kept = 1;
  for (i = 0; i < GAMQ__QF_BUFS; ++i) b->p[i] = bytes[i] ? (uint8_t *)F->scratch + off[i] : NULL;
  return GAMQ_SUCCESS;
}

/* The scratch bytes of a rebuild (gamq__qf_cuda_rebuild's arguments, na /
   nb the items of the two extracts): the most any of its steps needs, as
   they take turns in one buffer. GAMQ_ERROR_CUDA when a query fails. */
static gamq_status gamq__qf_rebuild_scratch(const gamq_qf *F, const gamq__nonassoc_plan *scan, int op, int key_bytes,
                                            size_t n, const gamq_qf *A, const gamq_qf *B, size_t na, size_t nb,
                                            int dedup, uint64_t total, size_t *scratch, cudaStream_t st) {
  size_t t;
  int full = 0;
  *scratch = 0;
#define GAMQ__SCRATCH(call) \
  do {                       \
    t = 0;                   \
    if ((call) != cudaSuccess) return GAMQ_ERROR_CUDA; \
    if (t > *scratch) *scratch = t; \
  } while (0)
  if (n > 0 && key_bytes) GAMQ__SCRATCH(gamq__cuda_qf_sort(&F->f, NULL, n, NULL, &t, st));
  if (dedup) GAMQ__SCRATCH(gprim_unique((void *)NULL, &t, (const uint64_t *)NULL, (uint64_t *)NULL, (size_t *)NULL, n, st));
  if (na > 0) GAMQ__SCRATCH(gamq__cuda_qf_extract(op == GAMQ__QF_OP_MERGE ? &A->f : &F->f, NULL, NULL, &t, st));
  if (nb > 0) GAMQ__SCRATCH(gamq__cuda_qf_extract(&B->f, NULL, NULL, &t, st));
  if (op == GAMQ__QF_OP_INSERT || op == GAMQ__QF_OP_MERGE)
    GAMQ__SCRATCH(gprim_merge_keys((void *)NULL, &t, (const uint64_t *)NULL, na, (const uint64_t *)NULL,
                                   op == GAMQ__QF_OP_MERGE ? nb : n, (uint64_t *)NULL, gprim_less(), st));
  if (op == GAMQ__QF_OP_DELETE)
    GAMQ__SCRATCH(gamq__cuda_qf_difference(NULL, na, NULL, n, NULL, NULL, NULL, &t, st));
  GAMQ__SCRATCH(gamq__cuda_qf_build(&F->f, NULL, (size_t)total, scan, NULL, &t, &full, st));
#undef GAMQ__SCRATCH
  return GAMQ_SUCCESS;
}

/* One rebuild: op BUILD (keys -> F), INSERT (F + keys), DELETE (F - keys) or
   MERGE (a + b -> F), by the plan's scan (and a build's dedup). The new
   multiset is made in temporaries, FULL is checked by the build before F is
   touched. */
static gamq_status gamq__qf_cuda_rebuild(gamq_qf *F, const gamq__qf_plan *plan, int op, const void *d_keys,
                                         int key_bytes, size_t n, const gamq_qf *A, const gamq_qf *B,
                                         uint64_t *deleted, cudaStream_t st) {
  gamq__qf_bufs bufs;
  size_t bytes[GAMQ__QF_BUFS], t, scratch = 0, kept = 0;
  uint64_t *fp, *ea, *eb, *m;
  size_t *d_kept;
  size_t n_old = op == GAMQ__QF_OP_INSERT || op == GAMQ__QF_OP_DELETE ? (size_t)F->f.nitems : 0;
  size_t na = op == GAMQ__QF_OP_MERGE ? (size_t)A->f.nitems : n_old;
  size_t nb = op == GAMQ__QF_OP_MERGE ? (size_t)B->f.nitems : 0;
  uint64_t total = op == GAMQ__QF_OP_BUILD ? n : op == GAMQ__QF_OP_DELETE ? n_old : (uint64_t)na + n + nb;
  const int dedup = op == GAMQ__QF_OP_BUILD && plan->dedup; /* keep the first of each run */
  int full = 0;
  gamq_status s;
  cudaError_t e = cudaSuccess;
  if (op == GAMQ__QF_OP_MERGE) n = 0;
  if (total > F->f.nslots && !dedup) return GAMQ_ERROR_FULL; /* as the host: no layout fits */
  if (total > GAMQ_QF_MAX_BATCH) return GAMQ_ERROR_NOT_IMPLEMENTED;
  /* buffers: 0 batch fingerprints, 1 extract of F or A, 2 extract of B,
     3 the new multiset, 4 the kept count, 5 scratch for every step in turn */
  bytes[0] = key_bytes ? n * sizeof(uint64_t) : 0; /* key_bytes 0: d_keys are sorted fingerprints */
  bytes[1] = na * sizeof(uint64_t);
  bytes[2] = nb * sizeof(uint64_t);
  bytes[3] = op == GAMQ__QF_OP_BUILD && !dedup ? 0 : (size_t)total * sizeof(uint64_t);
  bytes[4] = op == GAMQ__QF_OP_DELETE || dedup ? sizeof(size_t) : 0;
  s = gamq__qf_rebuild_scratch(F, &plan->scan, op, key_bytes, n, A, B, na, nb, dedup, total, &scratch, st);
  if (s != GAMQ_SUCCESS) return s;
  bytes[5] = scratch;
  s = gamq__qf_bufs_alloc(F, &bufs, bytes, st);
  if (s != GAMQ_SUCCESS) return s;
  fp = (uint64_t *)bufs.p[0], ea = (uint64_t *)bufs.p[1], eb = (uint64_t *)bufs.p[2], m = (uint64_t *)bufs.p[3];
  d_kept = (size_t *)bufs.p[4];
  t = scratch;
  if (!key_bytes) fp = (uint64_t *)d_keys;
  if (n > 0 && key_bytes) {
    e = gamq__cuda_qf_hash(&F->f, d_keys, key_bytes, n, fp, st);
    if (e == cudaSuccess) e = gamq__cuda_qf_sort(&F->f, fp, n, bufs.p[5], &t, st);
  }
  if (e == cudaSuccess && na > 0)
    e = gamq__cuda_qf_extract(op == GAMQ__QF_OP_MERGE ? &A->f : &F->f, ea, bufs.p[5], &t, st);
  if (e == cudaSuccess && nb > 0) e = gamq__cuda_qf_extract(&B->f, eb, bufs.p[5], &t, st);
  if (e == cudaSuccess && op == GAMQ__QF_OP_BUILD && !dedup) m = fp;
  if (e == cudaSuccess && dedup) {
    e = gprim_unique(bufs.p[5], &t, (const uint64_t *)fp, m, d_kept, n, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(&kept, d_kept, sizeof kept, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    total = kept;
  }
  if (e == cudaSuccess && op == GAMQ__QF_OP_INSERT)
    e = gprim_merge_keys(bufs.p[5], &t, (const uint64_t *)ea, na, (const uint64_t *)fp, n, m, gprim_less(), st);
  if (e == cudaSuccess && op == GAMQ__QF_OP_MERGE)
    e = gprim_merge_keys(bufs.p[5], &t, (const uint64_t *)ea, na, (const uint64_t *)eb, nb, m, gprim_less(), st);
  if (e == cudaSuccess && op == GAMQ__QF_OP_DELETE) {
    e = gamq__cuda_qf_difference(ea, na, fp, n, m, d_kept, bufs.p[5], &t, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(&kept, d_kept, sizeof kept, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    total = kept;
  }
  if (e == cudaSuccess) e = gamq__cuda_qf_build(&F->f, m, (size_t)total, &plan->scan, bufs.p[5], &t, &full, st);
  gamq__qf_bufs_free(F, &bufs, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  if (e != cudaSuccess) return GAMQ_ERROR_CUDA;
  if (full) return GAMQ_ERROR_FULL;
  if (op == GAMQ__QF_OP_DELETE && deleted) *deleted = (uint64_t)(n_old - kept);
  F->f.nitems = total;
  return GAMQ_SUCCESS;
}
/* In place (amq/qf/kernels.cuh, IN-PLACE ROUNDS): op INSERT, DELETE, or BUILD (inserts
   into a zeroed buffer that replaces F's data on success). Rounds past the
   plan's cap hand the rest to gamq__qf_cuda_rebuild (or, when it cannot
   allocate, go on in place). FULL deletes in place what went in: the bytes
   are back. The phases below share one gamq__qf_inplace. */
typedef struct gamq__qf_inplace {
  const gamq__qf_plan *plan;
  gamq__qf_bufs bufs;
  gamq__qf g;                  /* what the rounds change: F's filter, or a build's new buffer */
  uint64_t *fp, *pend, *spare; /* the sorted batch; the items left, and a buffer to swap them with */
  size_t n, left, t;           /* the batch; items left; the scratch bytes */
  uint64_t changed;            /* items inserted or deleted */
  int del, build, cap, full, rounds;
} gamq__qf_inplace;

/* Size every step's scratch and take the buffers: 0 the sorted batch, 1 and
   2 the items left (in turn), 3 the new filter of a build, 4 a count, 5
   scratch. */
static gamq_status gamq__qf_inplace_alloc(gamq_qf *F, gamq__qf_inplace *c, cudaStream_t st) {
  size_t bytes[GAMQ__QF_BUFS], t, scratch = 0;
  gamq__qf_rounds_out o;
  gamq_status s;
  const size_t n = c->n;
#define GAMQ__SCRATCH(call) \
  do {                       \
    t = 0;                   \
    if ((call) != cudaSuccess) return GAMQ_ERROR_CUDA; \
    if (t > scratch) scratch = t; \
  } while (0)
  GAMQ__SCRATCH(gamq__cuda_qf_sort(&F->f, NULL, n, NULL, &t, st));
  GAMQ__SCRATCH(gamq__cuda_qf_rounds(&F->f, c->del, NULL, n, c->cap, NULL, NULL, &t, &o, st));
  if (!c->del && !c->build) GAMQ__SCRATCH(gamq__cuda_qf_difference(NULL, n, NULL, n, NULL, NULL, NULL, &t, st));
#undef GAMQ__SCRATCH
  bytes[0] = bytes[1] = bytes[2] = n * sizeof(uint64_t);
  bytes[3] = c->build ? F->f.bytes : 0;
  bytes[4] = sizeof(size_t);
  bytes[5] = scratch;
  s = c->build ? gamq__qf_bufs_alloc(F, &c->bufs, bytes, st)  /* the new filter must not be kept scratch */
               : gamq__qf_bufs_keep(F, c->plan->keep_bytes, &c->bufs, bytes, st);
  if (s != GAMQ_SUCCESS) return s;
  c->fp = (uint64_t *)c->bufs.p[0], c->pend = (uint64_t *)c->bufs.p[1], c->spare = (uint64_t *)c->bufs.p[2];
  c->t = scratch;
  return GAMQ_SUCCESS;
}

/* Hash and sort the batch (a build: zero its new filter), then the rounds
   up to the cap. */
static cudaError_t gamq__qf_inplace_rounds(const gamq_qf *F, gamq__qf_inplace *c, const void *d_keys, int key_bytes,
                                           cudaStream_t st) {
  gamq__qf_rounds_out o;
  cudaError_t e = gamq__cuda_qf_hash(&F->f, d_keys, key_bytes, c->n, c->fp, st);
  if (e == cudaSuccess) e = gamq__cuda_qf_sort(&F->f, c->fp, c->n, c->bufs.p[5], &c->t, st);
  if (e == cudaSuccess && c->build) {
    c->g.data = (uint8_t *)c->bufs.p[3], c->g.nitems = 0;
    e = cudaMemsetAsync(c->g.data, 0, c->g.bytes, st);
  }
  if (e == cudaSuccess) e = gamq__cuda_qf_rounds(&c->g, c->del, c->fp, c->n, c->cap, c->pend, c->bufs.p[5], &c->t, &o, st);
  if (e == cudaSuccess) c->rounds = o.rounds, c->changed = o.changed, c->full = o.full, c->left = o.left;
  return e;
}

/* The items left at the cap: a rebuild of the filter as the rounds left it
   with them, or, when the rebuild finds no memory, rounds with no cap. */
static cudaError_t gamq__qf_inplace_rest(gamq_qf *F, gamq__qf_inplace *c, cudaStream_t st) {
  gamq__qf saved = F->f;
  gamq__qf_rounds_out o;
  uint64_t d2 = 0, *x;
  gamq_status s;
  cudaError_t e = cudaSuccess;
  F->f = c->g;
  F->f.nitems = c->del ? c->g.nitems - c->changed : c->g.nitems + c->changed;
  s = gamq__qf_cuda_rebuild(F, c->plan, c->del ? GAMQ__QF_OP_DELETE : GAMQ__QF_OP_INSERT, c->pend, 0, c->left, NULL,
                            NULL, &d2, st);
  F->f = saved;
  if (s == GAMQ_SUCCESS) {
    c->changed += c->del ? d2 : c->left, c->left = 0;
  } else if (s == GAMQ_ERROR_FULL) {
    c->full = 1;
  } else if (s == GAMQ_ERROR_CUDA) {
    e = cudaErrorUnknown;
  } else { /* no memory for the rebuild: go on in place */
    e = gamq__cuda_qf_rounds(&c->g, c->del, c->pend, c->left, 0x7fffffff, c->spare, c->bufs.p[5], &c->t, &o, st);
    x = c->pend, c->pend = c->spare, c->spare = x;
    if (e == cudaSuccess) c->rounds += o.rounds, c->changed += o.changed, c->full = o.full, c->left = o.left;
  }
  return e;
}

/* FULL: delete in place what went in (the batch minus the items left),
   which restores the filter's bytes. */
static cudaError_t gamq__qf_inplace_roll_back(gamq__qf_inplace *c, cudaStream_t st) {
  gamq__qf_rounds_out o;
  size_t kept = 0;
  cudaError_t e = gamq__cuda_qf_difference(c->fp, c->n, c->pend, c->left, c->spare, (size_t *)c->bufs.p[4],
                                           c->bufs.p[5], &c->t, st);
  if (e == cudaSuccess) e = cudaMemcpyAsync(&kept, c->bufs.p[4], sizeof kept, cudaMemcpyDeviceToHost, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  if (e == cudaSuccess) e = gamq__cuda_qf_rounds(&c->g, 1, c->spare, kept, 0x7fffffff, c->pend, c->bufs.p[5], &c->t, &o, st);
  if (e == cudaSuccess && (o.left != 0 || o.changed != kept)) e = cudaErrorUnknown; /* cannot happen */
  return e;
}

/* Success: the count (and *deleted); a build's new buffer becomes the
   filter's and the old one goes with the buffers. */
static gamq_status gamq__qf_inplace_commit(gamq_qf *F, gamq__qf_inplace *c, uint64_t *deleted, cudaStream_t st) {
  if (c->build) {
    void *old = F->f.data;
    F->f.data = c->g.data;
    c->bufs.p[3] = old;
    F->f.nitems = c->n;
  } else {
    F->f.nitems = c->del ? F->f.nitems - c->changed : F->f.nitems + c->n;
  }
  if (c->del && deleted) *deleted = c->changed;
  gamq__qf_bufs_free(F, &c->bufs, st);
  return cudaStreamSynchronize(st) == cudaSuccess ? GAMQ_SUCCESS : GAMQ_ERROR_CUDA;
}

static gamq_status gamq__qf_cuda_inplace(gamq_qf *F, const gamq__qf_plan *plan, int op, const void *d_keys,
                                         int key_bytes, size_t n, uint64_t *deleted, cudaStream_t st) {
  gamq__qf_inplace c;
  gamq_status s;
  cudaError_t e;
  memset(&c, 0, sizeof c);
  c.plan = plan, c.g = F->f, c.n = n;
  c.del = op == GAMQ__QF_OP_DELETE, c.build = op == GAMQ__QF_OP_BUILD;
  c.cap = plan->max_rounds;
  if (!c.del && (uint64_t)n > F->f.nslots - (c.build ? 0 : F->f.nitems)) return GAMQ_ERROR_FULL; /* as the host */
  s = gamq__qf_inplace_alloc(F, &c, st);
  if (s != GAMQ_SUCCESS) return s;
  e = gamq__qf_inplace_rounds(F, &c, d_keys, key_bytes, st);
  if (e == cudaSuccess && !c.full && c.left > 0) e = gamq__qf_inplace_rest(F, &c, st);
  if (e == cudaSuccess && c.full && !c.build) e = gamq__qf_inplace_roll_back(&c, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  F->last_rounds = c.rounds;
  if (e != cudaSuccess || c.full) {
    gamq__qf_bufs_free(F, &c.bufs, st); /* a build's new buffer goes with them */
    return e != cudaSuccess ? GAMQ_ERROR_CUDA : GAMQ_ERROR_FULL;
  }
  return gamq__qf_inplace_commit(F, &c, deleted, st);
}

/* In place by window re-layout (amq/qf/kernels.cuh, IN-PLACE WINDOWS): op INSERT or
   DELETE. Hash, sort, bounds, chain passes until no link is added (inserts;
   FULL there leaves the filter untouched), one write launch; a few host
   syncs whatever the batch. F->last_rounds = the chain passes. */
static gamq_status gamq__qf_cuda_windows(gamq_qf *F, const gamq__qf_plan *plan, int op, const void *d_keys,
                                         int key_bytes, size_t n, uint64_t *deleted, cudaStream_t st) {
  gamq__qf_bufs bufs;
  size_t bytes[GAMQ__QF_BUFS], t = 0;
  const int del = op == GAMQ__QF_OP_DELETE;
  const size_t head = 64; /* the round status and the chain flags, then the links */
  gamq__qf_round_status h;
  unsigned int flags = 0;
  int passes = 0;
  cudaError_t e;
  if (!del && (uint64_t)n > F->f.nslots - F->f.nitems) return GAMQ_ERROR_FULL; /* as the host */
  if (gamq__cuda_qf_sort(&F->f, NULL, n, NULL, &t, st) != cudaSuccess) return GAMQ_ERROR_CUDA;
  /* buffers: 0 the sorted batch, 1 and 2 the BOUNDS (inserts: the first
     unused slot twice; deletes: stretch start, non-empty flag), 3 window
     ends, 4 status + flags + links, 5 the sort's scratch */
  bytes[0] = bytes[1] = bytes[2] = n * sizeof(uint64_t);
  bytes[3] = del ? 0 : n * sizeof(uint64_t);
  bytes[4] = head + n;
  bytes[5] = t;
  gamq_status s = gamq__qf_bufs_keep(F, plan->keep_bytes, &bufs, bytes, st);
  if (s != GAMQ_SUCCESS) return s;
  uint64_t *fp = (uint64_t *)bufs.p[0], *A = (uint64_t *)bufs.p[1], *T = (uint64_t *)bufs.p[2], *Z = (uint64_t *)bufs.p[3];
  gamq__qf_round_status *d_st = (gamq__qf_round_status *)bufs.p[4];
  unsigned int *d_flags = (unsigned int *)((uint8_t *)bufs.p[4] + 48);
  uint8_t *link = (uint8_t *)bufs.p[4] + head;
  const unsigned grid = gamq__grid(n, 256);
  memset(&h, 0, sizeof h);
  e = gamq__cuda_qf_hash(&F->f, d_keys, key_bytes, n, fp, st);
  if (e == cudaSuccess) e = gamq__cuda_qf_sort(&F->f, fp, n, bufs.p[5], &t, st);
  if (e == cudaSuccess) e = cudaMemsetAsync(bufs.p[4], 0, head + n, st);
  if (e == cudaSuccess) {
    gamq__win_bounds_kernel<<<grid, 256, 0, st>>>(F->f, del, fp, n, A, T);
    e = cudaGetLastError();
  }
  for (flags = 2; e == cudaSuccess && !del && flags == 2;) { /* chain passes: until no link is added */
    e = cudaMemsetAsync(d_flags, 0, sizeof(unsigned int), st);
    if (e == cudaSuccess) {
      gamq__win_chain_kernel<<<grid, 256, 0, st>>>(F->f, A, T, link, n, Z, d_flags);
      e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(&flags, d_flags, sizeof flags, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    ++passes;
    if (flags & 1) flags = 1; /* FULL: stop, nothing was written */
  }
  if (e == cudaSuccess && flags != 1) {
    gamq__win_write_kernel<GAMQ__WIN_ONE><<<grid, 256, 0, st>>>(F->f, del, fp, A, T, link, Z, n, d_st);
    gamq__win_write_kernel<GAMQ__WIN_MANY><<<grid, 256, 0, st>>>(F->f, del, fp, A, T, link, Z, n, d_st);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpyAsync(&h, d_st, sizeof h, cudaMemcpyDeviceToHost, st);
  }
  gamq__qf_bufs_free(F, &bufs, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  F->last_rounds = passes;
  if (e != cudaSuccess || h.full) return GAMQ_ERROR_CUDA; /* h.full: a window did not fill (a bug) */
  if (flags == 1) return GAMQ_ERROR_FULL;
  if (del) {
    F->f.nitems -= h.changed;
    if (deleted) *deleted = h.changed;
  } else {
    F->f.nitems += n;
  }
  return GAMQ_SUCCESS;
}
