//===- Commands.h - the commands of the tcc command line -------*- C++ -*-===//

#ifndef TCC_TOOLS_TCC_COMMANDS_H
#define TCC_TOOLS_TCC_COMMANDS_H

namespace tcc::cli {

/// Exit status: 0 success, 1 bad input (the file or data has an error),
/// 2 bad usage (the command line does).
enum ExitCode { kSuccess = 0, kBadInput = 1, kBadUsage = 2 };

/// Each command parses its own options: argv[0] is "tcc <command>".
int runCompile(int argc, char **argv);
int runRun(int argc, char **argv);
int runExplain(int argc, char **argv);
int runCache(int argc, char **argv);

} // namespace tcc::cli

#endif // TCC_TOOLS_TCC_COMMANDS_H
