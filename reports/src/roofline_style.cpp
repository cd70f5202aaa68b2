#include "ridgeline/reports/roofline_style.hpp"

#include <fmt/format.h>

#include "ridgeline/analysis/where_ran.hpp"
#include "ridgeline/core/spelling.hpp"
#include "ridgeline/reports/format.hpp"

namespace ridgeline {

const char* level_colour(const std::string& level) {
  if (level == "SMEM") return "#2b8a3e";  // the GPU's L1 array: L1's colour
  if (level == "PCIe") return "#868e96";
  switch (parse_memory_level(level).value_or(MemoryLevel::main)) {
    case MemoryLevel::l1:
      return "#2b8a3e";
    case MemoryLevel::l2:
      return "#1971c2";
    case MemoryLevel::l3:
      return "#e67700";
    case MemoryLevel::main:
    case MemoryLevel::network:
      break;
  }
  return "#c92a2a";  // DRAM, HBM and anything else (the network's roofs)
}

BackendColours colours_by(const std::vector<RooflinePlacement>& placements,
                          const std::function<std::string(const RooflinePlacement&)>& key) {
  static const char* palette[] = {"#4263eb", "#f76707", "#2f9e44", "#ae3ec9", "#e03131", "#1098ad",
                                  "#f59f00", "#5c940d", "#d6336c", "#495057", "#7048e8", "#0ca678"};
  BackendColours colours;
  for (const auto& p : placements) {
    const std::string k = key(p);
    if (!colours.count(k))
      colours[k] = palette[colours.size() % (sizeof palette / sizeof palette[0])];
  }
  return colours;
}

std::string colour_of(const BackendColours& colours, const std::string& backend) {
  const auto it = colours.find(backend);
  return it == colours.end() ? "#495057" : it->second;
}

BackendColours backend_colours(const std::vector<RooflinePlacement>& placements) {
  return colours_by(placements, [](const RooflinePlacement& p) { return p.backend; });
}

const char* sweep_colour(const std::string& kernel, int threads) {
  if (kernel == "read") return threads == 1 ? "#1c7ed6" : "#f76707";
  return threads == 1 ? "#37b24d" : "#ae3ec9";
}

std::vector<double> roof_dashes(const SceneLine& line) {
  if (line.power_cap) return {2, 2};  // dotted: the roof at the power cap, below the nominal
  if (line.machine > 0)
    return line.dashed ? std::vector<double>{7, 3, 2, 3} : std::vector<double>{2, 3};
  return line.dashed ? std::vector<double>{7, 4} : std::vector<double>{};
}

namespace {

// Each verdict's colour, a row per verdict.
struct VerdictColour {
  Verdict value;
  const char* colour;
};
constexpr VerdictColour kVerdictColours[] = {
    {Verdict::regression, "#e03131"}, {Verdict::improvement, "#2f9e44"},
    {Verdict::same, "#868e96"},       {Verdict::inconclusive, "#f08c00"},
    {Verdict::broken, "#862e9c"},
};
static_assert(spelled_in_order(kVerdictColours, Verdict::broken));

}  // namespace

const char* verdict_colour(Verdict v) {
  return spelling_of(kVerdictColours, v).colour;
}

std::vector<std::string> point_lines(const RooflinePlacement& p, const ScenePoint& pt,
                                     const std::string& run) {
  std::vector<std::string> lines{
      run.empty() ? p.name : run + ": " + p.name,
      fmt::format("{} GFLOP/s, {}", reports::gflops(p.achieved), where_ran(p.device, p.threads)),
      fmt::format("intensity {} FLOP/B ({})", reports::intensity(pt.intensity), pt.level)};
  if (p.attainable > 0)
    lines.push_back(fmt::format("attainable {} GFLOP/s, efficiency {}, bound: {}",
                                reports::gflops(p.attainable), reports::percent(p.efficiency),
                                to_string(p.bound)));
  lines.push_back(fmt::format("sources: FLOPs {}, bytes {}, time timed", to_string(p.flops_source),
                              to_string(p.bytes_source)));
  if (p.foreign) lines.push_back("not validated by Ridgeline (a foreign Google Benchmark result)");
  for (const auto& n : p.notes)
    if (n.kind != NoteKind::origin)
      lines.push_back(fmt::format("{}: {}", to_string(n.kind), n.text));
  if (p.above_roof)
    lines.push_back("ABOVE THE ROOF: the work model or the ceilings do not hold for this case");
  if (p.throttled)
    lines.push_back("GPU THROTTLED while timed (NVML): the rate is below what the clocks allow");
  return lines;
}

}  // namespace ridgeline
