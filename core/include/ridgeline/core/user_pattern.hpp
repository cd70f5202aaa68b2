#pragma once
// A regular expression a user typed (--filter, --only, the dashboard's filter box), matched
// by RE2: in time linear in the text and with a bounded stack, whatever the pattern. With
// std::regex, `([a-z0-9./_=,]+)+Q` never ended and 60,000 nested parentheses overflowed the
// stack. RE2's syntax is ECMAScript's and POSIX's common part (no back-references or
// look-around: refused with RE2's reason); a pattern RE2 would need more than kMaxProgramBytes
// for, or nested deeper than RE2's limit, is refused with one line.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace ridgeline {

class UserPattern {
 public:
  static constexpr std::int64_t kMaxProgramBytes = std::int64_t{8} << 20;

  // An InputError "OPTION 'PATTERN': invalid regular expression: WHY" where RE2 refuses it.
  // `case_insensitive` for the dashboard's filter box.
  UserPattern(std::string_view pattern, std::string_view option, bool case_insensitive = false);
  ~UserPattern();
  UserPattern(UserPattern&&) noexcept;
  UserPattern& operator=(UserPattern&&) noexcept;

  // Whether the pattern matches somewhere in `text` (std::regex_search's meaning).
  bool search(std::string_view text) const;

 private:
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace ridgeline
