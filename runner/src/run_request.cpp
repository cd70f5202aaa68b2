// make_plan: a whole RunRequest checked once, against this machine, into the plan that
// run_plan executes.
#include "ridgeline/runner/run_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "request_problems.hpp"
#include "ridgeline/collectors/counter_group.hpp"
#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/kernels/ceilings.hpp"
#include "ridgeline/runner/blas_probe.hpp"

namespace ridgeline {

namespace {

std::optional<double> number_in(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// --group: its events join --collect, and its metrics are computed per repetition.
void add_counter_group(const std::string& name, RunSettings& settings) {
  const CpuIdentity cpu = cpu_identity();
  settings.group = load_counter_group(counter_groups_dir(),
                                      counter_group_arch(cpu.vendor, cpu.family, cpu.model), name,
                                      counter_group_cpu(cpu.vendor, cpu.family, cpu.model));
  for (const auto& e : settings.group->events) {
    const std::string item = e.collect_item();
    if (std::find(settings.collect.begin(), settings.collect.end(), item) == settings.collect.end())
      settings.collect.push_back(item);
  }
}

std::string uncounted_list(const std::vector<UncountedItem>& uncounted) {
  std::string list;
  for (const auto& u : uncounted)
    list += fmt::format("{}{} ({})", list.empty() ? "" : "; ", u.item, u.reason);
  return list;
}

}  // namespace

MinTime parse_min_time(const std::string& text, const std::string& option) {
  constexpr double kMaxSeconds = 3600;
  constexpr long long kMaxIterations = 1'000'000'000;
  MinTime t;
  if (!text.empty() && text.back() == 'x') {
    const std::optional<double> n = number_in(text.substr(0, text.size() - 1));
    if (!n || !std::isfinite(*n) || *n < 1 || *n > kMaxIterations || *n != std::floor(*n))
      throw InputError(
          fmt::format("{} {}: an iteration count must be a whole number from 1 to "
                      "{} followed by x (100x)",
                      option, text, kMaxIterations));
    t.iterations = static_cast<long long>(*n);
    return t;
  }
  const std::string number =
      !text.empty() && text.back() == 's' ? text.substr(0, text.size() - 1) : text;
  const std::optional<double> s = number_in(number);
  if (!s || !std::isfinite(*s) || *s <= 0 || *s > kMaxSeconds)
    throw InputError(
        fmt::format("{} {}: must be seconds above 0 and at most {:g} (0.5 or 0.5s), "
                    "or an iteration count (100x)",
                    option, text, kMaxSeconds));
  t.seconds = *s;
  return t;
}

bool runs_isolated(const RunRequest& request) {
  return request.isolate && !likwid_marker_active();
}

RunPlan make_plan(const RunRequest& request,
                  const std::function<void(KernelCatalog&)>& add_kernels) {
  RequestProblems problems;
  RunPlan plan;
  RunSettings& settings = plan.settings;
  settings.warmup_s = request.warmup_s;
  settings.case_timeout_s = request.case_timeout_s;
  settings.seed = request.seed;
  settings.interleave = request.interleave;
  settings.isolate = request.isolate;
  settings.collect = request.collect;
  settings.origin = request.origin;

  MinTime min_time;
  if (request.min_time)
    problems.check([&] { min_time = parse_min_time(*request.min_time, "--min-time"); });
  // --shape's sizes first, then --params, each an override of the suite's params.
  PlanRequest cases = request.cases;
  cases.params.clear();
  for (const auto& s : request.shapes)
    problems.check([&] { cases.params.push_back(parse_shape(s)); });
  cases.params.insert(cases.params.end(), request.cases.params.begin(), request.cases.params.end());
  if (!request.group.empty()) problems.check([&] { add_counter_group(request.group, settings); });
  // An unknown collector is a problem here, before anything runs.
  if (problems.check([&] { make_collectors(settings.collect); })) {
    plan.uncounted = uncounted_items(settings.collect);
    if (request.strict && !plan.uncounted.empty())
      problems.add(fmt::format("--strict: {} of the events asked for cannot be counted here: {}",
                               plan.uncounted.size(), uncounted_list(plan.uncounted)));
  }
  std::vector<BlasLibrarySpec> blas;
  problems.check([&] { blas = blas_libraries_for(request.blas_libs); });
  // A user library joins the suite's rungs unless --backend already chose.
  plan.catalog = KernelCatalog::with_builtin_kernels(blas);
  if (add_kernels) add_kernels(plan.catalog);
  problems.check([&] { plan.cases = plan_cases(plan.catalog, cases); });
  problems.throw_if_any();
  if (plan.cases.empty()) throw InputError("no case matches the given suite and filters");

  plan.suite = find_suite(cases.suite);
  settings.repetitions = request.repetitions.value_or(plan.suite->repetitions);
  settings.min_time_s = min_time.seconds.value_or(plan.suite->min_time_s);
  settings.iterations = min_time.iterations;
  if (settings.isolate && !runs_isolated(request)) {
    settings.isolate = false;
    plan.notices.push_back(
        "under likwid-perfctr -m: cases run in this process so LIKWID sees each one's marker "
        "region (a crashing kernel ends the run)");
  }
  plan.einsum_networks = request.einsum_networks;
  if (plan.einsum_networks.empty() && request.cases.params.empty() && request.shapes.empty() &&
      plan.suite->einsum_networks)
    plan.einsum_networks = plan.suite->einsum_networks();
  return plan;
}

void record_provenance(RunProvenance& p, const RunPlan& plan,
                       std::vector<std::string> command_line) {
  p.suite = plan.suite ? plan.suite->name : "";
  p.seed = plan.settings.seed;
  p.repetitions = plan.settings.repetitions;
  p.min_time_s = plan.settings.min_time_s;
  p.iterations = plan.settings.iterations.value_or(0);
  p.warmup_s = plan.settings.warmup_s;
  p.case_timeout_s = plan.settings.case_timeout_s;
  p.command_line = std::move(command_line);
  p.einsum_networks = plan.einsum_networks;
}

}  // namespace ridgeline
