#pragma once
// Every problem of a request, found before anything runs and said together: a user who
// gave three wrong options hears of three, not one per attempt.
#include <string>
#include <vector>

#include "ridgeline/core/error.hpp"

namespace ridgeline {

class RequestProblems {
 public:
  void add(std::string problem) { problems_.push_back(std::move(problem)); }

  // Runs `check`; the InputError it throws becomes a problem. False where it threw.
  template <class Check>
  bool check(Check&& check) {
    try {
      check();
      return true;
    } catch (const InputError& e) {
      add(e.what());
      return false;
    }
  }

  bool empty() const { return problems_.empty(); }

  // One InputError, one line: the problems joined by "; ".
  void throw_if_any() const {
    if (problems_.empty()) return;
    std::string all;
    for (const auto& p : problems_) all += (all.empty() ? "" : "; ") + p;
    throw InputError(all);
  }

 private:
  std::vector<std::string> problems_;
};

}  // namespace ridgeline
