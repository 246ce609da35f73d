// Listing a remote report and copying what changed into the cache, over the system's ssh.
#include "core/RemoteFetch.hpp"

#include "core/Format.hpp"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTextStream>
#include <algorithm>
#include <map>

namespace tessera::viewer {

namespace {

const QString kManifest = QStringLiteral(".tessera-remote");

/// A string quoted for a POSIX shell: 'it'\''s'.
QString shellQuote(const QString& s) {
  QString quoted = s;
  quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
  return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

/// Run by the remote login shell: says whether the path is a directory or a file, the
/// directory's absolute path, and each file a report needs with its size and mtime (GNU stat,
/// as on the Linux IPU hosts). Markers rather than exit codes: ssh's own failures exit 255.
QString listingScript(const QString& path) {
  return QStringLiteral(
             "p=%1; "
             "if [ -d \"$p\" ]; then d=\"$p\"; echo 'kind\tdir'; "
             "elif [ -f \"$p\" ]; then d=$(dirname -- \"$p\"); echo 'kind\tfile'; "
             "else echo 'tessera-remote\tmissing'; exit 0; fi; "
             "cd -- \"$d\" 2>/dev/null || { echo 'tessera-remote\tunreadable'; exit 0; }; "
             "printf 'dir\\t%s\\n' \"$(pwd)\"; "
             "for f in profile.pop debug.cbor serialized_graph.capnp app.json framework.json "
             "*.pvti; do [ -f \"$f\" ] && printf 'file\\t%s\\t%s\\n' \"$(stat -c '%s\t%Y' -- "
             "\"$f\")\" \"$f\"; done; echo 'tessera-remote\tend'")
      .arg(shellQuote(path));
}

} // namespace

RemoteFetch::RemoteFetch(RemoteSpec spec, QString cacheRoot, QObject* parent)
    : QObject(parent), spec_(std::move(spec)),
      cacheRoot_(cacheRoot.isEmpty() ? defaultCacheRoot() : std::move(cacheRoot)) {}

RemoteFetch::~RemoteFetch() {
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(1000);
  }
  if (part_) part_->remove();
}

QString RemoteFetch::defaultCacheRoot() {
  return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
         QStringLiteral("/remote-reports");
}

QString RemoteFetch::sshProgram() {
  const QString custom = qEnvironmentVariable("TESSERA_SSH");
  return custom.isEmpty() ? QStringLiteral("ssh") : custom;
}

void RemoteFetch::start() {
  if (stage_ != Stage::Idle) return;
  copied_ = reused_ = 0;
  stage_ = Stage::Listing;
  emit progress(0, tr("Listing %1").arg(spec_.text()));
  if (stage_ != Stage::Listing) return;
  runSsh(listingScript(spec_.path));
}

void RemoteFetch::runSsh(const QString& remoteCommand) {
  stdout_.clear();
  stderr_.clear();
  process_ = new QProcess(this);
  // BatchMode: fail rather than prompt for a password or a host key nobody can answer.
  const QStringList args = {QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                            QStringLiteral("-o"), QStringLiteral("ConnectTimeout=15"),
                            spec_.host,           remoteCommand};
  connect(process_, &QProcess::readyReadStandardOutput, this, [this] {
    if (stage_ == Stage::Copying)
      copyOutput();
    else
      stdout_ += process_->readAllStandardOutput();
  });
  connect(process_, &QProcess::readyReadStandardError, this,
          [this] { stderr_ += process_->readAllStandardError(); });
  connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return; // the others end in finished()
    fail(tr("cannot run %1 (%2): is an OpenSSH client installed and on PATH?")
             .arg(sshProgram(), process_->errorString()));
  });
  connect(process_, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
    if (stage_ == Stage::Copying)
      copyOutput();
    else
      stdout_ += process_->readAllStandardOutput();
    stderr_ += process_->readAllStandardError();
    const int code = status == QProcess::NormalExit ? exitCode : -1;
    process_->deleteLater();
    process_ = nullptr;
    if (stage_ == Stage::Listing)
      listed(code);
    else if (stage_ == Stage::Copying)
      copied(code);
  });
  process_->start(sshProgram(), args);
}

QString RemoteFetch::sshFailure(int exitCode) const {
  const QString err = QString::fromLocal8Bit(stderr_).trimmed();
  const QString last = err.section(QLatin1Char('\n'), -1).trimmed();
  const auto has = [&err](const char* text) {
    return err.contains(QLatin1String(text), Qt::CaseInsensitive);
  };
  if (has("Could not resolve hostname") || has("Connection refused") || has("timed out") ||
      has("No route to host") || has("Network is unreachable") || has("Connection closed"))
    return tr("cannot reach host %1 (%2)").arg(spec_.host, last);
  if (has("Permission denied") || has("Host key verification failed") ||
      has("Too many authentication failures"))
    return tr("authentication failed on %1 (%2); the viewer needs a key or an ssh agent, it "
              "cannot ask for a password (see the user guide, Remote reports)")
        .arg(spec_.host, last);
  if (exitCode < 0) return tr("ssh to %1 stopped (%2)").arg(spec_.host, last);
  return tr("ssh to %1 failed with exit code %2 (%3)").arg(spec_.host).arg(exitCode).arg(last);
}

