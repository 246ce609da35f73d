// Shared chart behaviour: saving images and theme-aware colours.
#include "charts/ChartWidget.hpp"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QImageWriter>
#include <QMenu>
#include <QMessageBox>
#include <QPixmap>

namespace tessera::viewer {

ChartWidget::ChartWidget(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent); // charts paint every pixel: no background erase
  setFocusPolicy(Qt::StrongFocus);       // keyboard zoom and pan
}

bool ChartWidget::saveImage(const QString& path, QString* error) {
  QImageWriter writer(path);
  if (writer.write(grab().toImage())) return true;
  if (error) *error = path + QStringLiteral(": ") + writer.errorString();
  return false;
}

QColor ChartWidget::seriesColor(int i) {
  // Tableau-like qualitative colours: distinct, and readable on white and on near-black.
  static const QColor colors[] = {
      QColor(0x4e79a7), QColor(0xf28e2b), QColor(0x59a14f), QColor(0xe15759), QColor(0x76b7b2),
      QColor(0xedc948), QColor(0xb07aa1), QColor(0xff9da7), QColor(0x9c755f), QColor(0xbab0ac),
      QColor(0x2f8f9d), QColor(0x8cd17d), QColor(0xd37295), QColor(0x86bcb6), QColor(0xf1ce63)};
  const int n = int(sizeof(colors) / sizeof(colors[0]));
  return colors[((i % n) + n) % n];
}

QColor ChartWidget::textColor() const {
  return palette().color(QPalette::WindowText);
}

QColor ChartWidget::gridColor() const {
  QColor c = palette().color(QPalette::WindowText);
  c.setAlpha(40);
  return c;
}

QColor ChartWidget::backgroundColor() const {
  return palette().color(QPalette::Base);
}

void ChartWidget::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  addContextActions(menu);
  if (!menu.isEmpty()) menu.addSeparator();
  menu.addAction(tr("Save image…"), this,
                 [this] { saveWidgetImageInteractively(this, objectName()); });
  menu.exec(event->globalPos());
}

void saveWidgetImageInteractively(QWidget* widget, const QString& suggestedName) {
  const QString name =
      (suggestedName.isEmpty() ? QStringLiteral("chart") : suggestedName) + QStringLiteral(".png");
  const QString path = QFileDialog::getSaveFileName(widget, QObject::tr("Save image"), name,
                                                    QObject::tr("Images (*.png *.jpg *.bmp)"));
  if (path.isEmpty()) return;
  QImageWriter writer(path);
  if (!writer.write(widget->grab().toImage()))
    QMessageBox::warning(widget, QObject::tr("Save image"),
                         path + QStringLiteral(": ") + writer.errorString());
}

} // namespace tessera::viewer
