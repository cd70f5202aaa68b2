#include "ridgeline/core/visible_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace ridgeline {

namespace {

// Code points that are shown as escapes although they are valid UTF-8.
bool invisible(std::uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)  // C0, DEL, C1
         || cp == 0x061C || cp == 0x200E || cp == 0x200F        // ALM, LRM, RLM
         || (cp >= 0x202A && cp <= 0x202E)                      // LRE RLE PDF LRO RLO
         || (cp >= 0x2066 && cp <= 0x2069)                      // LRI RLI FSI PDI
         || cp == 0x2028 || cp == 0x2029;                       // line, paragraph sep.
}

// Length of the valid UTF-8 sequence at `s[i]` and its code point; 0 when invalid
// (truncated, overlong, a surrogate, or above U+10FFFF).
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    n = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::size_t utf8_sequence_at(std::string_view text, std::size_t i) {
  std::uint32_t cp = 0;
  return utf8_at(text, i, cp);
}

std::string escape_visible(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8_at(text, i, cp);
    if (n == 0) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if (invisible(cp))
      out += cp < 0x100 ? fmt::format("\\x{:02X}", cp) : fmt::format("\\u{:04X}", cp);
    else
      out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string visible_line(std::string_view text, std::size_t max_bytes) {
  std::string line = escape_visible(text.substr(0, std::min(text.size(), max_bytes)));
  if (text.size() > max_bytes) line += fmt::format("… ({} bytes more)", text.size() - max_bytes);
  return line;
}

}  // namespace ridgeline
