#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridgeline/core/fp_env.hpp"
#include "ridgeline/core/metric.hpp"
#include "ridgeline/core/problem.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/core/work_model.hpp"

namespace ridgeline {

struct Validation {
  Disposition disposition = Disposition::not_verified;
  double max_rel_err = 0;  // largest error seen, relative to sum |a||b| of that entry
  double tolerance = 0;    // bound it was held to
  std::string method;      // "direct" or "freivalds+sampled"
  std::string message;     // why it failed or did not run
  bool operator==(const Validation&) const = default;
};

// Which process of a run under MPI (mpirun, srun) measured a result: its rank in the job
// and the host it ran on. Absent in a run of one process.
struct RankOrigin {
  int rank = 0;
  std::string host;
  bool operator==(const RankOrigin&) const = default;
};

// Ridgeline's block attached to one Google Benchmark result entry.
struct CaseDetails {
  std::string backend;          // e.g. "cpu.packed_avx512"
  Device device = Device::cpu;  // whose ceilings place it
  KernelRole role = KernelRole::ladder;
  std::string family;  // vocabulary.hpp: a fused/unfused pair's stem, "blas", or ""
  // Where its arithmetic ran ("compute_unit" in the JSON; files before it: the device's
  // general-purpose unit).
  ComputeUnit compute_unit = ComputeUnit::vector;
  Problem problem;
  int threads = 1;
  FpEnv fp_env = FpEnv::ieee;
  CacheState cache = CacheState::warm;  // "cache" in the JSON, written when cold
  WorkModel work;
  std::vector<Metric> metrics;
  Validation validation;
  std::map<std::string, std::string> kernel_notes;  // e.g. micro-kernel name, BLAS path
  // An einsum kernel's lowering: its kind and its steps ("lowering" in the JSON; results
  // written before it: inferred_lowering, in the reader). Absent for other ops' kernels.
  std::optional<Lowering> lowering;
  std::optional<RankOrigin> origin;  // "rank" and "host" in the JSON
  bool operator==(const CaseDetails&) const = default;
};

// One entry of the Run's "benchmarks" array, in Google Benchmark's own JSON shape.
struct CaseResult {
  std::string name;
  std::string run_name;
  std::string run_type = "iteration";  // or "aggregate"
  std::string aggregate_name;          // "mean", "median", "stddev", "cv" for aggregates;
                                       // "BigO", "RMS" for Complexity() fits (no times)
  std::string aggregate_unit;          // "time", or "percentage" (cv: a plain fraction)
  std::int64_t family_index = 0;
  std::int64_t per_family_instance_index = 0;
  std::int64_t repetitions = 1;
  std::int64_t repetition_index = 0;
  std::int64_t threads = 1;
  std::int64_t iterations = 0;
  // Per iteration in `time_unit`; NaN where Google Benchmark wrote none or NaN (not measured).
  double real_time = 0;
  double cpu_time = 0;
  std::string time_unit = "ms";
  bool error_occurred = false;
  std::string error_message;
  bool skipped = false;  // Google Benchmark >= 1.8: state.SkipWithMessage
  std::string skip_message;
  // User counters, e.g. "flops" (per second); NaN or infinite where Google Benchmark wrote so.
  std::map<std::string, double> counters;
  std::optional<CaseDetails> ridgeline;  // absent in foreign Google Benchmark output
  bool operator==(const CaseResult&) const = default;
};

}  // namespace ridgeline
