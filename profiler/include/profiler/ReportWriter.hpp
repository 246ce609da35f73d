// Writes profile.pop: the schema from Schema.hpp, rows bound in column order, transactions, and
// the atomic publish (the report is built under "<path>.partial" and renamed when complete, so a
// crash never leaves a half-written report under the real name). After publish() the report
// stays open for appending execution runs, each committed as one transaction.
//
//   ReportWriter w("reports/profile.pop");
//   w.begin();
//   auto programs = w.inserter(schema::Programs::table);
//   programs.row(id, "OnTileExecute", name, nullptr /*NULL*/, ...);
//   w.commit();
//   w.publish();
#pragma once

#include <profiler/Schema.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace tessera::profiler {

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
  struct Impl;
  struct Statement;

public:
  /// Inserts rows into one table with one prepared statement.
  class Inserter {
  public:
    /// Binds the values to the table's columns in order (nullptr or std::nullopt: NULL) and inserts.
    template <class... V> void row(const V&... values) {
      int i = 0;
      (bindValue(++i, values), ...);
      insert(i);
    }

  private:
    friend class ReportWriter;
    explicit Inserter(std::shared_ptr<Statement> s) : s_(std::move(s)) {}
    template <class T> void bindValue(int i, const T& v) {
      if constexpr (std::is_same_v<T, std::nullptr_t> || std::is_same_v<T, std::nullopt_t>) bindNull(i);
      else if constexpr (std::is_same_v<T, bool>) bindInt(i, v ? 1 : 0);
      else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) bindInt(i, static_cast<std::int64_t>(v));
      else if constexpr (std::is_floating_point_v<T>) bindReal(i, static_cast<double>(v));
      else if constexpr (std::is_same_v<T, BlobRef>) bindBlob(i, v);
      else if constexpr (std::is_convertible_v<const T&, std::string_view>) bindText(i, std::string_view(v));
      else bindOptional(i, v);
    }
    template <class T> void bindOptional(int i, const std::optional<T>& v) {
      if (v) bindValue(i, *v);
      else bindNull(i);
    }
    void bindNull(int i);
    void bindInt(int i, std::int64_t v);
    void bindReal(int i, double v);
    void bindText(int i, std::string_view v);
    void bindBlob(int i, BlobRef v);
    void insert(int boundColumns);
    std::shared_ptr<Statement> s_;
  };

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

  template <std::size_t N> Inserter inserter(const schema::Table<N>& table) {
    return Inserter(prepareInsert(table.name, N));
  }
  /// Sets meta.key = value (insert or replace).
  void setMeta(std::string_view key, std::string_view value);

  void begin();
  void commit();
  /// Drops everything written since begin().
  void rollback();
  /// Commits, closes, renames the partial file to path() and reopens it for appending.
  void publish();

private:
  std::shared_ptr<Statement> prepareInsert(std::string_view table, std::size_t columns);
  std::unique_ptr<Impl> impl_;
};

/// Strings bind as TEXT; wrap encoded bytes with blob() to bind them as a BLOB.
inline BlobRef blob(const std::string& bytes) { return {bytes.data(), bytes.size()}; }

} // namespace tessera::profiler
