"""Checks the op table of docs/graph-format.md against the compiler.

    check_op_table.py GRAPH_FORMAT_MD KNOWN_FUNCTIONS_ERROR

The second file holds tcc's "unknown function ...; known functions are: ..."
message, the list of every callable name. The table under "## Expressions"
("| call | meaning |") must be one block of rows, with no row of it left
elsewhere in the section (sections once got pasted into its middle), and
its first column must name every known function and nothing else.
"""
import re
import sys


def main(doc_path, error_path):
    lines = open(doc_path).read().split("\n")
    problems = []
    start = lines.index("## Expressions")
    end = next(i for i in range(start + 1, len(lines))
               if lines[i].startswith("## "))
    header = lines.index("| call | meaning |", start, end)
    row = header + 2
    while row < end and lines[row].startswith("| "):
        row += 1
    table = lines[header + 2:row]
    for i in range(row, end):
        if lines[i].startswith("| `"):
            problems.append("line %d: a row of the op table outside it "
                            "(after line %d): %s" % (i + 1, row, lines[i][:60]))

    documented = set()
    for line in table:
        cell = line.split(" | ")[0]
        for code in re.findall(r"`([^`]*)`", cell):
            # "neg abs relu (x)", "sum mean (x, axis=1)", "matmul(a, b)"
            head = code.split("(")[0]
            documented.update(re.findall(r"[a-z_][a-z0-9_]*", head))
    message = open(error_path).read()
    match = re.search(r"known functions are: (.*)", message)
    if not match:
        sys.exit("no list of known functions in:\n" + message)
    known = set(name.strip() for name in match.group(1).split(","))

    for name in sorted(known - documented):
        problems.append("'%s' is a function the compiler knows, missing from "
                        "the op table" % name)
    for name in sorted(documented - known):
        problems.append("'%s' is in the op table, but the compiler knows no "
                        "such function" % name)
    for p in problems:
        print(p)
    print("op table: %d rows, %d functions documented, %d known" %
          (len(table), len(documented), len(known)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
