#!/usr/bin/env python3
"""Checks that docs/errors.md and the tests describe the same errors.

Every catalogue entry is a table row whose second cell holds the message
template in backticks (`{name}` marks a placeholder) and whose last cell
names the test files that trigger it. The tests' expectations are
  - `expected-error {{...}}` annotations (lit, --verify-diagnostics),
  - lit CHECK-style lines that contain `error: ` (the text after it),
  - `CHECK_ERROR(expr, Code, "message")` in the Catch2 tests of test/errors.
The check fails when
  1. an entry's template matches no complete expectation in the files its row
     names (the entry is untested, or its test moved or changed), or
  2. an expectation matches no template (an error the tests know and the
     catalogue does not), or
  3. two entries have the same id, or a row names a file that does not exist.
Templates and expectations are compared as glob patterns: a placeholder and
a FileCheck regex (`{{...}}`, `[[...]]`) each stand for any text.

Usage: check_catalogue.py SOURCE_ROOT
"""
import functools
import os
import re
import sys

STAR = "\0"  # one wildcard in a pattern


def glob_from_template(template):
    """`cannot open '{path}'` -> ["c", "a", ..., STAR, "'"]."""
    return re.sub(r"\{[A-Za-z0-9_ .-]+\}", STAR, template)


def glob_from_filecheck(text):
    """A FileCheck pattern: anchors dropped, regexes and variables -> STAR."""
    text = text.replace("{{^}}", "").replace("{{$}}", "")
    text = re.sub(r"\{\{.*?\}\}", STAR, text)
    text = re.sub(r"\[\[.*?\]\]", STAR, text)
    return text.rstrip()


def intersects(a, b):
    """Whether some string matches both glob patterns (STAR = any text)."""
    a = re.sub(STAR + "+", STAR, a)
    b = re.sub(STAR + "+", STAR, b)

    @functools.lru_cache(maxsize=None)
    def go(i, j):
        if i == len(a) and j == len(b):
            return True
        if i < len(a) and a[i] == STAR:
            if go(i + 1, j) or (j < len(b) and go(i, j + 1)):
                return True
        if j < len(b) and b[j] == STAR:
            if go(i, j + 1) or (i < len(a) and go(i + 1, j)):
                return True
        if i < len(a) and j < len(b) and a[i] == b[j] and a[i] != STAR:
            return go(i + 1, j + 1)
        return False

    sys.setrecursionlimit(100000)
    return go(0, 0)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def lit_expectations(root):
    """(file, line, glob) for every error a lit test expects."""
    found = []
    for folder, _, files in os.walk(os.path.join(root, "lit-tests")):
        for name in sorted(files):
            if not name.endswith((".tg", ".mlir", ".test")):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            for number, line in enumerate(read(path).splitlines(), 1):
                m = re.search(r"expected-error(-re)?(?: *@[^ ]+)? *\{\{(.*)\}\}",
                              line)
                # Annotations in .test files are inputs of tests of
                # --verify-diagnostics itself, some deliberately wrong.
                if m and not name.endswith(".test"):
                    text = m.group(2).strip()
                    if m.group(1):
                        text = glob_from_filecheck(text)
                    found.append((rel, number, text))
                    continue
                if m:
                    continue
                m = re.match(r"\s*(?://|#)\s*[A-Z][A-Z0-9_-]*(?:-NEXT|-SAME)?:"
                             r"\s*(.*?)\berror: (.*)$", line)
                if m:
                    found.append((rel, number, glob_from_filecheck(m.group(2))))
    return found


def catch2_expectations(root):
    """(file, line, text) for every CHECK_ERROR in test/errors/*.cpp."""
    found = []
    folder = os.path.join(root, "test", "errors")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".cpp"):
            continue
        path = os.path.join(folder, name)
        text = read(path)
        for m in re.finditer(r"\bCHECK_ERROR\s*\((.*?)\);", text, re.S):
            literals = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
            if not literals:
                continue
            # The message is the last run of adjacent literals.
            tail = re.search(r'((?:"(?:[^"\\]|\\.)*"\s*)+)\s*$', m.group(1))
            parts = re.findall(r'"((?:[^"\\]|\\.)*)"', tail.group(1))
            message = "".join(parts).encode().decode("unicode_escape")
            number = text.count("\n", 0, m.start()) + 1
            found.append((os.path.relpath(path, root), number,
                          glob_from_template(message)))
    return found


def catalogue(root):
    """(id, template, [test files], line) for every row of docs/errors.md."""
    entries = []
    path = os.path.join(root, "docs", "errors.md")
    for number, line in enumerate(read(path).splitlines(), 1):
        cells = [c.strip().replace("\\|", "|")
                 for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) < 4 or not re.fullmatch(r"[A-Z]+-\d+", cells[0]):
            continue
        m = re.match(r"`(.+?)`", cells[1])
        if not m:
            entries.append((cells[0], None, [], number))
            continue
        files = re.findall(r"\[[^\]]*\]\(\.\./([^)#]+)", cells[-1])
        entries.append((cells[0], m.group(1), files, number))
    return entries


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    expectations = lit_expectations(root) + catch2_expectations(root)
    entries = catalogue(root)
    problems = []
    seen = {}
    for ident, template, files, number in entries:
        where = f"docs/errors.md:{number}: {ident}"
        if ident in seen:
            problems.append(f"{where}: id already used on line {seen[ident]}")
        seen[ident] = number
        if template is None:
            problems.append(f"{where}: no `message template` in its row")
            continue
        if not files:
            problems.append(f"{where}: names no test file")
        for f in files:
            if not os.path.exists(os.path.join(root, f)):
                problems.append(f"{where}: names missing file {f}")
        glob = glob_from_template(template)
        # A lit expectation may be part of a message (as verify-diagnostics
        # and FileCheck match): it covers the row when it is long enough to
        # say which message it is.
        def covers(file, text):
            if intersects(glob, text):
                return True
            return (not file.endswith(".cpp") and
                    len(text.replace(STAR, "")) >= 20 and
                    intersects(glob, text + STAR))

        if not any(file in files and covers(file, text)
                   for file, _, text in expectations):
            problems.append(f"{where}: `{template}` is expected by no test in "
                            f"{', '.join(files) or '(none)'}")
    globs = [glob_from_template(t) for _, t, _, _ in entries if t]
    for file, number, text in expectations:
        # A lit expectation may leave out the end of the message (tests
        # write messages from their start).
        padded = text + STAR if not file.endswith(".cpp") else text
        if not any(intersects(g, padded) for g in globs):
            problems.append(f"{file}:{number}: error '{text}' is not in "
                            "docs/errors.md")
    for p in problems:
        print(p)
    print(f"{len(entries)} catalogue entries, {len(expectations)} expected "
          f"errors in tests, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
