// ridgeline-gui in a build without Qt: says why, and how to get the dashboard.
#include <cstdio>

int main() {
  std::fprintf(stderr,
               "ridgeline-gui: this build has no dashboard: %s. `ridgeline report RUN.json -o "
               "report.html` shows the same roofline in a browser.\n",
               RIDGELINE_QT_OFF_REASON);
  return 2;
}
