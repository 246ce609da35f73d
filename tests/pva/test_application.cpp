// framework.json and app.json beside a report (pva/Application.hpp): members kept in file order
// and flattened to text, absent files absent, and broken ones a clear error naming the file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <pva/Application.hpp>
#include <pva/Exception.hpp>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path dir;
  TempDir() {
    dir = fs::temp_directory_path() / ("pva-application-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  }
};

template <class E> std::string messageOf(const std::string& path) {
  try {
    pva::readApplicationFile(path);
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("app.json and framework.json are read in file order, flattened", "[pva][application]") {
  TempDir t;
  t.write("framework.json", R"({"framework": "PopTorch", "version": "3.3.0"})");
  t.write("app.json", R"({"name": "train.py", "arguments": ["--batch", 16, true],
      "config": {"replicas": 4, "precision": {"weights": "half"}},
      "stages": [{"ipu": 0}, {"ipu": 1}], "note": null, "empty": {}})");
  t.write("profile.pop", "");
  for (const std::string& where : {t.dir.string(), (t.dir / "profile.pop").string()}) {
    const pva::ApplicationInfo info = pva::readApplicationInfo(where);
    REQUIRE(info.framework.present);
    CHECK(info.framework.value("framework") == "PopTorch");
    CHECK(info.framework.value("version") == "3.3.0");
    REQUIRE(info.app.present);
    CHECK(info.app.path == (t.dir / "app.json").string());
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"name", "train.py"},     {"arguments", "--batch 16 true"}, // a command line reads as one
        {"config.replicas", "4"}, {"config.precision.weights", "half"},
        {"stages[0].ipu", "0"},   {"stages[1].ipu", "1"},
        {"note", "null"},         {"empty", ""}};
    CHECK(info.app.entries == expected);
    CHECK(info.app.value("no such member").empty());
  }
}

TEST_CASE("Missing application files are absent, not errors", "[pva][application]") {
  TempDir t;
  const pva::ApplicationInfo info = pva::readApplicationInfo(t.dir.string());
  CHECK_FALSE(info.framework.present);
  CHECK_FALSE(info.app.present);
  CHECK(info.app.entries.empty());
  CHECK(info.framework.path == (t.dir / "framework.json").string());
  CHECK(messageOf<pva::FileNotFoundError>((t.dir / "app.json").string()).find("no such file") !=
        std::string::npos);
  fs::create_directories(t.dir / "sub" / "app.json");
  CHECK(messageOf<pva::FileNotFoundError>((t.dir / "sub" / "app.json").string())
            .find("is a directory") != std::string::npos);
}

TEST_CASE("Broken application files name the file and the problem", "[pva][application]") {
  TempDir t;
  const std::string truncated = t.write("app.json", R"({"name": "train.py", "argu)");
  std::string m = messageOf<pva::InvalidReportError>(truncated);
  CHECK(m.rfind(truncated + ": not valid JSON (at byte ", 0) == 0);
  const std::string array = t.write("a.json", R"(["--batch", "16"])");
  m = messageOf<pva::InvalidReportError>(array);
  CHECK(m.find(array + ": a JSON array, not the object") == 0);
  const std::string binary = t.write("b.json", std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  CHECK(messageOf<pva::InvalidReportError>(binary).find("not valid JSON") != std::string::npos);
  const std::string huge = t.write("c.json", "{\"x\": \"" + std::string(1u << 20, 'a') + "\"}");
  CHECK(messageOf<pva::InvalidReportError>(huge).find("more than the 1 MiB") != std::string::npos);
  // readApplicationInfo passes a broken file's error on.
  t.write("framework.json", "{");
  CHECK_THROWS_AS(pva::readApplicationInfo(t.dir.string()), pva::InvalidReportError);
}
