#pragma once
// The chain kernels of each ISA translation unit; each returns a checksum so the chains
// cannot be optimised away.
#include <cstdint>
#include <string>

namespace ridgeline::ceilings {

double peak_f64_scalar_fma(std::int64_t iterations);  // 12 chains
double peak_f32_scalar_fma(std::int64_t iterations);
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

}  // namespace ridgeline::ceilings
