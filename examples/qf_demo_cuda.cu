/* qf_demo_cuda.cu - the quotient-filter demo (qf_demo.c) compiled by nvcc, so it
   has the CUDA backend too; qf_demo.c alone, built by a C compiler, has HOST. */
#include "qf_demo.c"
