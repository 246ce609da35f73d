// A horizontal table header whose long titles take two lines ("Estimate" over "(each step
// once)"), so a column of short figures is as narrow as its figures rather than its title: the
// Operations table's thirteen columns then fit beside a readable name at 1600 px. The model's
// header text stays one line (tests, copies and tooltips read it as written).
#pragma once

#include <QHeaderView>

namespace tessera::viewer {

class WrappingHeader : public QHeaderView {
  Q_OBJECT
public:
  explicit WrappingHeader(QWidget* parent = nullptr);
  /// `text` with the space nearest its middle made a line break, when it is longer than a
  /// short word or two (at most two lines).
  static QString wrapped(const QString& text);

protected:
  void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override;
  QSize sectionSizeFromContents(int logicalIndex) const override;
};

} // namespace tessera::viewer
