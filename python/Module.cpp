//===- Module.cpp - annotate_traces._core: the C++ side of the module -----===//
//
// The Python package (annotate_traces/__init__.py) calls these and builds
// its DataFrames; docs/python.md is the user's side.
//
//   read_events(files, ...) -> dict of columns: numpy arrays that own the
//       C++ columns' pages (no copy), (codes, values) for strings, (values,
//       missing) for optional integers
//   analyze(paths, ...)     -> Analysis: json_text() is dftracer-analyze
//       --json's text, html_text() its --html page
//   compare(base, changed, ...) -> (json text, html text, comparable)
//
// The GIL is released while traces are read.
//
//===----------------------------------------------------------------------===//

#include "EventTable.h"

#include "analyze/Analysis.h"
#include "analyze/Report.h"
#include "diagnose/Compare.h"
#include "diagnose/Diagnose.h"
#include "reader/EventCheck.h"
#include "reader/IoTaxonomy.h"
#include "reader/TraceScanner.h"
#include "report/Output.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace py = pybind11;
using namespace annotate_traces;

namespace {

/// A numpy array that owns C's pages (PodColumn.h), of Type.
template <class T> py::array numpyOf(PodColumn<T> &&C, py::dtype Type) {
  size_t N = C.size();
  auto [Data, Bytes] = C.release();
  if (!Data) // nothing was written
    return py::array(Type, {static_cast<py::ssize_t>(0)}, {});
  using Mapping = std::pair<void *, size_t>; // what munmap needs
  py::capsule Owner(new Mapping(Data, Bytes), [](void *P) {
    auto *M = static_cast<Mapping *>(P);
    PageBuffer::unmap(M->first, M->second);
    delete M;
  });
  return py::array(Type, {static_cast<py::ssize_t>(N)}, {}, Data, Owner);
}

template <class T> py::array numpyOf(PodColumn<T> &&C) {
  return numpyOf(std::move(C), py::dtype::of<T>());
}

py::array boolsOf(PodColumn<uint8_t> &&C) {
  return numpyOf(std::move(C), py::dtype("bool"));
}

py::array boolsOf(std::vector<uint8_t> &&V) {
  PodColumn<uint8_t> C;
  C.append(V.data(), V.size());
  return boolsOf(std::move(C));
}

/// Trace text is bytes: what is not UTF-8 survives as surrogates, so two
/// different names never become one category.
py::str text(const std::string &S) {
  PyObject *O = PyUnicode_DecodeUTF8(S.data(), static_cast<Py_ssize_t>(S.size()),
                                     "surrogateescape");
  if (!O)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(O);
}

py::list texts(const std::vector<std::string> &V) {
  py::list L;
  for (const std::string &S : V)
    L.append(text(S));
  return L;
}

/// (codes, values): codes as narrow as StringColumn's Width.
py::tuple stringColumn(StringColumn &&C) {
  py::array Codes = C.Width == 1   ? numpyOf(std::move(C.Codes8))
                    : C.Width == 2 ? numpyOf(std::move(C.Codes16))
                                   : numpyOf(std::move(C.Codes32));
  return py::make_tuple(Codes, texts(C.Values));
}

py::tuple optionalColumn(OptionalColumn &&C) {
  return py::make_tuple(numpyOf(std::move(C.Values)),
                        boolsOf(std::move(C.Missing)));
}

dftrace::TimeUnit unitOf(const std::string &Unit) {
  dftrace::TimeUnit U = dftrace::parseTimeUnit(Unit);
  if (U == dftrace::TimeUnit::Unknown)
    throw py::value_error("time_unit must be us, ns, ms or sec, not '" + Unit +
                          "'");
  return U;
}

unsigned jobsOf(unsigned Jobs) {
  return Jobs ? Jobs : std::max(1u, std::thread::hardware_concurrency());
}

py::dict readEventsPy(const std::vector<std::string> &Files,
                      std::optional<std::vector<int64_t>> Ranks,
                      std::optional<std::vector<std::string>> Layers,
                      std::optional<std::vector<std::string>> Names,
                      std::optional<int64_t> T0Us, std::optional<int64_t> T1Us,
                      std::optional<std::vector<std::string>> FileGlobs,
                      unsigned Jobs, std::optional<std::string> Unit) {
  EventFilter F;
  if (Ranks) {
    F.ByRank = true;
    F.Ranks = *Ranks;
    std::sort(F.Ranks.begin(), F.Ranks.end());
  }
  if (Layers) {
    F.Layers = 0;
    for (const std::string &L : *Layers) {
      unsigned Bit = dftrace::NumLayers;
      for (unsigned I = 0; I < dftrace::NumLayers; ++I)
        if (L == dftrace::layerName(static_cast<dftrace::Layer>(I)))
          Bit = I;
      if (Bit == dftrace::NumLayers)
        throw py::value_error("unknown layer '" + L +
                              "' (APP, POSIX, STDIO, MPIIO, HDF5, OTHER)");
      F.Layers |= 1u << Bit;
    }
  }
  if (Names) {
    F.ByName = true;
    F.Names = *Names;
    std::sort(F.Names.begin(), F.Names.end());
  }
  F.HasT0 = T0Us.has_value();
  F.T0Us = T0Us.value_or(0);
  F.HasT1 = T1Us.has_value();
  F.T1Us = T1Us.value_or(0);
  if (FileGlobs)
    F.FileGlobs = *FileGlobs;
  ReadOptions O;
  O.Jobs = jobsOf(Jobs);
  if (Unit) {
    O.Unit = unitOf(*Unit);
    O.UnitGiven = true;
  }
  EventTable T;
  {
    py::gil_scoped_release Release;
    T = readEvents(Files, F, O);
  }
  py::dict D;
  D["pid"] = numpyOf(std::move(T.Pid));
  D["rank"] = optionalColumn(std::move(T.Rank));
  D["tid"] = numpyOf(std::move(T.Tid));
  D["layer"] = numpyOf(std::move(T.Layer));
  D["cat"] = stringColumn(std::move(T.Cat));
  D["name"] = stringColumn(std::move(T.Name));
  D["op"] = numpyOf(std::move(T.Op));
  D["ts_us"] = numpyOf(std::move(T.TsUs));
  D["dur_us"] = numpyOf(std::move(T.DurUs));
  D["start"] = numpyOf(std::move(T.Start));
  D["dur"] = numpyOf(std::move(T.Dur));
  D["bytes"] = numpyOf(std::move(T.Bytes));
  D["offset"] = optionalColumn(std::move(T.Offset));
  D["ret"] = optionalColumn(std::move(T.Ret));
  D["file"] = stringColumn(std::move(T.File));
  D["function"] = stringColumn(std::move(T.Function));
  D["parent"] = stringColumn(std::move(T.Parent));
  D["depth"] = numpyOf(std::move(T.Depth));
  D["trace"] = stringColumn(std::move(T.Trace));
  py::list Problems;
  for (const TraceProblem &P : T.Problems)
    Problems.append(py::make_tuple(text(Files[P.File]), P.Line, P.Kind,
                                   text(P.Message)));
  D["problems"] = Problems;
  D["problem_count"] = T.ProblemCount;
  D["opened"] = boolsOf(std::move(T.Opened));
  D["text_bytes"] = T.TextBytes;
  return D;
}

py::list layerNames() {
  py::list L;
  for (size_t I = 0; I < dftrace::NumLayers; ++I)
    L.append(dftrace::layerName(static_cast<dftrace::Layer>(I)));
  return L;
}

py::list opNames() {
  py::list L;
  for (size_t I = 0; I < dftrace::NumOps; ++I)
    L.append(dftrace::opName(static_cast<dftrace::Op>(I)));
  return L;
}

using namespace dftanalyze;

DiagnosisRules rulesOf(bool Diagnosing, const std::string &Path) {
  DiagnosisRules Rules;
  std::string Error;
  if (Diagnosing && !loadDiagnosisRules(Path, Rules, Error))
    throw py::value_error(Error);
  return Rules;
}

/// One run, as dftracer-analyze reads it (tools/DftracerAnalyze.cpp without
/// MPI): files expanded, read with Jobs threads, finished.
std::unique_ptr<Aggregate> analyzeRun(const std::vector<std::string> &Paths,
                                      unsigned Jobs, const AnalyzeOptions &AO) {
  std::vector<std::string> Errors;
  std::vector<std::string> Files = dftrace::expandTraceArguments(Paths, Errors);
  if (!Errors.empty())
    throw std::invalid_argument(Errors.front());
  std::vector<uint32_t> All(Files.size());
  for (uint32_t I = 0; I < All.size(); ++I)
    All[I] = I;
  auto A = std::make_unique<Aggregate>(
      analyzeFiles(Files, largestFirst(Files, std::move(All)), Jobs, AO));
  A->FileNames = Files;
  A->finish();
  return A;
}

/// The aggregate, report and findings of one run; printed on demand.
class Analysis {
public:
  Analysis(const std::vector<std::string> &Paths, unsigned Jobs, bool Diagnosing,
           const std::string &RulesPath, size_t Top, bool AllFiles,
           std::optional<std::string> Unit) {
    DiagnosisRules Rules = rulesOf(Diagnosing, RulesPath);
    AnalyzeOptions AO;
    AO.Timeline = true; // for html_text(); the JSON does not print it
    if (Unit) {
      AO.Unit = unitOf(*Unit);
      AO.UnitGiven = true;
    }
    AO.Sites = Diagnosing;
    AO.SmallBytes = Rules.SmallBytes;
    {
      py::gil_scoped_release Release;
      A = analyzeRun(Paths, jobsOf(Jobs), AO);
      R = std::make_unique<Report>(*A);
      if (Diagnosing)
        Findings = diagnose(*R, Rules);
    }
    Out.Top = Top;
    Out.AllFiles = AllFiles;
    if (Diagnosing) {
      Out.Findings = &Findings;
      Out.RulesPath = RulesPath;
    }
  }
  std::string jsonText() const {
    return dftanalyze::jsonText(reportJson(*R, Out), 2) + "\n";
  }
  std::string htmlText() const {
    std::ostringstream Page;
    printHtml(Page, *R, Out);
    return Page.str();
  }
  uint64_t unreadable() const { return A->FilesUnreadable; }
  std::vector<std::string> files() const { return A->FileNames; }

private:
  std::unique_ptr<Aggregate> A;
  std::unique_ptr<Report> R; // holds a reference to *A
  std::vector<Finding> Findings;
  OutputOptions Out;
};

/// --compare: Base and Changed are lists of runs, a run a list of paths.
py::tuple comparePy(const std::vector<std::vector<std::string>> &Base,
                    const std::vector<std::vector<std::string>> &Changed,
                    unsigned Jobs, bool Diagnosing,
                    const std::string &RulesPath, bool Force,
                    std::optional<std::string> Unit) {
  DiagnosisRules Rules = rulesOf(Diagnosing, RulesPath);
  AnalyzeOptions AO;
  if (Unit) {
    AO.Unit = unitOf(*Unit);
    AO.UnitGiven = true;
  }
  AO.Sites = Diagnosing;
  AO.SmallBytes = Rules.SmallBytes;
  std::string Json, Html;
  bool Comparable = false;
  uint64_t Unreadable = 0;
  {
    py::gil_scoped_release Release;
    std::vector<RunFacts> Sides[2];
    const std::vector<std::vector<std::string>> *Runs[2] = {&Base, &Changed};
    for (int I = 0; I < 2; ++I)
      for (const std::vector<std::string> &Run : *Runs[I]) {
        std::unique_ptr<Aggregate> A = analyzeRun(Run, jobsOf(Jobs), AO);
        Unreadable += A->FilesUnreadable + (A->FileNames.empty() ? 1 : 0);
        Report R(*A);
        std::string Name;
        for (const std::string &P : Run)
          Name += (Name.empty() ? "" : " ") + P;
        Sides[I].push_back(runFacts(Name, R,
                                    Diagnosing ? diagnose(R, Rules)
                                               : std::vector<Finding>()));
      }
    Comparison C = compareRuns(Sides[0], Sides[1], Rules.CompareTolerance);
    Json = dftanalyze::jsonText({{"schema", JsonSchema},
                                 {"tool", "dftracer-analyze"},
                                 {"compare", comparisonJson(C, Force)}},
                                2) +
           "\n";
    std::ostringstream Page;
    printComparisonHtml(Page, C, Force);
    Html = Page.str();
    Comparable = C.Comparable;
  }
  return py::make_tuple(py::bytes(Json), py::bytes(Html), Comparable,
                        Unreadable);
}

} // namespace

