// Executables whose checksum is right but whose payload is not what Tessera wrote (another
// writer, or a deliberate edit): every field is checked against the graph it describes, so
// loading one gives a poplar_error, never a crash or a runtime that strays outside its memory.
#include "TestUtil.hpp"
#include "codelets/Hash.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <poplar/Executable.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace {

std::uint64_t readU64(const std::string& b, std::size_t at) {
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i)
    n |= std::uint64_t(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return n;
}

/// Where the payload starts and where its checksum is.
struct Layout {
  std::size_t checksum, payload;
};
Layout layout(const std::string& b) {
  std::size_t at = 8 + 4;
  for (int i = 0; i < 2; ++i)
    at += 8 + readU64(b, at);
  return {at + 8, at + 8 + 32};
}

/// The bytes with the payload's checksum recomputed, as a foreign writer would make them.
std::string resealed(std::string b) {
  const Layout l = layout(b);
  poplar::detail::codelets::Hasher h;
  h.add(b.substr(l.payload));
  const std::string hex = h.hex();
  b.replace(l.checksum, hex.size(), hex);
  return b;
}

struct Small {
  Device device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  std::string bytes;
  Small() {
    Tensor in = g.addVariable(FLOAT, {2, 8}, "in");
    Tensor out = g.addVariable(FLOAT, {2}, "out");
    Tensor n = g.addVariable(UNSIGNED_INT, {1}, "n");
    g.setInitialValue(n, 3u);
    ComputeSet cs = g.addComputeSet("sums");
    for (unsigned i = 0; i < 2; ++i) {
      g.setTileMapping(in[i], i);
      g.setTileMapping(out[i], i);
      VertexRef v = g.addVertex(cs, "SumVertex", {{"in", in[i]}, {"out", out[i]}});
      g.setTileMapping(v, i);
    }
    g.setTileMapping(n, 3);
    ComputeSet inc = g.addComputeSet("inc");
    VertexRef v = g.addVertex(inc, "IncrementVertex", {{"counter", n[0]}});
    g.setTileMapping(v, 3);
    DataStream s = g.addHostToDeviceFIFO("in", FLOAT, 16);
    g.createHostRead("out", out);
    Executable exe = compileGraph(g, {Sequence{Copy(s, in), Execute(cs), Repeat(2, Execute(inc))}});
    std::stringstream ss;
    exe.serialize(ss);
    bytes = ss.str();
  }
};

} // namespace

TEST_CASE_METHOD(Small, "a resealed payload naming a vertex this process lacks is refused by name",
                 "[executable][errors]") {
  std::string b = bytes;
  const auto at = b.find("IncrementVertex", layout(b).payload);
  REQUIRE(at != std::string::npos);
  b.replace(at, 15, "MissingVertexXX");
  std::istringstream in(resealed(b));
  CHECK_THROWS_MATCHES(
      Executable::deserialize(in), poplar_error,
      test::What(Catch::Contains("'MissingVertexXX'") && Catch::Contains("does not provide")));
}

TEST_CASE_METHOD(Small, "a resealed payload whose target has a negative host link rate is refused",
                 "[executable][errors]") {
  // The target's link rates are stored as doubles, the IPU link's (12) then the host link's (6):
  // found by the sanitized run of the test below (a negative rate made the host link's cycles a
  // float-to-integer conversion out of range).
  auto f64 = [](double v) {
    std::string out(8, '\0');
    std::memcpy(&out[0], &v, 8);
    return out;
  };
  std::string b = bytes;
  const auto at = b.find(f64(12.0) + f64(6.0), layout(b).payload);
  REQUIRE(at != std::string::npos);
  b.replace(at + 8, 8, f64(-6.0));
  std::istringstream in(resealed(b));
  CHECK_THROWS_MATCHES(
      Executable::deserialize(in), poplar_error,
      test::What(Catch::Contains("corrupted") && Catch::Contains("hostLinkBytesPerCycle")));
}

TEST_CASE_METHOD(Small, "resealed payloads with any byte changed load safely or not at all",
                 "[executable][errors]") {
  const std::size_t start = layout(bytes).payload;
  unsigned refused = 0, loaded = 0;
  for (std::size_t at = start; at < bytes.size(); ++at)
    for (unsigned char flip : {0x01, 0xff}) {
      std::string b = bytes;
      b[at] = static_cast<char>(static_cast<unsigned char>(b[at]) ^ flip);
      std::istringstream in(resealed(b));
      try {
        Engine e(Executable::deserialize(in));
        e.load(device);
        ++loaded; // e.g. a changed name, initial value or cycle estimate: still a valid graph
      } catch (const poplar_error&) {
        ++refused;
      } catch (const std::exception& e) {
        FAIL_CHECK("byte " << at - start << " of the payload ^ " << int(flip) << ": " << e.what());
      }
    }
  CHECK(refused > 0);
  CHECK(loaded > 0);
}
