"""Writes the graphs of a doc marked `<!-- tested: TEST -->` to OUT/1.tg, ...

Usage: extract_graphs.py DOC TEST OUT
"""
import re
import sys

doc, test, out = sys.argv[1:4]
text = open(doc).read()
marker = re.escape("<!-- tested: %s -->" % test)
graphs = re.findall(marker + r"\n```\n(.*?)```", text, re.S)
for i, graph in enumerate(graphs, 1):
    with open("%s/%d.tg" % (out, i), "w") as f:
        f.write(graph)
print("%d graphs" % len(graphs))
