// One case in this process, in named steps: the kernel asked whether it supports the case;
// prepared, run once and validated against the op's reference (case_validation.hpp), its
// ranks agreeing where it is a collective (collective_ranks.hpp); the timed inputs filled;
// timed (timed_case.hpp).
#include <fmt/format.h>

#include "case_validation.hpp"
#include "collective_ranks.hpp"
#include "fp_env_scope.hpp"
#include "ridgeline/core/vocabulary.hpp"
#include "ridgeline/kernels/patterns.hpp"
#include "ridgeline/runner/runner.hpp"
#include "timed_case.hpp"

namespace ridgeline {

namespace {

Support case_support(const Kernel& kernel, const CaseSpec& spec) {
  Support support = kernel.supports(spec.problem, spec.threads);
  if (support) support = pattern_support(spec.problem.pattern, spec.problem.dtype);
  if (support) support = fp_env_support(spec.fp_env, kernel.info(), spec.threads);
  return support;
}

}  // namespace

std::vector<CaseResult> execute_case(const KernelCatalog& catalog, const CaseSpec& spec,
                                     const RunSettings& settings) {
  // Collectors first: counters opened now also count the threads the kernel starts later.
  std::vector<std::unique_ptr<Collector>> collectors;
  for (auto& c : make_collectors(settings.collect))
    if (c->probe().available) collectors.push_back(std::move(c));
  auto kernel = catalog.create(spec.backend, spec.problem.op);
  if (!kernel)
    return {untimed_result(spec, Disposition::not_supported,
                           fmt::format("no {} kernel named {}", spec.problem.op, spec.backend))};
  if (const Support support = case_support(*kernel, spec); !support)
    return {untimed_result(spec, Disposition::not_supported, support.reason, &kernel->info())};

  const Problem& problem = spec.problem;
  Operands ops = allocate_operands(problem);
  CollectiveRanks ranks(*kernel, spec);
  const ValidatedCase validated = prepare_and_validate(*kernel, spec, ops, settings.seed, ranks);
  if (!validated.passed()) return validated.untimed;
  const WorkModel work = kernel->work(problem);
  if (problem.pattern != "normal") {  // the timed inputs: the case's pattern
    fill_operands(ops, problem.pattern, settings.seed + 200);
    kernel->prepare(problem, ops, spec.threads);
  }

  TimedCaseInput in{*kernel,
                    spec,
                    memory_of(ops),
                    work,
                    validated.validation,
                    kernel->notes(),
                    [&](const std::string& why) { return ranks.crashed(why); }};
  return time_case(in, collectors, settings);
}

}  // namespace ridgeline
