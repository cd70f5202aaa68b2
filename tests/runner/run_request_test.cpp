// make_plan(RunRequest): the whole request checked once, every problem said together, and
// the suite's defaults filled in where the request leaves them.
#include "ridgeline/runner/run_request.hpp"

#include <gtest/gtest.h>

#include "ridgeline/core/error.hpp"

namespace ridgeline {

namespace {

std::string request_error(const RunRequest& request) {
  try {
    make_plan(request);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

RunRequest naive_gemm(const std::string& shape) {
  RunRequest r;
  r.cases.backends = {"cpu.naive"};
  r.cases.dtypes = {"f32"};
  r.cases.threads = {1};
  r.shapes = {shape};
  return r;
}

}  // namespace

TEST(RunRequest, EveryProblemIsSaidInOneLineEachNamingItsOption) {
  RunRequest r;
  r.min_time = "3y";
  r.shapes = {"0"};
  r.collect = {"nosuchcollector:x"};
  r.cases.backends = {"cpu.magic"};
  r.cases.dtypes = {"f8"};
  const std::string msg = request_error(r);
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  for (const char* part : {"--min-time 3y", "--shape 0: sizes must be positive", "nosuchcollector",
                           "unknown backend 'cpu.magic'", "unknown dtype 'f8'"})
    EXPECT_NE(msg.find(part), std::string::npos) << part << " missing from: " << msg;
}

TEST(RunRequest, OneProblemReadsAsItDidAlone) {
  RunRequest r;
  r.cases.dtypes = {"f8"};
  EXPECT_EQ(request_error(r), "--dtype: unknown dtype 'f8' (known: f32, f64, tf32, bf16, f16, i8)");
}

TEST(RunRequest, TheSuitesDefaultsFillWhatTheRequestLeaves) {
  const RunPlan plan = make_plan(naive_gemm("64"));
  ASSERT_NE(plan.suite, nullptr);
  EXPECT_EQ(plan.suite->name, "default");
  EXPECT_EQ(plan.settings.repetitions, plan.suite->repetitions);
  EXPECT_EQ(plan.settings.min_time_s, plan.suite->min_time_s);
  EXPECT_FALSE(plan.settings.iterations);
  ASSERT_EQ(plan.cases.size(), 1u);
  EXPECT_EQ(plan.cases[0].backend, "cpu.naive");
  EXPECT_NE(plan.cases[0].name().find("m=64,n=64,k=64"), std::string::npos);
}

TEST(RunRequest, WhatTheRequestGivesWinsOverTheSuite) {
  RunRequest r = naive_gemm("32x16x8");
  r.repetitions = 7;
  r.min_time = "100x";
  r.seed = 42;
  r.warmup_s = 0;
  r.cases.params = {"m=48,n=48,k=48"};
  const RunPlan plan = make_plan(r);
  EXPECT_EQ(plan.settings.repetitions, 7);
  EXPECT_EQ(plan.settings.iterations, 100);
  EXPECT_EQ(plan.settings.seed, 42u);
  EXPECT_EQ(plan.settings.warmup_s, 0);
  // --shape's override first, then --params: both become cases.
  ASSERT_EQ(plan.cases.size(), 2u);
  EXPECT_NE(plan.cases[0].name().find("m=32,n=16,k=8"), std::string::npos);
  EXPECT_NE(plan.cases[1].name().find("m=48,n=48,k=48"), std::string::npos);
  r.min_time = "0.25s";
  EXPECT_EQ(make_plan(r).settings.min_time_s, 0.25);
}

TEST(RunRequest, KernelsFromAboveTheRunnerJoinTheCatalog) {
  bool asked = false;
  const RunPlan plan = make_plan(naive_gemm("64"), [&](KernelCatalog& catalog) {
    asked = true;
    EXPECT_NE(catalog.find("cpu.naive"), nullptr);
  });
  EXPECT_TRUE(asked);
}

TEST(RunRequest, AnEinsumSuiteAsDefinedRecordsItsNetworksAndNotWhenOverridden) {
  RunRequest r;
  r.cases.suite = "einsum";
  const RunPlan plan = make_plan(r);
  ASSERT_TRUE(plan.suite->einsum_networks);
  EXPECT_EQ(plan.einsum_networks.size(), plan.suite->einsum_networks().size());
  r.cases.params = {"equation=\"ij,jk->ik\"/extents=\"i=8,j=8,k=8\""};
  EXPECT_TRUE(make_plan(r).einsum_networks.empty());
}

TEST(MinTime, SecondsOrIterationsElseAnErrorNamingTheOption) {
  EXPECT_EQ(parse_min_time("0.5", "--min-time").seconds, 0.5);
  EXPECT_EQ(parse_min_time("0.5s", "--min-time").seconds, 0.5);
  EXPECT_EQ(parse_min_time("100x", "--min-time").iterations, 100);
  for (const char* bad : {"", "0", "-1", "1e9", "x", "1.5x", "0x", "abc"})
    EXPECT_THROW(parse_min_time(bad, "--min-time"), InputError) << bad;
}

}  // namespace ridgeline
