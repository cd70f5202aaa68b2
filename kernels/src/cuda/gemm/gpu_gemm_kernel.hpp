#pragma once
// What every GPU GEMM kernel shares, on the device harness (gpu_op_kernel.hpp): the op's
// A, B and C as one DeviceGemm with the layout's leading dimensions.
#include "../gpu_op_kernel.hpp"
#include "device_gemm.hpp"
#include "ridgeline/kernels/gemm_kernels.hpp"

namespace ridgeline {

class GpuGemmKernel : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;

 protected:
  // What this GEMM cannot do beyond the common checks and one product per call.
  virtual Support supports_gemm(const Problem&) const { return Support::yes(); }
  // Once per prepare(), after the upload: handles, plans, algorithm choice, from the first
  // operand copy; `copies` holds every copy, for what each needs before timing.
  virtual void setup_gemm(const DeviceGemm&, const std::vector<DeviceGemm>& /*copies*/,
                          cudaStream_t) {}
  // Enqueues one C = op(A) op(B) on `stream`; checks its own launch.
  virtual void launch_gemm(const DeviceGemm& operands, cudaStream_t stream) = 0;
  // The slot's A, B and C with the problem's dimensions.
  DeviceGemm view(const DeviceOperands& operands) const;

 private:
  Support supports_problem(const Problem& problem) const final {
    if (Support s = check_gemm_batch(info(), problem); !s) return s;
    return supports_gemm(problem);
  }
  void setup(const Problem& problem, const std::vector<DeviceOperands>& slots,
             cudaStream_t stream) final;
  void launch(const DeviceOperands& operands, cudaStream_t stream) final {
    launch_gemm(view(operands), stream);
  }
  DeviceGemm dims_;
};

}  // namespace ridgeline
