#pragma once
#include <atomic>
#include <functional>
#include <string>

namespace ridgeline {

// Runs `body` in a forked child process and returns what it wrote, so that a kernel that
// segfaults, aborts or hangs takes down only its child. The parent never runs kernels or
// thread pools itself, which keeps fork() safe.
struct ChildOutcome {
  enum class Status { completed, crashed, timed_out, interrupted };
  Status status = Status::completed;
  std::string payload;  // what body returned (complete only when status == completed)
  std::string detail;   // "killed by SIGSEGV (Segmentation fault)", "exceeded 300 s", ...
};

ChildOutcome run_isolated(const std::function<std::string()>& body, double timeout_s,
                          const std::atomic<bool>* interrupted = nullptr);

}  // namespace ridgeline
