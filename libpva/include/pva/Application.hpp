// What ran the program, from the JSON files beside a report: `framework.json` (written by a
// framework such as PopART or PopTorch: its name, version...) and `app.json` (written by the
// application: its name, version, command-line arguments...). PopVision's Graph Analyser shows
// both in its Summary; Tessera's samples write an app.json (docs/formats.md).
//
//   const pva::ApplicationInfo info = pva::readApplicationInfo("reports/mlp");
//   if (info.app.present) std::cout << info.app.value("arguments") << "\n";
//
// The files are free-form JSON objects, so every member is kept, flattened to text in file
// order: a nested object's members as "outer.inner", an array of plain values joined by spaces
// (an argument list reads as a command line), an array holding objects as "name[0].member".
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pva {

/// One of the two files.
struct ApplicationFile {
  bool present = false; ///< the file exists beside the report
  std::string path;     ///< where it is (or would be)
  /// Its members as (name, text), in file order.
  std::vector<std::pair<std::string, std::string>> entries;
  /// The text of a member ("" when there is none).
  std::string value(const std::string& name) const;
};

struct ApplicationInfo {
  ApplicationFile framework; ///< framework.json
  ApplicationFile app;       ///< app.json
};

/// Reads one such file. Throws FileNotFoundError when it cannot be read (or is a directory) and
/// InvalidReportError naming the file when it is not a JSON object (a parse error with its
/// byte offset, another JSON value, more than 1 MiB).
ApplicationFile readApplicationFile(const std::string& path);

/// Reads `framework.json` and `app.json` in a report directory (or the directory of a
/// profile.pop path); a file that is not there is not present, not an error. Throws as
/// readApplicationFile for a file that is there but broken.
ApplicationInfo readApplicationInfo(const std::string& reportDirectoryOrProfile);

} // namespace pva
