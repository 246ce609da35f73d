// Executables that carry a codelet file's object (issue 40, N7): a file Executable::deserialize
// refuses must leave nothing in the codelet cache, however often it is tried. Each load runs in
// a fresh process (codelet_runner --load-exe), as a process that never compiled the codelet:
// only such a process writes the carried object to the cache.
#include "CodeletFiles.hpp"
#include "codelets/Hash.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

int runner(const std::string& args, const fs::path& output) {
  const std::string command =
      std::string(CODELET_RUNNER) + " " + args + " > '" + output.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::uint64_t readU64(const std::string& b, std::size_t at) {
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i)
    n |= std::uint64_t(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return n;
}

/// `exe` with `extra` appended to its payload, and the payload's size and checksum made right,
/// as a foreign writer would.
std::string appendedAndResealed(std::string exe, const std::string& extra) {
  std::size_t at = 8 + 4;
  for (int i = 0; i < 2; ++i)
    at += 8 + readU64(exe, at);
  const std::size_t payload = at + 8 + 32;
  exe += extra;
  const std::uint64_t size = exe.size() - payload;
  for (int i = 0; i < 8; ++i)
    exe[at + i] = static_cast<char>(size >> (8 * i));
  poplar::detail::codelets::Hasher h;
  h.add(exe.substr(payload));
  exe.replace(at + 8, 32, h.hex());
  return exe;
}

std::size_t filesUnder(const fs::path& dir) {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->is_regular_file()) ++n;
  return n;
}

} // namespace

TEST_CASE("a refused executable leaves no codelet object in the cache",
          "[codelets][cache][executable]") {
  test::CodeletScratch s;
  const auto codelet = s.write("sum.cpp", test::kSumCodelet);
  const auto saved = s / "sum.exe";
  REQUIRE(runner("--save-exe '" + codelet.string() + "' '" + saved.string() + "'",
                 s / "save.txt") == 0);
  const auto refused = s / "refused.exe";
  // One byte after the compiled graph: refused ("bytes follow the compiled graph").
  test::writeFile(refused, appendedAndResealed(test::readFile(saved), std::string(1, '\0')));

  const auto fresh = s / "fresh-cache";
  const test::ScopedEnv env("TESSERA_CODELET_CACHE", fresh.string());
  for (int i = 0; i < 3; ++i) {
    CHECK(runner("--load-exe '" + refused.string() + "'", s / "refused.txt") == 1);
    CHECK(test::readFile(s / "refused.txt").find("corrupted") != std::string::npos);
  }
  CHECK(filesUnder(fresh) == 0);
  // The intact file loads its object from the executable, into the cache's executables/.
  CHECK(runner("--load-exe '" + saved.string() + "'", s / "loaded.txt") == 0);
  CHECK(test::readFile(s / "loaded.txt").find("sum 10") != std::string::npos);
  CHECK(filesUnder(fresh / "executables") == 1);
}
