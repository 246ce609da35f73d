// Executables: compileGraph, Executable::serialize/deserialize and Engine(Executable&&), and
// the clear errors a damaged, foreign or other-version executable gives.
#include "TestUtil.hpp"
#include "codelets/Hash.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <poplar/Executable.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

/// out = sum of each row of in (3 x 4), streamed in and out, with a constant and an initial value.
struct RowSums {
  Device device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  std::vector<Program> programs;
  RowSums() {
    Tensor in = g.addVariable(FLOAT, {3, 4}, "in");
    Tensor out = g.addVariable(FLOAT, {3}, "out");
    Tensor bias = g.addConstant(FLOAT, {3}, std::vector<float>{100, 200, 300}, "bias");
    Tensor counter = g.addVariable(UNSIGNED_INT, {1}, "counter");
    g.setInitialValue(counter, 7u);
    ComputeSet cs = g.addComputeSet("rowSums");
    for (unsigned i = 0; i < 3; ++i) {
      g.setTileMapping(in[i], i);
      g.setTileMapping(out[i], i);
      g.setTileMapping(bias[i], i);
      VertexRef v = g.addVertex(cs, "SumVertex", {{"in", in[i]}, {"out", out[i]}});
      g.setTileMapping(v, i);
    }
    g.setTileMapping(counter, 3);
    ComputeSet inc = g.addComputeSet("increment");
    VertexRef v = g.addVertex(inc, "IncrementVertex", {{"counter", counter[0]}});
    g.setTileMapping(v, 3);
    DataStream inStream = g.addHostToDeviceFIFO("in", FLOAT, 12);
    DataStream outStream = g.addDeviceToHostFIFO("out", FLOAT, 3);
    g.createHostRead("bias", bias);
    g.createHostRead("counter", counter);
    programs.push_back(Sequence{Copy(inStream, in), Execute(cs), Copy(out, outStream)});
    programs.push_back(Repeat(2, Execute(inc)));
  }

  /// Runs both programs and returns what the host sees.
  std::vector<float> run(Engine& e) {
    std::vector<float> in(12), out(3), bias(3);
    std::vector<unsigned> counter(1);
    for (int i = 0; i < 12; ++i)
      in[i] = float(i);
    e.connectStream("in", in.data());
    e.connectStream("out", out.data());
    e.load(device);
    e.run(0);
    e.run(1);
    e.readTensor("bias", bias.data(), bias.data() + 3);
    e.readTensor("counter", counter.data(), counter.data() + 1);
    out.insert(out.end(), bias.begin(), bias.end());
    out.push_back(float(counter[0]));
    return out;
  }
};

std::string serialized(Executable& exe) {
  std::stringstream s;
  exe.serialize(s);
  return s.str();
}

std::string loadError(const std::string& bytes, bool checkPackageHash = true) {
  std::istringstream in(bytes);
  return test::messageOf<poplar_error>([&] { Executable::deserialize(in, checkPackageHash); });
}

/// The offset of the payload: magic, format version, two header strings, size and checksum.
std::size_t payloadOffset(const std::string& bytes) {
  std::size_t at = 8 + 4;
  for (int i = 0; i < 2; ++i) {
    std::uint64_t n = 0;
    for (int b = 0; b < 8; ++b)
      n |= std::uint64_t(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
    at += 8 + n;
  }
  return at + 8 + 32;
}

} // namespace

TEST_CASE_METHOD(RowSums, "an executable runs as the engine built from the graph does",
                 "[executable]") {
  Engine direct(g, programs);
  const auto expected = run(direct);
  CHECK(expected == std::vector<float>{6, 22, 38, 100, 200, 300, 9});

  SECTION("compiled, then given to an engine") {
    Engine e(compileGraph(g, programs));
    CHECK(run(e) == expected);
  }
  SECTION("compiled, saved, loaded") {
    Executable exe = compileGraph(g, programs);
    std::stringstream s;
    exe.serialize(s);
    Engine e(Executable::deserialize(s));
    CHECK(run(e) == expected);
  }
  SECTION("loaded from a file through the unique_ptr overload") {
    Executable exe = compileGraph(g, programs);
    const std::string path = "test_executable_rowsums.exe";
    {
      std::ofstream f(path, std::ios::binary);
      exe.serialize(f);
    }
    Engine e(Executable::deserialize(
        std::unique_ptr<std::istream>(new std::ifstream(path, std::ios::binary))));
    CHECK(run(e) == expected);
    std::remove(path.c_str());
  }
}

