"""Vectorize loop: legality and the plan (which value becomes what).

Vectorizing an ``affine.for`` ``L`` (IV ``%i``, step ``s``) by ``N`` runs ``N``
consecutive iterations at once: ``L`` steps by ``s * N`` and lane ``k`` of a
vector iteration is the original iteration ``%i + k * s``. Every value
inside ``L`` gets one of three kinds:

* **uniform** -- the same in every lane (defined outside ``L``, inner loop
  IVs, constants, loads whose indices do not depend on ``%i``, pure ops on
  uniform values): it stays a scalar op, written as it was, and is
  ``vector.broadcast`` where a vector op needs it;
* **linear** -- ``%i`` itself and ``affine.apply`` results that depend on it:
  the scalar holds lane 0's value and lanes differ by a constant stride; used
  as memory indices, or materialised as ``broadcast + [0, st, 2st, ...]``;
* **vector** -- one value per lane: loads contiguous along ``%i``, ops on
  vector operands, the reductions of ``L`` and the ``iter_args`` of inner
  loops that carry vector values (outer-loop vectorization: each lane runs
  its own inner-loop recurrence).

Legality, each with the reason shown in a disabled code action:

* every ``iter_args`` value of ``L`` is a recognised reduction
  (:func:`~affine_lsp.transforms.parallelize.match_reduction`: add, mul,
  min, max, and, or, xor; float and integer) -- when reductions are enabled;
* every memory access is **invariant** along ``%i`` or **contiguous**: the
  composed index (through ``affine.apply`` chains) varies in exactly one
  memref dimension with a per-lane stride of exactly 1 -- so a step-2 loop
  over ``A[%i]`` or ``A[2 * %i]`` is refused (MLIR 22.1.8 treats both as
  contiguous, llvm-project#225247); the dimension need not be the fastest
  varying one (the transfer then has a ``permutation_map``);
* no dependence carried by ``L`` is broken by running ``N`` iterations in
  lock step: a carried dependence is kept when its source op comes before
  its destination op in ``L``'s body (every lane of the source runs first),
  or when its distance is at least ``N * s`` iterations (never in one
  vector iteration); anything else (and any dependence the engine cannot
  rule out) refuses;
* only ``affine.load/store/apply/min/max/for/yield``, ``arith``/``math``
  element-wise ops and pure uniform ops appear in ``L``; no ``affine.if``, no
  ops with regions, no vector ops, no calls; inner loop bounds do not depend
  on ``%i``; element types are integers, floats or ``index``.

A trip count that is not provably a multiple of ``N`` gets a scalar
remainder loop: the vector loop stops at the last whole vector and the
original loop runs the rest (its reductions start from the vector loop's).
Only when that split point cannot be written as a bound (a lower bound that
is a ``max`` or an upper bound that is a ``min`` of several expressions) is
the vector loop masked instead:
a mask (``vector.create_mask`` of the remaining iteration count) on every transfer,
on the reductions' inputs (``arith.select`` with the neutral element) and on
integer divisors (``arith.select`` with 1) -- MLIR 22.1.8 masks only the
reductions, so its last vector writes past the loop's range
(llvm-project#218120).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from affine_lsp.ir import op_traits
from affine_lsp.ir.affine_expr import AffineExpr, AffineMap, dim
from affine_lsp.ir.affine_ops import Access, ForView, access_of
from affine_lsp.ir.attributes import AffineMapAttr
from affine_lsp.ir.core import Block, BlockArgument, Operation, OpResult, Value
from affine_lsp.ir.types import FloatType, IndexType, IntegerType, MemRefType, Type
from affine_lsp.transforms.parallelize import Reduction, describe_dependence, loop_reductions

UNIFORM = "uniform"
LINEAR = "linear"
VECTOR = "vector"

DIVISIONS = frozenset({"arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi"})


class Rejected(Exception):
    """The loop cannot be vectorized; ``reason`` says why."""

    def __init__(self, reason: str, op: Operation | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.op = op


class _Restart(Exception):
    """An inner loop's iter_args value turned out to carry vectors."""


