// Host callbacks that feed a stream ahead of the device, as in Poplar's overlapped-I/O
// examples: with exchange.streamBufferOverlap=none (and exchange.enablePrefetch, on by default)
// the engine asks the callback for the next batch right after a copy completes, and tells it
// when a prefetched batch will not be used. Each call is printed as it happens.
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StreamCallback.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

static const unsigned batchSize = 4, numBatches = 6;

// Batches 0..5 of input. A batch counts as consumed only once complete() confirms the device
// took it; a prefetched batch that is invalidated is handed out again.
class BatchSource : public StreamCallback {
public:
  Result prefetch(void *p) override {
    if (next_ + ahead_ >= numBatches) {
      std::cout << "  in: prefetch -> nothing left\n";
      return Result::NotAvailable;
    }
    std::cout << "  in: prefetch batch " << next_ + ahead_ << "\n";
    fill(p);
    return Result::Success;
  }
  void fetch(void *p) override {
    std::cout << "  in: fetch batch " << next_ + ahead_ << "\n";
    fill(p);
  }
  void complete() override {
    std::cout << "  in: complete batch " << next_ << "\n";
    ++next_;
    --ahead_;
  }
  void invalidatePrefetched() override {
    std::cout << "  in: invalidatePrefetched (batch " << next_ << " will be sent again)\n";
    ahead_ = 0;
  }

private:
  void fill(void *p) {
    float *out = static_cast<float *>(p);
    for (unsigned i = 0; i < batchSize; ++i)
      out[i] = float(10 * (next_ + ahead_) + i);
    ++ahead_;
  }
  unsigned next_ = 0, ahead_ = 0;
};

// Device-to-host: fetch() hands over the device's data, complete() follows.
class ResultSink : public StreamCallback {
public:
  Result prefetch(void *) override { return Result::NotAvailable; }
  void fetch(void *p) override {
    const float *in = static_cast<const float *>(p);
    std::cout << "  out: fetch [";
    for (unsigned i = 0; i < batchSize; ++i)
      std::cout << (i ? " " : "") << in[i];
    std::cout << "]\n";
  }
  void complete() override { std::cout << "  out: complete\n"; }
};

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  Tensor x = graph.addVariable(FLOAT, {batchSize}, "x");
  graph.setTileMapping(x, 0);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, batchSize);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, batchSize);
  Sequence step;
  step.add(Copy(in, x));
  Tensor squares = popops::mul(graph, x, x, step, "square");
  step.add(Copy(squares, out));
  Sequence prog{Repeat(3, step)};

  OptionFlags options{{"exchange.enablePrefetch", "true"}, {"exchange.streamBufferOverlap", "none"}};
  Engine engine(graph, prog, options);
  engine.connectStreamToCallback("in", std::unique_ptr<StreamCallback>(new BatchSource));
  engine.connectStreamToCallback("out", std::unique_ptr<StreamCallback>(new ResultSink));
  engine.load(device);
  for (unsigned run = 0; run < 2; ++run) {
    std::cout << "run " << run << "\n";
    engine.run(0);
  }
  return 0;
}
