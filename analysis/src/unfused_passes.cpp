// Each unfused chain pass by pass: the kernel's laps (timed) against the op's pass model
// (analytic), each pass placed on the chain's own roof.
#include "ridgeline/analysis/unfused_passes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "fusion_cases.hpp"
#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

namespace {

// Each case's timed repetitions (iteration rows without an error), by case name: built once,
// so that a run of many unfused cases is read in one pass.
using Repetitions = std::map<std::string, std::vector<const CaseDetails*>>;

Repetitions repetitions_by_case(const Run& run) {
  Repetitions out;
  for (const auto& r : run.benchmarks)
    if (r.run_type == "iteration" && !r.error_occurred && r.ridgeline)
      out[r.run_name.empty() ? r.name : r.run_name].push_back(&*r.ridgeline);
  return out;
}

// The value of `metric` in each timed repetition of the case named `name`.
std::vector<double> repetition_values(const Repetitions& reps, const std::string& name,
                                      const std::string& metric) {
  std::vector<double> out;
  const auto it = reps.find(name);
  if (it == reps.end()) return out;
  for (const CaseDetails* d : it->second)
    for (const auto& m : d->metrics)
      if (m.name == metric && usable(m.value)) out.push_back(m.value);
  return out;
}

// Where the pass sits on `roof` at `level`: its bound and the fraction of it reached.
void place_pass(PassPoint& p, const Roof& roof, const std::string& level) {
  const auto memory = roof.memory.find(level);
  if (memory == roof.memory.end()) return;
  // A pass without FLOPs (a mask) is bound by its bytes alone.
  const Attainable a = p.intensity > 0 ? attainable(roof, {{level, p.intensity}})
                                       : Attainable{0, Bound::memory(level), level};
  if (a.bound.is_compute() && roof.compute) {
    p.bound = a.bound;
    p.roof = p.achieved / roof.compute->per_second;
  } else if (a.bound == Bound::memory(level)) {
    p.bound = a.bound;
    p.roof = p.bandwidth / memory->second.bytes_per_s;
  }
  if (!usable(p.roof)) {
    p.bound = {};
    p.roof = 0;
  }
  p.below_floor = p.roof > 0 && p.roof < kPassRoofFloor;
}

UnfusedChain make_chain(const Repetitions& reps, const RooflinePlacement& p, std::size_t index,
                        const CaseDetails& d, const std::vector<PassWork>& model,
                        const MachineModel* machine) {
  UnfusedChain c;
  c.placement = index;
  c.name = p.name;
  c.backend = p.backend;
  c.op = d.problem.op;
  c.params = p.params;
  c.dtype = p.dtype;
  c.pattern = d.problem.pattern;
  c.device = d.device;
  c.threads = d.threads;
  c.level = detail::comparison_level(p);  // the placement's: the chain's footprint decides it
  c.case_seconds = p.placeable ? p.seconds : 0;
  const Roof roof =
      machine ? roof_for(*machine, p.dtype, p.threads, p.device, p.compute_unit) : Roof{};
  for (std::size_t i = 0; i < model.size(); ++i) {
    std::vector<double> seconds =
        repetition_values(reps, p.name, pass_time_metric(i, model[i].name));
    PassPoint pass;
    pass.name = model[i].name;
    pass.flops = model[i].work.flops;
    pass.bytes = model[i].work.bytes_at(MemoryLevel::main);
    if (seconds.empty()) {
      c.notes.push_back(fmt::format("pass {} has no time in the results", pass.name));
      c.passes.push_back(pass);
      continue;
    }
    pass.seconds = median_of(std::move(seconds));
    pass.achieved = pass.flops / pass.seconds;
    pass.bandwidth = pass.bytes / pass.seconds;
    pass.intensity = pass.bytes > 0 ? pass.flops / pass.bytes : 0;
    if (!c.level.empty()) place_pass(pass, roof, c.level);
    c.passes_seconds += pass.seconds;
    c.passes.push_back(pass);
  }
  double memory_seconds = 0;
  for (auto& pass : c.passes) {
    if (c.passes_seconds > 0) pass.share = pass.seconds / c.passes_seconds;
    c.placed = c.placed || !pass.bound.empty();
    if (pass.bound.is_memory()) memory_seconds += pass.seconds;
    if (pass.below_floor)
      c.notes.push_back(
          fmt::format("{} runs at {:.2f} of its {} roof ({:.0f}% of the chain's time)", pass.name,
                      pass.roof, to_string(pass.bound), 100 * pass.share));
  }
  if (c.placed && c.passes_seconds > 0) c.memory_bound_share = memory_seconds / c.passes_seconds;
  if (!c.placed && c.passes_seconds > 0)
    c.notes.push_back(machine ? fmt::format("no {} ceiling to place the passes against",
                                            c.level.empty() ? "memory" : c.level)
                              : "no machine model: the passes are not placed");
  return c;
}

// The passes' modelled work the kernel recorded beside their times (pass_bytes.<i>.<name>,
// pass_flops.<i>.<name>), in order; empty for results written before it did.
std::vector<PassWork> recorded_passes(const Repetitions& reps, const std::string& name) {
  const auto it = reps.find(name);
  if (it == reps.end() || it->second.empty()) return {};
  std::map<std::size_t, PassWork> by_index;
  for (const auto& m : it->second.front()->metrics) {
    const bool bytes = m.name.rfind("pass_bytes.", 0) == 0;
    const bool flops = m.name.rfind("pass_flops.", 0) == 0;
    if (!bytes && !flops) continue;
    const std::string rest = m.name.substr(11);  // both prefixes are 11 characters
    const std::size_t dot = rest.find('.');
    if (dot == std::string::npos || dot == 0) continue;
    std::size_t index = 0;
    try {
      index = std::stoul(rest.substr(0, dot));
    } catch (const std::exception&) {
      continue;
    }
    PassWork& w = by_index[index];
    w.name = rest.substr(dot + 1);
    if (bytes)
      w.work.bytes[MemoryLevel::main] = m.value;
    else
      w.work.flops = m.value;
  }
  std::vector<PassWork> out;
  for (auto& [index, w] : by_index) {
    if (index != out.size() + 1) return {};  // a gap: not a chain this reader can place
    out.push_back(std::move(w));
  }
  return out;
}

// The chains of the cases `wanted` picks, each by its recorded pass model where it has one,
// else (an unfused case of an older run) by the op's.
template <typename Wanted>
std::vector<UnfusedChain> chains_where(const Run& run,
                                       const std::vector<RooflinePlacement>& placements,
                                       const MachineModel* machine, Wanted wanted) {
  const auto details = detail::case_details(run, placements);
  const Repetitions reps = repetitions_by_case(run);
  std::vector<UnfusedChain> out;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const CaseDetails* d = details[i];
    const RooflinePlacement& p = placements[i];
    if (!d || p.complexity_fit || !wanted(*d)) continue;
    std::vector<PassWork> model = recorded_passes(reps, p.name);
    if (model.empty() && d->role == KernelRole::unfused) {
      try {
        model = op_unfused_passes(d->problem);
      } catch (const std::exception&) {
        continue;  // an op this build does not know: the pair's notes say so
      }
    }
    // Only a case whose kernel lapped its passes: runs from before pass times, and vendor
    // chains that run inside one library call, have none.
    if (model.empty() ||
        repetition_values(reps, p.name, pass_time_metric(0, model.front().name)).empty())
      continue;
    out.push_back(make_chain(reps, p, i, *d, model, machine));
  }
  return out;
}

}  // namespace

std::vector<UnfusedChain> unfused_chains(const Run& run,
                                         const std::vector<RooflinePlacement>& placements,
                                         const MachineModel* machine) {
  return chains_where(run, placements, machine,
                      [](const CaseDetails& d) { return d.role == KernelRole::unfused; });
}

std::vector<UnfusedChain> lowering_chains(const Run& run,
                                          const std::vector<RooflinePlacement>& placements,
                                          const MachineModel* machine) {
  return chains_where(run, placements, machine,
                      [](const CaseDetails& d) { return d.role != KernelRole::unfused; });
}

}  // namespace ridgeline
