// PopLibs' warnings, where PopLibs writes them: only when POPLIBS_LOG_LEVEL (or the module's
// own POPLIBS_<MODULE>_LOG_LEVEL, e.g. POPLIBS_POPLIN_LOG_LEVEL) is TRACE, DEBUG, INFO or WARN
// (PopLibs' default is OFF), to POPLIBS_LOG_DEST: "stderr" (the default), "stdout" or a file
// name (appended to).
#pragma once

#include <string>

namespace poplibs_support {

/// Writes `message` as a warning of `module` ("poplin", "popops", ...) if the log level asks
/// for warnings. A bad level or an unwritable destination is ignored: a warning never fails
/// the operation that gives it.
void logWarning(const std::string& module, const std::string& message);

} // namespace poplibs_support
