#!/usr/bin/env python3
"""Runs one command many times and counts the runs that crash at exit.

    stress.py --runs N [--threads 1,2,8] [--jobs 2] [--env NAME=VALUE ...]
              -- COMMAND [ARG ...]

Each run gets TCC_NUM_THREADS from --threads in turn. In COMMAND, "{tmp}"
becomes a folder of that run's own (for outputs, or a compile cache that
must miss). A run passes when it exits 0 within the timeout; a run killed
by a signal is a crash, one that outlives the timeout a hang. Exits 1 unless
every run passed, printing the first failures' stderr.
"""
import argparse
import concurrent.futures
import os
import shutil
import signal
import subprocess
import sys
import tempfile


def run_once(index, command, env, threads, timeout):
    tmp = tempfile.mkdtemp(prefix="tcc-exit-stress-")
    try:
        argv = [a.replace("{tmp}", tmp) for a in command]
        run_env = dict(env, TCC_NUM_THREADS=str(threads))
        try:
            proc = subprocess.run(argv, env=run_env, capture_output=True,
                                  text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return index, threads, "hung", ""
        if proc.returncode == 0:
            return index, threads, "passed", ""
        if proc.returncode < 0:
            name = signal.Signals(-proc.returncode).name
            return index, threads, "crashed (%s)" % name, proc.stderr
        if proc.returncode >= 128:  # a shell reporting a signal
            return index, threads, "crashed (status %d)" % proc.returncode, \
                proc.stderr
        return index, threads, "failed (status %d)" % proc.returncode, \
            proc.stderr
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--threads", default="1,2,8")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")
    env = dict(os.environ)
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value
    threads = [int(t) for t in args.threads.split(",")]

    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_once, i, command, env,
                               threads[i % len(threads)], args.timeout)
                   for i in range(args.runs)]
        for future in concurrent.futures.as_completed(futures):
            results.append(future.result())

    bad = sorted(r for r in results if r[2] != "passed")
    for index, t, outcome, stderr in bad[:5]:
        print("run %d (TCC_NUM_THREADS=%d): %s" % (index, t, outcome))
        if stderr:
            print("  " + stderr.strip().replace("\n", "\n  ")[:2000])
    crashed = sum(1 for r in bad if r[2].startswith("crashed"))
    hung = sum(1 for r in bad if r[2] == "hung")
    print("exit stress: %d processes of %s at %s threads: %d crashed, "
          "%d hung, %d failed otherwise" %
          (len(results), os.path.basename(command[0]), args.threads, crashed,
           hung, len(bad) - crashed - hung))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
