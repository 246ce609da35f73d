// One selection per document session; re-entrant publishing (a page selecting because another
// page's selection reached it) is dropped, so a selection never bounces between pages.
#include "core/SelectionModel.hpp"

namespace tessera::viewer {

void SelectionModel::select(Selection selection) {
  if (publishing_) return;
  publishing_ = true;
  current_ = std::move(selection);
  emit changed(current_);
  publishing_ = false;
}

} // namespace tessera::viewer