TEST_CASE_METHOD(RowSums, "serializing the same executable twice gives the same bytes",
                 "[executable]") {
  Executable a = compileGraph(g, programs);
  Executable b = compileGraph(g, programs);
  CHECK(serialized(a) == serialized(b));
  std::istringstream in(serialized(a));
  Executable loaded = Executable::deserialize(in);
  CHECK(serialized(loaded) == serialized(a)); // nothing is lost on the way through
}

TEST_CASE_METHOD(RowSums, "compileGraph checks its options and the graph", "[executable]") {
  CHECK_THROWS_AS(compileGraph(g, programs, {{"no.such.option", "1"}}), invalid_option);
  Tensor unmapped = g.addVariable(FLOAT, {2}, "unmapped");
  ComputeSet cs = g.addComputeSet("bad");
  VertexRef v = g.addVertex(cs, "SumVertex", {{"in", unmapped}, {"out", unmapped[0]}});
  g.setTileMapping(v, 0);
  CHECK_THROWS_AS(compileGraph(g, {Execute(cs)}), invalid_tile_mapping);
}

TEST_CASE_METHOD(RowSums, "an empty executable is an error, not a crash", "[executable]") {
  Executable exe = compileGraph(g, programs);
  Engine e(std::move(exe));
  std::stringstream out;
  CHECK_THROWS_MATCHES(exe.serialize(out), poplar_error, test::What(Catch::Contains("empty")));
  CHECK_THROWS_MATCHES([] { Engine empty{Executable()}; }(), runtime_error,
                       test::What(Catch::Contains("empty")));
}

TEST_CASE_METHOD(RowSums, "bad executables give an error naming the problem",
                 "[executable][errors]") {
  Executable exe = compileGraph(g, programs);
  const std::string good = serialized(exe);
  const std::size_t payload = payloadOffset(good);
  REQUIRE(payload < good.size());

  CHECK_THAT(loadError(""), Catch::Contains("the stream is empty"));
  CHECK_THAT(loadError("just some text, not an executable"),
             Catch::Contains("not a Tessera executable"));
  CHECK_THAT(loadError(std::string("PK\x03\x04", 4) + std::string(100, 'x')),
             Catch::Contains("not a Tessera executable"));
  CHECK_THAT(loadError(good.substr(0, 5)), Catch::Contains("truncated"));
  CHECK_THAT(loadError(good.substr(0, 20)), Catch::Contains("truncated"));
  CHECK_THAT(loadError(good.substr(0, payload - 10)), Catch::Contains("truncated"));
  CHECK_THAT(loadError(good.substr(0, payload + (good.size() - payload) / 2)),
             Catch::Contains("truncated") && Catch::Contains("payload"));
  CHECK_THAT(loadError(good.substr(0, good.size() - 1)), Catch::Contains("truncated"));

  // Every byte of the payload is covered by the checksum.
  for (std::size_t at : {payload, payload + 1, (payload + good.size()) / 2, good.size() - 1}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x20);
    CHECK_THAT(loadError(bad), Catch::Contains("corrupted") && Catch::Contains("checksum"));
  }

  SECTION("a file that cannot be opened") {
    std::ifstream missing("no/such/file.exe");
    CHECK_THAT(test::messageOf<poplar_error>([&] { Executable::deserialize(missing); }),
               Catch::Contains("not readable"));
  }
}

