/* clique/sets/cuda.cuh - the CUDA backend of set intersection: a call's
   device state (the collection on the device, its device context,
   clique/device.cuh), a batch classified into warps and tiles, the
   passes (count, scan, write) inside the budget, the device call
   (gclq_intersect_pairs_device), and the drivers of all pairs at once (the
   inverted index, the bit matrix, the row tiles into the sink). Kernels:
   clique/sets/kernels.cuh, methods.cuh, all_pairs.cuh. */
/* One call's device state: the collection on the device, the device
   context (clique/device.cuh: budget, allocator, log), and what the
   driver reads of the plan (gclq__sets_plan, clique/sets/choose.h; set by
   gclq__sets_batches after the open). */
struct gclq__sets_dev {
  gclq__dev c;
  gclq_intersect_stats *stats;
  const gclq_sets *sets;
  gclq_intersect_method method; /* the plan's method (the open: the options') */
  int auto_ip_obs; /* the plan's: AUTO's batch rule picked IP_OBS, its small pairs take the per-pair rule's warps */
  int materialise;
  void *d_off, *d_elem;
  size_t off_held, elem_held;
};

/* A batch cut into the work of each kernel (host arrays, GCLQ_MALLOC'd). */
struct gclq__sets_split {
  uint32_t *warp;               /* the pairs a warp runs */
  uint32_t nw;
  uint32_t *path_pair, *search_pair;
  uint64_t *path_first, *search_first; /* nq + 1 each */
  uint32_t npath, nsearch;
  uint32_t searched;   /* pairs that run binary search */
  uint64_t most;       /* the smaller sets' sizes summed: no more matches than this */
  uint64_t lane_tiles; /* search tiles of pairs of GCLQ__SETS_CUT_LANES_FROM elements or more */
  int stream; /* how the bitmaps' count pass streams its windows (GCLQ__STREAM_*), or 0: it does not */
};

static inline void gclq__sets_split_free(gclq__sets_split *s) {
  GCLQ_FREE(s->warp);
  GCLQ_FREE(s->path_pair);
  GCLQ_FREE(s->search_pair);
  GCLQ_FREE(s->path_first);
  GCLQ_FREE(s->search_first);
  memset(s, 0, sizeof *s);
}

/* Blocks of GCLQ__SETS_NT threads the device holds at once: the grid of
   the bitmaps' count kernels (gclq__sets_bits_count), which the stream
   rule (gclq__sets_stream_balanced) divides a batch's tiles among, and of
   the device call's tile kernels (gclq__cuda_pairs_device). */
static inline uint32_t gclq__sets_resident_blocks(void) {
  return (uint32_t)gprim__sm_count() * (2048 / GCLQ__SETS_NT);
}

/* Classify the pairs of a batch: empty ones need nothing (their count is
   0), small ones a warp, the rest tiles of merge steps or of searches; and
   whether the bitmaps' count streams. The rules are the chooser's
   (clique/sets/choose.h: gclq__sets_searches for each pair, with
   d->method; gclq__sets_stream_balanced and gclq__sets_stream_shape for
   the batch), applied here because they read the batch's pairs. */
