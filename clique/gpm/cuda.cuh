/* clique/gpm/cuda.cuh - the embedding table on the device (backend CUDA of
   gclq_emb_*): the graph (CSR, label ranks) and every level's columns held
   in device memory under the table's budget, in a device context of its
   own that lives as long as the table. Extension counts each parent's
   children (a thread a parent), scans the counts and writes them. A row's
   raw pattern is one 64-bit key (gclq__emb_key); aggregation sorts the
   keys a chunk of rows at a time, counts each distinct one, and the host
   merges the chunks' distinct keys, makes each canonical
   (clique/gpm/table.h) and adds its count; the support's bitmaps (one per
   orbit of each pattern) are set on the device and ORed into the host's.
   Filters flag the rows on the device and compact the level. Kernels:
   clique/gpm/kernels.cuh. At most 16 distinct labels (a rank of 4 bits in
   the key); more is GCLQ_ERROR_BACKEND_UNAVAILABLE. */

struct gclq__emb_cuda {
  gclq__dev c;
  uint64_t *off;
  uint32_t *nbr;
  uint8_t *rank; /* NULL: unlabelled */
  size_t off_held, nbr_held, rank_held;
  uint64_t *col[GCLQ_EMB_MAX_VERTICES], *par[GCLQ_EMB_MAX_VERTICES];
  size_t col_held[GCLQ_EMB_MAX_VERTICES], par_held[GCLQ_EMB_MAX_VERTICES];
  uint32_t label[16], labels; /* rank -> label, ascending */
};

static inline void gclq__emb_dfree(gclq__dev *c, void *p, size_t held) {
  if (p == NULL) return;
  gclq__device_free(&c->allocator, p, (gclq_stream)c->stream);
  c->used -= held;
}

static inline gclq__emb_dview gclq__emb_view_of(const gclq_emb_table *t) {
  const gclq__emb_cuda *d = (const gclq__emb_cuda *)t->dev;
  gclq__emb_dview v;
  uint32_t l;
  memset(&v, 0, sizeof v);
  v.off = d->off;
  v.nbr = d->nbr;
  v.rank = d->rank;
  v.edge = t->kind == GCLQ_EMB_EDGE;
  v.last = t->levels - 1;
  for (l = 0; l < t->levels; ++l) v.col[l] = d->col[l], v.par[l] = d->par[l];
  return v;
}

static inline void gclq__emb_cuda_free(gclq_emb_table *t) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  uint32_t l;
  if (d == NULL) return;
  for (l = 0; l < GCLQ_EMB_MAX_VERTICES; ++l) {
    gclq__emb_dfree(&d->c, d->col[l], d->col_held[l]);
    gclq__emb_dfree(&d->c, d->par[l], d->par_held[l]);
  }
  gclq__emb_dfree(&d->c, d->off, d->off_held);
  gclq__emb_dfree(&d->c, d->nbr, d->nbr_held);
  gclq__emb_dfree(&d->c, d->rank, d->rank_held);
  cudaStreamSynchronize(d->c.stream);
  cudaGetLastError();
  GCLQ_FREE(d);
  t->dev = NULL;
}

/* Host bytes to a fresh device block. */
static inline gclq_status gclq__emb_put(gclq__dev *c, void **p, size_t *held, const void *h, size_t bytes) {
  GCLQ__TRY(gclq__dev_alloc(c, p, held, bytes));
  if (bytes > 0) GCLQ__CUDA_TRY(cudaMemcpyAsync(*p, h, bytes, cudaMemcpyHostToDevice, c->stream));
  return GCLQ_SUCCESS;
}

