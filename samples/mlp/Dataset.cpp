#include "Dataset.hpp"

#include <algorithm>
#include <cmath>
#include <random>

Dataset makeDataset(unsigned size, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(4.0f, 24.0f), radius(2.5f, 6.0f);
  std::normal_distribution<float> noise(0.0f, 0.35f);

  // Three Gaussian blobs per class make a prototype image.
  std::vector<float> prototypes(Dataset::kClasses * Dataset::kPixels, 0.0f);
  for (unsigned c = 0; c < Dataset::kClasses; ++c)
    for (int blob = 0; blob < 3; ++blob) {
      const float cx = pos(rng), cy = pos(rng), r = radius(rng);
      for (unsigned y = 0; y < 28; ++y)
        for (unsigned x = 0; x < 28; ++x) {
          const float d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
          float& p = prototypes[c * Dataset::kPixels + y * 28 + x];
          p = std::min(1.0f, p + std::exp(-d2 / (2 * r * r)));
        }
    }

  Dataset d;
  d.size = size;
  d.images.resize(std::size_t(size) * Dataset::kPixels);
  d.labels.resize(size);
  std::uniform_int_distribution<unsigned> label(0, Dataset::kClasses - 1);
  for (unsigned i = 0; i < size; ++i) {
    const unsigned c = label(rng);
    d.labels[i] = c;
    for (unsigned p = 0; p < Dataset::kPixels; ++p)
      d.images[std::size_t(i) * Dataset::kPixels + p] =
          std::clamp(prototypes[c * Dataset::kPixels + p] + noise(rng), 0.0f, 1.0f);
  }
  return d;
}