static inline gclq_status gclq__sets_classify(gclq__sets_dev *d, const uint32_t *pairs, uint32_t n,
                                              gclq__sets_split *s) {
  const gclq__sets_args h = {d->sets->h_offsets, d->sets->h_elements, pairs, NULL, NULL, NULL}; /* on the host */
  memset(s, 0, sizeof *s);
  s->warp = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  s->path_pair = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  s->search_pair = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  s->path_first = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  s->search_first = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  if (!s->warp || !s->path_pair || !s->search_pair || !s->path_first || !s->search_first) {
    gclq__sets_split_free(s);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  s->path_first[0] = s->search_first[0] = 0;
  uint64_t search_elements = 0; /* both sides of the pairs in search tiles */
  for (uint32_t p = 0; p < n; ++p) {
    const gclq__sets_pair pr = gclq__sets_pair_at(h, p);
    if (pr.na == 0) continue;
    s->most += pr.na;
    uint64_t path_tiles, search_tiles;
    gclq__sets_work_pair(d->method, pr, &path_tiles, &search_tiles);
    s->searched += gclq__sets_searches(d->method, pr.na, pr.nb);
    if (search_tiles > 0) {
      if ((uint64_t)pr.na + pr.nb >= GCLQ__SETS_CUT_LANES_FROM) s->lane_tiles += search_tiles;
      search_elements += (uint64_t)pr.na + pr.nb;
      s->search_pair[s->nsearch] = p;
      s->search_first[s->nsearch + 1] = s->search_first[s->nsearch] + search_tiles;
      s->nsearch++;
    } else if (path_tiles > 0) {
      s->path_pair[s->npath] = p;
      s->path_first[s->npath + 1] = s->path_first[s->npath] + path_tiles;
      s->npath++;
    } else {
      s->warp[s->nw++] = p;
    }
  }
  const uint32_t blocks = gclq__sets_resident_blocks();
  if (gclq__sets_is_bitmap(d->method) &&
      gclq__sets_stream_balanced(d->method, h, s->search_pair, s->search_first, s->nsearch, blocks))
    s->stream = GCLQ__STREAM_ON | gclq__sets_stream_shape(search_elements, s->search_first[s->nsearch], blocks);
  return GCLQ_SUCCESS;
}

/* The split's arrays freed when a scope ends. */
struct gclq__sets_split_scope {
  gclq__sets_split *s;
  ~gclq__sets_split_scope() { gclq__sets_split_free(s); }
};

/* A host array of `count` words on the device, under the budget. */
template <typename T>
static inline gclq_status gclq__sets_put(gclq__dev *c, gclq__dmem *d, const T *h, uint64_t count) {
  GCLQ__TRY(d->get((size_t)count * sizeof(T)));
  if (count > 0) GCLQ__CUDA_TRY(cudaMemcpyAsync(d->p, h, (size_t)count * sizeof(T), cudaMemcpyHostToDevice, c->stream));
  return GCLQ_SUCCESS;
}

/* The tiles of one kind on the device (pair, first; count when writing). */
static inline gclq_status gclq__sets_put_tiles(gclq__sets_dev *d, const uint32_t *pair, const uint64_t *first,
                                               uint32_t nq, gclq__dmem *dp, gclq__dmem *df, gclq__dmem *dc,
                                               gclq__sets_tiles *T) {
  memset(T, 0, sizeof *T);
  T->nq = nq;
  if (nq == 0) return GCLQ_SUCCESS;
  GCLQ__TRY(gclq__sets_put(&d->c, dp, pair, nq));
  GCLQ__TRY(gclq__sets_put(&d->c, df, first, (uint64_t)nq + 1));
  T->pair = dp->as<uint32_t>();
  T->first = df->as<uint64_t>();
  if (d->materialise) {
    GCLQ__TRY(dc->get((size_t)first[nq] * sizeof(uint64_t)));
    T->count = dc->as<uint64_t>();
  }
  return GCLQ_SUCCESS;
}

/* Blocks for `tiles` tiles (GCLQ__SETS_GRID at most: they loop over the rest). */
static inline unsigned gclq__sets_grid(uint64_t tiles) {
  return (unsigned)(tiles < GCLQ__SETS_GRID ? tiles : GCLQ__SETS_GRID);
}

/* Every tile's ends by the partition kernel into split, and cut->split
   pointing at them; when the budget has no room for them, cut->split stays
   NULL and each block finds its own (the same ends, found tile after tile
   by the block before its work: slower, e.g. the bitmaps' count of two
   sets of 10^8 takes a fifth longer). lanes: the bitmaps' and HASH's ends
   by a warp a tile (gclq__sets_table_split_kernel), for a batch whose
   tiles are mostly of large pairs (on two uniform sets of 10^7 a warp a
   tile, where gclq__d_table_ends runs all four at once, takes half the
   time of a thread an end searching a's ends and then b's, a partition
   that cost a third of the count; on R-MAT's every edge, whose pairs are
   small, a warp a tile costs more than it saves). */
template <int KIND>
static inline gclq_status gclq__sets_cuts(gclq__sets_dev *d, const gclq__sets_args &g, uint64_t tiles, bool lanes,
                                          gclq__dmem *split, gclq__sets_tiles *cut) {
  const uint32_t per = KIND == GCLQ__CUT_TABLE ? 4 : 2;
  const size_t bytes = (size_t)tiles * per * sizeof(uint32_t);
  int on = 1;
#ifdef GPUCLIQUE_TESTING
  on = !gclq__sets_cuts_in_blocks;
#endif
  if (!on || tiles == 0 || !gclq__dev_fits(&d->c, bytes) || split->get(bytes) != GCLQ_SUCCESS) return GCLQ_SUCCESS;
  if (KIND == GCLQ__CUT_TABLE && lanes && (gclq__sets_is_bitmap(d->method) || d->method == GCLQ_INTERSECT_HASH))
    gclq__sets_table_split_kernel<<<gclq__grid(32 * tiles), GCLQ__BLOCK, 0, d->c.stream>>>(g, *cut, d->method,
                                                                                         split->as<uint32_t>(), NULL);
  else
    gclq__sets_split_kernel<KIND><<<gclq__grid(per * tiles), GCLQ__BLOCK, 0, d->c.stream>>>(g, *cut, d->method,
                                                                                         split->as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  cut->split = split->as<uint32_t>();
  return GCLQ_SUCCESS;
}

/* Whether a batch's table ends go by a warp a tile: half its search tiles
   or more are of large pairs (gclq__sets_cuts). */
static inline bool gclq__sets_lanes(const gclq__sets_split &s) {
  return 2 * s.lane_tiles >= s.search_first[s.nsearch];
}

/* The bitmaps' count pass over a batch's search tiles T (tiles of them):
   streamed (stream: gclq__sets_split's GCLQ__STREAM_* bits,
   gclq__sets_bits_stream_kernel, whose PAIRS kernel is held to the blocks
   a multiprocessor fits; faster than the records on two uniform sets of
   10^7 and of 10^8 over U = 10^9: bench/results/sets_h200.md, "The
   bitmaps' streamed count"), or by
   gclq__sets_bits_count_kernel from the partition kernel's records (rec:
   their memory, held until the kernels are done). *ran = 0 when the
   budget has no room for the records or the blocks find their own ends
   (the hook): the caller runs the usual kernels. */
static inline gclq_status gclq__sets_bits_count(gclq__sets_dev *d, const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                uint64_t tiles, int stream, gclq__dmem *rec, int *ran) {
  const size_t bytes = (size_t)tiles * sizeof(gclq__sets_bits_tile);
  const uint64_t most = gclq__sets_resident_blocks();
  const unsigned grid = (unsigned)(tiles < most ? tiles : most);
  int on = 1;
  *ran = 0;
#ifdef GPUCLIQUE_TESTING
  on = !gclq__sets_cuts_in_blocks;
  if (gclq__sets_stream_windows >= 0) stream = gclq__sets_stream_windows;
#endif
  if (on && stream && T.first_shift == 0) {
    const uint32_t ls = stream & GCLQ__STREAM_SLOTS ? GCLQ__SETS_STREAM_SLOTS_LOG2 : 0u;
    if (stream & GCLQ__STREAM_PAIRS && T.count == NULL) { /* PAIRS reads WIDE */
      int per_sm = 0; /* the 32 KB bitmap holds fewer blocks a multiprocessor */
      GCLQ__CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, gclq__sets_bits_stream_kernel<2, true>, GCLQ__SETS_NT, 0));
      const uint64_t held = (uint64_t)gprim__sm_count() * (uint64_t)(per_sm > 0 ? per_sm : 1);
      gclq__sets_bits_stream_kernel<2, true>
          <<<(unsigned)(tiles < held ? tiles : held), GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, d->method, ls);
    } else if (stream & GCLQ__STREAM_WIDE) {
      gclq__sets_bits_stream_kernel<2, false><<<grid, GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, d->method, ls);
    } else {
      gclq__sets_bits_stream_kernel<1, false><<<grid, GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, d->method, ls);
    }
    GCLQ__CUDA_TRY(cudaGetLastError());
    *ran = 1;
    return GCLQ_SUCCESS;
  }
  if (!on || !gclq__dev_fits(&d->c, bytes) || rec->get(bytes) != GCLQ_SUCCESS) return GCLQ_SUCCESS;
  gclq__sets_bits_tile *r = rec->as<gclq__sets_bits_tile>();
  gclq__sets_table_split_kernel<<<gclq__grid(32 * tiles), GCLQ__BLOCK, 0, d->c.stream>>>(g, T, d->method, NULL, r);
  GCLQ__CUDA_TRY(cudaGetLastError());
  gclq__sets_bits_count_kernel<<<grid, GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, r);
  GCLQ__CUDA_TRY(cudaGetLastError());
  *ran = 1;
  return GCLQ_SUCCESS;
}

