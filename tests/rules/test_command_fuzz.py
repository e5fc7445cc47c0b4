"""Any JSON a client may send as a command, at states of real games of every ruleset:
``decide`` answers with a list of events or an IllegalMove that names the rule, and
never with another exception (which the service would turn into a 500)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules.catan.game import CATAN
from service.rules.core import IllegalMove
from service.rules.play import play_game
from service.rules.registry import all_rulesets

OPTIONS = {
    "carcassonne": {
        "expansions": [
            "river",
            "inns_cathedrals",
            "traders_builders",
            "hills_sheep",
            "wheel_of_fortune",
        ]
    }
}
STATES_PER_GAME = 40

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


#: every ruleset with the options above, and three Seafarers scenarios of Catan
CASES = [(r, OPTIONS.get(r.name, {})) for r in all_rulesets()] + [
    (CATAN, {"scenario": 3}),
    (CATAN, {"scenario": 5}),
    (CATAN, {"scenario": 8}),
    (CATAN, {"scenario": 9}),
    (CATAN, {"scenario": 6}),  # Cloth for Catan: villages, cloth, a third settlement
    (CATAN, {"scenario": 7}),
]


def states_of(ruleset, options):
    """Some states along one bot game (copies: a refused command must not matter)."""
    seats = ruleset.min_seats + 1
    found = []

    def keep(state, events):
        if not ruleset.is_over(state) and len(found) < STATES_PER_GAME:
            found.append(ruleset.copy_state(state))

    bots = [ruleset.bots[0]] * seats
    play_game(ruleset, options, seats, b"fuzz", bots, keep)
    return found


@pytest.mark.parametrize(
    ("ruleset", "options"), CASES, ids=lambda c: getattr(c, "name", None) or str(c or "")
)
def test_random_json_commands_are_refused_or_decided_never_crash(ruleset, options):
    states = states_of(ruleset, options)
    field_names = sorted(
        {name for options in ruleset.describe().get("commands", {}).values() for name in options}
        if isinstance(ruleset.describe().get("commands"), dict)
        else set()
    ) or ["x", "y", "spot", "edge", "corner", "resources"]

    commands = st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"type": st.sampled_from(sorted(ruleset.command_types())) | st.text(max_size=6)},
            optional={name: json_values for name in field_names[:12]},
        ),
    )

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        st.integers(0, len(states) - 1),
        st.integers(0, 5),
        commands,
        st.text(max_size=8) | st.sampled_from(field_names),
        json_values,
        st.integers(0, 2**32),
    )
    def fuzz(index, seat, command, field, value, salt):
        state = ruleset.copy_state(states[index])
        rng = random.Random(salt)
        if salt % 2:  # a command the awaited seat's bot would send, one field made wrong
            seat = ruleset.decisions(state)[0].seat
            command = {**ruleset.bot_command(state, seat, ruleset.bots[0], rng), field: value}
        try:
            events = ruleset.decide(state, seat, command, rng)
        except IllegalMove as refusal:
            assert refusal.code and refusal.rule
        else:
            assert isinstance(events, list) and events

    fuzz()
