#include "case_validation.hpp"

#include <fmt/format.h>

#include "case_details.hpp"
#include "ridgeline/kernels/patterns.hpp"

namespace ridgeline {

ValidatedCase prepare_and_validate(Kernel& kernel, const CaseSpec& spec, Operands& ops,
                                   std::uint64_t seed, CollectiveRanks& ranks) {
  const Problem& problem = spec.problem;
  fill_operands(ops, "normal", seed);
  std::string threw;
  try {
    kernel.prepare(problem, ops, spec.threads);
  } catch (const std::exception& e) {
    threw = fmt::format("threw: {}", e.what());
  }
  if (!ranks.all_can_go_on(threw.empty())) {
    if (threw.empty()) return {{}, ranks.stopped_elsewhere("prepare() failed")};
    // Not yet inside a call together: the other ranks stop here too.
    return {{}, {untimed_result(spec, Disposition::crashed, threw, &kernel.info())}};
  }
  ValidatedCase out;
  try {
    kernel.run();
    kernel.finish();
    out.validation = validate(problem, ops, seed + 100);
  } catch (const std::exception& e) {
    out.untimed = ranks.crashed(fmt::format("threw: {}", e.what()));
    return out;
  }
  const bool passed = out.validation.disposition == Disposition::passed;
  if (!ranks.all_can_go_on(passed) && passed) {
    out.untimed = ranks.stopped_elsewhere("the result was not correct");
    out.untimed[0].ridgeline->validation.method = out.validation.method;
    record_how_it_ran(*out.untimed[0].ridgeline, kernel, kernel.notes());
  } else if (!passed) {
    CaseResult r =
        untimed_result(spec, out.validation.disposition, out.validation.message, &kernel.info());
    r.ridgeline->validation = out.validation;
    r.ridgeline->compute_unit = kernel.compute_unit(problem);
    record_how_it_ran(*r.ridgeline, kernel, kernel.notes());
    out.untimed = {r};
  }
  return out;
}

}  // namespace ridgeline
