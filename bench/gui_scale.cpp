// The dashboard at scale (issue #14's targets): a run of 10,000 cases opened (read, placed,
// analysed) and its chart made again and painted for a zoomed window, as a zoom or pan step
// does, alone and overlaid on a second machine's copy. The run is the recorded smoke run's rows
// copied under 10,000 names with times spread over two decades, written once to a temporary file:
//   build/release/bench/ridgeline_gui_scale
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <cmath>
#include <filesystem>
#include <random>

#include "ridgeline/core/run_json.hpp"
#include "ridgeline/gui/roofline_painter.hpp"
#include "ridgeline/gui/run_document.hpp"

namespace {

constexpr int kCases = 10000;

const std::string& big_run() {
  static const std::string path = [] {
    using namespace ridgeline;
    const Run recorded =
        read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-smoke-f64-zen4-vm.json");
    Run run = recorded;
    run.benchmarks.clear();
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> decades(-1, 1);
    for (int i = 0; i < kCases; ++i) {
      CaseResult r = recorded.benchmarks[static_cast<std::size_t>(i) % recorded.benchmarks.size()];
      r.name = r.run_name = r.name + "/copy=" + std::to_string(i);
      r.real_time = r.cpu_time = r.real_time * std::pow(10.0, decades(rng));
      run.benchmarks.push_back(r);
    }
    const auto file = std::filesystem::temp_directory_path() / "ridgeline-gui-scale.json";
    write_run_file(file, run);
    return file.string();
  }();
  return path;
}

long max_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

void BM_OpenTenThousandCases(benchmark::State& state) {
  const std::string& path = big_run();
  for (auto _ : state) {
    auto doc = ridgeline::gui::open_run_document(path);
    benchmark::DoNotOptimize(doc.input.placements.data());
  }
  state.counters["cases"] = kCases;
  state.counters["max_rss_MiB"] = static_cast<double>(max_rss_mib());
}
BENCHMARK(BM_OpenTenThousandCases)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ZoomRedraw(benchmark::State& state) {
  using namespace ridgeline;
  const auto doc = gui::open_run_document(big_run());
  const auto& in = doc.input;
  const BackendColours colours = backend_colours(in.placements);
  QImage image(1280, 600, QImage::Format_ARGB32);
  SceneCanvas canvas;
  canvas.width = 1280;
  canvas.window = SceneWindow{-0.5, 1.5, 9, 11};
  for (auto _ : state) {
    canvas.window->x_lo += 1e-6;  // each step another window, as a pan makes
    const RooflineScene scene =
        roofline_scene(in.placements, in.machine ? &*in.machine : nullptr, canvas, in.fusion.pairs);
    image.fill(Qt::white);
    QPainter painter(&image);
    gui::paint_roofline(painter, scene, {in.placements, colours, {}});
  }
  state.counters["points"] = static_cast<double>(in.placements.size());
}
BENCHMARK(BM_ZoomRedraw)->Unit(benchmark::kMillisecond);

// The two halves of a redraw: the scene alone, and the painting of one scene alone.
void BM_ZoomScene(benchmark::State& state) {
  using namespace ridgeline;
  const auto doc = gui::open_run_document(big_run());
  SceneCanvas canvas;
  canvas.width = 1280;
  canvas.window = SceneWindow{-0.5, 1.5, 9, 11};
  for (auto _ : state) {
    canvas.window->x_lo += 1e-6;
    benchmark::DoNotOptimize(roofline_scene(doc.input.placements,
                                            doc.input.machine ? &*doc.input.machine : nullptr,
                                            canvas, doc.input.fusion.pairs));
  }
}
BENCHMARK(BM_ZoomScene)->Unit(benchmark::kMillisecond);

void BM_Paint(benchmark::State& state) {
  using namespace ridgeline;
  const auto doc = gui::open_run_document(big_run());
  const BackendColours colours = backend_colours(doc.input.placements);
  SceneCanvas canvas;
  canvas.width = 1280;
  canvas.window = SceneWindow{-0.5, 1.5, 9, 11};
  const RooflineScene scene =
      roofline_scene(doc.input.placements, doc.input.machine ? &*doc.input.machine : nullptr,
                     canvas, doc.input.fusion.pairs);
  QImage image(1280, 600, QImage::Format_ARGB32);
  for (auto _ : state) {
    image.fill(Qt::white);
    QPainter painter(&image);
    gui::paint_roofline(painter, scene, {doc.input.placements, colours, {}});
  }
  state.counters["points"] = static_cast<double>(scene.points.size());
}
BENCHMARK(BM_Paint)->Unit(benchmark::kMillisecond);

// An overlay of two such runs from two machines (20,000 points, each machine's roofs,
// markers sized by time), made again and painted for a zoomed window.
void BM_OverlayZoomRedraw(benchmark::State& state) {
  using namespace ridgeline;
  const auto doc = gui::open_run_document(big_run());
  std::vector<RooflinePlacement> placements = doc.input.placements;
  placements.insert(placements.end(), doc.input.placements.begin(), doc.input.placements.end());
  MachineModel other = doc.input.machine.value_or(MachineModel{});
  other.host = "other";
  for (auto& m : other.memory) m.bytes_per_s *= 2;
  std::vector<std::size_t> machine_of(placements.size(), 0);
  std::fill(machine_of.begin() + kCases, machine_of.end(), 1);
  const std::vector<SceneMachine> machines{
      {doc.input.machine ? &*doc.input.machine : nullptr, "this"}, {&other, "other"}};
  const gui::RunSpans runs{{0, "a.json"}, {kCases, "b.json"}};
  std::size_t index = 0;  // colours_by visits the placements in order
  const BackendColours colours = colours_by(placements, [&](const RooflinePlacement& p) {
    return gui::colour_key(p, gui::ColourBy::run, index++, runs);
  });
  QImage image(1280, 600, QImage::Format_ARGB32);
  SceneCanvas canvas;
  canvas.width = 1280;
  canvas.window = SceneWindow{-0.5, 1.5, 9, 11};
  for (auto _ : state) {
    canvas.window->x_lo += 1e-6;
    const RooflineScene scene = overlay_scene(placements, machine_of, machines, canvas);
    image.fill(Qt::white);
    QPainter painter(&image);
    gui::RooflinePaint paint{placements, colours, {}, gui::ColourBy::run, kCases};
    paint.runs = runs;
    paint.size_by_time = true;
    gui::paint_roofline(painter, scene, paint);
  }
  state.counters["points"] = static_cast<double>(placements.size());
}
BENCHMARK(BM_OverlayZoomRedraw)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  std::filesystem::remove(big_run());
  return 0;
}
