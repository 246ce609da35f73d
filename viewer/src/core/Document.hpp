// What the user opened: a report (profile.pop, with debug.cbor when it lies beside it), a host
// trace (.pvti), or two reports to compare. Resolving checks that the files exist and that a
// report opens, so a bad path is reported at once, naming the file and the problem.
//
// A report document has one Session (core/Session.hpp): the one pva::Report all its pages read
// (pva::Report is thread-safe) and the derivations they share, each run once. Copies of a
// Document (the current side of a comparison) share the session.
#pragma once

#include "core/Session.hpp"

#include <QString>
#include <memory>
#include <pva/Exception.hpp>
#include <pva/Report.hpp>
#include <stdexcept>

namespace tessera::viewer {

/// A path that cannot be opened; the message names the path and the problem.
class DocumentError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class Document {
public:
  enum class Kind { Report, Trace };

  /// Accepts a directory holding profile.pop (or a single .pvti), a profile.pop, a debug.cbor
  /// (the profile.pop beside it is opened) or a .pvti. Throws DocumentError.
  static std::shared_ptr<const Document> resolve(const QString& path);
  /// Two reports; pages that can compare show `current` against `base`. Throws DocumentError
  /// when either is not a report.
  static std::shared_ptr<const Document> comparison(const QString& basePath,
                                                    const QString& currentPath);

  Kind kind() const { return kind_; }
  bool isReport() const { return kind_ == Kind::Report; }
  bool isTrace() const { return kind_ == Kind::Trace; }
  /// Reports only: the report this one is compared against, or null.
  const std::shared_ptr<const Document>& base() const { return base_; }

  const QString& profilePath() const { return profile_; }
  const QString& debugPath() const { return debug_; } ///< empty without debug information
  const QString& tracePath() const { return trace_; }
  /// What the user picked (a directory or a file), for titles and the recent list.
  const QString& sourcePath() const { return source_; }
  /// The report's directory or the trace's file name.
  QString displayName() const;
  /// For window titles: displayName(), or "base → current" when comparing.
  QString title() const;

  /// Reports only: the document's one reader, shared by every page and thread.
  const pva::Report& report() const { return session_->report(); }
  /// Reports only: the derivations every page shares (core/Session.hpp).
  const Session& session() const { return *session_; }

private:
  Kind kind_ = Kind::Report;
  QString source_, profile_, debug_, trace_;
  std::shared_ptr<const Document> base_;
  std::shared_ptr<const Session> session_;
};

} // namespace tessera::viewer
