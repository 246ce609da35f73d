#include "SchemaSql.hpp"

#include <tessera/internal/Sqlite.hpp>

namespace tessera::profiler::schema {

using sqlite::quoteIdentifier;

std::string createTableSql(std::string_view table, const Column* columns, std::size_t n,
                           std::string_view constraints) {
  std::string sql = "CREATE TABLE " + quoteIdentifier(table) + " (";
  for (std::size_t i = 0; i < n; ++i) {
    if (i) sql += ", ";
    sql += quoteIdentifier(columns[i].name);
    sql += ' ';
    sql += columns[i].sqlType;
  }
  if (!constraints.empty()) {
    sql += ", ";
    sql += constraints;
  }
  sql += ')';
  return sql;
}

std::string createIndexSql(const Index& index) {
  return "CREATE INDEX " + quoteIdentifier(index.name) + " ON " + quoteIdentifier(index.table) +
         " (" + quoteIdentifier(index.column) + ")";
}

std::string insertSql(std::string_view table, std::size_t n) {
  std::string sql = "INSERT INTO " + quoteIdentifier(table) + " VALUES (";
  for (std::size_t i = 0; i < n; ++i)
    sql += i ? ",?" : "?";
  sql += ')';
  return sql;
}

} // namespace tessera::profiler::schema
