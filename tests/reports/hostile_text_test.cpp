// Section 8 of issue 10: names with control characters, bidi overrides and invalid UTF-8
// reach no format raw; CSV cells cannot start a formula; notes reach every format; the
// footer names the Ridgeline version.
#include <gtest/gtest.h>

#include "ridgeline/core/run_json.hpp"
#include "ridgeline/reports/escape.hpp"
#include "ridgeline/reports/report.hpp"

namespace ridgeline {

namespace {

// ESC [31m (red), a bell, a backspace, RLO ... PDF, an LRI, DEL, a C1 CSI, a lone
// continuation byte and a truncated sequence.
const std::string kHostile =
    "gemm\x1b[31mRED\x07\x08/\xE2\x80\xAE"
    "evil\xE2\x80\xAC/\xE2\x81\xA6x\x7f\xC2\x9B"
    "\x80\xE2\x82";

const std::vector<std::string> kRawBytes{
    "\x1b", "\x07", "\x08", "\x7f", "\xE2\x80\xAE", "\xE2\x80\xAC", "\xE2\x81\xA6", "\xC2\x9B"};

ReportInput with_names(const std::string& name, const std::string& backend) {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  auto machine = run.context.machine;
  for (auto& r : run.benchmarks)
    if (r.run_name == run.benchmarks[0].run_name) {
      r.run_name = name;
      r.ridgeline->backend = backend;
    }
  return make_report_input(std::move(run), "hostile.json", machine, "embedded");
}

// Each format's text for one input, named.
std::vector<std::pair<std::string, std::string>> every_format(const ReportInput& in) {
  return {{"html", html_report(in)},
          {"markdown", markdown_report(in)},
          {"csv", csv_report(in)},
          {"terminal", terminal_summary(in)}};
}

}  // namespace

TEST(HostileText, TheVisibleFormShowsEveryInvisibleCharacterAsAnEscape) {
  EXPECT_EQ(escape_visible("plain ascii, ünïcödé ✓"), "plain ascii, ünïcödé ✓");
  EXPECT_EQ(escape_visible(kHostile),
            "gemm\\x1B[31mRED\\x07\\x08/\\u202Eevil\\u202C/\\u2066x\\x7F\\x9B\\x80\\xE2\\x82");
  EXPECT_EQ(escape_visible("a\tb\nc\rd"), "a\\x09b\\x0Ac\\x0Dd");
  EXPECT_EQ(escape_visible("\xE2\x80\x8F\xD8\x9C\xE2\x80\xA8"), "\\u200F\\u061C\\u2028");
  EXPECT_EQ(escape_visible("\xC0\xAF"), "\\xC0\\xAF");           // overlong '/'
  EXPECT_EQ(escape_visible("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // a surrogate
  EXPECT_EQ(escape_visible(std::string("a\0b", 3)), "a\\x00b");
}

TEST(HostileText, NoFormatCarriesAControlOrBidiCharacterFromAName) {
  const ReportInput in = with_names(kHostile, "cpu.\xE2\x80\xAEnaive\x1b]0;title\x07");
  const auto outputs = every_format(in);
  for (const auto& [format, text] : outputs) {
    for (const auto& raw : kRawBytes)
      EXPECT_EQ(text.find(raw), std::string::npos)
          << format << " carries a raw control or bidi character";
    // Markdown escapes the backslash of the escape (it renders as \u202E).
    EXPECT_NE(text.find(format == "markdown" ? "\\\\u202Eevil\\\\u202C" : "\\u202Eevil\\u202C"),
              std::string::npos)
        << format;
  }
}

TEST(HostileText, CsvCellsThatWouldStartAFormulaAreNeutralised) {
  EXPECT_EQ(escape_csv_field("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(escape_csv_field("+1"), "\"'+1\"");
  EXPECT_EQ(escape_csv_field("-2+3"), "\"'-2+3\"");
  EXPECT_EQ(escape_csv_field("@SUM(A1)"), "\"'@SUM(A1)\"");
  EXPECT_EQ(escape_csv_field("\t=1"), "\\x09=1");  // a tab shows as an escape, and leads no more
  EXPECT_EQ(escape_csv_field("a;=1+1"), "\"a;=1+1\"");  // ';' separates in some locales
  EXPECT_EQ(escape_csv_field("gemm/m=64"), "gemm/m=64");
  const ReportInput in = with_names("=cmd|' /C calc'!A0", "@evil");
  const std::string csv = csv_report(in);
  EXPECT_NE(csv.find("\n\"'=cmd|' /C calc'!A0\",\"'@evil\","), std::string::npos) << csv;
  for (std::size_t pos = csv.find('\n'); pos != std::string::npos && pos + 1 < csv.size();
       pos = csv.find('\n', pos + 1))
    EXPECT_EQ(std::string("=+-@\t\r").find(csv[pos + 1]), std::string::npos)
        << "a row starts with a formula character";
}

TEST(AnalysisNotes, ReachEveryFormat) {
  // A foreign result: dtype unknown (highest peak), level unknown (DRAM); and one of our
  // results at 3 threads on a machine measured at 1 and 2.
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/gbench-foreign.json");
  ridgeline::Run ours = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  CaseResult three = ours.benchmarks.back();
  three.run_name = three.name = "gemm/three-threads";
  three.ridgeline->threads = 3;
  run.benchmarks.push_back(three);
  const MachineModel m = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  const ReportInput in = make_report_input(run, "mixed.json", m, "fixture");
  const auto outputs = every_format(in);
  for (const auto& [format, text] : outputs) {
    EXPECT_NE(text.find("dtype unknown: under the highest floating-point peak"), std::string::npos)
        << format;
    EXPECT_NE(text.find("level unknown: compared with DRAM"), std::string::npos) << format;
    EXPECT_NE(text.find("ceilings measured with 2 threads, the result ran with 3"),
              std::string::npos)
        << format;
    EXPECT_NE(text.find("not validated by Ridgeline"), std::string::npos) << format;
  }
}

TEST(Footer, NamesTheRidgelineThatWroteTheReportAndTheRun) {
  ridgeline::Run run = read_run_file(RIDGELINE_FIXTURES "/run-smoke-f64-zen4-vm.json");
  run.context.version = "0.0.9";
  auto machine = run.context.machine;
  const ReportInput in = make_report_input(run, "r.json", machine, "embedded");
  const std::string expected = std::string("Report written by Ridgeline ") + RIDGELINE_VERSION +
                               "; the run by Ridgeline 0.0.9.";
  EXPECT_NE(html_report(in).find("<p class=\"meta\" id=\"footer\">" + expected + "</p>"),
            std::string::npos);
  EXPECT_NE(markdown_report(in).find(expected), std::string::npos);
  const ReportInput foreign = make_report_input(
      read_run_file(RIDGELINE_FIXTURES "/gbench-foreign.json"), "g.json", machine, "embedded");
  EXPECT_NE(html_report(foreign).find("the run is a foreign Google Benchmark file"),
            std::string::npos);
}

}  // namespace ridgeline

namespace ridgeline {

TEST(TerminalTable, ColumnsLineUpWhateverTheNames) {
  // A name longer than any fixed column, one with multi-byte characters, one with an escape.
  ReportInput in = with_names(std::string(120, 'n'), "cpu.long");
  in.placements[1].name = "gemm/ünïcödé/✓";
  in.placements[2].name = "tab\there";
  const std::string table = terminal_summary(in);
  std::vector<std::size_t> ends;  // where the GFLOP/s column ends, in code points
  std::size_t start = 0;
  for (std::size_t nl = table.find('\n'); nl != std::string::npos;
       start = nl + 1, nl = table.find('\n', start)) {
    const std::string line = table.substr(start, nl - start);
    if (line.empty()) break;                   // the sections after the case table
    if (line.rfind("    ", 0) == 0) continue;  // a note under its case
    std::size_t points = 0, last_cell_end = 0, cells = 0;
    bool in_cell = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if ((line[i] & 0xC0) == 0x80) continue;
      ++points;
      const bool space = line[i] == ' ' && i + 1 < line.size() && line[i + 1] == ' ';
      if (in_cell && space) {
        if (++cells == 2) last_cell_end = points - 1;
        in_cell = false;
      } else if (!in_cell && line[i] != ' ') {
        in_cell = true;
      }
    }
    ends.push_back(last_cell_end);
  }
  ASSERT_GT(ends.size(), 3u);
  for (std::size_t e : ends) EXPECT_EQ(e, ends.front()) << table;
}

}  // namespace ridgeline
