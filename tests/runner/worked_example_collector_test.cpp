// The worked example of docs/adding-a-collector.md, built and run by this test: a collector
// of its own (rusage_example: the process's minor page faults from getrusage, counted),
// registered from this test binary and read around every repetition of a real case through
// the runner, with no change to any module.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "ridgeline/collectors/collector.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "ridgeline/runner/runner.hpp"
#include "sanitizers.hpp"

namespace ridgeline {

namespace {

// --- the collector ---------------------------------------------------------------------

// Minor page faults (a page mapped on first touch) of every thread of this process between
// start() and stop(): getrusage(RUSAGE_SELF) is the kernel's own count, so `counted`.
class MinorFaultsCollector : public Collector {
 public:
  std::string name() const override { return "rusage_example"; }
  Availability probe() override {
    rusage r{};
    if (getrusage(RUSAGE_SELF, &r) != 0)
      return {false, std::string("getrusage(RUSAGE_SELF) failed: ") + std::strerror(errno)};
    return {true, ""};
  }
  void start() override { at_start_ = minor_faults(); }
  void stop() override { faults_ = minor_faults() - at_start_; }
  std::vector<Metric> read() override {
    return {{"rusage_example.minor_faults", static_cast<double>(faults_), "faults",
             MetricSource::counted}};
  }

 private:
  static long minor_faults() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return r.ru_minflt;
  }
  long at_start_ = 0;
  long faults_ = 0;
};

// --- its registration ------------------------------------------------------------------

std::unique_ptr<Collector> make_minor_faults(const std::vector<std::string>&) {
  return std::make_unique<MinorFaultsCollector>();
}

void register_example_collector() {
  static const bool once = [] {
    register_collector({"rusage_example",
                        "the process's minor page faults (getrusage), the worked example",
                        &make_minor_faults,
                        {},
                        nullptr,
                        false,
                        true});  // opt-in: only where --collect names it
    return true;
  }();
  (void)once;
}

}  // namespace

TEST(WorkedExampleCollector, CountsThePagesTouchedBetweenStartAndStop) {
  register_example_collector();
  auto collectors = make_collectors({"rusage_example"});
  Collector* c = nullptr;
  for (auto& x : collectors)
    if (x->name() == "rusage_example") c = x.get();
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->probe().available) << c->probe().reason;
  constexpr std::size_t kPages = 4096;
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* fresh =
      mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(fresh, MAP_FAILED);
  c->start();
  for (std::size_t i = 0; i < kPages; ++i) static_cast<volatile char*>(fresh)[i * page] = 1;
  c->stop();
  munmap(fresh, kPages * page);
  const std::vector<Metric> m = c->read();
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].source, MetricSource::counted);
  // Each page faulted once; the few more are the test's own (its stack, gtest's buffers).
  // Under ASan each eighth page's write also faults in a page of its shadow memory.
#ifdef RIDGELINE_UNDER_ASAN
  constexpr double kMore = 1.125 + 0.05;
#else
  constexpr double kMore = 1.05;
#endif
  EXPECT_GE(m[0].value, kPages);
  EXPECT_LE(m[0].value, kPages * kMore);
}

TEST(WorkedExampleCollector, IsOptInAndItsNameIsTakenOnce) {
  register_example_collector();
  for (const auto& c : make_collectors({})) EXPECT_NE(c->name(), "rusage_example");
  EXPECT_THROW(register_collector({"rusage_example", "again", &make_minor_faults, {}}), InputError);
  EXPECT_THROW(make_collectors({"rusage_example:minor"}), InputError);  // it takes no events
}

TEST(WorkedExampleCollector, EveryRepetitionOfACaseCarriesItsReading) {
  register_example_collector();
  CaseSpec spec{"cpu.naive", gemm_problem(Shape{48, 48, 48, 1}, Layout::NN, DType::f64, "normal"),
                1};
  RunSettings settings;
  settings.repetitions = 3;
  settings.min_time_s = 0.01;
  settings.warmup_s = 0;
  settings.collect = {"rusage_example"};
  std::size_t repetitions = 0;
  for (const CaseResult& r :
       execute_case(KernelCatalog::with_builtin_kernels({}), spec, settings)) {
    if (r.run_type != "iteration") continue;
    ++repetitions;
    bool found = false;
    for (const Metric& m : r.ridgeline->metrics)
      if (m.name == "rusage_example.minor_faults") {
        found = true;
        EXPECT_EQ(m.source, MetricSource::counted);
        EXPECT_GE(m.value, 0);
      }
    EXPECT_TRUE(found) << r.name << " rep " << r.repetition_index;
  }
  EXPECT_EQ(repetitions, 3u);
}

}  // namespace ridgeline
