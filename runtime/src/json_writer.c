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

char *dftracer_put_u64(char *Out, uint64_t V) {
  char Tmp[24];
  char *P = Tmp + sizeof(Tmp);
  while (V >= 100) {
    unsigned Two = (unsigned)(V % 100);
    V /= 100;
    *--P = Digits2[2 * Two + 1];
    *--P = Digits2[2 * Two];
  }
  if (V >= 10) {
    *--P = Digits2[2 * V + 1];
    *--P = Digits2[2 * V];
  } else {
    *--P = (char)('0' + V);
  }
  return dftracer_put_raw(Out, P, (size_t)(Tmp + sizeof(Tmp) - P));
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
