#include "charts/GraphView.hpp"

#include <QHash>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

constexpr double kMinScale = 0.02, kMaxScale = 8.0;
/// Below this scale the 11 px labels would be under 5 px: boxes only.
constexpr double kTextScale = 0.45;
/// Where a grouped graph too large to fit readably opens (labels at 9 px).
constexpr double kReadableScale = 0.8;
/// The legend's box (bottom left, in pixels); fitting keeps the graph above it.
constexpr int kLegendRow = 16, kLegendRows = 6, kLegendHeight = kLegendRow * kLegendRows + 8,
              kLegendMargin = 8;

const QColor kComputeSetFill(0xd6, 0xe6, 0xf5), kComputeSetLine(0x3b, 0x6e, 0xa5);
const QColor kVariableFill(0xf7, 0xe7, 0xc6), kVariableLine(0xa5, 0x7a, 0x2b);
/// A closed group (a layer or operation standing for what is under its path).
const QColor kGroupFill(0xe3, 0xef, 0xdc), kGroupLine(0x4f, 0x7a, 0x3a);
const QColor kHighlight(0xff, 0xd7, 0x00), kSelected(0xd0, 0x30, 0x30);
/// Comparing: a node whose element changed, and one the base does not have.
const QColor kChanged(0xe0, 0x6c, 0x00), kNew(0x2e, 0x9a, 0x4a);

QColor edgeColour(GraphEdge::Direction d) {
  switch (d) {
  case GraphEdge::Direction::Write:
    return QColor(0x3b, 0x6e, 0xa5);
  case GraphEdge::Direction::ReadWrite:
    return QColor(0x80, 0x40, 0x90);
  default:
    return QColor(0x70, 0x70, 0x70);
  }
}

} // namespace

GraphView::GraphView(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(false);
  setAutoFillBackground(true);
  QPalette p = palette();
  p.setColor(QPalette::Window, Qt::white);
  setPalette(p);
}

void GraphView::setData(std::shared_ptr<const GraphViewData> graph, bool keepView) {
  data_ = std::move(graph);
  selected_ = -1;
  highlighted_.clear();
  const QRectF shown(toGraph(QPointF(0, 0)), toGraph(QPointF(width(), height())));
  if (keepView && !fitted_ && data_ && shown.intersects(data_->bounds)) {
    clampView();
    update();
    return;
  }
  fit();
  // A graph shown by groups whose fit would draw no label (the CNN's first view: 60 nodes at
  // scale 0.34) opens readable instead, from the top where the data comes in; 0 fits it all.
  if (data_ && data_->grouped && scale_ < kTextScale && !data_->nodes.isEmpty()) {
    // The top rank's node nearest the middle, at the top middle of the view.
    const double middle = data_->bounds.center().x();
    QRectF top = data_->nodes.front().rect;
    for (const GraphNode& n : data_->nodes)
      if (n.rect.top() < top.top() - 1 ||
          (std::abs(n.rect.top() - top.top()) <= 1 &&
           std::abs(n.rect.center().x() - middle) < std::abs(top.center().x() - middle)))
        top = n.rect;
    scale_ = kReadableScale;
    origin_ = QPointF(top.center().x() - width() / (2 * scale_), top.top() - 20);
    fitted_ = false;
    clampView();
    update();
  }
}

void GraphView::select(int node) {
  if (!data_ || node >= data_->nodes.size()) node = -1;
  if (node == selected_) return;
  selected_ = node;
  showNode(node);
  update();
  emit selectionChanged(node);
}

void GraphView::showNode(int node) {
  if (!data_ || node < 0 || node >= data_->nodes.size()) return;
  const QRectF r = data_->nodes[node].rect;
  const QRectF shown(toGraph(QPointF(0, 0)), toGraph(QPointF(width(), height())));
  if (!shown.contains(r) || scale_ < kTextScale) {
    // Centre it, zoomed in far enough to read its label.
    scale_ = std::max(scale_, 1.0);
    origin_ = r.center() - QPointF(width(), height()) / (2 * scale_);
    fitted_ = false;
    clampView();
  }
  update();
}

