#include "WalReplay.hpp"

#include <cstdint>
#include <map>

namespace pva::storage {

namespace {

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
         p[3];
}

/// SQLite's WAL checksum over `n` bytes (a multiple of 8), continuing from s[0], s[1]. The
/// words are big-endian when the magic number's low bit is set, little-endian otherwise.
void checksum(const unsigned char* p, std::size_t n, bool bigEndian, std::uint32_t s[2]) {
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    std::uint32_t a, b;
    if (bigEndian) {
      a = be32(p + i);
      b = be32(p + i + 4);
    } else {
      a = std::uint32_t(p[i]) | (std::uint32_t(p[i + 1]) << 8) | (std::uint32_t(p[i + 2]) << 16) |
          (std::uint32_t(p[i + 3]) << 24);
      b = std::uint32_t(p[i + 4]) | (std::uint32_t(p[i + 5]) << 8) |
          (std::uint32_t(p[i + 6]) << 16) | (std::uint32_t(p[i + 7]) << 24);
    }
    s[0] += a + s[1];
    s[1] += b + s[0];
  }
}

} // namespace

void replayWal(std::string& db, const std::string& wal) {
  const auto* w = reinterpret_cast<const unsigned char*>(wal.data());
  if (wal.size() < kWalHeaderBytes) return;
  const std::uint32_t magic = be32(w);
  if (magic != 0x377f0682 && magic != 0x377f0683) return; // not a WAL: nothing committed in it
  const bool bigEndian = magic & 1;
  const std::uint32_t pageSize = be32(w + 8) == 1 ? 65536 : be32(w + 8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1))) return;
  std::uint32_t sum[2] = {0, 0};
  checksum(w, 24, bigEndian, sum);
  if (sum[0] != be32(w + 24) || sum[1] != be32(w + 28)) return;
  const std::uint32_t salt1 = be32(w + 16), salt2 = be32(w + 20);
  // A commit may not make the database larger than the bytes both files hold: a hostile
  // journal cannot make the replay allocate more than that.
  const std::uint64_t maxBytes = std::uint64_t(db.size()) + wal.size();

  std::map<std::uint32_t, std::size_t> pending; // page -> offset of its latest frame's data
  const std::size_t frameBytes = 24 + std::size_t(pageSize);
  for (std::size_t at = kWalHeaderBytes; at + frameBytes <= wal.size(); at += frameBytes) {
    const unsigned char* f = w + at;
    if (be32(f + 8) != salt1 || be32(f + 12) != salt2) break; // left over from an older log
    checksum(f, 8, bigEndian, sum);
    checksum(f + 24, pageSize, bigEndian, sum);
    if (sum[0] != be32(f + 16) || sum[1] != be32(f + 20)) break; // torn write: ends the log
    const std::uint32_t page = be32(f);
    if (page == 0 || std::uint64_t(page) * pageSize > maxBytes) break;
    pending[page] = at + 24;
    const std::uint32_t commitPages = be32(f + 4);
    if (commitPages == 0) continue;
    if (std::uint64_t(commitPages) * pageSize > maxBytes) break;
    // A commit: its transaction's pages are now the database's, which has commitPages pages.
    db.resize(std::size_t(commitPages) * pageSize, '\0');
    for (const auto& [p, offset] : pending)
      if (p <= commitPages)
        db.replace(std::size_t(p - 1) * pageSize, pageSize, wal, offset, pageSize);
    pending.clear();
  }
  // The copy is complete: read it as a rollback-journal database (format versions 1).
  if (db.size() >= 20) db[18] = db[19] = 1;
}

} // namespace pva::storage
