/* tests/prim_reference.h - the serial host references of the gpuprim
   primitives: plain loops, the ground truth the tests compare the device
   results with (exactly). The worked examples in the comments are the ones the
   tests check on the device too. Include after gpuprim.cuh. */
#ifndef GPRIM_TEST_REFERENCE_H
#define GPRIM_TEST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "../gpuprim.cuh"

/* ---------------------------------------------------------------------------
   scan and select (prim/scan.cuh)
   ------------------------------------------------------------------------- */
/* in = [3, 1, 4, 1], op = sum  ->  out = [3, 4, 8, 9]. in == out allowed. */
template <typename T, typename Op>
inline void gprim_host_scan_inclusive(const T *in, T *out, size_t n, Op op) {
  if (n == 0) return;
  T acc = in[0];
  out[0] = acc;
  for (size_t i = 1; i < n; ++i) {
    acc = op(acc, in[i]);
    out[i] = acc;
  }
}

/* in = [3, 1, 4, 1], op = sum, init = 0  ->  out = [0, 3, 4, 8]. in == out allowed. */
template <typename T, typename Op>
inline void gprim_host_scan_exclusive(const T *in, T *out, size_t n, Op op, T init) {
  T acc = init;
  for (size_t i = 0; i < n; ++i) {
    T x = in[i];
    out[i] = acc;
    acc = op(acc, x);
  }
}

/* in = [1, 2, 3, 4], flags = [1, 0, 0, 1]  ->  out = [1, 4], returns 2. */
template <typename T, typename F>
inline size_t gprim_host_select_flagged(const T *in, const F *flags, T *out, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (flags[i]) out[k++] = in[i];
  return k;
}

/* in = [1, 2, 3, 4], pred = odd  ->  out = [1, 3], returns 2. */
template <typename T, typename Pred>
inline size_t gprim_host_select_if(const T *in, T *out, size_t n, Pred pred) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (pred(in[i])) out[k++] = in[i];
  return k;
}

/* Selected items first in input order, then the rejected ones in REVERSE input
   order (the r-th rejected item goes to out[n - 1 - r]).
   in = [1, 2, 3, 4, 5, 6], pred = odd  ->  out = [1, 3, 5, 6, 4, 2], returns 3. */
template <typename T, typename Pred>
inline size_t gprim_host_partition_if(const T *in, T *out, size_t n, Pred pred) {
  size_t k = 0, r = 0;
  for (size_t i = 0; i < n; ++i) {
    if (pred(in[i])) out[k++] = in[i];
    else out[n - 1 - r++] = in[i];
  }
  return k;
}

/* Keeps the first item of each run of equal (operator==) consecutive items.
   in = [1, 1, 2, 2, 2, 1, 3]  ->  out = [1, 2, 1, 3], returns 4. */
template <typename T>
inline size_t gprim_host_unique(const T *in, T *out, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (i == 0 || !(in[i] == in[i - 1])) out[k++] = in[i];
  return k;
}

/* in = [1, 1, 2, 2, 2, 1, 3]  ->  unique_out = [1, 2, 1, 3], counts = [2, 3, 1, 1], returns 4. */
template <typename T>
inline size_t gprim_host_run_length_encode(const T *in, T *unique_out, uint32_t *counts, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i == 0 || !(in[i] == in[i - 1])) {
      unique_out[k] = in[i];
      counts[k++] = 0;
    }
    ++counts[k - 1];
  }
  return k;
}

/* ---------------------------------------------------------------------------
   merge path, sorted search, load-balancing search, segmented reduce (prim/merge.cuh)
   ------------------------------------------------------------------------- */
/* a = [1, 3, 5], b = [2, 3]  ->  out = [1, 2, 3(a), 3(b), 5] */
template <typename K, typename Less>
void gprim_host_merge_keys(const K *a, size_t na, const K *b, size_t nb, K *out, Less less) {
  size_t i = 0, j = 0, k = 0;
  while (i < na || j < nb) {
    if (j < nb && (i >= na || less(b[j], a[i]))) out[k++] = b[j++];
    else out[k++] = a[i++];
  }
}

template <typename K, typename V, typename Less>
void gprim_host_merge_pairs(const K *a_keys, const V *a_vals, size_t na, const K *b_keys, const V *b_vals,
                            size_t nb, K *out_keys, V *out_vals, Less less) {
  size_t i = 0, j = 0, k = 0;
  while (i < na || j < nb) {
    if (j < nb && (i >= na || less(b_keys[j], a_keys[i]))) {
      out_keys[k] = b_keys[j];
      out_vals[k++] = b_vals[j++];
    } else {
      out_keys[k] = a_keys[i];
      out_vals[k++] = a_vals[i++];
    }
  }
}

