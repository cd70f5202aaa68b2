#include <omp.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/core_pinning.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace ridgeline {

namespace {

// AArch64 implementers (MIDR_EL1[31:24]) by the names lscpu gives them, so that a /proc/cpuinfo
// recording ("CPU implementer : 0x41") and an lscpu one ("Vendor ID: ARM") name one vendor.
struct Named {
  int number;
  std::string_view name;
};
constexpr Named kArmImplementers[] = {{0x41, "ARM"},     {0x42, "Broadcom"},  {0x43, "Cavium"},
                                      {0x46, "Fujitsu"}, {0x48, "HiSilicon"}, {0x4e, "NVIDIA"},
                                      {0x50, "APM"},     {0x51, "Qualcomm"},  {0x61, "Apple"},
                                      {0xc0, "Ampere"}};
// Arm Ltd.'s server parts (MIDR_EL1[15:4]) by lscpu's "Model name", for an lscpu recording,
// which names the part but prints no number (its "Model" is the revision).
constexpr Named kArmParts[] = {{0xd0c, "Neoverse-N1"},
                               {0xd40, "Neoverse-V1"},
                               {0xd49, "Neoverse-N2"},
                               {0xd4f, "Neoverse-V2"},
                               {0xd84, "Neoverse-V3"}};

std::string implementer_name(int implementer) {
  for (const auto& [n, name] : kArmImplementers)
    if (n == implementer) return std::string(name);
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", implementer);
  return hex;
}

int implementer_number(std::string_view name) {
  for (const auto& [n, known] : kArmImplementers)
    if (known == name) return n;
  return -1;
}

int arm_part_number(std::string_view name) {
  for (const auto& [n, known] : kArmParts)
    if (known == name) return n;
  return 0;
}

// The fields of the first CPU, as either /proc/cpuinfo or lscpu spells them (x86 or Arm).
struct CpuText {
  std::string vendor_id, family, model, model_name, stepping;
  std::string implementer, variant, part, revision;  // Arm's /proc/cpuinfo
  std::string flags;
};

CpuText read_first_cpu(const std::string& text) {
  CpuText t;
  std::istringstream in(text);
  std::string line;
  bool any = false;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      // A blank line ends the first CPU's block in /proc/cpuinfo; lscpu's wrapped Flags lines
      // (no colon) are skipped.
      if (any && line.find_first_not_of(" \t\r") == std::string::npos) break;
      continue;
    }
    // "cpu family" (cpuinfo) and "CPU family" (lscpu) alike: lower case, no spaces or '_'.
    std::string key;
    for (char c : line.substr(0, colon))
      if (c != ' ' && c != '\t' && c != '_') key += static_cast<char>(std::tolower(c));
    const auto start = line.find_first_not_of(" \t", colon + 1);
    std::string value = start == std::string::npos ? "" : line.substr(start);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.pop_back();
    any = true;
    if (key == "vendorid") t.vendor_id = value;
    if (key == "cpufamily") t.family = value;
    if (key == "model") t.model = value;
    if (key == "modelname") t.model_name = value;
    if (key == "stepping") t.stepping = value;
    if (key == "cpuimplementer") t.implementer = value;
    if (key == "cpuvariant") t.variant = value;
    if (key == "cpupart") t.part = value;
    if (key == "cpurevision") t.revision = value;
    if (key == "flags") {  // the last field of the first CPU that is read (x86)
      t.flags = value;
      break;
    }
  }
  return t;
}

int number(const std::string& value) {
  return static_cast<int>(std::strtol(value.c_str(), nullptr, 0));  // "0x41", "8"
}

// Arm's identity: from /proc/cpuinfo's MIDR fields, else from lscpu's vendor name, part name
// and "Stepping: r<variant>p<revision>". lscpu's "Model" on Arm is the revision, never the
// part: without a part name the part stays 0, which the design table does not match.
bool arm_identity(const CpuText& t, CpuIdentity& id) {
  if (!t.implementer.empty()) {
    id.implementer = number(t.implementer);
    id.vendor = implementer_name(id.implementer);
    id.model = number(t.part);
    id.variant = t.variant.empty() ? -1 : number(t.variant);
    id.revision = t.revision.empty() ? -1 : number(t.revision);
    return true;
  }
  const int implementer = implementer_number(t.vendor_id);
  if (implementer < 0) return false;
  id.implementer = implementer;
  id.vendor = t.vendor_id;
  id.model = implementer == 0x41 ? arm_part_number(t.model_name) : 0;
  int variant = -1, revision = -1;
  if (std::sscanf(t.stepping.c_str(), "r%dp%d", &variant, &revision) == 2) {
    id.variant = variant;
    id.revision = revision;
  }
  return true;
}

