//===- RecordText.cpp - The runtime's records in words --------------------===//

#include "RecordText.h"

namespace dftrace {

std::string bypassedText(const std::string &Layer, const std::string &Symbol,
                         const std::string &Library) {
  return Layer + " calls do not reach the tracer (" + Symbol + " resolves to " +
         (Library.empty() ? "another library" : Library) + ")";
}

std::string fixText(const std::string &Fix) {
  return Fix.empty() ? std::string() : "; fix: " + Fix;
}

std::string stoppedText(const std::string &Reason, const std::string &Error) {
  return Error.empty() ? Reason : Reason + " (" + Error + ")";
}

std::string budgetText(uint64_t Written, uint64_t Limit) {
  return ", " + std::to_string(Written) + " bytes written of a " +
         std::to_string(Limit) + "-byte budget";
}

void printUntraced(std::ostream &Os, const UntracedDir &Sum,
                   uint64_t Processes) {
  Os << "not traced: " << Sum.Dir << ": " << Sum.Opens + Sum.Reads + Sum.Writes
     << " calls (" << Sum.Opens << " opens, " << Sum.Reads << " reads, "
     << Sum.Writes << " writes), " << Sum.BytesRead << " bytes read, "
     << Sum.BytesWritten << " bytes written, in " << Processes << " process"
     << (Processes == 1 ? "" : "es");
  // A directory's path starts with '/'; anything else is a kind of
  // descriptor that is not a file (socket, pipe, tty, memfd, anon).
  if (!Sum.Dir.empty() && Sum.Dir[0] == '/')
    Os << " (outside the traced directories: DFTRACER_DATA_DIR)\n";
  else
    Os << " (not a file: " << Sum.Dir << " descriptors are not traced)\n";
}

} // namespace dftrace
