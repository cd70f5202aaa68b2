#include <fmt/format.h>

#include <cmath>

#include "json_fields.hpp"
#include "machine_limits.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

using detail::JsonFields;
using nlohmann::json;

namespace {

MetricSource source_of(const JsonFields& f) {
  return f.word_or("source", parse_metric_source, MetricSource::timed);
}

Device device_of(const JsonFields& f) {
  return f.word_or("device", parse_device, Device::cpu);  // files from before the GPU ceilings
}

// A sweep's rate: a finite number, not negative, at most kMaxRate.
bool is_rate(const json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0 &&
         v.get<double>() <= detail::kMaxRate;
}

template <typename T, typename F>
std::vector<T> read_array(const JsonFields& f, const char* key, F&& one) {
  std::vector<T> out;
  if (!f.has(key)) return out;
  const json& items = detail::bounded_array(f, key);
  for (std::size_t i = 0; i < items.size(); ++i)
    out.push_back(one(JsonFields(items[i], f.origin(), fmt::format("{}[{}]", f.child(key), i))));
  return out;
}

}  // namespace

json to_json(const MachineModel& m) {
  json compute = json::array(), memory = json::array(), overhead = json::array();
  for (const auto& c : m.compute)
    compute.push_back({{"name", c.name},
                       {"dtype", c.dtype},
                       {"isa", c.isa},
                       {"unit", c.unit},
                       {"per_second", c.per_second},
                       {"theoretical_per_second", c.theoretical_per_second},
                       {"theoretical_reason", c.theoretical_reason},
                       {"clock_hz", c.clock_hz},
                       {"threads", c.threads},
                       {"device", to_string(c.device)},
                       {"compute_unit", to_string(c.compute_unit)},
                       {"method", c.method},
                       {"source", std::string(to_string(c.source))}});
  json absent = json::array();
  for (const auto& a : m.absent_compute)
    absent.push_back(
        {{"name", a.name}, {"dtype", a.dtype}, {"unit", a.unit}, {"reason", a.reason}});
  for (const auto& c : m.memory) {
    json widths = json::array();
    for (const auto& [isa, rate] : c.widths)
      widths.push_back({{"isa", isa}, {"bytes_per_s", rate}});
    memory.push_back({{"level", c.level},
                      {"kernel", c.kernel},
                      {"isa", c.isa},
                      {"bytes_per_s", c.bytes_per_s},
                      {"working_set_bytes", c.working_set_bytes},
                      {"threads", c.threads},
                      {"device", to_string(c.device)},
                      {"method", c.method},
                      {"source", std::string(to_string(c.source))},
                      {"widths", widths}});
    if (c.check)
      memory.back()["check"] = {{"tool", c.check->tool},
                                {"test", c.check->test},
                                {"bytes_per_s", c.check->bytes_per_s},
                                {"working_set_bytes", c.check->working_set_bytes},
                                {"ratio", c.check->ratio}};
  }
  for (const auto& o : m.overhead)
    overhead.push_back({{"name", o.name},
                        {"seconds", o.seconds},
                        {"device", to_string(o.device)},
                        {"method", o.method},
                        {"source", std::string(to_string(o.source))}});
  json network = json::array();
  for (const auto& n : m.network)
    network.push_back({{"scope", n.scope},
                       {"device", to_string(n.device)},
                       {"pattern", n.pattern},
                       {"ranks", n.ranks},
                       {"bytes", n.bytes},
                       {"seconds", n.seconds},
                       {"bytes_per_s", n.bytes_per_s},
                       {"bus_bytes_per_s", n.bus_bytes_per_s},
                       {"method", n.method},
                       {"source", std::string(to_string(n.source))}});
  json sweeps = json::array(), levels = json::array();
  for (const auto& w : m.sweeps)
    sweeps.push_back({{"kernel", w.kernel},
                      {"isa", w.isa},
                      {"threads", w.threads},
                      {"working_set_bytes", w.working_set_bytes},
                      {"bytes_per_s", w.bytes_per_s},
                      {"passes", w.passes},
                      {"noise", w.noise}});
  for (const auto& l : m.levels)
    levels.push_back({{"name", l.name},
                      {"kernel", l.kernel},
                      {"threads", l.threads},
                      {"first_bytes", l.first_bytes},
                      {"last_bytes", l.last_bytes},
                      {"bytes_per_s", l.bytes_per_s},
                      {"capacity_bytes", l.capacity_bytes},
                      {"reported_bytes", l.reported_bytes},
                      {"disagrees", l.disagrees},
                      {"decision", to_string(l.decision)},
                      {"why", l.why}});
  json phases = json::array();
  for (const auto& p : m.phases) phases.push_back({{"name", p.name}, {"seconds", p.seconds}});
  json gpus = json::array();
  for (const auto& g : m.gpus)
    gpus.push_back({{"index", g.index},
                    {"name", g.name},
                    {"compute_capability", g.compute_capability},
                    {"multiprocessors", g.multiprocessors},
                    {"memory_bytes", g.memory_bytes},
                    {"l2_bytes", g.l2_bytes},
                    {"max_clock_hz", g.max_clock_hz}});
  return {
      {"schema", m.schema},
      {"fingerprint", m.fingerprint},
      {"date", m.date},
      {"host", m.host},
      {"ridgeline_version", m.ridgeline_version},
      {"cpu",
       {{"model", m.cpu_model},
        {"vendor", m.cpu_vendor},
        {"family", m.cpu_family},
        {"model_number", m.cpu_model_number},
        {"cores", m.cores},
        {"isa", m.isa},
        {"measured_clock_hz", m.measured_clock_hz},
        {"clock_method", m.clock_method},
        {"emulated", m.emulated}}},
      {"caches", {{"l1d_bytes", m.l1d_bytes}, {"l2_bytes", m.l2_bytes}, {"l3_bytes", m.l3_bytes}}},
      {"memory_bytes", m.memory_bytes},
      {"byte_convention", m.byte_convention},
      {"compute", compute},
      {"absent_compute", absent},
      {"memory", memory},
      {"overhead", overhead},
      {"sweeps", sweeps},
      {"levels", levels},
      {"gpus", gpus},
      {"gpu_reason", m.gpu_reason},
      {"check_reason", m.check_reason},
      {"probe_seconds", m.probe_seconds},
      {"phases", phases},
      {"network", network},
      {"network_reason", m.network_reason}};
}

