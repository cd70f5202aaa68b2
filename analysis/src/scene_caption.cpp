// The caption under a roofline: what its points are, true for each kind the scene shows.
#include "scene_caption.hpp"

#include <fmt/format.h>

namespace ridgeline::detail {

std::vector<std::string> scene_caption(const std::vector<RooflinePlacement>& placements,
                                       const RooflineScene& scene) {
  std::size_t ours = 0, foreign = 0, analytic_cpu = 0, analytic_gpu = 0, counted = 0;
  bool dtype_unknown = false;
  for (const auto& p : placements) {
    if (!p.placeable) continue;
    if (p.foreign) {
      ++foreign;
      for (const auto& n : p.notes) dtype_unknown |= n.kind == NoteKind::dtype;
      continue;
    }
    ++ours;
    if (p.bytes_source == MetricSource::analytic)
      ++(p.device == Device::gpu ? analytic_gpu : analytic_cpu);
    else
      ++counted;
  }
  std::vector<std::string> out;
  const auto results = [](std::size_t n) {
    return fmt::format("{} result{}", n, n == 1 ? "" : "s");
  };
  if (ours > 0)
    out.push_back(fmt::format(
        "{} from Ridgeline runs, each validated against its reference before it was timed.",
        results(ours)));
  if (analytic_cpu > 0)
    out.push_back(
        "Analytic bytes are the compulsory traffic of the operands, compared with the level "
        "their working set fits in.");
  if (analytic_gpu > 0)
    out.push_back("GPU results: compulsory bytes from HBM, operands rotated between calls.");
  if (counted > 0)
    out.push_back(fmt::format("{}: bytes per level from counters.", results(counted)));
  if (foreign > 0)
    out.push_back(fmt::format(
        "{} from a foreign Google Benchmark file: not validated by Ridgeline; FLOPs and bytes "
        "are the file's own rate counters, compared with DRAM since the level is unknown{}.",
        results(foreign),
        dtype_unknown ? ", under the highest floating-point peak since the dtype is unknown" : ""));
  std::size_t off = 0;
  for (const auto& o : scene.omitted) off += o.result;
  if (off > 0)
    out.push_back(fmt::format("{} placed but outside the plotted range: listed below the plot.",
                              results(off)));
  std::size_t fusion_arrows = 0;
  for (const auto& a : scene.arrows) fusion_arrows += a.kind == SceneArrow::Kind::fusion;
  if (fusion_arrows > 0)
    out.push_back(fmt::format(
        "{} arrow{} from an unfused case to its fused twin (same op, params, dtype, pattern, "
        "threads): fusion moves the point right (fewer bytes) and up (faster).",
        fusion_arrows, fusion_arrows == 1 ? "" : "s"));
  if (!scene.joins.empty())
    out.push_back(fmt::format(
        "Dotted lines join each einsum contraction's fastest lowering to its others ({} "
        "contraction{}: same equation, extents, dtype, threads): the same FLOPs, so a lowering "
        "that adds bytes (TTGT's transposes) sits to the left, a slower one lower.",
        scene.joins.size(), scene.joins.size() == 1 ? "" : "s"));
  out.push_back("Hover a point for its numbers.");
  return out;
}

}  // namespace ridgeline::detail
