/* gpuclique.h - graphs, maximum cliques and set intersection on the GPU:
   graphs from files, edge lists and generators, every maximum clique of a
   graph, the intersections of sets (one pair, batches, all pairs,
   containment joins), core numbers and k-clique counts.
   Single-header CUDA C library, v0.5.0.

   Do this:
      #define GPUCLIQUE_IMPLEMENTATION
   before you include this file in *one* .cu file (nvcc: CUDA and host backends)
   or one .c file (a plain C compiler: the host backend only). Every other file,
   C or C++, includes gpuclique.h alone and links against that one.

      // gpuclique_impl.cu
      #define GPUCLIQUE_IMPLEMENTATION
      #include "gpuclique.h"

      nvcc -arch=native -c gpuclique_impl.cu   (or -arch=sm_90: sm_80 or newer)

   The device code needs sm_80 or newer; a device pass for an older
   architecture (nvcc's default with CUDA 13 is sm_75) stops with an #error that
   says so. Compiling the implementation takes tens of seconds. The source form
   needs gpuclique_kernels.cuh, gpuprim.cuh, prim/ and clique/ beside this file;
   dist/gpuclique.h is the same library as one file. gpuprim.cuh holds the
   primitives both libraries are built on: internal, not part of this API.

   First use (any file, C or C++; AUTO runs CUDA when a GPU is present, else
   the host backend, with the same answers):

      gclq_graph g;
      gclq_maxclique_result r;
      if (gclq_graph_planted_clique(2000, 0.01, 25, 42, &g, NULL) == GCLQ_SUCCESS) {  // G(2000, 0.01) + a 25-clique
        if (gclq_max_cliques(&g, NULL, &r) == GCLQ_SUCCESS)                           // NULL: default options
          printf("omega %u, %llu maximum cliques\n", r.omega, (unsigned long long)r.count);  // omega 25, 1
        gclq_maxclique_result_free(&r);
        gclq_graph_free(&g);
      }

   What it does not do
     - list maximal (not maximum) cliques;
     - split a containment join by set size (MMJoin's Delta_1): its split
       is by element frequency only (gclq_intersect_options.split_below);
     - weighted or directed graphs: edges are made undirected, loops and
       repeated edges dropped, weights in Matrix Market files ignored;
     - graphs of more than 2^32 - 1 vertices (ids are compacted to uint32_t);
     - change a graph in place: build a new one;
     - span GPUs: a search runs on one device.

   Options (define before the implementation include)
     GPUCLIQUE_STATIC              all functions static (private to that file)
     GCLQ_MALLOC(sz), GCLQ_FREE(p), GCLQ_REALLOC(p, sz)
                                host allocator; define all three or none
                                (thread-safe: a containment join that
                                splits on CUDA allocates from two threads)
     GCLQ_ASSERT(x)             internal assertions (default: assert.h)
     GCLQ_KCLIQUE_CUDA          0: leave out the CUDA k-clique methods
                                (default 1; with 0 backend CUDA returns
                                GCLQ_ERROR_BACKEND_UNAVAILABLE and AUTO
                                runs HOST)

   Contents
     1. version, linkage, stream type
     2. status codes            gclq_status, gclq_status_string()
     3. backends                gclq_backend, gclq_backend_resolve()
     4. device allocator hook   gclq_device_allocator
     5. graphs                  gclq_graph: load (SNAP, DIMACS, Matrix Market),
                                from edges, generators, free
     6. maximum cliques         gclq_max_cliques, options, result, stats
     7. set intersection        gclq_sets (arrays, graph view, text, binary, generators),
                                gclq_intersect_pair / _pairs / _all, gclq_containment_join
     8. k-clique counting       gclq_core_numbers, gclq_degeneracy_order, gclq_kcliques
                                (one k or every k, per-vertex counts, listing), options, result

   Conventions
     - Every function returns a gclq_status; results go out through pointers.
     - Desc structs: the zero value means "defaults".
     - The stream is the last argument of anything that launches work; nothing
       synchronises unless its name ends in _sync, except the calls on host
       data (graphs, sets, gclq_max_cliques, gclq_intersect_*,
       gclq_containment_join, gclq_core_numbers and gclq_kcliques), which
       return when done.
     - Pointer names say where memory lives: d_keys (device), h_keys (host).

   The CUDA maximum-clique search follows Geil, "Tackling GPU Memory Size
   Limitations" (dissertation), chapter 2.

   Version history
     0.1.0  2026-11-21  status codes, backends, allocator hook; the gpuprim
                        primitives; graphs (loaders, from edges, generators);
                        host reference algorithms.
     0.2.0  2026-11-21  maximum cliques: gclq_max_cliques on HOST, and a first
                        CUDA search that AUTO did not pick.
     0.3.0  2026-11-22  the CUDA bitset search (options.search), AUTO runs
                        CUDA; options.max_stored, result.stored.
     0.4.0  2026-11-24  a library to drop in: CMake targets gpuamq::gpuamq and
                        gpuclique::gpuclique (add_subdirectory, FetchContent,
                        find_package), an #error below sm_80, a LICENSE file;
                        gclq_graph_load_opts / gclq_graph_parse_opts with load
                        limits (hostile headers fail before allocating), DIMACS
                        and Matrix Market counts checked against the body, CR
                        line ends; a vertex seen only in a self-loop is kept;
                        AUTO runs HOST for small graphs (stats.auto_small); the
                        HOST search writes progress lines to options.log;
                        set intersection (section 7): gclq_sets, one pair,
                        batched pairs, all pairs, containment joins, on HOST
                        and on CUDA by merge path or binary search;
                        k-clique counting (section 8): gclq_core_numbers
                        (HOST and CUDA), gclq_degeneracy_order,
                        gclq_orient_by, gclq_kcliques on HOST by ORDERED or
                        PIVOT, GCLQ_ERROR_OVERFLOW per k.
     0.5.0  2026-11-27  k-cliques on CUDA by default (GCLQ_KCLIQUE_CUDA 1):
                        LFTJ, LEVEL_JOIN, GROUPED, BITSET and PIVOT, AUTO by k;
                        the core peeling in one cooperative launch; the
                        containment join's light/heavy split with the light
                        half on the host (split_below, stats.split); set
                        intersection by hash, bitmaps, the hybrids, the
                        inverted index and the bit matrix.

   License: MIT, at the end of this file. */
#ifndef GPUCLIQUE_H
#define GPUCLIQUE_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------
   1. version, linkage, stream type
   ------------------------------------------------------------------------- */
#define GCLQ_VERSION_MAJOR 0
#define GCLQ_VERSION_MINOR 5
#define GCLQ_VERSION_PATCH 0
#define GCLQ_VERSION_STRING "0.5.0"

#ifndef GCLQ_DEF
#ifdef GPUCLIQUE_STATIC
#define GCLQ_DEF static
#else
#define GCLQ_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The CUDA stream, forward-declared so this header needs no CUDA header:
   gclq_stream is cudaStream_t (pass one directly; NULL is the default stream). */
typedef struct CUstream_st *gclq_stream;

/* ---------------------------------------------------------------------------
   2. status codes: one X-macro list gives the enum and the strings
   ------------------------------------------------------------------------- */
#define GCLQ_STATUS_LIST(X)                                                                  \
  X(GCLQ_SUCCESS, 0, "success")                                                              \
  X(GCLQ_ERROR_INVALID_ARGUMENT, -1, "invalid argument (a NULL pointer or a size out of range)") \
  X(GCLQ_ERROR_OUT_OF_MEMORY, -2, "out of memory (an allocation failed)")                    \
  X(GCLQ_ERROR_NO_DEVICE, -3, "the CUDA backend was requested but no CUDA device is present") \
  X(GCLQ_ERROR_BACKEND_UNAVAILABLE, -4,                                                      \
    "the CUDA backend is not compiled in (the implementation was built without nvcc)")       \
  X(GCLQ_ERROR_CUDA, -5, "a CUDA runtime call failed")                                       \
  X(GCLQ_ERROR_IO, -6, "the file could not be opened or read")                               \
  X(GCLQ_ERROR_PARSE, -7, "malformed input (the load error names the line)")                 \
  X(GCLQ_ERROR_TOO_LARGE, -8, "the graph is too large (more than 2^32 - 1 vertices, or over a load limit)") \
  X(GCLQ_ERROR_UNSORTED_SET, -9, "a set is not strictly increasing (the error names the set)")         \
  X(GCLQ_ERROR_OVERFLOW, -10, "a count does not fit in 64 bits (flagged, never wrapped)")

typedef enum gclq_status {
#define GCLQ__STATUS_ENUM(name, value, text) name = value,
  GCLQ_STATUS_LIST(GCLQ__STATUS_ENUM)
#undef GCLQ__STATUS_ENUM
  GCLQ__STATUS_FORCE_INT = 0x7fffffff
} gclq_status;

/* A sentence for any status; "unknown status" for values not in the list. */
GCLQ_DEF const char *gclq_status_string(gclq_status status);

/* ---------------------------------------------------------------------------
   3. backends
   ------------------------------------------------------------------------- */
typedef enum gclq_backend {
  GCLQ_BACKEND_AUTO = 0, /* CUDA when a device is present, else HOST (the default) */
  GCLQ_BACKEND_CUDA = 1, /* kernels on the current CUDA device */
  GCLQ_BACKEND_HOST = 2  /* serial C on the host: the reference, and machines with no GPU */
} gclq_backend;

/* The backend a request runs on:
     AUTO -> CUDA if this build has it and a device is present, else HOST;
     CUDA -> CUDA, or GCLQ_ERROR_BACKEND_UNAVAILABLE (built without nvcc)
             or GCLQ_ERROR_NO_DEVICE (no device);
     HOST -> HOST.
   *resolved is written only on success. */
GCLQ_DEF gclq_status gclq_backend_resolve(gclq_backend requested, gclq_backend *resolved);
/* "auto", "cuda", "host", or "unknown". */
GCLQ_DEF const char *gclq_backend_name(gclq_backend backend);

/* ---------------------------------------------------------------------------
   4. device allocator hook
   ------------------------------------------------------------------------- */
/* How the library takes device memory. The zero value means the default,
   cudaMallocAsync / cudaFreeAsync on the call's stream. alloc returns NULL
   when it cannot serve the request; the library then returns
   GCLQ_ERROR_OUT_OF_MEMORY and leaves its objects as they were. */
typedef struct gclq_device_allocator {
  void *(*alloc)(void *user, size_t bytes, gclq_stream stream);
  void (*free)(void *user, void *ptr, gclq_stream stream);
  void *user;
} gclq_device_allocator;

/* ---------------------------------------------------------------------------
   5. graphs
   ------------------------------------------------------------------------- */
/* A simple undirected graph in CSR form on the host: no self-loops, no
   repeated edges, each adjacency list sorted ascending, every edge stored in
   both lists. Vertices are compacted to 0 .. num_vertices - 1 in increasing
   order of their file ids; h_original_ids maps them back. Every loader and
   generator fills one; gclq_graph_free releases it. It need not be zeroed
   before a builder fills it; a builder that fails leaves it zeroed. */
typedef struct gclq_graph {
  uint32_t num_vertices;     /* n */
  uint64_t num_edges;        /* undirected edges m; the CSR holds 2m entries */
  uint64_t *h_offsets;       /* n + 1 entries: list of v is h_neighbors[h_offsets[v] .. h_offsets[v + 1]) */
  uint32_t *h_neighbors;     /* 2m entries */
  uint64_t *h_original_ids;  /* n entries: the id of each vertex in the file (generators: 0 .. n - 1) */
} gclq_graph;

typedef enum gclq_format {
  GCLQ_FORMAT_AUTO = 0,          /* by extension: .clq/.dimacs DIMACS, .mtx Matrix Market, else SNAP */
  GCLQ_FORMAT_SNAP = 1,          /* "u v" per line (tabs or spaces), '#' comments, any 64-bit ids */
  GCLQ_FORMAT_DIMACS = 2,        /* "c" comments, "p edge N M", "e u v" with 1-based ids */
  GCLQ_FORMAT_MATRIX_MARKET = 3  /* %%MatrixMarket matrix coordinate pattern|real|integer general|symmetric */
} gclq_format;

/* Where and why a load failed (filled on GCLQ_ERROR_PARSE and GCLQ_ERROR_IO). */
typedef struct gclq_load_error {
  uint64_t line;      /* 1-based line of the problem; 0 when not about one line */
  char message[128];  /* e.g. "expected two vertex ids" */
} gclq_load_error;

/* Limits of a load, for files that may be hostile. The zero value means the
   defaults; a limit that is exceeded gives GCLQ_ERROR_TOO_LARGE and the load
   error names the line (or line 0 for the file's size).
     max_vertices: the most vertices a DIMACS "p edge N M" or Matrix Market
       size line may declare. 0: what the input's size justifies,
       GCLQ_LOAD_MIN_VERTICES + GCLQ_LOAD_VERTICES_PER_BYTE * (input bytes):
       vertices that no edge names are isolated and cost 16 bytes each, so a
       20-byte header cannot make the loader take gigabytes. Raise it for
       files that declare many isolated vertices.
     max_bytes: the largest file gclq_graph_load_opts reads (the whole file
       is held in memory while it is parsed). 0: no limit. */
#define GCLQ_LOAD_MIN_VERTICES 4096u
#define GCLQ_LOAD_VERTICES_PER_BYTE 16u
typedef struct gclq_load_options {
  gclq_format format;     /* AUTO: by the path's extension (SNAP for text in memory) */
  uint64_t max_vertices;  /* 0: GCLQ_LOAD_MIN_VERTICES + GCLQ_LOAD_VERTICES_PER_BYTE * bytes */
  uint64_t max_bytes;     /* 0: no limit */
} gclq_load_options;

/* Read a graph file. Self-loops and repeated edges are dropped, edges made
   undirected, ids compacted. err may be NULL. On failure *graph is zeroed.
   The default limits of gclq_load_options apply.
     gclq_graph g;
     gclq_load_error e;
     if (gclq_graph_load("ca-GrQc.txt", GCLQ_FORMAT_AUTO, &g, &e) != GCLQ_SUCCESS)
       printf("line %llu: %s\n", (unsigned long long)e.line, e.message);  */
GCLQ_DEF gclq_status gclq_graph_load(const char *path, gclq_format format, gclq_graph *graph, gclq_load_error *err);
/* The same with explicit limits (options may be NULL: the defaults). */
GCLQ_DEF gclq_status gclq_graph_load_opts(const char *path, const gclq_load_options *options, gclq_graph *graph,
                                          gclq_load_error *err);
/* The same from text in memory (len bytes; need not end in NUL). AUTO means SNAP here. */
GCLQ_DEF gclq_status gclq_graph_parse(const char *text, size_t len, gclq_format format, gclq_graph *graph,
                                      gclq_load_error *err);
GCLQ_DEF gclq_status gclq_graph_parse_opts(const char *text, size_t len, const gclq_load_options *options,
                                           gclq_graph *graph, gclq_load_error *err);
/* From an edge list of any 64-bit ids (h_src[i], h_dst[i]); loops and repeats
   dropped, made undirected, ids compacted as above (an id whose only edge is
   a self-loop is an isolated vertex). num_edges may be 0 (an empty graph). */
GCLQ_DEF gclq_status gclq_graph_from_edges(const uint64_t *h_src, const uint64_t *h_dst, size_t num_edges,
                                           gclq_graph *graph);
/* Generators (deterministic for a seed):
   Erdos-Renyi G(n, p): every pair an edge with probability p.
   R-MAT with Graph500 parameters (a, b, c) = (0.57, 0.19, 0.19): 2^scale vertex
   ids, edge_factor * 2^scale edges drawn, then simplified (isolated vertices
   kept, so num_vertices = 2^scale).
   Planted clique: G(n, p) plus a clique on clique_size random vertices, whose
   ids go to *h_clique_out (clique_size entries, sorted) when it is not NULL. */
GCLQ_DEF gclq_status gclq_graph_erdos_renyi(uint32_t n, double p, uint64_t seed, gclq_graph *graph);
GCLQ_DEF gclq_status gclq_graph_rmat(int scale, int edge_factor, uint64_t seed, gclq_graph *graph);
GCLQ_DEF gclq_status gclq_graph_planted_clique(uint32_t n, double p, uint32_t clique_size, uint64_t seed,
                                               gclq_graph *graph, uint32_t *h_clique_out);
/* Release what a builder allocated and zero the struct (NULL and zeroed are fine). */
GCLQ_DEF void gclq_graph_free(gclq_graph *graph);

/* ---------------------------------------------------------------------------
   6. maximum cliques
   ------------------------------------------------------------------------- */
/* Every clique of maximum size (the clique number omega), or one of them.
   The CUDA backend follows ch. 2 of Geil, "Tackling GPU Memory Size
   Limitations" (dissertation): k-core numbers by parallel peeling, a greedy
   lower bound, the oriented 2-clique list, then a breadth-first expansion
   over the clique list (vertexID / sublistID levels) with pruning against
   the bound, in windows, inside a device memory budget.
   The HOST backend is the serial reference (greedy bound plus a colour-bound
   branch and bound); it ignores the tuning fields below. Both return the same
   omega, count and (mode ALL) the same clique list, byte for byte.

   The CUDA search is the bitset search by default (gclq_search below: the
   same levels, windows and budget, each partial clique carrying its
   candidates as a bitset over its source's local graph); the paper's list
   search is GCLQ_SEARCH_LIST. Measured on an H200 (bench/results/
   maxclique_h200.md): 50-97x HOST on R-MAT 15-17, R-MAT 22 (4.2M vertices,
   64M edges: omega 227, 6,291,456 maximum cliques) in 1.27 s; slower than
   HOST only on graphs HOST solves in about a millisecond. AUTO runs CUDA
   when a device is present and the graph is not small: a graph of at most
   GCLQ_AUTO_HOST_MAX_EDGES edges whose largest core number is at most
   GCLQ_AUTO_HOST_MAX_CORE runs on HOST, which finishes before the CUDA
   start-up would (stats.backend says which ran, stats.notes why).

     gclq_graph g;
     gclq_maxclique_options opt;
     gclq_maxclique_result r;
     gclq_graph_load("facebook_combined.txt", GCLQ_FORMAT_AUTO, &g, NULL);
     gclq_maxclique_options_defaults(&opt);     (or a zeroed struct: the same)
     opt.device_budget_bytes = (size_t)256 << 20;
     if (gclq_max_cliques(&g, &opt, &r) == GCLQ_SUCCESS)
       printf("omega %u, %llu maximum cliques\n", r.omega, (unsigned long long)r.count);
     gclq_maxclique_result_free(&r);
     gclq_graph_free(&g);
       -> omega 69, 43616 maximum cliques */

typedef enum gclq_maxclique_mode {
  GCLQ_MODE_ALL = 0, /* every maximum clique (the default) */
  GCLQ_MODE_ONE = 1  /* one maximum clique (count 1); which one depends on the search order */
} gclq_maxclique_mode;

/* The greedy lower bound (the dissertation, sec. 2.4.3). Single: one greedy
   run from the vertex of highest degree / core number. Multi: h runs at once,
   seeded by the h vertices of highest degree / core number; the best run is
   the bound. */
typedef enum gclq_heuristic {
  GCLQ_HEURISTIC_DEFAULT = 0, /* = MULTI_DEGREE */
  GCLQ_HEURISTIC_NONE = 1,    /* bound 1 */
  GCLQ_HEURISTIC_SINGLE_DEGREE = 2,
  GCLQ_HEURISTIC_SINGLE_CORE = 3,
  GCLQ_HEURISTIC_MULTI_DEGREE = 4,
  GCLQ_HEURISTIC_MULTI_CORE = 5
} gclq_heuristic;

/* Which endpoint of an edge owns the 2-clique (the dissertation, sec. 2.4.5). */
typedef enum gclq_orientation {
  GCLQ_ORIENT_DEFAULT = 0, /* = DEGREE */
  GCLQ_ORIENT_DEGREE = 1,  /* from the lower (degree, id) to the higher */
  GCLQ_ORIENT_INDEX = 2,   /* from the lower id to the higher */
  GCLQ_ORIENT_DEGENERACY = 3 /* from the earlier (peeling round, id) to the later, the order of
                                gclq_degeneracy_order: out-degrees at most the degeneracy */
} gclq_orientation;

/* Vertex pre-pruning: a vertex whose degree / core number is below
   bound - 1 cannot be in a clique of the bound's size and is dropped. */
typedef enum gclq_prune {
  GCLQ_PRUNE_DEFAULT = 0, /* = CORE */
  GCLQ_PRUNE_DEGREE = 1,
  GCLQ_PRUNE_CORE = 2
} gclq_prune;

/* How a partial clique is bounded in the breadth-first search: it is dropped
   when even the bound cannot reach the target size (the best size in mode
   ALL, best + 1 in mode ONE). Both are exact; COLOUR prunes far more. */
typedef enum gclq_bound {
  GCLQ_BOUND_DEFAULT = 0, /* = COLOUR */
  GCLQ_BOUND_LENGTH = 1,  /* the paper's: size + candidates (the dissertation, Alg. 4) */
  GCLQ_BOUND_COLOUR = 2   /* size + colours of a greedy colouring of the candidates, which are
                             then stored highest colour first (Tomita's MCQ order); candidate
                             lists longer than 256 fall back to the length bound */
} gclq_bound;

/* How the CUDA backend searches (both are exact and give the same result).
   LIST is the paper's: levels of (vertexID, sublistID) entries, a warp per
   parent gathering its children by binary searches in the CSR. BITSET keeps
   the levels, windows, steps and budget but stores each partial clique with
   its candidates as a bitset over its source's local graph (the source's
   kept out-neighbours and their adjacency bits, built once per window), so
   the colour bound costs one row load per coloured vertex; within a window
   it searches from the window's colour bound down to the best size so far
   (a run that finds nothing proves the target too high). Local graphs of
   more than 4096 vertices fall back to LIST (stats.search, stats.notes). */
typedef enum gclq_search {
  GCLQ_SEARCH_DEFAULT = 0, /* = BITSET */
  GCLQ_SEARCH_BITSET = 1,
  GCLQ_SEARCH_LIST = 2
} gclq_search;

/* The order of the source vertices in the 2-clique list, and so the order in
   which windows visit them (the dissertation, sec. 2.4.7). */
typedef enum gclq_window_order {
  GCLQ_WINDOW_ORDER_DEFAULT = 0, /* = DEGREE_DESC */
  GCLQ_WINDOW_ORDER_INDEX = 1,
  GCLQ_WINDOW_ORDER_DEGREE_ASC = 2,
  GCLQ_WINDOW_ORDER_DEGREE_DESC = 3,
  GCLQ_WINDOW_ORDER_CORE_ASC = 4,
  GCLQ_WINDOW_ORDER_CORE_DESC = 5
} gclq_window_order;

/* Options of gclq_max_cliques. The zero value means "defaults" (a NULL
   options pointer too); gclq_maxclique_options_defaults writes them out. */
typedef struct gclq_maxclique_options {
  gclq_backend backend;            /* AUTO: CUDA when a device is present and the graph is not
                                      small (above), else HOST */
  gclq_maxclique_mode mode;        /* ALL */
  gclq_heuristic heuristic;        /* MULTI_DEGREE */
  uint32_t seeds;                  /* multi-run seeds h; 0: 5% of the vertices (at least 1) */
  gclq_orientation orientation;    /* DEGREE */
  gclq_prune prune;                /* CORE */
  gclq_bound bound;                /* COLOUR */
  gclq_search search;              /* BITSET (CUDA only) */
  uint64_t window_size;            /* 2-cliques per window, rounded up to whole sublists; 0: one window */
  gclq_window_order window_order;  /* DEGREE_DESC */
  uint64_t max_stored;             /* the most cliques returned in h_cliques; 0: every one. count
                                      stays exact; when fewer are stored than found, which ones
                                      are kept depends on the search order (for graphs with
                                      millions of maximum cliques, e.g. R-MAT 19 and up) */
  size_t device_budget_bytes;      /* device memory the call may hold; 0: 90% of the free memory.
                                      When the next level would not fit, the search splits its
                                      work into smaller steps and windows instead (the result is
                                      the same); only the graph itself (about 28n + 8m bytes for
                                      n vertices, m edges) must fit, else OUT_OF_MEMORY (the log
                                      says what did not fit). */
  void (*log)(void *user, const char *line); /* progress lines (CUDA: one per level and window;
                                                HOST: one per phase and one a second of the
                                                search); NULL: silent */
  void *log_user;
  gclq_device_allocator allocator; /* zero: cudaMallocAsync / cudaFreeAsync */
  gclq_stream stream;              /* the work runs on it; the call still returns when done */
} gclq_maxclique_options;

/* What a run did (times in milliseconds of wall clock). */
typedef struct gclq_maxclique_stats {
  gclq_backend backend;           /* the backend that ran */
  int fell_back;                  /* 1: AUTO found no device and ran HOST */
  int auto_small;                 /* 1: AUTO ran HOST because the graph is small (GCLQ_AUTO_HOST_*) */
  gclq_search search;             /* the CUDA search that ran (0 for HOST) */
  double total_ms, upload_ms, cores_ms, heuristic_ms, setup_ms, search_ms, readout_ms;
  uint32_t lower_bound;           /* the heuristic's clique size (0 when no heuristic ran) */
  uint32_t max_core;              /* the largest core number (0 when cores were not needed) */
  uint64_t two_cliques;           /* entries of the 2-clique list after pruning */
  uint64_t *candidates_per_level; /* [k]: k-cliques generated, summed over windows (k < num_levels) */
  uint32_t num_levels;
  size_t peak_device_bytes;       /* the most device memory held at once */
  size_t budget_bytes;            /* the budget in force */
  uint32_t windows;               /* windows over the 2-clique list */
  uint32_t budget_splits;         /* times the budget split a window or range further */
  char notes[256];                /* anything worth knowing, as text */
} gclq_maxclique_stats;

typedef struct gclq_maxclique_result {
  uint32_t omega;        /* the clique number (0 for a graph with no vertices) */
  uint64_t count;        /* maximum cliques found (1 in mode ONE, unless omega is 0) */
  uint64_t stored;       /* of them in h_cliques: count, or options.max_stored when smaller */
  uint64_t *h_cliques;   /* stored * omega original file ids: clique i at [i * omega, (i + 1) * omega),
                            each clique ascending, the cliques in lexicographic order */
  gclq_maxclique_stats stats;
} gclq_maxclique_result;

/* AUTO's crossover for maximum cliques: with a CUDA device present, AUTO
   still runs HOST on a graph of at most GCLQ_AUTO_HOST_MAX_EDGES edges
   whose largest core number is at most GCLQ_AUTO_HOST_MAX_CORE (the core
   numbers are computed on the host only for graphs under the edge limit).
   Measured on an H200 (`MAXCLIQUE_CROSSOVER=1 bench_maxclique`, 41 graphs:
   G(n, p), R-MAT 8-16, planted cliques, the DIMACS and SNAP test graphs):
   the first CUDA call of a process costs 127-165 ms of start-up, a warm call
   1-10 ms on these graphs. Inside the limits HOST took at most 13.6 ms
   (R-MAT 11: 22,733 edges, max core 48; warm CUDA 7.3 ms, cold 146 ms),
   ca-GrQc 0.6 ms, ca-HepTh 1.3 ms, p_hat300-1 5.4 ms. The core limit keeps
   out the dense graphs HOST finds hard: brock200_4 (13,089 edges, max core
   117) takes HOST 90 ms and san200_0.7_1 253 ms, warm CUDA 4-6 ms. Define
   either before the implementation include to move the crossover (0 for
   GCLQ_AUTO_HOST_MAX_EDGES: only a graph without edges runs on HOST). */
#ifndef GCLQ_AUTO_HOST_MAX_EDGES
#define GCLQ_AUTO_HOST_MAX_EDGES 50000u
#endif
#ifndef GCLQ_AUTO_HOST_MAX_CORE
#define GCLQ_AUTO_HOST_MAX_CORE 64u
#endif

/* The defaults, written out (the same as a zeroed struct). */
GCLQ_DEF void gclq_maxclique_options_defaults(gclq_maxclique_options *options);
/* Find the maximum cliques of graph. options may be NULL (defaults). result
   is overwritten (it need not be zeroed); free it with
   gclq_maxclique_result_free. Conventions: no vertices -> omega 0, count 0;
   vertices but no edges -> omega 1 and each vertex a maximum clique.
   Errors (result zeroed, nothing leaked): GCLQ_ERROR_INVALID_ARGUMENT (NULL
   graph or result, a malformed graph, an option out of range),
   GCLQ_ERROR_OUT_OF_MEMORY (host memory, or a budget too small for the graph
   and one step of the search), GCLQ_ERROR_NO_DEVICE /
   GCLQ_ERROR_BACKEND_UNAVAILABLE (CUDA asked for), GCLQ_ERROR_CUDA. */
GCLQ_DEF gclq_status gclq_max_cliques(const gclq_graph *graph, const gclq_maxclique_options *options,
                                      gclq_maxclique_result *result);
/* Release the result's arrays and zero it (NULL and zeroed are fine). */
GCLQ_DEF void gclq_maxclique_result_free(gclq_maxclique_result *result);

/* ---------------------------------------------------------------------------
   7. set intersection
   ------------------------------------------------------------------------- */
/* k sorted sets of 32-bit elements and their intersections, after Bellas and
   Gounaris, "Exploiting GPUs for fast intersection of large sets" (the set
   intersection paper below): one pair, a batch of given pairs, all pairs
   i < j of a collection, and the containment join.

     gclq_sets s;
     gclq_intersect_result r;
     gclq_sets_gen gen = {GCLQ_SETS_UNIFORM, 1000, 100000000, 100000, 0, 42};  // dist, k, U, avg, fixed, seed
     gclq_sets_generate(&gen, &s);
     if (gclq_intersect_pair(&s, 0, 1, NULL, &r) == GCLQ_SUCCESS)
       printf("|s0 & s1| = %u\n", r.h_counts[0]);
     gclq_intersect_result_free(&r);
     gclq_sets_free(&s);

   Backends: HOST is the serial two-pointer merge (the reference). CUDA runs
   every call as batches of pairs by the methods of gclq_intersect_method:
   all pairs and the containment join are the pairs i < j in row order,
   2^22 at a time, and a batch that does not fit the device memory budget
   runs in halves (the paper's tiling of the output, Fig. 7); or, by
   INVERTED_INDEX and BIT_MATRIX, all pairs at once from one structure of
   the whole collection, in row tiles of the counts under the budget. Both
   backends give the same numbers, byte for byte.

   The containment join can split its counts as MMJoin does (Deep et al.,
   the set intersection paper's section 4.1): an element (a value) is light
   when fewer than options.split_below sets hold it, heavy otherwise, and
   |s_i & s_j| = (the light elements they share) + (the heavy ones). The
   heavy part, the dense one, is the collection cut down to its heavy
   elements (renumbered 0 .. H - 1 in order), counted by the backend and
   method as without the split: on CUDA the device's all-pairs methods, for
   which dense columns are the cheap case (BIT_MATRIX, the paper's MM).
   The light part, the sparse one, is counted on the host from an inverted
   index (value -> its sets, a radix sort of (value, set)): every pair of
   sets of a light value's list adds one to that pair's light count,
   row by row (c (c - 1) / 2 increments for a value in c sets, fewer than
   split_below^2 / 2). On CUDA the light part runs in a host thread while
   the device counts the heavy part (co-processing); the device's counts
   wait for the light ones only where the two are added, before the sink
   decides each pair. The sums are exact, so the answer is byte-identical to
   HOST's for every threshold: all heavy (split_below 1), all light
   (split_below above k: the device counts an empty collection), and
   between. stats.split reports the threshold, the elements of either
   part, the light increments and the two halves' times. Only the
   containment join splits; gclq_intersect_all ignores split_below. Sets
   are not split by size (MMJoin's Delta_1): every set is a row of the
   heavy part, since the join needs every pair's count anyway. */

/* A collection of k sets in CSR form on the host: set i is
   h_elements[h_offsets[i] .. h_offsets[i + 1]), strictly increasing. Sets
   may be empty; a set holds at most 2^32 - 1 elements. universe is above
   every element (the generators' and the binary file's U, at least the
   largest element + 1). The builders fill one and gclq_sets_free releases
   it; it need not be zeroed before a builder fills it, and a builder that
   fails leaves it zeroed. A view (gclq_sets_from_graph) borrows its arrays:
   gclq_sets_free then only zeroes it. */
typedef struct gclq_sets {
  uint32_t num_sets;     /* k */
  uint64_t universe;     /* every element is below it */
  uint64_t total;        /* elements in all sets: h_offsets[k] */
  uint64_t *h_offsets;   /* k + 1 entries, h_offsets[0] = 0, non-decreasing */
  uint32_t *h_elements;  /* total entries */
  int is_view;           /* 1: the arrays belong to someone else (a graph) */
} gclq_sets;

/* The same collection on the device (gclq_sets_upload): d_offsets (k + 1)
   and d_elements (total) were taken through allocator on stream; release
   with gclq_sets_device_free on the same allocator. */
typedef struct gclq_sets_device {
  uint32_t num_sets;
  uint64_t universe;
  uint64_t total;
  uint64_t *d_offsets;
  uint32_t *d_elements;
} gclq_sets_device;

/* Where and why building a collection failed (GCLQ_ERROR_PARSE,
   GCLQ_ERROR_UNSORTED_SET, GCLQ_ERROR_IO, GCLQ_ERROR_TOO_LARGE). */
typedef struct gclq_sets_error {
  uint64_t set;          /* 0-based index of the set at fault; UINT64_MAX when not about one set */
  uint64_t line;         /* text input: 1-based line; 0 otherwise */
  uint64_t byte_offset;  /* binary input: offset of the field at fault; 0 otherwise */
  char message[128];     /* e.g. "element 7 does not follow 9" */
} gclq_sets_error;

/* A copy of k sets given as CSR arrays (h_offsets: k + 1 entries starting at
   0; h_elements: h_offsets[k] entries), checked: offsets non-decreasing, each
   set strictly increasing (GCLQ_ERROR_UNSORTED_SET, err->set names the first
   bad set), at most 2^32 - 1 elements a set (GCLQ_ERROR_TOO_LARGE). universe
   0 means the largest element + 1; a universe not above every element is
   GCLQ_ERROR_INVALID_ARGUMENT. err may be NULL. */
GCLQ_DEF gclq_status gclq_sets_from_arrays(uint32_t num_sets, const uint64_t *h_offsets, const uint32_t *h_elements,
                                           uint64_t universe, gclq_sets *sets, gclq_sets_error *err);
/* A view of a graph's adjacency lists as a collection, without a copy: set v
   is the neighbours of v, universe = num_vertices. The graph must outlive
   the view and stay unchanged. */
GCLQ_DEF gclq_status gclq_sets_from_graph(const gclq_graph *graph, gclq_sets *sets);
/* Check a collection (as gclq_sets_from_arrays checks its input). */
GCLQ_DEF gclq_status gclq_sets_validate(const gclq_sets *sets, gclq_sets_error *err);

/* Text: one set per line, its elements as unsigned decimal integers
   separated by spaces or tabs, strictly increasing; '#' starts a comment to
   the end of the line; lines that hold nothing but blanks or a comment are
   skipped (so an empty set cannot be written in text). Line ends LF, CRLF or
   CR. Errors name the line (err->line) and the set (err->set): a token that
   is not a number or above 2^32 - 1 (GCLQ_ERROR_PARSE), elements out of
   order (GCLQ_ERROR_UNSORTED_SET). Memory taken is at most proportional to
   the input's length. universe = the largest element + 1. */
GCLQ_DEF gclq_status gclq_sets_parse_text(const char *text, size_t len, gclq_sets *sets, gclq_sets_error *err);
GCLQ_DEF gclq_status gclq_sets_load_text(const char *path, gclq_sets *sets, gclq_sets_error *err);
/* Binary, the format of the set intersection paper's code, little-endian:
     u32 k, u32 universe, u64 total, u32 sizes[k], u32 elements[total]
   The length must be exactly 16 + 4k + 4 total bytes and the sizes must add
   up to total; both are checked against the input's length before anything
   is allocated, so a hostile header takes nothing. Errors name the byte
   offset of the field at fault (err->byte_offset; GCLQ_ERROR_PARSE) or the
   set out of order (GCLQ_ERROR_UNSORTED_SET, the offset of the element).
   universe = the larger of the header's and the largest element + 1. */
GCLQ_DEF gclq_status gclq_sets_parse_binary(const void *data, size_t len, gclq_sets *sets, gclq_sets_error *err);
GCLQ_DEF gclq_status gclq_sets_load_binary(const char *path, gclq_sets *sets, gclq_sets_error *err);
/* Write the binary format (a universe above 2^32 - 1 is TOO_LARGE). */
GCLQ_DEF gclq_status gclq_sets_save_binary(const gclq_sets *sets, const char *path);

