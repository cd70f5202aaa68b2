#include "ridgeline/core/child_process.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace ridgeline {

namespace {

// Everything to end of file from fd, which is closed after.
std::string read_to_end(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

// Forks a child that dies with this process, with a pipe from it to us: in the child 0, `fd`
// the pipe's write end; in the parent the child's pid, `fd` the read end; -1 with `why` where
// the pipe or the fork failed.
pid_t fork_with_pipe(int& fd, std::string& why) {
  int fds[2];
  if (::pipe(fds) != 0) {
    why = fmt::format("pipe failed: {}", std::strerror(errno));
    return -1;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    why = fmt::format("fork failed: {}", std::strerror(errno));
    ::close(fds[0]);
    ::close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    die_with_parent(parent);
    ::close(fds[0]);
    fd = fds[1];
    return 0;
  }
  ::close(fds[1]);
  fd = fds[0];
  return pid;
}

// The child's wait status.
int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

std::optional<std::string> text_from_child(const std::function<std::string()>& body,
                                           std::string& why) {
  int fd = -1;
  const pid_t pid = fork_with_pipe(fd, why);
  if (pid < 0) return std::nullopt;
  if (pid == 0) {
    std::string text;
    try {
      text = body();
    } catch (...) {
      ::_exit(3);
    }
    std::size_t off = 0;
    while (off < text.size()) {
      const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  std::string text = read_to_end(fd);
  const int status = wait_for(pid);
  if (WIFSIGNALED(status)) {
    why = fmt::format("the child was killed by signal {} ({})", WTERMSIG(status),
                      strsignal(WTERMSIG(status)));
    return std::nullopt;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    why = fmt::format("the child exited with status {}", WEXITSTATUS(status));
    return std::nullopt;
  }
  return text;
}

std::optional<ProgramOutput> run_program(const std::vector<std::string>& argv, std::string& why) {
  if (argv.empty()) {
    why = "no program to run";
    return std::nullopt;
  }
  // A bare name is looked up here, in PATH's absolute directories only: execvp would also try
  // an empty or relative element, the working directory.
  const std::string program =
      argv[0].find('/') == std::string::npos ? find_on_path(argv[0]) : argv[0];
  if (program.empty()) {
    why = fmt::format("cannot run {}: not found in PATH's absolute directories", argv[0]);
    return std::nullopt;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int fd = -1;
  const pid_t pid = fork_with_pipe(fd, why);
  if (pid < 0) return std::nullopt;
  if (pid == 0) {
    ::close(0);  // it reads nothing of ours
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    if (fd > 2) ::close(fd);
    ::execv(program.c_str(), args.data());
    const std::string failed = fmt::format("cannot run {}: {}\n", argv[0], std::strerror(errno));
    if (::write(2, failed.data(), failed.size()) < 0) {
    }
    ::_exit(127);
  }
  ProgramOutput out;
  out.output = read_to_end(fd);
  const int status = wait_for(pid);
  if (WIFSIGNALED(status)) {
    why = fmt::format("{} was killed by signal {} ({})", argv[0], WTERMSIG(status),
                      strsignal(WTERMSIG(status)));
    return std::nullopt;
  }
  out.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (out.exit_status == 127 && out.output.rfind("cannot run ", 0) == 0) {
    why = out.output.substr(0, out.output.find('\n'));
    return std::nullopt;
  }
  return out;
}

std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    // An empty or relative element is the working directory, where nothing is run from.
    if (dir.empty() || dir.front() != '/') continue;
    const auto candidate = std::filesystem::path(dir) / program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
  }
  return "";
}

void die_with_parent(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // it died before the line above took effect
}

}  // namespace ridgeline