void RemoteFetch::listed(int exitCode) {
  const QStringList lines = QString::fromUtf8(stdout_).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  bool ended = false, isFile = false;
  files_.clear();
  for (const QString& line : lines) {
    const QStringList f = line.split(QLatin1Char('\t'));
    if (f[0] == QLatin1String("tessera-remote") && f.size() > 1) {
      if (f[1] == QLatin1String("missing")) return fail(tr("no such file or directory"));
      if (f[1] == QLatin1String("unreadable")) return fail(tr("cannot enter its directory"));
      if (f[1] == QLatin1String("end")) ended = true;
    } else if (f[0] == QLatin1String("kind") && f.size() > 1) {
      isFile = f[1] == QLatin1String("file");
    } else if (f[0] == QLatin1String("dir") && f.size() > 1) {
      remoteDir_ = line.section(QLatin1Char('\t'), 1);
    } else if (f[0] == QLatin1String("file") && f.size() >= 4) {
      files_.push_back({f.mid(3).join(QLatin1Char('\t')), f[1].toLongLong(), f[2].toLongLong()});
    }
  }
  if (!ended || remoteDir_.isEmpty())
    return fail(exitCode != 0 ? sshFailure(exitCode)
                              : tr("the host's shell did not answer the listing (is sh there?)"));

  openName_.clear();
  if (isFile) {
    const QString name = QFileInfo(spec_.path).fileName();
    const bool trace = name.endsWith(QLatin1String(".pvti"));
    if (!trace && name != QLatin1String("profile.pop") && name != QLatin1String("debug.cbor"))
      return fail(tr("is not a report (profile.pop, debug.cbor) or a host trace (.pvti)"));
    if (trace) { // a trace alone: only that file
      files_.erase(std::remove_if(files_.begin(), files_.end(),
                                  [&name](const RemoteFile& f) { return f.name != name; }),
                   files_.end());
      openName_ = name;
    }
  }
  const bool hasProfile = std::any_of(files_.begin(), files_.end(), [](const RemoteFile& f) {
    return f.name == QLatin1String("profile.pop");
  });
  if (openName_.isEmpty() && !hasProfile) {
    const auto traces = std::count_if(files_.begin(), files_.end(), [](const RemoteFile& f) {
      return f.name.endsWith(QLatin1String(".pvti"));
    });
    if (traces == 0) return fail(tr("is not a report: it holds no profile.pop and no .pvti trace"));
    if (traces > 1)
      return fail(
          tr("holds %1 host traces (.pvti) and no profile.pop; open one of them").arg(traces));
  }

  // The cache: one directory per host and remote directory; within it a file is reused when the
  // remote size and mtime match those recorded when it was copied.
  cacheDir_ = cacheRoot_ + QLatin1Char('/') +
              QString::fromLatin1(
                  QCryptographicHash::hash((spec_.host + QLatin1Char(':') + remoteDir_).toUtf8(),
                                           QCryptographicHash::Sha1)
                      .toHex()
                      .left(24));
  if (!QDir().mkpath(cacheDir_))
    return fail(tr("cannot create the cache directory %1").arg(cacheDir_));
  std::map<QString, std::pair<qint64, qint64>> cached;
  QFile manifest(cacheDir_ + QLatin1Char('/') + kManifest);
  if (manifest.open(QIODevice::ReadOnly)) {
    QTextStream in(&manifest);
    while (!in.atEnd()) {
      const QStringList f = in.readLine().split(QLatin1Char('\t'));
      if (f.size() >= 3)
        cached[f.mid(2).join(QLatin1Char('\t'))] = {f[0].toLongLong(), f[1].toLongLong()};
    }
  }
  // Files gone from the remote directory go from the cache too (a report rewritten without its
  // debug.cbor must not open with the old one).
  for (const QFileInfo& local : QDir(cacheDir_).entryInfoList(QDir::Files)) {
    if (local.fileName() == kManifest) continue;
    const bool remote = std::any_of(files_.begin(), files_.end(), [&](const RemoteFile& f) {
      return f.name == local.fileName();
    });
    if (!remote && !isFile) QFile::remove(local.absoluteFilePath());
  }
  toCopy_.clear();
  bytesTotal_ = bytesDone_ = 0;
  for (const RemoteFile& f : files_) {
    const auto it = cached.find(f.name);
    const QFileInfo local(cacheDir_ + QLatin1Char('/') + f.name);
    if (it != cached.end() && it->second == std::make_pair(f.size, f.mtime) && local.isFile() &&
        local.size() == f.size) {
      ++reused_;
    } else {
      toCopy_.push_back(f);
      bytesTotal_ += f.size;
    }
  }
  next_ = 0;
  stage_ = Stage::Copying;
  copyNext();
}