/* The label ranks (at most 16 distinct labels) and the graph to the device. */
static inline gclq_status gclq__emb_cuda_graph(gclq__emb_cuda *d, const gclq_graph *g) {
  const uint32_t n = g->num_vertices;
  uint8_t *rank = NULL;
  uint32_t v, r;
  gclq_status st;
  if (g->h_labels != NULL) {
    rank = (uint8_t *)gclq__alloc_array(n, 1);
    if (rank == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    for (v = 0; v < n; ++v) {
      for (r = 0; r < d->labels && d->label[r] != g->h_labels[v]; ++r) {
      }
      if (r == d->labels && d->labels == 16) {
        GCLQ_FREE(rank);
        return GCLQ_ERROR_BACKEND_UNAVAILABLE; /* more labels than a key holds */
      }
      if (r == d->labels) d->label[d->labels++] = g->h_labels[v];
    }
    for (v = 1; v < d->labels; ++v) /* ascending, so that ranks order as labels */
      for (r = v; r > 0 && d->label[r - 1] > d->label[r]; --r) {
        const uint32_t x = d->label[r];
        d->label[r] = d->label[r - 1], d->label[r - 1] = x;
      }
    for (v = 0; v < n; ++v)
      for (r = 0; r < d->labels; ++r)
        if (d->label[r] == g->h_labels[v]) rank[v] = (uint8_t)r;
  }
  st = gclq__emb_put(&d->c, (void **)&d->off, &d->off_held, g->h_offsets, ((size_t)n + 1) * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS)
    st = gclq__emb_put(&d->c, (void **)&d->nbr, &d->nbr_held, g->h_neighbors, (size_t)(2 * g->num_edges) * sizeof(uint32_t));
  if (st == GCLQ_SUCCESS && rank != NULL) st = gclq__emb_put(&d->c, (void **)&d->rank, &d->rank_held, rank, n);
  if (st == GCLQ_SUCCESS && cudaStreamSynchronize(d->c.stream) != cudaSuccess) st = GCLQ_ERROR_CUDA;
  GCLQ_FREE(rank);
  return st;
}

/* A CUDA table of level 0: the graph and level 0 to the device (the host
   builds level 0, gclq__emb_level0, and hands its column over). */
static inline gclq_status gclq__emb_cuda_create(gclq_emb_table *t, size_t budget) {
  gclq__emb_cuda *d;
  gclq_status st;
  GCLQ__TRY(gclq__device_start(&budget));
  d = (gclq__emb_cuda *)GCLQ_MALLOC(sizeof *d);
  if (d == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(d, 0, sizeof *d);
  gclq__dev_init(&d->c, NULL, NULL, budget);
  t->dev = d;
  st = gclq__emb_cuda_graph(d, t->g);
  if (st == GCLQ_SUCCESS)
    st = gclq__emb_put(&d->c, (void **)&d->col[0], &d->col_held[0], t->col[0], (size_t)t->n[0] * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS && cudaStreamSynchronize(d->c.stream) != cudaSuccess) st = GCLQ_ERROR_CUDA;
  if (st != GCLQ_SUCCESS) gclq__emb_cuda_free(t);
  GCLQ_FREE(t->col[0]); /* the host's copy: a CUDA table keeps its levels on the device */
  t->col[0] = NULL;
  return st;
}

/* gclq__emb_extend on the device. */
static inline gclq_status gclq__emb_cuda_extend(gclq_emb_table *t, uint64_t first, uint64_t count) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  gclq__dev *c = &d->c;
  const uint32_t L = t->levels - 1;
  const gclq__emb_dview v = gclq__emb_view_of(t);
  gclq__dmem cnt(c);
  uint64_t total = 0;
  void *col = NULL, *par = NULL;
  size_t col_held = 0, par_held = 0;
  gclq_status st;
  GCLQ__TRY(cnt.get(((size_t)count + 1) * sizeof(uint64_t)));
  GCLQ__CUDA_TRY(cudaMemsetAsync(cnt.as<uint64_t>() + count, 0, sizeof(uint64_t), c->stream));
  if (count > 0) {
    gclq__emb_extend_kernel<<<(unsigned)((count + GCLQ__EMB_BLOCK - 1) / GCLQ__EMB_BLOCK), GCLQ__EMB_BLOCK, 0,
                              c->stream>>>(v, first, count, cnt.as<uint64_t>(), NULL, NULL, NULL);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  GCLQ__TRY(gclq__dev_prim(c, [&](void *tmp, size_t *tb) {
    return gprim_scan_exclusive(tmp, tb, (const uint64_t *)cnt.p, cnt.as<uint64_t>(), (size_t)count + 1, gprim_op_sum(),
                                (uint64_t)0, c->stream);
  }));
  GCLQ__TRY(gclq__dev_read(c, &total, cnt.as<uint64_t>() + count, sizeof total));
  if (t->max_bytes != 0 && gclq__emb_bytes(t) + gclq__emb_level_bytes(L + 1, total) > t->max_bytes)
    return GCLQ_ERROR_OUT_OF_MEMORY;
  st = gclq__dev_alloc(c, &col, &col_held, (size_t)total * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS) st = gclq__dev_alloc(c, &par, &par_held, (size_t)total * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS && count > 0) {
    gclq__emb_extend_kernel<<<(unsigned)((count + GCLQ__EMB_BLOCK - 1) / GCLQ__EMB_BLOCK), GCLQ__EMB_BLOCK, 0,
                              c->stream>>>(v, first, count, NULL, cnt.as<uint64_t>(), (uint64_t *)col, (uint64_t *)par);
    if (cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(c->stream) != cudaSuccess) st = GCLQ_ERROR_CUDA;
  }
  if (st != GCLQ_SUCCESS) {
    gclq__emb_dfree(c, col, col_held);
    gclq__emb_dfree(c, par, par_held);
    return st;
  }
  d->col[L + 1] = (uint64_t *)col, d->col_held[L + 1] = col_held;
  d->par[L + 1] = (uint64_t *)par, d->par_held[L + 1] = par_held;
  t->n[L + 1] = total;
  t->levels = L + 2;
  return GCLQ_SUCCESS;
}

/* gclq__emb_set_aside for a CUDA table: the last level's device blocks
   aside with its count. */
static inline void gclq__emb_cuda_set_aside(gclq_emb_table *t, gclq__emb_aside *a) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  const uint32_t L = t->levels - 1;
  gclq__emb_set_aside(t, a); /* the count and the levels (a CUDA table's host columns are NULL) */
  a->col = d->col[L], a->par = d->par[L], a->col_held = d->col_held[L], a->par_held = d->par_held[L];
  d->col[L] = d->par[L] = NULL;
  d->col_held[L] = d->par_held[L] = 0;
}

/* gclq__emb_put_back for a CUDA table. */
static inline void gclq__emb_cuda_put_back(gclq_emb_table *t, const gclq__emb_aside *a) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  const uint32_t L = t->levels;
  d->col[L] = a->col, d->par[L] = a->par, d->col_held[L] = a->col_held, d->par_held[L] = a->par_held;
  t->n[L] = a->n;
  t->levels = L + 1;
}

