// Writes profile.pop: the schema from Schema.hpp, rows bound in column order, transactions, and
// the atomic publish (the report is built under "<path>.partial" and renamed when complete, so a
// crash never leaves a half-written report under the real name). After publish() the report
// stays open for appending execution runs, each committed as one transaction.
//
//   ReportWriter w("reports/profile.pop");
//   w.begin();
//   auto programs = w.inserter<schema::Programs>();
//   programs.row(id, schema::name(schema::ProgramType::OnTileExecute), name, nullptr /*NULL*/,
//   ...); w.commit(); w.publish();
//
// Rows are checked against the schema at compile time (RowFits below): one value per column, in
// column order, each of a C++ type that fits the column's SQL type (INTEGER: integers, bool,
// enums; REAL: numbers; TEXT: strings; BLOB: BlobRef), and NULL (nullptr, std::nullopt, an empty
// std::optional) only in a column without NOT NULL. A row that does not fit its table does not
// compile, so a writer cannot shift a value into its neighbour's column.
//
// writeInBackground(true) moves SQLite's work onto a writer thread: row() copies the row's values
// into a queue and returns, and begin() and commit() are queued after them, so encoding the next
// rows overlaps inserting and committing these. The file is byte-for-byte what the synchronous
// writer makes (the same statements run in the same order). An error the writer thread meets
// (in a row, BEGIN or COMMIT) drops what was queued after it and is thrown by the next begin()
// or commit() once the writer thread has met it, and in any case by the next flush(),
// rollback(), publish(), writeInBackground() or inserter() for a new table, which first wait for
// the queue to empty. Call flush() before reading the file from elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <profiler/Schema.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tessera::profiler {

struct BlobRef;

namespace row_check {

constexpr bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
constexpr bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

template <class T> struct Optional : std::false_type {};
template <class T> struct Optional<std::optional<T>> : std::true_type { using type = T; };

template <class T>
constexpr bool isNull = std::is_same_v<T, std::nullptr_t> || std::is_same_v<T, std::nullopt_t>;

/// Whether a value of C++ type T may be stored in a column declared `sqlType`.
template <class T> constexpr bool fitsType(std::string_view sqlType) {
  if constexpr (isNull<T>)
    return true;
  else if constexpr (Optional<T>::value)
    return fitsType<typename Optional<T>::type>(sqlType);
  else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
    return startsWith(sqlType, "INTEGER") || startsWith(sqlType, "REAL");
  else if constexpr (std::is_floating_point_v<T>)
    return startsWith(sqlType, "REAL");
  else if constexpr (std::is_same_v<T, BlobRef>)
    return startsWith(sqlType, "BLOB");
  else if constexpr (std::is_convertible_v<const T&, std::string_view>)
    return startsWith(sqlType, "TEXT");
  else
    return false;
}

/// A column that may hold NULL (INTEGER PRIMARY KEY may not: NULL there means "a new rowid").
constexpr bool nullable(const schema::Column& c) {
  return !contains(c.sqlType, "NOT NULL") && !contains(c.sqlType, "PRIMARY KEY");
}

template <class T> constexpr bool fits(const schema::Column& c) {
  return fitsType<T>(c.sqlType) && ((!isNull<T> && !Optional<T>::value) || nullable(c));
}

template <class TableDef, class... V, std::size_t... I>
constexpr bool fitsAll(std::index_sequence<I...>) {
  return (fits<V>(TableDef::table.columns[I]) && ...);
}

} // namespace row_check

/// True when values of types V... make a row of the table described by TableDef (a struct of
/// Schema.hpp such as schema::Steps): one per column, each fitting its column.
template <class TableDef, class... V> constexpr bool rowFits() {
  constexpr std::size_t n = TableDef::table.columns.size();
  if constexpr (sizeof...(V) != n)
    return false;
  else
    return row_check::fitsAll<TableDef, std::decay_t<V>...>(std::index_sequence_for<V...>{});
}

/// A report file could not be written; the message names the file and the reason.
class ReportError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Bytes bound to a BLOB column (not copied: valid until the row is inserted).
struct BlobRef {
  const void* data;
  std::size_t size;
};

class ReportWriter {
public:
  // Defined in ReportWriter.cpp (named here for its helpers there).
  struct Impl;
  struct Statement;

