#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace cli {

namespace {
/// One word for /bin/sh: single-quoted, with embedded quotes closed and escaped.
std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
} // namespace

nlohmann::json Result::json() const {
  INFO("stdout: " << out << "\nstderr: " << err);
  nlohmann::json j;
  REQUIRE_NOTHROW(j = nlohmann::json::parse(out));
  return j;
}

Result pva(const std::vector<std::string>& args, const std::string& env) {
  test::ScratchDir dir;
  std::string command = env + (env.empty() ? "" : " ") + shellQuote(PVA_EXECUTABLE);
  for (const auto& a : args)
    command += " " + shellQuote(a);
  command += " > " + shellQuote((dir / "out").string()) + " 2> " +
             shellQuote((dir / "err").string()) + " < /dev/null";
  const int status = std::system(command.c_str());
  Result r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(dir / "out");
  r.err = readFile(dir / "err");
  return r;
}

fs::path reportDir(const std::string& name) {
  return fs::path(CLI_REPORTS_DIR) / name;
}
fs::path profile(const std::string& name) {
  return reportDir(name) / "profile.pop";
}

fs::path traceFile() {
  for (const auto& e : fs::directory_iterator(fs::path(CLI_REPORTS_DIR) / "trace"))
    if (e.path().extension() == ".pvti") return e.path();
  FAIL("no .pvti in " << CLI_REPORTS_DIR << "/trace (did the cli_make_reports fixture run?)");
  return {};
}

fs::path dataFile(const std::string& name) {
  return fs::path(TESSERA_TEST_DATA_DIR) / name;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

} // namespace cli
