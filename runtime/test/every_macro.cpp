// Every C++ macro of SPEC 5.1 plus the C forms inside C++ code (main uses the
// explicit C forms, SPEC 2.4). Counts: every_macro_cpp.counts.json.
#include <dftracer/dftracer.h>

#include <cstdio>
#include <string>

#define CHECK(x)                                                               \
  if (!(x))                                                                    \
  return -1

namespace {

int hiddenReturn(int X) {
  DFTRACER_CPP_FUNCTION();
  CHECK(X > 0);
  DFTRACER_CPP_FUNCTION_UPDATE("x", X);
  DFTRACER_CPP_FUNCTION_UPDATE("zero", 0);
  DFTRACER_CPP_FUNCTION_UPDATE("big", 1ULL << 40);
  DFTRACER_CPP_FUNCTION_UPDATE("name", "hidden");
  return X;
}

struct Worker {
  int run(int X) {
    DFTRACER_CPP_FUNCTION();
    {
      DFTRACER_CPP_REGION(scoped);
      DFTRACER_CPP_REGION_UPDATE(scoped, "x", X);
    }
    DFTRACER_CPP_REGION_START(explicit_region);
    X += 1;
    DFTRACER_CPP_REGION_DYN_UPDATE(explicit_region, "x", X);
    DFTRACER_CPP_REGION_END(explicit_region);
    DFTRACER_CPP_REGION_END(explicit_region); // harmless twice
    return X;
  }
};

template <typename T> T twice(T V) {
  DFTRACER_CPP_FUNCTION();
  return V + V;
}

// The C forms are what `annotate` inserts in C++ too.
int cStyle(int X) {
  DFTRACER_C_FUNCTION_START();
  CHECK(X != 7);
  if (X > 3) {
    { int annotate_ret = (twice(X)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
  }
  auto Lambda = [](int Y) { return Y * 3; };
  DFTRACER_C_FUNCTION_UPDATE_INT("x", X);
  DFTRACER_C_FUNCTION_UPDATE_STR("s", std::string("str").c_str());
  DFTRACER_C_REGION_START(c_region);
  DFTRACER_C_REGION_UPDATE_INT(c_region, "y", 2);
  DFTRACER_C_REGION_UPDATE_STR(c_region, "z", "v");
  DFTRACER_C_REGION_END(c_region);
  DFTRACER_C_FUNCTION_END();
  return Lambda(X);
}

} // namespace

int main() {
  DFTRACER_CPP_INIT(nullptr, nullptr, nullptr);
  DFTRACER_C_FUNCTION_START();
  DFTRACER_CPP_METADATA(annotate_meta_0, "app", "every_macro_cpp");
  DFTRACER_C_METADATA(annotate_meta_1, "lang", "c++");
  Worker W;
  int Sum = hiddenReturn(1) + hiddenReturn(-1) + W.run(1) + twice(2.5) +
            cStyle(1) + cStyle(5) + cStyle(7);
  std::printf("%d\n", Sum);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_CPP_FINI();
  return 0;
}
