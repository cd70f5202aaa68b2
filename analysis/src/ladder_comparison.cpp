#include "ridgeline/analysis/ladder_comparison.hpp"

#include <tuple>

namespace ridgeline {

std::vector<LadderRow> ladder_against_best_blas(const std::vector<RooflinePlacement>& placements) {
  std::vector<LadderRow> rows;
  auto row_of = [&](const RooflinePlacement& p) -> LadderRow& {
    for (auto& r : rows)
      if (std::tie(r.op, r.dtype, r.shape, r.threads) ==
          std::tie(p.op, p.dtype, p.shape, p.threads))
        return r;
    rows.push_back({p.op, p.dtype, p.shape, p.threads, "", 0, {}});
    return rows.back();
  };
  for (const auto& p : placements) {
    if (p.shape.empty() || p.achieved <= 0 || p.disposition != "passed") continue;
    LadderRow& row = row_of(p);
    row.rates.push_back({p.backend, p.achieved, 0});
    if (p.backend.rfind("blas.", 0) == 0 && p.achieved > row.best_blas_rate) {
      row.best_blas = p.backend;
      row.best_blas_rate = p.achieved;
    }
  }
  std::erase_if(rows, [](const LadderRow& r) { return r.best_blas.empty(); });
  for (auto& row : rows)
    for (auto& r : row.rates) r.vs_best = r.rate / row.best_blas_rate;
  return rows;
}

}  // namespace ridgeline
