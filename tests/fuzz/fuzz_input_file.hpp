#pragma once
// The fuzzers hand their input to the readers the way the command does: as a file. One
// temporary file per process, rewritten for every input.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace ridgeline::fuzz {

class InputFile {
 public:
  InputFile() {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir && *dir ? dir : "/tmp") + "/ridgeline-fuzz-XXXXXX.json";
    fd_ = mkstemps(path_.data(), 5);
    if (fd_ < 0) {
      std::perror("ridgeline fuzz: mkstemps");
      std::abort();
    }
  }
  ~InputFile() {
    close(fd_);
    unlink(path_.c_str());
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::filesystem::path& write(const std::uint8_t* data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0 || pwrite(fd_, data, size, 0) != static_cast<ssize_t>(size)) {
      std::perror("ridgeline fuzz: writing the input");
      std::abort();
    }
    file_ = path_;
    return file_;
  }

 private:
  std::string path_;
  std::filesystem::path file_;
  int fd_ = -1;
};

}  // namespace ridgeline::fuzz
