// Each unfused chain pass by pass: the kernel's laps (timed) against the op's pass model
// (analytic), each pass placed on the chain's own roof.
#include "ridgeline/analysis/unfused_passes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "fusion_cases.hpp"
#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/memory_levels.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/op.hpp"

namespace ridgeline {

namespace {

// The value of `metric` in each timed repetition of the case named `name`.
std::vector<double> repetition_values(const Run& run, const std::string& name,
                                      const std::string& metric) {
  std::vector<double> out;
  for (const auto& r : run.benchmarks) {
    if (r.run_type != "iteration" || r.error_occurred || !r.ridgeline) continue;
    if ((r.run_name.empty() ? r.name : r.run_name) != name) continue;
    for (const auto& m : r.ridgeline->metrics)
      if (m.name == metric && usable(m.value)) out.push_back(m.value);
  }
  return out;
}

// Where the pass sits on `roof` at `level`: its bound and the fraction of it reached.
void place_pass(PassPoint& p, const Roof& roof, const std::string& level) {
  const auto memory = roof.memory.find(level);
  if (memory == roof.memory.end()) return;
  // A pass without FLOPs (a mask) is bound by its bytes alone.
  const Attainable a =
      p.intensity > 0 ? attainable(roof, {{level, p.intensity}}) : Attainable{0, level, level};
  if (a.bound == "compute" && roof.compute) {
    p.bound = "compute";
    p.roof = p.achieved / roof.compute->per_second;
  } else if (a.bound == level) {
    p.bound = level;
    p.roof = p.bandwidth / memory->second.bytes_per_s;
  }
  if (!usable(p.roof)) {
    p.bound.clear();
    p.roof = 0;
  }
  p.below_floor = p.roof > 0 && p.roof < kPassRoofFloor;
}

// The level a chain's passes stream from. A call touches at least its operands and each
// pass's inputs and outputs (at least half its bytes: an in-place pass reads and writes one
// buffer); where that exceeds the last cache, every pass is read at DRAM, even when the
// operands alone would fit a cache (attention's scores evict them between calls).
std::string chain_level(const RooflinePlacement& p, const std::vector<PassWork>& model,
                        const MachineModel* machine, std::vector<std::string>& notes) {
  const std::string level = detail::comparison_level(p);
  if (!machine || p.device == "gpu" || level == "DRAM" || level.empty()) return level;
  double footprint = 0;
  for (const auto& pass : model)
    if (const auto it = pass.work.bytes.find("dram"); it != pass.work.bytes.end())
      footprint = std::max(footprint, it->second / 2);
  const std::int64_t last = cache_bytes_for_placement(*machine, "L3");
  if (last <= 0 || footprint <= static_cast<double>(last)) return level;
  notes.push_back(fmt::format(
      "the case is placed at {} by its operands; its passes touch at least {:.1f} MiB per call, "
      "more than the L3, so they are read at DRAM",
      level, footprint / (1 << 20)));
  return "DRAM";
}

UnfusedChain make_chain(const Run& run, const RooflinePlacement& p, std::size_t index,
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
  c.level = chain_level(p, model, machine, c.notes);
  c.case_seconds = p.placeable ? p.seconds : 0;
  const Roof roof = machine ? roof_for(*machine, p.dtype, p.threads, p.device) : Roof{};
  for (std::size_t i = 0; i < model.size(); ++i) {
    std::vector<double> seconds =
        repetition_values(run, p.name, pass_time_metric(i, model[i].name));
    PassPoint pass;
    pass.name = model[i].name;
    pass.flops = model[i].work.flops;
    const auto bytes = model[i].work.bytes.find("dram");
    pass.bytes = bytes == model[i].work.bytes.end() ? 0 : bytes->second;
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
  bool placed = false;
  for (auto& pass : c.passes) {
    if (c.passes_seconds > 0) pass.share = pass.seconds / c.passes_seconds;
    placed = placed || !pass.bound.empty();
    if (!pass.bound.empty() && pass.bound != "compute") memory_seconds += pass.seconds;
    if (pass.below_floor)
      c.notes.push_back(fmt::format(
          "{} runs at {:.2f} of its {} roof ({:.0f}% of the chain's time)", pass.name, pass.roof,
          pass.bound == "compute" ? "compute" : pass.bound, 100 * pass.share));
  }
  if (placed && c.passes_seconds > 0) c.memory_bound_share = memory_seconds / c.passes_seconds;
  if (!placed && c.passes_seconds > 0)
    c.notes.push_back(machine ? fmt::format("no {} ceiling to place the passes against",
                                            c.level.empty() ? "memory" : c.level)
                              : "no machine model: the passes are not placed");
  return c;
}

}  // namespace

std::vector<UnfusedChain> unfused_chains(const Run& run,
                                         const std::vector<RooflinePlacement>& placements,
                                         const MachineModel* machine) {
  const auto details = detail::case_details(run, placements);
  std::vector<UnfusedChain> out;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const CaseDetails* d = details[i];
    const RooflinePlacement& p = placements[i];
    if (!d || p.complexity_fit) continue;
    const auto role = fusion_role(d->backend);
    if (!role || role->fused) continue;
    std::vector<PassWork> model;
    try {
      model = op_unfused_passes(d->problem);
    } catch (const std::exception&) {
      continue;  // an op this build does not know: the pair's notes say so
    }
    // Only a case whose kernel lapped its passes: runs from before pass times, and vendor
    // chains that run inside one library call, have none.
    if (model.empty() ||
        repetition_values(run, p.name, pass_time_metric(0, model.front().name)).empty())
      continue;
    out.push_back(make_chain(run, p, i, *d, model, machine));
  }
  return out;
}

}  // namespace ridgeline