void GraphView::setHighlighted(const QVector<int>& nodes) {
  highlighted_ = QSet<int>(nodes.begin(), nodes.end());
  update();
}

void GraphView::fit() {
  fitted_ = true;
  if (!data_ || data_->bounds.isEmpty() || width() <= 0 || height() <= 0) {
    scale_ = 1.0;
    origin_ = {};
    update();
    return;
  }
  const QRectF b = data_->bounds.adjusted(-10, -10, 10, 10);
  const double room = std::max(1.0, double(height() - kLegendHeight - 2 * kLegendMargin));
  scale_ = std::clamp(std::min(width() / b.width(), room / b.height()), kMinScale, kMaxScale);
  // Centred across, and in the room above the legend.
  origin_ = b.center() - QPointF(width(), room) / (2 * scale_);
  update();
}

void GraphView::zoomBy(double factor, QPointF around) {
  const QPointF anchor = toGraph(around);
  scale_ = std::clamp(scale_ * factor, kMinScale, kMaxScale);
  origin_ = anchor - around / scale_;
  fitted_ = false;
  clampView();
  update();
}

void GraphView::panBy(QPointF pixels) {
  origin_ -= pixels / scale_;
  fitted_ = false;
  clampView();
  update();
}

void GraphView::clampView() {
  // Keep some of the graph in view: the view never leaves the data.
  if (!data_) return;
  const QRectF b = data_->bounds;
  const QSizeF shown(width() / scale_, height() / scale_);
  origin_.setX(
      std::clamp(origin_.x(), b.left() - shown.width() * 0.9, b.right() - shown.width() * 0.1));
  origin_.setY(
      std::clamp(origin_.y(), b.top() - shown.height() * 0.9, b.bottom() - shown.height() * 0.1));
}

int GraphView::nodeAt(QPointF widget) const {
  if (!data_) return -1;
  const QPointF g = toGraph(widget);
  for (int i = 0; i < data_->nodes.size(); ++i)
    if (data_->nodes[i].rect.contains(g)) return i;
  return -1;
}

