"""hk-tw16 instant payments and automatic penalties: flower sets, dice, concealed kongs,
追 and 自追 — events and ledger lines."""

from __future__ import annotations

import pytest
from table_testlib import PLAYABLE, Script, tiles

from table import ActionType, GameConfig, get_params, new_game
from table.wall import Deal, build_wall

A = ActionType
HK = [r for r in PLAYABLE if get_params(r).instant]

# amounts (fan) as the seed table gives them (shared/rules/hk_taiwan_16_v1.json): 追 5 for an
# honour, 自追 10 for a simple, 一台花 5, 天槓 10, 圍骰 and 一二三/四五六 5
CHASE_HONOR, SELF_CHASE_SIMPLE, FLOWER_SET, HEAVEN_KONG, DICE = 5, 10, 5, 10, 5


def payments(sc: Script, reason: str) -> list[tuple[int, int, int]]:
    return sorted(
        (e.data["payer"], e.data["payee"], e.data["amount"])
        for e in sc.events
        if e.type == "payment" and e.data["reason"] == reason
    )


def _seed_without_dice_payment() -> bytes:
    for i in range(1000):
        seed = f"quiet-dice-seed-{i:04d}".encode()
        d = sorted(Deal(seed, True).dice)
        if d[0] != d[2] and d not in ([1, 2, 3], [4, 5, 6]):
            return seed
    raise AssertionError("no quiet seed")


HANDS16 = [
    tiles("we 123m 456m 789m 11s 234p 56p"),
    tiles("we 123s 456s 789s 22m 33m 99p"),
    tiles("we 111p 777p 888p 44m 55m 66m"),
    tiles("we ws ws ww ww wn wn dr dr dg dg dw dw 5s 6s 9s"),
]


@pytest.mark.parametrize("ruleset", HK)
def test_chase(ruleset: str) -> None:
    """Four seats in a row discard 東: the first one pays each of the others (5 for an
    honour)."""
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=_seed_without_dice_payment(),
        wall=build_wall(True, 16, 0, HANDS16, tiles("1m 2m 3m"), tiles("9m 9m")),
    )
    sc.act(0, A.DISCARD, "we")
    for s in (1, 2, 3):
        sc.pass_all()
        sc.act(s, A.DISCARD, "we")
    assert payments(sc, "chase") == [(0, s, CHASE_HONOR) for s in (1, 2, 3)]
    assert sc.state.scores == (-3 * CHASE_HONOR,) + (CHASE_HONOR,) * 3


@pytest.mark.parametrize("ruleset", HK)
@pytest.mark.parametrize("per_fan", [1, 3])
def test_instant_payments_use_the_rooms_per_fan(ruleset: str, per_fan: int) -> None:
    """Instant payments are valued with the room's settlement options, as ``mahjong-score``
    values them: 追 of an honour is 5 fan x ``per_fan``."""
    cfg = GameConfig(ruleset, max_hands=1, settlement=(("per_fan", per_fan),))
    sc = Script(new_game(cfg))
    sc.start(
        seed=_seed_without_dice_payment(),
        wall=build_wall(True, 16, 0, HANDS16, tiles("1m 2m 3m"), tiles("9m 9m")),
    )
    sc.act(0, A.DISCARD, "we")
    for s in (1, 2, 3):
        sc.pass_all()
        sc.act(s, A.DISCARD, "we")
    assert payments(sc, "chase") == [(0, s, CHASE_HONOR * per_fan) for s in (1, 2, 3)]


@pytest.mark.parametrize("ruleset", HK)
def test_no_chase_when_the_run_breaks(ruleset: str) -> None:
    hands = [list(h) for h in HANDS16]
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=_seed_without_dice_payment(),
        wall=build_wall(True, 16, 0, hands, tiles("1m 2m 3m 4m"), tiles("9m 9m")),
    )
    sc.discard_unclaimed(0, "we")
    sc.discard_unclaimed(1, "we")
    sc.discard_unclaimed(2, "2m")  # another tile breaks the run
    sc.act(3, A.DISCARD, "we")
    assert payments(sc, "chase") == []


