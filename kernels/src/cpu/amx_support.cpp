#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "ridgeline/kernels/amx.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace ridgeline {

namespace {

#if defined(__x86_64__)

// Linux's arch_prctl codes for dynamically enabled XSTATE (asm/prctl.h, 5.16 on) and the
// tile data's XSAVE feature number.
constexpr int kArchGetXcompPerm = 0x1022;
constexpr int kArchReqXcompPerm = 0x1023;
constexpr int kXfeatureTileCfg = 17, kXfeatureTileData = 18;

std::uint64_t amx_xcr0() {
  std::uint32_t lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (std::uint64_t{hi} << 32) | lo;
}

bool amx_osxsave() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27));
}

void read_amx_cpuid_bits(AmxSupport& s) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) < 7 || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return;
  s.bf16 = d & (1u << 22);
  s.tile = d & (1u << 24);
  s.int8 = d & (1u << 25);
  if (a >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d)) s.fp16 = a & (1u << 21);
}

// Palette 1 from leaf 0x1D: subleaf 0 says how many palettes there are.
bool read_amx_palette(AmxSupport& s) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_max(0, nullptr) < 0x1D || !__get_cpuid_count(0x1D, 0, &a, &b, &c, &d) || a < 1)
    return false;
  __get_cpuid_count(0x1D, 1, &a, &b, &c, &d);
  s.palette = {static_cast<int>(a & 0xFFFF), static_cast<int>(a >> 16),
               static_cast<int>(b & 0xFFFF), static_cast<int>(b >> 16),
               static_cast<int>(c & 0xFFFF)};
  return true;
}

AmxSupport check_amx() {
  AmxSupport s;
  read_amx_cpuid_bits(s);
  if (!s.tile) {
    s.reason = "no AMX: CPUID.(EAX=7,ECX=0):EDX[24] (AMX-TILE) is clear";
    return s;
  }
  if (!read_amx_palette(s)) {
    s.reason =
        "CPUID says AMX-TILE but leaf 0x1D lists no tile palette (a hypervisor that "
        "advertises AMX without it)";
    return s;
  }
  const AmxPalette& p = s.palette;
  if (p.bytes_per_row < 64 || p.max_rows < 16 || p.max_names < 8) {
    s.reason = fmt::format(
        "tile palette 1 is {} tiles of {} rows x {} bytes; the kernels need 8 of 16 x 64",
        p.max_names, p.max_rows, p.bytes_per_row);
    return s;
  }
  if (!amx_osxsave() ||
      (amx_xcr0() &
       ((std::uint64_t{1} << kXfeatureTileCfg) | (std::uint64_t{1} << kXfeatureTileData))) !=
          ((std::uint64_t{1} << kXfeatureTileCfg) | (std::uint64_t{1} << kXfeatureTileData))) {
    s.reason =
        "the OS does not save the tile state (XCR0 bits 17 and 18 clear): a kernel "
        "older than Linux 5.16, or AMX turned off";
    return s;
  }
  if (::syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureTileData) != 0) {
    s.reason = fmt::format(
        "the kernel refused the tile data (arch_prctl ARCH_REQ_XCOMP_PERM: {}): Linux before "
        "5.16, or a signal stack too small for it",
        std::strerror(errno));
    return s;
  }
  std::uint64_t permitted = 0;
  if (::syscall(SYS_arch_prctl, kArchGetXcompPerm, &permitted) != 0 ||
      !(permitted & (std::uint64_t{1} << kXfeatureTileData)))
    s.reason = "the kernel granted the tile data but does not list it as permitted";
  return s;
}
#else
// No CPUID, no tiles: every AMX ceiling and rung is absent with this reason.
AmxSupport check_amx() {
  AmxSupport s;
  s.reason = "AMX is an x86 (Intel) feature; this is AArch64";
  return s;
}
#endif

}  // namespace

std::string AmxSupport::reason_for(const std::string& dtype) const {
  if (!reason.empty()) return reason;
  if (dtype == "bf16" && !bf16) return "no AMX-BF16: CPUID.(EAX=7,ECX=0):EDX[22] is clear";
  if (dtype == "i8" && !int8) return "no AMX-INT8: CPUID.(EAX=7,ECX=0):EDX[25] is clear";
  if (dtype == "f16" && !fp16) return "no AMX-FP16: CPUID.(EAX=7,ECX=1):EAX[21] is clear";
  if (dtype != "bf16" && dtype != "i8" && dtype != "f16")
    return fmt::format("AMX has no {} unit", dtype);
  return "";
}

const AmxSupport& amx_support() {
  static const AmxSupport support = check_amx();
  return support;
}

AmxTileConfig AmxTileConfig::full_tiles(int tiles) {
  AmxTileConfig c;
  for (int t = 0; t < tiles && t < 16; ++t) {
    c.bytes_per_row[t] = 64;
    c.rows[t] = 16;
  }
  return c;
}

}  // namespace ridgeline