void GraphView::paintEvent(QPaintEvent* event) {
  QPainter p(this);
  if (!data_) return;
  if (data_->nodes.isEmpty()) {
    p.drawText(rect(), Qt::AlignCenter, tr("The serialized graph is empty"));
    return;
  }
  const QRectF visible(toGraph(event->rect().topLeft()),
                       toGraph(event->rect().bottomRight() + QPoint(1, 1)));
  p.setRenderHint(QPainter::Antialiasing, scale_ > 0.2);
  p.translate(-origin_ * scale_);
  p.scale(scale_, scale_);

  // Edges under nodes; the selection's edges last and darker. Edges of one colour are stroked
  // as one path and their arrowheads filled as one (fewer passes of Qt's span blending).
  struct Batch {
    QPainterPath lines, heads;
  };
  QHash<QRgb, Batch> batches;
  auto addEdge = [&](const GraphEdge& e, Batch& batch) {
    if (e.path.isEmpty() || !e.path.controlPointRect().adjusted(-8, -8, 8, 8).intersects(visible))
      return;
    batch.lines.addPath(e.path);
    // Arrowhead from the spline's end to Graphviz's tip.
    QPointF dir = e.arrowTip - e.arrowBase;
    const double len = std::hypot(dir.x(), dir.y());
    if (len < 0.5) return;
    dir /= len;
    const QPointF normal(-dir.y(), dir.x());
    const QPointF base = e.arrowTip - dir * 9.0;
    batch.heads.addPolygon(QPolygonF({e.arrowTip, base + normal * 4.0, base - normal * 4.0}));
    batch.heads.closeSubpath();
  };
  auto drawBatches = [&](double width) {
    for (auto it = batches.cbegin(); it != batches.cend(); ++it) {
      const QColor colour = QColor::fromRgba(it.key());
      QPen pen(colour, width, Qt::SolidLine, Qt::RoundCap);
      pen.setCosmetic(true); // pixels wide at every zoom
      p.setPen(pen);
      p.setBrush(Qt::NoBrush);
      p.drawPath(it->lines);
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      p.drawPath(it->heads);
    }
    batches.clear();
  };
  // A hub's straight edges (GraphLayout's kRoutedDegree) are drawn only while the hub or the
  // other end is selected: at model scale a closed group such as "fwd" joins every block of an
  // opened "bwd", and a hundred long lines fanned over the page hid the routed edges and cost
  // most of a repaint (Qt blends the spans of long antialiased lines on its thread pool: 24-38
  // ms at load 5 on 2 cores, 1.1-8.4 ms without them).
  for (const GraphEdge& e : data_->edges)
    if (e.routed && e.from != selected_ && e.to != selected_)
      addEdge(e, batches[edgeColour(e.direction).lighter(130).rgba()]);
  drawBatches(1.0);
  if (selected_ >= 0) {
    for (const GraphEdge& e : data_->edges)
      if (e.from == selected_ || e.to == selected_) addEdge(e, batches[kSelected.rgba()]);
    drawBatches(2.0);
  }

  QFont font = p.font();
  font.setPixelSize(11);
  p.setFont(font);
  const bool text = scale_ >= kTextScale;
  for (int i = 0; i < data_->nodes.size(); ++i) {
    const GraphNode& n = data_->nodes[i];
    if (!n.rect.intersects(visible)) continue;
    const bool cs = n.kind == GraphNode::Kind::ComputeSet;
    const bool group = n.kind == GraphNode::Kind::Group;
    QColor line = group ? kGroupLine : cs ? kComputeSetLine : kVariableLine;
    double width = group ? 1.5 : 1.0;
    if (n.change == GraphNode::Change::Changed) line = kChanged, width = 3.0;
    if (n.change == GraphNode::Change::New) line = kNew, width = 3.0;
    if (highlighted_.contains(i)) line = QColor(0xc0, 0x90, 0x00), width = 3.0;
    if (i == selected_) line = kSelected, width = 3.0;
    QPen pen(line, width, group ? Qt::DashLine : Qt::SolidLine);
    pen.setCosmetic(true);
    p.setPen(pen);
    p.setBrush(highlighted_.contains(i) ? kHighlight.lighter(150)
                                        : (group ? kGroupFill
                                           : cs  ? kComputeSetFill
                                                 : kVariableFill));
    if (group)
      p.drawRoundedRect(n.rect, 10, 10);
    else if (cs)
      p.drawRoundedRect(n.rect, 4, 4);
    else
      p.drawEllipse(n.rect);
    if (!text) continue;
    p.setPen(Qt::black);
    const QRectF top(n.rect.left(), n.rect.top() + 3, n.rect.width(), n.rect.height() / 2 - 2);
    const QRectF bottom(n.rect.left(), n.rect.center().y(), n.rect.width(),
                        n.rect.height() / 2 - 3);
    p.drawText(top, Qt::AlignCenter, n.label);
    p.setPen(QColor(0x50, 0x50, 0x50));
    p.drawText(bottom, Qt::AlignCenter, n.detail);
  }
  drawLegend(p);
}

