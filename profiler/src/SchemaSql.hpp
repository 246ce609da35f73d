// SQL built from the schema descriptors, so that no table or column name is spelled twice.
#pragma once

#include <cstddef>
#include <profiler/Schema.hpp>
#include <string>
#include <string_view>

namespace tessera::profiler::schema {

/// CREATE TABLE "name" ("col" type, ..., constraints)
std::string createTableSql(std::string_view table, const Column* columns, std::size_t n,
                           std::string_view constraints);
template <std::size_t N> std::string createTableSql(const Table<N>& t) {
  return createTableSql(t.name, t.columns.data(), N, t.constraints);
}
/// CREATE INDEX "name" ON "table" ("column")
std::string createIndexSql(const Index& index);
/// INSERT INTO "table" VALUES (?, ...) with n parameters.
std::string insertSql(std::string_view table, std::size_t n);

} // namespace tessera::profiler::schema
