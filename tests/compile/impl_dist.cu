// Both dist/ single files in one nvcc translation unit (what a vendoring user builds).
#define GPUAMQ_IMPLEMENTATION
#include "../../dist/gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../../dist/gpuclique.h"
