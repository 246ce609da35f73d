#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace poplar {

/// A host callback that fills (host-to-device) or drains (device-to-host) a stream's buffer.
class StreamCallback {
public:
  enum class Result { Success, NotAvailable };
  virtual ~StreamCallback() = default;
  /// Called ahead of time when prefetching is possible; may return NotAvailable.
  virtual Result prefetch(void* p) = 0;
  /// Called when the device needs (or has produced) the data at p.
  virtual void fetch(void* p) = 0;
  /// Called once the copy that used the data is complete.
  virtual void complete() = 0;
  virtual void invalidatePrefetched() {}
};

/// A StreamCallback that never prefetches.
class LegacyStreamCallback : public StreamCallback {
public:
  Result prefetch(void*) final { return Result::NotAvailable; }
  void complete() override {}
};

/// A stream's host side as one value: a function of the buffer or a StreamCallback object, as
/// SDK 3 runtime layers keep them before Engine::connectStreamToCallback. The constructors are
/// explicit here (Tessera keeps the function and object overloads of connectStreamToCallback,
/// which an implicit conversion would make ambiguous for a lambda).
class StreamCallbackHandle {
public:
  template <typename F, typename = typename std::enable_if<
                            std::is_constructible<std::function<void(void*)>, F>::value>::type>
  explicit StreamCallbackHandle(F&& f) : function_(std::forward<F>(f)) {}
  template <typename CB,
            typename = typename std::enable_if<std::is_base_of<StreamCallback, CB>::value>::type>
  explicit StreamCallbackHandle(std::unique_ptr<CB> callback) : callback_(std::move(callback)) {}

private:
  friend class Engine;
  std::function<void(void*)> function_;
  std::unique_ptr<StreamCallback> callback_;
};

} // namespace poplar
