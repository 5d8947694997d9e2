"""The protocol's schema, reference document and TypeScript types are generated from the
typed definitions and committed: they must be what the definitions generate now, and the
definitions must describe what the table really emits."""

from __future__ import annotations

import random

import jsonschema
import pytest

import table
from protocol import schema
from protocol.actions import ACTIONS, parse_action
from table import Action, ActionType, GameConfig, Phase, RandomPlayer, apply, decisions, new_game
from table.events import EVENT_CLASSES, EVENT_TYPES
from table.wire import Secret, wire_fields


def test_committed_schema_document_and_types_are_generated_from_the_definitions():
    assert schema.main(["--check"]) == 0, "run python -m protocol.schema --write"


def test_every_player_action_type_has_a_wire_definition():
    server_only = {ActionType.START_HAND, ActionType.TIMEOUT}
    assert set(ACTIONS) == {t.value for t in ActionType if t not in server_only}


def _validator(name: str) -> jsonschema.Draft202012Validator:
    defs = schema.build_schema()["$defs"]
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": defs})


class _Once:
    """A validator that validates each distinct document once (by ``repr``: a tuple is not
    taken for a list): most events are the same for all five viewers, and legal actions are
    offered again and again; jsonschema's validation was nearly all of this test's time."""

    def __init__(self, name: str) -> None:
        self.validator = _validator(name)
        self.done: set[str] = set()

    def validate(self, doc: object) -> None:
        key = repr(doc)
        if key not in self.done:
            self.validator.validate(doc)
            self.done.add(key)


@pytest.mark.parametrize("ruleset", table.playable_rulesets())
def test_every_event_view_and_legal_action_of_played_games_fits_the_schema(ruleset):
    events = _Once("Event")
    views = _Once("GameView")
    actions = _Once("Action")
    seen: set[str] = set()
    for seed in range(1):
        rng = random.Random(seed)
        player = RandomPlayer(rng, claim_rate=0.5)
        st = new_game(GameConfig(ruleset, max_hands=2))
        while st.phase is not Phase.GAME_OVER:
            if st.phase is Phase.BETWEEN_HANDS:
                a = Action(ActionType.START_HAND, None, st.seq, seed=rng.randbytes(16))
            else:
                seat = min(decisions(st))
                for legal in table.legal_actions_json(st, seat):
                    actions.validate(legal)
                    parse_action(legal)  # what a client sends back is accepted as it is
                chosen = player.choose(st, seat)
                assert chosen is not None
                a = chosen
            st, evs = apply(st, a)
            for e in evs:
                # the definition made the event: its secret fields are Secret-marked fields
                # of a definition of its type, and owned by its seat
                defs = EVENT_TYPES[e.type]
                assert any(
                    set(e.secret) <= {f.wire for f in wire_fields(c) if f.has(Secret)} for c in defs
                ), e
                if e.secret:
                    assert e.owner == e.data["seat"]
                for viewer in (None, 0, 1, 2, 3):
                    j = table.view_event(e, viewer)
                    if j is not None:
                        events.validate(j)
                        seen.add(e.type)
            if st.seq % 7 == 0 or st.phase is not Phase.TURN:
                for viewer in (None, st.seq % 4):
                    views.validate(table.view(st, viewer))
    assert {"hand_started", "dealt", "draw", "discard", "hand_ended"} <= seen


def test_a_wrong_event_is_refused_by_the_schema():
    events = _validator("Event")
    good = {"type": "discard", "seat": 0, "tile": "5p", "auto": False}
    events.validate(good)
    for bad in (
        {**good, "extra": 1},
        {**good, "seat": 4},
        {**good, "tile": "5x"},
        {k: v for k, v in good.items() if k != "auto"},
        {**good, "type": "discarded"},
    ):
        assert not events.is_valid(bad), bad


def test_each_event_type_names_its_definitions():
    for t, classes in EVENT_TYPES.items():
        assert all(t == c.TYPE for c in classes)
    assert {c for cs in EVENT_TYPES.values() for c in cs} == set(EVENT_CLASSES)


def test_every_message_has_its_own_definition():
    from protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES

    defs = schema.build_schema()["$defs"]
    assert {n for n in defs if n.startswith("client.")} == {f"client.{t}" for t in CLIENT_MESSAGES}
    assert {n for n in defs if n.startswith("server.")} == {f"server.{t}" for t in SERVER_MESSAGES}
    assert len(defs["ClientMessage"]["oneOf"]) == len(CLIENT_MESSAGES)
    assert len(defs["ServerMessage"]["oneOf"]) == len(SERVER_MESSAGES)


def test_a_special_shapes_breakdown_fits_the_schema():
    """A special shape's arrangement has no winning block (``win_block`` null): found by
    the conformance suite in a thirteen-orphans win."""
    from scoring import score

    res = score(
        {
            "ruleset": "mcr",
            "concealed": [
                "1m",
                "9m",
                "1p",
                "9p",
                "1s",
                "9s",
                "we",
                "ws",
                "ww",
                "wn",
                "dr",
                "dg",
                "dw",
            ],
            "win_tile": "1m",
        }
    )
    assert res["error"] is None and res["arrangement"]["win_block"] is None
    _validator("Score").validate(res)


def test_every_block_kind_of_the_scoring_engine_is_in_the_schema():
    from scoring.decompose import BlockKind

    kinds = schema.build_schema()["$defs"]["Block"]["properties"]["kind"]["enum"]
    assert set(kinds) == {k.value for k in BlockKind}
