// Resolving what the user opened into report or trace files.
#include "core/Document.hpp"

#include <QDir>
#include <QFileInfo>
#include <pva/Exception.hpp>

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

std::shared_ptr<const Document> Document::resolve(const QString& path) {
  auto doc = std::make_shared<Document>();
  doc->source_ = path;
  const QFileInfo info(path);
  if (!info.exists()) fail(path, QStringLiteral("no such file or directory"));
  if (info.isDir()) {
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
  }
  return doc;
}

std::shared_ptr<const Document> Document::comparison(const QString& basePath,
                                                     const QString& currentPath) {
  auto base = resolve(basePath);
  auto current = resolve(currentPath);
  if (!base->isReport())
    fail(basePath, QStringLiteral("is a host trace; only reports can be compared"));
  if (!current->isReport())
    fail(currentPath, QStringLiteral("is a host trace; only reports can be compared"));
  auto doc = std::make_shared<Document>(*current);
  doc->base_ = std::move(base);
  return doc;
}

QString Document::displayName() const {
  const QFileInfo info(source_);
  QString name =
      info.isDir() ? info.absoluteFilePath() : (isTrace() ? info.fileName() : info.absolutePath());
  return QDir::toNativeSeparators(name);
}

QString Document::title() const {
  return base_ ? base_->displayName() + QStringLiteral(" → ") + displayName() : displayName();
}

} // namespace tessera::viewer
