#include "ridgeline/core/child_process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>

namespace ridgeline {

TEST(ChildProcess, BringsBackTheTextAndRunsOutsideThisProcess) {
  const pid_t parent = ::getpid();
  std::string why;
  const auto text = text_from_child(
      [parent] {
        return std::string(::getpid() != parent ? "child" : "same") + std::string(10000, 'x');
      },
      why);
  ASSERT_TRUE(text.has_value()) << why;
  EXPECT_EQ(text->substr(0, 5), "child");
  EXPECT_EQ(text->size(), 10005u);  // more than one pipe read
}

TEST(ChildProcess, AKilledOrFailingChildIsAReason) {
  std::string why;
  EXPECT_FALSE(text_from_child(
      []() -> std::string {
        std::raise(SIGKILL);
        return "";
      },
      why));
  EXPECT_NE(why.find("signal 9"), std::string::npos) << why;
  EXPECT_FALSE(text_from_child([]() -> std::string { throw std::runtime_error("no"); }, why));
  EXPECT_NE(why.find("status 3"), std::string::npos) << why;
}

TEST(RunProgram, BringsBackTheExitStatusAndBothStreamsWithoutAShell) {
  std::string why;
  const auto out = run_program({"sh", "-c", "echo out; echo err >&2; exit 4"}, why);
  ASSERT_TRUE(out.has_value()) << why;
  EXPECT_EQ(out->exit_status, 4);
  EXPECT_NE(out->output.find("out\n"), std::string::npos);
  EXPECT_NE(out->output.find("err\n"), std::string::npos);
  // Arguments go as they are: no shell splits or expands them.
  const auto echoed = run_program({"echo", "a b", "$HOME", "*"}, why);
  ASSERT_TRUE(echoed.has_value()) << why;
  EXPECT_EQ(echoed->output, "a b $HOME *\n");
  EXPECT_EQ(echoed->exit_status, 0);
}

TEST(RunProgram, AMissingOrKilledProgramIsAReason) {
  std::string why;
  EXPECT_FALSE(run_program({"ridgeline-no-such-program"}, why));
  EXPECT_NE(why.find("cannot run ridgeline-no-such-program"), std::string::npos) << why;
  EXPECT_FALSE(run_program({"sh", "-c", "kill -9 $$"}, why));
  EXPECT_NE(why.find("signal 9"), std::string::npos) << why;
  EXPECT_FALSE(run_program({}, why));
  EXPECT_NE(find_on_path("sh"), "");
  EXPECT_EQ(find_on_path("ridgeline-no-such-program"), "");
}

}  // namespace ridgeline
