// The fusion tables as CSV (docs/fusion-analysis.md): one file of pairs, one of the eltwise
// chain's sweeps, one of the unfused chains' passes, each tidy (one row per pair, per point or
// per pass) beside the per-case report.csv, and each the columns of its table
// (table_columns.hpp).
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/table_columns.hpp"

namespace ridgeline {

std::string fusion_csv(const ReportInput& in) {
  std::vector<FusionRow> rows;
  for (const auto& p : in.fusion.pairs) rows.push_back({&p, nullptr});
  for (const auto& u : in.fusion.unpaired) rows.push_back({nullptr, &u});
  return csv_of(fusion_columns(), rows);
}

std::string sweep_csv(const ReportInput& in) {
  std::vector<SweepRow> rows;
  for (const auto& sw : in.fusion.eltwise_sweeps)
    for (const auto& p : sw.points) rows.push_back({&sw, &p});
  return csv_of(sweep_columns(), rows);
}

std::string passes_csv(const ReportInput& in) {
  // The fusion suite's unfused chains, then the steps an einsum lowering lapped (TTGT's
  // permutes and GEMM).
  std::vector<PassRow> rows;
  const auto add = [&](const UnfusedChain& c) {
    for (const PassRow& r : pass_rows(c)) rows.push_back(r);
  };
  for (const auto& c : in.fusion.chains) add(c);
  for (const auto& e : in.einsum)
    for (const auto& l : e.lowerings)
      if (l.passes) add(*l.passes);
  return csv_of(pass_columns(), rows);
}

}  // namespace ridgeline