/* The three kernels of one pass (WRITE: the write pass). */
template <bool WRITE>
static inline gclq_status gclq__sets_launch(gclq__sets_dev *d, const gclq__sets_args &g, const gclq__sets_split &s,
                                            const uint32_t *d_warp, const gclq__sets_tiles &path,
                                            const gclq__sets_tiles &search) {
  cudaStream_t stream = d->c.stream;
  const uint64_t path_tiles = s.path_first[s.npath], search_tiles = s.search_first[s.nsearch];
  if (!WRITE && gclq__sets_is_bitmap(d->method) && path_tiles == 0 && search_tiles > 0 && gclq__sets_lanes(s)) {
    gclq__dmem rec(&d->c);
    int ran;
    GCLQ__TRY(gclq__sets_bits_count(d, g, search, search_tiles, s.stream, &rec, &ran));
    if (ran) /* the pairs a warp runs, if any */
      return gclq__sets_methods_launch<false>(d->method, g, d_warp, s.nw, path, 0, search, 0, stream);
  }
  if (gclq__sets_methods_has(d->method)) {
    gclq__dmem path_split(&d->c), search_split(&d->c);
    gclq__sets_tiles path_cut = path, search_cut = search;
    const uint32_t table_warps = gclq__sets_rule_warps(d->auto_ip_obs) ? 0 : s.nw;
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_TABLE>(d, g, path_tiles, false, &path_split, &path_cut));
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_TABLE>(d, g, search_tiles, gclq__sets_lanes(s), &search_split, &search_cut));
    if (s.nw > 0 && table_warps == 0) {
      gclq__sets_warp_kernel<WRITE><<<gclq__grid((uint64_t)s.nw * 32), GCLQ__BLOCK, 0, stream>>>(g, d_warp, s.nw,
                                                                                               GCLQ_INTERSECT_AUTO);
      GCLQ__CUDA_TRY(cudaGetLastError());
    }
    return gclq__sets_methods_launch<WRITE>(d->method, g, d_warp, table_warps, path_cut, gclq__sets_grid(path_tiles),
                                            search_cut, gclq__sets_grid(search_tiles), stream);
  }
  if (s.nw > 0) {
    const unsigned blocks = gclq__grid((uint64_t)s.nw * 32);
    gclq__sets_warp_kernel<WRITE><<<blocks, GCLQ__BLOCK, 0, stream>>>(g, d_warp, s.nw, d->method);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  if (path_tiles > 0) {
    gclq__dmem split(&d->c);
    gclq__sets_tiles cut = path;
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_PATH>(d, g, path_tiles, false, &split, &cut));
    gclq__sets_path_kernel<WRITE><<<gclq__sets_grid(path_tiles), GCLQ__SETS_NT, 0, stream>>>(g, cut);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  if (search_tiles > 0) {
    gclq__dmem split(&d->c);
    gclq__sets_tiles cut = search;
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_SEARCH>(d, g, search_tiles, false, &split, &cut));
    gclq__sets_search_kernel<WRITE><<<gclq__sets_grid(search_tiles), GCLQ__SETS_NT, 0, stream>>>(g, cut);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  return GCLQ_SUCCESS;
}

/* Whether a materialised batch can count and write in one pass: every
   pair with matches in tiles of one kind that a one-pass kernel runs (the
   merge path kernel's, or a table method's), none in warps; at most 2^32
   tiles (the tickets). */
static inline int gclq__sets_one_pass_runs(const gclq__sets_dev *d, const gclq__sets_split &s) {
  const uint64_t pt = s.path_first[s.npath], st = s.search_first[s.nsearch];
#ifdef GPUCLIQUE_TESTING
  if (gclq__sets_two_passes) return 0;
#endif
  if (!d->materialise || s.nw > 0 || (pt > 0) == (st > 0) || pt + st > 0xffffffffull) return 0;
  return gclq__sets_methods_has(d->method) || pt > 0;
}

/* The device memory of the one pass: the output's room, the look-back's
   words, the tiles' ends (4 a tile at most), each rounded up. */
static inline size_t gclq__sets_one_pass_bytes(const gclq__sets_split &s) {
  const uint64_t tiles = s.path_first[s.npath] + s.search_first[s.nsearch];
  return (size_t)s.most * sizeof(uint32_t) + gprim__lookback<unsigned long long>::bytes((size_t)tiles) +
         (size_t)tiles * 4 * sizeof(uint32_t) + 3 * 256;
}

/* Count and write a batch in one pass (gclq__sets_one_pass_runs): the
   tiles' ends by the partition kernel, then one kernel whose blocks take
   the tiles in order and place each by decoupled look-back on the matches
   of the tiles before it (gclq__d_tile_place), so the input is read once
   and the output (g.out, room for s.most words) comes out in pair order at
   the pairs' offsets; the counts (zeroed before) are added as in the count
   pass. lb: the look-back's words, held until the kernel is done. */
static inline gclq_status gclq__sets_one_pass(gclq__sets_dev *d, const gclq__sets_args &g, const gclq__sets_split &s,
                                              const gclq__sets_tiles &path, const gclq__sets_tiles &search,
                                              gclq__dmem *lb) {
  const uint64_t pt = s.path_first[s.npath], st = s.search_first[s.nsearch], tiles = pt + st;
  cudaStream_t stream = d->c.stream;
  gclq__sets_tiles T = pt > 0 ? path : search;
  gclq__dmem split(&d->c);
  GCLQ__TRY(lb->get(gprim__lookback<unsigned long long>::bytes((size_t)tiles)));
  T.lb.bind(lb->p, (size_t)tiles);
  GCLQ__CUDA_TRY(T.lb.reset(stream));
  if (gclq__sets_methods_has(d->method)) {
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_TABLE>(d, g, tiles, st > 0 && gclq__sets_lanes(s), &split, &T));
    return gclq__sets_methods_one_pass(d->method, g, T, gclq__sets_grid(tiles), stream);
  }
  GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_PATH>(d, g, tiles, false, &split, &T));
  gclq__sets_path_kernel<true, true><<<gclq__sets_grid(tiles), GCLQ__SETS_NT, 0, stream>>>(g, T);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* Exclusive scan of a kind's tile counts (scan: as many words). */
static inline gclq_status gclq__sets_scan_tiles(gclq__sets_dev *d, gclq__sets_tiles *T, uint64_t tiles,
                                                gclq__dmem *scan) {
  if (T->nq == 0) return GCLQ_SUCCESS;
  GCLQ__TRY(scan->get((size_t)tiles * sizeof(uint64_t)));
  uint64_t *out = scan->as<uint64_t>();
  const uint64_t *in = T->count;
  cudaStream_t stream = d->c.stream;
  GCLQ__TRY(gclq__dev_prim(&d->c, [&](void *tmp, size_t *bytes) {
    return gprim_scan_exclusive(tmp, bytes, in, out, (size_t)tiles, gprim_op_sum(), (uint64_t)0, stream);
  }));
  T->scan = out;
  return GCLQ_SUCCESS;
}

/* The pairs' output offsets: pos[p] the counts before pair p (n + 1). */
static inline void gclq__sets_offsets(const uint32_t *counts, uint32_t n, uint64_t *pos) {
  pos[0] = 0;
  for (uint32_t p = 0; p < n; ++p) pos[p + 1] = pos[p] + counts[p];
}

/* The write pass of a part whose counts are on the host and offsets in pos
   (gclq__sets_offsets): the tiles' scans, the kernels, then the
   intersections to the host. *fits = 0 when the output does not fit the
   budget. */
static inline gclq_status gclq__sets_write(gclq__sets_dev *d, gclq__sets_args g, const gclq__sets_split &s,
                                           const uint32_t *d_warp, gclq__sets_tiles path, gclq__sets_tiles search,
                                           uint32_t n, const uint64_t *pos, uint32_t **h_out, int *fits) {
  gclq__dev *c = &d->c;
  gclq__dmem d_pos(c), d_out(c), path_scan(c), search_scan(c);
  gclq_status st = gclq__sets_put(c, &d_pos, pos, (uint64_t)n + 1);
  if (st == GCLQ_SUCCESS) st = d_out.get((size_t)pos[n] * sizeof(uint32_t));
  if (st == GCLQ_SUCCESS) st = gclq__sets_scan_tiles(d, &path, s.path_first[s.npath], &path_scan);
  if (st == GCLQ_SUCCESS) st = gclq__sets_scan_tiles(d, &search, s.search_first[s.nsearch], &search_scan);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY) *fits = 0;
  GCLQ__TRY(st);
  g.pair_pos = d_pos.as<uint64_t>();
  g.out = d_out.as<uint32_t>();
  GCLQ__TRY(gclq__sets_launch<true>(d, g, s, d_warp, path, search));
  *h_out = (uint32_t *)gclq__alloc_array(pos[n], sizeof(uint32_t));
  if (*h_out == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  return gclq__dev_read(c, *h_out, g.out, (size_t)pos[n] * sizeof(uint32_t));
}

