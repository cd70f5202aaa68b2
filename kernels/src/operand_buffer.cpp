#include "ridgeline/kernels/operand_buffer.hpp"

#include <fmt/format.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cstdlib>
#include <new>
#include <stdexcept>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/problem.hpp"

namespace ridgeline {

OperandBuffer::OperandBuffer(DType dtype, std::size_t elements)
    : dtype_(dtype), elements_(elements) {
  std::size_t bytes = (std::max<std::size_t>(elements, 1) * size_of(dtype) + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, bytes);
  if (!p) throw std::bad_alloc();
  storage_.reset(p);
}

void OperandBuffer::Free::operator()(void* p) const {
  std::free(p);
}

double OperandBuffer::at(std::size_t i) const {
  switch (dtype_) {
    case DType::f64:
      return as<double>()[i];
    case DType::f32:
    case DType::tf32:
      return as<float>()[i];
    case DType::bf16:
      return from_bf16(as<std::uint16_t>()[i]);
    case DType::f16:
      return from_f16(as<std::uint16_t>()[i]);
    case DType::i8:
      return as<std::int8_t>()[i];
    case DType::i32:
      return as<std::int32_t>()[i];
  }
  return 0;
}

#if defined(__x86_64__)
void evict_from_caches(std::span<const MemoryRange> ranges) {
  constexpr std::size_t kLine = 64;  // every x86-64 CPU this runs on; a smaller step is safe
  for (const MemoryRange& r : ranges) {
    const auto* p = static_cast<const char*>(r.data);
    for (std::size_t at = 0; at < r.bytes; at += kLine) _mm_clflush(p + at);
  }
  _mm_mfence();  // the flushes are done before the timed call's first load
}
#else
// AArch64: DC CIVAC (clean and invalidate to the point of coherency) line by line, which Linux
// lets user space run (SCTLR_EL1.UCI), with the smallest data-cache line CTR_EL0 reports as
// the step; the DSB waits for them before the timed call's first load.
void evict_from_caches(std::span<const MemoryRange> ranges) {
  std::uint64_t ctr = 0;
  asm volatile("mrs %0, ctr_el0" : "=r"(ctr));
  const std::size_t line = std::size_t{4} << ((ctr >> 16) & 0xf);  // DminLine: log2 of words
  for (const MemoryRange& r : ranges) {
    const auto* p = static_cast<const char*>(r.data);
    for (std::size_t at = 0; at < r.bytes; at += line)
      asm volatile("dc civac, %0" : : "r"(p + at) : "memory");
  }
  asm volatile("dsb ish" ::: "memory");
}
#endif

std::vector<MemoryRange> memory_of(const Operands& operands) {
  std::vector<MemoryRange> out;
  for (const auto& e : operands.entries()) out.push_back({e.buffer.raw(), e.buffer.bytes()});
  return out;
}

void evict_from_caches(const Operands& operands) {
  evict_from_caches(memory_of(operands));
}

void Operands::add(OperandSpec spec) {
  OperandBuffer buffer(spec.dtype, static_cast<std::size_t>(spec.elements));
  entries_.push_back({std::move(spec), std::move(buffer)});
}

OperandBuffer& Operands::at(std::string_view name) {
  for (auto& e : entries_)
    if (e.spec.name == name) return e.buffer;
  throw std::logic_error(fmt::format("no operand named '{}'", name));
}

const OperandBuffer& Operands::at(std::string_view name) const {
  return const_cast<Operands*>(this)->at(name);
}

Operands allocate_operands(const Problem& problem) {
  Operands ops;
  for (auto& spec : op_definition(problem.op).operands(problem)) ops.add(std::move(spec));
  return ops;
}

GemmOperands gemm_view(Operands& operands) {
  return {operands.at("A"), operands.at("B"), operands.at("C")};
}

std::int64_t lda_of(const Problem& p) {
  const Shape s = gemm_shape(p);
  return transposes_a(gemm_layout(p)) ? s.m : s.k;
}
std::int64_t ldb_of(const Problem& p) {
  const Shape s = gemm_shape(p);
  return transposes_b(gemm_layout(p)) ? s.k : s.n;
}

}  // namespace ridgeline
