// ridgeline einsum EQUATION --dims ...: one contraction on every einsum lowering of this
// machine (the einsum suite's kernels), placed on the roofline, and one table: each
// lowering's time, rate and bytes, the best one's lead, what the notation hides. A network
// (three or more operands): its contraction paths, every step run, predicted beside measured.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "commands.hpp"
#include "number_checks.hpp"
#include "ridgeline/analysis/einsum_paths.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/einsum.hpp"
#include "ridgeline/core/ops/einsum_path.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/kernels/core_pinning.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/format.hpp"
#include "ridgeline/reports/report.hpp"
#include "run_support.hpp"

namespace ridgeline::cli {

namespace {

struct EinsumOptions {
  std::string equation, dims, dtype = "f32";
  std::optional<int> threads;
  RunOptions run;
};

// Runs the einsum suite's lowerings on each (equation, extents) and reads the Run back as
// the report's model: the two-operand case and each step of a network's paths alike.
ReportInput run_contractions(EinsumOptions& opt, const std::vector<std::string>& params, int& rc) {
  opt.run.request.cases.suite = "einsum";
  opt.run.request.cases.params = params;
  opt.run.request.cases.dtypes = {opt.dtype};
  opt.run.request.cases.threads = {opt.threads.value_or(usable_cpus())};
  MachineChoice machine;
  Run run;
  rc = execute_run(
      opt.run,
      [&] {
        machine = this_machine(!opt.run.no_probe, false);
        if (!machine.model) fmt::print(stderr, "no machine model: {}\n", machine.origin);
        return machine.model;
      },
      run);
  return make_report_input(std::move(run), opt.run.output, machine.model, machine.origin);
}

std::string case_params(const std::string& equation, const std::string& extents) {
  return fmt::format("equation=\"{}\"/extents=\"{}\"", equation, extents);
}

// More than two operands: the contraction paths (fewest FLOPs first, and the order
// written), every step of each run on every lowering, and each path's predicted FLOPs
// beside its measured time (the fastest lowering of each step, summed).
int run_paths(EinsumOptions& opt, DType dtype) {
  EinsumNetwork n;
  try {
    n = einsum_network(opt.equation, opt.dims);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("einsum '{}': {}", opt.equation, e.what()));
  }
  const std::vector<EinsumPath> paths = einsum_paths(n, size_of(dtype));
  int rc = 0;
  opt.run.request.einsum_networks = {{opt.equation, opt.dims}};
  const ReportInput input = run_contractions(opt, einsum_step_params(n, paths), rc);
  // The network's paths first (einsum_terminal), then each step's lowerings.
  fmt::print("{}\nRun: {}\n", einsum_terminal(input),
             escape_visible(std::filesystem::absolute(opt.run.output).string()));
  return rc;
}

int run_einsum(EinsumOptions& opt) {
  const std::optional<DType> dtype = parse_dtype(opt.dtype);
  const std::vector<DType>& defined = op_definition("einsum").dtypes;
  if (!dtype || std::find(defined.begin(), defined.end(), *dtype) == defined.end())
    throw InputError(fmt::format(
        "--dtype {}: einsum is defined for f32 and f64 (the lowerings' types)", opt.dtype));
  if (const std::string why = einsum_extents_error(opt.dims); !why.empty())
    throw InputError(fmt::format("--dims '{}': {}", opt.dims, why));
  if (const std::string why = einsum_equation_error(opt.equation); !why.empty()) {
    // Three or more operands: a network, whose paths are shown (or whose own fault is said).
    const std::string inputs = opt.equation.substr(0, opt.equation.find("->"));
    if (std::count(inputs.begin(), inputs.end(), ',') >= 2) {
      if (const std::string network = einsum_network_error(opt.equation); !network.empty())
        throw InputError(fmt::format("einsum '{}': {}", opt.equation, network));
      return run_paths(opt, *dtype);
    }
    throw InputError(fmt::format("einsum '{}': {}", opt.equation, why));
  }
  int rc = 0;
  const ReportInput input = run_contractions(opt, {case_params(opt.equation, opt.dims)}, rc);
  fmt::print("{}\nRun: {}\n", einsum_terminal(input),
             escape_visible(std::filesystem::absolute(opt.run.output).string()));
  return rc;
}

}  // namespace

Command add_einsum_command(CLI::App& app) {
  auto opt = std::make_shared<EinsumOptions>();
  opt->run.output = "einsum.json";  // before its option captures it as the default shown
  CLI::App* sub = app.add_subcommand(
      "einsum",
      "One contraction (NumPy's notation) on every einsum lowering here: time, bytes and roof "
      "of each, the best, and what the notation hides; with three or more operands, each "
      "contraction path's steps run and its predicted FLOPs set beside its measured time");
  sub->add_option("equation", opt->equation, "The contraction, e.g. 'bthr,bThr->bhtT'")->required();
  sub->add_option("--dims", opt->dims, "Each index's extent, e.g. b=8,t=1024,h=16,r=64,T=1024")
      ->required();
  sub->add_option("--dtype", opt->dtype, "f32 or f64")->capture_default_str();
  sub->add_option("--threads", opt->threads, "Threads (default: every CPU this process may use)")
      ->check(finite_between(1, 65536, "threads"));  // the number as written, not as converted
  sub->add_option("-o,--output", opt->run.output, "The Run document")->capture_default_str();
  sub->add_option("--repetitions", opt->run.request.repetitions,
                  "Timed repetitions per lowering (default: the einsum suite's)")
      ->check(finite_between(1, 10000, "repetitions"));
  sub->add_option("--min-time", opt->run.request.min_time,
                  "Per repetition: seconds (0.5) or iterations (100x); default: the suite's");
  sub->add_flag("--no-probe", opt->run.no_probe,
                "Do not probe this machine when no model is cached (no roofs then)");
  sub->footer(kRunExitStatus);
  return {sub, [opt] { return run_einsum(*opt); }};
}

}  // namespace ridgeline::cli
