//===- main.cpp - tcc-difftest: differential testing of random graphs -----===//
//
//   tcc-difftest generate --seed S            print program S
//   tcc-difftest check [--mismatched-sizes | --long-chains] FILE.tg...
//                                             run programs (regressions)
//   tcc-difftest campaign [--seed S] [--count N] [--jobs J] [--out DIR]
//                         [--timeout SEC] [--shrink-budget K] [--no-shrink]
//                         [--max-seconds T] [--mismatched-sizes]
//                         [--long-chains] [--loop-ids]
//
// A campaign runs programs S, S+1, ..., S+N-1, each in a forked child (a
// crash or a hang is a finding, not the end of the campaign), shrinks every
// failure and writes it as DIR/seed-S.tg (or prints it without --out).
// --long-chains draws the memory campaign's programs (ChainGenerator.h)
// and checks each call's memory against the arena plan.
// --loop-ids starts every function with a loop whose body gathers at ids
// that change from step to step (with --mismatched-sizes, ids that may be
// out of range too).
// See docs/testing.md, "Differential testing".
//
//===----------------------------------------------------------------------===//

#include "test/difftest/ChainGenerator.h"
#include "test/difftest/Generator.h"
#include "test/difftest/Runner.h"
#include "test/difftest/Shrinker.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

using namespace tcc::difftest;

namespace {

int usage() {
  std::cerr << "usage: tcc-difftest generate --seed S\n"
               "       tcc-difftest check [--mismatched-sizes | --long-chains] "
               "FILE.tg...\n"
               "       tcc-difftest campaign [--seed S] [--count N] [--jobs J] "
               "[--out DIR] [--timeout SEC] [--shrink-budget K] "
               "[--no-shrink] [--max-seconds T] [--mismatched-sizes] "
               "[--long-chains] [--loop-ids]\n";
  return 2;
}

bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path);
  if (!in)
    return false;
  std::stringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

/// The message on one line (its first two lines: "compileForHost failed:"
/// says little without the diagnostic that follows).
std::string firstLine(const std::string &s) {
  size_t first = s.find('\n');
  std::string line =
      s.substr(0, s.find('\n', first == std::string::npos ? first : first + 1));
  for (char &c : line)
    if (c == '\n')
      c = ' ';
  return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

int check(const std::vector<std::string> &files) {
  int failed = 0;
  for (const std::string &path : files) {
    std::string text, error;
    if (!readFile(path, text)) {
      std::cerr << path << ": cannot read\n";
      ++failed;
      continue;
    }
    std::optional<ProgramText> program = ProgramText::parse(text, error);
    if (!program) {
      std::cerr << path << ": " << error << "\n";
      ++failed;
      continue;
    }
    Verdict v = runProgram(*program);
    if (v.ok()) {
      std::cout << "PASS " << path << "\n";
    } else {
      std::cout << "FAIL " << path << ": " << v.kind << ": " << v.message
                << "\n";
      ++failed;
    }
  }
  return failed ? 1 : 0;
}

struct CampaignOptions {
  uint64_t seed = 1;
  uint64_t count = 100;
  unsigned jobs = 1;
  unsigned timeout = 60;
  int shrinkBudget = 400;
  bool shrink = true;
  std::string out;
  /// Start no new program after this many seconds (0: no limit).
  double maxSeconds = 0;
  /// Calls with sizes that disagree (see setMismatchedSizes).
  bool mismatchedSizes = false;
  /// The memory campaign's programs and checks (see setLongChains).
  bool longChains = false;
  /// Programs that gather inside loop bodies (generateProgram).
  bool loopIds = false;
};

/// Adds a passing verdict's "calls C refused R" to the totals.
void countCalls(const Verdict &v, uint64_t &calls, uint64_t &refused) {
  unsigned long long c = 0, r = 0;
  if (std::sscanf(v.message.c_str(), "calls %llu refused %llu", &c, &r) == 2) {
    calls += c;
    refused += r;
  }
}

/// Compiles and runs one small program in this process, so that the
/// children forked afterwards inherit the loaded libraries (the JIT's
/// kernels, BLAS) and LLVM's initialized targets instead of each paying
/// for them.
void warmUp() {
  std::string error;
  std::optional<ProgramText> p = ProgramText::parse(R"(tg 1
func f(
    x : f32[N, 3] borrow
  ) -> (
    y : f32[N, 3]
  ) {
  y = matmul(x, transpose(x)) ** 2 + exp(x) * x
}
)",
                                                    error);
  if (p)
    (void)runProgram(*p);
}

/// The program a campaign runs for `seed`.
ProgramText programFor(const CampaignOptions &o, uint64_t seed) {
  return o.longChains
             ? generateChainProgram(seed)
             : generateProgram(seed, o.loopIds, o.loopIds && o.mismatchedSizes);
}

