"""What a transformation is predicted to do to speed: the one record every
transformation offered as an optimization fills in, and the one place that
words it for a code action title, a hover or a CLI remark.

A transformation module computes the prediction with its own cost model
(fusion: redundant computation and memory traffic; vectorization: stride,
masks and what LLVM would do on the scalar code; tiling and interchange:
footprint and reuse); the editor and the CLI only read this record:

* :attr:`Prediction.profitable` False: a legal rewrite predicted to slow the
  code down (or to gain nothing). The code action is listed last and its
  title says so; ``--all`` skips it unless ``--force``.
* :attr:`Prediction.summary`: a few words for the title
  (``"tmp no longer written to memory; compute +0%"``).
* :attr:`Prediction.reason`: one sentence for hovers and ``--explain``.
* :attr:`Prediction.work_ratio`: dynamic operations after / before, when the
  model counts them (``> 1``: recomputation).
* :attr:`Prediction.speedup`: the model's predicted speedup, when it has one.
* :attr:`Prediction.unchanged`: the rewrite would leave the code as it is
  (e.g. isl's scheduler keeps the original order): worded "already
  optimal", never as a slowdown.

A relative change of a cost (compute, storage) is worded one way on every
surface, :func:`change`: ``"storage -40%"``, ``"compute +0%"``. A rewrite
predicted ~1.0x (:data:`NO_GAIN`) is legal and not slower, but not
preferred: :attr:`Prediction.gains` is false, its title says "no predicted
gain", and :func:`rank` lists it with the rewrites without prediction.
"""

from __future__ import annotations

from dataclasses import dataclass

NO_GAIN = 1.05
"""A predicted speedup below it (shown "~1.0x") is no gain."""


def percent(fraction: float) -> str:
    """A relative change as a whole signed percentage: ``-0.397`` is ``"-40%"``."""
    return f"{round(100.0 * fraction) + 0:+d}%"


def change(what: str, fraction: float) -> str:
    """The one wording of a relative change of a cost: ``change("storage",
    -0.397)`` is ``"storage -40%"`` (a table column named ``what`` holds
    :func:`percent` alone)."""
    return f"{what} {percent(fraction)}"


@dataclass(frozen=True, slots=True)
class Prediction:
    profitable: bool
    summary: str
    reason: str = ""
    work_ratio: float | None = None
    speedup: float | None = None
    unchanged: bool = False

    def title_suffix(self) -> str:
        """What a code action title gains: ``" (~1.8x faster: ...)"``,
        ``" (not profitable: ...)"``."""
        if self.unchanged:
            return f" (already optimal: {self.summary})"
        if not self.profitable:
            return f" (not profitable: {self.summary})"
        if not self.gains:
            return f" (no predicted gain, ~1.0x: {self.summary})"
        if self.speedup is not None:
            return f" (~{self.speedup:.1f}x faster: {self.summary})"
        return f" ({self.summary})" if self.summary else ""

    @property
    def gains(self) -> bool:
        """Predicted faster by more than :data:`NO_GAIN` (or profitable
        without a figure): the action the editor may mark preferred."""
        return self.profitable and (self.speedup is None or self.speedup >= NO_GAIN)

    def markdown(self) -> str:
        """A line for hovers and action details."""
        if self.unchanged:
            return f"Already optimal: {self.summary}." + (f" {self.reason}" if self.reason else "")
        head = "Predicted: " + ("faster" if self.profitable else "not profitable")
        if self.speedup is not None:
            head += f", ~{self.speedup:.2f}x"
        if self.work_ratio is not None:
            head += ", " + change("compute", self.work_ratio - 1)
        body = self.reason or self.summary
        return f"{head}. {body}" if body else head + "."

    def as_json(self) -> dict[str, object]:
        return {
            "profitable": self.profitable,
            "summary": self.summary,
            "reason": self.reason,
            "work_ratio": self.work_ratio,
            "speedup": self.speedup,
            "unchanged": self.unchanged,
        }


def no_prediction(why: str) -> str:
    """What a code action title gains when its model cannot predict:
    ``" (no prediction: <why>)"``."""
    return f" (no prediction: {why})"


def rank(prediction: Prediction | None) -> int:
    """Sort key: predicted faster first, no prediction (or no predicted
    gain) next, unprofitable last."""
    if prediction is None:
        return 1
    return 0 if prediction.gains else 1 if prediction.profitable else 2


def remark(prediction: Prediction | None, why_none: str = "") -> str:
    """The words a CLI remark ends with: ``"predicted: <summary>"``,
    ``"predicted not profitable: <summary>"`` or ``"no prediction"``."""
    if prediction is None:
        return "no prediction" + (f" ({why_none})" if why_none else "")
    if prediction.unchanged:
        return "already optimal: " + prediction.summary
    return ("predicted: " if prediction.profitable else "predicted not profitable: ") + prediction.summary
