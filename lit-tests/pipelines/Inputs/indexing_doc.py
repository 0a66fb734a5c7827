"""Runs the indexing example of docs/graph-format.md with tcc and compares
every output with numpy evaluating the same expression (the example's
indices are numpy's syntax), for several sizes of the dynamic dimension;
sizes that the example's static lengths do not fit must be refused with no
output written.

Usage: indexing_doc.py TCC GRAPH_FORMAT_MD OUT_DIR
"""
import os
import re
import subprocess
import sys

import numpy as np

tcc, doc, out = sys.argv[1:4]
with open(doc) as f:
    text = f.read()
m = re.search(r"<!-- test: indexing -->\n```\n(.*?)```\n", text, re.S)
if not m:
    sys.exit("no indexing example in " + doc)
program = m.group(1)
statements = re.findall(r"^\s+(\w+) = (x\[.*\])$", program, re.M)
os.makedirs(out, exist_ok=True)
path = os.path.join(out, "parts.tg")
with open(path, "w") as f:
    f.write(program)

for n in (2, 3, 4, 7):
    x = (np.arange(n * 5, dtype=np.float32).reshape(n, 5) * 1.5 - 3)
    inputs = os.path.join(out, "x%d.npy" % n)
    np.save(inputs, x)
    outputs = os.path.join(out, "out%d" % n)
    run = subprocess.run([tcc, "run", path, "--no-cache", "--function=parts",
                          "--input=x=" + inputs, "--output-dir=" + outputs],
                         capture_output=True, text=True)
    if run.returncode != 0:
        written = os.listdir(outputs) if os.path.isdir(outputs) else []
        print("N = %d: refused (%d outputs written): %s" %
              (n, len(written), run.stderr.strip()))
        continue
    for name, expr in statements:
        want = eval(expr, {"x": x})
        got = np.load(os.path.join(outputs, name + ".npy"))
        if got.shape != want.shape or not np.array_equal(got, want):
            sys.exit("N = %d: %s = %s is %s %s, numpy gives %s %s" %
                     (n, name, expr, got.shape, got, want.shape, want))
    print("N = %d: %d outputs match numpy" % (n, len(statements)))
