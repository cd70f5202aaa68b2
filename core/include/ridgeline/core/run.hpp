#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/case_result.hpp"
#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

// 3: each result's role and family; 2: op params; 1: gemm shape. All three are read.
inline constexpr int kRunSchemaVersion = 3;

struct CacheDescription {
  std::string type;
  int level = 0;
  std::int64_t size = 0;
  int num_sharing = 0;
  bool operator==(const CacheDescription&) const = default;
};

struct CollectorStatus {
  std::string name;
  bool available = false;
  std::string reason;
  // From `ridgeline collectors --validate` on this machine: "trusted", "untrusted" (a
  // check of known work was off by more than its tolerance) or "" (not validated).
  std::string trust;
  std::string validation;  // the checks behind `trust`, in words
  // Whether the user asked for it (`--collect`, `--group`), not only run by default: a
  // collector asked for that did not run needs attention. Unknown in runs written before.
  std::optional<bool> requested;
  bool operator==(const CollectorStatus&) const = default;
};

// How a run was made, enough to make it again: the settings, the command line and the
// build. Absent (empty) in runs written before it was recorded and in foreign files.
// An einsum network (three or more operands) whose contraction paths' steps the run holds as
// einsum cases: the einsum suite's chains, or `ridgeline einsum` given one. The reports
// measure its paths from those cases.
struct EinsumNetworkRun {
  std::string equation, extents;
  bool operator==(const EinsumNetworkRun&) const = default;
};

struct RunProvenance {
  std::string suite;
  std::uint64_t seed = 0;
  int repetitions = 0;
  double min_time_s = 0;        // per repetition...
  std::int64_t iterations = 0;  // ...or, when not 0, a fixed count (--min-time Nx)
  double warmup_s = 0;
  double case_timeout_s = 0;
  std::vector<std::string> command_line;
  std::string commit;    // git describe of the source tree built
  std::string compiler;  // "GNU 12.2.0"
  std::string flags;
  std::vector<EinsumNetworkRun> einsum_networks;
  bool operator==(const RunProvenance&) const = default;
};

// What else the machine did while a run was timed, from /proc/stat (all CPUs) less this
// run's own CPU time (/proc/self/stat, its children included).
struct MachineLoad {
  double wall_s = 0;        // from the first case's start to the last one's end
  double others_cpu_s = 0;  // CPU time of every other process in that interval
  double steal_s = 0;       // time the hypervisor gave this VM's CPUs to others
  int cpus = 0;             // online CPUs
  // The core clock measured just before the first case and just after the last one (an
  // add chain on the calling thread); 0 where not measured.
  double clock_start_hz = 0, clock_end_hz = 0;
  bool operator==(const MachineLoad&) const = default;
};

// One process of a run under MPI (mpirun, srun): where it ran and how it ended. A run of one
// process has none.
struct RankContext {
  int rank = 0;
  std::string host;
  int node = 0;           // its host's index among the run's hosts, numbered in rank order
  int local_rank = 0;     // among the ranks on its host
  std::vector<int> cpus;  // the CPUs it ran on (its share of the host)
  // "finished", "interrupted", or why its results are missing ("died: ..."): a rank whose
  // results did not reach rank 0 is named here, never left out.
  std::string outcome = "finished";
  std::optional<MachineModel> machine;  // its host's probed model, on each host's first rank
  // The GPUs it was given (CUDA_VISIBLE_DEVICES), its share of the host's; empty where the
  // host has none or the launcher chose them.
  std::vector<int> gpus{};
  bool operator==(const RankContext&) const = default;
};

// Google Benchmark's "context" plus Ridgeline's own block.
struct RunContext {
  std::string date;
  std::string host_name;
  std::string executable;
  int num_cpus = 0;
  double mhz_per_cpu = 0;
  bool cpu_scaling_enabled = false;
  std::vector<CacheDescription> caches;
  std::vector<double> load_avg;
  std::string library_build_type = "release";
  std::string library_version;  // Google Benchmark >= 1.9 writes it ("v1.9.5"); else empty
  // Ridgeline's block; absent in foreign Google Benchmark output.
  bool has_ridgeline = false;
  int schema = kRunSchemaVersion;
  std::string version;
  std::string cpu_model;
  std::vector<std::string> isa;
  std::vector<CollectorStatus> collectors;
  std::optional<MachineModel> machine;      // the probed ceilings this run was made under
  bool interrupted = false;                 // the run was stopped before its plan finished
  std::optional<MachineLoad> machine_load;  // absent where /proc could not be read
  RunProvenance provenance;
  std::vector<RankContext> ranks;  // under MPI: every rank of the job, in rank order
  bool operator==(const RunContext&) const = default;
};

struct Run {
  RunContext context;
  std::vector<CaseResult> benchmarks;
  // What reading the file left out or had to assume ("the journal's last line was cut by a
  // kill: left out"); never written.
  std::vector<std::string> notes;
  bool operator==(const Run&) const = default;
};

}  // namespace ridgeline
