#include "ridgeline/analysis/ladder_comparison.hpp"

#include <map>
#include <tuple>

namespace ridgeline {

namespace {

template <typename Problem>
std::string label_of(const Problem& row) {
  std::string label = row.op + " " + row.dtype + " " + row.params;
  if (!row.pattern.empty() && row.pattern != "normal") label += " pattern=" + row.pattern;
  if (!row.fp_env.empty() && row.fp_env != "ieee") label += " fp=" + row.fp_env;
  if (row.cache != CacheState::warm) label += " cache=" + std::string(to_string(row.cache));
  return label;
}

}  // namespace

std::string problem_label(const LadderRow& row) {
  return label_of(row);
}

std::string problem_label(const RooflinePlacement& placement) {
  return label_of(placement);
}

std::vector<LadderRow> ladder_against_best_blas(const std::vector<RooflinePlacement>& placements) {
  std::vector<LadderRow> rows;
  // Problem -> its row: one lookup per placement, however many problems there are.
  // The same data and FP environment too: zeros against normal inputs is no comparison.
  std::map<
      std::tuple<std::string, std::string, std::string, std::string, std::string, int, CacheState>,
      std::size_t>
      index;
  auto row_of = [&](const RooflinePlacement& p) -> LadderRow& {
    auto [it, added] = index.try_emplace(
        {p.op, p.dtype, p.params, p.pattern, p.fp_env, p.threads, p.cache}, rows.size());
    if (added)
      rows.push_back({p.op, p.dtype, p.params, p.pattern, p.fp_env, p.threads, "", 0, {}, p.cache});
    return rows[it->second];
  };
  for (const auto& p : placements) {
    if (p.params.empty() || p.achieved <= 0 || p.disposition != Disposition::passed) continue;
    LadderRow& row = row_of(p);
    row.rates.push_back({p.backend, p.achieved, 0});
    if (p.family == kBlasFamily && p.achieved > row.best_blas_rate) {
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
