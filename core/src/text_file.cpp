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

// A FIFO's reader waits for a writer: kStreamWaitSeconds for the first byte (or the writer's
// end), then refused, where an open would wait forever.
void wait_for_a_writer(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;  // the open below says why
  pollfd p{fd, POLLIN, 0};
  const int ready = ::poll(&p, 1, kStreamWaitSeconds * 1000);
  ::close(fd);
  if (ready == 0)
    throw InputError(fmt::format("{}: a named pipe nobody wrote to within {} s", file.string(),
                                 kStreamWaitSeconds));
}

}  // namespace

std::ifstream open_text_file(const std::filesystem::path& file) {
  struct stat st {};
  const bool exists = ::stat(file.c_str(), &st) == 0;
  // A directory opens and reads as nothing: say what it is, not "truncated".
  if (exists && S_ISDIR(st.st_mode))
    throw InputError(fmt::format("{}: is a directory, not a file", file.string()));
  if (exists && S_ISFIFO(st.st_mode)) wait_for_a_writer(file);
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
  std::ifstream in = open_text_file(file);
  // Reserved once where the size is known (a pipe's is not), and read in large chunks: a
  // run of 100,000 rows is 165 MiB, which a stringstream grew by doubling and then copied.
  std::string text;
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(file, ec);
  if (regular) {
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec) text.reserve(static_cast<std::size_t>(size));
  }
  std::vector<char> chunk(std::size_t{1} << 20);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    const auto n = static_cast<std::size_t>(in.gcount());
    if (!regular && text.empty())  // a pipe or device: judged from its first chunk
      refuse_unless_text(std::string_view(chunk.data(), std::min(n, kHeadBytes)),
                         n < chunk.size() && n <= kHeadBytes, file);
    text.append(chunk.data(), n);
    if (!regular && text.size() > kMaxStreamBytes)
      throw InputError(fmt::format("{}: more than {} MiB from a pipe or device; give a file",
                                   file.string(), kMaxStreamBytes >> 20));
  }
  if (in.bad())
    throw InputError(fmt::format("{}: cannot read: {}", file.string(), std::strerror(errno)));
  return text;
}

}  // namespace ridgeline
