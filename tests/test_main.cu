/* test_main.cu - the runner: registry, arguments, the summary line. */
#include <stdlib.h>
#include <time.h>

#include "testing.h"

test_state g_test;

std::vector<test_case> &test_registry(void) {
  static std::vector<test_case> r;
  return r;
}

static int has_device(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no driver" error */
    return 0;
  }
  return n > 0;
}

int main(int argc, char **argv) {
  const char *filter = NULL;
  int list = 0, gpu_only = 0;
  unsigned shard = 0, shards = 1;
  g_test.seed = (uint64_t)time(NULL) * 2654435761ull ^ (uint64_t)clock();
  g_test.max_log2 = 24;
  for (int i = 1; i < argc; ++i) {
    if (!strncmp(argv[i], "--filter=", 9)) filter = argv[i] + 9;
    else if (!strncmp(argv[i], "--seed=", 7)) g_test.seed = strtoull(argv[i] + 7, NULL, 0);
    else if (!strncmp(argv[i], "--max-log2=", 11)) g_test.max_log2 = atoi(argv[i] + 11);
    else if (!strcmp(argv[i], "--list")) list = 1;
    else if (!strcmp(argv[i], "--gpu-only")) gpu_only = 1;
    else if (!strncmp(argv[i], "--shard=", 8) && sscanf(argv[i] + 8, "%u/%u", &shard, &shards) == 2 && shards > 0 &&
             shard < shards) {
    } else {
      fprintf(stderr,
              "usage: %s [--filter=SUBSTR|=NAME] [--seed=N] [--max-log2=K] [--list] [--gpu-only] [--shard=K/N]\n"
              "  --filter     run the tests whose suite.name contains SUBSTR, or the one named NAME\n"
              "  --gpu-only   run only the GPU tests (the host tests run in CI)\n"
              "  --shard=K/N  run every N-th selected test, starting at the K-th (0-based), so that\n"
              "               N processes with K = 0..N-1 run the selection once between them\n",
              argv[0]);
      return 100;
    }
  }
  if (g_test.max_log2 < 6) g_test.max_log2 = 6;
  if (g_test.max_log2 > 30) g_test.max_log2 = 30;
  g_test.have_gpu = has_device();
  if (g_test.have_gpu) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("device: %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  } else {
    printf("device: none (GPU tests are skipped: no CUDA device)\n");
  }
  printf("seed: --seed=0x%llx, sizes up to 2^%d\n", (unsigned long long)g_test.seed, g_test.max_log2);

  int passed = 0, failed = 0, skipped = 0;
  unsigned selected = 0;
  std::vector<std::string> failures;
  std::vector<test_case> &reg = test_registry();
  for (size_t i = 0; i < reg.size(); ++i) {
    std::string full = std::string(reg[i].suite) + "." + reg[i].name;
    if (filter && (filter[0] == '=' ? full != filter + 1 : full.find(filter) == std::string::npos)) continue;
    if (gpu_only && !reg[i].needs_gpu) continue;
    if (selected++ % shards != shard) continue;
    if (list) { printf("%s%s\n", full.c_str(), reg[i].needs_gpu ? " [gpu]" : ""); continue; }
    if (reg[i].needs_gpu && !g_test.have_gpu) {
      printf("[ SKIP ] %s (skipped: no CUDA device)\n", full.c_str());
      ++skipped;
      continue;
    }
    printf("[ RUN  ] %s\n", full.c_str());
    fflush(stdout);
    g_test.failed = 0;
    g_test.skipped = 0;
    clock_t t0 = clock();
    reg[i].fn();
    if (reg[i].needs_gpu) {
      cudaError_t e = cudaDeviceSynchronize();
      if (e == cudaSuccess) e = cudaGetLastError();
      if (e != cudaSuccess) {
        fprintf(stderr, "    pending CUDA error after the test: %s\n", cudaGetErrorString(e));
        g_test.failed = 1;
      }
    }
    double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (g_test.skipped && !g_test.failed) {
      printf("[ SKIP ] %s\n", full.c_str());
      ++skipped;
    } else if (g_test.failed) {
      printf("[ FAIL ] %s (%.0f ms)\n", full.c_str(), ms);
      failures.push_back(full);
      ++failed;
    } else {
      printf("[  OK  ] %s (%.0f ms)\n", full.c_str(), ms);
      ++passed;
    }
    fflush(stdout);
  }
  if (list) return 0;
  for (size_t i = 0; i < failures.size(); ++i) printf("FAILED: %s\n", failures[i].c_str());
  if (failed) printf("reproduce with --seed=0x%llx\n", (unsigned long long)g_test.seed);
  printf("%d skipped\n", skipped);
  printf("%d passed, %d failed\n", passed, failed);
  return failed > 100 ? 100 : failed;
}
