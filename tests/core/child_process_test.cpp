#include "ridgeline/core/child_process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "scratch_dir.hpp"

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

// A program planted in the working directory never runs, whatever PATH's empty or relative
// elements say (#62): only its absolute directories are searched.
class ProgramsOnPath : public ScratchDirTest {
 protected:
  ProgramsOnPath() : ScratchDirTest("ridgeline_path_") {}
  void SetUp() override {
    ScratchDirTest::SetUp();
    const char* path = std::getenv("PATH");
    saved_path_ = path ? path : "";
    saved_dir_ = std::filesystem::current_path();
    std::ofstream(dir_ / "ridgeline-planted-tool") << "#!/bin/sh\necho planted\n";
    std::filesystem::permissions(dir_ / "ridgeline-planted-tool",
                                 std::filesystem::perms::owner_all);
    std::filesystem::current_path(dir_);
  }
  void TearDown() override {
    ::setenv("PATH", saved_path_.c_str(), 1);
    std::filesystem::current_path(saved_dir_);
    ScratchDirTest::TearDown();
  }
  std::string saved_path_;
  std::filesystem::path saved_dir_;
};

TEST_F(ProgramsOnPath, AnEmptyOrRelativeElementIsNeverSearched) {
  for (const std::string& path :
       {saved_path_ + ":", ":" + saved_path_, "." + (":" + saved_path_)}) {
    ::setenv("PATH", path.c_str(), 1);
    EXPECT_EQ(find_on_path("ridgeline-planted-tool"), "") << path;
    std::string why;
    EXPECT_FALSE(run_program({"ridgeline-planted-tool"}, why)) << path;
    EXPECT_NE(why.find("not found in PATH's absolute directories"), std::string::npos) << why;
    EXPECT_NE(find_on_path("sh"), "") << path;  // the absolute elements still are
  }
  ::setenv("PATH", (dir_.string() + ":" + saved_path_).c_str(), 1);  // named absolutely: found
  std::string why;
  const auto out = run_program({"ridgeline-planted-tool"}, why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->output, "planted\n");
}

}  // namespace ridgeline
