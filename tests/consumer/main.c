/* The consumer's C main: a quotient filter from gpuamq and a maximum clique
   from gpuclique, both on the host backend (it runs without a GPU). Prints
   "consumer ok" when both answers are right. */
#include <stdio.h>
#include <string.h>

#include "gpuamq.h"
#include "gpuclique.h"

/* Three of the four keys are built in: all three are found. */
static int check_filter(void) {
  gamq_qf_desc desc;
  gamq_qf *f = NULL;
  uint64_t keys[3] = {11, 42, 1234567};
  uint8_t found[3] = {0, 0, 0};
  int ok;
  memset(&desc, 0, sizeof desc);
  desc.backend = GAMQ_BACKEND_HOST;
  if (gamq_qf_create(&desc, GAMQ_QF_RSQF, 10, 8, &f) != GAMQ_SUCCESS) return 0;
  ok = gamq_qf_build_u64(f, keys, 3) == GAMQ_SUCCESS && gamq_qf_lookup_u64(f, keys, 3, found) == GAMQ_SUCCESS &&
       found[0] && found[1] && found[2];
  gamq_qf_destroy(f);
  return ok;
}

/* A 4-clique {0, 1, 2, 3} with a tail 3-4-5: omega 4, one maximum clique. */
static int check_clique(void) {
  uint64_t src[8] = {0, 0, 0, 1, 1, 2, 3, 4}, dst[8] = {1, 2, 3, 2, 3, 3, 4, 5};
  gclq_graph g;
  gclq_maxclique_options opt;
  gclq_maxclique_result r;
  int ok;
  if (gclq_graph_from_edges(src, dst, 8, &g) != GCLQ_SUCCESS) return 0;
  gclq_maxclique_options_defaults(&opt);
  opt.backend = GCLQ_BACKEND_HOST;
  ok = gclq_max_cliques(&g, &opt, &r) == GCLQ_SUCCESS && r.omega == 4 && r.count == 1;
  gclq_maxclique_result_free(&r);
  gclq_graph_free(&g);
  return ok;
}

int main(void) {
  int filter_ok = check_filter(), clique_ok = check_clique();
  printf("gpuamq %s: quotient filter %s; gpuclique %s: maximum clique %s\n", GAMQ_VERSION_STRING,
         filter_ok ? "ok" : "FAILED", GCLQ_VERSION_STRING, clique_ok ? "ok" : "FAILED");
  if (!filter_ok || !clique_ok) return 1;
  printf("consumer ok\n");
  return 0;
}
