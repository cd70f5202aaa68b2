// The memory-bound ops' CUDA kernels as catalog entries: cuda.fused (one kernel) and
// cuda.unfused (one kernel per pass of the op's unfused chain, intermediates in device
// memory) for softmax, layernorm, rmsnorm and eltwise_chain; f32 and bf16 storage.
#include <fmt/format.h>

#include "../../ops/rowwise_op.hpp"
#include "../gpu_kernels.hpp"
#include "../gpu_op_kernel.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/rowwise.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "rowwise_launchers.hpp"

namespace ridgeline {

namespace {

class GpuRowwise final : public GpuOpKernel {
 public:
  GpuRowwise(RowwiseOpName op, bool fused)
      : GpuOpKernel({std::string(op.name),
                     fused ? "cuda.fused" : "cuda.unfused",
                     Device::gpu,
                     {DType::f32, DType::bf16},
                     false,
                     fused ? "one kernel: each row read once from device memory, reductions in "
                             "registers and shared memory, y written once"
                           : "one kernel per step of the op's unfused chain, each intermediate "
                             "written to device memory, as an eager framework runs them",
                     fused ? KernelRole::fused : KernelRole::unfused,
                     "cuda"}),
        op_(op.op),
        fused_(fused) {}

 protected:
  void setup(const Problem& problem, const std::vector<DeviceOperands>&, cudaStream_t) override {
    if (op_ == RowwiseOp::eltwise_chain) {
      rows_ = {1, problem.params.dim("n")};
      length_ = static_cast<int>(problem.params.dim("L"));
    } else {
      rows_ = row_shape(problem);
    }
    dtype_ = problem.dtype;
    scratch_ = {};
    if (!fused_ && op_ != RowwiseOp::eltwise_chain) {
      const std::size_t bytes =
          static_cast<std::size_t>(rowwise_scratch_elements(rows_.rows, rows_.cols)) *
          size_of(dtype_);
      if (scratch_buffer_.bytes() != bytes) scratch_buffer_ = DeviceBuffer(bytes);
      // The full array first, then the two row vectors (16-byte aligned as rows*cols*size
      // need not be: each vector element is read alone).
      auto* base = static_cast<char*>(scratch_buffer_.get());
      const std::size_t full = static_cast<std::size_t>(rows_.rows * rows_.cols) * size_of(dtype_);
      scratch_ = {base, base + full, base + full + rows_.rows * size_of(dtype_)};
    }
    notes_["passes"] = fused_ ? "one kernel"
                              : fmt::format("{} kernels, intermediates in device memory ({})",
                                            op_unfused_passes(problem).size(), to_string(dtype_));
  }

  void launch(const DeviceOperands& o, cudaStream_t s) override {
    DeviceRows r{o.in("x"), o.out("y"), nullptr, nullptr, rows_.rows, rows_.cols, dtype_};
    if (has_gamma(op_)) r.gamma = o.in("gamma");
    if (has_beta(op_)) r.beta = o.in("beta");
    switch (op_) {
      case RowwiseOp::softmax:
        return fused_ ? launch_softmax_fused(r, s) : launch_softmax_unfused(r, scratch_, s);
      case RowwiseOp::layernorm:
        return fused_ ? launch_layernorm_fused(r, kNormEpsilon, s)
                      : launch_layernorm_unfused(r, scratch_, kNormEpsilon, s);
      case RowwiseOp::rmsnorm:
        return fused_ ? launch_rmsnorm_fused(r, kNormEpsilon, s)
                      : launch_rmsnorm_unfused(r, scratch_, kNormEpsilon, s);
      case RowwiseOp::eltwise_chain:
        return fused_ ? launch_eltwise_chain_fused(r, length_, s)
                      : launch_eltwise_chain_unfused(r, length_, s);
    }
  }

 private:
  RowwiseOp op_;
  bool fused_;
  RowShape rows_;  // eltwise_chain: one row of n
  int length_ = 1;
  DType dtype_ = DType::f32;
  DeviceBuffer scratch_buffer_;
  DeviceScratch scratch_;
};

}  // namespace

void add_gpu_rowwise_kernels(KernelCatalog& catalog) {
  for (RowwiseOpName op : kRowwiseOps)
    for (bool fused : {true, false})
      catalog.add([op, fused] { return std::make_unique<GpuRowwise>(op, fused); });
}

}  // namespace ridgeline
