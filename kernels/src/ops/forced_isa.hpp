#pragma once
// The forms of a CPU kernel with its ISA forced (cpu.avx2_fused, cpu.avx2_unfused: f32, so
// that an AVX-512 machine measures the code an AVX2-only CPU runs) beside the ones that take
// the widest ISA by CPUID: their backend name, dtypes, description and refusal, one spelling
// for the row-wise ops and attention.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "ridgeline/kernels/kernel.hpp"
#include "rowwise_ops.hpp"

namespace ridgeline::ops {

// "cpu.fused", or "cpu.avx2_fused" with AVX2 forced; `form` is "fused" or "unfused".
inline std::string forced_backend(std::optional<Isa> forced, const char* form) {
  return fmt::format("cpu.{}{}", forced ? std::string(to_string(*forced)) + "_" : "", form);
}

// The family a fused kernel and its unfused twin share: "cpu", or "cpu.avx2" where forced.
inline std::string forced_family(std::optional<Isa> forced) {
  return forced ? fmt::format("cpu.{}", to_string(*forced)) : "cpu";
}

// f32 and bf16 by CPUID; f32 alone where forced.
inline std::vector<DType> forced_dtypes(std::optional<Isa> forced) {
  return forced ? std::vector<DType>{DType::f32} : std::vector<DType>{DType::f32, DType::bf16};
}

// "avx2 forced", or "avx512 by CPUID".
inline std::string isa_said(std::optional<Isa> forced) {
  return forced ? fmt::format("{} forced", to_string(*forced))
#if defined(__x86_64__)
                : fmt::format("{} by CPUID", to_string(best_isa()));
#else
                : fmt::format("{} by HWCAP", to_string(best_isa()));
#endif
}

// Refused where the CPU does not run the forced ISA.
inline Support forced_support(std::optional<Isa> forced) {
  if (forced && !isa_available(*forced))
    return Support::no(fmt::format("this CPU does not run {}", to_string(*forced)));
  return Support::yes();
}

}  // namespace ridgeline::ops
