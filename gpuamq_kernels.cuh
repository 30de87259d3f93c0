/* gpuamq_kernels.cuh - device code of the AMQ half (quotient filters,
   non-associative scans). Included by gpuamq.h's implementation only, when it
   is compiled by nvcc, after gpuprim.cuh. Kernels arrive with their issues. */
#ifndef GPUAMQ_KERNELS_CUH
#define GPUAMQ_KERNELS_CUH
#endif /* GPUAMQ_KERNELS_CUH */