/* One part of a batch (n pairs) on the device, then into the sink. *fits =
   0 when its device memory did not fit the budget (nothing was taken). */
static inline gclq_status gclq__sets_part(gclq__sets_dev *d, gclq__sets_sink *k, const uint32_t *pairs, uint32_t n,
                                          uint32_t *counts, int *fits) {
  gclq__dev *c = &d->c;
  gclq__sets_split s;
  gclq__sets_split_scope scope = {&s};
  gclq__dmem d_pairs(c), d_counts(c), d_warp(c), pp(c), pf(c), pc(c), sp(c), sf(c), sc(c);
  gclq__sets_tiles path, search;
  gclq__clock::time_point t0 = gclq__clock::now();
  *fits = 1;
  GCLQ__TRY(gclq__sets_classify(d, pairs, n, &s));
  gclq_status st = gclq__sets_put(c, &d_pairs, pairs, 2 * (uint64_t)n);
  if (st == GCLQ_SUCCESS) st = d_counts.get((size_t)n * sizeof(uint32_t));
  if (st == GCLQ_SUCCESS) st = gclq__sets_put(c, &d_warp, s.warp, s.nw);
  if (st == GCLQ_SUCCESS) st = gclq__sets_put_tiles(d, s.path_pair, s.path_first, s.npath, &pp, &pf, &pc, &path);
  if (st == GCLQ_SUCCESS) st = gclq__sets_put_tiles(d, s.search_pair, s.search_first, s.nsearch, &sp, &sf, &sc, &search);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY) *fits = 0;
  GCLQ__TRY(st);
  gclq__sets_args g = {(const uint64_t *)d->d_off, (const uint32_t *)d->d_elem, d_pairs.as<uint32_t>(),
                       d_counts.as<uint32_t>(), NULL, NULL};
  GCLQ__CUDA_TRY(cudaMemsetAsync(g.counts, 0, (size_t)n * sizeof(uint32_t), c->stream));
  /* one pass when it runs and its output's room (s.most words) fits the budget */
  gclq__dmem d_out(c), lb(c);
  const int one = gclq__sets_one_pass_runs(d, s) && gclq__dev_fits(c, gclq__sets_one_pass_bytes(s)) &&
                  d_out.get((size_t)s.most * sizeof(uint32_t)) == GCLQ_SUCCESS;
  g.out = d_out.as<uint32_t>();
  if (one) GCLQ__TRY(gclq__sets_one_pass(d, g, s, path, search, &lb));
  else GCLQ__TRY(gclq__sets_launch<false>(d, g, s, d_warp.as<uint32_t>(), path, search));
  GCLQ__TRY(gclq__dev_read(c, counts, g.counts, (size_t)n * sizeof(uint32_t)));
  uint64_t *pos = NULL;
  uint32_t *out = NULL;
  if (d->materialise) {
    pos = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
    if (pos == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    gclq__sets_offsets(counts, n, pos);
    if (one) { /* the output is on the device already */
      out = (uint32_t *)gclq__alloc_array(pos[n], sizeof(uint32_t));
      st = out ? gclq__dev_read(c, out, g.out, (size_t)pos[n] * sizeof(uint32_t)) : GCLQ_ERROR_OUT_OF_MEMORY;
    } else {
      st = gclq__sets_write(d, g, s, d_warp.as<uint32_t>(), path, search, n, pos, &out, fits);
    }
  }
  d->stats->kernel_ms += gclq__ms_since(t0);
  if (st == GCLQ_SUCCESS) st = gclq__sets_take(k, pairs, counts, n, pos, out);
  GCLQ_FREE(pos);
  GCLQ_FREE(out);
  if (st != GCLQ_SUCCESS) return st;
  d->stats->warp_pairs += s.nw;
  d->stats->block_pairs += (uint64_t)s.npath + s.nsearch;
  d->stats->binary_search_pairs += s.searched;
  d->stats->batches++;
  d->stats->one_pass_batches += one;
  return GCLQ_SUCCESS;
}

/* A batch of pairs on the device: whole when it fits the budget, else in
   halves, recursively (the answers are the same). */
static inline gclq_status gclq__cuda_sets_run(gclq__sets_dev *d, gclq__sets_sink *k, const uint32_t *pairs, uint64_t n,
                                              uint32_t *counts) {
  int fits = 1;
  gclq_status st = gclq__sets_part(d, k, pairs, (uint32_t)n, counts, &fits);
  if (fits || n < 2) return st;
  if (d->c.log) {
    char line[120];
    snprintf(line, sizeof line, "sets: %llu pairs do not fit the budget: halves", (unsigned long long)n);
    d->c.log(d->c.log_user, line);
  }
  const uint64_t h = n / 2;
  GCLQ__TRY(gclq__cuda_sets_run(d, k, pairs, h, counts));
  return gclq__cuda_sets_run(d, k, pairs + 2 * h, n - h, counts + h);
}

