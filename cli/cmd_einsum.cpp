// ridgeline einsum EQUATION --dims ...: one contraction on every einsum lowering of this
// machine (the einsum suite's kernels), placed on the roofline, and one table: each
// lowering's time, rate and bytes, the best one's lead, what the notation hides.
#include <fmt/format.h>

#include <algorithm>

#include "commands.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/einsum.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/kernels/core_pinning.hpp"
#include "ridgeline/reports/report.hpp"
#include "run_support.hpp"

namespace ridgeline::cli {

namespace {

struct EinsumOptions {
  std::string equation, dims, dtype = "f32";
  std::optional<int> threads;
  RunOptions run;
};

int run_einsum(EinsumOptions& opt) {
  if (const std::string why = einsum_equation_error(opt.equation); !why.empty())
    throw InputError(fmt::format("einsum '{}': {}", opt.equation, why));
  if (const std::string why = einsum_extents_error(opt.dims); !why.empty())
    throw InputError(fmt::format("--dims '{}': {}", opt.dims, why));
  const std::optional<DType> dtype = parse_dtype(opt.dtype);
  const std::vector<DType>& defined = op_definition("einsum").dtypes;
  if (!dtype || std::find(defined.begin(), defined.end(), *dtype) == defined.end())
    throw InputError(fmt::format(
        "--dtype {}: einsum is defined for f32 and f64 (the lowerings' types)", opt.dtype));
  opt.run.plan.suite = "einsum";
  opt.run.params = {fmt::format("equation=\"{}\"/extents=\"{}\"", opt.equation, opt.dims)};
  opt.run.plan.dtypes = {opt.dtype};
  opt.run.plan.threads = {opt.threads.value_or(usable_cpus())};
  MachineChoice machine;
  Run run;
  const int rc = execute_run(
      opt.run,
      [&] {
        machine = this_machine(!opt.run.no_probe, false);
        if (!machine.model) fmt::print(stderr, "no machine model: {}\n", machine.origin);
        return machine.model;
      },
      run);
  const ReportInput input =
      make_report_input(std::move(run), opt.run.output, machine.model, machine.origin);
  fmt::print("{}\nRun: {}\n", einsum_terminal(input),
             escape_visible(std::filesystem::absolute(opt.run.output).string()));
  return rc;
}

}  // namespace

Command add_einsum_command(CLI::App& app) {
  auto opt = std::make_shared<EinsumOptions>();
  CLI::App* sub = app.add_subcommand(
      "einsum",
      "One contraction (NumPy's notation, two operands) on every einsum lowering here: time, "
      "bytes and roof of each, the best, and what the notation hides");
  sub->add_option("equation", opt->equation, "The contraction, e.g. 'bthr,bThr->bhtT'")->required();
  sub->add_option("--dims", opt->dims, "Each index's extent, e.g. b=8,t=1024,h=16,r=64,T=1024")
      ->required();
  sub->add_option("--dtype", opt->dtype, "f32 or f64")->capture_default_str();
  sub->add_option("--threads", opt->threads, "Threads (default: every CPU this process may use)");
  sub->add_option("-o,--output", opt->run.output, "The Run document")->capture_default_str();
  sub->add_option("--repetitions", opt->run.repetitions,
                  "Timed repetitions per lowering (default: the einsum suite's)");
  sub->add_option("--min-time", opt->run.min_time,
                  "Per repetition: seconds (0.5) or iterations (100x); default: the suite's");
  sub->add_flag("--no-probe", opt->run.no_probe,
                "Do not probe this machine when no model is cached (no roofs then)");
  opt->run.output = "einsum.json";
  sub->footer(kRunExitStatus);
  return {sub, [opt] { return run_einsum(*opt); }};
}

}  // namespace ridgeline::cli
