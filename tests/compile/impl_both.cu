// Both implementations, from the source files, in one nvcc translation unit.
#define GPUAMQ_IMPLEMENTATION
#include "../../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../../gpuclique.h"
