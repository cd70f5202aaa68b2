#pragma once
// Runs a function in a forked child and brings back the text it returns. For libraries
// that must not be initialised in this process (the CUDA driver does not survive fork(),
// and cases run in forked children).
#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>

namespace ridgeline {

// The child's text, or nullopt with `why` set (fork failed, the child was killed, it
// returned nothing). Waits for the child.
std::optional<std::string> text_from_child(const std::function<std::string()>& body,
                                           std::string& why);

// Called first thing in a forked child: the kernel kills it (SIGKILL) when `parent` dies,
// so `kill -9` of ridgeline never leaves a case computing on with PPID 1. Exits at once if
// the parent is already gone.
void die_with_parent(pid_t parent);

}  // namespace ridgeline