/* Start a call: the device context, the collection on the device. */
static inline gclq_status gclq__cuda_sets_open(gclq__sets_dev *d, const gclq_sets *s, const gclq_intersect_options *o,
                                               gclq_intersect_stats *stats) {
  gclq__clock::time_point t0 = gclq__clock::now();
  memset(d, 0, sizeof *d);
  gclq__dev_init(&d->c, o->stream, &o->allocator, o->device_budget_bytes);
  d->c.log = o->log;
  d->c.log_user = o->log_user;
  d->c.phase = "set intersection";
  d->stats = stats;
  d->sets = s;
  d->method = o->method;
  d->materialise = o->materialise;
  if (d->c.budget == 0) GCLQ__TRY(gclq__default_budget(&d->c.budget));
  stats->budget_bytes = d->c.budget;
  GCLQ__TRY(gclq__dev_alloc(&d->c, &d->d_off, &d->off_held, ((size_t)s->num_sets + 1) * sizeof(uint64_t)));
  GCLQ__TRY(gclq__dev_alloc(&d->c, &d->d_elem, &d->elem_held, (size_t)s->total * sizeof(uint32_t)));
  if (s->h_offsets != NULL)
    GCLQ__CUDA_TRY(cudaMemcpyAsync(d->d_off, s->h_offsets, ((size_t)s->num_sets + 1) * sizeof(uint64_t),
                                   cudaMemcpyHostToDevice, d->c.stream));
  if (s->total > 0)
    GCLQ__CUDA_TRY(cudaMemcpyAsync(d->d_elem, s->h_elements, (size_t)s->total * sizeof(uint32_t),
                                   cudaMemcpyHostToDevice, d->c.stream));
  GCLQ__CUDA_TRY(cudaStreamSynchronize(d->c.stream));
  stats->upload_ms = gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* End a call: the collection freed, the stream drained, the peak kept. */
static inline void gclq__cuda_sets_close(gclq__sets_dev *d, gclq_status *st) {
  gclq__device_free(&d->c.allocator, d->d_off, (gclq_stream)d->c.stream);
  gclq__device_free(&d->c.allocator, d->d_elem, (gclq_stream)d->c.stream);
  if (cudaStreamSynchronize(d->c.stream) != cudaSuccess && *st == GCLQ_SUCCESS) *st = GCLQ_ERROR_CUDA;
  cudaGetLastError();
  d->stats->peak_device_bytes = d->c.peak;
}

/* gclq_intersect_pairs_device: the tile tables built on the device (the
   tiles kernel, one scan of the three), then the count kernels over every
   pair; the tile kernels' blocks loop, so no count comes back to the host.
   AUTO's pairs run BITMAP_DYNAMIC where dense and large
   (gclq__sets_bitmap_dense), else IP_OBS: a warp each for the small ones
   (the per-pair rule's warps, gclq__sets_rule_warps), then both kinds of
   tiles in one kernel (gclq__sets_auto_tiles_kernel), so that AUTO
   launches as many kernels as IP_OBS. Temp: the tables (n + 1 entries of 4
   words), then the scan's storage. */
static inline gclq_status gclq__cuda_pairs_device(const gclq_sets_device *s, const uint32_t *d_pairs, uint32_t n,
                                                  uint32_t *d_counts, gclq_intersect_method method, void *d_temp,
                                                  size_t *temp_bytes, cudaStream_t stream) {
  const size_t table = ((size_t)(n + 1) * sizeof(gclq__sets_dev_tiles) + 255) / 256 * 256;
  size_t scan_bytes = 0;
  GCLQ__CUDA_TRY(gprim_scan_exclusive((void *)NULL, &scan_bytes, (const gclq__sets_dev_tiles *)NULL,
                                      (gclq__sets_dev_tiles *)NULL, (size_t)n + 1, gclq__sets_dev_tiles_sum(),
                                      gclq__sets_dev_tiles_sum::identity<gclq__sets_dev_tiles>(), stream));
  if (d_temp == NULL) {
    *temp_bytes = table + scan_bytes;
    return GCLQ_SUCCESS;
  }
  if (*temp_bytes < table + scan_bytes) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (n == 0) return GCLQ_SUCCESS;
  gclq__sets_dev_tiles *tiles = (gclq__sets_dev_tiles *)d_temp;
  void *scan_temp = (char *)d_temp + table;
  gclq__sets_args g = {s->d_offsets, s->d_elements, d_pairs, d_counts, NULL, NULL};
  GCLQ__CUDA_TRY(cudaMemsetAsync(d_counts, 0, (size_t)n * sizeof(uint32_t), stream));
  gclq__sets_tiles_kernel<<<gclq__grid((uint64_t)n + 1), GCLQ__BLOCK, 0, stream>>>(g, n, method, tiles);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__CUDA_TRY(gprim_scan_exclusive(scan_temp, &scan_bytes, tiles, tiles, (size_t)n + 1, gclq__sets_dev_tiles_sum(),
                                      gclq__sets_dev_tiles_sum::identity<gclq__sets_dev_tiles>(), stream));
  const unsigned grid = gclq__sets_resident_blocks(); /* the tile kernels' blocks, resident at once; they loop */
  gclq__sets_tiles T[3]; /* merge path's, binary search's, the bitmap's: word k of the entries */
  for (int k = 0; k < 3; ++k) {
    memset(&T[k], 0, sizeof T[k]);
    T[k].first = tiles->w + k;
    T[k].nq = n;
    T[k].first_shift = 2;
  }
  if (gclq__sets_methods_has(method))
    return gclq__sets_methods_launch<false>(method, g, NULL, n, T[0], grid, T[1], grid, stream);
  if (method == GCLQ_INTERSECT_AUTO) {
    if (gclq__sets_rule_warps(1)) {
      gclq__sets_warp_kernel<false><<<gclq__grid((uint64_t)n * 32), GCLQ__BLOCK, 0, stream>>>(g, NULL, n, method);
      GCLQ__CUDA_TRY(cudaGetLastError());
    } else {
      GCLQ__TRY(gclq__sets_methods_launch<false>(GCLQ_INTERSECT_IP_OBS, g, NULL, n, T[0], 0, T[1], 0, stream));
    }
    gclq__sets_auto_tiles_kernel<<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T[0], T[2]);
    GCLQ__CUDA_TRY(cudaGetLastError());
    return GCLQ_SUCCESS;
  }
  gclq__sets_warp_kernel<false><<<gclq__grid((uint64_t)n * 32), GCLQ__BLOCK, 0, stream>>>(g, NULL, n, method);
  GCLQ__CUDA_TRY(cudaGetLastError());
  gclq__sets_path_kernel<false><<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T[0]);
  GCLQ__CUDA_TRY(cudaGetLastError());
  gclq__sets_search_kernel<false><<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T[1]);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* gclq_sets_upload: the collection through the allocator, no budget. */