/* Generated collections, the paper's dist-U-avg datasets. Sizes: avg_size
   for every set when fixed_size, else uniform integers in
   [avg - avg/2, avg + avg/2] (integer division; mean avg), each capped at U.
   Elements: drawn independently from the distribution over [0, U), repeated
   draws dropped, drawing again until the set has its size (at most 64
   rounds: a set whose size nears the support of a skewed distribution may
   come out smaller):
     UNIFORM  every value equally likely;
     NORMAL   round(U/2 + (U/8) z), z the sum of 12 uniforms [0, 1) minus 6
              (Irwin-Hall: mean 0, variance 1), draws outside [0, U) redrawn;
     ZIPF     floor((U + 1)^u) - 1, u uniform in [0, 1): P(v) is
              proportional to log((v + 2) / (v + 1)), about 1 / (v + 1)
              (Zipf with exponent 1: small values are the frequent ones).
   Deterministic for a seed (splitmix64, our own log and exp). */
typedef enum gclq_sets_dist {
  GCLQ_SETS_UNIFORM = 0,
  GCLQ_SETS_NORMAL = 1,
  GCLQ_SETS_ZIPF = 2
} gclq_sets_dist;
typedef struct gclq_sets_gen {
  gclq_sets_dist dist;
  uint32_t num_sets;   /* k */
  uint64_t universe;   /* U, 1 .. 2^32 */
  uint64_t avg_size;   /* average set size, at most U */
  int fixed_size;      /* 1: every set has avg_size elements */
  uint64_t seed;
} gclq_sets_gen;
GCLQ_DEF gclq_status gclq_sets_generate(const gclq_sets_gen *gen, gclq_sets *sets);
/* Release what a builder allocated (nothing for a view) and zero the struct. */
GCLQ_DEF void gclq_sets_free(gclq_sets *sets);

/* The collection on the device (allocator NULL or zero: cudaMallocAsync).
   Asynchronous on stream; the host arrays must stay until it completes.
   GCLQ_ERROR_BACKEND_UNAVAILABLE without nvcc. */
GCLQ_DEF gclq_status gclq_sets_upload(const gclq_sets *sets, const gclq_device_allocator *allocator,
                                      gclq_sets_device *d_sets, gclq_stream stream);
GCLQ_DEF void gclq_sets_device_free(gclq_sets_device *d_sets, const gclq_device_allocator *allocator,
                                    gclq_stream stream);

/* How the CUDA backend intersects one pair (a, b), |a| <= |b| after a swap:
     MERGE_PATH     Intersect Path (the paper, 3.1.1): the merge grid of the
                    pair cut by equidistant cross diagonals, one tile of
                    3840 merge steps per block, found by a binary
                    search on the diagonal; the tile's slices of a and b in
                    shared memory, cut again per thread; each thread merges
                    its piece. O(|a| + |b|).
     BINARY_SEARCH  optimized binary search, OBS (the paper, 3.1.2): every
                    element of a searched in b, each block taking a chunk of
                    a; the top levels of the search tree of the part of b
                    the chunk spans cached in shared memory. O(|a| log |b|).
     HASH           hash-based intersection, HI (the paper, 3.1.3): a block
                    per chunk of 2048 elements of a, hashed into buckets in
                    shared memory (a full bucket's overflow is looked up in
                    the sorted chunk itself: nothing is lost); the part of b
                    the chunk's values span probes it in order. O(|a| + |b|).
     BITMAP         bitmap-based intersection, BI (the paper, 3.1.4): a's
                    value range [a_0, a_last] cut into windows of 2^17 values,
                    a block per window: the bits of a's elements set in
                    shared memory, then b's elements there test theirs.
                    O(|a| + |b| + (a_last - a_0) / 2^17).
     BITMAP_DYNAMIC the same over the range the two sets share only,
                    [max(a_0, b_0), min(a_last, b_last)]; nothing runs when
                    they do not overlap.
     IP_OBS         the paper's hybrid (3.1.6): Intersect Path's tiles, each
                    thread binary-searching its elements of the tile's a
                    slice in the b slice, held in shared memory.
     IP_HASH        Intersect Path's tiles, the a slice hashed as HASH's
                    chunks and the b slice probing it.
     AUTO           for given pairs (gclq_intersect_pair, _pairs), by the
                    batch: where one pair holds at least half the merge
                    work (|a| + |b| summed), BITMAP_DYNAMIC when that pair
                    is dense (|a| + |b| >= GCLQ_SETS_AUTO_BITMAP_DENSITY x
                    the values both span) and spread over at least
                    GCLQ_SETS_AUTO_BITMAP_WINDOWS full stretches of 2^18
                    values (two windows each), else IP_OBS when its larger
                    set is below GCLQ_SETS_AUTO_RATIO x its smaller; where
                    no pair dominates and the pairs average fewer than
                    GCLQ_SETS_AUTO_IP_OBS_BELOW merge steps, IP_OBS; else
                    per pair: BINARY_SEARCH when
                    |b| >= GCLQ_SETS_AUTO_RATIO * |a|, or for a pair of a
                    warp (below) when |a| <= 64 or |b| >= 2 |a|, else
                    MERGE_PATH.
                    gclq_intersect_pairs_device's AUTO, which sees no pair
                    on the host, runs IP_OBS, except that a pair of 2^17
                    elements or more that passes the dominant pair's
                    bitmap test on its own (each set's densest of 32
                    stretches of equal count standing for its peak), at a
                    density of 0.1 or more, runs BITMAP_DYNAMIC. Where
                    AUTO runs IP_OBS, its pairs of a warp (below) take the
                    per-pair rule's warps, not IP_OBS's.
                    stats.method says which ran (AUTO: the per-pair rule).
   Pairs with |a| + |b| <= 1024 run a warp each (the same
   methods at warp width, with the warp's own table in shared memory; for
   the bitmaps only when the range is at most 2^15 values); larger ones a
   block per tile, so one giant pair among millions of tiny ones spreads
   over the whole device. HOST ignores the method (the two-pointer merge);
   stats.method reports what ran.
   All pairs at once (gclq_intersect_all, gclq_containment_join only; asked
   for given pairs, gclq_intersect_pair / _pairs / _pairs_device, on any
   backend, they are GCLQ_ERROR_INVALID_ARGUMENT):
     INVERTED_INDEX sf-gssjoin (the paper, 3.1.5): the index value -> the
                    sets that hold it (a radix sort of (value, set)), then
                    for each value every pair of its sets adds one to that
                    pair's count (atomics). A value in c sets makes
                    c (c - 1) / 2 increments, about total^2 / (2 U) in all
                    for uniform sets; lists of more than 16 sets are cut
                    into tiles of 2048 increments, a block each. The index
                    takes about 16 bytes an element while it is built (12
                    after) and must fit the budget beside the collection
                    and one row of counts (else GCLQ_ERROR_OUT_OF_MEMORY);
                    total below 2^31 (else GCLQ_ERROR_TOO_LARGE).
     BIT_MATRIX     the paper's MM (3.2) as a hand-written bit product: the
                    universe compacted to the values in two or more sets,
                    each set a row of bits over it, each count the popcount
                    of two rows ANDed; a tiled kernel, or tensor cores
                    (mma .b1 AND/POPC) under GCLQ_SETS_BIT_MATRIX_TC. Work
                    k^2 / 2 x the compacted universe / 32 words: for small
                    universes. A matrix that does not fit the budget beside
                    the counts is built in chunks of columns (256 of them
                    at least, with one row of counts, must fit).
   Both count into the dense triangle in row tiles sized to the budget (the
   paper's Fig. 7); the answers never depend on it. HOST ignores the method
   (the two-pointer merge); stats.method reports what ran. */
typedef enum gclq_intersect_method {
  GCLQ_INTERSECT_AUTO = 0,
  GCLQ_INTERSECT_MERGE_PATH = 1,
  GCLQ_INTERSECT_BINARY_SEARCH = 2,
  GCLQ_INTERSECT_SERIAL_MERGE = 3, /* the HOST backend's (stats only; asking for it runs HOST) */
  GCLQ_INTERSECT_HASH = 4,
  GCLQ_INTERSECT_BITMAP = 5,
  GCLQ_INTERSECT_BITMAP_DYNAMIC = 6,
  GCLQ_INTERSECT_IP_OBS = 7,
  GCLQ_INTERSECT_IP_HASH = 8,
  GCLQ_INTERSECT_INVERTED_INDEX = 9, /* all pairs at once */
  GCLQ_INTERSECT_BIT_MATRIX = 10     /* all pairs at once */
} gclq_intersect_method;

/* AUTO's per-pair crossover for pairs larger than a warp's (|a| + |b| >
   1024): binary search when the larger set is at least this many times the
   smaller (merge path reads both sets once; binary search reads about
   |a| log2(|b| / |a|) scattered words). A warp's pairs have their own rule
   (binary search when |a| <= 64 or |b| >= 2 |a|: its lookups hit the L1
   cache). Large unbalanced pairs are not measured yet, so this bound stays
   where a scattered search surely pays. Define before the implementation
   include to move it. */
#ifndef GCLQ_SETS_AUTO_RATIO
#define GCLQ_SETS_AUTO_RATIO 32u
#endif

/* AUTO's batch rule for given pairs on CUDA (AUTO above), from bench_sets
   rows (bench/results/sets_h200.md). The bitmaps give each block a window
   of 2^17 values, so they win where the windows are full and many. The
   rule counts stretches of 2^18 values. Fig. 9's twelve pairs on an H200
   (device ms, BITMAP_DYNAMIC against IP_OBS in the same run; merge path
   and binary search were slower than IP_OBS on all twelve in an earlier
   run), with their density (|a| + |b|) / span and stretches
   (|a| + |b|) / the elements of the fullest stretch:
     bitmap faster: uniform 2 x 10^7 over 10^8 (density 0.2, 369
     stretches) 0.036 against 0.085; 2 x 10^7 over 10^9 (0.02, 3674)
     0.049 against 0.085; 2 x 10^6 over 10^8 (0.02, 342) 0.013 against
     0.024; normal 2 x 10^7 over 10^8 (0.2, 125) 0.061 against 0.084;
     2 x 10^6 over 10^8 (0.02, 113) 0.014 against 0.025; 2 x 10^7 over
     10^9 (0.02, 1198) 0.054 against 0.085.
     bitmap slower: every pair of density 0.002 (2 x 10^6 over 10^9,
     uniform and normal: 0.029 and 0.031 against 0.022 and 0.022); zipf
     (all values crowded into a few stretches: 3.8 or 38) 0.081-0.228
     against 0.023-0.085.
   So BITMAP_DYNAMIC for the dominant pair when both hold:
     GCLQ_SETS_AUTO_BITMAP_DENSITY   (|a| + |b|) / the values both span, at
                                     least (0.01);
     GCLQ_SETS_AUTO_BITMAP_WINDOWS   (|a| + |b|) / the elements of the
                                     fullest stretch of 2^18 values, at
                                     least: the windows busy at once (64,
                                     between 38 and 113; estimated from
                                     each set's densest of 1024 stretches
                                     of equal count,
                                     gclq__sets_peak_density), times
                                     GCLQ_SETS_AUTO_BITMAP_FULL / the
                                     density where the density is above
                                     that (0.2): heavier windows, fewer
                                     needed.
   A dominant pair the bitmap does not take: IP_OBS, faster than merge
   path (the per-pair rule's pick for a balanced pair) on all twelve of
   Fig. 9's pairs above, by 1-12% (zipf 2 x 10^6 over 10^9: 0.023 against
   0.026).
   Batches of many small pairs: every edge of R-MAT 16, 17 and 18 as pairs
   of adjacency lists (1,400-2,500 steps a pair on average): IP_OBS 3.18,
   9.55, 25.2 ms against merge path / binary search per pair 3.65, 11.2,
   27.1 (binary search alone 3.37, 11.3, 24.0), an H100.
   GCLQ_SETS_AUTO_IP_OBS_BELOW bounds the pairs' average steps for that
   choice: batches of many larger pairs keep the per-pair rule (not yet
   measured against IP_OBS). Define before the implementation include to
   move them. */
#ifndef GCLQ_SETS_AUTO_BITMAP_DENSITY
#define GCLQ_SETS_AUTO_BITMAP_DENSITY 0.01
#endif
#ifndef GCLQ_SETS_AUTO_BITMAP_WINDOWS
#define GCLQ_SETS_AUTO_BITMAP_WINDOWS 64.0
#endif
#ifndef GCLQ_SETS_AUTO_BITMAP_FULL
#define GCLQ_SETS_AUTO_BITMAP_FULL 0.2
#endif
#ifndef GCLQ_SETS_AUTO_IP_OBS_BELOW
#define GCLQ_SETS_AUTO_IP_OBS_BELOW 65536u
#endif
/* The rule's unit of values: stretches of 2^18 (two bitmap windows), the
   size the thresholds above were measured with */
#define GCLQ__SETS_AUTO_STRETCH ((uint64_t)1 << 18)

/* AUTO's backend crossover: with a CUDA device present, AUTO still runs
   HOST when a call's merge work, the sum of |s_i| + |s_j| over its pairs,
   is at most this (the host is done before the CUDA start-up and the upload
   would be). PROVISIONAL: to be set from bench_sets on an H200 (the call
   rows, CUDA against HOST). Define before the implementation include to
   move it. */
#ifndef GCLQ_SETS_AUTO_HOST_WORK
#define GCLQ_SETS_AUTO_HOST_WORK 100000u
#endif

/* gclq_intersect_options.split_below: no light/heavy split. */
#define GCLQ_SPLIT_OFF UINT64_MAX

/* AUTO for all pairs and the containment join on CUDA (one rule,
   gclq__sets_all_pick): the cheapest of three estimates, in merge steps:
     pairwise batches  W = (k - 1) total (every set meets the k - 1 others);
     BIT_MATRIX        GCLQ_SETS_AUTO_MATRIX_COST x (F x k (k - 1) / 2 x
                       ceil(V2 / 32) words of AND + popcount +
                       GCLQ_SETS_AUTO_MATRIX_BUILD x total), V2 the values
                       in two or more sets (the matrix's columns) and F =
                       max(1, GCLQ_SETS_AUTO_MATRIX_TILES / the tiles of
                       32 x 32 counts): few sets leave the tensor cores
                       idle (k = 1000 has 528 tiles);
     INVERTED_INDEX    GCLQ_SETS_AUTO_INDEX_COST x (total +
                       GCLQ_SETS_AUTO_INCREMENT_SHARE x I), the index's
                       elements and its pair increments I (a value in c
                       sets makes c (c - 1) / 2).
   On CUDA V2 and I come from a sample of the elements
   (gclq__sets_all_estimate: I close, V2 up to 5x high); where V2 / 8 would
   pick otherwise, the device counts V2 exactly (the bit matrix's column
   marking) before it picks. The light/heavy split prices its parts by the
   values and increments its host index counts (gclq__mmjoin_auto).
   The costs are against a merge step (6.5 x 10^-9 ms on an H100), fitted
   to bench_sets's seven all-pairs rows on an H100 (sessions 14 and 15;
   bench/results/sets_h200.md, "Session 16"): an index element 5.4 x 10^-8
   ms, an increment 1.7 x 10^-8, a matrix word 5 x 10^-11 at full tiles
   (3.1-3.4 x 10^-10 at k = 1000), a matrix element 2.4 x 10^-7. A cost of
   0 never picks that method. Define before the implementation include to
   move them. */
#ifndef GCLQ_SETS_AUTO_MATRIX_COST
#define GCLQ_SETS_AUTO_MATRIX_COST 0.0077
#endif
#ifndef GCLQ_SETS_AUTO_MATRIX_BUILD
#define GCLQ_SETS_AUTO_MATRIX_BUILD 4800.0
#endif
#ifndef GCLQ_SETS_AUTO_MATRIX_TILES
#define GCLQ_SETS_AUTO_MATRIX_TILES 3060.0
#endif
#ifndef GCLQ_SETS_AUTO_INDEX_COST
#define GCLQ_SETS_AUTO_INDEX_COST 8.3
#endif
#ifndef GCLQ_SETS_AUTO_INCREMENT_SHARE
#define GCLQ_SETS_AUTO_INCREMENT_SHARE 0.31
#endif

/* AUTO's light/heavy split of the containment join on CUDA (split_below 0;
   HOST never splits by itself). A call whose all-pairs estimate above (the
   cheapest of the three, in merge steps) is below GCLQ_SETS_AUTO_SPLIT_WORK
   does not split: the host's index would cost more than it could save.
   Otherwise the host builds the index and tries split_below = 2, 4, 8 ..:
   the heavy part costs the same estimate over its elements, its H values
   and their increments (exact, from the index), the light part
   GCLQ_SETS_AUTO_SPLIT_HOST_COST merge steps an increment, and the two run
   at once, so a threshold costs the larger of the two. The cheapest
   threshold splits when it is below
   GCLQ_SETS_AUTO_SPLIT_GAIN times the estimate without the split (over the
   values in two or more sets, as BIT_MATRIX compacts them). The work
   threshold, 2 x 10^9 merge steps (about 13 ms on an H100), keeps the
   collections the split looked at before the all-pairs costs were fitted
   (they priced about 5x higher). PROVISIONAL: to be set from bench_sets's
   containment split rows on an H200. Define before the implementation
   include to move them. */
#ifndef GCLQ_SETS_AUTO_SPLIT_WORK
#define GCLQ_SETS_AUTO_SPLIT_WORK 2e9
#endif
#ifndef GCLQ_SETS_AUTO_SPLIT_HOST_COST
#define GCLQ_SETS_AUTO_SPLIT_HOST_COST 20.0
#endif
#ifndef GCLQ_SETS_AUTO_SPLIT_GAIN
#define GCLQ_SETS_AUTO_SPLIT_GAIN 0.75
#endif

/* 1: BIT_MATRIX counts on tensor cores (mma.sync m16n8k256 .b1 AND/POPC);
   0: by the hand-written AND + popcount kernel. Tensor cores are the
   default: on an H200 they took 0.77 ms against 1.01 (the BMS stand-in) and
   142 ms against 302 (k = 1000 of 10^5 over 10^8). */
#ifndef GCLQ_SETS_BIT_MATRIX_TC
#define GCLQ_SETS_BIT_MATRIX_TC 1
#endif

/* Options of every intersection call. The zero value means "defaults" (a
   NULL options pointer too). */
typedef struct gclq_intersect_options {
  gclq_backend backend;           /* AUTO: CUDA when a device is present and the work is not small
                                     (GCLQ_SETS_AUTO_HOST_WORK), else HOST */
  gclq_intersect_method method;   /* AUTO */
  int materialise;                /* pair / pairs: 1 also writes the intersections (h_elements) */
  int sparse;                     /* all pairs: 1 gives the list of pairs with count >= min_count */
  uint64_t min_count;             /* all pairs, sparse: the threshold; 0 means 1 (non-zero counts) */
  double min_containment;         /* containment: |s_i & s_j| / |s_i| at least this; 0 means 1.0
                                     (s_i a subset of s_j); values above 1 are invalid */
  uint64_t split_below;           /* containment: MMJoin's light/heavy split (above): an element in
                                     fewer than this many sets is light (the host), the others
                                     heavy (the backend). 0: AUTO (HOST: no split; CUDA:
                                     GCLQ_SETS_AUTO_SPLIT_WORK's rule); GCLQ_SPLIT_OFF: no split;
                                     1: every element heavy; above num_sets: every one light */
  size_t device_budget_bytes;     /* device memory a call may hold; 0: 90% of the free memory. The
                                     collection must fit; pairs, counts and outputs are tiled to
                                     the rest (the results never depend on it) */
  void (*log)(void *user, const char *line); /* progress lines (one per batch of 2^22 pairs when
                                                there are several, one per budget halving, one per
                                                row tile of INVERTED_INDEX or BIT_MATRIX when there
                                                are several); NULL: silent */
  void *log_user;
  gclq_device_allocator allocator; /* zero: cudaMallocAsync / cudaFreeAsync */
  gclq_stream stream;              /* the work runs on it; the calls still return when done */
} gclq_intersect_options;

typedef struct gclq_intersect_stats {
  gclq_backend backend;           /* the backend that ran */
  int fell_back;                  /* 1: AUTO found no device and ran HOST */
  int auto_small;                 /* 1: AUTO ran HOST because the work is small (GCLQ_SETS_AUTO_HOST_WORK) */
  gclq_intersect_method method;   /* the method asked (CUDA; AUTO when pairs chose for themselves;
                                     all pairs: the method AUTO chose) or SERIAL_MERGE (HOST) */
  uint64_t warp_pairs, block_pairs; /* CUDA: pairs run by a warp, pairs run by blocks of tiles */
  uint64_t binary_search_pairs;   /* CUDA: pairs that ran BINARY_SEARCH */
  uint32_t batches;               /* CUDA: parts the pairs ran in (batches of 2^22 pairs, halved
                                     while they do not fit the budget; 1: all at once; by
                                     INVERTED_INDEX or BIT_MATRIX: row tiles of the counts) */
  uint32_t one_pass_batches;      /* CUDA, materialised: batches counted and written in one pass
                                     (all their pairs in tiles of one kind; the others: a count
                                     pass, then a write pass) */
  double total_ms, upload_ms;     /* upload: the collection to the device (CUDA) */
  double kernel_ms;               /* CUDA: the batches on the device (pairs up, kernels, answers back) */
  size_t peak_device_bytes, budget_bytes;
  char notes[128];
  struct {                        /* containment join, MMJoin's split (all zero: no split ran) */
    uint64_t below;               /* the threshold used: light = in fewer than this many sets */
    uint64_t light_values, heavy_values; /* distinct elements of either part */
    uint64_t light_increments;    /* pair increments the host made for the light part */
    uint64_t light_pairs;         /* pairs i < j that share a light element */
    double index_ms;              /* the host's inverted index and the heavy collection, before both halves */
    double host_ms;               /* the light part on the host */
    double device_ms;             /* the heavy part on the backend (CUDA: upload, kernels, readback) */
    double overlap_ms;            /* how long the two ran at once (0 on HOST: one after the other) */
    double wait_ms;               /* how long the heavy part's counts waited for the light ones */
  } split;
} gclq_intersect_stats;

/* Results. Which fields a call fills:
     pair, pairs   num_pairs = the pairs given; h_counts[p] = |s_i & s_j| of
                   pair p; with materialise, pair p's intersection is
                   h_elements[h_offsets[p] .. h_offsets[p + 1]), ascending.
     all, dense    num_pairs = k (k - 1) / 2; h_counts in row order:
                   (0,1), (0,2) .. (0,k-1), (1,2) .. (k-2,k-1).
     all, sparse   num_pairs = pairs with count >= min_count; h_pairs[2p],
                   h_pairs[2p + 1] = (i, j), i < j, sorted; h_counts[p].
     containment   num_pairs = ordered pairs (i, j), i != j, with
                   |s_i & s_j| >= min_containment * |s_i| (in double; an empty
                   s_i is inside every s_j); h_pairs sorted by (i, j), h_counts.
   total = the sum of h_counts. */
typedef struct gclq_intersect_result {
  uint64_t num_pairs;
  uint64_t total;
  uint32_t *h_counts;
  uint32_t *h_pairs;
  uint64_t *h_offsets;
  uint32_t *h_elements;
  gclq_intersect_stats stats;
} gclq_intersect_result;

/* The defaults, written out (the same as a zeroed struct). */
GCLQ_DEF void gclq_intersect_options_defaults(gclq_intersect_options *options);
/* One pair (i, j) of sets (i == j is allowed: the set itself). */
GCLQ_DEF gclq_status gclq_intersect_pair(const gclq_sets *sets, uint32_t i, uint32_t j,
                                         const gclq_intersect_options *options, gclq_intersect_result *result);
/* A batch: pair p is (h_pairs[2p], h_pairs[2p + 1]); num_pairs may be 0. */
GCLQ_DEF gclq_status gclq_intersect_pairs(const gclq_sets *sets, const uint32_t *h_pairs, uint64_t num_pairs,
                                          const gclq_intersect_options *options, gclq_intersect_result *result);
/* The batched pairs on device memory, the expert call (code whose pairs are
   already on the device, such as adjacency-list intersections): pair p is
   (d_pairs[2p], d_pairs[2p + 1]) of an uploaded collection; its count goes
   to d_counts[p]. Counts only, by method as in the options (SERIAL_MERGE,
   INVERTED_INDEX and BIT_MATRIX are invalid here); the same kernels and
   the same answers as the calls on host data. Pair indices are not checked: they must be below
   sets->num_sets. Temporary storage: with d_temp NULL, *temp_bytes gets the
   bytes needed (about 32 a pair) and nothing runs. Asynchronous on stream:
   nothing is synchronised, nothing allocated. num_pairs below 2^31.
   GCLQ_ERROR_BACKEND_UNAVAILABLE without nvcc. */
GCLQ_DEF gclq_status gclq_intersect_pairs_device(const gclq_sets_device *sets, const uint32_t *d_pairs,
                                                 uint64_t num_pairs, uint32_t *d_counts,
                                                 gclq_intersect_method method, void *d_temp, size_t *temp_bytes,
                                                 gclq_stream stream);
/* All pairs i < j (MISI): dense counts, or the sparse list (options.sparse). */
GCLQ_DEF gclq_status gclq_intersect_all(const gclq_sets *sets, const gclq_intersect_options *options,
                                        gclq_intersect_result *result);
/* The containment join (MISC), by the all-pairs counts. */
GCLQ_DEF gclq_status gclq_containment_join(const gclq_sets *sets, const gclq_intersect_options *options,
                                           gclq_intersect_result *result);
/* Release the result's arrays and zero it (NULL and zeroed are fine). */
GCLQ_DEF void gclq_intersect_result_free(gclq_intersect_result *result);
/* "auto", "merge-path", "binary-search", "serial-merge", "hash", "bitmap",
   "bitmap-dynamic", "ip-obs", "ip-hash", "inverted-index", "bit-matrix",
   or "unknown" (not a method). */
GCLQ_DEF const char *gclq_intersect_method_name(gclq_intersect_method method);

/* ---------------------------------------------------------------------------
   8. k-clique counting
   ------------------------------------------------------------------------- */
/* Core numbers, the degeneracy order, and the number of k-cliques of a
   graph: for one k (k >= 3), or for every k from 3 to the clique number
   omega in one call. Counts are exact in 64 bits; a count that does not fit
   is flagged for its k (GCLQ_ERROR_OVERFLOW in h_status), never wrapped.

   The HOST backend (serial, readable) counts by two methods:
     ORDERED  kClist style (Danisch, Balalau, Sozio, "Listing k-cliques in
              sparse real-world graphs"): orient every edge from the earlier
              to the later vertex of an order, then recurse over the
              intersections of out-neighbourhoods; a node at depth k - 1 adds
              its candidate count. Every clique it counts it visits, so it
              suits small k on sparse graphs.
     PIVOT    pivoting in the style of Jain and Seshadhri, "The Power of
              Pivoting for Exact Clique Counting": per vertex v, a succinct
              clique tree over the bitset graph of its out-neighbours; every
              leaf with r required and p optional (pivot) vertices holds
              C(p, k - r) k-cliques for every k at once, added in checked
              64-bit arithmetic. The only method that finishes on graphs
              with large cliques (facebook_combined, omega 69).
   The CUDA backend (LFTJ, LEVEL_JOIN, GROUPED, BITSET, PIVOT: see
   gclq_kclique_method) cores, orients and counts on the device, inside
   device_budget_bytes; the backend AUTO picks CUDA when a device is
   present, the method AUTO by k (gclq_kclique_method). Defining
   GCLQ_KCLIQUE_CUDA 0 before the implementation include leaves it out:
   backend CUDA then returns GCLQ_ERROR_BACKEND_UNAVAILABLE and AUTO runs
   HOST (stats.notes says so).

     gclq_kclique_options o;
     gclq_kclique_result r;
     gclq_kclique_options_defaults(&o);
     o.all = 1;                                     every k from 3 to omega
     if (gclq_kcliques(&g, &o, &r) == GCLQ_SUCCESS)
       for (i = 0; i < r.num_k; ++i)
         if (r.h_status[i] == GCLQ_SUCCESS)
           printf("k %u: %llu\n", r.k_first + i, (unsigned long long)r.h_counts[i]);
     gclq_kclique_result_free(&r); */

#ifndef GCLQ_KCLIQUE_CUDA
#define GCLQ_KCLIQUE_CUDA 1
#endif

/* The order whose direction orients each edge (earlier -> later vertex),
   for the k-clique methods (and meant for both clique searches). */
typedef enum gclq_orient_by {
  GCLQ_ORIENT_BY_DEFAULT = 0,   /* = DEGENERACY */
  GCLQ_ORIENT_BY_DEGREE = 1,    /* ascending (degree, id): out-degrees at most sqrt(2m) */
  GCLQ_ORIENT_BY_DEGENERACY = 2 /* the peeling order of gclq_degeneracy_order: out-degrees at
                                   most the largest core number */
} gclq_orient_by;

/* Core numbers of every vertex (h_core_out: num_vertices entries, or NULL
   for *max_core alone) and the largest (max_core may be NULL; 0 for a graph
   with no vertices). HOST: Batagelj-Zaversnik bucket peeling, O(n + m).
   CUDA: the maximum clique search's parallel peeling (the dissertation,
   Alg. 1) on the current device, its rounds in one cooperative launch
   where the device supports it. AUTO: CUDA when a device is present, else
   HOST. Errors: INVALID_ARGUMENT (NULL or malformed graph, bad backend),
   OUT_OF_MEMORY, NO_DEVICE / BACKEND_UNAVAILABLE (CUDA asked for), CUDA. */
GCLQ_DEF gclq_status gclq_core_numbers(const gclq_graph *graph, gclq_backend backend, uint32_t *h_core_out,
                                       uint32_t *max_core);
/* A degeneracy order (h_order_out: num_vertices compact ids), the order of
   the parallel peeling: with k the current level (the core numbers in
   ascending order), every vertex left whose remaining degree is at most k
   leaves in one round; rounds repeat until none leaves, then k moves up.
   The order is by (round, id). Core numbers never decrease along it and
   each vertex has at most its core number of neighbours later in it. Both
   backends' k-clique orientations use this order (the CUDA peeling gives
   the same rounds). Computed on the host. Errors as above. */
GCLQ_DEF gclq_status gclq_degeneracy_order(const gclq_graph *graph, uint32_t *h_order_out);

/* The methods. HOST counts by ORDERED or PIVOT; asked for a CUDA-only
   method (LFTJ, LEVEL_JOIN, GROUPED, BITSET) it counts by ORDERED, and
   stats.method says so. CUDA counts by the five below; ORDERED asked on
   CUDA runs LFTJ (the same recursion over the same oriented graph). Every
   method gives the same counts. */
typedef enum gclq_kclique_method {
  GCLQ_KCLIQUE_AUTO = 0,       /* by the rule below */
  GCLQ_KCLIQUE_ORDERED = 1,    /* kClist style (HOST) */
  GCLQ_KCLIQUE_PIVOT = 2,      /* pivoting, every k at once (HOST and CUDA) */
  GCLQ_KCLIQUE_LFTJ = 3,       /* Leapfrog Triejoin over the oriented graph (CUDA) */
  GCLQ_KCLIQUE_LEVEL_JOIN = 4, /* the level-wise join, one level per clique size (CUDA) */
  GCLQ_KCLIQUE_GROUPED = 5,    /* GAMMA's grouped extension (CUDA) */
  GCLQ_KCLIQUE_BITSET = 6      /* per-source local graphs as bit rows (CUDA) */
} gclq_kclique_method;

/* AUTO's rule. HOST (provisional: set by reasoning, not yet by
   measurement): ORDERED when one k is asked, k <=
   GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K and the largest core number is at most
   GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE (small k on a sparse graph); PIVOT
   otherwise (every k, or large cliques). CUDA (times from the
   device-resident graph): LEVEL_JOIN for triangles (H200, R-MAT 16: 4.2 ms
   against BITSET's 6.2; R-MAT 18 18.3 against 19.1; facebook_combined
   level), BITSET for k from 4 to GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K - 1 (H200,
   R-MAT 18, k = 4: 22.4 ms against LEVEL_JOIN's 55.9), PIVOT for every k at
   once and from GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K (H100, PIVOT with its last
   two levels closed, both in one run: k = 6 facebook_combined 14.1 ms
   against BITSET's 18.4, R-MAT 16 108 against 135, R-MAT 18 972 against
   1,244; k = 7 R-MAT 16 367 against 2,235; k = 5 stays BITSET's, R-MAT 18
   58.7 against 105). */
#ifndef GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K
#define GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K 6u
#endif
#ifndef GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K
#define GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K 5u
#endif
#ifndef GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE
#define GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE 48u
#endif

/* Options of gclq_kcliques. The zero value means "defaults" (k = 3, a NULL
   options pointer too); gclq_kclique_options_defaults writes them out. */
typedef struct gclq_kclique_options {
  gclq_backend backend;          /* AUTO: CUDA when GCLQ_KCLIQUE_CUDA is 1 and a device is present, else HOST */
  gclq_kclique_method method;    /* AUTO */
  uint32_t k;                    /* the clique size counted: 3 or more (0: 3; 1 and 2 are invalid);
                                    ignored when all is set */
  int all;                       /* nonzero: every k from 3 to omega (ORDERED then visits every
                                    clique of every size: slow where cliques are large) */
  gclq_orient_by orientation;    /* DEGENERACY */
  int per_vertex;                /* nonzero: h_per_vertex (one k only) */
  uint64_t max_stored;           /* list up to this many k-cliques (one k only); 0: none */
  size_t device_budget_bytes;    /* for the CUDA methods; unused by HOST */
  void (*log)(void *user, const char *line); /* progress: one line per phase and at most one a
                                                second while counting; NULL: silent */
  void *log_user;
  gclq_device_allocator allocator; /* for the CUDA methods; unused by HOST */
  gclq_stream stream;              /* for the CUDA methods; unused by HOST */
} gclq_kclique_options;

/* What a run did (times in milliseconds of processor time on HOST). */
typedef struct gclq_kclique_stats {
  gclq_backend backend;          /* the backend that ran */
  gclq_kclique_method method;    /* the method that counted (never AUTO) */
  gclq_orient_by orientation;    /* the order that oriented the edges (never DEFAULT) */
  double total_ms, order_ms, count_ms, list_ms; /* order: cores, order, oriented graph */
  uint32_t max_core;             /* the largest core number */
  uint32_t max_out_degree;       /* the largest out-degree of the oriented graph */
  uint64_t nodes;                /* recursion nodes (ORDERED) or clique-tree nodes (PIVOT) */
  size_t peak_device_bytes;      /* 0 on HOST */
  char notes[256];               /* anything worth knowing, as text */
} gclq_kclique_stats;

/* The counts. Entry i of h_counts and h_status is k = k_first + i:
   one k: k_first = options.k, num_k = 1 (a k above omega counts 0);
   all:   k_first = 3, num_k = omega - 2 (0 when omega < 3).
   h_status[i] is GCLQ_SUCCESS, or GCLQ_ERROR_OVERFLOW when that count is
   2^64 - 1 or more: h_counts[i] is then UINT64_MAX (saturated, not a
   count) and `overflowed` counts such k. The call still returns success.
   h_per_vertex (options.per_vertex): num_vertices entries in compact id
   order (entry v belongs to the vertex whose file id is h_original_ids[v]),
   the k-cliques that contain v; they sum to k times the total. An entry
   that does not fit is UINT64_MAX (only when the total overflowed).
   h_cliques (options.max_stored): `stored` cliques of k file ids each,
   clique i at [i * k, (i + 1) * k), each ascending and the list in
   lexicographic order; they are the first `stored` k-cliques of the
   ORDERED recursion (the same for the same graph and orientation),
   whichever method counted. */
typedef struct gclq_kclique_result {
  uint32_t k_first, num_k;
  uint64_t *h_counts;          /* num_k entries */
  gclq_status *h_status;       /* num_k entries: SUCCESS or ERROR_OVERFLOW */
  uint32_t overflowed;         /* entries of h_status that are ERROR_OVERFLOW */
  uint32_t omega;              /* all: the clique number; one k: 0 (not computed) */
  uint64_t *h_per_vertex;      /* num_vertices entries, or NULL */
  uint64_t stored;             /* cliques in h_cliques */
  uint64_t *h_cliques;         /* stored * k file ids, or NULL */
  gclq_kclique_stats stats;
} gclq_kclique_result;

/* The defaults, written out (the same as a zeroed struct: k = 3). */
GCLQ_DEF void gclq_kclique_options_defaults(gclq_kclique_options *options);
/* Count the k-cliques of graph. options may be NULL (defaults: k = 3).
   result is overwritten (it need not be zeroed); free it with
   gclq_kclique_result_free. A graph with no vertices, or no edges, has no
   k-cliques (all: omega 0 or 1, num_k 0).
   Errors (result zeroed, nothing leaked): GCLQ_ERROR_INVALID_ARGUMENT (NULL
   graph or result, a malformed graph, k 1 or 2 without all, an enum out of
   range, per_vertex or max_stored together with all),
   GCLQ_ERROR_OUT_OF_MEMORY (on CUDA also: the budget does not hold the
   graph and one window of the method's work), GCLQ_ERROR_BACKEND_UNAVAILABLE
   (backend CUDA with GCLQ_KCLIQUE_CUDA 0, or without nvcc), NO_DEVICE,
   CUDA. */
GCLQ_DEF gclq_status gclq_kcliques(const gclq_graph *graph, const gclq_kclique_options *options,
                                   gclq_kclique_result *result);
