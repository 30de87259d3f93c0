/* gpuclique_kernels.cuh - device code of the graph half (graphs, cores,
   maximum cliques, k-clique counts, set intersection). Included by
   gpuclique.h's implementation only, when it is compiled by nvcc, after
   gpuprim.cuh. Kernels arrive with their issues. */
#ifndef GPUCLIQUE_KERNELS_CUH
#define GPUCLIQUE_KERNELS_CUH
#endif /* GPUCLIQUE_KERNELS_CUH */
