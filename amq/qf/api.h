/* amq/qf/api.h - section 6's entry points: argument checks, the plan of
   each call (gamq__qf_choose, amq/qf/choose.h), and the dispatch to HOST
   (amq/qf/host.h) or CUDA (amq/qf/cuda.cuh) by that plan; save / load
   last. */

static gamq_status gamq__qf_status(gamq__qf_result r) {
  switch (r) {
    case GAMQ__QF_OK: return GAMQ_SUCCESS;
    case GAMQ__QF_FULL: return GAMQ_ERROR_FULL;
    case GAMQ__QF_NO_MEMORY: return GAMQ_ERROR_OUT_OF_MEMORY;
    default: return GAMQ_ERROR_INVALID_ARGUMENT;
  }
}

/* The checks every batch call starts with. */
static gamq_status gamq__qf_args(const gamq_qf *F, const void *keys, size_t n) {
  if (F == NULL || (keys == NULL && n > 0) || n > GAMQ_QF_MAX_BATCH) return GAMQ_ERROR_INVALID_ARGUMENT;
  return GAMQ_SUCCESS;
}

/* HOST: fingerprints of a batch of 4- or 8-byte keys, in GAMQ_MALLOC memory
   (NULL on failure; one spare element so n = 0 allocates something). */
static uint64_t *gamq__qf_host_fps(const gamq__qf *f, const void *keys, int key_bytes, size_t n, int sorted) {
  uint64_t *fp = (uint64_t *)GAMQ_MALLOC((n + 1) * sizeof(uint64_t));
  if (fp == NULL) return NULL;
  if (key_bytes == 4) gamq__qf_fingerprints_u32(f, (const uint32_t *)keys, n, fp);
  else gamq__qf_fingerprints_u64(f, (const uint64_t *)keys, n, fp);
  if (sorted && n > 1) qsort(fp, n, sizeof(uint64_t), gamq__qf_cmp_u64);
  return fp;
}

