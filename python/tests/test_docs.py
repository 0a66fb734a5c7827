"""docs/python.md's Python examples run, in order, in one namespace."""

import os
import re

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DOC = os.path.join(ROOT, "docs", "python.md")


def test_python_md_examples_run():
    text = open(DOC).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    namespace = {}
    for k, block in enumerate(blocks):
        code = compile(block, f"python.md-example-{k}", "exec")
        exec(code, namespace)


def test_readme_quick_start_runs():
    text = open(os.path.join(ROOT, "README.md")).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "README.md-example", "exec"), {})
