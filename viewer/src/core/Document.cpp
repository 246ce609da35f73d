// Resolving what the user opened into report or trace files.
#include "core/Document.hpp"

#include <QDir>
#include <QFileInfo>
#include <pva/Exception.hpp>
#include <pva/Job.hpp>

namespace tessera::viewer {

namespace {

[[noreturn]] void fail(const QString& path, const QString& problem) {
  throw DocumentError((path + QStringLiteral(": ") + problem).toStdString());
}

QString debugBeside(const QString& profile) {
  const QString debug = QFileInfo(profile).dir().filePath(QStringLiteral("debug.cbor"));
  return QFileInfo(debug).isFile() ? debug : QString();
}

} // namespace

std::shared_ptr<const Document> Document::resolve(const QString& path, unsigned instance) {
  auto doc = std::make_shared<Document>();
  doc->source_ = path;
  const QFileInfo info(path);
  if (!info.exists()) fail(path, QStringLiteral("no such file or directory"));
  if (info.isDir() && pva::isJobDirectory(path.toStdString())) {
    // A job folder: libpva finds every instance's files and checks that their reports belong to
    // one job (reading only each report's place in it); only the shown one is opened whole.
    std::vector<pva::JobInstanceFiles> instances;
    try {
      instances = pva::validateJob(path.toStdString());
    } catch (const pva::Exception& e) {
      throw DocumentError(e.what());
    }
    if (instance >= instances.size())
      fail(path, QStringLiteral("has %1 instance(s); there is no instance %2")
                     .arg(instances.size())
                     .arg(instance));
    doc->instanceCount_ = doc->jobInstances_ = unsigned(instances.size());
    doc->instanceIndex_ = instance;
    doc->profile_ = QString::fromStdString(instances[instance].profile);
    for (const pva::JobInstanceFiles& in : instances)
      for (const std::string& trace : in.traces)
        doc->hostTraces_.push_back(
            {QString::fromStdString(trace),
             in.traces.size() == 1
                 ? QStringLiteral("instance %1").arg(in.index)
                 : QStringLiteral("instance %1: %2")
                       .arg(in.index)
                       .arg(QFileInfo(QString::fromStdString(trace)).fileName())});
  } else if (info.isDir()) {
    const QDir dir(path);
    if (QFileInfo(dir.filePath(QStringLiteral("profile.pop"))).isFile()) {
      doc->profile_ = dir.filePath(QStringLiteral("profile.pop"));
    } else {
      const QStringList traces = dir.entryList({QStringLiteral("*.pvti")}, QDir::Files, QDir::Name);
      if (traces.size() == 1) {
        doc->kind_ = Kind::Trace;
        doc->trace_ = dir.filePath(traces.front());
      } else if (traces.size() > 1) {
        fail(path, QStringLiteral(
                       "holds %1 host traces (.pvti) and no profile.pop; open one of the traces")
                       .arg(traces.size()));
      } else {
        fail(path, QStringLiteral("holds no profile.pop and no .pvti trace"));
      }
    }
  } else if (info.suffix() == QLatin1String("pvti")) {
    doc->kind_ = Kind::Trace;
    doc->trace_ = path;
  } else if (info.suffix() == QLatin1String("cbor")) {
    doc->profile_ = info.dir().filePath(QStringLiteral("profile.pop"));
    if (!QFileInfo(doc->profile_).isFile())
      fail(path, QStringLiteral("debug information without a profile.pop beside it"));
  } else {
    doc->profile_ = path;
  }

  if (doc->isReport()) {
    doc->debug_ = debugBeside(doc->profile_);
    try {
      // Opening checks the header, version and debug match now, not on some page later.
      doc->session_ = std::make_shared<const Session>(doc->profile_, doc->debug_);
    } catch (const pva::Exception& e) {
      throw DocumentError(e.what());
    }
  } else if (!QFileInfo(doc->trace_).isReadable()) {
    fail(doc->trace_, QStringLiteral("cannot be read"));
  } else {
    doc->hostTraces_ = {{doc->trace_, QFileInfo(doc->trace_).fileName()}};
  }
  return doc;
}

std::shared_ptr<const Document> Document::traces(const QStringList& paths) {
  if (paths.isEmpty()) throw DocumentError("no host trace given");
  if (paths.size() == 1) return resolve(paths.front());
  auto doc = std::make_shared<Document>();
  doc->kind_ = Kind::Trace;
  doc->source_ = paths.front();
  doc->trace_ = paths.front();
  for (const QString& path : paths) {
    const QFileInfo info(path);
    if (!info.exists()) fail(path, QStringLiteral("no such file"));
    if (!info.isFile() || info.suffix() != QLatin1String("pvti"))
      fail(path, QStringLiteral("is not a host trace (.pvti): several files open together only "
                                "when each is a trace"));
    if (!info.isReadable()) fail(path, QStringLiteral("cannot be read"));
    doc->hostTraces_.push_back({path, info.fileName()});
  }
  return doc;
}

std::shared_ptr<const Document>
Document::comparison(const QString& basePath, const QString& currentPath, unsigned instance) {
  const bool baseJob = QFileInfo(basePath).isDir() && pva::isJobDirectory(basePath.toStdString());
  const bool currentJob =
      QFileInfo(currentPath).isDir() && pva::isJobDirectory(currentPath.toStdString());
  if (baseJob != currentJob)
    fail(baseJob ? currentPath : basePath,
         QStringLiteral("is not a job folder (it has no instance_0/): compare a job folder with "
                        "another job folder"));
  auto base = resolve(basePath, instance);
  auto current = resolve(currentPath, instance);
  if (!base->isReport())
    fail(basePath, QStringLiteral("is a host trace; only reports can be compared"));
  if (!current->isReport())
    fail(currentPath, QStringLiteral("is a host trace; only reports can be compared"));
  auto doc = std::make_shared<Document>(*current);
  doc->hostTraces_.clear(); // compare mode has no Host trace view
  if (baseJob) {
    // Instance i with instance i, as pva compare and Python pair them: the selector offers the
    // instances both jobs have, and the Compare view says what is left out.
    const pva::JobPairing pairing =
        pva::pairJobInstances(base->instanceCount_, current->instanceCount_);
    doc->instanceCount_ = pairing.paired();
    doc->instanceMismatch_ = QString::fromStdString(pairing.mismatch());
  }
  doc->base_ = std::move(base);
  return doc;
}

std::shared_ptr<const Document> Document::withInstance(unsigned instance) const {
  if (!isJob())
    throw DocumentError(
        (source_ + QStringLiteral(": not a job folder; it has no instances to choose from"))
            .toStdString());
  if (instance >= instanceCount_)
    fail(
        source_,
        QStringLiteral("instance %1 is not one of the %2 shown").arg(instance).arg(instanceCount_));
  return base_ ? comparison(base_->sourcePath(), source_, instance) : resolve(source_, instance);
}

QString Document::instanceText() const {
  if (!isJob()) return {};
  return base_ ? QStringLiteral("Instance %1 of both jobs (%2 paired)")
                     .arg(instanceIndex_)
                     .arg(instanceCount_)
               : QStringLiteral("Instance %1 of %2").arg(instanceIndex_).arg(instanceCount_);
}

QString Document::displayName() const {
  if (isTrace() && hostTraces_.size() > 1) {
    QStringList names;
    for (const HostTrace& t : hostTraces_)
      names << t.group;
    return names.join(QStringLiteral(" + "));
  }
  const QFileInfo info(source_);
  QString name =
      info.isDir() ? info.absoluteFilePath() : (isTrace() ? info.fileName() : info.absolutePath());
  return QDir::toNativeSeparators(name);
}

QString Document::title() const {
  const QString names =
      base_ ? base_->displayName() + QStringLiteral(" → ") + displayName() : displayName();
  // A job's views show one instance: the title says which.
  return isJob() ? names + QStringLiteral(" (") + instanceText().toLower() + QLatin1Char(')')
                 : names;
}

} // namespace tessera::viewer
