/* A C program that calls a symbol from each half and links against an
   implementation built elsewhere (by nvcc, or by the C compiler). */
#include <stdio.h>
#include <string.h>

#include "../../gpuamq.h"
#include "../../gpuclique.h"

int main(void) {
  gamq_backend a;
  gclq_backend c;
  int bad = 0;
  if (strcmp(gamq_status_string(GAMQ_SUCCESS), "success") != 0) bad = 1;
  if (strcmp(gclq_status_string(GCLQ_ERROR_OUT_OF_MEMORY), "out of memory (an allocation failed)") != 0) bad = 1;
  if (gamq_backend_resolve(GAMQ_BACKEND_AUTO, &a) != GAMQ_SUCCESS) bad = 1;
  if (gclq_backend_resolve(GCLQ_BACKEND_HOST, &c) != GCLQ_SUCCESS || c != GCLQ_BACKEND_HOST) bad = 1;
  printf("gpuamq %s (%s backend), gpuclique %s: %s\n", GAMQ_VERSION_STRING, gamq_backend_name(a),
         GCLQ_VERSION_STRING, bad ? "FAILED" : "linked");
  return bad;
}
