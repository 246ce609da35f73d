// Clamping an axis window into its range.
#include "core/AxisWindow.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::viewer {

void AxisWindow::setRange(double lo, double hi) {
  if (!(hi > lo)) hi = lo + (minSpan_ > 0 ? minSpan_ : 1.0); // a window must have a width to draw
  lo_ = lo;
  hi_ = hi;
  show(from_, to_);
}

bool AxisWindow::show(double from, double to) {
  if (!std::isfinite(from) || !std::isfinite(to)) return false; // a NaN would stick for good
  const double range = hi_ - lo_;
  const double span = std::clamp(to - from, std::min(minSpan_, range), range);
  from = std::clamp(from, lo_, hi_ - span);
  if (from == from_ && from + span == to_) return false;
  from_ = from;
  to_ = from + span;
  return true;
}

bool AxisWindow::zoom(double factor, double anchor) {
  const double span = to_ - from_;
  if (!(factor > 0) || !(span > 0)) return false;
  const double rel = (anchor - from_) / span; // where the anchor is on screen, 0..1
  const double wider = span * factor;
  return show(anchor - rel * wider, anchor - rel * wider + wider);
}

} // namespace tessera::viewer
