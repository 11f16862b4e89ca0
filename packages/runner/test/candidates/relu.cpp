// A correct ReLU in C++ (extern "C" entry, as DESIGN section 5 asks).
#include <algorithm>
#include <cstdint>
extern "C" void solution(const float* x, float* y, int64_t n) {
  std::transform(x, x + n, y, [](float v) { return std::max(v, 0.0f); });
}
