#include "ridgeline/runner/isolation.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "ridgeline/core/child_process.hpp"

namespace ridgeline {

namespace {
void write_all(int fd, const std::string& data) {
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::write(fd, data.data() + off, data.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

// The child's last byte, after what body returned: a child that exits without it (a library
// whose constructor calls exit(0)) did not finish, whatever its exit code says.
constexpr char kFinished = '\x04';

std::string describe_signal(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return fmt::format("killed by SIG{} ({})", abbrev ? abbrev : std::to_string(sig).c_str(),
                     strsignal(sig));
}
}  // namespace

ChildOutcome run_isolated(const std::function<std::string()>& body, double timeout_s,
                          const std::atomic<bool>* interrupted) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return {ChildOutcome::Status::crashed, "",
            fmt::format("pipe failed: {}", std::strerror(errno))};
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {ChildOutcome::Status::crashed, "",
            fmt::format("fork failed: {}", std::strerror(errno))};
  }
  if (pid == 0) {
    die_with_parent(parent);
    ::close(fds[0]);
    std::signal(SIGINT, SIG_DFL);
    std::string out = body();
    out.push_back(kFinished);
    write_all(fds[1], out);
    ::close(fds[1]);
    // _exit: no atexit handlers or static destructors of libraries the parent also holds.
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(0);
  }
  ::close(fds[1]);

  ChildOutcome outcome;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool eof = false, killed_for_time = false, killed_for_interrupt = false;
  char buffer[65536];
  while (!eof) {
    if (interrupted && interrupted->load()) {
      ::kill(pid, SIGKILL);
      killed_for_interrupt = true;
      break;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      killed_for_time = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 200)));
    if (r < 0 && errno != EINTR) break;
    if (r <= 0) continue;
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n > 0)
      outcome.payload.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      eof = true;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed_for_interrupt || (interrupted && interrupted->load())) {
    outcome.status = ChildOutcome::Status::interrupted;
    outcome.detail = "interrupted";
  } else if (killed_for_time) {
    outcome.status = ChildOutcome::Status::timed_out;
    outcome.detail = fmt::format("still running after the {} s case time limit; killed", timeout_s);
  } else if (WIFSIGNALED(status)) {
    outcome.status = ChildOutcome::Status::crashed;
    outcome.detail = describe_signal(WTERMSIG(status));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    outcome.status = ChildOutcome::Status::crashed;
    outcome.detail = fmt::format("exited with code {}", WEXITSTATUS(status));
  } else if (outcome.payload.empty() || outcome.payload.back() != kFinished) {
    outcome.status = ChildOutcome::Status::crashed;
    outcome.detail =
        fmt::format("exited with code {} before it finished (the code it ran called exit())",
                    WIFEXITED(status) ? WEXITSTATUS(status) : 0);
  } else {
    outcome.payload.pop_back();
  }
  return outcome;
}

}  // namespace ridgeline