CpuIdentity identity_from_text(const std::string& text) {
  const CpuText t = read_first_cpu(text);
  CpuIdentity id;
  if (arm_identity(t, id)) return id;
  id.vendor = t.vendor_id;
  id.family = std::atoi(t.family.c_str());
  id.model = std::atoi(t.model.c_str());
  const std::string flags = " " + t.flags + " ";
  id.amx_bf16 = flags.find(" amx_bf16 ") != std::string::npos;
  id.avx512_fp16 = flags.find(" avx512_fp16 ") != std::string::npos;
  return id;
}

#if defined(__aarch64__)
CpuIdentity identity_from_midr(std::uint64_t midr) {
  CpuIdentity id;
  id.implementer = static_cast<int>((midr >> 24) & 0xff);
  id.vendor = implementer_name(id.implementer);
  id.variant = static_cast<int>((midr >> 20) & 0xf);
  id.model = static_cast<int>((midr >> 4) & 0xfff);
  id.revision = static_cast<int>(midr & 0xf);
  return id;
}

std::string file_text(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
#endif

}  // namespace

CpuIdentity cpu_identity() {
#if defined(__x86_64__)
  CpuIdentity id;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0, &a, &b, &c, &d)) {
    char vendor[13] = {};
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
    id.vendor = vendor;
  }
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    const int base_family = (a >> 8) & 0xf, ext_family = (a >> 20) & 0xff;
    const int base_model = (a >> 4) & 0xf, ext_model = (a >> 16) & 0xf;
    id.family = base_family == 0xf ? base_family + ext_family : base_family;
    id.model =
        (base_family == 0x6 || base_family == 0xf) ? (ext_model << 4) + base_model : base_model;
  }
  id.amx_bf16 = cpu_features().amx_bf16;
  id.avx512_fp16 = cpu_features().avx512_fp16;
  return id;
#elif defined(__aarch64__)
  // The real MIDR of CPU 0 where sysfs has it; else /proc/cpuinfo's fields (only Arm's: under
  // qemu-user that file is the host's x86 text); else MIDR_EL1 itself, which Linux emulates
  // for user space where HWCAP_CPUID says so. Not cpu_features(): it calls this.
  const std::string sysfs = file_text("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1");
  if (!sysfs.empty()) return identity_from_midr(std::strtoull(sysfs.c_str(), nullptr, 16));
  CpuIdentity id;
  if (arm_identity(read_first_cpu(file_text("/proc/cpuinfo")), id)) return id;
  if (::getauxval(AT_HWCAP) & HWCAP_CPUID) {
    std::uint64_t midr = 0;
    asm volatile("mrs %0, midr_el1" : "=r"(midr));
    return identity_from_midr(midr);
  }
  return CpuIdentity{};
#endif
}

CpuIdentity cpu_identity_from_text(const std::string& text) {
  return identity_from_text(text);
}

namespace {
// 100 dependent single-cycle adds per loop iteration; the loop branch runs beside them.
// Register adds, not immediate ones: Golden Cove and later Intel cores fold chains of
// add-immediate at rename, several per cycle (a Sapphire Rapids VM measured 8.8 GHz so). A
// register add takes one cycle on the Neoverse cores too (their optimisation guides).
std::uint64_t add_chain(std::uint64_t iterations) {
  static volatile std::uint64_t one = 1;  // a value the compiler cannot see
  const std::uint64_t step = one;
  std::uint64_t x = 0;
  for (std::uint64_t i = 0; i < iterations; ++i)
#if defined(__x86_64__)
    asm volatile(".rept 100\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(step));
#else
    asm volatile(".rept 100\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(step));
#endif
  return x;
}
}  // namespace

double measure_clock_hz(int trials) {
  using clock = std::chrono::steady_clock;
  add_chain(200000);  // leave any low-power state before timing
  double best = 0;
  for (int t = 0; t < trials; ++t) {
    const std::uint64_t iterations = 800000;  // 80 M cycles, about 20 ms
    auto start = clock::now();
    add_chain(iterations);
    double seconds = std::chrono::duration<double>(clock::now() - start).count();
    best = std::max(best, 100.0 * static_cast<double>(iterations) / seconds);
  }
  return best;
}

double measure_clock_on_threads(int threads) {
  using clock = std::chrono::steady_clock;
  double best = 0;
#pragma omp parallel num_threads(threads) reduction(max : best)
  {
    const CorePinning pinned(omp_get_thread_num());  // the cores the FMA loop is pinned to
    const std::uint64_t iterations = 50000;          // 5 M cycles, about 1.5 ms
    auto start = clock::now();
    add_chain(iterations);
    const double seconds = std::chrono::duration<double>(clock::now() - start).count();
    best = 100.0 * static_cast<double>(iterations) / seconds;
  }
  return best;
}

}  // namespace ridgeline
