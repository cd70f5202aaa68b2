// ridgeline-gui [--screenshot OUT.png] [--machine MACHINE.json] [--overlay | --compare]
// [RUN ...]: the dashboard (docs/gui.md). With --screenshot it renders the window offscreen to
// OUT.png and exits: 0 written, 2 bad input (each file that could not be opened, one line each;
// nothing written).
#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QImage>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string_view>
#include <vector>

#include "main_window.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/shared_library.hpp"
#include "ridgeline/core/standard_fds.hpp"
#include "ridgeline/core/visible_text.hpp"

namespace {
// One line on standard error, visible whatever the file names hold.
void say(const QString& text) {
  std::fprintf(stderr, "ridgeline-gui: %s\n", ridgeline::visible_line(text.toStdString()).c_str());
}
}  // namespace

int main(int argc, char** argv) {
  ridgeline::reserve_standard_fds();
  if (const std::string w = ridgeline::library_path_warning(std::getenv("LD_LIBRARY_PATH"));
      !w.empty())
    std::fprintf(stderr, "ridgeline-gui: %s\n", ridgeline::visible_line(w).c_str());
  bool screenshot = false;
  for (int i = 1; i < argc; ++i) screenshot |= QByteArray(argv[i]).startsWith("--screenshot");
  // Offscreen needs no display; the caller's choice (xcb under Xvfb) wins.
  if (screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setApplicationName("ridgeline-gui");
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "The Ridgeline dashboard: runs on the roofline, their results, each point explained");
  parser.addHelpOption();
  const QCommandLineOption shot("screenshot", "Render the window to FILE (PNG) and exit", "FILE");
  const QCommandLineOption machine("machine", "Ceilings from this machine model", "FILE");
  const QCommandLineOption overlay(
      "overlay", "Draw every run given on one chart: the last shown, the others overlaid");
  const QCommandLineOption compare("compare",
                                   "Compare the last run given with the first (its base)");
  parser.addOption(shot);
  parser.addOption(machine);
  parser.addOption(overlay);
  parser.addOption(compare);
  parser.addPositionalArgument("runs", "Runs, .jsonl journals or Google Benchmark JSON files");
  parser.process(app);

  if (parser.isSet(shot)) {  // before anything is read: the picture must not replace an input
    std::vector<ridgeline::NamedFile> inputs;
    for (const QString& run : parser.positionalArguments())
      inputs.push_back({"the run", run.toStdString()});
    if (parser.isSet(machine)) inputs.push_back({"--machine", parser.value(machine).toStdString()});
    try {
      ridgeline::check_output_file(parser.value(shot).toStdString(), "--screenshot");
      ridgeline::check_distinct_files(inputs, {{"--screenshot", parser.value(shot).toStdString()}});
    } catch (const ridgeline::InputError& e) {
      say(QString::fromStdString(e.what()));
      return 2;
    }
  }
  ridgeline::gui::MainWindow window(!parser.isSet(shot));
  QStringList errors;
  if (parser.isSet(machine))
    if (const QString e = window.use_ceilings_from(parser.value(machine)); !e.isEmpty())
      errors << e;
  const QStringList runs = parser.positionalArguments();
  if (parser.isSet(overlay) && parser.isSet(compare)) {
    say("--overlay and --compare: choose one");
    return 2;
  }
  if ((parser.isSet(overlay) || parser.isSet(compare)) && runs.size() < 2) {
    say(QString("--%1 needs two runs or more").arg(parser.isSet(overlay) ? "overlay" : "compare"));
    return 2;
  }
  errors << window.open_files(runs);
  if (errors.isEmpty() && parser.isSet(overlay)) {
    std::vector<int> others(static_cast<std::size_t>(runs.size() - 1));
    std::iota(others.begin(), others.end(), 0);
    window.overlay(others);
  }
  if (errors.isEmpty() && parser.isSet(compare)) window.compare_with(0);
  if (!parser.isSet(shot)) {
    window.show();
    return app.exec();
  }
  for (const QString& e : errors) say(e);
  if (!errors.isEmpty()) return 2;
  window.show();
  QApplication::processEvents();
  const QImage image = window.grab().toImage();
  QByteArray png;
  QBuffer buffer(&png);
  if (!buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
    say("cannot encode the window as PNG");
    return 2;
  }
  try {  // written whole or not at all; a file it replaces is kept as .prev
    ridgeline::write_file_atomically(parser.value(shot).toStdString(),
                                     std::string_view(png.constData(), png.size()));
  } catch (const ridgeline::InputError& e) {
    say(QString::fromStdString(e.what()));
    return 2;
  }
  std::printf("%s\n", ridgeline::visible_line(parser.value(shot).toStdString()).c_str());
  return 0;
}
