// The codelet cache: a second run loads what the first compiled, an edit compiles again, a
// damaged or foreign entry is rebuilt rather than loaded, and processes compiling the same
// codelet at the same time into one cache all succeed. Each run is a separate process
// (codelet_runner), as a user's runs are.
#include "CodeletFiles.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

const std::string kMagic("TESSERA-GP-V1\n\0\0", 16);

/// The trailer of a .gp (metadata, size, magic) as bytes; empty if there is none.
std::string trailerOf(const std::string& gp) {
  if (gp.size() < 24 || gp.compare(gp.size() - 16, 16, kMagic) != 0) return {};
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i)
    n |= std::uint64_t(static_cast<unsigned char>(gp[gp.size() - 24 + i])) << (8 * i);
  return gp.substr(gp.size() - 24 - n);
}

/// Runs the codelet once to fill the cache and returns its one entry.
fs::path compiledEntry(const test::CodeletScratch& scratch, const fs::path& codelet) {
  REQUIRE(scratch.run(codelet, scratch / "first.txt") == 0);
  const auto entries = scratch.entries();
  REQUIRE(entries.size() == 1);
  return entries[0];
}

/// Runs the codelet again after its entry was damaged: it must work and the entry be whole.
void checkRebuilt(const test::CodeletScratch& scratch, const fs::path& codelet,
                  const fs::path& entry, const std::string& damaged) {
  INFO(test::readFile(scratch / "second.txt"));
  CHECK(scratch.run(codelet, scratch / "second.txt") == 0);
  CHECK(test::readFile(scratch / "second.txt") == "sum 10\n");
  const std::string now = test::readFile(entry);
  CHECK(now != damaged);
  CHECK(now.find("tessera_codelets_register_v1") != std::string::npos);
  CHECK(trailerOf(now).find("tessera " TESSERA_VERSION "\n") != std::string::npos);
}

} // namespace

TEST_CASE("a second run loads the cached codelet and an edited codelet is compiled again",
          "[codelets][cache]") {
  test::CodeletScratch scratch;
  const auto codelet = scratch.write("sum_codelets.cpp", test::kSumCodelet);
  const fs::path entry = compiledEntry(scratch, codelet);
  CHECK(test::readFile(scratch / "first.txt") == "sum 10\n");
  const auto written = fs::last_write_time(entry);

  REQUIRE(scratch.run(codelet, scratch / "second.txt") == 0);
  CHECK(scratch.entries() == std::vector<fs::path>{entry});
  CHECK(fs::last_write_time(entry) == written);

  // The same vertex, written differently: a new entry, not the old one.
  test::writeFile(codelet, std::string(test::kSumCodelet) + "// edited\n");
  REQUIRE(scratch.run(codelet, scratch / "third.txt") == 0);
  CHECK(scratch.entries().size() == 2);
}

TEST_CASE("an edited header the codelet includes is compiled again", "[codelets][cache]") {
  test::CodeletScratch scratch;
  scratch.write("offset.h", "#define OFFSET 0\n");
  const auto codelet = scratch.write(
      "offset_codelets.cpp",
      "#include \"offset.h\"\n#include <poplar/Vertex.hpp>\n"
      "class Sum : public poplar::Vertex {\npublic:\n"
      "  poplar::Input<poplar::Vector<float>> in;\n  poplar::Output<float> out;\n"
      "  void compute() { float s = OFFSET; for (float x : in) s += x; *out = s; }\n};\n");
  compiledEntry(scratch, codelet);
  scratch.write("offset.h", "#define OFFSET 5\n");
  CHECK(scratch.run(codelet, scratch / "second.txt") == 1); // the runner wants 10
  CHECK(test::readFile(scratch / "second.txt") == "sum 15\n");
}

TEST_CASE("a truncated cache entry is rebuilt, not loaded", "[codelets][cache]") {
  test::CodeletScratch scratch;
  const auto codelet = scratch.write("sum_codelets.cpp", test::kSumCodelet);
  const fs::path entry = compiledEntry(scratch, codelet);
  SECTION("cut in the middle of the shared object") {
    const std::string damaged = test::readFile(entry).substr(0, fs::file_size(entry) / 2);
    test::writeFile(entry, damaged);
    checkRebuilt(scratch, codelet, entry, damaged);
  }
  SECTION("bytes of the shared object overwritten, trailer intact") {
    std::string damaged = test::readFile(entry);
    for (std::size_t i = 4096; i < 4096 + 512 && i < damaged.size() / 2; ++i)
      damaged[i] = '\x5a';
    test::writeFile(entry, damaged);
    checkRebuilt(scratch, codelet, entry, damaged);
  }
}

