#include "ridgeline/core/atomic_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "ridgeline/core/error.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ridgeline_atomic_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
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
