// A case's Ridgeline block and the result that stands for a case that was never timed.
#include "case_details.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/runner/runner.hpp"

namespace ridgeline {

CaseDetails details_for(const CaseSpec& spec, const WorkModel& work, const KernelInfo* info) {
  CaseDetails d;
  d.backend = spec.backend;
  d.device = info ? info->device : inferred_device(spec.backend);
  d.role = info ? info->role : inferred_role(spec.backend);
  d.family = info ? info->family : inferred_family(spec.backend);
  d.compute_unit = default_compute_unit(d.device);  // the kernel's own, once it is prepared
  if (info && info->lowering) d.lowering = Lowering{*info->lowering, {}};  // steps: prepared
  d.problem = spec.problem;
  d.threads = spec.threads;
  d.fp_env = spec.fp_env;
  // The device harness rotates operand copies past its L2 on every call: always cold.
  d.cache = d.device == Device::gpu ? CacheState::cold : spec.cache;
  d.work = work;
  d.metrics.push_back({"flops", work.flops, "FLOP", MetricSource::analytic});
  for (const auto& [level, bytes] : work.bytes)
    d.metrics.push_back({bytes_metric(level), bytes, "B", MetricSource::analytic});
  return d;
}

void record_how_it_ran(CaseDetails& d, const Kernel& kernel,
                       std::map<std::string, std::string> notes) {
  d.kernel_notes = std::move(notes);
  if (d.lowering) d.lowering->steps = kernel.lowering_steps();
}

std::string time_unit_for(const WorkModel& work, Device device) {
  const bool gpu = device == Device::gpu;
  double bytes = 0;
  for (const auto& [level, b] : work.bytes) bytes = std::max(bytes, b);
  const double expected =
      std::max(work.flops / (gpu ? 1e13 : 1e11), bytes / (gpu ? 1e12 : 1e10));  // seconds
  for (const auto& [unit, scale] : {std::pair{"s", 1.0}, {"ms", 1e3}, {"us", 1e6}})
    if (expected * scale >= 1000) return unit;
  return "ns";
}

CaseResult untimed_result(const CaseSpec& spec, Disposition disposition, const std::string& why,
                          const KernelInfo* info) {
  CaseResult r;
  r.name = spec.name();
  r.run_name = r.name;
  r.error_occurred = true;
  r.error_message = fmt::format("{}: {}", to_string(disposition), why);
  // What it would have moved, as it records when it runs (an unfused chain: its passes').
  r.ridgeline = details_for(
      spec, role_work(spec.problem, info ? info->role : inferred_role(spec.backend)), info);
  r.time_unit = time_unit_for(r.ridgeline->work, r.ridgeline->device);  // as when it runs
  r.ridgeline->validation.disposition = disposition;
  r.ridgeline->validation.message = why;
  return r;
}

}  // namespace ridgeline
