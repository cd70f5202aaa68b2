// What the tests of printed output ask of a text: how often a piece occurs in it, whether a
// regular expression finds a match, whether it is one line (a reason a user reads).
#pragma once

#include <cstddef>
#include <regex>
#include <string>

namespace ridgeline::test {

inline std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

inline bool matches(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

inline bool one_line(const std::string& text) {
  return !text.empty() && text.find('\n') == std::string::npos;
}

}  // namespace ridgeline::test
