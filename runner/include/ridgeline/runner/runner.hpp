#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

#include "ridgeline/collectors/counter_group.hpp"
#include "ridgeline/core/run.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline {

struct RunSettings {
  int repetitions = 3;
  double min_time_s = 0.2;  // per repetition, as Google Benchmark's --benchmark_min_time
  std::optional<std::int64_t> iterations;  // a fixed count per repetition instead ("100x")
  double warmup_s = 0.05;                  // untimed run-up before the first repetition
  double case_timeout_s = 600;             // a case still running after this is killed: timed_out
  std::uint64_t seed = 20261121;
  bool isolate = true;  // run each case in a child process
  // Repetitions round-robin across the cases (round r runs every case once), so slow drift
  // of the machine and each child process's own layout spread over all cases' samples.
  bool interleave = false;
  std::vector<std::string> collect;  // --collect items, e.g. "perf:page-faults"
  // --group: its events are in `collect`; its metrics are computed per repetition.
  std::optional<CounterGroup> group;
  // Under a launcher, the rank and host every row is stamped with before it is journaled,
  // so that a rank's own files say whose results they hold.
  std::optional<RankOrigin> origin;
};

// Validates and times one case in this process: not_supported, incorrect (untimed), or
// one result per repetition plus Google Benchmark's aggregates.
std::vector<CaseResult> execute_case(const KernelCatalog& catalog, const CaseSpec& spec,
                                     const RunSettings& settings);

// Google Benchmark's time unit ("ns", "us", "ms", "s") for a case, chosen as a benchmark
// author picks Unit(): the largest in which the case's expected time per call reads at
// least 1000 (its work at a nominal 100 GFLOP/s and 10 GB/s on a CPU, 10 TFLOP/s and
// 1 TB/s on a GPU), else ns. From the work, not the measurement, so that a case has the same
// unit in every run: compare.py compares only rows of the same unit.
std::string time_unit_for(const WorkModel& work, Device device);

// FLOP per joule for each energy reading (`energy.<domain>`, joules over a repetition of
// `flops` FLOPs in all): `flop_per_joule.<domain>`, derived.
std::vector<Metric> energy_efficiency(const std::vector<Metric>& readings, double flops);

// A result standing for a case that produced no timing (crash, timeout, not supported...),
// its device, role and family from the kernel's `info` (guessed from the backend's name
// where no kernel answers to it).
CaseResult untimed_result(const CaseSpec& spec, Disposition disposition, const std::string& why,
                          const KernelInfo* info = nullptr);

// A collective case (KernelInfo::ranks) that failed at this rank after its ranks agreed to
// run it: a throw in run() leaves the other ranks inside a call this rank will not make, and
// none of its later calls would be matched to theirs, so the rank cannot go on with the
// plan. execute_case throws it; run_plan journals `result` (crashed, with why) and throws it
// on; the caller ends the job (ridgeline run under a launcher: cluster/collective_watch.hpp).
struct CollectiveLeft : std::runtime_error {
  explicit CollectiveLeft(CaseResult r);
  CaseResult result;
};

struct RunObserver {
  std::function<void(std::size_t index, std::size_t total, const CaseSpec&)> case_started;
  std::function<void(std::size_t index, std::size_t total, const CaseSpec&,
                     const std::vector<CaseResult>&)>
      case_finished;
};

// Runs a plan case by case. Each finished case is appended to `journal` (JSON lines)
// before the next starts; the returned Run holds every case that finished. Stops early,
// marking the run interrupted, when `interrupted` becomes true. A collective case left
// part-way at this rank is journaled and thrown (CollectiveLeft): the plan cannot go on.
Run run_plan(const KernelCatalog& catalog, const std::vector<CaseSpec>& plan,
             const RunSettings& settings, const std::optional<std::filesystem::path>& journal,
             const RunObserver& observer, const std::atomic<bool>* interrupted = nullptr);

// Google Benchmark's context for this machine plus Ridgeline's block.
RunContext current_context();

}  // namespace ridgeline
