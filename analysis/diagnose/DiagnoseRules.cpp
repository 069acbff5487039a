//===- DiagnoseRules.cpp - Reading diagnosis_rules.json -------------------===//

#include "Diagnose.h"
#include "DiagnoseInternal.h"

#include "DataFile.h"
#include "JsonFile.h"

namespace dftanalyze {

namespace {

// Besides these, "hint:NAME" (an MPI-IO hint's recorded value).
// "metadata" is hdf5_unaligned's flag (docs/diagnosis.md).
const char *const WhenKeys[] = {"fs_type", "fs_type_not", "layer", "mpiio",
                                "hdf5",    "metadata"};

bool known(const char *const *Begin, const char *const *End,
           const std::string &S) {
  for (const char *const *I = Begin; I != End; ++I)
    if (S == *I)
      return true;
  return false;
}

} // namespace

bool loadDiagnosisRules(const std::string &Path, DiagnosisRules &Out,
                        std::string &Error) {
  using Json = nlohmann::json;
  Json J;
  if (!loadJsonObject(Path, "the diagnosis rules", J, Error))
    return false;
  Out = DiagnosisRules();
  Out.Path = Path;
  if (J.contains("small_bytes")) {
    if (!J["small_bytes"].is_number_unsigned() || J["small_bytes"] == 0) {
      Error = Path + ": \"small_bytes\" must be a positive integer";
      return false;
    }
    Out.SmallBytes = J["small_bytes"].get<uint64_t>();
  }
  if (J.contains("compare_tolerance")) {
    if (!J["compare_tolerance"].is_number() ||
        J["compare_tolerance"].get<double>() < 0) {
      Error = Path + ": \"compare_tolerance\" must be a number >= 0";
      return false;
    }
    Out.CompareTolerance = J["compare_tolerance"].get<double>();
  }
  if (J.contains("tune_keys")) {
    const Json &K = J["tune_keys"];
    if (!K.is_object()) {
      Error = Path + ": \"tune_keys\" must be an object by DFTRACER_TUNE key";
      return false;
    }
    for (const auto &[Key, V] : K.items()) {
      if (Key.rfind("_", 0) == 0)
        continue; // comments
      std::string At = Path + ": tune_keys \"" + Key + "\"";
      TuneKey T;
      if (!V.is_object() || !V.contains("record") ||
          !V["record"].is_string()) {
        Error = At + ": needs a \"record\" string";
        return false;
      }
      T.Record = V["record"].get<std::string>();
      if (T.Record != "HDF5_FILE" && T.Record != "MPIIO_HINTS" &&
          T.Record != "H5D_XFER") {
        Error = At + ": \"record\" must be HDF5_FILE, MPIIO_HINTS or H5D_XFER";
        return false;
      }
      if (V.contains("properties")) {
        if (!V["properties"].is_array()) {
          Error = At + ": \"properties\" must list HDF5_FILE keys";
          return false;
        }
        for (const Json &P : V["properties"]) {
          if (!P.is_string()) {
            Error = At + ": \"properties\" must list HDF5_FILE keys";
            return false;
          }
          T.Properties.push_back(P.get<std::string>());
        }
      }
      if (T.Record == "HDF5_FILE" && T.Properties.empty()) {
        Error = At + ": an HDF5_FILE key needs its \"properties\"";
        return false;
      }
      Out.TuneKeys[Key] = std::move(T);
    }
  }
  if (!J.contains("rules") || !J["rules"].is_object()) {
    Error = Path + ": \"rules\" must be an object of rules by kind";
    return false;
  }
  for (const auto &[Kind, R] : J["rules"].items()) {
    std::string Where = Path + ": rule \"" + Kind + "\"";
    if (!isDiagnosisKind(Kind)) {
      Error = Where + ": unknown kind (docs/diagnosis.md lists them)";
      return false;
    }
    if (!R.is_object()) {
      Error = Where + ": must be an object";
      return false;
    }
    DiagnosisRule Rule;
    Rule.Kind = Kind;
    for (const auto &[Key, V] : R.items()) {
      if (Key == "definition" || Key == "source") {
        if (!V.is_string()) {
          Error = Where + ": \"" + Key + "\" must be a string";
          return false;
        }
        (Key == "definition" ? Rule.Definition : Rule.Source) =
            V.get<std::string>();
      } else if (Key == "advice") {
        if (!V.is_array()) {
          Error = Where + ": \"advice\" must be an array";
          return false;
        }
        for (size_t I = 0; I < V.size(); ++I) {
          const Json &A = V[I];
          std::string At = Where + ": advice " + std::to_string(I);
          if (!A.is_object() || !A.contains("text") || !A["text"].is_string()) {
            Error = At + ": needs a \"text\" string";
            return false;
          }
          Advice Adv;
          Adv.Text = A["text"].get<std::string>();
          if (A.contains("try")) {
            if (!A["try"].is_array()) {
              Error = At + ": \"try\" must be an array of KEY=VALUE strings";
              return false;
            }
            for (const Json &T : A["try"]) {
              if (!T.is_string() ||
                  T.get<std::string>().find('=') == std::string::npos) {
                Error = At + ": \"try\" must list KEY=VALUE strings "
                             "(DFTRACER_TUNE settings, docs/runtime.md)";
                return false;
              }
              Adv.Try.push_back(T.get<std::string>());
            }
          }
          if (A.contains("when")) {
            if (!A["when"].is_object()) {
              Error = At + ": \"when\" must be an object";
              return false;
            }
            for (const auto &[Cond, List] : A["when"].items()) {
              if (!known(std::begin(WhenKeys), std::end(WhenKeys), Cond) &&
                  !(Cond.rfind("hint:", 0) == 0 && Cond.size() > 5)) {
                Error = At + ": unknown condition \"" + Cond +
                        "\" (fs_type, fs_type_not, layer, mpiio, hdf5, "
                        "metadata, hint:NAME)";
                return false;
              }
              std::vector<std::string> Values;
              if (List.is_boolean()) {
                Values.push_back(List.get<bool>() ? "true" : "false");
              } else if (List.is_array()) {
                for (const Json &S : List) {
                  if (!S.is_string()) {
                    Error = At + ": \"" + Cond + "\" must list strings";
                    return false;
                  }
                  Values.push_back(S.get<std::string>());
                }
              } else {
                Error = At + ": \"" + Cond + "\" must be a list or a boolean";
                return false;
              }
              Adv.When[Cond] = std::move(Values);
            }
          }
          Rule.Advices.push_back(std::move(Adv));
        }
      } else if (Key == "enabled") {
        if (!V.is_boolean()) {
          Error = Where + ": \"enabled\" must be true or false";
          return false;
        }
        if (!V.get<bool>())
          Rule.Params["disabled"] = 1;
      } else if (Key.rfind("_", 0) == 0) {
        continue; // comments
      } else if (!isDiagnosisParam(Kind, Key)) {
        // A typo ("min_shares") read as an absent threshold would be 0 and
        // make the rule fire on everything.
        Error = jsonKeyPosition(Path, {"rules", Kind, Key}) + ": rule \"" +
                Kind + "\": unknown threshold \"" + Key + "\" (" + Kind +
                " reads " + diagnosisParams(Kind) + ")";
        return false;
      } else {
        if (!V.is_number() || V.get<double>() < 0) {
          Error = Where + ": \"" + Key + "\" must be a number >= 0";
          return false;
        }
        Rule.Params[Key] = V.get<double>();
      }
    }
    if (!Rule.Params.count("disabled"))
      Out.Rules[Kind] = std::move(Rule);
  }
  return true;
}

std::string defaultDiagnosisRules() {
  return installedDataFile("dftracer-analyze-diagnosis.json");
}

} // namespace dftanalyze
