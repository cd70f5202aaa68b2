#pragma once
// The chain kernels of each ISA translation unit; each returns a checksum so the chains
// cannot be optimised away.
#include <cstdint>
#include <string>

namespace ridgeline::ceilings {

// Both architectures: x86-64's in peak_avx2.cpp (12 chains), AArch64's in peak_neon.cpp.
double peak_f64_scalar_fma(std::int64_t iterations);
double peak_f32_scalar_fma(std::int64_t iterations);

#if defined(__x86_64__)
double peak_f64_avx2_fma(std::int64_t iterations);
double peak_f32_avx2_fma(std::int64_t iterations);
double peak_f64_avx512_fma(std::int64_t iterations);  // 16 chains
double peak_f32_avx512_fma(std::int64_t iterations);
double peak_bf16_avx512_dot(std::int64_t iterations);
double peak_i8_avx512_vnni(std::int64_t iterations);
double peak_f16_avx512fp16_fma(std::int64_t iterations);  // 16 chains
double peak_bf16_amx(std::int64_t iterations);            // 4 tile instructions an iteration
double peak_i8_amx(std::int64_t iterations);
// How the two tile loops keep the unit fed on this core (the faster of two patterns).
std::string peak_bf16_amx_method();
std::string peak_i8_amx_method();
#elif defined(__aarch64__)
// kArmChains independent chains each: four FP/ASIMD pipes (Neoverse V1, V2) of latency up to
// five cycles (BFMMLA's on V1) keep 20 instructions in flight; 20 accumulators and two
// operands fit the 32 vector registers.
inline constexpr int kArmChains = 20;
double peak_f64_neon_fma(std::int64_t iterations);      // FMLA .2d (peak_neon.cpp)
double peak_f32_neon_fma(std::int64_t iterations);      // FMLA .4s
double peak_f16_neon_fma(std::int64_t iterations);      // FMLA .8h (peak_neon_fp16.cpp)
double peak_i8_neon_sdot(std::int64_t iterations);      // SDOT .4s (peak_neon_dot.cpp)
double peak_bf16_neon_bfdot(std::int64_t iterations);   // BFDOT .4s (peak_neon_bf16.cpp)
double peak_bf16_neon_bfmmla(std::int64_t iterations);  // BFMMLA .4s
double peak_i8_neon_smmla(std::int64_t iterations);     // SMMLA .4s (peak_neon_i8mm.cpp)
double peak_f64_sve_fma(std::int64_t iterations);       // FMLA z.d (peak_sve.cpp)
double peak_f32_sve_fma(std::int64_t iterations);       // FMLA z.s
double peak_f16_sve_fma(std::int64_t iterations);       // FMLA z.h
double peak_i8_sve_sdot(std::int64_t iterations);       // SDOT z.s
double peak_bf16_sve_bfdot(std::int64_t iterations);    // BFDOT z.s (peak_sve_bf16.cpp)
double peak_bf16_sve_bfmmla(std::int64_t iterations);   // BFMMLA z.s
double peak_i8_sve_smmla(std::int64_t iterations);      // SMMLA z.s (peak_sve_i8mm.cpp)
#endif

}  // namespace ridgeline::ceilings
