/* unit_clique.cu - the graph half's tests in one translation unit, so the test
   runner compiles the gpuclique implementation once (with the test hooks of
   GPUCLIQUE_TESTING), beside unit_amq.cu for the AMQ half; the primitives'
   tests (test_scan.cu ...) use no implementation and stay files of their own.
   Each test_*.cu file still names its own configuration (allocator, hooks)
   at its top, and the first file here sets it for all: they name the same.
   test_api.cu, the common API of both halves, is here and gives the runner its
   one non-static gpuamq implementation. */
#define GPUCLIQUE_TESTING
#include "test_graph.cu"
#include "test_graph_labels.cu"
#include "test_host_clique.cu"
#include "test_maxclique.cu"
#include "test_kcliques.cu"
#include "test_gpm.cu"
#include "test_gpm_table.cu"
#include "test_gpm_motifs_cuda.cu"
#include "test_prepared.cu"
#include "test_sets.cu"
#include "test_api.cu"
