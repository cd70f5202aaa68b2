#pragma once
// Every string that comes from a document passes through one of these before it is
// written into a report or onto the terminal. All of them first make the string visible
// (escape_visible, core/visible_text.hpp: the one rule), then apply the format's own.
#include <string>
#include <string_view>

#include "ridgeline/core/visible_text.hpp"

namespace ridgeline {

// Visible, then HTML's special characters as entities (text and attribute values).
std::string escape_html(std::string_view text);
// Visible, then Markdown's table and inline syntax escaped: one table cell.
std::string escape_markdown_cell(std::string_view text);
// Visible, then neutralised against formula injection as OWASP advises (a cell that
// would start with =, +, -, @, tab or CR gets a leading ' and is quoted), then quoted
// per RFC 4180 when it holds a separator (, or ;) or a quote.
std::string escape_csv_field(std::string_view text);

}  // namespace ridgeline
