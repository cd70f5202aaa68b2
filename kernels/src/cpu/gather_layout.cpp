// The gathered GEMM's plan (gather_layout.hpp).
#include "gather_layout.hpp"

#include <algorithm>

namespace ridgeline::packed {

namespace {

// Each panel's common stride: `offsets` cut into panels of `width`.
std::vector<std::int64_t> panel_strides(const std::vector<std::int64_t>& offsets, int width) {
  std::vector<std::int64_t> out;
  const auto count = static_cast<std::int64_t>(offsets.size());
  for (std::int64_t i = 0; i < count; i += width)
    out.push_back(common_stride(offsets.data() + i, std::min<std::int64_t>(width, count - i)));
  return out;
}

// The runs of one block of steps from `first`; empty where they average under 8 steps.
std::vector<StepRun> step_runs(const std::int64_t* steps, std::int64_t first, std::int64_t kc) {
  std::vector<StepRun> runs;
  for (std::int64_t p = 0; p < kc;) {
    std::int64_t length = std::min<std::int64_t>(2, kc - p);
    const std::int64_t stride = length == 2 ? steps[first + p + 1] - steps[first + p] : 1;
    while (p + length < kc && steps[first + p + length] - steps[first + p + length - 1] == stride)
      ++length;
    runs.push_back({p, length, stride});
    p += length;
  }
  if (static_cast<std::int64_t>(runs.size()) * 8 > kc) runs.clear();
  return runs;
}

std::vector<std::vector<StepRun>> block_runs(const std::vector<std::int64_t>& steps, std::int64_t k,
                                             std::int64_t kc) {
  std::vector<std::vector<StepRun>> out;
  for (std::int64_t pc = 0; pc < k; pc += kc)
    out.push_back(step_runs(steps.data(), pc, std::min(kc, k - pc)));
  return out;
}

}  // namespace

GatherPlan plan_gather(const GatherLayout& layout, std::int64_t k, int mr, int nr,
                       std::int64_t kc) {
  GatherPlan plan;
  plan.a_lanes = panel_strides(layout.a_m, mr);
  plan.c_rows = panel_strides(layout.c_m, mr);
  plan.b_lanes = panel_strides(layout.b_n, nr);
  plan.c_cols = panel_strides(layout.c_n, nr);
  plan.a_runs = block_runs(layout.a_k, k, kc);
  plan.b_runs = block_runs(layout.b_k, k, kc);
  return plan;
}

}  // namespace ridgeline::packed
