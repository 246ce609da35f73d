#include "CodeletFiles.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace test {

const char* const kSumCodelet = R"(// a plain codelet: no registration line
#include <poplar/Vertex.hpp>

class Sum : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;

  bool compute() {
    float s = 0;
    for (float x : in) s += x;
    *out = s;
    return true;
  }
};
)";

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  if (const char* old = std::getenv(name)) {
    had_ = true;
    old_ = old;
  }
  ::setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_)
    ::setenv(name_.c_str(), old_.c_str(), 1);
  else
    ::unsetenv(name_.c_str());
}

CodeletScratch::CodeletScratch()
    : env_("TESSERA_CODELET_CACHE", (dir_.path() / "cache").string()) {}

fs::path CodeletScratch::write(const std::string& name, const std::string& text) const {
  const fs::path p = dir_ / name;
  writeFile(p, text);
  return p;
}

std::vector<fs::path> CodeletScratch::entries() const {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cache(), ec))
    if (e.path().extension() == ".gp") out.push_back(e.path());
  return out;
}

int CodeletScratch::run(const fs::path& codelet, const fs::path& output) const {
  const std::string command =
      std::string(CODELET_RUNNER) + " '" + codelet.string() + "' > '" + output.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeFile(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

} // namespace test
