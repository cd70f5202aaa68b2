// Fused against unfused on the GPU, at the CPU fusion suite's shapes and at sizes that fill
// the GPU: softmax, layernorm and rmsnorm at 4096 x 4096 (64 MiB per f32 operand: about
// the H100's 50 MiB L2) and 1 GiB per operand (65536 x 4096 f32, 131072 x 4096 bf16); the
// eltwise chain at 2^28 elements (1 GiB f32) for L = 1 ... 32; gemm_bias_act in bf16 at
// 8192^3 (gelu_tanh: compute-bound) and 8192 x 8192 x 256 (gelu_tanh and relu: the passes
// through C's 256 MiB weigh), own fused, own unfused (cuBLAS, then bias and activation
// kernels) and cuBLASLt's epilogue; in f32 at 4096 x 4096 x 64, unfused and cuBLASLt; and
// attention in bf16 at batch 4, 16 heads, seq 4096, head_dim 64 and 128, causal and not,
// flash against the unfused chain (its scores: 2 GiB).
#include "fusion_suites.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

constexpr const char* kFused = "cuda.fused";
constexpr const char* kUnfused = "cuda.unfused";
constexpr const char* kVendor = "cuda.cublaslt";

}  // namespace

std::vector<CaseSpec> gpu_fusion_suite(const KernelCatalog&, int) {
  std::vector<CaseSpec> cases;
  if (!gpu_probe().available()) return cases;
  for (const char* op : {"softmax", "layernorm", "rmsnorm"}) {
    for (const char* params : {"rows=4096,cols=4096", "rows=65536,cols=4096"})
      for (const char* backend : {kUnfused, kFused})
        cases.push_back(fusion_case(backend, op, params, 1));
    for (const char* params : {"rows=4096,cols=4096", "rows=131072,cols=4096"})
      for (const char* backend : {kUnfused, kFused})
        cases.push_back(fusion_case(backend, op, params, 1, DType::bf16));
  }
  for (const char* params : {"n=268435456,L=1", "n=268435456,L=2", "n=268435456,L=4",
                             "n=268435456,L=8", "n=268435456,L=16", "n=268435456,L=32"})
    for (const char* backend : {kUnfused, kFused})
      cases.push_back(fusion_case(backend, "eltwise_chain", params, 1));
  for (const char* params : {"m=8192,n=8192,k=8192/act=gelu_tanh",
                             "m=8192,n=8192,k=256/act=gelu_tanh", "m=8192,n=8192,k=256/act=relu"})
    for (const char* backend : {kUnfused, kFused, kVendor})
      cases.push_back(fusion_case(backend, "gemm_bias_act", params, 1, DType::bf16));
  for (const char* backend : {kUnfused, kVendor})
    cases.push_back(fusion_case(backend, "gemm_bias_act", "m=4096,n=4096,k=64/act=gelu_tanh", 1));
  for (const char* params : {"batch=4,heads=16,seq=4096,head_dim=64,causal=0",
                             "batch=4,heads=16,seq=4096,head_dim=64,causal=1",
                             "batch=4,heads=16,seq=4096,head_dim=128,causal=0",
                             "batch=4,heads=16,seq=4096,head_dim=128,causal=1"})
    for (const char* backend : {kUnfused, kFused})
      cases.push_back(fusion_case(backend, "attention", params, 1, DType::bf16));
  return cases;
}

// For the default suite on a machine with a GPU: softmax at 4096 x 4096 f32 and
// gemm_bias_act at 8192 x 8192 x 256 bf16 (gelu_tanh), fused and unfused.
std::vector<CaseSpec> gpu_fusion_sample(const KernelCatalog&, int) {
  std::vector<CaseSpec> cases;
  if (!gpu_probe().available()) return cases;
  for (const char* backend : {kUnfused, kFused})
    cases.push_back(fusion_case(backend, "softmax", "rows=4096,cols=4096", 1));
  for (const char* backend : {kUnfused, kFused})
    cases.push_back(
        fusion_case(backend, "gemm_bias_act", "m=8192,n=8192,k=256/act=gelu_tanh", 1, DType::bf16));
  return cases;
}

}  // namespace ridgeline
