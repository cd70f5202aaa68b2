#pragma once
// Places the roof labels of a scene so that no two overlap: each label tries places
// along its own roof (above it, then below it) and takes the first that is inside the
// plot, clear of every point's marker and every label placed before it and crossing the
// fewest roof lines; a label with no such place goes to the scene's key.
#include <string>
#include <vector>

#include "ridgeline/analysis/roofline_scene.hpp"

namespace ridgeline::scene {

struct LabelRequest {
  std::string text;
  std::size_t line = 0;  // index into scene.lines: the roof it names
};

// Requests are placed in order: earlier ones get the preferred places.
void place_labels(RooflineScene& scene, const std::vector<LabelRequest>& requests);

}  // namespace ridgeline::scene