GAMQ_DEF gamq_status gamq_qf_create(const gamq_qf_desc *desc, gamq_qf_kind kind, int q, int r, gamq_qf **filter) {
  gamq_qf_desc d;
  gamq_qf *F;
  gamq__qf_plan plan;
  gamq_status s;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  if (filter == NULL || (kind != GAMQ_QF_SQF && kind != GAMQ_QF_RSQF) || (int)d.build_method < 0 ||
      (int)d.build_method > 4 || (d.layout != GAMQ_QF_LAYOUT_ALIGNED && d.layout != GAMQ_QF_LAYOUT_PACKED) ||
      !gamq__qf_layout_packed((gamq__qf_kind)kind, q, r, d.layout == GAMQ_QF_LAYOUT_PACKED, NULL, NULL))
    return GAMQ_ERROR_INVALID_ARGUMENT; /* PACKED SQF among them */
  s = gamq__qf_choose(&d, NULL, GAMQ__QF_OP_CREATE, 0, &plan);
  if (s != GAMQ_SUCCESS) return s;
  F = (gamq_qf *)GAMQ_MALLOC(sizeof *F);
  if (F == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  memset(F, 0, sizeof *F);
  F->backend = plan.backend, F->scan = plan.scan; /* what every later plan of the filter reads */
  F->allocator = d.allocator;
  F->dedup_build = d.dedup_build != 0;
  F->build_inserts = d.build_by_inserts != 0;
  if (F->backend == GAMQ_BACKEND_HOST) {
    s = gamq__qf_status(gamq__qf_init_packed(&F->f, (gamq__qf_kind)kind, q, r, d.seed, d.layout == GAMQ_QF_LAYOUT_PACKED));
  } else {
#if defined(__CUDACC__)
    void *p = NULL;
    F->f.kind = (gamq__qf_kind)kind, F->f.q = q, F->f.r = r, F->f.seed = d.seed, F->f.nitems = 0;
    F->f.packed = d.layout == GAMQ_QF_LAYOUT_PACKED;
    gamq__qf_layout_packed(F->f.kind, q, r, F->f.packed, &F->f.nslots, &F->f.bytes);
    s = gamq__device_alloc(&F->allocator, &p, F->f.bytes, NULL);
    if (s == GAMQ_SUCCESS) {
      F->f.data = (uint8_t *)p;
      if (cudaMemsetAsync(p, 0, F->f.bytes, 0) != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess) {
        gamq__device_free(&F->allocator, p, NULL);
        s = GAMQ_ERROR_CUDA;
      }
    }
#else
    s = GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (s != GAMQ_SUCCESS) {
    GAMQ_FREE(F);
    return s;
  }
  *filter = F;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_destroy(gamq_qf *F) {
  gamq_status s = GAMQ_SUCCESS;
  if (F == NULL) return GAMQ_SUCCESS;
  if (F->backend == GAMQ_BACKEND_HOST) {
    gamq__qf_free(&F->f);
  } else {
#if defined(__CUDACC__)
    gamq__device_free(&F->allocator, F->f.data, NULL);
    gamq__device_free(&F->allocator, F->scratch, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess) s = GAMQ_ERROR_CUDA;
#endif
  }
  GAMQ_FREE(F);
  return s;
}

GAMQ_DEF gamq_status gamq_qf_count(const gamq_qf *F, uint64_t *count) {
  if (F == NULL || count == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  *count = F->f.nitems;
  return GAMQ_SUCCESS;
}
GAMQ_DEF gamq_status gamq_qf_load_factor(const gamq_qf *F, double *load_factor) {
  if (F == NULL || load_factor == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  *load_factor = gamq__qf_load_factor(&F->f);
  return GAMQ_SUCCESS;
}
GAMQ_DEF gamq_status gamq_qf_get_info(const gamq_qf *F, gamq_qf_info *info) {
  if (F == NULL || info == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  info->kind = (gamq_qf_kind)F->f.kind;
  info->q = F->f.q, info->r = F->f.r, info->seed = F->f.seed;
  info->backend = F->backend;
  info->nslots = F->f.nslots, info->bytes = F->f.bytes, info->count = F->f.nitems;
  info->layout = F->f.packed ? GAMQ_QF_LAYOUT_PACKED : GAMQ_QF_LAYOUT_ALIGNED;
  return GAMQ_SUCCESS;
}
GAMQ_DEF gamq_status gamq_qf_fingerprint(const gamq_qf *F, uint64_t key, uint64_t *fingerprint) {
  if (F == NULL || fingerprint == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  *fingerprint = gamq__qf_fingerprint(&F->f, key);
  return GAMQ_SUCCESS;
}

/* ---- the batch calls on the filter's own memory ---- */

/* HOST: a change by its plan, on the host reference. */
static gamq_status gamq__qf_host_change(gamq_qf *F, const gamq__qf_plan *plan, int op, const void *keys,
                                        int key_bytes, size_t n, uint64_t *deleted) {
  gamq__qf_result res;
  uint64_t *fp = gamq__qf_host_fps(&F->f, keys, key_bytes, n, op == GAMQ__QF_OP_BUILD);
  if (fp == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  if (plan->dedup && n > 1) { /* keep the first of each run of equal fingerprints */
    size_t i, k = 1;
    for (i = 1; i < n; ++i)
      if (fp[i] != fp[k - 1]) fp[k++] = fp[i];
    n = k;
  }
  if (op == GAMQ__QF_OP_BUILD && plan->path == GAMQ__QF_BATCH_IN_PLACE)
    res = gamq__qf_build_by_inserts(&F->f, fp, n, plan->scan.method);
  else if (op == GAMQ__QF_OP_BUILD) res = gamq__qf_build(&F->f, fp, n, plan->scan.method);
  else if (op == GAMQ__QF_OP_INSERT) res = gamq__qf_insert_batch(&F->f, fp, n, plan->path, plan->scan.method);
  else res = gamq__qf_delete_batch(&F->f, fp, n, deleted);
  GAMQ_FREE(fp);
  return gamq__qf_status(res);
}

/* A build, insert or delete (op GAMQ__QF_OP_*): its plan, reported in
   last_path, then the plan's path on the filter's backend. */
static gamq_status gamq__qf_change_sync(gamq_qf *F, int op, const void *keys, int key_bytes, size_t n,
                                        uint64_t *deleted, gamq_stream stream) {
  gamq__qf_plan plan;
  gamq_status s = gamq__qf_args(F, keys, n);
  if (s != GAMQ_SUCCESS) return s;
  if (op != GAMQ__QF_OP_BUILD && n == 0) { /* an empty insert or delete changes nothing */
    if (deleted) *deleted = 0;
    return GAMQ_SUCCESS;
  }
  gamq__qf_choose(NULL, F, op, (uint64_t)n, &plan);
  F->last_path = (int)plan.path, F->last_rounds = 0;
  if (plan.backend == GAMQ_BACKEND_HOST) return gamq__qf_host_change(F, &plan, op, keys, key_bytes, n, deleted);
#if defined(__CUDACC__)
  if (plan.path == GAMQ__QF_BATCH_WINDOWS)
    return gamq__qf_cuda_windows(F, &plan, op, keys, key_bytes, n, deleted, (cudaStream_t)stream);
  if (plan.path == GAMQ__QF_BATCH_IN_PLACE)
    return gamq__qf_cuda_inplace(F, &plan, op, keys, key_bytes, n, deleted, (cudaStream_t)stream);
  return gamq__qf_cuda_rebuild(F, &plan, op, keys, key_bytes, n, NULL, NULL, deleted, (cudaStream_t)stream);
#else
  (void)stream;
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

static gamq_status gamq__qf_lookup_sync(const gamq_qf *F, const void *keys, int key_bytes, size_t n, uint8_t *found,
                                        int sorted, gamq_stream stream) {
  gamq__qf_plan plan;
  size_t i;
  if (gamq__qf_args(F, keys, n) != GAMQ_SUCCESS || (found == NULL && n > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  gamq__qf_choose(NULL, F, sorted ? GAMQ__QF_OP_LOOKUP_SORTED : GAMQ__QF_OP_LOOKUP, (uint64_t)n, &plan);
  if (plan.backend == GAMQ_BACKEND_CUDA) {
#if defined(__CUDACC__)
    const cudaStream_t st = (cudaStream_t)stream;
    if (plan.sorted) {
      void *temp = NULL;
      size_t bytes = 0;
      gamq_status s;
      cudaError_t e = gamq__cuda_qf_lookup_sorted(&F->f, keys, key_bytes, n, found, NULL, &bytes, st);
      if (e != cudaSuccess) return GAMQ_ERROR_CUDA;
      s = gamq__device_alloc(&F->allocator, &temp, bytes, stream);
      if (s != GAMQ_SUCCESS) return s;
      e = gamq__cuda_qf_lookup_sorted(&F->f, keys, key_bytes, n, found, temp, &bytes, st);
      if (e == cudaSuccess) e = cudaStreamSynchronize(st);
      gamq__device_free(&F->allocator, temp, stream);
      return e == cudaSuccess ? GAMQ_SUCCESS : GAMQ_ERROR_CUDA;
    }
    if (gamq__cuda_qf_lookup(&F->f, keys, key_bytes, n, found, st) != cudaSuccess ||
        cudaStreamSynchronize(st) != cudaSuccess)
      return GAMQ_ERROR_CUDA;
    return GAMQ_SUCCESS;
#else
    (void)stream;
    return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  {
    const gamq_qf_ref ref = gamq__qf_ref_of(&F->f);
    for (i = 0; i < n; ++i) {
      const uint64_t key = key_bytes == 4 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
      found[i] = (uint8_t)gamq_qf_ref_contains(&ref, key);
    }
  }
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_get_ref(const gamq_qf *F, gamq_qf_ref *ref) {
  if (F == NULL || ref == NULL || F->backend != GAMQ_BACKEND_CUDA) return GAMQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  *ref = gamq__qf_ref_of(&F->f);
  return GAMQ_SUCCESS;
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE; /* not reached: no CUDA filter exists without nvcc */
#endif
}

/* ---- the convenience forms: host arrays for either backend ---- */

/* kind: 0 change (op in `op`), 1 lookup. */
static gamq_status gamq__qf_arrays(gamq_qf *F, int lookup, int op, const void *h_keys, int key_bytes, size_t n,
                                   uint8_t *h_found, uint64_t *deleted) {
  gamq_status s = gamq__qf_args(F, h_keys, n);
  if (s != GAMQ_SUCCESS || (lookup && h_found == NULL && n > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST || n == 0)
    return lookup ? gamq__qf_lookup_sync(F, h_keys, key_bytes, n, h_found, 0, NULL)
                  : gamq__qf_change_sync(F, op, h_keys, key_bytes, n, deleted, NULL);
#if defined(__CUDACC__)
  {
    void *d_keys = NULL, *d_found = NULL;
    s = gamq__device_alloc(&F->allocator, &d_keys, n * (size_t)key_bytes, NULL);
    if (s == GAMQ_SUCCESS && lookup) s = gamq__device_alloc(&F->allocator, &d_found, n, NULL);
    if (s == GAMQ_SUCCESS && cudaMemcpyAsync(d_keys, h_keys, n * (size_t)key_bytes, cudaMemcpyHostToDevice, 0) !=
                                 cudaSuccess)
      s = GAMQ_ERROR_CUDA;
    if (s == GAMQ_SUCCESS && lookup) {
      s = gamq__qf_lookup_sync(F, d_keys, key_bytes, n, (uint8_t *)d_found, 0, NULL);
      if (s == GAMQ_SUCCESS && cudaMemcpy(h_found, d_found, n, cudaMemcpyDeviceToHost) != cudaSuccess)
        s = GAMQ_ERROR_CUDA;
    } else if (s == GAMQ_SUCCESS) {
      s = gamq__qf_change_sync(F, op, d_keys, key_bytes, n, deleted, NULL);
    }
    gamq__device_free(&F->allocator, d_keys, NULL);
    gamq__device_free(&F->allocator, d_found, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_qf_build_u32_sync(gamq_qf *F, const uint32_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, GAMQ__QF_OP_BUILD, d_keys, 4, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_build_u64_sync(gamq_qf *F, const uint64_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, GAMQ__QF_OP_BUILD, d_keys, 8, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_build_u32(gamq_qf *F, const uint32_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, GAMQ__QF_OP_BUILD, h_keys, 4, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_build_u64(gamq_qf *F, const uint64_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, GAMQ__QF_OP_BUILD, h_keys, 8, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_lookup_u32_sync(const gamq_qf *F, const uint32_t *d_keys, size_t n, uint8_t *d_found,
                                             gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 4, n, d_found, 0, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_u64_sync(const gamq_qf *F, const uint64_t *d_keys, size_t n, uint8_t *d_found,
                                             gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 8, n, d_found, 0, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_sorted_u32_sync(const gamq_qf *F, const uint32_t *d_keys, size_t n,
                                                    uint8_t *d_found, gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 4, n, d_found, 1, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_sorted_u64_sync(const gamq_qf *F, const uint64_t *d_keys, size_t n,
                                                    uint8_t *d_found, gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 8, n, d_found, 1, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_u32(const gamq_qf *F, const uint32_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__qf_arrays((gamq_qf *)F, 1, 0, h_keys, 4, n, h_found, NULL); /* a lookup changes nothing */
}
GAMQ_DEF gamq_status gamq_qf_lookup_u64(const gamq_qf *F, const uint64_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__qf_arrays((gamq_qf *)F, 1, 0, h_keys, 8, n, h_found, NULL);
}
GAMQ_DEF gamq_status gamq_qf_insert_u32_sync(gamq_qf *F, const uint32_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, GAMQ__QF_OP_INSERT, d_keys, 4, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_insert_u64_sync(gamq_qf *F, const uint64_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, GAMQ__QF_OP_INSERT, d_keys, 8, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_insert_u32(gamq_qf *F, const uint32_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, GAMQ__QF_OP_INSERT, h_keys, 4, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_insert_u64(gamq_qf *F, const uint64_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, GAMQ__QF_OP_INSERT, h_keys, 8, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_delete_u32_sync(gamq_qf *F, const uint32_t *d_keys, size_t n, uint64_t *deleted,
                                             gamq_stream stream) {
  return gamq__qf_change_sync(F, GAMQ__QF_OP_DELETE, d_keys, 4, n, deleted, stream);
}
GAMQ_DEF gamq_status gamq_qf_delete_u64_sync(gamq_qf *F, const uint64_t *d_keys, size_t n, uint64_t *deleted,
                                             gamq_stream stream) {
  return gamq__qf_change_sync(F, GAMQ__QF_OP_DELETE, d_keys, 8, n, deleted, stream);
}
GAMQ_DEF gamq_status gamq_qf_delete_u32(gamq_qf *F, const uint32_t *h_keys, size_t n, uint64_t *deleted) {
  return gamq__qf_arrays(F, 0, GAMQ__QF_OP_DELETE, h_keys, 4, n, NULL, deleted);
}
GAMQ_DEF gamq_status gamq_qf_delete_u64(gamq_qf *F, const uint64_t *h_keys, size_t n, uint64_t *deleted) {
  return gamq__qf_arrays(F, 0, GAMQ__QF_OP_DELETE, h_keys, 8, n, NULL, deleted);
}

GAMQ_DEF gamq_status gamq_qf_merge_sync(gamq_qf *out, const gamq_qf *a, const gamq_qf *b, gamq_stream stream) {
  gamq__qf_plan plan;
  if (out == NULL || a == NULL || b == NULL || !gamq__qf_same_shape(&out->f, &a->f) ||
      !gamq__qf_same_shape(&out->f, &b->f) || a->backend != out->backend || b->backend != out->backend)
    return GAMQ_ERROR_INVALID_ARGUMENT;
  gamq__qf_choose(NULL, out, GAMQ__QF_OP_MERGE, 0, &plan);
  if (plan.backend == GAMQ_BACKEND_HOST)
    return gamq__qf_status(gamq__qf_merge(&out->f, &a->f, &b->f, plan.scan.method));
#if defined(__CUDACC__)
  return gamq__qf_cuda_rebuild(out, &plan, GAMQ__QF_OP_MERGE, NULL, 8, 0, a, b, NULL, (cudaStream_t)stream);
#else
  (void)stream;
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_qf_extract_sync(const gamq_qf *F, uint64_t *d_fps, size_t capacity, size_t *written,
                                          gamq_stream stream) {
  if (F == NULL || capacity < F->f.nitems || (d_fps == NULL && F->f.nitems > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST) {
    if (F->f.nitems > 0) gamq__qf_extract(&F->f, d_fps);
  } else {
#if defined(__CUDACC__)
    gamq__qf_bufs bufs;
    size_t bytes[GAMQ__QF_BUFS] = {0, 0, 0, 0, 0, 0};
    cudaError_t e;
    gamq_status s;
    if (F->f.nitems > 0) {
      if (gamq__cuda_qf_extract(&F->f, NULL, NULL, &bytes[0], (cudaStream_t)stream) != cudaSuccess)
        return GAMQ_ERROR_CUDA;
      s = gamq__qf_bufs_alloc(F, &bufs, bytes, (cudaStream_t)stream);
      if (s != GAMQ_SUCCESS) return s;
      e = gamq__cuda_qf_extract(&F->f, d_fps, bufs.p[0], &bytes[0], (cudaStream_t)stream);
      gamq__qf_bufs_free(F, &bufs, (cudaStream_t)stream);
      if (e != cudaSuccess || cudaStreamSynchronize((cudaStream_t)stream) != cudaSuccess) return GAMQ_ERROR_CUDA;
    }
#else
    (void)stream;
    return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (written) *written = (size_t)F->f.nitems;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_extract(const gamq_qf *F, uint64_t *h_fps, size_t capacity, size_t *written) {
  if (F == NULL || capacity < F->f.nitems || (h_fps == NULL && F->f.nitems > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST || F->f.nitems == 0) return gamq_qf_extract_sync(F, h_fps, capacity, written, NULL);
#if defined(__CUDACC__)
  {
    void *d = NULL;
    size_t bytes = (size_t)F->f.nitems * sizeof(uint64_t);
    gamq_status s = gamq__device_alloc(&F->allocator, &d, bytes, NULL);
    if (s == GAMQ_SUCCESS) s = gamq_qf_extract_sync(F, (uint64_t *)d, (size_t)F->f.nitems, written, NULL);
    if (s == GAMQ_SUCCESS && cudaMemcpy(h_fps, d, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) s = GAMQ_ERROR_CUDA;
    gamq__device_free(&F->allocator, d, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_qf_copy_bytes(const gamq_qf *F, void *h_out, size_t *bytes) {
  if (F == NULL || bytes == NULL || (h_out != NULL && *bytes < F->f.bytes)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (h_out != NULL) {
    if (F->backend == GAMQ_BACKEND_HOST) {
      memcpy(h_out, F->f.data, F->f.bytes);
    } else {
#if defined(__CUDACC__)
      if (cudaMemcpy(h_out, F->f.data, F->f.bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return GAMQ_ERROR_CUDA;
#else
      return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
    }
  }
  *bytes = F->f.bytes;
  return GAMQ_SUCCESS;
}

/* ---- save / load (the FILE FORMAT of section 6; its parts are in amq/qf/io.h) ---- */

GAMQ_DEF gamq_status gamq_qf_serialize(const gamq_qf *F, void *h_buf, size_t *bytes) {
  size_t need, pb;
  gamq_status s;
  if (F == NULL || bytes == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  need = GAMQ__QF_HEADER_BYTES + F->f.bytes;
  if (h_buf != NULL) {
    if (*bytes < need) return GAMQ_ERROR_INVALID_ARGUMENT;
    pb = F->f.bytes;
    s = gamq_qf_copy_bytes(F, (uint8_t *)h_buf + GAMQ__QF_HEADER_BYTES, &pb);
    if (s != GAMQ_SUCCESS) return s;
    gamq__qf_header_write(&F->f, (const uint8_t *)h_buf + GAMQ__QF_HEADER_BYTES, (uint8_t *)h_buf);
  }
  *bytes = need;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_deserialize(const gamq_qf_desc *desc, const void *h_buf, size_t bytes, gamq_qf **filter) {
  const uint8_t *buf = (const uint8_t *)h_buf;
  gamq__qf_header h;
  gamq_qf_desc d;
  gamq_qf *F = NULL;
  gamq_status s;
  if (h_buf == NULL || filter == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (!gamq__qf_header_read(buf, bytes, &h) || bytes - GAMQ__QF_HEADER_BYTES != h.payload ||
      gamq__fnv1a64(gamq__fnv1a64(0xcbf29ce484222325ull, buf, 64), buf + GAMQ__QF_HEADER_BYTES, (size_t)h.payload) !=
          h.checksum)
    return GAMQ_ERROR_BAD_FILE;
  s = gamq__qf_check_payload(&h, buf + GAMQ__QF_HEADER_BYTES);
  if (s != GAMQ_SUCCESS) return s;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  d.seed = h.seed;
  d.layout = h.packed ? GAMQ_QF_LAYOUT_PACKED : GAMQ_QF_LAYOUT_ALIGNED;
  s = gamq_qf_create(&d, (gamq_qf_kind)h.kind, h.q, h.r, &F);
  if (s != GAMQ_SUCCESS) return s;
  if (F->backend == GAMQ_BACKEND_HOST) {
    memcpy(F->f.data, buf + GAMQ__QF_HEADER_BYTES, F->f.bytes);
  } else {
#if defined(__CUDACC__)
    if (cudaMemcpy(F->f.data, buf + GAMQ__QF_HEADER_BYTES, F->f.bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
      gamq_qf_destroy(F);
      return GAMQ_ERROR_CUDA;
    }
#endif
  }
  F->f.nitems = h.count;
  *filter = F;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_save(const gamq_qf *F, const char *path) {
  size_t n = 0;
  uint8_t *buf;
  char *tmp = NULL, *target = NULL;
  const char *dest;
  unsigned attempt;
  int w = -1;
  gamq_status s;
  if (F == NULL || path == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  s = gamq__save_target(path, &target); /* a link: its target; not a regular file: refused */
  if (s != GAMQ_SUCCESS) return s;
  dest = target != NULL ? target : path;
  gamq_qf_serialize(F, NULL, &n);
  buf = (uint8_t *)GAMQ_MALLOC(n);
  if (buf == NULL) s = GAMQ_ERROR_OUT_OF_MEMORY;
  else s = gamq_qf_serialize(F, buf, &n);
  for (attempt = 0; s == GAMQ_SUCCESS && w == -1 && attempt < 16; ++attempt) { /* a fresh name, created exclusively */
    GAMQ_FREE(tmp);
    tmp = gamq__temp_name(dest, attempt); /* beside dest: the rename stays in its file system */
    if (tmp == NULL) s = GAMQ_ERROR_OUT_OF_MEMORY;
    else w = gamq__write_new_file(tmp, buf, n);
  }
  if (s == GAMQ_SUCCESS && w != 1) s = GAMQ_ERROR_IO;
  if (s == GAMQ_SUCCESS && rename(tmp, dest) != 0) { /* dest is as it was */
    remove(tmp);
    s = GAMQ_ERROR_IO;
  }
  GAMQ_FREE(tmp);
  GAMQ_FREE(buf);
  free(target); /* realpath's memory (NULL: none) */
  return s;
}

GAMQ_DEF gamq_status gamq_qf_load(const gamq_qf_desc *desc, const char *path, gamq_qf **filter) {
  const size_t first = (size_t)1 << 20; /* the first piece of the payload read */
  uint8_t head[GAMQ__QF_HEADER_BYTES], *buf = NULL;
  gamq__qf_header h;
  size_t got, n = 0, have = 0, cap = 0;
  gamq_status s = GAMQ_SUCCESS;
  FILE *fp;
  if (path == NULL || filter == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  fp = fopen(path, "rb");
  if (fp == NULL) return GAMQ_ERROR_IO;
  /* the header says how long the file must be */
  got = fread(head, 1, sizeof head, fp);
  if (ferror(fp)) s = GAMQ_ERROR_IO;
  else if (!gamq__qf_header_read(head, got, &h) || h.payload > (uint64_t)((size_t)-1 - sizeof head)) s = GAMQ_ERROR_BAD_FILE;
  if (s == GAMQ_SUCCESS) {
    n = sizeof head + (size_t)h.payload;
    cap = n - sizeof head < first ? n : sizeof head + first;
    buf = (uint8_t *)GAMQ_MALLOC(cap);
    if (buf == NULL) s = GAMQ_ERROR_OUT_OF_MEMORY;
    else memcpy(buf, head, sizeof head), have = sizeof head;
  }
  /* read it in pieces, the buffer doubling only while the file still has
     bytes: a header that claims more than the file holds costs no more
     than about twice the bytes that are there */
  while (s == GAMQ_SUCCESS && have < n) {
    if (have == cap) {
      const size_t grown = cap > n - cap ? n : 2 * cap;
      uint8_t *more = (uint8_t *)GAMQ_REALLOC(buf, grown);
      if (more == NULL) {
        s = GAMQ_ERROR_OUT_OF_MEMORY;
        break;
      }
      buf = more, cap = grown;
    }
    got = fread(buf + have, 1, cap - have, fp);
    have += got;
    if (ferror(fp)) s = GAMQ_ERROR_IO;
    else if (have < cap) break; /* the end of the file */
  }
  if (s == GAMQ_SUCCESS && (have != n || fgetc(fp) != EOF)) s = GAMQ_ERROR_BAD_FILE; /* truncated, or more after it */
  if (s == GAMQ_SUCCESS && ferror(fp)) s = GAMQ_ERROR_IO;
  fclose(fp);
  if (s == GAMQ_SUCCESS) s = gamq_qf_deserialize(desc, buf, n, filter);
  GAMQ_FREE(buf);
  return s;
}
