// Errors of libpva. Every message names the file and the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace pva {

/// Base of every error libpva throws.
class Exception : public std::runtime_error {
public:
  explicit Exception(const std::string& what) : std::runtime_error(what) {}
};

/// The file does not exist or cannot be read.
class FileNotFoundError : public Exception {
public:
  using Exception::Exception;
};

/// The file is not a Tessera report, or it is truncated or corrupted.
class InvalidReportError : public Exception {
public:
  using Exception::Exception;
};

/// The report's format version is newer (or older) than this libpva reads.
class UnsupportedVersionError : public Exception {
public:
  using Exception::Exception;
};

/// debug.cbor was written for another profile.pop.
class DebugInfoMismatchError : public Exception {
public:
  using Exception::Exception;
};

/// A long load was stopped by its caller (the progress callback returned false).
class CancelledError : public Exception {
public:
  using Exception::Exception;
};

/// An argument out of range (tile, IPU, step index...) or a call the report cannot answer.
class InvalidArgumentError : public Exception {
public:
  using Exception::Exception;
};

} // namespace pva
