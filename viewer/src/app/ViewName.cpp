#include "app/ViewName.hpp"

namespace tessera::viewer {

QString viewNameProblem(const QString& name) {
  // View names are short words; a separator or a report or trace suffix means the user gave a
  // path and left out the view's name. (A bare word that is also a directory here, "mlp", is
  // left to the "no view" message, which lists the views.)
  const bool looksLikePath = name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\')) ||
                             name.endsWith(QLatin1String(".pop")) ||
                             name.endsWith(QLatin1String(".pvti")) ||
                             name.endsWith(QLatin1String(".cbor"));
  if (name.isEmpty()) return QStringLiteral("--view needs a view name");
  if (looksLikePath)
    return QStringLiteral("--view needs a view name before the path; '%1' is a path "
                          "(views: summary, insights, memory, liveness, tilemap, programs, "
                          "operations, execution, graph, trace, compare)")
        .arg(name);
  return {};
}

QString viewHint(const QString& view, bool comparing) {
  if (view == QLatin1String("compare") && !comparing)
    return QStringLiteral("; it needs two reports: --compare BASE CURRENT");
  return {};
}

} // namespace tessera::viewer
