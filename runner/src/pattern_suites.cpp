// What this machine can show about data without power counters: the same kernels on every
// input pattern, and subnormal inputs with the IEEE environment against FTZ/DAZ. A CPU that
// takes a microcode assist for subnormal operands or results runs the subnormal cases
// slower under ieee and at full speed under ftz_daz; one that handles them in hardware
// shows no difference. Either is a measurement. As rows of data (suite_rows.hpp); what each
// suite covers, in words, is its description in suites.cpp.
#include "pattern_suites.hpp"

#include "ridgeline/kernels/gpu.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

namespace {

constexpr const char* kGemm1024 = "m=1024,n=1024,k=1024";

// normal and subnormal, each under ieee and ftz_daz.
const std::vector<PatternRun> kSubnormalPairs{{"normal", FpEnv::ieee},
                                              {"subnormal", FpEnv::ieee},
                                              {"normal", FpEnv::ftz_daz},
                                              {"subnormal", FpEnv::ftz_daz}};

const std::vector<PatternRow>& cpu_pattern_rows() {
  static const std::vector<PatternRow> rows{
      // The packed GEMM at 1024^3, f32, 1 thread: every pattern, then subnormals under FTZ/DAZ.
      {kBestPacked,
       "gemm",
       DType::f32,
       kGemm1024,
       false,
       {{"normal"},
        {"zeros"},
        {"constant"},
        {"uniform"},
        {"integer"},
        {"sparse50"},
        {"sparse90"},
        {"mantissa2"},
        {"sign_random"},
        {"subnormal"},
        {"subnormal", FpEnv::ftz_daz},
        {"normal", FpEnv::ftz_daz}}},
      // A vendor BLAS on the same problem (1 thread: its own threads are beyond MXCSR's reach).
      {{KernelPick::Kind::named, "blas.openblas"},
       "gemm",
       DType::f32,
       kGemm1024,
       false,
       kSubnormalPairs},
      // The fused eltwise chain, 8 ops on 2^22 elements (16 MiB), on 1 and all threads.
      {{KernelPick::Kind::named, "cpu.fused", "cpu.fused"},
       "eltwise_chain",
       DType::f32,
       "n=4194304,L=8",
       true,
       kSubnormalPairs},
  };
  return rows;
}

// The effect of the data on a tensor-core product: the same bf16 cuBLAS GEMM at 8192^3 on
// each input pattern (validation still runs on random data first).
const std::vector<PatternRow>& gpu_pattern_rows() {
  static const std::vector<PatternRow> rows{
      {{KernelPick::Kind::named, "cuda.cublas"},
       "gemm",
       DType::bf16,
       "m=8192,n=8192,k=8192",
       false,
       {{"zeros"},
        {"constant"},
        {"uniform"},
        {"normal"},
        {"integer"},
        {"sparse50"},
        {"sign_random"},
        {"mantissa2"},
        {"subnormal"}}},
  };
  return rows;
}

}  // namespace

std::vector<CaseSpec> patterns_suite(const KernelCatalog& catalog, int cpus) {
  return expand_pattern_rows(catalog, cpu_pattern_rows(), cpus);
}

std::vector<CaseSpec> gpu_patterns_suite(const KernelCatalog& catalog, int cpus) {
  if (!gpu_probe().available()) return {};
  return expand_pattern_rows(catalog, gpu_pattern_rows(), cpus);
}

}  // namespace ridgeline
