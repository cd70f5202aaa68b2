#pragma once
// A temporary file being written (write_file_atomically's hidden .NAME.XXXXXX beside the
// target) that a signal ending the process must not leave behind: a `report` killed with
// SIGTERM mid-write left a hidden 50 MB file (issue #62). SIGTERM, SIGINT, SIGHUP and SIGQUIT,
// where their action is the default when the first guard is made, remove every such file of
// this process and then end it as the signal would have. A handler the program set itself
// (run's SIGINT, which lets the write finish) is left alone.
#include <string>

namespace ridgeline {

class TemporaryFileGuard {
 public:
  // Reserves a place for the file's name; `created` fills it once mkstemp has chosen it.
  TemporaryFileGuard();
  ~TemporaryFileGuard();
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;

  void created(const std::string& path) const;

 private:
  int slot_ = -1;  // -1: all places taken (the file is then only removed on errors)
};

}  // namespace ridgeline
