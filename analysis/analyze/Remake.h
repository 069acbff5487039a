//===- Remake.h - A record made again where it stands ---------------------===//
//
// X = T() builds a second T, moves it in and destroys it: for the large
// records a worker resets for every trace file (an Aggregate, a FileStat,
// a FunctionStat, an AccessStats), that was a tenth of a small file's
// set-up (issue 41). remake(X) destroys X and builds a new T in its place.
// T's default constructor must not throw (the standard containers' do
// not allocate), or X would be left destroyed.
//
//===----------------------------------------------------------------------===//

#ifndef DFTANALYZE_REMAKE_H
#define DFTANALYZE_REMAKE_H

#include <new>

namespace dftanalyze {

template <class T> void remake(T &X) {
  X.~T();
  ::new (static_cast<void *>(&X)) T();
}

} // namespace dftanalyze

#endif
