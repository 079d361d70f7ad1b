"""``affine-lsp deps``: the dependences between memref accesses, in the words
of MLIR's ``-test-memref-dependence-check``.

Every ``affine.load``/``affine.store`` of a module is numbered in walk order
(across functions) and, for every ordered pair ``(i, j)`` and depth ``d`` in
``1 .. common + 1`` that has a dependence, a remark is printed at op ``i``::

    FILE:LINE:COL: remark: dependence from I to J at depth D = RESULT

``--all-pairs`` prints every pair and depth, ``= false`` included, as the
test pass does. Every ``// -----`` section is its own module (numbering
restarts), as with the pass's ``--split-input-file``. The distance
intervals are exact (MLIR's can be looser). ``--format json`` adds the kind
(RAW/WAR/WAW), the status and the exact dependence relation; ``--flow`` adds
the value-based dataflow (which store each load takes its values from, and
which load instances read values from before the function), marked
``"dependence": "value-based"`` (the pass's remarks are ``"memory-based"``).
``--format dot`` prints a Graphviz digraph per file: one cluster per
function and per top-level loop nest, the accesses as nodes, the dependences
as edges labelled with kind, depth, distance and carrying loop.

Each function's analysis is released once its remarks are out: memory
holds one function's analysis at a time (it grows linearly with the file).
``--timeout S`` (default 60 s) bounds the analysis of the command's files:
past it the remarks finished so far are printed and one line per file on
standard error names the function that was being analysed (how many of its
pairs were done) and the functions not reached; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from affine_lsp.analysis.remarks import Remark, iter_memref_dependence_remarks, pass_ops
from affine_lsp.commands import frontend
from affine_lsp.commands.bounded import Send, run_bounded
from affine_lsp.ide.symbols import func_name
from affine_lsp.ir.core import Operation
from affine_lsp.source.document import Document


def add_arguments(p: argparse.ArgumentParser) -> None:
    frontend.add_input(p, many=True)
    p.add_argument(
        "--all-pairs",
        action="store_true",
        help="print every pair of accesses at every depth, '= false' included (the output of mlir-opt -test-memref-dependence-check)",
    )
    p.add_argument("--format", choices=("text", "json", "dot"), default="text", help="dot: a Graphviz graph of each function's dependences")
    p.add_argument("--budget", type=int, default=None, help="isl operation limit per query (default: the engine's)")
    p.add_argument(
        "--flow",
        action="store_true",
        help="also print the value-based dataflow: for each load, the stores it takes its values from and the live-in instances",
    )
    frontend.add_timeout(p, DEFAULT_TIMEOUT)
    frontend.add_output(p)


DEFAULT_TIMEOUT = 60.0


def remark_json(path: str, doc: Document, r: Remark) -> dict:
    line, col = doc.lines.position(r.op.name_span.start)
    item: dict = {
        "file": path,
        "line": line + 1,
        "column": col + 1,
        "severity": r.severity,
        "dependence": "memory-based",
        "message": r.message,
        "from": r.src,
        "to": r.dst,
        "depth": r.depth,
        "result": r.result,
    }
    if r.dep is not None:
        item.update({k: v for k, v in r.dep.to_json().items() if k not in ("depth", "result")})
    return item


def flow_items(doc: Document, split: bool, budget: int | None) -> list[tuple[Operation, str, dict]]:
    """Value-based flows into every numbered load: ``(op, message, json)``."""
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET
    from affine_lsp.analysis.polyhedral import scope_of

    b = DEFAULT_BUDGET if budget is None else budget
    groups = [[s.module] for s in doc.sections] if split else [[s.module for s in doc.sections]]
    from affine_lsp.analysis import forget_dependences

    out: list[tuple[Operation, str, dict]] = []
    for roots in groups:
        ops = pass_ops(roots)
        number = {op: i for i, op in enumerate(ops)}
        last: Operation | None = None
        for j, op in enumerate(ops):
            if op.name != "affine.load":
                continue
            scope = scope_of(op)
            if scope is None:
                continue
            if last is not None and last is not scope:
                forget_dependences(last)  # one function's analysis at a time
            last = scope
            fd = dependences_of_function(scope, b)
            acc = fd.access(op)
            df = fd.dataflow()
            flow = df.flow_into(acc) if acc is not None else None
            if flow is None:
                continue
            exact = "" if flow.exact else " (may)"
            for e in flow.sources:
                i = number.get(e.write.op)
                src = str(i) if i is not None else f"'{e.write.op.name}'"
                dist = e.distance_str() or "true"
                msg = f"value of {j} comes from {src} = {dist}{exact}"
                out.append((op, msg, {"dependence": "value-based", "to": j, "from": i, **e.to_json()}))
            if flow.reads_live_in:
                msg = f"value of {j} comes from before the function for {flow.live_in}{exact}"
                out.append((op, msg, {"dependence": "value-based", "to": j, "live_in": str(flow.live_in), "exact": flow.exact}))
        if last is not None:
            forget_dependences(last)
    return out


def _owner_name(op: Operation) -> str:
    """The name of the function holding ``op`` (``(module)`` outside any)."""
    from affine_lsp.ir.op_traits import enclosing_function

    func = enclosing_function(op)
    return func_name(func) if func is not None else "(module)"


def _file_work(path: str, doc: Document, args: argparse.Namespace, send: Send) -> None:
    """The output of ``deps`` for one file, item by item: ``("plan", [(name,
    pairs), ...])`` per section, ``("pair", name)`` when a pair of accesses
    is started, ``("text", line)`` / ``("json", dict)`` per remark."""
    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET

    b = DEFAULT_BUDGET if args.budget is None else args.budget
    for sec in doc.sections:
        ops = pass_ops([sec.module])
        owners = [_owner_name(op) for op in ops]
        count: dict[str, int] = {}
        for name in owners:
            count[name] = count.get(name, 0) + 1
        # The pairs of accesses of one function (those of two functions are
        # always 'false': nothing to analyse).
        send(("plan", [(name, n * n) for name, n in count.items()]), now=True)

        def starting(i: int, j: int, owners: list[str] = owners) -> None:
            send(("pair", owners[i]), now=True)  # what comes before it is finished

        for r in iter_memref_dependence_remarks([sec.module], b, all_pairs=args.all_pairs, release=True, starting=starting):
            if not args.all_pairs and not r.failed and r.result == "false":
                continue
            if args.format == "json":
                send(("json", remark_json(path, doc, r)))
            else:
                line, col = doc.lines.position(r.op.name_span.start)
                send(("text", f"{path}:{line + 1}:{col + 1}: {r.severity}: {r.message}"))
    if args.flow:
        send(("plan", [("(value-based dataflow)", 1)]))
        send(("pair", "(value-based dataflow)"), now=True)
        for op, msg, data in flow_items(doc, True, args.budget):
            line, col = doc.lines.position(op.name_span.start)
            if args.format == "json":
                send(("json", {"file": path, "line": line + 1, "column": col + 1, "severity": "remark", "message": msg, **data}))
            else:
                send(("text", f"{path}:{line + 1}:{col + 1}: remark: {msg}"))
        send(("pair", None), now=True)


class _Progress:
    """What the parent received of one file's work."""

    def __init__(self, out_json: list[dict]) -> None:
        self.out_json = out_json
        self.lines: list[str] = []
        self.plan: list[tuple[str, int]] = []
        self.started: dict[str, int] = {}
        self.current: str | None = None

    def __call__(self, item: tuple[str, object], now: bool = False) -> None:
        tag, obj = item
        if tag == "text":
            self.lines.append(obj)  # type: ignore[arg-type]
            if len(self.lines) >= 4096:
                self.flush()
        elif tag == "json":
            self.out_json.append(obj)  # type: ignore[arg-type]
        elif tag == "plan":
            self.plan.extend(obj)  # type: ignore[arg-type]
        elif tag == "pair":
            self.current = obj  # type: ignore[assignment]
            if obj is not None:
                self.started[obj] = self.started.get(obj, 0) + 1  # type: ignore[index]

    def flush(self) -> None:
        if self.lines:
            print("\n".join(self.lines))
            self.lines = []

    def timed_out(self, path: str, seconds: float) -> str:
        """The line naming what was not finished."""
        totals: dict[str, int] = {}
        for name, n in self.plan:
            totals[name] = totals.get(name, 0) + n
        where = ""
        if self.current is not None:
            done = max(0, self.started.get(self.current, 1) - 1)
            where = f" {self.current}: {done} of {totals.get(self.current, done)} pairs analysed;"
        seen = set(self.started)
        missing = [name for name in totals if name not in seen]
        rest = f" not reached: {', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''} ({len(missing)} function(s));" if missing else ""
        if not self.plan:
            rest = " nothing was analysed;"
        return f"{path}: error: deps: timed out after {seconds:g} s;{where}{rest} results for the others are omitted"


