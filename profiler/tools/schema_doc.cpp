// tessera-schema-doc: prints the schema reference that docs/formats.md holds between
// <!-- schema:begin --> and <!-- schema:end -->. Regenerate the section with its output.
#include <profiler/Schema.hpp>

#include <iostream>

int main() {
  std::cout << tessera::profiler::schema::renderSchemaMarkdown();
  return std::cout ? 0 : 1;
}
