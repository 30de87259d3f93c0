/* test_qf.cu - the public quotient-filter API (gpuamq.h section 6).

   Host tests (plain TESTs, run in CI): argument errors, the documented
   examples, a multiset model driven by random build / insert / delete /
   merge steps through the public calls (after every step: count, sorted
   extract, bytes equal to a fresh HOST build of the model, every
   stored key found, lookups exact on fingerprints, FULL leaving the bytes as
   they were), allocation failures.

   GPU tests (GPU_TEST): the CUDA backend against the HOST backend, byte for
   byte: builds of SQF r = 5, 13, 21, 29 and RSQF of many r, fills 0.1 .. 0.95,
   duplicate keys, all keys in one quotient, FULL, every build method, u32
   and u64 keys; lookups (zero false negatives, and equal to HOST on absent
   keys); extracts; random interleavings of every operation on both backends
   side by side. Outputs are poisoned before each run. RSQF shapes run in
   both layouts (ALIGNED, PACKED).

   A private copy of the implementation with the counting allocator. */
#include "counting_alloc.h"
#define GAMQ_MALLOC(sz) counting_malloc(sz)
#define GAMQ_FREE(p) counting_free(p)
#define GAMQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "internal_amq.h"

#include "testing.h"

#include <math.h>

#include <set>
#include <vector>

typedef std::multiset<uint64_t> qfm_model; /* fingerprints */

static const char *qfm_kind(gamq_qf_kind k, int layout = GAMQ_QF_LAYOUT_ALIGNED) {
  return k == GAMQ_QF_SQF ? "sqf" : layout == GAMQ_QF_LAYOUT_PACKED ? "rsqf packed" : "rsqf";
}

static gamq_qf *qfm_make(gamq_backend backend, gamq_qf_kind kind, int q, int r, uint64_t seed,
                         gamq_scan_method method = GAMQ_SCAN_AUTO, int layout = GAMQ_QF_LAYOUT_ALIGNED) {
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = backend, d.seed = seed, d.build_method = method, d.layout = (gamq_qf_layout)layout;
  gamq_qf *f = NULL;
  if (gamq_qf_create(&d, kind, q, r, &f) != GAMQ_SUCCESS) return NULL;
  return f;
}

static std::vector<uint8_t> qfm_bytes(const gamq_qf *f) {
  size_t n = 0;
  if (gamq_qf_copy_bytes(f, NULL, &n) != GAMQ_SUCCESS) return std::vector<uint8_t>();
  std::vector<uint8_t> b(n);
  if (gamq_qf_copy_bytes(f, b.data(), &n) != GAMQ_SUCCESS) b.clear();
  return b;
}

static uint64_t qfm_fp(const gamq_qf *f, uint64_t key) {
  uint64_t fp = 0;
  gamq_qf_fingerprint(f, key, &fp);
  return fp;
}

/* Does the multiset fit? slot_i = max(slot_{i-1} + 1, quotient_i) < nslots. */
static bool qfm_fits(const qfm_model &m, int r, uint64_t nslots) {
  uint64_t next = 0;
  for (qfm_model::const_iterator it = m.begin(); it != m.end(); ++it) {
    uint64_t q = *it >> r, slot = q > next ? q : next;
    if (slot >= nslots) return false;
    next = slot + 1;
  }
  return true;
}

/* The bytes the HOST backend builds from a multiset of fingerprints. */
static std::vector<uint8_t> qfm_reference_bytes(const gamq_qf_info &info, const qfm_model &m) {
  return amqt_qf_reference(info.kind, info.q, info.r, info.seed, info.layout == GAMQ_QF_LAYOUT_PACKED, m);
}

/* Everything a filter must agree with its model on. keys: keys known stored. */
static void qfm_check(const gamq_qf *f, const qfm_model &model, const std::vector<uint64_t> &keys, test_rng &rng,
                      const char *what) {
  gamq_qf_info info;
  CHECK(gamq_qf_get_info(f, &info) == GAMQ_SUCCESS);
  uint64_t count = ~(uint64_t)0;
  CHECK(gamq_qf_count(f, &count) == GAMQ_SUCCESS);
  CHECK_MSG(count == model.size() && info.count == count, "%s: count %llu, model %zu", what,
            (unsigned long long)count, model.size());
  std::vector<uint64_t> want(model.begin(), model.end()), got(model.size() + 1, 0xA5A5A5A5A5A5A5A5ull);
  size_t written = 12345;
  CHECK(gamq_qf_extract(f, got.data(), got.size(), &written) == GAMQ_SUCCESS);
  CHECK_EQ(written, want.size());
  CHECK_ARRAYS(want.data(), got.data(), want.size(), what);
  std::vector<uint8_t> ref = qfm_reference_bytes(info, model);
  CHECK_MSG(!ref.empty() && qfm_bytes(f) == ref, "%s: bytes differ from a fresh build of the model", what);
  /* zero false negatives on the stored keys, u64 and (where they fit) u32 */
  std::vector<uint8_t> found(keys.size() + 1, 0xA5);
  CHECK(gamq_qf_lookup_u64(f, keys.data(), keys.size(), found.data()) == GAMQ_SUCCESS);
  for (size_t i = 0; i < keys.size(); ++i) CHECK_MSG(found[i] == 1, "%s: stored key %zu not found", what, i);
  /* random keys: found exactly when the fingerprint is stored */
  std::vector<uint64_t> probe(300);
  for (size_t i = 0; i < probe.size(); ++i) probe[i] = i % 3 == 0 ? rng.next32() : rng.next();
  std::vector<uint8_t> pf(probe.size(), 0xA5);
  CHECK(gamq_qf_lookup_u64(f, probe.data(), probe.size(), pf.data()) == GAMQ_SUCCESS);
  for (size_t i = 0; i < probe.size(); ++i)
    CHECK_MSG(pf[i] == (model.count(qfm_fp(f, probe[i])) ? 1 : 0), "%s: lookup of a random key is wrong", what);
}

/* ---------------------------------------------------------------------------
   host tests
   ------------------------------------------------------------------------- */

