/* kclique_cuda.cu - the kclique CLI (kclique.c) compiled by nvcc, so it has
   the CUDA backend too (AUTO picks it when a device is present); kclique.c
   alone, built by a C compiler, is host only. */
#include "kclique.c"
