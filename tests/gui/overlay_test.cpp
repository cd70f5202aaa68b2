// Several runs on one chart (View → Overlay runs), each machine under its own roofs; markers
// sized by time, and drawn at a high-DPI device's resolution. Under the offscreen platform.
#include <gtest/gtest.h>

#include <QImage>
#include <QMenu>
#include <QPainter>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>

#include "gui_test_files.hpp"
#include "main_window.hpp"
#include "ridgeline/gui/roofline_painter.hpp"
#include "roofline_view.hpp"

namespace ridgeline::gui {
namespace {

using namespace test_files;

TEST(Overlay, RunsFromTwoMachinesEachUnderItsOwnRoofs) {
  // The recorded run, and the same cases on another machine: twice the bandwidth, 1.3x the
  // peaks, every case twice as fast.
  QTemporaryDir dir;
  const QString other = dir.filePath("other.json");
  nlohmann::json run = recorded_run();
  auto& machine = run["context"]["ridgeline"]["machine"];
  machine["host"] = "zen5-vm";
  machine["fingerprint"] = "another machine";
  for (auto& m : machine["memory"]) m["bytes_per_s"] = m["bytes_per_s"].get<double>() * 2;
  for (auto& c : machine["compute"]) c["per_second"] = c["per_second"].get<double>() * 1.3;
  for (auto& b : run["benchmarks"]) {
    b["real_time"] = b["real_time"].get<double>() / 2;
    b["cpu_time"] = b["cpu_time"].get<double>() / 2;
  }
  write(other, run);

  MainWindow alone(false);
  ASSERT_TRUE(alone.open_files({kRun}).isEmpty());
  const std::size_t recorded_points = alone.roofline()->scene().points.size();
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun, other}).isEmpty());  // other.json is shown
  RooflineView* view = w.roofline();
  const std::size_t other_points = view->scene().points.size();
  const std::size_t cases = w.results()->document()->input.placements.size();
  for (const auto& l : view->scene().lines) EXPECT_EQ(l.machine, 0u);

  // View → Overlay runs: one checkable action per other open run.
  QMenu* menu = nullptr;
  for (QMenu* m : w.findChildren<QMenu*>())
    if (m->title() == "&Overlay runs") menu = m;
  ASSERT_NE(menu, nullptr);
  ASSERT_EQ(menu->actions().size(), 1);
  menu->actions()[0]->trigger();
  EXPECT_EQ(w.overlaid_runs(), std::vector<int>{0});
  EXPECT_EQ(view->paint().base_count, cases);  // the recorded run first, hollow
  menu->actions()[0]->trigger();
  EXPECT_TRUE(w.overlaid_runs().empty());
  EXPECT_EQ(view->paint().base_count, 0u);
  w.overlay({0});
  EXPECT_TRUE(menu->actions()[0]->isChecked());
  EXPECT_EQ(view->paint().base_count, cases);
  EXPECT_EQ(view->scene().points.size(), recorded_points + other_points);
  std::set<std::size_t> machines;
  std::size_t zen5_labels = 0, vm_labels = 0;
  for (const auto& l : view->scene().lines) machines.insert(l.machine);
  for (const auto& l : view->scene().labels) {
    zen5_labels += l.text.find("zen5-vm") != std::string::npos;
    vm_labels += l.text.rfind("DRAM vm ", 0) == 0 || l.text.find(" vm 1t") != std::string::npos;
  }
  EXPECT_EQ(machines, (std::set<std::size_t>{0, 1}));  // each machine's roofs
  EXPECT_GT(zen5_labels, 0u);
  EXPECT_GT(vm_labels, 0u);
  EXPECT_TRUE(view->legend_html().contains("solid roofs: vm, dotted: zen5-vm"))
      << view->legend_html().toStdString();

  // Colour by run: one key per file; an overlaid point's tooltip names its run.
  view->set_colour_by(ColourBy::run);
  const RooflinePaint paint = view->paint();
  ASSERT_EQ(paint.colours.size(), 2u);
  EXPECT_EQ(paint.colours.count("run-smoke-f64-zen4-vm.json"), 1u);
  EXPECT_EQ(paint.colours.count("other.json"), 1u);
  const ScenePoint overlaid = view->scene().points.front();
  ASSERT_LT(overlaid.placement, cases);
  EXPECT_TRUE(
      view->tooltip_at(QPointF(overlaid.x, overlaid.y)).startsWith("run-smoke-f64-zen4-vm.json: "));

  // The table holds both runs, the overlaid first as the chart draws them; the run facet
  // filters the chart with the table.
  ASSERT_EQ(w.filter()->rowCount(), static_cast<int>(2 * cases));
  EXPECT_EQ(w.results()->index(0, ResultsModel::kRun).data().toString(),
            "run-smoke-f64-zen4-vm.json");
  EXPECT_EQ(w.results()->index(static_cast<int>(cases), ResultsModel::kRun).data().toString(),
            "other.json");
  EXPECT_EQ(w.filter()->facet_values(ResultsModel::kRun),
            (QStringList{"other.json", "run-smoke-f64-zen4-vm.json"}));
  w.filter()->set_facet(ResultsModel::kRun, {"run-smoke-f64-zen4-vm.json"});
  EXPECT_EQ(w.filter()->rowCount(), static_cast<int>(cases));
  EXPECT_EQ(view->scene().points.size(), recorded_points);
  for (const auto& pt : view->scene().points) EXPECT_LT(pt.placement, cases);
  w.filter()->set_facet(ResultsModel::kRun, {});
  EXPECT_EQ(view->scene().points.size(), recorded_points + other_points);

  // Clicking an overlaid point selects its row, and the details describe that run's case.
  emit view->placementClicked(overlaid.placement);
  EXPECT_EQ(view->selected(), std::set<std::size_t>{overlaid.placement});
  const auto [from, index] = w.results()->locate(overlaid.placement);
  ASSERT_NE(from, nullptr);
  EXPECT_EQ(from->path, kRun.toStdString());
  EXPECT_TRUE(w.details()->toPlainText().contains(
      QString::fromStdString(from->input.placements[index].name)));
  // A selection across both runs is not one report; one run's is.
  const QString html = dir.filePath("selection.html");
  w.table()->selectAll();
  EXPECT_TRUE(w.export_selection_html(html).contains("several runs"));
  emit view->placementClicked(overlaid.placement);
  EXPECT_TRUE(w.export_selection_html(html).isEmpty());

  // The SVG export draws what the chart shows: both runs, the second machine's roofs dotted.
  const QString svg = dir.filePath("overlay.svg");
  ASSERT_TRUE(w.export_svg(svg).isEmpty());
  const std::string text = read(svg);
  EXPECT_NE(text.find(R"(stroke-dasharray="2 3")"), std::string::npos);
  EXPECT_NE(text.find("<title>run-smoke-f64-zen4-vm.json: "), std::string::npos);
  EXPECT_NE(text.find("class=\"point base\""), std::string::npos);

  // The run shown read again (a journal growing, a run rewritten): the overlay stays.
  nlohmann::json fewer = run;
  fewer["benchmarks"].erase(fewer["benchmarks"].begin());
  write(other, fewer);
  w.reload(other);
  EXPECT_EQ(w.overlaid_runs(), std::vector<int>{0});
  EXPECT_EQ(view->paint().base_count, cases);
  EXPECT_EQ(w.filter()->rowCount(), static_cast<int>(2 * cases - 1));
  write(other, run);
  w.reload(other);
  // An overlaid run read again: drawn as it is now.
  w.show_run(0);
  w.overlay({1});
  write(other, fewer);
  w.reload(other);
  EXPECT_EQ(w.overlaid_runs(), std::vector<int>{1});
  EXPECT_EQ(w.filter()->rowCount(), static_cast<int>(2 * cases - 1));
  write(other, run);
  w.reload(other);
  w.show_run(1);

  // A comparison replaces the overlay, and an overlay the comparison.
  w.compare_with(0);
  EXPECT_EQ(view->paint().runs, (RunSpans{{0, "base run"}, {cases, "new run"}}));
  // Two machines (their fingerprints differ): each run's points under its own roofs, the
  // new run's solid and the base's dotted, as the comparison report draws them.
  std::set<std::size_t> compared_machines;
  for (const auto& l : view->scene().lines) compared_machines.insert(l.machine);
  EXPECT_EQ(compared_machines, (std::set<std::size_t>{0, 1}));
  EXPECT_TRUE(view->legend_html().contains("solid roofs: zen5-vm, dotted: vm"))
      << view->legend_html().toStdString();
  const QString compared = dir.filePath("compared.svg");
  ASSERT_TRUE(w.export_svg(compared).isEmpty());  // the comparison's picture, arrows and all
  const std::string cmp_text = read(compared);
  EXPECT_NE(cmp_text.find("comparison-arrow"), std::string::npos);
  EXPECT_NE(cmp_text.find("<title>base: "), std::string::npos);
  w.overlay({0});
  EXPECT_EQ(w.verdicts()->rowCount(), 0);
  EXPECT_FALSE(w.tabs()->isTabEnabled(2));
  w.overlay({});
  EXPECT_EQ(view->paint().base_count, 0u);
  EXPECT_EQ(view->scene().points.size(), other_points);
}

