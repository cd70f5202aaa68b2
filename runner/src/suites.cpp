// Every suite by name, with what it covers in words; each is rows of data in its own file
// (gemm_suites.cpp, fusion_suites.cpp, gpu_fusion_suite.cpp, pattern_suites.cpp,
// einsum_suite.cpp, collective_suite.cpp).
#include "ridgeline/runner/suites.hpp"

#include "collective_suite.hpp"
#include "einsum_suite.hpp"
#include "fusion_suites.hpp"
#include "gemm_suites.hpp"
#include "pattern_suites.hpp"

namespace ridgeline {

const std::vector<SuiteDefinition>& suites() {
  static const std::vector<SuiteDefinition> all{
      {"smoke", "every rung and BLAS at 64^3 and 37x53x29, f32 and f64: a check that all run",
       &smoke_suite, 1, 0.01},
      {"default",
       "the matmul ladder and every BLAS at n = 512 and 1024; softmax and layernorm at "
       "4096x4096 and gemm_bias_act at 4096x4096x64, fused and unfused; 1 and all threads; with "
       "a GPU, its GEMMs at 4096^3 and softmax and gemm_bias_act fused and unfused",
       &default_suite, 3, 0.1},
      {"ladder", "the whole ladder at n = 256 ... 4096, 1 and all threads (tens of minutes)",
       &ladder_suite, 3, 0.2},
      {"blas", "vendor BLAS against the packed rung at n = 256 ... 4096", &blas_suite, 3, 0.2},
      {"fusion",
       "fused against unfused: softmax, layernorm, rmsnorm at 4096x4096 and 32768x4096, the "
       "eltwise chain at 2^25 elements for L = 1 ... 32, gemm_bias_act at 2048^3 (gelu_tanh) and "
       "4096x4096x64 (gelu_tanh, relu), attention at 8 heads, seq 2048, head_dim 64 (causal and "
       "not), oneDNN on softmax, layernorm, gemm_bias_act and causal attention; bf16 too for the "
       "row-wise ops at 4096x4096, gemm_bias_act at 4096x4096x64 and causal attention; 1 and "
       "all threads",
       &fusion_suite, 3, 0.1},
      {"gpu",
       "GPU: the f32 SIMT ladder, cuBLAS and cuBLASLt at 4096^3 (f32, f64), the tensor-core "
       "kernel and the libraries at 8192^3 (tf32, bf16, f16, i8)",
       &gpu_suite, 5, 0.2},
      {"gpu-fusion",
       "GPU: fused against unfused: softmax, layernorm, rmsnorm at 4096x4096 and 1 GiB per "
       "operand (f32 and bf16; cuDNN beside them), the eltwise chain at 2^28 elements "
       "for L = 1 ... 32, "
       "gemm_bias_act in bf16 at 8192^3 and 8192x8192x256 (own fused, own unfused, cuBLASLt's "
       "epilogue) and in f32 at 4096x4096x64, attention in bf16 at batch 4, 16 heads, seq 4096, "
       "head_dim 64 and 128, causal and not (flash against the unfused chain and cuDNN)",
       &gpu_fusion_suite, 5, 0.2},
      {"gpu-patterns",
       "GPU: cuBLAS bf16 at 8192^3 on zeros, constant, uniform, normal, integer, sparse50, "
       "sign_random, mantissa2 and subnormal inputs (power and clock per pattern with --collect "
       "nvml)",
       &gpu_patterns_suite, 5, 1.0},
      {"einsum",
       "CPU (and the GPU's cuBLAS and TTGT lowerings where there is one): contractions "
       "practitioners "
       "write (a GEMM, attention scores and values, bthr,bThr->bhtT, a multi-head projection, a "
       "4-index contraction, an outer product) on "
       "every einsum lowering (the loop nest, transpose-GEMM-transpose, the copy-free strided "
       "GEMM, GETT, Eigen's contraction, each BLAS through the strided view and inside "
       "transpose-GEMM-transpose, oneDNN's strided matmul) and each step of the contraction "
       "paths of a chain (ij,jk,kl->il) and of a batched bilinear form (bi,ij,bj->b), f32 and "
       "f64, 1 and all threads",
       &einsum_suite, 3, 0.04, &einsum_suite_networks},
      {"collectives",
       "under mpirun: allreduce of 1 KiB, 256 KiB and 16 MiB (f32) and 256 KiB (f64), and a "
       "tensor-parallel GEMM (each rank's 1024x1024x256 or 1024x1024x16 shard, then an "
       "allreduce of C), among the job's ranks, one thread each",
       &collectives_suite, 3, 0.1},
      {"patterns",
       "CPU: the packed GEMM at 1024^3 on every input pattern; subnormal against normal inputs "
       "with IEEE arithmetic and with FTZ/DAZ, through the GEMM, OpenBLAS and the eltwise chain",
       &patterns_suite, 3, 0.1},
  };
  return all;
}

const SuiteDefinition* find_suite(const std::string& name) {
  for (const auto& s : suites())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace ridgeline
