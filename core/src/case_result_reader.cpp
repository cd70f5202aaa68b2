// One row of a Run (a Google Benchmark entry and Ridgeline's block) read through the field
// reader, over nlohmann's values (every document) or simdjson's (a large run's rows).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "json_fields.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/run_json.hpp"
#include "run_rows_fast.hpp"
#ifdef RIDGELINE_WITH_SIMDJSON
#include "json_value_simd.hpp"
#endif

namespace ridgeline {

using nlohmann::json;

namespace {

std::string known_ops() {
  std::vector<std::string> names;
  for (const auto& op : op_registry()) names.push_back(op.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

template <typename Fields>
std::int64_t positive(const Fields& f, const char* key) {
  std::int64_t v = f.integer(key);
  if (v <= 0) f.fail(key, fmt::format("must be positive, got {}", v));
  return v;
}

// Threads of one case: the largest machines have a few thousand hardware threads. A row's
// time is per thread where Google Benchmark sums it: 10^9 threads would turn 100 ns into
// 100 s per call.
constexpr std::int64_t kMaxRowThreads = 65536;

template <typename Fields>
std::int64_t row_threads(const Fields& f, const char* key) {
  const std::int64_t v = f.integer(key);
  if (v < 1 || v > kMaxRowThreads)
    f.fail(key, fmt::format("{} threads: expected 1 to {}", v, kMaxRowThreads));
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
  p.attrs = {{"layout", std::string(to_string(f.template word<Layout>("layout", parse_layout)))}};
  return p;
}

template <typename Fields>
Lowering lowering_from_json(const Fields& f) {
  Lowering l;
  l.kind = f.template word<LoweringKind>("kind", parse_lowering_kind);
  f.array_value("steps").each_element([&](auto step, std::size_t i) {
    const Fields s(step, f.origin(), fmt::format("{}[{}]", f.child("steps"), i));
    l.steps.push_back({s.template word<StepKind>("kind", parse_step_kind), s.string("note"),
                       s.string_or("pass", "")});
  });
  return l;
}

template <typename Fields>
CaseDetails details_from_json(const Fields& f) {
  CaseDetails d;
  d.problem.op = f.string("op");
  d.backend = f.string("backend");
  d.device = f.word_or("device", parse_device, Device::cpu);  // runs from before the GPU kernels
  // Schemas 1 and 2 recorded neither: guessed here, once, from the backend's name (run_json.cpp
  // says so in the Run's notes).
  d.role = f.has("role") ? f.word("role", parse_kernel_role) : inferred_role(d.backend);
  d.family = f.has("role") ? f.string_or("family", "") : inferred_family(d.backend);
  d.problem.dtype = f.template word<DType>("dtype", parse_dtype);
  // Runs before the unit was recorded: what a kernel of the device runs that op and dtype on.
  d.compute_unit = f.word_or("compute_unit", parse_compute_unit,
                             default_compute_unit(d.device, d.problem.op, d.problem.dtype));
  d.problem.params = f.has("params") ? params_from_json(f, d.problem.op) : schema1_params(f);
  d.problem.pattern = f.string("pattern");
  d.threads = static_cast<int>(row_threads(f, "threads"));
  if (f.has("fp_env")) d.fp_env = f.template word<FpEnv>("fp_env", parse_fp_env);
  if (f.has("cache")) d.cache = f.template word<CacheState>("cache", parse_cache_state);
  const Fields work = f.object("work");
  d.work.flops = work.number("flops");
  const Fields bytes = work.object("bytes");
  bytes.value().each_member([&](std::string_view level, auto) {
    const std::string key(level);
    const double b = bytes.number(key.c_str());
    if (const auto known = parse_byte_level(level))
      d.work.bytes[*known] = b;
    else
      d.work.unknown_bytes[key] = b;
  });
  f.array_value("metrics").each_element([&](auto metric, std::size_t i) {
    const Fields m(metric, f.origin(), fmt::format("{}[{}]", f.child("metrics"), i));
    d.metrics.push_back({m.string("name"), m.number("value"), m.string("unit"),
                         m.template word<MetricSource>("source", parse_metric_source)});
  });
  const Fields v = f.object("validation");
  d.validation.disposition = v.template word<Disposition>("disposition", parse_disposition);
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
  // Results written before the lowering was recorded: inferred, here only, from the
  // backend's name and the notes as those builds wrote them (vocabulary.hpp).
  d.lowering = f.has("lowering") ? lowering_from_json(f.object("lowering"))
                                 : inferred_lowering(d.problem.op, d.backend, d.kernel_notes);
  if (f.has("rank")) {
    const std::int64_t rank = f.integer("rank");
    if (rank < 0 || rank > std::numeric_limits<int>::max())
      f.fail("rank", fmt::format("must be a rank of an MPI job (0 or more), got {}", rank));
    d.origin = RankOrigin{static_cast<int>(rank), f.string("host")};
  }
  return d;
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
  r.threads = f.has("threads") ? row_threads(f, "threads") : 1;
  r.error_occurred = f.boolean_or("error_occurred", false);
  r.error_message = f.string_or("error_message", "");
  r.skipped = f.boolean_or("skipped", false);
  r.skip_message = f.string_or("skip_message", "");
  // Google Benchmark writes no times for Complexity() fits (BigO, RMS: coefficients
  // instead); errored and skipped runs may have none. Non-finite times are kept: the
  // readers treat them as not measured.
  const bool fit = r.run_type == "aggregate" && (f.has("big_o") || f.has("rms"));
  const bool untimed = fit || r.error_occurred || r.skipped;
  // A time is per iteration: a timed row of no iterations measured nothing (errored and
  // skipped rows have 0; a row without the field is read as before, its count unknown).
  r.iterations = f.integer_or("iterations", 0);
  if (f.has("iterations") && (r.iterations < 0 || (r.iterations == 0 && !untimed)))
    f.fail("iterations",
           fmt::format("{} iterations: a timed row needs at least 1 (a row that measured "
                       "nothing says error_occurred or skipped)",
                       r.iterations));
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

}  // namespace ridgeline
