// The Graph page: the serialized graph laid out by Graphviz, with node and edge counts checked
// against the file read independently (GraphOracle), search, selection signals, navigation,
// and the selection followed by the Operations and Memory pages.
#include "GraphOracle.hpp"
#include "ViewerTestUtil.hpp"
#include "charts/GraphView.hpp"
#include "charts/IndexChart.hpp"
#include "charts/MemoryChart.hpp"
#include "core/GraphData.hpp"
#include "core/GraphGroups.hpp"
#include "models/OperationsModel.hpp"
#include "widgets/GraphPage.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/MemoryPage.hpp"
#include "widgets/OperationsPage.hpp"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace tessera::viewer;

namespace {

QString graphFile(const QString& report) {
  return report + QStringLiteral("/serialized_graph.capnp");
}

std::shared_ptr<const GraphViewData> load(const QString& report) {
  auto doc = Document::resolve(report);
  Progress p = Progress::standalone(QStringLiteral("test"));
  return std::make_shared<const GraphViewData>(loadGraphView(*doc, p));
}

int nodeNamed(const GraphViewData& d, const QString& name) {
  for (int i = 0; i < d.nodes.size(); ++i)
    if (d.nodes[i].name == name) return i;
  return -1;
}

} // namespace

class GraphTest : public QObject {
  Q_OBJECT
private slots:
  void countsMatchTheSerializedGraph_data() {
    QTest::addColumn<QString>("report");
    QTest::newRow("mlp") << viewer_test::mlpReport();
    QTest::newRow("mlp-big") << viewer_test::mlpBigReport();
    QTest::newRow("pipeline") << viewer_test::pipelineReport();
    QTest::newRow("oom") << viewer_test::oomReport();
  }
  void countsMatchTheSerializedGraph() {
    QFETCH(QString, report);
    const viewer_test::RawGraph raw = viewer_test::readRawGraph(graphFile(report));
    QVERIFY(raw.computeSets > 0 && raw.edges > 0);
    const auto data = load(report);
    QVERIFY(data->present);
    QCOMPARE(data->computeSets, raw.computeSets);
    QCOMPARE(data->variables, raw.variables);
    QCOMPARE(int(data->nodes.size()), raw.computeSets + raw.variables);
    QCOMPARE(int(data->edges.size()), raw.edges);
    // Laid out: every node has a box inside the bounds, every edge a path, none overlapping
    // another node's box exactly (Graphviz separates them).
    for (const GraphNode& n : data->nodes) {
      QVERIFY2(!n.rect.isEmpty(), qPrintable(n.name));
      QVERIFY2(data->bounds.adjusted(-1, -1, 1, 1).contains(n.rect), qPrintable(n.name));
    }
    for (const GraphEdge& e : data->edges)
      QVERIFY(!e.path.isEmpty());
    for (int i = 1; i < data->nodes.size(); ++i)
      QVERIFY(!data->nodes[i].rect.intersects(data->nodes[0].rect));
    // A variable's tiles are its mapping's.
    for (const GraphNode& n : data->nodes) {
      if (n.kind != GraphNode::Kind::Variable) continue;
      QCOMPARE(n.tiles, tileRanges(raw.variableTiles.at(n.name)));
    }
  }

  void edgesFollowTheProgramsAccess() {
    // mlp: fwd/layer1/matmul/MatMul/Convolve reads "images" and writes its partials.
    const auto data = load(viewer_test::mlpReport());
    const int cs = nodeNamed(*data, QStringLiteral("fwd/layer1/matmul/MatMul/Convolve"));
    const int images = nodeNamed(*data, QStringLiteral("images"));
    const int partials = nodeNamed(*data, QStringLiteral("fwd/layer1/matmul/MatMul/partials"));
    QVERIFY(cs >= 0 && images >= 0 && partials >= 0);
    bool read = false, write = false;
    for (const GraphEdge& e : data->edges) {
      read |= e.from == images && e.to == cs && e.direction == GraphEdge::Direction::Read;
      write |= e.from == cs && e.to == partials && e.direction == GraphEdge::Direction::Write;
    }
    QVERIFY(read);
    QVERIFY(write);
  }