/* Release the result's arrays and zero it (NULL and zeroed are fine). */
GCLQ_DEF void gclq_kclique_result_free(gclq_kclique_result *result);
/* "auto", "ordered", "pivot", "lftj", "level-join", "grouped", "bitset", or "unknown". */
GCLQ_DEF const char *gclq_kclique_method_name(gclq_kclique_method method);
/* "default", "degree", "degeneracy", or "unknown". */
GCLQ_DEF const char *gclq_orient_by_name(gclq_orient_by orientation);

#ifdef __cplusplus
}
#endif
#endif /* GPUCLIQUE_H */

/* ===========================================================================
   Implementation
   ========================================================================= */
#if defined(GPUCLIQUE_IMPLEMENTATION) && !defined(GPUCLIQUE_IMPLEMENTATION_DONE)
#define GPUCLIQUE_IMPLEMENTATION_DONE

#if defined(GCLQ_MALLOC) && defined(GCLQ_FREE) && defined(GCLQ_REALLOC)
/* all three given */
#elif !defined(GCLQ_MALLOC) && !defined(GCLQ_FREE) && !defined(GCLQ_REALLOC)
#include <stdlib.h>
#define GCLQ_MALLOC(sz) malloc(sz)
#define GCLQ_FREE(p) free(p)
#define GCLQ_REALLOC(p, sz) realloc(p, sz)
#else
#error "define all of GCLQ_MALLOC, GCLQ_FREE and GCLQ_REALLOC, or none of them"
#endif
#ifndef GCLQ_ASSERT
#include <assert.h>
#define GCLQ_ASSERT(x) assert(x)
#endif

#include "gpuprim.cuh"
/* Candidate lists longer than this are not coloured (length bound only). */
#define GCLQ__COLOUR_CAP 256u
/* The most parents, and children, one step of a level takes (the device and
   the simulation): small enough that the search reaches the deep levels, and
   raises its target, early; large enough that the steps (one host
   synchronisation each) stay few. H200, bench_maxclique sweeps
   (first width / step -> ms): 4096 / 2^18 -> R-MAT 15 12220, facebook 1193;
   2^16 / 2^20 -> 1398, 338; 2^17 / 2^20 -> 975, 300; 2^18 / 2^18 -> 714, 367. */
#define GCLQ__STEP_ENTRIES ((uint64_t)1 << 20)
/* A level entry whose vertex id carries this bit is a candidate only: its
   earlier siblings may take it, but it is never expanded itself (its colour
   class bounds every clique it starts below the target). Vertex ids stay
   below it (graphs of at most 2^31 - 1 vertices on the CUDA backend). */
#define GCLQ__DEAD 0x80000000u
/* The children one step of a level may write: GCLQ__FIRST_WIDTH at first,
   doubling with every step up to the chunk (GCLQ__STEP_ENTRIES). The first
   descent is narrower than the rest, so large cliques (and a higher target)
   are found before the levels widen. Measured on R-MAT graphs: a first width
   of 4096 writes 10-20x fewer candidates than full-width steps but takes
   8-17x longer (many steps). */
#define GCLQ__FIRST_WIDTH ((uint64_t)1 << 17)
/* A step counts the children of `span` parents but takes only the prefix
   whose children fit: the parents after it are counted again by the next
   step. Counting twice as many as the last step took keeps that recount
   small (the device and the tests' simulation share this rule). */
static inline uint64_t gclq__next_span(uint64_t taken, uint64_t chunk) {
  uint64_t s = 2 * taken;
  return s < 32 ? 32 : s > chunk ? chunk : s;
}
/* A maximum-clique run's options with every default filled in (private;
   gclq__mc_resolve writes it, both backends read it). */
typedef struct gclq__mc_plan {
  int find_one;
  gclq_heuristic heuristic; /* never DEFAULT */
  uint32_t seeds;           /* 0: 5% of the vertices */
  int orient_index;         /* 0: by degree (or by degeneracy) */
  int orient_degeneracy;    /* by (peeling round, id) */
  int prune_core;           /* 0: by degree */
  gclq_bound bound;         /* never DEFAULT */
  gclq_search search;       /* never DEFAULT */
  uint32_t bits_max;        /* GCLQ__BITS_MAX (tests: gclq__bits_max) */
  uint64_t max_stored;      /* 0: every clique */
  uint64_t window;          /* 0: one window */
  gclq_window_order order;  /* never DEFAULT */
  size_t budget;            /* 0: 90% of the free device memory */
  void (*log)(void *user, const char *line);
  void *log_user;
  gclq_device_allocator allocator;
  gclq_stream stream;
  int no_split; /* 0 (bench: gclq__no_budget_split) */
  uint64_t first_width, step; /* GCLQ__FIRST_WIDTH, GCLQ__STEP_ENTRIES unless the bench tunes them */
} gclq__mc_plan;

/* The largest local graph of the bitset search. */
#define GCLQ__BITS_MAX 4096u

/* Test and bench hooks, compiled only with GPUCLIQUE_TESTING (the tests,
   bench/bench_maxclique.cu and bench/bench_kcliques.cu define it; the
   library reads the constants above):
     gclq__tune_first_width, gclq__tune_step  the CUDA search's first width and
                     step (0: GCLQ__FIRST_WIDTH, GCLQ__STEP_ENTRIES)
     gclq__no_budget_split  nonzero turns the budget mechanism off in the CUDA
                     search (the 2-clique list is built whole, a step takes
                     every parent it counted, no narrow first steps), so a
                     level that does not fit the budget is out of memory, as
                     in the paper's scheme
     gclq__bits_max  the largest local graph of the bitset search (lowered
                     to see the fallback to the list search)
     gclq__peel_by_launches  nonzero: the core peeling runs as a loop of
                     launches, as on a device without cooperative launch
     gclq__sets_cuts_in_blocks  nonzero: the set intersection's block tiles
                     find their own ends (merge path's diagonals, binary
                     search's spans, the table methods' slice ends), as when
                     the budget has no room for the partition kernel's cuts
     gclq__sets_two_passes  nonzero: a materialised batch of pairs counts,
                     then writes, even where one pass would run
     gclq__sets_stream_windows  the bitmaps' count pass of large pairs: 0
                     runs the partition kernel's records; GCLQ__STREAM_ON,
                     with GCLQ__STREAM_WIDE, GCLQ__STREAM_SLOTS and
                     GCLQ__STREAM_PAIRS or not, streams its windows that way
                     (gclq__sets_bits_stream_kernel); -1 (the default)
                     follows gclq__sets_stream_balanced and
                     gclq__sets_stream_shape
     gclq__sets_ip_obs_warps  nonzero: where AUTO runs IP_OBS (its batch
                     rule's pick, the device call), the small pairs run
                     IP_OBS's warp tables too, instead of the per-pair
                     rule's warps (gclq__sets_rule_warps)
     gclq__kcp_spill_nodes, gclq__kcp_round_tasks  the CUDA PIVOT's nodes
                     before a task hands its open levels on, and tasks a
                     round takes (0: GCLQ__KCP_SPILL_NODES, and
                     GCLQ__KCP_ROUND_TASKS per warp slot; small: tasks split
                     often, the task stack runs deep) */
#ifdef GPUCLIQUE_TESTING
static uint64_t gclq__tune_first_width = 0, gclq__tune_step = 0;
static int gclq__no_budget_split = 0;
static uint32_t gclq__bits_max = GCLQ__BITS_MAX;
static int gclq__peel_by_launches = 0; /* nonzero: the core peeling loops over launches (no cooperative launch) */
static int gclq__sets_cuts_in_blocks = 0; /* nonzero: each block tile finds its own ends */
static int gclq__sets_two_passes = 0;     /* nonzero: a materialised batch never runs the one pass */
static int gclq__sets_stream_windows = -1; /* GCLQ__STREAM_* or 0: how the bitmaps' count pass runs; -1: the rules */
static int gclq__sets_ip_obs_warps = 0;    /* nonzero: AUTO's IP_OBS runs its small pairs by IP_OBS's warps */
static uint64_t gclq__kcp_spill_nodes = 0, gclq__kcp_round_tasks = 0;
/* The plan's tuning fields from the hooks. */
static inline void gclq__mc_tuning(gclq__mc_plan *p) {
  p->bits_max = gclq__bits_max;
  p->no_split = gclq__no_budget_split;
  p->step = gclq__tune_step ? gclq__tune_step : GCLQ__STEP_ENTRIES;
  p->first_width = gclq__tune_first_width ? gclq__tune_first_width : GCLQ__FIRST_WIDTH;
}
#else
/* The plan's tuning fields: the constants. */
static inline void gclq__mc_tuning(gclq__mc_plan *p) {
  p->bits_max = GCLQ__BITS_MAX;
  p->no_split = 0;
  p->step = GCLQ__STEP_ENTRIES;
  p->first_width = GCLQ__FIRST_WIDTH;
}
#endif

/* AUTO's bitmap test, one definition for the batch rule on the host
   (gclq__sets_pairs_rule_at) and the device call's test pair by pair
   (gclq__sets_tiles_kernel). Stretch i of q of equal count of a sorted set
   x of n >= q elements: its count *c and its span of values *w (both at
   most 2^32). */
static GPRIM_HD void gclq__sets_stretch(const uint32_t *x, uint32_t n, uint32_t q, uint32_t i, uint64_t *c,
                                        uint64_t *w) {
  const uint64_t from = (uint64_t)n * i / q, to = (uint64_t)n * (i + 1) / q - 1;
  *c = to - from + 1;
  *w = (uint64_t)x[to] - x[from] + 1;
}

/* The densest of q stretches of equal count of a sorted set (n >= q >= 1),
   in elements per value. Densities c / w are compared as c w' > c' w
   (below 2^64), so one division is made, and its result is the largest of
   the stretches' own divisions. */
static GPRIM_HD double gclq__sets_peak_density_of(const uint32_t *x, uint32_t n, uint32_t q) {
  uint64_t best_c = 0, best_w = 1, c, w;
  uint32_t i;
  for (i = 0; i < q; ++i) {
    gclq__sets_stretch(x, n, q, i, &c, &w);
    if (c * best_w > best_c * w) best_c = c, best_w = w;
  }
  return (double)best_c / (double)best_w;
}

/* Is a pair of work = |a| + |b| elements, dense elements per value over the
   values both span, spread enough for the bitmap: at least `windows` full
   stretches of GCLQ__SETS_AUTO_STRETCH values (fewer above a density of
   GCLQ_SETS_AUTO_BITMAP_FULL: heavier windows)? The fullest stretch holds at
   most both sets' peak densities (peak_a, peak_b) times its values, and at
   most the work. */
static GPRIM_HD int gclq__sets_bitmap_spread(uint64_t work, double dense, double peak_a, double peak_b,
                                             double windows) {
  double fullest = (peak_a + peak_b) * (double)GCLQ__SETS_AUTO_STRETCH;
  const double scale = dense > GCLQ_SETS_AUTO_BITMAP_FULL ? GCLQ_SETS_AUTO_BITMAP_FULL / dense : 1.0;
  if (fullest > (double)work) fullest = (double)work;
  return (double)work >= windows * scale * fullest;
}

#if defined(__CUDACC__)
#include <stdio.h>
#include <string.h>
#include "gpuclique_kernels.cuh"
#endif
/* ---------------------------------------------------------------------------
   Graphs: loaders, from edges, generators.

   Host code only, in the common subset of C99 and C++. Every builder ends in
   gclq__build_csr: packed edges (lo << 32 | hi, lo < hi, compact ids) are
   radix sorted, deduplicated and scattered into both adjacency lists, which
   come out sorted because the edges are visited in (lo, hi) order.

   Input formats, as this loader reads them (decisions documented here):
   - Lines end in LF, CRLF or a lone CR (old Mac files are read line by line,
     not as one long line); a last line without an end is read too. Blank
     lines (spaces and tabs only) are skipped in every format.
   - Numbers are unsigned 64-bit decimal: a '-' sign, any other character
     inside the token, or a value above 2^64 - 1 is GCLQ_ERROR_PARSE.
   - SNAP: "u v" per line, separated by spaces or tabs; '#' starts a comment
     line. At most two more columns may follow the ids (a weight, a sign, a
     timestamp: integer or real numbers) and are ignored; a line with one id,
     a column that is not a number, or more than four columns is an error
     naming the line. Every id that appears in the file is a vertex: a vertex
     whose only edge is a self-loop is an isolated vertex.
     Empty input (or comments only) is a valid graph with no vertices.
   - DIMACS: 'c' lines are comments; exactly one "p edge N M" (or "p col N M")
     before any "e u v", ids 1 <= u, v <= N; any other line type, or text after
     the numbers, is an error. M must be the number of "e" lines, or twice or
     half of it (files differ on whether they list and count each edge once or
     in both directions); otherwise the error names the p line. All N vertices
     exist, isolated ones too (original ids 1 .. N), so N is held to the load
     limit (gclq_load_options.max_vertices). Empty input has no p line and is
     an error (line 0).
   - Matrix Market: the first line is "%%MatrixMarket matrix coordinate F S"
     (case-insensitive) with F pattern|real|integer and S general|symmetric;
     '%' lines are comments; a size line "rows cols nnz" with rows == cols,
     then exactly nnz entries "i j" (pattern) or "i j value" (real, integer),
     1 <= i, j <= rows. Every stored entry is an edge, whatever its value. All
     rows vertices exist (original ids 1 .. rows; held to the load limit).
     Empty input is an error (line 0), as is a missing size line; too few
     entries name the size line, an extra entry its own line.
   Errors at the end of the input (nothing missing on a particular line)
   report line 0. */

#include <stdio.h>
#include <stdlib.h> /* qsort */
#include <string.h>

/* ---- growable array of 64-bit words ---- */
typedef struct gclq__vec64 {
  uint64_t *a;
  size_t n, cap;
} gclq__vec64;

static void gclq__vec64_init(gclq__vec64 *v) {
  v->a = NULL;
  v->n = 0;
  v->cap = 0;
}

/* 1 on success, 0 when the allocation failed (v is unchanged). */
static int gclq__vec64_push(gclq__vec64 *v, uint64_t x) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 1024;
    uint64_t *a;
    if (cap < v->cap || cap > ((size_t)-1) / sizeof(uint64_t)) return 0;
    a = (uint64_t *)GCLQ_REALLOC(v->a, cap * sizeof(uint64_t));
    if (a == NULL) return 0;
    v->a = a;
    v->cap = cap;
  }
  v->a[v->n++] = x;
  return 1;
}

/* count elements of size bytes each, at least one byte; NULL on overflow or failure. */
static void *gclq__alloc_array(uint64_t count, size_t size) {
  if (count > (uint64_t)(((size_t)-1) / size)) return NULL;
  return GCLQ_MALLOC(count ? (size_t)count * size : 1);
}

/* ---- sorting: LSD radix sort of 64-bit keys, 8-bit digits; a digit that
   is the same in every key costs no pass ---- */
static gclq_status gclq__sort_u64(uint64_t *keys, size_t n) {
  size_t counts[8][256];
  uint64_t *src = keys, *dst, *tmp = NULL;
  size_t i;
  int d;
  if (n < 2) return GCLQ_SUCCESS;
  if (n <= 32) { /* insertion sort */
    for (i = 1; i < n; ++i) {
      uint64_t x = keys[i];
      size_t j = i;
      while (j > 0 && keys[j - 1] > x) {
        keys[j] = keys[j - 1];
        --j;
      }
      keys[j] = x;
    }
    return GCLQ_SUCCESS;
  }
  memset(counts, 0, sizeof counts);
  for (i = 0; i < n; ++i) {
    uint64_t k = keys[i];
    for (d = 0; d < 8; ++d) counts[d][(k >> (8 * d)) & 0xff]++;
  }
  for (d = 0; d < 8; ++d) {
    size_t sum = 0, b;
    if (counts[d][(keys[0] >> (8 * d)) & 0xff] == n) continue; /* one bucket: nothing moves */
    if (tmp == NULL) {
      tmp = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
      if (tmp == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    dst = src == keys ? tmp : keys;
    for (b = 0; b < 256; ++b) {
      size_t c = counts[d][b];
      counts[d][b] = sum;
      sum += c;
    }
    for (i = 0; i < n; ++i) dst[counts[d][(src[i] >> (8 * d)) & 0xff]++] = src[i];
    src = dst;
  }
  if (src != keys) memcpy(keys, src, n * sizeof(uint64_t));
  GCLQ_FREE(tmp);
  return GCLQ_SUCCESS;
}

/* sort, then drop repeats; returns the new length in *n_out */
static gclq_status gclq__sort_unique_u64(uint64_t *keys, size_t n, size_t *n_out) {
  size_t i, w = 0;
  gclq_status st = gclq__sort_u64(keys, n);
  if (st != GCLQ_SUCCESS) return st;
  for (i = 0; i < n; ++i)
    if (w == 0 || keys[w - 1] != keys[i]) keys[w++] = keys[i];
  *n_out = w;
  return GCLQ_SUCCESS;
}

/* ---- the CSR builder ----
   keys: m packed edges (lo << 32) | hi with lo < hi < n, repeats allowed;
   taken over (always freed). orig: n original ids, taken over (freed on
   failure), or NULL for id_base + v. On failure *g is zeroed. */
static gclq_status gclq__build_csr(uint64_t *keys, size_t m, uint64_t n, uint64_t *orig, uint64_t id_base,
                                   gclq_graph *g) {
  uint64_t *offsets = NULL;
  uint32_t *neighbors = NULL;
  size_t i;
  uint64_t v;
  gclq_status st;
  memset(g, 0, sizeof *g);
  if (n > 0xffffffffull) {
    st = GCLQ_ERROR_TOO_LARGE;
    goto fail;
  }
  st = gclq__sort_unique_u64(keys, m, &m);
  if (st != GCLQ_SUCCESS) goto fail;
  st = GCLQ_ERROR_OUT_OF_MEMORY;
  offsets = (uint64_t *)gclq__alloc_array(n + 1, sizeof(uint64_t));
  if (offsets == NULL || (uint64_t)m > ((uint64_t)-1) / 2) goto fail;
  neighbors = (uint32_t *)gclq__alloc_array(2 * (uint64_t)m, sizeof(uint32_t));
  if (neighbors == NULL) goto fail;
  if (orig == NULL) {
    orig = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
    if (orig == NULL) goto fail;
    for (v = 0; v < n; ++v) orig[v] = id_base + v;
  }
  /* degrees into offsets[v + 1], prefix sum: offsets[v] is where v starts */
  memset(offsets, 0, (size_t)(n + 1) * sizeof(uint64_t));
  for (i = 0; i < m; ++i) {
    offsets[(keys[i] >> 32) + 1]++;
    offsets[(keys[i] & 0xffffffffu) + 1]++;
  }
  for (v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  /* scatter with offsets[v] as the cursor; edges in (lo, hi) order put the
     smaller neighbours of v (from edges (u, v)) before the larger ones (from
     edges (v, w)), each group ascending, so every list comes out sorted */
  for (i = 0; i < m; ++i) {
    uint32_t lo = (uint32_t)(keys[i] >> 32), hi = (uint32_t)(keys[i] & 0xffffffffu);
    neighbors[offsets[lo]++] = hi;
    neighbors[offsets[hi]++] = lo;
  }
  /* each cursor now sits at the start of the next vertex: shift back */
  for (v = n; v > 0; --v) offsets[v] = offsets[v - 1];
  offsets[0] = 0;
  GCLQ_FREE(keys);
  g->num_vertices = (uint32_t)n;
  g->num_edges = (uint64_t)m;
  g->h_offsets = offsets;
  g->h_neighbors = neighbors;
  g->h_original_ids = orig;
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(keys);
  GCLQ_FREE(orig);
  GCLQ_FREE(offsets);
  GCLQ_FREE(neighbors);
  memset(g, 0, sizeof *g);
  return st;
}

/* Arbitrary 64-bit ids: edge i is (src[i * stride], dst[i * stride]). Finds
   the distinct ids of the endpoints of every edge, self-loops included
   (sorted: *ids_out, n of them; a loop's vertex is kept, isolated if it has
   no other edge) and the packed compact edges without the loops (*keys_out,
   *m_out). The caller owns both on success; on failure nothing is left
   allocated. */
static gclq_status gclq__compact_ids(const uint64_t *src, const uint64_t *dst, size_t stride, size_t num_edges,
                                     uint64_t **ids_out, uint64_t *n_out, uint64_t **keys_out, size_t *m_out) {
  size_t i, m = 0, n = 0, k = 0;
  uint64_t *ids, *keys, *shrunk;
  gclq_status st;
  *ids_out = NULL;
  *keys_out = NULL;
  for (i = 0; i < num_edges; ++i)
    if (src[i * stride] != dst[i * stride]) ++m;
  if (num_edges > ((size_t)-1) / 2) return GCLQ_ERROR_OUT_OF_MEMORY;
  ids = (uint64_t *)gclq__alloc_array(2 * (uint64_t)num_edges, sizeof(uint64_t));
  if (ids == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < num_edges; ++i) {
    ids[n++] = src[i * stride];
    ids[n++] = dst[i * stride];
  }
  st = gclq__sort_unique_u64(ids, n, &n);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(ids);
    return st;
  }
  if ((uint64_t)n > 0xffffffffull) {
    GCLQ_FREE(ids);
    return GCLQ_ERROR_TOO_LARGE;
  }
  shrunk = (uint64_t *)GCLQ_REALLOC(ids, n ? n * sizeof(uint64_t) : 1);
  if (shrunk != NULL) ids = shrunk;
  keys = (uint64_t *)gclq__alloc_array(m, sizeof(uint64_t));
  if (keys == NULL) {
    GCLQ_FREE(ids);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (i = 0; i < num_edges; ++i) {
    uint64_t a = src[i * stride], b = dst[i * stride], ab[2];
    int e;
    if (a == b) continue;
    ab[0] = a;
    ab[1] = b;
    for (e = 0; e < 2; ++e) { /* lower bound: the id is present */
      size_t lo = 0, hi = n;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ids[mid] < ab[e]) lo = mid + 1;
        else hi = mid;
      }
      ab[e] = lo;
    }
    keys[k++] = ab[0] < ab[1] ? (ab[0] << 32 | ab[1]) : (ab[1] << 32 | ab[0]);
  }
  *ids_out = ids;
  *n_out = n;
  *keys_out = keys;
  *m_out = k;
  return GCLQ_SUCCESS;
}

/* ---- text scanning ---- */
enum { GCLQ__NUM_OK = 0, GCLQ__NUM_MISSING, GCLQ__NUM_NEGATIVE, GCLQ__NUM_NOT_A_NUMBER, GCLQ__NUM_OVERFLOW };

static int gclq__is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static const char *gclq__skip_space(const char *p, const char *end) {
  while (p < end && gclq__is_space(*p)) ++p;
  return p;
}

/* Skip blanks, then read one unsigned decimal token ending at a blank or the
   end of the line. */
static int gclq__read_u64(const char **pp, const char *end, uint64_t *out) {
  const char *p = gclq__skip_space(*pp, end);
  uint64_t x = 0;
  int overflow = 0;
  if (p == end) return GCLQ__NUM_MISSING;
  if (*p == '-') return GCLQ__NUM_NEGATIVE;
  if (*p < '0' || *p > '9') return GCLQ__NUM_NOT_A_NUMBER;
  while (p < end && *p >= '0' && *p <= '9') {
    unsigned dgt = (unsigned)(*p - '0');
    if (x > (((uint64_t)-1) - dgt) / 10) overflow = 1;
    x = x * 10 + dgt;
    ++p;
  }
  if (p < end && !gclq__is_space(*p)) return GCLQ__NUM_NOT_A_NUMBER;
  if (overflow) return GCLQ__NUM_OVERFLOW;
  *out = x;
  *pp = p;
  return GCLQ__NUM_OK;
}

/* Skip blanks and return the next token [*tok, *tok_end) (empty at the end). */
static void gclq__read_word(const char **pp, const char *end, const char **tok, const char **tok_end) {
  const char *p = gclq__skip_space(*pp, end);
  *tok = p;
  while (p < end && !gclq__is_space(*p)) ++p;
  *tok_end = p;
  *pp = p;
}

/* does the token equal word (ASCII, case-insensitive)? */
static int gclq__word_is(const char *tok, const char *tok_end, const char *word) {
  size_t n = strlen(word), i;
  if ((size_t)(tok_end - tok) != n) return 0;
  for (i = 0; i < n; ++i) {
    char c = tok[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != word[i]) return 0;
  }
  return 1;
}

static gclq_status gclq__fail(gclq_load_error *err, gclq_status st, uint64_t line, const char *message) {
  if (err != NULL) {
    err->line = line;
    snprintf(err->message, sizeof err->message, "%s", message);
  }
  return st;
}

/* A number that did not read: say which and why. */
static gclq_status gclq__fail_number(gclq_load_error *err, uint64_t line, int why, const char *what) {
  if (err != NULL) {
    err->line = line;
    switch (why) {
      case GCLQ__NUM_MISSING: snprintf(err->message, sizeof err->message, "missing %s", what); break;
      case GCLQ__NUM_NEGATIVE: snprintf(err->message, sizeof err->message, "%s is negative", what); break;
      case GCLQ__NUM_OVERFLOW: snprintf(err->message, sizeof err->message, "%s does not fit in 64 bits", what); break;
      default: snprintf(err->message, sizeof err->message, "%s is not a decimal number", what); break;
    }
  }
  return GCLQ_ERROR_PARSE;
}

/* Two ids "u v" at *p (DIMACS edges, Matrix Market entries): a missing one
   fails with missing_msg, a malformed one names `what`. */
static gclq_status gclq__read_pair(const char **p, const char *le, uint64_t *a, uint64_t *b, gclq_load_error *err,
                                   uint64_t line, const char *missing_msg, const char *what) {
  int r = gclq__read_u64(p, le, a);
  if (r == GCLQ__NUM_OK) r = gclq__read_u64(p, le, b);
  if (r == GCLQ__NUM_MISSING) return gclq__fail(err, GCLQ_ERROR_PARSE, line, missing_msg);
  if (r != GCLQ__NUM_OK) return gclq__fail_number(err, line, r, what);
  return GCLQ_SUCCESS;
}

/* Line iteration: [*ls, *le) is the next line without its LF, CRLF or CR. */
typedef struct gclq__lines {
  const char *p, *end;
  uint64_t line; /* 1-based number of the line last returned */
} gclq__lines;

static int gclq__next_line(gclq__lines *it, const char **ls, const char **le) {
  const char *q = it->p;
  if (q >= it->end) return 0;
  while (q < it->end && *q != '\n' && *q != '\r') ++q;
  *ls = it->p;
  *le = q;
  if (q < it->end && *q == '\r') ++q;
  if (q < it->end && *q == '\n' && (q == *le || q[-1] == '\r')) ++q;
  it->p = q;
  it->line++;
  return 1;
}

/* ---- the three parsers (one core for files and text) ---- */

/* a value token (Matrix Market values, SNAP extra columns): integer "[+-]digits", real any of [0-9+-.eE]
   starting with a digit, sign or point */
static int gclq__mm_value_ok(const char *t, const char *te, int integer) {
  const char *p = t;
  if (p < te && (*p == '+' || *p == '-')) ++p;
  if (p == te) return 0;
  for (; p < te; ++p) {
    char c = *p;
    if (c >= '0' && c <= '9') continue;
    if (!integer && (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) continue;
    return 0;
  }
  return 1;
}

/* The columns after a SNAP line's two ids: at most GCLQ__SNAP_EXTRA of them,
   each a number (a weight, a sign, a timestamp), ignored. */
#define GCLQ__SNAP_EXTRA 2
static gclq_status gclq__snap_extra_columns(const char *p, const char *le, gclq_load_error *err, uint64_t line) {
  const char *w, *we;
  int extra = 0;
  for (;;) {
    gclq__read_word(&p, le, &w, &we);
    if (w == we) return GCLQ_SUCCESS;
    if (!gclq__mm_value_ok(w, we, 0))
      return gclq__fail(err, GCLQ_ERROR_PARSE, line, "a column after the two vertex ids is not a number");
    if (++extra > GCLQ__SNAP_EXTRA)
      return gclq__fail(err, GCLQ_ERROR_PARSE, line, "more than four columns (expected \"u v\", a weight, a time)");
  }
}

static gclq_status gclq__parse_snap(const char *text, size_t len, gclq_graph *g, gclq_load_error *err) {
  gclq__lines it;
  gclq__vec64 pairs;
  const char *ls, *le;
  uint64_t *ids = NULL, *keys = NULL, n = 0;
  size_t m = 0;
  gclq_status st;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  gclq__vec64_init(&pairs);
  while (gclq__next_line(&it, &ls, &le)) {
    const char *p = gclq__skip_space(ls, le);
    uint64_t a, b;
    int r;
    if (p == le || *p == '#') continue;
    r = gclq__read_u64(&p, le, &a);
    if (r != GCLQ__NUM_OK) {
      st = gclq__fail_number(err, it.line, r, "vertex id");
      goto fail;
    }
    r = gclq__read_u64(&p, le, &b);
    if (r == GCLQ__NUM_MISSING) {
      st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "expected two vertex ids, found one");
      goto fail;
    }
    if (r != GCLQ__NUM_OK) {
      st = gclq__fail_number(err, it.line, r, "vertex id");
      goto fail;
    }
    st = gclq__snap_extra_columns(p, le, err, it.line);
    if (st != GCLQ_SUCCESS) goto fail;
    if (!gclq__vec64_push(&pairs, a) || !gclq__vec64_push(&pairs, b)) {
      st = gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory");
      goto fail;
    }
  }
  st = gclq__compact_ids(pairs.a, pairs.a ? pairs.a + 1 : NULL, 2, pairs.n / 2, &ids, &n, &keys, &m);
  GCLQ_FREE(pairs.a);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  st = gclq__build_csr(keys, m, n, ids, 0, g);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(pairs.a);
  return st;
}

/* A declared vertex count (DIMACS N, Matrix Market rows) against the limits:
   2^32 - 1 and max_vertices. */
static gclq_status gclq__check_vertices(uint64_t n, uint64_t max_vertices, gclq_load_error *err, uint64_t line) {
  char msg[128];
  if (n > 0xffffffffull) return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, line, "more than 2^32 - 1 vertices");
  if (n <= max_vertices) return GCLQ_SUCCESS;
  snprintf(msg, sizeof msg, "%llu vertices declared, over the load limit of %llu (gclq_load_options.max_vertices)",
           (unsigned long long)n, (unsigned long long)max_vertices);
  return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, line, msg);
}

/* A 1-based edge (u, v) of a file with n vertices: both ids in 1..n, else
   the error names the line (`what`: "vertex id", "index"). */
static gclq_status gclq__check_one_based(uint64_t u, uint64_t v, uint64_t n, const char *what, gclq_load_error *err,
                                         uint64_t line) {
  char msg[96];
  if (u >= 1 && u <= n && v >= 1 && v <= n) return GCLQ_SUCCESS;
  snprintf(msg, sizeof msg, "%s %llu out of range 1..%llu", what, (unsigned long long)(u < 1 || u > n ? u : v),
           (unsigned long long)n);
  return gclq__fail(err, GCLQ_ERROR_PARSE, line, msg);
}

/* A checked 1-based edge into keys as a packed compact edge (self-loops
   dropped). */
static gclq_status gclq__push_one_based(gclq__vec64 *keys, uint64_t u, uint64_t v, gclq_load_error *err) {
  if (u == v) return GCLQ_SUCCESS; /* self-loop */
  --u;
  --v;
  if (!gclq__vec64_push(keys, u < v ? (u << 32 | v) : (v << 32 | u)))
    return gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory");
  return GCLQ_SUCCESS;
}

/* The rest of a DIMACS "p edge N M" line after the "p" (p: the read
   position): the format word, N (held to the limits) and M. */
static gclq_status gclq__dimacs_p_line(const char *p, const char *le, uint64_t line, uint64_t max_vertices,
                                       uint64_t *n, uint64_t *m, gclq_load_error *err) {
  const char *w, *we;
  int r;
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "edge") && !gclq__word_is(w, we, "col"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, line, "expected \"p edge N M\" (or \"p col N M\")");
  r = gclq__read_u64(&p, le, n);
  if (r != GCLQ__NUM_OK) return gclq__fail_number(err, line, r, "vertex count N of \"p edge N M\"");
  r = gclq__read_u64(&p, le, m);
  if (r != GCLQ__NUM_OK) return gclq__fail_number(err, line, r, "edge count M of \"p edge N M\"");
  if (gclq__skip_space(p, le) != le) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after \"p edge N M\"");
  return gclq__check_vertices(*n, max_vertices, err, line);
}

/* The rest of a DIMACS "e u v" line after the "e": the edge into keys. */
static gclq_status gclq__dimacs_e_line(const char *p, const char *le, uint64_t line, uint64_t n, gclq__vec64 *keys,
                                       gclq_load_error *err) {
  uint64_t u, v;
  gclq_status st = gclq__read_pair(&p, le, &u, &v, err, line, "expected \"e u v\" with two vertex ids", "vertex id");
  if (st != GCLQ_SUCCESS) return st;
  if (gclq__skip_space(p, le) != le) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after \"e u v\"");
  st = gclq__check_one_based(u, v, n, "vertex id", err, line);
  if (st != GCLQ_SUCCESS) return st;
  return gclq__push_one_based(keys, u, v, err);
}

static gclq_status gclq__parse_dimacs(const char *text, size_t len, uint64_t max_vertices, gclq_graph *g,
                                      gclq_load_error *err) {
  gclq__lines it;
  gclq__vec64 keys;
  const char *ls, *le;
  uint64_t n = 0, m = 0, p_line = 0, e_lines = 0;
  gclq_status st;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  gclq__vec64_init(&keys);
  while (gclq__next_line(&it, &ls, &le)) {
    const char *p = ls, *w, *we;
    gclq__read_word(&p, le, &w, &we);
    if (w == we || *w == 'c') continue; /* blank or comment */
    if (we - w == 1 && *w == 'p') {
      if (p_line != 0) {
        st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "a second p line");
        goto fail;
      }
      st = gclq__dimacs_p_line(p, le, it.line, max_vertices, &n, &m, err);
      if (st != GCLQ_SUCCESS) goto fail;
      p_line = it.line;
    } else if (we - w == 1 && *w == 'e') {
      if (p_line == 0) {
        st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "edge before the p line");
        goto fail;
      }
      st = gclq__dimacs_e_line(p, le, it.line, n, &keys, err);
      if (st != GCLQ_SUCCESS) goto fail;
      ++e_lines;
    } else {
      st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "unknown line type (expected c, p or e)");
      goto fail;
    }
  }
  if (p_line == 0) {
    st = gclq__fail(err, GCLQ_ERROR_PARSE, 0, "missing \"p edge N M\" line");
    goto fail;
  }
  if (m != e_lines && m != 2 * e_lines && 2 * m != e_lines) {
    char msg[128];
    snprintf(msg, sizeof msg, "the p line declares M = %llu edges but the file has %llu \"e\" lines",
             (unsigned long long)m, (unsigned long long)e_lines);
    st = gclq__fail(err, GCLQ_ERROR_PARSE, p_line, msg);
    goto fail;
  }
  st = gclq__build_csr(keys.a, keys.n, n, NULL, 1, g);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(keys.a);
  return st;
}

/* The Matrix Market header line: "%%MatrixMarket matrix coordinate F S";
   *field: 0 pattern, 1 integer, 2 real. */
static gclq_status gclq__mm_header(const char *ls, const char *le, int *field, gclq_load_error *err) {
  const char *p = ls, *w, *we;
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "%%matrixmarket"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "expected the %%MatrixMarket header");
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "matrix"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "expected \"matrix\" after %%MatrixMarket");
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "coordinate"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "only the coordinate format is supported");
  gclq__read_word(&p, le, &w, &we);
  if (gclq__word_is(w, we, "pattern")) *field = 0;
  else if (gclq__word_is(w, we, "integer")) *field = 1;
  else if (gclq__word_is(w, we, "real")) *field = 2;
  else return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "the field must be pattern, integer or real");
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "general") && !gclq__word_is(w, we, "symmetric"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "the symmetry must be general or symmetric");
  if (gclq__skip_space(p, le) != le)
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "unexpected text after the %%MatrixMarket header");
  return GCLQ_SUCCESS;
}

/* The size line "rows cols nnz" (square, rows held to the limits). */
static gclq_status gclq__mm_size_line(const char *p, const char *le, uint64_t line, uint64_t max_vertices, uint64_t *n,
                                      uint64_t *nnz, gclq_load_error *err) {
  uint64_t a, b, c;
  int r = gclq__read_u64(&p, le, &a);
  if (r == GCLQ__NUM_OK) r = gclq__read_u64(&p, le, &b);
  if (r == GCLQ__NUM_OK) r = gclq__read_u64(&p, le, &c);
  if (r != GCLQ__NUM_OK)
    return r == GCLQ__NUM_MISSING ? gclq__fail(err, GCLQ_ERROR_PARSE, line, "expected the size line \"rows cols nnz\"")
                                  : gclq__fail_number(err, line, r, "size");
  if (gclq__skip_space(p, le) != le)
    return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after \"rows cols nnz\"");
  if (a != b) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "the matrix is not square (rows != cols)");
  *n = a;
  *nnz = c;
  return gclq__check_vertices(a, max_vertices, err, line);
}