def scalar_vectorizable(t: Type | None) -> bool:
    return isinstance(t, IndexType | IntegerType) or (isinstance(t, FloatType) and t.kind in ("f16", "bf16", "f32", "f64"))


@dataclass(frozen=True, slots=True)
class AccessInfo:
    op: Operation
    access: Access
    dim: int | None  # the memref dimension that varies along the loop; None: invariant

    @property
    def contiguous(self) -> bool:
        return self.dim is not None

    @property
    def rank(self) -> int:
        return self.access.map.num_results

    @property
    def fastest(self) -> bool:
        return self.dim == self.rank - 1


@dataclass
class VectorPlan:
    loop: Operation
    vf: int
    step: int  # the original step
    kinds: dict[Value, str] = field(default_factory=dict)
    lane_stride: dict[Value, int] = field(default_factory=dict)  # linear values: stride between lanes
    accesses: dict[Operation, AccessInfo] = field(default_factory=dict)
    reductions: list[Reduction] = field(default_factory=list)
    vector_args: set[BlockArgument] = field(default_factory=set)  # inner loops' iter_args carrying vectors
    rewritten: set[Operation] = field(default_factory=set)  # ops whose text changes
    need_bcast: set[Value] = field(default_factory=set)  # uniform values used by vector ops
    need_lanes: set[Value] = field(default_factory=set)  # linear values used by vector ops
    trip_count: int | None = None
    mask: bool = False  # every transfer masked (a bound is a max/min of several expressions and the trip count is not a known multiple)
    remainder: bool = False  # a main vector loop over the whole vectors, then the scalar loop over the rest
    in_bounds: set[Operation] = field(default_factory=set)  # accesses whose transfers are proven in bounds
    kept_dependences: list[str] = field(default_factory=list)

    def kind(self, v: Value) -> str:
        return self.kinds.get(v, UNIFORM)

    @property
    def new_step(self) -> int:
        return self.step * self.vf

    @property
    def tier(self) -> int:
        """0: every contiguous access runs along the fastest-varying memref
        dimension; 1: all along the same dimension counted from the end
        (MLIR's ``memRefDim``); 2: along different dimensions."""
        dims = {a.rank - 1 - a.dim for a in self.accesses.values() if a.dim is not None}
        if dims <= {0}:
            return 0
        return 1 if len(dims) == 1 else 2

    def describe(self) -> str:
        """Markdown: what the rewrite does and why it is legal."""
        parts = [f"- steps by {self.new_step} (VF={self.vf})"]
        if self.trip_count is not None:
            note = " (not a multiple of the width: masked)" if self.mask else " (not a multiple of the width: scalar remainder loop)" if self.remainder else ""
            parts.append(f"- trip count {self.trip_count}{note}")
        elif self.mask:
            parts.append("- trip count unknown: the transfers and reductions are masked")
        elif self.remainder:
            parts.append("- trip count unknown: a vector loop over the whole vectors, then a scalar remainder loop")
        cont = [a for a in self.accesses.values() if a.contiguous]
        inv = [a for a in self.accesses.values() if not a.contiguous]
        if cont:
            parts.append(
                "- vector transfers: "
                + ", ".join(
                    f"`{a.op.name}` on {a.access.memref.name}"
                    + ("" if a.fastest else f" (dim {a.dim}, permutation_map)")
                    + (" (in bounds)" if a.op in self.in_bounds else "")
                    for a in cont
                )
            )
        if inv:
            parts.append("- invariant (broadcast): " + ", ".join(f"`{a.op.name}` on {a.access.memref.name}" for a in inv))
        for r in self.reductions:
            parts.append(f"- reduction {r.iter_arg.name}: `{r.combiner.name}` -> vector accumulator + `vector.reduction <{r.kind.vector}>`")
        if self.vector_args:
            parts.append("- inner loop iter_args carried as vectors: " + ", ".join(sorted(a.name for a in self.vector_args)))
        if self.kept_dependences:
            parts.append("- carried dependences preserved by lock-step order: " + "; ".join(self.kept_dependences))
        else:
            parts.append("- no dependence is carried by the loop")
        return "\n".join(parts)


