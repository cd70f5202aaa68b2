// The einsum comparison (analysis/einsum_comparison.hpp) finds the framework's TTGT, the
// strided view, GETT and each permute by the kinds the Run records (`lowering`), never by a
// backend's name or a note's words: the recorded Zen 4 run with every backend, note and pass
// renamed reads as before, and without the kinds it finds none of them.
#include "ridgeline/analysis/einsum_comparison.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/run_json.hpp"

namespace ridgeline {

namespace {

Run recorded_einsum_run() {
  return read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json");
}

const MachineModel& zen4_model() {
  static const MachineModel m =
      read_machine_file(std::string(RIDGELINE_FIXTURES) + "/machine-zen4-vm.json");
  return m;
}

std::vector<EinsumComparison> comparisons_of(const Run& run) {
  return einsum_comparisons(run, place_results(run, &zen4_model()), &zen4_model());
}

const EinsumComparison& comparison_of(const std::vector<EinsumComparison>& all,
                                      const std::string& eq) {
  const auto it = std::find_if(all.begin(), all.end(),
                               [&](const EinsumComparison& c) { return c.equation == eq; });
  if (it == all.end()) throw std::runtime_error("no comparison of " + eq);
  return *it;
}

// `from` replaced by `to` wherever it occurs in `text`.
std::string renamed(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Every backend, case name, permute note and pass name given other words; the kinds stay.
Run renamed_einsum_run() {
  Run run = recorded_einsum_run();
  const std::map<std::string, std::string> backends{
      {"cpu.ttgt", "ours.copying"}, {"cpu.strided", "ours.in_place"}, {"cpu.loops", "ours.nest"}};
  for (CaseResult& r : run.benchmarks) {
    if (!r.ridgeline) continue;
    CaseDetails& d = *r.ridgeline;
    const std::string to = backends.at(d.backend);
    r.name = renamed(r.name, d.backend, to);
    r.run_name = renamed(r.run_name, d.backend, to);
    d.backend = to;
    for (auto& [key, note] : d.kernel_notes) note = renamed(note, "permuted", "moved");
    for (Metric& m : d.metrics) m.name = renamed(m.name, "permute_", "transpose_");
    if (d.lowering)
      for (LoweringStep& s : d.lowering->steps) s.pass = renamed(s.pass, "permute_", "transpose_");
  }
  return run;
}

}  // namespace

TEST(EinsumComparison, TheOlderRunsLoweringsAreInferredOnceInTheReader) {
  const ridgeline::Run run = recorded_einsum_run();
  for (const CaseResult& r : run.benchmarks) {
    if (!r.ridgeline) continue;
    ASSERT_TRUE(r.ridgeline->lowering) << r.name;
    if (r.ridgeline->backend != "cpu.ttgt") continue;
    EXPECT_EQ(r.ridgeline->lowering->kind, LoweringKind::ttgt);
    if (!r.ridgeline->kernel_notes.empty()) {  // it ran: its steps, from its notes
      EXPECT_EQ(r.ridgeline->lowering->steps.front().kind, StepKind::permute) << r.name;
    }
  }
}

TEST(EinsumComparison, LoweringsAndStepsAreFoundByTheirKindsNotTheirNames) {
  const std::vector<EinsumComparison> all = comparisons_of(renamed_einsum_run());
  const EinsumComparison& c = comparison_of(all, "bthr,bThr->bhtT");
  EXPECT_EQ(c.framework, "ours.copying");
  EXPECT_GT(c.lead_over_framework, 0.0);
  EXPECT_NE(c.hides.find("needs A moved bthr -> bhtr, B moved bThr -> bhrT"), std::string::npos)
      << c.hides;
  EXPECT_NE(c.hides.find("% of its time)"), std::string::npos) << c.hides;
  EXPECT_NE(c.hides.find("the strided lowering reads the operands where they lie"),
            std::string::npos)
      << c.hides;
  const auto ttgt = std::find_if(c.lowerings.begin(), c.lowerings.end(),
                                 [](const EinsumLowering& l) { return is_framework_lowering(l); });
  ASSERT_NE(ttgt, c.lowerings.end());
  ASSERT_TRUE(ttgt->passes);
  std::vector<std::optional<StepKind>> steps;
  for (const PassPoint& p : ttgt->passes->passes) steps.push_back(p.step);
  EXPECT_EQ(steps, (std::vector<std::optional<StepKind>>{StepKind::permute, StepKind::permute,
                                                         StepKind::gemm}));
  // The strided view that cannot apply is still found by its kind, with its reason.
  EXPECT_NE(comparison_of(all, "btd,hdk->bthk").hides.find("no strided GEMM without a copy"),
            std::string::npos);

  // The same as the recorded names give.
  const std::vector<EinsumComparison> recorded = comparisons_of(recorded_einsum_run());
  const EinsumComparison& before = comparison_of(recorded, "bthr,bThr->bhtT");
  EXPECT_EQ(renamed(renamed(before.hides, "permuted", "moved"), "cpu.", "ours."), c.hides);
  EXPECT_DOUBLE_EQ(before.lead_over_framework, c.lead_over_framework);
}

// A vendor's TTGT is not the framework's reference (ours is), and a lowering of no known kind
// is compared but never taken for one.
TEST(EinsumComparison, OnlyOurOwnLoweringOfAKindIsItsReference) {
  ridgeline::Run vendor = recorded_einsum_run();
  for (CaseResult& r : vendor.benchmarks)
    if (r.ridgeline) r.ridgeline->role = KernelRole::vendor;
  const std::vector<EinsumComparison> vendor_compared = comparisons_of(vendor);
  const EinsumComparison& v = comparison_of(vendor_compared, "bthr,bThr->bhtT");
  EXPECT_TRUE(v.framework.empty());
  EXPECT_EQ(v.lead_over_framework, 0.0);
  EXPECT_TRUE(v.hides.empty()) << v.hides;

  ridgeline::Run unknown = recorded_einsum_run();
  for (CaseResult& r : unknown.benchmarks)
    if (r.ridgeline) r.ridgeline->lowering.reset();
  const std::vector<EinsumComparison> unknown_compared = comparisons_of(unknown);
  const EinsumComparison& u = comparison_of(unknown_compared, "bthr,bThr->bhtT");
  EXPECT_EQ(u.lowerings.size(), 3u);
  EXPECT_TRUE(u.framework.empty());
  EXPECT_TRUE(u.hides.empty()) << u.hides;
  for (const EinsumLowering& l : u.lowerings) {
    EXPECT_FALSE(l.kind) << l.backend;
    EXPECT_TRUE(l.copies.empty()) << l.backend;
    if (!l.passes) continue;
    for (const PassPoint& p : l.passes->passes) {
      EXPECT_FALSE(p.step) << p.name;
    }
  }
}

}  // namespace ridgeline