TEST(qf, api_arguments) {
  gamq_qf *f = (gamq_qf *)0x1;
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST;
  /* q, r and kind */
  const int bad[][3] = {{GAMQ_QF_SQF, 0, 5},   {GAMQ_QF_SQF, 33, 5},  {GAMQ_QF_SQF, 10, 4},  {GAMQ_QF_SQF, 10, 6},
                        {GAMQ_QF_SQF, 10, 8},  {GAMQ_QF_SQF, 10, 30}, {GAMQ_QF_SQF, 10, 32}, {GAMQ_QF_RSQF, 10, 0},
                        {GAMQ_QF_RSQF, 10, 33}, {GAMQ_QF_RSQF, 0, 8}, {GAMQ_QF_RSQF, -1, 8}, {0, 10, 8},
                        {3, 10, 8}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    CHECK_MSG(gamq_qf_create(&d, (gamq_qf_kind)bad[i][0], bad[i][1], bad[i][2], &f) == GAMQ_ERROR_INVALID_ARGUMENT,
              "kind %d q %d r %d accepted", bad[i][0], bad[i][1], bad[i][2]);
    CHECK(f == (gamq_qf *)0x1);
  }
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 10, 8, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.build_method = (gamq_scan_method)5;
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 10, 8, &f) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.build_method = GAMQ_SCAN_AUTO, d.backend = (gamq_backend)7;
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 10, 8, &f) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.backend = GAMQ_BACKEND_HOST;
  d.layout = GAMQ_QF_LAYOUT_PACKED; /* an SQF is never PACKED */
  for (int r = 5; r <= 29; r += 8) CHECK(gamq_qf_create(&d, GAMQ_QF_SQF, 10, r, &f) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.layout = (gamq_qf_layout)2;
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 10, 8, &f) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.layout = (gamq_qf_layout)-1;
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 10, 8, &f) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.layout = GAMQ_QF_LAYOUT_ALIGNED;
  d.backend = GAMQ_BACKEND_CUDA;
  if (!g_test.have_gpu) CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 10, 8, &f) == GAMQ_ERROR_NO_DEVICE);
  CHECK(f == (gamq_qf *)0x1);
  /* the limits themselves are fine */
  const int good[][3] = {{GAMQ_QF_SQF, 1, 5}, {GAMQ_QF_SQF, 1, 13}, {GAMQ_QF_SQF, 1, 29}, {GAMQ_QF_RSQF, 1, 1},
                         {GAMQ_QF_RSQF, 1, 32}, {GAMQ_QF_RSQF, 12, 32}};
  d.backend = GAMQ_BACKEND_HOST;
  for (int layout = 0; layout < 2; ++layout)
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
      if (layout && good[i][0] == GAMQ_QF_SQF) continue;
      gamq_qf *g = NULL;
      d.layout = (gamq_qf_layout)layout;
      CHECK(gamq_qf_create(&d, (gamq_qf_kind)good[i][0], good[i][1], good[i][2], &g) == GAMQ_SUCCESS && g);
      gamq_qf_info info;
      CHECK(gamq_qf_get_info(g, &info) == GAMQ_SUCCESS);
      CHECK(info.kind == good[i][0] && info.q == good[i][1] && info.r == good[i][2] && info.count == 0);
      CHECK(info.backend == GAMQ_BACKEND_HOST && info.nslots % 64 == 0 && info.nslots >= ((uint64_t)1 << info.q));
      CHECK(info.layout == layout);
      const uint64_t nb = info.nslots / 64, r = (uint64_t)info.r;
      if (info.kind == GAMQ_QF_RSQF)
        CHECK(info.bytes == (layout ? (nb * (17 + 8 * r) + 7) / 8 * 8 : nb * ((24 + 8 * r + 63) / 64 * 64)));
      CHECK(gamq_qf_destroy(g) == GAMQ_SUCCESS);
    }
  d.layout = GAMQ_QF_LAYOUT_ALIGNED;
  CHECK(gamq_qf_destroy(NULL) == GAMQ_SUCCESS);

  /* every call on a NULL filter, NULL arrays, oversized batches */
  gamq_qf *h = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 8, 8, 1), *o = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 8, 7, 1);
  gamq_qf *s2 = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 8, 8, 2);
  gamq_qf *pk = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 8, 8, 1, GAMQ_SCAN_AUTO, GAMQ_QF_LAYOUT_PACKED);
  CHECK(h && o && s2 && pk);
  uint64_t k64[3] = {1, 2, 3}, u = 0, del = 77;
  uint32_t k32[3] = {1, 2, 3};
  uint8_t found[3];
  double lf;
  size_t nb = 0, w = 0;
  gamq_qf_info info;
  CHECK(gamq_qf_build_u64(h, k64, 3) == GAMQ_SUCCESS);
  std::vector<uint8_t> before = qfm_bytes(h);
  CHECK(gamq_qf_count(NULL, &u) == GAMQ_ERROR_INVALID_ARGUMENT && gamq_qf_count(h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_load_factor(NULL, &lf) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_load_factor(h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_get_info(NULL, &info) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_get_info(h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_fingerprint(NULL, 1, &u) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_fingerprint(h, 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_build_u64(NULL, k64, 3) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_build_u32(NULL, k32, 3) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_build_u64_sync(NULL, k64, 3, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_build_u64(h, NULL, 3) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_build_u32_sync(h, NULL, 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_build_u64(h, k64, GAMQ_QF_MAX_BATCH + 1) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_insert_u64(NULL, k64, 3) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_insert_u32(h, NULL, 3) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_insert_u64_sync(h, k64, GAMQ_QF_MAX_BATCH + 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_delete_u64(NULL, k64, 3, &del) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_delete_u32_sync(h, NULL, 2, &del, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(del == 77);
  CHECK(gamq_qf_lookup_u64(NULL, k64, 3, found) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_lookup_u64(h, NULL, 3, found) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_lookup_u32(h, k32, 3, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_lookup_u64_sync(h, k64, 3, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_lookup_u64(h, k64, GAMQ_QF_MAX_BATCH + 1, found) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_merge_sync(NULL, h, h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_merge_sync(h, NULL, h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_merge_sync(h, h, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_merge_sync(h, h, o, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);  /* other r */
  CHECK(gamq_qf_merge_sync(h, s2, h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT); /* other seed */
  CHECK(gamq_qf_merge_sync(h, h, pk, NULL) == GAMQ_ERROR_INVALID_ARGUMENT); /* other layout */
  CHECK(gamq_qf_merge_sync(pk, h, h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_merge_sync(pk, pk, h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_extract(NULL, k64, 3, &w) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_extract(h, k64, 2, &w) == GAMQ_ERROR_INVALID_ARGUMENT); /* room for 2 of 3 */
  CHECK(gamq_qf_extract(h, NULL, 3, &w) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_extract_sync(h, NULL, 3, &w, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_copy_bytes(NULL, NULL, &nb) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_copy_bytes(h, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  nb = before.size() - 1;
  std::vector<uint8_t> small(before.size());
  CHECK(gamq_qf_copy_bytes(h, small.data(), &nb) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(qfm_bytes(h) == before);
  uint64_t c = 0;
  CHECK(gamq_qf_count(h, &c) == GAMQ_SUCCESS && c == 3);
  /* empty batches: fine, nothing changes, NULL arrays allowed */
  CHECK(gamq_qf_insert_u64(h, NULL, 0) == GAMQ_SUCCESS);
  CHECK(gamq_qf_delete_u32(h, NULL, 0, &del) == GAMQ_SUCCESS && del == 0);
  CHECK(gamq_qf_lookup_u64(h, NULL, 0, NULL) == GAMQ_SUCCESS);
  CHECK(qfm_bytes(h) == before);
  CHECK(gamq_qf_build_u64(h, NULL, 0) == GAMQ_SUCCESS);
  CHECK(gamq_qf_count(h, &c) == GAMQ_SUCCESS && c == 0);
  CHECK(gamq_qf_extract(h, NULL, 0, &w) == GAMQ_SUCCESS && w == 0);
  gamq_qf_destroy(h);
  gamq_qf_destroy(o);
  gamq_qf_destroy(s2);
  uint64_t cp = 9;
  CHECK(gamq_qf_count(pk, &cp) == GAMQ_SUCCESS && cp == 0); /* the failed merges left it alone */
  gamq_qf_destroy(pk);
  /* the statuses have sentences, the backends names */
  CHECK(strcmp(gamq_status_string(GAMQ_ERROR_FULL), "unknown status") != 0);
  CHECK(strcmp(gamq_status_string(GAMQ_ERROR_NOT_IMPLEMENTED), "unknown status") != 0);
  CHECK(strcmp(gamq_status_string((gamq_status)12345), "unknown status") == 0);
  CHECK(strcmp(gamq_backend_name(GAMQ_BACKEND_HOST), "host") == 0);

  /* the _sync forms on a HOST filter take host arrays: the convenience forms' answers */
  gamq_qf *a = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 8, 8, 4), *b = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 8, 8, 4);
  CHECK(a && b);
  uint64_t keys[5] = {1, 2, 3, 4, 5}, da = 0, db = 0;
  uint32_t keys32[5] = {1, 2, 3, 4, 5};
  CHECK(gamq_qf_build_u32_sync(a, keys32, 5, NULL) == GAMQ_SUCCESS && gamq_qf_build_u32(b, keys32, 5) == GAMQ_SUCCESS);
  CHECK(gamq_qf_insert_u32_sync(a, keys32, 2, NULL) == GAMQ_SUCCESS && gamq_qf_insert_u32(b, keys32, 2) == GAMQ_SUCCESS);
  CHECK(gamq_qf_insert_u64_sync(a, keys + 2, 1, NULL) == GAMQ_SUCCESS && gamq_qf_insert_u64(b, keys + 2, 1) == GAMQ_SUCCESS);
  CHECK(gamq_qf_delete_u64_sync(a, keys, 3, &da, NULL) == GAMQ_SUCCESS && gamq_qf_delete_u64(b, keys, 3, &db) == GAMQ_SUCCESS);
  CHECK(da == 3 && db == 3);
  CHECK(gamq_qf_delete_u32_sync(a, keys32 + 3, 1, &da, NULL) == GAMQ_SUCCESS &&
        gamq_qf_delete_u32(b, keys32 + 3, 1, &db) == GAMQ_SUCCESS && da == 1 && db == 1);
  CHECK(qfm_bytes(a) == qfm_bytes(b));
  uint8_t fs[5], fs32[5], fsort[5], fsort32[5], fb[5];
  CHECK(gamq_qf_lookup_u64_sync(a, keys, 5, fs, NULL) == GAMQ_SUCCESS);
  CHECK(gamq_qf_lookup_u32_sync(a, keys32, 5, fs32, NULL) == GAMQ_SUCCESS);
  CHECK(gamq_qf_lookup_sorted_u64_sync(a, keys, 5, fsort, NULL) == GAMQ_SUCCESS); /* HOST: the plain lookup */
  CHECK(gamq_qf_lookup_sorted_u32_sync(a, keys32, 5, fsort32, NULL) == GAMQ_SUCCESS);
  CHECK(gamq_qf_lookup_u64(b, keys, 5, fb) == GAMQ_SUCCESS);
  CHECK(fb[0] == 1 && fb[1] == 1 && fb[2] == 1 && fb[4] == 1); /* 1, 2 and 3 twice in, once out; 5 untouched */
  CHECK(!memcmp(fs, fb, 5) && !memcmp(fs32, fb, 5) && !memcmp(fsort, fb, 5) && !memcmp(fsort32, fb, 5));
  uint64_t ea[8], eb[8];
  size_t wa = 0, wb = 0;
  CHECK(gamq_qf_extract_sync(a, ea, 8, &wa, NULL) == GAMQ_SUCCESS && gamq_qf_extract(b, eb, 8, &wb) == GAMQ_SUCCESS);
  CHECK(wa == 4 && wb == 4 && !memcmp(ea, eb, 4 * sizeof(uint64_t)));
  gamq_qf_destroy(a);
  gamq_qf_destroy(b);
}

/* The worked examples of the header, as written there. */
TEST(qf, documented_examples) {
  gamq_qf *f = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_SQF, 4, 5, 0);
  uint64_t fp = 0, c = 0, fps[2];
  double lf = 0;
  size_t w = 0;
  CHECK(f);
  CHECK(gamq_qf_fingerprint(f, 0, &fp) == GAMQ_SUCCESS);
  CHECK_EQ(amqt_hash64(0, 0), 0xe220a8397b1dcdafull);
  CHECK_EQ(fp, 0x1c4);
  uint64_t zero[2] = {0, 0};
  CHECK(gamq_qf_build_u64(f, zero, 2) == GAMQ_SUCCESS);
  CHECK(gamq_qf_extract(f, fps, 2, &w) == GAMQ_SUCCESS && w == 2 && fps[0] == 0x1c4 && fps[1] == 0x1c4);
  uint32_t k4[4] = {1, 2, 2, 3};
  CHECK(gamq_qf_build_u32(f, k4, 4) == GAMQ_SUCCESS);
  CHECK(gamq_qf_count(f, &c) == GAMQ_SUCCESS && c == 4);
  CHECK(gamq_qf_load_factor(f, &lf) == GAMQ_SUCCESS && lf == 0.25);
  gamq_qf_destroy(f);

  f = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 10, 8, 0);
  CHECK(f);
  uint64_t keys[4] = {5, 9, 9, 12}, probe[4] = {9, 5, 7, 12}, more[3] = {9, 40, 41}, gone[4] = {9, 9, 12, 77};
  uint8_t found[4];
  CHECK(gamq_qf_build_u64(f, keys, 4) == GAMQ_SUCCESS);
  CHECK(gamq_qf_lookup_u64(f, probe, 4, found) == GAMQ_SUCCESS);
  CHECK(found[0] == 1 && found[1] == 1 && found[3] == 1);
  CHECK(found[2] == (qfm_fp(f, 7) == qfm_fp(f, 5) || qfm_fp(f, 7) == qfm_fp(f, 9) || qfm_fp(f, 7) == qfm_fp(f, 12)));
  CHECK(gamq_qf_insert_u64(f, more, 3) == GAMQ_SUCCESS);
  CHECK(gamq_qf_count(f, &c) == GAMQ_SUCCESS && c == 7);
  uint64_t d = 0;
  CHECK(gamq_qf_delete_u64(f, gone, 4, &d) == GAMQ_SUCCESS);
  /* 77 is skipped unless its fingerprint collides with a stored one */
  uint64_t f77 = qfm_fp(f, 77);
  bool collide = f77 == qfm_fp(f, 5) || f77 == qfm_fp(f, 9) || f77 == qfm_fp(f, 40) || f77 == qfm_fp(f, 41);
  CHECK_EQ(d, collide ? 4 : 3);
  CHECK(gamq_qf_lookup_u64(f, keys, 2, found) == GAMQ_SUCCESS && found[1] == 1); /* 9 still present */
  /* u32 and u64 keys are the same keys */
  uint32_t k32 = 9;
  CHECK(gamq_qf_lookup_u32(f, &k32, 1, found) == GAMQ_SUCCESS && found[0] == 1);
  gamq_qf_destroy(f);

  gamq_qf *a = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 6, 4, 3), *b = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 6, 4, 3);
  uint64_t ka[2] = {1, 2}, kb[2] = {2, 3};
  CHECK(a && b);
  CHECK(gamq_qf_build_u64(a, ka, 2) == GAMQ_SUCCESS && gamq_qf_build_u64(b, kb, 2) == GAMQ_SUCCESS);
  CHECK(gamq_qf_merge_sync(a, a, b, NULL) == GAMQ_SUCCESS);
  CHECK(gamq_qf_count(a, &c) == GAMQ_SUCCESS && c == 4);
  CHECK(gamq_qf_count(b, &c) == GAMQ_SUCCESS && c == 2);
  gamq_qf_destroy(a);
  gamq_qf_destroy(b);

  /* gamq_qf_create's PACKED example: q = 20, r = 5 */
  gamq_qf_info ia, ip;
  a = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 20, 5, 0);
  b = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 20, 5, 0, GAMQ_SCAN_AUTO, GAMQ_QF_LAYOUT_PACKED);
  CHECK(a && b && gamq_qf_get_info(a, &ia) == GAMQ_SUCCESS && gamq_qf_get_info(b, &ip) == GAMQ_SUCCESS);
  CHECK(ia.nslots == 16544 * 64 && ip.nslots == ia.nslots);
  CHECK_EQ(ip.bytes, 943008);
  CHECK_EQ(ia.bytes, 1058816);
  CHECK(ia.layout == GAMQ_QF_LAYOUT_ALIGNED && ip.layout == GAMQ_QF_LAYOUT_PACKED);
  gamq_qf_destroy(a);
  gamq_qf_destroy(b);
}

/* Table I of "Quotient Filters: Approximate Membership Queries on the GPU"
   (Geil, Farach-Colton, Owens, IPDPS 2018) through the public API: bytes an
   item of a PACKED RSQF at 95% fill (bytes / nslots / 0.95), and a filter
   filled so still works. */
TEST(qf, packed_table1_bytes_per_item) {
  test_rng rng = test_rng_for("qf.packed_table1");
  const int rs[3] = {5, 13, 21};
  const double want[3] = {0.9375, 1.990, 3.043};
  for (int i = 0; i < 3; ++i) {
    gamq_qf *f = qfm_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 16, rs[i], rng.next(), GAMQ_SCAN_AUTO, GAMQ_QF_LAYOUT_PACKED);
    gamq_qf_info info;
    CHECK(f && gamq_qf_get_info(f, &info) == GAMQ_SUCCESS);
    const double per_item = (double)info.bytes / (double)info.nslots / 0.95;
    CHECK_MSG(fabs(per_item - want[i]) < 5e-4, "r=%d: %.5f bytes an item, want %.4f", rs[i], per_item, want[i]);
    std::vector<uint64_t> keys((size_t)(0.95 * (double)info.nslots));
    for (size_t k = 0; k < keys.size(); ++k) keys[k] = rng.next();
    CHECK(gamq_qf_build_u64(f, keys.data(), keys.size()) == GAMQ_SUCCESS);
    std::vector<uint8_t> found(keys.size(), 0);
    CHECK(gamq_qf_lookup_u64(f, keys.data(), keys.size(), found.data()) == GAMQ_SUCCESS);
    size_t hits = 0;
    for (size_t k = 0; k < keys.size(); ++k) hits += found[k];
    CHECK_EQ(hits, keys.size());
    gamq_qf_destroy(f);
  }
}

/* Keys drawn for a filter: uniform, duplicates (a small pool), or all in one
   quotient (rejection sampling; small q only). */
enum { QK_UNIFORM, QK_DUPLICATES, QK_ONE_QUOTIENT, QK_SAME_KEY, QK_MODES };
static const char *qk_name(int m) {
  static const char *n[] = {"uniform", "duplicates", "one-quotient", "same-key"};
  return n[m];
}
struct qk_gen {
  int mode, q, r; /* the shape and seed are copied: filters come and go (merges swap them) */
  uint64_t seed, target_q, same;
  std::vector<uint64_t> pool;
  qk_gen(int m, const gamq_qf *filter, int rbits, size_t n, test_rng &rng) : mode(m), r(rbits) {
    gamq_qf_info info;
    gamq_qf_get_info(filter, &info);
    q = info.q, seed = info.seed;
    target_q = amqt_fingerprint_of(rng.next(), seed, q, r) >> r;
    same = rng.next();
    for (size_t i = 0; i < n / 4 + 1; ++i) pool.push_back(rng.next());
  }
  uint64_t next(test_rng &rng) {
    switch (mode) {
      case QK_DUPLICATES: return pool[rng.below(pool.size())];
      case QK_SAME_KEY: return same;
      case QK_ONE_QUOTIENT:
        for (;;) {
          uint64_t k = rng.next();
          if (amqt_fingerprint_of(k, seed, q, r) >> r == target_q) return k;
        }
      default: return rng.next();
    }
  }
};

/* Random interleavings of the public operations on the HOST backend. */
static void qfm_host_run(gamq_qf_kind kind, int layout, int q, int r, int mode, int steps, test_rng &rng) {
  char what[200];
  uint64_t seed = rng.next();
  gamq_qf *f = qfm_make(GAMQ_BACKEND_HOST, kind, q, r, seed, (gamq_scan_method)rng.below(5), layout);
  CHECK(f);
  gamq_qf_info info;
  gamq_qf_get_info(f, &info);
  const uint64_t cap = info.nslots;
  qk_gen gen(mode, f, r, (size_t)cap, rng);
  qfm_model model;
  std::multiset<uint64_t> keys; /* the keys whose copies the model holds */
  for (int step = 0; step < steps && !g_test.failed; ++step) {
    int op = (int)rng.below(5);
    snprintf(what, sizeof what, "host %s q=%d r=%d %s step %d op %d", qfm_kind(kind, layout), q, r, qk_name(mode), step,
             op);
    std::vector<uint8_t> before = qfm_bytes(f);
    std::vector<uint64_t> batch;
    bool use32 = rng.below(2) != 0;
    size_t n = op == 0 ? (size_t)rng.below(cap + cap / 8 + 2) : (size_t)rng.below(cap / 4 + 3);
    for (size_t i = 0; i < n; ++i) {
      uint64_t k = (op == 2 || op == 1) && !keys.empty() && rng.below(2) ? *keys.begin() : gen.next(rng);
      if (op == 2 && !keys.empty() && rng.below(4)) { /* mostly stored keys */
        std::multiset<uint64_t>::iterator it = keys.begin();
        std::advance(it, (long)rng.below(std::min<uint64_t>(keys.size(), 64)));
        k = *it;
      }
      batch.push_back(use32 ? (uint32_t)k : k);
    }
    std::vector<uint32_t> b32(batch.begin(), batch.end());
    gamq_status s;
    if (op == 0 || op == 1) { /* build or insert */
      qfm_model m2 = op == 0 ? qfm_model() : model;
      for (size_t i = 0; i < n; ++i) m2.insert(qfm_fp(f, batch[i]));
      bool fits = qfm_fits(m2, r, cap);
      if (op == 0) s = use32 ? gamq_qf_build_u32(f, b32.data(), n) : gamq_qf_build_u64(f, batch.data(), n);
      else s = use32 ? gamq_qf_insert_u32(f, b32.data(), n) : gamq_qf_insert_u64(f, batch.data(), n);
      CHECK_MSG(s == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: status %d, fits %d", what, (int)s, (int)fits);
      if (s == GAMQ_SUCCESS) {
        model.swap(m2);
        if (op == 0) keys.clear();
        keys.insert(batch.begin(), batch.end());
      } else {
        CHECK_MSG(qfm_bytes(f) == before, "%s: FULL changed the filter", what);
      }
    } else if (op == 2) { /* delete */
      uint64_t expect = 0, del = ~(uint64_t)0;
      for (size_t i = 0; i < n; ++i) {
        qfm_model::iterator it = model.find(qfm_fp(f, batch[i]));
        if (it != model.end()) model.erase(it), ++expect;
        std::multiset<uint64_t>::iterator kt = keys.find(batch[i]);
        if (kt != keys.end()) keys.erase(kt);
      }
      s = use32 ? gamq_qf_delete_u32(f, b32.data(), n, &del) : gamq_qf_delete_u64(f, batch.data(), n, &del);
      CHECK(s == GAMQ_SUCCESS);
      CHECK_EQ(del, expect);
      /* a deleted fingerprint may have belonged to another key that collides:
         keep only keys whose fingerprint is still stored often enough */
      std::multiset<uint64_t> k2;
      qfm_model left = model;
      for (std::multiset<uint64_t>::iterator it = keys.begin(); it != keys.end(); ++it) {
        qfm_model::iterator mt = left.find(qfm_fp(f, *it));
        if (mt != left.end()) left.erase(mt), k2.insert(*it);
      }
      keys.swap(k2);
    } else { /* merge with a second filter, into f (either order) or into a third */
      gamq_qf *g = qfm_make(GAMQ_BACKEND_HOST, kind, q, r, seed, GAMQ_SCAN_AUTO, layout);
      CHECK(g);
      if (gamq_qf_build_u64(g, batch.data(), n) != GAMQ_SUCCESS) {
        gamq_qf_destroy(g);
        continue;
      }
      qfm_model m2 = model;
      for (size_t i = 0; i < n; ++i) m2.insert(qfm_fp(f, batch[i]));
      bool fits = qfm_fits(m2, r, cap);
      int how = (int)rng.below(3);
      gamq_qf *h = how == 2 ? qfm_make(GAMQ_BACKEND_HOST, kind, q, r, seed, GAMQ_SCAN_AUTO, layout) : NULL;
      s = how == 0 ? gamq_qf_merge_sync(f, f, g, NULL) : how == 1 ? gamq_qf_merge_sync(f, g, f, NULL)
                                                                 : gamq_qf_merge_sync(h, g, f, NULL);
      CHECK_MSG(s == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: merge status %d", what, (int)s);
      if (s == GAMQ_SUCCESS) {
        model.swap(m2);
        keys.insert(batch.begin(), batch.end());
        if (h) std::swap(f, h);
      } else {
        CHECK_MSG(qfm_bytes(f) == before, "%s: FULL merge changed the filter", what);
      }
      gamq_qf_destroy(g);
      gamq_qf_destroy(h);
    }
    CHECK_OK_SO_FAR();
    std::vector<uint64_t> kv(keys.begin(), keys.end());
    qfm_check(f, model, kv, rng, what);
  }
  gamq_qf_destroy(f);
}

TEST(qf, host_multiset_model) {
  test_rng rng = test_rng_for("qf.host_multiset_model");
  const int shapes[][3] = {{GAMQ_QF_SQF, 6, 5},   {GAMQ_QF_SQF, 8, 13},  {GAMQ_QF_SQF, 5, 29},
                           {GAMQ_QF_RSQF, 6, 1},  {GAMQ_QF_RSQF, 8, 5},  {GAMQ_QF_RSQF, 7, 8},
                           {GAMQ_QF_RSQF, 6, 13}, {GAMQ_QF_RSQF, 9, 20}, {GAMQ_QF_RSQF, 5, 32}};
  for (int layout = 0; layout < 2; ++layout) /* RSQF shapes in both layouts */
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && !g_test.failed; ++s)
      for (int mode = 0; mode < QK_MODES && !g_test.failed; ++mode)
        if (!layout || shapes[s][0] == GAMQ_QF_RSQF)
          qfm_host_run((gamq_qf_kind)shapes[s][0], layout, shapes[s][1], shapes[s][2], mode, 25, rng);
}

/* Allocation failures: every host allocation of a call fails once in turn;
   the call says OUT_OF_MEMORY, the filter is unchanged, nothing leaks. */
TEST(qf, host_allocation_failure) {
  test_rng rng = test_rng_for("qf.host_allocation_failure");
  for (int shape = 0; shape < 3; ++shape) { /* SQF, RSQF, RSQF PACKED */
    const int kind = shape ? GAMQ_QF_RSQF : GAMQ_QF_SQF, layout = shape == 2;
    gamq_qf *f = qfm_make(GAMQ_BACKEND_HOST, (gamq_qf_kind)kind, 8, 13, 5, GAMQ_SCAN_AUTO, layout);
    gamq_qf *g = qfm_make(GAMQ_BACKEND_HOST, (gamq_qf_kind)kind, 8, 13, 5, GAMQ_SCAN_AUTO, layout);
    CHECK(f && g);
    std::vector<uint64_t> k(150), more(100);
    for (size_t i = 0; i < k.size(); ++i) k[i] = rng.next();
    for (size_t i = 0; i < more.size(); ++i) more[i] = rng.next();
    CHECK(gamq_qf_build_u64(f, k.data(), k.size()) == GAMQ_SUCCESS);
    CHECK(gamq_qf_build_u64(g, more.data(), more.size()) == GAMQ_SUCCESS);
    std::vector<uint8_t> before = qfm_bytes(f);
    for (int op = 0; op < 3; ++op) {
      long long at = 0;
      for (;; ++at) {
        long long live = g_alloc_live;
        g_alloc_fail_at = g_alloc_calls + at;
        gamq_status s = op == 0 ? gamq_qf_build_u64(f, more.data(), more.size())
                        : op == 1 ? gamq_qf_insert_u64(f, more.data(), more.size())
                                  : gamq_qf_merge_sync(f, f, g, NULL);
        bool failed_one = g_alloc_fail_at < g_alloc_calls; /* the failing call happened */
        g_alloc_fail_at = -1;
        CHECK_EQ(g_alloc_live, live);
        if (!failed_one) {
          CHECK(s == GAMQ_SUCCESS);
          CHECK(gamq_qf_build_u64(f, k.data(), k.size()) == GAMQ_SUCCESS); /* back to the start */
          break;
        }
        CHECK_MSG(s == GAMQ_ERROR_OUT_OF_MEMORY, "op %d, allocation %lld: status %d", op, at, (int)s);
        CHECK_MSG(qfm_bytes(f) == before, "op %d, allocation %lld: the filter changed", op, at);
      }
      CHECK_MSG(at >= 2, "op %d made only %lld allocations", op, at); /* the loop did test something */
    }
    gamq_qf *h = (gamq_qf *)0x1;
    g_alloc_fail_at = g_alloc_calls;
    gamq_status cs = gamq_qf_create(NULL, GAMQ_QF_RSQF, 8, 8, &h); /* the struct itself */
    g_alloc_fail_at = -1;
    CHECK(cs == GAMQ_ERROR_OUT_OF_MEMORY && h == (gamq_qf *)0x1);
    gamq_qf_destroy(f);
    gamq_qf_destroy(g);
  }
}

/* ---------------------------------------------------------------------------
   GPU tests: CUDA against HOST, byte for byte
   ------------------------------------------------------------------------- */
#if defined(__CUDACC__)

/* A CUDA filter and a HOST filter of one shape, and the checks between them. */
struct qf_pair {
  gamq_qf *c, *h;
  qf_pair(gamq_qf_kind kind, int q, int r, uint64_t seed, gamq_scan_method m = GAMQ_SCAN_AUTO,
          int layout = GAMQ_QF_LAYOUT_ALIGNED)
      : c(qfm_make(GAMQ_BACKEND_CUDA, kind, q, r, seed, m, layout)),
        h(qfm_make(GAMQ_BACKEND_HOST, kind, q, r, seed, m, layout)) {}
  ~qf_pair() {
    gamq_qf_destroy(c);
    gamq_qf_destroy(h);
  }
  bool ok() const { return c && h; }
};

/* Same bytes, same count, same extract (device output poisoned first). */
static void qf_same(const qf_pair &p, const char *what) {
  std::vector<uint8_t> bc = qfm_bytes(p.c), bh = qfm_bytes(p.h);
  CHECK_MSG(!bh.empty() && bc.size() == bh.size(), "%s: sizes %zu / %zu", what, bc.size(), bh.size());
  size_t first = 0;
  while (first < bh.size() && bc[first] == bh[first]) ++first;
  CHECK_MSG(first == bh.size(), "%s: CUDA bytes differ from HOST at byte %zu of %zu (cuda %02x, host %02x)", what,
            first, bh.size(), first < bc.size() ? bc[first] : 0, first < bh.size() ? bh[first] : 0);
  uint64_t cc = 1, ch = 2;
  CHECK(gamq_qf_count(p.c, &cc) == GAMQ_SUCCESS && gamq_qf_count(p.h, &ch) == GAMQ_SUCCESS);
  CHECK_MSG(cc == ch, "%s: count %llu / %llu", what, (unsigned long long)cc, (unsigned long long)ch);
  std::vector<uint64_t> eh(ch + 1), ec;
  size_t wh = 0, wc = 0;
  CHECK(gamq_qf_extract(p.h, eh.data(), eh.size(), &wh) == GAMQ_SUCCESS && wh == ch);
  dbuf<uint64_t> d(cc + 1);
  CHECK(d.ok());
  CHECK(gamq_qf_extract_sync(p.c, d.p, cc + 1, &wc, NULL) == GAMQ_SUCCESS && wc == cc);
  CUDA_CHECK(d.download(ec));
  CHECK_ARRAYS(eh.data(), ec.data(), ch, what);
  CHECK_MSG(ec[cc] == 0xA5A5A5A5A5A5A5A5ull, "%s: extract wrote past the count", what);
}

/* Lookups of the stored keys and of random ones on both backends, u32 and
   u64, device and host-array forms: equal, and no false negatives. */
static void qf_same_lookups(const qf_pair &p, const std::vector<uint64_t> &stored, test_rng &rng, const char *what) {
  std::vector<uint64_t> keys(stored);
  for (size_t i = 0; i < stored.size() / 2 + 100; ++i) keys.push_back(rng.next());
  std::vector<uint32_t> k32(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) k32[i] = (uint32_t)keys[i];
  const size_t n = keys.size();
  std::vector<uint8_t> fh(n, 0xA5), fh32(n, 0xA5), fc, fc32, fca(n, 0xA5);
  CHECK(gamq_qf_lookup_u64(p.h, keys.data(), n, fh.data()) == GAMQ_SUCCESS);
  CHECK(gamq_qf_lookup_u32(p.h, k32.data(), n, fh32.data()) == GAMQ_SUCCESS);
  dbuf<uint64_t> dk(n);
  dbuf<uint32_t> dk32(n);
  dbuf<uint8_t> df(n), df32(n);
  CHECK(dk.ok() && dk32.ok() && df.ok() && df32.ok());
  CUDA_CHECK(dk.upload(keys));
  CUDA_CHECK(dk32.upload(k32));
  CHECK(gamq_qf_lookup_u64_sync(p.c, dk.p, n, df.p, NULL) == GAMQ_SUCCESS);
  CHECK(gamq_qf_lookup_u32_sync(p.c, dk32.p, n, df32.p, NULL) == GAMQ_SUCCESS);
  CHECK(gamq_qf_lookup_u64(p.c, keys.data(), n, fca.data()) == GAMQ_SUCCESS);
  CUDA_CHECK(df.download(fc));
  CUDA_CHECK(df32.download(fc32));
  for (size_t i = 0; i < stored.size(); ++i) CHECK_MSG(fc[i] == 1, "%s: CUDA false negative at %zu", what, i);
  CHECK_ARRAYS(fh.data(), fc.data(), n, what);
  CHECK_ARRAYS(fh.data(), fca.data(), n, what);
  CHECK_ARRAYS(fh32.data(), fc32.data(), n, what);
}

/* Build the same keys on both (CUDA through the device form), compare. */
static void qf_build_both(qf_pair &p, const std::vector<uint64_t> &keys, bool use32, const char *what,
                          gamq_status *status = NULL) {
  std::vector<uint8_t> before = qfm_bytes(p.c);
  gamq_status sh, sc;
  if (use32) {
    std::vector<uint32_t> k32(keys.begin(), keys.end());
    dbuf<uint32_t> d(k32.size());
    CHECK(d.ok());
    CUDA_CHECK(d.upload(k32));
    sh = gamq_qf_build_u32(p.h, k32.data(), k32.size());
    sc = gamq_qf_build_u32_sync(p.c, d.p, k32.size(), NULL);
  } else {
    dbuf<uint64_t> d(keys.size());
    CHECK(d.ok());
    CUDA_CHECK(d.upload(keys));
    sh = gamq_qf_build_u64(p.h, keys.data(), keys.size());
    sc = gamq_qf_build_u64_sync(p.c, d.p, keys.size(), NULL);
  }
  if (status) *status = sh;
  CHECK_MSG(sc == sh, "%s: CUDA status %d, HOST %d", what, (int)sc, (int)sh);
  if (sc == GAMQ_ERROR_FULL) CHECK_MSG(qfm_bytes(p.c) == before, "%s: FULL changed the CUDA filter", what);
}

/* kind, r, layout */
#define QF_P GAMQ_QF_LAYOUT_PACKED
static const int qf_gpu_shapes[][3] = {
    {GAMQ_QF_SQF, 5, 0},     {GAMQ_QF_SQF, 13, 0},    {GAMQ_QF_SQF, 21, 0},    {GAMQ_QF_SQF, 29, 0},
    {GAMQ_QF_RSQF, 1, 0},    {GAMQ_QF_RSQF, 3, 0},    {GAMQ_QF_RSQF, 5, 0},    {GAMQ_QF_RSQF, 8, 0},
    {GAMQ_QF_RSQF, 13, 0},   {GAMQ_QF_RSQF, 20, 0},   {GAMQ_QF_RSQF, 29, 0},   {GAMQ_QF_RSQF, 32, 0},
    {GAMQ_QF_RSQF, 1, QF_P}, {GAMQ_QF_RSQF, 3, QF_P}, {GAMQ_QF_RSQF, 5, QF_P}, {GAMQ_QF_RSQF, 8, QF_P},
    {GAMQ_QF_RSQF, 13, QF_P}, {GAMQ_QF_RSQF, 21, QF_P}, {GAMQ_QF_RSQF, 32, QF_P}};
enum { QF_GPU_SHAPES = sizeof qf_gpu_shapes / sizeof qf_gpu_shapes[0] };

/* Builds at fills 0.1 .. 0.95 (and past FULL), every key mode, u32 / u64. */
GPU_TEST(qf, cuda_build_matches_host) {
  test_rng rng = test_rng_for("qf.cuda_build_matches_host");
  const double fills[] = {0.1, 0.5, 0.7, 0.9, 0.95, 1.0, 1.1};
  char what[200];
  for (int s = 0; s < QF_GPU_SHAPES && !g_test.failed; ++s) {
    const int qs[] = {1, 6, 10, 13, std::min(16, g_test.max_log2 - 2)};
    for (int qi = 0; qi < 5 && !g_test.failed; ++qi) {
      const int q = qs[qi], r = qf_gpu_shapes[s][1], layout = qf_gpu_shapes[s][2];
      qf_pair p((gamq_qf_kind)qf_gpu_shapes[s][0], q, r, rng.next(), GAMQ_SCAN_AUTO, layout);
      CHECK(p.ok());
      gamq_qf_info info;
      gamq_qf_get_info(p.h, &info);
      for (int mode = 0; mode < QK_MODES && !g_test.failed; ++mode) {
        if (mode == QK_ONE_QUOTIENT && q > 10) continue; /* rejection sampling: 2^q tries a key */
        for (int fi = 0; fi < 7 && !g_test.failed; ++fi) {
          size_t n = (size_t)(fills[fi] * (double)((uint64_t)1 << q));
          if (mode == QK_ONE_QUOTIENT && n > 2000) n = 2000;
          qk_gen gen(mode, p.h, r, n, rng);
          std::vector<uint64_t> keys(n);
          for (size_t i = 0; i < n; ++i) keys[i] = gen.next(rng);
          bool use32 = (fi + mode) % 2 == 1;
          if (use32)
            for (size_t i = 0; i < n; ++i) keys[i] = (uint32_t)keys[i];
          snprintf(what, sizeof what, "%s q=%d r=%d %s fill %.2f n=%zu %s", qfm_kind(info.kind, layout), q, r,
                   qk_name(mode), fills[fi], n, use32 ? "u32" : "u64");
          qf_build_both(p, keys, use32, what);
          qf_same(p, what);
        }
      }
      /* sizes 0, 1, 31, 32, 33 and one past nslots */
      const size_t sizes[] = {0, 1, 31, 32, 33, (size_t)info.nslots + 1};
      for (int si = 0; si < 6 && !g_test.failed; ++si) {
        std::vector<uint64_t> keys(sizes[si]);
        for (size_t i = 0; i < keys.size(); ++i) keys[i] = rng.next();
        snprintf(what, sizeof what, "%s q=%d r=%d n=%zu", qfm_kind(info.kind, layout), q, r, sizes[si]);
        qf_build_both(p, keys, false, what);
        qf_same(p, what);
      }
    }
  }
}

/* Every build method on CUDA gives the HOST bytes (high fills: long chains). */
GPU_TEST(qf, cuda_build_methods) {
  test_rng rng = test_rng_for("qf.cuda_build_methods");
  char what[200];
  const int q = std::min(14, g_test.max_log2 - 2);
  for (int k = 0; k < 3 && !g_test.failed; ++k) /* SQF, RSQF, RSQF PACKED */
    for (int m = 0; m <= 4 && !g_test.failed; ++m) {
      const int kind = k ? GAMQ_QF_RSQF : GAMQ_QF_SQF, layout = k == 2;
      qf_pair p((gamq_qf_kind)kind, q, 13, rng.next(), (gamq_scan_method)m, layout);
      CHECK(p.ok());
      const double fills[] = {0.5, 0.9, 0.95};
      for (int fi = 0; fi < 3 && !g_test.failed; ++fi) {
        std::vector<uint64_t> keys((size_t)(fills[fi] * (double)((uint64_t)1 << q)));
        for (size_t i = 0; i < keys.size(); ++i) keys[i] = rng.next();
        snprintf(what, sizeof what, "%s method %s fill %.2f", qfm_kind((gamq_qf_kind)kind, layout),
                 gamq_scan_method_name((gamq_scan_method)m), fills[fi]);
        qf_build_both(p, keys, false, what);
        qf_same(p, what);
      }
    }
}

/* Lookups: CUDA == HOST, no false negatives, at several fills and shapes. */
GPU_TEST(qf, cuda_lookup_matches_host) {
  test_rng rng = test_rng_for("qf.cuda_lookup_matches_host");
  char what[200];
  for (int s = 0; s < QF_GPU_SHAPES && !g_test.failed; ++s) {
    const int q = 12, r = qf_gpu_shapes[s][1], layout = qf_gpu_shapes[s][2];
    qf_pair p((gamq_qf_kind)qf_gpu_shapes[s][0], q, r, rng.next(), GAMQ_SCAN_AUTO, layout);
    CHECK(p.ok());
    const double fills[] = {0.1, 0.7, 0.95};
    for (int fi = 0; fi < 3 && !g_test.failed; ++fi)
      for (int mode = 0; mode < QK_MODES && !g_test.failed; ++mode) {
        size_t n = (size_t)(fills[fi] * 4096);
        if (mode == QK_ONE_QUOTIENT) n = std::min<size_t>(n, 1000);
        qk_gen gen(mode, p.h, r, n, rng);
        std::vector<uint64_t> keys(n);
        for (size_t i = 0; i < n; ++i) keys[i] = gen.next(rng);
        snprintf(what, sizeof what, "%s r=%d fill %.2f %s", qfm_kind((gamq_qf_kind)qf_gpu_shapes[s][0], layout), r,
                 fills[fi], qk_name(mode));
        gamq_status built = GAMQ_ERROR_INVALID_ARGUMENT;
        qf_build_both(p, keys, false, what, &built);
        qf_same(p, what);
        /* a FULL build (one quotient near the end) stores nothing: then only CUDA == HOST */
        qf_same_lookups(p, built == GAMQ_SUCCESS ? keys : std::vector<uint64_t>(), rng, what);
      }
  }
}

/* Random interleavings of build / insert / delete / merge on both backends
   side by side: same statuses, same deleted counts, same bytes each step. */
GPU_TEST(qf, cuda_operations_match_host) {
  test_rng rng = test_rng_for("qf.cuda_operations_match_host");
  char what[200];
  for (int s = 0; s < QF_GPU_SHAPES && !g_test.failed; ++s) {
    const int q = (int)(7 + rng.below(5)), r = qf_gpu_shapes[s][1], layout = qf_gpu_shapes[s][2];
    const gamq_qf_kind kind = (gamq_qf_kind)qf_gpu_shapes[s][0];
    const uint64_t seed = rng.next();
    qf_pair p(kind, q, r, seed, (gamq_scan_method)rng.below(5), layout);
    CHECK(p.ok());
    gamq_qf_info info;
    gamq_qf_get_info(p.h, &info);
    const int mode = (int)rng.below(QK_MODES);
    qk_gen gen(mode == QK_ONE_QUOTIENT ? QK_DUPLICATES : mode, p.h, r, (size_t)info.nslots, rng);
    std::vector<uint64_t> stored;
    for (int step = 0; step < 30 && !g_test.failed; ++step) {
      int op = (int)rng.below(4);
      size_t n = op == 0 ? (size_t)rng.below(info.nslots + 2) : (size_t)rng.below(info.nslots / 3 + 2);
      if (step % 7 == 3) n = (size_t)rng.below(3); /* empty and tiny batches */
      std::vector<uint64_t> keys(n);
      for (size_t i = 0; i < n; ++i)
        keys[i] = op == 2 && !stored.empty() && rng.below(4) ? stored[rng.below(stored.size())] : gen.next(rng);
      snprintf(what, sizeof what, "%s q=%d r=%d %s step %d op %d n=%zu", qfm_kind(kind, layout), q, r, qk_name(mode),
               step, op, n);
      dbuf<uint64_t> d(n);
      CHECK(d.ok());
      CUDA_CHECK(d.upload(keys));
      std::vector<uint8_t> before = qfm_bytes(p.c);
      gamq_status sh = GAMQ_SUCCESS, sc = GAMQ_SUCCESS;
      if (op == 0) {
        sh = gamq_qf_build_u64(p.h, keys.data(), n);
        sc = gamq_qf_build_u64_sync(p.c, d.p, n, NULL);
        if (sh == GAMQ_SUCCESS) stored = keys;
      } else if (op == 1) {
        sh = gamq_qf_insert_u64(p.h, keys.data(), n);
        sc = rng.below(2) ? gamq_qf_insert_u64_sync(p.c, d.p, n, NULL) : gamq_qf_insert_u64(p.c, keys.data(), n);
        if (sh == GAMQ_SUCCESS) stored.insert(stored.end(), keys.begin(), keys.end());
      } else if (op == 2) {
        uint64_t dh = 1, dc = 2;
        sh = gamq_qf_delete_u64(p.h, keys.data(), n, &dh);
        sc = gamq_qf_delete_u64_sync(p.c, d.p, n, &dc, NULL);
        CHECK_MSG(dh == dc, "%s: deleted %llu on HOST, %llu on CUDA", what, (unsigned long long)dh,
                  (unsigned long long)dc);
        stored.clear(); /* which keys survive is the model test's business */
      } else {
        qf_pair o(kind, q, r, seed, GAMQ_SCAN_AUTO, layout);
        CHECK(o.ok());
        if (gamq_qf_build_u64(o.h, keys.data(), n) != GAMQ_SUCCESS) continue;
        CHECK(gamq_qf_build_u64(o.c, keys.data(), n) == GAMQ_SUCCESS);
        int how = (int)rng.below(3);
        if (how == 0) {
          sh = gamq_qf_merge_sync(p.h, p.h, o.h, NULL);
          sc = gamq_qf_merge_sync(p.c, p.c, o.c, NULL);
        } else if (how == 1) {
          sh = gamq_qf_merge_sync(p.h, o.h, p.h, NULL);
          sc = gamq_qf_merge_sync(p.c, o.c, p.c, NULL);
        } else { /* into the other filter, then compare that */
          sh = gamq_qf_merge_sync(o.h, p.h, o.h, NULL);
          sc = gamq_qf_merge_sync(o.c, p.c, o.c, NULL);
          CHECK(sh == sc);
          qf_same(o, what);
          continue;
        }
        if (sh == GAMQ_SUCCESS) stored.insert(stored.end(), keys.begin(), keys.end());
      }
      CHECK_MSG(sh == sc, "%s: HOST status %d, CUDA %d", what, (int)sh, (int)sc);
      if (sc == GAMQ_ERROR_FULL) CHECK_MSG(qfm_bytes(p.c) == before, "%s: FULL changed the CUDA filter", what);
      qf_same(p, what);
      if (!stored.empty() && step % 5 == 0) qf_same_lookups(p, stored, rng, what);
    }
  }
}

/* One large filter at the --max-log2 size: 90% fill, build, lookups, extract. */
GPU_TEST(qf, cuda_large) {
  test_rng rng = test_rng_for("qf.cuda_large");
  char what[200];
  const int q = std::max(8, std::min(25, g_test.max_log2 - 1)); /* the host reference is serial */
  for (int k = 0; k < 3 && !g_test.failed; ++k) { /* SQF, RSQF, RSQF PACKED */
    const int kind = k ? GAMQ_QF_RSQF : GAMQ_QF_SQF, layout = k == 2;
    qf_pair p((gamq_qf_kind)kind, q, kind == GAMQ_QF_SQF ? 13 : 9, rng.next(), GAMQ_SCAN_AUTO, layout);
    CHECK(p.ok());
    std::vector<uint64_t> keys((size_t)(0.9 * (double)((uint64_t)1 << q)));
    for (size_t i = 0; i < keys.size(); ++i) keys[i] = rng.next();
    snprintf(what, sizeof what, "%s q=%d n=%zu", qfm_kind((gamq_qf_kind)kind, layout), q, keys.size());
    qf_build_both(p, keys, false, what);
    qf_same(p, what);
    qf_same_lookups(p, keys, rng, what);
  }
}

#endif /* __CUDACC__ */
