/* The public part of gpuclique.h is C99: this file compiles with
   gcc -std=c99 -Wall -Wextra -Werror -pedantic and needs no CUDA header. */
#include "../../gpuclique.h"
int header_gpuclique_c99(void) { return (int)GCLQ_SUCCESS + (int)GCLQ_BACKEND_AUTO; }
