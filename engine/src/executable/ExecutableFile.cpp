// The executable file: a header that says what the file is and which Tessera wrote it, then a
// checksummed payload holding the executable as one Cap'n Proto message (the schema is
// profiler/schema/executable.capnp; ExecutableWrite.cpp and ExecutableRead.cpp turn the compiled
// graph into it and back). Vertex types are stored by name and codelet source and found again
// in the loading process; the codelet objects that codelet files were compiled into travel
// inside the message, so the loading process needs neither the sources nor the cache of the
// process that compiled them.
#include "ExecutableChecks.hpp"
#include "ExecutableMessage.hpp"
#include "LibraryVertices.hpp"
#include "codelets/CodeletLoader.hpp"
#include "codelets/Hash.hpp"

#include <algorithm>
#include <capnp/serialize.h>
#include <cstring>
#include <istream>
#include <ostream>
#include <poplar/exceptions.hpp>

namespace poplar::detail::executable {
using codelets::displaySourceName;

namespace {

constexpr char kMagic[8] = {'T', 'S', 'R', 'E', 'X', 'E', '\r', '\n'};
/// Longest string the header may hold (versions and hashes are short; a foreign file is not).
constexpr std::size_t kMaxHeaderString = 256;
/// Cap'n Proto's traversal limit, in words per word of the message: the reader follows each
/// pointer of the message three times (its head, the graph before the codelet objects are
/// loaded, the graph after), so a message whose pointers lead to the same lists again and again
/// is refused once it has made the reader do more than a few times its own size of work.
/// Cap'n Proto's default (64 MiB) is too small for a large graph and too generous for a small
/// file. The slack covers the few words an empty graph reads.
constexpr std::uint64_t kTraversalsPerWord = 4, kTraversalSlackWords = 1024;
/// Cap'n Proto's nesting limit: the schema nests six pointers deep at most (executable, graph,
/// compute sets, fields, edges, runs); anything deeper is not a message this schema describes.
constexpr int kNestingLimit = 16;

void putU32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>(v >> (8 * i)));
}
void putU64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<char>(v >> (8 * i)));
}
std::uint64_t getLE(const std::string& b) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    v |= std::uint64_t(static_cast<unsigned char>(b[i])) << (8 * i);
  return v;
}

/// What is left to read in a stream that can say (a file, a string); 0 for one that cannot.
std::uint64_t bytesLeft(std::istream& in) {
  const std::streampos here = in.tellg();
  if (here == std::streampos(-1)) {
    in.clear(in.rdstate() & ~std::ios::failbit);
    return 0;
  }
  in.seekg(0, std::ios::end);
  const std::streampos end = in.tellg();
  in.clear(in.rdstate() & ~std::ios::failbit);
  in.seekg(here);
  return end == std::streampos(-1) || end < here ? 0 : static_cast<std::uint64_t>(end - here);
}

/// Cap'n Proto's reason in words a reader of the file understands, where it has its own.
std::string reason(const kj::Exception& e) {
  const std::string why = e.getDescription().cStr();
  if (why.find("'\\0'") != std::string::npos) return "a text is not NUL-terminated";
  if (why.find("traversal limit") != std::string::npos)
    return "its pointers lead to more data than the file holds (the same lists read over and over)";
  if (why.find("nesting limit") != std::string::npos)
    return "its pointers nest deeper than an executable's";
  return why;
}

/// The vertex type `name` of codelet source `source` in this process, loading the embedded
/// codelet object when the source came from a codelet file.
const VertexTypeDescriptor* findType(const std::string& name, const std::string& source,
                                     const std::map<std::string, std::string>& objects) {
  auto lookup = [&]() -> const VertexTypeDescriptor* {
    for (const auto* t : findVertexTypes(name))
      if (t->codeletSource == source) return t;
    return nullptr;
  };
  if (const auto* t = lookup()) return t;
  if (auto it = objects.find(source); it != objects.end()) {
    poplar::detail::codelets::loadEmbeddedCodeletObject(it->second, source);
    if (const auto* t = lookup()) return t;
  }
  // PopLibs' vertices: their library, loaded when the program does not link it.
  if (loadVertexLibrary(source))
    if (const auto* t = lookup()) return t;
  throw poplar_error(
      "Executable::deserialize: the executable runs vertex '" + name + "' from codelet source '" +
      displaySourceName(source) +
      "', which this process does not provide: link the library that defines it (for "
      "PopLibs' vertices -lpopops, -lpoplin, ...; for TESSERA_VERTEX lines, the file that has "
      "them)");
}

} // namespace

