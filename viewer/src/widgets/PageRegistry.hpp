// Every page of the viewer, in side-list order. A new page is one line in PageRegistry.cpp.
#pragma once

#include <vector>

class QWidget;

namespace tessera::viewer {

class Page;

/// Creates one of each page, parented to `parent`.
std::vector<Page*> createPages(QWidget* parent);

} // namespace tessera::viewer
