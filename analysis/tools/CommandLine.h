//===- CommandLine.h - The analysis tools' options, through CLI11 --------===//
//
// dftracer-analyze, dftracer-check and dftracer-convert define their options
// with CLI11 (Debian's libcli11-dev): CLI11 matches them, takes their
// values and writes --help from the same definitions.
//
// Their command lines are older than CLI11 and stay as they were, so
// CommandLine holds CLI11 to the old spellings (issue 34):
//   - a flag only as written (`--json`, not `--json=false`);
//   - a value as the next argument, whatever it looks like (`--html -x`),
//     as `--opt=VALUE` where the tool took that (`--opt=` is an empty
//     value), and attached to a short option only where the tool took that
//     (dftracer-analyze's -jN);
//   - an argument that starts with '-' and is not an option is an unknown
//     option, not a TRACE (`-5`, `--bogus`), unless it follows `--`
//     (where the tool took that; dftracer-convert calls `--` unknown);
//   - the first error in the order of the arguments is the one reported,
//     in the tool's words, then the usage, exit status 2; --help (and -h)
//     prints the help on stdout, exit status 0.
// A value is taken when its option is parsed (CLI11's trigger_on_parse):
// each option's handler sees the arguments before it already checked.
//
//===----------------------------------------------------------------------===//

#ifndef DFTRACER_ANALYSIS_TOOLS_COMMANDLINE_H
#define DFTRACER_ANALYSIS_TOOLS_COMMANDLINE_H

#include <CLI/CLI.hpp>

#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace dfttools {

/// A usage error: "<tool>: <message>", the usage, exit status 2.
class UsageError : public CLI::ParseError {
public:
  explicit UsageError(std::string Message)
      : CLI::ParseError("UsageError", std::move(Message), 2) {}
};

/// The help as the tools wrote it: the usage lines, the description, the
/// arguments and options (CLI11's columns), the footer.
class HelpFormatter : public CLI::Formatter {
public:
  explicit HelpFormatter(std::string Usage) : Usage(std::move(Usage)) {}
  std::string make_usage(const CLI::App *, std::string) const override {
    return Usage;
  }
  std::string make_help(const CLI::App *App, std::string Name,
                        CLI::AppFormatMode Mode) const override {
    std::ostringstream Out;
    Out << make_usage(App, Name) << "\n"
        << make_description(App) << make_positionals(App)
        << make_groups(App, Mode) << "\n"
        << make_footer(App);
    return Out.str();
  }

private:
  std::string Usage;
};

/// How the tool spelled its command line before CLI11.
struct CommandLineGrammar {
  /// Whether `--` ends the options (else it is an unknown option).
  bool DashDashEndsOptions = true;
  /// The message for an argument that is not an option of the tool.
  std::function<std::string(const std::string &Arg)> Unknown;
  /// What a usage error prints after the message: the whole help, or
  /// only the usage lines.
  bool FullHelpOnError = true;
};

/// How an option that takes a value takes it.
struct CommandLineValue {
  /// `--opt=VALUE` as well as `--opt VALUE`.
  bool Equals = true;
  /// `-xVALUE` (the short name with the value attached), when this
  /// accepts VALUE; an attached VALUE it refuses makes the whole argument
  /// an unknown option.
  std::function<bool(const std::string &)> Attached;
  /// The message when the option is the last argument; empty: the
  /// argument is an unknown option.
  std::string Missing;
};

class CommandLine {
public:
  using Grammar = CommandLineGrammar;
  using ValueForm = CommandLineValue;

