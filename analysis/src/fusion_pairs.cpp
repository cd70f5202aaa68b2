// Fused cases beside their unfused twins: the bytes each moves (the op's model, and the
// counters where a collector measured them), the time each took, and how close the time
// ratio comes to the byte ratio.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <tuple>

#include "fusion_cases.hpp"
#include "fusion_energy.hpp"
#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

namespace detail {

std::vector<const CaseDetails*> case_details(const Run& run,
                                             const std::vector<RooflinePlacement>& placements) {
  std::map<std::string, const CaseDetails*> by_name;
  for (const auto& r : run.benchmarks)
    if (r.ridgeline) by_name.try_emplace(r.run_name.empty() ? r.name : r.run_name, &*r.ridgeline);
  std::vector<const CaseDetails*> out;
  out.reserve(placements.size());
  for (const auto& p : placements) {
    const auto it = by_name.find(p.name);
    out.push_back(p.foreign || it == by_name.end() ? nullptr : it->second);
  }
  return out;
}

std::string comparison_level(const RooflinePlacement& p) {
  const std::string memory(display_name(MemoryLevel::main, p.device));
  if (p.intensity.count(memory)) return memory;
  return p.intensity.size() == 1 ? p.intensity.begin()->first : "";
}

}  // namespace detail

std::optional<FusionRole> fusion_role(const CaseDetails& details) {
  if (details.role != KernelRole::fused && details.role != KernelRole::unfused) return std::nullopt;
  return FusionRole{details.family, details.role == KernelRole::fused};
}

namespace {

// What the unfused chain's passes say about the pair: how much of the unfused time was
// traffic, and, where the chain has compute-bound passes (attention's GEMMs), the fused
// rate against theirs: 1 when the fused kernel computes as fast as the GEMM it replaces.
void set_chain_figures(FusionPair& pair, const UnfusedChain& chain) {
  double flops = 0, seconds = 0;
  for (const auto& pass : chain.passes)
    if (pass.bound.is_compute()) {
      flops += pass.flops;
      seconds += pass.seconds;
    }
  if (chain.placed && chain.passes_seconds > 0)
    pair.notes.push_back(fmt::format("{:.0f}% of the unfused time in memory-bound passes",
                                     100 * chain.memory_bound_share));
  const double rate = seconds > 0 ? flops / seconds : 0;
  if (rate > 0 && pair.fused.achieved > 0) {
    pair.fused_over_chain_compute = pair.fused.achieved / rate;
    pair.notes.push_back(fmt::format(
        "fused at {:.2f}× the rate of the chain's compute-bound passes ({:.1f} GFLOP/s)",
        pair.fused_over_chain_compute, rate / 1e9));
  }
}

using Key = std::tuple<std::string, std::string, std::string, std::string, int, Device,
                       std::string>;  // op, params, dtype, pattern, threads, device, family

struct Entry {
  std::size_t placement;
  const CaseDetails* details;
  FusionRole role;
  Key key;
};

// The other side of a pair, in words: "unfused case of family cpu.avx2".
std::string twin_case(const FusionRole& role) {
  return fmt::format("{} case of family {}", role.fused ? "unfused" : "fused", role.family);
}

// The op's bytes for one side; a problem the model cannot size leaves them at 0 and says so.
// A caller's function (callable) has no model of the op's: its recorded work is the caller's
// model (eager JAX's primitives, jit's bytes accessed).
FusionBytes model_bytes(const CaseDetails& details, bool fused, std::vector<std::string>& notes) {
  const Problem& problem = details.problem;
  try {
    const OpDefinition* op = find_op(problem.op);
    const WorkModel w = op && op->measured_by_caller ? details.work
                        : fused                      ? op_work(problem)
                                                     : op_unfused_work(problem);
    const auto it = w.bytes.find(MemoryLevel::main);
    if (it != w.bytes.end() && usable(it->second)) return {it->second, MetricSource::analytic};
    notes.push_back(
        fmt::format("the op's {} model gives no usable byte count", fused ? "fused" : "unfused"));
  } catch (const std::exception& e) {
    notes.push_back(fmt::format("no {} work model: {}", fused ? "fused" : "unfused", e.what()));
  }
  return {};
}

FusionSide make_side(const RooflinePlacement& p, const Entry& e, std::vector<std::string>& notes) {
  FusionSide s;
  s.placement = e.placement;
  s.name = p.name;
  s.backend = p.backend;
  const char* which = e.role.fused ? "fused" : "unfused";
  s.analytic = model_bytes(*e.details, e.role.fused, notes);
  if (!p.placeable) {
    notes.push_back(fmt::format("the {} case is not placeable: {}", which, p.reason));
    return s;
  }
  s.seconds = p.seconds;
  s.achieved = p.achieved;
  if (const auto it = p.bytes.find(std::string(display_name(MemoryLevel::main, p.device)));
      it != p.bytes.end() && p.bytes_source != MetricSource::analytic)
    s.counted = {it->second, p.bytes_source};
  // The placement's own bytes are the op's model unless the kernel recorded other work
  // (runs made before unfused kernels recorded their unfused bytes).
  if (const auto it = p.bytes.find(detail::comparison_level(p));
      p.bytes_source == MetricSource::analytic && it != p.bytes.end() && s.analytic.value > 0 &&
      std::fabs(it->second / s.analytic.value - 1) > 0.01)
    notes.push_back(fmt::format(
        "{} case placed at its recorded {} a call, not the op's {} model's {}{}", which,
        fmt::format("{:.3g} MB", it->second / 1e6), which,
        fmt::format("{:.3g} MB", s.analytic.value / 1e6),
        e.role.fused ? "" : " (written before unfused kernels recorded their passes' bytes)"));
  if (p.attainable > 0 && p.bound.is_memory()) {
    s.memory_roof = p.efficiency;
    s.roof_level = p.bound.level.name;
  } else if (p.attainable > 0) {
    notes.push_back(
        fmt::format("{} is bound by {}: no share of a memory roof", which, to_string(p.bound)));
  }
  return s;
}

double ratio(double a, double b) {
  const double r = a / b;
  return usable(a) && usable(b) && usable(r) ? r : 0;
}

FusionPair make_pair(const std::vector<RooflinePlacement>& placements, const Entry& fused,
                     const Entry& unfused) {
  const RooflinePlacement& f = placements[fused.placement];
  const RooflinePlacement& u = placements[unfused.placement];
  FusionPair pair;
  std::tie(pair.op, pair.params, pair.dtype, pair.pattern, pair.threads, pair.device, pair.family) =
      fused.key;
  pair.unfused = make_side(u, unfused, pair.notes);
  pair.fused = make_side(f, fused, pair.notes);
  pair.byte_ratio = ratio(pair.unfused.analytic.value, pair.fused.analytic.value);
  pair.counted_byte_ratio = ratio(pair.unfused.counted.value, pair.fused.counted.value);
  pair.speedup = ratio(pair.unfused.seconds, pair.fused.seconds);
  const double bytes = pair.counted_byte_ratio > 0 ? pair.counted_byte_ratio : pair.byte_ratio;
  pair.time_over_bytes = ratio(pair.speedup, bytes);
  if (f.placeable && u.placeable) {
    const std::string fl = detail::comparison_level(f), ul = detail::comparison_level(u);
    pair.level = fl;
    if (fl != ul)
      pair.notes.push_back(fmt::format("the unfused point is read at {}, the fused at {}",
                                       ul.empty() ? "no single level" : ul,
                                       fl.empty() ? "no single level" : fl));
  }
  return pair;
}

// Why a case found no twin, with the nearest candidate's differences when there is one.
std::string unpaired_reason(const Entry& e, const std::vector<Entry>& entries) {
  const std::string twin = twin_case(e.role);
  const auto candidate = [&](const Entry& o) {
    return o.role.fused != e.role.fused && std::get<6>(o.key) == std::get<6>(e.key) &&
           std::get<0>(o.key) == std::get<0>(e.key) && std::get<1>(o.key) == std::get<1>(e.key);
  };
  for (const auto& o : entries)
    if (candidate(o) && o.key == e.key)
      return fmt::format("the {} of the same problem is already paired with another {} case", twin,
                         e.details->backend);
  const std::string reason =
      fmt::format("no {} with the same op, params, dtype, pattern, threads and device", twin);
  for (const auto& o : entries) {
    if (!candidate(o)) continue;
    std::vector<std::string> diff;
    if (std::get<2>(o.key) != std::get<2>(e.key)) diff.push_back("dtype " + std::get<2>(o.key));
    if (std::get<3>(o.key) != std::get<3>(e.key)) diff.push_back("pattern " + std::get<3>(o.key));
    if (std::get<4>(o.key) != std::get<4>(e.key))
      diff.push_back(
          fmt::format("{} thread{}", std::get<4>(o.key), std::get<4>(o.key) == 1 ? "" : "s"));
    if (std::get<5>(o.key) != std::get<5>(e.key))
      diff.push_back(fmt::format("device {}", to_string(std::get<5>(o.key))));
    return reason + fmt::format(" (the {} ran it with {})", twin, fmt::join(diff, ", "));
  }
  return reason;
}

}  // namespace

