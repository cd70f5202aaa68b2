#pragma once
#include <string>
#include <vector>

namespace ridgeline {

// Instruction sets the kernels dispatch on, read with CPUID (through the compiler's
// __builtin_cpu_supports, which also checks that the OS saves the wide registers).
struct CpuFeatures {
  std::string model;
  bool amd = false;  // CPUID vendor "AuthenticAMD"
  int family = 0;    // CPUID's display family: 0x19 Zen 3 and Zen 4, 0x1A Zen 5
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
  bool avx512dq = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512_bf16 = false;
  bool avx512_vnni = false;
  bool avx512_fp16 = false;  // fp16 arithmetic on the vector units (Sapphire Rapids on)
  // The AMX tile unit's dtypes as CPUID lists them; whether this process can use the tiles
  // is amx_support()'s (ridgeline/kernels/amx.hpp), which also asks the kernel.
  bool amx_bf16 = false;
  bool amx_int8 = false;
  bool amx_fp16 = false;
  std::vector<std::string> isa_list() const;
  bool has_avx512() const { return avx512f && avx512dq && avx512bw && avx512vl; }
  bool has_avx2_fma() const { return avx2 && fma; }
};

const CpuFeatures& cpu_features();

}  // namespace ridgeline
