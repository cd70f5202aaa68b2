#include <cpuid.h>
#include <omp.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/kernels/core_pinning.hpp"

namespace ridgeline {

CpuIdentity cpu_identity() {
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
}

CpuIdentity cpu_identity_from_text(const std::string& text) {
  CpuIdentity id;
  std::istringstream in(text);
  std::string line;
  bool flags_read = false;
  while (!flags_read && std::getline(in, line)) {  // the first CPU's block
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    // "cpu family" (cpuinfo) and "CPU family" (lscpu) alike: lower case, no spaces or '_'.
    std::string key;
    for (char c : line.substr(0, colon))
      if (c != ' ' && c != '\t' && c != '_') key += static_cast<char>(std::tolower(c));
    const auto start = line.find_first_not_of(" \t", colon + 1);
    const std::string value = start == std::string::npos ? "" : line.substr(start);
    if (key == "vendorid") id.vendor = value;
    if (key == "cpufamily") id.family = std::atoi(value.c_str());
    if (key == "model") id.model = std::atoi(value.c_str());
    if (key == "flags") {
      const std::string flags = " " + value + " ";
      id.amx_bf16 = flags.find(" amx_bf16 ") != std::string::npos;
      id.avx512_fp16 = flags.find(" avx512_fp16 ") != std::string::npos;
      flags_read = true;
    }
  }
  return id;
}

namespace {
// 100 dependent single-cycle adds per loop iteration; the loop branch runs beside them.
// Register adds, not immediate ones: Golden Cove and later Intel cores fold chains of
// add-immediate at rename, several per cycle (a Sapphire Rapids VM measured 8.8 GHz so).
std::uint64_t add_chain(std::uint64_t iterations) {
  static volatile std::uint64_t one = 1;  // a value the compiler cannot see
  const std::uint64_t step = one;
  std::uint64_t x = 0;
  for (std::uint64_t i = 0; i < iterations; ++i)
    asm volatile(".rept 100\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(step));
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
