#include "gpu_op_kernel.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "cuda_check.hpp"
#include "ridgeline/kernels/gpu.hpp"

namespace ridgeline {

const DeviceOperands::Entry& DeviceOperands::find(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return e;
  throw std::logic_error(fmt::format("no operand named {} on the device", name));
}

bool DeviceOperands::has(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return true;
  return false;
}

GpuOpKernel::GpuOpKernel(KernelInfo info) : info_(std::move(info)) {
  info_.device = Device::gpu;
}

Support GpuOpKernel::supports(const Problem& problem, int threads) const {
  if (Support s = check_common_support(info_, problem, threads); !s) return s;
  const GpuProbe& gpu = gpu_probe();
  if (!gpu.available()) return Support::no("no GPU: " + gpu.reason);
  return supports_problem(problem);
}

void GpuOpKernel::prepare(const Problem& problem, Operands& operands, int) {
  const GpuDevice& device = gpu_probe().devices.at(0);
  RIDGELINE_CUDA(cudaSetDevice(device.index));
  if (!stream_) stream_ = std::make_unique<CudaStream>();
  if (!timer_) timer_ = std::make_unique<EventTimer>();
  std::size_t set_bytes = 0;
  for (const auto& e : operands.entries()) set_bytes += e.buffer.bytes();
  std::size_t free_bytes = 0, total_bytes = 0;
  RIDGELINE_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const int wanted = rotation_slots(static_cast<std::int64_t>(set_bytes), device.l2_bytes,
                                    static_cast<std::int64_t>(free_bytes / 2));
  // prepare() runs again when the timed pattern differs from the validation data: slots of
  // the same sizes are kept and refilled.
  bool same_sizes = !slots_.empty() && slots_[0].size() == operands.entries().size();
  for (std::size_t i = 0; same_sizes && i < operands.entries().size(); ++i)
    same_sizes = slots_[0][i].bytes() == operands.entries()[i].buffer.bytes();
  if (slots_.size() != static_cast<std::size_t>(wanted) || !same_sizes) {
    slots_.clear();
    for (int s = 0; s < wanted; ++s) {
      std::vector<DeviceBuffer> slot;
      for (const auto& e : operands.entries()) slot.emplace_back(e.buffer.bytes());
      slots_.push_back(std::move(slot));
    }
  }
  const cudaStream_t stream = stream_->get();
  outputs_.clear();
  views_.clear();
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    std::vector<DeviceOperands::Entry> entries;
    for (std::size_t i = 0; i < operands.entries().size(); ++i) {
      auto& [spec, host] = operands.entries()[i];
      DeviceBuffer& d = slots_[s][i];
      // Outputs start as the host's poison (NaN bytes), so an entry the kernel skips shows;
      // inputs and weights from the host once, then copied on the device.
      if (spec.role == OperandRole::output || s == 0)
        RIDGELINE_CUDA(
            cudaMemcpyAsync(d.get(), host.raw(), host.bytes(), cudaMemcpyHostToDevice, stream));
      else
        RIDGELINE_CUDA(cudaMemcpyAsync(d.get(), slots_[0][i].get(), host.bytes(),
                                       cudaMemcpyDeviceToDevice, stream));
      if (s == 0 && spec.role == OperandRole::output) outputs_.push_back({i, &host});
      entries.push_back({spec.name, spec.role, d.get(), host.bytes()});
    }
    views_.emplace_back(std::move(entries), s);
  }
  RIDGELINE_CUDA(cudaStreamSynchronize(stream));
  next_ = last_ = 0;
  setup(problem, views_, stream);
  notes_["device"] = device.name;
  notes_["rotation"] = fmt::format("{} operand copies of {:.1f} MiB (L2 {:.0f} MiB)", slots_.size(),
                                   static_cast<double>(set_bytes) / (1 << 20),
                                   static_cast<double>(device.l2_bytes) / (1 << 20));
}

void GpuOpKernel::run() {
  last_ = next_;
  launch(views_[last_], stream_->get());
  next_ = (next_ + 1) % views_.size();
}

void GpuOpKernel::finish() {
  RIDGELINE_CUDA(cudaStreamSynchronize(stream_->get()));
  for (const auto& [index, host] : outputs_)
    RIDGELINE_CUDA(
        cudaMemcpy(host->raw(), slots_[last_][index].get(), host->bytes(), cudaMemcpyDeviceToHost));
}

std::optional<double> GpuOpKernel::timed_run() {
  timer_->start(stream_->get());
  run();
  return timer_->stop(stream_->get());
}

}  // namespace ridgeline
