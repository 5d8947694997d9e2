"""The memos of a group's counts stay bounded however many different hands a process meets
(issue 34: unbounded, they grew for a server's or bot worker's whole life), and answer the
same after being emptied as before."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from scoring import decompose
from scoring.decompose import concealed_splits, is_standard_complete, standard_wait_mask

#: the bound (scoring.decompose.MEMO_MAX)
BOUND = 4096


def suit_counts() -> Iterator[tuple[int, ...]]:
    """Distinct counts of one suit (0-4 of each rank, at most 14 tiles), in a fixed order."""
    for c in itertools.product(range(5), repeat=9):
        if sum(c) <= 14:
            yield c


def test_the_group_memos_hold_at_most_memo_max_entries() -> None:
    for g in itertools.islice(suit_counts(), 3 * BOUND):
        counts = [*g, *[0] * 25]
        total = sum(g)
        if total % 3 == 2:
            is_standard_complete(counts)  # _suit_ok, _suit_splits
            concealed_splits(counts)  # _GROUP_SPLITS
        if total % 3 == 1:
            standard_wait_mask(counts)  # _WAIT_TABLES
    sizes = {
        "_suit_ok": decompose._suit_ok.cache_info().currsize,
        "_suit_splits": decompose._suit_splits.cache_info().currsize,
        "_GROUP_SPLITS": len(decompose._GROUP_SPLITS[0]),
        "_WAIT_TABLES": len(decompose._WAIT_TABLES[0]),
    }
    assert all(n <= BOUND for n in sizes.values()), sizes


def test_answers_are_the_same_after_the_memos_are_emptied() -> None:
    assert decompose.MEMO_MAX == BOUND
    hands = [
        [*g, *[0] * 18, 2, *[0] * 6]  # one suit, and a pair of East
        for g in itertools.islice(suit_counts(), 0, 40_000, 97)
        if sum(g) % 3 == 0
    ]
    first = [(is_standard_complete(h), concealed_splits(h)) for h in hands]
    decompose._suit_ok.cache_clear()
    decompose._suit_splits.cache_clear()
    for table in (*decompose._GROUP_SPLITS, *decompose._WAIT_TABLES):
        table.clear()
    assert [(is_standard_complete(h), concealed_splits(h)) for h in hands] == first
