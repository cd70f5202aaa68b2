// The GPU fusion suite as data: the CPU suite's shapes and sizes that fill the GPU, the
// kernels from the catalog (own kernels of family "cuda", any GPU vendor). What it covers,
// in words, is its description in suites.cpp.
#include "fusion_suites.hpp"
#include "ridgeline/kernels/gpu.hpp"
#include "suite_rows.hpp"

namespace ridgeline {

namespace {

constexpr SuiteKernels kGpu{Device::gpu, "cuda"};

// 64 MiB per f32 operand (about the H100's 50 MiB L2), and 1 GiB per operand.
constexpr const char* kGpuRows4k = "rows=4096,cols=4096";
// gelu_tanh at 8192 x 8192 x 256: the passes through C's 256 MiB weigh.
constexpr const char* kGpuShortGemm = "m=8192,n=8192,k=256/act=gelu_tanh";

}  // namespace

const std::vector<SuiteRow>& gpu_fusion_rows() {
  static const std::vector<SuiteRow> rows{
      {{"softmax", "layernorm", "rmsnorm"},
       {{DType::f32, {kGpuRows4k, "rows=65536,cols=4096"}},
        {DType::bf16, {kGpuRows4k, "rows=131072,cols=4096"}}},
       {kUnfused, kFused, kVendor}},
      // 2^28 elements: 1 GiB in f32.
      {{"eltwise_chain"},
       {{DType::f32,
         {"n=268435456,L=1", "n=268435456,L=2", "n=268435456,L=4", "n=268435456,L=8",
          "n=268435456,L=16", "n=268435456,L=32"}}},
       {kUnfused, kFused}},
      // 8192^3 gelu_tanh is compute-bound; f32 at 4096 x 4096 x 64 where a kernel has it.
      {{"gemm_bias_act"},
       {{DType::bf16,
         {"m=8192,n=8192,k=8192/act=gelu_tanh", kGpuShortGemm, "m=8192,n=8192,k=256/act=relu"}},
        {DType::f32, {"m=4096,n=4096,k=64/act=gelu_tanh"}}},
       {kUnfused, kFused, kVendor}},
      // The unfused chain's scores: 2 GiB.
      {{"attention"},
       {{DType::bf16,
         {"batch=4,heads=16,seq=4096,head_dim=64,causal=0",
          "batch=4,heads=16,seq=4096,head_dim=64,causal=1",
          "batch=4,heads=16,seq=4096,head_dim=128,causal=0",
          "batch=4,heads=16,seq=4096,head_dim=128,causal=1"}}},
       {kUnfused, kFused, kVendor}},
  };
  return rows;
}

std::vector<CaseSpec> gpu_fusion_suite(const KernelCatalog& catalog, int) {
  if (!gpu_probe().available()) return {};
  return expand_suite_rows(catalog, kGpu, gpu_fusion_rows(), {1});
}

// For the default suite on a machine with a GPU: softmax at 4096 x 4096 f32 and
// gemm_bias_act at 8192 x 8192 x 256 bf16 (gelu_tanh), fused and unfused.
std::vector<CaseSpec> gpu_fusion_sample(const KernelCatalog& catalog, int) {
  if (!gpu_probe().available()) return {};
  return expand_suite_rows(
      catalog, kGpu,
      {{{"softmax"}, {{DType::f32, {kGpuRows4k}}}, {kUnfused, kFused}},
       {{"gemm_bias_act"}, {{DType::bf16, {kGpuShortGemm}}}, {kUnfused, kFused}}},
      {1});
}

}  // namespace ridgeline
