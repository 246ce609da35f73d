// The Graph page at model scale: a generated serialized graph of thousands of compute sets and
// variables named by layer paths (bench/common/SyntheticGraph, as bench_pva_reader writes it),
// shown by groups. What is checked: the nodes shown stay bounded whatever is opened, children
// come in the model's order, a search for a deep name opens exactly the groups around it and
// lands on it, a layout replaced before it ends leaves the page showing the last request, and a
// closed group joined to every block (a hub) gets straight edges drawn only when selected (routed
// by Graphviz, such a graph took minutes to lay out).
#include "ViewerTestUtil.hpp"
#include "charts/GraphView.hpp"
#include "common/SyntheticGraph.hpp"
#include "core/GraphData.hpp"
#include "core/GraphGroups.hpp"
#include "core/GraphLayout.hpp"
#include "widgets/GraphPage.hpp"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QTest>

using namespace tessera::viewer;

namespace {

/// 8,000 compute sets (174 layers in 87 blocks of 2), on one IPU: far above the 400 nodes shown
/// whole, and, as at model scale (30,000 compute sets in 82 blocks of 8), too many blocks for the
/// first view to open a pass.
constexpr std::uint64_t kComputeSets = 8000;

/// A report directory: the MLP fixture's profile.pop and the generated graph beside it.
QString modelReport() {
  static const QString dir = [] {
    const QString d = viewer_test::tmpDir(QStringLiteral("graph-scale"));
    QFile::remove(d + "/profile.pop");
    QFile::copy(viewer_test::mlpReport() + "/profile.pop", d + "/profile.pop");
    tessera::bench::SyntheticGraphShape shape;
    shape.computeSets = kComputeSets;
    shape.verticesPerComputeSet = 2;
    shape.layersPerBlock = 2;
    shape.ipus = 1;
    tessera::bench::writeSyntheticGraph((d + "/serialized_graph.capnp").toStdString(), shape);
    return d;
  }();
  return dir;
}

int nodeNamed(const GraphViewData& d, const QString& name) {
  for (int i = 0; i < d.nodes.size(); ++i)
    if (d.nodes[i].name == name) return i;
  return -1;
}

/// The page at the size of these tests, on the generated model report, ready.
bool showModel(GraphPage& page) {
  page.resize(1200, 800);
  page.show();
  page.setDocument(Document::resolve(modelReport()));
  return viewer_test::waitReady(&page);
}

/// Opens the group `name` of the shown graph and waits for its layout to show.
bool openGroup(GraphPage& page, const QString& name) {
  const GraphViewData* before = page.view()->graphData();
  if (!page.activate(nodeNamed(*before, name))) return false;
  return QTest::qWaitFor([&] { return page.view()->graphData() != before && page.isReady(); },
                         60000);
}

/// Every full-graph node is shown as itself or by exactly the closed group whose path holds it,
/// and every shown node has its place.
bool consistent(const GraphViewData& full, const GraphViewData& shown, QString* why) {
  for (int leaf = 0; leaf < full.nodes.size(); ++leaf) {
    const int node = shown.shownNodeOf(leaf);
    if (node < 0 || node >= shown.nodes.size())
      return *why = "not shown: " + full.nodes[leaf].name, false;
    const GraphNode& n = shown.nodes[node];
    const bool ok = n.kind == GraphNode::Kind::Group
                        ? full.nodes[leaf].name.startsWith(n.name + QLatin1Char('/'))
                        : n.name == full.nodes[leaf].name;
    if (!ok) return *why = full.nodes[leaf].name + " shown as " + n.name, false;
  }
  for (const GraphNode& n : shown.nodes)
    if (n.rect.isEmpty()) return *why = "not laid out: " + n.name, false;
  return true;
}

} // namespace

