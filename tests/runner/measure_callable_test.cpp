// measure_callable: a caller's function timed by the kernels' harness (runner/measure.hpp),
// as the Python module's measure() calls it.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ridgeline/runner/measure.hpp"
#include "test_kernels.hpp"

namespace ridgeline {
namespace {

CallableMeasurement counting(int& calls) {
  CallableMeasurement m;
  m.spec.backend = "python.count";
  m.spec.problem.op = "callable";
  m.spec.problem.pattern = "caller";
  m.work.flops = 1000;
  m.work.bytes[MemoryLevel::main] = 4000;
  m.notes["work"] = "as the caller gave it";
  m.call = [&calls] { ++calls; };
  return m;
}

TEST(MeasureCallable, TimesTheFunctionIntoTheHarnesssRows) {
  int calls = 0;
  const auto rows = measure_callable(counting(calls), testing::quick());
  ASSERT_FALSE(rows.empty());
  int iterations = 0;
  for (const auto& r : rows) {
    ASSERT_TRUE(r.ridgeline);
    EXPECT_EQ(r.run_name, "callable/python.count/f32/pattern=caller/threads=1");
    EXPECT_EQ(r.ridgeline->validation.disposition, Disposition::not_verified);
    EXPECT_EQ(r.ridgeline->work.flops, 1000);
    EXPECT_EQ(r.ridgeline->kernel_notes.at("work"), "as the caller gave it");
    if (r.run_type == "iteration") {
      ++iterations;
      EXPECT_FALSE(r.error_occurred);
      EXPECT_GT(r.iterations, 0);
    }
  }
  EXPECT_EQ(iterations, 2);
  EXPECT_GT(calls, 2);  // the untimed call, then the timed ones
}

TEST(MeasureCallable, AFunctionThatThrowsIsCrashedWithItsErrorAndTheCallersWork) {
  CallableMeasurement m;
  int calls = 0;
  m = counting(calls);
  m.call = [] { throw std::runtime_error("ZeroDivisionError: division by zero"); };
  const auto rows = measure_callable(m, testing::quick());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].ridgeline->validation.disposition, Disposition::crashed);
  EXPECT_NE(rows[0].error_message.find("ZeroDivisionError"), std::string::npos);
  EXPECT_EQ(rows[0].ridgeline->work.flops, 1000);  // what it would have done, as given
}

TEST(MeasureCallable, OneThatThrowsWhileTimedIsCrashedToo) {
  int calls = 0;
  CallableMeasurement m = counting(calls);
  m.call = [&calls] {
    if (++calls > 3) throw std::runtime_error("ran dry");
  };
  RunSettings ten_calls = testing::quick();  // a count, whatever a busy machine's clock says
  ten_calls.iterations = 10;
  const auto rows = measure_callable(m, ten_calls);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].ridgeline->validation.disposition, Disposition::crashed);
  EXPECT_NE(rows[0].error_message.find("ran dry"), std::string::npos);
}

TEST(MeasureCallable, AnInterruptStopsTheMeasurementAndIsThrownOn) {
  int calls = 0;
  CallableMeasurement m = counting(calls);
  m.call = [&calls] {
    if (++calls > 3) throw CallInterrupted("KeyboardInterrupt");
  };
  RunSettings many = testing::quick();
  many.repetitions = 20;
  many.iterations = 10;
  EXPECT_THROW(measure_callable(m, many), CallInterrupted);
  EXPECT_EQ(calls, 4);  // the repetitions still to come call nothing
  calls = 0;
  m.call = [] { throw CallInterrupted("KeyboardInterrupt"); };  // in the untimed call
  EXPECT_THROW(measure_callable(m, testing::quick()), CallInterrupted);
}

TEST(MeasureCallable, ColdCachesFlushTheCallersMemoryAndSaySo) {
  int calls = 0;
  CallableMeasurement m = counting(calls);
  std::vector<float> data(1 << 10, 1.0f);
  m.spec.cache = CacheState::cold;
  m.cold_memory = {{data.data(), data.size() * sizeof(float)}};
  // A fixed count: only the calls are timed, so reaching a minimum time of nanosecond calls
  // would take as many flushes as it takes.
  RunSettings settings = testing::quick();
  settings.iterations = 20;
  const auto rows = measure_callable(m, settings);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].ridgeline->cache, CacheState::cold);
  EXPECT_EQ(rows[0].ridgeline->kernel_notes.count("cache"), 1u);
}

}  // namespace
}  // namespace ridgeline
