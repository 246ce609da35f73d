// The one Catch2 main every suite links (tessera_catch_main in tests/CMakeLists.txt). Catch2 v2
// is one header whose runner compiles in a minute or more under the sanitizers: built once, at
// -O0 and without instrumentation, instead of once per suite.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