TEST_CASE_METHOD(RowSums, "an executable from another Tessera version or format is refused",
                 "[executable][errors]") {
  Executable exe = compileGraph(g, programs);
  const std::string good = serialized(exe);
  // The Tessera version is the first header string: its bytes follow its 8-byte length.
  const std::size_t versionAt = 8 + 4 + 8;
  std::string other = good;
  for (std::size_t i = versionAt; i < versionAt + 3; ++i)
    other[i] = '9';
  const std::string msg = loadError(other);
  CHECK_THAT(msg, Catch::Contains("made by Tessera 999") &&
                      Catch::Contains("compile the program again"));
  // The version alone differs: asked to, the loader takes it.
  std::istringstream in(other);
  Engine e(Executable::deserialize(in, false));
  CHECK(run(e) == std::vector<float>{6, 22, 38, 100, 200, 300, 9});

  std::string newerFormat = good;
  newerFormat[8] = static_cast<char>(newerFormat[8] + 1);
  CHECK_THAT(loadError(newerFormat), Catch::Contains("format version 4") &&
                                         Catch::Contains("reads (format version 3)") &&
                                         Catch::Contains("update Tessera"));
  CHECK_THAT(loadError(newerFormat, false), Catch::Contains("format version 4"));

  // Format versions 1 and 2 had a hand-written payload: refused by name, whatever follows.
  for (char older : {'\1', '\2'}) {
    std::string olderFormat = good;
    olderFormat[8] = older;
    CHECK_THAT(loadError(olderFormat, false),
               Catch::Contains("written by an older Tessera") &&
                   Catch::Contains("before the Cap'n Proto schema") &&
                   Catch::Contains("compile the program again"));
  }
}

TEST_CASE_METHOD(RowSums, "a payload that is not a whole Cap'n Proto message is refused by name",
                 "[executable][errors]") {
  Executable exe = compileGraph(g, programs);
  const std::string good = serialized(exe);
  const std::size_t payload = payloadOffset(good);
  // Resealed: the header's size and checksum made to fit, as a foreign writer would.
  auto resealed = [&](std::string body) {
    std::string b = good.substr(0, payload - 40);
    for (int i = 0; i < 8; ++i)
      b.push_back(static_cast<char>(std::uint64_t(body.size()) >> (8 * i)));
    poplar::detail::codelets::Hasher h;
    h.add(body);
    return b + h.hex() + body;
  };
  const std::string body = good.substr(payload);
  {
    std::istringstream in(resealed(body)); // the reseal alone changes nothing
    CHECK_NOTHROW(Executable::deserialize(in));
  }
  CHECK_THAT(loadError(resealed(body + "1234567")),
             Catch::Contains("corrupted") && Catch::Contains("not a whole number of 8-byte words"));
  CHECK_THAT(loadError(resealed(body + std::string(8, '\0'))),
             Catch::Contains("corrupted") && Catch::Contains("8 bytes follow the message"));
  // The segment table claims more words than there are.
  std::string longer = body;
  longer[4] = static_cast<char>(0xff);
  longer[5] = static_cast<char>(0xff);
  CHECK_THAT(loadError(resealed(longer)), Catch::Contains("the executable is corrupted"));
  // Pointers that alias: 10,000 vertex types whose names and codelet sources all point at one
  // 80 KB text. The message is 240 KB; reading every name would copy 1.6 GB. The traversal
  // limit (a few times the message's words) refuses it after a dozen.
  {
    const std::uint64_t types = 10000, textBytes = 80000, textWords = textBytes / 8;
    const std::uint64_t text = 8 + 2 * types, total = text + textWords;
    std::vector<std::uint64_t> w(1 + total, 0);
    w[0] = total << 32;                      // segment table: one segment of `total` words
    w[1] = std::uint64_t(6) << 48;           // root: the Executable, 6 pointers, at word 1
    w[1 + 3] = 1 | (std::uint64_t(3) << 2) | // vertexTypes: a composite list 3 words on
               (std::uint64_t(7) << 32) | (2 * types << 35);
    w[1 + 7] = (types << 2) | (std::uint64_t(2) << 48); // its tag: 10,000 structs of 2 pointers
    for (std::uint64_t at = 8; at < text; ++at)         // every name and source: the same bytes
      w[1 + at] = 1 | ((text - (at + 1)) << 2) | (std::uint64_t(2) << 32) | (textBytes << 35);
    std::string bytes(reinterpret_cast<const char*>(w.data()), w.size() * 8);
    std::fill(bytes.begin() + 8 * (1 + text), bytes.end() - 1, 'x'); // the text, NUL-terminated
    CHECK_THAT(loadError(resealed(bytes)), Catch::Contains("the executable is corrupted") &&
                                               Catch::Contains("more data than the file holds"));
  }
  // A message of one null pointer: every field at its default, so a target without tiles.
  std::string empty(16, '\0');
  empty[4] = 1; // one segment of one word
  CHECK_THAT(loadError(resealed(empty)),
             Catch::Contains("the executable is corrupted") && Catch::Contains("no tiles"));
  CHECK_THAT(loadError(resealed(empty)), Catch::Contains("the executable is corrupted"));
}
