#include "json_writer.h"

static const char Digits2[] = "00010203040506070809"
                              "10111213141516171819"
                              "20212223242526272829"
                              "30313233343536373839"
                              "40414243444546474849"
                              "50515253545556575859"
                              "60616263646566676869"
                              "70717273747576777879"
                              "80818283848586878889"
                              "90919293949596979899";

/* Integer formatting runs five times per event. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 decimal digits of V < 10^8, zero-padded, one per byte as values
 * 0-9, the first digit in the lowest byte (so a little-endian store writes
 * them in order). Splits SIMD-within-a-register: 4+4 digits in 32-bit lanes,
 * then 2+2 in 16-bit lanes, then 1+1 in bytes. Each split divides every lane
 * at once by a multiply with a reciprocal that is exact for the lane's range
 * (x < 10^4: x/100 = x*10486 >> 20; x < 100: x/10 = x*103 >> 10), and no
 * lane's product reaches the next lane. No table, no branch. */
static inline uint64_t eightDigits(uint32_t V) {
  uint64_t X = (uint64_t)(V / 10000) | (uint64_t)(V % 10000) << 32;
  uint64_t Q = ((X * 10486) >> 20) & 0x0000007F0000007Full;
  X = Q | (X - Q * 100) << 16;
  Q = ((X * 103) >> 10) & 0x000F000F000F000Full;
  return Q | (X - Q * 10) << 8;
}

static const uint64_t AsciiZeros = 0x3030303030303030ull;

/* Exactly 8 digits, zero-padded: the low half of a large number. */
static char *put8(char *Out, uint32_t V) {
  uint64_t Word = eightDigits(V) | AsciiZeros;
  memcpy(Out, &Word, 8);
  return Out + 8;
}

/* 0 < V < 10^8 without leading zeros: the zero bytes at the bottom of the
 * word are shifted out. All 8 bytes are stored; callers reserve
 * DFTRACER_JSON_INT_BOUND bytes per integer and what follows overwrites the
 * tail. */
static char *put32(char *Out, uint32_t V) {
  uint64_t Digits = eightDigits(V);
  unsigned Leading = (unsigned)__builtin_ctzll(Digits) / 8;
  uint64_t Word = (Digits >> (8 * Leading)) | AsciiZeros;
  memcpy(Out, &Word, 8);
  return Out + 8 - Leading;
}
#else
static inline uint64_t twoDigits(uint32_t V) {
  uint16_t Pair;
  memcpy(&Pair, &Digits2[2 * V], 2);
  return Pair;
}

static unsigned digitCount32(uint32_t V) {
  unsigned N = 1;
  while (V >= 10) {
    V /= 10;
    ++N;
  }
  return N;
}

static char *put8(char *Out, uint32_t V) {
  int I;
  for (I = 6; I >= 0; I -= 2) {
    uint16_t Pair = (uint16_t)twoDigits(V % 100);
    memcpy(Out + I, &Pair, 2);
    V /= 100;
  }
  return Out + 8;
}

static char *put32(char *Out, uint32_t V) {
  unsigned N = digitCount32(V);
  char Tmp[8];
  put8(Tmp, V);
  memcpy(Out, Tmp + 8 - N, N);
  return Out + N;
}
#endif

char *dftracer_put_u64(char *Out, uint64_t V) {
  /* Durations, levels and parent ids of shallow spans are mostly tiny. */
  if (V < 10) {
    *Out = (char)('0' + V);
    return Out + 1;
  }
  if (V < 100) {
    memcpy(Out, &Digits2[2 * V], 2);
    return Out + 2;
  }
  if (V < 100000000u)
    return put32(Out, (uint32_t)V);
  if (V < 10000000000000000ull) {
    /* Timestamps land here: 16 digits. */
    Out = put32(Out, (uint32_t)(V / 100000000u));
    return put8(Out, (uint32_t)(V % 100000000u));
  }
  Out = put32(Out, (uint32_t)(V / 10000000000000000ull));
  V %= 10000000000000000ull;
  Out = put8(Out, (uint32_t)(V / 100000000u));
  return put8(Out, (uint32_t)(V % 100000000u));
}

char *dftracer_put_i64(char *Out, int64_t V) {
  if (V < 0) {
    *Out++ = '-';
    /* Negate in unsigned arithmetic: -INT64_MIN overflows int64_t. */
    return dftracer_put_u64(Out, 0 - (uint64_t)V);
  }
  return dftracer_put_u64(Out, (uint64_t)V);
}

/* Length of the valid UTF-8 sequence at S (at most Left bytes), or 0. */
static size_t utf8SequenceLength(const unsigned char *S, size_t Left) {
  size_t Len, I;
  uint32_t Cp;
  if (S[0] >= 0xC2 && S[0] <= 0xDF) {
    Len = 2;
    Cp = S[0] & 0x1Fu;
  } else if (S[0] >= 0xE0 && S[0] <= 0xEF) {
    Len = 3;
    Cp = S[0] & 0x0Fu;
  } else if (S[0] >= 0xF0 && S[0] <= 0xF4) {
    Len = 4;
    Cp = S[0] & 0x07u;
  } else {
    return 0;
  }
  if (Len > Left)
    return 0;
  for (I = 1; I < Len; ++I) {
    if ((S[I] & 0xC0) != 0x80)
      return 0;
    Cp = (Cp << 6) | (S[I] & 0x3Fu);
  }
  /* Reject overlong forms, surrogates and code points past U+10FFFF. */
  if ((Len == 3 && Cp < 0x800) || (Len == 4 && Cp < 0x10000) ||
      (Cp >= 0xD800 && Cp <= 0xDFFF) || Cp > 0x10FFFF)
    return 0;
  return Len;
}

char *dftracer_put_string(char *Out, const char *S, size_t Len) {
  static const char Hex[] = "0123456789abcdef";
  const unsigned char *P = (const unsigned char *)S;
  const unsigned char *End = P + Len;
  *Out++ = '"';
  while (P < End) {
    unsigned char C = *P;
    if (C >= 0x20 && C < 0x80 && C != '"' && C != '\\') {
      *Out++ = (char)C;
      ++P;
      continue;
    }
    if (C >= 0x80) {
      size_t N = utf8SequenceLength(P, (size_t)(End - P));
      if (N) {
        Out = dftracer_put_raw(Out, (const char *)P, N);
        P += N;
      } else {
        Out = DFTRACER_PUT_LIT(Out, "\\ufffd");
        ++P;
      }
      continue;
    }
    *Out++ = '\\';
    switch (C) {
    case '"':
      *Out++ = '"';
      break;
    case '\\':
      *Out++ = '\\';
      break;
    case '\n':
      *Out++ = 'n';
      break;
    case '\t':
      *Out++ = 't';
      break;
    case '\r':
      *Out++ = 'r';
      break;
    default:
      *Out++ = 'u';
      *Out++ = '0';
      *Out++ = '0';
      *Out++ = Hex[C >> 4];
      *Out++ = Hex[C & 15];
      break;
    }
    ++P;
  }
  *Out++ = '"';
  return Out;
}
