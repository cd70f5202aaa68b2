// Section 6 of issue 10: every number that can reach placement and drawing — zero,
// negative zero, subnormal, tiny, huge, infinite, NaN, negative — in every field that
// carries one, ends in a bounded and labelled outcome: placed, or not placeable with the
// field in the reason, or left off the plot with why, or a ceiling left out with why.
// Each row first runs in a child process with a time and (outside ASan) a memory limit,
// so a hang or a runaway allocation fails the row instead of the machine.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <functional>
#include <limits>
#include <regex>
#include <tuple>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/analysis/usable.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/reports/report.hpp"
#include "sanitizers.hpp"
#include "scene_checks.hpp"

namespace ridgeline {

namespace {

CaseResult our_case(const std::string& pattern) {
  CaseResult r;
  r.name = r.run_name = "gemm/cpu.test/f64/m=256,n=256,k=256/pattern=" + pattern;
  r.iterations = 10;
  r.real_time = 1.0;
  r.time_unit = "ms";
  CaseDetails d;
  d.backend = "cpu.test";
  d.problem = gemm_problem(Shape{256, 256, 256, 1}, Layout::NN, DType::f64, pattern);
  d.work = op_work(d.problem);
  d.validation.disposition = Disposition::passed;
  d.metrics = {{"flop_rate", 3.3e10, "FLOP/s", MetricSource::derived},
               {"power.package-0", 80, "W", MetricSource::sampled}};
  r.ridgeline = d;
  return r;
}

CaseResult foreign_case() {
  CaseResult r;
  r.name = r.run_name = "BM_Foreign/4096";
  r.iterations = 1000;
  r.real_time = 2.0;
  r.cpu_time = 2.0;
  r.time_unit = "us";
  r.counters = {{"flops", 4e9}, {"bytes_per_second", 8e9}};
  return r;
}

// A run with two patterns of one of our cases and a foreign result, and a machine.
struct Documents {
  Run run;
  MachineModel machine;
};

Documents sane() {
  Documents d;
  d.run.context.has_ridgeline = true;
  d.run.context.version = "0.1.0";
  d.run.benchmarks = {our_case("normal"), our_case("zeros"), foreign_case()};
  MachineModel& m = d.machine;
  m.l1d_bytes = 48 << 10;
  m.l2_bytes = 1 << 20;
  m.l3_bytes = 32 << 20;
  m.measured_clock_hz = 3.6e9;
  for (int t : {1, 2}) {
    for (const char* dtype : {"f64", "f32"}) {
      ComputeCeiling c;
      c.name = std::string(dtype) + ".avx512.fma";
      c.dtype = dtype;
      c.per_second = (dtype[1] == '6' ? 58e9 : 117e9) * t;
      c.threads = t;
      m.compute.push_back(c);
    }
    for (const auto& [level, bw] : std::vector<std::pair<std::string, double>>{
             {"L1", 260e9}, {"L2", 100e9}, {"L3", 70e9}, {"DRAM", 25e9}}) {
      MemoryCeiling c;
      c.level = level;
      c.kernel = "copy";
      c.bytes_per_s = bw * t;
      c.threads = t;
      m.memory.push_back(c);
    }
  }
  m.overhead.push_back({"call", 2e-9, MetricSource::timed, Device::cpu, ""});
  // A measured hierarchy (machine schema 2): one sweep and its levels.
  MemorySweep sweep;
  sweep.kernel = "read";
  for (int k = 0; k < 30; ++k) {
    sweep.working_set_bytes.push_back(std::int64_t{4096} << k);
    sweep.bytes_per_s.push_back(k < 4 ? 260e9 : k < 8 ? 100e9 : k < 13 ? 70e9 : 25e9);
  }
  m.sweeps.push_back(sweep);
  for (const auto& [name, first, last, bw] :
       std::vector<std::tuple<std::string, std::int64_t, std::int64_t, double>>{
           {"L1", 4096, 32768, 260e9},
           {"L2", 65536, 524288, 100e9},
           {"DRAM", 1 << 26, 1 << 30, 25e9}}) {
    MeasuredLevel l;
    l.name = name;
    l.kernel = "read";
    l.first_bytes = first;
    l.last_bytes = last;
    l.bytes_per_s = bw;
    m.levels.push_back(l);
  }
  return d;
}

struct Field {
  const char* name;
  std::function<void(Documents&, double)> set;
  // Found in a reason, a note or an omission whenever `rejected(value)`; nullptr where
  // the value is only shown, never computed with.
  const char* label;
  bool (*rejected)(double) = [](double v) { return !usable(v); };
};

// Power and clock readings may be 0; they may not be negative, infinite or NaN.
bool not_a_reading(double v) {
  return !std::isfinite(v) || v < 0;
}

CaseDetails& ours(Documents& d, std::size_t i = 0) {
  return *d.run.benchmarks[i].ridgeline;
}

const std::vector<Field>& fields() {
  static const std::vector<Field> all{
      {"real_time", [](Documents& d, double v) { d.run.benchmarks[0].real_time = v; },
       "time per call"},
      {"work.flops", [](Documents& d, double v) { ours(d).work.flops = v; }, "FLOP count per call"},
      {"work.bytes.dram", [](Documents& d, double v) { ours(d).work.bytes[MemoryLevel::main] = v; },
       "byte count per call"},
      {"metric flops (counted)",
       [](Documents& d, double v) {
         ours(d).metrics.push_back({"flops", v, "FLOP", MetricSource::counted});
       },
       "flops (counted) per call"},
      {"metric bytes.DRAM (derived)",
       [](Documents& d, double v) {
         ours(d).metrics.push_back({"bytes.DRAM", v, "B", MetricSource::derived});
       },
       "bytes.DRAM (derived) per call"},
      {"metric flop_rate",
       [](Documents& d, double v) {
         for (auto& m : ours(d, 1).metrics)
           if (m.name == "flop_rate") m.value = v;
       },
       "reading"},
      {"metric power",
       [](Documents& d, double v) {
         for (auto& m : ours(d, 1).metrics)
           if (m.name == "power.package-0") m.value = v;
       },
       "reading", not_a_reading},
      {"foreign real_time", [](Documents& d, double v) { d.run.benchmarks[2].real_time = v; },
       "real_time"},
      {"foreign cpu_time", [](Documents& d, double v) { d.run.benchmarks[2].cpu_time = v; },
       "cpu_time"},
      {"foreign flops counter",
       [](Documents& d, double v) { d.run.benchmarks[2].counters["flops"] = v; },
       "the FLOP rate counter"},
      {"foreign bytes_per_second",
       [](Documents& d, double v) { d.run.benchmarks[2].counters["bytes_per_second"] = v; },
       "bytes_per_second"},
      {"compute ceilings",
       [](Documents& d, double v) {
         for (auto& c : d.machine.compute) c.per_second = v;
       },
       "compute ceiling"},
      {"one compute ceiling", [](Documents& d, double v) { d.machine.compute[0].per_second = v; },
       "compute ceiling"},
      {"memory ceilings",
       [](Documents& d, double v) {
         for (auto& c : d.machine.memory) c.bytes_per_s = v;
       },
       "memory ceiling"},
      {"DRAM ceiling", [](Documents& d, double v) { d.machine.memory[3].bytes_per_s = v; },
       "memory ceiling DRAM"},
      {"call overhead", [](Documents& d, double v) { d.machine.overhead[0].seconds = v; },
       "overhead call"},
      {"measured clock", [](Documents& d, double v) { d.machine.measured_clock_hz = v; }, nullptr},
      // Shown only (the plot and the levels table); never computed with.
      {"sweep rates",
       [](Documents& d, double v) {
         for (double& r : d.machine.sweeps[0].bytes_per_s) r = v;
       },
       nullptr},
      {"one sweep rate", [](Documents& d, double v) { d.machine.sweeps[0].bytes_per_s[5] = v; },
       nullptr},
      {"level bandwidths",
       [](Documents& d, double v) {
         for (auto& l : d.machine.levels) l.bytes_per_s = v;
       },
       nullptr},
  };
  return all;
}

const std::vector<double>& values() {
  static const std::vector<double> all{0.0,
                                       -0.0,
                                       std::numeric_limits<double>::denorm_min(),
                                       1e-310,
                                       1e-300,
                                       -1.0,
                                       1e300,
                                       std::numeric_limits<double>::max(),
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(),
                                       std::numeric_limits<double>::quiet_NaN()};
  return all;
}

struct Outputs {
  ReportInput in;
  RooflineScene scene;
  std::string html, markdown, csv, terminal;
};

Outputs everything(const Documents& d) {
  Outputs o;
  o.in = make_report_input(d.run, "hostile.json", d.machine, "the test's machine");
  o.scene = roofline_scene(o.in.placements, &*o.in.machine);
  o.html = html_report(o.in);
  o.markdown = markdown_report(o.in);
  o.csv = csv_report(o.in);
  o.terminal = terminal_summary(o.in);
  return o;
}

// In a child: bounded time, bounded memory, and it must finish.
void run_bounded(const Documents& d) {
  alarm(20);
#ifndef RIDGELINE_UNDER_ASAN
  const rlim_t limit = rlim_t{1} << 30;  // 1 GiB: the report itself needs a few MB
  rlimit r{limit, limit};
  setrlimit(RLIMIT_AS, &r);
#endif
  const Outputs o = everything(d);
  _exit(o.html.empty() ? 1 : 0);
}

std::string all_labels(const Outputs& o) {
  std::string s;
  for (const auto& p : o.in.placements) s += p.reason + "\n" + join_notes(p.notes) + "\n";
  for (const auto& om : o.scene.omitted) s += om.what + ": " + om.reason + "\n";
  return s + o.markdown;
}

}  // namespace

TEST(HostileNumbers, EveryValueInEveryFieldEndsBoundedAndLabelled) {
  const std::regex bad_svg_number(
      R"re((x|y|x1|y1|x2|y2|cx|cy|r|width|height|d|transform|data-w)="[^"]*(nan|inf))re",
      std::regex::icase);
  const std::regex csv_non_number(R"re((^|,)(-?(nan|inf)|-[0-9.e+-]+|0)(,|$))re",
                                  std::regex::icase | std::regex::multiline);
  for (const auto& field : fields())
    for (double value : values()) {
      const std::string row = fmt::format("{} = {}", field.name, describe_number(value));
      SCOPED_TRACE(row);
      Documents d = sane();
      field.set(d, value);
      EXPECT_EXIT(run_bounded(d), ::testing::ExitedWithCode(0), "")
          << row << ": hung, ran out of memory or crashed";
      if (HasFailure()) return;
      const Outputs o = everything(d);
      EXPECT_LT(o.html.size(), 1u << 20) << row;
      EXPECT_LT(o.markdown.size() + o.csv.size() + o.terminal.size(), 1u << 20) << row;
      const std::string svg =
          o.html.substr(o.html.find("<svg"), o.html.find("</svg>") - o.html.find("<svg"));
      EXPECT_FALSE(std::regex_search(svg, bad_svg_number)) << row;
      // No CSV number cell holds a value that is not usable: it would be computed with.
      EXPECT_FALSE(std::regex_search(o.csv, csv_non_number)) << row << "\n" << o.csv;
      scene_checks::expect_sound_scene(o.scene, row);
      for (std::size_t i = 0; i < o.in.placements.size(); ++i) {
        const RooflinePlacement& p = o.in.placements[i];
        if (!p.placeable) {
          EXPECT_FALSE(p.reason.empty()) << row << ": " << p.name;
          continue;
        }
        EXPECT_TRUE(usable(p.flops) && usable(p.seconds) && usable(p.achieved)) << row;
        EXPECT_TRUE(p.attainable == 0 || (usable(p.attainable) && usable(p.efficiency))) << row;
        for (const auto& [level, ai] : p.intensity) {
          EXPECT_TRUE(usable(ai)) << row;
          std::size_t shown = 0;
          for (const auto& pt : o.scene.points) shown += pt.placement == i && pt.level == level;
          for (const auto& om : o.scene.omitted) shown += om.result && om.what == p.name;
          EXPECT_GE(shown, 1u) << row << ": " << p.name
                               << " neither drawn nor listed as off the plot";
        }
      }
      if (field.label && field.rejected(value)) {
        EXPECT_NE(all_labels(o).find(field.label), std::string::npos)
            << row << ": no label naming '" << field.label << "' in\n"
            << all_labels(o);
      }
      if (HasFailure()) return;
    }
}

}  // namespace ridgeline