void GraphView::drawLegend(QPainter& p) const {
  // In widget pixels, bottom left: what the shapes and edge colours mean.
  p.resetTransform();
  p.setRenderHint(QPainter::Antialiasing, true);
  QFont font = p.font();
  font.setPixelSize(11);
  p.setFont(font);
  const struct {
    QString text;
    QColor colour;
  } edges[] = {{tr("reads"), edgeColour(GraphEdge::Direction::Read)},
               {tr("writes"), edgeColour(GraphEdge::Direction::Write)},
               {tr("reads and writes"), edgeColour(GraphEdge::Direction::ReadWrite)}};
  const int rowHeight = kLegendRow;
  const bool compared = data_ && data_->compared;
  const int legendHeight = kLegendHeight + (compared ? 2 * kLegendRow : 0);
  const QRectF box(kLegendMargin, height() - kLegendMargin - legendHeight, 170, legendHeight);
  p.setPen(QColor(0xb0, 0xb0, 0xb0));
  p.setBrush(QColor(255, 255, 255, 230));
  p.drawRect(box);
  double y = box.top() + 4;
  auto text = [&](const QString& t) {
    p.setPen(Qt::black);
    p.drawText(QRectF(box.left() + 40, y, box.width() - 44, rowHeight),
               Qt::AlignVCenter | Qt::AlignLeft, t);
    y += rowHeight;
  };
  p.setPen(kComputeSetLine);
  p.setBrush(kComputeSetFill);
  p.drawRoundedRect(QRectF(box.left() + 8, y + 3, 24, 10), 2, 2);
  text(tr("compute set"));
  p.setPen(kVariableLine);
  p.setBrush(kVariableFill);
  p.drawEllipse(QRectF(box.left() + 8, y + 3, 24, 10));
  text(tr("variable"));
  QPen groupPen(kGroupLine, 1.5, Qt::DashLine);
  p.setPen(groupPen);
  p.setBrush(kGroupFill);
  p.drawRoundedRect(QRectF(box.left() + 8, y + 3, 24, 10), 4, 4);
  text(tr("group (double-click)"));
  for (const auto& e : edges) {
    p.setPen(QPen(e.colour.lighter(130), 2));
    p.drawLine(QPointF(box.left() + 8, y + 8), QPointF(box.left() + 32, y + 8));
    text(e.text);
  }
  if (!compared) return;
  for (const auto& [colour, label] : {std::pair<QColor, QString>{kChanged, tr("changed from base")},
                                      std::pair<QColor, QString>{kNew, tr("not in base")}}) {
    p.setPen(QPen(colour, 3));
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(box.left() + 8, y + 3, 24, 10), 2, 2);
    text(label);
  }
}

void GraphView::resizeEvent(QResizeEvent*) {
  if (fitted_) fit();
}

void GraphView::wheelEvent(QWheelEvent* e) {
  const double notches = e->angleDelta().y() / 120.0;
  if (notches == 0) return;
  zoomBy(std::pow(1.25, notches), e->position());
  e->accept();
}

void GraphView::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  press_ = last_ = e->pos();
  dragged_ = false;
}

void GraphView::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton)) return;
  if ((e->pos() - press_).manhattanLength() > 3) dragged_ = true;
  if (dragged_) panBy(e->pos() - last_);
  last_ = e->pos();
}

void GraphView::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  if (!dragged_) {
    const int node = nodeAt(e->position());
    if (node != selected_) {
      selected_ = node; // a click never moves the view
      update();
      emit selectionChanged(node);
    }
  }
  dragged_ = false;
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const int node = nodeAt(e->position());
  if (node >= 0) emit activated(node);
}

void GraphView::keyPressEvent(QKeyEvent* e) {
  const QPointF middle(width() / 2.0, height() / 2.0);
  switch (e->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal:
    zoomBy(2.0, middle);
    break;
  case Qt::Key_Minus:
    zoomBy(0.5, middle);
    break;
  case Qt::Key_0:
  case Qt::Key_Home:
    fit();
    break;
  case Qt::Key_Left:
    panBy(QPointF(width() / 10.0, 0));
    break;
  case Qt::Key_Right:
    panBy(QPointF(-width() / 10.0, 0));
    break;
  case Qt::Key_Up:
    panBy(QPointF(0, height() / 10.0));
    break;
  case Qt::Key_Down:
    panBy(QPointF(0, -height() / 10.0));
    break;
  case Qt::Key_Escape:
    select(-1);
    break;
  case Qt::Key_Return:
  case Qt::Key_Enter:
    if (selected_ < 0) return QWidget::keyPressEvent(e);
    emit activated(selected_);
    break;
  default:
    QWidget::keyPressEvent(e);
    return;
  }
  e->accept();
}

} // namespace tessera::viewer
