#pragma once
// The roofline chart: the scene of one document, made at the widget's size whenever the
// size or the document changes, painted by paint_roofline; hover shows a point's tooltip
// (the HTML report's lines), a click selects its case.
#include <QWidget>
#include <memory>
#include <optional>
#include <set>

#include "ridgeline/analysis/roofline_scene.hpp"
#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/gui/roofline_painter.hpp"
#include "ridgeline/gui/run_document.hpp"
#include "ridgeline/reports/roofline_style.hpp"

class QRubberBand;

namespace ridgeline::gui {

struct HiddenRoofs {
  std::set<std::string> levels, dtypes, isas;
};

class RooflineView : public QWidget {
  Q_OBJECT
 public:
  explicit RooflineView(QWidget* parent = nullptr);
  void set_document(std::shared_ptr<const RunDocument> document);
  void set_selected(std::set<std::size_t> placements);
  void set_colour_by(ColourBy by);
  // Another open run as the base of a comparison: both on the chart (the base hollow) with an
  // arrow per moved case coloured by its verdict; nullptr: the document alone.
  void set_comparison(std::shared_ptr<const RunDocument> base,
                      std::shared_ptr<const RunComparison> comparison);
  // Other open runs drawn with the document (hollow, before it), each under its own
  // machine's roofs where the machines differ (dotted); empty: the document alone. A
  // comparison and an overlay exclude each other: setting one clears the other.
  void set_overlay(std::vector<std::shared_ptr<const RunDocument>> runs);
  // Markers sized by the case's time per call (View → Size points by time).
  void set_size_by_time(bool on);
  // The table's rows are the drawn placements from this index on: a comparison's new run
  // (its base is not in the table), or all of them (one run, an overlay's runs). Selection,
  // clicks, the rubber band and set_visible count rows from it.
  std::size_t table_offset() const { return comparison_ ? base_count_ : 0; }
  // The runs drawn, by name, where there are several (Colour by run, the table's run column).
  const RunSpans& runs() const { return runs_; }
  // Only these placements are drawn (the rows the table's filter passes); none: all.
  void set_visible(std::optional<std::set<std::size_t>> placements);
  // Roofs left off the chart: memory levels ("L1", "DRAM"), compute dtypes ("f64") and
  // instruction sets ("avx512": each dtype's roof is then its best other ISA's peak). The
  // points stay where the full model placed them.
  void set_hidden(HiddenRoofs hidden);
  const HiddenRoofs& hidden() const { return hidden_; }
  // What the models drawn have roofs for, in order: memory levels, dtypes, ISAs.
  std::vector<std::string> roof_levels() const;
  std::vector<std::string> roof_dtypes() const;
  std::vector<std::string> roof_isas() const;
  // The key under the chart: a swatch per colour key, rich text.
  QString legend_html() const;
  // The chart as an image, and its paint (for the SVG and PNG exports).
  RooflinePaint paint() const;

  // Zoom and pan (wheel, drag on empty space, + - arrows, Backspace / Ctrl+Z, Home): the
  // scene is made again for the new window. `factor` > 1 zooms in about `at` (pixels).
  void zoom(double factor, QPointF at);
  void pan(double dx_pixels, double dy_pixels);
  void undo_zoom();
  void reset_zoom();
  const std::optional<SceneWindow>& window() const { return window_; }
  // The document's placements with a point inside `area` (pixels): what a rubber band
  // (Shift + drag) selects.
  std::set<std::size_t> placements_in(const QRectF& area) const;
  const RooflineScene& scene() const { return scene_; }
  const RunComparison* comparison() const { return comparison_.get(); }
  const std::set<std::size_t>& selected() const { return selected_; }
  // The tooltip text of the point under `position` (widget pixels), or "" where none.
  QString tooltip_at(QPointF position) const;

 signals:
  void placementClicked(std::size_t placement);
  void placementsBanded(std::set<std::size_t> placements);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  template <typename Ceiling, typename List>
  std::vector<std::string> over_models(List list, std::string Ceiling::*field) const;
  void rebuild();        // a new scene of what is drawn (a zoom, a resize, the roofs)
  void refresh_drawn();  // what is drawn changed (document, filter, comparison): then rebuild
  void refresh_roofs();  // the models' roofs less the hidden ones, into roofs_
  // The runs drawn, other runs first: the comparison's base or the overlay, then the document.
  std::vector<const RunDocument*> drawn_runs() const;
  // A comparison of runs from two machines (their fingerprints differ, as compare judges):
  // each run's points under its own machine's roofs.
  bool two_machines() const;
  void recolour();            // colours_ of what is drawn, by by_
  SceneWindow shown() const;  // the window the scene shows now
  // `w` moved by a drag of (dx, dy) pixels: the data follows the pointer.
  SceneWindow shifted(SceneWindow w, double dx, double dy) const;
  void set_window(std::optional<SceneWindow> window, bool undoable);

  std::shared_ptr<const RunDocument> document_;
  RooflineScene scene_;
  BackendColours colours_;
  std::set<std::size_t> selected_;
  ColourBy by_ = ColourBy::backend;
  HiddenRoofs hidden_;
  std::optional<std::set<std::size_t>> visible_;
  std::shared_ptr<const RunDocument> base_;  // a comparison's base run
  std::shared_ptr<const RunComparison> comparison_;
  std::vector<std::shared_ptr<const RunDocument>> overlay_;  // runs drawn with the document
  bool size_by_time_ = false;
  RunSpans runs_;  // the runs among the drawn placements (ColourBy::run, tooltips)
  // The placements the scene is made from: the document's own, or (a comparison, an overlay,
  // a filter) `copy_`: the other runs' first (base_count_ of them), the filtered-out
  // unplaceable.
  const std::vector<RooflinePlacement>* drawn_ = nullptr;
  std::vector<RooflinePlacement> copy_;
  std::size_t base_count_ = 0;
  // The roofs drawn (refresh_roofs): each distinct machine's model less the hidden roofs,
  // and for each drawn placement the index of its machine.
  std::vector<MachineModel> roofs_;
  std::vector<SceneMachine> machines_;
  std::vector<std::size_t> machine_of_;
  std::optional<SceneWindow> window_;             // none: fit the data
  std::vector<std::optional<SceneWindow>> undo_;  // the windows before each zoom or pan
  std::optional<QPointF> drag_from_;              // a pan in progress: where it started
  SceneWindow drag_window_;                       // the window when it started
  bool drag_moved_ = false;
  QRubberBand* band_ = nullptr;  // Shift + drag: a selection rectangle
  QPoint band_from_;             // the drag has moved: its undo step is taken
};

}  // namespace ridgeline::gui