  /// Usage: the "usage: ..." lines (each ending in '\n'), printed first by
  /// --help and after each usage error.
  CommandLine(const std::string &ToolName, const std::string &UsageLines,
              const std::string &Description, const std::string &Footer,
              Grammar How)
      : App(Description, ToolName), Tool(ToolName), Usage(UsageLines),
        G(std::move(How)) {
    App.set_help_flag();
    App.allow_extras(); // unknown options are reported here, in order
    App.option_defaults()->group("options");
    auto F = std::make_shared<HelpFormatter>(UsageLines);
    F->column_width(26);
    F->label("Positionals", "arguments");
    App.formatter(F);
    App.footer(Footer);
    App.failure_message([this](const CLI::App *A, const CLI::Error &E) {
      return this->Tool + ": " + E.what() + "\n" +
             (this->G.FullHelpOnError ? A->help() : this->Usage);
    });
  }
  CommandLine(const CommandLine &) = delete;
  CommandLine &operator=(const CommandLine &) = delete;

  /// A flag (Names: "--json", "-h,--help"): Set runs each time it is given.
  CLI::Option *flag(const std::string &Names, const std::string &Help,
                    std::function<void()> Set) {
    std::vector<std::string> Spellings = split(Names);
    CLI::Option *O = App.add_option(
        Names,
        [this, Spellings, Set](const CLI::results_t &) {
          size_t At = lastTaken();
          scanTo(At);
          if (!isOneOf(Tokens[At], Spellings)) // --json=x, -hx
            throw UsageError(G.Unknown(Tokens[At]));
          Scanned = At + 1;
          Set();
          return true;
        },
        Help);
    O->expected(0)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    O->trigger_on_parse();
    return O;
  }
  CLI::Option *flag(const std::string &Names, const std::string &Help,
                    bool &Target) {
    return flag(Names, Help, [&Target] { Target = true; });
  }

  /// -h, --help: this help on stdout, exit status 0.
  CLI::Option *helpFlag(const std::string &Names, const std::string &Help) {
    return flag(Names, Help, [] { throw CLI::CallForHelp(); });
  }

  /// An option with a value (Names: "-j,--jobs", Metavar: "N"): Set runs
  /// with each value given, and may throw UsageError.
  CLI::Option *value(const std::string &Names, const std::string &Metavar,
                     const std::string &Help,
                     std::function<void(const std::string &)> Set,
                     ValueForm Form = {}) {
    Values.push_back({split(Names), Form, Set});
    size_t Index = Values.size() - 1;
    CLI::Option *O = App.add_option(
        Names,
        [this, Index](const CLI::results_t &R) {
          take(Values[Index], R.empty() ? std::string() : R.front());
          return true;
        },
        Help);
    O->type_name(Metavar)->expected(1);
    O->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    O->trigger_on_parse();
    return O;
  }

  /// The positional arguments (Name: "TRACE"), in their order.
  CLI::Option *positionals(const std::string &Name, const std::string &Help,
                           std::vector<std::string> &Target) {
    PositionalTarget = &Target;
    Positional = App.add_option(Name, PositionalScratch, Help);
    Positional->type_name("");
    return Positional;
  }

  /// Parses Argv. Returns -1 to go on, else the exit status: 0 after
  /// --help, 2 after a usage error (both printed).
  int parse(int Argc, char **Argv) {
    Tokens.assign(Argv + 1, Argv + Argc);
    Args.assign(Tokens.rbegin(), Tokens.rend()); // CLI11 takes from the end
    Scanned = 0;
    PositionalOnly = false;
    try {
      try {
        App.parse(Args);
      } catch (const CLI::ArgumentMismatch &) {
        if (!lastWithoutValue())
          throw;
      }
      scanTo(Tokens.size());
    } catch (const CLI::CallForHelp &E) {
      return App.exit(E);
    } catch (const UsageError &E) {
      return App.exit(E);
    } catch (const CLI::ParseError &E) { // not expected: still a usage error
      return App.exit(UsageError(E.what()));
    }
    if (PositionalTarget)
      *PositionalTarget = Positional->results();
    return -1;
  }

  /// Prints "<tool>: Message" and the usage on stderr; returns 2.
  int usageError(const std::string &Message) const {
    return App.exit(UsageError(Message));
  }

private:
  struct ValueOption {
    std::vector<std::string> Spellings;
    ValueForm Form;
    std::function<void(const std::string &)> Set;
  };

