#include "ridgeline/core/run_json.hpp"

#include <fmt/format.h>

#include <cmath>

#include "json_fields.hpp"
#include "ridgeline/core/error.hpp"

namespace ridgeline {

using detail::JsonFields;
using nlohmann::json;

namespace {

// Each level by its JSON spelling (a level the vocabulary does not know as the file named it).
json bytes_to_json(const WorkModel& work) {
  json bytes(work.unknown_bytes);
  for (const auto& [level, b] : work.bytes) bytes[std::string(to_string(level))] = b;
  return bytes;
}

json details_to_json(const CaseDetails& d) {
  json metrics = json::array();
  for (const auto& m : d.metrics)
    metrics.push_back({{"name", m.name},
                       {"value", m.value},
                       {"unit", m.unit},
                       {"source", std::string(to_string(m.source))}});
  json j = {{"op", d.problem.op},
            {"backend", d.backend},
            {"device", to_string(d.device)},
            {"role", to_string(d.role)},
            {"compute_unit", to_string(d.compute_unit)},
            {"family", d.family},
            {"dtype", std::string(to_string(d.problem.dtype))},
            {"params", {{"dims", d.problem.params.dims}, {"attrs", d.problem.params.attrs}}},
            {"pattern", d.problem.pattern},
            {"threads", d.threads},
            {"work", {{"flops", d.work.flops}, {"bytes", bytes_to_json(d.work)}}},
            {"metrics", metrics},
            {"validation",
             {{"disposition", std::string(to_string(d.validation.disposition))},
              {"max_rel_err", d.validation.max_rel_err},
              {"tolerance", d.validation.tolerance},
              {"method", d.validation.method},
              {"message", d.validation.message}}},
            {"kernel", d.kernel_notes},
            {"power", nullptr}};
  if (d.lowering) {
    json steps = json::array();
    for (const LoweringStep& s : d.lowering->steps)
      steps.push_back({{"kind", to_string(s.kind)}, {"note", s.note}, {"pass", s.pass}});
    j["lowering"] = {{"kind", to_string(d.lowering->kind)}, {"steps", steps}};
  }
  if (d.fp_env != FpEnv::ieee) j["fp_env"] = std::string(to_string(d.fp_env));
  if (d.cache != CacheState::warm) j["cache"] = std::string(to_string(d.cache));
  if (d.origin) {
    j["rank"] = d.origin->rank;
    j["host"] = d.origin->host;
  }
  return j;
}

std::string aggregate_unit_of(const CaseResult& r) {
  if (!r.aggregate_unit.empty()) return r.aggregate_unit;
  return r.aggregate_name == "cv" ? "percentage" : "time";
}

json ranks_to_json(const std::vector<RankContext>& ranks) {
  json out = json::array();
  for (const RankContext& r : ranks) {
    json j = {{"rank", r.rank}, {"host", r.host},
              {"node", r.node}, {"local_rank", r.local_rank},
              {"cpus", r.cpus}, {"outcome", r.outcome}};
    if (!r.gpus.empty()) j["gpus"] = r.gpus;
    if (r.machine) j["machine"] = to_json(*r.machine);
    out.push_back(std::move(j));
  }
  return out;
}

std::vector<RankContext> ranks_from_json(const json& ranks, const std::string& origin) {
  std::vector<RankContext> out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const JsonFields f(ranks[i], origin, fmt::format("context.ridgeline.ranks[{}]", i));
    RankContext r;
    r.rank = static_cast<int>(f.integer("rank"));
    r.host = f.string("host");
    r.node = static_cast<int>(f.integer_or("node", 0));
    r.local_rank = static_cast<int>(f.integer_or("local_rank", 0));
    if (f.has("cpus"))
      for (const auto& c : f.array("cpus"))
        if (c.is_number_integer()) r.cpus.push_back(c.get<int>());
    if (f.has("gpus"))
      for (const auto& g : f.array("gpus"))
        if (g.is_number_integer()) r.gpus.push_back(g.get<int>());
    r.outcome = f.string_or("outcome", "finished");
    if (f.has("machine")) {
      const JsonFields m = f.object("machine");
      r.machine = machine_from_json(m.raw(), origin, m.path());
    }
    out.push_back(std::move(r));
  }
  return out;
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
    for (const auto& s : c.collectors) {
      json entry = {{"name", s.name},
                    {"available", s.available},
                    {"reason", s.reason},
                    {"trust", s.trust},
                    {"validation", s.validation}};
      if (s.requested) entry["requested"] = *s.requested;
      collectors.push_back(std::move(entry));
    }
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
    if (!c.ranks.empty()) context["ridgeline"]["ranks"] = ranks_to_json(c.ranks);
    if (!p.einsum_networks.empty()) {
      json networks = json::array();
      for (const EinsumNetworkRun& n : p.einsum_networks)
        networks.push_back({{"equation", n.equation}, {"extents", n.extents}});
      context["ridgeline"]["provenance"]["einsum_networks"] = std::move(networks);
    }
  }
  json benchmarks = json::array();
  for (const auto& r : run.benchmarks) benchmarks.push_back(to_json(r));
  return {{"context", context}, {"benchmarks", benchmarks}};
}

Run run_from_json(const json& j, const std::string& origin) {
  // A machine model given where a run was meant: say what it is and where it goes.
  if (j.is_object() && !j.contains("context") && j.contains("fingerprint") &&
      (j.contains("memory") || j.contains("compute")))
    throw InputError(
        fmt::format("{}: a machine model (written by `ridgeline probe -o`), not a "
                    "run: give it as --machine {} beside a run",
                    origin, origin));
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
    if (ctx.schema < 3)
      run.notes.push_back(fmt::format(
          "{}: a schema-{} run: each kernel's role (fused, unfused, vendor, ladder) and family "
          "are inferred from its backend's name, as the analysis of that build did",
          origin, ctx.schema));
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
      if (pf.has("einsum_networks")) {
        const json& networks = pf.array("einsum_networks");
        for (std::size_t i = 0; i < networks.size(); ++i) {
          const JsonFields nf(networks[i], origin,
                              fmt::format("context.ridgeline.provenance.einsum_networks[{}]", i));
          p.einsum_networks.push_back({nf.string("equation"), nf.string("extents")});
        }
      }
    }
    if (r.has("ranks")) ctx.ranks = ranks_from_json(r.array("ranks"), origin);
    if (r.has("collectors")) {
      const json& cols = r.array("collectors");
      for (std::size_t i = 0; i < cols.size(); ++i) {
        JsonFields cf(cols[i], origin, fmt::format("context.ridgeline.collectors[{}]", i));
        ctx.collectors.push_back({cf.string("name"), cf.boolean("available"),
                                  cf.string_or("reason", ""), cf.string_or("trust", ""),
                                  cf.string_or("validation", ""), std::nullopt});
        if (cf.has("requested")) ctx.collectors.back().requested = cf.boolean("requested");
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