/* needles = [0, 2, 2, 9], haystack = [1, 2, 2, 3]: lower -> [0, 1, 1, 4], upper -> [0, 3, 3, 4] */
template <typename K, typename I>
void gprim_host_sorted_search(const K *needles, size_t n_needles, const K *haystack, size_t n_haystack, I *out,
                              gprim_bound bound) {
  size_t j = 0;
  for (size_t i = 0; i < n_needles; ++i) {
    if (bound == GPRIM_LOWER_BOUND)
      while (j < n_haystack && haystack[j] < needles[i]) ++j;
    else
      while (j < n_haystack && !(needles[i] < haystack[j])) ++j;
    out[i] = (I)j;
  }
}

/* offsets = [0, 2, 2], total = 5  ->  parent = [0, 0, 2, 2, 2], rank = [0, 1, 0, 1, 2].
   Items before offsets[0] (never, when offsets is an exclusive scan) get parent (O)-1, rank j. */
template <typename O>
void gprim_host_load_balance_search(const O *offsets, size_t n_segments, size_t total, O *parent, O *rank) {
  size_t s = 0; /* offsets consumed: the number of offsets <= j */
  for (size_t j = 0; j < total; ++j) {
    while (s < n_segments && (size_t)offsets[s] <= j) ++s;
    parent[j] = (O)(s - 1);
    if (rank) rank[j] = (O)(j - (s ? (size_t)offsets[s - 1] : 0));
  }
}

/* in = [1, 2, 3, 4], offsets = [0, 3, 3, 4], sum, init 0  ->  out = [6, 0, 4] */
template <typename T, typename Op, typename O>
void gprim_host_segmented_reduce(const T *in, T *out, size_t num_segments, const O *offsets, Op op, T init) {
  for (size_t s = 0; s < num_segments; ++s) {
    T acc = init;
    for (size_t j = offsets[s]; j < (size_t)offsets[s + 1]; ++j) acc = op(acc, in[j]);
    out[s] = acc;
  }
}

/* in = [5, 7, 7, 1], offsets = [0, 3, 3, 4]  ->  max = [7, lowest, 1], index = [1, (O)-1, 3] */
template <typename T, typename O>
void gprim_host_segmented_argmax(const T *in, T *max_out, O *index_out, size_t num_segments, const O *offsets) {
  for (size_t s = 0; s < num_segments; ++s) {
    T best = gprim_op_max::identity<T>();
    O at = (O)-1;
    bool any = false;
    for (size_t j = offsets[s]; j < (size_t)offsets[s + 1]; ++j) {
      if (!any || best < in[j]) {
        best = in[j];
        at = (O)j;
        any = true;
      }
    }
    max_out[s] = best;
    index_out[s] = at;
  }
}

/* ---------------------------------------------------------------------------
   radix sort (prim/radix_sort.cuh)
   ------------------------------------------------------------------------- */

/* Digit of `key` for the pass at `shift` with `bits` bits, flipped when
   descending so that larger keys come first. */
template <typename K>
static inline uint32_t gprim_host_radix_digit(K key, int shift, int bits, bool descending) {
  uint32_t mask = (1u << bits) - 1u;
  uint32_t d = (uint32_t)(key >> shift) & mask;
  return descending ? (mask ^ d) : d;
}

/* Stable sort of keys (and values, when vals_in != NULL) by bits
   [begin_bit, end_bit). In place allowed. Returns 0, or -1 for a bad bit range. */
template <typename K, typename V>
static inline int gprim_host_radix_sort(const K *keys_in, K *keys_out, const V *vals_in, V *vals_out, size_t n,
                                         int begin_bit, int end_bit, bool descending) {
  if (begin_bit < 0 || begin_bit > end_bit || end_bit > (int)(8 * sizeof(K))) return -1;
  std::vector<K> k(keys_in, keys_in + n), k2(n);
  std::vector<V> v, v2;
  if (vals_in) {
    v.assign(vals_in, vals_in + n);
    v2.resize(n);
  }
  for (int shift = begin_bit; shift < end_bit; shift += 8) {
    int bits = std::min(8, end_bit - shift);
    size_t start[257] = {0};
    for (size_t i = 0; i < n; ++i) ++start[gprim_host_radix_digit(k[i], shift, bits, descending) + 1];
    for (int d = 0; d < 256; ++d) start[d + 1] += start[d]; /* start[d] = first slot of digit d */
    for (size_t i = 0; i < n; ++i) {
      size_t at = start[gprim_host_radix_digit(k[i], shift, bits, descending)]++;
      k2[at] = k[i];
      if (vals_in) v2[at] = v[i];
    }
    k.swap(k2);
    v.swap(v2);
  }
  std::copy(k.begin(), k.end(), keys_out);
  if (vals_in) std::copy(v.begin(), v.end(), vals_out);
  return 0;
}

