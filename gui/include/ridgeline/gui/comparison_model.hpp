#pragma once
// The verdict table of a comparison of two open runs (compare_runs: the same statistics and
// verdicts as `ridgeline compare` with the options chosen in the window): the table every
// printer of a comparison renders (reports/comparison_rows.hpp), one row per compared case,
// largest effect first, the verdict in its colour.
#include <memory>

#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/gui/table_model.hpp"
#include "ridgeline/reports/comparison_rows.hpp"

namespace ridgeline::gui {

class ComparisonModel : public TableModel {
 public:
  enum Column {
    kVerdict = comparison_rows::kVerdict,
    kRatio = comparison_rows::kRatio,
    kInterval = comparison_rows::kInterval,
    kP = comparison_rows::kP,
    kRepetitions = comparison_rows::kRepetitions,
    kCase = comparison_rows::kCase,
    kWhy = comparison_rows::kWhy,
    kColumns = comparison_rows::kVerdictColumns
  };

  explicit ComparisonModel(QObject* parent = nullptr);
  void set_comparison(std::shared_ptr<const RunComparison> comparison);  // nullptr: none
};

}  // namespace ridgeline::gui
