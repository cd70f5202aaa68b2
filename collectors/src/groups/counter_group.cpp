#include "ridgeline/collectors/counter_group.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/collectors/formula.hpp"
#include "ridgeline/core/error.hpp"

#ifndef RIDGELINE_SOURCE_GROUPS_DIR
#define RIDGELINE_SOURCE_GROUPS_DIR ""
#endif
#ifndef RIDGELINE_INSTALLED_GROUPS_DIR
#define RIDGELINE_INSTALLED_GROUPS_DIR ""
#endif

namespace ridgeline {

namespace fs = std::filesystem;

std::string GroupEvent::collect_item() const {
  const CollectorDescriptor* d = find_collector(collector);
  if (d && !d->known_events && !d->any_event) return collector;
  return collector + ":" + event;
}

std::string GroupEvent::metric_name() const {
  if (collector == "rapl") return "energy." + event;
  if (collector == "timer") return event;
  return collector + "." + event;
}

fs::path counter_groups_dir() {
  if (const char* env = std::getenv("RIDGELINE_GROUPS_DIR"); env && *env) return env;
  std::error_code ec;
  // Beside the running binary first (PREFIX/bin/ridgeline -> PREFIX/share/ridgeline/groups),
  // so an installed or moved tree finds its own groups; then where `cmake --install` puts
  // them; then the source tree of a build.
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = exe.parent_path().parent_path() / "share" / "ridgeline" / "groups";
    if (fs::is_directory(beside, ec)) return beside;
  }
  for (const char* candidate : {RIDGELINE_INSTALLED_GROUPS_DIR, RIDGELINE_SOURCE_GROUPS_DIR})
    if (*candidate && fs::is_directory(candidate, ec)) return candidate;
  return RIDGELINE_SOURCE_GROUPS_DIR;
}

std::string counter_group_cpu(const std::string& vendor, int family, int model) {
  // AArch64 has no family; its model is MIDR_EL1's part number, spelt as Arm's TRMs do. An
  // implementer without a name (its code, "0x00") is said to be one.
  if (family == 0)
    return fmt::format("{}{} part {:#05x}", vendor.rfind("0x", 0) == 0 ? "implementer " : "",
                       vendor, model);
  return fmt::format("{} family {:X}h model {:02X}h", vendor, family, model);
}