PYBIND11_MODULE(_core, M) {
  M.doc() = "annotate_traces' C++ side: the analysis' reader and report "
            "(docs/python.md)";
  M.def("read_events", &readEventsPy, py::arg("files"), py::arg("ranks"),
        py::arg("layers"), py::arg("names"), py::arg("t0_us"),
        py::arg("t1_us"), py::arg("file_globs"), py::arg("jobs"),
        py::arg("time_unit"));
  M.def("layer_names", &layerNames);
  M.def("op_names", &opNames);
  M.def("expand", [](const std::vector<std::string> &Args) {
    std::vector<std::string> Errors;
    std::vector<std::string> Files =
        dftrace::expandTraceArguments(Args, Errors);
    return py::make_tuple(Files, Errors);
  });
  py::class_<Analysis>(M, "Analysis")
      .def(py::init<const std::vector<std::string> &, unsigned, bool,
                    const std::string &, size_t, bool,
                    std::optional<std::string>>(),
           py::arg("paths"), py::arg("jobs"), py::arg("diagnose"),
           py::arg("rules"), py::arg("top"), py::arg("all_files"),
           py::arg("time_unit"))
      .def("json_text",
           [](const Analysis &A) { return py::bytes(A.jsonText()); })
      .def("html_text",
           [](const Analysis &A) { return py::bytes(A.htmlText()); })
      .def("unreadable", &Analysis::unreadable)
      .def("files", &Analysis::files);
  M.def("compare", &comparePy, py::arg("base"), py::arg("changed"),
        py::arg("jobs"), py::arg("diagnose"), py::arg("rules"),
        py::arg("force"), py::arg("time_unit"));
}
