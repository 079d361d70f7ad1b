"""The one registry of loop transformations: one :class:`Transformation`
record each, which feeds the code actions (``server/transform_actions.py``),
the "Transformations" part of the loop hover (``loop_verdicts.py``) and the
CLI subcommands (``cli.py``, through ``commands/transformation.py``).

A record holds names, import paths and argument specs, never an imported
module: ``cli.build_parser`` reads it for ``--help`` without importing any
transformation (start-up stays cheap). The functions it names live in the
transformation's module (``affine_lsp/transforms/<x>.py``):

* ``actions(doc, loop, *settings)``: the code actions at an ``affine.for``
  (applicability, legality, the ``Prediction``, the edits through
  ``edits.checked()``), a list of ``Transform`` (a disabled one says why);
* ``verdicts(loop)``: the hover's ``loop_verdicts.Verdict`` list;
* ``rewrite(args)``: for the CLI, the parsed options → a function
  ``(text, lines) -> (new text, LoopOutcome list)`` (``lines``: the
  ``--loop`` lines, None for ``--all``); it raises :class:`OptionError` for
  an option value it cannot use.

Adding a transformation is its module plus one line in
:data:`TRANSFORMATIONS` (see "How to add a transformation" in
docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Mapping


class OptionError(ValueError):
    """An option value a transformation cannot use: a usage error (status
    2), or with ``status=1`` an error of the input's command
    (``FILE: error: MESSAGE``)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class Option:
    """One CLI option: ``argparse``'s ``add_argument(*flags, **kwargs)``;
    options of the same nonzero ``group`` are mutually exclusive."""

    __slots__ = ("flags", "group", "kwargs")

    def __init__(self, flags: tuple[str, ...], kwargs: Mapping[str, object], group: int = 0) -> None:
        self.flags = flags
        self.kwargs = kwargs
        self.group = group


def option(*flags: str, group: int = 0, **kwargs: object) -> Option:
    return Option(flags, kwargs, group)


class ActionSettings:
    """The server settings a code action may read (named in
    :attr:`Transformation.settings`)."""

    __slots__ = ("tile_sizes", "vf")

    def __init__(self, vf: int = 8, tile_sizes: tuple[int, ...] = (32,)) -> None:
        self.vf = vf
        self.tile_sizes = tile_sizes


class Transformation:
    """One loop transformation, everything each front end needs of it.

    (Plain classes, not dataclasses or named tuples: ``--help`` reads the
    registry, and those would cost it ``inspect`` or an ``exec`` per class.)"""

    __slots__ = (
        "actions",
        "any_loop",
        "command",
        "help",
        "menu",
        "module",
        "one_action",
        "name",
        "options",
        "pairs",
        "reports_every_loop",
        "rewrite",
        "settings",
        "timeout",
        "title",
        "verb",
        "verdicts",
    )

    def __init__(
        self,
        name: str,
        title: str,
        module: str,
        help: str,
        *,
        actions: str | None = None,
        settings: tuple[str, ...] = (),
        pairs: bool = False,
        any_loop: bool = False,
        verdicts: str | None = None,
        rewrite: str | None = None,
        verb: str = "",
        options: tuple[Option, ...] = (),
        command: str | None = None,
        reports_every_loop: bool = False,
        timeout: float | None = None,
        menu: str = "",
        one_action: bool = False,
    ) -> None:
        self.name = name
        """The CLI subcommand (``unroll-jam``)."""
        self.title = title
        """What it is called in the logs (``unroll-and-jam``)."""
        self.module = module
        """The import path of its module."""
        self.help = help
        """The subcommand's one-line help."""
        self.actions = actions
        """Its code-action function, ``(doc, loop, *settings)``."""
        self.settings = settings
        """The :class:`ActionSettings` fields passed to ``actions``, in order."""
        self.pairs = pairs
        """``actions(doc, first, second)`` is also offered on two selected loops."""
        self.any_loop = any_loop
        """Offered also on a loop the parser only half read (``nest_is_well_formed`` false)."""
        self.verdicts = verdicts
        """Its loop-hover function, ``(loop) -> list[Verdict]``."""
        self.rewrite = rewrite
        """Its CLI function, ``(args) -> (text, lines) -> (text, outcomes)``."""
        self.verb = verb
        """The verb of its CLI messages (default: ``name``)."""
        self.options = options
        """Its CLI options, after the common ones (``FILE``, ``--loop``, ``--all``, ``-v``, ``-o``)."""
        self.menu = menu
        """Its code action's title before its legality and prediction are known
        (the editor's menu entry while they are computed)."""
        self.one_action = one_action
        """The editor offers one of its ``actions``, the best ranked (the
        model's pick: e.g. one vector width), not every variant."""
        self.command = command
        """A CLI module of its own (``add_arguments``, ``run``) instead of ``rewrite`` and ``options``."""
        self.reports_every_loop = reports_every_loop
        """The CLI says what it did with every loop it considered, without ``-v`` (optimize: one line per nest)."""
        self.timeout = timeout
        """The default of its CLI command's ``--timeout S`` (None: no such option)."""

    @property
    def cli_verb(self) -> str:
        return self.verb or self.name

    def __repr__(self) -> str:
        return f"Transformation({self.name!r}, module={self.module!r})"