std::string counter_group_arch(const std::string& vendor, int family, int model) {
  if (vendor == "AuthenticAMD" && family == 0x19) {
    // Family 19h: Zen 3 (00h-0Fh, 20h-5Fh) and Zen 4 (10h-1Fh, 60h-7Fh, A0h-AFh).
    if ((model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
        (model >= 0xa0 && model <= 0xaf))
      return "zen4";
    return "zen3";
  }
  if (vendor == "GenuineIntel" && family == 6 && (model == 0x6a || model == 0x6c))
    return "icx";  // Ice Lake server
  if (vendor == "ARM") {
    // Arm Ltd. cores (MIDR_EL1 implementer 0x41) by part number, MIDR_EL1.PartNum in each
    // core's Technical Reference Manual. Licensees' own cores (Ampere One, Fujitsu A64FX)
    // have their own implementer and stay generic.
    switch (model) {
      case 0xd0c:
        return "neoverse_n1";  // Graviton2, Ampere Altra
      case 0xd40:
        return "neoverse_v1";  // Graviton3
      case 0xd49:
        return "neoverse_n2";  // Azure Cobalt 100
      case 0xd4f:
        return "neoverse_v2";  // Graviton4, NVIDIA Grace, Google Axion
      default:
        break;
    }
  }
  return "generic";
}

namespace {

struct GroupFile {
  std::string short_description, long_description;
  std::vector<std::string> inherits;
  std::vector<GroupEvent> events;
  std::vector<GroupMetric> metrics;
};

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

GroupFile parse_group_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(fmt::format("{}: cannot be read", file.string()));
  GroupFile g;
  enum class Section { header, events, metrics, long_text } section = Section::header;
  std::string line;
  int number = 0;
  auto fail = [&](const std::string& what) {
    throw InputError(fmt::format("{}:{}: {}", file.string(), number, what));
  };
  while (std::getline(in, line)) {
    ++number;
    if (section == Section::long_text) {
      g.long_description += line + "\n";
      continue;
    }
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::string keyword = t.substr(0, t.find_first_of(" \t"));
    const std::string rest = trim(t.substr(keyword.size()));
    if (keyword == "SHORT") {
      g.short_description = rest;
    } else if (keyword == "INHERITS") {
      if (!is_identifier(rest)) fail("INHERITS needs a group name");
      g.inherits.push_back(rest);
    } else if (keyword == "EVENTS" && rest.empty()) {
      section = Section::events;
    } else if (keyword == "METRICS" && rest.empty()) {
      section = Section::metrics;
    } else if (keyword == "LONG" && rest.empty()) {
      section = Section::long_text;
    } else if (section == Section::events) {
      // alias collector:event
      const std::string item = rest;
      const auto colon = item.find(':');
      if (!is_identifier(keyword) || item.empty() || colon == std::string::npos)
        fail(fmt::format("'{}': an event line is 'alias collector:event'", t));
      GroupEvent e{keyword, item.substr(0, colon), item.substr(colon + 1)};
      if (!find_collector(e.collector)) fail(fmt::format("unknown collector '{}'", e.collector));
      if (e.event.empty()) fail(fmt::format("'{}': no event after '{}:'", t, e.collector));
      g.events.push_back(std::move(e));
    } else if (section == Section::metrics) {
      // name [unit] formula
      const auto open = rest.find('['), close = rest.find(']');
      if (!is_identifier(keyword) || open != 0 || close == std::string::npos)
        fail(fmt::format("'{}': a metric line is 'name [unit] formula'", t));
      GroupMetric m{keyword, rest.substr(1, close - 1), trim(rest.substr(close + 1))};
      if (m.formula.empty()) fail(fmt::format("metric '{}' has no formula", m.name));
      try {
        formula_names(m.formula);
      } catch (const InputError& e) {
        fail(e.what());
      }
      g.metrics.push_back(std::move(m));
    } else {
      fail(fmt::format("'{}': expected SHORT, INHERITS, EVENTS, METRICS or LONG", keyword));
    }
  }
  return g;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// The folders under dir (one per CPU, and generic), sorted.
std::vector<std::string> group_folders(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory(ec)) names.insert(entry.path().filename().string());
  return {names.begin(), names.end()};
}

// What a user needs when a group is not there for this CPU: the CPU CPUID reported, the folder
// it maps to and its groups, the folders that exist, and where adding one is described.
std::string missing_group(const fs::path& dir, const std::string& arch, const std::string& name,
                          const std::string& cpu) {
  const std::string who = cpu.empty() ? "this CPU" : "this CPU, " + cpu + ",";
  const std::string where =
      arch == "generic" ? fmt::format("{} has no folder of its own, so only generic/ applies", who)
                        : fmt::format("{} uses {}/ and generic/", who, arch);
  return fmt::format(
      "counter group '{}' not found: {} ({}). Folders in {}: {}. Adding a group or a folder for "
      "a CPU: docs/adding-a-collector.md#counter-groups",
      name, where, joined(list_counter_groups(dir, arch)), dir.string(),
      joined(group_folders(dir)));
}

fs::path group_file(const fs::path& dir, const std::string& arch, const std::string& name,
                    const std::string& cpu) {
  std::error_code ec;
  for (const std::string& a : {arch, std::string("generic")}) {
    const fs::path p = dir / a / (name + ".txt");
    if (fs::is_regular_file(p, ec)) return p;
  }
  throw InputError(missing_group(dir, arch, name, cpu));
}

template <typename T, typename Key>
void merge_by(std::vector<T>& into, const std::vector<T>& add, Key key) {
  for (const T& x : add) {
    auto it = std::find_if(into.begin(), into.end(), [&](const T& y) { return key(y) == key(x); });
    if (it != into.end())
      *it = x;
    else
      into.push_back(x);
  }
}

void load_into(CounterGroup& g, const fs::path& dir, const std::string& arch,
               const std::string& cpu, const std::string& name, std::vector<std::string>& chain) {
  if (std::find(chain.begin(), chain.end(), name) != chain.end()) {
    std::string path;
    for (const auto& c : chain) path += c + " -> ";
    throw InputError(
        fmt::format("counter group '{}': INHERITS cycle {}{}", chain.front(), path, name));
  }
  chain.push_back(name);
  const fs::path file = group_file(dir, arch, name, cpu);
  const GroupFile f = parse_group_file(file);
  for (const auto& parent : f.inherits) load_into(g, dir, arch, cpu, parent, chain);
  merge_by(g.events, f.events, [](const GroupEvent& e) { return e.alias; });
  merge_by(g.metrics, f.metrics, [](const GroupMetric& m) { return m.name; });
  if (chain.size() == 1) {
    g.file = file;
    g.short_description = f.short_description;
    g.long_description = f.long_description;
    g.inherits = f.inherits;
  }
  chain.pop_back();
}

}  // namespace

