/* maxclique_cuda.cu - the maxclique CLI (maxclique.c) compiled by nvcc, so it
   has the CUDA backend too; maxclique.c alone, built by a C compiler, has HOST. */
#include "maxclique.c"
