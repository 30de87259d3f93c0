/* amq/bloom/choose.h - the blocked Bloom filter's chooser: the tuning
   constants of the module, and gamq__bloom_choose, which turns a filter's
   options (its gamq_bloom_desc at creation) and a call's arrays into the
   plan that the entry points (amq/bloom/api.h) and the CUDA driver
   (amq/bloom/cuda.cuh) only read. The filter's shape (k, blocks) is not a
   choice of this kind: gamq_bloom_create computes it from n and eps
   (gamq__bloom_plan, amq/bloom/host.h). Rules: docs/bloom.md, "AUTO". */

/* ---- tuning constants ---- */

/* Threads a block of both kernels; not swept, the lookups and inserts at
   this shape are the "qf Bloom" rows of bench/results/qf_h200.md. */
#define GAMQ__BLOOM_THREADS 256
/* Keys a thread of the wide lookup (one 16- or 32-byte load of keys, the
   eight block loads of four keys in flight, one 32-bit store of four
   flags): bench/results/qf_h200.md ("qf Bloom" rows). The kernel's loads
   are written for four. */
#define GAMQ__BLOOM_VEC_KEYS 4

/* ---- the plan ---- */

enum { GAMQ__BLOOM_OP_CREATE = 0, GAMQ__BLOOM_OP_INSERT = 1, GAMQ__BLOOM_OP_LOOKUP = 2 };

/* (gamq__bloom_plan is the sizing: k and blocks for n keys at eps.) */
typedef struct gamq__bloom_choice {
  gamq_backend backend; /* CUDA or HOST (resolved at creation) */
  int vec;              /* CUDA lookup: GAMQ__BLOOM_VEC_KEYS keys a thread (gamq__bloom_lookup_kernel<K, true>) */
  int threads;          /* CUDA: threads a block */
  size_t items;         /* CUDA: the grid-stride loop's items (keys, or groups of keys with vec) */
} gamq__bloom_choice;

/* The plan of one call. op CREATE reads desc (NULL: the defaults); INSERT
   and LOOKUP read the filter F and the call's arrays (n keys of key_bytes
   each, found for a lookup). Rules:
     backend  CREATE: gamq_backend_resolve(desc.backend) (AUTO: CUDA when a
              device is present); after that, the filter's;
     vec      a CUDA lookup whose keys are GAMQ__BLOOM_VEC_KEYS * key_bytes
              aligned and found 4-byte aligned (cudaMalloc memory always
              is); else a key a thread;
     threads  GAMQ__BLOOM_THREADS.
   Returns GAMQ_SUCCESS or (CREATE) the status of the backend's resolution. */
static gamq_status gamq__bloom_choose(const gamq_bloom_desc *desc, const gamq_bloom *F, int op, const void *keys,
                                      int key_bytes, size_t n, const uint8_t *found, gamq__bloom_choice *plan) {
  memset(plan, 0, sizeof *plan);
  if (op == GAMQ__BLOOM_OP_CREATE)
    return gamq_backend_resolve(desc ? desc->backend : GAMQ_BACKEND_AUTO, &plan->backend);
  plan->backend = F->backend;
  if (plan->backend != GAMQ_BACKEND_CUDA) return GAMQ_SUCCESS;
  plan->threads = GAMQ__BLOOM_THREADS;
  plan->vec = op == GAMQ__BLOOM_OP_LOOKUP && (uintptr_t)keys % (GAMQ__BLOOM_VEC_KEYS * (size_t)key_bytes) == 0 &&
              (uintptr_t)found % 4 == 0;
  plan->items = plan->vec ? (n + GAMQ__BLOOM_VEC_KEYS - 1) / GAMQ__BLOOM_VEC_KEYS : n;
  return GAMQ_SUCCESS;
}
