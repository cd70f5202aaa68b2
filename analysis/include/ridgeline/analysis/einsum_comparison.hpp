#pragma once
// The einsum lowerings of one contraction side by side (issue: "what does this einsum cost
// on this machine, which lowering is best, and what is the notation hiding?"): each
// lowering's time, rate, bytes (the op's compulsory ones and those the lowering adds), its
// place under the roof, the best with its lead over the slowest and over what a framework
// runs (transpose-GEMM-transpose), and one line on what the notation hides. Built from the
// run's einsum cases and their placements; the printers format it.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/analysis/unfused_passes.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

struct EinsumLowering {
  std::string backend;
  // As its kernel declared it (vocabulary.hpp); none for a backend of no known lowering.
  std::optional<LoweringKind> kind;
  KernelRole role = KernelRole::ladder;  // ladder: our own code, the reference of its kind
  bool ran = false;                      // placed with a time
  std::size_t placement = 0;             // its index in the placements, where it ran
  std::string reason;     // why not: not supported here (its reason), failed, not placeable
  double seconds = 0;     // per call
  double achieved = 0;    // FLOP/s
  double attainable = 0;  // FLOP/s under the roof at its intensity; 0 without ceilings
  double efficiency = 0;  // achieved / attainable
  Bound bound;
  std::string level;
  double compulsory_bytes = 0;     // the op's: each operand once
  double added_bytes = 0;          // what this lowering moves beyond them (its work model)
  double vs_best = 0;              // its time over the best lowering's (1 for the best)
  std::vector<std::string> steps;  // how it ran, from its notes ("A: permuted bthr -> bhtr")
  // Its permute steps (its kernel says which), each as its note says it: "A permuted bthr ->
  // bhtr".
  std::vector<std::string> copies;
  // Its steps timed on their own where its kernel lapped them (TTGT: each permute, the
  // GEMM), each placed on the case's roof.
  std::optional<UnfusedChain> passes;
};

struct EinsumComparison {
  std::string equation, extents, dtype;
  int threads = 1;
  Device device = Device::cpu;  // the CPU's lowerings and the GPU's are compared apart
  double flops = 0;
  std::vector<EinsumLowering> lowerings;  // fastest first; those that did not run last
  std::string best, worst;                // backends; empty where none ran
  std::string framework;                  // the framework lowering's backend; empty if none
  double lead_over_worst = 0;             // worst's time over the best's
  double lead_over_framework = 0;         // the framework lowering's time over the best's
  std::string hides;                      // what the notation hides, one line
};

// The lowering a framework runs for a two-operand einsum (torch.einsum, NumPy's optimize
// path): permute to batched matrices, one batched GEMM, permute back. Our own (the ladder's
// TTGT, present on every machine and run on every equation) is the reference.
bool is_framework_lowering(const EinsumLowering& l);

std::vector<EinsumComparison> einsum_comparisons(const Run& run,
                                                 const std::vector<RooflinePlacement>& placed,
                                                 const MachineModel* machine);

}  // namespace ridgeline
