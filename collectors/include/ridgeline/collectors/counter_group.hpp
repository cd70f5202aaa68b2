#pragma once
// Counter groups: named sets of events with metric formulas, kept as data files in
// collectors/groups/<arch>/<NAME>.txt (format in collectors/groups/README.md), in the
// spirit of LIKWID's performance groups.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ridgeline/core/metric.hpp"

namespace ridgeline {

struct GroupEvent {
  std::string alias;      // the name formulas use: "flops_any"
  std::string collector;  // "papi", "perf", "rapl"
  std::string event;      // as --collect takes it after "collector:"
  // The --collect item: "collector:event", or "collector" for one that takes no events
  // (rapl reports every domain; the event names the domain's metric).
  std::string collect_item() const;
  // The metric name the collector reports this event under ("papi.<event>").
  std::string metric_name() const;
};

struct GroupMetric {
  std::string name;  // "flops", "bytes.dram", "flop_rate" (core/vocabulary.hpp)
  std::string unit;
  std::string formula;
};

struct CounterGroup {
  std::string name;
  std::string arch;  // the directory it came from: "zen4", "icx", "generic"
  std::filesystem::path file;
  std::string short_description;
  std::string long_description;
  std::vector<std::string> inherits;
  std::vector<GroupEvent> events;    // inherited ones first
  std::vector<GroupMetric> metrics;  // evaluated in this order; a formula may use earlier ones
};

// The directory of the group files: $RIDGELINE_GROUPS_DIR, else the installed
// share/ridgeline/groups, else the source tree's collectors/groups.
std::filesystem::path counter_groups_dir();

// The group directory for a CPU (CPUID vendor, display family and model; on Arm "ARM", 0 and
// the MIDR part number): "zen3", "zen4", "icx", "neoverse_n1", "neoverse_n2", "neoverse_v1",
// "neoverse_v2"; "generic" when there is none for it.
std::string counter_group_arch(const std::string& vendor, int family, int model);
// The same CPU in words for messages: "AuthenticAMD family 1Ah model 02h", "ARM part 0xd4f".
std::string counter_group_cpu(const std::string& vendor, int family, int model);

// Reads <dir>/<arch>/<name>.txt, else <dir>/generic/<name>.txt, resolving INHERITS the same
// way. Throws InputError ("<file>:<line>: what") on a syntax error, an unknown collector, a
// formula naming an undefined name or an inheritance cycle; on a missing group, one line
// naming `cpu` (counter_group_cpu), its folder and groups, the folders there are and the doc
// on adding one.
CounterGroup load_counter_group(const std::filesystem::path& dir, const std::string& arch,
                                const std::string& name, const std::string& cpu = {});

// Names of the groups usable on `arch` (its own and the generic ones), sorted.
std::vector<std::string> list_counter_groups(const std::filesystem::path& dir,
                                             const std::string& arch);

// Metrics of `group` from one repetition's collector readings: `time` is the repetition's
// timed seconds, `iterations` its iteration count. Each metric is `derived`; a metric
// whose events were not read (collector unavailable) is left out and named in `missing`.
std::vector<Metric> evaluate_group(const CounterGroup& group, const std::vector<Metric>& readings,
                                   double time, double iterations,
                                   std::vector<std::string>& missing);

}  // namespace ridgeline
