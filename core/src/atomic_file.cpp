#include "ridgeline/core/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"

namespace ridgeline {

namespace {
void write_all(int fd, std::string_view content, const std::filesystem::path& file) {
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(fmt::format("{}: cannot write: {}", file.string(), std::strerror(errno)));
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}
}  // namespace

void write_file_atomically(const std::filesystem::path& named, std::string_view content) {
  const OutputFile out = resolve_output_file(named, "");
  const std::filesystem::path& file = out.target;
  if (out.stream) {  // a device or FIFO: write through it, never replace it
    const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
      throw InputError(fmt::format("{}: cannot open: {}", named.string(), std::strerror(errno)));
    try {
      write_all(fd, content, named);
    } catch (...) {
      ::close(fd);
      throw;
    }
    ::close(fd);
    return;
  }
  std::filesystem::path dir = file.parent_path().empty() ? "." : file.parent_path();
  std::string hidden = ".";  // built by appends: GCC 12 warns falsely on "." + string
  hidden.append(file.filename().string()).append(".XXXXXX");
  std::string tmpl = (dir / hidden).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    throw InputError(fmt::format("{}: cannot create a temporary file in {}: {}", named.string(),
                                 dir.string(), std::strerror(errno)));
  try {
    write_all(fd, content, named);
    if (::fsync(fd) != 0)
      throw InputError(fmt::format("{}: fsync failed: {}", named.string(), std::strerror(errno)));
  } catch (...) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    throw;
  }
  struct stat old {};  // a replaced file keeps its permissions
  ::fchmod(fd, ::stat(file.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0644);
  ::close(fd);
  if (std::rename(tmpl.c_str(), file.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw InputError(fmt::format("{}: cannot rename temporary file into place: {}", named.string(),
                                 std::strerror(err)));
  }
}

void append_line_durably(const std::filesystem::path& file, std::string_view line) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    throw InputError(
        fmt::format("{}: cannot open for appending: {}", file.string(), std::strerror(errno)));
  std::string buffer(line);
  buffer.push_back('\n');
  try {
    write_all(fd, buffer, file);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fdatasync(fd);
  ::close(fd);
}

std::ifstream open_text_file(const std::filesystem::path& file) {
  // A directory opens and reads as nothing: say what it is, not "truncated".
  if (std::error_code ec; std::filesystem::is_directory(file, ec))
    throw InputError(fmt::format("{}: is a directory, not a file", file.string()));
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw InputError(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
  return in;
}

std::string read_text_file(const std::filesystem::path& file) {
  std::ifstream in = open_text_file(file);
  // Reserved once where the size is known (a pipe's is not), and read in large chunks: a
  // run of 100,000 rows is 165 MiB, which a stringstream grew by doubling and then copied.
  std::string text;
  if (std::error_code ec; std::filesystem::is_regular_file(file, ec)) {
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec) text.reserve(static_cast<std::size_t>(size));
  }
  std::vector<char> chunk(std::size_t{1} << 20);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  if (in.bad())
    throw InputError(fmt::format("{}: cannot read: {}", file.string(), std::strerror(errno)));
  return text;
}

}  // namespace ridgeline
