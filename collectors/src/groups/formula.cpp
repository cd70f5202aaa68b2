// A recursive-descent evaluator: expression = term {(+|-) term}, term = factor {(*|/)
// factor}, factor = [-] (number | name | "(" expression ")").
#include "ridgeline/collectors/formula.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "ridgeline/core/error.hpp"

namespace ridgeline {

namespace {

class FormulaParser {
 public:
  // values == nullptr: only collect the names.
  FormulaParser(const std::string& text, const std::map<std::string, double>* values)
      : text_(text), values_(values) {}

  double parse() {
    const double v = expression();
    skip_space();
    if (pos_ != text_.size()) fail(fmt::format("unexpected '{}'", text_[pos_]));
    return v;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(fmt::format("formula '{}': {} at column {}", text_, what, pos_ + 1));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  double expression() {
    double v = term();
    for (;;) {
      if (take('+'))
        v += term();
      else if (take('-'))
        v -= term();
      else
        return v;
    }
  }
  double term() {
    double v = factor();
    for (;;) {
      if (take('*')) {
        v *= factor();
      } else if (take('/')) {
        const double d = factor();
        v = d == 0 ? std::numeric_limits<double>::quiet_NaN() : v / d;
      } else {
        return v;
      }
    }
  }
  double factor() {
    if (take('-')) return -factor();
    if (take('(')) {
      const double v = expression();
      if (!take(')')) fail("missing ')'");
      return v;
    }
    skip_space();
    if (pos_ >= text_.size()) fail("expected a number or a name");
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = text_.c_str() + pos_;
      char* end = nullptr;
      const double v = std::strtod(begin, &end);
      if (end == begin) fail("malformed number");
      pos_ += static_cast<std::size_t>(end - begin);
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) ||
                                     text_[pos_] == '_' || text_[pos_] == '.'))
        ++pos_;
      const std::string name = text_.substr(start, pos_ - start);
      if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.push_back(name);
      if (!values_) return 1;
      const auto it = values_->find(name);
      if (it == values_->end()) {
        pos_ = start;
        fail(fmt::format("no value for '{}'", name));
      }
      return it->second;
    }
    fail(fmt::format("unexpected '{}'", c));
  }

  const std::string& text_;
  const std::map<std::string, double>* values_;
  std::size_t pos_ = 0;
  std::vector<std::string> names_;
};

}  // namespace

double evaluate_formula(const std::string& formula, const std::map<std::string, double>& values) {
  return FormulaParser(formula, &values).parse();
}

std::vector<std::string> formula_names(const std::string& formula) {
  FormulaParser p(formula, nullptr);
  p.parse();
  return p.names();
}

}  // namespace ridgeline
