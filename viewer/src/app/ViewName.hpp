// Checks of the --view value that need no document: a path typed where the view name belongs
// (`--view reports/mlp`, the name forgotten) must be reported as such, not as a missing document.
#pragma once

#include <QString>

namespace tessera::viewer {

/// Empty when `name` can be a view name; otherwise the usage error to print.
QString viewNameProblem(const QString& name);

/// The hint added when a view cannot be shown for the document: the compare view needs
/// --compare and two reports. Empty for other views.
QString viewHint(const QString& view, bool comparing);

} // namespace tessera::viewer