void writeExecutable(const core::Executable& exe, std::ostream& out) {
  capnp::MallocMessageBuilder message;
  kj::Array<capnp::word> words;
  try {
    buildExecutableMessage(exe, message.initRoot<exefile::Executable>());
    words = capnp::messageToFlatArray(message);
  } catch (const kj::Exception& e) {
    // Cap'n Proto's own limits: a list of at most 2^29 elements, a Data of at most 512 MiB (one
    // variable's initial values).
    throw poplar_error(std::string("Executable::serialize: the executable cannot be written: ") +
                       e.getDescription().cStr());
  }
  const kj::ArrayPtr<const char> payload = words.asChars();

  poplar::detail::codelets::Hasher h;
  // As Hasher::add(std::string) does (the reader's): the length, then the bytes, without a copy.
  const std::uint64_t length = payload.size();
  h.add(&length, sizeof length);
  h.add(payload.begin(), payload.size());
  std::string header(kMagic, sizeof kMagic);
  putU32(header, kExecutableFormatVersion);
  putU64(header, std::string_view(TESSERA_VERSION).size());
  header += TESSERA_VERSION;
  putU64(header, std::string_view(TESSERA_CODELET_ABI_HASH).size());
  header += TESSERA_CODELET_ABI_HASH;
  putU64(header, payload.size());
  header += h.hex();
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(payload.begin(), static_cast<std::streamsize>(payload.size()));
  out.flush();
  if (!out) throw poplar_error("Executable::serialize: the stream cannot be written");
}

