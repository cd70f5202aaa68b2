// A network's paths, measured (einsum_paths.hpp).
#include "ridgeline/analysis/einsum_paths.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "ridgeline/analysis/duration_text.hpp"
#include "ridgeline/core/dtype.hpp"
#include "ridgeline/core/ops/einsum.hpp"

namespace ridgeline {

namespace {

// The comparison is of this step: its equation, and its extents whatever order the case
// wrote them in.
bool is_step(const EinsumComparison& c, const std::string& equation, const std::string& extents) {
  if (c.equation != equation) return false;
  try {
    return einsum_extents(c.extents) == einsum_extents(extents);
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

std::vector<MeasuredPath> measure_paths(const EinsumNetwork& n,
                                        const std::vector<EinsumPath>& paths,
                                        const std::vector<EinsumComparison>& comparisons) {
  std::vector<MeasuredPath> out;
  double fewest = 0;
  for (const EinsumPath& p : paths)
    if (fewest == 0 || p.flops < fewest) fewest = p.flops;
  for (const EinsumPath& p : paths) {
    MeasuredPath m;
    m.how = p.how;
    m.as_written = p.as_written;
    m.runner_up = p.runner_up;
    m.flops = p.flops;
    m.bytes = p.bytes;
    m.flops_vs_fewest = fewest > 0 ? p.flops / fewest : 0;
    m.complete = true;
    bool framework_complete = true, roof_complete = true;
    for (const EinsumPathStep& st : p.steps) {
      MeasuredStep s;
      s.equation = st.equation;
      s.extents = step_extents(n, st.equation);
      const auto c = std::find_if(
          comparisons.begin(), comparisons.end(),
          [&](const EinsumComparison& x) { return is_step(x, s.equation, s.extents); });
      if (c != comparisons.end() && !c->best.empty()) {
        const EinsumLowering& best = c->lowerings.front();  // fastest first
        s.best = best.backend;
        s.seconds = best.seconds;
        s.achieved = best.achieved;
        s.bound = best.bound;
        m.seconds += s.seconds;
        for (const EinsumLowering& l : c->lowerings) {
          if (is_framework_lowering(l) && l.ran) s.framework_seconds = l.seconds;
          // A copy-free lowering sits at the step's compulsory intensity.
          if (l.ran && l.added_bytes == 0 && l.attainable > 0)
            s.roof_seconds = st.flops / l.attainable;
        }
      } else {
        m.complete = false;
      }
      framework_complete = framework_complete && s.framework_seconds > 0;
      m.framework_seconds += s.framework_seconds;
      roof_complete = roof_complete && s.roof_seconds > 0;
      m.roof_seconds += s.roof_seconds;
      m.steps.push_back(s);
    }
    if (!m.complete) m.seconds = 0;
    if (!framework_complete) m.framework_seconds = 0;
    if (!roof_complete) m.roof_seconds = 0;
    out.push_back(m);
  }
  double fastest = 0;
  for (const MeasuredPath& m : out)
    if (m.complete && (fastest == 0 || m.seconds < fastest)) fastest = m.seconds;
  for (MeasuredPath& m : out)
    if (m.complete && fastest > 0) m.vs_fastest = m.seconds / fastest;
  return out;
}

std::string framework_verdict(const std::vector<MeasuredPath>& paths) {
  const MeasuredPath* fastest = nullptr;
  const MeasuredPath* written = nullptr;
  for (const MeasuredPath& m : paths) {
    if (m.complete && (!fastest || m.seconds < fastest->seconds)) fastest = &m;
    if (m.as_written) written = &m;  // it may be the optimal one too, listed under that name
  }
  if (!fastest || !written || written->framework_seconds <= 0) return "";
  return fmt::format(
      "the {} path with the fastest lowering at each step ({}) is {:.2f}× a framework's order "
      "written with transpose-GEMM-transpose at each step ({})",
      fastest->how, duration_text(fastest->seconds), written->framework_seconds / fastest->seconds,
      duration_text(written->framework_seconds));
}

std::string paths_verdict(const std::vector<MeasuredPath>& paths) {
  if (paths.empty()) return "";
  const MeasuredPath& fewest = paths.front();
  if (!fewest.complete) return fmt::format("the {} path did not run every step", fewest.how);
  if (paths.size() == 1 && fewest.as_written)  // the searched and the written: one path
    return fmt::format("the order written is the path with the fewest FLOPs ({}): one path to run",
                       fewest.how);
  const auto fastest =
      std::min_element(paths.begin(), paths.end(), [](const auto& a, const auto& b) {
        return a.complete && (!b.complete || a.seconds < b.seconds);
      });
  if (&*fastest == &fewest || fewest.vs_fastest <= 1.1)
    return fmt::format("the path with the fewest FLOPs ({}) is the fastest here, within 10%",
                       fewest.how);
  // Where the fewest-FLOP path loses: its slowest step, and how that step was bound.
  const MeasuredStep& slow =
      *std::max_element(fewest.steps.begin(), fewest.steps.end(),
                        [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
  return fmt::format(
      "the {} path ran {:.2f}× the {} path's time despite {:.3g}× fewer FLOPs: its step {} "
      "took {} at {:.3g} GFLOP/s{}",
      fewest.how, fewest.vs_fastest, fastest->how, fastest->flops / fewest.flops, slow.equation,
      duration_text(slow.seconds), slow.achieved / 1e9,
      slow.bound.empty() ? "" : ", " + to_string(slow.bound) + "-bound");
}

std::string roof_verdict(const std::vector<MeasuredPath>& paths) {
  if (paths.size() < 2) return "";
  for (const MeasuredPath& m : paths)
    if (m.roof_seconds <= 0) return "";
  const MeasuredPath& fewest = paths.front();
  const MeasuredPath& quickest = *std::min_element(
      paths.begin(), paths.end(),
      [](const auto& a, const auto& b) { return a.roof_seconds < b.roof_seconds; });
  if (&quickest == &fewest || quickest.roof_seconds >= fewest.roof_seconds) return "";
  std::string measured = "not measured on every step";
  if (quickest.complete && fewest.complete)
    measured = quickest.seconds < fewest.seconds
                   ? fmt::format("and it ran {:.2f}× faster", fewest.seconds / quickest.seconds)
                   : fmt::format("but it ran {:.2f}× slower", quickest.seconds / fewest.seconds);
  const std::string why =
      fewest.bytes > quickest.bytes
          ? fmt::format("whose steps move {:.3g}× the bytes", fewest.bytes / quickest.bytes)
          : "whose steps sit under lower roofs";
  return fmt::format(
      "by the roofline the {} path is the quicker ({} against {} for the {} path, "
      "{}), {}",
      quickest.how, duration_text(quickest.roof_seconds), duration_text(fewest.roof_seconds),
      fewest.how, why, measured);
}

std::vector<EinsumNetworkComparison> einsum_network_comparisons(
    const Run& run, const std::vector<EinsumComparison>& comparisons) {
  std::vector<EinsumNetworkComparison> out;
  for (const EinsumNetworkRun& r : run.context.provenance.einsum_networks) {
    EinsumNetworkComparison base;
    base.equation = r.equation;
    base.extents = r.extents;
    EinsumNetwork n;
    try {
      if (std::string why = einsum_network_error(r.equation); !why.empty())
        throw std::invalid_argument(why);
      n = einsum_network(r.equation, r.extents);
    } catch (const std::invalid_argument& e) {
      base.error =
          fmt::format("the Run's einsum network '{}' ({}): {}", r.equation, r.extents, e.what());
      out.push_back(std::move(base));
      continue;
    }
    // The network's paths per element size, enumerated once each.
    std::map<std::size_t, std::vector<EinsumPath>> paths_by_size;
    auto paths = [&](DType dtype) -> const std::vector<EinsumPath>& {
      auto [it, fresh] = paths_by_size.try_emplace(size_of(dtype));
      if (fresh) it->second = einsum_paths(n, size_of(dtype));
      return it->second;
    };
    auto ran_a_step = [&](const EinsumComparison& c, DType dtype) {
      for (const EinsumPath& p : paths(dtype))
        for (const EinsumPathStep& st : p.steps)
          if (is_step(c, st.equation, step_extents(n, st.equation))) return true;
      return false;
    };
    // Each dtype, device and thread count that ran a step of the network, in the run's order.
    std::vector<std::tuple<std::string, DType, int, Device>> configs;
    for (const EinsumComparison& c : comparisons) {
      const auto dtype = parse_dtype(c.dtype);
      if (!dtype) continue;
      const std::tuple<std::string, DType, int, Device> config{c.dtype, *dtype, c.threads,
                                                               c.device};
      if (std::find(configs.begin(), configs.end(), config) == configs.end() &&
          ran_a_step(c, *dtype))
        configs.push_back(config);
    }
    for (const auto& [name, dtype, threads, device] : configs) {
      std::vector<EinsumComparison> same;
      for (const EinsumComparison& c : comparisons)
        if (c.dtype == name && c.threads == threads && c.device == device) same.push_back(c);
      EinsumNetworkComparison m = base;
      m.dtype = name;
      m.threads = threads;
      m.device = device;
      // A runner-up is shown where its steps ran (`ridgeline einsum` runs them; the suite
      // does not); the others are shown in any case, a missing step said.
      m.paths = measure_paths(n, paths(dtype), same);
      std::erase_if(m.paths, [](const MeasuredPath& p) { return p.runner_up && !p.complete; });
      m.verdict = paths_verdict(m.paths);
      m.framework = framework_verdict(m.paths);
      m.roof = roof_verdict(m.paths);
      out.push_back(std::move(m));
    }
  }
  return out;
}

}  // namespace ridgeline
