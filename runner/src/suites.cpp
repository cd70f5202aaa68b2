#include "ridgeline/runner/suites.hpp"

#include <algorithm>

#include "collective_suite.hpp"
#include "einsum_suite.hpp"
#include "fusion_suites.hpp"
#include "pattern_suites.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

namespace {

// A rung and the largest n it is worth running at (the naive loop at 4096^3 takes minutes).
struct Rung {
  std::string backend;
  std::int64_t max_n;
};

std::vector<Rung> ladder(const KernelCatalog& catalog, bool threaded, std::int64_t huge,
                         bool with_avx2_rung = false) {
  std::vector<Rung> rungs;
  if (!threaded) {
    rungs.push_back({"cpu.naive", 1024});
    rungs.push_back({"cpu.reordered", 2048});
    rungs.push_back({"cpu.tiled", huge});
  }
  if (auto packed = best_packed_backend(threaded)) rungs.push_back({*packed, huge});
  // On an AVX-512 machine the ladder suite also shows what AVX-512 buys over AVX2.
  const std::string avx2 = threaded ? "cpu.packed_avx2_omp" : "cpu.packed_avx2";
  if (with_avx2_rung && best_packed_backend(threaded) != avx2) rungs.push_back({avx2, huge});
  rungs.push_back({"cpu.eigen", huge});
  // The GEMM kernels of the family only (each library also has einsum lowerings); the
  // reference BLAS, a naive loop nest, capped like the naive rung.
  for (const auto& k : catalog.kernels())
    if (k.op == "gemm" && k.family == kBlasFamily && (k.threaded || !threaded))
      rungs.push_back({k.backend, k.backend == "blas.refblas" ? 1024 : huge});
  return rungs;
}

// The dtypes a rung runs in the CPU suites: those its kernel declares, f32 and f64 when
// the kernel is not in this build (its cases then say why).
std::vector<DType> dtypes_of(const KernelCatalog& catalog, const std::string& backend) {
  if (const KernelInfo* info = catalog.find(backend)) return info->dtypes;
  return {DType::f32, DType::f64};
}

std::vector<CaseSpec> cube_cases(const KernelCatalog& catalog,
                                 const std::vector<std::int64_t>& sizes,
                                 const std::vector<int>& thread_counts,
                                 bool with_avx2_rung = false) {
  std::vector<CaseSpec> cases;
  for (int threads : thread_counts)
    for (const auto& rung : ladder(catalog, threads > 1, 1 << 20, with_avx2_rung))
      for (DType dtype : dtypes_of(catalog, rung.backend))
        for (std::int64_t n : sizes) {
          if (n > rung.max_n) continue;
          cases.push_back({rung.backend,
                           gemm_problem(Shape{n, n, n, 1}, Layout::NN, dtype, "normal"), threads});
        }
  return cases;
}

// GPU cases, on a machine with a GPU only: the f32 SIMT ladder and both libraries at
// `f32_n`, the tensor-core kernel and the libraries in every other dtype at `tensor_n`.
std::vector<CaseSpec> gpu_cases(const KernelCatalog& catalog, std::int64_t f32_n,
                                std::int64_t tensor_n) {
  std::vector<CaseSpec> cases;
  if (!gpu_probe().available()) return cases;
  for (const auto& k : catalog.kernels()) {
    if (k.device != Device::gpu || k.op != "gemm") continue;
    for (DType dtype : k.dtypes) {
      const std::int64_t n = dtype == DType::f32 || dtype == DType::f64 ? f32_n : tensor_n;
      cases.push_back({k.backend, gemm_problem(Shape{n, n, n, 1}, Layout::NN, dtype, "normal"), 1});
      // i8 also as C = A B^T (column-major TN), the form the libraries give the IMMA
      // tensor cores; NN shows what a user who does not know that gets.
      if (dtype == DType::i8)
        cases.push_back(
            {k.backend, gemm_problem(Shape{n, n, n, 1}, Layout::NT, dtype, "normal"), 1});
    }
  }
  return cases;
}

std::vector<CaseSpec> with_gpu(std::vector<CaseSpec> cpu, std::vector<CaseSpec> gpu) {
  cpu.insert(cpu.end(), gpu.begin(), gpu.end());
  return cpu;
}

std::vector<CaseSpec> smoke(const KernelCatalog& catalog, int cpus) {
  std::vector<CaseSpec> cases;
  const std::vector<Shape> shapes{{64, 64, 64, 1}, {37, 53, 29, 1}};
  for (int threads : one_and_all(cpus))
    for (const auto& rung : ladder(catalog, threads > 1, 1 << 20))
      for (DType dtype : dtypes_of(catalog, rung.backend))
        for (const Shape& s : shapes) {
          cases.push_back({rung.backend, gemm_problem(s, Layout::NN, dtype, "normal"), threads});
        }
  // Every GPU kernel and dtype at 256^3, and at an odd shape that needs the edge paths.
  for (const Shape& s : {Shape{256, 256, 256, 1}, Shape{100, 60, 36, 1}})
    for (auto& c : gpu_cases(catalog, 0, 0)) {
      c.problem = gemm_problem(s, gemm_layout(c.problem), c.problem.dtype, c.problem.pattern);
      cases.push_back(c);
    }
  return cases;
}

std::vector<CaseSpec> default_suite(const KernelCatalog& catalog, int cpus) {
  std::vector<CaseSpec> cases = cube_cases(catalog, {512, 1024}, one_and_all(cpus));
  for (auto& c : fusion_sample(catalog, cpus)) cases.push_back(std::move(c));
  cases = with_gpu(std::move(cases), gpu_cases(catalog, 4096, 4096));
  return with_gpu(std::move(cases), gpu_fusion_sample(catalog, cpus));
}

std::vector<CaseSpec> gpu_suite(const KernelCatalog& catalog, int) {
  return gpu_cases(catalog, 4096, 8192);
}

// The effect of the data on a tensor-core product: the same bf16 cuBLAS GEMM at 8192^3 on
// each input pattern (validation still runs on random data first).
std::vector<CaseSpec> gpu_patterns_suite(const KernelCatalog& catalog, int) {
  std::vector<CaseSpec> cases;
  if (!gpu_probe().available() || !catalog.find("cuda.cublas")) return cases;
  for (const char* pattern : {"zeros", "constant", "uniform", "normal", "integer", "sparse50",
                              "sign_random", "mantissa2", "subnormal"})
    cases.push_back({"cuda.cublas",
                     gemm_problem(Shape{8192, 8192, 8192, 1}, Layout::NN, DType::bf16, pattern),
                     1});
  return cases;
}

std::vector<CaseSpec> ladder_suite(const KernelCatalog& catalog, int cpus) {
  return cube_cases(catalog, {256, 512, 1024, 2048, 4096}, one_and_all(cpus), true);
}

std::vector<CaseSpec> blas_suite(const KernelCatalog& catalog, int cpus) {
  std::vector<CaseSpec> all = cube_cases(catalog, {256, 512, 1024, 2048, 4096}, one_and_all(cpus));
  std::erase_if(all, [&](const CaseSpec& c) {
    const KernelInfo* k = catalog.find(c.backend, c.problem.op);
    return !(k && k->family == kBlasFamily) && c.backend.rfind("cpu.packed", 0) != 0;
  });
  return all;
}

}  // namespace

const std::vector<SuiteDefinition>& suites() {
  static const std::vector<SuiteDefinition> all{
      {"smoke", "every rung and BLAS at 64^3 and 37x53x29, f32 and f64: a check that all run",
       &smoke, 1, 0.01},
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
