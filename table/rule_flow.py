"""The named points of a hand where the engine calls a rule set's own flow (:class:`RuleFlow`).

A rule flow is parameters plus a small module: a subclass of :class:`RuleFlow` that
overrides the points it needs, switched on by a game parameter (:data:`table.flows.FLOWS`).
The engine calls every flow of the game at each point, in the order of ``FLOWS``; a flow
changes the hand through the working copy it is given (events, payments, seat fields), never
by a branch in the engine. The points:

* ``deal`` — the hand is dealt and the dealt flowers replaced (before the dealer's turn);
* ``draw`` — a tile drawn; ``flower`` — a flower set aside (at the deal or drawn), then
  replaced;
* ``discard`` — a tile discarded (its events emitted, the claim window not yet open);
* ``kong`` — a concealed or added kong declared (before its replacement draw);
* ``claim_window`` — a claim or robbing window closed, before its outcome (a claim, a win or
  the next draw) is carried out;
* ``win`` — one winner paid (for each winner of a multiple win);
* ``exhaustive_draw`` — the wall ran out (before the hand ends).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from table.model import Claim
from table.working import WorkingCopy

__all__ = ["RuleFlow"]


@mypyc_attr(allow_interpreted_subclasses=True)  # (a flow may be written in a test or a plug-in)
class RuleFlow:
    """A rule set's own flow: each point does nothing here."""

    def deal(self, w: WorkingCopy, dice: tuple[int, ...]) -> None:
        """The hand is dealt (``dice``: the deal's dice)."""

    def draw(self, w: WorkingCopy, seat: int, replacement: bool) -> None:
        """``seat`` drew a tile (not a flower): ``w.seats[seat].drawn``."""

    def flower(self, w: WorkingCopy, seat: int, dealt: bool) -> None:
        """``seat`` set a flower aside (``dealt``: at the deal, once per seat after all its
        flowers are replaced)."""

    def discard(self, w: WorkingCopy, seat: int, drawn: bool) -> None:
        """``seat`` discarded ``w.hand.discard``'s tile (``drawn``: the tile it had just
        drawn); the hand's ``chase`` already counts it."""

    def kong(self, w: WorkingCopy, seat: int, concealed: bool, first_turn: bool) -> None:
        """``seat`` declared a kong of its own (concealed or added; ``first_turn``: before its
        first draw with no call made, 天槓)."""

    def claim_window(self, w: WorkingCopy, claims: tuple[Claim, ...]) -> None:
        """A claim or robbing window closed with ``claims``."""

    def win(self, w: WorkingCopy, seat: int, discarder: int | None) -> None:
        """``seat`` won and was paid (``discarder``: None on a self-draw)."""

    def exhaustive_draw(self, w: WorkingCopy) -> None:
        """The wall ran out."""
