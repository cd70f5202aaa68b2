// The CPU fusion suite as data: each row names ops, shapes and the roles that run them;
// the kernels come from the catalog (own kernels of family "cpu", any CPU vendor). What it
// covers, in words, is its description in suites.cpp.
#include "fusion_suites.hpp"

#include "suite_rows.hpp"

namespace ridgeline {

namespace {

constexpr SuiteKernels kCpu{Device::cpu, "cpu"};

// 64 MiB per f32 operand (past the last-level cache) and 512 MiB (beyond any cache).
constexpr const char* kRows4k = "rows=4096,cols=4096";
constexpr const char* kRows32k = "rows=32768,cols=4096";
// gelu_tanh at 4096 x 4096 x 64: the GEMM is short, the passes through C's 64 MiB weigh.
constexpr const char* kShortGemm = "m=4096,n=4096,k=64/act=gelu_tanh";
constexpr const char* kCausal = "batch=1,heads=8,seq=2048,head_dim=64,causal=1";

const std::vector<SuiteRow>& fusion_rows() {
  static const std::vector<SuiteRow> rows{
      {{"softmax", "layernorm", "rmsnorm"},
       {{DType::f32, {kRows4k, kRows32k}}},
       {kUnfused, kFused}},
      // The vendor at the size frameworks meet most (oneDNN 2.6 has no rmsnorm).
      {{"softmax", "layernorm", "rmsnorm"}, {{DType::f32, {kRows4k}}}, {kVendor}},
      // bf16 in memory, f32 arithmetic: half the bytes. Kernels refuse it with the reason
      // where the CPU lacks AVX512_BF16, and the run records that.
      {{"softmax", "layernorm", "rmsnorm"},
       {{DType::bf16, {kRows4k}}},
       {kUnfused, kFused, kVendor}},
      // 2^25 elements: 128 MiB.
      {{"eltwise_chain"},
       {{DType::f32,
         {"n=33554432,L=1", "n=33554432,L=2", "n=33554432,L=4", "n=33554432,L=8", "n=33554432,L=16",
          "n=33554432,L=32"}}},
       {kUnfused, kFused}},
      // 2048^3 gelu_tanh is compute-bound: the passes through C are a small share.
      {{"gemm_bias_act"},
       {{DType::f32,
         {"m=2048,n=2048,k=2048/act=gelu_tanh", kShortGemm, "m=4096,n=4096,k=64/act=relu"}}},
       {kUnfused, kFused}},
      {{"gemm_bias_act"},
       {{DType::f32, {"m=2048,n=2048,k=2048/act=gelu_tanh", kShortGemm}}},
       {kVendor}},
      {{"gemm_bias_act"}, {{DType::bf16, {kShortGemm}}}, {kUnfused, kFused, kVendor}},
      // Seq 2048, not the target's 4096 (docs/attention.md has that command): 4096 took 20 s
      // of the suite's 3 minutes. The unfused chain's scores are still 2 x 128 MiB.
      {{"attention"},
       {{DType::f32, {"batch=1,heads=8,seq=2048,head_dim=64,causal=0", kCausal}}},
       {kUnfused, kFused}},
      // The vendor and bf16 on causal attention only, for the suite's 3 minutes: there the
      // fused kernel also skips the masked half.
      {{"attention"}, {{DType::f32, {kCausal}}}, {kVendor}},
      {{"attention"}, {{DType::bf16, {kCausal}}}, {kUnfused, kFused, kVendor}},
  };
  return rows;
}

}  // namespace

std::vector<CaseSpec> fusion_suite(const KernelCatalog& catalog, int cpus) {
  return expand_suite_rows(catalog, kCpu, fusion_rows(), one_and_all(cpus));
}

// The sample in the default suite: the memory-bound regime and what fusion does beside
// the GEMMs, on 1 and all threads.
std::vector<CaseSpec> fusion_sample(const KernelCatalog& catalog, int cpus) {
  std::vector<CaseSpec> cases = expand_suite_rows(
      catalog, kCpu, {{{"softmax", "layernorm"}, {{DType::f32, {kRows4k}}}, {kUnfused, kFused}}},
      one_and_all(cpus));
  for (auto& c : expand_suite_rows(
           catalog, kCpu, {{{"gemm_bias_act"}, {{DType::f32, {kShortGemm}}}, {kUnfused, kFused}}},
           one_and_all(cpus)))
    cases.push_back(std::move(c));
  return cases;
}

}  // namespace ridgeline
