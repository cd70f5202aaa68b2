#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "ridgeline/core/dtype.hpp"
#include "ridgeline/core/problem.hpp"

namespace ridgeline {

// A 64-byte aligned array of one dtype. Typed access checks the dtype, so no kernel
// reads doubles out of a float buffer.
class OperandBuffer {
 public:
  OperandBuffer() = default;
  OperandBuffer(DType dtype, std::size_t elements);

  DType dtype() const { return dtype_; }
  std::size_t size() const { return elements_; }
  std::size_t bytes() const { return elements_ * size_of(dtype_); }

  template <typename T>
  std::span<T> as() {
    check<T>();
    return {static_cast<T*>(storage_.get()), elements_};
  }
  template <typename T>
  std::span<const T> as() const {
    check<T>();
    return {static_cast<const T*>(storage_.get()), elements_};
  }
  // The untyped storage, for copies to and from a device.
  void* raw() { return storage_.get(); }
  const void* raw() const { return storage_.get(); }
  // Element i widened to double, for validation.
  double at(std::size_t i) const;

 private:
  template <typename T>
  void check() const {
    if (sizeof(T) != size_of(dtype_)) throw std::logic_error("OperandBuffer: wrong element type");
  }
  struct Free {
    void operator()(void* p) const;
  };
  DType dtype_ = DType::f32;
  std::size_t elements_ = 0;
  std::unique_ptr<void, Free> storage_;
};

// A problem's buffers by name, in its op's operand order (core/op.hpp: OperandSpec).
class Operands {
 public:
  struct Entry {
    OperandSpec spec;
    OperandBuffer buffer;
  };
  void add(OperandSpec spec);  // allocates spec.elements of spec.dtype
  // The buffer; std::logic_error naming the operand when the op has none of that name.
  OperandBuffer& at(std::string_view name);
  const OperandBuffer& at(std::string_view name) const;
  std::vector<Entry>& entries() { return entries_; }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// Every operand of the problem, allocated (not filled).
Operands allocate_operands(const Problem& problem);

// Writes every cache line of every operand back and drops it from every cache level of
// every core (clflush, then a fence), so the next call finds its operands in DRAM: the
// CPU's cold cache (CacheState::cold). The values are unchanged; a kernel's own workspace
// (packed panels, a library's scratch) is not touched.
void evict_from_caches(const Operands& operands);
// The same for any memory: a caller's arrays (the Python module's measure(cache="cold")).
struct MemoryRange {
  const void* data = nullptr;
  std::size_t bytes = 0;
};
void evict_from_caches(std::span<const MemoryRange> ranges);
std::vector<MemoryRange> memory_of(const Operands& operands);

// The gemm kernels' view of A, B and C (gemm and gemm_bias_act), row-major, with the
// leading dimensions that the layout implies (A is m x k, or k x m when transposed).
struct GemmOperands {
  OperandBuffer& a;
  OperandBuffer& b;
  OperandBuffer& c;
};
GemmOperands gemm_view(Operands& operands);
std::int64_t lda_of(const Problem& problem);
std::int64_t ldb_of(const Problem& problem);

}  // namespace ridgeline