  static std::vector<std::string> split(const std::string &Names) {
    std::vector<std::string> Out;
    std::stringstream In(Names);
    for (std::string Name; std::getline(In, Name, ',');)
      Out.push_back(Name);
    return Out;
  }
  static bool isOneOf(const std::string &S,
                      const std::vector<std::string> &Set) {
    for (const std::string &E : Set)
      if (S == E)
        return true;
    return false;
  }
  static bool startsWith(const std::string &S, const std::string &Prefix) {
    return S.compare(0, Prefix.size(), Prefix) == 0;
  }
  static const std::string *longName(const ValueOption &V) {
    for (const std::string &S : V.Spellings)
      if (startsWith(S, "--"))
        return &S;
    return nullptr;
  }

  /// The index in Tokens of the last argument CLI11 has taken.
  size_t lastTaken() const { return Tokens.size() - Args.size() - 1; }

  /// The arguments before End that no option took (CLI11 made them
  /// positionals or extras) are TRACEs, `--`, or unknown options.
  void scanTo(size_t End) {
    for (; Scanned < End; ++Scanned) {
      const std::string &A = Tokens[Scanned];
      if (PositionalOnly)
        continue;
      if (A == "--" && G.DashDashEndsOptions)
        PositionalOnly = true;
      else if (A.size() > 1 && A[0] == '-')
        throw UsageError(G.Unknown(A));
    }
  }

  /// A value for V, as CLI11 took it: checks how it was spelled.
  void take(const ValueOption &V, const std::string &Value) {
    size_t At = lastTaken();
    const std::string *Long = longName(V);
    if (Tokens[At] == Value && At > 0 && At - 1 >= Scanned) {
      const std::string &Opt = Tokens[At - 1];
      if (isOneOf(Opt, V.Spellings)) { // --opt VALUE
        scanTo(At - 1);
        Scanned = At + 1;
        V.Set(Value);
        return;
      }
      if (Long && Opt == *Long + "=") { // --opt= (CLI11 took the next one)
        scanTo(At - 1);
        if (!V.Form.Equals)
          throw UsageError(G.Unknown(Opt));
        Scanned = At;
        Args.push_back(Tokens[At]); // not the value: parsed next
        V.Set("");
        return;
      }
    }
    scanTo(At); // --opt=VALUE or -xVALUE
    const std::string &Arg = Tokens[At];
    bool Ok = startsWith(Arg, "--") ? V.Form.Equals
                                    : V.Form.Attached && V.Form.Attached(Value);
    if (!Ok)
      throw UsageError(G.Unknown(Arg));
    Scanned = At + 1;
    V.Set(Value);
  }

  /// CLI11 found an option without its value: it was the last argument.
  /// Throws the tool's usage error; false when it is not that case.
  bool lastWithoutValue() {
    if (Tokens.empty())
      return false;
    size_t At = Tokens.size() - 1;
    const std::string &Arg = Tokens[At];
    for (const ValueOption &V : Values) {
      const std::string *Long = longName(V);
      if (Long && Arg == *Long + "=") { // --opt= at the end: empty value
        scanTo(At);
        if (!V.Form.Equals)
          throw UsageError(G.Unknown(Arg));
        Scanned = At + 1;
        V.Set("");
        return true;
      }
      if (isOneOf(Arg, V.Spellings)) {
        scanTo(At);
        throw UsageError(V.Form.Missing.empty() ? G.Unknown(Arg)
                                                : V.Form.Missing);
      }
    }
    return false;
  }

  CLI::App App;
  std::string Tool, Usage;
  Grammar G;
  std::vector<ValueOption> Values;
  CLI::Option *Positional = nullptr;
  std::vector<std::string> PositionalScratch;
  std::vector<std::string> *PositionalTarget = nullptr;
  std::vector<std::string> Tokens; // the arguments, in order
  std::vector<std::string> Args;   // what CLI11 has still to parse, reversed
  size_t Scanned = 0;              // Tokens before this are checked
  bool PositionalOnly = false;     // after `--`
};

} // namespace dfttools

#endif
