// What each known core design can issue per cycle, for the theoretical peaks: the FMA units
// (how many, how wide) from the vendors' optimisation guides. A design or an instruction
// class not here is not claimed: the probe says so instead of guessing.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "ridgeline/kernels/ceilings.hpp"

namespace ridgeline {

namespace {

struct CoreDesign {
  const char* name;
  const char* vendor;      // CPUID vendor; "ARM" for Arm Ltd. cores (MIDR implementer 0x41)
  int family;              // display family (Arm: 0)
  int model_lo, model_hi;  // display models (Arm: the MIDR part number)
  int fma_units;           // FMA pipes per core
  int fma_bits;            // the width each executes in one pass (a wider op takes passes)
  int widest_bits;         // the widest vector the ISA has (a 512-bit op on 256-bit pipes
                           // issues at half rate)
  bool fp16_fma = false;   // fp16 FMA on the same pipes at twice the f32 lanes (AVX512-FP16;
                           // Arm's FMLA .8h)
  int amx_bf16_flops = 0;  // the AMX tile unit's bf16 FLOPs a cycle (int8: twice); 0: none
  // Arm: fma_units and fma_bits are the FP/ASIMD pipes scalar FMADD and Advanced SIMD FMLA
  // issue to; SVE's FMLA may issue to fewer, wider ones (Neoverse V1 fuses pairs).
  int sve_units = 0;  // pipes an SVE FMLA issues to; 0: no SVE
  int sve_bits = 0;   // the vector length they execute in one pass
};

// Rows cite their source; the FMA figures only (bf16 dot products and matrix multiplies, and
// int8 VNNI, SDOT and SMMLA rates, are not claimed for any design).
const CoreDesign kDesigns[] = {
    // AMD, "Software Optimization Guide for AMD Family 17h Models 30h and Greater" (56305):
    // Zen 2, two 256-bit FMA pipes.
    {"AMD Zen 2", "AuthenticAMD", 0x17, 0x30, 0xff, 2, 256, 256},
    // AMD, "Software Optimization Guide for AMD Family 19h Processors" (56665): Zen 3, two
    // 256-bit FMA pipes.
    {"AMD Zen 3", "AuthenticAMD", 0x19, 0x00, 0x0f, 2, 256, 256},
    {"AMD Zen 3", "AuthenticAMD", 0x19, 0x20, 0x5f, 2, 256, 256},
    // AMD, "Software Optimization Guide for the AMD Zen4 Microarchitecture" (57647): two
    // 256-bit FMA pipes; a 512-bit FMA is executed as two halves.
    {"AMD Zen 4", "AuthenticAMD", 0x19, 0x10, 0x1f, 2, 256, 512},
    {"AMD Zen 4", "AuthenticAMD", 0x19, 0x60, 0x7f, 2, 256, 512},
    {"AMD Zen 4", "AuthenticAMD", 0x19, 0xa0, 0xaf, 2, 256, 512},
    // AMD, "Software Optimization Guide for the AMD Zen5 Microarchitecture" (58455): two
    // 512-bit FMA pipes (full-width AVX-512 on the server and desktop cores).
    {"AMD Zen 5", "AuthenticAMD", 0x1a, 0x00, 0x4f, 2, 512, 512},
    // Intel, "Intel 64 and IA-32 Architectures Optimization Reference Manual" (248966): two
    // 512-bit FMA units (ports 0+1 fused, and 5) on the Xeon cores of Ice Lake server,
    // Sapphire Rapids, Emerald Rapids and Granite Rapids. From Sapphire Rapids on (Golden Cove
    // and its successors), AVX512-FP16 on those units and the AMX tile unit: one TDPBF16PS
    // (16 x 32 by 32 x 16, 16,384 FLOPs) each 16 cycles, 1,024 bf16 FLOPs and 2,048 int8 OPs
    // a cycle (the manual's AMX chapter).
    {"Intel Ice Lake server", "GenuineIntel", 6, 0x6a, 0x6a, 2, 512, 512},
    {"Intel Ice Lake server", "GenuineIntel", 6, 0x6c, 0x6c, 2, 512, 512},
    {"Intel Sapphire Rapids", "GenuineIntel", 6, 0x8f, 0x8f, 2, 512, 512, true, 1024},
    {"Intel Emerald Rapids", "GenuineIntel", 6, 0xcf, 0xcf, 2, 512, 512, true, 1024},
    {"Intel Granite Rapids", "GenuineIntel", 6, 0xad, 0xae, 2, 512, 512, true, 1024},
    // Arm, "Arm Neoverse N2 Software Optimization Guide": two 128-bit FP/ASIMD/SVE2 pipes
    // (V0, V1); FMADD, ASIMD FMLA (all element sizes) and SVE FMLA issue to both; SVE is
    // 128 bits wide.
    {"Arm Neoverse N2", "ARM", 0, 0xd49, 0xd49, 2, 128, 128, true, 0, 2, 128},
    // Arm, "Arm Neoverse V1 Software Optimization Guide": four 128-bit FP/ASIMD pipes
    // (V0-V3), to which FMADD and ASIMD FMLA (all element sizes) issue; SVE FMLA issues to
    // V0 and V1 only, at 256 bits (the same FLOPs a cycle). As LLVM's scheduling model
    // AArch64SchedNeoverseV1.td, taken from that guide, has them.
    {"Arm Neoverse V1", "ARM", 0, 0xd40, 0xd40, 4, 128, 128, true, 0, 2, 256},
    // Arm, "Arm Neoverse V2 Software Optimization Guide": four 128-bit FP/ASIMD/SVE2 pipes
    // (V0-V3); FMADD, ASIMD FMLA (all element sizes) and SVE FMLA issue to all four; SVE is
    // 128 bits wide.
    {"Arm Neoverse V2", "ARM", 0, 0xd4f, 0xd4f, 4, 128, 128, true, 0, 4, 128},
};

// A core a hypervisor reports under another family and model (the AMX VM says family 6 model
// 0xA7, a desktop part's number) is known by its features where they name one design class:
// AMX-BF16 is on Intel's Golden Cove-derived server cores alone (Sapphire, Emerald and Granite
// Rapids), each with the rates of the rows above.
const CoreDesign kAmxServerCore = {
    "Intel Golden Cove-class server core (identified by its AMX-BF16, not its family and model)",
    "GenuineIntel",
    0,
    0,
    0,
    2,
    512,
    512,
    true,
    1024};

const CoreDesign* design_of(const CpuIdentity& cpu) {
  for (const CoreDesign& d : kDesigns)
    if (cpu.vendor == d.vendor && cpu.family == d.family && cpu.model >= d.model_lo &&
        cpu.model <= d.model_hi)
      return &d;
  if (cpu.vendor == "GenuineIntel" && cpu.amx_bf16) return &kAmxServerCore;
  return nullptr;
}

// The fixed vector width of an x86 or Advanced SIMD class; 0 for scalar and SVE (whose width is
// the process's, below) and for the dot-product and matrix classes.
int vector_bits(const std::string& isa) {
  if (isa == "avx2") return 256;
  if (isa == "avx512") return 512;
  if (isa == "neon" || isa == "neon_fp16") return 128;
  return 0;
}

bool arm_isa(const std::string& isa) {
  return isa.rfind("neon", 0) == 0 || isa.rfind("sve", 0) == 0;
}
bool arm_design(const CoreDesign& d) {
  return std::string_view(d.vendor) == "ARM";
}

double lane_bits_of(const std::string& dtype) {
  if (dtype == "f64") return 64;
  if (dtype == "f32") return 32;
  if (dtype == "f16") return 16;
  return 0;
}

// SVE's FMLA at the vector length the spec ran at: its FLOPs an instruction are 2 x lanes, so
// the length is read back from them. Claimed only at the design's own SVE width: a process
// that shortened its vector length (prctl) runs at a rate no guide gives.
std::optional<double> sve_ops_per_cycle(const CoreDesign& d, const PeakSpec& spec, double lane_bits,
                                        std::string& why) {
  const double bits = spec.ops_per_instruction / 2 * lane_bits;
  if (d.sve_units == 0 || bits != d.sve_bits) {
    why = fmt::format("the issue rate of {} at {:g}-bit vectors on {} is not in the table{}",
                      spec.name, bits, d.name,
                      d.sve_units ? fmt::format(" (its SVE is {} bits wide)", d.sve_bits) : "");
    return std::nullopt;
  }
  return 2.0 * d.sve_units * (d.sve_bits / lane_bits);
}

}  // namespace

std::string core_design_name(const CpuIdentity& cpu) {
  const CoreDesign* d = design_of(cpu);
  return d ? d->name : "";
}

std::optional<double> design_ops_per_cycle(const CpuIdentity& cpu, const PeakSpec& spec,
                                           std::string& why) {
  const CoreDesign* d = design_of(cpu);
  if (!d) {
    const std::string who =
        cpu.implementer >= 0  // AArch64: the MIDR's implementer and part
            ? fmt::format("{} part {:#x} (MIDR implementer {:#04x})", cpu.vendor, cpu.model,
                          cpu.implementer)
            : fmt::format("{} family {:#x} model {:#x}", cpu.vendor, cpu.family, cpu.model);
    why = fmt::format("{} is not in the design table (kernels/src/ceilings/core_designs.cpp)", who);
    return std::nullopt;
  }
  if (spec.isa == "amx_bf16" && d->amx_bf16_flops > 0) return d->amx_bf16_flops;
  if (spec.isa == "amx_int8" && d->amx_bf16_flops > 0) return 2.0 * d->amx_bf16_flops;
  if (spec.isa == "avx512_fp16" && d->fp16_fma)  // 32 fp16 lanes an FMA, two FLOPs each
    return 2.0 * d->fma_units * (512 / 16) / std::max(1, 512 / d->fma_bits);
  const double lane_bits = lane_bits_of(spec.dtype);
  const bool fma_class = lane_bits > 0 && (spec.dtype != "f16" || d->fp16_fma);
  // x86 classes on x86 designs, Arm's on Arm's.
  const bool same_architecture = arm_isa(spec.isa) == arm_design(*d);
  if (fma_class && spec.isa == "scalar") return 2.0 * d->fma_units;  // one lane, FMA = 2
  if (fma_class && same_architecture && spec.isa == "sve")
    return sve_ops_per_cycle(*d, spec, lane_bits, why);
  const int bits = vector_bits(spec.isa);
  if (fma_class && same_architecture && bits > 0 && bits <= d->widest_bits) {
    // Passes per instruction: a 512-bit FMA on 256-bit pipes takes two.
    const double passes = std::max(1, bits / d->fma_bits);
    return 2.0 * d->fma_units * (bits / lane_bits) / passes;
  }
  why = fmt::format("the issue rate of {} on {} is not in the table", spec.name, d->name);
  return std::nullopt;
}

}  // namespace ridgeline
