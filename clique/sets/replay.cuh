/* clique/sets/replay.cuh - the set kernels' tiles replayed on the host, for
   the tests (compiled with GPUCLIQUE_TESTING only).

   gclq__sets_replay runs one pair through a method's CUDA work on the host,
   one block, thread and lane at a time, in the kernels' order: the same
   classification (gclq__sets_work, gclq__sets_work_pair), the same tile
   ends and cuts, the same thread pieces and shared-memory tables (their
   atomics run as plain operations on the host: clique/sets/methods.cuh).
   The kernels add only the loads, barriers and sums, so a test that checks
   the replay's count and output against a reference checks every
   partition of every method, with or without a GPU; the CUDA tests then
   check the kernels against HOST on the same shapes.

   gclq__sets_replay_all does the same for all pairs at once: the
   inverted index's lists and tiles of pairs and the bit matrix's
   compacted columns, in the row tiles and column chunks the CUDA run
   cuts, with the index math of clique/sets/all_pairs.cuh.

   The shared words a tile uses are poisoned before it runs, so a table
   that reads a word it did not clear or write gives a wrong answer, and a
   table that would need more words than the kernel has fails the call. */

#ifdef GPUCLIQUE_TESTING

/* Shared words the replay holds: the largest table, a path tile with its
   guard, or a chunk's cached keys. */
#define GCLQ__SETS_REPLAY_WORDS ((uint32_t)gclq__sets_hash::BLOCK_WORDS)

static void gclq__sets_replay_poison(uint32_t *mem, uint32_t words) {
  for (uint32_t k = 0; k < words; ++k) mem[k] = 0xA5A5A5A5u;
}

/* gclq__sets_path_kernel: each tile of merge steps cut on its two
   diagonals, its slices and guard copied to "shared memory", then each
   thread's piece, counted first (the block's exclusive sum places them),
   then written. */
static uint32_t gclq__sets_replay_path(const gclq__sets_pair &pr, uint32_t *mem, uint32_t *out) {
  const uint64_t tiles = ((uint64_t)pr.na + pr.nb + GCLQ__SETS_TILE - 1) / GCLQ__SETS_TILE;
  uint32_t total = 0;
  for (uint64_t t = 0; t < tiles; ++t) {
    const uint32_t x0 = gclq__sets_tile_split(pr, t, 0), x1 = gclq__sets_tile_split(pr, t, 1);
    const gclq__sets_cut c = gclq__sets_tile_cut(pr, t, x0, x1);
    const uint32_t la = c.x1 - c.x0, lb = c.y1 - c.y0;
    if (la + lb + c.guard > GCLQ__SETS_TILE + 1) return UINT32_MAX;
    gclq__sets_replay_poison(mem, GCLQ__SETS_TILE + 1);
    for (uint32_t i = 0; i < la + lb + c.guard; ++i) mem[i] = i < la ? pr.a[c.x0 + i] : pr.b[c.y0 + i - la];
    for (uint32_t th = 0; th < GCLQ__SETS_NT; ++th) {
      const uint32_t mine = gclq__sets_tile_piece<false>(mem, la, lb, c.guard, th, NULL);
      if (out != NULL && gclq__sets_tile_piece<true>(mem, la, lb, c.guard, th, out + total) != mine)
        return UINT32_MAX;
      total += mine;
    }
  }
  return total;
}

/* gclq__sets_search_kernel: each chunk of a, the span of b its values
   cover and that span's cached keys, then each element's search. */
static uint32_t gclq__sets_replay_search(const gclq__sets_pair &pr, uint32_t *mem, uint32_t *out) {
  const uint64_t chunks = ((uint64_t)pr.na + GCLQ__SETS_OBS_CHUNK - 1) / GCLQ__SETS_OBS_CHUNK;
  uint32_t total = 0;
  for (uint64_t t = 0; t < chunks; ++t) {
    const uint32_t lo = gclq__sets_chunk_end(pr, t, 0), hi = gclq__sets_chunk_end(pr, t, 1);
    const gclq__sets_chunk sp = gclq__sets_chunk_at(pr, t, lo, hi);
    gclq__sets_replay_poison(mem, GCLQ__SETS_OBS_CACHE);
    for (uint32_t k = 0; k < sp.keys; ++k) mem[k] = pr.b[gclq__sets_key_at(sp, k)];
    for (uint32_t x = sp.x0; x < sp.x1; ++x) {
      if (!gclq__sets_obs_find(pr, sp, mem, pr.a[x])) continue;
      if (out != NULL) out[total] = pr.a[x];
      ++total;
    }
  }
  return total;
}

/* gclq__sets_warp_kernel: binary search 32 elements of a a round, or each
   lane's own piece of the pair's merge path. */
