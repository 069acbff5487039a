// A C++ source: annotated when annotate supports C++, compiled either way.
int hello(int x) { return x + 1; }
