#pragma once
// Each op's definition, one file each (core/src/op_definitions/<op>.cpp); registry.cpp lists them.
#include <cstdint>
#include <string>

#include "ridgeline/core/op.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline::ops {

OpDefinition gemm_definition();
OpDefinition gemm_bias_act_definition();
OpDefinition softmax_definition();
OpDefinition layernorm_definition();
OpDefinition rmsnorm_definition();
OpDefinition eltwise_chain_definition();
OpDefinition attention_definition();
OpDefinition einsum_definition();
OpDefinition allreduce_definition();
OpDefinition tp_gemm_definition();
OpDefinition callable_definition();

// A dimension that must be given (at least 1, at most `max` where there is one).
inline DimSpec required_dim(std::string name, std::string meaning,
                            std::optional<std::int64_t> max = std::nullopt) {
  DimSpec d;
  d.name = std::move(name);
  d.meaning = std::move(meaning);
  d.max = max;
  return d;
}
// A dimension that may be left out: it is then `value` (and left out of the label).
inline DimSpec defaulted_dim(std::string name, std::int64_t value, std::string meaning) {
  DimSpec d = required_dim(std::move(name), std::move(meaning));
  d.default_value = value;
  return d;
}

// A dimension as a double, for FLOP and byte counts.
inline double dim(const Problem& p, const char* name) {
  return static_cast<double>(p.params.dim(name));
}
// Bytes per element of the problem's input and output types.
inline double in_bytes(const Problem& p) {
  return static_cast<double>(size_of(p.dtype));
}
inline double out_bytes(const Problem& p) {
  return static_cast<double>(size_of(output_dtype(p.dtype)));
}
inline WorkModel dram_work(double flops, double bytes) {
  WorkModel w;
  w.flops = flops;
  w.bytes[MemoryLevel::main] = bytes;
  return w;
}
// One pass of an unfused chain: `flops` executed, `bytes` read and written through DRAM.
inline PassWork dram_pass(std::string name, double flops, double bytes) {
  return {std::move(name), dram_work(flops, bytes)};
}
// `ops` roundings of an f32 (or wider) computation, plus the rounding of the output when the
// op's output operand is stored narrower (bf16, f16): relative to the output's scale.
double elementwise_tolerance(const Problem& p, double ops);

}  // namespace ridgeline::ops
