// Each output format checked against patterns (not byte-for-byte: numbers are the
// recorded ones, layout may change), and every string from a Run escaped.
#include "ridgeline/reports/report.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <tuple>

#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/escape.hpp"
#include "text_checks.hpp"

namespace ridgeline {

namespace {

ReportInput recorded() {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  auto machine = run.context.machine;
  return make_report_input(std::move(run), "run-smoke.json", machine,
                           "the model embedded in the run");
}

using test::count;

using test::matches;

ReportInput with_hostile_names() {
  ReportInput in = recorded();
  in.run.benchmarks[0].run_name = in.run.benchmarks[0].name = "<script>alert(1)</script>";
  in.run.benchmarks[0].ridgeline->backend = "<img src=x onerror=alert(2)>";
  in.run.context.host_name = "host\"><b>x</b>";
  auto machine = in.run.context.machine;
  return make_report_input(in.run, "a|b,c.json", machine, "x");
}

}  // namespace

TEST(HtmlReport, IsOneSelfContainedPageWithTheRoofline) {
  ReportInput in = recorded();
  std::string html = html_report(in);
  EXPECT_TRUE(matches(html, "^<!DOCTYPE html>"));
  EXPECT_TRUE(matches(html, "<svg [^>]*viewBox=\"0 0 960 600\""));
  // Self-contained: nothing fetched from anywhere.
  EXPECT_FALSE(matches(html, "(src|href)=\"(https?:)?//"));
  EXPECT_FALSE(matches(html, "<link "));
  EXPECT_EQ(count(html, "<script>"), 1u);
  // One point per placed result, each with a tooltip naming its numbers and sources.
  std::size_t placed = 0;
  for (const auto& p : in.placements) placed += p.placeable;
  EXPECT_EQ(count(html, "<g class=\"point\">"), placed);
  EXPECT_TRUE(matches(html,
                      "<title>gemm/cpu\\.naive/f64/[^<]*\\n[0-9.]+ GFLOP/s, 1 thread\\nintensity "
                      "[0-9.]+ FLOP/B \\((L1|L2|L3|DRAM)\\)\\n"
                      "attainable [0-9.]+ GFLOP/s, efficiency [0-9]+%, bound: [A-Za-z0-9 "
                      "]+\\nsources: FLOPs analytic, bytes analytic"));
  // Ceilings labelled with their values, and ridge points.
  EXPECT_TRUE(matches(html, "f64 1t peak: [0-9.]+ GFLOP/s \\(f64\\.(avx2|avx512)\\.fma\\)"));
  EXPECT_TRUE(matches(html, "DRAM 1t: [0-9.]+ GB/s"));
  EXPECT_TRUE(matches(html, "<title>ridge point f64 L1 \\(1 thread\\): [0-9.]+ FLOP/B</title>"));
  // Tables: the first screen, results (sortable, one per op), ladder against the best BLAS,
  // machine, ceilings.
  EXPECT_TRUE(matches(html, "<section id=\"overview\"><h2>At a glance</h2>"));
  EXPECT_LT(html.find("id=\"overview\""), html.find("<svg"));
  EXPECT_TRUE(matches(html, "<table class=\"sortable results\" id=\"results-gemm\">"));
  EXPECT_TRUE(matches(html, "<h2>Ladder against the best BLAS per problem</h2>"));
  EXPECT_TRUE(matches(html, "<th>clock \\(measured\\)</th><td>[0-9]+ MHz"));
  EXPECT_TRUE(matches(html, "<td>f64\\.avx512\\.fma</td><td class=\"n\" data-v=\"1\">1</td>"));
}

// The machine section of a schema-2 model (a real Zen 5 probe): the sweep plot with one line
// per sweep, a band per measured level and hwloc's sizes, and the levels table; the 508 MiB
// L3 hwloc reports is drawn in red and its row says the measured size is used.
TEST(HtmlReport, MachineSectionShowsTheMeasuredHierarchyBesideHwloc) {
  ReportInput in = recorded();
  const MachineModel zen5 = read_machine_file(RIDGELINE_FIXTURES "/machine-zen5-vm-levels.json");
  in = make_report_input(in.run, "run-smoke.json", zen5, "the Zen 5 probe");
  const std::string html = html_report(in);
  EXPECT_TRUE(matches(html, "<h3>Memory hierarchy \\(measured\\)</h3><svg class=\"memory-sweep\""));
  EXPECT_EQ(count(html, "<polyline class=\"sweep\""), zen5.sweeps.size());
  EXPECT_EQ(count(html, "<line class=\"level\""), zen5.levels.size());
  EXPECT_EQ(count(html, "<line class=\"hwloc\""), 3u);
  EXPECT_TRUE(matches(html, "stroke=\"#e03131\"[^>]*/><text[^>]*>hwloc L3 508 MiB \\(replaced\\)"));
  EXPECT_TRUE(matches(html, ">hwloc L1 48 KiB</text>"));
  const auto l3_row = html.find("<td>L3</td><td>read</td><td class=\"n\" data-v=\"1\">1</td>");
  ASSERT_NE(l3_row, std::string::npos);
  EXPECT_LT(html.find("measured (replaces hwloc&#39;s)", l3_row), html.find("</tr>", l3_row));
  EXPECT_NE(html.find("<td>DRAM</td><td>read</td>"), std::string::npos);
  const std::string md = markdown_report(in);
  // The same table in Markdown, from the same columns.
  EXPECT_NE(
      md.find("| level | sweep | threads | plateau | bandwidth | steps down at | hwloc | size "
              "used | evidence |\n|---|---|---:|---|---:|---:|---:|---|---|"),
      std::string::npos);
  EXPECT_TRUE(
      matches(md,
              "\\| L3 \\| read \\| 1 \\| [0-9]+ KiB – [0-9]+ KiB \\| [0-9.]+ GB/s \\| [0-9]+ KiB "
              "\\| 520192 KiB \\| measured \\(replaces hwloc's\\) \\|  \\|"));
  // A schema-1 model has no sweep: no plot, no levels table.
  const std::string old = html_report(recorded());
  EXPECT_EQ(count(old, "memory-sweep"), 0u);
  EXPECT_EQ(count(old, "Memory hierarchy"), 0u);
}

// A probe under qemu-user (the arm64 CI) says so beside the CPU, in both formats, escaped.
TEST(Reports, SayTheMachineWasEmulated) {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  ASSERT_TRUE(run.context.machine);
  MachineModel m = *run.context.machine;
  m.emulated = "emulated: qemu-user <x86 host>";
  const ReportInput in = make_report_input(std::move(run), "run.json", m, "x");
  EXPECT_NE(html_report(in).find("emulated: qemu-user &lt;x86 host&gt;"), std::string::npos);
  EXPECT_NE(markdown_report(in).find("emulated: qemu-user"), std::string::npos);
  EXPECT_EQ(html_report(recorded()).find("emulated:"), std::string::npos);
}

TEST(HtmlReport, EscapesEveryStringFromTheRun) {
  std::string html = html_report(with_hostile_names());
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_EQ(html.find("<b>x</b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
  EXPECT_EQ(count(html, "<script>"), 1u);
}

TEST(MarkdownReport, CarriesTheSameNumbersInTables) {
  ReportInput in = recorded();
  std::string md = markdown_report(in);
  EXPECT_TRUE(matches(md, "^# Ridgeline report\n"));
  // The HTML report's tables (tables.hpp, results_table.hpp), every column of them.
  EXPECT_TRUE(matches(
      md,
      "\\| compute \\| threads \\| measured \\| theoretical \\| of theoretical \\| source \\|"));
  EXPECT_TRUE(matches(md,
                      "\\| memory level \\| kernel \\| instructions \\| threads \\| bandwidth "
                      "\\| working set \\| source \\|"));
  // Results per op, each case by its kernel and what varies (threads here), then the folded
  // columns of every case by its full name.
  EXPECT_TRUE(
      matches(md, "\n## Results\n\n### gemm\n\n\\| case \\| GFLOP/s \\| time per call \\| cv \\|"));
  EXPECT_TRUE(
      matches(md, "\n### Timing spread, units and provenance\n\n\\| case \\| op \\| backend \\|"));
  for (const auto& p : in.placements) {
    std::string row = fmt::format("| {} threads={} | {:.2f} |", escape_markdown_cell(p.backend),
                                  p.threads, p.achieved / 1e9);
    EXPECT_NE(md.find(row), std::string::npos) << row;
    row =
        fmt::format("| {} | {} | {} | CPU | vector units | {} | {} |", escape_markdown_cell(p.name),
                    p.op, escape_markdown_cell(p.backend), p.dtype, p.threads);
    EXPECT_NE(md.find(row), std::string::npos) << row;
  }
  std::string hostile = markdown_report(with_hostile_names());
  EXPECT_EQ(hostile.find("<script>"), std::string::npos);
  EXPECT_NE(hostile.find("&lt;script&gt;"), std::string::npos);
}

TEST(Reports, SayWhatReadingTheInputLeftOutAndThatTheRunWasInterrupted) {
  ReportInput in = recorded();
  in.run.notes.push_back("the journal's last line was cut short <by a kill>: left out");
  in.run.context.interrupted = true;
  const std::string html = html_report(in);
  EXPECT_NE(html.find("Reading the input: the journal&#39;s last line was cut short &lt;by a "
                      "kill&gt;: left out"),
            std::string::npos)
      << html.substr(0, 2000);
  EXPECT_NE(html.find("the run was interrupted"), std::string::npos);
  const std::string md = markdown_report(in);
  EXPECT_NE(md.find("Reading the input: the journal's last line was cut short"), std::string::npos)
      << md.substr(0, 2000);
  EXPECT_NE(md.find("the run was interrupted"), std::string::npos);
}

TEST(CsvReport, OneRowPerCaseWithAFixedHeader) {
  ReportInput in = recorded();
  std::string csv = csv_report(in);
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')),
      "case,backend,op,dtype,params,threads,disposition,placeable,seconds_per_call,flops_per_"
      "call,gflops_per_s,"
      "flops_source,bytes_source,level,intensity_flop_per_byte,attainable_gflops_per_s,"
      "efficiency,bound,"
      "above_roof,reason,notes,repetitions,seconds_min,seconds_max,seconds_cv,guidance,device,"
      "flop_per_joule,energy_domain,compute_unit,faster_unit_ceiling,faster_unit_gflops_per_s,"
      "faster_unit_case,faster_unit_case_gflops_per_s");
  EXPECT_EQ(count(csv, "\n"), in.placements.size() + 1);
  EXPECT_TRUE(matches(csv,
                      "\n\"gemm/cpu\\.naive/f64/m=64,n=64,k=64/layout=NN/pattern=normal/"
                      "threads=1\",cpu\\.naive,gemm,f64,"));
  std::string hostile = csv_report(with_hostile_names());
  EXPECT_NE(hostile.find("\"m=64,n=64,k=64/layout=NN\""), std::string::npos)
      << "fields with commas are quoted";
}

TEST(Escaping, EachEscaperHandlesItsSpecialCharacters) {
  EXPECT_EQ(escape_html("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(escape_markdown_cell("a|b\nc`d"), "a\\|b\\\\x0Ac\\`d");
  EXPECT_EQ(escape_csv_field("plain"), "plain");
  EXPECT_EQ(escape_csv_field("a,\"b\""), "\"a,\"\"b\"\"\"");
}

TEST(ReportFormat, ChosenByExtension) {
  EXPECT_EQ(report_format_for("r.html"), ReportFormat::html);
  EXPECT_EQ(report_format_for("r.md"), ReportFormat::markdown);
  EXPECT_EQ(report_format_for("r.csv"), ReportFormat::csv);
  EXPECT_FALSE(report_format_for("r.pdf"));
}

}  // namespace ridgeline

namespace ridgeline {

namespace {

// The recorded CPU run plus GPU cases (cuBLAS bf16 at 8192^3 on two patterns, one
// throttled) and GPU ceilings added to its machine: the shape a GPU machine's run has.
ReportInput with_gpu_cases() {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  MachineModel machine = *run.context.machine;
  machine.gpus.push_back(
      {0, "NVIDIA H100 80GB HBM3", "9.0", 132, std::int64_t{80} << 30, 50 << 20, 0});
  ComputeCeiling tensor;
  tensor.name = "gpu.bf16.cublaslt";
  tensor.dtype = "bf16";
  tensor.per_second = 7.5e14;
  tensor.device = Device::gpu;
  tensor.method = "cuBLASLt GEMM 8192^3, uniform data";
  machine.compute.push_back(tensor);
  MemoryCeiling hbm;
  hbm.level = "HBM";
  hbm.kernel = "copy";
  hbm.bytes_per_s = 3e12;
  hbm.device = Device::gpu;
  hbm.method = "cudaMemcpyAsync device to device";
  machine.memory.push_back(hbm);
  for (const auto& [pattern, rate, power, throttled] :
       std::vector<std::tuple<std::string, double, double, double>>{{"zeros", 8.9e14, 420, 0},
                                                                    {"normal", 7.2e14, 690, 1}}) {
    CaseResult r;
    r.run_type = "iteration";
    r.iterations = 10;
    r.real_time = 2.0 * 8192 * 8192 * 8192 / rate * 1e3;
    r.time_unit = "ms";
    CaseDetails d;
    d.backend = "cuda.cublas";
    d.device = Device::gpu;
    d.problem = gemm_problem(Shape{8192, 8192, 8192, 1}, Layout::NN, DType::bf16, pattern);
    d.work = op_work(d.problem);
    d.validation.disposition = Disposition::passed;
    d.metrics = {{"flop_rate", rate, "FLOP/s", MetricSource::derived},
                 {"power.gpu.avg", power, "W", MetricSource::sampled},
                 {"clock.sm.avg", 1.9e9, "Hz", MetricSource::sampled},
                 {"gpu.throttled", throttled, "bool", MetricSource::sampled},
                 {"gpu.power_capped", throttled, "bool", MetricSource::sampled}};
    r.ridgeline = d;
    r.name = r.run_name = "gemm/cuda.cublas/bf16/8192/" + pattern;
    run.benchmarks.push_back(r);
  }
  return make_report_input(std::move(run), "gpu.json", machine, "with GPU ceilings");
}

}  // namespace

TEST(HtmlReport, GpuCasesSitUnderTheGpuRoofWithTheirPatternsAndThrottling) {
  const std::string html = html_report(with_gpu_cases());
  EXPECT_NE(html.find("bf16 GPU peak"), std::string::npos);  // the GPU's roof, labelled
  EXPECT_NE(html.find("HBM GPU"), std::string::npos);        // its HBM line
  EXPECT_NE(html.find("NVIDIA H100 80GB HBM3"), std::string::npos);
  EXPECT_NE(html.find("<h2>Input data</h2>"), std::string::npos);
  EXPECT_NE(html.find("(GPU throttled)"), std::string::npos);
  EXPECT_NE(html.find("cudaMemcpyAsync device to device"), std::string::npos);
  const std::string md = markdown_report(with_gpu_cases());
  EXPECT_NE(md.find("## Input data"), std::string::npos);
  EXPECT_TRUE(matches(
      md, R"(\| normal \(GPU throttled\) \| [0-9.]+ \| 0\.809 \| 690\.0 W \| 1900\.0 MHz \|)"))
      << md;
}

}  // namespace ridgeline

namespace ridgeline {

// The analysis model is built once, in make_report_input; a printer formats what it is
// given and never recomputes it (what the dashboard will rely on too).
TEST(Reports, PrintersFormatTheModelTheyAreGiven) {
  ReportInput in = recorded();
  ASSERT_FALSE(in.ladder.empty());
  ASSERT_FALSE(in.ladder[0].rates.empty());
  in.ladder[0].rates[0].backend = "cpu.markedbythetest";
  EXPECT_NE(markdown_report(in).find("cpu.markedbythetest"), std::string::npos);
  EXPECT_NE(html_report(in).find("cpu.markedbythetest"), std::string::npos);
  in.ladder.clear();
  EXPECT_EQ(markdown_report(in).find("Ladder against the best BLAS"), std::string::npos);
}

}  // namespace ridgeline

namespace ridgeline {

// The GPU's rate at its power cap per input pattern, from the pattern cases NVML saw capped:
// a table under the input data in HTML and Markdown, and a note on the capped case.
TEST(PowerCapReport, TheCapsRoofIsTabledAndNotedInEveryFormat) {
  const ReportInput in = with_gpu_cases();
  ASSERT_EQ(in.power_caps.size(), 1u);  // normal inputs ran at the cap, zeros did not
  const std::string html = html_report(in);
  EXPECT_NE(html.find("<table id=\"power-cap-table\">"), std::string::npos);
  // On the roofline too, dotted beside the nominal roof.
  EXPECT_NE(html.find("bf16 GPU at the power cap (normal inputs)"), std::string::npos);
  EXPECT_NE(html.find("stroke-dasharray=\"2 2\""), std::string::npos);
  EXPECT_NE(html.find("<td>normal</td><td class=\"n\" data-v=\"720000000000000\">"),
            std::string::npos);
  const std::string md = markdown_report(in);
  EXPECT_NE(md.find("### Compute at the power cap\n\n| dtype | pattern | GFLOP/s at the cap |"),
            std::string::npos);
  EXPECT_NE(md.find("| bf16 | normal |"), std::string::npos);
  // The capped case is told the cap's roof (96% of the 750 TFLOP/s nominal); zeros is not.
  int gpu_cases = 0;
  for (const auto& p : in.placements) {
    const bool noted = !p.notes.empty() && p.notes.back().kind == NoteKind::power_cap;
    EXPECT_EQ(noted, p.device == Device::gpu && p.pattern == "normal") << p.name;
    gpu_cases += p.device == Device::gpu;
  }
  EXPECT_EQ(gpu_cases, 2);
}

}  // namespace ridgeline