/* An entry "i j" (pattern) or "i j value": the edge into keys, counted in
   *count against nnz. */
static gclq_status gclq__mm_entry(const char *p, const char *le, uint64_t line, int field, uint64_t n, uint64_t nnz,
                                  uint64_t *count, gclq__vec64 *keys, gclq_load_error *err) {
  const char *w, *we;
  uint64_t a, b;
  gclq_status st = gclq__read_pair(&p, le, &a, &b, err, line, "expected an entry \"i j\" with two indices", "index");
  if (st != GCLQ_SUCCESS) return st;
  if (field != 0) {
    gclq__read_word(&p, le, &w, &we);
    if (w == we) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "missing the entry's value");
    if (!gclq__mm_value_ok(w, we, field == 1))
      return gclq__fail(err, GCLQ_ERROR_PARSE, line, "the entry's value is not a number");
  }
  if (gclq__skip_space(p, le) != le) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after the entry");
  st = gclq__check_one_based(a, b, n, "index", err, line);
  if (st != GCLQ_SUCCESS) return st;
  if (++*count > nnz) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "more entries than the size line's nnz");
  return gclq__push_one_based(keys, a, b, err);
}

static gclq_status gclq__parse_mm(const char *text, size_t len, uint64_t max_vertices, gclq_graph *g,
                                  gclq_load_error *err) {
  gclq__lines it;
  gclq__vec64 keys;
  const char *ls, *le, *p;
  uint64_t n = 0, nnz = 0, count = 0, size_line = 0;
  int field = 0;
  gclq_status st;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  gclq__vec64_init(&keys);
  if (!gclq__next_line(&it, &ls, &le))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 0, "empty input: missing the %%MatrixMarket header");
  st = gclq__mm_header(ls, le, &field, err);
  if (st != GCLQ_SUCCESS) return st;
  while (gclq__next_line(&it, &ls, &le)) {
    p = gclq__skip_space(ls, le);
    if (p == le || *p == '%') continue;
    if (size_line == 0) {
      st = gclq__mm_size_line(p, le, it.line, max_vertices, &n, &nnz, err);
      size_line = it.line;
    } else {
      st = gclq__mm_entry(p, le, it.line, field, n, nnz, &count, &keys, err);
    }
    if (st != GCLQ_SUCCESS) goto fail;
  }
  if (size_line == 0) {
    st = gclq__fail(err, GCLQ_ERROR_PARSE, 0, "missing the size line \"rows cols nnz\"");
    goto fail;
  }
  if (count < nnz) {
    char msg[96];
    snprintf(msg, sizeof msg, "fewer entries than the size line's nnz (%llu of %llu)", (unsigned long long)count,
             (unsigned long long)nnz);
    st = gclq__fail(err, GCLQ_ERROR_PARSE, size_line, msg);
    goto fail;
  }
  st = gclq__build_csr(keys.a, keys.n, n, NULL, 1, g);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(keys.a);
  return st;
}

/* The vertex limit of a load: the caller's, or what len bytes justify. */
static uint64_t gclq__max_vertices(const gclq_load_options *o, size_t len) {
  uint64_t per = GCLQ_LOAD_VERTICES_PER_BYTE, room = (0xffffffffull - GCLQ_LOAD_MIN_VERTICES) / per;
  if (o != NULL && o->max_vertices != 0) return o->max_vertices;
  return GCLQ_LOAD_MIN_VERTICES + per * ((uint64_t)len < room ? (uint64_t)len : room);
}

static gclq_status gclq__parse_any(const char *text, size_t len, gclq_format format, uint64_t max_vertices,
                                   gclq_graph *g, gclq_load_error *err) {
  switch (format) {
    case GCLQ_FORMAT_AUTO:
    case GCLQ_FORMAT_SNAP: return gclq__parse_snap(text, len, g, err);
    case GCLQ_FORMAT_DIMACS: return gclq__parse_dimacs(text, len, max_vertices, g, err);
    case GCLQ_FORMAT_MATRIX_MARKET: return gclq__parse_mm(text, len, max_vertices, g, err);
    default: return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "unknown format");
  }
}

GCLQ_DEF gclq_status gclq_graph_parse_opts(const char *text, size_t len, const gclq_load_options *options,
                                           gclq_graph *graph, gclq_load_error *err) {
  gclq_status st;
  gclq_format format = options ? options->format : GCLQ_FORMAT_AUTO;
  if (err != NULL) {
    err->line = 0;
    err->message[0] = '\0';
  }
  if (graph != NULL) memset(graph, 0, sizeof *graph);
  if (text == NULL || graph == NULL) return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "NULL argument");
  if (options != NULL && options->max_bytes != 0 && (uint64_t)len > options->max_bytes)
    return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, 0, "the input is larger than gclq_load_options.max_bytes");
  st = gclq__parse_any(text, len, format, gclq__max_vertices(options, len), graph, err);
  if (st != GCLQ_SUCCESS) memset(graph, 0, sizeof *graph);
  return st;
}

GCLQ_DEF gclq_status gclq_graph_parse(const char *text, size_t len, gclq_format format, gclq_graph *graph,
                                      gclq_load_error *err) {
  gclq_load_options o;
  memset(&o, 0, sizeof o);
  o.format = format;
  return gclq_graph_parse_opts(text, len, &o, graph, err);
}

/* the format a path's extension names: .clq/.dimacs DIMACS, .mtx Matrix
   Market, anything else SNAP */
static gclq_format gclq__format_of_path(const char *path) {
  const char *dot = strrchr(path, '.'), *end;
  if (dot == NULL || strchr(dot, '/') != NULL || strchr(dot, '\\') != NULL) return GCLQ_FORMAT_SNAP;
  end = dot + strlen(dot);
  if (gclq__word_is(dot + 1, end, "clq") || gclq__word_is(dot + 1, end, "dimacs")) return GCLQ_FORMAT_DIMACS;
  if (gclq__word_is(dot + 1, end, "mtx")) return GCLQ_FORMAT_MATRIX_MARKET;
  return GCLQ_FORMAT_SNAP;
}

GCLQ_DEF gclq_status gclq_graph_load_opts(const char *path, const gclq_load_options *options, gclq_graph *graph,
                                          gclq_load_error *err) {
  FILE *f;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  uint64_t max_bytes = options ? options->max_bytes : 0;
  gclq_format format = options ? options->format : GCLQ_FORMAT_AUTO;
  gclq_status st;
  if (err != NULL) {
    err->line = 0;
    err->message[0] = '\0';
  }
  if (graph != NULL) memset(graph, 0, sizeof *graph);
  if (path == NULL || graph == NULL) return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "NULL argument");
  if ((int)format < (int)GCLQ_FORMAT_AUTO || (int)format > (int)GCLQ_FORMAT_MATRIX_MARKET)
    return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "unknown format");
  if (format == GCLQ_FORMAT_AUTO) format = gclq__format_of_path(path);
  f = fopen(path, "rb");
  if (f == NULL) return gclq__fail(err, GCLQ_ERROR_IO, 0, "cannot open the file");
  /* read it whole, doubling the buffer, never past max_bytes (a size known
     from the file system fails before anything is read) */
  if (max_bytes != 0 && fseek(f, 0, SEEK_END) == 0) {
    long size = ftell(f);
    if (size > 0 && (uint64_t)size > max_bytes) {
      fclose(f);
      return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, 0, "the file is larger than gclq_load_options.max_bytes");
    }
    rewind(f);
  }
  for (;;) {
    size_t got;
    if (max_bytes != 0 && (uint64_t)len > max_bytes) {
      fclose(f);
      GCLQ_FREE(buf);
      return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, 0, "the file is larger than gclq_load_options.max_bytes");
    }
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : (size_t)1 << 16;
      char *nbuf = ncap > cap ? (char *)GCLQ_REALLOC(buf, ncap) : NULL;
      if (nbuf == NULL) {
        fclose(f);
        GCLQ_FREE(buf);
        return gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory reading the file");
      }
      buf = nbuf;
      cap = ncap;
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  if (ferror(f)) {
    fclose(f);
    GCLQ_FREE(buf);
    return gclq__fail(err, GCLQ_ERROR_IO, 0, "cannot read the file");
  }
  fclose(f);
  st = gclq__parse_any(buf, len, format, gclq__max_vertices(options, len), graph, err);
  GCLQ_FREE(buf);
  if (st != GCLQ_SUCCESS) memset(graph, 0, sizeof *graph);
  return st;
}

GCLQ_DEF gclq_status gclq_graph_load(const char *path, gclq_format format, gclq_graph *graph, gclq_load_error *err) {
  gclq_load_options o;
  memset(&o, 0, sizeof o);
  o.format = format;
  return gclq_graph_load_opts(path, &o, graph, err);
}

GCLQ_DEF gclq_status gclq_graph_from_edges(const uint64_t *h_src, const uint64_t *h_dst, size_t num_edges,
                                           gclq_graph *graph) {
  uint64_t *ids = NULL, *keys = NULL, n = 0;
  size_t m = 0;
  gclq_status st;
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (num_edges > 0 && (h_src == NULL || h_dst == NULL)) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq__compact_ids(h_src, h_dst, 1, num_edges, &ids, &n, &keys, &m);
  if (st != GCLQ_SUCCESS) return st;
  return gclq__build_csr(keys, m, n, ids, 0, graph);
}

GCLQ_DEF void gclq_graph_free(gclq_graph *graph) {
  if (graph == NULL) return;
  GCLQ_FREE(graph->h_offsets);
  GCLQ_FREE(graph->h_neighbors);
  GCLQ_FREE(graph->h_original_ids);
  memset(graph, 0, sizeof *graph);
}

/* ---- generators ----
   Random numbers: splitmix64 (Steele, Lea, Flood 2014; the seeding generator
   of xoshiro): state += 0x9e3779b97f4a7c15, then two xor-shift-multiply
   rounds. Uniform doubles take the top 53 bits. The logarithm below is our
   own, so a seed gives the same graph whatever the C library. */
static uint64_t gclq__splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
/* The generators' starting state: the seed mixed once, so that nearby seeds
   (s and s + the splitmix increment) do not give overlapping streams. */
static uint64_t gclq__seed_state(uint64_t seed) {
  uint64_t mix = seed;
  return gclq__splitmix64(&mix);
}

static double gclq__uniform01(uint64_t *state) {
  return (double)(gclq__splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* natural log of a normal double x in (0, 1]: x = 2^e * m with m in
   [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172 */
static double gclq__log(double x) {
  uint64_t bits;
  int e;
  double m, s, s2, t, r;
  int k;
  memcpy(&bits, &x, sizeof bits);
  e = (int)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    ++e;
  }
  s = (m - 1.0) / (m + 1.0);
  s2 = s * s;
  t = s;
  r = s;
  for (k = 3; k <= 25; k += 2) {
    t *= s2;
    r += t / k;
  }
  return 2.0 * r + (double)e * 0.6931471805599453;
}

/* log(1 - p) for p in (0, 1), accurate for tiny p too */
static double gclq__log1m(double p) {
  if (p < 1e-4) return -(p + p * p / 2 + p * p * p / 3 + p * p * p * p / 4);
  return gclq__log(1.0 - p);
}

/* G(n, p) edges into keys, by geometric skipping over the pairs (w, v),
   w < v, in order (Batagelj and Brandes 2005): O(n + m), not n^2 coin flips. */
static int gclq__er_edges(uint32_t n, double p, uint64_t *state, gclq__vec64 *keys) {
  int64_t v = 1, w = -1;
  double lp;
  if (n < 2 || p <= 0.0) return 1;
  if (p >= 1.0) {
    for (v = 1; v < (int64_t)n; ++v)
      for (w = 0; w < v; ++w)
        if (!gclq__vec64_push(keys, (uint64_t)w << 32 | (uint64_t)v)) return 0;
    return 1;
  }
  lp = gclq__log1m(p);
  while (v < (int64_t)n) {
    double skip = gclq__log(1.0 - gclq__uniform01(state)) / lp; /* >= 0; 1 - u is in (0, 1] */
    if (skip > 4.0e18) break;                                    /* past every remaining pair */
    w += 1 + (int64_t)skip;
    while (w >= v && v < (int64_t)n) {
      w -= v;
      ++v;
    }
    if (v < (int64_t)n && !gclq__vec64_push(keys, (uint64_t)w << 32 | (uint64_t)v)) return 0;
  }
  return 1;
}

static int gclq__probability_ok(double p) { return p >= 0.0 && p <= 1.0; /* false for NaN */ }

GCLQ_DEF gclq_status gclq_graph_erdos_renyi(uint32_t n, double p, uint64_t seed, gclq_graph *graph) {
  gclq__vec64 keys;
  uint64_t state = gclq__seed_state(seed);
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (!gclq__probability_ok(p)) return GCLQ_ERROR_INVALID_ARGUMENT;
  gclq__vec64_init(&keys);
  if (!gclq__er_edges(n, p, &state, &keys)) {
    GCLQ_FREE(keys.a);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  return gclq__build_csr(keys.a, keys.n, n, NULL, 0, graph);
}

/* R-MAT (Chakrabarti, Zhan, Faloutsos 2004) with the Graph500 parameters:
   at each of scale levels the edge falls in quadrant a = 0.57 (0, 0),
   b = 0.19 (0, 1), c = 0.19 (1, 0) or d = 0.05 (1, 1), one 32-bit half of a
   splitmix64 draw per level. No noise, no relabelling: ids 0 .. 2^scale - 1. */
GCLQ_DEF gclq_status gclq_graph_rmat(int scale, int edge_factor, uint64_t seed, gclq_graph *graph) {
  const uint32_t ta = (uint32_t)(0.57 * 4294967296.0), tab = (uint32_t)(0.76 * 4294967296.0),
                 tabc = (uint32_t)(0.95 * 4294967296.0);
  uint64_t state = gclq__seed_state(seed), draws, e, *keys;
  size_t k = 0;
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (scale < 1 || scale > 30 || edge_factor < 1) return GCLQ_ERROR_INVALID_ARGUMENT;
  draws = (uint64_t)edge_factor << scale;
  keys = (uint64_t *)gclq__alloc_array(draws, sizeof(uint64_t));
  if (keys == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (e = 0; e < draws; ++e) {
    uint64_t u = 0, v = 0, r = 0;
    int level;
    for (level = 0; level < scale; ++level) {
      uint32_t x;
      if ((level & 1) == 0) r = gclq__splitmix64(&state);
      x = (uint32_t)(r >> (32 * (level & 1)));
      /* a: (0, 0), b: (0, 1), c: (1, 0), d: (1, 1) */
      u = u << 1 | (uint64_t)(x >= tab);
      v = v << 1 | (uint64_t)((x >= ta && x < tab) || x >= tabc);
    }
    if (u != v) keys[k++] = u < v ? (u << 32 | v) : (v << 32 | u);
  }
  return gclq__build_csr(keys, k, (uint64_t)1 << scale, NULL, 0, graph);
}

static int gclq__cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* G(n, p) exactly as gclq_graph_erdos_renyi(n, p, seed) draws it, plus a
   clique on clique_size vertices sampled from a second splitmix64 stream
   (seeded from seed ^ 0x5851f42d4c957f2d) by Floyd's algorithm. */
GCLQ_DEF gclq_status gclq_graph_planted_clique(uint32_t n, double p, uint32_t clique_size, uint64_t seed,
                                               gclq_graph *graph, uint32_t *h_clique_out) {
  gclq__vec64 keys;
  uint64_t state = gclq__seed_state(seed), cstate = gclq__seed_state(seed ^ 0x5851f42d4c957f2dull);
  uint32_t *clique, i, j, t;
  gclq_status st;
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (!gclq__probability_ok(p) || clique_size > n) return GCLQ_ERROR_INVALID_ARGUMENT;
  gclq__vec64_init(&keys);
  clique = (uint32_t *)gclq__alloc_array(clique_size, sizeof(uint32_t));
  if (clique == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (!gclq__er_edges(n, p, &state, &keys)) goto oom;
  /* Floyd: for j = n - k .. n - 1 take t uniform in [0, j]; t if new, else j.
     The membership test is a scan: O(k^2), the cost of the clique's edges. */
  for (i = 0, j = n - clique_size; i < clique_size; ++i, ++j) {
    uint32_t x;
    int seen = 0;
    t = (uint32_t)(((gclq__splitmix64(&cstate) >> 32) * ((uint64_t)j + 1)) >> 32);
    for (x = 0; x < i && !seen; ++x) seen = clique[x] == t;
    clique[i] = seen ? j : t;
  }
  qsort(clique, clique_size, sizeof(uint32_t), gclq__cmp_u32);
  for (i = 0; i < clique_size; ++i)
    for (j = i + 1; j < clique_size; ++j)
      if (!gclq__vec64_push(&keys, (uint64_t)clique[i] << 32 | clique[j])) goto oom;
  st = gclq__build_csr(keys.a, keys.n, n, NULL, 0, graph);
  if (st == GCLQ_SUCCESS && h_clique_out != NULL && clique_size > 0)
    memcpy(h_clique_out, clique, clique_size * sizeof(uint32_t));
  GCLQ_FREE(clique);
  return st;
oom:
  GCLQ_FREE(keys.a);
  GCLQ_FREE(clique);
  return GCLQ_ERROR_OUT_OF_MEMORY;
}
/* ---------------------------------------------------------------------------
   Host backend: k-core numbers and maximum cliques.

   Serial, plain C in the common subset of C99 and C++. These are the answers
   the CUDA backend is tested against, so they are written to be read: each
   function names its algorithm and keeps to it, with no tuning that would hide
   the idea. All of them take a gclq_graph as the loaders build it (simple,
   undirected, every list sorted ascending, each edge stored both ways) and
   check its shape first (pointers, offsets, ids in range, lists strictly
   ascending, no self-loops); a malformed graph gives
   GCLQ_ERROR_INVALID_ARGUMENT, a failed allocation GCLQ_ERROR_OUT_OF_MEMORY,
   and nothing is leaked on either path.

   Private (static, gclq__host_ prefix): gclq_max_cliques calls them. They are
   `static inline` so that a translation unit that includes the
   implementation but calls none of them compiles cleanly under -Wall -Wextra
   -Werror (gcc and clang do not warn about unused static inline functions);
   the recursive ones are simply never inlined. The tests' references
   (triangle and 4-clique counts) are in tests/clique_testing.h.

     gclq__host_core_order        k-core decomposition, Batagelj-Zaversnik
                                  bucket peeling, O(n + m)
     gclq__host_max_cliques_kept  all maximum cliques (or one): greedy lower
                                  bound, then branch and bound with a greedy-
                                  colouring bound over the degeneracy order
   ------------------------------------------------------------------------- */
#include <stdlib.h> /* qsort */
#include <string.h> /* memset, memcpy */
#include <time.h>   /* clock: the progress lines' throttle */

/* ---- small helpers ------------------------------------------------------ */

/* Is g a well-formed simple graph in CSR form? (see the comment above) */
static inline int gclq__host_graph_ok(const gclq_graph *g) {
  uint32_t v;
  if (g == NULL) return 0;
  if (g->num_vertices == 0) return g->num_edges == 0;
  if (g->h_offsets == NULL || g->h_offsets[0] != 0) return 0;
  if (g->h_offsets[g->num_vertices] != 2 * g->num_edges) return 0;
  if (g->num_edges > 0 && g->h_neighbors == NULL) return 0;
  for (v = 0; v < g->num_vertices; ++v) {
    uint64_t e, begin = g->h_offsets[v], end = g->h_offsets[v + 1];
    if (end < begin || end > 2 * g->num_edges) return 0;
    for (e = begin; e < end; ++e) {
      uint32_t u = g->h_neighbors[e];
      if (u >= g->num_vertices || u == v) return 0;
      if (e > begin && g->h_neighbors[e - 1] >= u) return 0;
    }
  }
  return 1;
}

static inline uint32_t gclq__host_degree(const gclq_graph *g, uint32_t v) {
  return (uint32_t)(g->h_offsets[v + 1] - g->h_offsets[v]);
}

/* Merge intersection of two ascending lists: |a & b|, and the common values
   written to out when out is not NULL (out may alias a). */
static inline uint32_t gclq__host_intersect(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                                            uint32_t *out) {
  uint32_t i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    if (a[i] < b[j]) {
      ++i;
    } else if (a[i] > b[j]) {
      ++j;
    } else {
      if (out) out[k] = a[i];
      ++k, ++i, ++j;
    }
  }
  return k;
}

/* Bit tricks, portable (the builtins where the compiler has them). */
static inline uint32_t gclq__host_popcount64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return (uint32_t)__builtin_popcountll(x);
#else
  uint32_t c = 0;
  for (; x; x &= x - 1) ++c;
  return c;
#endif
}
static inline uint32_t gclq__host_ctz64(uint64_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
  return (uint32_t)__builtin_ctzll(x);
#else
  uint32_t c = 0;
  for (; !(x & 1); x >>= 1) ++c;
  return c;
#endif
}

/* ---- k-core decomposition ----------------------------------------------- */

/* Batagelj-Zaversnik bucket peeling ("An O(m) algorithm for cores
   decomposition of networks", 2003). Vertices sit in an array sorted by
   current degree, with bin[d] the first position of degree d. Take them in
   that order: the vertex taken has the smallest current degree, which is its
   core number; each neighbour still of higher degree moves to the front of
   its bin, the bin boundary moves past it, and its degree drops by one. The
   sort stays valid, so the whole peel is O(n + m).

   core[v] gets the core number of every vertex; order (n entries, may be
   NULL) the peeling order, a degeneracy order: core numbers are
   non-decreasing along it, and each vertex has at most core[v] neighbours
   later in it. max_core (may be NULL) gets the largest core number (0 for
   an empty graph).
     path 0-1-2, plus triangle 3-4-5:  core <-- [1, 1, 1, 2, 2, 2], max 2 */
static inline gclq_status gclq__host_core_order(const gclq_graph *g, uint32_t *core, uint32_t *order,
                                                uint32_t *max_core) {
  uint32_t n, v, i, d, max_degree = 0, best = 0;
  uint32_t *bin, *pos, *vert;
  if (!gclq__host_graph_ok(g) || (core == NULL && g->num_vertices > 0)) return GCLQ_ERROR_INVALID_ARGUMENT;
  n = g->num_vertices;
  if (n == 0) {
    if (max_core) *max_core = 0;
    return GCLQ_SUCCESS;
  }
  /* deg[] is core[]: a vertex's current degree when it is taken is final */
  for (v = 0; v < n; ++v) {
    core[v] = gclq__host_degree(g, v);
    if (core[v] > max_degree) max_degree = core[v];
  }
  bin = (uint32_t *)GCLQ_MALLOC(((size_t)max_degree + 1) * sizeof(uint32_t));
  pos = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  vert = order ? order : (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  if (bin == NULL || pos == NULL || vert == NULL) {
    GCLQ_FREE(bin);
    GCLQ_FREE(pos);
    if (vert != order) GCLQ_FREE(vert);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  /* counting sort of the vertices by degree: bin[d] = first slot of degree d */
  memset(bin, 0, ((size_t)max_degree + 1) * sizeof(uint32_t));
  for (v = 0; v < n; ++v) ++bin[core[v]];
  {
    uint32_t start = 0;
    for (d = 0; d <= max_degree; ++d) {
      uint32_t count = bin[d];
      bin[d] = start;
      start += count;
    }
  }
  for (v = 0; v < n; ++v) {
    pos[v] = bin[core[v]]++;
    vert[pos[v]] = v;
  }
  for (d = max_degree; d > 0; --d) bin[d] = bin[d - 1]; /* back to first slots */
  bin[0] = 0;
  /* peel */
  for (i = 0; i < n; ++i) {
    uint64_t e;
    v = vert[i];
    if (core[v] > best) best = core[v];
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) {
      uint32_t u = g->h_neighbors[e];
      if (core[u] > core[v]) {
        /* swap u with the first vertex of its bin, then shrink the bin */
        uint32_t du = core[u], pu = pos[u], pw = bin[du], w = vert[pw];
        if (u != w) {
          pos[u] = pw, vert[pw] = u;
          pos[w] = pu, vert[pu] = w;
        }
        ++bin[du];
        --core[u];
      }
    }
  }
  GCLQ_FREE(bin);
  GCLQ_FREE(pos);
  if (vert != order) GCLQ_FREE(vert);
  if (max_core) *max_core = best;
  return GCLQ_SUCCESS;
}

/* ---- maximum cliques ---------------------------------------------------- */

/* The search, in three steps:

   1. Core numbers and a degeneracy order (above). A clique of size s needs
      every member to have core number >= s - 1, so with a lower bound `best`
      every vertex of core < best - 1 is out.

   2. A greedy lower bound (the paper's multi-run heuristic, the dissertation, sec. 2.4.3.2,
      by core number): from each vertex, repeatedly add the candidate of
      highest core number and keep only its neighbours. best = the largest
      clique any run finds.

   3. Exact search, one subproblem per vertex v: the cliques whose first
      vertex in the degeneracy order is v, i.e. v plus a clique among its
      later neighbours (at most core[v] of them, so every subproblem is small
      even in a large sparse graph). Each clique has one first vertex, so it
      is found in exactly one subproblem. The later neighbours become a small
      dense graph of bitsets, searched depth first: R the clique so far, P the
      candidates adjacent to all of R. P is coloured greedily (colour classes
      are independent sets, so a clique takes at most one vertex of each);
      the vertices are tried from the highest colour down, and the branch on
      the i-th vertex can reach at most |R| + colour[i] vertices. Branch on
      vertex i with P restricted to its neighbours, then drop it from P (the
      branches are disjoint, so no clique is reached twice).
      (Tomita and Seki's MCQ, with San Segundo's bitset colouring; the
      per-vertex decomposition as in PMC, Rossi et al.)

   Pruning: "enumerate all" prunes a branch when |R| + colour < best,
   strictly, so branches that could tie the best survive and every maximum
   clique is reached (once). "Find one" prunes when |R| + colour <= best: it
   only looks for something larger than what it has. A node with P empty is a
   clique that cannot grow within its branch; it is recorded when its size is
   >= best (all; > best resets the list) or > best (one). A recorded clique
   that is not maximal is always smaller than the final omega, so the reset
   removes it. */

typedef struct gclq__host_mc {
  const gclq_graph *g;
  const uint32_t *core;
  int find_one;
  int keep_cliques; /* store the vertices, or only count */
  uint64_t limit;   /* store at most this many (0: all) */
  uint64_t stored;  /* cliques in `cliques` */
  int out_of_memory;

  /* the answer so far: the best size, and that many vertices per clique */
  uint32_t best;
  uint64_t count;
  uint32_t *cliques;
  size_t cliques_cap; /* in ids */

  /* the current subproblem: k local vertices (the later neighbours of the
     seed), adjacency bitsets of `words` 64-bit words each */
  uint32_t k, words, capacity; /* capacity: the largest k the buffers hold */
  uint32_t *local_to_global;
  uint64_t *adj;       /* capacity * words_cap */
  uint64_t *pbits;     /* (capacity + 2) * words_cap: P at each depth */
  uint64_t *scratch;   /* 2 * words_cap: colouring work sets */
  uint32_t *clique;    /* R, in global ids: capacity + 1 entries */
  uint32_t *stack;     /* order and colour of P at each depth */
  size_t stack_cap;

  /* progress lines (options.log; NULL: silent) */
  void (*log)(void *user, const char *line);
  void *log_user;
  clock_t last_log; /* processor time of the last search line */
} gclq__host_mc;

/* The search's progress lines come at most this often (seconds of
   processor time), checked every GCLQ__HOST_LOG_EVERY sources. */
#define GCLQ__HOST_LOG_SECONDS 1.0
#define GCLQ__HOST_LOG_EVERY 64u

/* A progress line through the log callback (nothing when there is none). */
static inline void gclq__host_mc_log(const gclq__host_mc *mc, const char *line) {
  if (mc->log != NULL) mc->log(mc->log_user, line);
}

/* The search's line after source i of n, when GCLQ__HOST_LOG_SECONDS have
   passed since the last one. */
static inline void gclq__host_mc_progress(gclq__host_mc *mc, uint32_t i, uint32_t n) {
  char line[160];
  clock_t now;
  if (mc->log == NULL || i % GCLQ__HOST_LOG_EVERY != 0) return;
  now = clock();
  if ((double)(now - mc->last_log) < GCLQ__HOST_LOG_SECONDS * CLOCKS_PER_SEC) return;
  mc->last_log = now;
  snprintf(line, sizeof line, "search: source %u of %u (%.0f%%), best %u, %llu cliques of that size", i, n,
           100.0 * i / n, mc->best, (unsigned long long)mc->count);
  gclq__host_mc_log(mc, line);
}

/* Record R (mc->clique[0 .. size)) when it ties or beats the best ("all"),
   or beats it ("find one"). A larger R empties the list first. */
static inline void gclq__host_mc_record(gclq__host_mc *mc, uint32_t size) {
  uint32_t i, j, *dst;
  if (mc->find_one ? size <= mc->best : size < mc->best) return;
  if (size > mc->best || mc->find_one) {
    mc->best = size;
    mc->count = 0;
    mc->stored = 0;
  }
  ++mc->count;
  if (!mc->keep_cliques || (mc->limit && mc->stored >= mc->limit)) return;
  ++mc->stored;
  if ((size_t)mc->stored * size > mc->cliques_cap) {
    size_t cap = mc->cliques_cap ? 2 * mc->cliques_cap : 64 * (size_t)size;
    uint32_t *grown;
    while (cap < (size_t)mc->stored * size) cap *= 2;
    grown = (uint32_t *)GCLQ_REALLOC(mc->cliques, cap * sizeof(uint32_t));
    if (grown == NULL) {
      mc->out_of_memory = 1;
      return;
    }
    mc->cliques = grown;
    mc->cliques_cap = cap;
  }
  dst = mc->cliques + (size_t)(mc->stored - 1) * size;
  /* insertion sort into place: each clique is stored ascending */
  for (i = 0; i < size; ++i) {
    uint32_t x = mc->clique[i];
    for (j = i; j > 0 && dst[j - 1] > x; --j) dst[j] = dst[j - 1];
    dst[j] = x;
  }
}

/* Greedy colouring of P (bitset) into order[] / colour[] with colours
   non-decreasing: colour class c takes, in index order, every vertex still
   uncoloured and not adjacent to one already in class c. Returns |P|. */
static inline uint32_t gclq__host_mc_colour(gclq__host_mc *mc, const uint64_t *P, uint32_t *order,
                                            uint32_t *colour) {
  const uint32_t W = mc->words;
  uint64_t *uncoloured = mc->scratch, *open = mc->scratch + W;
  uint32_t w, n = 0, c = 0, left = 0;
  for (w = 0; w < W; ++w) {
    uncoloured[w] = P[w];
    left += gclq__host_popcount64(P[w]);
  }
  while (left > 0) {
    ++c;
    memcpy(open, uncoloured, W * sizeof(uint64_t));
    for (w = 0; w < W; ++w) {
      while (open[w]) {
        uint32_t v = 64 * w + gclq__host_ctz64(open[w]), x;
        uncoloured[w] &= ~((uint64_t)1 << (v % 64));
        for (x = w; x < W; ++x) open[x] &= ~mc->adj[(size_t)v * W + x]; /* v's neighbours leave the class */
        open[w] &= ~((uint64_t)1 << (v % 64));
        order[n] = v;
        colour[n] = c;
        ++n, --left;
      }
    }
  }
  return n;
}

/* Expand R (depth vertices, in mc->clique) with the candidates in
   P = mc->pbits + depth * words. `base` is where this depth's order and
   colour arrays start in mc->stack (offsets, not pointers: the stack may
   move when it grows). */
static inline void gclq__host_mc_expand(gclq__host_mc *mc, uint32_t depth, size_t base) {
  const uint32_t W = mc->words;
  uint64_t *P = mc->pbits + (size_t)depth * W;
  uint32_t w, np = 0, i;
  for (w = 0; w < W; ++w) np += gclq__host_popcount64(P[w]);
  if (np == 0) {
    gclq__host_mc_record(mc, depth);
    return;
  }
  if (base + 2 * (size_t)np > mc->stack_cap) {
    size_t cap = 2 * (base + 2 * (size_t)np);
    uint32_t *grown = (uint32_t *)GCLQ_REALLOC(mc->stack, cap * sizeof(uint32_t));
    if (grown == NULL) {
      mc->out_of_memory = 1;
      return;
    }
    mc->stack = grown;
    mc->stack_cap = cap;
  }
  gclq__host_mc_colour(mc, P, mc->stack + base, mc->stack + base + np);
  for (i = np; i-- > 0;) {
    uint32_t v = mc->stack[base + i], bound = depth + mc->stack[base + np + i];
    uint64_t *child = P + W;
    if (mc->find_one ? bound <= mc->best : bound < mc->best) return; /* and so for every i below */
    for (w = 0; w < W; ++w) child[w] = P[w] & mc->adj[(size_t)v * W + w];
    mc->clique[depth] = mc->local_to_global[v];
    gclq__host_mc_expand(mc, depth + 1, base + 2 * (size_t)np);
    if (mc->out_of_memory) return;
    P[v / 64] &= ~((uint64_t)1 << (v % 64));
  }
}

/* The subproblem of seed v: v and its later neighbours (rank > rank[v]) that
   can still be in a clique of size best. `slot` is an n-entry scratch map,
   all zero on entry and on return (local index + 1 of the candidates). */
static inline void gclq__host_mc_seed(gclq__host_mc *mc, uint32_t v, const uint32_t *rank, uint32_t *slot) {
  const gclq_graph *g = mc->g;
  uint32_t k = 0, i, w, need = mc->best > 0 ? mc->best - 1 : 0;
  uint64_t e;
  for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) {
    uint32_t u = g->h_neighbors[e];
    if (rank[u] > rank[v] && mc->core[u] >= need) mc->local_to_global[k++] = u;
  }
  GCLQ_ASSERT(k <= mc->capacity);
  if (mc->find_one ? k + 1 <= mc->best : k + 1 < mc->best) return;
  mc->k = k;
  mc->words = (k + 63) / 64;
  /* the local graph: bit j of row i when local i and j are adjacent */
  for (i = 0; i < k; ++i) slot[mc->local_to_global[i]] = i + 1;
  memset(mc->adj, 0, (size_t)k * mc->words * sizeof(uint64_t));
  for (i = 0; i < k; ++i) {
    uint32_t u = mc->local_to_global[i];
    for (e = g->h_offsets[u]; e < g->h_offsets[u + 1]; ++e) {
      uint32_t j = slot[g->h_neighbors[e]];
      if (j) mc->adj[(size_t)i * mc->words + (j - 1) / 64] |= (uint64_t)1 << ((j - 1) % 64);
    }
  }
  for (i = 0; i < k; ++i) slot[mc->local_to_global[i]] = 0;
  /* P = every local vertex; R = {v} */
  for (w = 0; w < mc->words; ++w) mc->pbits[mc->words + w] = 0;
  for (i = 0; i < k; ++i) mc->pbits[mc->words + i / 64] |= (uint64_t)1 << (i % 64);
  mc->clique[0] = v;
  gclq__host_mc_expand(mc, 1, 0);
}

/* Greedy lower bound from seed s (the dissertation, sec. 2.4.3): add the candidate of
   highest core number (then highest degree, then lowest id), keep only its
   neighbours, repeat. The clique goes to mc->clique; returns its size.
   cand: scratch of deg(s) entries. */
static inline uint32_t gclq__host_mc_greedy(gclq__host_mc *mc, uint32_t s, uint32_t *cand) {
  const gclq_graph *g = mc->g;
  uint32_t size = 1, nc = gclq__host_degree(g, s);
  if (nc > 0) memcpy(cand, g->h_neighbors + g->h_offsets[s], (size_t)nc * sizeof(uint32_t));
  mc->clique[0] = s;
  while (nc > 0) {
    uint32_t i, pick = cand[0];
    for (i = 1; i < nc; ++i) {
      uint32_t u = cand[i];
      if (mc->core[u] > mc->core[pick] ||
          (mc->core[u] == mc->core[pick] && gclq__host_degree(g, u) > gclq__host_degree(g, pick)))
        pick = u;
    }
    mc->clique[size++] = pick;
    nc = gclq__host_intersect(cand, nc, g->h_neighbors + g->h_offsets[pick], gclq__host_degree(g, pick), cand);
  }
  return size;
}

/* Lexicographic sort of `count` rows of `width` ids (bottom-up merge sort of
   row indices, then one permuting copy). Returns 0 when out of memory. */
static inline int gclq__host_row_less(const uint32_t *rows, uint32_t width, size_t a, size_t b) {
  uint32_t i;
  for (i = 0; i < width; ++i) {
    uint32_t x = rows[a * width + i], y = rows[b * width + i];
    if (x != y) return x < y;
  }
  return 0;
}
static inline int gclq__host_sort_rows(uint32_t *rows, size_t count, uint32_t width) {
  size_t *idx, *tmp, run, i;
  uint32_t *copy;
  if (count < 2 || width == 0) return 1;
  idx = (size_t *)GCLQ_MALLOC(count * sizeof(size_t));
  tmp = (size_t *)GCLQ_MALLOC(count * sizeof(size_t));
  copy = (uint32_t *)GCLQ_MALLOC(count * width * sizeof(uint32_t));
  if (idx == NULL || tmp == NULL || copy == NULL) {
    GCLQ_FREE(idx);
    GCLQ_FREE(tmp);
    GCLQ_FREE(copy);
    return 0;
  }
  for (i = 0; i < count; ++i) idx[i] = i;
  for (run = 1; run < count; run *= 2) {
    for (i = 0; i < count; i += 2 * run) {
      size_t lo = i, mid = i + run < count ? i + run : count, hi = i + 2 * run < count ? i + 2 * run : count;
      size_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi) tmp[o++] = gclq__host_row_less(rows, width, idx[b], idx[a]) ? idx[b++] : idx[a++];
      while (a < mid) tmp[o++] = idx[a++];
      while (b < hi) tmp[o++] = idx[b++];
    }
    { size_t *t = idx; idx = tmp; tmp = t; }
  }
  memcpy(copy, rows, count * width * sizeof(uint32_t));
  for (i = 0; i < count; ++i) memcpy(rows + i * width, copy + idx[i] * width, width * sizeof(uint32_t));
  GCLQ_FREE(idx);
  GCLQ_FREE(tmp);
  GCLQ_FREE(copy);
  return 1;
}

/* 1. The later neighbourhoods (rank: the position of each vertex in the
   degeneracy order) and the search's buffers, sized by the largest of them
   (mc->capacity <= max core) and the largest degree. Returns 0 when out of
   memory. */
static inline int gclq__host_mc_buffers(gclq__host_mc *mc, const uint32_t *order, uint32_t *rank) {
  const gclq_graph *g = mc->g;
  uint32_t n = g->num_vertices, v, i, max_degree = 0;
  size_t words_cap;
  for (i = 0; i < n; ++i) rank[order[i]] = i;
  for (v = 0; v < n; ++v) {
    uint32_t later = 0;
    uint64_t e;
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) later += rank[g->h_neighbors[e]] > rank[v];
    if (later > mc->capacity) mc->capacity = later; /* <= max_core */
    if (gclq__host_degree(g, v) > max_degree) max_degree = gclq__host_degree(g, v);
  }
  words_cap = ((size_t)mc->capacity + 63) / 64 + 1;
  mc->local_to_global = (uint32_t *)GCLQ_MALLOC(((size_t)max_degree + 1) * sizeof(uint32_t));
  mc->clique = (uint32_t *)GCLQ_MALLOC(((size_t)max_degree + 2) * sizeof(uint32_t));
  mc->adj = (uint64_t *)GCLQ_MALLOC(((size_t)mc->capacity + 1) * words_cap * sizeof(uint64_t));
  mc->pbits = (uint64_t *)GCLQ_MALLOC(((size_t)mc->capacity + 3) * words_cap * sizeof(uint64_t));
  mc->scratch = (uint64_t *)GCLQ_MALLOC(2 * words_cap * sizeof(uint64_t));
  return mc->local_to_global && mc->clique && mc->adj && mc->pbits && mc->scratch;
}

/* 2. The greedy lower bound from every vertex that could still beat it
   (the greedy clique is a clique: "find one" keeps it as its first answer;
   "enumerate all" only takes its size and finds it again in step 3); sets
   mc->best. Returns 0 when out of memory. */
static inline int gclq__host_mc_bound(gclq__host_mc *mc, const uint32_t *order) {
  uint32_t i, v, greedy_size = 0;
  for (i = mc->g->num_vertices; i-- > 0;) {
    uint32_t s = order[i]; /* highest core first */
    if (mc->core[s] + 1 <= greedy_size) continue;
    v = gclq__host_mc_greedy(mc, s, mc->local_to_global);
    if (v > greedy_size) {
      greedy_size = v;
      if (mc->find_one) {
        mc->best = 0;
        gclq__host_mc_record(mc, v);
        if (mc->out_of_memory) return 0;
      }
    }
  }
  mc->best = greedy_size; /* >= 1: there is a vertex */
  return 1;
}

/* 3. The exact search: one subproblem per vertex that might be in a clique
   of size best, in degeneracy order. Returns 0 when out of memory. */
static inline int gclq__host_mc_search(gclq__host_mc *mc, const uint32_t *order, const uint32_t *rank, uint32_t *slot) {
  uint32_t i, v, n = mc->g->num_vertices;
  memset(slot, 0, (size_t)n * sizeof(uint32_t));
  mc->last_log = clock();
  for (i = 0; i < n; ++i) {
    gclq__host_mc_progress(mc, i, n);
    v = order[i];
    if (mc->find_one ? mc->core[v] + 1 <= mc->best : mc->core[v] + 1 < mc->best) continue;
    gclq__host_mc_seed(mc, v, rank, slot);
    if (mc->out_of_memory) return 0;
  }
  return 1;
}

/* All maximum cliques of g (find_one == 0), or one of them (find_one != 0),
   with progress lines through log (may be NULL): one after the cores, one
   after the greedy bound, one every GCLQ__HOST_LOG_SECONDS of the search and
   one at its end.
     *omega    the clique number
     *count    how many maximum cliques (1 with find_one)
     *stored   how many of them are in *cliques: at most `limit` (0: all)
     *cliques  (may be NULL: count only) GCLQ_MALLOC'd, stored * omega
               compacted vertex ids (map with h_original_ids); each clique
               ascending, the cliques in lexicographic order, so two correct
               answers compare byte for byte. The caller frees it with
               GCLQ_FREE. NULL when count is 0.
   Conventions: no vertices -> omega 0, count 0; vertices but no edges ->
   omega 1 and count n (each vertex alone is a maximum clique). With
   find_one, which maximum clique comes back depends on the search order
   (not necessarily the lexicographically first); compare its size and that
   it is a clique. On failure the outputs are 0 / NULL.
     K4 plus an isolated vertex:   omega 4, count 1, cliques [0 1 2 3]
     two triangles 0-1-2, 3-4-5:   omega 3, count 2, cliques [0 1 2, 3 4 5] */
static inline gclq_status gclq__host_max_cliques_kept(const gclq_graph *g, int find_one, uint64_t limit,
                                                      void (*log)(void *user, const char *line), void *log_user,
                                                      uint32_t *omega, uint64_t *count, uint64_t *stored,
                                                      uint32_t **cliques) {
  gclq__host_mc mc;
  char line[160];
  uint32_t n, max_core = 0;
  uint32_t *order = NULL, *rank = NULL, *slot = NULL, *core = NULL;
  gclq_status status = GCLQ_SUCCESS;
  if (omega) *omega = 0;
  if (count) *count = 0;
  if (stored) *stored = 0;
  if (cliques) *cliques = NULL;
  if (!gclq__host_graph_ok(g) || omega == NULL || count == NULL || stored == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  n = g->num_vertices;
  if (n == 0) return GCLQ_SUCCESS;

  memset(&mc, 0, sizeof mc);
  mc.g = g;
  mc.find_one = find_one != 0;
  mc.keep_cliques = cliques != NULL;
  mc.limit = limit;
  mc.log = log;
  mc.log_user = log_user;
  core = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  order = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  rank = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  slot = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  if (core == NULL || order == NULL || rank == NULL || slot == NULL) goto out_of_memory;

  /* 1. core numbers, degeneracy order, the buffers */
  status = gclq__host_core_order(g, core, order, &max_core);
  if (status != GCLQ_SUCCESS) goto done;
  mc.core = core;
  snprintf(line, sizeof line, "cores: max core %u (%u vertices, %llu edges)", max_core, n,
           (unsigned long long)g->num_edges);
  gclq__host_mc_log(&mc, line);
  if (!gclq__host_mc_buffers(&mc, order, rank)) goto out_of_memory;
  /* 2. the lower bound */
  if (!gclq__host_mc_bound(&mc, order)) goto out_of_memory;
  snprintf(line, sizeof line, "heuristic: lower bound %u; max core %u", mc.best, max_core);
  gclq__host_mc_log(&mc, line);
  /* 3. the exact search */
  if (!gclq__host_mc_search(&mc, order, rank, slot)) goto out_of_memory;
  snprintf(line, sizeof line, "search: done: omega %u, %llu maximum cliques", mc.best, (unsigned long long)mc.count);
  gclq__host_mc_log(&mc, line);

  if (mc.keep_cliques && !gclq__host_sort_rows(mc.cliques, (size_t)mc.stored, mc.best)) goto out_of_memory;
  *omega = mc.best;
  *count = mc.count;
  *stored = mc.stored;
  if (cliques) {
    *cliques = mc.cliques;
    mc.cliques = NULL;
  }
  goto done;

out_of_memory:
  status = GCLQ_ERROR_OUT_OF_MEMORY;
done:
  GCLQ_FREE(core);
  GCLQ_FREE(order);
  GCLQ_FREE(rank);
  GCLQ_FREE(slot);
  GCLQ_FREE(mc.local_to_global);
  GCLQ_FREE(mc.clique);
  GCLQ_FREE(mc.adj);
  GCLQ_FREE(mc.pbits);
  GCLQ_FREE(mc.scratch);
  GCLQ_FREE(mc.stack);
  GCLQ_FREE(mc.cliques);
  return status;
}

/* ---------------------------------------------------------------------------
   Maximum cliques: the public call. The options are checked and resolved
   into a plan; graphs without edges are answered here; otherwise a backend
   runs, and its cliques (compact ids) are sorted, each clique and then the
   list, and mapped to file ids. Sorting compact ids sorts file ids too: the
   loaders compact in increasing order of file id.
   ------------------------------------------------------------------------- */
#include <time.h>

GCLQ_DEF void gclq_maxclique_options_defaults(gclq_maxclique_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->backend = GCLQ_BACKEND_AUTO;
  options->mode = GCLQ_MODE_ALL;
  options->heuristic = GCLQ_HEURISTIC_MULTI_DEGREE;
  options->seeds = 0;
  options->orientation = GCLQ_ORIENT_DEGREE;
  options->prune = GCLQ_PRUNE_CORE;
  options->bound = GCLQ_BOUND_COLOUR;
  options->search = GCLQ_SEARCH_BITSET;
  options->window_size = 0;
  options->window_order = GCLQ_WINDOW_ORDER_DEGREE_DESC;
  options->device_budget_bytes = 0;
}

/* Options (NULL: defaults) into a plan; an enum out of range is invalid. */
static inline gclq_status gclq__mc_resolve(const gclq_maxclique_options *o, gclq__mc_plan *p, gclq_backend *backend) {
  gclq_maxclique_options d;
  if (o == NULL) {
    gclq_maxclique_options_defaults(&d);
    o = &d;
  }
  if ((int)o->backend < 0 || (int)o->backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->mode < 0 || (int)o->mode > (int)GCLQ_MODE_ONE) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->heuristic < 0 || (int)o->heuristic > (int)GCLQ_HEURISTIC_MULTI_CORE) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->orientation < 0 || (int)o->orientation > (int)GCLQ_ORIENT_DEGENERACY) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->prune < 0 || (int)o->prune > (int)GCLQ_PRUNE_CORE) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->bound < 0 || (int)o->bound > (int)GCLQ_BOUND_COLOUR) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->search < 0 || (int)o->search > (int)GCLQ_SEARCH_LIST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->window_order < 0 || (int)o->window_order > (int)GCLQ_WINDOW_ORDER_CORE_DESC)
    return GCLQ_ERROR_INVALID_ARGUMENT;
  if (o->allocator.alloc != NULL && o->allocator.free == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(p, 0, sizeof *p);
  p->find_one = o->mode == GCLQ_MODE_ONE;
  p->heuristic = o->heuristic == GCLQ_HEURISTIC_DEFAULT ? GCLQ_HEURISTIC_MULTI_DEGREE : o->heuristic;
  p->seeds = o->seeds;
  p->orient_index = o->orientation == GCLQ_ORIENT_INDEX;
  p->orient_degeneracy = o->orientation == GCLQ_ORIENT_DEGENERACY;
  p->prune_core = o->prune != GCLQ_PRUNE_DEGREE;
  p->bound = o->bound == GCLQ_BOUND_DEFAULT ? GCLQ_BOUND_COLOUR : o->bound;
  p->search = o->search == GCLQ_SEARCH_DEFAULT ? GCLQ_SEARCH_BITSET : o->search;
  p->max_stored = o->max_stored;
  p->window = o->window_size;
  p->order = o->window_order == GCLQ_WINDOW_ORDER_DEFAULT ? GCLQ_WINDOW_ORDER_DEGREE_DESC : o->window_order;
  p->budget = o->device_budget_bytes;
  p->log = o->log;
  p->log_user = o->log_user;
  p->allocator = o->allocator;
  p->stream = o->stream;
  gclq__mc_tuning(p);
  if (p->first_width > p->step) p->first_width = p->step;
  *backend = o->backend;
  return GCLQ_SUCCESS;
}

