/* Both implementations compiled by a plain C compiler: the host backend only. */
#define GPUAMQ_IMPLEMENTATION
#include "../../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../../gpuclique.h"
