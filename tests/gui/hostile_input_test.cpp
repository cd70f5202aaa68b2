// The hostile inputs the command line is tested with, opened in the window. Under the
// offscreen platform.
#include <gtest/gtest.h>

#include <QImage>
#include <QTemporaryDir>
#include <filesystem>

#include "gui_test_files.hpp"
#include "main_window.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/gui/roofline_painter.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {
namespace {

using namespace test_files;

// The hostile inputs the command line is tested with: each either opens and is drawn,
// hovered, overlaid and exported like any run, or is one line in the window; the run shown
// before stays.
TEST(HostileInput, EachOpensAndDrawsOrIsOneLine) {
  QTemporaryDir dir;
  const std::string recorded = read(kRun);
  const auto file = [&](const QString& name, const std::string& text) {
    write_file_atomically(dir.filePath(name).toStdString(), text);
    return dir.filePath(name);
  };
  std::string huge = recorded;
  huge.replace(huge.find("\"real_time\": "), 13, "\"real_time\": 1e999, \"x\": ");
  const QStringList bad{
      dir.path(),  // a directory
      file("empty.json", ""),
      file("truncated.json", recorded.substr(0, recorded.size() / 2)),
      file("huge.json", huge),
      file("array.json", "[1, 2, 3]"),
      file("binary.json", std::string("\x89PNG\r\n\x1a\n\0\0\0", 12)),
      QString(RIDGELINE_FIXTURES) + "/machine-zen4-vm.json",  // a machine model, not a run
      QString(RIDGELINE_FIXTURES) + "/gbench-1.7.1-console.txt",
      QString(RIDGELINE_FIXTURES) + "/gbench-1.7.1.csv",
  };
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  for (const QString& path : bad) {
    const QStringList errors = w.open_files({path});
    ASSERT_EQ(errors.size(), 1) << path.toStdString();
    EXPECT_FALSE(errors[0].contains('\n')) << errors[0].toStdString();
    EXPECT_EQ(QString::fromStdString(w.results()->document()->path), kRun) << path.toStdString();
  }

  // The fuzzers' seeds: extreme numbers, failed cases, foreign rows, zero peaks.
  int opened = 0;
  for (const char* corpus : {"/../fuzz/corpus/run_reader", "/../fuzz/corpus/report"})
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(RIDGELINE_FIXTURES) + corpus)) {
      const QString path = QString::fromStdString(entry.path().string());
      const QStringList errors = w.open_files({path});
      if (!errors.isEmpty()) {
        EXPECT_FALSE(errors[0].contains('\n')) << errors[0].toStdString();
        continue;
      }
      ++opened;
      RooflineView* view = w.roofline();
      EXPECT_FALSE(roofline_image(view->scene(), view->paint()).isNull()) << path.toStdString();
      for (const auto& pt : view->scene().points) view->tooltip_at(QPointF(pt.x, pt.y));
      w.overlay({0});
      view->set_size_by_time(true);
      EXPECT_TRUE(w.export_svg(dir.filePath("chart.svg")).isEmpty()) << path.toStdString();
      EXPECT_TRUE(w.export_csv(dir.filePath("rows.csv")).isEmpty()) << path.toStdString();
      EXPECT_TRUE(w.export_png(dir.filePath("chart.png")).isEmpty()) << path.toStdString();
      view->set_size_by_time(false);
    }
  EXPECT_GT(opened, 5);
}

}  // namespace
}  // namespace ridgeline::gui