/* Each row ascending, the rows in lexicographic order, then file ids into
   r->h_cliques. rows is consumed (freed) either way. */
static inline gclq_status gclq__mc_finish(const gclq_graph *g, uint32_t omega, uint64_t count, uint64_t stored,
                                          uint32_t *rows, gclq_maxclique_result *r) {
  uint64_t i, total = stored * omega;
  uint32_t j, t;
  for (i = 0; i < stored; ++i) { /* insertion sort: rows are short */
    uint32_t *row = rows + i * omega;
    for (j = 1; j < omega; ++j) {
      uint32_t x = row[j];
      for (t = j; t > 0 && row[t - 1] > x; --t) row[t] = row[t - 1];
      row[t] = x;
    }
  }
  if (!gclq__host_sort_rows(rows, (size_t)stored, omega)) {
    GCLQ_FREE(rows);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  r->omega = omega;
  r->count = count;
  r->stored = stored;
  if (total > 0) {
    r->h_cliques = (uint64_t *)gclq__alloc_array(total, sizeof(uint64_t));
    if (r->h_cliques == NULL) {
      GCLQ_FREE(rows);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    for (i = 0; i < total; ++i) r->h_cliques[i] = g->h_original_ids ? g->h_original_ids[rows[i]] : rows[i];
  }
  GCLQ_FREE(rows);
  return GCLQ_SUCCESS;
}

/* Is g small work for AUTO (GCLQ_AUTO_HOST_MAX_EDGES, _MAX_CORE)? The
   core numbers are computed only under the edge limit; *max_core gets the
   largest (0 when not computed). A failed allocation answers "not small". */
static inline int gclq__mc_small(const gclq_graph *g, uint32_t *max_core) {
  uint32_t *core;
  int small = 0;
  *max_core = 0;
  if (g->num_edges > GCLQ_AUTO_HOST_MAX_EDGES) return 0;
  core = (uint32_t *)gclq__alloc_array(g->num_vertices, sizeof(uint32_t));
  if (core == NULL) return 0;
  if (gclq__host_core_order(g, core, NULL, max_core) == GCLQ_SUCCESS) small = *max_core <= GCLQ_AUTO_HOST_MAX_CORE;
  GCLQ_FREE(core);
  return small;
}

GCLQ_DEF gclq_status gclq_max_cliques(const gclq_graph *graph, const gclq_maxclique_options *options,
                                      gclq_maxclique_result *result) {
  gclq__mc_plan plan;
  gclq_backend requested = GCLQ_BACKEND_AUTO, backend = GCLQ_BACKEND_HOST;
  gclq_status st;
  uint32_t omega = 0, *rows = NULL, small_core = 0;
  uint64_t count = 0, stored = 0, i;
  clock_t t0 = clock();
#if defined(__CUDACC__)
  gclq__clock::time_point w0 = gclq__clock::now();
#endif
  if (result != NULL) memset(result, 0, sizeof *result);
  if (graph == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq__mc_resolve(options, &plan, &requested);
  if (st != GCLQ_SUCCESS) return st;
  if (!gclq__host_graph_ok(graph)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (requested == GCLQ_BACKEND_AUTO && gclq__mc_small(graph, &small_core)) {
    backend = GCLQ_BACKEND_HOST; /* decided before anything touches CUDA */
    result->stats.auto_small = 1;
    snprintf(result->stats.notes, sizeof result->stats.notes,
             "AUTO: a small graph (%llu edges, max core %u): ran the host backend", (unsigned long long)graph->num_edges,
             small_core);
  } else {
    st = gclq_backend_resolve(requested, &backend);
    if (st != GCLQ_SUCCESS) return st;
    if (requested == GCLQ_BACKEND_AUTO && backend == GCLQ_BACKEND_HOST) {
      result->stats.fell_back = 1;
      strcpy(result->stats.notes, "AUTO: no CUDA device (or built without nvcc): ran the host backend");
    }
  }
  result->stats.backend = backend;
  if (graph->num_vertices == 0) return GCLQ_SUCCESS;
  if (graph->num_edges == 0) { /* every vertex alone is a maximum clique */
    omega = 1;
    count = plan.find_one ? 1 : graph->num_vertices;
    stored = plan.max_stored && plan.max_stored < count ? plan.max_stored : count;
    rows = (uint32_t *)gclq__alloc_array(stored, sizeof(uint32_t));
    if (rows == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    for (i = 0; i < stored; ++i) rows[i] = (uint32_t)i;
  } else if (backend == GCLQ_BACKEND_HOST) {
    st = gclq__host_max_cliques_kept(graph, plan.find_one, plan.max_stored, plan.log, plan.log_user, &omega, &count,
                                     &stored, &rows);
  } else {
#if defined(__CUDACC__)
    st = gclq__cuda_max_cliques(graph, &plan, &omega, &count, &stored, &rows, &result->stats);
#else
    st = GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (st == GCLQ_SUCCESS) st = gclq__mc_finish(graph, omega, count, stored, rows, result);
  else GCLQ_FREE(rows);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(result->h_cliques);
    GCLQ_FREE(result->stats.candidates_per_level);
    memset(result, 0, sizeof *result);
    return st;
  }
#if defined(__CUDACC__)
  result->stats.total_ms = gclq__ms_since(w0);
  (void)t0;
#else
  result->stats.total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC; /* processor time */
#endif
  if (backend == GCLQ_BACKEND_HOST) result->stats.search_ms = result->stats.total_ms;
  return GCLQ_SUCCESS;
}

GCLQ_DEF void gclq_maxclique_result_free(gclq_maxclique_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_cliques);
  GCLQ_FREE(result->stats.candidates_per_level);
  memset(result, 0, sizeof *result);
}

/* ---------------------------------------------------------------------------
   Set collections: checks, builders, readers, generators.

   Host code only, in the common subset of C99 and C++. A collection is CSR
   (gclq_sets above); every builder ends in gclq__sets_check, so nothing
   reaches a caller unchecked. The readers take memory in proportion to the
   input: the text reader grows its arrays as numbers arrive, the binary
   reader checks the header's sizes against the input's length first.
   ------------------------------------------------------------------------- */

static gclq_status gclq__sets_fail(gclq_sets_error *err, gclq_status st, uint64_t set, uint64_t line,
                                   uint64_t offset, const char *message) {
  if (err != NULL) {
    err->set = set;
    err->line = line;
    err->byte_offset = offset;
    snprintf(err->message, sizeof err->message, "%s", message);
  }
  return st;
}

static void gclq__sets_error_clear(gclq_sets_error *err) {
  if (err == NULL) return;
  err->set = UINT64_MAX;
  err->line = 0;
  err->byte_offset = 0;
  err->message[0] = '\0';
}

/* The CSR invariants: offsets from 0, non-decreasing, ending at total; each
   set strictly increasing, below universe, at most 2^32 - 1 elements. */
static gclq_status gclq__sets_check(const gclq_sets *s, gclq_sets_error *err) {
  uint32_t i;
  char msg[128];
  if (s->h_offsets == NULL && (s->num_sets > 0 || s->total > 0)) /* k = 0 may have no offsets */
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL offsets");
  if (s->h_offsets != NULL && (s->h_offsets[0] != 0 || s->h_offsets[s->num_sets] != s->total))
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "offsets do not run from 0 to total");
  if (s->total > 0 && s->h_elements == NULL)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL elements");
  for (i = 0; i < s->num_sets; ++i) {
    uint64_t e, begin = s->h_offsets[i], end = s->h_offsets[i + 1];
    if (end < begin || end > s->total)
      return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, i, 0, 0, "offsets decrease");
    if (end - begin > 0xffffffffull)
      return gclq__sets_fail(err, GCLQ_ERROR_TOO_LARGE, i, 0, 0, "a set of more than 2^32 - 1 elements");
    for (e = begin; e < end; ++e) {
      uint32_t x = s->h_elements[e];
      if (e > begin && s->h_elements[e - 1] >= x) {
        snprintf(msg, sizeof msg, "set %u: element %u does not follow %u (sets are strictly increasing)", i, x,
                 s->h_elements[e - 1]);
        return gclq__sets_fail(err, GCLQ_ERROR_UNSORTED_SET, i, 0, 0, msg);
      }
      if ((uint64_t)x >= s->universe) {
        snprintf(msg, sizeof msg, "set %u: element %u is not below the universe %llu", i, x,
                 (unsigned long long)s->universe);
        return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, i, 0, 0, msg);
      }
    }
  }
  return GCLQ_SUCCESS;
}

/* 1 + the largest element (0 for no elements). */
static uint64_t gclq__sets_span(const uint32_t *elements, uint64_t total) {
  uint64_t e, top = 0;
  for (e = 0; e < total; ++e)
    if ((uint64_t)elements[e] + 1 > top) top = (uint64_t)elements[e] + 1;
  return top;
}

GCLQ_DEF gclq_status gclq_sets_validate(const gclq_sets *sets, gclq_sets_error *err) {
  gclq__sets_error_clear(err);
  if (sets == NULL) return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  return gclq__sets_check(sets, err);
}

GCLQ_DEF void gclq_sets_free(gclq_sets *sets) {
  if (sets == NULL) return;
  if (!sets->is_view) {
    GCLQ_FREE(sets->h_offsets);
    GCLQ_FREE(sets->h_elements);
  }
  memset(sets, 0, sizeof *sets);
}

/* Take ownership of built arrays, check them; on failure free them and zero
   *sets. universe 0: the largest element + 1. */
static gclq_status gclq__sets_adopt(uint32_t k, uint64_t *offsets, uint32_t *elements, uint64_t universe,
                                    gclq_sets *sets, gclq_sets_error *err) {
  gclq_status st;
  uint64_t span;
  sets->num_sets = k;
  sets->h_offsets = offsets;
  sets->h_elements = elements;
  sets->total = offsets[k];
  sets->is_view = 0;
  span = gclq__sets_span(elements, sets->total);
  sets->universe = universe > span ? universe : span;
  st = gclq__sets_check(sets, err);
  if (st != GCLQ_SUCCESS) gclq_sets_free(sets);
  return st;
}

GCLQ_DEF gclq_status gclq_sets_from_arrays(uint32_t num_sets, const uint64_t *h_offsets, const uint32_t *h_elements,
                                           uint64_t universe, gclq_sets *sets, gclq_sets_error *err) {
  uint64_t *offsets;
  uint32_t *elements;
  uint64_t total;
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL || h_offsets == NULL)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  total = h_offsets[num_sets];
  if (total > 0 && h_elements == NULL)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL elements");
  if (universe != 0 && total > 0 && gclq__sets_span(h_elements, total) > universe)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "an element is not below the universe");
  offsets = (uint64_t *)gclq__alloc_array((uint64_t)num_sets + 1, sizeof(uint64_t));
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  if (offsets == NULL || elements == NULL) {
    GCLQ_FREE(offsets);
    GCLQ_FREE(elements);
    return gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, UINT64_MAX, 0, 0, "out of memory");
  }
  memcpy(offsets, h_offsets, ((size_t)num_sets + 1) * sizeof(uint64_t));
  if (total > 0) memcpy(elements, h_elements, (size_t)total * sizeof(uint32_t));
  return gclq__sets_adopt(num_sets, offsets, elements, universe, sets, err);
}

GCLQ_DEF gclq_status gclq_sets_from_graph(const gclq_graph *graph, gclq_sets *sets) {
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (graph == NULL || sets == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (graph->num_vertices > 0 && graph->h_offsets == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  sets->num_sets = graph->num_vertices;
  sets->universe = graph->num_vertices;
  sets->total = graph->num_vertices ? graph->h_offsets[graph->num_vertices] : 0;
  sets->h_offsets = graph->h_offsets;
  sets->h_elements = graph->h_neighbors;
  sets->is_view = 1;
  return GCLQ_SUCCESS;
}

/* ---- growable array of 32-bit words (the text reader, the results) ---- */
typedef struct gclq__vec32 {
  uint32_t *a;
  size_t n, cap;
} gclq__vec32;

/* 1 on success, 0 when the allocation failed (v is unchanged). */
static int gclq__vec32_push(gclq__vec32 *v, uint32_t x) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 1024;
    uint32_t *a;
    if (cap < v->cap || cap > ((size_t)-1) / sizeof(uint32_t)) return 0;
    a = (uint32_t *)GCLQ_REALLOC(v->a, cap * sizeof(uint32_t));
    if (a == NULL) return 0;
    v->a = a;
    v->cap = cap;
  }
  v->a[v->n++] = x;
  return 1;
}

/* One line of the text format into elements; *empty says whether it held
   no number (a blank or comment line). */
static gclq_status gclq__sets_text_line(const char *p, const char *le, uint64_t line, uint64_t set,
                                        gclq__vec32 *elements, int *empty, gclq_sets_error *err) {
  size_t first = elements->n;
  char msg[128];
  *empty = 1;
  for (;;) {
    uint64_t x = 0;
    int r;
    p = gclq__skip_space(p, le);
    if (p == le || *p == '#') return GCLQ_SUCCESS;
    r = gclq__read_u64(&p, le, &x);
    if (r == GCLQ__NUM_OK && x > 0xffffffffull) r = GCLQ__NUM_OVERFLOW;
    if (r != GCLQ__NUM_OK) {
      snprintf(msg, sizeof msg, "%s", r == GCLQ__NUM_OVERFLOW ? "an element above 2^32 - 1"
                                      : r == GCLQ__NUM_NEGATIVE ? "a negative element"
                                                                : "an element that is not a decimal number");
      return gclq__sets_fail(err, GCLQ_ERROR_PARSE, set, line, 0, msg);
    }
    if (elements->n > first && elements->a[elements->n - 1] >= (uint32_t)x) {
      snprintf(msg, sizeof msg, "element %llu does not follow %u (sets are strictly increasing)",
               (unsigned long long)x, elements->a[elements->n - 1]);
      return gclq__sets_fail(err, GCLQ_ERROR_UNSORTED_SET, set, line, 0, msg);
    }
    if (!gclq__vec32_push(elements, (uint32_t)x))
      return gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, set, line, 0, "out of memory");
    *empty = 0;
  }
}

GCLQ_DEF gclq_status gclq_sets_parse_text(const char *text, size_t len, gclq_sets *sets, gclq_sets_error *err) {
  gclq__lines it;
  gclq__vec32 elements = {NULL, 0, 0};
  gclq__vec64 offsets;
  const char *ls, *le;
  gclq_status st = GCLQ_SUCCESS;
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL || (text == NULL && len > 0))
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  gclq__vec64_init(&offsets);
  it.p = text;
  it.end = text + len;
  it.line = 0;
  if (!gclq__vec64_push(&offsets, 0)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  while (st == GCLQ_SUCCESS && gclq__next_line(&it, &ls, &le)) {
    int empty = 1;
    st = gclq__sets_text_line(ls, le, it.line, offsets.n - 1, &elements, &empty, err);
    if (st == GCLQ_SUCCESS && !empty && offsets.n > 0xffffffffull)
      st = gclq__sets_fail(err, GCLQ_ERROR_TOO_LARGE, UINT64_MAX, it.line, 0, "more than 2^32 - 1 sets");
    if (st == GCLQ_SUCCESS && !empty && !gclq__vec64_push(&offsets, elements.n))
      st = gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, UINT64_MAX, it.line, 0, "out of memory");
  }
  if (st != GCLQ_SUCCESS) {
    if (st == GCLQ_ERROR_OUT_OF_MEMORY && err != NULL && err->message[0] == '\0')
      gclq__sets_fail(err, st, UINT64_MAX, 0, 0, "out of memory");
    GCLQ_FREE(offsets.a);
    GCLQ_FREE(elements.a);
    return st;
  }
  return gclq__sets_adopt((uint32_t)(offsets.n - 1), offsets.a, elements.a, 0, sets, err);
}

/* Little-endian words of the binary format, from any byte order and alignment. */
static uint32_t gclq__le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t gclq__le64(const unsigned char *p) { return (uint64_t)gclq__le32(p) | (uint64_t)gclq__le32(p + 4) << 32; }

/* The binary header and sizes against the input's length; no allocation. */
static gclq_status gclq__sets_binary_header(const unsigned char *b, size_t len, uint32_t *k, uint32_t *universe,
                                            uint64_t *total, gclq_sets_error *err) {
  uint64_t i, sum = 0;
  char msg[128];
  if (len < 16) return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, len, "the 16-byte header is cut short");
  *k = gclq__le32(b);
  *universe = gclq__le32(b + 4);
  *total = gclq__le64(b + 8);
  if ((uint64_t)*k * 4 > (uint64_t)len - 16)
    return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, 0, "k sizes do not fit in the input");
  if (*total > ((uint64_t)len - 16 - (uint64_t)*k * 4) / 4 ||
      16 + (uint64_t)*k * 4 + *total * 4 != (uint64_t)len) {
    snprintf(msg, sizeof msg, "total %llu elements and k %u sizes do not match the input's %llu bytes",
             (unsigned long long)*total, *k, (unsigned long long)len);
    return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, 8, msg);
  }
  for (i = 0; i < *k; ++i) sum += gclq__le32(b + 16 + 4 * i);
  if (sum != *total) {
    snprintf(msg, sizeof msg, "the sizes add up to %llu, the header says %llu", (unsigned long long)sum,
             (unsigned long long)*total);
    return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, 16, msg);
  }
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_sets_parse_binary(const void *data, size_t len, gclq_sets *sets, gclq_sets_error *err) {
  const unsigned char *b = (const unsigned char *)data;
  uint32_t k = 0, universe = 0, i;
  uint64_t total = 0, e, pos, *offsets;
  uint32_t *elements;
  gclq_status st;
  char msg[128];
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL || (data == NULL && len > 0))
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  st = gclq__sets_binary_header(b, len, &k, &universe, &total, err);
  if (st != GCLQ_SUCCESS) return st;
  offsets = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t));
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  if (offsets == NULL || elements == NULL) {
    GCLQ_FREE(offsets);
    GCLQ_FREE(elements);
    return gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, UINT64_MAX, 0, 0, "out of memory");
  }
  offsets[0] = 0;
  pos = 16 + (uint64_t)k * 4;
  for (i = 0, e = 0; i < k; ++i) {
    uint64_t end = e + gclq__le32(b + 16 + 4 * (uint64_t)i);
    offsets[i + 1] = end;
    for (; e < end; ++e, pos += 4) {
      elements[e] = gclq__le32(b + pos);
      if (e > offsets[i] && elements[e - 1] >= elements[e]) {
        snprintf(msg, sizeof msg, "set %u: element %u does not follow %u (sets are strictly increasing)", i,
                 elements[e], elements[e - 1]);
        GCLQ_FREE(offsets);
        GCLQ_FREE(elements);
        return gclq__sets_fail(err, GCLQ_ERROR_UNSORTED_SET, i, 0, pos, msg);
      }
    }
  }
  return gclq__sets_adopt(k, offsets, elements, universe, sets, err);
}

/* A whole regular file into memory (its size from the file system). */
static gclq_status gclq__sets_read_file(const char *path, char **data, size_t *len, gclq_sets_error *err) {
  FILE *f;
  long size;
  *data = NULL;
  *len = 0;
  if (path == NULL) return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  f = fopen(path, "rb");
  if (f == NULL) return gclq__sets_fail(err, GCLQ_ERROR_IO, UINT64_MAX, 0, 0, "cannot open the file");
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return gclq__sets_fail(err, GCLQ_ERROR_IO, UINT64_MAX, 0, 0, "cannot measure the file (not a regular file?)");
  }
  *data = (char *)GCLQ_MALLOC(size > 0 ? (size_t)size : 1);
  if (*data == NULL) {
    fclose(f);
    return gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, UINT64_MAX, 0, 0, "out of memory reading the file");
  }
  if (size > 0 && fread(*data, 1, (size_t)size, f) != (size_t)size) {
    fclose(f);
    GCLQ_FREE(*data);
    *data = NULL;
    return gclq__sets_fail(err, GCLQ_ERROR_IO, UINT64_MAX, 0, 0, "cannot read the file");
  }
  fclose(f);
  *len = (size_t)size;
  return GCLQ_SUCCESS;
}

/* A file through one of the two parsers. */
static gclq_status gclq__sets_load(const char *path, int binary, gclq_sets *sets, gclq_sets_error *err) {
  char *data;
  size_t len;
  gclq_status st;
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL) return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  st = gclq__sets_read_file(path, &data, &len, err);
  if (st != GCLQ_SUCCESS) return st;
  st = binary ? gclq_sets_parse_binary(data, len, sets, err) : gclq_sets_parse_text(data, len, sets, err);
  GCLQ_FREE(data);
  return st;
}

GCLQ_DEF gclq_status gclq_sets_load_text(const char *path, gclq_sets *sets, gclq_sets_error *err) {
  return gclq__sets_load(path, 0, sets, err);
}

GCLQ_DEF gclq_status gclq_sets_load_binary(const char *path, gclq_sets *sets, gclq_sets_error *err) {
  return gclq__sets_load(path, 1, sets, err);
}

static int gclq__put32(FILE *f, uint32_t x) {
  unsigned char b[4];
  b[0] = (unsigned char)x;
  b[1] = (unsigned char)(x >> 8);
  b[2] = (unsigned char)(x >> 16);
  b[3] = (unsigned char)(x >> 24);
  return fwrite(b, 1, 4, f) == 4;
}

GCLQ_DEF gclq_status gclq_sets_save_binary(const gclq_sets *sets, const char *path) {
  FILE *f;
  uint64_t e;
  uint32_t i;
  int ok;
  if (sets == NULL || path == NULL || gclq__sets_check(sets, NULL) != GCLQ_SUCCESS) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (sets->universe > 0xffffffffull) return GCLQ_ERROR_TOO_LARGE;
  f = fopen(path, "wb");
  if (f == NULL) return GCLQ_ERROR_IO;
  ok = gclq__put32(f, sets->num_sets) && gclq__put32(f, (uint32_t)sets->universe) &&
       gclq__put32(f, (uint32_t)sets->total) && gclq__put32(f, (uint32_t)(sets->total >> 32));
  for (i = 0; ok && i < sets->num_sets; ++i) ok = gclq__put32(f, (uint32_t)(sets->h_offsets[i + 1] - sets->h_offsets[i]));
  for (e = 0; ok && e < sets->total; ++e) ok = gclq__put32(f, sets->h_elements[e]);
  if (fclose(f) != 0) ok = 0;
  return ok ? GCLQ_SUCCESS : GCLQ_ERROR_IO;
}

/* ---- generators ---- */

/* e^x for x in [0, 23] (the generators' zipf draw): 2^k e^r, |r| < log 2,
   e^r by its series; our own, so a seed gives the same sets whatever the C
   library. */
static double gclq__exp(double x) {
  const double ln2 = 0.6931471805599453;
  int k = (int)(x / ln2), i;
  double r = x - k * ln2, term = 1.0, sum = 1.0;
  for (i = 1; i <= 24; ++i) {
    term *= r / i;
    sum += term;
  }
  return sum * (double)((uint64_t)1 << k);
}

/* One draw from the distribution over [0, U) (see gclq_sets_gen). */
static uint32_t gclq__sets_draw(gclq_sets_dist dist, uint64_t universe, double log_u1, uint64_t *state) {
  if (dist == GCLQ_SETS_NORMAL) {
    for (;;) {
      double z = -6.0, v;
      int i;
      for (i = 0; i < 12; ++i) z += gclq__uniform01(state);
      v = (double)universe / 2.0 + (double)universe / 8.0 * z + 0.5;
      if (v >= 0.0 && v < (double)universe) return (uint32_t)v;
    }
  }
  if (dist == GCLQ_SETS_ZIPF) {
    double v = gclq__exp(gclq__uniform01(state) * log_u1) - 1.0;
    if (v < 0.0) v = 0.0;
    if (v > (double)(universe - 1)) v = (double)(universe - 1);
    return (uint32_t)v;
  }
  return (uint32_t)(gclq__splitmix64(state) % universe);
}

/* One set of `size` distinct draws (fewer after 64 rounds), sorted, into
   out; *got its size. Each round draws what is missing, sorts only the new
   draws and merges them in (buf and tmp hold size words each). */
