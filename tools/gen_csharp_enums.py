"""Writes the enums of the C# binding from the C header.

Every `enum CarcX` of include/carcassonne.h becomes `public enum X` in the region of
bindings/csharp/Runtime/Carcassonne.cs between the BEGIN and END GENERATED ENUMS lines:
the same members and numbers, the underlying type of the C enum (uint32_t: uint, uint8_t:
byte), and the header's documentation as XML comments. Member names are the C names
without the enum's prefix, in PascalCase (CARC_STATUS_NULL_ARGUMENT: NullArgument);
the compass abbreviations (NW, NE, SE, SW, NS, WE) keep their capitals.

The header is generated from the C library's Rust source, so a new enum value of the C
ABI reaches C# by running this script after regenerating the header:

    python3 tools/gen_csharp_enums.py            # rewrite the region
    python3 tools/gen_csharp_enums.py --check    # exit 1 if it is not current

tests/c/run.sh runs the check.
"""

from __future__ import annotations

import argparse
import re
import sys
from html import escape
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "include" / "carcassonne.h"
BINDING = ROOT / "bindings" / "csharp" / "Runtime" / "Carcassonne.cs"
BEGIN = "    // BEGIN GENERATED ENUMS: tools/gen_csharp_enums.py writes them from include/carcassonne.h; do not edit."
END = "    // END GENERATED ENUMS"
C_TYPES = {"uint32_t": "uint", "uint8_t": "byte"}
CAPITALS = {"NW", "NE", "SE", "SW", "NS", "WE"}

ENUM = re.compile(
    r"/\*\*\n(?P<doc>(?: \*[^\n]*\n)*?) \*/\nenum (?P<name>Carc\w+)\n#if[^\n]*\n  : (?P<ctype>\w+)\n"
    r"#endif[^\n]*\n \{\n(?P<body>.*?)\n\};",
    re.S,
)
MEMBER = re.compile(r"    /\*\*\n(?P<doc>(?:     \*[^\n]*\n)*?)     \*/\n    (?P<name>CARC_\w+) = (?P<value>\d+),")


def comment_text(block: str) -> List[str]:
    """The lines of a `/** ... */` block without the ` * ` margins."""
    return [re.sub(r"^\s*\*\s?", "", line) for line in block.rstrip("\n").split("\n")]


def first_paragraph(lines: List[str]) -> str:
    out: List[str] = []
    for line in lines:
        if not line.strip():
            break
        out.append(line.strip())
    return " ".join(out)


def member_name(c_name: str, prefix: str) -> str:
    words = c_name[len(prefix):].split("_")
    return "".join(w if w in CAPITALS else w.capitalize() for w in words)


def prefix_of(enum_name: str) -> str:
    """CarcActionKind -> CARC_ACTION_KIND_."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", enum_name).upper() + "_"


def parse(header: str) -> List[Tuple[str, str, str, List[Tuple[str, str, str]]]]:
    """(C name, doc, C type, [(member C name, doc, value)]) of every enum, in header order."""
    enums = []
    for m in ENUM.finditer(header):
        members = [
            (mm.group("name"), first_paragraph(comment_text(mm.group("doc"))), mm.group("value"))
            for mm in MEMBER.finditer(m.group("body"))
        ]
        if len(members) != m.group("body").count(" = "):
            raise SystemExit(f"{m.group('name')}: could not read every member")
        enums.append((m.group("name"), first_paragraph(comment_text(m.group("doc"))), m.group("ctype"), members))
    return enums


def render(header: str) -> str:
    """The generated region, BEGIN and END lines included."""
    out = [BEGIN]
    for c_name, doc, ctype, members in parse(header):
        out.append("")
        out.append(f"    /// <summary>{escape(doc, quote=False)} ({c_name})</summary>")
        out.append(f"    public enum {c_name[len('Carc'):]} : {C_TYPES[ctype]}")
        out.append("    {")
        prefix = prefix_of(c_name)
        for name, member_doc, value in members:
            if not name.startswith(prefix):
                raise SystemExit(f"{name} does not start with {prefix}")
            out.append(f"        /// <summary>{escape(member_doc, quote=False)}</summary>")
            out.append(f"        {member_name(name, prefix)} = {value},")
        out.append("    }")
    out.append("")
    out.append(END)
    return "\n".join(out)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the region is not current")
    args = parser.parse_args(argv)
    binding = BINDING.read_text()
    start, end = binding.find(BEGIN), binding.find(END)
    if start < 0 or end < start:
        print(f"{BINDING}: no generated region (the BEGIN and END GENERATED ENUMS lines)", file=sys.stderr)
        return 1
    updated = binding[:start] + render(HEADER.read_text()) + binding[end + len(END):]
    if args.check:
        if updated != binding:
            print(f"{BINDING}: the enums are not current; run python3 tools/gen_csharp_enums.py", file=sys.stderr)
            return 1
        print(f"{BINDING.name}: {len(parse(HEADER.read_text()))} enums match include/carcassonne.h")
        return 0
    BINDING.write_text(updated)
    print(f"wrote the enums of {BINDING}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
