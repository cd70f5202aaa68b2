// ridgeline einsum EQUATION --dims ...: one contraction on every einsum lowering of this
// machine (the einsum suite's kernels), placed on the roofline, and one table: each
// lowering's time, rate and bytes, the best one's lead, what the notation hides.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "commands.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/einsum.hpp"
#include "ridgeline/core/ops/einsum_path.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/kernels/core_pinning.hpp"
#include "ridgeline/reports/columns.hpp"
#include "ridgeline/reports/report.hpp"
#include "run_support.hpp"

namespace ridgeline::cli {

namespace {

struct EinsumOptions {
  std::string equation, dims, dtype = "f32";
  std::optional<int> threads;
  RunOptions run;
};

// "j=10,k=1000,l=10": the extents of the step's own indices, for its command line.
std::string step_dims(const EinsumNetwork& n, const std::string& equation) {
  std::string out;
  for (const auto& [index, extent] : n.extents)
    if (equation.find(index) != std::string::npos)
      out += fmt::format("{}{}={}", out.empty() ? "" : ",", index, extent);
  return out;
}

// More than two operands: the contraction paths and what each costs, predicted from each
// step's work model. Running them is each step's own `ridgeline einsum`.
int print_paths(const EinsumOptions& opt, DType dtype) {
  EinsumNetwork n;
  try {
    n = einsum_network(opt.equation, opt.dims);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("einsum '{}': {}", opt.equation, e.what()));
  }
  const std::vector<EinsumPath> paths = einsum_paths(n, size_of(dtype));
  std::vector<TextRow> rows{{"path", "steps", "GFLOP", "bytes", "× best FLOPs"}};
  for (const EinsumPath& p : paths) {
    std::string steps;
    for (const auto& st : p.steps) steps += (steps.empty() ? "" : "; ") + st.equation;
    rows.push_back({p.how, steps, fmt::format("{:.4g}", p.flops / 1e9),
                    fmt::format("{:.4g} MB", p.bytes / 1e6),
                    fmt::format("{:.2f}×", p.flops / paths.front().flops)});
  }
  fmt::print("\n{} {} {}: contraction paths, predicted from each step's work model (not run)\n{}",
             escape_visible(opt.equation), escape_visible(opt.dims), to_string(dtype),
             format_columns(rows, "  ", {2, 3, 4}));
  if (paths.size() > 1)
    fmt::print("  the {} path needs {:.3g}× fewer FLOPs than the order written\n",
               paths.front().how, paths.back().flops / paths.front().flops);
  for (const auto& st : paths.front().steps)
    fmt::print("  measure a step: ridgeline einsum '{}' --dims {}\n", escape_visible(st.equation),
               escape_visible(step_dims(n, st.equation)));
  fmt::print("No Run written: nothing ran.\n");
  return 0;
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
      return print_paths(opt, *dtype);
    }
    throw InputError(fmt::format("einsum '{}': {}", opt.equation, why));
  }
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
