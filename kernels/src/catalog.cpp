#include "ridgeline/kernels/catalog.hpp"

#include "einsum/einsum_kernels.hpp"
#include "onednn/onednn_kernels.hpp"
#include "onednn3/onednn3_kernels.hpp"
#include "ops/attention_kernel.hpp"
#include "ops/rowwise_kernel.hpp"
#include "ridgeline/kernels/cpu_features.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

void KernelCatalog::add(KernelFactory factory) {
  infos_.push_back(factory()->info());
  factories_.push_back(std::move(factory));
}

const KernelInfo* KernelCatalog::find(const std::string& backend, const std::string& op) const {
  for (const auto& info : infos_)
    if (info.backend == backend && info.op == op) return &info;
  return nullptr;
}

std::unique_ptr<Kernel> KernelCatalog::create(const std::string& backend,
                                              const std::string& op) const {
  for (std::size_t i = 0; i < infos_.size(); ++i)
    if (infos_[i].backend == backend && infos_[i].op == op) return factories_[i]();
  return nullptr;
}

KernelCatalog KernelCatalog::with_builtin_kernels(const std::vector<BlasLibrarySpec>& blas) {
  KernelCatalog c;
  c.add(&make_naive_gemm);
  c.add(&make_reordered_gemm);
  c.add(&make_tiled_gemm);
#if defined(__x86_64__)
  for (PackedIsa isa : {PackedIsa::avx512, PackedIsa::avx2})
#elif defined(__aarch64__)
  for (PackedIsa isa : {PackedIsa::neon, PackedIsa::sve})
#endif
    for (bool threaded : {false, true}) c.add([=] { return make_packed_gemm(isa, threaded); });
  for (bool threaded : {false, true}) c.add([=] { return make_packed_amx_gemm(threaded); });
  c.add(&make_eigen_gemm);
  for (const auto& spec : blas) c.add([=] { return make_blas_gemm(spec); });
  for (bool fused : {true, false}) c.add([=] { return make_gemm_bias_act(fused); });
  add_rowwise_kernels(c);
  add_einsum_kernels(c);
  for (const auto& spec : blas) c.add([=] { return make_blas_einsum(spec); });
  for (const auto& spec : blas) c.add([=] { return make_blas_einsum_ttgt(spec); });
  add_attention_kernels(c);
  add_onednn_kernels(c);
  add_onednn3_kernels(c);
  add_gpu_kernels(c);  // none when built without CUDA
  return c;
}

std::optional<PackedIsa> best_packed_isa() {
  const CpuFeatures& cpu = cpu_features();
#if defined(__x86_64__)
  if (cpu.has_avx512()) return PackedIsa::avx512;
  if (cpu.has_avx2_fma()) return PackedIsa::avx2;
#elif defined(__aarch64__)
  if (cpu.neon) return PackedIsa::neon;
#endif
  (void)cpu;
  return std::nullopt;
}

std::optional<std::string> best_packed_backend(bool threaded) {
  const std::optional<PackedIsa> isa = best_packed_isa();
  if (!isa) return std::nullopt;
  return make_packed_gemm(*isa, threaded)->info().backend;
}

}  // namespace ridgeline
