#include "common/SyntheticReport.hpp"

#include <QProcess>
#include <QStringList>
#include <cstdio>
#include <filesystem>

namespace tessera::bench {

std::string reportToMeasure(const std::string& report, const std::string& file, bool keep,
                            unsigned long long steps, const char* bench, const char* pvaReader) {
  if (!report.empty()) return report;
  if (keep && std::filesystem::exists(file)) return file;
  std::printf("writing a synthetic report with bench_pva_reader: %llu steps, 16 IPUs ...\n", steps);
  std::fflush(stdout);
  QProcess writer;
  writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
  writer.setStandardOutputFile(QProcess::nullDevice()); // its own timings are not this bench's
  writer.start(QString::fromUtf8(pvaReader),
               {QStringLiteral("--steps"), QString::number(steps), QStringLiteral("--file"),
                QString::fromStdString(file), QStringLiteral("--keep"), QStringLiteral("--reps"),
                QStringLiteral("1")});
  if (!writer.waitForFinished(-1) || writer.exitCode() != 0) {
    std::fprintf(stderr, "%s: bench_pva_reader failed (%s)\n", bench, pvaReader);
    return {};
  }
  return file;
}

} // namespace tessera::bench
