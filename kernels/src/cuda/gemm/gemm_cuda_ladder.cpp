// The hand-written CUDA kernels as catalog entries.
#include <fmt/format.h>

#include "../gpu_kernels.hpp"
#include "gpu_gemm_kernel.hpp"
#include "launchers.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

namespace {

using Launcher = void (*)(const DeviceGemm&, cudaStream_t);

class HandWrittenGemm final : public GpuGemmKernel {
 public:
  // m and n must be multiples of `mn`, k of `k`; `sm90a`: built for sm_90a alone, so it
  // runs on compute capability 9.0 only.
  HandWrittenGemm(KernelInfo info, Launcher launcher, std::int64_t mn, std::int64_t k,
                  bool sm90a = false)
      : GpuGemmKernel(std::move(info)), launcher_(launcher), mn_(mn), k_(k), sm90a_(sm90a) {}

 protected:
  Support supports_gemm(const Problem& p) const override {
    if (sm90a_) {
      const GpuDevice& d = gpu_probe().devices.front();  // the harness checked there is one
      if (d.cc_major != 9 || d.cc_minor != 0)
        return Support::no(fmt::format(
            "{} is built for sm_90a (wgmma, the tensor memory accelerator): it runs on compute "
            "capability 9.0 (H100, H200), not {}.{} ({})",
            info().id(), d.cc_major, d.cc_minor, d.name));
    }
    if (gemm_layout(p) != Layout::NN)
      return Support::no(fmt::format("{} handles only the NN layout", info().id()));
    const Shape s = gemm_shape(p);
    if (s.m % mn_ || s.n % mn_ || s.k % k_)
      return Support::no(
          fmt::format("{} needs m and n to be multiples of {} and k of {}", info().id(), mn_, k_));
    return Support::yes();
  }
  void launch_gemm(const DeviceGemm& g, cudaStream_t stream) override { launcher_(g, stream); }

 private:
  Launcher launcher_;
  std::int64_t mn_, k_;
  bool sm90a_;
};

KernelInfo gpu_info(const std::string& backend, std::vector<DType> dtypes,
                    const std::string& description) {
  return {"gemm", backend, Device::gpu, std::move(dtypes), false, description};
}

// The wgmma kernel where its code runs (compute capability 9.0), the mma.sync one elsewhere.
void launch_best_gemm(const DeviceGemm& g, cudaStream_t stream) {
  static const bool hopper = [] {
    const GpuDevice& d = gpu_probe().devices.front();
    return d.cc_major == 9 && d.cc_minor == 0;
  }();
  (hopper ? launch_wgmma_128x256x64 : launch_mma_128x256x64)(g, stream);
}

}  // namespace

void add_hand_written_gpu_kernels(KernelCatalog& catalog) {
  const auto add = [&](std::string backend, std::vector<DType> dtypes, std::string description,
                       Launcher launcher, std::int64_t mn, std::int64_t k, bool sm90a = false) {
    catalog.add([=] {
      return std::make_unique<HandWrittenGemm>(gpu_info(backend, dtypes, description), launcher, mn,
                                               k, sm90a);
    });
  };
  add("cuda.simt_naive", {DType::f32}, "one thread per C entry, threads along rows (uncoalesced)",
      &launch_sgemm_naive, 1, 1);
  add("cuda.simt_coalesced", {DType::f32}, "one thread per C entry, threads along columns",
      &launch_sgemm_coalesced, 1, 1);
  add("cuda.simt_smem_32x32", {DType::f32}, "32x32 tiles of A and B in shared memory",
      &launch_sgemm_smem_32x32, 1, 1);
  add("cuda.simt_regblock_128x128x8_8x8", {DType::f32},
      "128x128 block tiles, 8x8 register tile per thread", &launch_sgemm_regblock_128x128x8_8x8, 1,
      1);
  add("cuda.simt_vec4_128x128x8_8x8", {DType::f32},
      "register-blocked with 16-byte global and shared loads", &launch_sgemm_vec4_128x128x8_8x8, 4,
      4);
  add("cuda.simt_warptile_128x128x16", {DType::f32},
      "warp tiles of 64x64 as 64x16 sub-tiles, 8x16 results per thread, 16-byte loads",
      &launch_sgemm_warptile_128x128x16, 128, 16);
  add("cuda.simt_pipelined_128x128x16", {DType::f32},
      "the warp-tiled kernel double-buffered: next B slice by cp.async, next A slice in "
      "registers, while the current one is computed",
      &launch_sgemm_pipelined_128x128x16, 128, 16);
  add("cuda.wmma_128x128x32", {DType::bf16, DType::f16},
      "tensor cores through WMMA, f32 accumulators, two-stage cp.async pipeline",
      &launch_wmma_128x128x32, 16, 16);
  add("cuda.mma_128x256x32", {DType::bf16, DType::f16},
      "tensor cores through mma.sync m16n8k16 and ldmatrix, 64x64 warp tiles, four-stage "
      "cp.async pipeline",
      &launch_mma_128x256x32, 8, 8);
  add("cuda.mma_128x256x64", {DType::bf16, DType::f16},
      "the mma.sync kernel with 64-deep k slices in three stages: half the barriers and copy "
      "batches per FLOP",
      &launch_mma_128x256x64, 8, 8);
  add("cuda.wgmma_128x256x64", {DType::bf16, DType::f16},
      "Hopper's wgmma (m64n256k16) fed by the tensor memory accelerator: a producer warpgroup "
      "issues the bulk copies of a four-stage pipeline, two consumer warpgroups of 64x256 "
      "multiply and hand C to the copy engine through shared memory (sm_90a)",
      &launch_wgmma_128x256x64, 8, 8, true);
  // gemm_bias_act fused: the best own GEMM for the device with the bias and activation
  // applied to its accumulators before the one store of C.
  catalog.add([] {
    return std::make_unique<HandWrittenGemm>(
        KernelInfo{"gemm_bias_act",
                   "cuda.fused",
                   Device::gpu,
                   {DType::bf16},
                   false,
                   "the wgmma kernel on compute capability 9.0, the mma.sync one (128x256x64, "
                   "three stages) elsewhere, with bias and activation in its epilogue: C stored "
                   "once",
                   KernelRole::fused,
                   "cuda"},
        &launch_best_gemm, 8, 8);
  });
}

}  // namespace ridgeline