FusionAnalysis fusion_analysis(const Run& run, const std::vector<RooflinePlacement>& placements,
                               const MachineModel* machine) {
  const auto details = detail::case_details(run, placements);
  std::vector<Entry> entries;
  for (std::size_t i = 0; i < placements.size(); ++i) {
    const CaseDetails* d = details[i];
    if (!d) continue;
    const auto role = fusion_role(*d);
    if (!role) continue;
    const RooflinePlacement& p = placements[i];
    entries.push_back({i, d, *role,
                       Key{d->problem.op, p.params, p.dtype, d->problem.pattern, d->threads,
                           d->device, role->family}});
  }
  FusionAnalysis out;
  std::map<Key, std::size_t> unfused_at;  // key -> the first unfused entry
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (!entries[i].role.fused) unfused_at.try_emplace(entries[i].key, i);
  std::vector<bool> used(entries.size(), false);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!entries[i].role.fused) continue;
    const auto it = unfused_at.find(entries[i].key);
    if (it != unfused_at.end() && !used[it->second]) {
      used[it->second] = used[i] = true;
      out.pairs.push_back(make_pair(placements, entries[i], entries[it->second]));
    }
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (used[i]) continue;
    const Entry& e = entries[i];
    const RooflinePlacement& p = placements[e.placement];
    const auto& [op, params, dtype, pattern, threads, device, family] = e.key;
    out.unpaired.push_back({e.placement, p.name, p.backend, op, params, dtype, pattern, device,
                            threads, e.role.fused, unpaired_reason(e, entries)});
  }
  out.eltwise_sweeps = eltwise_sweeps(run, placements, machine);
  out.chains = unfused_chains(run, placements, machine);
  const CaseEnergy energy = case_energy(run);
  for (auto& pair : out.pairs) {
    for (const auto& chain : out.chains)
      if (chain.placement == pair.unfused.placement) set_chain_figures(pair, chain);
    set_energy(pair, energy);
  }
  return out;
}

}  // namespace ridgeline
