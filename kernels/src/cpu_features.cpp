#include "ridgeline/kernels/cpu_features.hpp"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#include <sys/prctl.h>

#include "ridgeline/kernels/ceilings.hpp"
#endif

namespace ridgeline {

namespace {
#if defined(__x86_64__)
std::string read_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown";
}
// The vendor and display family from CPUID leaves 0 and 1 (the extended family is added
// where the base family is 0xF, as AMD and Intel both define it).
void read_vendor_family(CpuFeatures& f) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0, &a, &b, &c, &d)) return;
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &d, 4);
  std::memcpy(vendor + 8, &c, 4);
  f.amd = std::strcmp(vendor, "AuthenticAMD") == 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return;
  const int base = static_cast<int>((a >> 8) & 0xF);
  f.family = base == 0xF ? base + static_cast<int>((a >> 20) & 0xFF) : base;
}

CpuFeatures read_features() {
  CpuFeatures f;
  __builtin_cpu_init();
  f.model = read_cpu_model();
  read_vendor_family(f);
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512dq = __builtin_cpu_supports("avx512dq");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
  f.avx512_bf16 = __builtin_cpu_supports("avx512bf16");
  f.avx512_vnni = __builtin_cpu_supports("avx512vnni");
  // Bits GCC 12's __builtin_cpu_supports does not name: CPUID leaf 7. AVX512-FP16 uses the
  // zmm state whose saving avx512f's check already covers.
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) >= 7 && __get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    f.avx512_fp16 = f.avx512f && (d & (1u << 23));
    f.amx_bf16 = d & (1u << 22);
    f.amx_int8 = d & (1u << 25);
    if (a >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d)) f.amx_fp16 = a & (1u << 21);
  }
  return f;
}
#elif defined(__aarch64__)
// Arm's /proc/cpuinfo has no model name: the core is named from its MIDR (cpu_identity(),
// which never calls cpu_features()), with the design's name where the table knows it.
std::string arm_model() {
  const CpuIdentity id = cpu_identity();
  if (id.implementer < 0) return "unknown (MIDR_EL1 not readable)";
  const std::string design = core_design_name(id);
  return fmt::format("{} (MIDR implementer {:#04x} part {:#05x} r{}p{})",
                     design.empty() ? "AArch64 core" : design, id.implementer, id.model, id.variant,
                     id.revision);
}

// This process's SVE vector length: the kernel sets it per process (prctl), so it is read
// here rather than assumed from the core design.
int sve_vector_bits() {
  const int vl = ::prctl(PR_SVE_GET_VL);
  return vl < 0 ? 0 : (vl & PR_SVE_VL_LEN_MASK) * 8;
}

CpuFeatures read_features() {
  CpuFeatures f;
  f.model = arm_model();
  const unsigned long hwcap = ::getauxval(AT_HWCAP), hwcap2 = ::getauxval(AT_HWCAP2);
  f.neon = hwcap & HWCAP_ASIMD;
  f.neon_fp16 = hwcap & HWCAP_ASIMDHP;
  f.neon_dot = hwcap & HWCAP_ASIMDDP;
  f.neon_bf16 = hwcap2 & HWCAP2_BF16;
  f.neon_i8mm = hwcap2 & HWCAP2_I8MM;
  f.sve = hwcap & HWCAP_SVE;
  f.sve2 = hwcap2 & HWCAP2_SVE2;
  f.sve_bf16 = hwcap2 & HWCAP2_SVEBF16;
  f.sve_i8mm = hwcap2 & HWCAP2_SVEI8MM;
  f.sve_bits = f.sve ? sve_vector_bits() : 0;
  return f;
}
#else
#error "Ridgeline builds for x86-64 and AArch64"
#endif
}  // namespace

std::vector<std::string> CpuFeatures::isa_list() const {
  std::vector<std::string> list;
  const std::pair<bool, const char*> flags[] = {{avx2, "avx2"},
                                                {fma, "fma"},
                                                {avx512f, "avx512f"},
                                                {avx512dq, "avx512dq"},
                                                {avx512bw, "avx512bw"},
                                                {avx512vl, "avx512vl"},
                                                {avx512_bf16, "avx512_bf16"},
                                                {avx512_vnni, "avx512_vnni"},
                                                {avx512_fp16, "avx512_fp16"},
                                                {amx_bf16, "amx_bf16"},
                                                {amx_int8, "amx_int8"},
                                                {amx_fp16, "amx_fp16"},
                                                {neon, "neon"},
                                                {neon_fp16, "asimdhp"},
                                                {neon_dot, "asimddp"},
                                                {neon_bf16, "bf16"},
                                                {neon_i8mm, "i8mm"},
                                                {sve, "sve"},
                                                {sve2, "sve2"},
                                                {sve_bf16, "svebf16"},
                                                {sve_i8mm, "svei8mm"}};
  for (auto [on, name] : flags)
    if (on) list.emplace_back(name);
  // The vector length too: the SVE peaks and sweeps depend on it, and a process may run at
  // less than the core's width.
  if (sve && sve_bits > 0) list.push_back(fmt::format("sve{}", sve_bits));
  return list;
}

const CpuFeatures& cpu_features() {
  static const CpuFeatures features = read_features();
  return features;
}

}  // namespace ridgeline