static gclq_status gclq__sets_gen_one(const gclq_sets_gen *g, uint64_t size, double log_u1, uint64_t *state,
                                      uint64_t *buf, uint64_t *tmp, uint32_t *out, uint64_t *got) {
  size_t have = 0, fresh, e, i, j, k;
  int round;
  for (round = 0; round < 64 && have < size; ++round) {
    gclq_status st;
    for (e = have; e < size; ++e) buf[e] = gclq__sets_draw(g->dist, g->universe, log_u1, state);
    st = gclq__sort_unique_u64(buf + have, (size_t)size - have, &fresh);
    if (st != GCLQ_SUCCESS) return st;
    /* merge the sorted buf[0, have) and buf[have, have + fresh), dropping repeats */
    for (i = 0, j = have, k = 0; i < have || j < have + fresh;) {
      uint64_t x = j == have + fresh || (i < have && buf[i] <= buf[j]) ? buf[i++] : buf[j++];
      if (k == 0 || tmp[k - 1] != x) tmp[k++] = x;
    }
    memcpy(buf, tmp, k * sizeof *buf);
    have = k;
  }
  for (e = 0; e < have; ++e) out[e] = (uint32_t)buf[e];
  *got = have;
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_sets_generate(const gclq_sets_gen *gen, gclq_sets *sets) {
  uint64_t state, i, total = 0, biggest = 0, *sizes, *offsets, *buf, *tmp;
  uint32_t *elements;
  double log_u1;
  gclq_status st = GCLQ_SUCCESS;
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (gen == NULL || sets == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)gen->dist < 0 || (int)gen->dist > (int)GCLQ_SETS_ZIPF) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (gen->universe < 1 || gen->universe > ((uint64_t)1 << 32) || gen->avg_size > gen->universe)
    return GCLQ_ERROR_INVALID_ARGUMENT;
  state = gclq__seed_state(gen->seed);
  log_u1 = gclq__log(1.0 / ((double)gen->universe + 1.0)) * -1.0; /* log(U + 1) */
  sizes = (uint64_t *)gclq__alloc_array(gen->num_sets, sizeof(uint64_t));
  if (sizes == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < gen->num_sets; ++i) { /* sizes first: the elements array is taken once */
    uint64_t lo = gen->avg_size - gen->avg_size / 2, hi = gen->avg_size + gen->avg_size / 2;
    uint64_t s = gen->fixed_size ? gen->avg_size : lo + gclq__splitmix64(&state) % (hi - lo + 1);
    sizes[i] = s < gen->universe ? s : gen->universe;
    total += sizes[i];
    if (sizes[i] > biggest) biggest = sizes[i];
  }
  offsets = (uint64_t *)gclq__alloc_array((uint64_t)gen->num_sets + 1, sizeof(uint64_t));
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  buf = (uint64_t *)gclq__alloc_array(biggest, sizeof(uint64_t));
  tmp = (uint64_t *)gclq__alloc_array(biggest, sizeof(uint64_t));
  if (offsets == NULL || elements == NULL || buf == NULL || tmp == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) offsets[0] = 0;
  for (i = 0; st == GCLQ_SUCCESS && i < gen->num_sets; ++i) {
    uint64_t got = 0;
    st = gclq__sets_gen_one(gen, sizes[i], log_u1, &state, buf, tmp, elements + offsets[i], &got);
    offsets[i + 1] = offsets[i] + got;
  }
  GCLQ_FREE(sizes);
  GCLQ_FREE(buf);
  GCLQ_FREE(tmp);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(offsets);
    GCLQ_FREE(elements);
    return st;
  }
  return gclq__sets_adopt(gen->num_sets, offsets, elements, gen->universe, sets, NULL);
}

/* ---------------------------------------------------------------------------
   Intersections: options, the host backend, the public calls.

   Every call is a stream of batches of pairs (i, j): the pairs given, or all
   pairs i < j in row order, GCLQ__SETS_BATCH pairs at a time. A backend
   counts (and, asked, writes) each batch; a sink per call keeps what the
   call returns (the counts in place, the pairs at or above a threshold, the
   containments in both directions). The CUDA backend cuts a batch further
   to its device memory budget; no answer depends on either cut.
   ------------------------------------------------------------------------- */
#define GCLQ__SETS_BATCH ((uint64_t)1 << 22)

GCLQ_DEF void gclq_intersect_options_defaults(gclq_intersect_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->backend = GCLQ_BACKEND_AUTO;
  options->method = GCLQ_INTERSECT_AUTO;
  options->min_count = 1;
  options->min_containment = 1.0;
}

GCLQ_DEF const char *gclq_intersect_method_name(gclq_intersect_method method) {
  switch (method) {
    case GCLQ_INTERSECT_AUTO: return "auto";
    case GCLQ_INTERSECT_MERGE_PATH: return "merge-path";
    case GCLQ_INTERSECT_BINARY_SEARCH: return "binary-search";
    case GCLQ_INTERSECT_SERIAL_MERGE: return "serial-merge";
    case GCLQ_INTERSECT_HASH: return "hash";
    case GCLQ_INTERSECT_BITMAP: return "bitmap";
    case GCLQ_INTERSECT_BITMAP_DYNAMIC: return "bitmap-dynamic";
    case GCLQ_INTERSECT_IP_OBS: return "ip-obs";
    case GCLQ_INTERSECT_IP_HASH: return "ip-hash";
    case GCLQ_INTERSECT_INVERTED_INDEX: return "inverted-index";
    case GCLQ_INTERSECT_BIT_MATRIX: return "bit-matrix";
    default: return "unknown";
  }
}

GCLQ_DEF void gclq_intersect_result_free(gclq_intersect_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_counts);
  GCLQ_FREE(result->h_pairs);
  GCLQ_FREE(result->h_offsets);
  GCLQ_FREE(result->h_elements);
  memset(result, 0, sizeof *result);
}

/* Do the methods INVERTED_INDEX and BIT_MATRIX, all pairs at once, name m? */
static int gclq__sets_whole(gclq_intersect_method m) {
  return m == GCLQ_INTERSECT_INVERTED_INDEX || m == GCLQ_INTERSECT_BIT_MATRIX;
}

/* Is m one of gclq_intersect_method's values? */
static int gclq__sets_method_known(gclq_intersect_method m) {
  return ((int)m >= 0 && (int)m <= (int)GCLQ_INTERSECT_IP_HASH) || gclq__sets_whole(m);
}

/* Options (NULL: defaults) with every default filled in; out of range is invalid. */
static gclq_status gclq__sets_resolve(const gclq_intersect_options *o, gclq_intersect_options *r) {
  gclq_intersect_options_defaults(r);
  if (o == NULL) return GCLQ_SUCCESS;
  if ((int)o->backend < 0 || (int)o->backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__sets_method_known(o->method)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!(o->min_containment >= 0.0 && o->min_containment <= 1.0)) return GCLQ_ERROR_INVALID_ARGUMENT; /* NaN too */
  if (o->allocator.alloc != NULL && o->allocator.free == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *r = *o;
  if (r->min_count == 0) r->min_count = 1;
  if (r->min_containment == 0.0) r->min_containment = 1.0;
  if (r->method == GCLQ_INTERSECT_SERIAL_MERGE) r->backend = GCLQ_BACKEND_HOST;
  return GCLQ_SUCCESS;
}

/* ---- the host backend: the two-pointer merge, pair by pair ---- */

static uint32_t gclq__sets_size(const gclq_sets *s, uint32_t i) {
  return (uint32_t)(s->h_offsets[i + 1] - s->h_offsets[i]);
}

/* Counts of n pairs; with elements (room for the sum of the smaller sizes)
   the intersections too, at offsets[p] (n + 1 entries). */
static void gclq__host_sets_batch(const gclq_sets *s, const uint32_t *pairs, uint64_t n, uint32_t *counts,
                                  uint64_t *offsets, uint32_t *elements) {
  uint64_t p, at = 0;
  for (p = 0; p < n; ++p) {
    uint32_t i = pairs[2 * p], j = pairs[2 * p + 1];
    const uint32_t *a = s->h_elements + s->h_offsets[i], *b = s->h_elements + s->h_offsets[j];
    counts[p] = gclq__host_intersect(a, gclq__sets_size(s, i), b, gclq__sets_size(s, j),
                                     elements ? elements + at : NULL);
    if (offsets) offsets[p] = at;
    at += counts[p];
  }
  if (offsets) offsets[n] = at;
}

/* ---- the run: backend, batches, sinks ---- */

/* MMJoin's light/heavy split of one containment join (host side; see
   gclq_intersect_options.split_below). The inverted index: value r of
   `runs` (ascending) is in the sets sv[start[r] .. start[r + 1]),
   ascending. heavy: every set cut down to its heavy values, value r of the
   heavy ones renumbered to its rank among them. The light counts, row by
   row: pair (i, j), i < j, shares cnt.a[x] light values for each x in
   [row[i], row[i + 1]) with col.a[x] = j (in no order within a row); a
   pair not listed shares none. dense and at: the sink's view, row at's
   light counts spread over k entries (0 elsewhere). */
typedef struct gclq__mmjoin {
  uint64_t below;                 /* light: in fewer than this many sets */
  uint64_t runs;
  uint64_t *start;                /* runs + 1 */
  uint32_t *sv;                   /* total */
  gclq_sets heavy;
  uint64_t light_values, heavy_values, increments;
  uint64_t *row;                  /* k + 1 */
  gclq__vec32 col, cnt;
  gclq_status status;             /* the light part's */
  uint32_t *dense;                /* k */
  uint64_t at;                    /* UINT64_MAX: no row spread */
} gclq__mmjoin;

/* What a call keeps of each batch. */
typedef struct gclq__sets_sink {
  int kind;                  /* GCLQ__SINK_* */
  const gclq_sets *sets;     /* the call's collection: the sink's sizes */
  const gclq_sets *work;     /* the collection the backend counts: sets, or the split's heavy part */
  gclq__mmjoin *light;       /* containment with the split: the light counts to add; NULL: none */
  gclq_status (*wait)(void *user); /* CUDA's split: wait for the light counts before the first use */
  void *wait_user;
  const gclq_intersect_options *opt;
  gclq_intersect_result *r;
  uint64_t done;             /* pairs taken so far */
  gclq__vec32 pairs, counts, elements;
  gclq__vec64 keys;          /* containment: (i << 32 | j) */
  int auto_ip_obs;           /* AUTO's batch rule picked IP_OBS (gclq__sets_dev::auto_ip_obs) */
} gclq__sets_sink;
enum { GCLQ__SINK_LIST = 0, GCLQ__SINK_SPARSE = 1, GCLQ__SINK_CONTAIN = 2 };

/* Does |s_i & s_j| = count make s_i (of size ni) contained at the threshold? */
static int gclq__sets_contained(uint32_t count, uint32_t ni, double t) { return (double)count >= t * (double)ni; }

/* The light count of pair (i, j), i < j: row i spread over dense first
   (the pairs come row by row, so each row is spread once). */
static uint32_t gclq__mmjoin_light_count(gclq__mmjoin *m, uint32_t i, uint32_t j) {
  uint64_t x;
  if (m->at != i) {
    if (m->at != UINT64_MAX)
      for (x = m->row[m->at]; x < m->row[m->at + 1]; ++x) m->dense[m->col.a[x]] = 0;
    for (x = m->row[i]; x < m->row[i + 1]; ++x) m->dense[m->col.a[x]] = m->cnt.a[x];
    m->at = i;
  }
  return m->dense[j];
}

static gclq_status gclq__sets_take(gclq__sets_sink *k, const uint32_t *pairs, const uint32_t *counts, uint64_t n,
                                   const uint64_t *offsets, const uint32_t *elements) {
  uint64_t p, e;
  if (k->light != NULL && k->wait != NULL) { /* the light part's thread, joined once */
    gclq_status (*wait)(void *) = k->wait, ws;
    k->wait = NULL;
    ws = wait(k->wait_user);
    if (ws != GCLQ_SUCCESS) return ws;
  }
  if (k->light != NULL && k->light->status != GCLQ_SUCCESS) return k->light->status;
  for (p = 0; p < n; ++p) {
    uint32_t i = pairs[2 * p], j = pairs[2 * p + 1], c = counts[p];
    int ok = 1;
    if (k->light != NULL) c += gclq__mmjoin_light_count(k->light, i, j); /* heavy + light: the whole count */
    if (k->kind == GCLQ__SINK_LIST) {
      k->r->h_counts[k->done + p] = c;
    } else if (k->kind == GCLQ__SINK_SPARSE) {
      if (c >= k->opt->min_count)
        ok = gclq__vec32_push(&k->pairs, i) && gclq__vec32_push(&k->pairs, j) && gclq__vec32_push(&k->counts, c);
    } else {
      if (gclq__sets_contained(c, gclq__sets_size(k->sets, i), k->opt->min_containment))
        ok = gclq__vec64_push(&k->keys, (uint64_t)i << 32 | j) && gclq__vec32_push(&k->counts, c);
      if (ok && gclq__sets_contained(c, gclq__sets_size(k->sets, j), k->opt->min_containment))
        ok = gclq__vec64_push(&k->keys, (uint64_t)j << 32 | i) && gclq__vec32_push(&k->counts, c);
    }
    if (!ok) return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (offsets != NULL) {
    for (p = 0; p < n; ++p) k->r->h_offsets[k->done + p] = k->elements.n + offsets[p];
    for (e = 0; e < offsets[n]; ++e)
      if (!gclq__vec32_push(&k->elements, elements[e])) return GCLQ_ERROR_OUT_OF_MEMORY;
    k->r->h_offsets[k->done + n] = k->elements.n;
  }
  k->done += n;
  return GCLQ_SUCCESS;
}

/* The next batch of all pairs i < j after (*i, *j), in row order. */
static uint64_t gclq__sets_next_pairs(uint32_t k, uint32_t *i, uint32_t *j, uint32_t *pairs, uint64_t cap) {
  uint64_t n = 0;
  while (n < cap && *i + 1 < k) {
    pairs[2 * n] = *i;
    pairs[2 * n + 1] = *j;
    ++n;
    if (++*j == k) {
      ++*i;
      *j = *i + 1;
    }
  }
  return n;
}

/* One batch on the host: counts, and the intersections when materialising. */
static gclq_status gclq__host_sets_run(gclq__sets_sink *k, const uint32_t *pairs, uint64_t n, uint32_t *counts) {
  const gclq_sets *s = k->work;
  uint64_t *offsets = NULL, room = 0, p;
  uint32_t *elements = NULL;
  gclq_status st;
  if (k->opt->materialise) {
    for (p = 0; p < n; ++p) {
      uint32_t a = gclq__sets_size(s, pairs[2 * p]), b = gclq__sets_size(s, pairs[2 * p + 1]);
      room += a < b ? a : b;
    }
    offsets = (uint64_t *)gclq__alloc_array(n + 1, sizeof(uint64_t));
    elements = (uint32_t *)gclq__alloc_array(room, sizeof(uint32_t));
    if (offsets == NULL || elements == NULL) {
      GCLQ_FREE(offsets);
      GCLQ_FREE(elements);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
  }
  gclq__host_sets_batch(s, pairs, n, counts, offsets, elements);
  st = gclq__sets_take(k, pairs, counts, n, offsets, elements);
  GCLQ_FREE(offsets);
  GCLQ_FREE(elements);
  return st;
}

/* AUTO's rule for all pairs on CUDA (GCLQ_SETS_AUTO_MATRIX_COST above) for
   k sets of `total` elements whose values in two or more sets number
   `columns` (the bit matrix's) and whose index makes `increments` pair
   increments: BIT_MATRIX, INVERTED_INDEX, or AUTO (the pairwise batches);
   *cost (if not NULL) gets its estimate in merge steps (0 when no pair
   meets anything). */
static inline gclq_intersect_method gclq__sets_all_pick(uint64_t k, uint64_t total, double columns, double increments,
                                                        double matrix_cost, double index_cost, double *cost) {
  const double merge = (double)(k > 0 ? k - 1 : 0) * (double)total;
  const double blocks = (double)((k + 31) / 32), tiles = blocks * (blocks + 1.0) / 2.0;
  const double fill = tiles < GCLQ_SETS_AUTO_MATRIX_TILES ? GCLQ_SETS_AUTO_MATRIX_TILES / tiles : 1.0;
  const double words = (double)k * (double)(k > 0 ? k - 1 : 0) / 2.0 * (double)(uint64_t)((columns + 31.0) / 32.0);
  const double matrix = matrix_cost * (fill * words + GCLQ_SETS_AUTO_MATRIX_BUILD * (double)total);
  const double index = index_cost * ((double)total + GCLQ_SETS_AUTO_INCREMENT_SHARE * increments);
  gclq_intersect_method m = GCLQ_INTERSECT_AUTO;
  double best = merge;
  if (matrix_cost > 0.0 && matrix < best && (index_cost <= 0.0 || matrix <= index)) {
    m = GCLQ_INTERSECT_BIT_MATRIX;
    best = matrix;
  } else if (index_cost > 0.0 && index < best) {
    m = GCLQ_INTERSECT_INVERTED_INDEX;
    best = index;
  }
  if (cost != NULL) *cost = best;
  return merge == 0.0 ? GCLQ_INTERSECT_AUTO : m; /* no pair meets anything: nothing to choose */
}

/* The same for values spread evenly: every one of `universe` values a
   column, total^2 / (2 universe) increments; *cost as above. */
static inline gclq_intersect_method gclq__sets_all_even(uint64_t k, uint64_t total, uint64_t universe,
                                                        double matrix_cost, double index_cost, double *cost) {
  const double increments = universe > 0 ? (double)total * (double)total / (2.0 * (double)universe) : 0.0;
  return gclq__sets_all_pick(k, total, (double)universe, increments, matrix_cost, index_cost, cost);
}
static inline double gclq__sets_all_cost(uint64_t k, uint64_t total, uint64_t universe, double matrix_cost,
                                         double index_cost) {
  double cost;
  gclq__sets_all_even(k, total, universe, matrix_cost, index_cost, &cost);
  return cost;
}
static inline gclq_intersect_method gclq__sets_all_rule(uint64_t k, uint64_t total, uint64_t universe,
                                                        double matrix_cost, double index_cost) {
  return gclq__sets_all_even(k, total, universe, matrix_cost, index_cost, NULL);
}

/* One pass over n given pairs: *work = the sum of |s_i| + |s_j|, *largest =
   the largest pair's, *at = that pair's index. GCLQ_ERROR_INVALID_ARGUMENT
   for a set index out of range. */
static gclq_status gclq__sets_pairs_work(const gclq_sets *s, const uint32_t *pairs, uint64_t n, uint64_t *work,
                                         uint64_t *largest, uint64_t *at) {
  uint64_t p, w;
  *work = *largest = *at = 0;
  for (p = 0; p < n; ++p) {
    if (pairs[2 * p] >= s->num_sets || pairs[2 * p + 1] >= s->num_sets) return GCLQ_ERROR_INVALID_ARGUMENT;
    w = (uint64_t)gclq__sets_size(s, pairs[2 * p]) + gclq__sets_size(s, pairs[2 * p + 1]);
    *work += w;
    if (w > *largest) *largest = w, *at = p;
  }
  return GCLQ_SUCCESS;
}

/* The densest stretch of a sorted set, in elements per value: the most of
   1024 stretches of equal count (n / 1024 elements each: their spans vary
   little unless the values crowd) over their spans. */
static double gclq__sets_peak_density(const uint32_t *x, uint32_t n) {
  return gclq__sets_peak_density_of(x, n, n < 1024 ? n : 1024);
}

/* AUTO's batch rule for n given pairs on CUDA (GCLQ_SETS_AUTO_BITMAP_DENSITY
   above): BITMAP_DYNAMIC, IP_OBS, or AUTO (the per-pair rule). work,
   largest, at: from gclq__sets_pairs_work. A dominant pair's stretches are
   read only when it is dense enough (gclq__sets_bitmap_spread). */
static inline gclq_intersect_method gclq__sets_pairs_rule_at(const gclq_sets *s, const uint32_t *pairs, uint64_t n,
                                                             uint64_t work, uint64_t largest, uint64_t at,
                                                             double density, double windows, uint64_t ip_obs_below) {
  if (work == 0) return GCLQ_INTERSECT_AUTO;
  if (2 * largest >= work) { /* one pair dominates: is it dense, and spread? */
    const uint32_t i = pairs[2 * at], j = pairs[2 * at + 1];
    const uint32_t *a = s->h_elements + s->h_offsets[i], *b = s->h_elements + s->h_offsets[j];
    const uint32_t na = gclq__sets_size(s, i), nb = gclq__sets_size(s, j);
    uint32_t lo, hi;
    double dense;
    if (na == 0 || nb == 0) return GCLQ_INTERSECT_AUTO; /* nothing to intersect */
    lo = a[0] > b[0] ? a[0] : b[0];
    hi = a[na - 1] < b[nb - 1] ? a[na - 1] : b[nb - 1];
    if (lo > hi) return GCLQ_INTERSECT_BITMAP_DYNAMIC; /* no overlap: nothing runs */
    dense = (double)largest / ((double)(hi - lo) + 1.0);
    if (dense >= density && gclq__sets_bitmap_spread(largest, dense, gclq__sets_peak_density(a, na),
                                                     gclq__sets_peak_density(b, nb), windows))
      return GCLQ_INTERSECT_BITMAP_DYNAMIC;
    /* a balanced dominant pair: IP_OBS (the per-pair rule would take merge path) */
    return (na < nb ? nb / na : na / nb) < GCLQ_SETS_AUTO_RATIO ? GCLQ_INTERSECT_IP_OBS : GCLQ_INTERSECT_AUTO;
  }
  return work < (double)ip_obs_below * (double)n ? GCLQ_INTERSECT_IP_OBS : GCLQ_INTERSECT_AUTO;
}

/* The same rule with its own pass over the pairs (valid indices). */
static inline gclq_intersect_method gclq__sets_pairs_rule(const gclq_sets *s, const uint32_t *pairs, uint64_t n,
                                                          double density, double windows, uint64_t ip_obs_below) {
  uint64_t work, largest, at;
  if (gclq__sets_pairs_work(s, pairs, n, &work, &largest, &at) != GCLQ_SUCCESS) return GCLQ_INTERSECT_AUTO;
  return gclq__sets_pairs_rule_at(s, pairs, n, work, largest, at, density, windows, ip_obs_below);
}

/* Is v in set i? (a binary search) */
static int gclq__sets_holds(const gclq_sets *s, uint32_t i, uint32_t v) {
  uint64_t lo = s->h_offsets[i], hi = s->h_offsets[i + 1];
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (s->h_elements[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < s->h_offsets[i + 1] && s->h_elements[lo] == v;
}

/* A collection's values and index increments, estimated for AUTO's
   all-pairs rule. With c(e) the number of sets holding element e's value,
   the distinct values are the sum over elements of 1 / c and the index's
   increments half the sum of c - 1. GCLQ__SETS_SAMPLE elements are drawn
   (a fixed sequence: the same collection, the same estimate), each c
   counted in GCLQ__SETS_SAMPLE_SETS other sets (all of them where there
   are no more) and scaled to the k - 1: 4096 binary searches, 0.3-7 ms on
   the host for the collections of bench_sets's all-pairs rows. The
   increments come out unbiased; the values come out high where c is small
   (a value in 2 of 1000 sets is rarely seen twice), which prices the bit
   matrix high, never low: the values are capped by the universe and by
   total. Skewed collections (zipf) have far more increments than values
   spread evenly would give: on bench_sets's zipf collections 40-180x more
   (bench/results/sets_h200.md), enough to make the inverted index 2-6x
   slower than the bit matrix there. On those 7 collections the estimate
   picks the faster method but for the zipf ENRON stand-in, where the
   tensor-core matrix runs far below its cost a word and the index, 2.1x
   slower, is still picked. */
#ifndef GCLQ__SETS_SAMPLE
#define GCLQ__SETS_SAMPLE 128u
#endif
#ifndef GCLQ__SETS_SAMPLE_SETS
#define GCLQ__SETS_SAMPLE_SETS 32u
#endif
static void gclq__sets_all_estimate(const gclq_sets *s, double *values, double *increments) {
  const uint64_t k = s->num_sets, n = s->total;
  const uint32_t others = k - 1 < GCLQ__SETS_SAMPLE_SETS ? (uint32_t)(k > 0 ? k - 1 : 0) : GCLQ__SETS_SAMPLE_SETS;
  uint64_t x = 0x9e3779b97f4a7c15ull, e, lo, hi;
  double more = 0.0, inverse = 0.0, c;
  uint32_t t, j, a, b, v, hits;
  *values = *increments = 0.0;
  if (n == 0 || k < 2) return;
  for (t = 0; t < GCLQ__SETS_SAMPLE; ++t) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    e = (x >> 16) % n;
    lo = 0, hi = k; /* the set of element e: the last offset <= e */
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (s->h_offsets[mid] <= e) lo = mid;
      else hi = mid;
    }
    a = (uint32_t)lo;
    v = s->h_elements[e];
    hits = 0;
    for (j = 0; j < others; ++j) {
      if ((uint64_t)others == k - 1) {
        b = j < a ? j : j + 1;
      } else {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        b = (uint32_t)((a + 1 + (x >> 16) % (k - 1)) % k);
      }
      hits += (uint32_t)gclq__sets_holds(s, b, v);
    }
    c = 1.0 + (double)hits * (double)(k - 1) / (double)others;
    more += c - 1.0;
    inverse += 1.0 / c;
  }
  *increments = (double)n / 2.0 * more / GCLQ__SETS_SAMPLE;
  *values = (double)n * inverse / GCLQ__SETS_SAMPLE;
  if (s->universe > 0 && *values > (double)s->universe) *values = (double)s->universe;
}

/* The method all pairs of a collection run by on CUDA: the one asked, or
   AUTO's rule with the configured costs over the estimated values and
   increments (gclq__sets_all_estimate). *unsure (if not NULL): 1 when
   the estimate's values over GCLQ__SETS_COLUMNS_SLACK would pick another
   method (the estimate can be that high: the caller may count the columns
   exactly and pick again with *increments). */
#define GCLQ__SETS_COLUMNS_SLACK 8.0
static inline gclq_intersect_method gclq__sets_all_method(const gclq_sets *s, gclq_intersect_method asked,
                                                          double *increments, int *unsure) {
  double values, incr;
  gclq_intersect_method m;
  if (unsure != NULL) *unsure = 0;
  if (asked != GCLQ_INTERSECT_AUTO) return asked;
  gclq__sets_all_estimate(s, &values, &incr);
  m = gclq__sets_all_pick(s->num_sets, s->total, values, incr, GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST,
                          NULL);
  if (increments != NULL) *increments = incr;
  if (unsure != NULL)
    *unsure = m != gclq__sets_all_pick(s->num_sets, s->total, values / GCLQ__SETS_COLUMNS_SLACK, incr,
                                       GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST, NULL);
  return m;
}

#if defined(__CUDACC__)
/* Which BIT_MATRIX kernel runs (1: tensor cores): GCLQ_SETS_BIT_MATRIX_TC;
   with GPUCLIQUE_TESTING, gclq__sets_bm_tensor when it is 0 or 1 (the
   tests run both). */
#ifdef GPUCLIQUE_TESTING
static int gclq__sets_bm_tensor = -1;
#define GCLQ__SETS_BM_TENSOR (gclq__sets_bm_tensor >= 0 ? gclq__sets_bm_tensor : GCLQ_SETS_BIT_MATRIX_TC)
#else
#define GCLQ__SETS_BM_TENSOR GCLQ_SETS_BIT_MATRIX_TC
#endif
#endif

/* Every batch of the call through the backend into the sink: the pairs
   h_pairs, or (h_pairs NULL) all pairs i < j, which INVERTED_INDEX and
   BIT_MATRIX count at once. */
static gclq_status gclq__sets_batches(gclq__sets_sink *k, gclq_backend backend, const uint32_t *h_pairs,
                                      uint64_t num_pairs) {
  uint64_t cap = num_pairs < GCLQ__SETS_BATCH ? num_pairs : GCLQ__SETS_BATCH, at = 0;
  uint32_t *counts, *buf = NULL, ai = 0, aj = 1;
  gclq_status st = GCLQ_SUCCESS;
#if defined(__CUDACC__)
  gclq__sets_dev dev;
  int whole_ran = 0;
  if (backend == GCLQ_BACKEND_CUDA) st = gclq__cuda_sets_open(&dev, k->work, k->opt, &k->r->stats);
  if (backend == GCLQ_BACKEND_CUDA) dev.auto_ip_obs = k->auto_ip_obs;
  if (st == GCLQ_SUCCESS && backend == GCLQ_BACKEND_CUDA && h_pairs == NULL) {
    gclq__sets_all_state all(&dev.c); /* freed at the block's end, before the close */
    double increments;
    int unsure;
    gclq_intersect_method whole = gclq__sets_all_method(k->work, k->opt->method, &increments, &unsure);
    if (unsure) { /* AUTO: the columns counted on the device decide (and stay for the bit matrix) */
      const gclq_status cs = gclq__sets_bm_columns(&dev, &all.mx);
      if (cs == GCLQ_SUCCESS)
        whole = gclq__sets_all_pick(k->work->num_sets, k->work->total, (double)all.mx.cols, increments,
                                    GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST, NULL);
      else if (cs != GCLQ_ERROR_OUT_OF_MEMORY)
        st = cs;
      else if (k->opt->log != NULL)
        k->opt->log(k->opt->log_user, "sets: AUTO had no room to count the columns; the estimate's pick stands");
    }
    if (st == GCLQ_SUCCESS && gclq__sets_whole(whole)) {
      int fed;
      st = gclq__cuda_sets_all(&dev, k, whole, GCLQ__SETS_BM_TENSOR, all, &fed);
      whole_ran = 1;
      if (st == GCLQ_ERROR_OUT_OF_MEMORY && !fed && k->opt->method == GCLQ_INTERSECT_AUTO) {
        /* AUTO's structure does not fit the budget: the pairs in batches, which halve until they fit */
        if (k->opt->log != NULL) {
          char line[120];
          snprintf(line, sizeof line, "sets: AUTO's %s does not fit the device budget; pairs in batches instead",
                   gclq_intersect_method_name(whole));
          k->opt->log(k->opt->log_user, line);
        }
        st = GCLQ_SUCCESS;
        whole_ran = 0;
        k->r->stats.method = GCLQ_INTERSECT_AUTO;
      }
    }
  }
  if (whole_ran) {
    gclq__cuda_sets_close(&dev, &st);
    return st;
  }
#endif
  counts = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  if (h_pairs == NULL) buf = (uint32_t *)gclq__alloc_array(2 * cap, sizeof(uint32_t));
  if (counts == NULL || (h_pairs == NULL && buf == NULL)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  while (st == GCLQ_SUCCESS && at < num_pairs) {
    uint64_t n = num_pairs - at < cap ? num_pairs - at : cap;
    const uint32_t *pairs = h_pairs ? h_pairs + 2 * at : buf;
    if (h_pairs == NULL) gclq__sets_next_pairs(k->work->num_sets, &ai, &aj, buf, n);
    if (k->opt->log != NULL && num_pairs > cap) {
      char line[96];
      snprintf(line, sizeof line, "sets: pairs %llu to %llu of %llu", (unsigned long long)at,
               (unsigned long long)(at + n), (unsigned long long)num_pairs);
      k->opt->log(k->opt->log_user, line);
    }
    if (backend == GCLQ_BACKEND_HOST) {
      st = gclq__host_sets_run(k, pairs, n, counts);
    } else {
#if defined(__CUDACC__)
      st = gclq__cuda_sets_run(&dev, k, pairs, n, counts);
#else
      st = GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
    }
    at += n;
  }
#if defined(__CUDACC__)
  if (backend == GCLQ_BACKEND_CUDA) gclq__cuda_sets_close(&dev, &st);
#endif
  GCLQ_FREE(counts);
  GCLQ_FREE(buf);
  return st;
}

/* ---- MMJoin's light/heavy split of the containment join ----

   Deep et al.'s MMJoin as the set intersection paper runs it (section 4.1):
   the host builds the inverted index, the light values' pairs are counted
   on the host from it, the heavy values' by the device's product, and each
   pair's two counts are added before the sink decides it. Host code in the
   common subset of C99 and C++; the thread that runs the light part beside
   the device is in the CUDA section below. */

static void gclq__mmjoin_free(gclq__mmjoin *m) {
  GCLQ_FREE(m->start);
  GCLQ_FREE(m->sv);
  gclq_sets_free(&m->heavy);
  GCLQ_FREE(m->row);
  GCLQ_FREE(m->col.a);
  GCLQ_FREE(m->cnt.a);
  GCLQ_FREE(m->dense);
  memset(m, 0, sizeof *m);
}

/* The inverted index: the keys (value << 32 | set) radix sorted, so each
   value's sets come out ascending; runs of one value are its list. */
static gclq_status gclq__mmjoin_index(const gclq_sets *s, gclq__mmjoin *m) {
  const uint64_t n = s->total;
  uint64_t *keys = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t)), e, r;
  uint32_t i;
  gclq_status st;
  if (keys == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < s->num_sets; ++i)
    for (e = s->h_offsets[i]; e < s->h_offsets[i + 1]; ++e) keys[e] = (uint64_t)s->h_elements[e] << 32 | i;
  st = gclq__sort_u64(keys, (size_t)n);
  for (e = 0, m->runs = 0; st == GCLQ_SUCCESS && e < n; ++e) m->runs += e == 0 || keys[e] >> 32 != keys[e - 1] >> 32;
  if (st == GCLQ_SUCCESS) {
    m->start = (uint64_t *)gclq__alloc_array(m->runs + 1, sizeof(uint64_t));
    m->sv = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
    if (m->start == NULL || m->sv == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) {
    for (e = 0, r = 0; e < n; ++e) {
      if (e == 0 || keys[e] >> 32 != keys[e - 1] >> 32) m->start[r++] = e;
      m->sv[e] = (uint32_t)keys[e];
    }
    m->start[m->runs] = n;
  }
  GCLQ_FREE(keys);
  return st;
}

/* AUTO's threshold from the index (GCLQ_SETS_AUTO_SPLIT_WORK above): the
   lists by length class, c in [2^b, 2^(b+1)), then each split_below = 2^t
   priced as the larger of its two parts; GCLQ_SPLIT_OFF when none is cheap
   enough. */
static uint64_t gclq__mmjoin_auto(const gclq_sets *s, const gclq__mmjoin *m) {
  double incr[34], elems[34], values[34], light_incr = 0.0, heavy_elems = 0.0, heavy_values = 0.0, heavy_incr = 0.0;
  double off, best;
  uint64_t r, below = GCLQ_SPLIT_OFF;
  int b, t;
  for (b = 0; b < 34; ++b) incr[b] = elems[b] = values[b] = 0.0;
  for (r = 0; r < m->runs; ++r) {
    const uint64_t c = m->start[r + 1] - m->start[r];
    b = 0;
    while (b < 33 && ((uint64_t)2 << b) <= c) ++b; /* c in [2^b, 2^(b+1)) */
    incr[b] += (double)c * (double)(c - 1) / 2.0;
    elems[b] += (double)c;
    values[b] += 1.0;
  }
  for (b = 1; b < 34; ++b) { /* the heavy part without a split: the values in two or more sets */
    heavy_elems += elems[b];
    heavy_values += values[b];
    heavy_incr += incr[b];
  }
  gclq__sets_all_pick(s->num_sets, s->total, heavy_values, heavy_incr, GCLQ_SETS_AUTO_MATRIX_COST,
                      GCLQ_SETS_AUTO_INDEX_COST, &off);
  best = GCLQ_SETS_AUTO_SPLIT_GAIN * off;
  for (t = 2; t <= 33; ++t) { /* split_below = 2^t: classes below t are light */
    double cost, host;
    light_incr += incr[t - 1];
    heavy_elems -= elems[t - 1];
    heavy_values -= values[t - 1];
    heavy_incr -= incr[t - 1];
    host = GCLQ_SETS_AUTO_SPLIT_HOST_COST * light_incr;
    gclq__sets_all_pick(s->num_sets, (uint64_t)heavy_elems, heavy_values, heavy_incr, GCLQ_SETS_AUTO_MATRIX_COST,
                        GCLQ_SETS_AUTO_INDEX_COST, &cost);
    if (host > cost) cost = host;
    if (cost < best) {
      best = cost;
      below = (uint64_t)1 << t;
    }
  }
  return below;
}

/* The heavy part as a collection: each set's heavy values, renumbered to
   their ranks (the index visits values in order, so every set stays
   strictly increasing). */
static gclq_status gclq__mmjoin_heavy(const gclq_sets *s, gclq__mmjoin *m) {
  const uint32_t k = s->num_sets;
  uint64_t *off = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t)), *at, r, x, total = 0, h = 0;
  uint32_t *elements, i;
  if (off == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(off, 0, ((size_t)k + 1) * sizeof(uint64_t));
  for (r = 0; r < m->runs; ++r)
    if (m->start[r + 1] - m->start[r] >= m->below)
      for (x = m->start[r]; x < m->start[r + 1]; ++x) ++off[m->sv[x] + 1];
  for (i = 0; i < k; ++i) off[i + 1] += off[i];
  total = off[k];
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  at = (uint64_t *)gclq__alloc_array(k, sizeof(uint64_t));
  if (elements == NULL || at == NULL) {
    GCLQ_FREE(off);
    GCLQ_FREE(elements);
    GCLQ_FREE(at);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (k > 0) memcpy(at, off, (size_t)k * sizeof(uint64_t));
  for (r = 0; r < m->runs; ++r) {
    if (m->start[r + 1] - m->start[r] < m->below) continue;
    for (x = m->start[r]; x < m->start[r + 1]; ++x) elements[at[m->sv[x]]++] = (uint32_t)h;
    ++h;
  }
  GCLQ_FREE(at);
  m->heavy_values = h;
  m->light_values = m->runs - h;
  m->heavy.num_sets = k;
  m->heavy.universe = h > 0 ? h : 1;
  m->heavy.total = total;
  m->heavy.h_offsets = off;
  m->heavy.h_elements = elements;
  m->heavy.is_view = 0;
  return GCLQ_SUCCESS;
}

/* The light part (the thread's work on CUDA): for each row i, every light
   value of s_i adds one to (i, j) for each later set j of its list, in a
   dense row of k counters whose touched entries then go to the lists.
   Values in one set only meet nothing and are skipped. */
static gclq_status gclq__mmjoin_light(const gclq_sets *s, gclq__mmjoin *m) {
  const uint32_t k = s->num_sets;
  uint64_t *loff = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t)), *at = NULL, r, x;
  uint32_t *lrun = NULL, *counter = NULL, *touched = NULL, i;
  gclq_status st = GCLQ_SUCCESS;
  m->row = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t));
  if (loff == NULL || m->row == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) { /* each set's light lists of two or more sets (CSR: loff, lrun) */
    memset(loff, 0, ((size_t)k + 1) * sizeof(uint64_t));
    for (r = 0; r < m->runs; ++r) {
      const uint64_t c = m->start[r + 1] - m->start[r];
      if (c < 2 || c >= m->below) continue;
      m->increments += c * (c - 1) / 2;
      for (x = m->start[r]; x < m->start[r + 1]; ++x) ++loff[m->sv[x] + 1];
    }
    for (i = 0; i < k; ++i) loff[i + 1] += loff[i];
    lrun = (uint32_t *)gclq__alloc_array(loff[k], sizeof(uint32_t));
    at = (uint64_t *)gclq__alloc_array(k, sizeof(uint64_t));
    counter = (uint32_t *)gclq__alloc_array(k, sizeof(uint32_t));
    touched = (uint32_t *)gclq__alloc_array(k, sizeof(uint32_t));
    if (lrun == NULL || at == NULL || counter == NULL || touched == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) {
    if (k > 0) {
      memcpy(at, loff, (size_t)k * sizeof(uint64_t));
      memset(counter, 0, (size_t)k * sizeof(uint32_t));
    }
    for (r = 0; r < m->runs; ++r) {
      const uint64_t c = m->start[r + 1] - m->start[r];
      if (c < 2 || c >= m->below) continue;
      for (x = m->start[r]; x < m->start[r + 1]; ++x) lrun[at[m->sv[x]]++] = (uint32_t)r;
    }
    m->row[0] = 0;
    for (i = 0; st == GCLQ_SUCCESS && i < k; ++i) {
      uint32_t nt = 0, t;
      uint64_t q;
      for (q = loff[i]; q < loff[i + 1]; ++q) { /* the list's sets after i: from its end down to i */
        const uint64_t lo = m->start[lrun[q]];
        for (x = m->start[lrun[q] + 1]; x > lo && m->sv[x - 1] > i; --x) {
          const uint32_t j = m->sv[x - 1];
          if (counter[j]++ == 0) touched[nt++] = j;
        }
      }
      for (t = 0; t < nt; ++t) {
        const uint32_t j = touched[t];
        if (!gclq__vec32_push(&m->col, j) || !gclq__vec32_push(&m->cnt, counter[j])) {
          st = GCLQ_ERROR_OUT_OF_MEMORY;
          break;
        }
        counter[j] = 0;
      }
      m->row[i + 1] = m->col.n;
    }
  }
  GCLQ_FREE(loff);
  GCLQ_FREE(lrun);
  GCLQ_FREE(at);
  GCLQ_FREE(counter);
  GCLQ_FREE(touched);
  return st;
}

