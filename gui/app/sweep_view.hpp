#pragma once
// A memory sweep plot: the sweep scene of the run's machine model (the Machine tab), with
// marks beside it (the einsum tab's permutes), scaled to the widget (aspect kept), or a line
// saying the model has no sweep.
#include <QWidget>
#include <optional>
#include <vector>

#include "ridgeline/analysis/sweep_scene.hpp"

namespace ridgeline::gui {

class SweepView : public QWidget {
  Q_OBJECT
 public:
  explicit SweepView(QWidget* parent = nullptr);
  void set_machine(const MachineModel* machine,  // nullptr: none
                   const std::vector<BandwidthMark>& marks = {});
  const std::optional<SweepScene>& scene() const { return scene_; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::optional<SweepScene> scene_;
};

}  // namespace ridgeline::gui