/* keys = [3, 1, 4, 1]  ->  [1, 1, 3, 4]  (bits [0, 32), ascending) */
template <typename K>
static inline int gprim_host_radix_sort_keys(const K *keys_in, K *keys_out, size_t n, int begin_bit, int end_bit,
                                             bool descending) {
  return gprim_host_radix_sort<K, K>(keys_in, keys_out, (const K *)NULL, (K *)NULL, n, begin_bit, end_bit,
                                      descending);
}
/* keys = [3, 1, 4, 1], vals = [0, 1, 2, 3]  ->  keys [1, 1, 3, 4], vals [1, 3, 0, 2] */
template <typename K, typename V>
static inline int gprim_host_radix_sort_pairs(const K *keys_in, K *keys_out, const V *vals_in, V *vals_out, size_t n,
                                              int begin_bit, int end_bit, bool descending) {
  return gprim_host_radix_sort<K, V>(keys_in, keys_out, vals_in, vals_out, n, begin_bit, end_bit, descending);
}

/* ---------------------------------------------------------------------------
   segmented sort (prim/segmented_sort.cuh)
   ------------------------------------------------------------------------- */

/* Stable merge sort of k[0, len) (and v[0, len) alongside, when v != NULL). */
template <typename K, typename V>
static inline void gprim_host_stable_merge_sort(K *k, V *v, size_t len) {
  std::vector<K> tk(len);
  std::vector<V> tv(v ? len : 0);
  for (size_t width = 1; width < len; width *= 2) {
    for (size_t lo = 0; lo < len; lo += 2 * width) {
      size_t mid = std::min(lo + width, len), hi = std::min(lo + 2 * width, len);
      size_t a = lo, b = mid, o = lo;
      while (a < mid || b < hi) {
        bool take_b = a == mid || (b < hi && k[b] < k[a]);
        size_t from = take_b ? b++ : a++;
        tk[o] = k[from];
        if (v) tv[o] = v[from];
        ++o;
      }
    }
    for (size_t i = 0; i < len; ++i) k[i] = tk[i];
    if (v)
      for (size_t i = 0; i < len; ++i) v[i] = tv[i];
  }
}

/* keys_out[offsets[s] .. offsets[s+1]) = sorted keys_in of segment s; values
   (vals_in != NULL) follow their keys. In place allowed. Returns 0, or -1 for
   offsets that are not nondecreasing from 0 to n. */
template <typename K, typename V, typename O>
static inline int gprim_host_segmented_sort(const K *keys_in, K *keys_out, const V *vals_in, V *vals_out, size_t n,
                                      size_t num_segments, const O *offsets) {
  if (num_segments > 0 && ((size_t)offsets[0] != 0 || (size_t)offsets[num_segments] != n)) return -1;
  for (size_t s = 0; s < num_segments; ++s)
    if (offsets[s + 1] < offsets[s]) return -1;
  for (size_t i = 0; i < n && keys_out != keys_in; ++i) keys_out[i] = keys_in[i];
  for (size_t i = 0; i < n && vals_in && vals_out != vals_in; ++i) vals_out[i] = vals_in[i];
  for (size_t s = 0; s < num_segments; ++s) {
    size_t b = (size_t)offsets[s], e = (size_t)offsets[s + 1];
    gprim_host_stable_merge_sort(keys_out + b, vals_in ? vals_out + b : (V *)NULL, e - b);
  }
  return 0;
}

/* offsets = [0, 3, 3, 5], keys = [5, 1, 5, 9, 2]  ->  [1, 5, 5, 2, 9] */
template <typename K, typename O>
static inline int gprim_host_segmented_sort_keys(const K *keys_in, K *keys_out, size_t n, size_t num_segments,
                                                 const O *offsets) {
  return gprim_host_segmented_sort<K, K, O>(keys_in, keys_out, (const K *)NULL, (K *)NULL, n, num_segments, offsets);
}
/* offsets = [0, 3, 3, 5], keys = [5, 1, 5, 9, 2], vals = [0, 1, 2, 3, 4]
     ->  keys [1, 5, 5, 2, 9], vals [1, 0, 2, 4, 3] */
template <typename K, typename V, typename O>
static inline int gprim_host_segmented_sort_pairs(const K *keys_in, K *keys_out, const V *vals_in, V *vals_out,
                                                  size_t n, size_t num_segments, const O *offsets) {
  return gprim_host_segmented_sort<K, V, O>(keys_in, keys_out, vals_in, vals_out, n, num_segments, offsets);
}

#endif /* GPRIM_TEST_REFERENCE_H */
