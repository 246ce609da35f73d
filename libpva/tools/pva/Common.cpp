#include "Common.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

namespace fs = std::filesystem;

namespace pvacli {

std::string escapeControls(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\n') || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

ReportFiles findReport(const std::string& given, const std::string& debug) {
  ReportFiles files;
  std::error_code ec;
  if (fs::is_directory(given, ec)) {
    const fs::path dir(given);
    if (fs::is_regular_file(dir / "profile.pop", ec)) {
      files.profile = (dir / "profile.pop").string();
    } else {
      // An engine constructed with a DebugContext name writes into a sub-directory of that name.
      std::vector<fs::path> found;
      for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_directory(ec) && fs::is_regular_file(entry.path() / "profile.pop", ec))
          found.push_back(entry.path() / "profile.pop");
      if (found.empty()) throw UsageError(given + ": no profile.pop in this directory");
      if (found.size() > 1) {
        std::string list;
        for (const auto& p : found)
          list += "\n  " + p.string();
        throw UsageError(given + ": several reports in this directory; name one:" + list);
      }
      files.profile = found.front().string();
    }
  } else {
    // Not a directory: let libpva say what is wrong with the file (missing, not a report...).
    files.profile = given;
  }
  if (!debug.empty()) {
    files.debug = debug;
    files.debugGiven = true;
  } else {
    const fs::path beside = fs::path(files.profile).parent_path() / "debug.cbor";
    if (fs::is_regular_file(beside, ec)) files.debug = beside.string();
  }
  return files;
}

pva::Report openReportFiles(ReportFiles& files) {
  if (files.debug.empty()) return pva::openReport(files.profile);
  if (files.debugGiven) return pva::openReport(files.profile, files.debug);
  pva::Report report = pva::openReport(files.profile); // a bad profile is an error either way
  try {
    return pva::openReport(files.profile, files.debug);
  } catch (const pva::Exception& e) {
    std::cerr << "pva: warning: ignoring " << escapeControls(e.what()) << "\n";
    files.debug.clear();
    return report;
  }
}

} // namespace pvacli