TEST(Overlay, MarkersSizedByTimeGrowWithTheTimePerCall) {
  EXPECT_DOUBLE_EQ(time_scale(1e-6, 1e-6, 1e-2), 0.6);
  EXPECT_DOUBLE_EQ(time_scale(1e-2, 1e-6, 1e-2), 1.8);
  EXPECT_DOUBLE_EQ(time_scale(1e-4, 1e-6, 1e-2), 1.2);  // halfway in log
  EXPECT_DOUBLE_EQ(time_scale(1e-4, 1e-4, 1e-4), 1.0);  // one time: as usual
  EXPECT_DOUBLE_EQ(time_scale(0, 1e-6, 1e-2), 1.0);     // no time

  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  RooflineView* view = w.roofline();
  const auto& placements = w.results()->document()->input.placements;
  // The slowest placed case: its marker covers more of the picture with sizes by time.
  const ScenePoint* slowest = nullptr;
  for (const auto& pt : view->scene().points)
    if (!slowest || placements[pt.placement].seconds > placements[slowest->placement].seconds)
      slowest = &pt;
  ASSERT_NE(slowest, nullptr);
  const auto inked = [&](const QImage& image) {
    int n = 0;
    for (int y = static_cast<int>(slowest->y) - 14; y <= static_cast<int>(slowest->y) + 14; ++y)
      for (int x = static_cast<int>(slowest->x) - 14; x <= static_cast<int>(slowest->x) + 14; ++x)
        n += image.valid(x, y) && image.pixel(x, y) != qRgb(255, 255, 255);
    return n;
  };
  const int usual = inked(roofline_image(view->scene(), view->paint()));
  view->set_size_by_time(true);
  EXPECT_TRUE(view->paint().size_by_time);
  const int sized = inked(roofline_image(view->scene(), view->paint()));
  EXPECT_GT(sized, usual + 40) << usual << " " << sized;
  EXPECT_TRUE(view->legend_html().contains("marker size: time per call"));
}

