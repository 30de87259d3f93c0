/* test_qf_ref.cu - gamq_qf_ref: the device lookup for users' own kernels.

   GPU test: a kernel written as a user would (gamq_qf_ref_contains on keys,
   gamq_qf_ref_contains_fp on fingerprints) answers exactly as the HOST
   backend's lookup, for every kind and remainder width, at fills 0.05 to
   ~1.0, and with every key in one quotient (saturated offsets: the RSQF
   rebuilds them from earlier blocks), RSQF in both layouts (ALIGNED and
   PACKED: ref.layout); so do the sorted batch lookups
   (gamq_qf_lookup_sorted_*). Host test: get_ref's arguments. */
#include "counting_alloc.h"

#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"

#include "testing.h"

#include <vector>

TEST(qf_ref, arguments) {
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST;
  gamq_qf *f = NULL;
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 8, 8, &f) == GAMQ_SUCCESS);
  gamq_qf_ref ref;
  memset(&ref, 0x5a, sizeof ref);
  CHECK(gamq_qf_get_ref(f, &ref) == GAMQ_ERROR_INVALID_ARGUMENT); /* a HOST filter has no device view */
  CHECK(ref.q == 0x5a5a5a5a);                                      /* untouched */
  CHECK(gamq_qf_get_ref(NULL, &ref) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_get_ref(f, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  gamq_qf_destroy(f);
}

#if defined(__CUDACC__)
/* what a user writes: one thread per key */
__global__ void test_qf_ref_kernel(gamq_qf_ref ref, const uint64_t *keys, size_t n, uint8_t *found,
                                   uint8_t *found_fp) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    found[i] = (uint8_t)gamq_qf_ref_contains(&ref, keys[i]);
    found_fp[i] = (uint8_t)gamq_qf_ref_contains_fp(&ref, gamq_qf_ref_fingerprint(&ref, keys[i]));
  }
}

