#include "ridgeline/core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>

#include "ridgeline/core/error.hpp"
#include "scratch_dir.hpp"
#include "temporary_file_guard.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

class AtomicFile : public ScratchDirTest {
 protected:
  AtomicFile() : ScratchDirTest("ridgeline_atomic_") {}
};

TEST_F(AtomicFile, ReplacesContentAndLeavesNoTemporary) {
  fs::path f = dir_ / "run.json";
  write_file_atomically(f, "first");
  write_file_atomically(f, "second");
  EXPECT_EQ(read_text_file(f), "second");
  int files = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(AtomicFile, AppendKeepsEveryLine) {
  fs::path f = dir_ / "run.jsonl";
  append_line_durably(f, "{\"a\":1}");
  append_line_durably(f, "{\"b\":2}");
  EXPECT_EQ(read_text_file(f), "{\"a\":1}\n{\"b\":2}\n");
}

TEST_F(AtomicFile, UnwritableDirectoryIsAnInputErrorNamingTheFile) {
  fs::path f = dir_ / "missing-dir" / "run.json";
  try {
    write_file_atomically(f, "x");
    FAIL() << "expected an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(f.string()), std::string::npos) << e.what();
  }
}

// A SIGTERM while the temporary file is written (a `report` killed mid-write) removes it, and
// the process still ends by the signal.
TEST_F(AtomicFile, ASignalMidWriteRemovesTheTemporaryAndStillEndsTheProcess) {
  const std::string tmpl = (dir_ / ".r.html.XXXXXX").string();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const TemporaryFileGuard guard;
    std::string name = tmpl;
    if (::mkstemp(name.data()) < 0) std::_Exit(3);
    guard.created(name);
    ::raise(SIGTERM);
    std::_Exit(4);  // not reached: the signal ends the process
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit code " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::is_empty(dir_)) << fs::directory_iterator(dir_)->path();
}

}  // namespace ridgeline
