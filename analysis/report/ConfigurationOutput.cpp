//===- ConfigurationOutput.cpp - The run's configuration, three ways ------===//
//
// \code
//   Configuration (CONFIG, VERSION, MPI_JOB and tuning records), 1 program
//   program /work/vpic_writer: 2 processes, 2 ranks, 1 node
//     argv: ./vpic_writer alternate
//     cwd: /scratch/run
//     versions: HDF5 1.10.8; MPI MPICH Version: 4.0.2; glibc 2.36
//     env: DFTRACER_TUNE=hdf5.alignment=4096,4096
//     tuning: hdf5.alignment=4096,4096 on /scratch/run/out.h5: applied
//       (DFTRACER_TUNE; before 1,1; in effect 4096,4096; ranks 0, 1)
// \endcode
//
//===----------------------------------------------------------------------===//

#include "ConfigurationOutput.h"

#include "HtmlEscape.h"
#include "analyze/Configuration.h"

namespace dftanalyze {

namespace {

std::string programName(const ProgramConfig &G) {
  if (G.HasConfig)
    return G.Exe.empty() ? "(exe unknown)" : G.Exe;
  return (G.Program.empty() ? std::string("(trace)") : G.Program) +
         " (no CONFIG record)";
}

std::string countText(uint64_t N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

std::string headText(const ProgramConfig &G) {
  std::string S = countText(G.Processes, "process", "processes");
  if (G.Ranks)
    S += ", " + countText(G.Ranks, "rank", "ranks");
  if (G.Nodes)
    S += ", " + countText(G.Nodes, "node", "nodes");
  return S;
}

std::string versionsText(const ProgramConfig &G) {
  std::string S;
  for (const auto &[Lib, V] : G.Versions)
    S += (S.empty() ? "" : "; ") + Lib + " " + V;
  return S;
}

/// "on /x.h5: applied (DFTRACER_TUNE; before 1,1; in effect 4096,4096;
/// ranks 0, 1)"
std::string tuningRowText(const TuningRow &Row) {
  const TuningStat &T = Row.T;
  std::string S = tuningText(T);
  if (!T.Path.empty())
    S += " on " + T.Path;
  S += ": " + T.Status;
  if (!T.Reason.empty())
    S += ", " + T.Reason;
  std::string D = T.Source.empty() ? "DFTRACER_TUNE" : T.Source;
  if (!T.Before.empty())
    D += "; before " + T.Before;
  if (!T.Effect.empty())
    D += "; in effect " + T.Effect;
  D += Row.Ranks.size() == 1
           ? "; " + processName(Row.Ranks[0])
           : "; " + std::to_string(Row.Ranks.size()) + " processes";
  return S + " (" + D + ")";
}

} // namespace

void printConfigurationText(std::ostream &Os, const Report &R) {
  std::vector<ProgramConfig> Programs = programConfigs(R);
  if (Programs.empty())
    return;
  Os << "Configuration (CONFIG, VERSION, MPI_JOB and tuning records), "
     << countText(Programs.size(), "program", "programs") << "\n";
  for (const ProgramConfig &G : Programs) {
    Os << "program " << programName(G) << ": " << headText(G) << "\n";
    if (G.HasConfig) {
      Os << "  argv: " << shellWords(G.Argv);
      if (G.ArgvDropped)
        Os << " ... (" << G.ArgvDropped << " more not recorded)";
      Os << "\n  cwd: " << G.Cwd << "\n";
    }
    if (!G.Versions.empty())
      Os << "  versions: " << versionsText(G) << "\n";
    for (const auto &[Name, V] : G.Env)
      Os << "  env: " << Name << "=" << V << "\n";
    for (const auto &[Name, Values] : G.EnvVaries) {
      Os << "  env: " << Name << " differs:";
      for (const std::string &V : Values)
        Os << " " << (V.empty() ? "(unset)" : "'" + V + "'");
      Os << "\n";
    }
    if (G.EnvDropped)
      Os << "  env: " << G.EnvDropped << " more variables not recorded\n";
    for (const TuningRow &Row : G.Tuning)
      Os << "  tuning: " << tuningRowText(Row) << "\n";
  }
  Os << "\n";
}

nlohmann::ordered_json configurationJson(const Report &R) {
  using Json = nlohmann::ordered_json;
  Json List = Json::array();
  for (const ProgramConfig &G : programConfigs(R)) {
    Json P;
    if (G.HasConfig) {
      P["exe"] = G.Exe;
      P["argv"] = G.Argv;
      P["argv_dropped"] = G.ArgvDropped;
      P["cwd"] = G.Cwd;
    } else {
      P["exe"] = nullptr;
      P["program"] = G.Program; // the trace file name's prefix
    }
    Json Env = Json::object();
    for (const auto &[Name, V] : G.Env)
      Env[Name] = V;
    P["env"] = std::move(Env);
    if (!G.EnvVaries.empty())
      P["env_varies"] = G.EnvVaries;
    P["env_dropped"] = G.EnvDropped;
    P["versions"] = G.Versions;
    P["processes"] = G.Processes;
    P["ranks"] = G.Ranks ? Json(G.Ranks) : Json(nullptr);
    P["nodes"] = G.Nodes ? Json(G.Nodes) : Json(nullptr);
    Json Tuning = Json::array();
    for (const TuningRow &Row : G.Tuning) {
      const TuningStat &T = Row.T;
      Tuning.push_back({{"file", T.Path.empty() ? Json(nullptr) : Json(T.Path)},
                        {"setting", T.Setting},
                        {"key", T.Key},
                        {"requested", T.Requested},
                        {"op", T.Op},
                        {"source", T.Source},
                        {"before", T.Before},
                        {"effect", T.Effect},
                        {"status", T.Status},
                        {"reason", T.Reason},
                        {"processes", Row.Ranks.size()},
                        {"ranks", Row.Ranks}});
    }
    P["tuning"] = std::move(Tuning);
    List.push_back(std::move(P));
  }
  return List;
}

void printConfigurationHtml(std::ostream &Os, const Report &R) {
  std::vector<ProgramConfig> Programs = programConfigs(R);
  if (Programs.empty())
    return;
  Os << "<h2>Configuration</h2>\n<p class=\"note\">Per program (its exe and "
        "argv): the records CONFIG, VERSION, MPI_JOB and tuning.</p>\n"
        "<div class=\"wide\"><table id=\"configuration\">\n";
  for (const ProgramConfig &G : Programs) {
    Os << "<tr><th colspan=\"2\">" << htmlEscape(programName(G)) << ": "
       << htmlEscape(headText(G)) << "</th></tr>\n";
    auto Row = [&](const std::string &Name, const std::string &Value) {
      Os << "<tr><td>" << htmlEscape(Name) << "</td><td>" << htmlEscape(Value)
         << "</td></tr>\n";
    };
    if (G.HasConfig) {
      Row("argv",
          shellWords(G.Argv) + (G.ArgvDropped
                                    ? " ... (" + std::to_string(G.ArgvDropped) +
                                          " more not recorded)"
                                    : ""));
      Row("cwd", G.Cwd);
    }
    if (!G.Versions.empty())
      Row("versions", versionsText(G));
    for (const auto &[Name, V] : G.Env)
      Row("env", Name + "=" + V);
    for (const auto &[Name, Values] : G.EnvVaries) {
      std::string S = Name + " differs:";
      for (const std::string &V : Values)
        S += " " + (V.empty() ? std::string("(unset)") : "'" + V + "'");
      Row("env", S);
    }
    for (const TuningRow &T : G.Tuning)
      Row("tuning", tuningRowText(T));
  }
  Os << "</table></div>\n";
}

} // namespace dftanalyze
