// A 784-128-10 multi-layer perceptron trained with SGD, built from PopLibs-style ops.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

struct MlpConfig {
  unsigned batchSize = 32;
  unsigned hidden = 128;
  float learningRate = 0.05f;
};

/// The training step: reads a batch from the "images" and "labels" streams, runs forward and
/// backward passes, updates the weights, and writes per-sample losses to "loss" and the number
/// of correct predictions to "correct".
poplar::program::Sequence buildTrainingStep(poplar::Graph& graph, const MlpConfig& config);