TEST(Overlay, MarkersOnAHighDpiDeviceAreDrawnAtItsResolution) {
  // The same scene on a device of 2 pixels per point: the markers keep their size in points,
  // so each covers about four times the pixels (sprites made at the device's resolution).
  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  const RooflineScene& scene = w.roofline()->scene();
  const RooflinePaint paint = w.roofline()->paint();
  const QImage one = roofline_image(scene, paint);
  QImage two(one.width() * 2, one.height() * 2, QImage::Format_ARGB32);
  two.setDevicePixelRatio(2);
  two.fill(Qt::white);
  {
    QPainter painter(&two);
    paint_roofline(painter, scene, paint);
  }
  const auto inked = [&](const QImage& image, int scale) {
    int n = 0;
    for (const auto& pt : scene.points)
      for (int y = scale * (static_cast<int>(pt.y) - 4); y < scale * (static_cast<int>(pt.y) + 4);
           ++y)
        for (int x = scale * (static_cast<int>(pt.x) - 4); x < scale * (static_cast<int>(pt.x) + 4);
             ++x)
          n += image.valid(x, y) && image.pixel(x, y) != qRgb(255, 255, 255);
    return n;
  };
  const double ratio = static_cast<double>(inked(two, 2)) / inked(one, 1);
  EXPECT_GT(ratio, 3.5) << ratio;
  EXPECT_LT(ratio, 4.5) << ratio;
  // Drawn at the device's resolution, not a point-sized picture scaled up: the markers'
  // edges fall inside 2 x 2 pixel blocks, which a picture scaled up never does.
  int blocks = 0, split = 0;
  for (const auto& pt : scene.points)
    for (int y = 2 * (static_cast<int>(pt.y) - 4); y < 2 * (static_cast<int>(pt.y) + 4); y += 2)
      for (int x = 2 * (static_cast<int>(pt.x) - 4); x < 2 * (static_cast<int>(pt.x) + 4); x += 2) {
        if (!two.valid(x + 1, y + 1)) continue;
        const QRgb a = two.pixel(x, y);
        ++blocks;
        split +=
            a != two.pixel(x + 1, y) || a != two.pixel(x, y + 1) || a != two.pixel(x + 1, y + 1);
      }
  EXPECT_GT(split, blocks / 20) << split << " of " << blocks;  // 13% here; 0 when scaled up
}

