// Debug contexts: the user-facing name of what created a tensor, compute set or program,
// with the source location that created it. Nested contexts form paths ("layer1/fwd/MatMul").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <poplar/ProfileValue.hpp>
#include <poplar/SourceLocation.hpp>
#include <string>
#include <type_traits>
#include <utility>

namespace poplar {

/// Identifies a debug record (Poplar writes one per DebugInfo into debug.cbor).
using DebugId = std::uint64_t;

class DebugContext;

/// A debug name with its identifier, as PopLibs-style code passes between functions it calls
/// (`const DebugNameAndId& dnai`). It converts to and from a DebugContext: a DebugContext
/// made from it (`{dnai, "child"}`) has the path "<dnai's path>/child".
class DebugNameAndId {
public:
  DebugNameAndId(std::string name = "", DebugId debugId = {}, std::string parentPath = "")
      : name_(std::move(name)), id_(debugId ? debugId : nextId()),
        parentPath_(std::move(parentPath)) {}
  DebugNameAndId(const char* name) : DebugNameAndId(std::string(name ? name : "")) {}
  DebugNameAndId(DebugId debugId) : DebugNameAndId(std::string(), debugId) {}
  DebugNameAndId(const DebugNameAndId& parent, std::string name)
      : DebugNameAndId(std::move(name), DebugId{}, parent.getPathName()) {}
  DebugNameAndId(const DebugNameAndId&) = default;
  DebugNameAndId& operator=(const DebugNameAndId&) = default;
  /// The path of a debug context (defined below DebugContext).
  inline DebugNameAndId(const DebugContext& context); // NOLINT: converts as Poplar's does

  DebugId getId() const { return id_; }
  /// "<parent path>/<name>", empty parts skipped.
  std::string getPathName() const {
    if (parentPath_.empty()) return name_;
    if (name_.empty()) return parentPath_;
    return parentPath_ + "/" + name_;
  }

private:
  static DebugId nextId() {
    static DebugId counter = 0; // one per program; ids only need to differ within it
    return ++counter;
  }
  std::string name_;
  DebugId id_;
  std::string parentPath_;
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

  /// A child of a DebugNameAndId: its path is "<dnai's path>/<name>".
  // A template taking exactly DebugNameAndId, so that {"a", "b"} stays a child of DebugContext
  // "a" rather than an ambiguity between the two parent kinds.
  template <typename D,
            typename = typename std::enable_if<std::is_same<D, DebugNameAndId>::value>::type>
  DebugContext(const D& dnai, std::string name = "", SourceLocation loc = SourceLocation::Current())
      : name_(std::move(name)), loc_(loc),
        parent_(std::make_shared<DebugContext>(dnai.getPathName(), loc)) {}

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

inline DebugNameAndId::DebugNameAndId(const DebugContext& context)
    : DebugNameAndId(context.getPathName()) {}

/// Poplar's debug record of one software layer ("poplibs" for PopLibs ops): a context with that
/// layer, and named values (an op's arguments and outputs) set on it as the layer goes.
/// Differs from Poplar: it converts to the DebugContext its objects are made under (`{di}`,
/// `{di, "child"}`) instead of DebugContext having a constructor from it, and the values stay in
/// memory (getValues) rather than being written to debug.cbor; the layer and op type reach the
/// report through the contexts made from it.
class DebugInfo {
public:
  DebugInfo(const DebugContext& debugContext, std::string layer);
  DebugInfo& operator=(const DebugInfo&) = delete;
  DebugInfo(const DebugInfo&) = delete;
  virtual ~DebugInfo();

  DebugId getId() const { return id_; }
  std::string getPathName() const { return context_.getPathName(); }
  /// Adds a value; false (and the value unchanged) when `name` is already set.
  bool setValue(std::string name, ProfileValue value);

  /// Tessera: the values set so far, and the context the layer's objects are made under.
  const ProfileValue::Map& getValues() const { return values_; }
  const DebugContext& getContext() const { return context_; }
  operator const DebugContext&() const { return context_; } // NOLINT: `{di}` as in Poplar

protected:
  /// Tessera: a child context named after the op, with the op's type (the Operations view
  /// groups by it).
  DebugInfo(const DebugContext& parent, std::string layer, std::string opType, SourceLocation loc);

private:
  DebugContext context_;
  DebugId id_;
  ProfileValue::Map values_;
};

} // namespace poplar
