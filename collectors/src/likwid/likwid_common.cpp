// The parts of the LIKWID support that need no LIKWID library: finding likwid-perfctr,
// region names, whether the marker API is active.
#include <fmt/format.h>
#include <sched.h>

#include <cctype>
#include <cstdlib>
#include <sstream>

#include "ridgeline/collectors/likwid.hpp"
#include "ridgeline/core/child_process.hpp"

namespace ridgeline {

Availability likwid_perfctr_status() {
  const std::string perfctr = find_on_path("likwid-perfctr");
  if (perfctr.empty())
    return {false, "likwid-perfctr is not on PATH (Debian: apt-get install likwid)"};
  const int cpu = sched_getcpu();
  std::string why;
  const auto run =
      run_program({perfctr, "-C", std::to_string(cpu < 0 ? 0 : cpu), "-g", "CLOCK", "true"}, why);
  if (!run) return {false, "could not run " + perfctr + ": " + why};
  std::string errors;
  std::stringstream lines(run->output);
  for (std::string l; std::getline(lines, l);) {
    while (!l.empty() && l.back() == '\r') l.pop_back();
    if (l.find("ERROR") != std::string::npos) errors += (errors.empty() ? "" : "; ") + l;
  }
  if (run->exit_status == 0 && errors.empty()) return {true, perfctr};
  return {false, fmt::format("{} -g CLOCK exited with {}: {}", perfctr, run->exit_status,
                             errors.empty() ? "no ERROR line; output: " + run->output : errors)};
}

bool likwid_marker_active() {
  for (const char* v : {"LIKWID_FILEPATH", "LIKWID_EVENTS", "LIKWID_THREADS", "LIKWID_MODE"}) {
    const char* value = std::getenv(v);
    if (!value || !*value) return false;
  }
  return true;
}

std::string likwid_region_name(const std::string& case_name) {
  std::string out = case_name;
  for (char& c : out)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '=' ||
          c == '-'))
      c = '_';
  return out;
}

}  // namespace ridgeline
