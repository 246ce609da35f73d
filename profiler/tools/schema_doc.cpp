// tessera-schema-doc: prints a generated section of docs/formats.md.
//   tessera-schema-doc          the profile.pop/debug.cbor reference, held between
//                               <!-- schema:begin --> and <!-- schema:end -->
//   tessera-schema-doc --trace  the .pvti reference, held between
//                               <!-- trace-schema:begin --> and <!-- trace-schema:end -->
#include <cstring>
#include <iostream>
#include <profiler/Schema.hpp>
#include <profiler/TraceSchema.hpp>

int main(int argc, char** argv) {
  namespace schema = tessera::profiler::schema;
  if (argc == 2 && std::strcmp(argv[1], "--trace") == 0) {
    std::cout << schema::trace::renderTraceSchemaMarkdown();
  } else if (argc == 1) {
    std::cout << schema::renderSchemaMarkdown();
  } else {
    std::cerr << "usage: tessera-schema-doc [--trace]\n";
    return 2;
  }
  return std::cout ? 0 : 1;
}
