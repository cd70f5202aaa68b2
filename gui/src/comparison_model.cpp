#include "ridgeline/gui/comparison_model.hpp"

namespace ridgeline::gui {

ComparisonModel::ComparisonModel(QObject* parent) : TableModel(parent) {
  set_comparison(nullptr);
}

void ComparisonModel::set_comparison(std::shared_ptr<const RunComparison> comparison) {
  static const RunComparison none;  // without a comparison the columns stay, with no rows
  set_table(comparison_rows::verdict_table(comparison ? *comparison : none));
}

}  // namespace ridgeline::gui