/* gclq__emb_concat on the device: fresh blocks of both levels' rows, the
   aside's first; on failure nothing changed. */
static inline gclq_status gclq__emb_cuda_concat(gclq_emb_table *t, gclq__emb_aside *a) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  gclq__dev *c = &d->c;
  const uint32_t L = t->levels - 1;
  const uint64_t n = a->n + t->n[L];
  const size_t first = (size_t)a->n * sizeof(uint64_t), then = (size_t)t->n[L] * sizeof(uint64_t);
  void *col = NULL, *par = NULL;
  size_t col_held = 0, par_held = 0;
  gclq_status st = gclq__dev_alloc(c, &col, &col_held, (size_t)n * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS) st = gclq__dev_alloc(c, &par, &par_held, (size_t)n * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS && n > 0 &&
      ((first > 0 && (cudaMemcpyAsync(col, a->col, first, cudaMemcpyDeviceToDevice, c->stream) != cudaSuccess ||
                      cudaMemcpyAsync(par, a->par, first, cudaMemcpyDeviceToDevice, c->stream) != cudaSuccess)) ||
       (then > 0 && (cudaMemcpyAsync((char *)col + first, d->col[L], then, cudaMemcpyDeviceToDevice, c->stream) !=
                         cudaSuccess ||
                     cudaMemcpyAsync((char *)par + first, d->par[L], then, cudaMemcpyDeviceToDevice, c->stream) !=
                         cudaSuccess)) ||
       cudaStreamSynchronize(c->stream) != cudaSuccess))
    st = GCLQ_ERROR_CUDA;
  if (st != GCLQ_SUCCESS) {
    gclq__emb_dfree(c, col, col_held);
    gclq__emb_dfree(c, par, par_held);
    return st;
  }
  gclq__emb_dfree(c, a->col, a->col_held);
  gclq__emb_dfree(c, a->par, a->par_held);
  gclq__emb_dfree(c, d->col[L], d->col_held[L]);
  gclq__emb_dfree(c, d->par[L], d->par_held[L]);
  memset(a, 0, sizeof *a);
  d->col[L] = (uint64_t *)col, d->col_held[L] = col_held;
  d->par[L] = (uint64_t *)par, d->par_held[L] = par_held;
  t->n[L] = n;
  return GCLQ_SUCCESS;
}

