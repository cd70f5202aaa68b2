#include "ridgeline/runner/isolation.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <thread>

namespace ridgeline {

TEST(Isolation, ReturnsWhatTheChildWrote) {
  std::string big(1 << 20, 'x');  // larger than a pipe buffer
  ChildOutcome out = run_isolated([&] { return big; }, 10);
  EXPECT_EQ(out.status, ChildOutcome::Status::completed);
  EXPECT_EQ(out.payload, big);
}

TEST(Isolation, NamesTheSignalThatKilledTheChild) {
  ChildOutcome out = run_isolated(
      []() -> std::string {
        std::raise(SIGSEGV);
        return "";
      },
      10);
  EXPECT_EQ(out.status, ChildOutcome::Status::crashed);
  EXPECT_NE(out.detail.find("SIGSEGV"), std::string::npos) << out.detail;
}

TEST(Isolation, NonZeroExitIsACrash) {
  ChildOutcome out = run_isolated([]() -> std::string { std::_Exit(7); }, 10);
  EXPECT_EQ(out.status, ChildOutcome::Status::crashed);
  EXPECT_NE(out.detail.find("code 7"), std::string::npos);
}

// A library whose constructor calls exit(0) ends the child with code 0 before the body
// returns: that is no result, whatever the exit code says.
TEST(Isolation, ExitingBeforeTheBodyReturnsIsACrashEvenWithCodeZero) {
  ChildOutcome out = run_isolated([]() -> std::string { std::_Exit(0); }, 10);
  EXPECT_EQ(out.status, ChildOutcome::Status::crashed);
  EXPECT_NE(out.detail.find("before it finished"), std::string::npos) << out.detail;
  ChildOutcome empty = run_isolated([] { return std::string(); }, 10);
  EXPECT_EQ(empty.status, ChildOutcome::Status::completed) << empty.detail;
  EXPECT_EQ(empty.payload, "");
}

TEST(Isolation, KillsAChildPastItsTimeLimit) {
  auto start = std::chrono::steady_clock::now();
  ChildOutcome out = run_isolated(
      []() -> std::string {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      },
      0.5);
  EXPECT_EQ(out.status, ChildOutcome::Status::timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace ridgeline
