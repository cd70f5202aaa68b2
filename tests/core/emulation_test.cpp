// Whether a process is emulated, from /proc/cpuinfo: recorded x86 texts (what qemu-user shows
// an AArch64 build on these hosts) and the running process.
#include "ridgeline/core/emulation.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace ridgeline {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(RIDGELINE_FIXTURES) + "/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

TEST(Emulation, AnAarch64BuildSeeingAnX86HostsCpuinfoIsEmulated) {
  for (const char* name : {"recording-intel-amx-vm-cpuinfo.txt", "recording-zen3-vm-cpuinfo.txt"}) {
    const std::string why = emulation_from_cpuinfo("aarch64", fixture(name));
    EXPECT_NE(why.find("emulated"), std::string::npos) << name;
    EXPECT_NE(why.find(std::string(name).find("intel") != std::string::npos ? "GenuineIntel"
                                                                            : "AuthenticAMD"),
              std::string::npos)
        << why;
  }
}

TEST(Emulation, ArmCpuinfoAndX86BuildsAreNot) {
  // One CPU's block as Linux on a Neoverse V2 writes it (the MIDR fields are what matter).
  const std::string arm =
      "processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd evtstrm aes sve\n"
      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\n"
      "CPU revision\t: 1\n";
  EXPECT_EQ(emulation_from_cpuinfo("aarch64", arm), "");
  EXPECT_EQ(emulation_from_cpuinfo("x86_64", fixture("recording-intel-amx-vm-cpuinfo.txt")), "");
}

TEST(Emulation, ThisProcessIsEmulatedExactlyWhenAnAarch64BuildRunsOnAnX86Host) {
#if defined(__aarch64__)
  std::ifstream in("/proc/cpuinfo");
  std::ostringstream text;
  text << in.rdbuf();
  const bool x86_host = text.str().find("vendor_id") != std::string::npos;
  EXPECT_EQ(!emulation_reason().empty(), x86_host) << emulation_reason();
#else
  EXPECT_EQ(emulation_reason(), "");
#endif
}

}  // namespace
}  // namespace ridgeline