int campaign(const CampaignOptions &o) {
  auto start = std::chrono::steady_clock::now();
  if (std::getenv("TCC_DIFFTEST_COLD") == nullptr)
    warmUp();
  std::map<int, std::pair<ChildRun, uint64_t>> running;
  std::map<std::string, uint64_t> byKind;
  std::vector<std::pair<uint64_t, Verdict>> failures;
  uint64_t next = 0, done = 0, last = o.count, calls = 0, refused = 0;
  while (next < last || !running.empty()) {
    if (o.maxSeconds > 0 && last == o.count && next < o.count &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                .count() > o.maxSeconds) {
      std::cerr << "time limit: stopping after " << next << " programs\n";
      last = next;
    }
    while (running.size() < o.jobs && next < last) {
      uint64_t seed = o.seed + next++;
      ChildRun run = startIsolated(programFor(o, seed), o.timeout);
      if (run.pid < 0) {
        std::perror("fork");
        return 2;
      }
      running[run.pid] = {run, seed};
    }
    int status = 0;
    int pid = waitpid(-1, &status, 0);
    if (pid < 0)
      continue;
    auto it = running.find(pid);
    if (it == running.end())
      continue;
    Verdict v = finishIsolated(it->second.first, status);
    uint64_t seed = it->second.second;
    running.erase(it);
    ++done;
    byKind[v.ok() ? "pass" : v.kind]++;
    if (v.ok())
      countCalls(v, calls, refused);
    if (!v.ok()) {
      std::cerr << "seed " << seed << ": " << v.kind << ": "
                << firstLine(v.message) << "\n";
      failures.push_back({seed, v});
    }
    if (done % 500 == 0)
      std::cerr << done << " programs, " << failures.size() << " failing\n";
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  for (const auto &[seed, verdict] : failures) {
    ProgramText program = programFor(o, seed);
    Verdict final = verdict;
    if (o.shrink) {
      std::tie(program, final) = shrinkProgram(
          program, verdict,
          [&](const ProgramText &p) { return runIsolated(p, o.timeout); },
          o.shrinkBudget);
    }
    program.notes = {"failure: " + final.kind + ": " + firstLine(final.message),
                     "found by: tcc-difftest campaign --seed " +
                         std::to_string(seed) + " --count 1" +
                         (o.mismatchedSizes ? " --mismatched-sizes" : "") +
                         (o.longChains ? " --long-chains" : "") +
                         (o.loopIds ? " --loop-ids" : "") +
                         (o.shrink ? " (then shrunk)" : "")};
    std::string text = program.print();
    if (o.out.empty()) {
      std::cout << "---- seed " << seed << " (" << final.kind << ")\n"
                << final.message << "\n"
                << text;
    } else {
      std::string path = o.out + "/seed-" + std::to_string(seed) + ".tg";
      std::ofstream(path) << text;
      std::cerr << "wrote " << path << "\n";
    }
  }
  std::cout << "difftest: " << done << " programs (seeds " << o.seed << ".."
            << o.seed + done - 1 << ") in " << seconds << " s, "
            << (seconds > 0 ? double(done) / seconds : 0) << " programs/s:";
  for (const auto &[kind, n] : byKind)
    std::cout << " " << kind << " " << n;
  std::cout << "; passing programs made " << calls << " calls";
  if (o.mismatchedSizes)
    std::cout << ", " << refused << " refused with an error and "
              << calls - refused << " run and checked";
  std::cout << "\n";
  return failures.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "check") {
    if (!args.empty() && args[0] == "--mismatched-sizes") {
      setMismatchedSizes(true);
      args.erase(args.begin());
    } else if (!args.empty() && args[0] == "--long-chains") {
      setLongChains(true);
      args.erase(args.begin());
    }
    return args.empty() ? usage() : check(args);
  }
  CampaignOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> const char * {
      if (i + 1 >= args.size()) {
        std::cerr << args[i] << " needs a value\n";
        std::exit(2);
      }
      return args[++i].c_str();
    };
    if (args[i] == "--seed")
      o.seed = std::strtoull(value(), nullptr, 10);
    else if (args[i] == "--count")
      o.count = std::strtoull(value(), nullptr, 10);
    else if (args[i] == "--jobs")
      o.jobs = unsigned(std::max(1, std::atoi(value())));
    else if (args[i] == "--timeout")
      o.timeout = unsigned(std::max(1, std::atoi(value())));
    else if (args[i] == "--shrink-budget")
      o.shrinkBudget = std::atoi(value());
    else if (args[i] == "--max-seconds")
      o.maxSeconds = std::strtod(value(), nullptr);
    else if (args[i] == "--no-shrink")
      o.shrink = false;
    else if (args[i] == "--mismatched-sizes")
      o.mismatchedSizes = true;
    else if (args[i] == "--long-chains")
      o.longChains = true;
    else if (args[i] == "--loop-ids")
      o.loopIds = true;
    else if (args[i] == "--out")
      o.out = value();
    else
      return usage();
  }
  if (command == "generate") {
    std::cout << programFor(o, o.seed).print();
    return 0;
  }
  if (command == "campaign") {
    setMismatchedSizes(o.mismatchedSizes);
    setLongChains(o.longChains);
    return campaign(o);
  }
  return usage();
}
