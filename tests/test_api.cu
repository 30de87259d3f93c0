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
  void *p = (void *)1;
  /* the zero value: cudaMallocAsync */
  gamq_device_allocator none;
  memset(&none, 0, sizeof none);
  CHECK(gamq__device_alloc(&none, &p, 1000, NULL) == GAMQ_SUCCESS && p != NULL);
  CUDA_CHECK(cudaMemsetAsync(p, 0, 1000, 0));
  gamq__device_free(&none, p, NULL);
  CHECK(gamq__device_alloc(NULL, &p, 0, NULL) == GAMQ_SUCCESS && p == NULL);
  /* a user hook is called, and its failure is reported as out of memory */
  hook_state h = {0, 0, 0};
  gamq_device_allocator a = {hook_alloc, hook_free, &h};
  CHECK(gamq__device_alloc(&a, &p, 4096, NULL) == GAMQ_SUCCESS && p != NULL && h.allocs == 1);
  gamq__device_free(&a, p, NULL);
  CHECK_EQ(h.frees, 1);
  h.fail = 1;
  CHECK(gamq__device_alloc(&a, &p, 4096, NULL) == GAMQ_ERROR_OUT_OF_MEMORY && p == NULL);
  /* the default allocator reports an impossible request, and the runtime stays usable */
  CHECK(gamq__device_alloc(NULL, &p, (size_t)1 << 50, NULL) == GAMQ_ERROR_OUT_OF_MEMORY && p == NULL);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaGetLastError());
}
