#include "machine_load.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ridgeline {

namespace {

std::string read_all(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::optional<CpuTimes> parse_cpu_times(std::string_view proc_stat, std::string_view self_stat,
                                        double ticks) {
  if (!(ticks > 0)) return std::nullopt;
  CpuTimes t;
  std::istringstream lines{std::string(proc_stat)};
  bool total = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("cpu", 0) != 0) continue;
    if (line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[3]))) {
      ++t.cpus;
      continue;
    }
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"
    std::istringstream f(line.substr(3));
    double user, nice, system, idle, iowait, irq, softirq, steal = 0;
    if (!(f >> user >> nice >> system >> idle >> iowait >> irq >> softirq)) return std::nullopt;
    f >> steal;  // absent before Linux 2.6.11
    t.busy_s = (user + nice + system + irq + softirq) / ticks;
    t.steal_s = steal / ticks;
    total = true;
  }
  if (!total || t.cpus == 0) return std::nullopt;
  // "pid (comm) state ..." where comm may hold spaces and parentheses: fields count from the
  // last ')'; utime, stime, cutime, cstime are fields 14-17, the 12th-15th after it.
  const auto close = self_stat.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::istringstream f{std::string(self_stat.substr(close + 1))};
  std::vector<std::string> fields;
  for (std::string x; f >> x;) fields.push_back(x);
  if (fields.size() < 15) return std::nullopt;
  try {
    double self = 0;
    for (std::size_t i = 11; i <= 14; ++i) self += std::stod(fields[i]);
    t.self_s = self / ticks;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return t;
}

std::optional<CpuTimes> read_cpu_times() {
  return parse_cpu_times(read_all("/proc/stat"), read_all("/proc/self/stat"),
                         static_cast<double>(::sysconf(_SC_CLK_TCK)));
}

MachineLoad machine_load_between(const CpuTimes& start, const CpuTimes& end, double wall_s) {
  MachineLoad l;
  l.wall_s = wall_s;
  l.others_cpu_s = std::max(0.0, (end.busy_s - start.busy_s) - (end.self_s - start.self_s));
  l.steal_s = std::max(0.0, end.steal_s - start.steal_s);
  l.cpus = end.cpus;
  return l;
}

}  // namespace ridgeline