CounterGroup load_counter_group(const fs::path& dir, const std::string& arch,
                                const std::string& name, const std::string& cpu) {
  if (!is_identifier(name))
    throw InputError(fmt::format("counter group '{}': not a group name", name));
  CounterGroup g;
  g.name = name;
  std::vector<std::string> chain;
  load_into(g, dir, arch, cpu, name, chain);
  g.arch = g.file.parent_path().filename().string();
  // Every name a formula reads must be an event alias, an earlier metric, time or iterations.
  std::set<std::string> known{"time", "iterations"};
  for (const auto& e : g.events) known.insert(e.alias);
  for (const auto& m : g.metrics) {
    for (const auto& n : formula_names(m.formula))
      if (!known.count(n))
        throw InputError(
            fmt::format("{}: metric '{}' reads '{}', which is no event alias, "
                        "earlier metric, time or iterations",
                        g.file.string(), m.name, n));
    known.insert(m.name);
  }
  return g;
}

std::vector<std::string> list_counter_groups(const fs::path& dir, const std::string& arch) {
  std::set<std::string> names;
  std::error_code ec;
  for (const std::string& a : {arch, std::string("generic")}) {
    if (!fs::is_directory(dir / a, ec)) continue;
    for (const auto& entry : fs::directory_iterator(dir / a, ec))
      if (entry.path().extension() == ".txt") names.insert(entry.path().stem().string());
  }
  return {names.begin(), names.end()};
}

std::vector<Metric> evaluate_group(const CounterGroup& group, const std::vector<Metric>& readings,
                                   double time, double iterations,
                                   std::vector<std::string>& missing) {
  std::map<std::string, double> values{{"time", time}, {"iterations", iterations}};
  for (const auto& e : group.events) {
    const std::string name = e.metric_name();
    for (const auto& m : readings)
      if (m.name == name || m.name == name + ".scaled") values[e.alias] = m.value;
  }
  std::vector<Metric> out;
  for (const auto& m : group.metrics) {
    std::vector<std::string> absent;
    for (const auto& n : formula_names(m.formula))
      if (!values.count(n)) absent.push_back(n);
    if (!absent.empty()) {
      std::string list;
      for (const auto& a : absent) list += (list.empty() ? "" : ", ") + a;
      missing.push_back(fmt::format("{}: {} not counted", m.name, list));
      continue;
    }
    const double v = evaluate_formula(m.formula, values);
    values[m.name] = v;
    out.push_back({m.name, v, m.unit, MetricSource::derived});
  }
  return out;
}

}  // namespace ridgeline