  void tileRangesJoinRuns() {
    QCOMPARE(tileRanges({0, 1, 2, 3, 7, 9, 10}), QStringLiteral("0-3,7,9-10"));
    QCOMPARE(tileRanges({}), QString());
    QCOMPARE(tileRanges({5}), QStringLiteral("5"));
  }

  void searchFindsAndSelectsNodes() {
    GraphPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const GraphViewData* data = page.view()->graphData();
    QVERIFY(data);
    QVERIFY(page.countsLabel()->text().contains(QString::number(data->edges.size()) + " edges"));
    QSignalSpy variables(&page, &GraphPage::variableSelected);
    // Typing searches; the first match is selected.
    QTest::keyClicks(page.searchEdit(), QStringLiteral("LAYER2/WEIGHTS"));
    const int weights = nodeNamed(*data, QStringLiteral("layer2/weights"));
    QVERIFY(weights >= 0);
    QCOMPARE(page.view()->selected(), weights);
    QVERIFY(!variables.isEmpty());
    QCOMPARE(variables.last().at(0).toString(), QStringLiteral("layer2/weights"));
    QCOMPARE(variables.last().at(1).toString(), data->nodes[weights].tiles);
    QVERIFY(page.detailsLabel()->text().contains(QStringLiteral("layer2/weights")));
    // Several matches: Enter steps forward and wraps around.
    const int n = page.search(QStringLiteral("MatMul/Convolve"));
    QCOMPARE(n, int(findNodes(*data, QStringLiteral("matmul/convolve")).size()));
    QVERIFY(n >= 2);
    const int first = page.view()->selected();
    page.stepMatch(true);
    QVERIFY(page.view()->selected() != first);
    for (int i = 1; i < n; ++i)
      page.stepMatch(true);
    QCOMPARE(page.view()->selected(), first);
    QCOMPARE(page.search(QStringLiteral("no such node")), 0);
  }