class GraphScaleTest : public QObject {
  Q_OBJECT

private slots:
  // Opening any one group (with the groups around it) never shows more than the layout limit,
  // the first view is small, and the blocks come in the model's order.
  void groupsKeepTheShownNodesBounded() {
    const auto doc = Document::resolve(modelReport());
    Progress p = Progress::standalone(QStringLiteral("test"));
    const GraphViewData full = readGraph(*doc, p);
    QVERIFY(full.computeSets >= int(kComputeSets));
    QVERIFY(full.nodes.size() > 10 * kWholeGraphNodes);
    const GraphGroups groups = groupByPath(full);
    const std::set<int> first = initialExpansion(full, groups);
    const int firstShown = shownNodes(groups, first);
    QVERIFY(firstShown <= kFirstViewNodes);
    QCOMPARE(int(shownGraph(full, groups, first).nodes.size()), firstShown);
    int largest = 0;
    for (int g = 0; g < int(groups.groups.size()); ++g) {
      std::set<int> open = first;
      for (const int up : openPathTo(groups, representative(groups, g)))
        open.insert(up);
      largest = std::max(largest, shownNodes(groups, open));
    }
    QVERIFY2(largest <= kMaxShownNodes, qPrintable(QString::number(largest)));
    QVERIFY(largest > kFirstViewNodes); // opening shows more: the check above is not vacuous
    // "bwd"'s blocks in order: block2 before block10.
    int bwd = -1;
    for (int g = 0; g < int(groups.groups.size()); ++g)
      if (groups.groups[std::size_t(g)].path == QLatin1String("bwd")) bwd = g;
    QVERIFY(bwd > 0);
    const auto& blocks = groups.groups[std::size_t(bwd)].groups;
    QVERIFY(blocks.size() >= 11);
    for (std::size_t i = 0; i < blocks.size(); ++i)
      QCOMPARE(groups.groups[std::size_t(blocks[i])].path, QStringLiteral("bwd/block%1").arg(i));
    QVERIFY(naturalLess(QStringLiteral("a/block2"), QStringLiteral("a/block10")));
    QVERIFY(!naturalLess(QStringLiteral("a/block10"), QStringLiteral("a/block2")));
    QVERIFY(naturalLess(QStringLiteral("a/x"), QStringLiteral("a/x1")));
  }

  // A search for a name deep inside a closed group opens the groups on its path, only those,
  // and selects it once laid out.
  void aSearchOpensTheGroupsAroundADeepName() {
    GraphPage page;
    QVERIFY(showModel(page));
    const GraphViewData* shown = page.view()->graphData();
    QVERIFY(shown && shown->grouped);
    QVERIFY(shown->nodes.size() <= kFirstViewNodes);
    const QString deep = QString::fromStdString(
        tessera::bench::syntheticBackwardName(17, 1, "conv/ConvGradWeight/Reduce_1"));
    QCOMPARE(nodeNamed(*shown, deep), -1); // inside a closed group
    QCOMPARE(page.search(deep), 1);
    QVERIFY(QTest::qWaitFor(
        [&] {
          const GraphViewData* d = page.view()->graphData();
          const int sel = page.view()->selected();
          return d != shown && sel >= 0 && d->nodes[sel].name == deep;
        },
        60000));
    const GraphViewData* found = page.view()->graphData();
    QVERIFY(found->grouped);
    QVERIFY(found->nodes.size() <= kMaxShownNodes);
    QString why;
    QVERIFY2(consistent(*page.fullGraph(), *found, &why), qPrintable(why));
    // Its siblings show; no group on its path is still closed; the other passes stay closed.
    QVERIFY(nodeNamed(*found, QStringLiteral("bwd/block17/layer1/conv/ConvGradWeight/Reduce_0")) >=
            0);
    for (const GraphNode& n : found->nodes)
      if (n.kind == GraphNode::Kind::Group)
        QVERIFY2(!deep.startsWith(n.name + QLatin1Char('/')), qPrintable(n.name));
    QVERIFY(nodeNamed(*found, QStringLiteral("fwd")) >= 0);
    QCOMPARE(found->nodes[nodeNamed(*found, QStringLiteral("fwd"))].kind, GraphNode::Kind::Group);
    QVERIFY(nodeNamed(*found, QStringLiteral("bwd/block6")) >= 0); // a sibling block, closed
    QVERIFY(page.detailsLabel()->text().contains(QStringLiteral("Reduce_1")));
  }

