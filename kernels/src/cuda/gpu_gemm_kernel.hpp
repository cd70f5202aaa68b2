#pragma once
// What every GPU GEMM kernel shares: operands uploaded into rotating copies larger than L2,
// one stream, launches checked, CUDA-event timing, C brought back for validation.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "device_gemm.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

class GpuGemmKernel : public Kernel {
 public:
  explicit GpuGemmKernel(KernelInfo info);
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override;
  void prepare(const Problem& problem, Operands& operands, int threads) override;
  void run() override;
  void finish() override;
  std::optional<double> timed_run() override;
  std::map<std::string, std::string> notes() const override;

 protected:
  // What this kernel needs beyond the common checks and a device (layouts, divisibility,
  // a library loaded at run time).
  virtual Support supports_shape(const Problem&) const { return Support::yes(); }
  // Once per prepare(), after the upload: handles, plans, algorithm choice.
  virtual void setup(const DeviceGemm&, cudaStream_t) {}
  // Enqueues one C = op(A) op(B) on `stream`; checks its own launch.
  virtual void launch(const DeviceGemm& operands, cudaStream_t stream) = 0;
  std::map<std::string, std::string> notes_;  // set by setup()

 private:
  struct Slot {
    DeviceBuffer a, b, c;
  };
  DeviceGemm view(const Slot& slot) const;

  KernelInfo info_;
  std::unique_ptr<CudaStream> stream_;
  std::unique_ptr<EventTimer> timer_;
  std::vector<Slot> slots_;
  DeviceGemm dims_;
  std::size_t next_ = 0;
  std::size_t last_ = 0;
  OperandBuffer* host_c_ = nullptr;
};

}  // namespace ridgeline