@pytest.mark.parametrize("ruleset", HK)
def test_heaven_kong_and_flower_set(ruleset: str) -> None:
    """The dealer is dealt four 5m (天槓 before its first draw: 10 from each) and 春夏秋冬
    (一台花: 5 from each, at the deal)."""
    hands = [
        tiles("f1 f2 f3 f4 5m 5m 5m 5m 123p 456p 78s 9s"),
        *HANDS16[1:],
    ]
    hands[2] = tiles("we 111p 777p 888p 44m 66m 99m")
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=_seed_without_dice_payment(),
        wall=build_wall(True, 16, 0, hands, tiles("1m"), tiles("6m 7m 8m 3s 4s 5s")),
    )
    assert payments(sc, "one-flower-set") == [(s, 0, FLOWER_SET) for s in (1, 2, 3)]
    sc.act(0, A.CONCEALED_KONG, "5m")
    assert payments(sc, "hidden-kong-pay") == [(s, 0, HEAVEN_KONG) for s in (1, 2, 3)]
    assert sc.state.scores[0] == 3 * (FLOWER_SET + HEAVEN_KONG)


@pytest.mark.parametrize("ruleset", HK)
def test_dice(ruleset: str) -> None:
    found = {}
    for i in range(3000):
        seed = f"dice-seed-{i:06d}".encode()
        d = sorted(Deal(seed, True).dice)
        if d[0] == d[2]:
            found.setdefault("wei-dice", seed)
        elif d in ([1, 2, 3], [4, 5, 6]):
            found.setdefault("one-two-three", seed)
        if len(found) == 2:
            break
    # both dice payments are exercised (a search that found one case only checked one)
    assert set(found) == {"wei-dice", "one-two-three"}
    for reason, seed in found.items():
        sc = Script(new_game(GameConfig(ruleset, max_hands=1, first_dealer=2)))
        sc.start(seed=seed)
        amount = DICE
        assert payments(sc, reason) == [(s, 2, amount) for s in (0, 1, 3)]
        assert sc.events[0].data["dice"] == list(Deal(seed, True).dice)


@pytest.mark.parametrize("ruleset", HK)
def test_self_chase(ruleset: str) -> None:
    """The dealer draws 5s four times and discards it each time: 自追, it pays 10 (a simple)
    to each of the others."""
    draws = []
    junk = iter(tiles("1m 2m 3m 4m 6m 7m 8m 9m 1p 2p 3p 4p 6p 7p 8p 9p 1s 2s 3s 4s"))
    for _ in range(4):
        draws += [next(junk), next(junk), next(junk), tiles("5s")[0]]
    hands = [
        tiles("we ws ww wn dr dg dw we ws ww wn dr dg dw 9s 9s 8s"),
        tiles("1m 4m 7m 1p 4p 7p 1s 4s 7s we ws ww wn dr dg dw"),
        tiles("2m 5m 8m 2p 5p 8p 2s 8s 3m 6m 9m 3p 6p 9p 3s 6s"),
        tiles("1m 4m 7m 1p 4p 7p 1s 4s 7s we ws ww wn dr dg dw"),
    ]
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(
        seed=_seed_without_dice_payment(),
        wall=build_wall(True, 16, 0, hands, draws, tiles("5m 5p")),
    )
    sc.act(0, A.DISCARD, "8s")
    while not payments(sc, "self-chase"):
        sc.pass_all()
        h = sc.hand
        s = h.seats[h.turn]
        sc.act(h.turn, A.DISCARD, s.drawn)
    assert payments(sc, "self-chase") == [(0, s, SELF_CHASE_SIMPLE) for s in (1, 2, 3)]
    assert sc.hand.seats[0].tsumogiri.count(tiles("5s")[0]) == 4
