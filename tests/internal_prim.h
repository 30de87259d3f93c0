/* internal_prim.h - the primitive tests' one door into gpuprim.cuh's private part.

   The primitive tests (test_scan.cu, test_merge.cu, test_radix_sort.cu,
   test_segmented_sort.cu, test_prim_common.cu) and their host references
   (prim_reference.h) use the public gprim_* API and this header, nothing else
   of the implementation. This header is the only place that names private
   gprim__ / GPRIM__ identifiers; it names these 9, each because no public
   call reaches what a test must check:

   temp storage
     gprim__temp_carve ....... the carving every temp-storage query is built
                               on, checked on its own: sizes rounded to the
                               alignment, pointers, too little storage (the
                               public queries only show its total)
   tile sizes: the tests draw sizes around multiples of the tile of the
   kernel under test (partial last tiles, one tile, one item more); no call
   returns a tile
     gprim__scan_cfg ......... the default scan tile by item size
     gprim__select_cfg ....... the select family's tile and run-length
                               encoding's (its `rle` shape)
     gprim__radix_tile ....... keys per radix sort tile, by key / value width
     GPRIM__SEGSORT_TILE ..... keys per tile of a large segment
     gprim__merge_shape ...... threads of the merge-path kernels and items
                               per thread of merge, sorted search,
                               load-balancing search, segmented reduce and
                               argmax
   scan kernels in shapes the defaults do not pick (both kernels, whichever
   a default uses; the bench tunes among them)
     gprim__scan_run ......... a scan with an explicit tile shape
     gprim__tiles ............ the register tile shape
     gprim__staged ........... the shared-memory staged tile shape

   Helpers are named primt_*. Include it after gpuprim.cuh. */
#ifndef TESTS_INTERNAL_PRIM_H
#define TESTS_INTERNAL_PRIM_H
#if !defined(GPRIM_CUH)
#error "internal_prim.h: include it after gpuprim.cuh"
#endif

#include <stddef.h>

/* ---- temp storage ---- */

static inline cudaError_t primt_temp_carve(void *d_temp, size_t *temp_bytes, int count, const size_t *sizes,
                                           void **ptrs) {
  return gprim__temp_carve(d_temp, temp_bytes, count, sizes, ptrs);
}

/* ---- tile sizes (items per tile) ---- */

/* scan's default tile for items of type T */
template <typename T> static inline size_t primt_scan_tile() { return gprim__scan_cfg<(int)sizeof(T)>::type::TILE; }
/* select_if / select_flagged / partition_if / unique, and run-length encoding */
template <typename T> static inline size_t primt_select_tile() {
  return gprim__select_cfg<(int)sizeof(T)>::type::TILE;
}
template <typename T> static inline size_t primt_rle_tile() { return gprim__select_cfg<(int)sizeof(T)>::rle::TILE; }
/* radix sort: keys (PAIRS false) or pairs */
template <typename K, typename V, bool PAIRS> static inline size_t primt_radix_tile() {
  return gprim__radix_tile<K, V, PAIRS>();
}
/* segmented sort: a large segment's tile */
static inline size_t primt_segsort_tile() { return GPRIM__SEGSORT_TILE; }
/* merge path, by the bytes of one item as the kernel counts them: merge
   (key, or key + value), sorted search (key + index), load-balancing search
   (offset), segmented reduce and argmax (value + offset) */
static inline size_t primt_merge_tile(int bytes) {
  return (size_t)gprim__merge_shape::NT * gprim__merge_shape::vt(bytes);
}
static inline size_t primt_search_tile(int bytes) {
  return (size_t)gprim__merge_shape::NT * gprim__merge_shape::search_vt(bytes);
}
static inline size_t primt_lbs_tile(int bytes) {
  return (size_t)gprim__merge_shape::NT * gprim__merge_shape::lbs_vt(bytes);
}
static inline size_t primt_segred_tile(int bytes) {
  return (size_t)gprim__merge_shape::SEGRED_NT * gprim__merge_shape::segred_vt(bytes);
}

/* ---- scans with an explicit tile shape ---- */

/* BLOCK threads of ROWS x CHUNK items in registers / staged in shared
   memory with MIN_BLOCKS blocks per SM; Shape::TILE items a tile */
template <int BLOCK, int ROWS, int CHUNK> struct primt_tiles {
  typedef gprim__tiles<BLOCK, ROWS, CHUNK> cfg;
  enum { TILE = cfg::TILE };
};
template <int BLOCK, int ROWS, int CHUNK, int MIN_BLOCKS> struct primt_staged {
  typedef gprim__staged<BLOCK, ROWS, CHUNK, MIN_BLOCKS> cfg;
  enum { TILE = cfg::TILE };
};
/* gprim_scan_exclusive / _inclusive (init unused when inclusive) in the tile
   shape Shape::cfg */
template <typename Shape, typename T, typename Op>
static inline cudaError_t primt_scan_run(bool exclusive, void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out,
                                         size_t n, Op op, T init, cudaStream_t stream) {
  typedef typename Shape::cfg Cfg;
  return exclusive ? gprim__scan_run<Cfg, T, Op, true>(d_temp, temp_bytes, d_in, d_out, n, op, init, stream)
                   : gprim__scan_run<Cfg, T, Op, false>(d_temp, temp_bytes, d_in, d_out, n, op, init, stream);
}

#endif /* TESTS_INTERNAL_PRIM_H */
