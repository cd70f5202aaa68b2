// The counter-group parser, INHERITS, the formula evaluator and group evaluation, on group
// files written into a temporary directory (and the real ones in collectors/groups).
#include "ridgeline/collectors/counter_group.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "ridgeline/collectors/cupti.hpp"
#include "ridgeline/collectors/formula.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/vocabulary.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

TEST(Formula, PrecedenceParenthesesAndUnaryMinus) {
  const std::map<std::string, double> v{{"a", 2}, {"b", 3}, {"time", 0.5}};
  EXPECT_DOUBLE_EQ(evaluate_formula("a + b * 4", v), 14);
  EXPECT_DOUBLE_EQ(evaluate_formula("(a + b) * 4", v), 20);
  EXPECT_DOUBLE_EQ(evaluate_formula("a - b - 1", v), -2);  // left-associative
  EXPECT_DOUBLE_EQ(evaluate_formula("a / b / 2", v), 2.0 / 3 / 2);
  EXPECT_DOUBLE_EQ(evaluate_formula("-a * -b", v), 6);
  EXPECT_DOUBLE_EQ(evaluate_formula("1.0E-06 * b / time", v), 6e-6);
  EXPECT_TRUE(std::isnan(evaluate_formula("a / (b - 3)", v)));
}

TEST(Formula, ErrorsNameTheFormulaAndTheProblem) {
  const std::map<std::string, double> v{{"a", 1}};
  for (const char* bad : {"a +", "(a", "a b", "a * * a", "a $ 2", ""}) {
    try {
      evaluate_formula(bad, v);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("formula '") + bad + "'"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(evaluate_formula("a + missing", v), InputError);
  EXPECT_EQ(formula_names("(x + y.z) * x / time"), (std::vector<std::string>{"x", "y.z", "time"}));
}

class GroupFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("ridgeline-groups-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& arch, const std::string& name, const std::string& text) {
    fs::create_directories(dir_ / arch);
    std::ofstream(dir_ / arch / (name + ".txt")) << text;
  }
  fs::path dir_;
};

TEST_F(GroupFiles, InheritsMergesEventsAndMetricsAndKeepsLongText) {
  write("arch", "BASE", "SHORT base\nEVENTS\ncycles papi:CYC\nMETRICS\nclock [Hz] cycles / time\n");
  write("arch", "FLOPS",
        "# a comment\nSHORT flops\nINHERITS BASE\nEVENTS\nfl papi:FL:ANY\n"
        "METRICS\nflops [FLOP] fl * 2\nrate [FLOP/s] flops / time\nLONG\nline one\n# kept\n");
  const CounterGroup g = load_counter_group(dir_, "arch", "FLOPS");
  EXPECT_EQ(g.short_description, "flops");
  EXPECT_EQ(g.arch, "arch");
  ASSERT_EQ(g.events.size(), 2u);
  EXPECT_EQ(g.events[0].alias, "cycles");
  EXPECT_EQ(g.events[1].collect_item(), "papi:FL:ANY");
  EXPECT_EQ(g.events[1].metric_name(), "papi.FL:ANY");
  ASSERT_EQ(g.metrics.size(), 3u);
  EXPECT_EQ(g.metrics[0].name, "clock");
  EXPECT_EQ(g.long_description, "line one\n# kept\n");
}

TEST_F(GroupFiles, ChildReplacesAnInheritedEventOfTheSameAlias) {
  write("arch", "BASE", "EVENTS\ncycles papi:OLD\n");
  write("arch", "CHILD", "INHERITS BASE\nEVENTS\ncycles papi:NEW\n");
  const CounterGroup g = load_counter_group(dir_, "arch", "CHILD");
  ASSERT_EQ(g.events.size(), 1u);
  EXPECT_EQ(g.events[0].event, "NEW");
}

TEST_F(GroupFiles, FallsBackToGenericAndListsBoth) {
  write("generic", "SOFT", "EVENTS\nf perf:page-faults\n");
  write("arch", "OWN", "EVENTS\nf perf:page-faults\n");
  EXPECT_EQ(load_counter_group(dir_, "arch", "SOFT").arch, "generic");
  EXPECT_EQ(list_counter_groups(dir_, "arch"), (std::vector<std::string>{"OWN", "SOFT"}));
  EXPECT_EQ(list_counter_groups(dir_, "other"), (std::vector<std::string>{"SOFT"}));
}

void expect_error(const std::function<void()>& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing " << part;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST_F(GroupFiles, BadFilesFailWithFileLineAndWhat) {
  write("a", "CYCLE1", "INHERITS CYCLE2\n");
  write("a", "CYCLE2", "INHERITS CYCLE1\n");
  expect_error([&] { load_counter_group(dir_, "a", "CYCLE1"); }, "INHERITS cycle");
  write("a", "NOCOLL", "EVENTS\nx nosuch:EV\n");
  expect_error([&] { load_counter_group(dir_, "a", "NOCOLL"); }, "NOCOLL.txt:2: unknown collector");
  write("a", "BADLINE", "SHORT x\nEVENTS\nx\n");
  expect_error([&] { load_counter_group(dir_, "a", "BADLINE"); }, "BADLINE.txt:3:");
  write("a", "BADMETRIC", "METRICS\nm oops\n");
  expect_error([&] { load_counter_group(dir_, "a", "BADMETRIC"); }, "'name [unit] formula'");
  write("a", "BADFORMULA", "EVENTS\nx papi:X\nMETRICS\nm [u] x +\n");
  expect_error([&] { load_counter_group(dir_, "a", "BADFORMULA"); }, "BADFORMULA.txt:4: formula");
  write("a", "UNDEFINED", "EVENTS\nx papi:X\nMETRICS\nm [u] x / y\n");
  expect_error([&] { load_counter_group(dir_, "a", "UNDEFINED"); }, "reads 'y'");
  write("a", "KEYWORD", "FOO bar\n");
  expect_error([&] { load_counter_group(dir_, "a", "KEYWORD"); }, "expected SHORT");
  expect_error([&] { load_counter_group(dir_, "a", "NOPE"); }, "counter group 'NOPE'");
  // A CPU without a folder of its own: what was detected, what exists and where to read on.
  write("generic", "SOFT", "EVENTS\nt perf:task-clock\n");
  expect_error(
      [&] { load_counter_group(dir_, "generic", "FLOPS_DP", "AuthenticAMD family 1Ah model 44h"); },
      "counter group 'FLOPS_DP' not found: this CPU, AuthenticAMD family 1Ah model 44h, "
      "has no folder of its own, so only generic/ applies (SOFT). Folders in " +
          dir_.string() + ": a, generic.");
  expect_error([&] { load_counter_group(dir_, "a", "NOPE"); }, "uses a/ and generic/ (");
  expect_error([&] { load_counter_group(dir_, "a", "NOPE"); },
               "docs/adding-a-collector.md#counter-groups");
  expect_error([&] { load_counter_group(dir_, "a", "../x"); }, "not a group name");
}

TEST(GroupCpu, NamesVendorFamilyAndModelInHex) {
  EXPECT_EQ(counter_group_cpu("AuthenticAMD", 0x1a, 0x2), "AuthenticAMD family 1Ah model 02h");
  EXPECT_EQ(counter_group_arch("AuthenticAMD", 0x1a, 0x2), "generic");
  EXPECT_EQ(counter_group_arch("AuthenticAMD", 0x19, 0x11), "zen4");
  // AArch64: family 0, the model is MIDR_EL1's part number.
  EXPECT_EQ(counter_group_cpu("ARM", 0, 0xd4f), "ARM part 0xd4f");
  EXPECT_EQ(counter_group_cpu("0x00", 0, 0x51), "implementer 0x00 part 0x051");  // qemu's max
}

TEST_F(GroupFiles, EvaluationUsesReadingsTimeAndIterationsAndNamesWhatIsMissing) {
  write("a", "G",
        "EVENTS\nfl papi:FL\nsw perf:task-clock\nen rapl:package-0\nhw perf:cycles\n"
        "METRICS\nflops [FLOP] fl * 2\nrate [FLOP/s] flops / time\n"
        "busy [cores] sw * 1.0E-09 / time\nper_call [J] en / iterations\nipc [x] fl / hw\n");
  const CounterGroup g = load_counter_group(dir_, "a", "G");
  const std::vector<Metric> readings{{"papi.FL", 100, "events", MetricSource::counted},
                                     {"perf.task-clock.scaled", 2e9, "ns", MetricSource::counted},
                                     {"energy.package-0", 8, "J", MetricSource::counted}};
  std::vector<std::string> missing;
  const auto m = evaluate_group(g, readings, 2.0, 4, missing);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].name, "flops");
  EXPECT_DOUBLE_EQ(m[0].value, 200);
  EXPECT_EQ(m[0].source, MetricSource::derived);
  EXPECT_DOUBLE_EQ(m[1].value, 100);
  EXPECT_DOUBLE_EQ(m[2].value, 1.0);  // the scaled reading counts as the event
  EXPECT_DOUBLE_EQ(m[3].value, 2.0);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], "ipc: hw not counted");
}