static uint32_t gclq__sets_replay_warp(gclq_intersect_method m, const gclq__sets_pair &pr, uint32_t *out) {
  uint32_t total = 0;
  if (gclq__sets_searches(m, pr.na, pr.nb)) {
    for (uint32_t x = 0; x < pr.na; ++x) {
      if (!gclq__sets_has(pr.b, pr.nb, pr.a[x])) continue;
      if (out != NULL) out[total] = pr.a[x];
      ++total;
    }
    return total;
  }
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t mine = gclq__sets_lane_piece<false>(pr, lane, NULL);
    if (out != NULL && gclq__sets_lane_piece<true>(pr, lane, out + total) != mine) return UINT32_MAX;
    total += mine;
  }
  return total;
}

/* One table tile from its four ends (gclq__d_table_tile, or a warp's
   gclq__d_warp_table): the table made over `words` poisoned words, its
   cleared words zeroed, the build side inserted, the probe side walked in
   order. */
template <typename Table>
static uint32_t gclq__sets_replay_tile(const gclq__sets_pair &pr, const uint32_t *e, bool block, uint32_t *mem,
                                       uint32_t words, uint32_t *out) {
  const gclq__sets_slices c = gclq__sets_slices_at(e);
  gclq__sets_replay_poison(mem, words);
  const Table t = Table::make(mem, block, pr, c);
  const gclq__sets_run build = gclq__sets_side(pr, c, Table::FROM_B), probe = gclq__sets_side(pr, c, !Table::FROM_B);
  if (t.clear_words() > words || (Table::FROM_B && build.n > words)) return UINT32_MAX;
  for (uint32_t k = 0; k < t.clear_words(); ++k) t.clear()[k] = 0;
  for (uint32_t i = 0; i < build.n; ++i) t.insert(build.v[i], i);
  uint32_t n = 0;
  for (uint32_t i = 0; i < probe.n; ++i) {
    if (!t(probe.v[i])) continue;
    if (out != NULL) out[n] = probe.v[i];
    ++n;
  }
  return n;
}

/* A table method's pair: a warp's one tile (the warp's words), or every
   block tile (the block's). */
template <typename Table>
static uint32_t gclq__sets_replay_table(gclq_intersect_method m, const gclq__sets_pair &pr, uint32_t *mem,
                                        uint32_t *out) {
  uint32_t e[4], total = 0;
  if (gclq__sets_warp_runs(m, pr)) {
    for (uint32_t k = 0; k < 4; ++k) e[k] = gclq__sets_warp_end(m, pr, k);
    return gclq__sets_replay_tile<Table>(pr, e, false, mem, GCLQ__SETS_WARP_WORDS, out);
  }
  uint64_t path_tiles, search_tiles;
  gclq__sets_work_pair(m, pr, &path_tiles, &search_tiles);
  for (uint64_t t = 0; t < path_tiles + search_tiles; ++t) {
    for (uint32_t k = 0; k < 4; ++k) e[k] = gclq__sets_slice_end(m, pr, t, k);
    const uint32_t n = gclq__sets_replay_tile<Table>(pr, e, true, mem, Table::BLOCK_WORDS, out ? out + total : NULL);
    if (n == UINT32_MAX) return n;
    total += n;
  }
  return total;
}

/* One pass of a pair (na <= nb) by method m: what runs it (nothing, a
   warp, or tiles of one kernel) and that kernel's replay. */
static uint32_t gclq__sets_replay_pass(gclq_intersect_method m, const gclq__sets_pair &pr, uint32_t *mem,
                                       uint32_t *out) {
  if (pr.na == 0) return 0;
  if (m == GCLQ_INTERSECT_IP_OBS) return gclq__sets_replay_table<gclq__sets_sorted>(m, pr, mem, out);
  if (gclq__sets_is_bitmap(m)) return gclq__sets_replay_table<gclq__sets_bits>(m, pr, mem, out);
  if (gclq__sets_methods_has(m)) return gclq__sets_replay_table<gclq__sets_hash>(m, pr, mem, out);
  uint64_t path_tiles, search_tiles;
  gclq__sets_work(m, pr.na, pr.nb, &path_tiles, &search_tiles);
  if (path_tiles) return gclq__sets_replay_path(pr, mem, out);
  if (search_tiles) return gclq__sets_replay_search(pr, mem, out);
  return gclq__sets_replay_warp(m, pr, out);
}

/* The pair (a, b) (sorted sets, either larger) by method m (AUTO,
   MERGE_PATH, BINARY_SEARCH or a table method) as the CUDA batch runs it:
   the count pass, then, out given, the write pass. Returns the count, or
   UINT32_MAX when the passes disagree, a table would need more shared
   words than its kernel has, or the method is not a batch method. */
