/* cli_args.h - what the command-line examples share (maxclique, setops,
   kclique): strict argument parsing, errors in the command line's words,
   progress lines on stderr, JSON strings. Include gpuclique.h first, and
   define CLI_PROGRAM, the name every message starts with, and usage_text
   before including it. Usage errors print why, naming the option (and the
   value, for a name it does not know), then the usage, and make the
   program exit 2. */
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

/* A value of option that is none of its names: "unknown --backend 'gpu':
   use auto, cuda or host", then the usage; returns 2. */
static inline int usage_unknown(const char *option, const char *value, const char *names) {
  fprintf(stderr, CLI_PROGRAM ": unknown %s '%s': use %s\n", option, value, names);
  fputs(usage_text, stderr);
  return 2;
}

/* stdout line-buffered: each result line reaches a pipe or a file as it is
   printed, not when the run ends. */
static inline void cli_line_buffered(void) { setvbuf(stdout, NULL, _IOLBF, BUFSIZ); }

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

/* Seconds of wall time (a monotonic clock where POSIX has one: define
   _POSIX_C_SOURCE before the includes; else time(), whole seconds). */
static inline double cli_now(void) {
#if defined(CLOCK_MONOTONIC)
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#else
  return (double)time(NULL);
#endif
}

/* The gap between two progress lines: a little under the library's second
   (its lines come a second of processor time apart), so that each one it
   writes on a long run is printed, not every other one. */
#define CLI_PROGRESS_GAP 0.8

typedef struct progress_state {
  int every;   /* every line (maxclique --progress) */
  int quiet;   /* none (--quiet) */
  int lines;   /* the library's lines printed so far */
  double last; /* cli_now() of the last line printed */
} progress_state;

/* The run's own line, at once (what it is doing: a long load or search
   says something within a second of starting). */
static inline void progress_say(progress_state *p, const char *what, const char *name) {
  if (p->quiet) return;
  fprintf(stderr, CLI_PROGRAM ": %s%s%s\n", what, name ? " " : "", name ? name : "");
  p->last = cli_now();
}

/* The library's lines (options.log): every line when p->every; else the
   first at once, then the newest whenever CLI_PROGRESS_GAP seconds have
   passed since the last line printed (about one a second). */
static inline void progress(void *user, const char *line) {
  progress_state *p = (progress_state *)user;
  double now = cli_now();
  if (p->quiet) return;
  if (!p->every && p->lines > 0 && now - p->last < CLI_PROGRESS_GAP) return;
  p->last = now;
  ++p->lines;
  fprintf(stderr, "  %s\n", line);
}

/* ---- a file's errors in the command line's words ---- */

/* message with the library's option names replaced by the command line's
   (gclq_load_options.format -> --format, .max_vertices -> --max-vertices),
   into buf. */
static inline const char *cli_words(const char *message, char *buf, size_t size) {
  static const char *const library[] = {"gclq_load_options.format", "gclq_load_options.max_vertices"};
  static const char *const ours[] = {"--format", "--max-vertices"};
  size_t n = 0, i;
  while (*message != '\0' && n + 1 < size) {
    for (i = 0; i < 2; ++i)
      if (strncmp(message, library[i], strlen(library[i])) == 0) break;
    if (i < 2 && n + strlen(ours[i]) < size) {
      memcpy(buf + n, ours[i], strlen(ours[i]));
      n += strlen(ours[i]);
      message += strlen(library[i]);
    } else {
      buf[n++] = *message++;
    }
  }
  buf[n] = '\0';
  return buf;
}

/* "PROGRAM: PATH: line N: why" (no line for the file as a whole: it could
   not be opened or read), why in the command line's words, or the status
   when the loader gave no message. */
static inline void print_file_error(const char *path, unsigned long long line, const char *message,
                                    gclq_status st) {
  char words[256];
  fprintf(stderr, CLI_PROGRAM ": %s: ", path);
  if (line > 0) fprintf(stderr, "line %llu: ", line);
  fprintf(stderr, "%s\n", message[0] ? cli_words(message, words, sizeof words) : gclq_status_string(st));
}

/* A library error: its status, naming --backend where the backend asked
   for is missing (no CUDA device, or a build without nvcc). */
static inline void print_status(gclq_status st) {
  const int backend = st == GCLQ_ERROR_BACKEND_UNAVAILABLE || st == GCLQ_ERROR_NO_DEVICE;
  fprintf(stderr, CLI_PROGRAM ": %s%s\n", backend ? "--backend cuda: " : "", gclq_status_string(st));
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
