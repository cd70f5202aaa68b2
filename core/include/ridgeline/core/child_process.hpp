#pragma once
// Runs a function in a forked child and brings back the text it returns. For libraries
// that must not be initialised in this process (the CUDA driver does not survive fork(),
// and cases run in forked children).
#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

// The child's text, or nullopt with `why` set (fork failed, the child was killed, it
// returned nothing). Waits for the child.
std::optional<std::string> text_from_child(const std::function<std::string()>& body,
                                           std::string& why);

// A program's exit status and what it wrote to standard output and error, together.
struct ProgramOutput {
  int exit_status = 0;
  std::string output;
};

// Runs argv[0] (a path, or a name looked up by find_on_path; no shell) with argv, its
// standard input closed, and waits for it: nullopt with `why` set when it could not start or
// was killed by a signal.
std::optional<ProgramOutput> run_program(const std::vector<std::string>& argv, std::string& why);

// Where `program` is in PATH's absolute directories (an executable file), "" when it is not:
// an empty or relative element of PATH (the working directory) is never searched.
std::string find_on_path(const std::string& program);

// Called first thing in a forked child: the kernel kills it (SIGKILL) when `parent` dies,
// so `kill -9` of ridgeline never leaves a case computing on with PPID 1. Exits at once if
// the parent is already gone.
void die_with_parent(pid_t parent);

}  // namespace ridgeline
