//===- LineReader.cpp - Lines of a .pfw / .pfw.gz file --------------------===//

#include "LineReader.h"

#include <zlib.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <fcntl.h>
#include <unistd.h>

namespace dftrace {

namespace {
/// The last reader's buffers, for the next file this thread reads: a
/// fresh megabyte, zeroed and faulted in page by page, cost more than a
/// small trace file's events (issue 41: 100,000 files of a few hundred
/// lines each).
thread_local std::vector<char> SpareText;
thread_local std::vector<unsigned char> SpareIn;
constexpr size_t InBytes = 256 << 10; // compressed bytes read at a time

std::vector<unsigned char> spareIn() {
  std::vector<unsigned char> In;
  if (SpareIn.size() == InBytes)
    In.swap(SpareIn);
  else
    In.resize(InBytes);
  return In;
}
} // namespace

/// zlib state and the compressed bytes read ahead of it.
struct LineReader::Inflater {
  z_stream S{};
  std::vector<unsigned char> In = spareIn();
  bool MemberEnded = false; // between two members, or after the last
  bool Initialised = false;
  ~Inflater() {
    if (Initialised)
      inflateEnd(&S);
  }
};

/// The helper thread that inflates ahead of the parser.
struct LineReader::Prefetch {
  static constexpr size_t ChunkBytes = 256 << 10;
  static constexpr size_t MaxAhead = 3;
  struct Chunk {
    std::vector<char> Data = std::vector<char>(ChunkBytes);
    size_t Size = 0, Used = 0;
  };
  std::mutex M;
  std::condition_variable Cv;
  std::deque<std::unique_ptr<Chunk>> Ready, Spare;
  bool Done = false; // the producer has finished (end, or an error)
  bool Stop = false; // the consumer is gone
  std::thread Worker;

  ~Prefetch() {
    {
      std::lock_guard<std::mutex> Lock(M);
      Stop = true;
    }
    Cv.notify_all();
    if (Worker.joinable())
      Worker.join();
  }
};

LineReader::LineReader(std::string Path, size_t ChunkBytes)
    : Path(std::move(Path)), Z(std::make_unique<Inflater>()) {
  if (SpareText.size() == ChunkBytes + Padding)
    Buf.swap(SpareText); // its bytes are never read before written
  else
    Buf.resize(ChunkBytes + Padding);
}

LineReader::~LineReader() {
  Ahead.reset(); // joins the helper before the file and zlib go
  if (Fd >= 0)
    ::close(Fd);
  if (SpareText.empty())
    SpareText.swap(Buf);
  if (SpareIn.empty())
    SpareIn.swap(Z->In);
}

bool LineReader::open(std::string &OpenError) {
  Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    OpenError = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  // Read ahead into the text buffer; the first two bytes tell gzip from
  // text. A plain file's bytes stay there, to be handed out as lines (a
  // copy of them was 5 % of the instructions on 4,096 files of 170 KB,
  // issue 41); a gzip file's go to the inflater's input.
  size_t Got = 0;
  size_t Room = std::min(Z->In.size(), Buf.size() - Padding);
  while (Got < HeadBytes) {
    ssize_t N = ::read(Fd, Buf.data() + Got, Room - Got);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      OpenError = std::string("cannot read: ") + std::strerror(errno);
      return false;
    }
    if (N == 0)
      break;
    Got += static_cast<size_t>(N);
  }
  HeadData = Buf.data();
  HeadSize = Got;
  Gzip = Got >= 2 && static_cast<unsigned char>(Buf[0]) == 0x1f &&
         static_cast<unsigned char>(Buf[1]) == 0x8b;
  if (!Gzip) {
    End = Got;
  } else {
    std::memcpy(Z->In.data(), Buf.data(), Got);
    Z->S.next_in = Z->In.data();
    Z->S.avail_in = static_cast<uInt>(Got);
    if (inflateInit2(&Z->S, 15 + 16) != Z_OK) {
      OpenError = "cannot initialise zlib";
      return false;
    }
    Z->Initialised = true;
    // The helper owns zlib, the file and Error until it reports Done.
    Ahead = std::make_unique<Prefetch>();
    Ahead->Worker = std::thread([this] {
      Prefetch &P = *Ahead;
      for (;;) {
        std::unique_ptr<Prefetch::Chunk> C;
        {
          std::unique_lock<std::mutex> Lock(P.M);
          P.Cv.wait(Lock, [&] { return P.Stop || P.Ready.size() < P.MaxAhead; });
          if (P.Stop)
            return;
          if (!P.Spare.empty()) {
            C = std::move(P.Spare.front());
            P.Spare.pop_front();
          }
        }
        if (!C)
          C = std::make_unique<Prefetch::Chunk>();
        size_t Got = 0;
        bool Ok = readGzip(C->Data.data(), C->Data.size(), Got);
        C->Size = Got;
        C->Used = 0;
        std::lock_guard<std::mutex> Lock(P.M);
        if (Got > 0)
          P.Ready.push_back(std::move(C));
        if (!Ok || Got == 0) {
          P.Done = true;
          P.Cv.notify_all();
          return;
        }
        P.Cv.notify_all();
      }
    });
  }
  return true;
}

