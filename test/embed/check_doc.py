#!/usr/bin/env python3
"""Checks that docs/embedding.md shows every file of examples/embed as it is.

Each file appears once, as the fenced block right after a line
`<!-- examples/embed: NAME -->`.

Usage: check_doc.py SOURCE_ROOT
"""
import os
import re
import sys

root = sys.argv[1]
examples = os.path.join(root, "examples", "embed")
with open(os.path.join(root, "docs", "embedding.md")) as f:
    doc = f.read()

shown = {}
for m in re.finditer(r"<!-- examples/embed: (\S+) -->\n```[a-z]*\n(.*?)```\n",
                     doc, re.S):
    if m.group(1) in shown:
        sys.exit("docs/embedding.md shows %s twice" % m.group(1))
    shown[m.group(1)] = m.group(2)

failed = False
for name in sorted(os.listdir(examples)):
    with open(os.path.join(examples, name)) as f:
        text = f.read()
    if name not in shown:
        print("docs/embedding.md does not show examples/embed/%s" % name)
        failed = True
    elif shown.pop(name) != text:
        print("docs/embedding.md shows examples/embed/%s differently" % name)
        failed = True
for name in shown:
    print("docs/embedding.md shows examples/embed/%s, which does not exist" %
          name)
    failed = True
sys.exit(1 if failed else 0)