// A merged Run of two hosts (`mpirun ridgeline run`): File → Open its nodes apart shows one
// run per host, overlaid, coloured by node; node-b's cases 10% slower.
TEST(Overlay, AMergedRunOpensAsOneRunPerNodeColouredByNode) {
  QTemporaryDir dir;
  const QString merged = dir.filePath("merged.json");
  nlohmann::json run = recorded_run();
  nlohmann::json both = nlohmann::json::array();
  for (const auto& [rank, host, factor] : {std::tuple{0, "node-a", 1.0}, {1, "node-b", 1.1}})
    for (nlohmann::json b : run["benchmarks"]) {
      b["ridgeline"]["rank"] = rank;
      b["ridgeline"]["host"] = host;
      b["real_time"] = b["real_time"].get<double>() * factor;
      both.push_back(b);
    }
  run["benchmarks"] = both;
  write(merged, run);

  MainWindow w(false);
  ASSERT_TRUE(w.open_files({kRun}).isEmpty());
  EXPECT_EQ(w.open_nodes(), 0);  // a run of one process: nothing to open apart
  ASSERT_TRUE(w.open_files({merged}).isEmpty());
  const std::size_t cases = w.results()->document()->input.placements.size();
  ASSERT_EQ(w.open_nodes(), 2);
  EXPECT_EQ(w.results()->document()->path, merged.toStdString() + " — node-b");
  EXPECT_EQ(w.overlaid_runs(), std::vector<int>{2});  // node-a's, under node-b's
  RooflineView* view = w.roofline();
  EXPECT_EQ(view->paint().by, ColourBy::run);
  std::set<std::string> keys;
  for (const auto& [key, colour] : view->paint().colours) keys.insert(key);
  EXPECT_EQ(keys, (std::set<std::string>{"merged.json — node-a", "merged.json — node-b"}));
  EXPECT_EQ(w.filter()->rowCount(), static_cast<int>(2 * cases));
  // Each node's document holds its own cases only, placed under the run's model.
  const auto& b = w.results()->document()->input.placements;
  ASSERT_EQ(b.size(), cases);
  EXPECT_TRUE(b.front().placeable) << b.front().reason;
}

}  // namespace
}  // namespace ridgeline::gui
