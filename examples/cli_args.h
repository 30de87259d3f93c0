/* cli_args.h - what the command-line examples share (maxclique, setops,
   kclique): strict argument parsing, progress lines on stderr, JSON strings. Define CLI_PROGRAM, the name every message
   starts with, and usage_text before including it. Usage errors print why,
   naming the option, then the usage, and make the program exit 2. */
#ifndef EXAMPLES_CLI_ARGS_H
#define EXAMPLES_CLI_ARGS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Print why (and the option it is about, when not NULL) and the usage;
   returns 2, the exit status of a usage error. */
static inline int usage(const char *why, const char *option) {
  if (option) fprintf(stderr, CLI_PROGRAM ": %s: %s\n", option, why);
  else fprintf(stderr, CLI_PROGRAM ": %s\n", why);
  fputs(usage_text, stderr);
  return 2;
}

/* A whole number in [lo, hi]: decimal digits only (no sign, no blanks, no
   trailing text). Returns 1, or prints why not and returns 0. */
static inline int parse_u64(const char *option, const char *s, unsigned long long lo, unsigned long long hi,
                            unsigned long long *out) {
  char *end = NULL;
  unsigned long long x = 0;
  const int digit = s[0] >= '0' && s[0] <= '9';
  errno = 0;
  if (digit) x = strtoull(s, &end, 10);
  if (!digit || *end != '\0') {
    fprintf(stderr, CLI_PROGRAM ": %s: \"%s\" is not a whole number (expected %llu..%llu)\n", option, s, lo, hi);
    return 0;
  }
  if (errno == ERANGE || x < lo || x > hi) {
    fprintf(stderr, CLI_PROGRAM ": %s: %s is out of range %llu..%llu\n", option, s, lo, hi);
    return 0;
  }
  *out = x;
  return 1;
}

/* A number in [lo, hi] (decimal, optional fraction and exponent; no blanks,
   no trailing text, not NaN). Returns 1, or prints why not and returns 0. */
static inline int parse_double(const char *option, const char *s, double lo, double hi, double *out) {
  char *end = NULL;
  double x = 0.0;
  const int starts = (s[0] >= '0' && s[0] <= '9') || s[0] == '.' || s[0] == '-' || s[0] == '+';
  errno = 0;
  if (starts) x = strtod(s, &end);
  if (!starts || end == s || *end != '\0') {
    fprintf(stderr, CLI_PROGRAM ": %s: \"%s\" is not a number (expected %g..%g)\n", option, s, lo, hi);
    return 0;
  }
  if (errno == ERANGE || !(x >= lo && x <= hi)) {
    fprintf(stderr, CLI_PROGRAM ": %s: %s is out of range %g..%g\n", option, s, lo, hi);
    return 0;
  }
  *out = x;
  return 1;
}

/* The index of s among names[0, count) in *out; 0 when it is none of them. */
static inline int pick(const char *s, const char *const *names, int count, int *out) {
  int i;
  for (i = 0; i < count; ++i)
    if (strcmp(s, names[i]) == 0) {
      *out = i;
      return 1;
    }
  return 0;
}

/* ---- progress lines on stderr ---- */

typedef struct progress_state {
  int every;          /* every line (maxclique --progress) */
  time_t start, last; /* wall clock of the start and of the last line printed */
} progress_state;

/* Every line when p->every; else a line only once the run has taken a
   second, then at most one a second. */
static inline void progress(void *user, const char *line) {
  progress_state *p = (progress_state *)user;
  time_t now = time(NULL);
  if (!p->every) {
    if (difftime(now, p->start) < 1.0 || difftime(now, p->last) < 1.0) return;
    p->last = now;
  }
  fprintf(stderr, "  %s\n", line);
}

/* ---- JSON output ---- */

/* s as a JSON string: quotes and backslashes escaped, control characters as \u00XX. */
static inline void json_string(const char *s) {
  putchar('"');
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

#endif /* EXAMPLES_CLI_ARGS_H */
