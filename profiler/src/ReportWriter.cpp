// profile.pop writer: tables from the schema descriptors, cached prepared inserts, and the
// atomic publish (build "<path>.partial", fsync, rename, reopen for appending runs).
#include "FileUtil.hpp"
#include "RowQueue.hpp"
#include "SchemaSql.hpp"

#include <profiler/ReportWriter.hpp>
#include <system_error>
#include <tessera/internal/Sqlite.hpp>
#include <unordered_map>
#include <utility>

namespace tessera::profiler {

namespace fs = std::filesystem;

namespace {

// Files SQLite may keep next to a database.
void removeWithCompanions(const fs::path& db) noexcept {
  detail::removeQuietly(db);
  for (const char* suffix : {"-journal", "-wal", "-shm"}) {
    fs::path p = db;
    p += suffix;
    detail::removeQuietly(p);
  }
}

// In TRUNCATE mode SQLite leaves an empty "-journal" file behind after closing. An empty journal
// holds nothing to roll back; a non-empty one is a hot journal and must be left for recovery.
void removeEmptyJournal(const fs::path& db) noexcept {
  fs::path journal = db;
  journal += "-journal";
  std::error_code ec;
  if (fs::exists(journal, ec) && fs::file_size(journal, ec) == 0 && !ec)
    detail::removeQuietly(journal);
}

// Runs f, turning the SQLite layer's errors (which already name the file) into ReportError.
template <class F> decltype(auto) reportErrors(F&& f) {
  try {
    return f();
  } catch (const sqlite::Error& e) {
    throw ReportError(e.what());
  }
}

// Pragmas. While the report is "<path>.partial" it is scratch: after a crash nobody reads it, so
// no commit has to reach the disk (synchronous=OFF); publish() fsyncs the file once before the
// rename instead. A rollback journal keeps rollback() working, and costs almost nothing for bulk
// appends because SQLite only journals pages that existed before the transaction (WAL would write
// every new page twice: to the log, then at the checkpoint). TRUNCATE reuses the journal file
// instead of creating and deleting it per commit. Once published, runs are appended to the real
// report, which must never be corrupted by a crash or power loss: synchronous=FULL makes each
// run's commit durable and atomic in rollback-journal mode, for a few fsyncs per run. A report
// at rest is one plain file (no WAL mode in its header), so readers can open it read-only even
// where they cannot create a -shm file. 64 KiB pages suit rows that carry KiB-sized blobs (fewer
// overflow pages, shallower B-trees); page_size must come before the first table.
constexpr const char* kPartialPragmas = "PRAGMA page_size=65536; PRAGMA journal_mode=TRUNCATE; "
                                        "PRAGMA synchronous=OFF; PRAGMA cache_size=-16384;";
constexpr const char* kPublishedPragmas = "PRAGMA journal_mode=TRUNCATE; PRAGMA synchronous=FULL; "
                                          "PRAGMA cache_size=-16384; PRAGMA busy_timeout=5000;";

} // namespace

// A prepared statement that survives publish(): it is finalized when the database closes and
// prepared again on first use against the reopened file.
struct ReportWriter::Statement {
  Impl* owner = nullptr; ///< null once the writer is gone
  std::string table;
  std::string sql;
  int columns = 0;
  /// A transaction statement (BEGIN, COMMIT) queued among the rows in background: executed, not
  /// prepared.
  bool transaction = false;
  std::unique_ptr<sqlite::Statement> stmt;
  sqlite::Statement& get();
};

struct ReportWriter::Impl {
  fs::path path, partial;
  std::unique_ptr<sqlite::Database> db;
  bool published = false;
  std::unordered_map<std::string, std::shared_ptr<Statement>> inserts;
  std::shared_ptr<Statement> upsertMeta;
  /// begin() and commit() in background: queued like rows, so the caller need not wait for them.
  std::shared_ptr<Statement> beginTransaction, commitTransaction;
  /// Set while writing in background: inserts go through it, and the caller touches the
  /// database only after draining it, so one thread at a time uses the connection.
  std::unique_ptr<detail::RowQueue> queue;

  /// Waits for the queued rows; throws the first error one of them met.
  void drain() {
    if (!queue) return;
    std::string error = queue->drain();
    if (!error.empty()) throw ReportError(error);
  }

  /// Throws the error a queued row has met, if any has yet, without waiting (background only).
  /// The error is thrown again by every call until one that waits (drain()) reports it last.
  void throwQueuedFailure() {
    std::string error = queue->failure();
    if (!error.empty()) throw ReportError(error);
  }

  /// The file being written: the partial file until published.
  const fs::path& file() const { return published ? path : partial; }

  std::shared_ptr<Statement> makeStatement(std::string table, std::string sql, int columns) {
    auto s = std::make_shared<Statement>();
    s->owner = this;
    s->table = std::move(table);
    s->sql = std::move(sql);
    s->columns = columns;
    return s;
  }

  void finalizeStatements() noexcept {
    for (auto& entry : inserts)
      entry.second->stmt.reset();
    if (upsertMeta) upsertMeta->stmt.reset();
  }

