/* kclique_cuda.cu - the kclique CLI (kclique.c) compiled by nvcc, so its
   core numbers may run on CUDA; kclique.c alone, built by a C compiler, is
   host only. The k-clique counts run on HOST in this version either way. */
#include "kclique.c"
