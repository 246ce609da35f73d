// Base of every custom-painted chart and timeline: "Save image…" in the context menu, and
// colours taken from the widget's palette so charts follow the light or dark system theme.
#pragma once

#include <QColor>
#include <QWidget>

namespace tessera::viewer {

class ChartWidget : public QWidget {
  Q_OBJECT
public:
  explicit ChartWidget(QWidget* parent = nullptr);

  /// Renders the chart as it is on screen into an image file (format from the suffix). Returns
  /// false, with the reason in *error, when the file cannot be written.
  bool saveImage(const QString& path, QString* error = nullptr);

  /// The i-th colour of a qualitative palette that reads on light and dark backgrounds.
  static QColor seriesColor(int i);
  /// Text, grid and background colours of the current palette.
  QColor textColor() const;
  QColor gridColor() const;
  QColor backgroundColor() const;

protected:
  void contextMenuEvent(QContextMenuEvent* event) override;
  /// Charts add their own actions (reset zoom, ...) before "Save image…".
  virtual void addContextActions(class QMenu& menu) { (void)menu; }
};

/// Asks for a file name and saves `widget` as a PNG; shows an error dialog on failure.
void saveWidgetImageInteractively(QWidget* widget, const QString& suggestedName);

} // namespace tessera::viewer
