#include "ridgeline/analysis/einsum_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "ridgeline/analysis/duration_text.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {

namespace {

constexpr std::string_view kNotSupportedHere = "not supported here: ";

std::string attr(const Problem& p, const char* name) {
  const auto it = p.params.attrs.find(name);
  return it == p.params.attrs.end() ? "" : it->second;
}

// Our own lowering of its kind: the ladder's, present on every machine.
bool is_own(const EinsumLowering& l, LoweringKind kind) {
  return l.kind == kind && l.role == KernelRole::ladder;
}

// Our own lowering of `kind` in the comparison.
const EinsumLowering* own_lowering(const EinsumComparison& c, LoweringKind kind) {
  for (const auto& l : c.lowerings)
    if (is_own(l, kind)) return &l;
  return nullptr;
}

// The steps the case's kernel declared of `kind`: "A permuted bthr -> bhtr" for each
// permute, as its note says it.
std::vector<std::string> noted_steps(const CaseDetails& d, StepKind kind) {
  std::vector<std::string> out;
  if (d.lowering)
    for (const LoweringStep& s : d.lowering->steps)
      if (const auto note = d.kernel_notes.find(s.note);
          s.kind == kind && note != d.kernel_notes.end())
        out.push_back(s.note + " " + note->second);
  return out;
}

// Each lapped pass's step, where the case's kernel declared one that pass laps.
void mark_steps(UnfusedChain& chain, const CaseDetails& d) {
  if (!d.lowering) return;
  for (PassPoint& p : chain.passes)
    for (const LoweringStep& s : d.lowering->steps)
      if (!s.pass.empty() && s.pass == p.name) p.step = s.kind;
}

std::string hides_line(const EinsumComparison& c) {
  const EinsumLowering* framework = own_lowering(c, LoweringKind::ttgt);
  const EinsumLowering* strided = own_lowering(c, LoweringKind::strided);
  const std::string& eq = c.equation;
  if (!framework) return "";
  if (!framework->ran && !framework->reason.empty())
    return fmt::format("{}: {}", eq, framework->reason);
  const std::vector<std::string>& copies = framework->copies;
  if (copies.empty())
    return fmt::format("{} is batched GEMMs as written: no lowering needs a copy", eq);
  std::string line = fmt::format(
      "{} needs {} for a batched GEMM: {} written and read back by "
      "the transposes a framework runs",
      eq, fmt::join(copies, ", "), si_text(framework->added_bytes, "B"));
  if (framework->passes && framework->ran) {  // its permutes timed on their own
    double permutes = 0;
    for (const PassPoint& p : framework->passes->passes)
      if (p.step == StepKind::permute) permutes += p.seconds;
    if (permutes > 0)
      line += fmt::format(" ({:.0f}% of its time)", 100 * permutes / framework->seconds);
  }
  // The framework's speed over each copy-free lowering's, 0 where one did not run.
  const auto lead = [&](const EinsumLowering* l) {
    return l && l->ran && framework->ran && l->seconds > 0 ? framework->seconds / l->seconds : 0.0;
  };
  if (lead(strided) > 0)
    line += fmt::format(
        "; the strided lowering reads the operands where they lie, {:.2f}× the "
        "framework's speed",
        lead(strided));
  else if (strided && !strided->reason.empty())  // "not supported here: ...": its own words
    line += fmt::format("; no strided GEMM without a copy ({})",
                        strided->reason.rfind(kNotSupportedHere, 0) == 0
                            ? strided->reason.substr(kNotSupportedHere.size())
                            : strided->reason);
  if (const EinsumLowering* gett = own_lowering(c, LoweringKind::gett); lead(gett) > 0)
    line += fmt::format(
        "; GETT packs its panels from the operands' strides, {:.2f}× the "
        "framework's speed",
        lead(gett));
  return line;
}

}  // namespace

bool is_framework_lowering(const EinsumLowering& l) {
  return is_own(l, LoweringKind::ttgt);
}