class _Linear:
    """Index expressions of a loop body over "leaf" values (composed through
    ``affine.apply`` ops inside the loop), and their stride along the IV."""

    def __init__(self, loop: Operation, iv: Value) -> None:
        self.loop = loop
        self.iv = iv
        self.leaves: dict[Value, int] = {}
        self.cache: dict[Value, AffineExpr] = {}

    def _leaf(self, v: Value) -> AffineExpr:
        pos = self.leaves.setdefault(v, len(self.leaves))
        return dim(pos)

    def expr(self, v: Value) -> AffineExpr:
        got = self.cache.get(v)
        if got is not None:
            return got
        owner = v.defining_op if isinstance(v, OpResult) else None
        if owner is not None and owner.name == "affine.apply" and self.loop.is_ancestor_of(owner):
            m = _map(owner)
            if m is not None and m.num_results == 1:
                subs = [self.expr(o) for o in owner.operands]
                e = m.results[0].replace(subs[: m.num_dims], subs[m.num_dims :])
            else:
                e = self._leaf(v)
        else:
            e = self._leaf(v)
        self.cache[v] = e
        return e

    def map_results(self, m: AffineMap, operands: list[Value] | tuple[Value, ...]) -> list[AffineExpr]:
        subs = [self.expr(o) for o in operands]
        return [r.replace(subs[: m.num_dims], subs[m.num_dims :]) for r in m.results]

    def stride(self, e: AffineExpr) -> int | None:
        """``e(iv + 1) - e(iv)`` when it is a constant (None otherwise)."""
        pos = self.leaves.get(self.iv)
        if pos is None or not e.uses_dim(pos):
            return 0
        n = max(len(self.leaves), e.max_dim() + 1)
        shifted = [dim(k) for k in range(n)]
        shifted[pos] = dim(pos) + 1
        d = (e.replace(shifted, []) - e).simplify()
        return d.value if d.is_constant() else None  # type: ignore[attr-defined]


def _map(op: Operation, key: str = "map") -> AffineMap | None:
    a = op.attributes.get(key)
    return a.map if isinstance(a, AffineMapAttr) else None


