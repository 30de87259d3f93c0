// Both implementations by a plain C++ compiler (host backend only): the host
// code is written in the common subset of C99 and C++.
#define GPUAMQ_IMPLEMENTATION
#include "../../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../../gpuclique.h"
