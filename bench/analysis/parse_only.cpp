//===- parse_only.cpp - simdjson's front ends on trace lines, parse only ---===//
//
//   c++ -O2 -std=c++17 parse_only.cpp -lsimdjson -o parse_only
//   parse_only TRACE.pfw [REPS]
//
// Issue 22 asked whether the analyzer should parse the way simdjson is fast
// (On-Demand, or many documents per call) instead of one DOM document per
// line. This reads the event lines of one file into memory and parses them
// every way, reading every value of every line (the reader accepts a line
// only if all of it is valid JSON, docs/analysis.md), and prints MB of text
// per CPU second (CPU time: the machine is shared, wall time is not):
//   - DOM, one document per line (what analysis/reader does)
//   - DOM parse_many over the whole buffer (one stage 1 per 1 MiB batch)
//   - On-Demand, one document per line
//   - On-Demand iterate_many over the whole buffer
// The runs alternate REPS times (default 3). On-Demand here is the kernel
// this file is compiled for (Debian's 3.0.1 compiles it only for the
// compiler's target; add -march=haswell to compare the AVX2 one); DOM goes
// through libsimdjson's run-time dispatch.
//
//===----------------------------------------------------------------------===//

#include <simdjson.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

using namespace simdjson;

namespace {

uint64_t Sink = 0; // keeps the reads alive

double cpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

void walk(dom::element E) {
  switch (E.type()) {
  case dom::element_type::OBJECT:
    for (dom::key_value_pair KV : dom::object(E)) {
      Sink += KV.key.size();
      walk(KV.value);
    }
    break;
  case dom::element_type::ARRAY:
    for (dom::element X : dom::array(E))
      walk(X);
    break;
  case dom::element_type::INT64:
    Sink += static_cast<uint64_t>(int64_t(E));
    break;
  case dom::element_type::STRING:
    Sink += std::string_view(E).size();
    break;
  default:
    ++Sink;
  }
}

void walk(ondemand::value V) {
  ondemand::json_type T;
  if (V.type().get(T)) {
    ++Sink;
    return;
  }
  switch (T) {
  case ondemand::json_type::object: {
    ondemand::object O;
    if (V.get_object().get(O)) {
      ++Sink;
      return;
    }
    for (auto F : O) {
      std::string_view K;
      ondemand::value X;
      if (F.unescaped_key().get(K) || F.value().get(X)) {
        ++Sink;
        return;
      }
      Sink += K.size();
      walk(X);
    }
    break;
  }
  case ondemand::json_type::array: {
    ondemand::array A;
    if (V.get_array().get(A)) {
      ++Sink;
      return;
    }
    for (auto X : A) {
      ondemand::value Y;
      if (X.get(Y)) {
        ++Sink;
        return;
      }
      walk(Y);
    }
    break;
  }
  case ondemand::json_type::number: {
    ondemand::number N;
    if (V.get_number().get(N)) {
      ++Sink;
      return;
    }
    Sink += N.is_int64() ? static_cast<uint64_t>(N.get_int64()) : 1;
    break;
  }
  case ondemand::json_type::string: {
    std::string_view S;
    if (V.get_string().get(S)) {
      ++Sink;
      return;
    }
    Sink += S.size();
    break;
  }
  default: {
    bool B = false;
    if (!V.get_bool().get(B))
      Sink += B;
    else
      Sink += V.is_null();
  }
  }
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::fprintf(stderr, "usage: parse_only TRACE.pfw [REPS]\n");
    return 2;
  }
  int Reps = Argc > 2 ? std::atoi(Argv[2]) : 3;
  std::ifstream In(Argv[1]);
  std::string All, L;
  std::vector<std::pair<size_t, size_t>> Lines; // offset, size
  while (std::getline(In, L)) {
    if (L.empty() || L[0] != '{')
      continue;
    Lines.emplace_back(All.size(), L.size());
    All += L;
    All += '\n';
  }
  size_t Text = All.size();
  All.append(SIMDJSON_PADDING, ' ');
  double Mb = static_cast<double>(Text) / 1e6;
  std::printf("%zu lines, %.1f MB, %.0f B a line; DOM kernel %s\n",
              Lines.size(), Mb, Lines.empty() ? 0.0 : Text / double(Lines.size()),
              get_active_implementation()->name().c_str());
  dom::parser Dom, DomMany;
  ondemand::parser Od, OdMany;
  double T[4] = {0, 0, 0, 0};
  size_t Errors = 0;
  for (int R = 0; R < Reps; ++R) {
    double T0 = cpuSeconds();
    for (auto [Off, Size] : Lines) {
      dom::element E;
      if (Dom.parse(All.data() + Off, Size, false).get(E))
        ++Errors;
      else
        walk(E);
    }
    double T1 = cpuSeconds();
    dom::document_stream Docs;
    if (!DomMany.parse_many(All.data(), Text, 1 << 20).get(Docs))
      for (auto D : Docs) {
        dom::element E;
        if (D.get(E))
          ++Errors;
        else
          walk(E);
      }
    double T2 = cpuSeconds();
    for (auto [Off, Size] : Lines) {
      ondemand::document D;
      ondemand::value V;
      if (Od.iterate(All.data() + Off, Size, Size + SIMDJSON_PADDING).get(D) ||
          D.get_value().get(V))
        ++Errors;
      else
        walk(V);
    }
    double T3 = cpuSeconds();
    ondemand::document_stream Stream;
    if (!OdMany.iterate_many(All.data(), Text, 1 << 20).get(Stream))
      for (auto D : Stream) {
        ondemand::value V;
        if (D.get_value().get(V))
          ++Errors;
        else
          walk(V);
      }
    double T4 = cpuSeconds();
    T[0] += T1 - T0, T[1] += T2 - T1, T[2] += T3 - T2, T[3] += T4 - T3;
  }
  const char *Names[] = {"DOM, a document per line", "DOM parse_many",
                         "On-Demand, a document per line",
                         "On-Demand iterate_many"};
  for (int I = 0; I < 4; ++I)
    std::printf("%-32s %8.0f MB per CPU second\n", Names[I],
                Mb * Reps / T[I]);
  if (Errors)
    std::printf("%zu lines did not parse\n", Errors / Reps);
  return Sink == 42; // never: Sink only keeps the reads
}
