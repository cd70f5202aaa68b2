// Files beside a user's output (core/output_file, atomic_file, standard_fds, visible_text):
// clashes between outputs and inputs, locks and .prev files against what an attacker plants,
// and the one rule for strings from outside on their way to a terminal.
#include "ridgeline/core/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/standard_fds.hpp"
#include "ridgeline/core/visible_text.hpp"
#include "scratch_dir.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

class OutputFiles : public ScratchDirTest {
 protected:
  OutputFiles() : ScratchDirTest("ridgeline_outputs_") {}
  fs::path file(const std::string& name, const std::string& text = "precious\n") {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  // The InputError's text, or "" where none was thrown.
  static std::string clash(const std::vector<NamedFile>& in, const std::vector<NamedFile>& out) {
    try {
      check_distinct_files(in, out);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(OutputFiles, AnOutputNamingAnInputIsFoundByEverySpellingOfIt) {
  const fs::path b = file("b.json");
  fs::create_directory(dir_ / "sub");
  fs::create_symlink("b.json", dir_ / "link.json");
  fs::create_hard_link(b, dir_ / "hard.json");
  const std::vector<NamedFile> inputs{{"the base run", b}};
  for (const fs::path& out :
       {b, dir_ / "link.json", dir_ / "hard.json", dir_ / "sub/../b.json", dir_ / "./b.json"})
    EXPECT_NE(clash(inputs, {{"--json", out}}).find("would overwrite an input"), std::string::npos)
        << out;
  EXPECT_EQ(clash(inputs, {{"--json", dir_ / "c.json"}}), "");
  // Neither exists: the same resolved path, spelt two ways, is one file.
  EXPECT_NE(clash({}, {{"--json", dir_ / "s.json"}, {"--markdown", dir_ / "sub/../s.json"}})
                .find("name the same file"),
            std::string::npos);
  // A link to a file not written yet leads where the write would go.
  fs::create_symlink("later.md", dir_ / "later-link.md");
  EXPECT_NE(clash({}, {{"-o", dir_ / "later.md"}, {"--csv", dir_ / "later-link.md"}}), "");
  // Devices are written through: two outputs to /dev/null do not clash.
  EXPECT_EQ(clash({{"the run", "/dev/null"}}, {{"-o", "/dev/null"}, {"--json", "/dev/null"}}), "");
}

TEST_F(OutputFiles, ALockPlantedAsALinkFifoOrHardLinkIsRefusedAndNotTouched) {
  const fs::path victim = file("victim");
  const auto refused = [&](const char* why) {
    try {
      OutputLock lock(dir_ / "run.json", "ridgeline run");
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      return true;
    }
    return false;
  };
  fs::create_symlink("victim", dir_ / ".run.json.lock");
  EXPECT_TRUE(refused("symbolic link"));
  fs::remove(dir_ / ".run.json.lock");
  fs::create_hard_link(victim, dir_ / ".run.json.lock");
  EXPECT_TRUE(refused("hard link"));
  fs::remove(dir_ / ".run.json.lock");
  ASSERT_EQ(::mkfifo((dir_ / ".run.json.lock").c_str(), 0600), 0);
  EXPECT_TRUE(refused("not a regular file"));
  fs::remove(dir_ / ".run.json.lock");
  EXPECT_EQ(read_text_file(victim), "precious\n");
  { OutputLock lock(dir_ / "run.json", "ridgeline run"); }  // a clean directory: taken
  EXPECT_EQ(read_text_file(dir_ / ".run.json.lock"), std::to_string(::getpid()) + "\n");
}

TEST_F(OutputFiles, AReplacedFileIsKeptOnceAsPrevAndAPlantedPrevLinkIsNotFollowed) {
  const fs::path victim = file("victim");
  const fs::path out = file("r.md", "the user's\n");
  fs::create_symlink("victim", dir_ / "r.md.prev");
  write_file_atomically(out, "first");
  write_file_atomically(out, "second");  // this process wrote it: no new .prev
  EXPECT_EQ(read_text_file(out), "second");
  EXPECT_FALSE(fs::is_symlink(dir_ / "r.md.prev"));
  EXPECT_EQ(read_text_file(dir_ / "r.md.prev"), "the user's\n");
  EXPECT_EQ(read_text_file(victim), "precious\n");
}

TEST_F(OutputFiles, AJournalPlantedAsALinkIsNotAppendedTo) {
  const fs::path victim = file("victim");
  fs::create_symlink("victim", dir_ / "run.jsonl");
  EXPECT_THROW(append_line_durably(dir_ / "run.jsonl", "{}"), InputError);
  move_aside(dir_ / "run.jsonl");  // the link itself moves
  EXPECT_TRUE(fs::is_symlink(dir_ / "run.jsonl.prev"));
  append_line_durably(dir_ / "run.jsonl", "{}");
  EXPECT_EQ(read_text_file(dir_ / "run.jsonl"), "{}\n");
  EXPECT_EQ(read_text_file(victim), "precious\n");
}

// `-o /dev/stdout > r.json`: the descriptor is written where it stands; r.json is neither moved
// aside as r.json.prev nor replaced (the shell's descriptor would then point at the old file).
TEST_F(OutputFiles, ADescriptorIsWrittenWhereItStandsNeverMovedAside) {
  const fs::path out = file("r.json", "old\n");
  for (const bool append : {false, true}) {
    const int fd = ::open(out.c_str(), O_WRONLY | (append ? O_APPEND : O_TRUNC));
    ASSERT_GE(fd, 0);
    for (const std::string& named :
         {fmt::format("/dev/fd/{}", fd), fmt::format("/proc/self/fd/{}", fd)}) {
      const OutputFile resolved = resolve_output_file(named);
      EXPECT_TRUE(resolved.stream) << named;
      EXPECT_EQ(resolved.descriptor, fd) << named;
    }
    write_file_atomically(fmt::format("/proc/self/fd/{}", fd), "doc\n");
    ::close(fd);
    EXPECT_EQ(read_text_file(out), append ? "doc\ndoc\n" : "doc\n");
  }
  EXPECT_FALSE(fs::exists(dir_ / "r.json.prev"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(OutputFiles, StandardOutputIsKnownByDescriptorAndByFile) {
  reserve_standard_fds();  // every standard descriptor open here
  const fs::path out = file("stdout.txt", "");
  const int saved = ::dup(1);
  const int fd = ::open(out.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ::dup2(fd, 1);
  EXPECT_TRUE(is_standard_output(resolve_output_file("/dev/stdout")));
  EXPECT_TRUE(is_standard_output(resolve_output_file(out)));
  EXPECT_FALSE(is_standard_output(resolve_output_file(file("other.txt"))));
  // Closed when the process started: an output named as it has nowhere to go.
  ::close(1);
  reserve_standard_fds();
  try {
    resolve_output_file("/dev/stdout");
    ADD_FAILURE() << "a closed standard output was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("standard output was closed"), std::string::npos)
        << e.what();
  }
  ::dup2(saved, 1);
  ::close(saved);
  ::close(fd);
  reserve_standard_fds();
  EXPECT_FALSE(standard_fd_was_closed(1));
}

TEST(StandardFds, AClosedStandardStreamIsReopenedSoNoFileTakesItsNumber) {
  const int saved = ::dup(1);
  ASSERT_GE(saved, 3);
  ::close(1);
  const StandardFds fds = reserve_standard_fds();
  EXPECT_TRUE(fds.output_closed);
  EXPECT_FALSE(fds.error_closed);
  const int next = ::open("/dev/null", O_RDONLY);
  EXPECT_GT(next, 2);  // fd 1 is taken by /dev/null now
  ::close(next);
  ::dup2(saved, 1);
  ::close(saved);
  reserve_standard_fds();  // all open again: nothing stays marked closed for the next test
}

TEST(VisibleText, EscapesControlsAndBidiAndCapsTheLength) {
  EXPECT_EQ(visible_line("\x1b]0;PWNED\a\x1b[2Jx.json"), "\\x1B]0;PWNED\\x07\\x1B[2Jx.json");
  EXPECT_EQ(visible_line("a\u202Eb"), "a\\u202Eb");
  const std::string line = visible_line(std::string(60000, 'a'));
  EXPECT_LT(line.size(), kMaxMessageBytes + 40);
  EXPECT_NE(line.find("58000 bytes more"), std::string::npos);
}

}  // namespace ridgeline
