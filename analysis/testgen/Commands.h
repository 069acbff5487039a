//===- Commands.h - The subcommands of dftracer_trace_gen -------*- C++ -*-===//
//
// Each takes main's arguments (Argv[1] is the subcommand) and returns the
// exit status.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TRACEGEN_COMMANDS_H
#define DFTRACER_TRACEGEN_COMMANDS_H

namespace tracegen {

/// generate --dir D ...: a trace set, and with --expected its totals.
int generate(int Argc, char **Argv);
/// access --dir D --pattern P ...: ranks sharing a file in a known access
/// pattern, and with --expected its access figures (Access.cpp).
int access(int Argc, char **Argv);
/// compare EXPECTED ACTUAL [--partial]: every expected value matches.
int compare(int Argc, char **Argv);
/// check-chrome TRACE.json[.gz]: valid Trace Event Format.
int checkChrome(int Argc, char **Argv);
/// check-png SCREENSHOT.png: a picture, not a blank page.
int checkPng(int Argc, char **Argv);

} // namespace tracegen

#endif