static inline gclq_status gclq__cuda_sets_upload(const gclq_sets *s, const gclq_device_allocator *a,
                                                 gclq_sets_device *d, gclq_stream stream) {
  void *off = NULL, *elem = NULL;
  gclq_status st = gclq__device_alloc(a, &off, ((size_t)s->num_sets + 1) * sizeof(uint64_t), stream);
  if (st == GCLQ_SUCCESS) st = gclq__device_alloc(a, &elem, (size_t)s->total * sizeof(uint32_t), stream);
  if (st == GCLQ_SUCCESS && s->h_offsets != NULL &&
      cudaMemcpyAsync(off, s->h_offsets, ((size_t)s->num_sets + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice,
                      (cudaStream_t)stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st == GCLQ_SUCCESS && s->total > 0 &&
      cudaMemcpyAsync(elem, s->h_elements, (size_t)s->total * sizeof(uint32_t), cudaMemcpyHostToDevice,
                      (cudaStream_t)stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st != GCLQ_SUCCESS) {
    cudaGetLastError();
    gclq__device_free(a, off, stream);
    gclq__device_free(a, elem, stream);
    return st;
  }
  d->num_sets = s->num_sets;
  d->universe = s->universe;
  d->total = s->total;
  d->d_offsets = (uint64_t *)off;
  d->d_elements = (uint32_t *)elem;
  return GCLQ_SUCCESS;
}

/* ---------------------------------------------------------------------------
   All pairs at once (clique/sets/all_pairs.cuh has the methods and their
   kernels): the inverted index, the bit matrix, the row tiles into the sink.
   ------------------------------------------------------------------------- */

/* ---- the inverted index ---- */
/* The index of one call: sv = the set ids sorted by (value, set); value
   r's list (r counts the distinct values in order) is len[r] sets from
   sv[start[r]], ascending; longs = the lists longer than
   GCLQ__SETS_II_SHORT; the long lists' tile tables (first, lo, hi) and
   their scan's storage, allocated once; increments = the sum of
   len (len - 1) / 2. */
struct gclq__sets_index {
  gclq__dmem sv, start, len, longs, first, lo, hi, scan_temp;
  size_t scan_bytes;
  uint32_t runs, num_long;
  uint64_t increments;
  explicit gclq__sets_index(gclq__dev *c)
      : sv(c), start(c), len(c), longs(c), first(c), lo(c), hi(c), scan_temp(c), scan_bytes(0), runs(0), num_long(0),
        increments(0) {}
};

/* Bits of a key for values below u (0 for u <= 1). */
static inline int gclq__sets_key_bits(uint64_t u) {
  int bits = 0;
  while (bits < 32 && ((uint64_t)1 << bits) < u) ++bits;
  return bits;
}

/* The index (counting sort): (value, set) pairs sorted by value (a radix
   sort, stable, so each list is ascending), the lists by a run-length
   encoding of the sorted values, their starts by a scan; the long lists
   picked out. */
static inline gclq_status gclq__sets_ii_build(gclq__sets_dev *d, gclq__sets_index *ix) {
  gclq__dev *c = &d->c;
  cudaStream_t stream = c->stream;
  const uint64_t n = d->sets->total;
  const uint32_t k = d->sets->num_sets;
  if (n > GPRIM__RADIX_MAX_N) return GCLQ_ERROR_TOO_LARGE;
  if (n == 0) return GCLQ_SUCCESS;
  gclq__dmem keys(c), uniq(c), num(c), counters(c);
  GCLQ__TRY(keys.get((size_t)n * 4));
  GCLQ__TRY(ix->sv.get((size_t)n * 4));
  uint32_t *kd = keys.as<uint32_t>(), *sv = ix->sv.as<uint32_t>();
  GCLQ__CUDA_TRY(cudaMemcpyAsync(kd, d->d_elem, (size_t)n * 4, cudaMemcpyDeviceToDevice, stream));
  gclq__sets_owner_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>((const uint64_t *)d->d_off, k, n, sv);
  GCLQ__CUDA_TRY(cudaGetLastError());
  const int bits = gclq__sets_key_bits(d->sets->universe);
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_radix_sort_pairs(t, tb, (const uint32_t *)kd, kd, (const uint32_t *)sv, sv, (size_t)n, 0, bits, false,
                                  stream);
  }));
  GCLQ__TRY(uniq.get((size_t)n * 4));
  GCLQ__TRY(ix->len.get((size_t)n * 4));
  GCLQ__TRY(num.get(sizeof(size_t)));
  uint32_t *len = ix->len.as<uint32_t>(), *un = uniq.as<uint32_t>();
  size_t *d_num = num.as<size_t>(), runs = 0;
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_run_length_encode(t, tb, (const uint32_t *)kd, un, len, d_num, (size_t)n, stream);
  }));
  GCLQ__TRY(gclq__dev_read(c, &runs, d_num, sizeof runs));
  keys.release();
  uniq.release();
  ix->runs = (uint32_t)runs;
  GCLQ__TRY(ix->start.get((size_t)runs * 4));
  uint32_t *st = ix->start.as<uint32_t>();
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint32_t *)len, st, runs, gprim_op_sum(), 0u, stream);
  }));
  const uint64_t long_cap = n / (GCLQ__SETS_II_SHORT + 1) < runs ? n / (GCLQ__SETS_II_SHORT + 1) : runs;
  GCLQ__TRY(ix->longs.get((size_t)(long_cap + 1) * 4));
  GCLQ__TRY(counters.get(2 * sizeof(uint64_t)));
  GCLQ__CUDA_TRY(cudaMemsetAsync(counters.p, 0, 2 * sizeof(uint64_t), stream));
  unsigned long long *incr = counters.as<unsigned long long>();
  uint32_t *nl = (uint32_t *)(incr + 1);
  gclq__sets_ii_classify_kernel<<<gclq__grid(runs), GCLQ__BLOCK, 0, stream>>>(len, (uint32_t)runs,
                                                                             ix->longs.as<uint32_t>(), nl, incr);
  GCLQ__CUDA_TRY(cudaGetLastError());
  uint64_t h[2];
  GCLQ__TRY(gclq__dev_read(c, h, counters.p, sizeof h));
  ix->increments = h[0];
  ix->num_long = (uint32_t)h[1];
  if (ix->num_long == 0) return GCLQ_SUCCESS;
  const uint64_t q = ix->num_long;
  GCLQ__TRY(ix->first.get((size_t)(q + 1) * 8));
  GCLQ__TRY(ix->lo.get((size_t)q * 8));
  GCLQ__TRY(ix->hi.get((size_t)q * 8));
  GCLQ__CUDA_TRY(gprim_scan_exclusive((void *)NULL, &ix->scan_bytes, (const uint64_t *)NULL, (uint64_t *)NULL,
                                      (size_t)q + 1, gprim_op_sum(), (uint64_t)0, stream));
  return ix->scan_temp.get(ix->scan_bytes);
}