GPU_TEST(qf_ref, device_lookup_matches_host) {
  test_rng rng = test_rng_for("qf_ref.device_lookup_matches_host");
  const int P = GAMQ_QF_LAYOUT_PACKED;
  const int shapes[][3] = {{GAMQ_QF_SQF, 5, 0},   {GAMQ_QF_SQF, 13, 0},  {GAMQ_QF_SQF, 21, 0},  {GAMQ_QF_SQF, 29, 0},
                           {GAMQ_QF_RSQF, 1, 0},  {GAMQ_QF_RSQF, 5, 0},  {GAMQ_QF_RSQF, 7, 0},  {GAMQ_QF_RSQF, 13, 0},
                           {GAMQ_QF_RSQF, 31, 0}, {GAMQ_QF_RSQF, 32, 0}, {GAMQ_QF_RSQF, 1, P},  {GAMQ_QF_RSQF, 5, P},
                           {GAMQ_QF_RSQF, 7, P},  {GAMQ_QF_RSQF, 13, P}, {GAMQ_QF_RSQF, 21, P}, {GAMQ_QF_RSQF, 31, P},
                           {GAMQ_QF_RSQF, 32, P}};
  const double fills[] = {0.05, 0.5, 0.9, 0.99};
  for (const auto &sh : shapes) {
    const int qs[] = {1, 7, 12};
    for (int q : qs)
      for (int fi = 0; fi < 5 && !g_test.failed; ++fi) {
        const gamq_qf_kind kind = (gamq_qf_kind)sh[0];
        const int r = sh[1], layout = sh[2];
        const uint64_t seed = rng.next();
        gamq_qf_desc d;
        memset(&d, 0, sizeof d);
        d.seed = seed, d.layout = (gamq_qf_layout)layout;
        gamq_qf *c = NULL, *h = NULL;
        d.backend = GAMQ_BACKEND_CUDA;
        CHECK(gamq_qf_create(&d, kind, q, r, &c) == GAMQ_SUCCESS);
        d.backend = GAMQ_BACKEND_HOST;
        CHECK(gamq_qf_create(&d, kind, q, r, &h) == GAMQ_SUCCESS);
        /* keys: fi < 4 random at that fill; fi == 4 all in quotient 0 (a long spill) */
        std::vector<uint64_t> keys;
        const size_t home = (size_t)1 << q;
        if (fi < 4) {
          const size_t n = (size_t)(fills[fi] * home);
          for (size_t i = 0; i < n; ++i) keys.push_back(rng.next());
        } else {
          for (uint64_t k = 0; keys.size() < std::min<size_t>(home, 600) && k < 100000000; ++k) {
            uint64_t fp = 0;
            gamq_qf_fingerprint(h, k, &fp);
            if ((fp >> r) == 0) keys.push_back(k);
          }
        }
        gamq_status sh_ = gamq_qf_build_u64(h, keys.data(), keys.size());
        gamq_status sc = gamq_qf_build_u64(c, keys.data(), keys.size());
        CHECK_MSG(sh_ == sc, "build status %d / %d", (int)sc, (int)sh_);
        /* queries: the keys and as many random ones */
        std::vector<uint64_t> qk(keys);
        for (size_t i = 0; i < keys.size() + 64; ++i) qk.push_back(rng.next());
        const size_t n = qk.size();
        std::vector<uint8_t> fh(n, 0xA5);
        CHECK(gamq_qf_lookup_u64(h, qk.data(), n, fh.data()) == GAMQ_SUCCESS);
        gamq_qf_ref ref;
        CHECK(gamq_qf_get_ref(c, &ref) == GAMQ_SUCCESS);
        CHECK(ref.q == q && ref.r == r && ref.kind == (int)kind && ref.seed == seed && ref.layout == layout);
        dbuf<uint64_t> dk(n);
        dbuf<uint8_t> df(n), dff(n);
        CHECK(dk.ok() && df.ok() && dff.ok());
        CUDA_CHECK(dk.upload(qk));
        test_qf_ref_kernel<<<64, 128>>>(ref, dk.p, n, df.p, dff.p);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<uint8_t> fc, fcf;
        CUDA_CHECK(df.download(fc));
        CUDA_CHECK(dff.download(fcf));
        char what[128];
        snprintf(what, sizeof what, "%s q=%d r=%d case %d (%zu keys, build %d)",
                 kind == GAMQ_QF_SQF ? "sqf" : layout ? "rsqf packed" : "rsqf", q, r, fi, keys.size(), (int)sh_);
        if (sh_ == GAMQ_SUCCESS)
          for (size_t i = 0; i < keys.size(); ++i) CHECK_MSG(fc[i] == 1, "%s: false negative at %zu", what, i);
        CHECK_ARRAYS(fh.data(), fc.data(), n, what);
        CHECK_ARRAYS(fh.data(), fcf.data(), n, what);
        /* the sorted batch lookups, u64 and u32 keys (u32 key k = u64 key k) */
        std::vector<uint32_t> qk32(n);
        std::vector<uint64_t> qk32w(n);
        for (size_t i = 0; i < n; ++i) qk32[i] = (uint32_t)qk[i], qk32w[i] = qk32[i];
        std::vector<uint8_t> fh32(n, 0xA5), fs, fs32;
        CHECK(gamq_qf_lookup_u64(h, qk32w.data(), n, fh32.data()) == GAMQ_SUCCESS);
        dbuf<uint32_t> dk32(n);
        dbuf<uint8_t> ds(n), ds32(n);
        CHECK(dk32.ok() && ds.ok() && ds32.ok());
        CUDA_CHECK(dk32.upload(qk32));
        CHECK(gamq_qf_lookup_sorted_u64_sync(c, dk.p, n, ds.p, NULL) == GAMQ_SUCCESS);
        CHECK(gamq_qf_lookup_sorted_u32_sync(c, dk32.p, n, ds32.p, NULL) == GAMQ_SUCCESS);
        CUDA_CHECK(ds.download(fs));
        CUDA_CHECK(ds32.download(fs32));
        CHECK_ARRAYS(fh.data(), fs.data(), n, what);
        CHECK_ARRAYS(fh32.data(), fs32.data(), n, what);
        CHECK(gamq_qf_lookup_sorted_u64_sync(c, dk.p, 0, NULL, NULL) == GAMQ_SUCCESS);
        CHECK(gamq_qf_lookup_sorted_u64_sync(c, dk.p, n, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
        CHECK(gamq_qf_lookup_sorted_u64_sync(c, NULL, n, ds.p, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
        gamq_qf_destroy(c);
        gamq_qf_destroy(h);
      }
  }
}
#endif
