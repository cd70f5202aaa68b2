#pragma once
// The device harness every GPU kernel runs on, kept apart from the kernels as nvbench keeps
// its cold-cache measurement apart from each benchmark: the op's operands by role (core/op.hpp)
// — inputs and weights uploaded, then rotated through copies that together span three L2s so
// no run finds them in cache; outputs poisoned on the device and copied back by finish() —
// one stream, each launch checked, and CUDA events around one run().
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "device_buffer.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/kernels/kernel.hpp"

namespace ridgeline {

// One rotation slot: each operand's device copy, by the op's operand names.
class DeviceOperands {
 public:
  struct Entry {
    std::string name;
    OperandRole role = OperandRole::input;
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  explicit DeviceOperands(std::vector<Entry> entries, std::size_t slot)
      : entries_(std::move(entries)), slot_(slot) {}
  // The operand's device pointer; std::logic_error naming it when the op has none.
  const void* in(std::string_view name) const { return find(name).data; }
  void* out(std::string_view name) const { return find(name).data; }
  bool has(std::string_view name) const;
  std::size_t slot() const { return slot_; }  // which copy, 0 ... slots - 1

 private:
  const Entry& find(std::string_view name) const;
  std::vector<Entry> entries_;
  std::size_t slot_ = 0;
};

class GpuOpKernel : public Kernel {
 public:
  explicit GpuOpKernel(KernelInfo info);
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem& problem, int threads) const override;
  void prepare(const Problem& problem, Operands& operands, int threads) override;
  void run() override;
  void finish() override;
  std::optional<double> timed_run() override;
  std::map<std::string, std::string> notes() const override { return notes_; }

 protected:
  // What this kernel needs beyond the common checks and a device (shapes, layouts, a
  // library loaded at run time).
  virtual Support supports_problem(const Problem&) const { return Support::yes(); }
  // Once per prepare(), after the upload, with every slot: handles, plans, scratch.
  virtual void setup(const Problem&, const std::vector<DeviceOperands>&, cudaStream_t) {}
  // Enqueues one call of the op on `stream` over one slot's operands; checks its launches.
  virtual void launch(const DeviceOperands& operands, cudaStream_t stream) = 0;
  std::map<std::string, std::string> notes_;  // setup() adds its own

 private:
  KernelInfo info_;
  std::unique_ptr<CudaStream> stream_;
  std::unique_ptr<EventTimer> timer_;
  std::vector<std::vector<DeviceBuffer>> slots_;  // [slot][operand], in the op's order
  std::vector<DeviceOperands> views_;
  std::vector<std::pair<std::size_t, OperandBuffer*>> outputs_;  // operand index, host buffer
  std::size_t next_ = 0;
  std::size_t last_ = 0;
};

}  // namespace ridgeline