def trip_count(loop: Operation) -> int | None:
    """The constant trip count of an ``affine.for``, also when the bounds are
    symbolic with a constant difference (``%j to %j + 16``)."""
    f = ForView(loop)
    got = f.constant_trip_count()
    if got is not None:
        return got
    lo, up = f.lower, f.upper
    if lo.map.num_results != 1 or up.map.num_results != 1:
        return None
    leaves: dict[Value, int] = {}

    def over_leaves(m: AffineMap, ops: tuple[Value, ...]) -> AffineExpr:
        subs = [dim(leaves.setdefault(o, len(leaves))) for o in ops]
        return m.results[0].replace(subs[: m.num_dims], subs[m.num_dims :])

    d = (over_leaves(up.map, up.operands) - over_leaves(lo.map, lo.operands)).simplify()
    if not d.is_constant():
        return None
    diff = d.value  # type: ignore[attr-defined]
    return max(0, -(-diff // f.step))


def _body_ancestor(body: Block, op: Operation) -> Operation | None:
    """The op of ``body`` that is or contains ``op``."""
    cur: Operation | None = op
    while cur is not None and cur.parent is not body:
        cur = cur.parent_op
    return cur


class _Analyzer:
    def __init__(self, loop: Operation, vf: int, reductions: bool) -> None:
        self.loop = loop
        self.f = ForView(loop)
        self.vf = vf
        self.allow_reductions = reductions
        iv = self.f.iv
        assert iv is not None
        self.iv = iv
        self.lin = _Linear(loop, iv)

    # ---------------------------------------------------------- entry point
    def run(self) -> VectorPlan:
        loop, f = self.loop, self.f
        if f.body is None:
            raise Rejected("the loop has no body")
        if f.step <= 0:
            raise Rejected("the loop step is not positive")
        reds: list[Reduction] = []
        if f.inits:
            if not self.allow_reductions:
                raise Rejected("the loop carries values (iter_args) and reduction vectorization is disabled")
            reds, bad = loop_reductions(loop)
            if bad:
                raise Rejected(bad[0])
            for r in reds:
                if not scalar_vectorizable(r.type):
                    raise Rejected(f"the reduction of {r.iter_arg.name} has type {r.type}, which cannot be a vector element")
                if neutral_literal(r) is None:
                    raise Rejected(f"no neutral element for the '{r.combiner.name}' reduction on {r.type}")
        varying: set[BlockArgument] = set()
        for _ in range(64):
            plan = VectorPlan(loop, self.vf, f.step, reductions=reds, vector_args=set(varying))
            try:
                self._classify(plan)
            except _Restart:
                varying = plan.vector_args
                continue
            break
        else:  # pragma: no cover - the set only grows, bounded by the iter_args
            raise Rejected("inner loop iter_args did not settle")
        self._dependences(plan)
        tc = trip_count(loop)
        plan.trip_count = tc
        if tc is None or tc % self.vf != 0:
            if f.lower.map.num_results == 1 and f.upper.map.num_results == 1:
                plan.remainder = True
            else:
                plan.mask = True
        if not plan.mask:
            self._in_bounds(plan)
        return plan

    def _in_bounds(self, plan: VectorPlan) -> None:
        """The transfers whose vector lies inside the memref at every
        iteration. Without a mask, the lanes of a vector iteration are
        original iterations (the main loop stops at the last whole vector),
        so a transfer's elements are those its scalar access touches in
        them: the polyhedral proof that the scalar access stays inside the
        memref for every iteration proves the transfer ``in_bounds``."""
        from affine_lsp.analysis import access_in_bounds

        for op, info in plan.accesses.items():
            if info.contiguous and access_in_bounds(op):
                plan.in_bounds.add(op)

    # ---------------------------------------------------------- classification
    def _classify(self, plan: VectorPlan) -> None:
        self.plan = plan
        plan.kinds[self.iv] = LINEAR
        plan.lane_stride[self.iv] = plan.step
        for r in plan.reductions:
            plan.kinds[r.iter_arg] = VECTOR
        body = self.f.body
        assert body is not None
        self._block(body)
        plan.rewritten.add(self.loop)

    def _use(self, v: Value) -> None:
        """``v`` is an operand of a vector op (or stored by a vector store)."""
        k = self.plan.kind(v)
        if k == UNIFORM:
            if not scalar_vectorizable(v.type):
                raise Rejected(f"{v.name} of type {v.type} would have to be broadcast to a vector")
            self.plan.need_bcast.add(v)
        elif k == LINEAR:
            st = self._stride_of(v)
            self.plan.lane_stride[v] = st
            self.plan.need_lanes.add(v)

    def _stride_of(self, v: Value) -> int:
        st = self.lin.stride(self.lin.expr(v))
        if st is None:
            raise Rejected(f"{v.name} is not an affine function of {self.iv.name} with a constant stride")
        return st * self.plan.step

    def _block(self, block: Block) -> bool:
        """Classify ``block``'s ops; True when some op in it is rewritten."""
        changed = False
        for op in block.operations:
            if op.name == "affine.yield":
                continue
            self._op(op)
            if op in self.plan.rewritten:
                changed = True
        return changed

    def _op(self, op: Operation) -> None:
        plan = self.plan
        name = op.name
        kinds = [plan.kind(v) for v in op.operands]
        if not op.known:
            raise Rejected(f"'{name}' (unknown syntax) cannot be vectorized", op)
        if name == "affine.for":
            self._inner_loop(op)
            return
        if name == "affine.if":
            raise Rejected("the loop body contains an 'affine.if' (conditionals are not vectorized)", op)
        if op.regions:
            raise Rejected(f"the loop body contains '{name}', an op with regions", op)
        if name in ("affine.load", "affine.store"):
            self._access(op)
            return
        if name == "affine.apply":
            if VECTOR in kinds:
                raise Rejected(f"'affine.apply' on a vector value {op.operands[kinds.index(VECTOR)].name}", op)
            plan.kinds[op.results[0]] = LINEAR if LINEAR in kinds else UNIFORM
            return
        if name in ("affine.vector_load", "affine.vector_store") or name.startswith("vector."):
            raise Rejected(f"the loop already contains vector code ('{name}')", op)
        if name == "arith.constant":
            return
        effect_free = op_traits.is_memory_effect_free(name)
        if all(k == UNIFORM for k in kinds) and effect_free:
            return  # a scalar op computing the same value in every lane
        if effect_free and op.dialect not in ("arith", "math"):
            raise Rejected(f"'{name}' depends on {self.iv.name}: only memory indices may", op)
        if op.dialect not in ("arith", "math"):
            raise Rejected(f"'{name}' cannot be vectorized", op)
        if len(op.results) != 1:
            raise Rejected(f"'{name}' has {len(op.results)} results", op)
        for v in [*op.operands, *op.results]:
            if not scalar_vectorizable(v.type):
                raise Rejected(f"'{name}' works on {v.type}, which cannot be a vector element", op)
        for i, v in enumerate(op.operands):
            if name == "arith.select" and i == 0 and kinds[0] == UNIFORM:
                continue  # a scalar condition selects whole vectors
            self._use(v)
        plan.kinds[op.results[0]] = VECTOR
        plan.rewritten.add(op)

    def _inner_loop(self, op: Operation) -> None:
        plan = self.plan
        f = ForView(op)
        for v in [*f.lower.operands, *f.upper.operands]:
            if plan.kind(v) != UNIFORM:
                raise Rejected(f"the bounds of an inner loop depend on {self.iv.name}", op)
        if f.iv is not None:
            plan.kinds[f.iv] = UNIFORM
        body = f.body
        assert body is not None
        for arg, init in zip(f.iter_args, f.inits):
            if plan.kind(init) != UNIFORM and arg not in plan.vector_args:
                plan.vector_args.add(arg)
                raise _Restart
            if not scalar_vectorizable(arg.type) and arg in plan.vector_args:
                raise Rejected(f"iter_args {arg.name} of type {arg.type} cannot be a vector", op)
            plan.kinds[arg] = VECTOR if arg in plan.vector_args else UNIFORM
        changed = self._block(body)
        term = body.terminator
        yielded = list(term.operands) if term is not None and term.name == "affine.yield" else []
        for arg, v in zip(f.iter_args, yielded):
            if plan.kind(v) != UNIFORM and arg not in plan.vector_args:
                plan.vector_args.add(arg)
                raise _Restart
        vec = [a for a in f.iter_args if a in plan.vector_args]
        for arg, init, v in zip(f.iter_args, f.inits, yielded):
            if arg in plan.vector_args:
                self._use(init)
                self._use(v)
        for arg, res in zip(f.iter_args, op.results):
            plan.kinds[res] = plan.kinds[arg]
        if changed or vec:
            plan.rewritten.add(op)

    def _access(self, op: Operation) -> None:
        plan = self.plan
        acc = access_of(op)
        if acc is None:
            raise Rejected(f"'{op.name}' is not an affine access", op)
        mt = acc.memref.type
        if not isinstance(mt, MemRefType) or not scalar_vectorizable(mt.element):
            raise Rejected(f"'{op.name}' on {acc.memref.name} accesses {mt}: its elements cannot be vector elements", op)
        for v in acc.indices:
            if plan.kind(v) == VECTOR:
                raise Rejected(f"'{op.name}' on {acc.memref.name} has an index computed from vector values", op)
        exprs = self.lin.map_results(acc.map, acc.indices)
        varying: list[tuple[int, int | None]] = []
        for r, e in enumerate(exprs):
            st = self.lin.stride(e)
            if st != 0:
                varying.append((r, None if st is None else st * plan.step))
        where = f"'{op.name}' on {acc.memref.name}"
        if not varying:
            info = AccessInfo(op, acc, None)
        elif len(varying) > 1:
            raise Rejected(f"{where} varies along {self.iv.name} in {len(varying)} dimensions (not contiguous)", op)
        else:
            r, st = varying[0]
            if st is None:
                raise Rejected(f"{where}: index {r} is not an affine function of {self.iv.name} with a constant stride", op)
            if st != 1:
                raise Rejected(f"{where} is not contiguous along {self.iv.name}: consecutive iterations are {st} elements apart", op)
            info = AccessInfo(op, acc, r)
        plan.accesses[op] = info
        if acc.is_write:
            assert acc.value is not None
            if info.contiguous:
                self._use(acc.value)
                plan.rewritten.add(op)
            elif plan.kind(acc.value) != UNIFORM:
                raise Rejected(f"{where} stores a value that differs between iterations to a location that does not", op)
        else:
            res = op.results[0]
            if info.contiguous:
                plan.kinds[res] = VECTOR
                plan.rewritten.add(op)

    # ---------------------------------------------------------- dependences
    def _dependences(self, plan: VectorPlan) -> None:
        from affine_lsp.analysis import loop_summary
        from affine_lsp.analysis.dependences import DEPENDENCE
        from affine_lsp.analysis.summary import locally_defined

        for op in self.loop.walk():
            if op.known and op_traits.allocates(op.name) and op is not self.loop:
                raise Rejected(f"the loop body allocates memory ('{op.name}')", op)
            if op.name in ("affine.load", "affine.store") and locally_defined(op.operands[0 if op.name == "affine.load" else 1], self.loop):
                raise Rejected("the loop body accesses memory allocated inside it", op)
        s = loop_summary(self.loop)
        if "too many access pairs to analyse" in s.reasons:
            raise Rejected("too many access pairs to analyse the dependences")
        body = self.f.body
        assert body is not None
        limit = plan.vf * plan.step
        for r in s.carried:
            if r.status != DEPENDENCE or r.src is None or r.dst is None:
                raise Rejected(describe_dependence(r))
            a_src, a_dst = _body_ancestor(body, r.src.op), _body_ancestor(body, r.dst.op)
            if a_src is not None and a_dst is not None and a_src is not a_dst and body.operations.index(a_src) < body.operations.index(a_dst):
                plan.kept_dependences.append(f"{r.kind} from {r.src.describe()} to {r.dst.describe()} (source first)")
                continue
            k = r.depth - 1
            lo = r.components[k][0] if k < len(r.components) else None
            if lo is not None and lo >= limit:
                plan.kept_dependences.append(f"{r.kind} from {r.src.describe()} to {r.dst.describe()} (distance >= {limit})")
                continue
            raise Rejected(describe_dependence(r))


def neutral_literal(r: Reduction) -> str | None:
    """The neutral element of ``r`` as an MLIR literal of ``r``'s type."""
    t = r.type
    v = r.kind.vector
    if isinstance(t, FloatType):
        infs = {
            "f16": ("0x7C00", "0xFC00"),
            "bf16": ("0x7F80", "0xFF80"),
            "f32": ("0x7F800000", "0xFF800000"),
            "f64": ("0x7FF0000000000000", "0xFFF0000000000000"),
        }
        if v == "add":
            return "0.000000e+00"
        if v == "mul":
            return "1.000000e+00"
        if t.kind not in infs:
            return None
        if v in ("minimumf", "minnumf"):
            return infs[t.kind][0]
        if v in ("maximumf", "maxnumf"):
            return infs[t.kind][1]
        return None
    if isinstance(t, IntegerType | IndexType):
        w = t.width if isinstance(t, IntegerType) else 64
        if w == 1:  # i1: all-zero or all-one
            ones = {"mul", "and", "minui", "maxsi"}
            return "true" if v in ones else "false"
        table = {"add": 0, "or": 0, "xor": 0, "maxui": 0, "mul": 1, "and": -1, "minui": -1, "minsi": 2 ** (w - 1) - 1, "maxsi": -(2 ** (w - 1))}
        got = table.get(v)
        return None if got is None else str(got)
    return None


def analyze(loop: Operation, vf: int, reductions: bool = True) -> VectorPlan:
    """The plan for vectorizing ``loop`` by ``vf``; raises :class:`Rejected`."""
    if loop.name != "affine.for":
        raise Rejected(f"'{loop.name}' is not an affine.for")
    if vf < 2:
        raise Rejected("the vector width must be at least 2")
    return _Analyzer(loop, vf, reductions).run()
