#include "ridgeline/reports/columns.hpp"

#include <algorithm>

namespace ridgeline {

std::size_t visible_width(const std::string& text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {  // CSI ... final byte
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
      continue;
    }
    if ((c & 0xc0) != 0x80) ++width;  // not a UTF-8 continuation byte
  }
  return width;
}

std::string format_columns(const std::vector<TextRow>& rows, const std::string& indent,
                           const std::vector<std::size_t>& right) {
  std::vector<std::size_t> widths;
  for (const auto& r : rows)
    for (std::size_t c = 0; c + 1 < r.size(); ++c) {  // the last column is not padded
      if (widths.size() <= c) widths.resize(c + 1, 0);
      widths[c] = std::max(widths[c], visible_width(r[c]));
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line = indent;
    for (std::size_t c = 0; c < r.size(); ++c) {
      const bool last = c + 1 == r.size();
      const std::size_t pad = last ? 0 : widths[c] - visible_width(r[c]);
      const bool align_right = std::find(right.begin(), right.end(), c) != right.end();
      if (align_right) line.append(pad, ' ');
      line += r[c];
      if (!align_right) line.append(pad, ' ');
      if (!last) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace ridgeline
