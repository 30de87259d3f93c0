/* impl.c - the one implementation file of the example programs, as a user
   writes it: every other file includes gpuamq.h or gpuclique.h alone and links
   this. Compiled by a C (or C++) compiler it gives the host backend; compiled
   by nvcc (impl.cu includes this file) it gives CUDA and host. */
/* POSIX.1-2008's declarations (lstat, realpath) under a strict -std=c99 too:
   with them gamq_qf_save writes through a symbolic link to its target. */
#if !defined(_WIN32) && !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700
#endif
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"