/* The counts of one row tile by the index (t.counts zeroed here). */
static inline gclq_status gclq__sets_ii_tile(gclq__sets_dev *d, gclq__sets_index *ix, const gclq__sets_tri &t) {
  cudaStream_t stream = d->c.stream;
  const uint64_t pairs = gclq__sets_row_start(t.k, t.r1) - t.base;
  GCLQ__CUDA_TRY(cudaMemsetAsync(t.counts, 0, (size_t)pairs * 4, stream));
  if (ix->runs == 0) return GCLQ_SUCCESS;
  const uint32_t *sv = ix->sv.as<uint32_t>(), *st = ix->start.as<uint32_t>(), *len = ix->len.as<uint32_t>();
  gclq__sets_ii_short_kernel<<<gclq__grid(ix->runs), GCLQ__BLOCK, 0, stream>>>(sv, st, len, ix->runs, t);
  GCLQ__CUDA_TRY(cudaGetLastError());
  if (ix->num_long == 0) return GCLQ_SUCCESS;
  const uint32_t nl = ix->num_long, *longs = ix->longs.as<uint32_t>();
  uint64_t *first = ix->first.as<uint64_t>(), *lo = ix->lo.as<uint64_t>(), *hi = ix->hi.as<uint64_t>();
  gclq__sets_ii_long_tiles_kernel<<<gclq__grid((uint64_t)nl + 1), GCLQ__BLOCK, 0, stream>>>(sv, st, len, longs, nl, t,
                                                                                            first, lo, hi);
  GCLQ__CUDA_TRY(cudaGetLastError());
  size_t bytes = ix->scan_bytes;
  GCLQ__CUDA_TRY(gprim_scan_exclusive(ix->scan_temp.p, &bytes, (const uint64_t *)first, first, (size_t)nl + 1,
                                      gprim_op_sum(), (uint64_t)0, stream));
  int device = 0, sms = 0;
  GCLQ__CUDA_TRY(cudaGetDevice(&device));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  gclq__sets_ii_long_kernel<<<(unsigned)sms * 8, GCLQ__SETS_NT, 0, stream>>>(sv, st, len, longs, nl, first, lo, hi, t);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* ---- the bit matrix ---- */

/* The bit matrix of one call: which values are in two or more sets (seen2)
   and their columns (colbase, one entry a word of the universe and the
   total, cols); rows of words (a multiple of GCLQ__SETS_BM_KW) words each,
   held chunk words at a time (bits: rows x chunk words, rows = k padded to
   GCLQ__SETS_BM_B); built = the chunk bits holds (UINT64_MAX: none). */
struct gclq__sets_matrix {
  gclq__dmem seen2, colbase, bits;
  uint64_t cols, rows, built;
  uint32_t words, chunk;
  int counted; /* the columns are counted (gclq__sets_bm_columns) */
  explicit gclq__sets_matrix(gclq__dev *c)
      : seen2(c), colbase(c), bits(c), cols(0), rows(0), built(UINT64_MAX), words(0), chunk(0), counted(0) {}
};

/* The compacted universe (one pass over the elements, then a scan of the
   words' popcounts) and the row length. */
static inline gclq_status gclq__sets_bm_columns(gclq__sets_dev *d, gclq__sets_matrix *mx) {
  gclq__dev *c = &d->c;
  cudaStream_t stream = c->stream;
  const uint64_t u = d->sets->universe < ((uint64_t)1 << 32) ? d->sets->universe : ((uint64_t)1 << 32); /* u32 values */
  const uint64_t words = (u + 31) / 32, n = d->sets->total;
  gclq__dmem seen1(c);
  GCLQ__TRY(seen1.get((size_t)words * 4));
  GCLQ__TRY(mx->seen2.get((size_t)words * 4));
  GCLQ__TRY(mx->colbase.get((size_t)(words + 1) * 8));
  uint32_t *s1 = seen1.as<uint32_t>(), *s2 = mx->seen2.as<uint32_t>();
  uint64_t *cb = mx->colbase.as<uint64_t>();
  GCLQ__CUDA_TRY(cudaMemsetAsync(s1, 0, (size_t)words * 4, stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(s2, 0, (size_t)words * 4, stream));
  if (n > 0) {
    gclq__sets_bm_mark_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>((const uint32_t *)d->d_elem, n, s1, s2);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  seen1.release();
  gclq__sets_bm_popc_words_kernel<<<gclq__grid(words + 1), GCLQ__BLOCK, 0, stream>>>(s2, words, cb);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__dev_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)cb, cb, (size_t)words + 1, gprim_op_sum(), (uint64_t)0,
                                stream);
  }));
  GCLQ__TRY(gclq__dev_read(c, &mx->cols, cb + words, sizeof mx->cols));
  const uint64_t w = (mx->cols + 31) / 32;
  mx->words = (uint32_t)((w + GCLQ__SETS_BM_KW - 1) / GCLQ__SETS_BM_KW * GCLQ__SETS_BM_KW);
  mx->rows = ((uint64_t)d->sets->num_sets + GCLQ__SETS_BM_B - 1) / GCLQ__SETS_BM_B * GCLQ__SETS_BM_B;
  mx->counted = 1;
  return GCLQ_SUCCESS;
}

