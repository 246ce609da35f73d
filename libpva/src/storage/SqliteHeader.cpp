#include "SqliteHeader.hpp"

#include <cstring>

namespace pva::storage {

SqliteHeader checkSqliteHeader(const Source& source, std::uint64_t fileSize) {
  SqliteHeader out;
  const std::string head = readHead(source, 100);
  const auto* h = reinterpret_cast<const unsigned char*>(head.data());
  static const char kMagic[] = "SQLite format 3";
  if (head.empty()) {
    out.problem = SqliteHeader::Problem::Empty;
    return out;
  }
  if (head.size() < 100 || std::memcmp(h, kMagic, sizeof kMagic) != 0) {
    out.problem = SqliteHeader::Problem::NotSqlite;
    return out;
  }
  const std::uint32_t pageSizeField = (std::uint32_t(h[16]) << 8) | h[17];
  const std::uint64_t pageSize = pageSizeField == 1 ? 65536 : pageSizeField;
  auto be32 = [&](int o) {
    return (std::uint32_t(h[o]) << 24) | (std::uint32_t(h[o + 1]) << 16) |
           (std::uint32_t(h[o + 2]) << 8) | h[o + 3];
  };
  const std::uint32_t pages = be32(28), changeCounter = be32(24), validFor = be32(92);
  if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0) {
    out.problem = SqliteHeader::Problem::BadPageSize;
    return out;
  }
  if (pages != 0 && changeCounter == validFor && fileSize < std::uint64_t(pages) * pageSize) {
    out.problem = SqliteHeader::Problem::Truncated;
    out.headerBytes = std::uint64_t(pages) * pageSize;
  }
  return out;
}

} // namespace pva::storage
