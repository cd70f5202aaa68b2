// What the tests of printed output ask of a text: how often a piece occurs in it, whether a
// regular expression finds a match, whether it is one line (a reason a user reads); a CSV
// text's lines and a line's fields.
#pragma once

#include <cstddef>
#include <regex>
#include <string>
#include <vector>

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

inline std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t begin = 0, end; begin < text.size(); begin = end + 1) {
    end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(begin, end - begin));
  }
  return out;
}

// The fields of one CSV line (quotes honoured).
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

}  // namespace ridgeline::test
