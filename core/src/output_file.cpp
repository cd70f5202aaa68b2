#include "ridgeline/core/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/standard_fds.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

namespace {
// "-o run.json" in messages, or just the file when no option names it.
std::string label(std::string_view option, const fs::path& file) {
  return option.empty() ? file.string() : fmt::format("{} {}", option, file.string());
}
}  // namespace

namespace {
// The descriptor a path names, without opening anything: /dev/fd/N, /proc/self/fd/N,
// /proc/thread-self/fd/N and /proc/PID/fd/N of this process.
std::optional<int> descriptor_named(const fs::path& path) {
  const std::string text = path.lexically_normal().string();
  for (const std::string& dir :
       {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
        std::string("/proc/thread-self/fd/"), fmt::format("/proc/{}/fd/", ::getpid())}) {
    if (text.rfind(dir, 0) != 0) continue;
    const std::string number = text.substr(dir.size());
    if (number.empty() || number.size() > 9 ||
        number.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::stoi(number);
  }
  return std::nullopt;
}
}  // namespace

OutputFile resolve_output_file(const fs::path& named, std::string_view option) {
  OutputFile out{named, named, false};
  for (int hops = 0;; ++hops) {
    // A descriptor of this process (/dev/stdout -> /proc/self/fd/1): written where it
    // stands. Its link names the file behind it (r.json after `> r.json`), which a rename
    // would move away from under the shell's descriptor.
    if (const std::optional<int> fd = descriptor_named(out.target)) {
      if (standard_fd_was_closed(*fd))
        throw InputError(fmt::format(
            "{}: standard {} was closed when ridgeline started ({}>&-): nothing would read "
            "what is written there; nothing written",
            label(option, named),
            *fd == 0   ? "input"
            : *fd == 1 ? "output"
                       : "error",
            *fd));
      if (::fcntl(*fd, F_GETFD) == -1)
        throw InputError(fmt::format("{}: descriptor {} is not open; nothing written",
                                     label(option, named), *fd));
      out.stream = true;
      out.descriptor = *fd;
      return out;
    }
    struct stat st {};
    if (::lstat(out.target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) break;
    if (hops == 40)
      throw InputError(fmt::format("{}: too many levels of symbolic links", label(option, named)));
    std::error_code ec;
    const fs::path link = fs::read_symlink(out.target, ec);
    if (ec)
      throw InputError(
          fmt::format("{}: cannot read the symbolic link: {}", label(option, named), ec.message()));
    out.target = link.is_absolute() ? link : out.target.parent_path() / link;
  }
  // A device, FIFO or socket (/dev/null, a named pipe): written through the name as given,
  // which the kernel resolves.
  struct stat dev {};
  if (::stat(named.c_str(), &dev) == 0 &&
      (S_ISCHR(dev.st_mode) || S_ISFIFO(dev.st_mode) || S_ISSOCK(dev.st_mode))) {
    out.target = named;
    out.stream = true;
  }
  return out;
}

bool is_standard_output(const OutputFile& out) {
  if (out.descriptor == 1) return true;
  struct stat ours {
  }, theirs{};
  if (::fstat(1, &ours) != 0 || standard_fd_was_closed(1)) return false;
  const fs::path file =
      out.descriptor >= 0 ? fs::path(fmt::format("/proc/self/fd/{}", out.descriptor)) : out.target;
  return ::stat(file.c_str(), &theirs) == 0 && ours.st_dev == theirs.st_dev &&
         ours.st_ino == theirs.st_ino;
}

OutputFile check_output_file(const fs::path& named, std::string_view option) {
  if (named.empty()) throw InputError(fmt::format("{} '': an empty file name", option));
  const OutputFile out = resolve_output_file(named, option);
  const std::string shown =
      out.target == named
          ? label(option, named)
          : fmt::format("{} (a link to {})", label(option, named), out.target.string());
  std::error_code ec;
  if (out.stream) {
    if (::access(out.target.c_str(), W_OK) != 0)
      throw InputError(fmt::format("{}: not writable: {}", shown, std::strerror(errno)));
    return out;
  }
  if (fs::is_directory(out.target, ec)) throw InputError(fmt::format("{}: is a directory", shown));
  if (fs::exists(out.target, ec) && !fs::is_regular_file(out.target, ec))
    throw InputError(fmt::format("{}: exists and is not a regular file", shown));
  const fs::path dir = out.target.parent_path().empty() ? "." : out.target.parent_path();
  if (!fs::is_directory(dir, ec))
    throw InputError(fmt::format("{}: directory {} does not exist", shown, dir.string()));
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(fmt::format("{}: directory {} is not writable", shown, dir.string()));
  return out;
}

fs::path resolved_path(const fs::path& path) {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : resolved;
}

namespace {
struct FileId {
  dev_t dev;
  ino_t ino;
  bool operator==(const FileId&) const = default;
};

// What a clash is judged on: the file's identity where it exists, else its resolved path.
struct Identity {
  std::optional<FileId> id;
  fs::path path;
  bool stream = false;
};

Identity identity_of(const fs::path& named) {
  Identity out;
  struct stat st {};
  if (::stat(named.c_str(), &st) == 0) {
    out.stream = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
    out.id = FileId{st.st_dev, st.st_ino};
    return out;
  }
  out.path = resolved_path(resolve_output_file(named, "").target);
  return out;
}

bool same_file(const Identity& a, const Identity& b) {
  if (a.id && b.id) return *a.id == *b.id;
  return !a.id && !b.id && a.path == b.path;
}

std::string named_as(const NamedFile& f) {
  return fmt::format("{} {}", f.what, f.path.string());
}
}  // namespace

void check_distinct_files(const std::vector<NamedFile>& inputs,
                          const std::vector<NamedFile>& outputs) {
  std::vector<Identity> in, out;
  for (const NamedFile& f : inputs) in.push_back(identity_of(f.path));
  for (const NamedFile& f : outputs) out.push_back(identity_of(f.path));
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    if (out[o].stream) continue;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (!in[i].stream && same_file(out[o], in[i]))
        throw InputError(
            fmt::format("{} is {}: an output would overwrite an input; name "
                        "another file",
                        named_as(outputs[o]), named_as(inputs[i])));
    for (std::size_t p = 0; p < o; ++p)
      if (same_file(out[o], out[p]))
        throw InputError(
            fmt::format("{} and {} name the same file: one would overwrite the "
                        "other; name two files",
                        named_as(outputs[p]), named_as(outputs[o])));
  }
}

OutputLock::OutputLock(const fs::path& target, std::string_view what, bool wait) {
  const fs::path dir = target.parent_path().empty() ? "." : target.parent_path();
  std::string name = ".";
  name.append(target.filename().string()).append(".lock");
  const fs::path lock = dir / name;
  // O_NOFOLLOW: a planted link is refused, not followed; O_NONBLOCK: a planted FIFO does not
  // hang the open. Then only a regular file of this user with one name is used.
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw InputError(fmt::format("{}: cannot create the lock file {}: {}{}", target.string(),
                                 lock.string(), std::strerror(errno),
                                 errno == ELOOP ? " (it is a symbolic link: remove it)" : ""));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
      st.st_uid != ::geteuid()) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(fmt::format(
        "{}: the lock file {} is {}; it was not touched: remove it if no Ridgeline is writing "
        "there",
        target.string(), lock.string(),
        !S_ISREG(st.st_mode) ? "not a regular file"
        : st.st_nlink != 1   ? "a second name of another file (a hard link)"
                             : "another user's file"));
  }
  if (::flock(fd_, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0) {
    // The holder writes its pid just after it takes the lock: a writer started at the same
    // moment may look before it has, and looks again for a while.
    std::string pid;
    for (int tries = 0; pid.empty() && tries < 50; ++tries) {
      char holder[32] = {};
      const ssize_t n = ::pread(fd_, holder, sizeof holder - 1, 0);
      if (n > 0) pid.assign(holder, static_cast<std::size_t>(n));
      pid = pid.substr(0, pid.find('\n'));
      if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) {
        pid.clear();
        ::usleep(10'000);
      }
    }
    ::close(fd_);
    fd_ = -1;
    throw InputError(fmt::format(
        "{}: another {} ({}) is writing it; wait for it to end or choose another file",
        target.string(), what, pid.empty() ? "whose pid it has not recorded" : "pid " + pid));
  }
  // Written over the old pid and then cut to length, so that the file is never empty.
  const std::string pid = fmt::format("{}\n", ::getpid());
  if (::pwrite(fd_, pid.data(), pid.size(), 0) < 0 ||
      ::ftruncate(fd_, static_cast<off_t>(pid.size())) != 0) {
    // The pid is only for the message a second writer prints; the lock holds without it.
  }
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace ridgeline
