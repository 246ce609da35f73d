// A report on another machine, named as scp and PopVision Graph Analyser name it:
// "[user@]host:/path/to/report" (a report directory, its profile.pop, or a .pvti).
#pragma once

#include <QString>
#include <optional>

namespace tessera::viewer {

struct RemoteSpec {
  QString host; ///< "user@host" or "host": what ssh is given (so ~/.ssh/config aliases work)
  QString path; ///< on that machine, as typed (absolute, or relative to the login directory)

  /// "host:/path", as typed on the command line and kept in the recent files.
  QString text() const { return host + QLatin1Char(':') + path; }

  /// A remote spec, or nothing for a local path: a path that exists here is local whatever it
  /// looks like; otherwise "host:path" with a host of at least two characters holding no '/'
  /// (so "C:/x" and "./a:b" stay local) and a non-empty path.
  static std::optional<RemoteSpec> parse(const QString& text);
};

} // namespace tessera::viewer
