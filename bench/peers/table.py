#!/usr/bin/env python3
"""Gathers the result lines of bench/peers/run into one table.

    table.py RESULTS_FILE [--quick]

RESULTS_FILE holds the tab-separated lines the peers print (PeerTiming.h):
RESULT <workload> <peer> <threads> <seconds>, NOTE <text>, and
MISSING <peer> <why>. Prints the notes, then one Markdown table: per
workload and thread count, each peer's median, tcc / the best peer (which
one in parentheses) and tcc / hand C. A ratio above 1 means tcc is slower.
A cell says "not installed" when the peer's library is absent, "n/a" when
the peer has no such workload (numpy compiles nothing; a JAX array cannot
be written in place) and "failed" when it ran but gave no result (a NOTE
says why). Standard library only: it runs with any python3.
"""
import sys

PEERS = ["hand C", "Eigen", "numpy", "JAX", "PyTensor"]

# (workload, label, unit scale, unit, the peers that have no such workload)
WORKLOADS = [
    ("chain", "tanh(a*x+b)*c+x, 16M f32", 1e3, "ms", []),
    ("sum_squares", "sum(x*x), 16M f32", 1e3, "ms", []),
    ("softmax", "row softmax 4096^2", 1e3, "ms", []),
    ("sgemm", "sgemm 1024^3", 1e3, "ms", []),
    ("dense_relu", "relu(x@w+b) 512^3", 1e3, "ms", []),
    ("mlp", "MLP 1024: softmax(relu(x@w1+b1)@w2+b2)", 1e3, "ms", []),
    ("twice_fresh", "y=2*x 256 MiB, Out(y) fresh", 1e3, "ms", []),
    ("twice_borrow", "y=2*x 256 MiB, Out(y, borrow)", 1e3, "ms", ["JAX"]),
    ("call_fresh", "call, 1 element, Out(y)", 1e6, "us", []),
    ("call_borrow", "call, 1 element, Out(y, borrow)", 1e6, "us", ["JAX"]),
    ("compile", "cold compile, the MLP graph", 1e3, "ms",
     ["hand C", "Eigen", "numpy"]),
]


def read(path):
    times, missing, notes = {}, {}, []
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "RESULT" and len(fields) == 5:
                times[(fields[1], fields[2], int(fields[3]))] = float(fields[4])
            elif fields[0] == "MISSING" and len(fields) >= 2:
                missing[fields[1]] = fields[2] if len(fields) > 2 else ""
            elif fields[0] == "NOTE" and len(fields) >= 2:
                if fields[1] not in notes:
                    notes.append(fields[1])
    return times, missing, notes


def number(value):
    return "%.3g" % value if value < 100 else "%.0f" % value


def rows(times, missing):
    threads = sorted({t for (_, _, t) in times})
    header = ["workload", "unit", "threads", "tcc"] + PEERS + [
        "tcc/best peer", "tcc/hand C"]
    out = [header]
    for name, label, scale, unit, none in WORKLOADS:
        for t in threads:
            row = [label, unit, str(t)]
            tcc = times.get((name, "tcc", t))
            row.append(number(tcc * scale) if tcc is not None else "failed")
            best = None
            for peer in PEERS:
                value = times.get((name, peer, t))
                if peer in missing:
                    row.append("not installed")
                elif peer in none:
                    row.append("n/a")
                elif value is None:
                    row.append("failed")
                else:
                    row.append(number(value * scale))
                    if best is None or value < best[0]:
                        best = (value, peer)
            hand = times.get((name, "hand C", t))
            row.append("%.2f (%s)" % (tcc / best[0], best[1])
                       if tcc is not None and best else "-")
            row.append("%.2f" % (tcc / hand) if tcc is not None and hand
                       else "-")
            out.append(row)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: table.py RESULTS_FILE [--quick]")
    times, missing, notes = read(sys.argv[1])
    if not times:
        sys.exit("table.py: no results in %s" % sys.argv[1])
    for peer, why in missing.items():
        print("%s: not installed (%s)" % (peer, why))
    for text in notes:
        print(text)
    if "--quick" in sys.argv[2:]:
        print("--quick: every workload shrunk; the labels give the full sizes")
    print("times: medians; at 1 thread the process's CPU time (on a shared "
          "machine,\ntime spent waiting for a CPU is not the workload's), at 2 "
          "the wall clock")
    print()
    table = rows(times, missing)
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    for i, r in enumerate(table):
        cells = [c.ljust(w) if j == 0 else c.rjust(w)
                 for j, (c, w) in enumerate(zip(r, widths))]
        print("| " + " | ".join(cells) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 1) + (":" if j else "-")
                                 for j, w in enumerate(widths)) + "|")


if __name__ == "__main__":
    main()
