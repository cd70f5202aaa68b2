// The fused attention's public entries: check the arguments and the CPU, call the unit
// compiled for the ISA.
#include "attention_ops.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline::ops {

namespace {

// isa's unit in this build (kernels/CMakeLists.txt builds only this architecture's, the same
// ISAs as the row-wise ops'); nullptr where it is not built here.
const detail::AttentionFused* attention_unit(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      return &detail::attention_avx512;
    case Isa::avx2:
      return &detail::attention_avx2;
#elif defined(__aarch64__)
    case Isa::sve:
      return &detail::attention_sve256;
    case Isa::neon:
      return &detail::attention_neon;
#endif
    case Isa::scalar:
      return &detail::attention_scalar;
    default:
      return nullptr;
  }
}

const detail::AttentionFused& table(Isa isa) {
  const detail::AttentionFused* t = attention_unit(isa);
  if (!t)
    throw std::invalid_argument(std::string("the fused attention has no ") + to_string(isa) +
                                " implementation in this build");
  if (!isa_available(isa))
    throw std::invalid_argument(std::string("this CPU does not run the ") + to_string(isa) +
                                " implementation");
  return *t;
}

void check(const AttentionShape& s, int threads) {
  if (s.heads < 1 || s.seq < 1 || s.head_dim < 1)
    throw std::invalid_argument("attention sizes must be >= 1, got heads " +
                                std::to_string(s.heads) + ", seq " + std::to_string(s.seq) +
                                ", head_dim " + std::to_string(s.head_dim));
  if (s.seq > kAttentionMaxFusedSeq)
    throw std::invalid_argument("the fused attention compares key positions as floats: seq " +
                                std::to_string(s.seq) + " is above 2^24");
  if (threads < 1)
    throw std::invalid_argument("threads must be >= 1, got " + std::to_string(threads));
}

}  // namespace

std::size_t attention_fused_scratch(Isa isa, const AttentionShape& shape, int threads) {
  check(shape, threads);
  return table(isa).scratch(shape, threads);
}

std::string attention_fused_tile(Isa isa) {
  const auto& t = table(isa);
  return std::to_string(t.rows) + " query rows x " + std::to_string(t.keys) + " keys";
}

void attention_fused_isa(Isa isa, const AttentionArgs& args, float* scratch, int threads) {
  check(args.shape, threads);
  table(isa).run(args, scratch, threads);
}

std::string attention_fused_bf16_unsupported(Isa isa) {
  if (std::string why = bf16_unsupported_reason(cpu_features()); !why.empty()) return why;
  // The widest vector units have a bf16 entry (attention_avx512.cpp; attention_neon.cpp and
  // attention_sve256.cpp), the others none.
  const detail::AttentionFused* t = attention_unit(isa);
  if (!t || !t->run_bf16)
    return fmt::format("the fused attention has no bf16 form in its {} implementation",
                       to_string(isa));
  return {};
}

void attention_fused_isa(Isa isa, const AttentionArgsBf16& args, float* scratch, int threads) {
  if (const std::string why = attention_fused_bf16_unsupported(isa); !why.empty())
    throw std::invalid_argument(why);
  check(args.shape, threads);
  table(isa).run_bf16(args, scratch, threads);
}

}  // namespace ridgeline::ops
