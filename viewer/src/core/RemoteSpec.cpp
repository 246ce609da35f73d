// Telling "host:/path" from a local path.
#include "core/RemoteSpec.hpp"

#include <QFileInfo>

namespace tessera::viewer {

std::optional<RemoteSpec> RemoteSpec::parse(const QString& text) {
  if (text.contains(QLatin1String("://")) || QFileInfo::exists(text)) return std::nullopt;
  const qsizetype colon = text.indexOf(QLatin1Char(':'));
  if (colon < 2 || colon + 1 >= text.size()) return std::nullopt;
  const QString host = text.left(colon);
  if (host.contains(QLatin1Char('/')) || host.startsWith(QLatin1Char('-')) ||
      host.contains(QLatin1Char(' ')) || host.endsWith(QLatin1Char('@')))
    return std::nullopt;
  return RemoteSpec{host, text.mid(colon + 1)};
}

} // namespace tessera::viewer
