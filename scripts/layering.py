#!/usr/bin/env python3
"""Finds import cycles between the files and folders of a Rust crate (ARCHITECTURE.md,
"Layering"). Usage: layering.py SRC_DIR [SRC_DIR ...]; exit status 1 on a cycle.

Every file is a module (`a/b.rs` and `a/b/mod.rs` are `a::b`). The module a file names
is read from its paths: `use` lines (braces expanded, `crate::`, `super::`, `self::`
and child modules), and paths in the code that start with `crate::` or `super::`.
Each name goes to the deepest module it reaches. Test code (`#[cfg(test)] mod ...`
blocks, files named `tests.rs`) is left out.

Then, in every folder, the entries (its files but `mod.rs`, and its sub-folders, each
one node for everything inside it) form a graph: an edge A -> B when something in A
names something in B. A folder's own `mod.rs` (or `lib.rs` / `main.rs`) is its face:
the glue that declares and re-exports its entries, on neither side of an edge. A
strongly connected set of two or more entries is a cycle, reported with one name each
way that closes it.
"""

import os
import re
import sys
from collections import defaultdict

WORD = r"[A-Za-z_][A-Za-z0-9_]*"
PATH_IN_CODE = re.compile(r"\b((?:crate|super)(?:::(?:super|" + WORD + r"))+)")


def strip_comments(text):
    """The text without comments, string contents or character literals."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not re.match(r"\w", text[i - 1] if i else " "):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            out.append('""')
            i = n if end < 0 else end + 1 + len(hashes)
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            out.append('""')
            i += 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or text.startswith("'\\u{", i):
            j = text.find("'", i + 1)
            out.append("' '")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_tests(text):
    """The text without `#[cfg(test)]` modules written inline."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+" + WORD + r"\s*\{", text)
        if not m:
            return text
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[:m.start()] + text[i:]


def expand_use(tree):
    """The paths of one `use` tree: `a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", tree)
    m = re.match(r"^(.*?)\{(.*)\}$", tree)
    if not m:
        return [re.sub(r"as" + WORD + "$", "", tree) if "as" in tree and re.search(r"\w+as\w+$", tree) is None else tree]
    prefix, inner = m.group(1), m.group(2)
    parts, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    paths = []
    for p in parts:
        if p:
            paths.extend(expand_use(prefix + p))
    return paths


class Crate:
    def __init__(self, src):
        self.src = src
        self.modules = {}  # module path (tuple) -> file
        for root, _, files in os.walk(src):
            for f in files:
                if not f.endswith(".rs"):
                    continue
                rel = os.path.relpath(os.path.join(root, f), src)
                parts = rel[:-3].split(os.sep)
                if parts[-1] in ("mod", "lib", "main") and (parts[-1] == "mod" or len(parts) == 1):
                    parts = parts[:-1]
                if "tests" in parts or "bin" in parts[:1]:
                    continue
                self.modules[tuple(parts)] = os.path.join(root, f)

    def resolve(self, module, path):
        """The deepest module `path` (a list of segments, named in `module`) reaches."""
        segs = list(path)
        if not segs:
            return None
        if segs[0] == "crate":
            base, segs = [], segs[1:]
        elif segs[0] in ("super", "self"):
            base = list(module)
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    if not base:
                        return None
                    base.pop()
                segs = segs[1:]
        elif tuple(module) + (segs[0],) in self.modules:
            base = list(module)  # a child module, named without `self::`
        else:
            return None  # another crate, std, or a name in scope
        best = tuple(base) if tuple(base) in self.modules else None
        for s in segs:
            base.append(s)
            if tuple(base) in self.modules:
                best = tuple(base)
            else:
                break
        return best

    def edges(self):
        """Each module -> the modules it names, with one name for each."""
        out = defaultdict(dict)
        for module, file in self.modules.items():
            text = strip_tests(strip_comments(open(file, encoding="utf-8").read()))
            paths = []
            for m in re.finditer(r"\buse\s+([^;]+);", text):
                paths.extend(expand_use(m.group(1)))
            paths.extend(m.group(1) for m in PATH_IN_CODE.finditer(text))
            for p in paths:
                p = re.sub(r"\bas\s*" + WORD + "$", "", p)
                target = self.resolve(module, [s for s in p.split("::") if s and s != "*"])
                if target is not None and target != module:
                    out[module].setdefault(target, p)
        return out


def sccs(nodes, graph):
    """Tarjan's strongly connected components."""
    index, low, stack, on, result, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            result.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return result


def check(src):
    crate = Crate(src)
    edges = crate.edges()
    # folder (module path of a directory) -> entry graph
    folders = defaultdict(lambda: defaultdict(dict))
    for a, targets in edges.items():
        for b, name in targets.items():
            k = 0
            while k < min(len(a), len(b)) and a[k] == b[k]:
                k += 1
            if k == len(a) or k == len(b):
                continue  # one is the folder's face (or an ancestor of the other)
            folder = a[:k]
            # An entry that is a folder's face, not inside the folder, is its mod.rs.
            ea, eb = a[k], b[k]
            folders[folder][ea].setdefault(eb, (a, b, name))
    cycles = []
    for folder, graph in sorted(folders.items()):
        nodes = set(graph) | {n for t in graph.values() for n in t}
        for comp in sccs(nodes, {v: list(t) for v, t in graph.items()}):
            if len(comp) < 2:
                continue
            members = set(comp)
            where = os.path.join(src, *folder)
            lines = [f"cycle in {where}/: {', '.join(sorted(comp))}"]
            for v in sorted(comp):
                for w, (a, b, name) in sorted(graph[v].items()):
                    if w in members:
                        lines.append(f"  {'::'.join(a)} names {'::'.join(b)} ({name})")
            cycles.append("\n".join(lines))
    return cycles


def main():
    cycles = []
    for src in sys.argv[1:]:
        cycles.extend(check(src))
    for c in cycles:
        print(c)
    if cycles:
        print(f"{len(cycles)} import cycle(s): see ARCHITECTURE.md, Layering", file=sys.stderr)
        sys.exit(1)
    print("no import cycles between files or folders")


if __name__ == "__main__":
    main()
