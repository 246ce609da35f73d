// Two-line header titles: measured and painted with the line break in place.
#include "widgets/WrappingHeader.hpp"

#include <QStyleOptionHeader>
#include <cstdlib>

namespace tessera::viewer {

WrappingHeader::WrappingHeader(QWidget* parent) : QHeaderView(Qt::Horizontal, parent) {
  setSectionsClickable(true);
  setHighlightSections(false);
  setDefaultAlignment(Qt::AlignCenter);
}

QString WrappingHeader::wrapped(const QString& text) {
  if (text.size() <= 12 || text.contains(QLatin1Char('\n'))) return text;
  int best = -1;
  for (int i = 0; i < text.size(); ++i)
    if (text[i] == QLatin1Char(' ') &&
        (best < 0 || std::abs(i - text.size() / 2) < std::abs(best - text.size() / 2)))
      best = i;
  if (best <= 0) return text;
  QString out = text;
  out[best] = QLatin1Char('\n');
  return out;
}

void WrappingHeader::initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const {
  QHeaderView::initStyleOptionForIndex(option, logicalIndex);
  option->text = wrapped(option->text);
  // One elided line of a two-line title would cut both: the section is sized to the lines.
  if (auto* v2 = qstyleoption_cast<QStyleOptionHeaderV2*>(option))
    v2->textElideMode = Qt::ElideNone;
}

QSize WrappingHeader::sectionSizeFromContents(int logicalIndex) const {
  QSize size = QHeaderView::sectionSizeFromContents(logicalIndex);
  if (!model()) return size;
  const QString text = model()->headerData(logicalIndex, orientation(), Qt::DisplayRole).toString();
  const QString lines = wrapped(text);
  if (lines == text) return size;
  QFont f = font();
  const QVariant fontRole = model()->headerData(logicalIndex, orientation(), Qt::FontRole);
  if (fontRole.canConvert<QFont>()) f = fontRole.value<QFont>();
  const QFontMetrics fm(f);
  int widest = 0;
  for (const QString& line : lines.split(QLatin1Char('\n')))
    widest = std::max(widest, fm.horizontalAdvance(line));
  size.setWidth(size.width() - fm.horizontalAdvance(text) + widest);
  size.setHeight(std::max(size.height(), 2 * fm.lineSpacing() + 6));
  return size;
}

} // namespace tessera::viewer
