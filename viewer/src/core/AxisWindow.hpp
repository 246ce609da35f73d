// The visible part [from, to] of a one-dimensional axis within the range it may show: tiles or
// steps on the index charts, cycles on the execution timeline, nanoseconds on the host trace.
// Zooming about a point, panning and fitting always leave a window inside the range and no
// narrower than a minimum span, and every chart takes the same steps for the wheel and the keys,
// so the charts and both timelines navigate alike. GUI-free value type.
#pragma once

namespace tessera::viewer {

class AxisWindow {
public:
  /// Span factor of one wheel notch towards the user (zoom in); away, its inverse.
  static constexpr double kWheelZoom = 0.8;
  /// Span factor of the + key (zoom in); - uses its inverse.
  static constexpr double kKeyZoom = 0.5;
  /// What the arrow keys move, as a fraction of the span.
  static constexpr double kKeyPan = 0.1;

  /// `minSpan`: the narrowest window (never wider than the range itself).
  explicit AxisWindow(double minSpan) : minSpan_(minSpan) {}

  /// The range that may be shown, [lo, hi] (an empty one becomes [lo, lo + minSpan], or
  /// [lo, lo + 1] without a minimum); the window moves or shrinks to stay inside.
  void setRange(double lo, double hi);
  double rangeFrom() const { return lo_; }
  double rangeTo() const { return hi_; }

  double from() const { return from_; }
  double to() const { return to_; }
  double span() const { return to_ - from_; }

  /// Shows [from, to], moved inside the range and widened to the minimum span as needed (not
  /// finite: ignored). Each returns whether the window changed.
  bool show(double from, double to);
  bool fit() { return show(lo_, hi_); }
  /// Multiplies the span by `factor` (< 1 zooms in), keeping the axis position `anchor` where it
  /// is on screen.
  bool zoom(double factor, double anchor);
  bool zoomAtCentre(double factor) { return zoom(factor, (from_ + to_) / 2); }
  /// Moves by `fraction` of the span (negative: towards the start).
  bool pan(double fraction) { return show(from_ + fraction * span(), to_ + fraction * span()); }

private:
  double minSpan_;
  double lo_ = 0, hi_ = 1;
  double from_ = 0, to_ = 1;
};

} // namespace tessera::viewer