/* The matrix's column chunk `chunk` (words [chunk * mx->chunk, ...)) into bits. */
static inline gclq_status gclq__sets_bm_fill(gclq__sets_dev *d, gclq__sets_matrix *mx, uint64_t chunk) {
  cudaStream_t stream = d->c.stream;
  const uint64_t n = d->sets->total;
  if (mx->built == chunk) return GCLQ_SUCCESS;
  GCLQ__CUDA_TRY(cudaMemsetAsync(mx->bits.p, 0, (size_t)(mx->rows * mx->chunk * 4), stream));
  if (n > 0) {
    gclq__sets_bm_fill_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(
        (const uint64_t *)d->d_off, d->sets->num_sets, (const uint32_t *)d->d_elem, n, mx->seen2.as<uint32_t>(),
        mx->colbase.as<uint64_t>(), chunk * mx->chunk, mx->chunk, mx->bits.as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  mx->built = chunk;
  return GCLQ_SUCCESS;
}

/* The counts of one row tile by the bit matrix, chunk by chunk of columns
   (t.counts zeroed here); tensor: the mma kernel, else the popcount one. */
static inline gclq_status gclq__sets_bm_tile(gclq__sets_dev *d, gclq__sets_matrix *mx, const gclq__sets_tri &t,
                                             int tensor) {
  cudaStream_t stream = d->c.stream;
  const uint64_t pairs = gclq__sets_row_start(t.k, t.r1) - t.base;
  GCLQ__CUDA_TRY(cudaMemsetAsync(t.counts, 0, (size_t)pairs * 4, stream));
  if (mx->words == 0) return GCLQ_SUCCESS;
  const uint64_t chunks = (mx->words + mx->chunk - 1) / mx->chunk;
  gclq__sets_bm_args g;
  g.blk0 = t.r0 / GCLQ__SETS_BM_B;
  g.t = t;
  const dim3 grid((unsigned)((t.k + GCLQ__SETS_BM_B - 1) / GCLQ__SETS_BM_B - g.blk0),
                  (unsigned)((t.r1 - 1) / GCLQ__SETS_BM_B - g.blk0 + 1));
  for (uint64_t ch = 0; ch < chunks; ++ch) {
    GCLQ__TRY(gclq__sets_bm_fill(d, mx, ch));
    g.bits = mx->bits.as<uint32_t>();
    g.cw = mx->chunk; /* the last chunk's words past the matrix are zero */
    if (tensor) gclq__sets_bm_mma_kernel<<<grid, 128, 0, stream>>>(g);
    else gclq__sets_bm_popc_kernel<<<grid, 256, 0, stream>>>(g);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  return GCLQ_SUCCESS;
}

/* How many words of each row the matrix holds at once: all of them when the
   matrix and every count fit the budget together; else at most half of what
   the budget leaves (less when one row of counts, k - 1 of them, would not
   fit beside it), in chunks of GCLQ__SETS_BM_KW words, evened out. Then the
   chunk's storage. */
static inline gclq_status gclq__sets_bm_alloc(gclq__sets_dev *d, gclq__sets_matrix *mx) {
  gclq__dev *c = &d->c;
  if (mx->words == 0) return GCLQ_SUCCESS;
  const uint64_t k = d->sets->num_sets, column = mx->rows * 4, whole = column * mx->words;
  const uint64_t counts = gclq__sets_row_start(k, k - 1) * 4, one_row = (k - 1) * 4 + 1024;
  const uint64_t avail = c->budget > c->used + 1024 ? c->budget - c->used - 1024 : 0;
  uint64_t room = avail / 2 > one_row ? avail / 2 : (avail > one_row ? avail - one_row : 0);
  if (whole + counts <= avail) room = whole;
  uint64_t chunk = room / column / GCLQ__SETS_BM_KW * GCLQ__SETS_BM_KW;
  if (chunk == 0) {
    gclq__dev_log(c, "out of memory (set intersection): not one chunk of the bit matrix fits the budget");
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (chunk > mx->words) chunk = mx->words;
  const uint64_t chunks = (mx->words + chunk - 1) / chunk;
  chunk = ((mx->words + chunks - 1) / chunks + GCLQ__SETS_BM_KW - 1) / GCLQ__SETS_BM_KW * GCLQ__SETS_BM_KW;
  mx->chunk = (uint32_t)chunk;
  return mx->bits.get((size_t)(mx->rows * chunk * 4));
}

/* ---- the run: row tiles into the sink ---- */

#define GCLQ__SETS_ALL_FEED ((uint64_t)1 << 22) /* pairs handed to the sink at once */

/* n counts of a tile into the sink, with their pairs (row order on from
   (*i, *j); pairs: room for 2 GCLQ__SETS_ALL_FEED). */
static inline gclq_status gclq__sets_all_feed(gclq__sets_sink *k, uint32_t ns, const uint32_t *counts, uint64_t n,
                                              uint32_t *i, uint32_t *j, uint32_t *pairs) {
  for (uint64_t at = 0; at < n;) {
    const uint64_t b = n - at < GCLQ__SETS_ALL_FEED ? n - at : GCLQ__SETS_ALL_FEED;
    gclq__sets_next_pairs(ns, i, j, pairs, b);
    GCLQ__TRY(gclq__sets_take(k, pairs, counts + at, b, NULL, NULL));
    at += b;
  }
  return GCLQ_SUCCESS;
}

/* The structure a method counts from, built on the device (the caller's:
   AUTO may have counted the bit matrix's columns into mx already). */
struct gclq__sets_all_state {
  gclq_intersect_method method;
  int tensor;
  gclq__sets_index ix;
  gclq__sets_matrix mx;
  explicit gclq__sets_all_state(gclq__dev *c) : method(GCLQ_INTERSECT_INVERTED_INDEX), tensor(0), ix(c), mx(c) {}
};

/* Build the index (the columns AUTO counted freed first), or the matrix's
   columns (unless counted) and chunk storage. */
static inline gclq_status gclq__sets_all_build(gclq__sets_dev *d, gclq__sets_all_state *s) {
  if (s->method == GCLQ_INTERSECT_INVERTED_INDEX) {
    s->mx.seen2.release();
    s->mx.colbase.release();
    return gclq__sets_ii_build(d, &s->ix);
  }
  if (!s->mx.counted) GCLQ__TRY(gclq__sets_bm_columns(d, &s->mx));
  return gclq__sets_bm_alloc(d, &s->mx);
}

/* The counts of one row tile by the state's method. */
static inline gclq_status gclq__sets_all_tile(gclq__sets_dev *d, gclq__sets_all_state *s, const gclq__sets_tri &t) {
  if (s->method == GCLQ_INTERSECT_INVERTED_INDEX) return gclq__sets_ii_tile(d, &s->ix, t);
  return gclq__sets_bm_tile(d, &s->mx, t, s->tensor);
}

/* What ran, for the stats' notes. */
static inline void gclq__sets_all_notes(const gclq__sets_all_state *s, uint32_t tiles, char *notes, size_t size) {
  if (s->method == GCLQ_INTERSECT_INVERTED_INDEX)
    snprintf(notes, size, "inverted index: %u lists (%u long), %llu pair increments, %u row tiles", s->ix.runs,
             s->ix.num_long, (unsigned long long)s->ix.increments, tiles);
  else
    snprintf(notes, size, "bit matrix (%s): %llu columns, %u words a row, %u at once, %u row tiles",
             s->tensor ? "tensor cores" : "popcount", (unsigned long long)s->mx.cols, s->mx.words, s->mx.chunk, tiles);
}

/* All pairs i < j of the collection by INVERTED_INDEX or BIT_MATRIX (tensor:
   the mma kernel), into the sink: the structure first (in s, the caller's:
   columns AUTO counted are used, not counted again), then row tiles as
   large as the budget leaves room for, each counted on the device, read
   back and handed over in row order. *fed: whether any count reached the
   sink (a failure before that leaves the call as it was). */
static inline gclq_status gclq__cuda_sets_all(gclq__sets_dev *d, gclq__sets_sink *k, gclq_intersect_method method,
                                              int tensor, gclq__sets_all_state &s, int *fed) {
  gclq__dev *c = &d->c;
  const uint32_t ns = d->sets->num_sets;
  gclq__clock::time_point t0 = gclq__clock::now();
  *fed = 0;
  d->stats->method = method;
  if (ns < 2) return GCLQ_SUCCESS;
  s.method = method;
  s.tensor = tensor;
  GCLQ__TRY(gclq__sets_all_build(d, &s));
  const uint64_t pairs = gclq__sets_row_start(ns, ns - 1);
  const uint64_t room = c->budget > c->used + 512 ? (c->budget - c->used - 512) / 4 : 0;
  const uint64_t cap = room < pairs ? room : pairs;
  if (cap < (uint64_t)ns - 1) { /* row 0, the longest, does not fit */
    gclq__dev_log(c, "out of memory (set intersection): not one row of counts fits the budget");
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  const uint64_t max_rows = method == GCLQ_INTERSECT_BIT_MATRIX ? GCLQ__SETS_BM_MAX_ROWS : ns;
  gclq__dmem d_counts(c);
  GCLQ__TRY(d_counts.get((size_t)cap * 4));
  uint32_t *h_counts = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  uint32_t *h_pairs = (uint32_t *)gclq__alloc_array(2 * GCLQ__SETS_ALL_FEED, sizeof(uint32_t));
  gclq_status st = h_counts && h_pairs ? GCLQ_SUCCESS : GCLQ_ERROR_OUT_OF_MEMORY;
  uint32_t tiles = 0, fi = 0, fj = 1;
  for (uint64_t r0 = 0; st == GCLQ_SUCCESS && r0 + 1 < ns;) {
    gclq__sets_tri t;
    t.k = ns;
    t.r0 = r0;
    t.r1 = gclq__sets_row_tile_end(ns, r0, cap, max_rows);
    t.base = gclq__sets_row_start(ns, r0);
    t.counts = d_counts.as<uint32_t>();
    const uint64_t n = gclq__sets_row_start(ns, t.r1) - t.base;
    if (d->c.log && (r0 > 0 || t.r1 + 1 < ns)) {
      char line[120];
      snprintf(line, sizeof line, "sets: %s, rows %llu to %llu of %u", gclq_intersect_method_name(method),
               (unsigned long long)r0, (unsigned long long)t.r1, ns);
      d->c.log(d->c.log_user, line);
    }
    st = gclq__sets_all_tile(d, &s, t);
    if (st == GCLQ_SUCCESS) st = gclq__dev_read(c, h_counts, t.counts, (size_t)n * 4);
    if (st == GCLQ_SUCCESS) {
      *fed = 1; /* set before the feed: one that fails partway has fed some */
      st = gclq__sets_all_feed(k, ns, h_counts, n, &fi, &fj, h_pairs);
    }
    ++tiles;
    r0 = t.r1;
  }
  GCLQ_FREE(h_counts);
  GCLQ_FREE(h_pairs);
  d->stats->batches += tiles;
  d->stats->kernel_ms += gclq__ms_since(t0);
  gclq__sets_all_notes(&s, tiles, d->stats->notes, sizeof d->stats->notes);
  return st;
}
