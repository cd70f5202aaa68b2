#include "ridgeline/core/child_process.hpp"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace ridgeline {

std::optional<std::string> text_from_child(const std::function<std::string()>& body,
                                           std::string& why) {
  int fds[2];
  if (::pipe(fds) != 0) {
    why = fmt::format("pipe failed: {}", std::strerror(errno));
    return std::nullopt;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    why = fmt::format("fork failed: {}", std::strerror(errno));
    ::close(fds[0]);
    ::close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    die_with_parent(parent);
    ::close(fds[0]);
    std::string text;
    try {
      text = body();
    } catch (...) {
      ::_exit(3);
    }
    std::size_t off = 0;
    while (off < text.size()) {
      const ssize_t n = ::write(fds[1], text.data() + off, text.size() - off);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
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

void die_with_parent(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // it died before the line above took effect
}

}  // namespace ridgeline
