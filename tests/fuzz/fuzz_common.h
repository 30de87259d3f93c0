/* fuzz_common.h - what every libFuzzer harness of tests/fuzz/ shares: both
   implementations compiled as C, host backend only (as a plain C compiler
   builds them: tests/compile/impl_host.c), a temporary file per process for
   the loaders that read a path, and FUZZ_CHECK, which aborts (a finding) when
   the library breaks a promise of its documentation. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#define GPUAMQ_IMPLEMENTATION
#include "../../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../../gpuclique.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_CHECK(cond)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      fprintf(stderr, "FUZZ_CHECK failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);      \
      abort();                                                                            \
    }                                                                                     \
  } while (0)

/* A path of this process's own in the temporary folder, ending in ext. */
static inline const char *fuzz_temp_path(const char *ext) {
  static char path[256];
  const char *dir = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/gclq_fuzz_%ld%s", dir && *dir ? dir : "/tmp", (long)getpid(), ext);
  return path;
}

/* Write n bytes to path (replacing it); 1 on success. */
static inline int fuzz_write_file(const char *path, const uint8_t *data, size_t n) {
  FILE *f = fopen(path, "wb");
  int ok;
  if (f == NULL) return 0;
  ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* A string of at most cap bytes is NUL-terminated inside them. */
static inline int fuzz_terminated(const char *s, size_t cap) { return memchr(s, 0, cap) != NULL; }

/* Is every byte of the n at p zero? */
static inline int fuzz_zeroed(const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  size_t i;
  for (i = 0; i < n; ++i)
    if (b[i]) return 0;
  return 1;
}

#endif
