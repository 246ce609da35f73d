// The host side of a host function (Graph::addHostFunction, program::Call): what
// Engine::connectHostFunction binds to the function's handle.
#pragma once

#include <functional>
#include <memory>
#include <poplar/ArrayRef.hpp>
#include <type_traits>
#include <utility>

namespace poplar {

/// Called once per program::Call of the host function, with one pointer per input (the
/// tensor's elements, in the argument's type) and one per output (to be filled completely).
class HostCallback {
public:
  virtual ~HostCallback() = default;
  virtual void operator()(ArrayRef<const void*> inputs, ArrayRef<void*> outputs) = 0;
};

/// Holds the callback: made from a HostCallback object or from any callable taking
/// (ArrayRef<const void*> inputs, ArrayRef<void*> outputs), as SDK programs pass lambdas.
class HostCallbackHandle {
public:
  using Function = std::function<void(ArrayRef<const void*>, ArrayRef<void*>)>;

  HostCallbackHandle(std::unique_ptr<HostCallback> callback) // NOLINT: implicit, as in Poplar
      : callback_(std::move(callback)) {}
  template <typename F,
            typename = typename std::enable_if<std::is_constructible<Function, F>::value>::type>
  HostCallbackHandle(F&& f) { // NOLINT: implicit, as in Poplar
    Function function(std::forward<F>(f));
    if (function) callback_ = std::make_shared<FunctionCallback>(std::move(function));
  }

  /// The callback; empty when the handle was made from a null pointer or an empty function.
  std::shared_ptr<HostCallback> get() const { return callback_; }

private:
  class FunctionCallback : public HostCallback {
  public:
    explicit FunctionCallback(Function f) : f_(std::move(f)) {}
    void operator()(ArrayRef<const void*> inputs, ArrayRef<void*> outputs) override {
      f_(inputs, outputs);
    }

  private:
    Function f_;
  };
  std::shared_ptr<HostCallback> callback_;
};

} // namespace poplar
