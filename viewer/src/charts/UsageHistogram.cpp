#include "charts/UsageHistogram.hpp"

#include "core/Format.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

UsageHistogram::UsageHistogram(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void UsageHistogram::setBins(std::vector<pva::UsageBin> bins) {
  bins_ = std::move(bins);
  update();
}

void UsageHistogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (bins_.empty()) return;
  const QFontMetrics fm = p.fontMetrics();
  const int labelH = fm.height() + 4, countH = fm.height() + 2, left = 8, right = 8;
  const QRect plot(left, countH + 4, width() - left - right, height() - countH - 4 - labelH);
  unsigned most = 1;
  for (const pva::UsageBin& b : bins_)
    most = std::max(most, b.tiles);
  const double slot = double(plot.width()) / double(bins_.size());
  p.setPen(palette().mid().color());
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  for (std::size_t i = 0; i < bins_.size(); ++i) {
    const pva::UsageBin& b = bins_[i];
    const bool over = std::isinf(b.toFraction);
    const int x = plot.left() + int(std::lround(double(i) * slot)) + 2;
    const int w = std::max(1, int(slot) - 4);
    const int h = b.tiles ? std::max(2, int(std::lround(std::sqrt(double(b.tiles) / double(most)) *
                                                        plot.height())))
                          : 0;
    const QRect bar(x, plot.bottom() - h, w, h);
    // Green to amber as the tiles fill; red past their memory.
    const QColor colour =
        over ? QColor(205, 45, 45) : QColor::fromHsv(120 - int(b.fromFraction * 90), 150, 200);
    if (h) p.fillRect(bar, colour);
    p.setPen(palette().text().color());
    p.drawText(QRect(x - 6, plot.bottom() - h - countH, w + 12, countH),
               Qt::AlignHCenter | Qt::AlignBottom, formatCount(b.tiles));
    const QString label =
        over ? tr("over") : QStringLiteral("%1%").arg(int(std::lround(b.toFraction * 100)));
    p.drawText(QRect(x - 6, plot.bottom() + 2, w + 12, labelH), Qt::AlignHCenter | Qt::AlignTop,
               label);
  }
}

} // namespace tessera::viewer