static inline void gclq__emb_cuda_pop(gclq_emb_table *t) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  const uint32_t L = t->levels - 1;
  gclq__emb_dfree(&d->c, d->col[L], d->col_held[L]);
  gclq__emb_dfree(&d->c, d->par[L], d->par_held[L]);
  d->col[L] = d->par[L] = NULL;
  d->col_held[L] = d->par_held[L] = 0;
}

/* Row i of level L's parent (level L > 0). */
static inline gclq_status gclq__emb_cuda_parent(const gclq_emb_table *t, uint32_t L, uint64_t i, uint64_t *parent) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  return gclq__dev_read(&d->c, parent, d->par[L] + i, sizeof(uint64_t));
}

/* Row i of level L: its items, read by walking its parents. */
static inline gclq_status gclq__emb_cuda_items(const gclq_emb_table *t, uint32_t L, uint64_t i, uint64_t *items) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  uint32_t l = L + 1;
  while (l-- > 0) {
    GCLQ__TRY(gclq__dev_read(&d->c, &items[l], d->col[l] + i, sizeof(uint64_t)));
    if (l > 0) GCLQ__TRY(gclq__dev_read(&d->c, &i, d->par[l] + i, sizeof(uint64_t)));
  }
  return GCLQ_SUCCESS;
}

/* gclq__emb_pattern of a CUDA table's row. */
static inline gclq_status gclq__emb_cuda_row(const gclq_emb_table *t, uint32_t L, uint64_t i, gclq__lpat *p,
                                             uint32_t *vert) {
  uint64_t items[GCLQ_EMB_MAX_VERTICES];
  GCLQ__TRY(gclq__emb_cuda_items(t, L, i, items));
  gclq__emb_pattern_items(t, items, L, p, vert);
  return GCLQ_SUCCESS;
}

/* A key back into a raw pattern (gclq__emb_key). */
static inline void gclq__emb_key_decode(const gclq__emb_cuda *d, uint64_t key, gclq__lpat *p) {
  uint32_t a, b, bit = 0;
  memset(p, 0, sizeof *p);
  p->v = (uint32_t)(key >> 60);
  for (a = 0; a < p->v; ++a) {
    for (b = a + 1; b < p->v; ++b, ++bit)
      if ((key >> (32 + bit)) & 1u) p->adj[a] |= 1u << b, p->adj[b] |= 1u << a, ++p->e;
    p->label[a] = d->labels > 0 ? d->label[(key >> (4 * a)) & 15u] : 0;
  }
}

/* Rows a sort takes at once (the hook gclq__emb_chunk_rows lowers it):
   a chunk holds about 40 bytes a row (keys, their sorted copy, the sort's
   room, the distinct keys and counts), so a chunk is at most a 48th of the
   room left under the budget. */
#define GCLQ__EMB_CHUNK_ROWS (1ull << 26)
static inline uint64_t gclq__emb_chunk(const gclq__dev *c) {
  const uint64_t room = c->budget > c->used ? (c->budget - c->used) / 48 : 0;
  const uint64_t rows = room < GCLQ__EMB_CHUNK_ROWS ? room : GCLQ__EMB_CHUNK_ROWS;
#ifdef GPUCLIQUE_TESTING
  if (gclq__emb_chunk_rows != 0) return gclq__emb_chunk_rows;
#endif
  return rows > 64 ? rows : 64;
}

/* Two sorted lists of distinct keys with their counts, merged into *k / *n
   (the first list's arrays, freed and replaced; *nk grows). */
