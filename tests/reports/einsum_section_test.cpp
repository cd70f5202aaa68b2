// The einsum comparison (analysis/einsum_comparison.hpp) and its section in every format
// (reports/src/einsum_text.cpp), on a recorded run: `ridgeline run --suite einsum` with two
// contractions on the Zen 4 VM, placed with the recorded Zen 4 machine model.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/analysis/sweep_scene.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/report.hpp"
#include "ridgeline/reports/tables.hpp"
#include "text_checks.hpp"

namespace ridgeline {

namespace {

ReportInput recorded_einsum() {
  Run run = read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json");
  const MachineModel m =
      read_machine_file(std::string(RIDGELINE_FIXTURES) + "/machine-zen4-vm.json");
  return make_report_input(std::move(run), "run-einsum-small-zen4-vm.json", m,
                           "machine-zen4-vm.json");
}

const EinsumComparison& comparison(const ReportInput& in, const std::string& equation) {
  const auto it = std::find_if(in.einsum.begin(), in.einsum.end(),
                               [&](const EinsumComparison& c) { return c.equation == equation; });
  if (it == in.einsum.end()) throw std::runtime_error("no comparison of " + equation);
  return *it;
}

const EinsumLowering& lowering(const EinsumComparison& c, const std::string& backend) {
  for (const auto& l : c.lowerings)
    if (l.backend == backend) return l;
  throw std::runtime_error("no lowering " + backend);
}

using test::count;

}  // namespace

TEST(EinsumComparison, LoweringsFastestFirstWithTheirAddedBytesAndTheLeads) {
  const ReportInput in = recorded_einsum();
  ASSERT_EQ(in.einsum.size(), 2u);
  const EinsumComparison& c = comparison(in, "bthr,bThr->bhtT");
  ASSERT_EQ(c.lowerings.size(), 3u);
  for (std::size_t i = 1; i < c.lowerings.size(); ++i)
    EXPECT_LE(c.lowerings[i - 1].seconds, c.lowerings[i].seconds);
  EXPECT_EQ(c.best, c.lowerings.front().backend);
  EXPECT_DOUBLE_EQ(c.lowerings.front().vs_best, 1.0);
  // TTGT writes and reads back A and B permuted (2 x 64 x 4 x 32 f32 each); the others add nothing.
  const double operand = 2.0 * 64 * 4 * 32 * 4;
  EXPECT_DOUBLE_EQ(lowering(c, "cpu.ttgt").added_bytes, 2 * 2 * operand);
  EXPECT_DOUBLE_EQ(lowering(c, "cpu.strided").added_bytes, 0.0);
  EXPECT_DOUBLE_EQ(lowering(c, "cpu.loops").added_bytes, 0.0);
  EXPECT_DOUBLE_EQ(lowering(c, "cpu.loops").compulsory_bytes, 2 * operand + 2.0 * 4 * 64 * 64 * 4);
  EXPECT_DOUBLE_EQ(c.lead_over_framework,
                   lowering(c, "cpu.ttgt").seconds / c.lowerings.front().seconds);
  EXPECT_EQ(c.worst, c.lowerings.back().backend);
  EXPECT_GT(lowering(c, "cpu.strided").attainable, 0.0);  // placed under the Zen 4 roofs
  EXPECT_NE(c.hides.find("needs A permuted bthr -> bhtr, B permuted bThr -> bhrT"),
            std::string::npos)
      << c.hides;
  EXPECT_NE(c.hides.find("the strided lowering reads the operands where they lie"),
            std::string::npos)
      << c.hides;
}

TEST(EinsumComparison, TtgtsPermutesAreTimedAndPlacedOnTheirOwn) {
  const ReportInput in = recorded_einsum();
  const EinsumComparison& c = comparison(in, "bthr,bThr->bhtT");
  const EinsumLowering& ttgt = lowering(c, "cpu.ttgt");
  ASSERT_TRUE(ttgt.passes.has_value());
  const auto& passes = ttgt.passes->passes;
  ASSERT_EQ(passes.size(), 3u);
  EXPECT_EQ(passes[0].name, "permute_A");
  EXPECT_EQ(passes[1].name, "permute_B");
  EXPECT_EQ(passes[2].name, "gemm");
  const double operand = 2.0 * 64 * 4 * 32 * 4;
  EXPECT_DOUBLE_EQ(passes[0].bytes, 2 * operand);  // read once, written once
  EXPECT_DOUBLE_EQ(passes[1].bytes, 2 * operand);
  EXPECT_DOUBLE_EQ(passes[2].bytes, ttgt.compulsory_bytes);
  for (const auto& p : passes) {
    EXPECT_GT(p.seconds, 0.0) << p.name;
    EXPECT_FALSE(p.bound.empty()) << p.name;  // placed on the Zen 4 roofs
  }
  EXPECT_TRUE(passes[0].bound.is_memory());
  EXPECT_NE(c.hides.find("% of its time)"), std::string::npos) << c.hides;
  // The copy-free lowering laps nothing.
  EXPECT_FALSE(lowering(c, "cpu.strided").passes.has_value());
}

TEST(EinsumComparison, ALoweringThatCannotApplyIsListedLastWithItsReason) {
  const ReportInput in = recorded_einsum();
  const EinsumComparison& c = comparison(in, "btd,hdk->bthk");
  const EinsumLowering& strided = c.lowerings.back();
  EXPECT_EQ(strided.backend, "cpu.strided");
  EXPECT_FALSE(strided.ran);
  EXPECT_NE(strided.reason.find("B (hdk) does not hold the indices 'hk' together"),
            std::string::npos)
      << strided.reason;
  EXPECT_NE(c.hides.find("no strided GEMM without a copy"), std::string::npos) << c.hides;
}

TEST(EinsumSection, EveryFormatShowsEachContractionsTableAndLines) {
  const ReportInput in = recorded_einsum();
  const std::string html = html_report(in), md = markdown_report(in), text = einsum_terminal(in);
  EXPECT_EQ(count(html, "<h2>einsum</h2>"), 1u);
  EXPECT_EQ(count(md, "\n## einsum\n"), 1u);
  for (const auto& c : in.einsum) {
    EXPECT_NE(text.find(c.equation), std::string::npos);
    for (const auto& l : c.lowerings) {
      // One row per lowering in each format's table.
      EXPECT_NE(html.find("<td>" + l.backend + "</td>"), std::string::npos) << l.backend;
      EXPECT_NE(md.find("| " + l.backend + " |"), std::string::npos) << l.backend;
    }
  }
  EXPECT_EQ(count(text, "best cpu."), 2u);
  EXPECT_EQ(count(md, "| lowering | time per call | GFLOP/s | compulsory bytes | added bytes |"),
            2u);
  EXPECT_EQ(count(md, "cpu.ttgt step by step:"), 2u);
  EXPECT_EQ(count(text, "cpu.ttgt permute_A: "), 1u);  // btd,hdk->bthk permutes B only
  // A bar chart per contraction: a bar per lowering that ran, TTGT's cut by its steps with
  // each permute pale.
  EXPECT_EQ(count(html, "<svg class=\"einsum-bars\""), 2u);
  EXPECT_EQ(count(html, "cpu.ttgt: gemm "), 2u);
  EXPECT_EQ(count(html, "fill-opacity=\"0.35\""), count(html, "cpu.ttgt: permute_A ") +
                                                      count(html, "cpu.ttgt: permute_B ") +
                                                      count(html, "cpu.ttgt: permute_C "));
  EXPECT_GE(count(html, "fill-opacity=\"0.35\""), 3u);
}

// The bars' pale segments are the steps TTGT's kernel declared permutes, not the passes named
// like one: declared otherwise, the same passes are drawn full.
TEST(EinsumSection, TheBarsPaleSegmentsAreTheStepsDeclaredPermutes) {
  ridgeline::Run run =
      read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json");
  for (CaseResult& r : run.benchmarks)
    if (r.ridgeline && r.ridgeline->lowering)
      for (LoweringStep& s : r.ridgeline->lowering->steps) s.kind = StepKind::gemm;
  const MachineModel m =
      read_machine_file(std::string(RIDGELINE_FIXTURES) + "/machine-zen4-vm.json");
  const std::string html = html_report(make_report_input(
      std::move(run), "run-einsum-small-zen4-vm.json", m, "machine-zen4-vm.json"));
  EXPECT_EQ(count(html, "<svg class=\"einsum-bars\""), 2u);
  EXPECT_GE(count(html, "cpu.ttgt: permute_A "), 1u);  // still cut by its steps
  EXPECT_EQ(count(html, "fill-opacity=\"0.35\""), 0u);
}

// On the roofline each contraction's lowerings are joined: a line from its fastest lowering's
// point to each other's, drawn under the markers in the page (the dashboard paints the same
// scene).
TEST(EinsumSection, EachContractionsLoweringsAreJoinedOnTheRoofline) {
  const ReportInput in = recorded_einsum();
  const RooflineScene scene = roofline_scene(in.placements, &*in.machine);
  ASSERT_EQ(scene.joins.size(), in.einsum.size());
  for (const SceneJoin& j : scene.joins) {
    const auto c = std::find_if(in.einsum.begin(), in.einsum.end(), [&](const auto& e) {
      return j.what.find(e.equation) != std::string::npos;
    });
    ASSERT_NE(c, in.einsum.end()) << j.what;
    std::size_t ran = 0;
    for (const auto& l : c->lowerings) ran += l.ran;
    EXPECT_EQ(j.others.size() + 1, ran) << j.what;
    for (const SceneXY& xy : j.others) EXPECT_GE(xy.y, j.best.y);  // none above the fastest
  }
  const std::string html = html_report(in);
  EXPECT_EQ(count(html, "<path class=\"einsum-join\""), in.einsum.size());
  EXPECT_NE(html.find("join each einsum contraction&#39;s fastest lowering to its others"),
            std::string::npos);
}

// The GPU's lowerings of a contraction are a comparison of their own (its roofs, its title),
// not rows among the CPU's at one host thread.
TEST(EinsumComparison, AGpuLoweringIsComparedApartFromTheCpus) {
  ridgeline::Run run =
      read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json");
  std::string moved;
  for (CaseResult& r : run.benchmarks)
    if (r.ridgeline && r.ridgeline->backend == "cpu.strided" && r.ridgeline->threads == 1 &&
        r.ridgeline->problem.params.attr("equation") == "bthr,bThr->bhtT") {
      r.ridgeline->device = Device::gpu;
      moved = r.run_name;
    }
  ASSERT_FALSE(moved.empty());
  const ReportInput in = make_report_input(std::move(run), "run.json", std::nullopt, "");
  std::size_t gpu = 0;
  for (const EinsumComparison& c : in.einsum)
    if (c.device == Device::gpu) {
      ++gpu;
      EXPECT_EQ(c.lowerings.size(), 1u);
      EXPECT_EQ(einsum_title(c), "bthr,bThr->bhtT b=2,t=64,h=4,r=32,T=64 f32, GPU");
    } else {
      for (const EinsumLowering& l : c.lowerings)
        EXPECT_FALSE(c.equation == "bthr,bThr->bhtT" && c.threads == 1 &&
                     l.backend == "cpu.strided");
    }
  EXPECT_EQ(gpu, 1u);
}

// The CSV carries the same comparisons, one tidy row per contraction and lowering.
TEST(EinsumSection, TheCsvHasARowPerContractionAndLowering) {
  const ReportInput in = recorded_einsum();
  const std::string csv = einsum_csv(in);
  std::size_t lowerings = 0;
  for (const auto& c : in.einsum) lowerings += c.lowerings.size();
  EXPECT_EQ(count(csv, "\n"), lowerings + 1);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "equation,extents,dtype,threads,device,lowering,ran,seconds_per_call,flop_per_s,"
            "compulsory_bytes,added_bytes,of_roof,bound,over_best,best,reason,how,"
            "best_over_framework,best_over_slowest,notation_hides");
  // What the terminal and the pages say under each table is in its columns too: the lead of
  // the best lowering and what the notation hides, on each of its contraction's rows.
  const EinsumComparison& c = comparison(in, "bthr,bThr->bhtT");
  EXPECT_EQ(count(csv, escape_csv_field(c.hides)), c.lowerings.size());
  EXPECT_NE(csv.find(fmt::format(",{:.6g},{:.6g},", c.lead_over_framework, c.lead_over_worst)),
            std::string::npos);
  // TTGT's steps, lapped, are rows of the passes CSV, as the unfused chains' passes are.
  const std::string passes = passes_csv(in);
  EXPECT_EQ(count(passes, "\neinsum,"), count(passes, "\n") - 1) << passes;
  EXPECT_GE(count(passes, ",cpu.ttgt,"), 2u);
  EXPECT_GE(count(passes, ",permute_B,"), 2u);  // both contractions permute B
  EXPECT_EQ(count(passes, ",gemm,"), count(passes, ",permute_B,"));
  EXPECT_NE(csv.find("btd,hdk->bthk"), std::string::npos);  // quoted: it holds commas
  EXPECT_EQ(count(csv, ",yes,"), lowerings - 1 + 2);        // ran: all but one; best: one each
  EXPECT_NE(csv.find(",cpu,cpu.strided,no,"), std::string::npos);
}

