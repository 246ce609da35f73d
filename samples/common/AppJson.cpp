#include "common/AppJson.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace tessera::cli {

void writeAppJson(const std::string& reportDir, int argc, const char* const* argv) {
  if (reportDir.empty()) return;
  namespace fs = std::filesystem;
  nlohmann::ordered_json app;
  app["application"] = argc > 0 ? fs::path(argv[0]).filename().string() : std::string();
  app["framework"] = "Tessera";
  app["version"] = TESSERA_VERSION;
  app["arguments"] = nlohmann::json::array();
  for (int i = 1; i < argc; ++i)
    app["arguments"].push_back(argv[i]);
  std::error_code ec;
  fs::create_directories(reportDir, ec);
  const fs::path path = fs::path(reportDir) / "app.json";
  std::ofstream out(path);
  out << app.dump(2) << "\n";
  if (!out) std::fprintf(stderr, "warning: could not write %s\n", path.string().c_str());
}

} // namespace tessera::cli
