// The comparison's options chosen in the window (compare's --threshold, a thresholds file
// from --calibrate, --alpha, --fail-on). Under the offscreen platform.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>

#include "gui_test_files.hpp"
#include "main_window.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/thresholds.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {
namespace {

using namespace test_files;

// Six repetitions of every recorded case, cpu.naive `naive_factor` times slower.
nlohmann::json repeated(double naive_factor) {
  nlohmann::json run = recorded_run();
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& b : run["benchmarks"])
    for (int i = 0; i < 6; ++i) {
      nlohmann::json r = b;
      const double f =
          (1 + 0.002 * i) * (b["ridgeline"]["backend"] == "cpu.naive" ? naive_factor : 1.0);
      r["repetitions"] = 6;
      r["repetition_index"] = i;
      r["real_time"] = b["real_time"].get<double>() * f;
      r["cpu_time"] = b["cpu_time"].get<double>() * f;
      rows.push_back(r);
    }
  run["benchmarks"] = rows;
  return run;
}

TEST(CompareOptions, ThresholdAlphaThresholdsFileAndGateChosenInTheWindow) {
  QTemporaryDir dir;
  const QString base = dir.filePath("base.json"), head = dir.filePath("head.json");
  write(base, repeated(1.0));
  write(head, repeated(1.10));  // cpu.naive 10% slower
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({base, head}).isEmpty());
  w.compare_with(0);
  for (const auto& l : w.roofline()->scene().lines)  // one machine: one set of roofs
    EXPECT_EQ(l.machine, 0u);
  const auto verdict = [&] {  // the largest effect first: cpu.naive
    EXPECT_TRUE(
        w.verdicts()->index(0, ComparisonModel::kCase).data().toString().contains("cpu.naive"));
    return w.verdicts()->index(0, ComparisonModel::kVerdict).data().toString();
  };
  EXPECT_EQ(verdict(), "REGRESSION");  // at compare's defaults: 5%, alpha 0.05
  EXPECT_TRUE(w.statusBar()->currentMessage().contains("--fail-on regression: the gate fails"))
      << w.statusBar()->currentMessage().toStdString();

  w.threshold_box()->setValue(20);  // a 10% change is inside ±20%: the same
  EXPECT_DOUBLE_EQ(w.comparison_settings().threshold, 0.20);
  EXPECT_EQ(verdict(), "SAME");
  w.threshold_box()->setValue(5);
  w.alpha_box()->setValue(0.001);  // six against six cannot reach it after Holm
  EXPECT_EQ(verdict(), "INCONCLUSIVE");
  w.alpha_box()->setValue(0.05);
  EXPECT_EQ(verdict(), "REGRESSION");

  // A thresholds file from compare --calibrate: its default for the cases it does not list.
  const QString file = dir.filePath("thresholds.json");
  Thresholds thresholds;
  thresholds.default_threshold = 0.25;
  write_file_atomically(file.toStdString(), thresholds_to_json(thresholds));
  EXPECT_TRUE(w.use_thresholds_file(file).isEmpty());
  EXPECT_DOUBLE_EQ(w.comparison_settings().threshold, 0.25);
  EXPECT_FALSE(w.threshold_box()->isEnabled());
  EXPECT_EQ(verdict(), "SAME");
  // A bad file: one line naming it, and the file in use stays.
  const QString bad = dir.filePath("bad.json");
  write_file_atomically(bad.toStdString(), "{\"cases\": 3}");
  const QString error = w.use_thresholds_file(bad);
  EXPECT_TRUE(error.contains("bad.json")) << error.toStdString();
  EXPECT_FALSE(error.contains('\n'));
  EXPECT_DOUBLE_EQ(w.comparison_settings().threshold, 0.25);
  EXPECT_TRUE(w.use_thresholds_file("").isEmpty());  // back to the one threshold
  EXPECT_TRUE(w.threshold_box()->isEnabled());
  EXPECT_EQ(verdict(), "REGRESSION");

  // --fail-on change: the improvements and every changed case fail too.
  w.gate_box()->setCurrentText("change");
  EXPECT_TRUE(w.statusBar()->currentMessage().contains("--fail-on change"));
}

}  // namespace
}  // namespace ridgeline::gui
