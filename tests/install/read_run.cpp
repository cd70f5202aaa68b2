// Reads a Run with the installed Ridgeline::core and prints what it holds.
#include <cstdio>

#include "ridgeline/core/run_json.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const ridgeline::Run run = ridgeline::read_run_file(argv[1]);
  std::printf("%zu results from %s\n", run.benchmarks.size(), run.context.host_name.c_str());
  return run.benchmarks.empty() ? 1 : 0;
}