  void clickSelectsAndDragPans() {
    GraphPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::pipelineReport()));
    QVERIFY(viewer_test::waitReady(&page));
    GraphView* view = page.view();
    const GraphViewData* data = view->graphData();
    QSignalSpy selection(view, &GraphView::selectionChanged);
    QSignalSpy computeSets(&page, &GraphPage::computeSetSelected);
    const int target = 0; // a compute set: they come first
    const QPoint at = view->toWidget(data->nodes[target].rect.center()).toPoint();
    QCOMPARE(view->nodeAt(at), target);
    QTest::mouseClick(view, Qt::LeftButton, {}, at);
    QCOMPARE(view->selected(), target);
    QCOMPARE(selection.count(), 1);
    QCOMPARE(computeSets.count(), 1);
    QCOMPARE(computeSets.last().at(0).toString(), data->nodes[target].name);
    // Empty space clears the selection.
    QTest::mouseClick(view, Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(view->selected(), -1);
    // Zooming keeps the point under the pointer where it was.
    const QPointF graphPoint = view->toGraph(QPointF(300, 200));
    view->zoomBy(1.25 * 1.25, QPointF(300, 200));
    QVERIFY(std::abs(view->toWidget(graphPoint).x() - 300) < 0.01);
    QVERIFY(std::abs(view->toWidget(graphPoint).y() - 200) < 0.01);
    // Dragging pans by the distance dragged, selecting nothing.
    const QPointF before = view->origin();
    QTest::mousePress(view, Qt::LeftButton, {}, QPoint(400, 400));
    QMouseEvent move(QEvent::MouseMove, QPointF(450, 420), view->mapToGlobal(QPointF(450, 420)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view, &move);
    QTest::mouseRelease(view, Qt::LeftButton, {}, QPoint(450, 420));
    QVERIFY(std::abs((before - view->origin()).x() * view->scale() - 50) < 0.01);
    QCOMPARE(view->selected(), -1);
    // 0 fits the whole graph again.
    QTest::keyClick(view, Qt::Key_0);
    const QRectF shown(view->toGraph(QPointF(0, 0)),
                       view->toGraph(QPointF(view->width(), view->height())));
    QVERIFY(shown.contains(data->bounds));
  }

  void selectionIsFollowedByOperationsAndMemory() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto* operations = qobject_cast<OperationsPage*>(w.page(QStringLiteral("operations")));
    auto* memory = qobject_cast<MemoryPage*>(w.page(QStringLiteral("memory")));
    QVERIFY(w.showView(QStringLiteral("operations")));
    QVERIFY(viewer_test::waitReady(operations));
    QVERIFY(w.showView(QStringLiteral("memory")));
    QVERIFY(viewer_test::waitReady(memory));
    QVERIFY(w.showView(QStringLiteral("graph")));
    auto* graph = qobject_cast<GraphPage*>(w.currentPage());
    QVERIFY(graph);
    QVERIFY(viewer_test::waitReady(graph));
    const GraphViewData* data = graph->view()->graphData();
    const int weights = nodeNamed(*data, QStringLiteral("layer1/weights"));
    QVERIFY(weights >= 0);
    graph->view()->select(weights);
    // Operations: the row now selected is an operation holding that variable.
    const QModelIndexList rows = operations->table()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    const OperationInfo* op = operations->model()->operationAt(rows.first().row());
    QVERIFY(op);
    bool holds = false;
    for (const auto& v : op->variables)
      holds |= v.name == QStringLiteral("layer1/weights");
    QVERIFY2(holds, qPrintable(op->name));
    // Memory: the tiles the variable is mapped to.
    const viewer_test::RawGraph raw =
        viewer_test::readRawGraph(graphFile(viewer_test::mlpReport()));
    const auto& tiles = raw.variableTiles.at(QStringLiteral("layer1/weights"));
    const auto& selected = memory->chart()->selection();
    QCOMPARE(std::set<unsigned>(selected.begin(), selected.end()), tiles);
  }

  // Selecting a variable spread over many tiles writes its tile list in the Graph view and on
  // Memory; no word wrap can break "0,2,4,…", and the window must keep its width.
  void aSelectionOfManyTilesKeepsTheWindowWidth() {
    MainWindow w;
    w.resize(1400, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto* memory = qobject_cast<MemoryPage*>(w.page(QStringLiteral("memory")));
    QVERIFY(w.showView(QStringLiteral("memory")));
    QVERIFY(viewer_test::waitReady(memory));
    QTest::qWait(50);
    const int width = w.width();
    QCOMPARE(width, 1400);
    QVERIFY(w.showView(QStringLiteral("graph")));
    auto* graph = qobject_cast<GraphPage*>(w.currentPage());
    QVERIFY(viewer_test::waitReady(graph));
    // The node with the longest tile list.
    const GraphViewData* data = graph->view()->graphData();
    int longest = 0;
    for (int n = 0; n < int(data->nodes.size()); ++n)
      if (data->nodes[std::size_t(n)].tiles.size() > data->nodes[std::size_t(longest)].tiles.size())
        longest = n;
    graph->view()->select(longest);
    // And a list no mapping of the sample is as long as: every other tile.
    QStringList everyOther;
    for (unsigned t = 0; t < memory->chart()->numTiles(); t += 2)
      everyOther << QString::number(t);
    QVERIFY(everyOther.join(QLatin1Char(',')).size() > 2000);
    QVERIFY(memory->selectTiles(everyOther.join(QLatin1Char(','))));
    QVERIFY(w.showView(QStringLiteral("memory")));
    QTest::qWait(50);
    QCOMPARE(w.width(), width);
    QVERIFY2(w.minimumSizeHint().width() <= width,
             qPrintable(QString::number(w.minimumSizeHint().width())));
    QVERIFY(w.showView(QStringLiteral("graph")));
    QTest::qWait(50);
    QCOMPARE(w.width(), width);
  }

  void aSearchDoesNotOutliveItsDocument() {
    GraphPage page;
    page.resize(1000, 700);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    auto* search = page.findChild<QLineEdit*>(QStringLiteral("graphSearch"));
    QTest::keyClicks(search, QStringLiteral("weights"));
    QSignalSpy variables(&page, &GraphPage::variableSelected),
        computeSets(&page, &GraphPage::computeSetSelected);
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(search->text().isEmpty());
    QCOMPARE(variables.count() + computeSets.count(),
             0); // nothing selected in the new document unasked
  }

  void aReportWithoutAGraphSaysHowToWriteOne() {
    const QString dir = viewer_test::tmpDir(QStringLiteral("no-graph"));
    QVERIFY(QFile::copy(viewer_test::mlpReport() + "/profile.pop", dir + "/profile.pop"));
    GraphPage page;
    page.show(); // the graph is read only for a page that shows
    QSignalSpy errors(&page, &Page::errorOccurred);
    page.setDocument(Document::resolve(dir));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(errors.isEmpty());
    QVERIFY(!page.view()->graphData());
    QVERIFY(page.findChildren<QLabel*>().size() > 0);
    bool said = false;
    for (QLabel* l : page.findChildren<QLabel*>())
      said |= l->text().contains("autoReport.outputSerializedGraph");
    QVERIFY(said);
  }

  void aCorruptedGraphIsAnErrorNamingTheFile() {
    const QString dir = viewer_test::tmpDir(QStringLiteral("bad-graph"));
    QVERIFY(QFile::copy(viewer_test::mlpReport() + "/profile.pop", dir + "/profile.pop"));
    QFile bad(dir + "/serialized_graph.capnp");
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QByteArray(24, '\x7f'));
    bad.close();
    GraphPage page;
    page.show();
    QSignalSpy errors(&page, &Page::errorOccurred);
    page.setDocument(Document::resolve(dir));
    QVERIFY(errors.wait(30000));
    QVERIFY(errors.first().at(0).toString().contains(dir + "/serialized_graph.capnp"));
    QVERIFY(!page.isReady());
  }

  // At model scale the graph opens by layers and operations (groups of the name paths), each
  // laid out only as it shows. The MLP's graph, told to group above 20 nodes, shows the same.
  void aLargeGraphOpensByGroupsAndExpandsOnDemand() {
    GraphPage page;
    page.resize(1200, 800);
    page.setWholeGraphNodes(20);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const GraphViewData* full = page.fullGraph();
    const GraphGroups* groups = page.groups();
    QVERIFY(full && groups);
    const GraphViewData* shown = page.view()->graphData();
    QVERIFY(shown->grouped && shown->groupsShown > 0);
    QVERIFY(shown->nodes.size() < full->nodes.size());
    QVERIFY(shown->nodes.size() <= kFirstViewNodes);
    // Every node of the whole graph is shown as itself or by the one closed group holding it.
    for (int leaf = 0; leaf < full->nodes.size(); ++leaf) {
      const int node = shown->shownNodeOf(leaf);
      QVERIFY(node >= 0);
      const GraphNode& n = shown->nodes[node];
      if (n.kind == GraphNode::Kind::Group)
        QVERIFY2(full->nodes[leaf].name.startsWith(n.name + QLatin1Char('/')),
                 qPrintable(full->nodes[leaf].name + " in " + n.name));
      else
        QCOMPARE(n.name, full->nodes[leaf].name);
    }
    // A group counts what is under it; its edges are the whole graph's, merged.
    int groupNode = -1;
    for (int i = 0; i < shown->nodes.size() && groupNode < 0; ++i)
      if (shown->nodes[i].kind == GraphNode::Kind::Group) groupNode = i;
    QVERIFY(groupNode >= 0);
    const GraphGroups::Group& g = groups->groups[std::size_t(shown->nodes[groupNode].index)];
    int under = 0;
    for (const GraphNode& n : full->nodes)
      under += n.name.startsWith(g.path + QLatin1Char('/')) ? 1 : 0;
    QCOMPARE(g.computeSets + g.variables, under);
    for (const GraphEdge& e : full->edges) {
      const int from = shown->shownNodeOf(e.from), to = shown->shownNodeOf(e.to);
      if (from == to) continue;
      bool found = false;
      for (const GraphEdge& s : shown->edges)
        found |= s.from == from && s.to == to;
      QVERIFY(found);
    }
    // Double-clicking the group opens it: a new layout where its content shows.
    const QString path = shown->nodes[groupNode].name;
    const QPoint at = page.view()->toWidget(shown->nodes[groupNode].rect.center()).toPoint();
    QTest::mouseDClick(page.view(), Qt::LeftButton, {}, at);
    QVERIFY(QTest::qWaitFor([&] { return page.view()->graphData() != shown; }, 30000));
    const GraphViewData* opened = page.view()->graphData();
    for (const GraphNode& n : opened->nodes) // no longer one node
      QVERIFY(!(n.kind == GraphNode::Kind::Group && n.name == path));
    int inside = 0;
    for (const GraphNode& n : opened->nodes)
      inside += n.name.startsWith(path + QLatin1Char('/')) ? 1 : 0;
    QVERIFY(inside >= 1);
    // Searching for a name inside a closed group opens the groups around it and selects it.
    const QString deep = QStringLiteral("bwd/layer1/dWeights/MatMul/output");
    if (nodeNamed(*full, deep) >= 0) {
      page.search(deep);
      QVERIFY(QTest::qWaitFor(
          [&] {
            const GraphViewData* d = page.view()->graphData();
            const int sel = page.view()->selected();
            return sel >= 0 && d->nodes[sel].kind != GraphNode::Kind::Group &&
                   d->nodes[sel].name.contains(deep, Qt::CaseInsensitive);
          },
          30000));
    }
    // Double-clicking a compute set or variable closes the group it lies in.
    const GraphViewData* before = page.view()->graphData();
    int leafNode = -1;
    for (int i = 0; i < before->nodes.size() && leafNode < 0; ++i) {
      const int leaf = before->leafOf(i);
      if (leaf < 0 || !before->nodes[i].name.contains(QLatin1Char('/'))) continue;
      const auto& group = groups->groups[std::size_t(groups->groupOfLeaf[std::size_t(leaf)])];
      if (group.leaves.size() + group.groups.size() >= 2)
        leafNode = i; // closing it shows fewer nodes
    }
    QVERIFY(leafNode >= 0);
    QVERIFY(page.activate(leafNode));
    QVERIFY(QTest::qWaitFor([&] { return page.view()->graphData() != before; }, 30000));
    QVERIFY(page.view()->graphData()->nodes.size() < before->nodes.size());
  }

  // Opening everything at once is refused beyond what Graphviz lays out in time, saying why.
  void groupsNeverShowMoreThanTheLayoutLimit() {
    const auto doc = Document::resolve(viewer_test::mlpBigReport());
    Progress p = Progress::standalone(QStringLiteral("test"));
    const GraphViewData full = readGraph(*doc, p);
    const GraphGroups groups = groupByPath(full);
    // Every group open is the whole graph, node for node.
    std::set<int> all;
    for (int g = 0; g < int(groups.groups.size()); ++g)
      all.insert(g);
    const GraphViewData whole = shownGraph(full, groups, all);
    QVERIFY(!whole.grouped);
    QCOMPARE(whole.nodes.size(), full.nodes.size());
    QCOMPARE(shownNodes(groups, all), int(full.nodes.size()));
    // Only the top open: fewer nodes, each leaf held by exactly one shown node.
    const GraphViewData top = shownGraph(full, groups, {0});
    QVERIFY(top.grouped);
    QCOMPARE(shownNodes(groups, {0}), int(top.nodes.size()));
    int leaves = 0;
    for (const GraphNode& n : top.nodes)
      leaves += n.kind == GraphNode::Kind::Group ? groups.groups[std::size_t(n.index)].computeSets +
                                                       groups.groups[std::size_t(n.index)].variables
                                                 : 1;
    QCOMPARE(leaves, int(full.nodes.size()));
  }

  void rendersTheGraph() {
    GraphPage page;
    page.resize(1000, 700);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const QImage image = page.view()->grab().toImage();
    QVERIFY(viewer_test::distinctColors(image) > 8);
    // A search selects and highlights; the selection is drawn in its own colour (red outline).
    QVERIFY(page.search(QStringLiteral("weights")) >= 2);
    const QImage searched = page.view()->grab().toImage();
    QVERIFY(searched != image);
    bool red = false;
    for (int y = 0; y < searched.height() && !red; y += 2)
      for (int x = 0; x < searched.width() && !red; ++x)
        red |= searched.pixelColor(x, y) == QColor(0xd0, 0x30, 0x30);
    QVERIFY(red);
    searched.save(viewer_test::tmpDir(QStringLiteral("graph")) + "/mlp-big-search-weights.png");
  }
};

QTEST_MAIN(GraphTest)
#include "test_graph.moc"
