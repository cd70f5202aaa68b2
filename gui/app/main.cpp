// ridgeline-gui [--screenshot OUT.png] [--machine MACHINE.json] [--overlay | --compare]
// [RUN ...]: the dashboard (docs/gui.md). With --screenshot it renders the window offscreen to
// OUT.png and exits: 0 written, 2 bad input (each file that could not be opened, one line each;
// nothing written).
#include <QApplication>
#include <QCommandLineParser>
#include <QImage>
#include <QSaveFile>
#include <cstdio>
#include <numeric>
#include <vector>

#include "main_window.hpp"

int main(int argc, char** argv) {
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

  ridgeline::gui::MainWindow window(!parser.isSet(shot));
  QStringList errors;
  if (parser.isSet(machine))
    if (const QString e = window.use_ceilings_from(parser.value(machine)); !e.isEmpty())
      errors << e;
  const QStringList runs = parser.positionalArguments();
  if (parser.isSet(overlay) && parser.isSet(compare)) {
    std::fprintf(stderr, "ridgeline-gui: --overlay and --compare: choose one\n");
    return 2;
  }
  if ((parser.isSet(overlay) || parser.isSet(compare)) && runs.size() < 2) {
    std::fprintf(stderr, "ridgeline-gui: --%s needs two runs or more\n",
                 parser.isSet(overlay) ? "overlay" : "compare");
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
  for (const QString& e : errors) std::fprintf(stderr, "ridgeline-gui: %s\n", qPrintable(e));
  if (!errors.isEmpty()) return 2;
  window.show();
  QApplication::processEvents();
  const QImage image = window.grab().toImage();
  QSaveFile out(parser.value(shot));  // written whole or not at all
  if (!out.open(QIODevice::WriteOnly) || !image.save(&out, "PNG") || !out.commit()) {
    std::fprintf(stderr, "ridgeline-gui: cannot write %s: %s\n", qPrintable(parser.value(shot)),
                 qPrintable(out.errorString()));
    return 2;
  }
  std::printf("%s\n", qPrintable(parser.value(shot)));
  return 0;
}
