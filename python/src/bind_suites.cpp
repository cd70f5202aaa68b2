// The native side from Python: a suite planned by make_plan and run by run_plan, as
// `ridgeline run` does (one request path), and a native kernel prepared as a callable, so
// that measure() times it beside the CLI's own figure.
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <atomic>
#include <csignal>

#include "bindings.hpp"
#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/kernels/cache_sizes.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/runner/blas_probe.hpp"
#include "ridgeline/runner/probe.hpp"
#include "ridgeline/runner/run_request.hpp"

namespace py = pybind11;
using nlohmann::json;

namespace ridgeline::python {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) {
  g_interrupted.store(true);
}

// Ctrl-C while the native side runs: the run stops after the case running, keeping what
// finished (Python's own handler would act only once the whole run returned).
class InterruptScope {
 public:
  InterruptScope() {
    g_interrupted.store(false);
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &previous_);
  }
  ~InterruptScope() { sigaction(SIGINT, &previous_, nullptr); }

 private:
  struct sigaction previous_ {};
};

struct SuiteRequest {
  RunRequest request;
  std::optional<std::string> output;
  bool probe = true;
  std::vector<std::string> command_line;
};

// The Run (JSON) of the request's cases, written to `output` (with its journal) when given.
RunDocument run_suite(const SuiteRequest& in) {
  RunPlan plan = make_plan(in.request);
  std::optional<RunOutput> output;
  std::optional<std::filesystem::path> journal;
  if (in.output) {
    output.emplace(*in.output, "output", "ridgeline.run");
    journal = output->journal;
  }
  const MachineChoice machine = this_machine(in.probe, false);
  if (machine.model) use_cache_sizes(cache_sizes_for_kernels(*machine.model, hwloc_cache_sizes()));
  RunObserver observer;
  observer.case_finished = [](std::size_t i, std::size_t total, const CaseSpec& c,
                              const std::vector<CaseResult>&) {
    fmt::print(stderr, "[{}/{}] {}\n", i + 1, total, c.name());
  };
  Run run;
  {
    py::gil_scoped_release release;  // nothing of Python runs until the plan is done
    InterruptScope scope;
    run = run_plan(plan.catalog, plan.cases, plan.settings, journal, observer, &g_interrupted);
  }
  run.context.machine = machine.model;
  record_provenance(run.context.provenance, plan, in.command_line);
  if (output) write_run_file(output->file.named, run);
  return RunDocument(std::move(run));
}

// A native CPU kernel prepared on its op's inputs (pattern normal), each call one run(): what
// measure() times to set a Python measurement beside the CLI's of the same case.
class NativeKernel {
 public:
  NativeKernel(const std::string& backend, const std::string& op, const std::string& params,
               const std::string& dtype, int threads)
      : catalog_(KernelCatalog::with_builtin_kernels(blas_libraries_for({}))) {
    problem_.op = op_definition(op).name;
    problem_.params = parse_params(op_definition(op), params);
    const std::optional<DType> d = parse_dtype(dtype);
    if (!d) throw InputError(fmt::format("dtype={:?}: not a dtype", dtype));
    problem_.dtype = *d;
    kernel_ = catalog_.create(backend, op);
    if (!kernel_)
      throw InputError(fmt::format("backend={:?}: no {} kernel of that name", backend, op));
    // A GPU kernel's calls are asynchronous, timed by its own events: the suite times it.
    if (kernel_->info().device != Device::cpu)
      throw InputError(fmt::format(
          "backend={:?}: a GPU kernel; time it with ridgeline.run(filter=...), on its events",
          backend));
    if (const Support s = kernel_->supports(problem_, threads); !s)
      throw InputError(fmt::format("{} {}: not supported here: {}", backend, op, s.reason));
    operands_ = allocate_operands(problem_);
    fill_operands(operands_, problem_.pattern, 20261121);
    kernel_->prepare(problem_, operands_, threads);
  }
  void call() { kernel_->run(); }
  std::string work() const { return work_json_text(kernel_->work(problem_)); }
  std::vector<std::pair<std::uintptr_t, std::size_t>> memory() const {
    std::vector<std::pair<std::uintptr_t, std::size_t>> out;
    for (const MemoryRange& r : memory_of(operands_))
      out.emplace_back(reinterpret_cast<std::uintptr_t>(r.data), r.bytes);
    return out;
  }

 private:
  KernelCatalog catalog_;
  Problem problem_;
  std::unique_ptr<Kernel> kernel_;
  Operands operands_;
};

}  // namespace

void bind_suites(py::module_& m) {
  m.def(
      "run",
      [](const std::string& suite, std::optional<std::string> filter,
         std::vector<std::string> backends, std::vector<std::string> dtypes,
         std::vector<int> threads, std::vector<std::string> params, std::optional<int> repetitions,
         std::optional<std::string> min_time, std::vector<std::string> collect, bool isolate,
         std::optional<std::string> output, bool probe, std::vector<std::string> command_line) {
        SuiteRequest in;
        in.request.cases.suite = suite;
        in.request.cases.filter = std::move(filter);
        in.request.cases.backends = std::move(backends);
        in.request.cases.dtypes = std::move(dtypes);
        in.request.cases.threads = std::move(threads);
        in.request.cases.params = std::move(params);
        in.request.repetitions = repetitions;
        in.request.min_time = std::move(min_time);
        in.request.collect = std::move(collect);
        in.request.isolate = isolate;
        in.output = std::move(output);
        in.probe = probe;
        in.command_line = std::move(command_line);
        return run_suite(in);
      },
      py::arg("suite"), py::arg("filter"), py::arg("backends"), py::arg("dtypes"),
      py::arg("threads"), py::arg("params"), py::arg("repetitions"), py::arg("min_time"),
      py::arg("collect"), py::arg("isolate"), py::arg("output"), py::arg("probe"),
      py::arg("command_line"));
  m.def("interrupted", [] { return g_interrupted.load(); });
  py::class_<NativeKernel>(m, "NativeKernel")
      .def(py::init<const std::string&, const std::string&, const std::string&, const std::string&,
                    int>(),
           py::arg("backend"), py::arg("op"), py::arg("params"), py::arg("dtype"),
           py::arg("threads"))
      .def("__call__", &NativeKernel::call)
      .def_property_readonly("work", &NativeKernel::work)
      .def_property_readonly("memory", &NativeKernel::memory);
}

}  // namespace ridgeline::python