  // Two requests in a row: the first layout is cancelled by the second, and the page ends
  // showing the second, consistent with the whole graph, its counts label agreeing.
  void aReplacedLayoutLeavesThePageConsistent() {
    GraphPage page;
    QVERIFY(showModel(page));
    const GraphViewData* first = page.view()->graphData();
    const int bwd = nodeNamed(*first, QStringLiteral("bwd"));
    QVERIFY(bwd >= 0);
    QVERIFY(page.activate(bwd)); // lays out in the background...
    const QString deep = QString::fromStdString(
        tessera::bench::syntheticBackwardName(12, 0, "bn/BatchNormGrad/ScaleGrad"));
    QCOMPARE(page.search(deep), 1); // ...replaced at once by the search's layout
    QVERIFY(QTest::qWaitFor(
        [&] {
          const int sel = page.view()->selected();
          return page.isReady() && sel >= 0 && page.view()->graphData()->nodes[sel].name == deep;
        },
        60000));
    QTest::qWait(200); // nothing left on its way may replace it
    const GraphViewData* last = page.view()->graphData();
    QCOMPARE(last->nodes[page.view()->selected()].name, deep);
    QString why;
    QVERIFY2(consistent(*page.fullGraph(), *last, &why), qPrintable(why));
    // Both requests hold: bwd open (its blocks show), the path to the match open.
    QCOMPARE(nodeNamed(*last, QStringLiteral("bwd")), -1);
    QVERIFY(nodeNamed(*last, QStringLiteral("bwd/block9")) >= 0);
    QVERIFY(page.countsLabel()->text().contains(
        QStringLiteral("showing %1 nodes").arg(last->nodes.size())));
  }

