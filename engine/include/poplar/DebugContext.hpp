// Debug contexts: the user-facing name of what created a tensor, compute set or program,
// with the source location that created it. Nested contexts form paths ("layer1/fwd/MatMul").
#pragma once

#include <memory>
#include <string>

namespace poplar {

struct SourceLocation {
  // Constructors rather than default member initialisers: a C++11 aggregate cannot have them,
  // and `SourceLocation{file, function, line}` keeps working through the second constructor.
  constexpr SourceLocation() : file(""), function(""), line(0) {}
  constexpr SourceLocation(const char* file_, const char* function_, unsigned line_)
      : file(file_), function(function_), line(line_) {}
  const char* file;
  const char* function;
  unsigned line;
  static SourceLocation Current(const char* file = __builtin_FILE(),
                                const char* function = __builtin_FUNCTION(),
                                unsigned line = __builtin_LINE()) {
    return {file, function, line};
  }
};

class DebugContext {
public:
  DebugContext(SourceLocation loc = SourceLocation::Current()) : loc_(loc) {}
  DebugContext(const char* name, SourceLocation loc = SourceLocation::Current())
      : name_(name ? name : ""), loc_(loc) {}
  DebugContext(std::string name, SourceLocation loc = SourceLocation::Current())
      : name_(std::move(name)), loc_(loc) {}
  /// A child of `parent`; its path is "<parent path>/<name>".
  DebugContext(const DebugContext& parent, std::string name,
               SourceLocation loc = SourceLocation::Current())
      : name_(std::move(name)), loc_(loc), layer_(parent.layer_),
        parent_(std::make_shared<DebugContext>(parent)) {}

  const std::string& getName() const { return name_; }
  /// Names from the outermost context to this one, joined by '/', empty names skipped.
  std::string getPathName() const;
  const SourceLocation& getLocation() const { return loc_; }
  const DebugContext* getParent() const { return parent_.get(); }
  /// Which software layer made it: "user" (the default), or "poplibs" inside an op (children
  /// inherit their parent's layer).
  const std::string& getLayer() const { return layer_; }
  /// The op that made it ("MatMul", "Reduce", ...), empty when not made by an op.
  const std::string& getOpType() const { return opType_; }

protected:
  void setOp(std::string layer, std::string opType) {
    layer_ = std::move(layer);
    opType_ = std::move(opType);
  }

private:
  std::string name_;
  SourceLocation loc_;
  std::string layer_ = "user";
  std::string opType_;
  std::shared_ptr<const DebugContext> parent_;
};

} // namespace poplar
