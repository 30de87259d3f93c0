// Both public headers together as C++ (-Wall -Wextra -Werror -pedantic), no CUDA header.
#include "../../gpuamq.h"
#include "../../gpuclique.h"
int headers_cxx(void) { return static_cast<int>(GAMQ_SUCCESS) + static_cast<int>(GCLQ_SUCCESS); }
