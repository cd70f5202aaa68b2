#include "ridgeline/gui/exports.hpp"

#include "ridgeline/reports/comparison.hpp"
#include "ridgeline/reports/escape.hpp"

namespace ridgeline::gui {

std::string rows_csv(const QAbstractItemModel& model) {
  std::string out;
  const auto line = [&](auto&& text_of) {
    for (int c = 0; c < model.columnCount(); ++c) {
      if (c > 0) out += ',';
      out += escape_csv_field(text_of(c));
    }
    out += '\n';
  };
  line([&](int c) { return model.headerData(c, Qt::Horizontal).toString().toStdString(); });
  for (int r = 0; r < model.rowCount(); ++r)
    line([&](int c) { return model.index(r, c).data().toString().toStdString(); });
  return out;
}

std::string selection_report_html(const RunDocument& document,
                                  const std::set<std::size_t>& placements) {
  const ReportInput& in = document.input;
  std::set<std::string> names;
  for (std::size_t i : placements)
    if (i < in.placements.size()) names.insert(in.placements[i].name);
  Run run = in.run;
  std::erase_if(run.benchmarks, [&](const CaseResult& r) {
    return !names.count(r.run_name) && !names.count(r.name);
  });
  run.notes.push_back("the dashboard's selection: " + std::to_string(names.size()) +
                      " of its cases");
  return html_report(
      make_report_input(std::move(run), document.path, in.machine, in.machine_origin));
}

std::string chart_svg(const RooflineScene& scene, const RunDocument& document,
                      const RooflinePaint& paint, const RunComparison* comparison) {
  if (paint.base_count == 0) return roofline_picture_svg(scene, document.input);
  // A comparison's runs as the report names them; an overlay's by their files.
  const std::string first = comparison ? "base" : "", second = comparison ? "new" : "";
  return runs_picture_svg(
      scene, paint.placements, paint.base_count,
      [&](std::size_t i) {
        if (comparison) return i < paint.base_count ? first : second;
        return run_name(paint.runs, i);
      },
      comparison);
}

}  // namespace ridgeline::gui