static uint32_t gclq__sets_replay(gclq_intersect_method m, const uint32_t *a, uint32_t na, const uint32_t *b,
                                  uint32_t nb, uint32_t *out) {
  if (m != GCLQ_INTERSECT_AUTO && m != GCLQ_INTERSECT_MERGE_PATH && m != GCLQ_INTERSECT_BINARY_SEARCH &&
      !gclq__sets_methods_has(m))
    return UINT32_MAX;
  gclq__sets_pair pr = {a, b, na, nb};
  if (na > nb) pr.a = b, pr.na = nb, pr.b = a, pr.nb = na;
  uint32_t *mem = (uint32_t *)GCLQ_MALLOC(sizeof(uint32_t) * GCLQ__SETS_REPLAY_WORDS);
  if (mem == NULL) return UINT32_MAX;
  const uint32_t counted = gclq__sets_replay_pass(m, pr, mem, NULL);
  uint32_t written = counted;
  if (out != NULL && counted != UINT32_MAX) written = gclq__sets_replay_pass(m, pr, mem, out);
  GCLQ_FREE(mem);
  return written == counted ? counted : UINT32_MAX;
}


/* ---- all pairs at once (clique/sets/all_pairs.cuh) ---- */

/* A count slot one more (the kernels' atomicAdd, plain on the host;
   __host__ __device__ as the index pieces that call it are). */
struct gclq__sets_replay_add {
  uint32_t *counts;
  __host__ __device__ void operator()(uint64_t at) const { ++counts[at]; }
};

/* The inverted index's lists: (value, set) sorted, so each value's sets
   come ascending, as the radix sort and run-length encoding give them. */
