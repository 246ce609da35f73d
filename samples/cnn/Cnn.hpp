// A small convolutional network trained data-parallel with SGD, built from PopLibs ops:
//   conv 3x3 (1 -> c1) - batch norm - ReLU - max pool 2x2
//   conv 3x3 (c1 -> c2) - batch norm - ReLU - average pool 2x2
//   dropout (poprand) - dense (c2*7*7 -> 10) - log-softmax - cross-entropy loss.
// The graph may be replicated (Graph(target, replicas)): every replica trains on its own batch,
// computes its gradients, and the gradients are averaged across the replicas with one gcl
// all-reduce before the same SGD update is applied everywhere, so the replicas' weights stay
// identical. Batch norm statistics are per replica (each replica normalises its own batch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <vector>

struct CnnConfig {
  unsigned batchSize = 16; ///< per replica
  unsigned channels1 = 8;
  unsigned channels2 = 16;
  float learningRate = 0.05f;
  float keepProbability = 0.9f; ///< dropout on the dense layer's input (1: no dropout)
};

/// The training step. Each replica reads a batch from the "images" and "labels" streams and two
/// dropout seeds from "seed" (UNSIGNED_INT), runs the forward and backward passes, all-reduces
/// the gradients (MEAN) and updates every parameter. It writes its per-sample losses to "loss"
/// and the number of correct predictions of all replicas together (an all-reduce ADD of each
/// replica's calcLoss count) to "correct".
poplar::program::Sequence buildCnnTrainingStep(poplar::Graph& graph, const CnnConfig& config);

/// He-uniform initial weights from a fixed seed, so runs are reproducible (and a host model can
/// start from the same weights): seed 1 for block1's [1][c1][1][3][3], 2 for block2's
/// [1][c2][c1][3][3], 3 for the dense [c2*7*7][10]; fanIn is the inputs per output.
std::vector<float> cnnInitialWeights(std::size_t n, std::size_t fanIn, std::uint32_t seed);