  /// Inserts rows into one table with one prepared statement.
  class Inserter {
  public:
    /// Binds the values to the table's columns in order (nullptr or std::nullopt: NULL) and
    /// inserts. Unchecked: writers use RowInserter (inserter<TableDef>()), which checks rows first.
    template <class... V> void row(const V&... values) {
      int i = 0;
      (bindValue(++i, values), ...);
      insert(i);
    }

  private:
    friend class ReportWriter;
    explicit Inserter(std::shared_ptr<Statement> s) : s_(std::move(s)) {}
    template <class T> void bindValue(int i, const T& v) {
      if constexpr (std::is_same_v<T, std::nullptr_t> || std::is_same_v<T, std::nullopt_t>)
        bindNull(i);
      else if constexpr (std::is_same_v<T, bool>)
        bindInt(i, v ? 1 : 0);
      else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
        bindInt(i, static_cast<std::int64_t>(v));
      else if constexpr (std::is_floating_point_v<T>)
        bindReal(i, static_cast<double>(v));
      else if constexpr (std::is_same_v<T, BlobRef>)
        bindBlob(i, v);
      else if constexpr (std::is_convertible_v<const T&, std::string_view>)
        bindText(i, std::string_view(v));
      else
        bindOptional(i, v);
    }
    template <class T> void bindOptional(int i, const std::optional<T>& v) {
      if (v)
        bindValue(i, *v);
      else
        bindNull(i);
    }
    void bindNull(int i);
    void bindInt(int i, std::int64_t v);
    void bindReal(int i, double v);
    void bindText(int i, std::string_view v);
    void bindBlob(int i, BlobRef v);
    void insert(int boundColumns);
    std::shared_ptr<Statement> s_;
  };

  /// Runs inserts on a writer thread (true) or in row() itself (false, the default). Waits for
  /// queued rows either way, throwing the first error any of them met.
  void writeInBackground(bool on);

  /// Starts a new report at `path` (written as "<path>.partial" until publish()). Creates the
  /// parent directory if needed. Throws ReportError naming the file.
  explicit ReportWriter(std::filesystem::path path);
  /// Removes the partial file of a report that was never published.
  ~ReportWriter();
  ReportWriter(ReportWriter&&) noexcept;
  ReportWriter& operator=(ReportWriter&&) noexcept;

  /// The final path (profile.pop).
  const std::filesystem::path& path() const;
  bool published() const;

  /// Inserts rows into the table described by TableDef, each row checked at compile time.
  template <class TableDef> class RowInserter {
  public:
    template <class... V> void row(const V&... values) {
      static_assert(sizeof...(V) == TableDef::table.columns.size(),
                    "a row has one value per column of its table, in the schema's column order");
      static_assert(rowFits<TableDef, V...>(), "a value does not fit its column: check the "
                                               "column's SQL type and NOT NULL in Schema.hpp");
      inserter_.row(values...);
    }

  private:
    friend class ReportWriter;
    explicit RowInserter(Inserter i) : inserter_(std::move(i)) {}
    Inserter inserter_;
  };

  /// One prepared insert into a table of Schema.hpp: inserter<schema::Steps>().
  template <class TableDef> RowInserter<TableDef> inserter() {
    return RowInserter<TableDef>(
        Inserter(prepareInsert(TableDef::table.name, TableDef::table.columns.size())));
  }
  /// Sets meta.key = value (insert or replace).
  void setMeta(std::string_view key, std::string_view value);

  /// In background: queued after the rows (see the top of this file). Otherwise run at once.
  void begin();
  void commit();
  /// Waits until the writer thread has run everything queued (rows, begin, commit), throwing
  /// the first error one of them met. Does nothing when not writing in background.
  void flush();
  /// Drops everything written since begin().
  void rollback();
  /// Commits, closes, renames the partial file to path() and reopens it for appending.
  void publish();

private:
  std::shared_ptr<Statement> prepareInsert(std::string_view table, std::size_t columns);
  std::unique_ptr<Impl> impl_;
};

/// Strings bind as TEXT; wrap encoded bytes with blob() to bind them as a BLOB.
inline BlobRef blob(const std::string& bytes) {
  return {bytes.data(), bytes.size()};
}

} // namespace tessera::profiler
