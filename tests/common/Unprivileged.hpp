// Running a check as a user without privileges: as root, permission bits do not stop writes, so
// a test of "a read-only directory" runs its reader in a child process that has dropped to
// nobody (uid/gid 65534). Without root it runs in place.
#pragma once

#include <functional>
#include <string>

namespace test {

struct Outcome {
  bool ok = false;     ///< f returned without throwing
  std::string message; ///< what() of the exception it threw
};

/// Runs f unprivileged (see above). The paths it reads must be readable by others.
Outcome runUnprivileged(const std::function<void()>& f);

} // namespace test