  /// Finalizes every statement and closes the database, reporting failures.
  void close() {
    finalizeStatements();
    if (db) reportErrors([&] { db->close(); });
    db.reset();
  }

  ~Impl() {
    queue.reset(); // waits for queued rows: they use the statements below
    finalizeStatements();
    for (auto& entry : inserts)
      entry.second->owner = nullptr;
    if (upsertMeta) upsertMeta->owner = nullptr;
    // Closing rolls back an open transaction: a run that was not committed is not in the report.
    db.reset();
    if (!published)
      removeWithCompanions(partial);
    else
      removeEmptyJournal(path);
  }
};

sqlite::Statement& ReportWriter::Statement::get() {
  if (stmt) return *stmt;
  if (!owner)
    throw ReportError("inserter for table '" + table +
                      "' used after its ReportWriter was destroyed");
  if (!owner->db)
    throw ReportError(owner->file().string() +
                      ": the report is closed (an earlier publish() failed)");
  stmt = reportErrors([&] { return std::make_unique<sqlite::Statement>(*owner->db, sql); });
  return *stmt;
}

namespace {
sqlite::Database& openDb(const std::unique_ptr<sqlite::Database>& db, const fs::path& file) {
  if (!db)
    throw ReportError(file.string() + ": the report is closed (an earlier publish() failed)");
  return *db;
}
} // namespace

// --- Inserter ---------------------------------------------------------------------------------
// Values past the table's last column are not bound (SQLite would reject the index); insert()
// then reports the row's real length.

namespace {
// The queue rows go to while the writer writes in background, else null.
detail::RowQueue* queueOf(const ReportWriter::Statement& s);
} // namespace

void ReportWriter::Inserter::bindNull(int i) {
  if (i > s_->columns) return;
  if (auto* q = queueOf(*s_))
    q->addNull();
  else
    reportErrors([&] { s_->get().bindNull(i); });
}
void ReportWriter::Inserter::bindInt(int i, std::int64_t v) {
  if (i > s_->columns) return;
  if (auto* q = queueOf(*s_))
    q->addInt(v);
  else
    reportErrors([&] { s_->get().bindInt(i, v); });
}
void ReportWriter::Inserter::bindReal(int i, double v) {
  if (i > s_->columns) return;
  if (auto* q = queueOf(*s_))
    q->addReal(v);
  else
    reportErrors([&] { s_->get().bindReal(i, v); });
}
void ReportWriter::Inserter::bindText(int i, std::string_view v) {
  if (i > s_->columns) return;
  if (auto* q = queueOf(*s_))
    q->addText(v);
  else
    reportErrors([&] { s_->get().bindText(i, v); });
}
void ReportWriter::Inserter::bindBlob(int i, BlobRef v) {
  if (i > s_->columns) return;
  if (auto* q = queueOf(*s_))
    q->addBlob(v.data, v.size);
  else
    reportErrors([&] { s_->get().bindBlob(i, v.data, v.size); });
}

namespace {

detail::RowQueue* queueOf(const ReportWriter::Statement& s) {
  return s.owner ? s.owner->queue.get() : nullptr;
}

// Steps the statement whose parameters are bound, leaving it ready for the next row.
void stepBound(sqlite::Statement& st) {
  try {
    st.step();
  } catch (const sqlite::Error& e) {
    st.reset();
    st.clearBindings();
    throw ReportError(e.what());
  }
  st.reset();
  st.clearBindings();
}

} // namespace

void ReportWriter::Inserter::insert(int boundColumns) {
  Statement& s = *s_;
  detail::RowQueue* queue = queueOf(s);
  if (boundColumns != s.columns) {
    if (queue)
      queue->discardRow();
    else
      s.get().clearBindings();
    throw ReportError((s.owner ? s.owner->file().string() : std::string("report")) + ": table '" +
                      s.table + "' has " + std::to_string(s.columns) + " columns but the row has " +
                      std::to_string(boundColumns) + " values");
  }
  if (queue)
    queue->endRow(&s);
  else
    stepBound(s.get());
}

namespace {
// On the writer thread: binds a queued row's values and inserts it, as Inserter does in row().
void insertQueued(ReportWriter::Statement& s, const detail::QueuedValue* values, std::size_t count,
                  const char* arena) {
  using Kind = detail::QueuedValue::Kind;
  reportErrors([&] {
    if (s.transaction) {
      openDb(s.owner->db, s.owner->file()).exec(s.sql);
      return;
    }
    sqlite::Statement& st = s.get();
    for (std::size_t k = 0; k < count; ++k) {
      const detail::QueuedValue& v = values[k];
      const int i = static_cast<int>(k) + 1;
      switch (v.kind) {
      case Kind::Null:
        st.bindNull(i);
        break;
      case Kind::Int:
        st.bindInt(i, v.integer);
        break;
      case Kind::Real:
        st.bindReal(i, v.real);
        break;
      case Kind::Text:
        st.bindText(i, std::string_view(arena + v.offset, v.size));
        break;
      case Kind::Blob:
        st.bindBlob(i, arena + v.offset, v.size);
        break;
      }
    }
    stepBound(st);
  });
}
} // namespace

void ReportWriter::writeInBackground(bool on) {
  Impl& im = *impl_;
  im.drain();
  if (!on) {
    im.queue.reset();
    return;
  }
  if (im.queue) return;
  im.queue = std::make_unique<detail::RowQueue>(
      [](void* target, const detail::QueuedValue* values, std::size_t count, const char* arena) {
        insertQueued(*static_cast<Statement*>(target), values, count, arena);
      });
}

// --- ReportWriter -----------------------------------------------------------------------------

ReportWriter::ReportWriter(fs::path path) : impl_(std::make_unique<Impl>()) {
  if (path.empty()) throw ReportError("cannot write a report: the path is empty");
  impl_->path = std::move(path);
  impl_->partial = detail::partialPath(impl_->path);
  detail::createParentDirectory(impl_->path);
  removeWithCompanions(impl_->partial); // a stale partial from a crashed run
  reportErrors([&] {
    impl_->db = std::make_unique<sqlite::Database>(impl_->partial, sqlite::OpenMode::Create);
    sqlite::Database& db = *impl_->db;
    db.exec(kPartialPragmas);
    db.exec("BEGIN");
    schema::forEachTable([&](const auto& table) { db.exec(schema::createTableSql(table)); });
    for (const schema::Index& index : schema::kIndexes)
      db.exec(schema::createIndexSql(index));
    db.exec("COMMIT");
  });
  impl_->upsertMeta =
      impl_->makeStatement(std::string(schema::Meta::table.name),
                           "INSERT OR REPLACE INTO " +
                               sqlite::quoteIdentifier(schema::Meta::table.name) + " VALUES (?,?)",
                           2);
  impl_->beginTransaction = impl_->makeStatement("", "BEGIN IMMEDIATE", 0);
  impl_->commitTransaction = impl_->makeStatement("", "COMMIT", 0);
  impl_->beginTransaction->transaction = impl_->commitTransaction->transaction = true;
  setMeta(schema::meta::format, schema::kProfileFormatName);
  setMeta(schema::meta::formatVersion, schema::toString(schema::kProfileFormatVersion));
}

ReportWriter::~ReportWriter() = default;
ReportWriter::ReportWriter(ReportWriter&&) noexcept = default;
ReportWriter& ReportWriter::operator=(ReportWriter&&) noexcept = default;

const fs::path& ReportWriter::path() const {
  return impl_->path;
}
bool ReportWriter::published() const {
  return impl_ && impl_->published;
}

std::shared_ptr<ReportWriter::Statement> ReportWriter::prepareInsert(std::string_view table,
                                                                     std::size_t columns) {
  auto it = impl_->inserts.find(std::string(table));
  if (it == impl_->inserts.end()) {
    impl_->drain(); // preparing uses the connection, which the writer thread may be using
    auto s = impl_->makeStatement(std::string(table), schema::insertSql(table, columns),
                                  static_cast<int>(columns));
    s->get(); // prepare now, so a bad table fails here rather than at the first row
    it = impl_->inserts.emplace(std::string(table), std::move(s)).first;
  }
  return it->second;
}

void ReportWriter::setMeta(std::string_view key, std::string_view value) {
  Inserter(impl_->upsertMeta).row(key, value);
}

void ReportWriter::begin() {
  // IMMEDIATE takes the write lock now, so a reader of a published report cannot make the
  // commit fail halfway through a run (busy_timeout waits for it instead).
  Impl& im = *impl_;
  if (im.queue) {
    im.throwQueuedFailure();
    im.queue->endRow(im.beginTransaction.get());
    return;
  }
  reportErrors([&] { openDb(im.db, im.file()).exec(im.beginTransaction->sql); });
}

void ReportWriter::commit() {
  // In background the commit is queued after the rows, so encoding the next rows overlaps it
  // (at a transaction every 10k rows, committing is a tenth of SQLite's work: writing the pages).
  Impl& im = *impl_;
  if (im.queue) {
    im.throwQueuedFailure();
    im.queue->endRow(im.commitTransaction.get());
    return;
  }
  reportErrors([&] { openDb(im.db, im.file()).exec(im.commitTransaction->sql); });
}

void ReportWriter::flush() {
  impl_->drain();
}

void ReportWriter::rollback() {
  impl_->drain();
  reportErrors([&] { openDb(impl_->db, impl_->file()).exec("ROLLBACK"); });
}

void ReportWriter::publish() {
  Impl& im = *impl_;
  im.drain();
  sqlite::Database& db = openDb(im.db, im.file());
  if (!db.autocommit()) reportErrors([&] { db.exec("COMMIT"); });
  if (im.published) return; // already under its real name: committing was all there was to do

  im.close();
  removeEmptyJournal(im.partial);
  detail::syncFile(im.partial); // synchronous=OFF so far: make the data durable before the rename
  detail::publishFile(im.partial, im.path);
  im.published = true;
  reportErrors([&] {
    im.db = std::make_unique<sqlite::Database>(im.path, sqlite::OpenMode::ReadWrite);
    im.db->exec(kPublishedPragmas);
  });
}

} // namespace tessera::profiler
