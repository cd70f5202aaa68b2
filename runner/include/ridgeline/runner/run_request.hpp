#pragma once
// One request, one path: every way of running cases (`ridgeline run`, `profile`, `einsum`,
// a rank of an MPI job, the Python module) fills a RunRequest with what the user asked,
// parsed but unchecked; make_plan checks all of it once, against this machine, and gives
// the plan that run_plan executes — or every problem, each naming its option.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/kernels/catalog.hpp"
#include "ridgeline/runner/plan.hpp"
#include "ridgeline/runner/runner.hpp"
#include "ridgeline/runner/suites.hpp"

namespace ridgeline {

struct RunRequest {
  PlanRequest cases;                // which cases: suite, filter, backends, dtypes, ..., --params
  std::vector<std::string> shapes;  // --shape: "N" or "MxNxK", each a params override
  // The einsum networks whose steps the params are (`ridgeline einsum` given one), recorded
  // in the Run; otherwise the suite's own when it runs as defined.
  std::vector<EinsumNetworkRun> einsum_networks;
  std::optional<int> repetitions;       // default: the suite's
  std::optional<std::string> min_time;  // "0.5", "0.5s" or "100x" (iterations); the suite's
  double warmup_s = RunSettings{}.warmup_s;
  double case_timeout_s = RunSettings{}.case_timeout_s;
  std::uint64_t seed = RunSettings{}.seed;
  bool interleave = false;
  bool isolate = true;               // each case in a child process
  std::vector<std::string> collect;  // --collect items, e.g. "perf:page-faults"
  std::string group;                 // --group NAME: a counter group of collectors/groups
  bool strict = false;               // an event asked for that cannot be counted here is a problem
  std::vector<std::string> blas_libs;  // --blas-lib: CBLAS libraries joining the discovered
  // Under a launcher: the rank and host every row is stamped with (RunSettings::origin).
  std::optional<RankOrigin> origin;
};

struct RunPlan {
  KernelCatalog catalog;        // this machine's kernels, the user's BLAS libraries among them
  std::vector<CaseSpec> cases;  // never empty
  RunSettings settings;         // the request's, the suite's defaults filled in
  const SuiteDefinition* suite = nullptr;
  std::vector<EinsumNetworkRun> einsum_networks;  // for the Run's provenance
  // Said before the run: what was asked and cannot be counted here (without --strict), and
  // what this environment changed (under likwid-perfctr -m, cases run in this process).
  std::vector<UncountedItem> uncounted;
  std::vector<std::string> notices;
};

// Checks the whole request and plans it. Throws InputError listing every problem found
// (each naming its option, "; " between them) before anything is measured. `add_kernels`
// adds kernels that live above the runner (the cluster's collectives) to the catalog.
RunPlan make_plan(const RunRequest& request,
                  const std::function<void(KernelCatalog&)>& add_kernels = {});

// What a Run says of how it was made, beside the build's commit and flags (RunProvenance):
// the plan's suite, seed and timing, its einsum networks, and the command line (or the
// Python call) that asked for it.
void record_provenance(RunProvenance& p, const RunPlan& plan,
                       std::vector<std::string> command_line);

// Whether the request's cases run each in a child process: as asked, except under
// likwid-perfctr -m, whose file never sees a forked child's marker regions.
bool runs_isolated(const RunRequest& request);

// Google Benchmark's --benchmark_min_time forms: "0.5" or "0.5s" (seconds per repetition),
// "100x" (a fixed number of iterations). Throws InputError naming `option`.
struct MinTime {
  std::optional<double> seconds;
  std::optional<long long> iterations;
};
MinTime parse_min_time(const std::string& text, const std::string& option);

}  // namespace ridgeline
