// Small RAII layer over the SQLite C API, shared by the report writers (and later the readers).
// Every failure throws sqlite::Error whose message names the database file and gives SQLite's
// own message; callers translate it into their public error type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace tessera::sqlite {

class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class OpenMode {
  ReadOnly,  ///< the file must exist; nothing is written
  ReadWrite, ///< the file must exist
  Create,    ///< read-write, created when missing
  /// Read-only, and SQLite is told nobody changes the file: no locks, no -wal or -shm file
  /// opened or created. For a file whose journal cannot be read in place (see libpva's
  /// storage/OpenFile.cpp); a -wal file next to it is ignored.
  Immutable,
};

/// One open database connection.
class Database {
public:
  Database(std::filesystem::path path, OpenMode mode);
  /// A read-only database over `size` bytes in memory, as SQLite would read them from a file
  /// (sqlite3_deserialize): readers use it for files given as bytes (fuzzing) and for a WAL
  /// replayed in memory. The bytes are not copied and must outlive the connection. `name`
  /// stands for the file in messages.
  static Database fromImage(std::filesystem::path name, const void* data, std::size_t size);
  ~Database();
  Database(Database&& o) noexcept;
  Database& operator=(Database&& o) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  sqlite3* handle() const { return db_; }
  const std::filesystem::path& path() const { return path_; }
  bool isOpen() const { return db_ != nullptr; }

  /// Runs one or more statements that return no rows (pragmas, DDL, BEGIN/COMMIT).
  void exec(const std::string& sql);
  /// Runs a statement that returns one text value (e.g. "PRAGMA journal_mode=...").
  std::string queryText(const std::string& sql);
  /// False inside an explicit transaction.
  bool autocommit() const;
  /// Closes the connection; throws if SQLite refuses (e.g. unfinalized statements).
  void close();

  /// Throws Error("<file>: <what>: <SQLite's message for the last failure>").
  [[noreturn]] void fail(std::string_view what) const;
  /// The same with an explicit result code (for failures without a connection message).
  [[noreturn]] void fail(std::string_view what, int rc) const;

private:
  Database() = default;
  void closeQuietly() noexcept;
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
};

/// One prepared statement of `db`, which must outlive it and stay in place. Text and blob values
/// are bound without copying (SQLITE_STATIC): they must stay valid until the statement is stepped
/// and its bindings cleared.
class Statement {
public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  int parameterCount() const;
  void bindNull(int i);
  void bindInt(int i, std::int64_t v);
  void bindReal(int i, double v);
  void bindText(int i, std::string_view v);
  void bindBlob(int i, const void* data, std::size_t size);

  /// Advances; true when a row is available, false when the statement is done.
  bool step();
  /// Makes the statement ready to run again (bindings kept); never throws.
  void reset() noexcept;
  void clearBindings() noexcept;

  int columnCount() const;
  bool isNull(int col) const;
  std::int64_t columnInt(int col) const;
  double columnReal(int col) const;
  std::string_view columnText(int col) const;
  /// Pointer and size of a blob column (valid until the next step/reset).
  std::pair<const void*, std::size_t> columnBlob(int col) const;
  /// SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
  int columnType(int col) const;

  sqlite3_stmt* handle() const { return stmt_; }

private:
  void check(int rc, std::string_view what);
  Database& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// A path as messages show it: printable ASCII and UTF-8 as they are, every control byte (an
/// escape sequence in a file name must not reach the user's terminal), backslash and invalid
/// UTF-8 as \xNN.
std::string displayPath(std::string_view path);

/// Quotes an identifier for SQL ("name", with embedded quotes doubled).
std::string quoteIdentifier(std::string_view name);

} // namespace tessera::sqlite