TEST_CASE("a cache entry with a wrong trailer is rebuilt, not loaded", "[codelets][cache]") {
  test::CodeletScratch scratch;
  const auto codelet = scratch.write("sum_codelets.cpp", test::kSumCodelet);
  const fs::path entry = compiledEntry(scratch, codelet);
  std::string damaged = test::readFile(entry);
  const std::size_t at = damaged.size() - trailerOf(damaged).size();
  SECTION("another Tessera version") {
    const std::size_t v = damaged.find("tessera " TESSERA_VERSION "\n", at);
    REQUIRE(v != std::string::npos);
    damaged[v + 8] = damaged[v + 8] == '9' ? '8' : '9'; // same length: the size field stays right
  }
  SECTION("another build's poplar/Vertex.hpp") {
    const std::size_t h = damaged.find("abi-hash ", at);
    REQUIRE(h != std::string::npos);
    damaged[h + 9] = damaged[h + 9] == '0' ? '1' : '0';
  }
  SECTION("no trailer at all") {
    damaged.resize(at);
  }
  SECTION("a damaged magic") {
    damaged.back() = 'x';
  }
  test::writeFile(entry, damaged);
  checkRebuilt(scratch, codelet, entry, damaged);
}

TEST_CASE("a cache entry without the registration entry point is rebuilt, not loaded",
          "[codelets][cache]") {
  test::CodeletScratch scratch;
  const auto codelet = scratch.write("sum_codelets.cpp", test::kSumCodelet);
  const fs::path entry = compiledEntry(scratch, codelet);
  // Another shared object, with the real entry's trailer after it.
  const auto other = scratch.write("other.cpp", "extern \"C\" int somethingElse() { return 1; }\n");
  const fs::path so = scratch / "other.so";
  REQUIRE(std::system(("clang++-14 -shared -fPIC -o '" + so.string() + "' '" + other.string() + "'")
                          .c_str()) == 0);
  const std::string damaged = test::readFile(so) + trailerOf(test::readFile(entry));
  test::writeFile(entry, damaged);
  checkRebuilt(scratch, codelet, entry, damaged);
}

TEST_CASE("two processes compiling the same codelet into one cache both succeed",
          "[codelets][cache]") {
  test::CodeletScratch scratch;
  const auto codelet = scratch.write("sum_codelets.cpp", test::kSumCodelet);
  const std::string runner = std::string(CODELET_RUNNER) + " '" + codelet.string() + "' > '";
  const std::string both = runner + (scratch / "a.txt").string() + "' 2>&1 & a=$!; " + runner +
                           (scratch / "b.txt").string() +
                           "' 2>&1 & b=$!; wait $a; ra=$?; wait $b; rb=$?; " +
                           "exit $((ra * 10 + rb))";
  const int status = std::system(both.c_str());
  INFO(test::readFile(scratch / "a.txt") << test::readFile(scratch / "b.txt"));
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(test::readFile(scratch / "a.txt") == "sum 10\n");
  CHECK(test::readFile(scratch / "b.txt") == "sum 10\n");
  // One entry, and no half-written files left behind.
  CHECK(scratch.entries().size() == 1);
  for (const auto& e : fs::directory_iterator(scratch.cache()))
    CHECK((e.path().filename().string().find("tmp") == std::string::npos &&
           e.path().filename().string().rfind("building-", 0) != 0));
}

TEST_CASE("a damaged precompiled poplar/Vertex.hpp in the cache is rebuilt, not trusted",
          "[codelets][cache]") {
  test::CodeletScratch scratch;
  const auto codelet = scratch.write("sum_codelets.cpp", test::kSumCodelet);
  compiledEntry(scratch, codelet);
  std::vector<fs::path> pchs;
  for (const auto& e : fs::directory_iterator(scratch.cache() / "pch"))
    if (e.path().extension() == ".pch") pchs.push_back(e.path());
  REQUIRE(pchs.size() == 1);
  const std::string whole = test::readFile(pchs[0]);
  const std::string damaged = whole.substr(0, whole.size() / 3);
  test::writeFile(pchs[0], damaged);
  // An edit makes the next run compile, with the damaged header in its way.
  test::writeFile(codelet, std::string(test::kSumCodelet) + "// edited\n");
  INFO(test::readFile(scratch / "second.txt"));
  CHECK(scratch.run(codelet, scratch / "second.txt") == 0);
  CHECK(test::readFile(scratch / "second.txt") == "sum 10\n");
  CHECK(fs::file_size(pchs[0]) > damaged.size());
}
