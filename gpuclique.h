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

      nvcc -arch=sm_90 -c gpuclique_impl.cu   (your GPU's, sm_80 or newer; -arch=native
                                               on the machine that has it)

   The device code needs sm_80 or newer; a device pass for an older
   architecture (nvcc's default with CUDA 13 is sm_75) stops with an #error that
   says so. Compiling the implementation takes tens of seconds. The source form
   needs gpuprim.cuh, prim/ and clique/ beside this file; dist/gpuclique.h is
   the same library as one file. gpuprim.cuh holds the primitives both
   libraries are built on: internal, not part of this API.

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
                                (one k or every k, per-vertex counts, listing), options, result;
                                gclq_graph_prepare (a graph kept on the device for many calls)

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
  X(GCLQ_ERROR_INVALID_ARGUMENT, -1,                                                         \
    "invalid argument (a NULL pointer, a size out of range, or a malformed graph)")          \
  X(GCLQ_ERROR_OUT_OF_MEMORY, -2, "out of memory (an allocation failed)")                    \
  X(GCLQ_ERROR_NO_DEVICE, -3, "the CUDA backend was requested but no CUDA device is present") \
  X(GCLQ_ERROR_BACKEND_UNAVAILABLE, -4,                                                      \
    "the CUDA backend is not compiled in (the implementation was built without nvcc)")       \
  X(GCLQ_ERROR_CUDA, -5, "a CUDA runtime call failed")                                       \
  X(GCLQ_ERROR_IO, -6, "the file could not be opened or read")                               \
  X(GCLQ_ERROR_PARSE, -7, "malformed input (the load error names the line)")                 \
  X(GCLQ_ERROR_TOO_LARGE, -8,                                                               \
    "too large (more than 2^32 - 1 vertices or sets, over a load limit, or over max_pairs)")  \
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
   before a builder fills it; a builder that fails leaves it zeroed.
   A graph built by the caller must keep the same contract: h_offsets[0] = 0,
   offsets non-decreasing up to h_offsets[n] = 2 num_edges, every id below n,
   each list strictly ascending (no repeats) without v itself, and u in the
   list of v exactly when v is in the list of u (h_original_ids may be NULL:
   the compact ids are reported). Every call that takes a graph (cores, the
   degeneracy order, maximum cliques, k-cliques) checks all of it before it
   reads the lists as a graph, and refuses a graph that breaks it with
   GCLQ_ERROR_INVALID_ARGUMENT: the shape first, on the host; the symmetry
   by the backend that runs, on the host for HOST (one pass, O(n + m), with
   4n bytes of host memory: GCLQ_ERROR_OUT_OF_MEMORY when they cannot be
   had), on the device after the upload for CUDA (without a device, the
   backend's own error comes first). The sets view needs only the shape.
   Vertex labels are optional (h_labels NULL: unlabelled); the labelled
   format, gclq_graph_parse_labels and gclq_graph_random_labels set them,
   and a caller's graph sets h_labels or NULL. Labels are any 32-bit values;
   the calls above ignore them. */
typedef struct gclq_graph {
  uint32_t num_vertices;     /* n */
  uint64_t num_edges;        /* undirected edges m; the CSR holds 2m entries */
  uint64_t *h_offsets;       /* n + 1 entries: list of v is h_neighbors[h_offsets[v] .. h_offsets[v + 1]) */
  uint32_t *h_neighbors;     /* 2m entries */
  uint64_t *h_original_ids;  /* n entries: the id of each vertex in the file (generators: 0 .. n - 1) */
  uint32_t *h_labels;        /* n entries: the label of each vertex, or NULL (unlabelled) */
} gclq_graph;

typedef enum gclq_format {
  GCLQ_FORMAT_AUTO = 0,          /* by the content, else the extension (gclq_load_options) */
  GCLQ_FORMAT_SNAP = 1,          /* "u v" per line (tabs or spaces), '#' comments, any 64-bit ids */
  GCLQ_FORMAT_DIMACS = 2,        /* "c" comments, "p edge N M", "e u v" with 1-based ids */
  GCLQ_FORMAT_MATRIX_MARKET = 3, /* %%MatrixMarket matrix coordinate pattern|real|integer general|symmetric */
  GCLQ_FORMAT_LABELLED = 4       /* the mining benchmarks' (.lg): "t # N", "v id label", "e u v [label]" */
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
/* The format AUTO reads: what the first non-blank line says ("%%MatrixMarket":
   Matrix Market; a "c", "p" or "e" line: DIMACS; a number or a '#' comment:
   SNAP), else what the extension says (.clq/.dimacs DIMACS, .mtx Matrix
   Market), else SNAP. One exception: a .mtx file that starts with numbers
   stays Matrix Market (a header missing, not an edge list). An explicit
   format is always read as given. A parse error on a line that looks like
   another format says which format it was read as and names
   gclq_load_options.format. */
typedef struct gclq_load_options {
  gclq_format format;     /* AUTO: by the content and the path's extension (above) */
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
/* The same from text in memory (len bytes; need not end in NUL). AUTO: by the content. */
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
/* Vertex labels (the graph's h_labels, replaced; on failure the graph is
   left as it was):
   - gclq_graph_parse_labels / gclq_graph_load_labels: a label file, one
     "id label" line per vertex ('#' comments and blank lines skipped), the
     id in the graph's file ids (h_original_ids; compact ids when it is NULL),
     the label below 2^32. Lines for ids the graph does not have are skipped
     (an edge list has no vertex without edges); every vertex of the graph
     must get exactly one label, else GCLQ_ERROR_PARSE names the vertex (and
     the line of a second label); the graph must list h_original_ids
     ascending (every loader does), else GCLQ_ERROR_INVALID_ARGUMENT.
     gclq_graph_load_labels takes gclq_load_options.max_bytes (options may
     be NULL).
   - gclq_graph_random_labels: each vertex a label drawn uniformly from
     0 .. num_labels - 1 (num_labels > 0), deterministic for a seed.
     gclq_graph g;
     gclq_graph_rmat(18, 16, 1, &g);
     gclq_graph_random_labels(&g, 5, 7);      g.h_labels[v] is in 0 .. 4 */
GCLQ_DEF gclq_status gclq_graph_parse_labels(const char *text, size_t len, gclq_graph *graph, gclq_load_error *err);
GCLQ_DEF gclq_status gclq_graph_load_labels(const char *path, const gclq_load_options *options, gclq_graph *graph,
                                            gclq_load_error *err);
GCLQ_DEF gclq_status gclq_graph_random_labels(gclq_graph *graph, uint32_t num_labels, uint64_t seed);
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
   search is GCLQ_SEARCH_LIST. The bitset search is the faster of the two on
   every graph measured, and CUDA is faster than HOST except on graphs HOST
   solves almost at once (bench/results/maxclique_h200.md). AUTO runs CUDA
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
  int fell_back;                  /* 1: AUTO found no device and ran HOST (a small graph too) */
  int auto_small;                 /* 1: the graph is small for AUTO (GCLQ_AUTO_HOST_*): HOST ran */
  gclq_search search;             /* the CUDA search that ran (0 for HOST) */
  double total_ms, upload_ms, cores_ms, heuristic_ms, setup_ms, search_ms, readout_ms;
  uint32_t lower_bound;           /* the heuristic's clique size (0 when no heuristic ran) */
  uint32_t max_core;              /* the largest core number: CUDA, and AUTO on a graph within
                                     GCLQ_AUTO_HOST_MAX_EDGES (0 when not computed) */
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
   The first CUDA call of a process pays the device's start-up, which is
   longer than HOST takes on any graph inside the limits; the core limit
   keeps out the small but dense graphs (DIMACS brock, san) that HOST finds
   hard and CUDA does not. The limits come from a crossover sweep over 41
   graphs, G(n, p), R-MAT, planted cliques and the DIMACS and SNAP test
   graphs (`MAXCLIQUE_CROSSOVER=1 bench_maxclique`; bench/results/
   maxclique_h200.md, "AUTO's backend crossover"). Define
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
   the view and stay unchanged. A graph whose shape breaks the contract of
   section 5 is GCLQ_ERROR_INVALID_ARGUMENT (the symmetry is not needed). */
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
   the input's length. universe = the largest element + 1. text may be NULL
   when len is 0: empty input, no sets. */
GCLQ_DEF gclq_status gclq_sets_parse_text(const char *text, size_t len, gclq_sets *sets, gclq_sets_error *err);
GCLQ_DEF gclq_status gclq_sets_load_text(const char *path, gclq_sets *sets, gclq_sets_error *err);
/* Binary, the format of the set intersection paper's code, little-endian:
     u32 k, u32 universe, u64 total, u32 sizes[k], u32 elements[total]
   The length must be exactly 16 + 4k + 4 total bytes and the sizes must add
   up to total; both are checked against the input's length before anything
   is allocated, so a hostile header takes nothing. Errors name the byte
   offset of the field at fault (err->byte_offset; GCLQ_ERROR_PARSE) or the
   set out of order (GCLQ_ERROR_UNSORTED_SET, the offset of the element).
   universe = the larger of the header's and the largest element + 1.
   (NULL, 0) is empty input, a header cut short (GCLQ_ERROR_PARSE).
   Both loaders (gclq_sets_load_text, _binary) read the whole file, then
   parse it; on failure *sets is zeroed. A file that cannot be opened or
   read is GCLQ_ERROR_IO; so are a directory and a file whose size the file
   system cannot give or that holds more than that size (a pipe; a device
   such as /dev/zero), found before anything is allocated. /dev/null reads
   as an empty file. */
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
                    k^2 / 2 times the compacted universe / 32 words: for small
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

/* AUTO's batch rule for given pairs on CUDA (AUTO above). The bitmaps give
   each block a window of 2^17 values, so they win where the windows are
   full and many. The rule counts stretches of 2^18 values: a pair's
   density is (|a| + |b|) / the values both span, its stretches (|a| + |b|)
   / the elements of its fullest stretch. On the paper's Fig. 9 pairs
   BITMAP_DYNAMIC beat IP_OBS (and IP_OBS beat merge path and binary
   search) on every uniform and normal pair of density 0.02 or more, all of
   them 113 stretches or more; it lost on the pairs of density 0.002 and on
   the zipf pairs, whose values crowd into 38 stretches or fewer
   (bench/results/sets_h200.md, "Fig. 9").
   So BITMAP_DYNAMIC for the dominant pair when both hold:
     GCLQ_SETS_AUTO_BITMAP_DENSITY   (|a| + |b|) / the values both span, at
                                     least (0.01);
     GCLQ_SETS_AUTO_BITMAP_WINDOWS   (|a| + |b|) / the elements of the
                                     fullest stretch of 2^18 values, at
                                     least: the windows busy at once (64,
                                     between the 38 and 113 stretches
                                     above; estimated from
                                     each set's densest of 1024 stretches
                                     of equal count,
                                     gclq__sets_peak_density), times
                                     GCLQ_SETS_AUTO_BITMAP_FULL / the
                                     density where the density is above
                                     that (0.2): heavier windows, fewer
                                     needed.
   A dominant pair the bitmap does not take: IP_OBS, faster than merge
   path (the per-pair rule's pick for a balanced pair) on all twelve of
   Fig. 9's pairs.
   Batches of many small pairs: on every edge of R-MAT 16, 17 and 18 as
   pairs of adjacency lists (1,400-2,500 steps a pair on average) IP_OBS is
   faster than the per-pair rule's merge path and binary search
   (bench/results/sets_h200.md, "Every edge as a pair").
   GCLQ_SETS_AUTO_IP_OBS_BELOW bounds the pairs' average steps for that
   choice: batches of many larger pairs keep the per-pair rule (IP_OBS is
   not measured on them yet). Define before the implementation include to
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

/* AUTO's backend crossover: with a CUDA device present, AUTO still runs
   HOST when a call's merge work, the sum of |s_i| + |s_j| over its pairs,
   is at most this (the host is done before the CUDA start-up and the upload
   would be). PROVISIONAL: not set from measurements yet; bench_sets's call
   rows, which run both backends on the same calls, are to set it. Define
   before the implementation include to move it. */
#ifndef GCLQ_SETS_AUTO_HOST_WORK
#define GCLQ_SETS_AUTO_HOST_WORK 100000u
#endif

/* gclq_intersect_options.split_below: no light/heavy split. */
#define GCLQ_SPLIT_OFF UINT64_MAX

/* gclq_intersect_options.max_pairs' default: the most pairs the result of
   all pairs or of a containment join holds, 2^26. Dense counts take 4
   bytes a pair (256 MiB at the cap), sparse pairs and containments 12
   while they are gathered (about 0.8 GiB, twice that as the lists grow),
   so the default fits a laptop's memory; a larger answer is
   GCLQ_ERROR_TOO_LARGE unless max_pairs allows it (GCLQ_NO_MAX_PAIRS:
   none). Define before the implementation include to move it. */
#ifndef GCLQ_SETS_MAX_PAIRS
#define GCLQ_SETS_MAX_PAIRS ((uint64_t)1 << 26)
#endif
#define GCLQ_NO_MAX_PAIRS UINT64_MAX

/* AUTO for all pairs and the containment join on CUDA (one rule,
   gclq__sets_all_pick): the cheapest of three estimates, in merge steps:
     pairwise batches  W = (k - 1) total (every set meets the k - 1 others);
     BIT_MATRIX        GCLQ_SETS_AUTO_MATRIX_COST * (F * k (k - 1) / 2 *
                       ceil(V2 / 32) words of AND + popcount +
                       GCLQ_SETS_AUTO_MATRIX_BUILD * total), V2 the values
                       in two or more sets (the matrix's columns) and F =
                       max(1, GCLQ_SETS_AUTO_MATRIX_TILES / the tiles of
                       32 * 32 counts): few sets leave the tensor cores
                       idle (k = 1000 has 528 tiles);
     INVERTED_INDEX    GCLQ_SETS_AUTO_INDEX_COST * (total +
                       GCLQ_SETS_AUTO_INCREMENT_SHARE * I), the index's
                       elements and its pair increments I (a value in c
                       sets makes c (c - 1) / 2).
   On CUDA V2 and I come from a sample of the elements
   (gclq__sets_all_estimate: I close, V2 up to five times high); where V2 / 8 would
   pick otherwise, the device counts V2 exactly (the bit matrix's column
   marking) before it picks. The light/heavy split prices its parts by the
   values and increments its host index counts (gclq__mmjoin_auto).
   The costs are times in units of one merge step's, fitted to bench_sets's
   seven all-pairs rows (bench/results/sets_h200.md, "All pairs (MISI)"):
   GCLQ_SETS_AUTO_INDEX_COST an index element's, _INCREMENT_SHARE an
   increment's share of an element's, _MATRIX_COST a matrix word's at full
   tiles (a word costs several times more at k = 1000, whose 528 tiles
   leave the device idle: hence F), _MATRIX_BUILD a matrix element's in
   words. A cost of 0 never picks that method. Define before the
   implementation include to move them. */
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
   threshold, 2e9 merge steps, keeps the split to the collections it
   was tried on before the all-pairs costs were fitted (those costs priced
   them about five times higher). PROVISIONAL: to be set from bench_sets's
   containment split rows (bench/results/sets_h200.md, "The containment
   join's light/heavy split"). Define before the implementation include to
   move them. */
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
   default: they were the faster on both collections measured, the BMS
   stand-in and k = 1000 sets of 10^5 over 10^8 (bench/results/
   sets_h200.md, "All pairs (MISI)"). */
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
  uint64_t max_pairs;             /* all pairs and containment: the most pairs the result may hold
                                     (dense: k (k - 1) / 2 counts, checked before any work; sparse
                                     and containment: the pairs kept, checked as they come); over
                                     it the call returns GCLQ_ERROR_TOO_LARGE and no result. 0:
                                     GCLQ_SETS_MAX_PAIRS; GCLQ_NO_MAX_PAIRS: no cap. Given pairs
                                     (gclq_intersect_pairs) have none: their result is their size */
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
  int fell_back;                  /* 1: AUTO found no device and ran HOST (small work too) */
  int auto_small;                 /* 1: the work is small for AUTO (GCLQ_SETS_AUTO_HOST_WORK): HOST ran */
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
/* All pairs i < j (MISI): dense counts, or the sparse list (options.sparse).
   GCLQ_ERROR_TOO_LARGE when the result would hold more than
   options.max_pairs pairs (dense: k (k - 1) / 2 of them, before any work). */
GCLQ_DEF gclq_status gclq_intersect_all(const gclq_sets *sets, const gclq_intersect_options *options,
                                        gclq_intersect_result *result);
/* The containment join (MISC), by the all-pairs counts. GCLQ_ERROR_TOO_LARGE
   when it finds more than options.max_pairs containments. */
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
   otherwise (every k, or large cliques). CUDA, by the fastest method
   measured from the device-resident graph on R-MAT 16 and 18 and
   facebook_combined (bench/results/kcliques_h200.md, "Every method" and
   "AUTO's crossover between BITSET and PIVOT"): LEVEL_JOIN for triangles
   (BITSET is close behind, level on facebook_combined), BITSET for k from
   4 to GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K - 1, PIVOT for every k at once and
   from GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K, where the counts grow so fast that
   pivoting (its last two levels closed) pays on every graph; at k = 5
   BITSET is still the faster. */
#ifndef GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K
#define GCLQ_KCLIQUE_AUTO_PIVOT_MIN_K 6u
#endif
#ifndef GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K
#define GCLQ_KCLIQUE_AUTO_ORDERED_MAX_K 5u
#endif
#ifndef GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE
#define GCLQ_KCLIQUE_AUTO_ORDERED_MAX_CORE 48u
#endif

/* A prepared device graph: the graph uploaded, its cores peeled and its
   edges oriented (out-lists and the undirected lists in rank order) once,
   on the current device, for any number of CUDA calls that take it
   (gclq_kclique_options.prepared, gclq_motif_options.prepared): they skip
   their own upload and orientation, so their times are the query's alone,
   and the build's time is reported apart (gclq_prepared_info). The graph
   passed with it to a call must be the one it was made from (the same
   vertex and edge counts, or GCLQ_ERROR_INVALID_ARGUMENT); HOST calls
   ignore it. It holds its device memory until gclq_prepared_free; calls
   only read it, on any stream, and a call's own budget counts its scratch
   alone. The orientation is DEGENERACY by default, as gclq_kcliques'; a
   k-clique call that asks another one than the prepared graph's is
   GCLQ_ERROR_INVALID_ARGUMENT.
     gclq_prepared_graph *pg;
     gclq_kclique_options o;
     memset(&o, 0, sizeof o);
     if (gclq_graph_prepare(&g, NULL, &pg) == GCLQ_SUCCESS) {
       o.prepared = pg;
       o.k = 4;
       gclq_kcliques(&g, &o, &r);   (r.stats.count_ms: the count alone)
       gclq_prepared_free(pg);
     }
   Errors: GCLQ_ERROR_INVALID_ARGUMENT (NULL graph or out pointer, a
   malformed graph, an orientation out of range), GCLQ_ERROR_NO_DEVICE,
   GCLQ_ERROR_OUT_OF_MEMORY (the budget or the device), GCLQ_ERROR_CUDA,
   GCLQ_ERROR_BACKEND_UNAVAILABLE (a build without nvcc); *prepared is then
   NULL. */
typedef struct gclq_prepared_graph gclq_prepared_graph;
typedef struct gclq_prepare_options {
  gclq_orient_by orientation; /* DEFAULT (zero): DEGENERACY */
  size_t device_budget_bytes; /* the device memory it may hold (0: 90% of the free memory) */
} gclq_prepare_options;
typedef struct gclq_prepared_info {
  uint32_t num_vertices;
  uint64_t num_edges;
  gclq_orient_by orientation;  /* never DEFAULT */
  uint32_t max_core;           /* the largest core number */
  uint32_t max_out_degree;     /* the largest out-degree of the oriented graph */
  size_t device_bytes;         /* held on the device */
  double upload_ms, order_ms;  /* the build's wall time: upload; cores and orientation */
} gclq_prepared_info;
GCLQ_DEF gclq_status gclq_graph_prepare(const gclq_graph *graph, const gclq_prepare_options *options,
                                        gclq_prepared_graph **prepared);
GCLQ_DEF gclq_status gclq_prepared_info_get(const gclq_prepared_graph *prepared, gclq_prepared_info *info);
GCLQ_DEF void gclq_prepared_free(gclq_prepared_graph *prepared);

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
  const gclq_prepared_graph *prepared; /* CUDA: the graph already on the device (gclq_graph_prepare); NULL: upload */
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
   graph or result, a malformed graph (also a caller's CSR that lists an
   edge at one end only), k 1 or 2 without all, an enum out of range,
   per_vertex or max_stored together with all),
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

/* ---------------------------------------------------------------------------
   9. graph pattern mining
   ------------------------------------------------------------------------- */
/* Motif counting: the number of vertex-induced occurrences of every
   connected pattern of k vertices, k = 3, 4 or 5 (2, 6 and 21 patterns),
   each subgraph of k vertices that is connected counted once, under its
   pattern. The patterns are numbered 0 .. num_patterns - 1 in the order of
   the mining literature; gclq_motif_name names each and gclq_motif_edges
   gives its edges (which define it):
     k = 3: triangle, wedge
     k = 4: 3-star, 4-path, tailed-triangle, 4-cycle, diamond, 4-clique
     k = 5: 5-path, 4-star, fork, 5-cycle, bull, cricket, banner, lollipop,
            house, bipartite-2-3, bowtie, dart, kite, gem, 3-book,
            4-clique-pendant, wheel-minus-spoke, wheel, 5-clique-minus-wedge,
            5-clique-minus-edge, 5-clique
   Labels are not read. Methods: ENUMERATE visits every connected subgraph
   of k vertices once (ESU; serial, the reference); COUNT (k = 3, 4) counts
   triangles, 4-cliques, 4-cycles and degree terms and solves for the
   induced counts, visiting no 4-vertex subgraph (docs/gpm.md); AUTO runs
   COUNT for k = 3, 4 and ENUMERATE for 5. Backends: COUNT runs on HOST
   or CUDA (the triangles, 4-cliques, 4-cycles and sums on the device, the
   solve on the host: the same counts); ENUMERATE on HOST only (backend
   CUDA with it is GCLQ_ERROR_BACKEND_UNAVAILABLE). AUTO: COUNT on CUDA with
   a device, on HOST without one or when the device's memory is short;
   result.backend says which ran.
   The log, when set, gets a progress line at most every second.
     gclq_motif_result r;
     if (gclq_motifs(&g, 4, NULL, &r) == GCLQ_SUCCESS)
       for (uint32_t i = 0; i < r.num_patterns; ++i)
         printf("motif %s %llu\n", gclq_motif_name(4, i), (unsigned long long)r.counts[i]);
   Errors (result zeroed): GCLQ_ERROR_INVALID_ARGUMENT (NULL graph or
   result, k not 3 .. 5, a backend or method out of range, COUNT with
   k = 5, a malformed graph), GCLQ_ERROR_OUT_OF_MEMORY,
   GCLQ_ERROR_BACKEND_UNAVAILABLE, GCLQ_ERROR_NO_DEVICE (CUDA asked),
   GCLQ_ERROR_CUDA. */
#define GCLQ_MOTIF_MAX_PATTERNS 21
typedef enum gclq_motif_method {
  GCLQ_MOTIF_AUTO = 0,      /* COUNT for k = 3, 4; ENUMERATE for k = 5 */
  GCLQ_MOTIF_ENUMERATE = 1, /* every connected subgraph once (ESU) */
  GCLQ_MOTIF_COUNT = 2      /* k = 3, 4: from triangles, 4-cliques, 4-cycles and degrees */
} gclq_motif_method;
typedef struct gclq_motif_options {
  gclq_backend backend;                       /* AUTO (zero): see above */
  gclq_motif_method method;                   /* AUTO (zero): see above */
  void (*log)(void *user, const char *line);  /* progress lines, or NULL */
  void *log_user;
  size_t device_budget_bytes;                 /* CUDA: the device memory it may hold (0: 90% of the free) */
  const gclq_prepared_graph *prepared;        /* CUDA: the graph already on the device (gclq_graph_prepare) */
} gclq_motif_options;
typedef struct gclq_motif_result {
  uint32_t k, num_patterns;                    /* 2, 6 or 21 patterns */
  uint64_t counts[GCLQ_MOTIF_MAX_PATTERNS];    /* [i]: occurrences of pattern i (0 past num_patterns) */
  uint64_t subgraphs;                          /* connected subgraphs of k vertices: the counts' sum */
  gclq_motif_method method;                    /* the method that ran */
  gclq_backend backend;                        /* the backend that ran */
  double total_ms;                             /* the call's time (HOST: processor time) */
  double count_ms;                             /* CUDA: the count's wall time from the oriented graph
                                                  (prepared, or after the call's upload and orientation)
                                                  to the sums; HOST: total_ms */
} gclq_motif_result;
/* options may be NULL (the defaults). The result holds no allocation. */
GCLQ_DEF gclq_status gclq_motifs(const gclq_graph *graph, uint32_t k, const gclq_motif_options *options,
                                 gclq_motif_result *result);
/* The name of pattern i of k ("triangle", ...), or NULL when there is none. */
GCLQ_DEF const char *gclq_motif_name(uint32_t k, uint32_t pattern);
/* The edges of pattern i of k as vertex pairs (vertices 0 .. k - 1) into
   pairs[0 .. 2e) when pairs is not NULL (room for 20 entries suffices);
   returns e, the number of edges (0 when there is no such pattern). */
GCLQ_DEF uint32_t gclq_motif_edges(uint32_t k, uint32_t pattern, uint32_t *pairs);

/* Subgraph matching: the subgraphs of a data graph isomorphic to a query
   graph of 1 .. GCLQ_MATCH_MAX_QUERY vertices (connected; any file the
   loaders read, or any gclq_graph), counted and listed. Labelled when the
   query has labels (h_labels): a query vertex then matches only data
   vertices of its label, and the data graph must have labels too. Modes:
     EDGE_INDUCED (default)  distinct subgraphs (vertex set and the query's
                             edges among them) that contain the query's shape:
                             each counted once, whatever the query's symmetry
     VERTEX_INDUCED          the same where the data graph has no edge the
                             query lacks (induced subgraphs)
     EMBEDDINGS              every injective map of the query's vertices
                             that keeps its edges (edge-induced count times
                             result.automorphisms)
     HOMOMORPHISMS           every map that keeps the edges (not injective)
   Listing: up to max_stored matches (0: none), each q data vertex ids (file
   ids, h_original_ids) in the query's vertex order; the smallest rows in
   compact id order, sorted ascending; for the induced modes the row of a
   subgraph is its one embedding that meets the symmetry-breaking
   restrictions (docs/gpm.md). The count is exact either way.
   HOST matches by backtracking in a matching order (GraphZero's
   restrictions). A count alone (max_stored 0) of an unlabelled query of 3
   or 4 vertices in the first three modes comes from the motif counts of
   gclq_motifs' method COUNT instead, visiting no match, on CUDA (backend
   CUDA, or AUTO with a device; device_budget_bytes and prepared as
   gclq_motifs') or HOST. Every other count, and every listing, runs the
   HOST search on CUDA (backend CUDA, or AUTO with a device, falling back
   to HOST when the device has no memory or there is none; a warp an edge
   of the root; a count from prepared when given, a listing from the
   graph's own lists, whose order the rows' symmetry breaking follows),
   with HOST's count and rows.
   result.backend says which ran.
   Errors (result zeroed but for message, which says why):
   GCLQ_ERROR_INVALID_ARGUMENT (NULL arguments, a malformed graph or query,
   a query that is empty, disconnected or too large, a labelled query on an
   unlabelled graph, a mode or backend out of range, a prepared graph of
   another graph), GCLQ_ERROR_OUT_OF_MEMORY, GCLQ_ERROR_BACKEND_UNAVAILABLE,
   GCLQ_ERROR_NO_DEVICE (CUDA asked), GCLQ_ERROR_CUDA. */
#define GCLQ_MATCH_MAX_QUERY 10
typedef enum gclq_match_mode {
  GCLQ_MATCH_EDGE_INDUCED = 0,
  GCLQ_MATCH_VERTEX_INDUCED = 1,
  GCLQ_MATCH_EMBEDDINGS = 2,
  GCLQ_MATCH_HOMOMORPHISMS = 3
} gclq_match_mode;
typedef struct gclq_match_options {
  gclq_backend backend;                       /* AUTO (zero): see above */
  gclq_match_mode mode;                       /* EDGE_INDUCED (zero) */
  uint64_t max_stored;                        /* matches listed; 0: count only */
  void (*log)(void *user, const char *line);  /* progress lines, or NULL */
  void *log_user;
  size_t device_budget_bytes;                 /* CUDA: device memory (0: 90% of the free) */
  const gclq_prepared_graph *prepared;        /* CUDA: the graph already on the device */
} gclq_match_options;
typedef struct gclq_match_result {
  uint64_t count;           /* matches in the mode */
  uint64_t stored;          /* rows in h_matches: min(count, max_stored) */
  uint32_t query_vertices;  /* q: the width of a row */
  uint64_t *h_matches;      /* stored * q data vertex ids, or NULL */
  uint64_t automorphisms;   /* of the query (labels kept) */
  gclq_backend backend;     /* the backend that ran */
  double total_ms;          /* the call's time (HOST: processor time) */
  double count_ms;          /* CUDA: the count's (and listing's) wall time from the graph on the
                               device (prepared, or after the call's upload); HOST: total_ms */
  char message[96];         /* why a call failed ("" on success) */
} gclq_match_result;
/* options may be NULL (the defaults). Free the result with gclq_match_result_free. */
GCLQ_DEF gclq_status gclq_match(const gclq_graph *graph, const gclq_graph *query, const gclq_match_options *options,
                                gclq_match_result *result);
GCLQ_DEF void gclq_match_result_free(gclq_match_result *result);

/* Frequent pattern mining: every connected pattern of 1 .. max_edges edges
   (at most GCLQ_FPM_MAX_EDGES), vertex labels kept, whose minimum-image
   support (MNI: over every embedding of the pattern, the fewest distinct
   data vertices one pattern vertex is mapped to) is at least min_support.
   An unlabelled graph mines as if every vertex had label 0. Each pattern
   comes in canonical form: vertices sorted by (label, degree) and numbered
   so that its edge code is the smallest; code is
   "(label,label,...)[u-v,u-v,...]". The list is sorted by edges, then
   vertices, labels and the edge code.
   Both methods go level by level in edges, as GAMMA's Algorithm 2
   (extension by one edge, canonical dedup, support from the embeddings):
     SEARCH  (HOST) each candidate pattern (a frequent one and a frequent
             label pair) matched in the graph for its support; little memory
     TABLE   (HOST or CUDA) an embedding table of kind EDGE (gclq_emb_*):
             per level, aggregate the rows with support, keep the rows of
             the frequent patterns, extend by one edge; a level in task
             blocks when whole it does not fit; when a middle level's
             frequent rows do not fit either, the levels after it depth
             first from the level before (a block of its rows extended
             down to the level mined, then the next block: the upper
             levels made again for each level mined). Out of memory (not
             even one row's block fits) names the level in message.
             CUDA: at most 16 distinct labels
   AUTO: with a device, TABLE on CUDA, and SEARCH on HOST when that fails
   for want of device memory or labels; without one, SEARCH. Backend CUDA
   with method SEARCH is GCLQ_ERROR_BACKEND_UNAVAILABLE. The patterns are
   the same either way; candidates counts the patterns whose support was
   taken, which differ: SEARCH takes every candidate's, TABLE those with an
   embedding.
   Errors (result zeroed but for message): GCLQ_ERROR_INVALID_ARGUMENT
   (NULL arguments, a malformed graph, min_support 0, max_edges 0 or over
   GCLQ_FPM_MAX_EDGES, a backend or method out of range),
   GCLQ_ERROR_OUT_OF_MEMORY, GCLQ_ERROR_BACKEND_UNAVAILABLE,
   GCLQ_ERROR_NO_DEVICE (CUDA asked), GCLQ_ERROR_CUDA. */
#define GCLQ_FPM_MAX_EDGES 6
typedef enum gclq_fpm_method {
  GCLQ_FPM_AUTO = 0,   /* see above */
  GCLQ_FPM_SEARCH = 1, /* HOST: each candidate's support by matching */
  GCLQ_FPM_TABLE = 2   /* HOST or CUDA: the embedding table's primitives */
} gclq_fpm_method;
typedef struct gclq_fpm_options {
  gclq_backend backend;                       /* AUTO (zero): see above */
  uint64_t min_support;                       /* at least 1 */
  uint32_t max_edges;                         /* 1 .. GCLQ_FPM_MAX_EDGES */
  void (*log)(void *user, const char *line);  /* a line a level, or NULL */
  void *log_user;
  gclq_fpm_method method;                     /* AUTO (zero): see above */
  size_t device_budget_bytes;                 /* CUDA TABLE: the table's device memory (0: 90% of the free) */
  uint64_t max_table_bytes;                   /* TABLE: the most its levels may hold (0: no limit); a
                                                 level past it goes in task blocks */
} gclq_fpm_options;
typedef struct gclq_fpm_pattern {
  uint32_t num_vertices, num_edges;
  uint32_t labels[GCLQ_FPM_MAX_EDGES + 1];   /* [u]: the label of vertex u */
  uint32_t edges[GCLQ_FPM_MAX_EDGES][2];     /* (u, v), u < v, in code order */
  uint64_t support;                          /* MNI */
  char code[128];
} gclq_fpm_pattern;
typedef struct gclq_fpm_result {
  uint64_t num_patterns;          /* frequent patterns */
  gclq_fpm_pattern *h_patterns;   /* num_patterns of them, or NULL */
  uint64_t candidates;            /* patterns whose support was taken */
  gclq_backend backend;           /* the backend that ran */
  gclq_fpm_method method;         /* the method that ran */
  double total_ms;                /* the call's time (HOST: processor time) */
  char message[96];               /* why a call failed ("" on success) */
} gclq_fpm_result;
GCLQ_DEF gclq_status gclq_fpm(const gclq_graph *graph, const gclq_fpm_options *options, gclq_fpm_result *result);
GCLQ_DEF void gclq_fpm_result_free(gclq_fpm_result *result);

/* Embedding tables: GAMMA's primitives (paper 003, Fig. 5) for mining
   programs of one's own (examples/gpm_table.c writes frequent pattern
   mining with them). A table holds the embeddings of a graph level by
   level, as a prefix tree: level 0 is every vertex (kind VERTEX) or every
   edge (kind EDGE); each row of a later level adds one vertex (one edge) to
   its parent row in the level above, and stores only that and its parent's
   index. A row of level l is a connected subgraph: l + 1 vertices and the
   edges among them (VERTEX: induced), or l + 1 edges and their end points
   (EDGE). Each subgraph appears once, grown in the one order Arabesque's
   canonical test allows (docs/gpm.md), so counting rows counts subgraphs.
   The primitives, on the last level:
     gclq_emb_extend     rows [first, first + count) each with every vertex
                         (edge) that keeps it connected and canonical, into a
                         new last level. A range is a task block: a level
                         too large for memory is made, used and dropped
                         (gclq_emb_pop) a block of parents at a time.
     gclq_emb_extend_append  the same for rows [first, first + count) of
                         the level below the last, their children that pass
                         a filter (NULL: all) added after the last level's
                         rows: a level too large whole is built filtered, a
                         block of parents at a time (start it empty with
                         gclq_emb_extend(t, 0, 0)).
     gclq_emb_filter_rows  keeps the rows that pass: the label and degree of
                         the vertices the level added, their pattern's rows
                         and support in a pattern table.
     gclq_emb_aggregate  adds the rows to a pattern table: per canonical
                         pattern (labels kept, the form and code of
                         gclq_fpm), its rows and its minimum-image support.
     gclq_emb_pop        drops the last level.
   A query's structure is a pattern table too: the rows of the query's
   own table at each level (every connected piece of it) filter the data's
   rows of that level (min_count 1), and the last level's table then holds
   the query's matches (vertex-induced for VERTEX, edge-induced for EDGE).
   Patterns have at most GCLQ_EMB_MAX_VERTICES vertices: VERTEX tables grow
   to 8 levels, EDGE tables to 7. The graph is borrowed: it must outlive the
   table and not change. AUTO runs HOST. Backend CUDA (asked by name, in an
   nvcc build) keeps the graph and the levels on the device, on the default
   stream, under device_budget_bytes; aggregation sorts the rows' raw
   pattern keys there a chunk of rows at a time, so a level of any size
   aggregates whole, and makes each distinct one canonical on the host
   (graphs of at most 16 distinct labels: more is
   GCLQ_ERROR_BACKEND_UNAVAILABLE); the support's vertex sets are bitmaps
   on the device (docs/gpm.md).
     gclq_emb_table *t;
     gclq_emb_patterns pats;
     memset(&pats, 0, sizeof pats);
     if (gclq_emb_create(&g, NULL, &t) == GCLQ_SUCCESS) {
       gclq_emb_extend(t, 0, UINT64_MAX);            (pairs of adjacent vertices)
       gclq_emb_extend(t, 0, UINT64_MAX);            (connected triples)
       gclq_emb_aggregate(t, 0, &pats);              (wedges and triangles)
       gclq_emb_free(t);
     }
     gclq_emb_patterns_free(&pats);
   Errors leave the table as it was: GCLQ_ERROR_INVALID_ARGUMENT (NULL
   arguments, a malformed graph, a range past the last level, a level past
   the limit, pop of level 0, a kind or backend out of range),
   GCLQ_ERROR_OUT_OF_MEMORY (also: the new level would take the table past
   max_bytes, or the device budget), GCLQ_ERROR_BACKEND_UNAVAILABLE (CUDA
   in a build without nvcc), GCLQ_ERROR_NO_DEVICE, GCLQ_ERROR_CUDA. */
#define GCLQ_EMB_MAX_VERTICES 8
typedef enum gclq_emb_kind { GCLQ_EMB_VERTEX = 0, GCLQ_EMB_EDGE = 1 } gclq_emb_kind;
typedef struct gclq_emb_options {
  gclq_backend backend;   /* AUTO (zero): see above */
  gclq_emb_kind kind;     /* VERTEX (zero) or EDGE */
  uint64_t max_bytes;     /* the most the table's levels may hold (0: no limit) */
  size_t device_budget_bytes; /* CUDA: the device memory the table may hold (graph, levels,
                                 scratch); 0: 90% of the free memory when it is made */
} gclq_emb_options;
typedef struct gclq_emb_table gclq_emb_table;
typedef struct gclq_emb_filter {
  uint32_t min_degree;                /* each vertex the level added: degree at least this */
  int by_label;                       /* nonzero: each vertex the level added has label `label` */
  uint32_t label;
  const struct gclq_emb_patterns *patterns; /* non-NULL: the row's pattern is in it, with */
  uint64_t min_count, min_support;    /* at least min_count rows and min_support support */
} gclq_emb_filter;
typedef struct gclq_emb_pattern {
  uint32_t num_vertices, num_edges;
  uint32_t labels[GCLQ_EMB_MAX_VERTICES]; /* [u]: the label of vertex u (0: unlabelled graph) */
  uint32_t adj[GCLQ_EMB_MAX_VERTICES];    /* [u]: bit v set when u and v are adjacent */
  uint64_t count;                         /* rows aggregated with this pattern */
  uint64_t support;                       /* MNI over those rows' embeddings (0 unless asked) */
  char code[224];                         /* "(labels)[u-v,...]", as gclq_fpm's */
} gclq_emb_pattern;
typedef struct gclq_emb_patterns {
  uint64_t num_patterns;
  gclq_emb_pattern *h_patterns; /* sorted by edges, vertices, labels, edge code */
  void *internal;               /* the lookup and the support's vertex sets */
} gclq_emb_patterns;
/* A table of level 0 (options may be NULL: VERTEX, HOST, no limit). */
GCLQ_DEF gclq_status gclq_emb_create(const gclq_graph *graph, const gclq_emb_options *options, gclq_emb_table **table);
/* The rows first .. first + count - 1 of the last level extended into a
   new last level (count past the end: to the end). */
GCLQ_DEF gclq_status gclq_emb_extend(gclq_emb_table *table, uint64_t first, uint64_t count);
/* The rows first .. first + count - 1 of the level below the last extended,
   their children that pass filter (NULL: every one) appended to the last
   level (whose rows stay first); max_bytes holds for the whole table.
   Needs 2 levels at least. On failure the table is as it was. */
GCLQ_DEF gclq_status gclq_emb_extend_append(gclq_emb_table *table, uint64_t first, uint64_t count,
                                           const gclq_emb_filter *filter);
GCLQ_DEF gclq_status gclq_emb_filter_rows(gclq_emb_table *table, const gclq_emb_filter *filter);
/* Adds the last level's rows to patterns (zeroed before its first use);
   support nonzero: the MNI support too (a bit a vertex of the graph per
   orbit of each pattern, kept across calls). */
GCLQ_DEF gclq_status gclq_emb_aggregate(const gclq_emb_table *table, int support, gclq_emb_patterns *patterns);
GCLQ_DEF gclq_status gclq_emb_pop(gclq_emb_table *table);
/* The levels (at least 1), the rows of one level (0 past the last), the bytes held. */
GCLQ_DEF uint32_t gclq_emb_levels(const gclq_emb_table *table);
GCLQ_DEF uint64_t gclq_emb_rows(const gclq_emb_table *table, uint32_t level);
GCLQ_DEF uint64_t gclq_emb_bytes(const gclq_emb_table *table);
/* Row i of a level: its vertices (file ids) in the order they joined into
   vertices (room for GCLQ_EMB_MAX_VERTICES), and when edges is not NULL its
   edges as pairs of positions in vertices, ascending (room for 2 * 28);
   returns the vertices (0: no such row); *num_edges, when not NULL, the edges. */
GCLQ_DEF uint32_t gclq_emb_row(const gclq_emb_table *table, uint32_t level, uint64_t i, uint64_t *vertices,
                               uint32_t *edges, uint32_t *num_edges);
/* The index of row i's parent in level - 1 (UINT64_MAX: level 0 or no such row). */
GCLQ_DEF uint64_t gclq_emb_parent(const gclq_emb_table *table, uint32_t level, uint64_t i);
GCLQ_DEF void gclq_emb_free(gclq_emb_table *table);
GCLQ_DEF void gclq_emb_patterns_free(gclq_emb_patterns *patterns);

#ifdef __cplusplus
}
#endif
#endif /* GPUCLIQUE_H */

/* ===========================================================================
   Implementation
   ========================================================================= */
#if defined(GPUCLIQUE_IMPLEMENTATION) && !defined(GPUCLIQUE_IMPLEMENTATION_DONE)
#define GPUCLIQUE_IMPLEMENTATION_DONE

/* One folder per module under clique/ (graph, maxclique, sets, kcliques, gpm),
   included in one fixed order, so that every function is defined before its
   callers: the common helpers; each module's host part (its host reference)
   and its chooser (choose.h: AUTO's rules and tuning constants, the plan
   the rest only reads); compiled by nvcc, the device context every CUDA
   driver runs in (clique/device.cuh), each module's kernels, then each
   module's CUDA driver; last, each module's public entry points, which check their
   arguments and dispatch to HOST or CUDA. The graph module comes first in
   each group: the others load, upload and peel graphs through it. */
#include "gpuprim.cuh"
#include "clique/common.h"
#include "clique/graph/host.h"
#include "clique/maxclique/host.h"
#include "clique/maxclique/choose.h"
#include "clique/sets/host.h"
#include "clique/sets/choose.h"
#include "clique/kcliques/host.h"
#include "clique/kcliques/choose.h"
#include "clique/gpm/host.h"
#include "clique/gpm/table.h"
#if defined(__CUDACC__)
#include "clique/device.cuh"
#include "clique/graph/kernels.cuh"
#include "clique/maxclique/kernels.cuh"
#include "clique/sets/kernels.cuh"
#include "clique/sets/methods.cuh"
#include "clique/sets/all_pairs.cuh"
#include "clique/sets/replay.cuh"
#include "clique/kcliques/kernels.cuh"
#include "clique/kcliques/bitset.cuh"
#include "clique/kcliques/pivot.cuh"
#include "clique/kcliques/lftj.cuh"
#include "clique/kcliques/level_join.cuh"
#include "clique/kcliques/grouped.cuh"
#include "clique/gpm/kernels.cuh"
#include "clique/graph/cuda.cuh"
#include "clique/maxclique/cuda.cuh"
#include "clique/sets/cuda.cuh"
#include "clique/kcliques/cuda.cuh"
#include "clique/gpm/cuda.cuh"
#include "clique/gpm/motifs.cuh"
#include "clique/gpm/match.cuh"
#endif
#include "clique/graph/api.h"
#include "clique/maxclique/api.h"
#include "clique/sets/api.h"
#include "clique/kcliques/api.h"
#include "clique/gpm/api.h"

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
