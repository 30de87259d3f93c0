/* impl.cu - impl.c through nvcc: both halves with the CUDA and host backends. */
#include "impl.c"
