#include "ridgeline/core/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/output_file.hpp"
#include "temporary_file_guard.hpp"

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
// The files this process has written or moved aside: replacing them again keeps no .prev
// (the user's file was kept the first time).
std::set<std::string>& written_here() {
  static std::set<std::string> files;
  return files;
}
std::mutex& written_mutex() {
  static std::mutex m;
  return m;
}

std::string key_of(const std::filesystem::path& file) {
  return resolved_path(file).string();
}

// NAME.prev as a second name of NAME's file: linked under a fresh temporary name (link never
// follows or replaces anything at its new name), then renamed over NAME.prev.
void keep_previous(const std::filesystem::path& file) {
  const std::filesystem::path prev = file.string() + ".prev";
  std::string tmpl = prev.string() + ".XXXXXX";
  const int fd = ::mkstemp(tmpl.data());  // a name nobody else has
  if (fd < 0) return;                     // the directory was checked: nothing to keep then
  ::close(fd);
  ::unlink(tmpl.c_str());
  if (::link(file.c_str(), tmpl.c_str()) != 0) {
    std::error_code ec;  // no hard links here (a FAT disk): a copy
    std::filesystem::copy_file(file, tmpl, ec);
    if (ec) return;
  }
  if (std::rename(tmpl.c_str(), prev.c_str()) != 0) ::unlink(tmpl.c_str());
}
// A device or FIFO opened for writing: a FIFO with no reader is waited for kStreamWaitSeconds
// (an open without O_NONBLOCK would wait forever), then refused.
int open_for_writing_through(const std::filesystem::path& file,
                             const std::filesystem::path& named) {
  for (int waited_ms = 0;; waited_ms += 50) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // writes wait for the reader
      return fd;
    }
    if (errno != ENXIO)
      throw InputError(fmt::format("{}: cannot open: {}", named.string(), std::strerror(errno)));
    if (waited_ms >= kStreamWaitSeconds * 1000)
      throw InputError(fmt::format("{}: a named pipe nobody read from within {} s; nothing written",
                                   named.string(), kStreamWaitSeconds));
    ::usleep(50'000);
  }
}
}  // namespace

void move_aside(const std::filesystem::path& file) {
  struct stat st {};
  // A link moves itself (rename never follows one): a journal planted as a link to a victim
  // is set aside, and the new journal is a file of this run's own.
  if (::lstat(file.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
    std::rename(file.c_str(), (file.string() + ".prev").c_str());
  const std::lock_guard lock(written_mutex());
  written_here().insert(key_of(file));
}

void write_file_atomically(const std::filesystem::path& named, std::string_view content) {
  const OutputFile out = resolve_output_file(named, "");
  const std::filesystem::path& file = out.target;
  if (out.descriptor >= 0) {  // /dev/stdout and its kind: where the descriptor stands
    write_all(out.descriptor, content, named);
    return;
  }
  if (out.stream) {  // a device or FIFO: write through it, never replace it
    const int fd = open_for_writing_through(file, named);
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
  const TemporaryFileGuard guard;  // a SIGTERM while it is written removes it
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    throw InputError(fmt::format("{}: cannot create a temporary file in {}: {}", named.string(),
                                 dir.string(), std::strerror(errno)));
  guard.created(tmpl);
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
  const bool replaces = ::lstat(file.c_str(), &old) == 0 && S_ISREG(old.st_mode);
  ::fchmod(fd, replaces ? (old.st_mode & 07777) : 0644);
  ::close(fd);
  {
    const std::lock_guard lock(written_mutex());
    if (written_here().insert(key_of(file)).second && replaces) keep_previous(file);
  }
  if (std::rename(tmpl.c_str(), file.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw InputError(fmt::format("{}: cannot rename temporary file into place: {}", named.string(),
                                 std::strerror(err)));
  }
}

void append_line_durably(const std::filesystem::path& file, std::string_view line) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                  0644);
  if (fd < 0)
    throw InputError(fmt::format("{}: cannot open for appending: {}{}", file.string(),
                                 std::strerror(errno),
                                 errno == ELOOP ? " (a symbolic link: not followed)" : ""));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
    ::close(fd);
    throw InputError(
        fmt::format("{}: not a regular file of this user; not appended to", file.string()));
  }
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

}  // namespace ridgeline