def run(args: argparse.Namespace) -> int:
    import time

    status = 0
    out_json: list[dict] = []
    deadline = time.monotonic() + args.timeout if args.timeout else None
    for path, problem in frontend.inputs(args.files):
        try:
            if problem is not None:
                raise frontend.InputError(problem, path)
            text = frontend.read_input(path)
        except frontend.InputError as e:
            print(e.line("deps"), file=sys.stderr)
            status = max(status, e.status)
            continue
        doc = Document(text, uri=path)
        if frontend.report_errors(path, doc, args.allow_unregistered_dialect):  # nothing printed for this file
            status = max(status, frontend.EXIT_ERRORS)
            continue
        if args.format == "dot":
            print(dot_graphs(path, doc, args.budget))
            continue
        progress = _Progress(out_json)
        left = None if deadline is None else deadline - time.monotonic()
        finished = left is None or left > 0
        if finished:
            finished = run_bounded(lambda send, path=path, doc=doc: _file_work(path, doc, args, send), left, progress)
        progress.flush()
        if not finished:
            print(progress.timed_out(path, args.timeout), file=sys.stderr)
            status = max(status, 1)
    if args.format == "json":
        print(json.dumps(out_json, indent=2))
    return status


_DOT_COLOURS = {"RAW": "#d62728", "WAR": "#1f77b4", "WAW": "#2ca02c"}


