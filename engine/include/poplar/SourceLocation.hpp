// Where in the user's source a debug context was made. The SDK's class: the getters below, an
// `isValid` that tells a located context from one made without a location, and `Current()`,
// whose default arguments the compiler fills in at the call site (the SDK's spelling, before
// std::source_location existed).
#pragma once

namespace poplar {

class SourceLocation {
public:
  /// No location: empty names, line 0, not valid.
  constexpr SourceLocation() = default;
  /// The SDK's order: function, file, line (`SourceLocation("f", "file.cpp", 42)`).
  constexpr SourceLocation(const char* functionName, const char* fileName, unsigned lineNumber)
      : functionName_(functionName ? functionName : ""), fileName_(fileName ? fileName : ""),
        lineNumber_(lineNumber), valid_(true) {}

  constexpr const char* getFunctionName() const { return functionName_; }
  constexpr const char* getFileName() const { return fileName_; }
  constexpr unsigned getLineNumber() const { return lineNumber_; }
  /// False only for a default-constructed location.
  constexpr bool isValid() const { return valid_; }

  /// The caller's location: use as a default argument (`SourceLocation loc =
  /// SourceLocation::Current()`), so that the caller's function, file and line are recorded.
  static constexpr SourceLocation Current(const char* functionName = __builtin_FUNCTION(),
                                          const char* fileName = __builtin_FILE(),
                                          unsigned lineNumber = __builtin_LINE()) {
    return SourceLocation(functionName, fileName, lineNumber);
  }

private:
  const char* functionName_ = "";
  const char* fileName_ = "";
  unsigned lineNumber_ = 0;
  bool valid_ = false;
};

} // namespace poplar
