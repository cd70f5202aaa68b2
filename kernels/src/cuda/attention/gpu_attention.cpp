// attention's CUDA kernels as catalog entries: cuda.fused, flash attention on mma.sync (bf16,
// head_dim 32, 64 or 128), and cuda.unfused, the chain an eager framework's math path runs:
// Q scaled into a copy, cuBLAS's strided batched GEMM writes the scores, the causal mask and
// the row softmax each read and write them, a second batched GEMM multiplies them by V.
#include <fmt/format.h>

#include <cmath>

#include "../cublas_library.hpp"
#include "../gpu_kernels.hpp"
#include "../gpu_op_kernel.hpp"
#include "../rowwise/rowwise_launchers.hpp"
#include "attention_launchers.hpp"
#include "ridgeline/kernels/catalog.hpp"

namespace ridgeline {

namespace {

DeviceAttention attention_dims(const Problem& p) {
  DeviceAttention a;
  a.heads = p.params.dim("batch") * p.params.dim("heads");
  a.seq = p.params.dim("seq");
  a.head_dim = p.params.dim("head_dim");
  a.causal = p.params.attr("causal") == "1";
  a.dtype = p.dtype;
  return a;
}

DeviceAttention on(DeviceAttention a, const DeviceOperands& o) {
  a.q = o.in("Q");
  a.k = o.in("K");
  a.v = o.in("V");
  a.o = o.out("O");
  return a;
}

class FlashAttention final : public GpuOpKernel {
 public:
  FlashAttention()
      : GpuOpKernel(
            {"attention",
             "cuda.fused",
             Device::gpu,
             {DType::bf16},
             false,
             "flash attention on mma.sync: 64 or 128 queries per block against blocks of 64 keys, "
             "online softmax in registers, the scores never stored",
             KernelRole::fused,
             "cuda"}) {}

 protected:
  Support supports_problem(const Problem& p) const override {
    if (p.params.dim("batch") * p.params.dim("heads") > 65535)  // the grid's y dimension
      return Support::no(fmt::format("{} takes at most 65535 heads (batch x heads)", info().id()));
    if (!flash_attention_head_dim(p.params.dim("head_dim")))
      return Support::no(fmt::format("{} is built for head_dim 32, 64 and 128, not {}", info().id(),
                                     p.params.dim("head_dim")));
    return Support::yes();
  }
  void setup(const Problem& p, const std::vector<DeviceOperands>&, cudaStream_t) override {
    dims_ = attention_dims(p);
    const int warps = flash_attention_warps(dims_.head_dim);
    notes_["tiles"] = fmt::format(
        "{} queries x 64 keys, {} warps, K and V double-buffered by cp.async", 16 * warps, warps);
  }
  void launch(const DeviceOperands& o, cudaStream_t s) override {
    launch_flash_attention(on(dims_, o), s);
  }

 private:
  DeviceAttention dims_;
};

class UnfusedAttention final : public GpuOpKernel {
 public:
  UnfusedAttention()
      : GpuOpKernel({"attention",
                     "cuda.unfused",
                     Device::gpu,
                     {DType::f32, DType::bf16},
                     false,
                     "scale Q, cuBLAS batched GEMM for the scores, causal mask, row softmax, "
                     "cuBLAS batched GEMM with V: the scores written and read back",
                     KernelRole::unfused,
                     "cuda"}) {}

 protected:
  // The scores (heads x seq^2) and the scaled Q live in device memory beside the operands:
  // at most half the free memory, refused before anything is allocated.
  Support supports_problem(const Problem& p) const override {
    if (Support s = cublas_status(); !s) return s;
    const DeviceAttention a = attention_dims(p);
    const double need = static_cast<double>(size_of(p.dtype)) * static_cast<double>(a.heads) *
                        static_cast<double>(a.seq) * static_cast<double>(a.seq + a.head_dim);
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return Support::yes();
    if (need <= static_cast<double>(free_bytes) / 2) return Support::yes();
    return Support::no(fmt::format(
        "{} keeps {:.1f} GiB of scores in device memory; half of the {:.1f} GiB free is the limit",
        info().id(), need / (1 << 30), static_cast<double>(free_bytes) / (1 << 30)));
  }
  void setup(const Problem& p, const std::vector<DeviceOperands>&, cudaStream_t s) override {
    dims_ = attention_dims(p);
    const std::size_t e = size_of(p.dtype);
    const auto h = static_cast<std::size_t>(dims_.heads), n = static_cast<std::size_t>(dims_.seq),
               d = static_cast<std::size_t>(dims_.head_dim);
    if (scaled_q_.bytes() != h * n * d * e) scaled_q_ = DeviceBuffer(h * n * d * e);
    if (scores_.bytes() != h * n * n * e) scores_ = DeviceBuffer(h * n * n * e);
    handle_.on(s);
    type_ = p.dtype == DType::bf16 ? CUDA_R_16BF : CUDA_R_32F;
    notes_["call"] = fmt::format(
        "cublasGemmStridedBatchedEx {} in and out, compute 32F; scores {:.1f} MiB in device memory",
        to_string(p.dtype), static_cast<double>(scores_.bytes()) / (1 << 20));
  }
  void launch(const DeviceOperands& o, cudaStream_t s) override {
    const DeviceAttention a = on(dims_, o);
    const int n = static_cast<int>(a.seq), d = static_cast<int>(a.head_dim),
              h = static_cast<int>(a.heads);
    const long long sd = static_cast<long long>(n) * d, ss = static_cast<long long>(n) * n;
    launch_scale(a.q, scaled_q_.get(), a.heads * a.seq * a.head_dim,
                 1.0f / std::sqrt(static_cast<float>(d)), a.dtype, s);
    // Row-major S = Qs K^T is column-major S^T = K^T-view^T Qs-view: K's buffer read as d x seq.
    RIDGELINE_CUBLAS(cublas().cublasGemmStridedBatchedEx(
        handle_.get(), CUBLAS_OP_T, CUBLAS_OP_N, n, n, d, &one_, a.k, type_, d, sd, scaled_q_.get(),
        type_, d, sd, &zero_, scores_.get(), type_, n, ss, h, CUBLAS_COMPUTE_32F,
        CUBLAS_GEMM_DEFAULT));
    if (a.causal) launch_causal_mask(scores_.get(), a.heads, a.seq, a.dtype, s);
    launch_softmax_fused(
        {scores_.get(), scores_.get(), nullptr, nullptr, a.heads * a.seq, a.seq, a.dtype}, s);
    // Row-major O = P V is column-major O^T = V-view P-view.
    RIDGELINE_CUBLAS(cublas().cublasGemmStridedBatchedEx(
        handle_.get(), CUBLAS_OP_N, CUBLAS_OP_N, d, n, n, &one_, a.v, type_, d, sd, scores_.get(),
        type_, n, ss, &zero_, a.o, type_, d, sd, h, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }

 private:
  DeviceAttention dims_;
  CublasHandle handle_;
  cudaDataType_t type_ = CUDA_R_32F;
  const float one_ = 1.0f, zero_ = 0.0f;
  DeviceBuffer scaled_q_, scores_;
};

}  // namespace

void add_gpu_attention_kernels(KernelCatalog& catalog) {
  catalog.add([] { return std::make_unique<FlashAttention>(); });
  catalog.add([] { return std::make_unique<UnfusedAttention>(); });
}

}  // namespace ridgeline
