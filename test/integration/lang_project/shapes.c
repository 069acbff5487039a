/* C++ in a .c file (LANGUAGE CXX): a class, a mutable member, <cfloat>. */
#include <cfloat>

#include "mix.h"

class Rect {
public:
  Rect(int w, int h) : w_(w), h_(h) {}
  int area() const {
    ++reads_;
    return w_ * h_;
  }

private:
  int w_, h_;
  mutable int reads_ = 0;
};

extern "C" int shape_area(int w, int h) {
  Rect r(w, h);
  return r.area() + (FLT_DIG - FLT_DIG);
}