MachineModel machine_from_json(const json& j, const std::string& origin, const std::string& path) {
  // A run given where a machine model was meant: say what it is.
  if (path.empty() && j.is_object() && !j.contains("schema") && j.contains("benchmarks"))
    throw InputError(
        fmt::format("{}: a run, not a machine model: --machine takes a file written "
                    "by `ridgeline probe -o` (a run's own model is used where it "
                    "carries one)",
                    origin));
  JsonFields f(j, origin, path);
  MachineModel m;
  m.schema = static_cast<int>(f.integer("schema"));
  if (m.schema < 1 || m.schema > kMachineSchemaVersion)
    f.fail("schema", fmt::format("machine schema version {} is not supported (this build reads "
                                 "1 to {})",
                                 m.schema, kMachineSchemaVersion));
  m.fingerprint = f.string("fingerprint");
  m.date = f.string_or("date", "");
  m.host = f.string_or("host", "");
  m.ridgeline_version = f.string_or("ridgeline_version", "");
  JsonFields cpu = f.object("cpu");
  m.cpu_model = cpu.string("model");
  m.cpu_vendor = cpu.string_or("vendor", "");
  m.cpu_family = static_cast<int>(cpu.integer_or("family", 0));
  m.cpu_model_number = static_cast<int>(cpu.integer_or("model_number", 0));
  // 0 where no host was probed: `probe --network` writes a model of the network alone.
  m.cores = static_cast<int>(detail::integer_in(cpu, "cores", 0, detail::kMaxThreads));
  if (cpu.has("isa"))
    for (const auto& v : detail::bounded_array(cpu, "isa"))
      if (v.is_string()) m.isa.push_back(v.get<std::string>());
  m.measured_clock_hz = detail::clock_hz_or_zero(cpu, "measured_clock_hz");
  m.clock_method = cpu.string_or("clock_method", "");
  m.emulated = cpu.string_or("emulated", "");
  if (f.has("caches")) {
    JsonFields c = f.object("caches");
    m.l1d_bytes = detail::bytes_or_zero(c, "l1d_bytes");
    m.l2_bytes = detail::bytes_or_zero(c, "l2_bytes");
    m.l3_bytes = detail::bytes_or_zero(c, "l3_bytes");
  }
  m.memory_bytes = static_cast<std::uint64_t>(detail::bytes_or_zero(f, "memory_bytes"));
  m.byte_convention = f.string_or("byte_convention", "");
  m.compute = read_array<ComputeCeiling>(f, "compute", [](const JsonFields& c) {
    ComputeCeiling x;
    x.name = c.string("name");
    x.dtype = c.string("dtype");
    x.isa = c.string_or("isa", "");
    x.unit = c.string_or("unit", "FLOP/s");
    x.per_second = detail::positive_rate(c, "per_second");
    x.theoretical_per_second = detail::non_negative_or(c, "theoretical_per_second");
    x.theoretical_reason = c.string_or("theoretical_reason", "");
    x.clock_hz = detail::clock_hz_or_zero(c, "clock_hz");
    x.threads = detail::thread_count(c, "threads");
    x.source = source_of(c);
    x.device = device_of(c);
    x.compute_unit = c.has("compute_unit") ? c.word("compute_unit", parse_compute_unit)
                                           : inferred_ceiling_unit(x.name, x.dtype, x.device);
    x.method = c.string_or("method", "");
    return x;
  });
  m.absent_compute = read_array<AbsentCeiling>(f, "absent_compute", [](const JsonFields& a) {
    return AbsentCeiling{a.string("name"), a.string("dtype"), a.string_or("unit", "FLOP/s"),
                         a.string("reason")};
  });
  m.memory = read_array<MemoryCeiling>(f, "memory", [](const JsonFields& c) {
    MemoryCeiling x;
    x.level = c.string("level");
    x.kernel = c.string("kernel");
    x.isa = c.string_or("isa", "");  // machine files before the widths were measured
    x.bytes_per_s = detail::positive_rate(c, "bytes_per_s");
    x.working_set_bytes = detail::bytes_or_zero(c, "working_set_bytes");
    x.threads = detail::thread_count(c, "threads");
    x.source = source_of(c);
    x.device = device_of(c);
    x.method = c.string_or("method", "");
    x.widths = read_array<std::pair<std::string, double>>(c, "widths", [](const JsonFields& w) {
      return std::pair{w.string("isa"), detail::positive_rate(w, "bytes_per_s")};
    });
    if (c.has("check")) {
      const JsonFields k = c.object("check");
      x.check = CeilingCheck{
          k.string("tool"), k.string("test"), detail::non_negative(k, "bytes_per_s"),
          detail::bytes_or_zero(k, "working_set_bytes"), detail::non_negative(k, "ratio")};
    }
    return x;
  });
  m.overhead = read_array<OverheadCeiling>(f, "overhead", [](const JsonFields& c) {
    return OverheadCeiling{c.string("name"),
                           detail::non_negative(c, "seconds", detail::kMaxSeconds), source_of(c),
                           device_of(c), c.string_or("method", "")};
  });
  m.sweeps = read_array<MemorySweep>(f, "sweeps", [](const JsonFields& w) {
    MemorySweep x;
    x.kernel = w.string("kernel");
    x.isa = w.string_or("isa", "");
    x.threads = detail::thread_count(w, "threads");
    for (const auto& v : detail::bounded_array(w, "working_set_bytes")) {
      if (!v.is_number_integer() || v.get<std::int64_t>() <= 0 ||
          v.get<std::int64_t>() > detail::kMaxBytes)
        w.fail("working_set_bytes",
               fmt::format("must hold integers from 1 to {}", detail::kMaxBytes));
      x.working_set_bytes.push_back(v.get<std::int64_t>());
    }
    for (const auto& v : detail::bounded_array(w, "bytes_per_s")) {
      if (!is_rate(v)) w.fail("bytes_per_s", "must hold finite numbers that are not negative");
      x.bytes_per_s.push_back(v.get<double>());
    }
    if (x.bytes_per_s.size() != x.working_set_bytes.size())
      w.fail("bytes_per_s", "needs one rate per working set");
    if (w.has("passes"))
      for (const auto& pass : detail::bounded_array(w, "passes", detail::kMaxSweepPasses)) {
        std::vector<double> rates;
        if (pass.is_array() && pass.size() == x.working_set_bytes.size())
          for (const auto& v : pass)
            if (is_rate(v)) rates.push_back(v.get<double>());
        if (!pass.is_array() || rates.size() != x.working_set_bytes.size())
          w.fail("passes",
                 "must hold one array of rates that are not negative per pass, one "
                 "rate per working set");
        x.passes.push_back(std::move(rates));
      }
    x.noise = detail::non_negative_or(w, "noise");
    return x;
  });
  m.levels = read_array<MeasuredLevel>(f, "levels", [](const JsonFields& l) {
    MeasuredLevel x;
    x.name = l.string("name");
    x.kernel = l.string_or("kernel", "");
    x.threads = detail::thread_count(l, "threads");
    x.first_bytes = detail::integer_in(l, "first_bytes", 0, detail::kMaxBytes);
    x.last_bytes = detail::integer_in(l, "last_bytes", 0, detail::kMaxBytes);
    x.bytes_per_s = detail::positive_rate(l, "bytes_per_s");
    x.capacity_bytes = detail::bytes_or_zero(l, "capacity_bytes");
    x.reported_bytes = detail::bytes_or_zero(l, "reported_bytes");
    x.disagrees = l.boolean_or("disagrees", false);
    // Older models: the measured size was used where it disagreed, the OS's elsewhere.
    const std::string decision = l.string_or(
        "decision", x.disagrees ? "replaced" : (is_main_memory(x.name) ? "memory" : "confirmed"));
    const auto d = cache_size_decision_from(decision);
    if (!d) l.fail("decision", "must be confirmed, inconclusive, replaced, extra or memory");
    x.decision = *d;
    x.why = l.string_or("why", "");
    return x;
  });
  if (f.has("gpus"))
    m.gpus = read_array<GpuDescription>(f, "gpus", [](const JsonFields& g) {
      return GpuDescription{
          static_cast<int>(detail::integer_in(g, "index", 0, detail::kMaxThreads)),
          g.string("name"),
          g.string_or("compute_capability", ""),
          static_cast<int>(detail::integer_in_or(g, "multiprocessors", 0, detail::kMaxThreads, 0)),
          detail::bytes_or_zero(g, "memory_bytes"),
          detail::bytes_or_zero(g, "l2_bytes"),
          detail::clock_hz_or_zero(g, "max_clock_hz")};
    });
  m.gpu_reason = f.string_or("gpu_reason", "");
  m.check_reason = f.string_or("check_reason", "");
  m.probe_seconds = detail::non_negative_or(f, "probe_seconds", detail::kMaxSeconds);
  m.phases = read_array<ProbePhase>(f, "phases", [](const JsonFields& p) {
    return ProbePhase{p.string("name"), detail::non_negative(p, "seconds", detail::kMaxSeconds)};
  });
  m.network = read_array<NetworkCeiling>(f, "network", [](const JsonFields& n) {
    NetworkCeiling x;
    x.scope = n.string("scope");
    x.device = device_of(n);
    x.pattern = n.string("pattern");
    const std::int64_t ranks = n.integer("ranks");
    if (ranks < 2) n.fail("ranks", fmt::format("a network needs 2 ranks or more, got {}", ranks));
    x.ranks = detail::thread_count(n, "ranks");
    x.bytes = detail::integer_in(n, "bytes", 1, detail::kMaxBytes);
    x.seconds = detail::non_negative(n, "seconds", detail::kMaxSeconds);
    x.bytes_per_s = detail::non_negative(n, "bytes_per_s");
    x.bus_bytes_per_s = detail::non_negative(n, "bus_bytes_per_s");
    x.source = source_of(n);
    x.method = n.string_or("method", "");
    return x;
  });
  m.network_reason = f.string_or("network_reason", "");
  return m;
}

MachineModel read_machine_file(const std::filesystem::path& file) {
  // Refused before it is parsed: a file of a million levels would cost gigabytes first.
  std::error_code ec;
  if (const auto size = std::filesystem::file_size(file, ec);
      !ec && size > detail::kMaxModelFileBytes)
    throw InputError(fmt::format(
        "{}: {:.0f} MiB, larger than any machine model (a probe writes well under 1 MiB; at "
        "most {} MiB are read)",
        file.string(), static_cast<double>(size) / (1 << 20), detail::kMaxModelFileBytes >> 20));
  return machine_from_json(read_json_file(file), file.string(), "");
}

void write_machine_file(const std::filesystem::path& file, const MachineModel& machine) {
  write_file_atomically(file, to_json(machine).dump(2) + "\n");
}

}  // namespace ridgeline
