#pragma once
#include <string>
#include <vector>

namespace ridgeline {

// Instruction sets the kernels dispatch on. x86-64: read with CPUID (through the compiler's
// __builtin_cpu_supports, which also checks that the OS saves the wide registers). AArch64:
// read from the kernel's HWCAP and HWCAP2 (getauxval), which say what user space may run; the
// SVE vector length from the running process (it can differ per process: prctl).
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
  // AArch64. Advanced SIMD (NEON) with FMA is architectural there; the rest are HWCAP bits.
  bool neon = false;       // HWCAP_ASIMD
  bool neon_fp16 = false;  // HWCAP_ASIMDHP: fp16 arithmetic (FMLA .8h)
  bool neon_dot = false;   // HWCAP_ASIMDDP: SDOT/UDOT
  bool neon_bf16 = false;  // HWCAP2_BF16: BFDOT, BFMMLA
  bool neon_i8mm = false;  // HWCAP2_I8MM: SMMLA
  bool sve = false;        // HWCAP_SVE
  bool sve2 = false;       // HWCAP2_SVE2
  bool sve_bf16 = false;   // HWCAP2_SVEBF16: SVE's BFDOT, BFMMLA
  bool sve_i8mm = false;   // HWCAP2_SVEI8MM: SVE's SMMLA
  int sve_bits = 0;        // this process's SVE vector length in bits; 0 without SVE
  std::vector<std::string> isa_list() const;
  bool has_avx512() const { return avx512f && avx512dq && avx512bw && avx512vl; }
  bool has_avx2_fma() const { return avx2 && fma; }
};

const CpuFeatures& cpu_features();

}  // namespace ridgeline
