#pragma once
// Runs a function in a forked child and brings back the text it returns. For libraries
// that must not be initialised in this process (the CUDA driver does not survive fork(),
// and cases run in forked children).
#include <functional>
#include <optional>
#include <string>

namespace ridgeline {

// The child's text, or nullopt with `why` set (fork failed, the child was killed, it
// returned nothing). Waits for the child.
std::optional<std::string> text_from_child(const std::function<std::string()>& body,
                                           std::string& why);

}  // namespace ridgeline
