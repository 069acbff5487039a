//===- CheckPng.cpp - dftracer_trace_gen check-png ------------------------===//

#include "Commands.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace tracegen {

/// A screenshot is a picture: enough pixels that are not the background,
/// in enough colours. Decodes 8-bit RGB/RGBA non-interlaced PNG (what
/// Chromium writes).
int checkPng(int Argc, char **Argv) {
  if (Argc != 3)
    return 2;
  std::ifstream In(Argv[2], std::ios::binary);
  std::string B((std::istreambuf_iterator<char>(In)), {});
  auto U32 = [&](size_t P) {
    return (uint32_t(uint8_t(B[P])) << 24) | (uint32_t(uint8_t(B[P + 1])) << 16) |
           (uint32_t(uint8_t(B[P + 2])) << 8) | uint32_t(uint8_t(B[P + 3]));
  };
  if (B.size() < 33 || B.compare(1, 3, "PNG") != 0) {
    std::cerr << "check-png: not a PNG\n";
    return 1;
  }
  uint32_t W = U32(16), H = U32(20);
  int Depth = uint8_t(B[24]), Type = uint8_t(B[25]), Interlace = uint8_t(B[28]);
  size_t Bpp = Type == 6 ? 4 : Type == 2 ? 3 : 0;
  if (Depth != 8 || !Bpp || Interlace) {
    std::cerr << "check-png: unsupported PNG layout\n";
    return 1;
  }
  std::string Z;
  for (size_t P = 8; P + 8 <= B.size();) {
    uint32_t Len = U32(P);
    std::string Type4 = B.substr(P + 4, 4);
    if (Type4 == "IDAT")
      Z += B.substr(P + 8, Len);
    P += 12 + Len;
  }
  size_t Stride = W * Bpp;
  std::vector<unsigned char> Raw((Stride + 1) * H);
  uLongf RawLen = Raw.size();
  if (uncompress(Raw.data(), &RawLen, reinterpret_cast<const Bytef *>(Z.data()),
                 Z.size()) != Z_OK) {
    std::cerr << "check-png: cannot inflate\n";
    return 1;
  }
  std::vector<unsigned char> Img(Stride * H), Prev(Stride, 0);
  for (uint32_t Y = 0; Y < H; ++Y) {
    unsigned char F = Raw[Y * (Stride + 1)];
    unsigned char *Src = &Raw[Y * (Stride + 1) + 1], *Dst = &Img[Y * Stride];
    for (size_t X = 0; X < Stride; ++X) {
      int A = X >= Bpp ? Dst[X - Bpp] : 0, Up = Prev[X],
          C = X >= Bpp ? Prev[X - Bpp] : 0, V = Src[X];
      switch (F) {
      case 1: V += A; break;
      case 2: V += Up; break;
      case 3: V += (A + Up) / 2; break;
      case 4: {
        int P = A + Up - C, PA = std::abs(P - A), PB = std::abs(P - Up),
            PC = std::abs(P - C);
        V += PA <= PB && PA <= PC ? A : PB <= PC ? Up : C;
        break;
      }
      }
      Dst[X] = static_cast<unsigned char>(V);
    }
    std::copy(Dst, Dst + Stride, Prev.begin());
  }
  std::set<uint32_t> Colours;
  uint64_t NotWhite = 0;
  for (size_t I = 0; I < Img.size(); I += Bpp) {
    uint32_t C = (uint32_t(Img[I]) << 16) | (uint32_t(Img[I + 1]) << 8) | Img[I + 2];
    if (Colours.size() < 4096)
      Colours.insert(C);
    NotWhite += C != 0xffffff;
  }
  double Share = double(NotWhite) / (double(W) * H);
  std::cout << "check-png: " << W << "x" << H << ", " << Colours.size()
            << (Colours.size() >= 4096 ? "+" : "") << " colours, "
            << int(Share * 1000) / 10.0 << "% not white\n";
  return Colours.size() >= 16 && Share > 0.02 ? 0 : 1;
}

} // namespace tracegen