// A network the Run records is measured from its steps' cases and shown in every format: here
// the recorded contraction as a network of its own (one path, one step), and a network that is
// not one (a hand-edited file) as its line.
TEST(EinsumComparison, ARecordedNetworksPathsAreInEveryFormat) {
  ridgeline::Run run =
      read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json");
  run.context.provenance.einsum_networks = {{"bthr,bThr->bhtT", "b=2,t=64,h=4,r=32,T=64"},
                                            {"ij,jk", "i=2,j=3,k=4"}};
  const ReportInput in = make_report_input(std::move(run), "run.json", std::nullopt, "");
  ASSERT_EQ(in.einsum_networks.size(), 2u);
  const EinsumNetworkComparison& n = in.einsum_networks[0];
  ASSERT_EQ(n.paths.size(), 1u);
  EXPECT_TRUE(n.paths[0].complete);
  EXPECT_EQ(n.paths[0].steps[0].best, comparison(in, "bthr,bThr->bhtT").best);
  const std::string html = html_report(in), md = markdown_report(in), text = einsum_terminal(in);
  const std::string title =
      "bthr,bThr-&gt;bhtT b=2,t=64,h=4,r=32,T=64 f32, 1 thread: contraction paths, predicted "
      "(FLOPs, bytes, time at the roof) and measured";
  EXPECT_NE(html.find("<h3>" + title + "</h3><table>"), std::string::npos);
  EXPECT_NE(md.find("### " + title), std::string::npos);
  EXPECT_NE(text.find("bthr,bThr->bhtT b=2,t=64,h=4,r=32,T=64 f32, 1 thread: contraction paths"),
            std::string::npos);
  for (const std::string* out : {&html, &md, &text}) {  // quotes escaped as each format does
    EXPECT_NE(out->find("s einsum network "), std::string::npos);
    EXPECT_NE(out->find("(i=2,j=3,k=4): give the output"), std::string::npos);
  }
  // The CSV: the paths table's columns after the network's, a row per path of a network
  // that is one; its numbers as numbers.
  const std::string csv = einsum_paths_csv(in);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "network,extents,dtype,threads,device,path,FLOPs,bytes,× fewest FLOPs,at the roof,"
            "time,× fastest,steps (fastest lowering)");
  EXPECT_EQ(count(csv, "\n"), 2u);
  EXPECT_EQ(csv.find("ij,jk"), std::string::npos);
  EXPECT_NE(csv.find(fmt::format("bthr,bThr->bhtT\",\"b=2,t=64,h=4,r=32,T=64\",f32,1,cpu,optimal "
                                 "(the order written),{:.6g},",
                                 n.paths[0].flops)),
            std::string::npos)
      << csv;
}

