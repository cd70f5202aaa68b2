// Fused against unfused: softmax, layernorm and rmsnorm at 4096 x 4096 (64 MiB per
// operand) and 32768 x 4096 (512 MiB, beyond any cache), the eltwise chain at 2^25
// elements (128 MiB) for L = 1 ... 32, gemm_bias_act at 2048^3 (gelu_tanh: compute-
// bound, the passes through C are a small share) and at 4096 x 4096 x 64 (gelu_tanh and
// relu: the GEMM is short, the passes through C's 64 MiB weigh), and attention at batch 1,
// 8 heads, seq 2048, head_dim 64, causal and not (the unfused chain's scores: 2 x 128 MiB),
// each on 1 and all threads; oneDNN (the vendor) on softmax and layernorm at 4096 x 4096,
// gemm_bias_act at 2048^3 and 4096 x 4096 x 64 gelu_tanh, and causal attention. f32; in
// bf16 too, the row-wise ops at 4096 x 4096, gemm_bias_act at 4096 x 4096 x 64 gelu_tanh and
// causal attention (own and oneDNN).
#include "fusion_suites.hpp"

#include "ridgeline/core/op.hpp"

namespace ridgeline {

namespace {

constexpr const char* kVendor = "vendor.onednn";

}  // namespace

CaseSpec fusion_case(const std::string& backend, const std::string& op, const char* params,
                     int threads, DType dtype) {
  Problem p;
  p.op = op;
  p.params = parse_params(op_definition(op), params);
  p.dtype = dtype;
  return {backend, p, threads};
}

std::vector<CaseSpec> fusion_suite(const KernelCatalog& catalog, int cpus) {
  std::vector<int> threads{1};
  if (cpus > 1) threads.push_back(cpus);
  std::vector<CaseSpec> cases;
  for (int t : threads) {
    for (const char* op : {"softmax", "layernorm", "rmsnorm"})
      for (const char* params : {"rows=4096,cols=4096", "rows=32768,cols=4096"})
        for (const char* backend : {"cpu.unfused", "cpu.fused"})
          cases.push_back(fusion_case(backend, op, params, t));
    // The vendor beside them at the size frameworks meet most (rmsnorm: oneDNN 2.6 has none).
    for (const char* op : {"softmax", "layernorm"})
      if (catalog.find(kVendor, op))
        cases.push_back(fusion_case(kVendor, op, "rows=4096,cols=4096", t));
    // bf16 in memory, f32 arithmetic: half the bytes. Kernels refuse it with the reason
    // where the CPU lacks AVX512_BF16, and the run records that.
    for (const char* op : {"softmax", "layernorm", "rmsnorm"}) {
      for (const char* backend : {"cpu.unfused", "cpu.fused"})
        cases.push_back(fusion_case(backend, op, "rows=4096,cols=4096", t, DType::bf16));
      if (catalog.find(kVendor, op))
        cases.push_back(fusion_case(kVendor, op, "rows=4096,cols=4096", t, DType::bf16));
    }
    for (const char* params : {"n=33554432,L=1", "n=33554432,L=2", "n=33554432,L=4",
                               "n=33554432,L=8", "n=33554432,L=16", "n=33554432,L=32"})
      for (const char* backend : {"cpu.unfused", "cpu.fused"})
        cases.push_back(fusion_case(backend, "eltwise_chain", params, t));
    for (const char* params : {"m=2048,n=2048,k=2048/act=gelu_tanh",
                               "m=4096,n=4096,k=64/act=gelu_tanh", "m=4096,n=4096,k=64/act=relu"})
      for (const char* backend : {"cpu.unfused", "cpu.fused"})
        cases.push_back(fusion_case(backend, "gemm_bias_act", params, t));
    if (catalog.find(kVendor, "gemm_bias_act"))
      for (const char* params :
           {"m=2048,n=2048,k=2048/act=gelu_tanh", "m=4096,n=4096,k=64/act=gelu_tanh"})
        cases.push_back(fusion_case(kVendor, "gemm_bias_act", params, t));
    for (const char* backend : {"cpu.unfused", "cpu.fused", kVendor})
      if (catalog.find(backend, "gemm_bias_act"))
        cases.push_back(fusion_case(backend, "gemm_bias_act", "m=4096,n=4096,k=64/act=gelu_tanh", t,
                                    DType::bf16));
    // Attention at seq 2048, not the target's 4096 (docs/attention.md has that command):
    // 4096 took 20 s of the suite's 3 minutes. The scores are still 2 x 128 MiB unfused.
    for (const char* params : {"batch=1,heads=8,seq=2048,head_dim=64,causal=0",
                               "batch=1,heads=8,seq=2048,head_dim=64,causal=1"})
      for (const char* backend : {"cpu.unfused", "cpu.fused"})
        cases.push_back(fusion_case(backend, "attention", params, t));
    // Causal attention in bf16 too, own kernels and oneDNN (with its f32 twin); causal only,
    // for the suite's 3 minutes: there the fused kernel also skips the masked half.
    for (DType dtype : {DType::f32, DType::bf16})
      for (const char* backend : {"cpu.unfused", "cpu.fused", kVendor})
        if ((dtype == DType::bf16 || backend == std::string(kVendor)) &&
            catalog.find(backend, "attention"))
          cases.push_back(fusion_case(backend, "attention",
                                      "batch=1,heads=8,seq=2048,head_dim=64,causal=1", t, dtype));
  }
  return cases;
}

// The sample in the default suite: softmax and layernorm at 4096 x 4096 (64 MiB per operand,
// past the last-level cache) and gemm_bias_act at 4096 x 4096 x 64 (gelu_tanh), fused and
// unfused, on 1 and all threads, so the main job's report shows the memory-bound regime
// and what fusion does beside the GEMMs.
std::vector<CaseSpec> fusion_sample(const KernelCatalog&, int cpus) {
  std::vector<CaseSpec> cases;
  for (int t : cpus > 1 ? std::vector<int>{1, cpus} : std::vector<int>{1})
    for (const char* op : {"softmax", "layernorm"})
      for (const char* backend : {"cpu.unfused", "cpu.fused"})
        cases.push_back(fusion_case(backend, op, "rows=4096,cols=4096", t));
  for (int t : cpus > 1 ? std::vector<int>{1, cpus} : std::vector<int>{1})
    for (const char* backend : {"cpu.unfused", "cpu.fused"})
      cases.push_back(fusion_case(backend, "gemm_bias_act", "m=4096,n=4096,k=64/act=gelu_tanh", t));
  return cases;
}

}  // namespace ridgeline
