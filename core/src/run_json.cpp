#include "ridgeline/core/run_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "json_fields.hpp"
#include "run_rows_fast.hpp"
#ifdef RIDGELINE_WITH_SIMDJSON
#include "json_value_simd.hpp"
#endif
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/ops/gemm.hpp"

namespace ridgeline {

using detail::JsonFields;
using nlohmann::json;

namespace {

json details_to_json(const CaseDetails& d) {
  json metrics = json::array();
  for (const auto& m : d.metrics)
    metrics.push_back({{"name", m.name},
                       {"value", m.value},
                       {"unit", m.unit},
                       {"source", std::string(to_string(m.source))}});
  json j = {{"op", d.problem.op},
            {"backend", d.backend},
            {"device", d.device},
            {"dtype", std::string(to_string(d.problem.dtype))},
            {"params", {{"dims", d.problem.params.dims}, {"attrs", d.problem.params.attrs}}},
            {"pattern", d.problem.pattern},
            {"threads", d.threads},
            {"work", {{"flops", d.work.flops}, {"bytes", d.work.bytes}}},
            {"metrics", metrics},
            {"validation",
             {{"disposition", std::string(to_string(d.validation.disposition))},
              {"max_rel_err", d.validation.max_rel_err},
              {"tolerance", d.validation.tolerance},
              {"method", d.validation.method},
              {"message", d.validation.message}}},
            {"kernel", d.kernel_notes},
            {"power", nullptr}};
  if (d.fp_env != FpEnv::ieee) j["fp_env"] = std::string(to_string(d.fp_env));
  return j;
}

std::string known_ops() {
  std::vector<std::string> names;
  for (const auto& op : op_registry()) names.push_back(op.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

template <typename Enum, typename Fields>
Enum parse_enum(const Fields& f, const char* key, std::optional<Enum> (*parse)(std::string_view)) {
  std::string text = f.string(key);
  auto value = parse(text);
  if (!value) f.fail(key, fmt::format("unknown value '{}'", text));
  return *value;
}

template <typename Fields>
std::int64_t positive(const Fields& f, const char* key) {
  std::int64_t v = f.integer(key);
  if (v <= 0) f.fail(key, fmt::format("must be positive, got {}", v));
  return v;
}

// Schema 2: "params": {"dims": {"rows": 4096, ...}, "attrs": {"causal": "1"}}, checked
// against the op's definition in this build.
template <typename Fields>
OpParams params_from_json(const Fields& f, const std::string& op_name) {
  const OpDefinition* op = find_op(op_name);
  if (!op) f.fail("op", fmt::format("unknown op '{}' (this build knows {})", op_name, known_ops()));
  const Fields params = f.object("params");
  OpParams given;
  const Fields dims = params.object("dims");
  dims.value().each_member([&](std::string_view name, auto) {
    const std::string key(name);
    given.dims[key] = dims.integer(key.c_str());
  });
  if (params.has("attrs")) {
    const Fields attrs = params.object("attrs");
    attrs.value().each_member([&](std::string_view name, auto) {
      const std::string key(name);
      given.attrs[key] = attrs.string(key.c_str());
    });
  }
  try {
    return checked_params(*op, given);
  } catch (const InputError& e) {
    f.fail("params", e.what());
  }
}

// Schema 1 had only gemm: "shape": {"m", "n", "k", "batch"} and "layout".
template <typename Fields>
OpParams schema1_params(const Fields& f) {
  const Fields shape = f.object("shape");
  OpParams p;
  p.dims = {{"m", positive(shape, "m")},
            {"n", positive(shape, "n")},
            {"k", positive(shape, "k")},
            {"batch", shape.has("batch") ? positive(shape, "batch") : 1}};
  p.attrs = {{"layout", std::string(to_string(parse_enum<Layout>(f, "layout", parse_layout)))}};
  return p;
}

template <typename Fields>
CaseDetails details_from_json(const Fields& f) {
  CaseDetails d;
  d.problem.op = f.string("op");
  d.backend = f.string("backend");
  d.device = f.string_or("device", "cpu");  // runs from before the GPU kernels
  d.problem.dtype = parse_enum<DType>(f, "dtype", parse_dtype);
  d.problem.params = f.has("params") ? params_from_json(f, d.problem.op) : schema1_params(f);
  d.problem.pattern = f.string("pattern");
  d.threads = static_cast<int>(positive(f, "threads"));
  if (f.has("fp_env")) d.fp_env = parse_enum<FpEnv>(f, "fp_env", parse_fp_env);
  const Fields work = f.object("work");
  d.work.flops = work.number("flops");
  const Fields bytes = work.object("bytes");
  bytes.value().each_member([&](std::string_view level, auto) {
    const std::string key(level);
    d.work.bytes[key] = bytes.number(key.c_str());
  });
  f.array_value("metrics").each_element([&](auto metric, std::size_t i) {
    const Fields m(metric, f.origin(), fmt::format("{}[{}]", f.child("metrics"), i));
    d.metrics.push_back({m.string("name"), m.number("value"), m.string("unit"),
                         parse_enum<MetricSource>(m, "source", parse_metric_source)});
  });
  const Fields v = f.object("validation");
  d.validation.disposition = parse_enum<Disposition>(v, "disposition", parse_disposition);
  d.validation.max_rel_err = v.number_or("max_rel_err", 0);
  d.validation.tolerance = v.number_or("tolerance", 0);
  d.validation.method = v.string_or("method", "");
  d.validation.message = v.string_or("message", "");
  if (f.has("kernel")) {
    const Fields notes = f.object("kernel");
    notes.value().each_member([&](std::string_view key, auto value) {
      if (value.type() != detail::JsonType::string)
        notes.fail(std::string(key), "expected a string");
      d.kernel_notes[std::string(key)] = value.string();
    });
  }
  return d;
}

std::string aggregate_unit_of(const CaseResult& r) {
  if (!r.aggregate_unit.empty()) return r.aggregate_unit;
  return r.aggregate_name == "cv" ? "percentage" : "time";
}

// Keys Google Benchmark writes for itself; every other numeric key is a user counter.
bool is_benchmark_key(std::string_view key) {
  // A hash set: every numeric field of every row is looked up here.
  static const std::unordered_set<std::string_view> kKeys = {"name",
                                                             "family_index",
                                                             "per_family_instance_index",
                                                             "run_name",
                                                             "run_type",
                                                             "repetitions",
                                                             "repetition_index",
                                                             "threads",
                                                             "iterations",
                                                             "real_time",
                                                             "cpu_time",
                                                             "time_unit",
                                                             "aggregate_name",
                                                             "aggregate_unit",
                                                             "error_occurred",
                                                             "error_message",
                                                             "skipped",
                                                             "skip_message",
                                                             "ridgeline",
                                                             "label",
                                                             "big_o",
                                                             "cpu_coefficient",
                                                             "real_coefficient",
                                                             "rms"};
  return kKeys.count(key) > 0;
}

}  // namespace

json to_json(const CaseResult& r) {
  json j = {{"name", r.name},
            {"family_index", r.family_index},
            {"per_family_instance_index", r.per_family_instance_index},
            {"run_name", r.run_name},
            {"run_type", r.run_type},
            {"repetitions", r.repetitions},
            {"repetition_index", r.repetition_index},
            {"threads", r.threads},
            {"iterations", r.iterations},
            {"real_time", r.real_time},
            {"cpu_time", r.cpu_time},
            {"time_unit", r.time_unit}};
  if (r.run_type == "aggregate") {
    j["aggregate_name"] = r.aggregate_name;
    j["aggregate_unit"] = aggregate_unit_of(r);
  }
  if (r.error_occurred) {
    j["error_occurred"] = true;
    j["error_message"] = r.error_message;
  }
  if (r.skipped) {
    j["skipped"] = true;
    j["skip_message"] = r.skip_message;
  }
  for (const auto& [name, value] : r.counters) j[name] = value;
  if (r.ridgeline) j["ridgeline"] = details_to_json(*r.ridgeline);
  return j;
}

json to_json(const Run& run) {
  const RunContext& c = run.context;
  json caches = json::array();
  for (const auto& cache : c.caches)
    caches.push_back({{"type", cache.type},
                      {"level", cache.level},
                      {"size", cache.size},
                      {"num_sharing", cache.num_sharing}});
  json context = {{"date", c.date},
                  {"host_name", c.host_name},
                  {"executable", c.executable},
                  {"num_cpus", c.num_cpus},
                  {"mhz_per_cpu", c.mhz_per_cpu},
                  {"cpu_scaling_enabled", c.cpu_scaling_enabled},
                  {"caches", caches},
                  {"load_avg", c.load_avg},
                  {"library_build_type", c.library_build_type},
                  {"json_schema_version", 1}};
  if (!c.library_version.empty()) context["library_version"] = c.library_version;
  if (c.has_ridgeline) {
    json collectors = json::array();
    for (const auto& s : c.collectors)
      collectors.push_back({{"name", s.name},
                            {"available", s.available},
                            {"reason", s.reason},
                            {"trust", s.trust},
                            {"validation", s.validation}});
    context["ridgeline"] = {
        {"schema", kRunSchemaVersion},  // what this build writes, whatever it read
        {"version", c.version},
        {"interrupted", c.interrupted},
        {"machine",
         c.machine ? to_json(*c.machine) : json{{"cpu_model", c.cpu_model}, {"isa", c.isa}}},
        {"collectors", collectors}};
    if (const auto& l = c.machine_load)
      context["ridgeline"]["machine_load"] = {{"wall_s", l->wall_s},
                                              {"others_cpu_s", l->others_cpu_s},
                                              {"steal_s", l->steal_s},
                                              {"cpus", l->cpus},
                                              {"clock_start_hz", l->clock_start_hz},
                                              {"clock_end_hz", l->clock_end_hz}};
    const RunProvenance& p = c.provenance;
    if (!p.suite.empty() || !p.commit.empty())
      context["ridgeline"]["provenance"] = {{"suite", p.suite},
                                            {"seed", p.seed},
                                            {"repetitions", p.repetitions},
                                            {"min_time_s", p.min_time_s},
                                            {"iterations", p.iterations},
                                            {"warmup_s", p.warmup_s},
                                            {"case_timeout_s", p.case_timeout_s},
                                            {"command_line", p.command_line},
                                            {"commit", p.commit},
                                            {"compiler", p.compiler},
                                            {"flags", p.flags}};
  }
  json benchmarks = json::array();
  for (const auto& r : run.benchmarks) benchmarks.push_back(to_json(r));
  return {{"context", context}, {"benchmarks", benchmarks}};
}

template <typename Value>
CaseResult case_result_from(Value j, const std::string& origin, const std::string& path) {
  const detail::BasicJsonFields<Value> f(j, origin, path);
  CaseResult r;
  r.name = f.string("name");
  r.run_name = f.string_or("run_name", r.name);
  r.run_type = f.string_or("run_type", "iteration");
  if (r.run_type != "iteration" && r.run_type != "aggregate")
    f.fail("run_type", fmt::format("expected 'iteration' or 'aggregate', got '{}'", r.run_type));
  r.aggregate_name = f.string_or("aggregate_name", "");
  r.aggregate_unit = f.string_or("aggregate_unit", "");
  r.family_index = f.integer_or("family_index", 0);
  r.per_family_instance_index = f.integer_or("per_family_instance_index", 0);
  r.repetitions = f.integer_or("repetitions", 1);
  r.repetition_index = f.integer_or("repetition_index", 0);
  r.threads = f.integer_or("threads", 1);
  r.iterations = f.integer_or("iterations", 0);
  r.error_occurred = f.boolean_or("error_occurred", false);
  r.error_message = f.string_or("error_message", "");
  r.skipped = f.boolean_or("skipped", false);
  r.skip_message = f.string_or("skip_message", "");
  // Google Benchmark writes no times for Complexity() fits (BigO, RMS: coefficients
  // instead); errored and skipped runs may have none. Non-finite times are kept: the
  // readers treat them as not measured.
  const bool fit = r.run_type == "aggregate" && (f.has("big_o") || f.has("rms"));
  const bool untimed = fit || r.error_occurred || r.skipped;
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  r.real_time = untimed ? f.measured_or("real_time", kNone) : f.measured("real_time");
  r.cpu_time = untimed ? f.measured_or("cpu_time", kNone) : f.measured("cpu_time");
  r.time_unit = f.string_or("time_unit", "ns");
  if (r.time_unit != "ns" && r.time_unit != "us" && r.time_unit != "ms" && r.time_unit != "s")
    f.fail("time_unit", fmt::format("expected ns, us, ms or s, got '{}'", r.time_unit));
  // Every other numeric key is a user counter, as Google Benchmark writes them.
  j.each_member([&](std::string_view key, auto value) {
    if (detail::is_number(value.type()) && !is_benchmark_key(key))
      r.counters[std::string(key)] = value.number();
  });
  if (f.has("ridgeline")) r.ridgeline = details_from_json(f.object("ridgeline"));
  return r;
}

CaseResult case_result_from_json(const json& j, const std::string& origin,
                                 const std::string& path) {
  return case_result_from(detail::NlohmannValue(j), origin, path);
}

#ifdef RIDGELINE_WITH_SIMDJSON
template CaseResult case_result_from<detail::SimdValue>(detail::SimdValue, const std::string&,
                                                        const std::string&);
#endif

Run run_from_json(const json& j, const std::string& origin) {
  JsonFields top(j, origin, "");
  Run run;
  JsonFields c = top.object("context");
  RunContext& ctx = run.context;
  ctx.date = c.string_or("date", "");
  ctx.host_name = c.string_or("host_name", "");
  ctx.executable = c.string_or("executable", "");
  ctx.num_cpus = static_cast<int>(c.integer_or("num_cpus", 0));
  ctx.mhz_per_cpu = c.number_or("mhz_per_cpu", 0);
  ctx.cpu_scaling_enabled = c.boolean_or("cpu_scaling_enabled", false);
  ctx.library_build_type = c.string_or("library_build_type", "");
  ctx.library_version = c.string_or("library_version", "");
  if (c.has("caches")) {
    const json& caches = c.array("caches");
    for (std::size_t i = 0; i < caches.size(); ++i) {
      JsonFields cf(caches[i], origin, fmt::format("context.caches[{}]", i));
      ctx.caches.push_back({cf.string("type"), static_cast<int>(cf.integer("level")),
                            cf.integer("size"), static_cast<int>(cf.integer("num_sharing"))});
    }
  }
  if (c.has("load_avg")) {
    for (const auto& v : c.array("load_avg"))
      if (v.is_number()) ctx.load_avg.push_back(v.get<double>());
  }
  if (c.has("ridgeline")) {
    JsonFields r = c.object("ridgeline");
    ctx.has_ridgeline = true;
    ctx.schema = static_cast<int>(r.integer("schema"));
    if (ctx.schema < 1 || ctx.schema > kRunSchemaVersion)
      r.fail("schema", fmt::format("schema version {} is not supported (this build reads 1 to {})",
                                   ctx.schema, kRunSchemaVersion));
    ctx.version = r.string_or("version", "");
    ctx.interrupted = r.boolean_or("interrupted", false);
    if (r.has("machine")) {
      JsonFields m = r.object("machine");
      if (m.has("schema")) ctx.machine = machine_from_json(m.raw(), origin, m.path());
      ctx.cpu_model = m.string_or("cpu_model", ctx.machine ? ctx.machine->cpu_model : "");
      if (m.has("isa"))
        for (const auto& v : m.array("isa"))
          if (v.is_string()) ctx.isa.push_back(v.get<std::string>());
      if (ctx.machine && ctx.isa.empty()) ctx.isa = ctx.machine->isa;
    }
    if (r.has("machine_load")) {
      JsonFields l = r.object("machine_load");
      ctx.machine_load = MachineLoad{l.number("wall_s"),
                                     l.number("others_cpu_s"),
                                     l.number("steal_s"),
                                     static_cast<int>(l.integer("cpus")),
                                     l.number_or("clock_start_hz", 0),
                                     l.number_or("clock_end_hz", 0)};
    }
    if (r.has("provenance")) {
      JsonFields pf = r.object("provenance");
      RunProvenance& p = ctx.provenance;
      p.suite = pf.string_or("suite", "");
      p.seed = static_cast<std::uint64_t>(pf.integer_or("seed", 0));
      p.repetitions = static_cast<int>(pf.integer_or("repetitions", 0));
      p.min_time_s = pf.number_or("min_time_s", 0);
      p.iterations = pf.integer_or("iterations", 0);
      p.warmup_s = pf.number_or("warmup_s", 0);
      p.case_timeout_s = pf.number_or("case_timeout_s", 0);
      if (pf.has("command_line"))
        for (const auto& a : pf.array("command_line"))
          if (a.is_string()) p.command_line.push_back(a.get<std::string>());
      p.commit = pf.string_or("commit", "");
      p.compiler = pf.string_or("compiler", "");
      p.flags = pf.string_or("flags", "");
    }
    if (r.has("collectors")) {
      const json& cols = r.array("collectors");
      for (std::size_t i = 0; i < cols.size(); ++i) {
        JsonFields cf(cols[i], origin, fmt::format("context.ridgeline.collectors[{}]", i));
        ctx.collectors.push_back({cf.string("name"), cf.boolean("available"),
                                  cf.string_or("reason", ""), cf.string_or("trust", ""),
                                  cf.string_or("validation", "")});
      }
    }
  }
  const json& benchmarks = top.array("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i)
    run.benchmarks.push_back(
        case_result_from_json(benchmarks[i], origin, fmt::format("benchmarks[{}]", i)));
  return run;
}

}  // namespace ridgeline
