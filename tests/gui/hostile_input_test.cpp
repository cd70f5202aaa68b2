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

// A right-to-left override and terminal escapes in a run's names (and in its file's name)
// are shown as escapes in the table, the run chooser and the title: never acted on.
TEST(HostileInput, BidiAndControlCharactersInNamesAreShownNotActedOn) {
  QTemporaryDir dir;
  std::string text = read(kRun);
  for (std::size_t at = 0; (at = text.find("cpu.naive", at)) != std::string::npos; at += 9)
    text.replace(at, 9, "cpu.na\u202Eive\\u001b[2J");  // raw U+202E; ESC as JSON's escape
  const QString path = dir.filePath(QString::fromUtf8("run\u202Egnp.json"));
  write_file_atomically(path.toStdString(), text);
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({path}).isEmpty());
  const QAbstractItemModel* table = w.filter();
  int seen = 0;
  for (int r = 0; r < table->rowCount(); ++r)
    for (int c = 0; c < table->columnCount(); ++c) {
      const QString cell = table->index(r, c).data(Qt::DisplayRole).toString();
      EXPECT_FALSE(cell.contains(QChar(0x202E))) << cell.toStdString();
      EXPECT_FALSE(cell.contains(QChar(0x1B))) << cell.toStdString();
      seen += cell.contains("\\u202E") ? 1 : 0;
    }
  EXPECT_GT(seen, 0);  // the naive rows are there, their names escaped
  EXPECT_FALSE(w.windowTitle().contains(QChar(0x202E)));
  EXPECT_TRUE(w.windowTitle().contains("\\u202E"));
}

}  // namespace
}  // namespace ridgeline::gui
