#include "common/SyntheticGraph.hpp"

#include <algorithm>
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <profiler/schema/profile.capnp.h>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace tessera::bench {

namespace {

namespace cp = tessera::profiler::capnp;

/// The graph planned before it is written: Cap'n Proto lists are sized when created, and the
/// backward pass reads variables the forward pass made.
struct Var {
  std::string name, type;
  std::uint64_t elementsPerTile = 0;
  unsigned firstTile = 0, tiles = 0;
  bool isConstant = false;
};

struct ComputeSet {
  std::string name, vertexType;
  unsigned vertices = 0, firstTile = 0, tiles = 0;
  std::vector<unsigned> reads, writes;
};

/// How heavy a compute set is: its share of the mean vertex count, and how many tiles it spans.
struct Weight {
  double vertices;
  unsigned tiles;
};
constexpr Weight kHeavy{2.0, 256}, kMedium{0.75, 128}, kLight{0.25, 32};

/// Compute sets per layer (forward 16, backward 27, optimizer 3): the layer count is chosen from
/// it. Checked against the plan when it is built.
constexpr std::uint64_t kComputeSetsPerLayer = 46;
constexpr unsigned kConvolutions = 6, kReductions = 4;

class Planner {
public:
  explicit Planner(const SyntheticGraphShape& s)
      : shape_(s), totalTiles_(std::max(1u, s.ipus * s.tilesPerIpu)) {}

  unsigned var(const std::string& name, const char* type, std::uint64_t elementsPerTile,
               unsigned firstTile, unsigned tiles, bool isConstant = false) {
    vars.push_back({name, type, elementsPerTile, firstTile % totalTiles_,
                    std::min(std::max(1u, tiles), totalTiles_), isConstant});
    return unsigned(vars.size() - 1);
  }

  void cs(const std::string& name, const char* vertexType, Weight w, unsigned firstTile,
          std::vector<unsigned> reads, std::vector<unsigned> writes) {
    ComputeSet c;
    c.name = name;
    c.vertexType = vertexType;
    c.vertices = unsigned(std::max(1.0, w.vertices * shape_.verticesPerComputeSet + 0.5));
    c.firstTile = firstTile % totalTiles_;
    c.tiles = std::min(w.tiles, totalTiles_);
    c.reads = std::move(reads);
    c.writes = std::move(writes);
    sets.push_back(std::move(c));
  }

  unsigned totalTiles() const { return totalTiles_; }

  std::vector<Var> vars;
  std::vector<ComputeSet> sets;

private:
  SyntheticGraphShape shape_;
  unsigned totalTiles_;
};

std::string layerPath(const char* pass, unsigned block, unsigned layer) {
  return std::string(pass) + "/block" + std::to_string(block) + "/layer" + std::to_string(layer);
}

/// What the forward pass of a layer leaves for the backward pass and the optimizer.
struct LayerVars {
  unsigned kernel, gamma, beta, convOut, mean, invStdDev, reluOut, input;
  unsigned inputGrad = 0, kernelGrad = 0, gammaGrad = 0, betaGrad = 0;
  unsigned block, layer, tile;
};

void planForward(Planner& p, LayerVars& L) {
  const std::string params = layerPath("params", L.block, L.layer);
  const std::string fwd = layerPath("fwd", L.block, L.layer);
  const unsigned t = L.tile;
  L.kernel = p.var(params + "/conv/kernel", "half", 1024, t, 32);
  L.gamma = p.var(params + "/bn/gamma", "float", 64, t, 8);
  L.beta = p.var(params + "/bn/beta", "float", 64, t, 8);

  const std::string conv = fwd + "/conv/Conv_1/";
  const unsigned arranged = p.var(conv + "arranged", "half", 4096, t, 256);
  p.cs(conv + "PreArrange", "popops::Copy<half>", kMedium, t, {L.input}, {arranged});
  std::vector<unsigned> partials;
  for (unsigned k = 0; k < kConvolutions; ++k) {
    partials.push_back(p.var(conv + "partials_" + std::to_string(k), "float", 2048, t, 256));
    p.cs(conv + "Convolve_" + std::to_string(k), "poplin::ConvPartialnx1<half,float,true,false>",
         kHeavy, t, {arranged, L.kernel}, {partials.back()});
  }
  const unsigned reduced = p.var(conv + "reduced", "float", 2048, t + 64, 128);
  for (unsigned k = 0; k < kReductions; ++k)
    p.cs(conv + "Reduce_" + std::to_string(k), "popops::ReduceAdd<float,float>", kMedium, t + 64,
         partials, {reduced});
  L.convOut = p.var(conv + "out", "half", 4096, t + 64, 128);
  p.cs(conv + "Cast", "popops::Cast<float,half>", kLight, t + 64, {reduced}, {L.convOut});

  const std::string bn = fwd + "/bn/BatchNorm/";
  L.mean = p.var(bn + "mean", "float", 64, t + 128, 8);
  L.invStdDev = p.var(bn + "invStdDev", "float", 64, t + 128, 8);
  const unsigned bnOut = p.var(bn + "out", "half", 4096, t + 64, 128);
  p.cs(bn + "Mean", "popops::ReduceAdd<half,float>", kMedium, t + 64, {L.convOut}, {L.mean});
  p.cs(bn + "Variance", "popops::ReduceSquareAdd<half,float>", kMedium, t + 64, {L.convOut, L.mean},
       {L.invStdDev});
  p.cs(bn + "Normalise", "popnn::BatchNormApply<half>", kMedium, t + 64,
       {L.convOut, L.mean, L.invStdDev, L.gamma, L.beta}, {bnOut});

  L.reluOut = p.var(fwd + "/relu/Relu/out", "half", 4096, t + 64, 128);
  p.cs(fwd + "/relu/Relu/Nonlinearity", "popnn::NonLinearity<half,RELU>", kLight, t + 64, {bnOut},
       {L.reluOut});
}

/// The backward pass of one layer: `gradIn` is the gradient of its output (from the layer after
/// it, or from the loss).
void planBackward(Planner& p, LayerVars& L, unsigned gradIn) {
  const std::string bwd = layerPath("bwd", L.block, L.layer);
  const unsigned t = L.tile + 512;
  const unsigned reluGrad = p.var(bwd + "/relu/ReluGrad/grad", "half", 4096, t, 128);
  p.cs(bwd + "/relu/ReluGrad/NonLinearityGrad", "popnn::NonLinearityGrad<half,RELU>", kLight, t,
       {gradIn, L.reluOut}, {reluGrad});

  const std::string bn = bwd + "/bn/BatchNormGrad/";
  L.gammaGrad = p.var(bn + "dGamma", "float", 64, t, 8);
  L.betaGrad = p.var(bn + "dBeta", "float", 64, t, 8);
  const unsigned bnGrad = p.var(bn + "grad", "half", 4096, t, 128);
  for (unsigned k = 0; k < 2; ++k)
    p.cs(bn + "Reduce_" + std::to_string(k), "popops::ReduceAdd<half,float>", kMedium, t,
         {reluGrad, L.convOut}, {k == 0 ? L.betaGrad : L.gammaGrad});
  p.cs(bn + "ScaleGrad", "popops::ScaledAdd<half>", kMedium, t, {reluGrad, L.invStdDev, L.gamma},
       {bnGrad});
  p.cs(bn + "Normalise", "popnn::BatchNormGradApply<half>", kMedium, t,
       {bnGrad, L.mean, L.gammaGrad, L.betaGrad}, {bnGrad});

  const std::string gi = bwd + "/conv/ConvGradInput/";
  const unsigned flipped = p.var(gi + "flippedKernel", "half", 1024, t + 256, 32);
  p.cs(gi + "Transpose", "poplin::Transpose2d<half>", kLight, t + 256, {L.kernel}, {flipped});
  std::vector<unsigned> partials;
  for (unsigned k = 0; k < kConvolutions; ++k) {
    partials.push_back(p.var(gi + "partials_" + std::to_string(k), "float", 2048, t + 256, 256));
    p.cs(gi + "Convolve_" + std::to_string(k), "poplin::ConvPartialnx1<half,float,true,false>",
         kHeavy, t + 256, {bnGrad, flipped}, {partials.back()});
  }
  L.inputGrad = p.var(gi + "grad", "half", 4096, t + 256, 128);
  for (unsigned k = 0; k < kReductions; ++k)
    p.cs(gi + "Reduce_" + std::to_string(k), "popops::ReduceAdd<float,half>", kMedium, t + 256,
         partials, {L.inputGrad});

  const std::string gw = bwd + "/conv/ConvGradWeight/";
  partials.clear();
  for (unsigned k = 0; k < kConvolutions; ++k) {
    partials.push_back(p.var(gw + "partials_" + std::to_string(k), "float", 1024, t + 768, 256));
    p.cs(gw + "Convolve_" + std::to_string(k), "poplin::ConvPartial1x1Out<half,float,true>", kHeavy,
         t + 768, {bnGrad, L.input}, {partials.back()});
  }
  const unsigned reduced = p.var(gw + "reduced", "float", 1024, t + 768, 32);
  for (unsigned k = 0; k < kReductions; ++k)
    p.cs(gw + "Reduce_" + std::to_string(k), "popops::ReduceAdd<float,float>", kMedium, t + 768,
         partials, {reduced});
  L.kernelGrad = p.var(gw + "grad", "half", 1024, L.tile, 32);
  p.cs(gw + "Cast", "popops::Cast<float,half>", kLight, L.tile, {reduced}, {L.kernelGrad});
}

void planOptimizer(Planner& p, const LayerVars& L, unsigned learningRate) {
  const std::string sgd = layerPath("optimizer", L.block, L.layer) + "/SGD/";
  p.cs(sgd + "UpdateKernel", "popops::ScaledAddSupervisor<half,half>", kLight, L.tile,
       {L.kernelGrad, learningRate, L.kernel}, {L.kernel});
  p.cs(sgd + "UpdateGamma", "popops::ScaledAdd<float>", kLight, L.tile,
       {L.gammaGrad, learningRate, L.gamma}, {L.gamma});
  p.cs(sgd + "UpdateBeta", "popops::ScaledAdd<float>", kLight, L.tile,
       {L.betaGrad, learningRate, L.beta}, {L.beta});
}

/// Elements [begin, end) of `v` that vertex `k` of `n` works on: an equal share, at least one
/// element (a small variable, such as a learning rate, is read whole by every vertex).
void slice(const Var& v, unsigned k, unsigned n, std::uint64_t& begin, std::uint64_t& end) {
  const std::uint64_t elements = v.elementsPerTile * v.tiles;
  begin = elements * k / n;
  end = std::max(begin + 1, elements * (k + 1) / n);
  end = std::min(end, elements);
  begin = std::min(begin, end - 1);
}

void writeMessage(const std::string& path, capnp::MessageBuilder& message) {
  const std::string partial = path + ".partial";
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  try {
    capnp::writeMessageToFd(fd, message);
  } catch (const std::exception& e) {
    ::close(fd);
    std::remove(partial.c_str());
    throw std::runtime_error("cannot write " + path + ": " + e.what());
  }
  if (::close(fd) != 0 || std::rename(partial.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(partial.c_str());
    throw std::runtime_error("cannot write " + path + ": " + why);
  }
}

} // namespace

std::string syntheticBackwardName(unsigned block, unsigned layer, const std::string& name) {
  return layerPath("bwd", block, layer) + "/" + name;
}

SyntheticGraphCounts writeSyntheticGraph(const std::string& path,
                                         const SyntheticGraphShape& shape) {
  Planner p(shape);
  const std::uint64_t layers = std::max<std::uint64_t>(
      1, (shape.computeSets + kComputeSetsPerLayer - 1) / kComputeSetsPerLayer);
  const unsigned perBlock = std::max(1u, shape.layersPerBlock);
  std::vector<LayerVars> L(layers);
  // The input images, and the model's layers forward, each on its own window of tiles (a prime
  // stride scatters them over every IPU).
  unsigned previous = p.var("images", "half", 4096, 0, 256);
  const unsigned labels = p.var("labels", "int", 16, 0, 16);
  for (std::uint64_t i = 0; i < layers; ++i) {
    L[i].block = unsigned(i / perBlock);
    L[i].layer = unsigned(i % perBlock);
    L[i].tile = unsigned((i * 1009) % p.totalTiles());
    L[i].input = previous;
    planForward(p, L[i]);
    previous = L[i].reluOut;
  }
  const unsigned loss = p.var("loss/SoftmaxCrossEntropy/loss", "float", 1, 0, 1);
  unsigned grad = p.var("loss/SoftmaxCrossEntropy/grad", "half", 4096, 0, 256);
  p.cs("loss/SoftmaxCrossEntropy/Forward", "popnn::SoftmaxCrossEntropy<half>", kMedium, 0,
       {previous, labels}, {loss});
  p.cs("loss/SoftmaxCrossEntropy/Grad", "popnn::SoftmaxCrossEntropyGrad<half>", kMedium, 0,
       {previous, labels}, {grad});
  for (std::uint64_t i = layers; i-- > 0;) {
    planBackward(p, L[i], grad);
    grad = L[i].inputGrad;
  }
  const unsigned learningRate = p.var("optimizer/learningRate", "float", 1, 0, 1, true);
  for (std::uint64_t i = 0; i < layers; ++i)
    planOptimizer(p, L[i], learningRate);
  if (p.sets.size() != layers * kComputeSetsPerLayer + 2)
    throw std::logic_error("writeSyntheticGraph: kComputeSetsPerLayer is out of date");

  // The message, as the engine's writer builds it (engine/src/report/SerializedGraph.cpp).
  capnp::MallocMessageBuilder message(1u << 20);
  auto graph = message.initRoot<cp::SerializedGraph>();
  graph.setNumIpus(shape.ipus);
  graph.setTilesPerIpu(shape.tilesPerIpu);
  const unsigned total = p.totalTiles();
  auto vars = graph.initVariables(unsigned(p.vars.size()));
  for (unsigned i = 0; i < p.vars.size(); ++i) {
    const Var& v = p.vars[i];
    vars[i].setName(v.name);
    vars[i].setElementType(v.type);
    auto dims = vars[i].initShape(2);
    dims.set(0, v.tiles);
    dims.set(1, v.elementsPerTile);
    vars[i].setIsConstant(v.isConstant);
    auto mapping = vars[i].initMapping(v.tiles);
    for (unsigned t = 0; t < v.tiles; ++t) {
      mapping[t].setBegin(t * v.elementsPerTile);
      mapping[t].setEnd((t + 1) * v.elementsPerTile);
      mapping[t].setTile((v.firstTile + t) % total);
    }
  }
  SyntheticGraphCounts counts;
  counts.layers = layers;
  counts.variables = p.vars.size();
  counts.computeSets = p.sets.size();
  auto sets = graph.initComputeSets(unsigned(p.sets.size()));
  for (unsigned c = 0; c < p.sets.size(); ++c) {
    const ComputeSet& cs = p.sets[c];
    sets[c].setName(cs.name);
    auto vertices = sets[c].initVertices(cs.vertices);
    counts.vertices += cs.vertices;
    std::vector<unsigned> touched = cs.reads;
    touched.insert(touched.end(), cs.writes.begin(), cs.writes.end());
    std::sort(touched.begin(), touched.end());
    counts.edges += std::uint64_t(std::unique(touched.begin(), touched.end()) - touched.begin());
    for (unsigned k = 0; k < cs.vertices; ++k) {
      auto v = vertices[k];
      v.setType(cs.vertexType);
      // Vertices spread evenly over the compute set's tiles (several per tile when there are
      // more vertices than tiles, as the workers of a tile share them).
      const unsigned onTile = unsigned(std::uint64_t(k) * cs.tiles / cs.vertices);
      v.setTile((cs.firstTile + onTile) % total);
      auto fields = v.initFields(unsigned(cs.reads.size() + cs.writes.size()));
      unsigned f = 0;
      auto connect = [&](const char* prefix, unsigned index, unsigned var) {
        fields[f].setName(std::string(prefix) + std::to_string(index));
        auto region = fields[f].initEdges(1)[0].initRegions(1)[0];
        std::uint64_t begin = 0, end = 0;
        slice(p.vars[var], k, cs.vertices, begin, end);
        region.setVariable(var);
        region.setBegin(begin);
        region.setEnd(end);
        ++f;
      };
      for (unsigned r = 0; r < cs.reads.size(); ++r)
        connect("in", r, cs.reads[r]);
      for (unsigned w = 0; w < cs.writes.size(); ++w)
        connect("out", w, cs.writes[w]);
    }
  }
  std::filesystem::create_directories(std::filesystem::path(path).parent_path().empty()
                                          ? std::filesystem::path(".")
                                          : std::filesystem::path(path).parent_path());
  writeMessage(path, message);
  counts.bytes = std::filesystem::file_size(path);
  return counts;
}

} // namespace tessera::bench
