#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz harnesses from the repository's own
graphs: examples/*.tg, every chunk of lit-tests/frontend/*.tg and every chunk
of lit-tests/**/*.mlir (chunks are split at the `# -----` / `// -----`
markers, as --split-input-file does). Full-line comments are dropped: they
are lit and FileCheck directives, which only slow the fuzzer down.

usage: make-seeds.py REPO tg|mlir OUT
"""
import hashlib
import pathlib
import re
import sys


def chunks(text, marker):
    return re.split(r"^" + re.escape(marker) + r".*$", text, flags=re.M)


def strip(text, comment):
    lines = [l for l in text.splitlines() if not l.lstrip().startswith(comment)]
    return "\n".join(lines).strip() + "\n"


def write(out, text):
    name = hashlib.sha1(text.encode()).hexdigest()
    (out / name).write_text(text)


def main():
    repo, kind, out = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(
        sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    if kind == "tg":
        files = sorted(repo.glob("examples/*.tg")) + sorted(
            repo.glob("lit-tests/**/*.tg"))
        marker, comment = "# -----", "#"
    else:
        files = sorted(repo.glob("lit-tests/**/*.mlir"))
        marker, comment = "// -----", "//"
    for path in files:
        for chunk in chunks(path.read_text(), marker):
            if chunk.strip():
                write(out, strip(chunk, comment))


if __name__ == "__main__":
    main()
