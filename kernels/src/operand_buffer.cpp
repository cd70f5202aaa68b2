#include "ridgeline/kernels/operand_buffer.hpp"

#include <cstdlib>
#include <new>

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

GemmOperands allocate_gemm_operands(const Problem& p) {
  const auto& s = p.shape;
  const auto count = [&](std::int64_t rows, std::int64_t cols) {
    return static_cast<std::size_t>(rows * cols * s.batch);
  };
  return {OperandBuffer(p.dtype, count(s.m, s.k)), OperandBuffer(p.dtype, count(s.k, s.n)),
          OperandBuffer(output_dtype(p.dtype), count(s.m, s.n))};
}

std::int64_t lda_of(const Problem& p) {
  return transposes_a(p.layout) ? p.shape.m : p.shape.k;
}
std::int64_t ldb_of(const Problem& p) {
  return transposes_b(p.layout) ? p.shape.k : p.shape.n;
}

}  // namespace ridgeline