void RemoteFetch::copyNext() {
  if (next_ >= toCopy_.size()) return finish();
  const RemoteFile& f = toCopy_[next_];
  part_ = std::make_unique<QFile>(cacheDir_ + QLatin1Char('/') + f.name + QStringLiteral(".part"));
  if (!part_->open(QIODevice::WriteOnly | QIODevice::Truncate))
    return fail(tr("cannot write %1: %2").arg(part_->fileName(), part_->errorString()));
  emit progress(bytesTotal_ ? int(100 * bytesDone_ / bytesTotal_) : 0,
                tr("Copying %1 from %2 (%3 of %4)")
                    .arg(f.name, spec_.host,
                         formatBytes(std::uint64_t(bytesDone_), MemoryUnits::Binary),
                         formatBytes(std::uint64_t(bytesTotal_), MemoryUnits::Binary)));
  if (stage_ != Stage::Copying) return; // cancelled by a receiver of progress()
  runSsh(QStringLiteral("cat -- ") + shellQuote(remoteDir_ + QLatin1Char('/') + f.name));
}

void RemoteFetch::copyOutput() {
  if (!process_ || !part_) return;
  const QByteArray chunk = process_->readAllStandardOutput();
  if (chunk.isEmpty()) return;
  part_->write(chunk);
  bytesDone_ += chunk.size();
  const RemoteFile& f = toCopy_[next_];
  emit progress(bytesTotal_ ? int(100 * bytesDone_ / bytesTotal_) : 100,
                tr("Copying %1 from %2 (%3 of %4)")
                    .arg(f.name, spec_.host,
                         formatBytes(std::uint64_t(bytesDone_), MemoryUnits::Binary),
                         formatBytes(std::uint64_t(bytesTotal_), MemoryUnits::Binary)));
}

void RemoteFetch::copied(int exitCode) {
  const RemoteFile f = toCopy_[next_];
  const qint64 got = part_->size();
  part_->close();
  if (exitCode != 0 || got != f.size) {
    part_->remove();
    part_.reset();
    if (exitCode == 255 || exitCode < 0) return fail(sshFailure(exitCode));
    return fail(tr("copying %1 stopped after %2 of %3 bytes (%4)")
                    .arg(f.name)
                    .arg(got)
                    .arg(f.size)
                    .arg(QString::fromLocal8Bit(stderr_).trimmed()));
  }
  const QString target = cacheDir_ + QLatin1Char('/') + f.name;
  QFile::remove(target);
  if (!part_->rename(target)) return fail(tr("cannot write %1").arg(target));
  part_.reset();
  ++copied_;
  ++next_;
  writeManifest(); // what is complete stays reusable even if a later copy is cancelled
  copyNext();
}

void RemoteFetch::writeManifest() const {
  QFile manifest(cacheDir_ + QLatin1Char('/') + kManifest);
  if (!manifest.open(QIODevice::WriteOnly | QIODevice::Truncate)) return;
  QTextStream out(&manifest);
  for (const RemoteFile& f : files_)
    if (QFileInfo(cacheDir_ + QLatin1Char('/') + f.name).size() == f.size &&
        (std::find_if(toCopy_.begin() + long(next_), toCopy_.end(),
                      [&f](const RemoteFile& c) { return c.name == f.name; }) == toCopy_.end()))
      out << f.size << '\t' << f.mtime << '\t' << f.name << '\n';
}

void RemoteFetch::finish() {
  writeManifest();
  stage_ = Stage::Idle;
  emit progress(100, tr("Copied %1 from %2").arg(spec_.path, spec_.host));
  emit finished(openName_.isEmpty() ? cacheDir_ : cacheDir_ + QLatin1Char('/') + openName_);
}

void RemoteFetch::fail(const QString& problem) {
  if (stage_ == Stage::Idle) return;
  stage_ = Stage::Idle;
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->deleteLater();
    process_ = nullptr;
  }
  if (part_) {
    part_->remove();
    part_.reset();
  }
  emit failed(spec_.text() + QStringLiteral(": ") + problem);
}

void RemoteFetch::cancel() {
  if (stage_ == Stage::Idle) return;
  stage_ = Stage::Idle;
  if (process_) {
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(2000);
    process_->deleteLater();
    process_ = nullptr;
  }
  if (part_) {
    part_->remove();
    part_.reset();
  }
  emit cancelled();
}

} // namespace tessera::viewer
