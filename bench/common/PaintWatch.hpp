// For the viewer benchmarks: an event filter that paints the watched widget itself and then
// calls onPainted, so a benchmark knows when a paint has finished, not merely been requested.
#pragma once

#include <QEvent>
#include <QObject>
#include <functional>

namespace tessera::bench {

class PaintWatch : public QObject {
public:
  std::function<void()> onPainted;

protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::Paint) return false;
    watched->removeEventFilter(this);
    watched->event(event); // paint now, then note the time
    if (onPainted) onPainted();
    watched->installEventFilter(this);
    return true;
  }
};

} // namespace tessera::bench