TEST(CounterGroupArch, CpuIdsMapToTheirDirectories) {
  EXPECT_EQ(counter_group_arch("AuthenticAMD", 0x19, 0x11), "zen4");  // Genoa
  EXPECT_EQ(counter_group_arch("AuthenticAMD", 0x19, 0x61), "zen4");  // Raphael
  EXPECT_EQ(counter_group_arch("AuthenticAMD", 0x19, 0x01), "zen3");  // Milan
  EXPECT_EQ(counter_group_arch("AuthenticAMD", 0x19, 0x21), "zen3");  // Vermeer
  EXPECT_EQ(counter_group_arch("GenuineIntel", 6, 0x6a), "icx");
  EXPECT_EQ(counter_group_arch("AuthenticAMD", 0x17, 0x31), "generic");
  EXPECT_EQ(counter_group_arch("GenuineIntel", 6, 0x8f), "generic");
  // AArch64 (CpuIdentity: vendor "ARM" for implementer 0x41, family 0, model = part).
  EXPECT_EQ(counter_group_arch("ARM", 0, 0xd0c), "neoverse_n1");  // Graviton2, Altra
  EXPECT_EQ(counter_group_arch("ARM", 0, 0xd40), "neoverse_v1");  // Graviton3
  EXPECT_EQ(counter_group_arch("ARM", 0, 0xd49), "neoverse_n2");  // Cobalt 100
  EXPECT_EQ(counter_group_arch("ARM", 0, 0xd4f), "neoverse_v2");  // Graviton4, Grace, Axion
  EXPECT_EQ(counter_group_arch("ARM", 0, 0xd8e), "generic");      // Neoverse N3: no table
  EXPECT_EQ(counter_group_arch("Ampere", 0, 0xac3), "generic");   // AmpereOne
  EXPECT_EQ(counter_group_arch("Fujitsu", 0, 0x001), "generic");  // A64FX
}

}  // namespace
}  // namespace ridgeline

