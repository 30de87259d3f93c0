/* impl.c - the one implementation file of the example programs, as a user
   writes it: every other file includes gpuamq.h or gpuclique.h alone and links
   this. Compiled by a C (or C++) compiler it gives the host backend; compiled
   by nvcc (impl.cu includes this file) it gives CUDA and host. */
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"