  // Another document while a group's layout runs: the layout's result never shows over it.
  void aLayoutOutlivedByItsDocumentNeverShows() {
    GraphPage page;
    QVERIFY(showModel(page));
    QVERIFY(page.activate(nodeNamed(*page.view()->graphData(), QStringLiteral("bwd"))));
    page.setDocument(Document::resolve(viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QTest::qWait(500); // the cancelled layout, had it been delivered, would have shown by now
    const GraphViewData* shown = page.view()->graphData();
    QVERIFY(shown && !shown->grouped);
    QCOMPARE(shown->nodes.size(), page.fullGraph()->nodes.size());
    QCOMPARE(nodeNamed(*shown, QStringLiteral("bwd")), -1);
    for (const GraphNode& n : shown->nodes)
      QVERIFY2(!n.name.startsWith(QLatin1String("bwd/block")), qPrintable(n.name));
  }

  // With "bwd" open, "fwd" and "params" join every block: their edges are straight, not routed,
  // drawn only while one end is selected, and the page says so.
  void aHubsEdgesAreStraightAndShownOnSelection() {
    GraphPage page;
    QVERIFY(showModel(page));
    QVERIFY(openGroup(page, QStringLiteral("bwd")));
    const GraphViewData* d = page.view()->graphData();
    const int fwd = nodeNamed(*d, QStringLiteral("fwd"));
    QVERIFY(fwd >= 0);
    int hubEdges = 0, routed = 0;
    for (const GraphEdge& e : d->edges) {
      const bool hub = e.from == fwd || e.to == fwd;
      if (hub) {
        QVERIFY(!e.routed);
        QCOMPARE(e.path.elementCount(), 2); // a straight line
        ++hubEdges;
      }
      routed += e.routed ? 1 : 0;
    }
    QVERIFY(hubEdges > kRoutedDegree);
    QVERIFY(routed > 0); // the chain of blocks is still routed
    QVERIFY(page.countsLabel()->text().contains(QStringLiteral("drawn when one end is selected")));
    page.view()->fit();
    const QImage before = page.view()->grab().toImage();
    page.view()->select(fwd);
    const QImage selected = page.view()->grab().toImage();
    // The selection colour appears far from the hub: its edges are drawn now.
    const QRectF hub(page.view()->toWidget(d->nodes[fwd].rect.topLeft()),
                     page.view()->toWidget(d->nodes[fwd].rect.bottomRight()));
    auto redOutside = [&](const QImage& image) {
      int n = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
          if (!hub.adjusted(-12, -12, 12, 12).contains(QPointF(x, y)) &&
              image.pixelColor(x, y) == QColor(0xd0, 0x30, 0x30))
            ++n;
      return n;
    };
    QCOMPARE(redOutside(before), 0);
    QVERIFY(redOutside(selected) > 50);
    selected.save(viewer_test::tmpDir(QStringLiteral("graph")) + "/model-hub-selected.png");
  }

  // A grouped graph too wide to fit with labels opens readable (from the top), and opening a
  // group brings its content into view readable; a whole graph still opens fitted; 0 fits.
  void aGroupedGraphOpensReadable() {
    auto row = [](bool grouped) {
      auto d = std::make_shared<GraphViewData>();
      d->grouped = grouped;
      for (int i = 0; i < 40; ++i) {
        GraphNode n;
        n.name = n.label = QStringLiteral("layer%1").arg(i);
        n.rect = QRectF(i * 160.0, 0, 150, 36);
        d->nodes.push_back(n);
      }
      d->bounds = QRectF(0, 0, 40 * 160.0, 36);
      return std::shared_ptr<const GraphViewData>(d);
    };
    GraphView view;
    view.resize(800, 500);
    view.show();
    view.setData(row(false));
    QVERIFY(view.scale() < 0.45); // fitted: too small for labels
    view.setData(row(true));
    QVERIFY(view.scale() >= 0.45);
    QVERIFY(view.toWidget(QPointF(0, 0)).y() >= 0); // the top row is in view
    QTest::keyClick(&view, Qt::Key_0);
    QVERIFY(view.scale() < 0.45);

    GraphPage page;
    QVERIFY(showModel(page));
    QVERIFY(openGroup(page, QStringLiteral("bwd")));
    QVERIFY(page.view()->scale() >= 0.45); // 87 blocks in a column, fitted, would have no text
    const GraphViewData* opened = page.view()->graphData();
    const int block0 = nodeNamed(*opened, QStringLiteral("bwd/block0"));
    QVERIFY(block0 >= 0);
    const QPointF c = page.view()->toWidget(opened->nodes[block0].rect.center());
    QVERIFY(page.view()->rect().contains(c.toPoint()));
  }

  // Headless: --graph-open and --graph-search render a group opened and a search's match;
  // a group that does not exist, or either option on another view, is a usage error.
  void screenshotsOpenAGroupAndLandOnASearch() {
    const QString dir = viewer_test::tmpDir(QStringLiteral("screenshots"));
    auto run = [](const QStringList& args, QString* errors) {
      QProcess p;
      p.start(viewer_test::viewerExecutable(), args);
      if (!p.waitForFinished(300000)) return -1;
      *errors = QString::fromUtf8(p.readAllStandardError());
      return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    };
    QString errors;
    const QString plain = dir + "/model-graph.png", opened = dir + "/model-graph-open.png",
                  found = dir + "/model-graph-search.png";
    const QStringList common{QStringLiteral("--view"), QStringLiteral("graph"),
                             QStringLiteral("--size"), QStringLiteral("1200x800")};
    QCOMPARE(run(QStringList{"--screenshot", plain} + common + QStringList{modelReport()}, &errors),
             0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    QCOMPARE(run(QStringList{"--screenshot", opened, "--graph-open", "bwd/block40"} + common +
                     QStringList{modelReport()},
                 &errors),
             0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    const QString deep = QString::fromStdString(
        tessera::bench::syntheticBackwardName(60, 1, "conv/ConvGradInput/Transpose"));
    QCOMPARE(run(QStringList{"--screenshot", found, "--graph-search", deep} + common +
                     QStringList{modelReport()},
                 &errors),
             0);
    QVERIFY2(errors.isEmpty(), qPrintable(errors));
    QVERIFY(QImage(plain) != QImage(opened));
    QVERIFY(QImage(opened) != QImage(found));
    QVERIFY(viewer_test::distinctColors(QImage(found)) > 8);
    QCOMPARE(run(QStringList{"--screenshot", dir + "/x.png", "--graph-open", "bwd/nosuch"} +
                     common + QStringList{modelReport()},
                 &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("bwd/nosuch")), qPrintable(errors));
    QCOMPARE(run(QStringList{"--screenshot", dir + "/x.png", "--graph-search", "fwd", "--view",
                             "memory", modelReport()},
                 &errors),
             2);
    QVERIFY2(errors.contains(QStringLiteral("--view graph")), qPrintable(errors));
    QVERIFY(!QFile::exists(dir + "/x.png"));
  }
};

QTEST_MAIN(GraphScaleTest)
#include "test_graph_scale.moc"
