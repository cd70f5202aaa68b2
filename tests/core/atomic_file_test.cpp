#include "ridgeline/core/atomic_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "ridgeline/core/error.hpp"
#include "scratch_dir.hpp"

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

}  // namespace ridgeline