static inline gclq_status gclq__emb_merge_keys(uint64_t **k, uint64_t **n, uint64_t *nk, const uint64_t *k2,
                                               const uint32_t *n2, uint64_t nk2) {
  uint64_t *mk = (uint64_t *)gclq__alloc_array(*nk + nk2, sizeof(uint64_t));
  uint64_t *mn = (uint64_t *)gclq__alloc_array(*nk + nk2, sizeof(uint64_t));
  uint64_t i = 0, j = 0, m = 0;
  if (mk == NULL || mn == NULL) {
    GCLQ_FREE(mk);
    GCLQ_FREE(mn);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  while (i < *nk || j < nk2) {
    if (j == nk2 || (i < *nk && (*k)[i] < k2[j])) mk[m] = (*k)[i], mn[m++] = (*n)[i++];
    else if (i == *nk || k2[j] < (*k)[i]) mk[m] = k2[j], mn[m++] = n2[j++];
    else mk[m] = k2[j], mn[m++] = (*n)[i++] + n2[j++];
  }
  GCLQ_FREE(*k);
  GCLQ_FREE(*n);
  *k = mk, *n = mn, *nk = m;
  return GCLQ_SUCCESS;
}

/* The last level's distinct raw keys, ascending, and each one's rows: host
   arrays *keys / *counts (GCLQ_MALLOC'd, *nd of them; NULL on failure).
   The rows go a chunk at a time (gclq__emb_chunk): keys, radix sort,
   run-length encoding on the device, the chunk's distinct keys merged into
   the host's list. */
static inline gclq_status gclq__emb_cuda_distinct(const gclq_emb_table *t, uint64_t **keys, uint64_t **counts,
                                                  uint64_t *nd) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  gclq__dev *c = &d->c;
  const uint64_t rows = t->n[t->levels - 1];
  const gclq__emb_dview v = gclq__emb_view_of(t);
  const uint64_t chunk = gclq__emb_chunk(c);
  gclq__dmem raw(c), sorted(c), ck(c), cn(c), num(c);
  uint64_t *hk = NULL, first;
  uint32_t *hn = NULL;
  size_t runs = 0;
  gclq_status st = GCLQ_SUCCESS;
  *nd = 0;
  *keys = (uint64_t *)GCLQ_MALLOC(sizeof(uint64_t)), *counts = (uint64_t *)GCLQ_MALLOC(sizeof(uint64_t));
  if (*keys == NULL || *counts == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  for (first = 0; st == GCLQ_SUCCESS && first < rows; first += chunk) {
    const uint64_t n = rows - first < chunk ? rows - first : chunk;
    if (raw.p == NULL) { /* the first chunk's size serves every chunk */
      st = raw.get((size_t)n * sizeof(uint64_t));
      if (st == GCLQ_SUCCESS) st = sorted.get((size_t)n * sizeof(uint64_t));
      if (st == GCLQ_SUCCESS) st = ck.get((size_t)n * sizeof(uint64_t));
      if (st == GCLQ_SUCCESS) st = cn.get((size_t)n * sizeof(uint32_t));
      if (st == GCLQ_SUCCESS) st = num.get(sizeof(size_t));
      if (st != GCLQ_SUCCESS) break;
    }
    gclq__emb_key_kernel<<<(unsigned)((n + GCLQ__EMB_BLOCK - 1) / GCLQ__EMB_BLOCK), GCLQ__EMB_BLOCK, 0, c->stream>>>(
        v, first, n, raw.as<uint64_t>());
    if (cudaGetLastError() != cudaSuccess) st = GCLQ_ERROR_CUDA;
    if (st == GCLQ_SUCCESS)
      st = gclq__dev_prim(c, [&](void *tmp, size_t *tb) {
        return gprim_radix_sort_keys(tmp, tb, (const uint64_t *)raw.p, sorted.as<uint64_t>(), (size_t)n, 0, 64, false,
                                     c->stream);
      });
    if (st == GCLQ_SUCCESS)
      st = gclq__dev_prim(c, [&](void *tmp, size_t *tb) {
        return gprim_run_length_encode(tmp, tb, (const uint64_t *)sorted.p, ck.as<uint64_t>(), cn.as<uint32_t>(),
                                       num.as<size_t>(), (size_t)n, c->stream);
      });
    if (st == GCLQ_SUCCESS) st = gclq__dev_read(c, &runs, num.p, sizeof runs);
    if (st == GCLQ_SUCCESS) {
      GCLQ_FREE(hk);
      GCLQ_FREE(hn);
      hk = (uint64_t *)gclq__alloc_array(runs, sizeof(uint64_t));
      hn = (uint32_t *)gclq__alloc_array(runs, sizeof(uint32_t));
      if (hk == NULL || hn == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    }
    if (st == GCLQ_SUCCESS) st = gclq__dev_read(c, hk, ck.p, runs * sizeof(uint64_t));
    if (st == GCLQ_SUCCESS) st = gclq__dev_read(c, hn, cn.p, runs * sizeof(uint32_t));
    if (st == GCLQ_SUCCESS) st = gclq__emb_merge_keys(keys, counts, nd, hk, hn, runs);
  }
  GCLQ_FREE(hk);
  GCLQ_FREE(hn);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(*keys);
    GCLQ_FREE(*counts);
    *keys = *counts = NULL;
    *nd = 0;
  }
  return st;
}

/* The support's bitmaps of the last level: for the distinct keys hk
   (ascending, nd, each's canonical index cidx[j] into cc), one bitmap of
   words words per orbit of each canonical pattern, set on the device (one
   launch over the rows) and read into *bits (host, GCLQ_MALLOC'd): pattern
   i's orbit o is row base[i] + o, base (cc's patterns + 1 entries) filled
   here. */
static inline gclq_status gclq__emb_cuda_support(const gclq_emb_table *t, const uint64_t *hk, uint64_t nd,
                                                 const gclq__emb_canon *cc, const uint64_t *cidx, uint64_t words,
                                                 uint64_t *base, uint64_t **bits) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  gclq__dev *c = &d->c;
  const uint64_t rows = t->n[t->levels - 1], np = cc->canon.n;
  const gclq__emb_dview v = gclq__emb_view_of(t);
  gclq__dmem d_keys(c), d_orbit(c), d_from(c), d_bits(c);
  uint32_t *orbit_of = (uint32_t *)gclq__alloc_array(nd * GCLQ_EMB_MAX_VERTICES, sizeof(uint32_t));
  uint8_t *from = (uint8_t *)gclq__alloc_array(nd * GCLQ_EMB_MAX_VERTICES, 1);
  gclq__emb_slot s;
  uint64_t i, j;
  uint32_t x;
  gclq_status st = orbit_of == NULL || from == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS;
  *bits = NULL;
  base[0] = 0;
  for (i = 0; i < np; ++i) {
    memset(&s, 0, sizeof s);
    s.p = cc->canon.a[i];
    gclq__emb_orbits(&s);
    base[i + 1] = base[i] + s.orbits;
  }
  for (j = 0; st == GCLQ_SUCCESS && j < nd; ++j) {
    memset(&s, 0, sizeof s);
    s.p = cc->canon.a[cidx[j]];
    gclq__emb_orbits(&s);
    for (x = 0; x < GCLQ_EMB_MAX_VERTICES; ++x) {
      orbit_of[j * GCLQ_EMB_MAX_VERTICES + x] = (uint32_t)(base[cidx[j]] + (x < s.p.v ? s.orbit[x] : 0));
      from[j * GCLQ_EMB_MAX_VERTICES + x] = (uint8_t)(x < s.p.v ? cc->from[cidx[j] * GCLQ_EMB_MAX_VERTICES + x] : 0);
    }
  }
  if (st == GCLQ_SUCCESS && base[np] * words > ((size_t)-1) / sizeof(uint64_t)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) {
    *bits = (uint64_t *)gclq__alloc_array(base[np] * words, sizeof(uint64_t));
    if (*bits == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) st = gclq__emb_put(c, &d_keys.p, &d_keys.held, hk, (size_t)(nd * sizeof(uint64_t)));
  if (st == GCLQ_SUCCESS)
    st = gclq__emb_put(c, &d_orbit.p, &d_orbit.held, orbit_of, (size_t)(nd * GCLQ_EMB_MAX_VERTICES * sizeof(uint32_t)));
  if (st == GCLQ_SUCCESS) st = gclq__emb_put(c, &d_from.p, &d_from.held, from, (size_t)(nd * GCLQ_EMB_MAX_VERTICES));
  if (st == GCLQ_SUCCESS) st = d_bits.get((size_t)(base[np] * words * sizeof(uint64_t)));
  if (st == GCLQ_SUCCESS && base[np] > 0 &&
      cudaMemsetAsync(d_bits.p, 0, (size_t)(base[np] * words * sizeof(uint64_t)), c->stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st == GCLQ_SUCCESS && rows > 0) {
    gclq__emb_support_kernel<<<(unsigned)((rows + GCLQ__EMB_BLOCK - 1) / GCLQ__EMB_BLOCK), GCLQ__EMB_BLOCK, 0,
                               c->stream>>>(v, rows, d_keys.as<uint64_t>(), nd, d_orbit.as<uint32_t>(),
                                            d_from.as<uint8_t>(), words, d_bits.as<unsigned long long>());
    if (cudaGetLastError() != cudaSuccess) st = GCLQ_ERROR_CUDA;
  }
  if (st == GCLQ_SUCCESS && base[np] > 0)
    st = gclq__dev_read(c, *bits, d_bits.p, (size_t)(base[np] * words * sizeof(uint64_t)));
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(*bits);
    *bits = NULL;
  }
  GCLQ_FREE(orbit_of);
  GCLQ_FREE(from);
  return st;
}

/* gclq__emb_aggregate on the device: the distinct keys and their counts
   from the device, made canonical on the host; the support's bitmaps;
   then, all memory taken, the slots' counts and bitmaps. On failure a and
   pats are as they were. */
static inline gclq_status gclq__emb_cuda_aggregate(const gclq_emb_table *t, int support, gclq__emb_agg *a,
                                                   gclq_emb_patterns *pats) {
  const uint64_t words = support ? ((uint64_t)t->g->num_vertices + 63) / 64 + 1 : 0;
  gclq__emb_canon cc;
  uint64_t nd = 0, *hk = NULL, *hc = NULL, *cidx = NULL, *slot_of = NULL, *base = NULL, *bits = NULL, i, j, o, w;
  gclq__emb_sorted *order = NULL;
  gclq_emb_pattern *view = NULL;
  gclq_status st;
  if (a->n > 0 && a->words != words) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(&cc, 0, sizeof cc);
  st = gclq__emb_cuda_distinct(t, &hk, &hc, &nd);
  if (st == GCLQ_SUCCESS) {
    cidx = (uint64_t *)gclq__alloc_array(nd, sizeof(uint64_t));
    if (cidx == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (j = 0; st == GCLQ_SUCCESS && j < nd; ++j) {
    gclq__lpat raw;
    gclq__emb_key_decode((const gclq__emb_cuda *)t->dev, hk[j], &raw);
    st = gclq__emb_canon_of(&cc, &raw, &cidx[j]);
  }
  if (st == GCLQ_SUCCESS && words != 0) {
    base = (uint64_t *)gclq__alloc_array(cc.canon.n + 1, sizeof(uint64_t));
    st = base == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : gclq__emb_cuda_support(t, hk, nd, &cc, cidx, words, base, &bits);
  }
  if (st == GCLQ_SUCCESS) st = gclq__emb_agg_prepare(a, &cc, words, &slot_of, &order, &view);
  if (st == GCLQ_SUCCESS) {
    a->words = words;
    for (j = 0; j < nd; ++j) a->slot[slot_of[cidx[j]]].count += hc[j];
    for (i = 0; words != 0 && i < cc.canon.n; ++i) {
      gclq__emb_slot *s = &a->slot[slot_of[i]];
      for (o = 0; o < base[i + 1] - base[i]; ++o)
        for (w = 0; w < words; ++w) s->seen[o * words + w] |= bits[(base[i] + o) * words + w];
    }
    gclq__emb_publish(a, order, &view, pats);
  }
  GCLQ_FREE(view);
  GCLQ_FREE(order);
  GCLQ_FREE(slot_of);
  GCLQ_FREE(bits);
  GCLQ_FREE(base);
  GCLQ_FREE(cidx);
  GCLQ_FREE(hc);
  GCLQ_FREE(hk);
  gclq__emb_canon_free(&cc);
  return st;
}

/* gclq__emb_filter on the device: the flags (added vertices; the
   pattern's pass, decided on the host per distinct key), then the level
   compacted into fresh blocks. */
static inline gclq_status gclq__emb_cuda_filter(gclq_emb_table *t, const gclq_emb_filter *f, const gclq__emb_agg *a) {
  gclq__emb_cuda *d = (gclq__emb_cuda *)t->dev;
  gclq__dev *c = &d->c;
  const uint32_t L = t->levels - 1;
  const uint64_t rows = t->n[L];
  const gclq__emb_dview v = gclq__emb_view_of(t);
  gclq__dmem keys(c), pass(c), flags(c), num(c);
  gclq__emb_canon cc;
  uint64_t nd = 0, *hk = NULL, *hn = NULL, j, slot, ci;
  uint8_t *hp = NULL;
  void *col = NULL, *par = NULL;
  size_t col_held = 0, par_held = 0, kept = 0;
  int rank = -1;
  uint32_t r;
  gclq_status st = GCLQ_SUCCESS;
  memset(&cc, 0, sizeof cc);
  if (f->by_label) { /* the label's rank; 16 (no vertex's) when the graph lacks it */
    rank = d->labels == 0 && f->label == 0 ? 0 : 16;
    for (r = 0; r < d->labels; ++r)
      if (d->label[r] == f->label) rank = (int)r;
  }
  if (a != NULL) st = gclq__emb_cuda_distinct(t, &hk, &hn, &nd);
  if (st == GCLQ_SUCCESS && a != NULL) {
    hp = (uint8_t *)gclq__alloc_array(nd, 1);
    if (hp == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    for (j = 0; st == GCLQ_SUCCESS && j < nd; ++j) {
      gclq__lpat raw;
      gclq__emb_key_decode(d, hk[j], &raw);
      st = gclq__emb_canon_of(&cc, &raw, &ci);
      if (st == GCLQ_SUCCESS)
        hp[j] = gclq__pat_find(&a->index, &cc.canon.a[ci], &slot) && a->slot[slot].count >= f->min_count &&
                (f->min_support == 0 || gclq__emb_slot_support(a, &a->slot[slot]) >= f->min_support);
    }
    if (st == GCLQ_SUCCESS) st = gclq__emb_put(c, &keys.p, &keys.held, hk, (size_t)(nd * sizeof(uint64_t)));
    if (st == GCLQ_SUCCESS) st = gclq__emb_put(c, &pass.p, &pass.held, hp, (size_t)nd);
  }
  if (st == GCLQ_SUCCESS) st = flags.get((size_t)rows);
  if (st == GCLQ_SUCCESS) st = num.get(sizeof(size_t));
  if (st == GCLQ_SUCCESS && rows > 0) {
    gclq__emb_filter_kernel<<<(unsigned)((rows + GCLQ__EMB_BLOCK - 1) / GCLQ__EMB_BLOCK), GCLQ__EMB_BLOCK, 0, c->stream>>>(
        v, rows, f->min_degree, rank, keys.as<uint64_t>(), nd, a != NULL ? pass.as<uint8_t>() : NULL,
        flags.as<uint8_t>());
    if (cudaGetLastError() != cudaSuccess) st = GCLQ_ERROR_CUDA;
  }
  if (st == GCLQ_SUCCESS) st = gclq__dev_alloc(c, &col, &col_held, (size_t)rows * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS && L > 0) st = gclq__dev_alloc(c, &par, &par_held, (size_t)rows * sizeof(uint64_t));
  for (r = 0; r < (L > 0 ? 2u : 1u) && st == GCLQ_SUCCESS; ++r) {
    const uint64_t *in = r == 0 ? d->col[L] : d->par[L];
    uint64_t *out = (uint64_t *)(r == 0 ? col : par);
    st = gclq__dev_prim(c, [&](void *tmp, size_t *tb) {
      return gprim_select_flagged(tmp, tb, in, flags.as<uint8_t>(), out, num.as<size_t>(), (size_t)rows, c->stream);
    });
  }
  if (st == GCLQ_SUCCESS) st = gclq__dev_read(c, &kept, num.p, sizeof kept);
  if (st == GCLQ_SUCCESS) { /* the compacted level replaces the old */
    gclq__emb_dfree(c, d->col[L], d->col_held[L]);
    gclq__emb_dfree(c, d->par[L], d->par_held[L]);
    d->col[L] = (uint64_t *)col, d->col_held[L] = col_held;
    d->par[L] = (uint64_t *)par, d->par_held[L] = par_held;
    t->n[L] = kept;
  } else {
    gclq__emb_dfree(c, col, col_held);
    gclq__emb_dfree(c, par, par_held);
  }
  GCLQ_FREE(hp);
  GCLQ_FREE(hn);
  GCLQ_FREE(hk);
  gclq__emb_canon_free(&cc);
  return st;
}
