// Resolving what the user opened into report or trace files.
#include "core/Document.hpp"

#include <pva/Exception.hpp>

#include <QDir>
#include <QFileInfo>

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
  doc->m_source = path;
  const QFileInfo info(path);
  if (!info.exists()) fail(path, QStringLiteral("no such file or directory"));
  if (info.isDir()) {
    const QDir dir(path);
    if (QFileInfo(dir.filePath(QStringLiteral("profile.pop"))).isFile()) {
      doc->m_profile = dir.filePath(QStringLiteral("profile.pop"));
    } else {
      const QStringList traces = dir.entryList({QStringLiteral("*.pvti")}, QDir::Files, QDir::Name);
      if (traces.size() == 1) {
        doc->m_kind = Kind::Trace;
        doc->m_trace = dir.filePath(traces.front());
      } else if (traces.size() > 1) {
        fail(path, QStringLiteral("holds %1 host traces (.pvti) and no profile.pop; open one of the traces").arg(traces.size()));
      } else {
        fail(path, QStringLiteral("holds no profile.pop and no .pvti trace"));
      }
    }
  } else if (info.suffix() == QLatin1String("pvti")) {
    doc->m_kind = Kind::Trace;
    doc->m_trace = path;
  } else if (info.suffix() == QLatin1String("cbor")) {
    doc->m_profile = info.dir().filePath(QStringLiteral("profile.pop"));
    if (!QFileInfo(doc->m_profile).isFile())
      fail(path, QStringLiteral("debug information without a profile.pop beside it"));
  } else {
    doc->m_profile = path;
  }

  if (doc->isReport()) {
    doc->m_debug = debugBeside(doc->m_profile);
    try {
      doc->openReport(); // checks the header, version and debug match now, not on some page later
    } catch (const pva::Exception& e) {
      throw DocumentError(e.what());
    }
  } else if (!QFileInfo(doc->m_trace).isReadable()) {
    fail(doc->m_trace, QStringLiteral("cannot be read"));
  }
  return doc;
}

std::shared_ptr<const Document> Document::comparison(const QString& basePath, const QString& currentPath) {
  auto base = resolve(basePath);
  auto current = resolve(currentPath);
  if (!base->isReport()) fail(basePath, QStringLiteral("is a host trace; only reports can be compared"));
  if (!current->isReport()) fail(currentPath, QStringLiteral("is a host trace; only reports can be compared"));
  auto doc = std::make_shared<Document>(*current);
  doc->m_base = std::move(base);
  return doc;
}

QString Document::displayName() const {
  const QFileInfo info(m_source);
  QString name = info.isDir() ? info.absoluteFilePath() : (isTrace() ? info.fileName() : info.absolutePath());
  return QDir::toNativeSeparators(name);
}

QString Document::title() const {
  return m_base ? m_base->displayName() + QStringLiteral(" → ") + displayName() : displayName();
}

pva::Report Document::openReport() const {
  const std::string profile = m_profile.toStdString();
  return m_debug.isEmpty() ? pva::openReport(profile) : pva::openReport(profile, m_debug.toStdString());
}


} // namespace tessera::viewer
