// A small convolutional network trained with SGD, built from PopLibs ops:
//   conv 3x3 (1 -> c1) - batch norm - ReLU - max pool 2x2
//   conv 3x3 (c1 -> c2) - batch norm - ReLU - average pool 2x2
//   dense (c2*7*7 -> 10) - log-softmax - cross-entropy loss.
// One replica; the gradients are plain tensors (CnnGradients) so that a data-parallel version
// can all-reduce them across replicas before the update.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

struct CnnConfig {
  unsigned batchSize = 16;
  unsigned channels1 = 8;
  unsigned channels2 = 16;
  float learningRate = 0.05f;
};

/// The training step: reads a batch from the "images" and "labels" streams, runs the forward
/// and backward passes, updates every parameter, and writes per-sample losses to "loss" and the
/// number of correct predictions to "correct".
poplar::program::Sequence buildCnnTrainingStep(poplar::Graph& graph, const CnnConfig& config);
