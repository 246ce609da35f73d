// Codelets as research codes write them: the SDK's stack-size header included by its short
// name, a stack reservation declared for the IPU build, and scalar results written by plain
// assignment to the field (`converged = 0;`, `maxDelta = d;`). The list-layout header is
// included as the Hungarian-algorithm codelets of kouteisang/PaperID13Alenex25 include it.
#include <StackSizeDefs.hpp>
#include <cmath>
#include <poplar/VectorListTypes.hpp>
#include <poplar/Vertex.hpp>

static_assert(poplar::VectorListLayout::DELTANELEMENTS != poplar::VectorListLayout::DELTAN,
              "<poplar/VectorListTypes.hpp> declares the list layouts");

using namespace poplar;

// Relaxes `x` towards `target` by `rate` and reports whether every element has converged.
class RelaxStep : public Vertex {
public:
  InOut<Vector<float>> x;
  Input<Vector<float>> target;
  float rate;
  float tolerance;
  Output<unsigned> converged;
  Output<float> maxDelta;
  InOut<unsigned> iterations;

  bool compute() {
    converged = 1;
    float worst = 0.0f;
    for (unsigned i = 0; i < x.size(); ++i) {
      const float delta = (target[i] - x[i]) * rate;
      x[i] += delta;
      worst = std::fmax(worst, std::fabs(delta));
    }
    maxDelta = worst;
    if (worst > tolerance)
      converged = 0;
    iterations = iterations + 1;
    return true;
  }
};

#ifdef __IPU__
DEF_STACK_USAGE(256, __runCodelet_RelaxStep);
#endif
DEF_STACK_USAGE(256, __runCodelet_RelaxStep_host);
