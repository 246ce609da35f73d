// A helper the codelet includes from its own include directory (popc -I include).
#pragma once

inline float clampTo(float x, float limit) { return x > limit ? limit : (x < -limit ? -limit : x); }
