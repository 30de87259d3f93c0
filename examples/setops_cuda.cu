/* setops_cuda.cu - the setops CLI (setops.c) compiled by nvcc, so it has the
   CUDA backend too; setops.c alone, built by a C compiler, has HOST. */
#include "setops.c"
