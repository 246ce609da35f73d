// The demo report the home screen offers: a short run of the MLP sample, made when Tessera is
// built (samples/mlp/CMakeLists.txt, target tessera_demo_report) into
// <build>/share/tessera/demo/mlp and installed to <prefix>/share/tessera/demo/mlp, next to bin/
// where tessera-viewer is.
//
// Threads: any. Cost: a few file checks.
#pragma once

#include <QString>

namespace tessera::viewer {

/// The demo report's directory, found beside the running executable (../share/tessera/demo/mlp
/// holding a profile.pop); empty when this build or install has none.
QString demoReportPath();

} // namespace tessera::viewer