def _dot_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def dot_graphs(path: str, doc: Document, budget: int | None) -> str:
    """A Graphviz digraph of the dependences of every function of ``doc``
    (:func:`affine_lsp.analysis.iteration_space.dependence_graph`)."""
    from affine_lsp.analysis import dependences_of_function, forget_dependences
    from affine_lsp.analysis.isl_support import DEFAULT_BUDGET
    from affine_lsp.analysis.iteration_space import dependence_graph, lines_range_of

    b = DEFAULT_BUDGET if budget is None else budget
    range_of = lines_range_of(doc.lines)
    out = [f"digraph {_dot_str('dependences of ' + path)} {{", "  node [shape=box, fontname=monospace];", "  edge [fontname=monospace];"]
    n_func = 0
    for section in doc.sections:
        for func in section.module.walk():
            if func.name != "func.func":
                continue
            g = dependence_graph(dependences_of_function(func, b), range_of)
            forget_dependences(func)  # one function's analysis at a time
            f = n_func
            n_func += 1
            out.append(f"  subgraph cluster_f{f} {{")
            out.append(f"    label={_dot_str(func_name(func))};")
            by_nest: dict[int | None, list[tuple[int, dict]]] = {}
            for k, node in enumerate(g["nodes"]):
                by_nest.setdefault(node["nest"], []).append((k, node))
            for nest, nodes in by_nest.items():
                indent = "    "
                if nest is not None:
                    n = g["nests"][nest]
                    out.append(f"    subgraph cluster_f{f}_n{nest} {{")
                    out.append(f"      label={_dot_str(n['op'] + ' ' + str(n['iv']) + ' (line ' + str(n['range']['start']['line'] + 1) + ')')};")
                    indent = "      "
                for _, node in nodes:
                    label = f"{node['op']} {node['memref']}\nline {node['range']['start']['line'] + 1}"
                    if node["role"] not in ("read", "write"):
                        label += f" ({node['role']})"
                    out.append(f"{indent}f{f}_{node['id']} [label={_dot_str(label)}];")
                if nest is not None:
                    out.append("    }")
            for e in g["edges"]:
                src, dst = g["nodes"][e["source"]]["id"], g["nodes"][e["sink"]]["id"]
                where = f"carried by {e['carriedBy']}" if e["carriedBy"] else "loop-independent"
                label = f"{e['kind']} d={e['depth']} {e['distance']}\n{where}" + (" (may)" if e["status"] != "dependence" else "")
                colour = _DOT_COLOURS.get(e["kind"] or "", "black")
                style = ", style=dashed" if e["status"] != "dependence" else ""
                out.append(f"    f{f}_{src} -> f{f}_{dst} [label={_dot_str(label)}, color={_dot_str(colour)}, fontcolor={_dot_str(colour)}{style}];")
            out.append("  }")
    out.append("}")
    return "\n".join(out)
