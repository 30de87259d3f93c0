/* demo.cu - a first look at the library on generated data.

   Build and run:  cmake --workflow --preset demo

   It picks the backend (CUDA when a GPU is present, else the host), sorts a
   million generated keys and scans a million generated counts, checks the
   answers against the serial host references, and prints what ran. */
#include <stdio.h>
#include <stdlib.h>

#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"

#include <vector>

#define DEMO_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                              \
      fprintf(stderr, "demo: %s failed: %s\n", #call, cudaGetErrorString(e_));           \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

static uint32_t demo_rand(uint64_t *s) { /* xorshift64*, fixed seed: same data each run */
  *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
  return (uint32_t)((*s * 0x2545f4914f6cdd1dull) >> 32);
}

/* Sort n keys and exclusive-scan n counts on the GPU; compare with the host. */
static int run_cuda(const std::vector<uint32_t> &keys, const std::vector<uint32_t> &counts,
                    const std::vector<uint32_t> &sorted_ref, const std::vector<uint32_t> &offsets_ref) {
  size_t n = keys.size(), sort_bytes = 0, scan_bytes = 0;
  uint32_t *d_keys, *d_sorted, *d_counts, *d_offsets;
  void *d_temp;
  DEMO_CHECK(cudaMalloc((void **)&d_keys, n * 4));
  DEMO_CHECK(cudaMalloc((void **)&d_sorted, n * 4));
  DEMO_CHECK(cudaMalloc((void **)&d_counts, n * 4));
  DEMO_CHECK(cudaMalloc((void **)&d_offsets, n * 4));
  DEMO_CHECK(cudaMemcpy(d_keys, keys.data(), n * 4, cudaMemcpyHostToDevice));
  DEMO_CHECK(cudaMemcpy(d_counts, counts.data(), n * 4, cudaMemcpyHostToDevice));
  /* ask for the temp bytes (d_temp == NULL), allocate once, then run */
  DEMO_CHECK(gprim_radix_sort_keys<uint32_t>(NULL, &sort_bytes, d_keys, d_sorted, n, 0, 32, false, 0));
  DEMO_CHECK(gprim_scan_exclusive(NULL, &scan_bytes, d_counts, d_offsets, n, gprim_op_sum(), 0u, 0));
  DEMO_CHECK(cudaMalloc(&d_temp, sort_bytes > scan_bytes ? sort_bytes : scan_bytes));
  cudaEvent_t t0, t1, t2;
  cudaEventCreate(&t0); cudaEventCreate(&t1); cudaEventCreate(&t2);
  cudaEventRecord(t0, 0);
  DEMO_CHECK(gprim_radix_sort_keys<uint32_t>(d_temp, &sort_bytes, d_keys, d_sorted, n, 0, 32, false, 0));
  cudaEventRecord(t1, 0);
  DEMO_CHECK(gprim_scan_exclusive(d_temp, &scan_bytes, d_counts, d_offsets, n, gprim_op_sum(), 0u, 0));
  cudaEventRecord(t2, 0);
  DEMO_CHECK(cudaEventSynchronize(t2));
  float sort_ms = 0, scan_ms = 0;
  cudaEventElapsedTime(&sort_ms, t0, t1);
  cudaEventElapsedTime(&scan_ms, t1, t2);
  std::vector<uint32_t> sorted(n), offsets(n);
  DEMO_CHECK(cudaMemcpy(sorted.data(), d_sorted, n * 4, cudaMemcpyDeviceToHost));
  DEMO_CHECK(cudaMemcpy(offsets.data(), d_offsets, n * 4, cudaMemcpyDeviceToHost));
  int ok = sorted == sorted_ref && offsets == offsets_ref;
  printf("radix sort of %zu keys: %.3f ms (first run, includes warm-up)\n", n, sort_ms);
  printf("exclusive scan of %zu counts: %.3f ms\n", n, scan_ms);
  printf("results %s the host reference\n", ok ? "match" : "DO NOT match");
  cudaFree(d_temp); cudaFree(d_keys); cudaFree(d_sorted); cudaFree(d_counts); cudaFree(d_offsets);
  return ok ? 0 : 1;
}

int main(void) {
  gamq_backend backend;
  gamq_status st = gamq_backend_resolve(GAMQ_BACKEND_AUTO, &backend);
  if (st != GAMQ_SUCCESS) {
    fprintf(stderr, "demo: %s\n", gamq_status_string(st));
    return 1;
  }
  printf("gpuamq %s + gpuclique %s, backend: %s\n", GAMQ_VERSION_STRING, GCLQ_VERSION_STRING,
         gamq_backend_name(backend));

  size_t n = (size_t)1 << 20;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  std::vector<uint32_t> keys(n), counts(n);
  for (size_t i = 0; i < n; ++i) {
    keys[i] = demo_rand(&seed);
    counts[i] = demo_rand(&seed) % 8; /* e.g. items per bucket */
  }
  /* the serial host references: the HOST backend, and the ground truth */
  std::vector<uint32_t> sorted_ref(n), offsets_ref(n);
  gprim_host_radix_sort_keys(keys.data(), sorted_ref.data(), n, 0, 32, false);
  gprim_host_scan_exclusive(counts.data(), offsets_ref.data(), n, gprim_op_sum(), 0u);
  printf("host: sorted %zu keys (smallest %u, largest %u); %u items in %zu buckets\n", n, sorted_ref[0],
         sorted_ref[n - 1], offsets_ref[n - 1] + counts[n - 1], n);

  if (backend != GAMQ_BACKEND_CUDA) {
    printf("no CUDA device: the host backend ran; the GPU half of the demo is skipped\n");
    return 0;
  }
  return run_cuda(keys, counts, sorted_ref, offsets_ref);
}
