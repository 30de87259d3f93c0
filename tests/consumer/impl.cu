// The one implementation file of the consumer: both halves, CUDA and host backends.
#define GPUAMQ_IMPLEMENTATION
#include "gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "gpuclique.h"