std::unique_ptr<core::Executable> readExecutable(std::istream& in, bool checkPackageHash) {
  const std::string where = "Executable::deserialize: ";
  if (!in) throw poplar_error(where + "the stream is not readable (was the file opened?)");
  auto readExactly = [&](std::size_t n, const char* what) {
    std::string s(n, '\0');
    in.read(s.data(), static_cast<std::streamsize>(n));
    if (static_cast<std::size_t>(in.gcount()) != n)
      throw poplar_error(where + "the executable is truncated: it ends in its " + what + " (" +
                         std::to_string(in.gcount()) + " of " + std::to_string(n) + " bytes)");
    return s;
  };
  auto readU32 = [&](const char* what) {
    return static_cast<std::uint32_t>(getLE(readExactly(4, what)));
  };
  auto readU64 = [&](const char* what) { return getLE(readExactly(8, what)); };
  auto readHeaderString = [&](const char* what) {
    const std::uint64_t n = readU64(what);
    if (n > kMaxHeaderString)
      throw poplar_error(where + "the executable's header is corrupted (its " + what + " is " +
                         std::to_string(n) + " bytes long)");
    return readExactly(static_cast<std::size_t>(n), what);
  };

  std::string magic(sizeof kMagic, '\0');
  in.read(magic.data(), sizeof kMagic);
  if (in.gcount() == 0) throw poplar_error(where + "the stream is empty: it holds no executable");
  magic.resize(static_cast<std::size_t>(in.gcount()));
  if (magic != std::string(kMagic, sizeof kMagic)) {
    if (magic.size() < sizeof kMagic && std::string(kMagic, magic.size()) == magic)
      throw poplar_error(where + "the executable is truncated: it ends in its header");
    throw poplar_error(
        where + "this is not a Tessera executable (it does not start with Tessera's executable "
                "header; executables from the Poplar SDK cannot be loaded)");
  }
  const std::uint32_t format = readU32("format version");
  // The version rule (profiler/schema/executable.capnp): a reader reads its own format version.
  if (format < kExecutableFormatVersion)
    throw poplar_error(
        where + "the executable was written by an older Tessera (format version " +
        std::to_string(format) +
        (format <= kLastHandWrittenFormatVersion ? ", before the Cap'n Proto schema" : "") +
        "); this Tessera (" + TESSERA_VERSION + ") reads format version " +
        std::to_string(kExecutableFormatVersion) + ": compile the program again");
  if (format != kExecutableFormatVersion)
    throw poplar_error(where + "the executable has format version " + std::to_string(format) +
                       ", newer than this Tessera (" + TESSERA_VERSION +
                       ") reads (format version " + std::to_string(kExecutableFormatVersion) +
                       "): update Tessera, or compile the program again with this one");
  const std::string version = readHeaderString("Tessera version");
  const std::string abiHash = readHeaderString("codelet ABI hash");
  if (checkPackageHash && (version != TESSERA_VERSION || abiHash != TESSERA_CODELET_ABI_HASH))
    throw poplar_error(
        where + "the executable was made by Tessera " + version + " (build " + abiHash +
        "); this is Tessera " + TESSERA_VERSION + " (build " + TESSERA_CODELET_ABI_HASH +
        "): compile the program again, or pass checkPackageHash = false to try it anyway");
  const std::uint64_t size = readU64("payload size");
  const std::string checksum = readExactly(32, "checksum");
  // The payload goes to memory aligned for Cap'n Proto's words. The header's size is not
  // trusted with an allocation: a stream that says it holds that much (a file, a string) is
  // read in one go, any other in chunks of 1 MiB as they arrive (a truncated one costs only
  // what it holds).
  const std::uint64_t available = bytesLeft(in);
  kj::Array<capnp::word> words;
  std::uint64_t got = 0;
  if (available >= size) {
    words = kj::heapArray<capnp::word>(static_cast<std::size_t>((size + 7) / 8));
    // A partial last word: zeros (memset: capnp::word cannot be assigned under clang).
    if (words.size() != 0) std::memset(static_cast<void*>(words.end() - 1), 0, sizeof(capnp::word));
    in.read(reinterpret_cast<char*>(words.begin()), static_cast<std::streamsize>(size));
    got = static_cast<std::uint64_t>(in.gcount());
  } else {
    std::string payload;
    constexpr std::size_t kChunk = 1 << 20;
    while (payload.size() < size && in) {
      const std::size_t n =
          static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - payload.size()));
      const std::size_t old = payload.size();
      payload.resize(old + n);
      in.read(payload.data() + old, static_cast<std::streamsize>(n));
      payload.resize(old + static_cast<std::size_t>(in.gcount()));
    }
    got = payload.size();
    if (got == size) {
      words = kj::heapArray<capnp::word>(static_cast<std::size_t>((size + 7) / 8));
      if (words.size() != 0)
        std::memset(static_cast<void*>(words.end() - 1), 0, sizeof(capnp::word));
      std::memcpy(words.begin(), payload.data(), payload.size());
    }
  }
  if (got != size)
    throw poplar_error(where + "the executable is truncated: its payload has " +
                       std::to_string(got) + " of " + std::to_string(size) + " bytes");
  poplar::detail::codelets::Hasher h;
  const std::uint64_t length = size; // as Hasher::add(std::string): the length, then the bytes
  h.add(&length, sizeof length);
  h.add(words.begin(), static_cast<std::size_t>(size));
  if (h.hex() != checksum)
    throw poplar_error(where +
                       "the executable is corrupted: its payload does not match its checksum (" +
                       checksum + ", the bytes hash to " + h.hex() + ")");
  if (size % sizeof(capnp::word) != 0)
    throw poplar_error(where + "the executable is corrupted: its payload has " +
                       std::to_string(size) + " bytes, not a whole number of 8-byte words");

  auto exe = std::make_unique<core::Executable>();
  try {
    capnp::ReaderOptions options;
    options.traversalLimitInWords = kTraversalsPerWord * words.size() + kTraversalSlackWords;
    options.nestingLimit = kNestingLimit;
    capnp::FlatArrayMessageReader reader(words.asPtr(), options);
    if (reader.getEnd() != words.end())
      throw FormatError(std::to_string((words.end() - reader.getEnd()) * sizeof(capnp::word)) +
                        " bytes follow the message");
    const auto root = reader.getRoot<exefile::Executable>();
    MessageHead head = readMessageHead(root);
    exe->name = std::move(head.name);
    for (auto& [k, v] : head.options)
      exe->options.set(k, v);
    checkStoredOptions(exe->options);
    // Read the graph once before any codelet object it carries is loaded: loading one writes
    // it to the user's codelet cache and runs its initialisers, which a file refused for its
    // graph must never do.
    readCompiledGraph(root, std::vector<const VertexTypeDescriptor*>(head.typeNames.size()));
    std::vector<const VertexTypeDescriptor*> types;
    for (const auto& [name, source] : head.typeNames)
      types.push_back(findType(name, source, head.objects));
    exe->compiled = readCompiledGraph(root, types);
    checkLoadedGraph(exe->compiled);
  } catch (const kj::Exception& e) {
    throw poplar_error(where + "the executable is corrupted: " + reason(e));
  } catch (const FormatError& e) {
    throw poplar_error(where + "the executable is corrupted: " + e.what());
  } catch (const ExecutableFieldError& e) {
    throw poplar_error(where + "the executable is corrupted: " + e.what());
  }
  exe->fromFile = true;
  return exe;
}

} // namespace poplar::detail::executable
