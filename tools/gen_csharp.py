"""Writes the parts of the C# binding that mirror the engine's tables, from the C header.

Two regions of bindings/csharp/Runtime/Carcassonne.cs:

* between the BEGIN and END GENERATED TYPES lines, every `enum CarcX` of
  include/carcassonne.h as `public enum X`: the same members and numbers, the underlying
  type of the C enum (uint32_t: uint, uint8_t: byte), and the header's documentation as
  XML comments. Member names are the C names without the enum's prefix, in PascalCase
  (CARC_STATUS_NULL_ARGUMENT: NullArgument); the compass abbreviations (NW, NE, SE, SW,
  NS, WE) keep their capitals. Then the `CarcSupply` struct, one byte per field of the
  header's (follower: Follower);
* between the BEGIN and END GENERATED CONSTANTS lines (in class Native), the
  `CARC_SYMBOL_*` bits (CARC_SYMBOL_PIG_HERD: SymbolPigHerd) and the version macros
  (CARC_VERSION_MAJOR/MINOR/PATCH, CARC_ABI_VERSION, CARC_LAYOUT_VERSION: VersionMajor,
  ..., AbiVersion, LayoutVersion).

The header is generated from the C library's Rust source, so a new enum value, figure or
symbol of the engine reaches C# by running this script after regenerating the header:

    python3 tools/gen_csharp.py            # rewrite the regions
    python3 tools/gen_csharp.py --check    # exit 1 if they are not current

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
BEGIN = "    // BEGIN GENERATED TYPES: tools/gen_csharp.py writes them from include/carcassonne.h; do not edit."
END = "    // END GENERATED TYPES"
BEGIN_CONSTANTS = (
    "        // BEGIN GENERATED CONSTANTS: tools/gen_csharp.py writes them from include/carcassonne.h; do not edit."
)
END_CONSTANTS = "        // END GENERATED CONSTANTS"
C_TYPES = {"uint32_t": "uint", "uint8_t": "byte"}
CAPITALS = {"NW", "NE", "SE", "SW", "NS", "WE"}

ENUM = re.compile(
    r"/\*\*\n(?P<doc>(?: \*[^\n]*\n)*?) \*/\nenum (?P<name>Carc\w+)\n#if[^\n]*\n  : (?P<ctype>\w+)\n"
    r"#endif[^\n]*\n \{\n(?P<body>.*?)\n\};",
    re.S,
)
MEMBER = re.compile(r"    /\*\*\n(?P<doc>(?:     \*[^\n]*\n)*?)     \*/\n    (?P<name>CARC_\w+) = (?P<value>\d+),")
STRUCT = re.compile(
    r"/\*\*\n(?P<doc>(?: \*[^\n]*\n)*?) \*/\ntypedef struct (?P<name>Carc\w+) \{\n(?P<body>.*?)\n\} (?P=name);", re.S
)
FIELD = re.compile(r"    /\*\*\n(?P<doc>(?:     \*[^\n]*\n)*?)     \*/\n    (?P<ctype>\w+) (?P<name>\w+);")
SYMBOL = re.compile(r"/\*\*\n(?P<doc>(?: \*[^\n]*\n)*?) \*/\n#define CARC_SYMBOL_(?P<name>\w+) (?P<value>\d+)")


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


def supply_struct(header: str) -> List[str]:
    """`CarcSupply` as a C# struct: one field per field of the header's, same order and type."""
    m = next((m for m in STRUCT.finditer(header) if m.group("name") == "CarcSupply"), None)
    if m is None:
        raise SystemExit("the header has no struct CarcSupply")
    fields = list(FIELD.finditer(m.group("body")))
    if len(fields) != m.group("body").count(";"):
        raise SystemExit("CarcSupply: could not read every field")
    out = [
        "",
        f"    /// <summary>{escape(first_paragraph(comment_text(m.group('doc'))), quote=False)} (CarcSupply)</summary>",
        "    [StructLayout(LayoutKind.Sequential)]",
        "    public struct CarcSupply",
        "    {",
    ]
    for f in fields:
        doc = escape(first_paragraph(comment_text(f.group("doc"))), quote=False)
        out.append(f"        /// <summary>{doc}</summary>")
        out.append(f"        public {C_TYPES[f.group('ctype')]} {member_name(f.group('name'), '')};")
    out.append("    }")
    return out


def render(header: str) -> str:
    """The generated types region, BEGIN and END lines included."""
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
    out.extend(supply_struct(header))
    out.append("")
    out.append(END)
    return "\n".join(out)


# The header's version macros the binding repeats: (macro, documentation, C# type, the
# literal's suffix in the header, when it has one).
VERSIONS = [
    ("CARC_VERSION_MAJOR", "The library version this binding was written for (see Game.Version).", "uint", ""),
    ("CARC_VERSION_MINOR", "The library's minor version this binding was written for.", "uint", ""),
    ("CARC_VERSION_PATCH", "The library's patch version this binding was written for.", "uint", ""),
    ("CARC_ABI_VERSION", "The ABI this binding was written for; compare with carc_abi_version().", "uint", ""),
    (
        "CARC_LAYOUT_VERSION",
        "The observation layout version this binding was written for (the header's "
        "CARC_LAYOUT_VERSION); compare with carc_layout_version().",
        "ulong",
        "ull",
    ),
]


def render_constants(header: str) -> str:
    """The generated constants region (the symbol bits and the version macros), BEGIN and END
    lines included."""
    out = [BEGIN_CONSTANTS, "        // carc_tile_symbols bits."]
    symbols = list(SYMBOL.finditer(header))
    if not symbols:
        raise SystemExit("the header has no CARC_SYMBOL_ constants")
    for m in symbols:
        # The symbol's own paragraph: the first constant's doc starts with a heading.
        lines = comment_text(m.group("doc"))
        own = lines[max((i for i, line in enumerate(lines) if not line.strip()), default=-1) + 1 :]
        doc = escape(first_paragraph(own), quote=False)
        out.append(f"        /// <summary>{doc}</summary>")
        out.append(f"        public const uint Symbol{member_name(m.group('name'), '')} = {m.group('value')};")
    for name, doc, csharp_type, suffix in VERSIONS:
        # cbindgen writes the suffix only where the value needs it (above 2^63 - 1).
        m = re.search(rf"#define {name} (\d+)(?:{suffix})?\n", header)
        if not m:
            raise SystemExit(f"the header has no {name}")
        out.append(f"        /// <summary>{doc}</summary>")
        out.append(f"        public const {csharp_type} {member_name(name, 'CARC_')} = {m.group(1)};")
    out.append(END_CONSTANTS)
    return "\n".join(out)


def replace_region(text: str, begin: str, end: str, region: str) -> str:
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"{BINDING}: no region between {begin.strip()!r} and {end.strip()!r}")
    return text[:start] + region + text[stop + len(end):]


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the regions are not current")
    args = parser.parse_args(argv)
    binding = BINDING.read_text()
    header = HEADER.read_text()
    updated = replace_region(binding, BEGIN, END, render(header))
    updated = replace_region(updated, BEGIN_CONSTANTS, END_CONSTANTS, render_constants(header))
    if args.check:
        if updated != binding:
            print(f"{BINDING}: the generated regions are not current; run python3 tools/gen_csharp.py", file=sys.stderr)
            return 1
        print(f"{BINDING.name}: {len(parse(header))} enums, CarcSupply and the symbol bits match include/carcassonne.h")
        return 0
    BINDING.write_text(updated)
    print(f"wrote the generated regions of {BINDING}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
