// Reading the files a user gives (text_file.hpp's declarations are in atomic_file.hpp): what
// cannot be text is refused from its first bytes, a FIFO is waited for a bounded time, and a
// pipe or device is read up to a bound, so that /dev/zero, /dev/urandom, a 2 GB sparse file
// or a FIFO with no writer each end in one line.
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"
#include "ridgeline/core/visible_text.hpp"

namespace ridgeline {

namespace {

constexpr std::size_t kHeadBytes = 4096;

// Where `head` (a file's first bytes; `whole` when that is all of it) cannot begin a text
// file: the offset and what is there, or npos. JSON, journals and console output are UTF-8
// text; a NUL byte or a byte sequence that is not UTF-8 is neither. A sequence that may be
// cut by the end of a head that is not the whole file is not judged.
std::pair<std::size_t, const char*> not_text_at(std::string_view head, bool whole) {
  for (std::size_t i = 0; i < head.size();) {
    if (head[i] == '\0') return {i, "a NUL byte"};
    const std::size_t n = utf8_sequence_at(head, i);
    if (n == 0) {
      if (!whole && head.size() - i < 4) break;
      return {i, "a byte sequence that is not UTF-8"};
    }
    i += n;
  }
  return {std::string_view::npos, ""};
}

void refuse_unless_text(std::string_view head, bool whole, const std::filesystem::path& file) {
  const auto [at, what] = not_text_at(head, whole);
  if (at != std::string_view::npos)
    throw InputError(
        fmt::format("{}: {} at byte {}: not UTF-8 text, so not a Run, a journal, a machine "
                    "model or a Google Benchmark file",
                    file.string(), what, at));
}

// A FIFO opened for reading without waiting, then waited on for kStreamWaitSeconds (its first
// byte, or its writer's end) where a blocking open would wait forever; the descriptor is the
// one read from, blocking again: closed and opened anew, a writer that wrote and left before
// would take its bytes with it and the new open would wait for another.
int open_fifo_for_reading(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw InputError(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, kStreamWaitSeconds * 1000) == 0) {
    ::close(fd);
    throw InputError(fmt::format("{}: a named pipe nobody wrote to within {} s", file.string(),
                                 kStreamWaitSeconds));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

// A pipe or device read through `fd` to its end, judged from its first chunk and bounded.
std::string read_stream(int fd, const std::filesystem::path& file) {
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 20);
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw InputError(fmt::format("{}: cannot read: {}", file.string(), std::strerror(err)));
    }
    if (n == 0) break;
    const auto got = static_cast<std::size_t>(n);
    try {
      if (text.empty())
        refuse_unless_text(std::string_view(chunk.data(), std::min(got, kHeadBytes)), false, file);
      if (text.size() + got > kMaxStreamBytes)
        throw InputError(fmt::format("{}: more than {} MiB from a pipe or device; give a file",
                                     file.string(), kMaxStreamBytes >> 20));
    } catch (...) {
      ::close(fd);
      throw;
    }
    text.append(chunk.data(), got);
  }
  ::close(fd);
  if (!text.empty())
    refuse_unless_text(std::string_view(text).substr(0, kHeadBytes), text.size() <= kHeadBytes,
                       file);
  return text;
}

}  // namespace

std::ifstream open_text_file(const std::filesystem::path& file) {
  struct stat st {};
  const bool exists = ::stat(file.c_str(), &st) == 0;
  // A directory opens and reads as nothing: say what it is, not "truncated".
  if (exists && S_ISDIR(st.st_mode))
    throw InputError(fmt::format("{}: is a directory, not a file", file.string()));
  if (exists && S_ISFIFO(st.st_mode))  // waited for a bounded time, then opened anew
    ::close(open_fifo_for_reading(file));
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw InputError(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
  if (exists && S_ISREG(st.st_mode)) {  // judged from its first bytes, then read from the start
    std::string head(kHeadBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    refuse_unless_text(head, head.size() < kHeadBytes, file);
    in.clear();
    in.seekg(0);
  }
  return in;
}

std::string read_text_file(const std::filesystem::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    if (S_ISFIFO(st.st_mode)) return read_stream(open_fifo_for_reading(file), file);
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw InputError(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
    return read_stream(fd, file);
  }
  std::ifstream in = open_text_file(file);
  // Reserved once where the size is known, and read in large chunks: a run of 100,000 rows is
  // 165 MiB, which a stringstream grew by doubling and then copied.
  std::string text;
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (!ec) text.reserve(static_cast<std::size_t>(size));
  std::vector<char> chunk(std::size_t{1} << 20);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  if (in.bad())
    throw InputError(fmt::format("{}: cannot read: {}", file.string(), std::strerror(errno)));
  return text;
}

}  // namespace ridgeline
