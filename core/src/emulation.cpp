#include "ridgeline/core/emulation.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace ridgeline {

std::string emulation_from_cpuinfo(std::string_view arch, std::string_view cpuinfo) {
  if (arch != "aarch64") return "";
  // Linux on Arm lists each CPU's MIDR fields; an x86 kernel lists vendor_id and flags.
  if (cpuinfo.find("CPU implementer") != std::string_view::npos) return "";
  const auto at = cpuinfo.find("vendor_id");
  if (at == std::string_view::npos) return "";
  const auto colon = cpuinfo.find(':', at), end = cpuinfo.find('\n', at);
  std::string vendor(
      cpuinfo.substr(colon + 1, end == std::string_view::npos ? end : end - colon - 1));
  vendor.erase(0, vendor.find_first_not_of(" \t"));
  return fmt::format(
      "emulated: this AArch64 build sees an x86 host's /proc/cpuinfo (vendor_id {}), so a "
      "user-mode emulator (qemu-user) runs it; its figures are the emulator's, not an Arm core's",
      vendor);
}

std::string emulation_reason() {
#if defined(__aarch64__)
  // A fact of the process: /proc/cpuinfo is read once, however many callers ask (the probe,
  // and the perf collector for each event it cannot open).
  static const std::string reason = [] {
    std::ifstream in("/proc/cpuinfo");
    std::ostringstream text;
    text << in.rdbuf();
    return emulation_from_cpuinfo("aarch64", text.str());
  }();
  return reason;
#else
  return "";
#endif
}

}  // namespace ridgeline
