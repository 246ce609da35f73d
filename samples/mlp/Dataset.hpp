// Synthetic MNIST-shaped data: 28x28 images of ten noisy class prototypes.
#pragma once

#include <cstdint>
#include <vector>

struct Dataset {
  static constexpr unsigned kPixels = 28 * 28;
  static constexpr unsigned kClasses = 10;
  std::vector<float> images;    ///< size * kPixels, values in [0, 1]
  std::vector<unsigned> labels; ///< size
  unsigned size = 0;
};

/// `size` samples; each class is a random smooth blob pattern, each sample that pattern with
/// per-pixel noise, so the classes overlap enough that learning takes a few hundred steps.
Dataset makeDataset(unsigned size, std::uint32_t seed);
