#pragma once

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

} // namespace poplar
