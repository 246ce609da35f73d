// The pages, in the order the side list shows them.
#include "widgets/PageRegistry.hpp"

#include "widgets/ComparePage.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/GraphPage.hpp"
#include "widgets/HostTracePage.hpp"
#include "widgets/InsightsPage.hpp"
#include "widgets/LivenessPage.hpp"
#include "widgets/MemoryPage.hpp"
#include "widgets/OperationsPage.hpp"
#include "widgets/ProgramTreePage.hpp"
#include "widgets/SummaryPage.hpp"
#include "widgets/TileMapPage.hpp"

namespace tessera::viewer {

std::vector<Page*> createPages(QWidget* parent) {
  return {
      new SummaryPage(parent),     new InsightsPage(parent),   new HostTracePage(parent),
      new MemoryPage(parent),      new LivenessPage(parent),   new TileMapPage(parent),
      new ProgramTreePage(parent), new OperationsPage(parent), new ExecutionPage(parent),
      new GraphPage(parent),       new ComparePage(parent),
  };
}

} // namespace tessera::viewer
