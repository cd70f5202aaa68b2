#include <omp.h>

#include <algorithm>
#include <chrono>

#include "peak_kernels.hpp"
#include "ridgeline/kernels/amx.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/core_pinning.hpp"

namespace ridgeline {

#if defined(__x86_64__)
namespace {
std::string always(const CpuFeatures&) {
  return "";  // an x86-64-v3 CPU, which main() checked
}
std::string avx512(const CpuFeatures& f) {
  return f.has_avx512() ? "" : "no AVX-512 (F, DQ, BW and VL)";
}
std::string avx512_bf16(const CpuFeatures& f) {
  return f.has_avx512() && f.avx512_bf16 ? "" : "no AVX512_BF16";
}
std::string avx512_vnni(const CpuFeatures& f) {
  return f.has_avx512() && f.avx512_vnni ? "" : "no AVX512_VNNI";
}
std::string avx512_fp16(const CpuFeatures& f) {
  return f.avx512_fp16 ? "" : "no AVX512-FP16: CPUID.(EAX=7,ECX=0):EDX[23] is clear";
}
std::string amx_bf16(const CpuFeatures&) {
  return amx_support().reason_for("bf16");
}
std::string amx_int8(const CpuFeatures&) {
  return amx_support().reason_for("i8");
}
std::string amx_fp16(const CpuFeatures&) {
  const std::string why = amx_support().reason_for("f16");
  // GCC 12 has no AMX-FP16 instructions (GCC 13 has): the loop cannot be built here.
  return why.empty() ? "AMX-FP16 is present, but this build's compiler has no TDPFP16PS" : why;
}
}  // namespace

const std::vector<PeakSpec>& peak_specs() {
  using namespace ceilings;
  // ops_per_instruction: an FMA is 2 FLOPs per lane; vdpbf16ps multiplies and adds 32
  // bf16 pairs (64 FLOPs); vpdpbusd multiplies and adds 64 int8 pairs (128 OPs); fp16's
  // vfmadd231ph has 32 lanes (64 FLOPs). A tile instruction multiplies a 16 x K tile by a
  // K x 16 one: TDPBF16PS K = 32 bf16 (2 x 16 x 16 x 32 = 16,384 FLOPs), TDPBSSD K = 64 int8
  // (32,768 OPs).
  static const std::vector<PeakSpec> specs{
      {"f64.scalar.fma", "f64", "scalar", "FLOP/s", 2, &always, &peak_f64_scalar_fma, 12},
      {"f32.scalar.fma", "f32", "scalar", "FLOP/s", 2, &always, &peak_f32_scalar_fma, 12},
      {"f64.avx2.fma", "f64", "avx2", "FLOP/s", 8, &always, &peak_f64_avx2_fma, 12},
      {"f32.avx2.fma", "f32", "avx2", "FLOP/s", 16, &always, &peak_f32_avx2_fma, 12},
      {"f64.avx512.fma", "f64", "avx512", "FLOP/s", 16, &avx512, &peak_f64_avx512_fma, 16},
      {"f32.avx512.fma", "f32", "avx512", "FLOP/s", 32, &avx512, &peak_f32_avx512_fma, 16},
      {"bf16.avx512.dpbf16", "bf16", "avx512_bf16", "FLOP/s", 64, &avx512_bf16,
       &peak_bf16_avx512_dot, 16},
      {"i8.avx512.vnni", "i8", "avx512_vnni", "OP/s", 128, &avx512_vnni, &peak_i8_avx512_vnni, 16},
      {"f16.avx512fp16", "f16", "avx512_fp16", "FLOP/s", 64, &avx512_fp16, &peak_f16_avx512fp16_fma,
       16},
      {"bf16.amx", "bf16", "amx_bf16", "FLOP/s", 16384, &amx_bf16, &peak_bf16_amx, 4,
       &peak_bf16_amx_method},
      {"i8.amx", "i8", "amx_int8", "OP/s", 32768, &amx_int8, &peak_i8_amx, 4, &peak_i8_amx_method},
      {"f16.amx", "f16", "amx_fp16", "FLOP/s", 16384, &amx_fp16, nullptr, 4},
  };
  return specs;
}

#elif defined(__aarch64__)
namespace {
// Armv8-A has scalar FP and Advanced SIMD with FMA; Linux lists them as HWCAP_FP and
// HWCAP_ASIMD, which an Armv8-A Linux always sets (checked all the same).
std::string neon(const CpuFeatures& f) {
  return f.neon ? "" : "no Advanced SIMD: HWCAP_ASIMD is clear";
}
std::string neon_fp16(const CpuFeatures& f) {
  return f.neon_fp16 ? "" : "no fp16 arithmetic (FEAT_FP16): HWCAP_ASIMDHP is clear";
}
std::string neon_dot(const CpuFeatures& f) {
  return f.neon_dot ? "" : "no int8 dot product (FEAT_DotProd): HWCAP_ASIMDDP is clear";
}
std::string neon_bf16(const CpuFeatures& f) {
  return f.neon_bf16 ? "" : "no BF16 (FEAT_BF16): HWCAP2_BF16 is clear";
}
std::string neon_i8mm(const CpuFeatures& f) {
  return f.neon_i8mm ? "" : "no int8 matrix multiply (FEAT_I8MM): HWCAP2_I8MM is clear";
}
std::string sve(const CpuFeatures& f) {
  if (!f.sve) return "no SVE: HWCAP_SVE is clear";
  return f.sve_bits > 0 ? "" : "HWCAP_SVE is set but prctl(PR_SVE_GET_VL) gave no vector length";
}
std::string sve_bf16(const CpuFeatures& f) {
  if (std::string why = sve(f); !why.empty()) return why;
  return f.sve_bf16 ? "" : "no SVE BF16 (FEAT_BF16 with SVE): HWCAP2_SVEBF16 is clear";
}
std::string sve_i8mm(const CpuFeatures& f) {
  if (std::string why = sve(f); !why.empty()) return why;
  return f.sve_i8mm ? ""
                    : "no SVE int8 matrix multiply (FEAT_I8MM with SVE): HWCAP2_SVEI8MM is clear";
}
}  // namespace

const std::vector<PeakSpec>& peak_specs() {
  using namespace ceilings;
  // ops_per_instruction: an FMA is 2 FLOPs per lane: FMADD 2, FMLA .2d 4, .4s 8, .8h 16.
  // SDOT .4s: 16 int8 products (32 OPs); SMMLA: 2 x 8 by 8 x 2 (32 products, 64 OPs); BFDOT
  // .4s: 8 bf16 products (16 FLOPs); BFMMLA: 2 x 4 by 4 x 2 (16 products, 32 FLOPs).
  // SVE's FMLA has VL/64 f64, VL/32 f32 or VL/16 f16 lanes, VL being this process's vector
  // length: read once here, as the loops run it (a process that changes its length with prctl
  // afterwards would run them at another length than counted; Ridgeline never does). Its
  // SDOT and BFDOT have VL/32 lanes (8 OPs, 4 FLOPs each), and BFMMLA and SMMLA do NEON's
  // work once per 128-bit segment (VL/128 times 32 FLOPs, 64 OPs).
  const int vl = cpu_features().sve_bits;
  static const std::vector<PeakSpec> specs{
      {"f64.scalar.fma", "f64", "scalar", "FLOP/s", 2, &neon, &peak_f64_scalar_fma, kArmChains},
      {"f32.scalar.fma", "f32", "scalar", "FLOP/s", 2, &neon, &peak_f32_scalar_fma, kArmChains},
      {"f64.neon.fma", "f64", "neon", "FLOP/s", 4, &neon, &peak_f64_neon_fma, kArmChains},
      {"f32.neon.fma", "f32", "neon", "FLOP/s", 8, &neon, &peak_f32_neon_fma, kArmChains},
      {"f16.neon.fma", "f16", "neon_fp16", "FLOP/s", 16, &neon_fp16, &peak_f16_neon_fma,
       kArmChains},
      {"bf16.neon.bfdot", "bf16", "neon_bf16", "FLOP/s", 16, &neon_bf16, &peak_bf16_neon_bfdot,
       kArmChains},
      {"bf16.neon.bfmmla", "bf16", "neon_bf16", "FLOP/s", 32, &neon_bf16, &peak_bf16_neon_bfmmla,
       kArmChains},
      {"i8.neon.sdot", "i8", "neon_dot", "OP/s", 32, &neon_dot, &peak_i8_neon_sdot, kArmChains},
      {"i8.neon.smmla", "i8", "neon_i8mm", "OP/s", 64, &neon_i8mm, &peak_i8_neon_smmla, kArmChains},
      {"f64.sve.fma", "f64", "sve", "FLOP/s", 2.0 * vl / 64, &sve, &peak_f64_sve_fma, kArmChains},
      {"f32.sve.fma", "f32", "sve", "FLOP/s", 2.0 * vl / 32, &sve, &peak_f32_sve_fma, kArmChains},
      {"f16.sve.fma", "f16", "sve", "FLOP/s", 2.0 * vl / 16, &sve, &peak_f16_sve_fma, kArmChains},
      {"bf16.sve.bfdot", "bf16", "sve_bf16", "FLOP/s", 4.0 * vl / 32, &sve_bf16,
       &peak_bf16_sve_bfdot, kArmChains},
      {"bf16.sve.bfmmla", "bf16", "sve_bf16", "FLOP/s", 32.0 * vl / 128, &sve_bf16,
       &peak_bf16_sve_bfmmla, kArmChains},
      {"i8.sve.sdot", "i8", "sve", "OP/s", 8.0 * vl / 32, &sve, &peak_i8_sve_sdot, kArmChains},
      {"i8.sve.smmla", "i8", "sve_i8mm", "OP/s", 64.0 * vl / 128, &sve_i8mm, &peak_i8_sve_smmla,
       kArmChains},
  };
  return specs;
}
#endif

PeakMeasurement measure_peak(const PeakSpec& spec, int threads, double seconds, int trials) {
  using clock = std::chrono::steady_clock;
  // Size the run from a short one, then keep the fastest of `trials`.
  std::int64_t iterations = 100000;
  {
    auto start = clock::now();
    volatile double sink = spec.run(iterations);
    (void)sink;
    double t = std::chrono::duration<double>(clock::now() - start).count();
    iterations =
        std::max<std::int64_t>(iterations, static_cast<std::int64_t>(iterations * seconds / t));
  }
  PeakMeasurement best;
  for (int trial = 0; trial < trials; ++trial) {
    // The clock right before and after the loop, on as many threads: the frequency the loop
    // ran at (a boost clock measured at another moment was 2% below the one the FMAs got).
    const double before = measure_clock_on_threads(threads);
    double sink = 0;
    auto start = clock::now();
#pragma omp parallel num_threads(threads) reduction(+ : sink)
    {
      const CorePinning pinned(omp_get_thread_num());
      sink += spec.run(iterations);
    }
    double t = std::chrono::duration<double>(clock::now() - start).count();
    const double after = measure_clock_on_threads(threads);
    volatile double keep = sink;
    (void)keep;
    const double ops = static_cast<double>(iterations) * spec.instructions_per_iteration *
                       spec.ops_per_instruction * threads;
    if (ops / t > best.per_second) best = {ops / t, std::max(before, after)};
  }
  return best;
}

}  // namespace ridgeline
