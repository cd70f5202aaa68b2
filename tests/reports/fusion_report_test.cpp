// The fusion pieces of every format, by pattern, on a Run built by hand
// (tests/support/fusion_runs.hpp): the roofline's arrows and the fusion section in HTML,
// the Markdown section, the CSV files' columns, the terminal lines.
#include <gtest/gtest.h>

#include "fusion_runs.hpp"
#include "ridgeline/reports/report.hpp"
#include "text_checks.hpp"

namespace ridgeline {

namespace {

ReportInput input() {
  ridgeline::Run run = fusion_runs::fusion_run();
  auto machine = run.context.machine;
  return make_report_input(std::move(run), "fusion.json", machine, "the test's machine");
}

using test::count;
using test::matches;

using test::csv_fields;
using test::csv_lines;

}  // namespace

TEST(FusionHtml, TheRooflineDrawsAnArrowPerPairAndTheSectionTabulatesThem) {
  const std::string html = html_report(input());
  // An arrow per pair, unfused to fused: a shaft and a closed head in one path, with a
  // tooltip naming the problem, the backends and the ratios.
  EXPECT_EQ(count(html, "<path class=\"fusion-arrow\""), 6u);  // none at L = 1: one point
  EXPECT_TRUE(matches(html,
                      "<path class=\"fusion-arrow\" d=\"M[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ "
                      "M[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ Z\"[^>]*><title>"
                      "fusion: softmax rows=4096,cols=4096 f32, 1 thread\\ncpu\\.unfused → "
                      "cpu\\.fused\\nspeedup 4\\.00×\\nbytes unfused ÷ fused 4\\.00×"));
  EXPECT_TRUE(matches(html, "6 arrows from an unfused case to its fused twin"));
  EXPECT_TRUE(matches(html, "<span>→ unfused to fused</span>"));
  // The section: the pair table, sortable by value.
  EXPECT_TRUE(matches(html, "<h2 id=\"fusion\">Fusion: unfused → fused</h2>"));
  EXPECT_TRUE(matches(html,
                      "<table class=\"sortable\" id=\"fusion-pairs\"><thead><tr>"
                      "<th>problem</th><th>dtype</th><th>pattern</th><th>threads</th>"
                      "<th>unfused bytes</th><th>fused bytes</th>"));
  EXPECT_TRUE(matches(html,
                      "<tr><td>softmax rows=4096,cols=4096</td><td>f32</td><td>normal</td>"
                      "<td class=\"n\" data-v=\"1\">1</td>"
                      "<td class=\"n\" data-v=\"536936448\">537 MB analytic</td>"
                      "<td class=\"n\" data-v=\"134217728\">134 MB analytic</td>"
                      "<td class=\"n\" data-v=\"4.000488[0-9]*\">4.00×</td>"
                      "<td class=\"n\" data-v=\"0.04[0-9]*\">40 ms</td>"
                      "<td class=\"n\" data-v=\"0.01[0-9]*\">10 ms</td>"
                      "<td class=\"n\" data-v=\"4\">4.00×</td>"
                      "<td class=\"n\" data-v=\"0.9998[0-9]*\">1.00</td>"
                      "<td class=\"n\" data-v=\"0.67[0-9]*\">67% of DRAM</td>"
                      "<td class=\"n\" data-v=\"0.67[0-9]*\">67% of DRAM</td>"
                      "<td>—</td></tr>"));
  // Its notes under the table, a pair to a line.
  EXPECT_TRUE(matches(html,
                      "<ul class=\"fusion-notes meta\"><li><b>softmax rows=4096,cols=4096 "
                      "f32, 1 thread</b>: 100% of the unfused time in memory-bound "
                      "passes</li>"));
  // The case without a twin, with the reason.
  // Searched from the table on: a ".*" over the whole page recursed as deep as the page is
  // long in libstdc++'s regex executor (a stack overflow at -O0).
  const std::size_t unpaired = html.find("<table id=\"fusion-unpaired\">");
  ASSERT_NE(unpaired, std::string::npos);
  EXPECT_TRUE(matches(html.substr(unpaired),
                      "<td>layernorm/cpu\\.fused/[^<]*</td>"
                      "<td>cpu\\.fused</td><td>fused</td><td>no unfused case of family cpu"));
  // The eltwise chain: its plot with both series, the ridge intensity and the ridge L.
  EXPECT_EQ(count(html, "<svg class=\"sweep\""), 1u);
  EXPECT_TRUE(matches(html,
                      "<h3 class=\"sweep-title\">eltwise_chain f32 n=33554432, pattern "
                      "normal, 1 thread</h3>"));
  EXPECT_EQ(count(html, "<polyline class=\"sweep-series\" data-backend=\"cpu.fused\""), 2u);
  EXPECT_EQ(count(html, "<polyline class=\"sweep-series\" data-backend=\"cpu.unfused\""), 2u);
  EXPECT_TRUE(
      matches(html, "<line class=\"sweep-ridge\"[^>]*/><text[^>]*>DRAM ridge 5 FLOP/B</text>"));
  EXPECT_TRUE(matches(html,
                      "<line class=\"sweep-ridge-length\"[^>]*><title>cpu\\.fused: ridge at "
                      "L ≈ 26\\.7 — reaches the DRAM ridge \\(5 FLOP/B\\) between L = 16 "
                      "and 32</title></line><text[^>]*>L ≈ 26\\.7</text>"));
  EXPECT_TRUE(matches(html, "<li>cpu\\.unfused: does not reach the DRAM ridge"));
}

TEST(FusionHtml, ARunWithoutFusedCasesHasNoFusionSection) {
  ridgeline::Run run;
  run.benchmarks.push_back(fusion_runs::make_case("cpu.naive", "gemm", "m=64,n=64,k=64", 1, 1));
  const std::string html =
      html_report(make_report_input(run, "plain.json", fusion_runs::machine(), "test"));
  EXPECT_EQ(html.find("id=\"fusion\""), std::string::npos);
  EXPECT_EQ(html.find("fusion-arrow"), std::string::npos);
  EXPECT_EQ(html.find("class=\"sweep\""), std::string::npos);
}

TEST(FusionMarkdown, CarriesThePairsTheUnpairedAndTheSweep) {
  const std::string md = markdown_report(input());
  EXPECT_TRUE(matches(md, "\n## Fusion: unfused → fused\n"));
  EXPECT_TRUE(matches(md,
                      "\\| problem \\| dtype \\| pattern \\| threads \\| unfused bytes \\| "
                      "fused bytes \\| bytes unfused ÷ fused \\| unfused time \\| fused time "
                      "\\| speedup \\(time unfused ÷ fused\\) \\| speedup ÷ byte ratio \\| "
                      "unfused: memory roof \\| fused: memory roof \\| energy per call "
                      "\\(unfused → fused\\) \\| notes \\|\n"
                      "\\|---\\|---\\|---\\|---:\\|"));
  EXPECT_TRUE(
      matches(md,
              "\\| softmax rows=4096,cols=4096 \\| f32 \\| normal \\| 1 \\| 537 MB "
              "analytic \\| 134 MB analytic \\| 4\\.00× \\| 40 ms \\| 10 ms \\| "
              "4\\.00× \\| 1\\.00 \\| 67% of DRAM \\| 67% of DRAM \\| — \\| 100% of the unfused "
              "time in memory-bound passes \\|\n"));
  EXPECT_TRUE(matches(md, "\n### Without a twin\n"));
  EXPECT_TRUE(matches(md,
                      "\\| layernorm/cpu\\.fused/[^|]* \\| cpu\\.fused \\| fused \\| no "
                      "unfused case of family cpu"));
  EXPECT_TRUE(matches(md, "\n### eltwise\\\\_chain f32 n=33554432, pattern normal, 1 thread\n"));
  EXPECT_TRUE(matches(md, "\\| cpu\\.fused \\| 32 \\| 20 ms \\| [0-9.]+ \\| 6 \\|\n"));
  EXPECT_TRUE(matches(md, "- cpu\\.fused: ridge at L ≈ 26\\.7 — reaches the DRAM ridge"));
}

TEST(FusionCsv, OneRowPerPairOrUnpairedCaseEveryRowAsWideAsTheHeader) {
  const ReportInput in = input();
  const auto rows = csv_lines(fusion_csv(in));
  ASSERT_EQ(rows.size(), 1u + 7 + 1);
  const auto header = csv_fields(rows[0]);
  EXPECT_EQ(rows[0],
            "op,params,dtype,pattern,threads,device,paired,unfused_case,fused_case,"
            "unfused_backend,fused_backend,unfused_bytes_analytic,fused_bytes_analytic,"
            "unfused_bytes_counted,fused_bytes_counted,unfused_bytes_counted_source,"
            "fused_bytes_counted_source,byte_ratio,counted_byte_ratio,unfused_seconds_per_call,"
            "fused_seconds_per_call,speedup,speedup_over_byte_ratio,unfused_memory_roof,"
            "fused_memory_roof,unfused_roof_level,fused_roof_level,fused_over_chain_compute,"
            "unfused_joules_per_call,fused_joules_per_call,energy_ratio,energy_domain,notes");
  for (const auto& row : rows) EXPECT_EQ(csv_fields(row).size(), header.size()) << row;
  const auto softmax = csv_fields(rows[1]);
  auto at = [&](const std::vector<std::string>& r, const std::string& column) {
    return r[std::find(header.begin(), header.end(), column) - header.begin()];
  };
  EXPECT_EQ(at(softmax, "op"), "softmax");
  EXPECT_EQ(at(softmax, "params"), "rows=4096,cols=4096");
  EXPECT_EQ(at(softmax, "paired"), "yes");
  EXPECT_EQ(at(softmax, "unfused_bytes_analytic"), "5.36936e+08");
  EXPECT_EQ(at(softmax, "fused_bytes_analytic"), "1.34218e+08");
  EXPECT_EQ(at(softmax, "byte_ratio"), "4.00049");
  EXPECT_EQ(at(softmax, "speedup"), "4");
  EXPECT_EQ(at(softmax, "fused_memory_roof"), "0.6711");
  EXPECT_EQ(at(softmax, "fused_roof_level"), "DRAM");
  EXPECT_EQ(at(softmax, "unfused_bytes_counted"), "");
  const auto layernorm = csv_fields(rows.back());
  EXPECT_EQ(at(layernorm, "paired"), "no");
  EXPECT_EQ(at(layernorm, "fused_backend"), "cpu.fused");
  EXPECT_EQ(at(layernorm, "unfused_backend"), "");
  EXPECT_EQ(at(layernorm, "speedup"), "");
  EXPECT_NE(at(layernorm, "notes").find("no unfused case of family cpu"), std::string::npos);
}

TEST(FusionCsv, TheSweepHasOneRowPerPointAndThePerCaseCsvKeepsItsColumns) {
  const ReportInput in = input();
  const auto rows = csv_lines(sweep_csv(in));
  ASSERT_EQ(rows.size(), 1u + 12);
  EXPECT_EQ(rows[0],
            "op,params,dtype,pattern,threads,device,backend,fused,L,seconds_per_call,gflops_per_s,"
            "intensity_flop_per_byte,level,ridge_intensity_flop_per_byte,ridge_L,"
            "ridge_L_extrapolated,ridge_note");
  for (const auto& row : rows) EXPECT_EQ(csv_fields(row).size(), 17u) << row;
  EXPECT_TRUE(matches(sweep_csv(in),
                      "\neltwise_chain,n=33554432,f32,normal,1,cpu,cpu\\.fused,yes,"
                      "32,0\\.02,[0-9.]+,6,DRAM,5,26\\.6667,no,"));
  // report.csv: one row per case, its columns as before fusion existed.
  EXPECT_EQ(csv_lines(csv_report(in))[0].rfind(
                "case,backend,op,dtype,params,threads,disposition,placeable,seconds_per_call,"
                "flops_per_call,gflops_per_s,flops_source,bytes_source,level,"
                "intensity_flop_per_byte,attainable_gflops_per_s,efficiency,bound,above_roof,"
                "reason,notes,",
                0),
            0u);
}

TEST(FusionTerminal, OneLinePerPair) {
  const std::string t = terminal_summary(input());
  EXPECT_TRUE(matches(t, "\nfusion, unfused → fused:\n"));
  EXPECT_TRUE(matches(t,
                      "\n  softmax rows=4096,cols=4096 f32 +1t +speedup 4\\.00× +bytes "
                      "4\\.00× +time/bytes 1\\.00 +fused 67% of DRAM roof\n"));
  EXPECT_TRUE(matches(t, "1 fused or unfused case without a twin"));
}

// The softmax chain's passes (fusion_run: exp at 15 ms, 0.45 of the DRAM roof) in every
// format, from one table: Markdown and HTML tables, a CSV row per pass, the terminal names
// the pass that loses.
TEST(UnfusedPasses, EveryFormatShowsThePassesAndNamesTheOneThatLoses) {
  const ReportInput in = input();
  ASSERT_EQ(in.fusion.chains.size(), 1u);
  const std::string md = markdown_report(in);
  EXPECT_TRUE(matches(md,
                      "\n### Passes of softmax rows=4096,cols=4096 f32, pattern normal, 1 "
                      "thread, cpu\\.unfused\n\npasses together 39 ms per call, the case "
                      "40 ms; 100% of the passes' time in memory-bound passes"));
  EXPECT_TRUE(matches(md,
                      "\\| exp \\| 15 ms \\| 38% \\| 134 MB \\| 8\\.95 GB/s \\| 0\\.125 \\| "
                      "1\\.12 \\| DRAM \\| 0\\.45 \\| yes: loses here \\|\n"));
  EXPECT_EQ(count(md, "yes: loses here"), 1u);
  EXPECT_TRUE(matches(md, "- exp runs at 0\\.45 of its DRAM roof \\(38% of the chain's time\\)"));

  const std::string html = html_report(in);
  EXPECT_NE(html.find("id=\"unfused-passes\""), std::string::npos);
  EXPECT_EQ(count(html, "<table class=\"sortable pass-table\">"), 1u);
  EXPECT_TRUE(matches(html, "<td>exp</td><td class=\"n\" data-v=\"0\\.015\">15 ms</td>"));

  const auto rows = csv_lines(passes_csv(in));
  ASSERT_EQ(rows.size(), 1u + 5);  // the header, a row per pass
  EXPECT_EQ(rows[0],
            "op,params,dtype,pattern,threads,device,backend,case,level,pass,time,of the chain,"
            "bytes,bandwidth,intensity (FLOP/B),GFLOP/s,bound,of its roof,below 0.8");
  for (std::size_t i = 1; i < 6; ++i) EXPECT_EQ(csv_fields(rows[i]).size(), 19u) << rows[i];
  EXPECT_TRUE(
      matches(rows[3],
              "^softmax,\"rows=4096,cols=4096\",f32,normal,1,cpu,cpu\\.unfused,"
              "\"softmax/[^\"]+\",DRAM,exp,0\\.015,0\\.384615,1\\.34218e\\+08,8\\.94785e\\+09,"
              "0\\.125,1\\.11848,DRAM,0\\.447392,yes: loses here$"))
      << rows[3];

  EXPECT_TRUE(matches(terminal_summary(in),
                      "\n  softmax rows=4096,cols=4096 cpu\\.unfused 1t: pass exp at 0\\.45 of "
                      "its DRAM roof \\(38% of the chain\\)\n"))
      << terminal_summary(in);
}

}  // namespace ridgeline
