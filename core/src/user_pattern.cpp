#include "ridgeline/core/user_pattern.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include "ridgeline/core/error.hpp"

namespace ridgeline {

UserPattern::UserPattern(std::string_view pattern, std::string_view option, bool case_insensitive) {
  RE2::Options options;
  options.set_log_errors(false);  // the reason goes into the one line, not to stderr
  options.set_max_mem(kMaxProgramBytes);
  options.set_case_sensitive(!case_insensitive);
  re_ = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re_->ok())
    throw InputError(
        fmt::format("{} '{}': invalid regular expression: {}", option, pattern, re_->error()));
}

UserPattern::~UserPattern() = default;
UserPattern::UserPattern(UserPattern&&) noexcept = default;
UserPattern& UserPattern::operator=(UserPattern&&) noexcept = default;

bool UserPattern::search(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace ridgeline