std::vector<EinsumComparison> einsum_comparisons(const Run& run,
                                                 const std::vector<RooflinePlacement>& placed,
                                                 const MachineModel* machine) {
  std::map<std::string, const RooflinePlacement*> by_name;
  for (const auto& p : placed) by_name[p.name] = &p;
  std::map<std::string, UnfusedChain> chains;
  for (auto& c : lowering_chains(run, placed, machine))
    if (c.op == "einsum") chains.emplace(c.name, std::move(c));
  // One comparison per contraction, dtype, device, thread count, pattern and cache state:
  // a device's lowerings beside one another, under its own roofs.
  using Key = std::tuple<std::string, std::string, Device, int, std::string, CacheState>;
  std::map<Key, EinsumComparison> groups;
  std::vector<Key> order;
  std::map<std::string, bool> seen;
  for (const CaseResult& r : run.benchmarks) {
    if (!r.ridgeline || r.ridgeline->problem.op != "einsum" || r.run_type != "iteration") continue;
    if (seen[r.run_name]) continue;
    seen[r.run_name] = true;
    const CaseDetails& d = *r.ridgeline;
    const Key key{params_label(d.problem),
                  std::string(to_string(d.problem.dtype)),
                  d.device,
                  d.threads,
                  d.problem.pattern,
                  d.cache};
    auto [it, fresh] = groups.try_emplace(key);
    EinsumComparison& c = it->second;
    if (fresh) {
      order.push_back(key);
      c.equation = attr(d.problem, "equation");
      c.extents = attr(d.problem, "extents");
      c.dtype = std::get<1>(key);
      c.threads = d.threads;
      c.device = d.device;
    }
    EinsumLowering l;
    l.backend = d.backend;
    if (d.lowering) l.kind = d.lowering->kind;
    l.role = d.role;
    l.copies = noted_steps(d, StepKind::permute);
    const WorkModel op = op_work(d.problem);
    c.flops = op.flops;
    l.compulsory_bytes = op.bytes_at(MemoryLevel::main);
    const double bytes = d.work.bytes.count(MemoryLevel::main) ? d.work.bytes_at(MemoryLevel::main)
                                                               : l.compulsory_bytes;
    l.added_bytes = std::max(0.0, bytes - l.compulsory_bytes);
    for (const auto& [name, value] : d.kernel_notes) l.steps.push_back(name + " " + value);
    const auto p = by_name.find(r.run_name);
    if (d.validation.disposition == Disposition::not_supported) {
      l.reason = std::string(kNotSupportedHere) + d.validation.message;
    } else if (p == by_name.end() || !p->second->placeable) {
      l.reason =
          p == by_name.end() ? std::string(to_string(d.validation.disposition)) : p->second->reason;
    } else {
      const RooflinePlacement& x = *p->second;
      l.ran = true;
      l.placement = static_cast<std::size_t>(p->second - placed.data());
      l.seconds = x.seconds;
      l.achieved = x.achieved;
      l.attainable = x.attainable;
      l.efficiency = x.efficiency;
      l.bound = x.bound;
      l.level = x.level;
      if (const auto chain = chains.find(r.run_name); chain != chains.end()) {
        l.passes = chain->second;
        mark_steps(*l.passes, d);
      }
    }
    c.lowerings.push_back(std::move(l));
  }

  std::vector<EinsumComparison> out;
  for (const Key& key : order) {
    EinsumComparison c = std::move(groups[key]);
    std::stable_sort(c.lowerings.begin(), c.lowerings.end(),
                     [](const EinsumLowering& a, const EinsumLowering& b) {
                       if (a.ran != b.ran) return a.ran;
                       return a.ran && a.seconds < b.seconds;
                     });
    for (const auto& l : c.lowerings)
      if (is_framework_lowering(l) && c.framework.empty()) c.framework = l.backend;
    if (!c.lowerings.empty() && c.lowerings.front().ran) {
      const EinsumLowering& best = c.lowerings.front();
      c.best = best.backend;
      for (auto& l : c.lowerings)
        if (l.ran) {
          l.vs_best = l.seconds / best.seconds;
          c.worst = l.backend;
          c.lead_over_worst = l.vs_best;
          if (is_framework_lowering(l)) c.lead_over_framework = l.vs_best;
        }
    }
    c.hides = hides_line(c);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ridgeline
