#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"

namespace ridgeline {

// Which memory ceilings the probe measures again with likwid-bench (docs/roofline.md).
enum class ProbeCheck {
  none,
  read_copy_one_thread,  // the default: each level's 1-thread read and copy (about 9 s)
  all,                   // every memory ceiling, every thread count (probe --check)
};

struct ProbeOptions {
  double seconds_per_measurement = 0.05;  // each trial of each ceiling
  int trials = 3;                         // the best is kept
  // A regex over ceiling names ("f64.avx512.fma", "DRAM.copy", "call"): only those that
  // match are measured (the clock always is). Empty: all. A partial probe is not cached.
  std::string only;
  bool verbose = false;  // progress also gets every point of the memory sweeps
  ProbeCheck check = ProbeCheck::read_copy_one_thread;
};

using ProbeProgress = std::function<void(const std::string& line)>;

// Measures every ceiling of this machine in this process (it starts OpenMP threads: call
// it in a child, see probe_machine_isolated, from a process that forks later).
MachineModel probe_machine(const ProbeOptions& options, const ProbeProgress& progress);
MachineModel probe_machine_isolated(const ProbeOptions& options, const ProbeProgress& progress);

// CPU model, vendor/family/model, cores, ISA flags and memory size, hashed: what makes two
// machines' ceilings comparable. Computed without measuring anything.
std::string machine_fingerprint();

// The cache sizes kernels block for on the machine of `machine`: `reported` (hwloc's), with
// each level whose size the probe's sweeps replaced on repeated evidence (a VM reporting the
// host's L3) replaced by the measured capacity, as cache_bytes_for_placement places working sets;
// the source names the levels replaced. Pass it to use_cache_sizes before cases run.
CacheSizes cache_sizes_for_kernels(const MachineModel& machine, const CacheSizes& reported);

// $XDG_CACHE_HOME/ridgeline (or ~/.cache/ridgeline)/machine-<host>-<fingerprint>.json: one per
// host, so that the nodes of a cluster sharing a home directory each keep their own. With
// neither variable set, under $TMPDIR (or /tmp); an InputError naming the variables where that
// is no writable directory either.
std::filesystem::path machine_cache_path();

// This machine's cached model, or nullopt and `why` not: none cached, or the file refused
// (its name and the field: a cache is checked like any input), or another machine's.
std::optional<MachineModel> cached_machine(std::string& why);

// The cached model of this machine, or a fresh probe written to the cache (a cache that is
// there but not used is said through `progress`, with why); `force` re-measures; a partial probe
// (options.only) is measured and never cached. Of two probes running at once, the first to finish
// is cached and the other is used only by its own command (it says so through `progress`): the
// cache is always one whole model.
enum class CacheOutcome { from_cache, cached, not_cached };
MachineModel cached_or_probed_machine(bool force, const ProbeOptions& options,
                                      const ProbeProgress& progress, CacheOutcome& outcome);

// The cache file's modification time, if it exists: taken when a probe starts.
std::optional<std::filesystem::file_time_type> cache_stamp(const std::filesystem::path& cache);
// Writes `m` to the cache (atomically, under a lock) unless the cache changed since
// `seen_at_start`: then another probe finished first, it stays, and `progress` says so.
CacheOutcome commit_to_cache(const std::filesystem::path& cache, const MachineModel& m,
                             std::optional<std::filesystem::file_time_type> seen_at_start,
                             const ProbeProgress& progress);

// This machine's model for a run: the cached one, or a probe when none is cached (unless
// `probe_if_missing` is false), its progress on stderr; `origin` says which, or why there is
// none. `ridgeline run`, `profile` and the Python module ask here.
struct MachineChoice {
  std::optional<MachineModel> model;
  std::string origin;
};
MachineChoice this_machine(bool probe_if_missing, bool force);

}  // namespace ridgeline