bool LineReader::fillFromPrefetch(char *To, size_t Room, size_t &Got) {
  Prefetch &P = *Ahead;
  Got = 0;
  std::unique_lock<std::mutex> Lock(P.M);
  P.Cv.wait(Lock, [&] { return !P.Ready.empty() || P.Done; });
  while (Got < Room && !P.Ready.empty()) {
    Prefetch::Chunk &C = *P.Ready.front();
    size_t N = std::min(Room - Got, C.Size - C.Used);
    std::memcpy(To + Got, C.Data.data() + C.Used, N);
    C.Used += N;
    Got += N;
    if (C.Used == C.Size) {
      P.Spare.push_back(std::move(P.Ready.front()));
      P.Ready.pop_front();
    }
  }
  P.Cv.notify_all();
  return Got > 0 || !P.Done || Error.empty();
}

bool LineReader::readRaw(char *To, size_t Room, size_t &Got) {
  Got = 0;
  if (Z->S.avail_in > 0) { // read-ahead from open()
    Got = std::min<size_t>(Room, Z->S.avail_in);
    std::memcpy(To, Z->S.next_in, Got);
    Z->S.next_in += Got;
    Z->S.avail_in -= static_cast<uInt>(Got);
    return true;
  }
  for (;;) {
    ssize_t N = ::read(Fd, To, Room);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      Error = std::string("read error: ") + std::strerror(errno);
      return false;
    }
    Got = static_cast<size_t>(N);
    return true;
  }
}

bool LineReader::readGzip(char *To, size_t Room, size_t &Got) {
  Got = 0;
  if (!Error.empty())
    return false;
  z_stream &S = Z->S;
  S.next_out = reinterpret_cast<Bytef *>(To);
  S.avail_out = static_cast<uInt>(Room);
  while (S.avail_out > 0) {
    if (S.avail_in == 0) {
      size_t N = 0;
      if (!readRaw(reinterpret_cast<char *>(Z->In.data()), Z->In.size(), N))
        break;
      S.next_in = Z->In.data();
      S.avail_in = static_cast<uInt>(N);
      if (N == 0) { // end of file
        if (!Z->MemberEnded)
          Error = "gzip stream is truncated (the writer did not finish it)";
        break;
      }
    }
    if (Z->MemberEnded) {
      // Another member follows, or trailing bytes that are not gzip.
      if (S.avail_in < 2 && S.next_in[0] == 0x1f) {
        // Need the second magic byte: move it to the front and read more.
        Z->In[0] = S.next_in[0];
        size_t N = 0;
        if (!readRaw(reinterpret_cast<char *>(Z->In.data()) + 1,
                     Z->In.size() - 1, N))
          break;
        S.next_in = Z->In.data();
        S.avail_in = static_cast<uInt>(1 + N);
      }
      if (S.avail_in < 2 || S.next_in[0] != 0x1f || S.next_in[1] != 0x8b) {
        Error = "unexpected bytes after the end of a gzip member";
        break;
      }
      inflateReset(&S);
      Z->MemberEnded = false;
    }
    int Rc = inflate(&S, Z_NO_FLUSH);
    if (Rc == Z_STREAM_END) {
      Z->MemberEnded = true;
      continue;
    }
    if (Rc != Z_OK && Rc != Z_BUF_ERROR) {
      Error = std::string("gzip data is corrupt: ") +
              (S.msg ? S.msg : zError(Rc));
      break;
    }
  }
  Got = Room - S.avail_out;
  return Error.empty() || Got > 0;
}

bool LineReader::fill() {
  if (Begin > 0) {
    std::memmove(Buf.data(), Buf.data() + Begin, End - Begin);
    End -= Begin;
    Begin = 0;
  }
  size_t Chunk = Buf.size() - Padding;
  if (End == Chunk) { // one line fills the buffer: make room for it
    Buf.resize(Chunk * 2 + Padding);
    Chunk *= 2;
  }
  size_t Got = 0;
  bool Ok = Gzip ? fillFromPrefetch(Buf.data() + End, Chunk - End, Got)
                 : readRaw(Buf.data() + End, Chunk - End, Got);
  End += Got;
  AtEof = !Ok || Got == 0;
  return Got > 0;
}

bool LineReader::nextFilling(Line &L) {
  if (Fd < 0)
    return false;
  for (;;) {
    const char *Start = Buf.data() + Begin;
    const void *Nl = End > Begin ? std::memchr(Start, '\n', End - Begin)
                                 : nullptr;
    if (Nl || (AtEof && End > Begin)) {
      size_t Size = Nl ? static_cast<const char *>(Nl) - Start : End - Begin;
      L.Terminated = Nl != nullptr;
      Begin += Size + (Nl ? 1 : 0);
      TextBytes += Size + (Nl ? 1 : 0);
      return lineAt(L, Start, Size);
    }
    if (AtEof)
      return false;
    fill();
  }
}

} // namespace dftrace
