/* unit_amq.cu - the AMQ half's tests in one translation unit, so the test
   runner compiles the gpuamq implementation once (see unit_clique.cu). */
#include "test_qf.cu"
#include "test_qf_host.cu"
#include "test_qf_inplace.cu"
#include "test_qf_io.cu"
#include "test_qf_ref.cu"
#include "test_bloom.cu"
#include "test_nonassoc.cu"
#include "test_nonassoc_host.cu"