namespace ridgeline {

// One name per roofline quantity (core/vocabulary.hpp): every counter group's metrics and
// every target of CUPTI's table that counts bytes is "bytes.<level>" of a known level, the
// main memory "bytes.dram" (as the work models key it), and FLOPs are "flops" or its parts.
TEST(MetricNames, EveryGroupAndCollectorNamesTheRooflineQuantitiesAlike) {
  const auto check = [](const std::string& name, const std::string& where) {
    if (name.rfind("bytes.", 0) == 0) {
      const auto level = byte_metric_level(name);
      EXPECT_TRUE(level.has_value()) << where << ": " << name << " names no memory level";
      if (level) {
        EXPECT_EQ(name, bytes_metric(*level)) << where << ": spell it as placement does";
      }
    }
    if (name.rfind("flops", 0) == 0) {
      EXPECT_TRUE(name == kFlopsMetric || name.rfind("flops.", 0) == 0) << where << ": " << name;
    }
  };
  const std::filesystem::path dir = counter_groups_dir();
  int groups = 0, dram = 0;
  for (const auto& arch : std::filesystem::directory_iterator(dir)) {
    if (!arch.is_directory()) continue;
    const std::string a = arch.path().filename().string();
    for (const std::string& g : list_counter_groups(dir, a)) {
      const CounterGroup group = load_counter_group(dir, a, g);
      ++groups;
      for (const auto& m : group.metrics) {
        check(m.name, group.file.string());
        if (m.name == bytes_metric(MemoryLevel::main)) ++dram;
      }
    }
  }
  EXPECT_GE(groups, 20) << dir;
  EXPECT_GE(dram, 3) << "every MEM group names its DRAM bytes " << bytes_metric(MemoryLevel::main);
  int cupti_dram = 0;
  for (const auto& row : cupti_metric_table()) {
    check(row.target, "CUPTI " + row.metric);
    if (row.target == bytes_metric(MemoryLevel::main)) ++cupti_dram;
  }
  EXPECT_EQ(cupti_dram, 2);  // HBM reads and writes
  // What runs written before the rename carry still reads as main memory.
  EXPECT_EQ(byte_metric_level("bytes.DRAM"), MemoryLevel::main);
  EXPECT_EQ(display_name(MemoryLevel::main, Device::gpu), "HBM");
  EXPECT_EQ(display_name(MemoryLevel::main, Device::cpu), "DRAM");
  EXPECT_FALSE(byte_metric_level("bytes.L7"));
}

}  // namespace ridgeline
