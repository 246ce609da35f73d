#include <cctype>
#include <climits>
#include <cstdio>
#include <cstring>
#include <sqlite3.h>
#include <tessera/internal/Sqlite.hpp>
#include <utility>

namespace tessera::sqlite {

namespace {
/// SQLite's message, with the system's reason when the failure came from a system call
/// ("disk I/O error" alone does not say the disk is full or the file too large).
std::string reasonOf(sqlite3* db, const char* sqliteMessage) {
  std::string r = sqliteMessage;
  if (!db) return r;
  // Only for failures of the file itself: after other errors the system errno may be stale.
  const int code = sqlite3_extended_errcode(db) & 0xff, err = sqlite3_system_errno(db);
  if (err != 0 && (code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN))
    r += std::string(" (") + std::strerror(err) + ")";
  else if (code == SQLITE_FULL || sqlite3_extended_errcode(db) == SQLITE_IOERR_WRITE)
    // SQLite keeps no errno for failed writes (ENOSPC, EFBIG): say what they usually mean.
    r += " (a write to the file failed: the disk is full or the file is over its size limit)";
  return r;
}

std::string message(const std::filesystem::path& path, std::string_view what,
                    std::string_view reason) {
  std::string m = displayPath(path.string());
  m += ": ";
  m += what;
  m += ": ";
  m += reason;
  return m;
}
/// Percent-encodes what a URI path cannot hold as it is (SQLite decodes %HH in file: URIs).
std::string uriPath(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

} // namespace

Database Database::fromImage(std::filesystem::path name, const void* data, std::size_t size) {
  Database d;
  d.path_ = std::move(name);
  int rc =
      sqlite3_open_v2(":memory:", &d.db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) d.fail("cannot open an in-memory database", rc);
  sqlite3_extended_result_codes(d.db_, 1);
  // READONLY: SQLite reads the caller's bytes in place and never writes or frees them.
  auto* bytes = static_cast<unsigned char*>(const_cast<void*>(data));
  rc = sqlite3_deserialize(d.db_, "main", bytes, static_cast<sqlite3_int64>(size),
                           static_cast<sqlite3_int64>(size), SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK) d.fail("cannot open the database image", rc);
  return d;
}

Database::Database(std::filesystem::path path, OpenMode mode) : path_(std::move(path)) {
  int flags = SQLITE_OPEN_NOMUTEX; // one connection per thread: no need for SQLite's mutexes
  switch (mode) {
  case OpenMode::ReadOnly:
    flags |= SQLITE_OPEN_READONLY;
    break;
  case OpenMode::ReadWrite:
    flags |= SQLITE_OPEN_READWRITE;
    break;
  case OpenMode::Create:
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    break;
  case OpenMode::Immutable:
    flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    break;
  }
  const std::string name = mode == OpenMode::Immutable
                               ? "file:" + uriPath(path_.string()) + "?immutable=1"
                               : path_.string();
  const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    // sqlite3_open_v2 may hand back a connection even on failure; its message is the useful one.
    std::string reason = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    closeQuietly();
    throw Error(message(path_, "cannot open database", reason));
  }
  sqlite3_extended_result_codes(db_, 1);
}

Database::~Database() {
  closeQuietly();
}

Database::Database(Database&& o) noexcept
    : path_(std::move(o.path_)), db_(std::exchange(o.db_, nullptr)) {}

Database& Database::operator=(Database&& o) noexcept {
  if (this != &o) {
    closeQuietly();
    path_ = std::move(o.path_);
    db_ = std::exchange(o.db_, nullptr);
  }
  return *this;
}

void Database::closeQuietly() noexcept {
  // close_v2 defers the close until outstanding statements are finalized, so it cannot fail.
  if (db_) sqlite3_close_v2(std::exchange(db_, nullptr));
}

void Database::close() {
  if (!db_) return;
  if (sqlite3_close(db_) != SQLITE_OK) fail("cannot close database");
  db_ = nullptr;
}

void Database::exec(const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string reason = reasonOf(db_, err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    throw Error(message(path_, "'" + sql + "' failed", reason));
  }
}

std::string Database::queryText(const std::string& sql) {
  Statement s(*this, sql);
  if (!s.step()) return {};
  return std::string(s.columnText(0));
}

bool Database::autocommit() const {
  return db_ && sqlite3_get_autocommit(db_) != 0;
}

void Database::fail(std::string_view what) const {
  throw Error(
      message(path_, what, db_ ? reasonOf(db_, sqlite3_errmsg(db_)) : "database is closed"));
}

void Database::fail(std::string_view what, int rc) const {
  throw Error(message(path_, what, sqlite3_errstr(rc)));
}

Statement::Statement(Database& db, std::string_view sql) : db_(db) {
  if (!db.isOpen()) db.fail("cannot prepare '" + std::string(sql) + "'");
  const int rc = sqlite3_prepare_v3(db.handle(), sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) db.fail("cannot prepare '" + std::string(sql) + "'");
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::check(int rc, std::string_view what) {
  if (rc != SQLITE_OK) db_.fail(what);
}

int Statement::parameterCount() const {
  return sqlite3_bind_parameter_count(stmt_);
}

void Statement::bindNull(int i) {
  check(sqlite3_bind_null(stmt_, i), "cannot bind NULL");
}
void Statement::bindInt(int i, std::int64_t v) {
  check(sqlite3_bind_int64(stmt_, i, v), "cannot bind an integer");
}
void Statement::bindReal(int i, double v) {
  check(sqlite3_bind_double(stmt_, i, v), "cannot bind a real");
}

void Statement::bindText(int i, std::string_view v) {
  // A null data pointer would bind NULL, not the empty string.
  const char* data = v.data() ? v.data() : "";
  check(sqlite3_bind_text64(stmt_, i, data, v.size(), SQLITE_STATIC, SQLITE_UTF8),
        "cannot bind text");
}

void Statement::bindBlob(int i, const void* data, std::size_t size) {
  // A null data pointer would bind NULL; an empty blob is a zero-length blob.
  if (size == 0)
    check(sqlite3_bind_zeroblob(stmt_, i, 0), "cannot bind a blob");
  else
    check(sqlite3_bind_blob64(stmt_, i, data, size, SQLITE_STATIC), "cannot bind a blob");
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("cannot run '" + std::string(sqlite3_sql(stmt_)) + "'");
}

void Statement::reset() noexcept {
  sqlite3_reset(stmt_);
}
void Statement::clearBindings() noexcept {
  sqlite3_clear_bindings(stmt_);
}

int Statement::columnCount() const {
  return sqlite3_column_count(stmt_);
}
bool Statement::isNull(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}
std::int64_t Statement::columnInt(int col) const {
  return sqlite3_column_int64(stmt_, col);
}
double Statement::columnReal(int col) const {
  return sqlite3_column_double(stmt_, col);
}
int Statement::columnType(int col) const {
  return sqlite3_column_type(stmt_, col);
}

std::string_view Statement::columnText(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (!p) return {};
  return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))};
}

std::pair<const void*, std::size_t> Statement::columnBlob(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  return {p, p ? static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)) : 0};
}

std::string displayPath(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  auto hex = [&](unsigned char c) {
    char buf[5];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  };
  for (std::size_t i = 0; i < path.size();) {
    const auto c = static_cast<unsigned char>(path[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A well-formed UTF-8 sequence of a printable character passes (names in any language);
    // C1 controls (U+0080..U+009F), which some terminals obey, do not.
    std::size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (c >= 0xf5) n = 0;
    bool ok = n > 0 && i + n <= path.size();
    for (std::size_t k = 1; ok && k < n; ++k)
      ok = (static_cast<unsigned char>(path[i + k]) & 0xc0) == 0x80;
    if (ok && c == 0xc2 && static_cast<unsigned char>(path[i + 1]) < 0xa0) ok = false;
    if (ok) {
      out.append(path.substr(i, n));
      i += n;
    } else {
      hex(c);
      ++i;
    }
  }
  return out;
}

std::string quoteIdentifier(std::string_view name) {
  std::string q = "\"";
  for (char c : name) {
    if (c == '"') q += '"';
    q += c;
  }
  q += '"';
  return q;
}

} // namespace tessera::sqlite
