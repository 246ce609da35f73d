// What the user opened: a report (profile.pop, with debug.cbor when it lies beside it), a host
// trace (.pvti), or two reports to compare; a poprun job folder is one of its instances' reports
// at a time (instanceIndex(), switched with withInstance()), and two jobs compare instance by
// instance. Resolving checks that the files exist and that a
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
#include <vector>

namespace tessera::viewer {

/// A path that cannot be opened; the message names the path and the problem.
class DocumentError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// One host trace (.pvti) of a document, and the lane group it is drawn in when there are
/// several ("instance 1" for a job's, the file's name for traces given together).
struct HostTrace {
  QString path, group;
};

class Document {
public:
  enum class Kind { Report, Trace };

  /// Accepts a directory holding profile.pop (or a single .pvti), a profile.pop, a debug.cbor
  /// (the profile.pop beside it is opened), a .pvti, or a poprun job folder (instance_0/,
  /// instance_1/ ...: the report of instance `instance` is opened, the others are not).
  /// Throws DocumentError (also for an instance the job does not have).
  static std::shared_ptr<const Document> resolve(const QString& path, unsigned instance = 0);
  /// Two reports; pages that can compare show `current` against `base`. Two job folders compare
  /// instance `instance` of each (pva::pairJobInstances: instance i with instance i). Throws
  /// DocumentError when either is not a report, one is a job and the other not, or `instance`
  /// is past the instances both jobs have.
  /// Several host traces shown on one time axis (tessera-viewer a.pvti b.pvti): a trace
  /// document whose hostTraces() are `paths`, each its own lane group. Throws DocumentError
  /// naming a path that is not a readable .pvti.
  static std::shared_ptr<const Document> traces(const QStringList& paths);
  static std::shared_ptr<const Document>
  comparison(const QString& basePath, const QString& currentPath, unsigned instance = 0);

  /// A job folder's document: its instance count (both sides' pairs in compare mode), else 0.
  bool isJob() const { return instanceCount_ > 0; }
  unsigned instanceCount() const { return instanceCount_; }
  /// This side's job folder's own instance count (instanceCount() is the pairs' in compare mode).
  unsigned instanceTotal() const { return jobInstances_; }
  /// The instance shown (0 for a document that is not a job).
  unsigned instanceIndex() const { return instanceIndex_; }
  /// The same document showing instance `instance` (both sides in compare mode). Throws
  /// DocumentError as resolve does.
  std::shared_ptr<const Document> withInstance(unsigned instance) const;
  /// "Instance 1 of 2" (or "Instance 1 of each job's 2"); empty for a document that is not a job.
  QString instanceText() const;
  /// Compare mode of jobs whose instance counts differ: libpva's words for what is compared
  /// (pva::JobPairing::mismatch); empty otherwise.
  const QString& instanceMismatch() const { return instanceMismatch_; }

  Kind kind() const { return kind_; }
  bool isReport() const { return kind_ == Kind::Report; }
  bool isTrace() const { return kind_ == Kind::Trace; }
  /// Reports only: the report this one is compared against, or null.
  const std::shared_ptr<const Document>& base() const { return base_; }

  const QString& profilePath() const { return profile_; }
  const QString& debugPath() const { return debug_; } ///< empty without debug information
  const QString& tracePath() const { return trace_; }
  /// The host traces the Host trace view lays on one time axis: a trace document's (one, or
  /// several given together), a job's instances' .pvti files (each in group "instance i"); empty
  /// for a report and in compare mode.
  const std::vector<HostTrace>& hostTraces() const { return hostTraces_; }
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
  unsigned instanceCount_ = 0, instanceIndex_ = 0, jobInstances_ = 0;
  QString instanceMismatch_;
  std::vector<HostTrace> hostTraces_;
};

} // namespace tessera::viewer