def _force(what: str) -> Option:
    return option("--force", action="store_true", help=what)


TRANSFORMATIONS: tuple[Transformation, ...] = (
    Transformation(
        "fuse",
        "fusion",
        "affine_lsp.transforms.fusion",
        "fuse affine loop nests",
        menu="Fuse loops here",
        actions="fusion_actions",
        pairs=True,
        any_loop=True,
        command="affine_lsp.commands.fuse",
    ),
    Transformation(
        "vectorize",
        "vectorization",
        "affine_lsp.transforms.vectorize",
        "vectorize affine loops",
        menu="Vectorize loop",
        actions="vectorize_candidates",
        one_action=True,
        settings=("vf",),
        any_loop=True,
        rewrite="vectorize_rewrite",
        options=(
            option("--vf", type=int, default=8, metavar="N", help="vector width (default 8)"),
            option("--no-reductions", action="store_true", help="do not vectorize loops carrying reductions (iter_args)"),
            _force("with --all, also vectorize the loops predicted not to make the code faster"),
            option(
                "--fastest-only", action="store_true", help="with --all, only loops running along the fastest-varying memref dimension (test-fastest-varying=0)"
            ),
        ),
    ),
    Transformation(
        "parallelize",
        "parallelization",
        "affine_lsp.transforms.parallelize",
        "turn affine.for loops without carried dependences into affine.parallel",
        menu="Parallelize loop",
        actions="parallelize_candidates",
        any_loop=True,
        rewrite="parallelize_rewrite",
        options=(
            option("--max-nested", type=int, default=None, metavar="N", help="at most N nested affine.parallel ops (like max-nested)"),
            _force("with --all, also parallelize the loops without a prediction (all of them: affine.parallel runs sequentially unless lowered to threads)"),
        ),
    ),
    Transformation(
        "tile",
        "tiling",
        "affine_lsp.transforms.tile",
        "tile perfect affine loop bands (skew first with --skew), when legal",
        menu="Tile loop nest",
        actions="tile_candidates",
        settings=("tile_sizes",),
        verdicts="tile_verdicts",
        rewrite="tile_rewrite",
        options=(
            option(
                "--sizes",
                default="32",
                metavar="N,N,...",
                help="tile sizes, outermost first; the last one repeats (default 32); 'auto': per band, the largest square tiles whose footprint fits in the L1 data cache",
            ),
            _force("with --all, also tile the bands predicted unprofitable (data already in cache)"),
            option("--skew", action="store_true", help="skew a band that is not fully permutable when a skew makes it so, then tile it"),
        ),
    ),
    Transformation(
        "interchange",
        "interchange",
        "affine_lsp.transforms.interchange",
        "permute the loops of perfect affine bands (for locality by default), when legal",
        menu="Interchange loops",
        actions="interchange_candidates",
        verdicts="interchange_verdicts",
        rewrite="interchange_rewrite",
        options=(option("--order", default=None, metavar="P,P,...", help="with --loop: the new loop order as original positions, outermost first (e.g. 1,0)"),),
    ),
    Transformation(
        "unroll",
        "unrolling",
        "affine_lsp.transforms.unroll",
        "unroll affine.for loops by a factor or fully",
        menu="Unroll loop",
        actions="unroll_candidates",
        verdicts="unroll_verdicts",
        rewrite="unroll_rewrite",
        options=(
            option("--factor", group=1, type=int, default=4, metavar="N", help="unroll factor (default 4)"),
            option("--full", group=1, action="store_true", help="unroll completely (constant trip counts up to 16)"),
        ),
    ),
    Transformation(
        "unroll-jam",
        "unroll-and-jam",
        "affine_lsp.transforms.unroll_jam",
        "unroll-and-jam outer affine.for loops (when no dependence is reversed)",
        menu="Unroll and jam loop",
        actions="unroll_jam_candidates",
        verdicts="unroll_jam_verdicts",
        rewrite="unroll_jam_rewrite",
        verb="unroll and jam",
        options=(
            option("--factor", type=int, default=2, metavar="N", help="unroll-jam factor (default 2)"),
            _force("with --all, also the loops predicted unprofitable (no load shared between the copies)"),
        ),
    ),
    Transformation(
        "hoist",
        "hoisting",
        "affine_lsp.transforms.hoist",
        "hoist loop-invariant code out of affine.for loops",
        menu="Hoist loop-invariant code",
        actions="hoist_candidates",
        verdicts="hoist_verdicts",
        rewrite="hoist_rewrite",
    ),
    Transformation(
        "scalar-replace",
        "scalar replacement",
        "affine_lsp.transforms.scalrep",
        "forward stores to loads and remove redundant loads (like -affine-scalrep)",
        menu="Scalar-replace loads",
        actions="scalrep_candidates",
        verdicts="scalrep_verdicts",
        rewrite="scalrep_rewrite",
    ),
    Transformation(
        "optimize",
        "optimization",
        "affine_lsp.transforms.optimize",
        "reschedule (isl's scheduler), tile and regenerate affine loop nests for speed",
        menu="Optimize loop nest",
        actions="optimize_candidates",
        rewrite="optimize_rewrite",
        reports_every_loop=True,
        timeout=60.0,
        options=(
            option("--func", action="append", metavar="NAME", help="optimize the top-level nests of function NAME together (repeatable)"),
            option(
                "--tile",
                type=int,
                default=None,
                metavar="N",
                help="tile the permutable bands with reuse by N (1: no tiling); default: 32, only where the reused data exceeds half the L2 cache",
            ),
            option("--parallel", action="store_true", help="turn the outermost parallel loops of the result into affine.parallel"),
            option("--explain", action="store_true", help="print the new schedule, its parallel and vector loops and the prediction on standard error"),
            option("--no-compose", action="store_true", help="the schedule alone: no unroll-and-jam or vectorization of the result"),
            option(
                "--budget",
                type=float,
                default=None,
                metavar="SECONDS",
                help="seconds the composition of one group of nests may take (default 2): past it, the best composition found so far",
            ),
            _force("emit the new schedule even when it is predicted to gain nothing"),
        ),
    ),
)
"""Every transformation, in the order of the code actions and the hover."""


def parse_ints(text: str) -> list[int]:
    """An option's list of integers: ``32,32`` or ``32x32`` → ``[32, 32]``
    (ValueError on a non-integer)."""
    return [int(x) for x in text.replace("x", ",").split(",") if x.strip()]


def by_name(name: str) -> Transformation | None:
    return next((t for t in TRANSFORMATIONS if t.name == name), None)
