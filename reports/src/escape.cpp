#include "ridgeline/reports/escape.hpp"

#include <fmt/format.h>

namespace ridgeline {

std::string escape_html(std::string_view text) {
  const std::string visible = escape_visible(text);
  std::string out;
  out.reserve(visible.size());
  for (char c : visible) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escape_markdown_cell(std::string_view text) {
  std::string out;
  for (char c : escape_visible(text)) {
    switch (c) {
      case '|':
        out += "\\|";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '\\':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escape_csv_field(std::string_view text) {
  std::string cell = escape_visible(text);
  // After escape_visible a tab or CR can no longer lead; the check keeps OWASP's list.
  const bool formula =
      !cell.empty() && std::string_view("=+-@\t\r").find(cell[0]) != std::string_view::npos;
  if (formula) cell.insert(cell.begin(), '\'');
  if (!formula && cell.find_first_of(",;\"") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace ridgeline
