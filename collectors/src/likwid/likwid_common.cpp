// The parts of the LIKWID support that need no LIKWID library: finding likwid-perfctr,
// region names, whether the marker API is active.
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "ridgeline/collectors/likwid.hpp"

namespace ridgeline {

namespace {
std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}
}  // namespace

Availability likwid_perfctr_status() {
  const std::string perfctr = find_on_path("likwid-perfctr");
  if (perfctr.empty())
    return {false, "likwid-perfctr is not on PATH (Debian: apt-get install likwid)"};
  const int cpu = sched_getcpu();
  const std::string command =
      fmt::format("'{}' -C {} -g CLOCK true 2>&1", perfctr, cpu < 0 ? 0 : cpu);
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {false, "could not start " + perfctr};
  std::string output, errors;
  std::array<char, 512> line{};
  while (std::fgets(line.data(), line.size(), pipe)) {
    output += line.data();
    if (std::string(line.data()).find("ERROR") != std::string::npos) {
      std::string l = line.data();
      while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
      errors += (errors.empty() ? "" : "; ") + l;
    }
  }
  const int status = ::pclose(pipe);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (rc == 0 && errors.empty()) return {true, perfctr};
  return {false, fmt::format("{} -g CLOCK exited with {}: {}", perfctr, rc,
                             errors.empty() ? "no ERROR line; output: " + output : errors)};
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
