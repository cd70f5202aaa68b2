#pragma once
// A string from outside (a file name, a case or library name, a reason) as the window shows
// it: core's one escaping rule (visible_text.hpp), so a right-to-left override or a control
// character in a run is shown as an escape, never acted on by the table, a label or a title.
#include <QString>
#include <string>

#include "ridgeline/core/visible_text.hpp"

namespace ridgeline::gui {

inline QString shown(const std::string& text) {
  return QString::fromStdString(escape_visible(text));
}
inline QString shown(const QString& text) {
  return shown(text.toStdString());
}

}  // namespace ridgeline::gui
