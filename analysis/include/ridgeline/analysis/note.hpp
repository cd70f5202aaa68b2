#pragma once
// What a reader must know about how a number was obtained: notes that analysis attaches to
// a placement (and to a roof). Every printer shows them; none derives one.
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

enum class NoteKind {
  level,      // which memory level the bytes were compared with, and why
  rate,       // how a foreign result's rate counters became FLOPs per call and FLOP/s
  dtype,      // the dtype is unknown: the highest floating-point peak is the roof
  threads,    // the ceilings used were measured with another thread count
  machine,    // no machine model, or no usable ceiling for this result
  ceiling,    // a ceiling of the machine model was unusable and left out
  origin,     // where the result came from (a foreign file: not validated by Ridgeline)
  value,      // a number of the result was unusable and left out
  noise,      // the timing was disturbed (noise.hpp)
  power_cap,  // what the GPU sustains at its power cap on the case's inputs (power_cap.hpp)
};

std::string_view to_string(NoteKind kind);

struct Note {
  NoteKind kind;
  std::string text;
  bool operator==(const Note&) const = default;
};

// "threads: ceilings measured with 1 thread, ...; dtype: ..." (empty for no notes).
std::string join_notes(const std::vector<Note>& notes, std::string_view separator = "; ");

}  // namespace ridgeline
