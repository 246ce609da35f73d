// Clamping an axis window into its range.
#include "core/AxisWindow.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::viewer {

void AxisWindow::setRange(double lo, double hi) {
  if (!(hi > lo)) hi = lo + (m_minSpan > 0 ? m_minSpan : 1.0); // a window must have a width to draw
  m_lo = lo;
  m_hi = hi;
  show(m_from, m_to);
}

bool AxisWindow::show(double from, double to) {
  if (!std::isfinite(from) || !std::isfinite(to)) return false; // a NaN would stick for good
  const double range = m_hi - m_lo;
  const double span = std::clamp(to - from, std::min(m_minSpan, range), range);
  from = std::clamp(from, m_lo, m_hi - span);
  if (from == m_from && from + span == m_to) return false;
  m_from = from;
  m_to = from + span;
  return true;
}

bool AxisWindow::zoom(double factor, double anchor) {
  const double span = m_to - m_from;
  if (!(factor > 0) || !(span > 0)) return false;
  const double rel = (anchor - m_from) / span; // where the anchor is on screen, 0..1
  const double wider = span * factor;
  return show(anchor - rel * wider, anchor - rel * wider + wider);
}

} // namespace tessera::viewer
