#!/usr/bin/env python3
"""The pipeline's order, checked on the sources (DESIGN §1, README "Development").

Every quoted include of src/ and include/tensormorph/ names a header by its path under src/ or
include/ ("analysis/timeline/intervals.h", "tensormorph/model/trace.h"). This script reads them
all, shares nothing with the build, and fails when

  1. a stage includes a header of a stage above it (the order below, lowest first): the build's
     include views (cmake/StageViews.cmake) already refuse these; this check says it in one line
     per include and also covers headers no .cc of the stage includes yet;
  2. folders include each other in a cycle. A folder is a folder of src/ or include/tensormorph/
     with its direct files (src/analysis/timeline and include/tensormorph/analysis/timeline are
     one folder, "analysis/timeline"); an edge A -> B is an include in a file of A of a header of
     B. Tests (*_test.cc) are left out: they may include what they test from any folder.

  tests/layering_test.py [SOURCE_DIR]
"""
import os
import re
import sys

STAGES = ["model", "io", "devices", "import", "link", "analysis", "export", "report", "cli"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def folders_and_includes(root):
    """{folder: [(file, included folder, include text)]} over src/ and include/tensormorph/."""
    edges = {}
    for base in ("src", "include/tensormorph"):
        top = os.path.join(root, base)
        for dirpath, _, files in os.walk(top):
            folder = os.path.relpath(dirpath, top).replace(os.sep, "/")
            for name in files:
                if not name.endswith((".cc", ".h")) or name.endswith("_test.cc"):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    for line in f:
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        text = m.group(1)
                        header = text[len("tensormorph/"):] if text.startswith("tensormorph/") else text
                        if not (os.path.exists(os.path.join(root, "src", header)) or
                                os.path.exists(os.path.join(root, "include/tensormorph", header))):
                            continue  # generated, or not ours
                        target = os.path.dirname(header) or "."
                        edges.setdefault(folder, []).append(
                            (os.path.relpath(path, root), target, text))
    return edges


def stage_of(folder):
    top = folder.split("/")[0]
    return STAGES.index(top) if top in STAGES else None


def upward_includes(edges):
    out = []
    for folder, includes in sorted(edges.items()):
        for path, target, text in includes:
            a, b = stage_of(folder), stage_of(target)
            if a is not None and b is not None and b > a:
                out.append(f"{path}: includes \"{text}\" of stage {STAGES[b]} from stage {STAGES[a]}")
    return out


def cycles(edges):
    """Strongly connected components of more than one folder (Tarjan), each with its edges."""
    graph = {f: sorted({t for _, t, _ in inc if t != f}) for f, inc in edges.items()}
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for component in found:
        lines = [f"folders in a cycle: {', '.join(component)}"]
        for folder in component:
            for path, target, text in sorted(set(edges.get(folder, []))):
                if target in component and target != folder:
                    lines.append(f"    {path} -> \"{text}\"")
        out.append("\n".join(lines))
    return out


def self_test():
    """The checks find what they are for: a tree with one upward include and one cycle."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        files = {
            "src/model/a.h": '#include "report/r.h"\n',  # upward: model -> report
            "src/report/r.h": "",
            "src/analysis/x/x.h": '#include "analysis/y/y.h"\n',  # cycle x <-> y
            "src/analysis/y/y.h": '#include "analysis/x/x.h"\n',
            "src/analysis/z/z_test.cc": '#include "report/r.h"\n',  # tests are left out
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        edges = folders_and_includes(root)
        up, cyc = upward_includes(edges), cycles(edges)
        assert len(up) == 1 and "src/model/a.h" in up[0], up
        assert len(cyc) == 1 and "analysis/x, analysis/y" in cyc[0], cyc


def main():
    self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    edges = folders_and_includes(root)
    if sum(len(v) for v in edges.values()) < 100:
        print(f"layering: only {sum(len(v) for v in edges.values())} includes found under {root}")
        return 1
    problems = upward_includes(edges) + cycles(edges)
    for p in problems:
        print(p)
    print(f"layering: {len(edges)} folders, {sum(len(v) for v in edges.values())} includes, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
