#pragma once
// The one rule for a string that did not come from Ridgeline itself (a file name, a library's
// name, a document's field, a lock file's contents) on its way to a terminal, a window or a
// plain-text file: control characters (C0, DEL, C1), Unicode bidirectional controls (LRE, RLE,
// PDF, LRO, RLO, LRI, RLI, FSI, PDI, LRM, RLM, ALM), line and paragraph separators and bytes
// that are not UTF-8 become visible escapes (\x1B, \u202E, \xFF), so a name can neither move
// the cursor, set the terminal's title, colour it, reorder what is shown nor hide part of
// itself. reports/escape.hpp builds the HTML, Markdown and CSV forms on it.
#include <cstddef>
#include <string>
#include <string_view>

namespace ridgeline {

std::string escape_visible(std::string_view text);

// The length of the valid UTF-8 sequence at text[i] (1 to 4), or 0 where there is none (cut
// short, overlong, a surrogate, above U+10FFFF): the one UTF-8 decoder, which the readers'
// first-bytes check (text_file.cpp) uses too.
std::size_t utf8_sequence_at(std::string_view text, std::size_t i);

// A message for one line of a terminal: visible, and its first `max_bytes` bytes only, with
// how many more there were (a 60,000-character --filter is not echoed whole).
inline constexpr std::size_t kMaxMessageBytes = 2000;
std::string visible_line(std::string_view text, std::size_t max_bytes = kMaxMessageBytes);

}  // namespace ridgeline