// A permute has no FLOPs, so no place on the FLOP/s roofline: under a machine model with
// bandwidth sweeps each one is a point of its own beside them, at its working set, its tip
// the step's line; a model without sweeps (the Zen 4 one) draws none.
TEST(EinsumComparison, ThePermutesArePointsOfTheirOwnBesideTheBandwidthSweeps) {
  const MachineModel m =
      read_machine_file(std::string(RIDGELINE_FIXTURES) + "/machine-zen5-vm-levels.json");
  const ReportInput in = make_report_input(
      read_run_file(std::string(RIDGELINE_FIXTURES) + "/run-einsum-small-zen4-vm.json"), "run.json",
      m, "machine-zen5-vm-levels.json");
  std::size_t permutes = 0;
  for (const EinsumComparison& c : in.einsum)
    for (const EinsumLowering& l : c.lowerings)
      if (l.passes)
        for (const PassPoint& p : l.passes->passes) permutes += p.flops == 0 && p.bytes > 0;
  ASSERT_GT(permutes, 0u);
  const std::string html = html_report(in);
  EXPECT_EQ(count(html, "<g class=\"mark\">"), permutes);
  EXPECT_NE(html.find("<title>cpu.ttgt permute_A: "), std::string::npos);
  EXPECT_EQ(count(html_report(recorded_einsum()), "<g class=\"mark\">"), 0u);

  // The scene: a mark inside the plot, the axes widened for one past the sweeps, and one no
  // probe could measure left out.
  const SweepScene plain = *sweep_scene(m);
  const SweepScene marked = *sweep_scene(
      m,
      {{"near", "a", 1 << 20, 5e9, ""}, {"far", "a", 0x1p40, 1e9, ""}, {"bad", "a", 1, 1e20, ""}});
  ASSERT_EQ(marked.marks.size(), 2u);
  for (const auto& k : marked.marks) {
    EXPECT_GE(k.x, marked.left);
    EXPECT_LE(k.x, marked.right);
    EXPECT_GE(k.y, marked.top);
    EXPECT_LE(k.y, marked.bottom);
  }
  EXPECT_NEAR(marked.marks[1].x, marked.right, 1e-9);  // 1 TiB: the widened axis' end
  EXPECT_GT(marked.x_ticks.size(), plain.x_ticks.size());
  // Two at one place: one label, the other left to its tip; each group once in the legend.
  const SweepScene twice =
      *sweep_scene(m, {{"permute_A", "a", 1 << 20, 5e9, ""}, {"permute_A", "b", 1 << 20, 5e9, ""}});
  ASSERT_EQ(twice.marks.size(), 2u);
  EXPECT_TRUE(twice.marks[0].labelled);
  EXPECT_FALSE(twice.marks[1].labelled);
  ASSERT_EQ(twice.mark_groups.size(), 2u);
  EXPECT_GT(twice.mark_groups[0].legend_y, plain.sweeps.back().legend_y);
}

}  // namespace ridgeline
