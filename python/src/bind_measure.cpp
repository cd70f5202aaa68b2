// measure(): a Python callable timed by the runner's harness (runner/measure.hpp). The
// arguments are checked here, each error naming its argument; the Python side has already
// turned its keywords into these.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/stl.h>

#include <cmath>

#include "bindings.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/runner/measure.hpp"
#include "ridgeline/runner/run_request.hpp"

namespace py = pybind11;

namespace ridgeline::python {

namespace {

template <typename T>
T parsed(std::optional<T> value, std::string_view argument, std::string_view text,
         std::string_view known) {
  if (!value) throw InputError(fmt::format("{}={:?}: not one of {}", argument, text, known));
  return *value;
}

// A finite count at least 0; `argument` names it in the error.
double checked_count(double value, std::string_view argument) {
  if (!std::isfinite(value) || value < 0)
    throw InputError(fmt::format("{}={}: give a finite number, 0 or more", argument, value));
  return value;
}

Problem checked_problem(const std::string& op_name, const std::string& params,
                        const std::string& dtype_text) {
  const OpDefinition& op = op_definition(op_name);
  Problem p;
  p.op = op.name;
  p.params = params.empty() ? checked_params(op, {}) : parse_params(op, params);
  p.dtype =
      parsed(parse_dtype(dtype_text), "dtype", dtype_text, "f64, f32, tf32, bf16, f16, i8, i32");
  if (std::find(op.dtypes.begin(), op.dtypes.end(), p.dtype) == op.dtypes.end()) {
    std::vector<std::string_view> defined;
    for (DType d : op.dtypes) defined.push_back(to_string(d));
    throw InputError(fmt::format("dtype={:?}: {} is defined for {}", dtype_text, op.name,
                                 fmt::join(defined, ", ")));
  }
  return p;
}

WorkModel checked_work(double flops, const std::map<std::string, double>& bytes) {
  WorkModel w;
  w.flops = checked_count(flops, "flops");
  for (const auto& [level, value] : bytes) {
    const std::optional<MemoryLevel> l = parse_byte_level(level);
    if (!l)
      throw InputError(fmt::format("bytes: unknown level {:?} (L1, L2, L3, dram, network)", level));
    w.bytes[*l] = checked_count(value, fmt::format("bytes[{:?}]", level));
  }
  return w;
}

// The Python function as the harness calls it: its exception becomes the case's error,
// Ctrl-C (KeyboardInterrupt, or a signal pending once a C function returns) stops the
// measurement.
std::function<void()> harness_call(py::function fn) {
  return [fn] {
    try {
      fn();
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt)) throw CallInterrupted("KeyboardInterrupt");
      throw std::runtime_error(e.what());
    }
    if (PyErr_CheckSignals() != 0) {
      const bool interrupt = PyErr_ExceptionMatches(PyExc_KeyboardInterrupt);
      py::error_already_set e;
      if (interrupt) throw CallInterrupted("KeyboardInterrupt");
      throw std::runtime_error(e.what());
    }
  };
}

std::string measure(py::function fn, const std::string& name, const std::string& op,
                    const std::string& params, const std::string& dtype, int threads,
                    const std::string& cache, const std::string& device, const std::string& role,
                    const std::string& family, double flops,
                    const std::map<std::string, double>& bytes,
                    const std::map<std::string, std::string>& notes, std::optional<int> repetitions,
                    std::optional<std::string> min_time, std::optional<double> warmup_s,
                    const std::vector<std::string>& collect,
                    const std::vector<std::pair<std::uintptr_t, std::size_t>>& cold_memory) {
  CallableMeasurement m;
  m.spec.backend = name;
  m.spec.problem = checked_problem(op, params, dtype);
  m.spec.problem.pattern = "caller";  // the caller's own inputs: Ridgeline filled none
  if (threads < 1) throw InputError(fmt::format("threads={}: give 1 or more", threads));
  m.spec.threads = threads;
  m.spec.cache = parsed(parse_cache_state(cache), "cache", cache, "warm, cold");
  m.device = parsed(parse_device(device), "device", device, "cpu, gpu");
  m.role = parsed(parse_kernel_role(role), "role", role, "ladder, fused, unfused, vendor");
  m.family = family;
  m.work = checked_work(flops, bytes);
  m.notes = notes;
  for (const auto& [address, size] : cold_memory)
    m.cold_memory.push_back({reinterpret_cast<const void*>(address), size});
  m.call = harness_call(std::move(fn));

  RunSettings settings;
  if (repetitions) {
    if (*repetitions < 1)
      throw InputError(fmt::format("repetitions={}: give 1 or more", *repetitions));
    settings.repetitions = *repetitions;
  }
  if (min_time) {
    const MinTime t = parse_min_time(*min_time, "min_time");
    if (t.seconds) settings.min_time_s = *t.seconds;
    settings.iterations = t.iterations;
  }
  if (warmup_s) settings.warmup_s = checked_count(*warmup_s, "warmup");
  settings.collect = collect;
  std::vector<CaseResult> results;
  try {
    results = measure_callable(m, settings);
  } catch (const CallInterrupted&) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : results) out.push_back(to_json(r));
  return out.dump();
}

}  // namespace

void bind_measure(py::module_& m) {
  m.def("measure", &measure, py::arg("fn"), py::arg("name"), py::arg("op"), py::arg("params"),
        py::arg("dtype"), py::arg("threads"), py::arg("cache"), py::arg("device"), py::arg("role"),
        py::arg("family"), py::arg("flops"), py::arg("bytes"), py::arg("notes"),
        py::arg("repetitions"), py::arg("min_time"), py::arg("warmup_s"), py::arg("collect"),
        py::arg("cold_memory"),
        "Times fn with the native kernels' harness; the case's rows as a JSON array");
}

}  // namespace ridgeline::python
