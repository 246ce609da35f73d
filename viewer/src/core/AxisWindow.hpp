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
  explicit AxisWindow(double minSpan) : m_minSpan(minSpan) {}

  /// The range that may be shown, [lo, hi] (an empty one becomes [lo, lo + minSpan], or
  /// [lo, lo + 1] without a minimum); the window moves or shrinks to stay inside.
  void setRange(double lo, double hi);
  double rangeFrom() const { return m_lo; }
  double rangeTo() const { return m_hi; }

  double from() const { return m_from; }
  double to() const { return m_to; }
  double span() const { return m_to - m_from; }

  /// Shows [from, to], moved inside the range and widened to the minimum span as needed (not
  /// finite: ignored). Each returns whether the window changed.
  bool show(double from, double to);
  bool fit() { return show(m_lo, m_hi); }
  /// Multiplies the span by `factor` (< 1 zooms in), keeping the axis position `anchor` where it
  /// is on screen.
  bool zoom(double factor, double anchor);
  bool zoomAtCentre(double factor) { return zoom(factor, (m_from + m_to) / 2); }
  /// Moves by `fraction` of the span (negative: towards the start).
  bool pan(double fraction) { return show(m_from + fraction * span(), m_to + fraction * span()); }

private:
  double m_minSpan;
  double m_lo = 0, m_hi = 1;
  double m_from = 0, m_to = 1;
};

} // namespace tessera::viewer
