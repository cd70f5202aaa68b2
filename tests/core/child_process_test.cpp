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

}  // namespace ridgeline
