#pragma once
// A network's contraction paths, measured: each path's steps are two-operand einsums, run as
// cases of the einsum suite; a path's time is the sum over its steps of the fastest lowering
// that ran each step, set beside its predicted FLOPs, so the report can say whether the
// FLOP-optimal path is also the fastest here.
#include <string>
#include <vector>

#include "ridgeline/analysis/einsum_comparison.hpp"
#include "ridgeline/core/ops/einsum_path.hpp"

namespace ridgeline {

struct MeasuredStep {
  std::string equation, extents;  // the step as a case: "ij,jk->ik", "i=1000,j=10,k=1000"
  std::string best;               // its fastest lowering; empty where none ran
  double seconds = 0;             // that lowering's time per call
  double achieved = 0;            // its FLOP/s
  Bound bound;                    // where it sat on the roofline
  double framework_seconds = 0;   // the framework lowering's (TTGT) time; 0 where it did not run
  // The least time the roofline allows it: its FLOPs at the roof at its compulsory intensity
  // (each operand and its result once); 0 without ceilings.
  double roof_seconds = 0;
};

struct MeasuredPath {
  std::string how;          // "optimal", "greedy", "left to right"
  bool as_written = false;  // the order written (EinsumPath::as_written)
  bool runner_up = false;   // a next cheapest path (EinsumPath::runner_up)
  double flops = 0;
  double bytes = 0;            // each step's operands and result once, summed (predicted)
  double flops_vs_fewest = 0;  // its FLOPs over the fewest of the paths
  std::vector<MeasuredStep> steps;
  bool complete = false;  // every step ran
  double seconds = 0;     // summed over the steps, where complete
  double vs_fastest = 0;  // its time over the fastest complete path's
  // The framework lowering (TTGT) at every step, summed; 0 unless it ran every step.
  double framework_seconds = 0;
  // Its steps' least times under the roofline, summed: the prediction from its FLOPs and
  // bytes together; 0 unless every step has one.
  double roof_seconds = 0;
};

// The paths as einsum_paths gives them (fewest FLOPs first), each step looked up among the
// comparisons of one dtype and thread count.
std::vector<MeasuredPath> measure_paths(const EinsumNetwork& n,
                                        const std::vector<EinsumPath>& paths,
                                        const std::vector<EinsumComparison>& comparisons);

// One line: the fastest path (the fastest lowering at each step) against what a framework
// runs, TTGT at each step of the order written; "" where either did not run.
std::string framework_verdict(const std::vector<MeasuredPath>& paths);

// One line: whether the path with the fewest FLOPs ran the fastest, or by how much another
// beat it and at which of its steps (the bound there).
std::string paths_verdict(const std::vector<MeasuredPath>& paths);

// One line where the roofline predicts another path than the fewest FLOPs (its bytes make
// a step memory-bound): which, by how much, and whether the measurement agreed; "" where
// the two predictions agree or a path has no roofline time.
std::string roof_verdict(const std::vector<MeasuredPath>& paths);

// Each network the Run records (provenance.einsum_networks) measured from its step cases,
// once per dtype and thread count its steps ran at (paths as einsum_paths gives them).
struct EinsumNetworkComparison {
  std::string equation, extents, dtype;
  int threads = 1;
  Device device = Device::cpu;  // every step's lowerings on this device
  std::vector<MeasuredPath> paths;
  std::string verdict;    // paths_verdict
  std::string framework;  // framework_verdict
  std::string roof;       // roof_verdict
  std::string error;      // the recorded network is not one (a hand-edited file): why
};
std::vector<EinsumNetworkComparison> einsum_network_comparisons(
    const Run& run, const std::vector<EinsumComparison>& comparisons);

}  // namespace ridgeline