static int gclq__sets_replay_cmp(const void *x, const void *y) {
  const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* One row tile of INVERTED_INDEX: a short list a "thread" each; a long
   list's pairs of the tile cut into tiles of GCLQ__SETS_II_TILE, each
   tile's owner found as the long kernel finds it, GCLQ__SETS_II_VT pairs a
   thread. vs: the sorted (value, set) keys. */
static gclq_status gclq__sets_replay_ii(const uint64_t *vs, uint64_t total, const gclq__sets_tri &t) {
  uint32_t *list = (uint32_t *)GCLQ_MALLOC(sizeof(uint32_t) * (total ? total : 1));
  uint64_t first[2], lo, hi;
  const gclq__sets_replay_add add = {t.counts};
  gclq_status st = list ? GCLQ_SUCCESS : GCLQ_ERROR_OUT_OF_MEMORY;
  for (uint64_t e = 0; st == GCLQ_SUCCESS && e < total;) {
    uint32_t c = 0;
    const uint64_t v = vs[e] >> 32;
    for (; e < total && vs[e] >> 32 == v; ++e) list[c++] = (uint32_t)vs[e];
    if (c <= GCLQ__SETS_II_SHORT) {
      gclq__sets_ii_short_list(list, c, t, add);
      continue;
    }
    gclq__sets_ii_long_span(list, c, t, &lo, &hi);
    first[0] = 0;
    first[1] = (hi - lo + GCLQ__SETS_II_TILE - 1) / GCLQ__SETS_II_TILE;
    const gclq__sets_tiles T = {NULL, first, 1, NULL, NULL};
    for (uint64_t tile = 0; tile < first[1]; ++tile)
      for (uint32_t th = 0; th < GCLQ__SETS_NT; ++th) {
        const uint32_t q = gclq__sets_tile_owner(T, tile);
        const uint64_t g0 = lo + (tile - first[q]) * GCLQ__SETS_II_TILE + (uint64_t)th * GCLQ__SETS_II_VT;
        const uint64_t g1 = g0 + GCLQ__SETS_II_VT < hi ? g0 + GCLQ__SETS_II_VT : hi;
        if (g0 < g1) gclq__sets_ii_long_piece(list, c, g0, g1, t, add);
      }
  }
  GCLQ_FREE(list);
  return st;
}

/* One row tile of BIT_MATRIX: the columns (values in two or more sets)
   in chunks of cw words, each set's row of bits over a chunk, each count
   of the tile the popcount of two rows' AND. */
static gclq_status gclq__sets_replay_bm(const gclq_sets *s, const uint32_t *seen2, const uint64_t *colbase,
                                        uint64_t columns, uint32_t cw, const gclq__sets_tri &t) {
  const uint32_t k = s->num_sets;
  uint32_t *bits = (uint32_t *)GCLQ_MALLOC(sizeof(uint32_t) * ((uint64_t)k * cw + 1));
  if (bits == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (uint64_t w0 = 0; w0 * 32 < columns; w0 += cw) {
    memset(bits, 0, sizeof(uint32_t) * ((uint64_t)k * cw + 1));
    for (uint64_t e = 0; e < s->total; ++e) {
      const uint64_t col = gclq__sets_column(seen2, colbase, s->h_elements[e]);
      if (col == UINT64_MAX || col / 32 < w0 || col / 32 >= w0 + cw) continue;
      bits[(uint64_t)gclq__sets_owner(s->h_offsets, k, e) * cw + (col / 32 - w0)] |= 1u << (col & 31);
    }
    for (uint64_t i = t.r0; i < t.r1; ++i)
      for (uint64_t j = i + 1; j < k; ++j) {
        uint32_t v = 0;
        for (uint32_t w = 0; w < cw; ++w) v += gclq__host_popcount64(bits[i * cw + w] & bits[j * cw + w]);
        const uint64_t at = gclq__sets_tri_at(t, i, j);
        if (at != UINT64_MAX) t.counts[at] += v;
      }
  }
  GCLQ_FREE(bits);
  return GCLQ_SUCCESS;
}

/* The bit matrix's columns: seen2 (the values in two or more sets, a bit
   each) and colbase (such values below 32 w), as the mark and popcount
   kernels and their scan give them; returns the number of columns. */
static uint64_t gclq__sets_replay_columns(const gclq_sets *s, uint32_t *seen1, uint32_t *seen2, uint64_t *colbase,
                                          uint64_t words) {
  memset(seen1, 0, sizeof(uint32_t) * words);
  memset(seen2, 0, sizeof(uint32_t) * words);
  for (uint64_t e = 0; e < s->total; ++e) {
    const uint32_t v = s->h_elements[e], bit = 1u << (v & 31);
    if (seen1[v >> 5] & bit) seen2[v >> 5] |= bit;
    seen1[v >> 5] |= bit;
  }
  colbase[0] = 0;
  for (uint64_t w = 0; w < words; ++w) colbase[w + 1] = colbase[w] + gclq__host_popcount64(seen2[w]);
  return colbase[words];
}

/* Every pair i < j of s (k >= 2) by INVERTED_INDEX or BIT_MATRIX as the
   CUDA run counts them: in row tiles of at most max_pairs pairs
   (gclq__sets_row_tile_end; at least a row), the bit matrix's columns in
   chunks of cw words. counts: the k (k - 1) / 2 counts, row order, zeroed
   here. */
static gclq_status gclq__sets_replay_all(gclq_intersect_method m, const gclq_sets *s, uint64_t max_pairs, uint32_t cw,
                                         uint32_t *counts) {
  const uint64_t k = s->num_sets, words = (s->universe + 31) / 32 + 1;
  if (k < 2 || cw == 0 || (m != GCLQ_INTERSECT_INVERTED_INDEX && m != GCLQ_INTERSECT_BIT_MATRIX))
    return GCLQ_ERROR_INVALID_ARGUMENT;
  uint64_t *vs = (uint64_t *)GCLQ_MALLOC(sizeof(uint64_t) * (s->total + 1)), *colbase = NULL;
  uint32_t *seen = (uint32_t *)GCLQ_MALLOC(sizeof(uint32_t) * 2 * words);
  colbase = (uint64_t *)GCLQ_MALLOC(sizeof(uint64_t) * (words + 1));
  gclq_status st = vs && seen && colbase ? GCLQ_SUCCESS : GCLQ_ERROR_OUT_OF_MEMORY;
  uint64_t columns = 0;
  if (st == GCLQ_SUCCESS) {
    for (uint32_t i = 0; i < k; ++i)
      for (uint64_t e = s->h_offsets[i]; e < s->h_offsets[i + 1]; ++e) vs[e] = (uint64_t)s->h_elements[e] << 32 | i;
    qsort(vs, s->total, sizeof(uint64_t), gclq__sets_replay_cmp);
    columns = gclq__sets_replay_columns(s, seen, seen + words, colbase, words);
    memset(counts, 0, sizeof(uint32_t) * gclq__sets_row_start(k, k - 1));
  }
  for (uint64_t r0 = 0; st == GCLQ_SUCCESS && r0 < k - 1;) {
    const uint64_t r1 = gclq__sets_row_tile_end(k, r0, max_pairs, k);
    const gclq__sets_tri t = {k, r0, r1, gclq__sets_row_start(k, r0), counts + gclq__sets_row_start(k, r0)};
    st = m == GCLQ_INTERSECT_INVERTED_INDEX ? gclq__sets_replay_ii(vs, s->total, t)
                                            : gclq__sets_replay_bm(s, seen + words, colbase, columns, cw, t);
    r0 = r1;
  }
  GCLQ_FREE(vs);
  GCLQ_FREE(seen);
  GCLQ_FREE(colbase);
  return st;
}

#endif /* GPUCLIQUE_TESTING */
