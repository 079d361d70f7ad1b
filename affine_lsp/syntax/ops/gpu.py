"""Reduce actions of ``grammar/gpu.lark``: gpu.launch (with clusters,
async dependencies, dynamic shared memory and attributions),
gpu.launch_func, the id/dimension ops, gpu.barrier/terminator/return/yield,
gpu.module and gpu.func, in MLIR's generic shape."""

from __future__ import annotations

from typing import Any

from affine_lsp.ir.attributes import ArrayAttr, Attribute, DictAttr, IntegerAttr, OpaqueAttr, StringAttr, SymbolRefAttr, UnitAttr
from affine_lsp.ir.types import INDEX, IntegerType, OpaqueType, Type
from affine_lsp.syntax.nodes import OpSyn, RegionSyn
from affine_lsp.syntax.opkit import Ops, is_tok, set_entry_args, unquote

I32 = IntegerType(32)
I64 = IntegerType(64)
ASYNC_TOKEN = OpaqueType("!gpu.async.token")


class GpuOps:
    """Mixed into :class:`~affine_lsp.syntax.parser.ChunkTransformer`."""

    def gpu_launch(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "gpu.launch")
        deps: list = []
        is_async = False
        triples: list[list] = []
        sizes: list[list] = []
        clusters: tuple | None = None
        dsm: list = []
        attributions: dict[str, list] = {"workgroup": [], "private": []}
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "async":
                is_async, deps = True, x[1]
            elif isinstance(x, tuple) and x[0] == "clusters":
                clusters = x
            elif isinstance(x, tuple) and x[0] == "triple":
                triples.append(x[1])
            elif isinstance(x, tuple) and x[0] == "sizes":
                sizes.append(x[1])
            elif isinstance(x, tuple) and x[0] == "dsm":
                dsm = [x[1]]
            elif isinstance(x, tuple) and x[0] in ("module", "function"):
                op.attrs[x[0]] = x[1]
            elif isinstance(x, tuple) and x[0] in attributions:
                attributions[x[0]] = x[1]
            elif isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        blocks, threads = (sizes + [[], []])[:2]
        cluster_sizes = clusters[2] if clusters is not None else []
        groups = [deps] + [[(v, vs)] for _, _, v, vs in blocks + threads]
        groups += [[(v, vs)] for _, _, v, vs in cluster_sizes] if clusters is not None else [[], [], []]
        groups.append(dsm)
        op.operands = [o for g in groups for o in g]
        op.segments = tuple(len(g) for g in groups)
        op.operand_types = [ASYNC_TOKEN] * len(deps) + [INDEX] * (len(op.operands) - len(deps) - len(dsm)) + [I32] * len(dsm)
        op.result_types = [ASYNC_TOKEN] if is_async else []
        op.attrs["workgroup_attributions"] = IntegerAttr(len(attributions["workgroup"]), I64)
        if op.regions:
            ids = [t for trip in triples for t in trip]  # blocks(...), threads(...), in that order
            args = [(n, s, INDEX) for n, s in ids[:6]]
            args += [(a, asp, INDEX) for a, asp, _, _ in blocks + threads]
            if clusters is not None:
                args += [(n, s, INDEX) for n, s in clusters[1]] + [(a, asp, INDEX) for a, asp, _, _ in cluster_sizes]
            args += attributions["workgroup"] + attributions["private"]
            set_entry_args(op.regions[0], args, self.anchor)
        return op

    def launch_clusters(self: Any, c: list) -> tuple:
        return ("clusters", c[0][1], c[1][1])

    def launch_sizes(self: Any, c: list) -> tuple:
        return ("sizes", [x for x in c if isinstance(x, tuple)], self.span_of(c[0], c[-1]))

    def ssa_triple(self: Any, c: list) -> tuple:
        return ("triple", [(str(x), self.sp(x)) for x in c if is_tok(x, "SSA_ID")], self.span_of(c[0], c[-1]))

    def launch_dsm(self: Any, c: list) -> tuple:
        return ("dsm", (str(c[0]), self.sp(c[0])))

    def launch_module(self: Any, c: list) -> tuple:
        return ("module", SymbolRefAttr(str(c[2]), self.sp(c[2])))

    def launch_function(self: Any, c: list) -> tuple:
        return ("function", SymbolRefAttr(str(c[1]), self.sp(c[1])))

    def gpu_async(self: Any, c: list) -> tuple:
        return ("async", list(next((x for x in c if isinstance(x, Ops)), [])), self.span_of(c[0], c[-1]))

    def gpu_workgroup(self: Any, c: list) -> tuple:
        return ("workgroup", c[0])

    def gpu_private(self: Any, c: list) -> tuple:
        return ("private", c[0])

    def gpu_attributions(self: Any, c: list) -> list:
        return [x for x in c if isinstance(x, tuple)]

    def gpu_attribution(self: Any, c: list) -> tuple:
        return (str(c[0]), self.sp(c[0]), c[2])

    def launch_args(self: Any, c: list) -> tuple:
        return ("args", [x for x in c if isinstance(x, tuple)], self.span_of(c[0], c[-1]))

    def gpu_launch_func(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "gpu.launch_func")
        deps: list = []
        is_async = False
        triples: list[list] = []
        dsm: list = []
        args: list = []
        dim_type: Type = INDEX
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "async":
                is_async, deps = True, x[1]
            elif is_tok(x, "SYMBOL_REF"):
                op.attrs["kernel"] = SymbolRefAttr(str(x), self.sp(x))
            elif isinstance(x, tuple) and x[0] == "triple":
                triples.append(x[1])
            elif isinstance(x, tuple) and x[0] == "dsm":
                dsm = [x[1]]
            elif isinstance(x, tuple) and x[0] == "args":
                args = x[1]
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
            elif isinstance(x, Type):
                dim_type = x
        clusters = triples[0] if len(triples) == 3 else []
        grid, block = triples[-2], triples[-1]
        groups = [deps] + [[v] for v in grid + block] + ([[v] for v in clusters] if clusters else [[], [], []])
        groups += [dsm, [(n, s) for n, s, _ in args], []]
        op.operands = [o for g in groups for o in g]
        op.segments = tuple(len(g) for g in groups)
        op.operand_types = [ASYNC_TOKEN] * len(deps) + [dim_type] * (len(grid) + len(block) + len(clusters)) + [I32] * len(dsm) + [t for _, _, t in args]
        op.result_types = [ASYNC_TOKEN] if is_async else []
        return op

    def gpu_wait(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "gpu.wait")
        op.result_types = []
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "async":
                op.operands = list(x[1])
                op.result_types = [ASYNC_TOKEN]
            elif isinstance(x, Ops):
                op.operands = list(x)
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.operand_types = [ASYNC_TOKEN] * len(op.operands)
        return op

    def gpu_dim(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c)
        op.attrs["dimension"] = OpaqueAttr(f"#gpu<dim {c[1]}>", None, self.sp(c[1]))
        for x in c[2:]:
            if is_tok(x, "INT"):
                op.attrs["upper_bound"] = IntegerAttr(int(str(x)), INDEX, self.sp(x))
            elif isinstance(x, DictAttr):
                op.attrs.update(x.entries)
        op.result_types = [INDEX]
        return op

    def gpu_nullary(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c)
        if len(c) > 1:
            op.attrs.update(c[1].entries)
        op.result_types = []
        return op

    def gpu_return(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c)
        self._simple_operands(op, c[1:])
        op.result_types = []
        return op

    def gpu_module(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "gpu.module")
        targets: list[Attribute] = []
        for x in c[1:]:
            if is_tok(x, "SYMBOL_REF"):
                op.attrs["sym_name"] = StringAttr(unquote(str(x)[1:]), str(x), self.sp(x))
            elif isinstance(x, RegionSyn):
                op.regions = [x]
            elif isinstance(x, DictAttr) and _after_attributes_kw(c, x):
                op.attrs.update(x.entries)
            elif isinstance(x, Attribute):
                targets.append(x)
        if targets:
            op.attrs["targets"] = ArrayAttr(targets)
        op.result_types = []
        return op

    def gpu_func(self: Any, c: list) -> OpSyn:
        op = self._op(c[0], c, "gpu.func")
        workgroup: list = []
        private: list = []
        for x in c[1:]:
            if isinstance(x, tuple) and x[0] == "workgroup":
                workgroup = x[1]
            elif isinstance(x, tuple) and x[0] == "private":
                private = x[1]
            elif is_tok(x, "GPU_KERNEL_KW"):
                op.attrs["gpu.kernel"] = UnitAttr(self.sp(x))
        self._function_parts(op, [x for x in c[1:] if not (isinstance(x, tuple) and x[0] in ("workgroup", "private"))], workgroup + private)
        op.attrs["workgroup_attributions"] = IntegerAttr(len(workgroup), I64)
        return op


def _after_attributes_kw(c: list, x: Any) -> bool:
    """Whether the attribute dictionary ``x`` follows ``attributes``."""
    i = next(i for i, y in enumerate(c) if y is x)
    return i > 0 and is_tok(c[i - 1], "ATTRIBUTES_KW")