/* Whether the containment join splits, and if so the split's index, heavy
   part and the sink's row of counters (*split = 1). */
static gclq_status gclq__mmjoin_plan(const gclq_sets *s, const gclq_intersect_options *o, gclq_backend backend,
                                     gclq__mmjoin *m, int *split) {
  uint64_t below = o->split_below;
  gclq_status st;
  *split = 0;
  memset(m, 0, sizeof *m);
  m->at = UINT64_MAX;
  if (below == GCLQ_SPLIT_OFF || s->num_sets < 2) return GCLQ_SUCCESS;
  if (below == 0) { /* AUTO: CUDA only, and only when the work is large */
    if (backend != GCLQ_BACKEND_CUDA ||
        gclq__sets_all_cost(s->num_sets, s->total, s->universe, GCLQ_SETS_AUTO_MATRIX_COST,
                            GCLQ_SETS_AUTO_INDEX_COST) < GCLQ_SETS_AUTO_SPLIT_WORK)
      return GCLQ_SUCCESS;
  }
  st = gclq__mmjoin_index(s, m);
  if (st == GCLQ_SUCCESS && below == 0) below = gclq__mmjoin_auto(s, m);
  if (st != GCLQ_SUCCESS || below == GCLQ_SPLIT_OFF) {
    gclq__mmjoin_free(m);
    return st;
  }
  m->below = below;
  m->at = UINT64_MAX;
  st = gclq__mmjoin_heavy(s, m);
  if (st == GCLQ_SUCCESS) {
    m->dense = (uint32_t *)gclq__alloc_array(s->num_sets, sizeof(uint32_t));
    if (m->dense == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    else memset(m->dense, 0, (size_t)s->num_sets * sizeof(uint32_t));
  }
  if (st != GCLQ_SUCCESS) {
    gclq__mmjoin_free(m);
    return st;
  }
  *split = 1;
  return GCLQ_SUCCESS;
}

/* The split's numbers into the stats (times: the caller's). */
static void gclq__mmjoin_stats(const gclq__mmjoin *m, gclq_intersect_stats *stats) {
  stats->split.below = m->below;
  stats->split.light_values = m->light_values;
  stats->split.heavy_values = m->heavy_values;
  stats->split.light_increments = m->increments;
  stats->split.light_pairs = m->col.n;
}

/* Both halves one after the other (HOST, or a build without nvcc): the
   light part, then the heavy part through the backend. */
static gclq_status gclq__mmjoin_serial(gclq__sets_sink *k, gclq_backend backend, uint64_t num_pairs) {
  clock_t t0 = clock(), t1;
  gclq_status st = gclq__mmjoin_light(k->sets, k->light);
  k->light->status = st;
  t1 = clock();
  k->r->stats.split.host_ms = (double)(t1 - t0) * 1000.0 / CLOCKS_PER_SEC;
  if (st == GCLQ_SUCCESS) st = gclq__sets_batches(k, backend, NULL, num_pairs);
  k->r->stats.split.device_ms = (double)(clock() - t1) * 1000.0 / CLOCKS_PER_SEC;
  return st;
}

#if defined(__CUDACC__)
/* Co-processing: the light part in a host thread while this one runs the
   heavy part on the device; the sink joins the thread before it adds the
   first light count (gclq__mmjoin_join, through the sink's wait). Times
   are from origin, when both halves start. */
struct gclq__mmjoin_host {
  gclq__mmjoin *m;
  const gclq_sets *sets;
  std::thread th;
  bool running;
  gclq__clock::time_point origin;
  double begin_ms, end_ms, wait_at_ms, wait_ms;
};

static gclq_status gclq__mmjoin_join(void *user) {
  gclq__mmjoin_host *h = (gclq__mmjoin_host *)user;
  if (h->running) {
    gclq__clock::time_point w = gclq__clock::now();
    h->th.join();
    h->running = false;
    h->wait_ms = gclq__ms_since(w);
    h->wait_at_ms = std::chrono::duration<double, std::milli>(w - h->origin).count();
  }
  return h->m->status;
}

static void gclq__mmjoin_body(gclq__mmjoin_host *h) {
  h->begin_ms = gclq__ms_since(h->origin);
  h->m->status = gclq__mmjoin_light(h->sets, h->m);
  h->end_ms = gclq__ms_since(h->origin);
}

static gclq_status gclq__mmjoin_cuda(gclq__sets_sink *k, uint64_t num_pairs) {
  gclq__mmjoin_host h;
  gclq_intersect_stats *stats = &k->r->stats;
  gclq_status st, js;
  double device_end;
  h.m = k->light;
  h.sets = k->sets;
  h.running = false;
  h.begin_ms = h.end_ms = h.wait_ms = 0.0;
  h.wait_at_ms = -1.0;
  h.origin = gclq__clock::now();
  try {
    h.th = std::thread(gclq__mmjoin_body, &h);
    h.running = true;
  } catch (...) { /* no thread to be had: the light part first, here */
    gclq__mmjoin_body(&h);
  }
  k->wait = gclq__mmjoin_join;
  k->wait_user = &h;
  st = gclq__sets_batches(k, GCLQ_BACKEND_CUDA, NULL, num_pairs);
  device_end = gclq__ms_since(h.origin);
  js = gclq__mmjoin_join(&h); /* still running when the device failed before its first count */
  k->wait = NULL;
  if (st == GCLQ_SUCCESS) st = js;
  if (h.wait_at_ms < 0.0) h.wait_at_ms = device_end; /* the device never waited */
  stats->split.host_ms = h.end_ms - h.begin_ms;
  stats->split.device_ms = device_end - h.wait_ms;
  stats->split.wait_ms = h.wait_ms;
  stats->split.overlap_ms = (h.end_ms < h.wait_at_ms ? h.end_ms : h.wait_at_ms) - h.begin_ms;
  if (stats->split.overlap_ms < 0.0) stats->split.overlap_ms = 0.0;
  return st;
}
#endif

/* The containment join with the split: the heavy part is what the backend
   counts, the light counts are added in the sink. */
static gclq_status gclq__mmjoin_batches(gclq__sets_sink *k, gclq_backend backend, uint64_t num_pairs) {
  gclq_status st;
  k->work = &k->light->heavy;
#if defined(__CUDACC__)
  if (backend == GCLQ_BACKEND_CUDA) st = gclq__mmjoin_cuda(k, num_pairs);
  else st = gclq__mmjoin_serial(k, backend, num_pairs);
#else
  st = gclq__mmjoin_serial(k, backend, num_pairs);
#endif
  gclq__mmjoin_stats(k->light, &k->r->stats);
  return st;
}

/* Containment records, sorted by (i, j). */
typedef struct gclq__sets_rec {
  uint64_t key;
  uint32_t count;
} gclq__sets_rec;
static int gclq__sets_rec_cmp(const void *a, const void *b) {
  uint64_t x = ((const gclq__sets_rec *)a)->key, y = ((const gclq__sets_rec *)b)->key;
  return x < y ? -1 : x > y;
}

/* The sink's lists into the result (sparse pairs, containments). */
static gclq_status gclq__sets_finish(gclq__sets_sink *k) {
  gclq_intersect_result *r = k->r;
  uint64_t p;
  if (k->kind == GCLQ__SINK_SPARSE) {
    r->num_pairs = k->counts.n;
    r->h_pairs = k->pairs.a;
    r->h_counts = k->counts.a;
    k->pairs.a = k->counts.a = NULL;
  } else if (k->kind == GCLQ__SINK_CONTAIN) {
    gclq__sets_rec *rec = (gclq__sets_rec *)gclq__alloc_array(k->keys.n, sizeof(gclq__sets_rec));
    r->h_pairs = (uint32_t *)gclq__alloc_array(2 * (uint64_t)k->keys.n, sizeof(uint32_t));
    r->h_counts = (uint32_t *)gclq__alloc_array(k->keys.n, sizeof(uint32_t));
    if (rec == NULL || r->h_pairs == NULL || r->h_counts == NULL) {
      GCLQ_FREE(rec);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    for (p = 0; p < k->keys.n; ++p) {
      rec[p].key = k->keys.a[p];
      rec[p].count = k->counts.a[p];
    }
    if (k->keys.n > 1) qsort(rec, k->keys.n, sizeof *rec, gclq__sets_rec_cmp);
    for (p = 0; p < k->keys.n; ++p) {
      r->h_pairs[2 * p] = (uint32_t)(rec[p].key >> 32);
      r->h_pairs[2 * p + 1] = (uint32_t)rec[p].key;
      r->h_counts[p] = rec[p].count;
    }
    r->num_pairs = k->keys.n;
    GCLQ_FREE(rec);
  } else if (k->opt->materialise) {
    r->h_elements = k->elements.a;
    k->elements.a = NULL;
  }
  for (p = 0, r->total = 0; p < r->num_pairs; ++p) r->total += r->h_counts[p];
  return GCLQ_SUCCESS;
}

/* The backend a call runs on, into the stats. */
static gclq_status gclq__sets_backend(const gclq_intersect_options *o, uint64_t work, gclq_intersect_stats *stats,
                                      gclq_backend *backend) {
  gclq_status st;
  if (o->backend == GCLQ_BACKEND_AUTO && work <= GCLQ_SETS_AUTO_HOST_WORK) {
    *backend = GCLQ_BACKEND_HOST; /* decided before anything touches CUDA */
    stats->backend = *backend;
    stats->method = GCLQ_INTERSECT_SERIAL_MERGE;
    stats->auto_small = 1;
    snprintf(stats->notes, sizeof stats->notes, "AUTO: small work (%llu merge steps): ran the host backend",
             (unsigned long long)work);
    return GCLQ_SUCCESS;
  }
  st = gclq_backend_resolve(o->backend, backend);
  if (st != GCLQ_SUCCESS) return st;
  stats->backend = *backend;
  stats->method = *backend == GCLQ_BACKEND_HOST ? GCLQ_INTERSECT_SERIAL_MERGE : o->method;
  if (o->backend == GCLQ_BACKEND_AUTO && *backend == GCLQ_BACKEND_HOST) {
    stats->fell_back = 1;
    snprintf(stats->notes, sizeof stats->notes, "AUTO: no CUDA device (or built without nvcc): ran the host backend");
  }
  return GCLQ_SUCCESS;
}

/* Every public intersection call: check, resolve, run the batches, finish.
   kind: GCLQ__SINK_*; all: every pair i < j (num_pairs of them), else the
   pairs h_pairs. */
static gclq_status gclq__sets_call(const gclq_sets *sets, const uint32_t *h_pairs, uint64_t num_pairs, int all,
                                   int kind, const gclq_intersect_options *options, gclq_intersect_result *r) {
  gclq_intersect_options opt;
  gclq__sets_sink k;
  gclq__mmjoin m;
  int split = 0, auto_ip_obs = 0;
  gclq_backend backend = GCLQ_BACKEND_HOST;
  gclq_status st;
  uint64_t work = 0, largest = 0, at = 0;
  clock_t t0 = clock();
#if defined(__CUDACC__)
  gclq__clock::time_point w0 = gclq__clock::now();
#endif
  st = gclq__sets_resolve(options, &opt);
  if (st != GCLQ_SUCCESS) return st;
  if (all) opt.materialise = 0;
  if (!all && gclq__sets_whole(opt.method)) return GCLQ_ERROR_INVALID_ARGUMENT; /* all pairs only */
  if (gclq__sets_check(sets, NULL) != GCLQ_SUCCESS) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!all) { /* the work, and the largest pair for AUTO's batch rule */
    st = gclq__sets_pairs_work(sets, h_pairs, num_pairs, &work, &largest, &at);
    if (st != GCLQ_SUCCESS) return st;
  }
  if (all && sets->num_sets > 1) /* each set meets the k - 1 others */
    work = sets->total > UINT64_MAX / (sets->num_sets - 1) ? UINT64_MAX : (sets->num_sets - 1) * sets->total;
  st = gclq__sets_backend(&opt, work, &r->stats, &backend);
  if (st != GCLQ_SUCCESS) return st;
  if (backend == GCLQ_BACKEND_CUDA && !all && opt.method == GCLQ_INTERSECT_AUTO) {
    opt.method = gclq__sets_pairs_rule_at(sets, h_pairs, num_pairs, work, largest, at, GCLQ_SETS_AUTO_BITMAP_DENSITY,
                                          GCLQ_SETS_AUTO_BITMAP_WINDOWS, GCLQ_SETS_AUTO_IP_OBS_BELOW);
    r->stats.method = opt.method;
    auto_ip_obs = opt.method == GCLQ_INTERSECT_IP_OBS;
  }
  memset(&k, 0, sizeof k);
  memset(&m, 0, sizeof m);
  k.kind = kind;
  k.auto_ip_obs = auto_ip_obs;
  k.sets = sets;
  k.work = sets;
  k.opt = &opt;
  k.r = r;
  if (kind == GCLQ__SINK_CONTAIN) { /* MMJoin's split: the index and the heavy part first */
    clock_t i0 = clock();
#if defined(__CUDACC__)
    gclq__clock::time_point iw = gclq__clock::now();
#endif
    st = gclq__mmjoin_plan(sets, &opt, backend, &m, &split);
    if (split) k.light = &m;
#if defined(__CUDACC__)
    if (split) r->stats.split.index_ms = gclq__ms_since(iw);
    (void)i0;
#else
    if (split) r->stats.split.index_ms = (double)(clock() - i0) * 1000.0 / CLOCKS_PER_SEC;
#endif
  }
  if (kind == GCLQ__SINK_LIST) {
    r->num_pairs = num_pairs;
    r->h_counts = (uint32_t *)gclq__alloc_array(num_pairs, sizeof(uint32_t));
    if (opt.materialise) r->h_offsets = (uint64_t *)gclq__alloc_array(num_pairs + 1, sizeof(uint64_t));
    if (r->h_counts == NULL || (opt.materialise && r->h_offsets == NULL)) st = GCLQ_ERROR_OUT_OF_MEMORY;
    if (st == GCLQ_SUCCESS && opt.materialise) r->h_offsets[0] = 0;
  }
  if (st == GCLQ_SUCCESS && split) st = gclq__mmjoin_batches(&k, backend, num_pairs);
  else if (st == GCLQ_SUCCESS) st = gclq__sets_batches(&k, backend, all ? NULL : h_pairs, num_pairs);
  if (st == GCLQ_SUCCESS) st = gclq__sets_finish(&k);
  gclq__mmjoin_free(&m);
  GCLQ_FREE(k.pairs.a);
  GCLQ_FREE(k.counts.a);
  GCLQ_FREE(k.elements.a);
  GCLQ_FREE(k.keys.a);
  if (st != GCLQ_SUCCESS) {
    gclq_intersect_result_free(r);
    return st;
  }
#if defined(__CUDACC__)
  r->stats.total_ms = gclq__ms_since(w0);
  (void)t0;
#else
  r->stats.total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC; /* processor time */
#endif
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_intersect_pairs(const gclq_sets *sets, const uint32_t *h_pairs, uint64_t num_pairs,
                                          const gclq_intersect_options *options, gclq_intersect_result *result) {
  if (result != NULL) memset(result, 0, sizeof *result);
  if (sets == NULL || result == NULL || (h_pairs == NULL && num_pairs > 0)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (num_pairs > ((uint64_t)1 << 62)) return GCLQ_ERROR_INVALID_ARGUMENT;
  return gclq__sets_call(sets, h_pairs, num_pairs, 0, GCLQ__SINK_LIST, options, result);
}

GCLQ_DEF gclq_status gclq_intersect_pair(const gclq_sets *sets, uint32_t i, uint32_t j,
                                         const gclq_intersect_options *options, gclq_intersect_result *result) {
  uint32_t pair[2];
  pair[0] = i;
  pair[1] = j;
  return gclq_intersect_pairs(sets, pair, 1, options, result);
}

GCLQ_DEF gclq_status gclq_intersect_all(const gclq_sets *sets, const gclq_intersect_options *options,
                                        gclq_intersect_result *result) {
  uint64_t k;
  int sparse = options != NULL && options->sparse;
  if (result != NULL) memset(result, 0, sizeof *result);
  if (sets == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  k = sets->num_sets;
  return gclq__sets_call(sets, NULL, k * (k - (k > 0)) / 2, 1, sparse ? GCLQ__SINK_SPARSE : GCLQ__SINK_LIST,
                         options, result);
}

GCLQ_DEF gclq_status gclq_containment_join(const gclq_sets *sets, const gclq_intersect_options *options,
                                           gclq_intersect_result *result) {
  uint64_t k;
  if (result != NULL) memset(result, 0, sizeof *result);
  if (sets == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  k = sets->num_sets;
  return gclq__sets_call(sets, NULL, k * (k - (k > 0)) / 2, 1, GCLQ__SINK_CONTAIN, options, result);
}

GCLQ_DEF gclq_status gclq_sets_upload(const gclq_sets *sets, const gclq_device_allocator *allocator,
                                      gclq_sets_device *d_sets, gclq_stream stream) {
  if (d_sets != NULL) memset(d_sets, 0, sizeof *d_sets);
  if (sets == NULL || d_sets == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (gclq__sets_check(sets, NULL) != GCLQ_SUCCESS) return GCLQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  return gclq__cuda_sets_upload(sets, allocator, d_sets, stream);
#else
  (void)allocator;
  (void)stream;
  return GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GCLQ_DEF gclq_status gclq_intersect_pairs_device(const gclq_sets_device *sets, const uint32_t *d_pairs,
                                                 uint64_t num_pairs, uint32_t *d_counts,
                                                 gclq_intersect_method method, void *d_temp, size_t *temp_bytes,
                                                 gclq_stream stream) {
  if (sets == NULL || temp_bytes == NULL || num_pairs >= ((uint64_t)1 << 31)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__sets_method_known(method) || method == GCLQ_INTERSECT_SERIAL_MERGE || gclq__sets_whole(method))
    return GCLQ_ERROR_INVALID_ARGUMENT;
  if (d_temp != NULL && num_pairs > 0 && (d_pairs == NULL || d_counts == NULL || sets->d_offsets == NULL))
    return GCLQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  return gclq__cuda_pairs_device(sets, d_pairs, (uint32_t)num_pairs, d_counts, method, d_temp, temp_bytes,
                                 (cudaStream_t)stream);
#else
  (void)d_pairs;
  (void)d_counts;
  (void)d_temp;
  (void)stream;
  return GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GCLQ_DEF void gclq_sets_device_free(gclq_sets_device *d_sets, const gclq_device_allocator *allocator,
                                    gclq_stream stream) {
  if (d_sets == NULL) return;
#if defined(__CUDACC__)
  gclq__device_free(allocator, d_sets->d_offsets, stream);
  gclq__device_free(allocator, d_sets->d_elements, stream);
#else
  (void)allocator;
  (void)stream;
#endif
  memset(d_sets, 0, sizeof *d_sets);
}

/* ---------------------------------------------------------------------------
   k-clique counting: core numbers and orders (public), the oriented graph,
   the two host methods (ORDERED, PIVOT), and the public call.

   Host code in the common subset of C99 and C++; the CUDA core numbers are
   the maximum clique search's peeling, called as it is. Counts are kept
   saturated at UINT64_MAX (gclq__kc_add): a count that reaches it is
   reported as GCLQ_ERROR_OVERFLOW for its k.
   ------------------------------------------------------------------------- */

/* The peeling order of the parallel core decomposition (the CUDA backend's
   gclq__mc_cores), reproduced on the host: at level k (the core numbers in
   ascending order) every vertex still present whose degree is at most k
   leaves in one round; the neighbours it leaves behind lose one degree each;
   rounds repeat until none leaves. order = the vertices by (round, id).
   Each vertex has at most its core number of neighbours later in it (when
   its round starts, every neighbour still present, same round or later,
   counts in its degree, and that degree is at most k). core: from
   gclq__host_core_order (Batagelj-Zaversnik); O(n + m). */
static inline gclq_status gclq__host_peel_order(const gclq_graph *g, const uint32_t *core, uint32_t max_core,
                                                uint32_t *order) {
  uint32_t n = g->num_vertices, v, k, r = 0, nf, nn, i;
  uint32_t *deg, *round, *by_core, *first, *front, *next;
  uint8_t *gone;
  uint64_t e;
  deg = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  round = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  by_core = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  first = (uint32_t *)gclq__alloc_array((uint64_t)max_core + 2, sizeof(uint32_t));
  front = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  next = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  gone = (uint8_t *)gclq__alloc_array(n, 1);
  if (deg == NULL || round == NULL || by_core == NULL || first == NULL || front == NULL || next == NULL ||
      gone == NULL) {
    GCLQ_FREE(deg);
    GCLQ_FREE(round);
    GCLQ_FREE(by_core);
    GCLQ_FREE(first);
    GCLQ_FREE(front);
    GCLQ_FREE(next);
    GCLQ_FREE(gone);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  /* the vertices grouped by core number (counting sort): level k's first round is among them */
  memset(first, 0, ((size_t)max_core + 2) * sizeof(uint32_t));
  for (v = 0; v < n; ++v) ++first[core[v] + 1];
  for (k = 0; k <= max_core; ++k) first[k + 1] += first[k];
  for (v = 0; v < n; ++v) by_core[first[core[v]]++] = v;
  for (k = max_core + 1; k > 0; --k) first[k] = first[k - 1];
  first[0] = 0;
  for (v = 0; v < n; ++v) deg[v] = gclq__host_degree(g, v), gone[v] = 0;
  for (k = 0; k <= max_core; ++k) {
    /* the level's first round: every vertex present of degree at most k (all have core k) */
    for (nf = 0, i = first[k]; i < first[k + 1]; ++i)
      if (!gone[by_core[i]] && deg[by_core[i]] <= k) front[nf++] = by_core[i];
    while (nf > 0) {
      uint32_t *t;
      for (i = 0; i < nf; ++i) gone[front[i]] = 1, round[front[i]] = r;
      ++r;
      /* the neighbours left behind lose a degree; those that reach k leave in the next round */
      for (nn = 0, i = 0; i < nf; ++i)
        for (e = g->h_offsets[front[i]]; e < g->h_offsets[front[i] + 1]; ++e) {
          uint32_t u = g->h_neighbors[e];
          if (!gone[u] && --deg[u] == k) next[nn++] = u;
        }
      t = front, front = next, next = t;
      nf = nn;
    }
  }
  /* order by (round, id): a counting sort over the rounds, ids ascending inside each */
  GCLQ_FREE(first);
  first = (uint32_t *)gclq__alloc_array((uint64_t)r + 1, sizeof(uint32_t));
  if (first != NULL) {
    memset(first, 0, ((size_t)r + 1) * sizeof(uint32_t));
    for (v = 0; v < n; ++v) ++first[round[v] + 1];
    for (i = 0; i < r; ++i) first[i + 1] += first[i];
    for (v = 0; v < n; ++v) order[first[round[v]]++] = v;
  }
  GCLQ_FREE(deg);
  GCLQ_FREE(round);
  GCLQ_FREE(by_core);
  GCLQ_FREE(front);
  GCLQ_FREE(next);
  GCLQ_FREE(gone);
  if (first == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ_FREE(first);
  return GCLQ_SUCCESS;
}

#if defined(__CUDACC__)
/* Core numbers on the current device: the CSR uploaded as the maximum clique
   search uploads it (gclq__mc_run_upload), then its peeling (gclq__mc_cores). */
static inline gclq_status gclq__kc_cuda_cores(const gclq_graph *g, uint32_t *h_core, uint32_t *max_core) {
  gclq__mc_plan plan;
  gclq_maxclique_stats stats;
  gclq__mc_ctx c;
  gclq_status st;
  memset(&plan, 0, sizeof plan);
  memset(&stats, 0, sizeof stats);
  memset(&c, 0, sizeof c);
  c.plan = &plan;
  c.stats = &stats;
  c.budget = ~(size_t)0;
  c.n = g->num_vertices;
  c.phase = "cores";
  *max_core = 0;
  if (c.n == 0) return GCLQ_SUCCESS;
  {
    gclq__dmem off(&c), nbr(&c), deg(&c), core(&c);
    st = gclq__mc_run_upload(&c, g, &off, &nbr, &deg, &core);
    if (st == GCLQ_SUCCESS) st = gclq__mc_cores(&c, max_core);
    if (st == GCLQ_SUCCESS) st = gclq__mc_read(&c, h_core, c.d_core, (size_t)c.n * sizeof(uint32_t));
  }
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  return st;
}
#endif

GCLQ_DEF gclq_status gclq_core_numbers(const gclq_graph *graph, gclq_backend backend, uint32_t *h_core_out,
                                       uint32_t *max_core) {
  gclq_backend resolved = GCLQ_BACKEND_HOST;
  gclq_status st;
  uint32_t best = 0, *core = h_core_out;
  if ((int)backend < 0 || (int)backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__host_graph_ok(graph)) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq_backend_resolve(backend, &resolved);
  if (st != GCLQ_SUCCESS) return st;
  if (core == NULL) {
    core = (uint32_t *)gclq__alloc_array(graph->num_vertices, sizeof(uint32_t));
    if (core == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (resolved == GCLQ_BACKEND_HOST) {
    st = gclq__host_core_order(graph, core, NULL, &best);
  } else {
#if defined(__CUDACC__)
    st = gclq__kc_cuda_cores(graph, core, &best);
#else
    st = GCLQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (core != h_core_out) GCLQ_FREE(core);
  if (st == GCLQ_SUCCESS && max_core != NULL) *max_core = best;
  return st;
}

GCLQ_DEF gclq_status gclq_degeneracy_order(const gclq_graph *graph, uint32_t *h_order_out) {
  uint32_t *core, max_core = 0;
  gclq_status st;
  if (!gclq__host_graph_ok(graph) || (h_order_out == NULL && graph->num_vertices > 0))
    return GCLQ_ERROR_INVALID_ARGUMENT;
  core = (uint32_t *)gclq__alloc_array(graph->num_vertices, sizeof(uint32_t));
  if (core == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  st = gclq__host_core_order(graph, core, NULL, &max_core);
  if (st == GCLQ_SUCCESS) st = gclq__host_peel_order(graph, core, max_core, h_order_out);
  GCLQ_FREE(core);
  return st;
}

GCLQ_DEF void gclq_kclique_options_defaults(gclq_kclique_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->backend = GCLQ_BACKEND_AUTO;
  options->method = GCLQ_KCLIQUE_AUTO;
  options->k = 3;
  options->orientation = GCLQ_ORIENT_BY_DEGENERACY;
}

GCLQ_DEF const char *gclq_kclique_method_name(gclq_kclique_method method) {
  switch (method) {
    case GCLQ_KCLIQUE_AUTO: return "auto";
    case GCLQ_KCLIQUE_ORDERED: return "ordered";
    case GCLQ_KCLIQUE_PIVOT: return "pivot";
    case GCLQ_KCLIQUE_LFTJ: return "lftj";
    case GCLQ_KCLIQUE_LEVEL_JOIN: return "level-join";
    case GCLQ_KCLIQUE_GROUPED: return "grouped";
    case GCLQ_KCLIQUE_BITSET: return "bitset";
    default: return "unknown";
  }
}

GCLQ_DEF const char *gclq_orient_by_name(gclq_orient_by orientation) {
  switch (orientation) {
    case GCLQ_ORIENT_BY_DEFAULT: return "default";
    case GCLQ_ORIENT_BY_DEGREE: return "degree";
    case GCLQ_ORIENT_BY_DEGENERACY: return "degeneracy";
    default: return "unknown";
  }
}

/* a + b and a * b, saturated at UINT64_MAX (which stands for "2^64 - 1 or more") */
static inline uint64_t gclq__kc_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static inline uint64_t gclq__kc_mul(uint64_t a, uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a == UINT64_MAX || b == UINT64_MAX || a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* One counting run: the oriented graph, what is counted, the work buffers. */
typedef struct gclq__kc_run {
  const gclq_graph *g;
  /* the oriented graph: out(v) = the neighbours later in the order, by id */
  uint64_t *off;
  uint32_t *out;
  uint32_t max_out, max_core;
  /* what is counted: one k (k > 0) or every size (k == 0) */
  uint32_t k;
  uint32_t top;    /* the largest size counted: k, or max_out + 1 */
  uint64_t *count; /* top + 1 entries: count[s] = s-cliques (saturated) */
  uint64_t *per_vertex;
  /* listing: rows of k compact ids, grown by doubling up to list_cap */
  uint64_t list_cap, listed, rows_cap;
  uint32_t *rows;
  int list_only;     /* an ORDERED pass that only lists, and stops when full */
  int out_of_memory; /* the rows could not grow */
  /* ORDERED: candidate lists per depth, the clique so far */
  uint32_t *cand;
  uint32_t *clique;
  /* PIVOT: the local graph of one source (bit rows), candidate bitsets per
     level, the required and pivot vertices (file order ids), binomials */
  uint32_t words;
  uint32_t *local, *slot;
  uint64_t *adj, *bits;
  uint32_t *required, *pivots;
  uint64_t *binom; /* (max_out + 1) rows of binom_cols: C(p, j), saturated */
  uint32_t binom_cols;
  uint64_t *leaves; /* every size: leaves[req * (max_out + 2) + piv], saturated */
  uint32_t deepest; /* the largest required + pivots of a leaf (every size: omega) */
  uint64_t nodes;
  /* progress */
  void (*log)(void *user, const char *line);
  void *log_user;
  clock_t last_log;
} gclq__kc_run;

static inline void gclq__kc_free(gclq__kc_run *r) {
  GCLQ_FREE(r->off);
  GCLQ_FREE(r->out);
  GCLQ_FREE(r->count);
  GCLQ_FREE(r->per_vertex);
  GCLQ_FREE(r->rows);
  GCLQ_FREE(r->cand);
  GCLQ_FREE(r->clique);
  GCLQ_FREE(r->local);
  GCLQ_FREE(r->slot);
  GCLQ_FREE(r->adj);
  GCLQ_FREE(r->bits);
  GCLQ_FREE(r->required);
  GCLQ_FREE(r->pivots);
  GCLQ_FREE(r->binom);
  GCLQ_FREE(r->leaves);
  memset(r, 0, sizeof *r);
}

static inline void gclq__kc_log(const gclq__kc_run *r, const char *line) {
  if (r->log != NULL) r->log(r->log_user, line);
}

/* The counting line after source i of n, at most one every
   GCLQ__HOST_LOG_SECONDS of processor time (checked every
   GCLQ__HOST_LOG_EVERY sources). */
static inline void gclq__kc_progress(gclq__kc_run *r, const char *method, uint32_t i) {
  char line[160];
  clock_t now;
  uint32_t n = r->g->num_vertices;
  if (r->log == NULL || i % GCLQ__HOST_LOG_EVERY != 0) return;
  now = clock();
  if ((double)(now - r->last_log) < GCLQ__HOST_LOG_SECONDS * CLOCKS_PER_SEC) return;
  r->last_log = now;
  snprintf(line, sizeof line, "count (%s): source %u of %u (%.0f%%), %llu nodes", method, i, n, 100.0 * i / n,
           (unsigned long long)r->nodes);
  gclq__kc_log(r, line);
}

/* ---- the oriented graph ---- */

/* rank[v] = position of v in the order: the degeneracy order, or ascending
   (degree, id). Also fills r->max_core. */
static inline gclq_status gclq__kc_rank(gclq__kc_run *r, gclq_orient_by by, uint32_t *rank) {
  const gclq_graph *g = r->g;
  uint32_t n = g->num_vertices, v, *core, *order;
  gclq_status st;
  core = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  order = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  if (core == NULL || order == NULL) {
    GCLQ_FREE(core);
    GCLQ_FREE(order);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  st = gclq__host_core_order(g, core, NULL, &r->max_core);
  if (st == GCLQ_SUCCESS && by == GCLQ_ORIENT_BY_DEGENERACY) st = gclq__host_peel_order(g, core, r->max_core, order);
  if (st == GCLQ_SUCCESS && by == GCLQ_ORIENT_BY_DEGREE) {
    uint64_t *keys = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
    if (keys == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    for (v = 0; keys != NULL && v < n; ++v) keys[v] = (uint64_t)gclq__host_degree(g, v) << 32 | v;
    if (st == GCLQ_SUCCESS) st = gclq__sort_u64(keys, n);
    for (v = 0; st == GCLQ_SUCCESS && v < n; ++v) order[v] = (uint32_t)keys[v];
    GCLQ_FREE(keys);
  }
  for (v = 0; st == GCLQ_SUCCESS && v < n; ++v) rank[order[v]] = v;
  GCLQ_FREE(core);
  GCLQ_FREE(order);
  return st;
}

/* out(v): the neighbours of v of higher rank, ascending by id (r->off,
   r->out, r->max_out). */
static inline gclq_status gclq__kc_orient(gclq__kc_run *r, gclq_orient_by by) {
  const gclq_graph *g = r->g;
  uint32_t n = g->num_vertices, v, *rank;
  uint64_t e, at = 0;
  rank = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  r->off = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  r->out = (uint32_t *)gclq__alloc_array(g->num_edges, sizeof(uint32_t));
  if (rank == NULL || r->off == NULL || r->out == NULL) {
    GCLQ_FREE(rank);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (gclq__kc_rank(r, by, rank) != GCLQ_SUCCESS) {
    GCLQ_FREE(rank);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  r->max_out = 0;
  for (v = 0; v < n; ++v) {
    r->off[v] = at;
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e)
      if (rank[g->h_neighbors[e]] > rank[v]) r->out[at++] = g->h_neighbors[e];
    if (at - r->off[v] > r->max_out) r->max_out = (uint32_t)(at - r->off[v]);
  }
  r->off[n] = at;
  GCLQ_FREE(rank);
  return GCLQ_SUCCESS;
}

static inline uint32_t gclq__kc_out_degree(const gclq__kc_run *r, uint32_t v) {
  return (uint32_t)(r->off[v + 1] - r->off[v]);
}

/* ---- ORDERED: kClist-style recursion ---- */

/* Room for twice as many listed rows (at most list_cap); 0 when out of
   memory (r->out_of_memory set). */
static inline int gclq__kc_grow_rows(gclq__kc_run *r) {
  uint64_t cap = r->rows_cap ? 2 * r->rows_cap : 64;
  uint32_t *rows;
  if (cap > r->list_cap) cap = r->list_cap;
  rows = cap > ((size_t)-1) / sizeof(uint32_t) / r->k ? NULL
                                                      : (uint32_t *)GCLQ_REALLOC(r->rows, (size_t)cap * r->k * sizeof(uint32_t));
  if (rows == NULL) {
    r->out_of_memory = 1;
    return 0;
  }
  r->rows = rows;
  r->rows_cap = cap;
  return 1;
}

/* The k-cliques made of the clique so far (d vertices) and each of its nc
   candidates: counted, credited to their vertices, listed. */
static inline void gclq__kc_ordered_leaf(gclq__kc_run *r, uint32_t d, const uint32_t *cand, uint32_t nc) {
  uint32_t i, j;
  if (!r->list_only) r->count[d + 1] = gclq__kc_add(r->count[d + 1], nc);
  if (r->per_vertex != NULL && !r->list_only) {
    for (j = 0; j < d; ++j) r->per_vertex[r->clique[j]] = gclq__kc_add(r->per_vertex[r->clique[j]], nc);
    for (i = 0; i < nc; ++i) r->per_vertex[cand[i]] = gclq__kc_add(r->per_vertex[cand[i]], 1);
  }
  for (i = 0; i < nc && r->listed < r->list_cap; ++i) {
    uint32_t *row;
    if (r->listed == r->rows_cap && !gclq__kc_grow_rows(r)) return;
    row = r->rows + r->listed++ * (size_t)(d + 1);
    for (j = 0; j < d; ++j) row[j] = r->clique[j];
    row[d] = cand[i];
  }
}

/* The clique so far is r->clique[0 .. d); cand (nc vertices, ascending ids)
   are the vertices later than all of it in the order and adjacent to all
   of it. One k: stop at depth k - 1 (the candidates complete it). Every
   size: each candidate makes a (d + 1)-clique; go on while any remain. */
static void gclq__kc_ordered(gclq__kc_run *r, uint32_t d, const uint32_t *cand, uint32_t nc) {
  uint32_t i, *next;
  ++r->nodes;
  if (nc == 0 || r->out_of_memory || (r->list_only && r->listed >= r->list_cap)) return;
  if (r->k != 0 && d + 1 == r->k) {
    gclq__kc_ordered_leaf(r, d, cand, nc);
    return;
  }
  if (r->k == 0) r->count[d + 1] = gclq__kc_add(r->count[d + 1], nc);
  next = r->cand + (size_t)d * r->max_out;
  for (i = 0; i < nc; ++i) {
    uint32_t w = cand[i], nn;
    nn = gclq__host_intersect(cand, nc, r->out + r->off[w], gclq__kc_out_degree(r, w), next);
    if (nn == 0 || (r->k != 0 && d + 1 + nn < r->k)) continue; /* too few to reach k */
    r->clique[d] = w;
    gclq__kc_ordered(r, d + 1, next, nn);
  }
}

/* Buffers of the ORDERED recursion: candidate lists for depths 1 .. top,
   the clique. */
static inline int gclq__kc_ordered_buffers(gclq__kc_run *r) {
  r->cand = (uint32_t *)gclq__alloc_array(((uint64_t)r->top + 1) * r->max_out, sizeof(uint32_t));
  r->clique = (uint32_t *)gclq__alloc_array((uint64_t)r->top + 1, sizeof(uint32_t));
  return r->cand != NULL && r->clique != NULL;
}

static inline void gclq__kc_ordered_all_sources(gclq__kc_run *r) {
  uint32_t v, n = r->g->num_vertices;
  for (v = 0; v < n; ++v) {
    if (r->list_only && r->listed >= r->list_cap) return;
    gclq__kc_progress(r, "ordered", v);
    r->clique[0] = v;
    if (!r->list_only && r->k == 0) r->count[1] = gclq__kc_add(r->count[1], 1);
    gclq__kc_ordered(r, 1, r->out + r->off[v], gclq__kc_out_degree(r, v));
  }
}

/* ---- PIVOT: succinct clique trees ---- */

/* C(p, j), saturated, for p <= max_out and j < binom_cols (0 otherwise). */
static inline uint64_t gclq__kc_binom(const gclq__kc_run *r, uint32_t p, uint32_t j) {
  return j <= p && j < r->binom_cols ? r->binom[(size_t)p * r->binom_cols + j] : 0;
}

/* Pascal's triangle, rows 0 .. max_out, columns 0 .. binom_cols - 1. */
static inline int gclq__kc_binomials(gclq__kc_run *r) {
  uint32_t p, j, cols = r->binom_cols;
  r->binom = (uint64_t *)gclq__alloc_array(((uint64_t)r->max_out + 1) * cols, sizeof(uint64_t));
  if (r->binom == NULL) return 0;
  for (p = 0; p <= r->max_out; ++p) {
    uint64_t *row = r->binom + (size_t)p * cols;
    const uint64_t *above = p > 0 ? row - cols : row; /* row p - 1 */
    for (j = 0; j < cols; ++j) {
      if (j == 0 || j == p) row[j] = 1;
      else if (j > p) row[j] = 0;
      else row[j] = gclq__kc_add(above[j], above[j - 1]);
    }
  }
  return 1;
}

/* A leaf: every clique of the required vertices plus any j of the pivots,
   C(p, j) of each size req + j. Counting every size, leaves are only
   tallied by (req, piv) here; gclq__kc_pivot_sizes adds them up at the end. */
static inline void gclq__kc_pivot_leaf(gclq__kc_run *r, uint32_t req, uint32_t piv) {
  uint32_t j, i;
  if (req + piv > r->deepest) r->deepest = req + piv;
  if (r->k == 0) {
    uint64_t *tally = r->leaves + (size_t)req * (r->max_out + 2) + piv;
    *tally = gclq__kc_add(*tally, 1);
    return;
  }
  if (r->k < req || r->k - req > piv) return;
  j = r->k - req;
  r->count[r->k] = gclq__kc_add(r->count[r->k], gclq__kc_binom(r, piv, j));
  if (r->per_vertex == NULL) return;
  for (i = 0; i < req; ++i)
    r->per_vertex[r->required[i]] = gclq__kc_add(r->per_vertex[r->required[i]], gclq__kc_binom(r, piv, j));
  if (j == 0) return;
  for (i = 0; i < piv; ++i)
    r->per_vertex[r->pivots[i]] = gclq__kc_add(r->per_vertex[r->pivots[i]], gclq__kc_binom(r, piv - 1, j - 1));
}

/* A node of the clique tree at level t: candidates C (bitset at level t),
   req required and piv pivot vertices so far. The pivot u is the candidate
   with the most candidate neighbours; the branches are u as a pivot (its
   candidate neighbours), and each candidate w not adjacent to u as a
   required vertex (its candidate neighbours, less u and the earlier such w).
   Each clique of the subtree is then reached on exactly one path, as the
   required vertices of a leaf plus some of its pivots. A candidate adjacent
   to every other candidate would be the pivot with no other branch, again
   and again: all of them become pivots in one step. */
static void gclq__kc_pivot(gclq__kc_run *r, uint32_t t, uint32_t req, uint32_t piv);

/* The child at level t + 1 (candidates already in its bitset): a leaf is
   taken here, without the call. */
static inline void gclq__kc_pivot_child(gclq__kc_run *r, uint32_t t, uint32_t req, uint32_t piv) {
  const uint64_t *next = r->bits + (size_t)(t + 1) * 2 * r->words;
  uint32_t w;
  for (w = 0; w < r->words; ++w)
    if (next[w]) {
      gclq__kc_pivot(r, t + 1, req, piv);
      return;
    }
  ++r->nodes;
  gclq__kc_pivot_leaf(r, req, piv);
}

/* One k, no per-vertex counts, and at most two required vertices to go
   (j = k - req is 1 or 2): the node's subtree holds, for each clique Y of
   the candidates' graph, the cliques of the required vertices, Y and any
   of the pivots; so its k-cliques number C(piv, j) + size * C(piv, j - 1)
   + (j == 2: the candidates' edges), counted here without the subtree. */
static inline int gclq__kc_pivot_closes(const gclq__kc_run *r, uint32_t req) {
  return r->k != 0 && r->per_vertex == NULL && req < r->k && req + 2 >= r->k;
}
static inline void gclq__kc_pivot_close(gclq__kc_run *r, const uint64_t *C, uint32_t size, uint32_t req,
                                        uint32_t piv) {
  const uint32_t j = r->k - req, W = r->words;
  uint64_t edges = 0, sum;
  uint32_t w, i;
  if (req + piv > r->deepest) r->deepest = req + piv;
  for (w = 0; j == 2 && w < W; ++w) {
    uint64_t m = C[w];
    while (m) {
      const uint32_t x = w * 64 + gclq__host_ctz64(m);
      m &= m - 1;
      for (i = 0; i < W; ++i) edges += gclq__host_popcount64(C[i] & r->adj[(size_t)x * W + i]);
    }
  }
  sum = gclq__kc_add(gclq__kc_binom(r, piv, j), gclq__kc_mul(size, gclq__kc_binom(r, piv, j - 1)));
  sum = gclq__kc_add(sum, edges / 2);
  r->count[r->k] = gclq__kc_add(r->count[r->k], sum);
}

static void gclq__kc_pivot(gclq__kc_run *r, uint32_t t, uint32_t req, uint32_t piv) {
  uint32_t W = r->words, i, w, size = 0, best = 0, u = 0, universal = 0;
  uint64_t *C = r->bits + (size_t)t * 2 * W, *rest = C + W, *next = C + 2 * W;
  ++r->nodes;
  for (w = 0; w < W; ++w) size += gclq__host_popcount64(C[w]);
  if (r->k != 0 && (req > r->k || req + piv + size < r->k)) return;
  if (size == 0 || (r->k != 0 && req == r->k)) {
    gclq__kc_pivot_leaf(r, req, piv);
    return;
  }
  if (gclq__kc_pivot_closes(r, req)) {
    gclq__kc_pivot_close(r, C, size, req, piv);
    return;
  }
  for (w = 0; w < W; ++w) rest[w] = 0;
  for (w = 0; w < W; ++w) { /* the pivot: most neighbours among the candidates */
    uint64_t m = C[w];
    while (m) {
      uint32_t x = w * 64 + gclq__host_ctz64(m), links = 0;
      m &= m - 1;
      for (i = 0; i < W; ++i) links += gclq__host_popcount64(C[i] & r->adj[(size_t)x * W + i]);
      if (links >= best) best = links, u = x;
      if (links + 1 == size) {
        rest[w] |= (uint64_t)1 << (x % 64);
        r->pivots[piv + universal++] = r->local[x];
      }
    }
  }
  if (universal > 0) { /* every candidate adjacent to all others is a pivot */
    for (w = 0; w < W; ++w) next[w] = C[w] & ~rest[w];
    gclq__kc_pivot_child(r, t, req, piv + universal);
    return;
  }
  for (w = 0; w < W; ++w) next[w] = C[w] & r->adj[(size_t)u * W + w];
  r->pivots[piv] = r->local[u];
  gclq__kc_pivot_child(r, t, req, piv + 1);
  C[u / 64] &= ~((uint64_t)1 << (u % 64));
  for (w = 0; w < W; ++w) rest[w] = C[w] & ~r->adj[(size_t)u * W + w];
  for (w = 0; w < W; ++w) {
    while (rest[w]) {
      uint32_t x = w * 64 + gclq__host_ctz64(rest[w]);
      rest[w] &= rest[w] - 1;
      for (i = 0; i < W; ++i) next[i] = C[i] & r->adj[(size_t)x * W + i];
      r->required[req] = r->local[x];
      gclq__kc_pivot_child(r, t, req + 1, piv);
      C[x / 64] &= ~((uint64_t)1 << (x % 64));
    }
  }
}

/* The tree of source v: its out-neighbours as a local graph of bit rows
   (the oriented edges among them suffice: each joins two of them once),
   all of them candidates, v required. */
static inline void gclq__kc_pivot_source(gclq__kc_run *r, uint32_t v) {
  uint32_t d = gclq__kc_out_degree(r, v), W = (d + 63) / 64, i;
  uint64_t e;
  r->words = W > 0 ? W : 1;
  W = r->words;
  for (i = 0; i < d; ++i) {
    r->local[i] = r->out[r->off[v] + i];
    r->slot[r->local[i]] = i + 1;
  }
  memset(r->adj, 0, (size_t)d * W * sizeof(uint64_t));
  for (i = 0; i < d; ++i) {
    uint32_t x = r->local[i];
    for (e = r->off[x]; e < r->off[x + 1]; ++e) {
      uint32_t j = r->slot[r->out[e]];
      if (j == 0) continue;
      --j;
      r->adj[(size_t)i * W + j / 64] |= (uint64_t)1 << (j % 64);
      r->adj[(size_t)j * W + i / 64] |= (uint64_t)1 << (i % 64);
    }
  }
  for (i = 0; i < d; ++i) r->slot[r->local[i]] = 0;
  memset(r->bits, 0, (size_t)W * sizeof(uint64_t));
  for (i = 0; i < d; ++i) r->bits[i / 64] |= (uint64_t)1 << (i % 64);
  r->required[0] = v;
  gclq__kc_pivot(r, 0, 1, 0);
}

/* Buffers of the pivot trees: the local graph (at most max_out vertices),
   two bitsets per level (at most max_out + 2 levels), the vertex stacks,
   the binomials. */
static inline int gclq__kc_pivot_buffers(gclq__kc_run *r) {
  uint64_t W = ((uint64_t)r->max_out + 63) / 64 + 1, cap = (uint64_t)r->max_out + 2;
  r->binom_cols = r->k == 0 ? r->max_out + 1 : (r->k < r->max_out + 1 ? r->k : r->max_out + 1);
  r->local = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  r->slot = (uint32_t *)gclq__alloc_array(r->g->num_vertices, sizeof(uint32_t));
  r->adj = (uint64_t *)gclq__alloc_array(cap * W, sizeof(uint64_t));
  r->bits = (uint64_t *)gclq__alloc_array((cap + 1) * 2 * W, sizeof(uint64_t));
  r->required = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  r->pivots = (uint32_t *)gclq__alloc_array(cap, sizeof(uint32_t));
  if (!r->local || !r->slot || !r->adj || !r->bits || !r->required || !r->pivots) return 0;
  if (r->k == 0) {
    r->leaves = (uint64_t *)gclq__alloc_array(cap * cap, sizeof(uint64_t));
    if (r->leaves == NULL) return 0;
    memset(r->leaves, 0, (size_t)(cap * cap) * sizeof(uint64_t));
  }
  memset(r->slot, 0, (size_t)r->g->num_vertices * sizeof(uint32_t));
  return gclq__kc_binomials(r);
}

/* Every size: count[req + j] += leaves(req, piv) * C(piv, j). */
static inline void gclq__kc_pivot_sizes(gclq__kc_run *r) {
  uint32_t req, piv, j, side = r->max_out + 2;
  for (req = 1; req < side; ++req)
    for (piv = 0; req + piv < side; ++piv) {
      uint64_t tally = r->leaves[(size_t)req * side + piv];
      if (tally == 0) continue;
      for (j = 0; j <= piv; ++j)
        r->count[req + j] = gclq__kc_add(r->count[req + j], gclq__kc_mul(tally, gclq__kc_binom(r, piv, j)));
    }
}

static inline void gclq__kc_pivot_all_sources(gclq__kc_run *r) {
  uint32_t v, n = r->g->num_vertices;
  for (v = 0; v < n; ++v) {
    gclq__kc_progress(r, "pivot", v);
    gclq__kc_pivot_source(r, v);
  }
  if (r->k == 0) gclq__kc_pivot_sizes(r);
}

/* ---- the public call ---- */

/* The options (NULL: defaults), checked; a copy with the defaults filled in. */
static inline gclq_status gclq__kc_resolve(const gclq_kclique_options *o, gclq_kclique_options *p) {
  if (o == NULL) {
    gclq_kclique_options_defaults(p);
    return GCLQ_SUCCESS;
  }
  if ((int)o->backend < 0 || (int)o->backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->method < 0 || (int)o->method > (int)GCLQ_KCLIQUE_BITSET) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)o->orientation < 0 || (int)o->orientation > (int)GCLQ_ORIENT_BY_DEGENERACY)
    return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!o->all && (o->k == 1 || o->k == 2)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (o->all && (o->per_vertex || o->max_stored)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (o->allocator.alloc != NULL && o->allocator.free == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *p = *o;
  if (p->orientation == GCLQ_ORIENT_BY_DEFAULT) p->orientation = GCLQ_ORIENT_BY_DEGENERACY;
  if (p->k == 0) p->k = 3;
  if (p->all) p->k = 0; /* every size */
  return GCLQ_SUCCESS;
}

/* AUTO's method (GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K, _MAX_CORE). */
static inline gclq_kclique_method gclq__kc_auto(const gclq_kclique_options *p, uint32_t max_core) {
  if (p->k != 0 && p->k <= GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K && max_core <= GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE)
    return GCLQ_KCLIQUE_ORDERED;
  return GCLQ_KCLIQUE_PIVOT;
}

/* The counting buffers: count[0 .. top], per-vertex counts, listed rows. */
static inline int gclq__kc_outputs(gclq__kc_run *r, const gclq_kclique_options *p) {
  /* one k above max_out + 1 (so above omega) counts nothing: top 0 */
  r->top = r->k == 0 ? r->max_out + 1 : r->k <= r->max_out + 1 ? r->k : 0;
  r->count = (uint64_t *)gclq__alloc_array((uint64_t)r->top + 1, sizeof(uint64_t));
  if (r->count == NULL) return 0;
  memset(r->count, 0, ((size_t)r->top + 1) * sizeof(uint64_t));
  if (p->per_vertex) {
    r->per_vertex = (uint64_t *)gclq__alloc_array(r->g->num_vertices, sizeof(uint64_t));
    if (r->per_vertex == NULL) return 0;
    memset(r->per_vertex, 0, (size_t)r->g->num_vertices * sizeof(uint64_t));
  }
  if (p->max_stored && r->top != 0) r->list_cap = p->max_stored;
  return 1;
}

/* Count (and list) with the chosen method; PIVOT lists by a separate
   ORDERED pass that stops when full. */
static inline gclq_status gclq__kc_count(gclq__kc_run *r, gclq_kclique_method method, gclq_kclique_stats *stats) {
  clock_t t0 = clock();
  if (r->top == 0) return GCLQ_SUCCESS; /* k > omega: nothing to visit */
  if (method == GCLQ_KCLIQUE_ORDERED) {
    if (!gclq__kc_ordered_buffers(r)) return GCLQ_ERROR_OUT_OF_MEMORY;
    gclq__kc_ordered_all_sources(r);
    stats->count_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
    return r->out_of_memory ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS;
  }
  if (!gclq__kc_pivot_buffers(r)) return GCLQ_ERROR_OUT_OF_MEMORY;
  gclq__kc_pivot_all_sources(r);
  stats->count_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  if (r->list_cap > 0) {
    t0 = clock();
    if (!gclq__kc_ordered_buffers(r)) return GCLQ_ERROR_OUT_OF_MEMORY;
    r->list_only = 1;
    gclq__kc_ordered_all_sources(r);
    stats->list_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  }
  return r->out_of_memory ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS;
}

/* The result's counts and statuses from the run (k_first, num_k, omega). */
static inline gclq_status gclq__kc_counts_out(const gclq__kc_run *r, gclq_kclique_method method,
                                              gclq_kclique_result *res) {
  uint32_t i, omega = 0, s;
  if (r->k == 0) {
    for (s = r->top; s >= 1 && omega == 0; --s)
      if (r->count[s] != 0) omega = s;
    if (method == GCLQ_KCLIQUE_PIVOT && r->deepest > omega) omega = r->deepest;
    if (omega == 0 && r->g->num_vertices > 0) omega = 1;
    res->omega = omega;
    res->k_first = 3;
    res->num_k = omega >= 3 ? omega - 2 : 0;
  } else {
    res->k_first = r->k;
    res->num_k = 1;
  }
  res->h_counts = (uint64_t *)gclq__alloc_array(res->num_k, sizeof(uint64_t));
  res->h_status = (gclq_status *)gclq__alloc_array(res->num_k, sizeof(gclq_status));
  if (res->h_counts == NULL || res->h_status == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < res->num_k; ++i) {
    s = res->k_first + i;
    res->h_counts[i] = s <= r->top ? r->count[s] : 0;
    res->h_status[i] = res->h_counts[i] == UINT64_MAX ? GCLQ_ERROR_OVERFLOW : GCLQ_SUCCESS;
    res->overflowed += res->h_status[i] != GCLQ_SUCCESS;
  }
  return GCLQ_SUCCESS;
}

/* The listed cliques, each ascending, the list in lexicographic order, in
   file ids (the maximum clique search's finishing step). */
static inline gclq_status gclq__kc_cliques_out(gclq__kc_run *r, gclq_kclique_result *res) {
  gclq_maxclique_result sorted;
  gclq_status st;
  uint32_t *rows = r->rows;
  memset(&sorted, 0, sizeof sorted);
  r->rows = NULL; /* consumed by gclq__mc_finish */
  st = gclq__mc_finish(r->g, r->k, r->listed, r->listed, rows, &sorted);
  if (st != GCLQ_SUCCESS) return st;
  res->stored = sorted.stored;
  res->h_cliques = sorted.h_cliques;
  return GCLQ_SUCCESS;
}

/* The whole HOST run, into res (not yet cleaned on failure). */
static inline gclq_status gclq__kc_host(const gclq_graph *g, const gclq_kclique_options *p, gclq_kclique_result *res) {
  gclq__kc_run r;
  gclq_kclique_method method;
  gclq_status st;
  char line[200];
  clock_t t0 = clock();
  memset(&r, 0, sizeof r);
  r.g = g;
  r.k = p->k;
  r.log = p->log;
  r.log_user = p->log_user;
  r.last_log = clock();
  st = gclq__kc_orient(&r, p->orientation);
  res->stats.order_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC;
  method = p->method != GCLQ_KCLIQUE_AUTO ? p->method : gclq__kc_auto(p, r.max_core);
  if (method != GCLQ_KCLIQUE_PIVOT) method = GCLQ_KCLIQUE_ORDERED; /* the CUDA methods' host counterpart */
  res->stats.method = method;
  res->stats.max_core = r.max_core;
  res->stats.max_out_degree = r.max_out;
  if (st == GCLQ_SUCCESS) {
    snprintf(line, sizeof line, "order: %s, max core %u, max out-degree %u; counting by %s",
             gclq_orient_by_name(p->orientation), r.max_core, r.max_out, gclq_kclique_method_name(method));
    gclq__kc_log(&r, line);
    if (!gclq__kc_outputs(&r, p)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) st = gclq__kc_count(&r, method, &res->stats);
  res->stats.nodes = r.nodes;
  if (st == GCLQ_SUCCESS) st = gclq__kc_counts_out(&r, method, res);
  if (st == GCLQ_SUCCESS && r.per_vertex != NULL) {
    res->h_per_vertex = r.per_vertex;
    r.per_vertex = NULL;
  }
  if (st == GCLQ_SUCCESS && r.list_cap > 0) st = gclq__kc_cliques_out(&r, res);
  if (st == GCLQ_SUCCESS) {
    snprintf(line, sizeof line, "count: done, %llu nodes", (unsigned long long)r.nodes);
    gclq__kc_log(&r, line);
  }
  gclq__kc_free(&r);
  return st;
}

#if defined(__CUDACC__)
/* ---- the CUDA backend: upload, cores, orientation and counting on the
   device (clique/kcliques.cuh and the methods' files); listing by the host
   ORDERED pass over the same orientation ---- */

/* AUTO's method on CUDA (GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K). */
static inline gclq_kclique_method gclq__kc_cuda_method(const gclq_kclique_options *p) {
  if (p->all || p->k >= GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K) return GCLQ_KCLIQUE_PIVOT; /* the counts explode */
  return p->k == 3 ? GCLQ_KCLIQUE_LEVEL_JOIN : GCLQ_KCLIQUE_BITSET;
}

/* Count on the device with the chosen method (d set up: graph, counters). */
static inline gclq_status gclq__kc_cuda_count(gclq__kc_dev *d, gclq_kclique_method method) {
  switch (method) {
    case GCLQ_KCLIQUE_BITSET: return gclq__kc_cuda_bitset(d);
    case GCLQ_KCLIQUE_PIVOT: return gclq__kc_cuda_pivot(d);
    case GCLQ_KCLIQUE_LFTJ: return gclq__kc_cuda_lftj(d);
    case GCLQ_KCLIQUE_LEVEL_JOIN: return gclq__kc_cuda_level_join(d);
    case GCLQ_KCLIQUE_GROUPED: return gclq__kc_cuda_grouped(d);
    default: return GCLQ_ERROR_BACKEND_UNAVAILABLE;
  }
}

/* Upload, cores (and the peeling rounds), orientation, counters, counting;
   r->count and r->per_vertex filled as the host methods fill them. */
static inline gclq_status gclq__kc_cuda_run(gclq__mc_ctx *c, const gclq_kclique_options *p, gclq__kc_run *r,
                                            gclq_kclique_result *res) {
  const gclq_graph *g = r->g;
  gclq_kclique_stats *stats = &res->stats;
  gclq__kc_dev d;
  gclq__dmem off(c), nbr(c), deg(c), core(c), round(c), rank(c), ooff(c), oout(c), uoff(c), unbr(c);
  gclq__dmem cnt(c), flags(c), pv(c), pvf(c);
  gclq__clock::time_point t0 = gclq__clock::now();
  gclq_kclique_method method;
  char line[200];
  memset(&d, 0, sizeof d);
  d.c = c;
  d.n = g->num_vertices;
  d.k = r->k;
  GCLQ__TRY(gclq__mc_run_upload(c, g, &off, &nbr, &deg, &core));
  t0 = gclq__clock::now(); /* the order's time starts from the device-resident graph */
  c->phase = "cores";
  if (p->orientation == GCLQ_ORIENT_BY_DEGENERACY) {
    GCLQ__TRY(round.get((size_t)d.n * sizeof(uint32_t) + 4));
    c->d_round = round.as<uint32_t>();
  }
  GCLQ__TRY(gclq__mc_cores(c, &d.max_core));
  c->phase = "orientation";
  method = p->method != GCLQ_KCLIQUE_AUTO ? p->method : gclq__kc_cuda_method(p);
  if (method == GCLQ_KCLIQUE_ORDERED) method = GCLQ_KCLIQUE_LFTJ; /* the same recursion on the device */
  GCLQ__TRY(gclq__kc_cuda_orient(&d, method == GCLQ_KCLIQUE_PIVOT, &rank, &ooff, &oout, &uoff, &unbr));
  nbr.release(); /* the graph in its own ids is not needed again */
  off.release();
  round.release();
  core.release();
  stats->order_ms = gclq__ms_since(t0);
  r->max_core = d.max_core;
  r->max_out = d.max_out;
  stats->max_core = d.max_core;
  stats->max_out_degree = d.max_out;
  stats->method = method;
  snprintf(line, sizeof line, "order: %s, max core %u, max out-degree %u; counting by %s on the device",
           gclq_orient_by_name(p->orientation), d.max_core, d.max_out, gclq_kclique_method_name(method));
  gclq__kc_log(r, line);
  if (!gclq__kc_outputs(r, p)) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (r->top == 0) return GCLQ_SUCCESS; /* k > omega: nothing to count */
  d.top = r->top;
  d.h_count = r->count;
  c->phase = "counters";
  GCLQ__TRY(cnt.get(((size_t)d.top + 1) * sizeof(unsigned long long)));
  GCLQ__TRY(flags.get(((size_t)d.top + 1) * sizeof(unsigned int)));
  d.d_count = cnt.as<unsigned long long>();
  d.d_flags = flags.as<unsigned int>();
  GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_count, 0, ((size_t)d.top + 1) * sizeof(unsigned long long), c->stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_flags, 0, ((size_t)d.top + 1) * sizeof(unsigned int), c->stream));
  if (r->per_vertex != NULL) {
    GCLQ__TRY(pv.get((size_t)d.n * sizeof(unsigned long long)));
    GCLQ__TRY(pvf.get((size_t)d.n * sizeof(unsigned int)));
    d.d_per_vertex = pv.as<unsigned long long>();
    d.d_pv_flags = pvf.as<unsigned int>();
    GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_per_vertex, 0, (size_t)d.n * sizeof(unsigned long long), c->stream));
    GCLQ__CUDA_TRY(cudaMemsetAsync(d.d_pv_flags, 0, (size_t)d.n * sizeof(unsigned int), c->stream));
  }
  t0 = gclq__clock::now();
  c->phase = gclq_kclique_method_name(method);
  GCLQ__TRY(gclq__kc_cuda_count(&d, method));
  GCLQ__TRY(gclq__kc_dev_read(&d));
  if (r->per_vertex != NULL) GCLQ__TRY(gclq__kc_cuda_per_vertex(&d, r->per_vertex));
  stats->count_ms = gclq__ms_since(t0);
  r->deepest = d.deepest;
  r->nodes = d.nodes;
  if (d.method_note != NULL) snprintf(stats->notes, sizeof stats->notes, "%s", d.method_note);
  return GCLQ_SUCCESS;
}

/* The whole CUDA run, into res (not yet cleaned on failure): the device
   counts, then the listing (the host ORDERED pass over the same orientation,
   which stops when full). */
static inline gclq_status gclq__kc_cuda(const gclq_graph *g, const gclq_kclique_options *p, gclq_kclique_result *res) {
  gclq__mc_plan plan;
  gclq_maxclique_stats unused;
  gclq__mc_ctx c;
  gclq__kc_run r;
  gclq__pool_keep keep;
  gclq_status st;
  gclq__clock::time_point t0;
  memset(&plan, 0, sizeof plan);
  memset(&unused, 0, sizeof unused);
  memset(&c, 0, sizeof c);
  memset(&r, 0, sizeof r);
  plan.log = p->log;
  plan.log_user = p->log_user;
  plan.allocator = p->allocator;
  plan.stream = p->stream;
  c.plan = &plan;
  c.stats = &unused;
  c.stream = (cudaStream_t)p->stream;
  c.n = g->num_vertices;
  c.budget = p->device_budget_bytes;
  r.g = g;
  r.k = p->k;
  r.log = p->log;
  r.log_user = p->log_user;
  r.last_log = clock();
  if (c.budget == 0) GCLQ__TRY(gclq__default_budget(&c.budget));
  gclq__pool_keep_begin(&keep, &plan.allocator);
  st = gclq__kc_cuda_run(&c, p, &r, res);
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  gclq__pool_keep_end(&keep);
  res->stats.peak_device_bytes = c.peak;
  res->stats.nodes = r.nodes;
  if (st == GCLQ_SUCCESS) st = gclq__kc_counts_out(&r, res->stats.method, res);
  if (st == GCLQ_SUCCESS && r.per_vertex != NULL) {
    res->h_per_vertex = r.per_vertex;
    r.per_vertex = NULL;
  }
  if (st == GCLQ_SUCCESS && r.list_cap > 0) {
    t0 = gclq__clock::now();
    st = gclq__kc_orient(&r, p->orientation);
    if (st == GCLQ_SUCCESS && !gclq__kc_ordered_buffers(&r)) st = GCLQ_ERROR_OUT_OF_MEMORY;
    if (st == GCLQ_SUCCESS) {
      r.list_only = 1;
      gclq__kc_ordered_all_sources(&r);
      if (r.out_of_memory) st = GCLQ_ERROR_OUT_OF_MEMORY;
    }
    if (st == GCLQ_SUCCESS) st = gclq__kc_cliques_out(&r, res);
    res->stats.list_ms = gclq__ms_since(t0);
  }
  if (st == GCLQ_SUCCESS) { /* the last phase line, as the host backend's */
    char line[64];
    snprintf(line, sizeof line, "count: done, %llu nodes", (unsigned long long)r.nodes);
    gclq__kc_log(&r, line);
  }
  gclq__kc_free(&r);
  return st;
}
#endif

GCLQ_DEF void gclq_kclique_result_free(gclq_kclique_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_counts);
  GCLQ_FREE(result->h_status);
  GCLQ_FREE(result->h_per_vertex);
  GCLQ_FREE(result->h_cliques);
  memset(result, 0, sizeof *result);
}

GCLQ_DEF gclq_status gclq_kcliques(const gclq_graph *graph, const gclq_kclique_options *options,
                                   gclq_kclique_result *result) {
  gclq_kclique_options p;
  gclq_backend backend = GCLQ_BACKEND_HOST;
  gclq_status st;
  clock_t t0 = clock();
  if (result != NULL) memset(result, 0, sizeof *result);
  if (graph == NULL || result == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq__kc_resolve(options, &p);
  if (st != GCLQ_SUCCESS) return st;
  if (!gclq__host_graph_ok(graph)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!GCLQ_KCLIQUE_CUDA && p.backend == GCLQ_BACKEND_CUDA) return GCLQ_ERROR_BACKEND_UNAVAILABLE;
  if (GCLQ_KCLIQUE_CUDA || p.backend != GCLQ_BACKEND_AUTO) st = gclq_backend_resolve(p.backend, &backend);
  if (st != GCLQ_SUCCESS) return st;
  result->stats.backend = backend;
  result->stats.orientation = p.orientation;
#if defined(__CUDACC__)
  if (GCLQ_KCLIQUE_CUDA && backend == GCLQ_BACKEND_CUDA) {
    gclq__clock::time_point w0 = gclq__clock::now();
    st = gclq__kc_cuda(graph, &p, result);
    result->stats.total_ms = gclq__ms_since(w0);
  } else
#endif
  {
    st = gclq__kc_host(graph, &p, result);
    result->stats.total_ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC; /* processor time */
    if (st == GCLQ_SUCCESS && p.backend == GCLQ_BACKEND_AUTO)
      strcpy(result->stats.notes, GCLQ_KCLIQUE_CUDA ? "AUTO: no CUDA device (or built without nvcc): ran the host backend"
                                                    : "AUTO: the CUDA k-clique methods are off (GCLQ_KCLIQUE_CUDA 0): "
                                                      "ran the host backend");
  }
  if (st != GCLQ_SUCCESS) {
    gclq_kclique_result_free(result);
    return st;
  }
  return GCLQ_SUCCESS;
}

GCLQ_DEF const char *gclq_status_string(gclq_status status) {
  switch (status) {
#define GCLQ__STATUS_CASE(name, value, text) \
  case name:                                 \
    return text;
    GCLQ_STATUS_LIST(GCLQ__STATUS_CASE)
#undef GCLQ__STATUS_CASE
    default:
      return "unknown status";
  }
}

GCLQ_DEF const char *gclq_backend_name(gclq_backend backend) { return gprim__backend_name((int)backend); }

GCLQ_DEF gclq_status gclq_backend_resolve(gclq_backend requested, gclq_backend *resolved) {
  int r = 0;
  switch (gprim__backend_resolve((int)requested, resolved ? &r : NULL)) {
    case GPRIM__RESOLVED: *resolved = (gclq_backend)r; return GCLQ_SUCCESS;
    case GPRIM__NO_DEVICE: return GCLQ_ERROR_NO_DEVICE;
    case GPRIM__NO_CUDA_BUILD: return GCLQ_ERROR_BACKEND_UNAVAILABLE;
    default: return GCLQ_ERROR_INVALID_ARGUMENT;
  }
}

#if defined(__CUDACC__)
/* Device memory through the hook (or the default), and back. */
static inline gclq_status gclq__device_alloc(const gclq_device_allocator *a, void **d_ptr, size_t bytes, gclq_stream stream) {
  if (d_ptr == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *d_ptr = NULL;
  if (bytes == 0) return GCLQ_SUCCESS;
  if (a != NULL && a->alloc != NULL) {
    *d_ptr = a->alloc(a->user, bytes, stream);
    return *d_ptr ? GCLQ_SUCCESS : GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (cudaMallocAsync(d_ptr, bytes, (cudaStream_t)stream) != cudaSuccess) {
    cudaGetLastError(); /* an allocation failure is not sticky: clear it */
    *d_ptr = NULL;
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  return GCLQ_SUCCESS;
}
static inline void gclq__device_free(const gclq_device_allocator *a, void *d_ptr, gclq_stream stream) {
  if (d_ptr == NULL) return;
  if (a != NULL && a->alloc != NULL) {
    if (a->free) a->free(a->user, d_ptr, stream);
    return;
  }
  cudaFreeAsync(d_ptr, (cudaStream_t)stream);
}
#endif /* __CUDACC__ */

#endif /* GPUCLIQUE_IMPLEMENTATION */

/* ---------------------------------------------------------------------------
   MIT License

   Copyright (c) 2026 the gpuamq and gpuclique authors

   Permission is hereby granted, free of charge, to any person obtaining a copy
   of this software and associated documentation files (the "Software"), to deal
   in the Software without restriction, including without limitation the rights
   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
   copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all
   copies or substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
   SOFTWARE.
   ------------------------------------------------------------------------- */
