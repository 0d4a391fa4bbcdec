"""The public surface: simdex's top level and simdex.parts are exactly the names
docs/python.md's two API tables list, and every name they list exists."""

import os
import re

import simdex
from conftest import SOURCE_DIR


def documented_names(table_heading: str):
    """The names in the first cells of the table after `table_heading` in docs/python.md:
    each backticked identifier there, as `name(...)`, `Class.method(...)` or `NAME`, less
    the rows of methods (a leading dot) and arguments (`name=`)."""
    with open(os.path.join(SOURCE_DIR, "docs", "python.md"), encoding="utf-8") as f:
        text = f.read()
    table = text[text.index(table_heading):]
    table = table[table.index("| name | what |"):]
    names = set()
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        first_cell = re.split(r"(?<!\\)\|", line)[1]
        for span in re.findall(r"`([^`]*)`", first_cell):
            m = re.match(r"([A-Za-z_]\w*)(\(|\.|$)", span)
            if m:
                names.add(m.group(1))
    return names


def test_the_top_level_is_what_the_docs_list():
    assert set(simdex.__all__) == documented_names("The top level is `simdex.__all__`")
    assert len(simdex.__all__) == len(set(simdex.__all__)) == 19
    for name in simdex.__all__:
        assert getattr(simdex, name) is not None


def test_simdex_parts_is_what_the_docs_list():
    assert set(simdex.parts.__all__) == documented_names("`simdex.parts` (`simdex.parts.__all__`")
    for name in simdex.parts.__all__:
        assert getattr(simdex.parts, name) is not None
    assert not set(simdex.__all__) & set(simdex.parts.__all__)
