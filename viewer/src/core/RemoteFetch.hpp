// Brings a report that lives on another machine into a local cache over the system's `ssh`,
// as PopVision Graph Analyser opens reports on the IPU host: only the files a report needs
// (profile.pop, debug.cbor, serialized_graph.capnp, app.json, framework.json, *.pvti) are
// copied, never the rest of the directory (checkpoints, datasets), and a file whose size and
// modification time match the cached copy is not copied again.
//
// Why the system's ssh rather than libssh: it reads the user's ~/.ssh/config (aliases, ports,
// ProxyJump), keys and agent exactly as their terminal does, needs no new dependency, and a test
// replaces it with a script on PATH. BatchMode is on: the viewer never waits on a password
// prompt nobody can see; keys or an agent must be set up (docs/viewer.md, "Remote reports").
//
// Two stages, each one ssh process: list (a POSIX sh script prints the report's files with their
// sizes and mtimes), then copy each changed file with `cat` into "<name>.part", renamed when
// complete. Threads: GUI thread (QProcess, signals); nothing blocks.
#pragma once

#include "core/RemoteSpec.hpp"

#include <QObject>
#include <QProcess>
#include <QString>
#include <memory>
#include <vector>

class QFile;

namespace tessera::viewer {

class RemoteFetch : public QObject {
  Q_OBJECT
public:
  /// `cacheRoot`: where reports are cached (default: the user's cache, see defaultCacheRoot()).
  explicit RemoteFetch(RemoteSpec spec, QString cacheRoot = {}, QObject* parent = nullptr);
  ~RemoteFetch() override;

  /// "<QStandardPaths::CacheLocation>/remote-reports" ($XDG_CACHE_HOME/Tessera/tessera-viewer/…).
  static QString defaultCacheRoot();
  /// The ssh client run: $TESSERA_SSH when set, else "ssh" from PATH.
  static QString sshProgram();

  const RemoteSpec& spec() const { return spec_; }
  void start();
  /// Stops the copy in progress (its partial file is removed); emits cancelled().
  void cancel();
  bool isRunning() const { return stage_ != Stage::Idle; }

  /// After finished(): how many files were copied and how many reused from the cache.
  int filesCopied() const { return copied_; }
  int filesReused() const { return reused_; }
  /// The local directory the report is cached in (after the listing).
  const QString& cacheDir() const { return cacheDir_; }

signals:
  /// `percent` of the bytes to copy; `what` says which file ("profile.pop (12.0 MiB of 40.0 MiB)").
  void progress(int percent, const QString& what);
  /// The local path to open: the cached directory, or the cached file when a file was named.
  void finished(const QString& localPath);
  /// The problem, naming the host and the path.
  void failed(const QString& message);
  void cancelled();

private:
  enum class Stage { Idle, Listing, Copying };
  struct RemoteFile {
    QString name;
    qint64 size = 0;
    qint64 mtime = 0;
  };
  void runSsh(const QString& remoteCommand);
  void listed(int exitCode);
  void copyNext();
  void copyOutput();
  void copied(int exitCode);
  void fail(const QString& problem);
  QString sshFailure(int exitCode) const;
  void writeManifest() const;
  void finish();

  RemoteSpec spec_;
  QString cacheRoot_, cacheDir_;
  QString remoteDir_;
  QString openName_; ///< the file named, or empty for the directory
  Stage stage_ = Stage::Idle;
  QProcess* process_ = nullptr;
  QByteArray stdout_, stderr_;
  std::vector<RemoteFile> files_, toCopy_;
  std::size_t next_ = 0;
  std::unique_ptr<QFile> part_;
  qint64 bytesTotal_ = 0, bytesDone_ = 0;
  int copied_ = 0, reused_ = 0;
};

} // namespace tessera::viewer
