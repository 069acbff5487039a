// A C++11 narrowing of a non-constant in braces: g++ warns (-Wnarrowing),
// Clang rejects it unless -Wno-c++11-narrowing.
#include "mix.h"

extern "C" int scaled_parts(double scale) {
  int parts[] = {scale, 2};
  return parts[0] + parts[1];
}
