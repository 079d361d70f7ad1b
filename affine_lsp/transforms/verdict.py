"""What a legality check answers, as a kind and not only as words: the
"Transformations" part of the loop hover (:mod:`.loop_verdicts`) says each
kind with one wording, and only a dependence or a verifier makes a rewrite
"not legal".

A check that returns a reason as a string (the CLI prints it as it is)
tags it with its kind by returning a :class:`Why`: the string, with a
``kind`` attribute. A plain string is read with the default kind its
caller gives (:func:`kind_of`).
"""

from __future__ import annotations

import enum


class Kind(enum.Enum):
    """The kinds of answer, each with the words it is said with."""

    LEGAL = "legal"
    ILLEGAL = "not legal"  # a dependence would be reversed, or the output would not verify
    UNPROVEN = "not proved legal"  # a dependence cannot be ruled out (unknown memory effects, unanalysable accesses, budget)
    NOT_APPLICABLE = "not applicable"  # the loop's shape or contents: nothing to rewrite
    NOT_OFFERED = "not offered"  # legal, but past a size threshold


class Why(str):
    """A reason, with the :class:`Kind` of verdict it gives."""

    kind: Kind

    def __new__(cls, text: str, kind: Kind) -> Why:
        out = super().__new__(cls, text)
        out.kind = kind
        return out


def kind_of(why: str | None, default: Kind) -> Kind:
    """The kind ``why`` gives (None: legal; a plain string: ``default``)."""
    if why is None:
        return Kind.LEGAL
    return why.kind if isinstance(why, Why) else default


def illegal(text: str) -> Why:
    return Why(text, Kind.ILLEGAL)


def unproven(text: str) -> Why:
    return Why(text, Kind.UNPROVEN)


def not_applicable(text: str) -> Why:
    return Why(text, Kind.NOT_APPLICABLE)


def not_offered(text: str) -> Why:
    return Why(text, Kind.NOT_OFFERED)
