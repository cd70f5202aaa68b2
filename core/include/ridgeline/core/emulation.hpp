#pragma once
// Whether this process runs under a user-mode emulator (qemu-user running an AArch64 build on
// an x86-64 host, as this project's CI does): every figure measured then is the emulator's,
// and says nothing about any Arm core. The probe records the reason (MachineModel::emulated)
// and the reports print it beside the CPU.
#include <string>
#include <string_view>

namespace ridgeline {

// "" on the hardware itself, else how the emulation shows: for an AArch64 build, a
// /proc/cpuinfo without Arm's "CPU implementer" lines that names an x86 vendor (qemu-user
// passes the host's through).
std::string emulation_reason();
// The same from a build's architecture ("aarch64", "x86_64") and a /proc/cpuinfo text.
std::string emulation_from_cpuinfo(std::string_view arch, std::string_view cpuinfo);

}  // namespace ridgeline
