#pragma once
// Every string that comes from a document passes through one of these before it is
// written into a report or onto the terminal. All of them first make the string visible:
// control characters (C0, DEL, C1), Unicode bidirectional controls (LRE, RLE, PDF, LRO,
// RLO, LRI, RLI, FSI, PDI, LRM, RLM, ALM), line and paragraph separators and bytes that
// are not UTF-8 become visible escapes (\x1B, \u202E, \xFF), so a name can neither move
// the cursor, colour the terminal, reorder what is shown nor hide part of itself.
#include <string>
#include <string_view>

namespace ridgeline {

// The visible form alone: for the terminal and any plain-text output.
std::string escape_visible(std::string_view text);
// Visible, then HTML's special characters as entities (text and attribute values).
std::string escape_html(std::string_view text);
// Visible, then Markdown's table and inline syntax escaped: one table cell.
std::string escape_markdown_cell(std::string_view text);
// Visible, then neutralised against formula injection as OWASP advises (a cell that
// would start with =, +, -, @, tab or CR gets a leading ' and is quoted), then quoted
// per RFC 4180 when it holds a separator (, or ;) or a quote.
std::string escape_csv_field(std::string_view text);

}  // namespace ridgeline
