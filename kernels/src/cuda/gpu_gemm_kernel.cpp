#include "gpu_gemm_kernel.hpp"

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

GpuGemmKernel::GpuGemmKernel(KernelInfo info) : info_(std::move(info)) {
  info_.device = Device::gpu;
}

Support GpuGemmKernel::supports(const Problem& problem, int threads) const {
  if (Support s = check_common_support(info_, problem, threads); !s) return s;
  const GpuProbe& gpu = gpu_probe();
  if (!gpu.available()) return Support::no("no GPU: " + gpu.reason);
  return supports_shape(problem);
}

DeviceGemm GpuGemmKernel::view(const Slot& slot) const {
  DeviceGemm d = dims_;
  d.a = slot.a.get();
  d.b = slot.b.get();
  d.c = slot.c.get();
  return d;
}

void GpuGemmKernel::prepare(const Problem& problem, Operands& all_operands, int) {
  const GemmOperands operands = gemm_view(all_operands);
  const GpuDevice& device = gpu_probe().devices.at(0);
  RIDGELINE_CUDA(cudaSetDevice(device.index));
  if (!stream_) stream_ = std::make_unique<CudaStream>();
  if (!timer_) timer_ = std::make_unique<EventTimer>();
  dims_ = {nullptr,
           nullptr,
           nullptr,
           gemm_shape(problem).m,
           gemm_shape(problem).n,
           gemm_shape(problem).k,
           lda_of(problem),
           ldb_of(problem),
           gemm_shape(problem).n,
           transposes_a(gemm_layout(problem)),
           transposes_b(gemm_layout(problem)),
           problem.dtype};
  host_c_ = &operands.c;
  const std::size_t set_bytes = operands.a.bytes() + operands.b.bytes() + operands.c.bytes();
  std::size_t free_bytes = 0, total_bytes = 0;
  RIDGELINE_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const int wanted = rotation_slots(static_cast<std::int64_t>(set_bytes), device.l2_bytes,
                                    static_cast<std::int64_t>(free_bytes / 2));
  // prepare() runs again when the timed pattern differs from the validation data: the
  // slots are kept and refilled.
  const bool same_sizes = !slots_.empty() && slots_[0].a.bytes() == operands.a.bytes() &&
                          slots_[0].b.bytes() == operands.b.bytes() &&
                          slots_[0].c.bytes() == operands.c.bytes();
  if (slots_.size() != static_cast<std::size_t>(wanted) || !same_sizes) {
    slots_.clear();
    for (int i = 0; i < wanted; ++i)
      slots_.push_back({DeviceBuffer(operands.a.bytes()), DeviceBuffer(operands.b.bytes()),
                        DeviceBuffer(operands.c.bytes())});
  }
  const cudaStream_t s = stream_->get();
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (i == 0) {
      RIDGELINE_CUDA(cudaMemcpyAsync(slot.a.get(), operands.a.raw(), operands.a.bytes(),
                                     cudaMemcpyHostToDevice, s));
      RIDGELINE_CUDA(cudaMemcpyAsync(slot.b.get(), operands.b.raw(), operands.b.bytes(),
                                     cudaMemcpyHostToDevice, s));
    } else {
      RIDGELINE_CUDA(cudaMemcpyAsync(slot.a.get(), slots_[0].a.get(), operands.a.bytes(),
                                     cudaMemcpyDeviceToDevice, s));
      RIDGELINE_CUDA(cudaMemcpyAsync(slot.b.get(), slots_[0].b.get(), operands.b.bytes(),
                                     cudaMemcpyDeviceToDevice, s));
    }
    // C starts as the host's poison (NaN bytes), so an entry the kernel skips shows.
    RIDGELINE_CUDA(cudaMemcpyAsync(slot.c.get(), operands.c.raw(), operands.c.bytes(),
                                   cudaMemcpyHostToDevice, s));
  }
  RIDGELINE_CUDA(cudaStreamSynchronize(s));
  next_ = 0;
  setup(view(slots_[0]), s);
  notes_["device"] = device.name;
  notes_["rotation"] = fmt::format("{} operand copies of {:.1f} MiB (L2 {:.0f} MiB)", slots_.size(),
                                   static_cast<double>(set_bytes) / (1 << 20),
                                   static_cast<double>(device.l2_bytes) / (1 << 20));
}

void GpuGemmKernel::run() {
  last_ = next_;
  launch(view(slots_[last_]), stream_->get());
  next_ = (next_ + 1) % slots_.size();
}

void GpuGemmKernel::finish() {
  RIDGELINE_CUDA(cudaStreamSynchronize(stream_->get()));
  RIDGELINE_CUDA(
      cudaMemcpy(host_c_->raw(), slots_[last_].c.get(), host_c_->bytes(), cudaMemcpyDeviceToHost));
}

std::optional<double> GpuGemmKernel::timed_run() {
  timer_->start(stream_->get());
  run();
  return timer_->stop(stream_->get());
}

std::map<std::string, std::string> GpuGemmKernel::notes() const {
  return notes_;
}

}  // namespace ridgeline
