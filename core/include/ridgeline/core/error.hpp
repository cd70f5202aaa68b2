#pragma once
// Error types shared by every module. An InputError is the user's mistake (bad flag, bad
// file): the command prints its one-line message and exits with code 2.
#include <stdexcept>
#include <string>

namespace ridgeline {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace ridgeline
