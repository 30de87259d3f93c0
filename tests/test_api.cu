/* test_api.cu - the public API common to both halves: status strings,
   backend resolution, the device allocator hook. This file is the test
   binary's one implementation of both libraries. */
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"

#include "testing.h"

TEST(api, status_strings_cover_every_code) {
  /* every listed status has its own non-empty sentence; others are "unknown" */
  std::vector<std::string> seen;
#define COLLECT(name, value, text)                                        \
  CHECK(strcmp(gamq_status_string(name), text) == 0 && strlen(text) > 5); \
  seen.push_back(gamq_status_string(name));
  GAMQ_STATUS_LIST(COLLECT)
#undef COLLECT
  std::vector<std::string> uniq = seen;
  std::sort(uniq.begin(), uniq.end());
  CHECK(std::unique(uniq.begin(), uniq.end()) == uniq.end());
  CHECK(strcmp(gamq_status_string((gamq_status)12345), "unknown status") == 0);
  CHECK(strcmp(gclq_status_string((gclq_status)-999), "unknown status") == 0);
  CHECK(strcmp(gclq_status_string(GCLQ_SUCCESS), "success") == 0);
  CHECK_EQ(GAMQ_SUCCESS, 0);
  CHECK_EQ(GCLQ_SUCCESS, 0);
  CHECK(GAMQ_ERROR_INVALID_ARGUMENT < 0 && GCLQ_ERROR_CUDA < 0);
}

TEST(api, version_macros) {
  char v[32];
  snprintf(v, sizeof v, "%d.%d.%d", GAMQ_VERSION_MAJOR, GAMQ_VERSION_MINOR, GAMQ_VERSION_PATCH);
  CHECK(strcmp(v, GAMQ_VERSION_STRING) == 0);
  snprintf(v, sizeof v, "%d.%d.%d", GCLQ_VERSION_MAJOR, GCLQ_VERSION_MINOR, GCLQ_VERSION_PATCH);
  CHECK(strcmp(v, GCLQ_VERSION_STRING) == 0);
}

TEST(api, backend_resolution) {
  gamq_backend b = (gamq_backend)77;
  CHECK(gamq_backend_resolve(GAMQ_BACKEND_HOST, &b) == GAMQ_SUCCESS && b == GAMQ_BACKEND_HOST);
  CHECK(gamq_backend_resolve(GAMQ_BACKEND_AUTO, &b) == GAMQ_SUCCESS);
  CHECK(b == (g_test.have_gpu ? GAMQ_BACKEND_CUDA : GAMQ_BACKEND_HOST));
  b = (gamq_backend)77;
  gamq_status s = gamq_backend_resolve(GAMQ_BACKEND_CUDA, &b);
  if (g_test.have_gpu) CHECK(s == GAMQ_SUCCESS && b == GAMQ_BACKEND_CUDA);
  else CHECK(s == GAMQ_ERROR_NO_DEVICE && b == (gamq_backend)77); /* untouched on failure */
  CHECK(gamq_backend_resolve(GAMQ_BACKEND_AUTO, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_backend_resolve((gamq_backend)9, &b) == GAMQ_ERROR_INVALID_ARGUMENT);
  gclq_backend c = (gclq_backend)77;
  CHECK(gclq_backend_resolve(GCLQ_BACKEND_AUTO, &c) == GCLQ_SUCCESS);
  CHECK(c == (g_test.have_gpu ? GCLQ_BACKEND_CUDA : GCLQ_BACKEND_HOST));
  CHECK(strcmp(gamq_backend_name(GAMQ_BACKEND_CUDA), "cuda") == 0);
  CHECK(strcmp(gclq_backend_name((gclq_backend)5), "unknown") == 0);
}

/* a hook that counts its calls and can be told to fail */
struct hook_state { int allocs, frees, fail; };
static void *hook_alloc(void *user, size_t bytes, gamq_stream stream) {
  hook_state *h = (hook_state *)user;
  void *p = NULL;
  ++h->allocs;
  if (h->fail || cudaMallocAsync(&p, bytes, (cudaStream_t)stream) != cudaSuccess) return NULL;
  return p;
}
static void hook_free(void *user, void *ptr, gamq_stream stream) {
  ++((hook_state *)user)->frees;
  cudaFreeAsync(ptr, (cudaStream_t)stream);
}

GPU_TEST(api, device_allocator_hook) {
  /* through a public call that takes the hook: a Bloom filter's memory */
  gamq_bloom *f = NULL;
  gamq_bloom_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_CUDA;
  /* the zero value: cudaMallocAsync */
  CHECK(gamq_bloom_create(&d, 1000, 0.01, &f) == GAMQ_SUCCESS && f != NULL);
  CHECK(gamq_bloom_destroy(f) == GAMQ_SUCCESS);
  /* a user hook is called for the filter's memory and freed by destroy */
  hook_state h = {0, 0, 0};
  gamq_device_allocator a = {hook_alloc, hook_free, &h};
  d.allocator = a;
  f = NULL;
  CHECK(gamq_bloom_create(&d, 1000, 0.01, &f) == GAMQ_SUCCESS && f != NULL && h.allocs >= 1);
  CHECK(gamq_bloom_destroy(f) == GAMQ_SUCCESS);
  CHECK_EQ(h.frees, h.allocs);
  /* its failure is reported as out of memory, and nothing is made */
  h.fail = 1;
  f = (gamq_bloom *)&h;
  CHECK(gamq_bloom_create(&d, 1000, 0.01, &f) == GAMQ_ERROR_OUT_OF_MEMORY);
  CHECK(f == (gamq_bloom *)&h); /* untouched */
  CHECK_EQ(h.frees, h.allocs - 1); /* the failed request held nothing */
  /* the default allocator reports an impossible request, and the runtime stays usable */
  memset(&d.allocator, 0, sizeof d.allocator);
  f = NULL;
  CHECK(gamq_bloom_create_shape(&d, (uint64_t)1 << 45, 4, &f) == GAMQ_ERROR_OUT_OF_MEMORY && f == NULL);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaGetLastError());
}
