/* The public part of gpuamq.h is C99: this file compiles with
   gcc -std=c99 -Wall -Wextra -Werror -pedantic and needs no CUDA header. */
#include "../../gpuamq.h"
int header_gpuamq_c99(void) { return (int)GAMQ_SUCCESS + (int)GAMQ_BACKEND_AUTO; }
