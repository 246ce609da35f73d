#include "core/GraphLayout.hpp"

#include "core/Background.hpp"
#include "core/GraphData.hpp"

#include <algorithm>
#include <cmath>
#include <graphviz/gvc.h>
#include <mutex>
#include <stdexcept>
#include <string>

namespace tessera::viewer {

namespace {

/// Graphviz sizes are in inches, positions in points (1/72 inch); the view draws points.
constexpr double kPointsPerInch = 72.0;

/// Graphviz keeps global state (its allocator hooks, error reporting, the layout's statics):
/// one layout at a time in the process.
std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

/// Owns the context and graph so an exception (or cancel) between steps frees both.
struct GvGraph {
  GVC_t* gvc = gvContext();
  Agraph_t* g = agopen(const_cast<char*>("graph"), Agdirected, nullptr);
  bool laidOut = false;
  ~GvGraph() {
    if (laidOut) gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
  }
};

char* str(const char* s) {
  return const_cast<char*>(s);
}

/// Node size in points from its two lines, at the view's label font (11 px, about 6.6 px a
/// character for DejaVu Sans): Graphviz's own text sizing needs a renderer plugin we do not use.
QSizeF nodeSize(const GraphNode& n) {
  const int chars = std::max(n.label.size(), n.detail.size());
  return {std::max(60.0, chars * 6.6 + 20.0), 36.0};
}

QPointF toQt(pointf p, double top) {
  return {p.x, top - p.y};
}

/// Where the segment from the centre of `r` towards `to` leaves the rectangle.
QPointF border(const QRectF& r, QPointF to) {
  const QPointF c = r.center();
  const QPointF d = to - c;
  if (std::abs(d.x()) < 1e-9 && std::abs(d.y()) < 1e-9) return c;
  const double sx = std::abs(d.x()) > 1e-9 ? (r.width() / 2) / std::abs(d.x()) : 1e300;
  const double sy = std::abs(d.y()) > 1e-9 ? (r.height() / 2) / std::abs(d.y()) : 1e300;
  return c + d * std::min({sx, sy, 1.0});
}

/// A hub's edge: a straight line from border to border, the arrow at the target.
void straightEdge(GraphEdge& e, const QRectF& from, const QRectF& to) {
  const QPointF a = border(from, to.center()), b = border(to, from.center());
  QPainterPath path(a);
  path.lineTo(b);
  e.path = path;
  e.arrowTip = b;
  e.arrowBase = a;
}

} // namespace

void layoutGraph(GraphViewData& data, Progress& progress) {
  std::lock_guard<std::mutex> lock(graphvizMutex());
  if (progress.cancelled()) throw Cancelled{};
  GvGraph gv;
  agattr(gv.g, AGRAPH, str("rankdir"), str("TB"));
  agattr(gv.g, AGRAPH, str("nodesep"), str("0.3"));
  agattr(gv.g, AGRAPH, str("ranksep"), str("0.6"));
  Agsym_t* shape = agattr(gv.g, AGNODE, str("shape"), str("box"));
  agattr(gv.g, AGNODE, str("fixedsize"), str("true"));
  agattr(gv.g, AGNODE, str("label"), str(""));
  Agsym_t* width = agattr(gv.g, AGNODE, str("width"), str("1"));
  Agsym_t* height = agattr(gv.g, AGNODE, str("height"), str("0.5"));

  std::vector<Agnode_t*> nodes(static_cast<std::size_t>(data.nodes.size()));
  for (int i = 0; i < data.nodes.size(); ++i) {
    const std::string id = "n" + std::to_string(i);
    Agnode_t* n = agnode(gv.g, str(id.c_str()), 1);
    const QSizeF size = nodeSize(data.nodes[i]);
    agxset(n, width, str(std::to_string(size.width() / kPointsPerInch).c_str()));
    agxset(n, height, str(std::to_string(size.height() / kPointsPerInch).c_str()));
    if (data.nodes[i].kind == GraphNode::Kind::Variable) agxset(n, shape, str("ellipse"));
    nodes[static_cast<std::size_t>(i)] = n;
  }
  std::vector<int> degree(static_cast<std::size_t>(data.nodes.size()), 0);
  for (const GraphEdge& e : data.edges)
    ++degree[static_cast<std::size_t>(e.from)], ++degree[static_cast<std::size_t>(e.to)];
  std::vector<Agedge_t*> edges(static_cast<std::size_t>(data.edges.size()), nullptr);
  for (int i = 0; i < data.edges.size(); ++i) {
    GraphEdge& e = data.edges[i];
    // A graph shown whole (small: at most kWholeGraphNodes) keeps every edge routed, as always.
    e.routed = !data.grouped || (degree[static_cast<std::size_t>(e.from)] <= kRoutedDegree &&
                                 degree[static_cast<std::size_t>(e.to)] <= kRoutedDegree);
    if (!e.routed) continue;
    edges[static_cast<std::size_t>(i)] = agedge(gv.g, nodes[static_cast<std::size_t>(e.from)],
                                                nodes[static_cast<std::size_t>(e.to)], nullptr, 1);
  }
  progress.report(0.1);
  if (gvLayout(gv.gvc, gv.g, "dot") != 0)
    throw std::runtime_error(
        "Graphviz could not lay out the graph (is its dot layout plugin installed? "
        "`dot -c` as root registers it)");
  gv.laidOut = true;
  if (progress.cancelled()) throw Cancelled{};
  progress.report(0.9);

  const boxf bb = GD_bb(gv.g);
  const double top = bb.UR.y;
  data.bounds = QRectF(QPointF(bb.LL.x, top - bb.UR.y), QPointF(bb.UR.x, top - bb.LL.y));
  for (int i = 0; i < data.nodes.size(); ++i) {
    Agnode_t* n = nodes[static_cast<std::size_t>(i)];
    const QPointF c = toQt(ND_coord(n), top);
    const double w = ND_width(n) * kPointsPerInch, h = ND_height(n) * kPointsPerInch;
    data.nodes[i].rect = QRectF(c.x() - w / 2, c.y() - h / 2, w, h);
  }
  for (int i = 0; i < data.edges.size(); ++i) {
    GraphEdge& e = data.edges[i];
    if (!e.routed) {
      straightEdge(e, data.nodes[e.from].rect, data.nodes[e.to].rect);
      continue;
    }
    const splines* spl = ED_spl(edges[static_cast<std::size_t>(i)]);
    if (!spl || spl->size == 0 || spl->list[0].size == 0) continue;
    const bezier& bz = spl->list[0];
    // Cubic Bézier: a start point, then three points per segment.
    QPainterPath path(toQt(bz.list[0], top));
    for (int k = 1; k + 2 < bz.size; k += 3)
      path.cubicTo(toQt(bz.list[k], top), toQt(bz.list[k + 1], top), toQt(bz.list[k + 2], top));
    e.arrowBase = toQt(bz.list[bz.size - 1], top);
    e.arrowTip = bz.eflag ? toQt(bz.ep, top) : e.arrowBase;
    e.path = path;
  }
}

} // namespace tessera::viewer
