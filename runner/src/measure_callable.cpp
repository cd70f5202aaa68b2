#include <fmt/format.h>

#include "case_details.hpp"
#include "ridgeline/runner/measure.hpp"
#include "timed_case.hpp"

namespace ridgeline {

namespace {

// The function as a kernel of the contract: nothing to prepare, every run() a call.
class CallableKernel final : public Kernel {
 public:
  explicit CallableKernel(const CallableMeasurement& m) : m_(m) {
    info_.op = m.spec.problem.op;
    info_.backend = m.spec.backend;
    info_.device = m.device;
    info_.dtypes = {m.spec.problem.dtype};
    info_.threaded = m.spec.threads > 1;
    info_.description = "a caller's function";
    info_.role = m.role;
    info_.family = m.family;
  }
  const KernelInfo& info() const override { return info_; }
  Support supports(const Problem&, int) const override { return Support::yes(); }
  WorkModel work(const Problem&) const override { return m_.work; }
  void prepare(const Problem&, Operands&, int) override {}
  // An interrupt while timed: the timed loop stops on the throw, and measure_callable throws
  // it on once Google Benchmark has returned.
  void run() override {
    // Interrupted once: every later call (the repetitions Google Benchmark still starts)
    // stops at once.
    if (!interrupted_.empty()) throw CallInterrupted(interrupted_);
    try {
      m_.call();
    } catch (const CallInterrupted& e) {
      interrupted_ = e.what();
      throw;
    }
  }
  const std::string& interrupted() const { return interrupted_; }
  std::map<std::string, std::string> notes() const override { return m_.notes; }

 private:
  const CallableMeasurement& m_;
  KernelInfo info_;
  std::string interrupted_;
};

const char* const kNotChecked = "a caller's function: Ridgeline has no reference for its outputs";

// A call that threw: one untimed row with the caller's work, as a kernel that crashed.
std::vector<CaseResult> crashed(const CallableMeasurement& m, const KernelInfo& info,
                                const std::string& why) {
  CaseResult r = untimed_result(m.spec, Disposition::crashed, why, &info);
  const Validation validation = r.ridgeline->validation;
  r.ridgeline = details_for(m.spec, m.work, &info);
  r.ridgeline->validation = validation;
  r.ridgeline->kernel_notes = m.notes;
  return {r};
}

// Calls once untimed, then times, with the collectors that run here.
std::vector<CaseResult> measure_with(const CallableMeasurement& m, const RunSettings& settings,
                                     std::vector<std::unique_ptr<Collector>>& collectors) {
  CallableKernel kernel(m);
  try {
    m.call();  // untimed: a function that fails is recorded before Google Benchmark starts
  } catch (const CallInterrupted&) {
    throw;
  } catch (const std::exception& e) {
    return crashed(m, kernel.info(), fmt::format("threw: {}", e.what()));
  }
  const Validation validation{Disposition::not_verified, 0, 0, "", kNotChecked};
  TimedCaseInput in{kernel, m.spec, m.cold_memory, m.work, validation, m.notes, nullptr};
  std::vector<CaseResult> results = time_case(in, collectors, settings);
  if (!kernel.interrupted().empty()) throw CallInterrupted(kernel.interrupted());
  // A call that threw while timed: the timed loop stopped it, and the case is crashed.
  for (const CaseResult& r : results)
    if (r.error_occurred && r.ridgeline &&
        r.ridgeline->validation.disposition != Disposition::crashed)
      return crashed(m, kernel.info(), r.error_message);
  return results;
}

}  // namespace

std::vector<CaseResult> measure_callable(const CallableMeasurement& m,
                                         const RunSettings& settings) {
  // A collector asked for that cannot run here says why in the case's notes (outside a
  // Run's context, they are where the reason is kept).
  CallableMeasurement asked = m;
  std::vector<std::unique_ptr<Collector>> collectors;
  for (auto& c : make_collectors(settings.collect))
    if (c->probe().available) collectors.push_back(std::move(c));
  for (const UncountedItem& u : uncounted_items(settings.collect))
    asked.notes["not counted " + u.item] = u.reason;
  return measure_with(asked, settings, collectors);
}

}  // namespace ridgeline
