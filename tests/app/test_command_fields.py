"""What the service checks of a command's fields before the rules read it
(``check_fields``): none it does not take, every one it needs, and no outcome of chance
in a game that draws its own."""

from __future__ import annotations

import pytest

from service.app.errors import ValidationFailed
from service.app.games import check_fields
from service.rules.catan.game import CATAN


def refusal(command: dict, external: bool = False) -> list[dict]:
    with pytest.raises(ValidationFailed) as caught:
        check_fields(CATAN, command, external)
    return caught.value.extra["errors"]


def test_a_field_the_rules_read_as_absent_may_be_left_out():
    # The Pirate Islands: a steal without a victim steals from nobody, as with null
    check_fields(CATAN, {"type": "steal"}, False)
    check_fields(CATAN, {"type": "offer_trade", "give": {"ore": 1}, "get": {"wool": 1}}, False)


def test_a_field_the_rules_need_is_named_when_left_out():
    assert refusal({"type": "build_road"}) == [
        {"field": "command.edge", "message": "build_road needs edge"}
    ]
    assert refusal({"type": "maritime_trade"}) == [
        {"field": "command.give", "message": "maritime_trade needs give and get"}
    ]


def test_an_outcome_of_chance_is_the_clients_only_with_external_randomness():
    check_fields(CATAN, {"type": "roll", "dice": [3, 4]}, True)
    (error,) = refusal({"type": "roll", "dice": [3, 4]})
    assert error["field"] == "command.dice"
    steal = {"type": "move_robber", "hex": "0,0", "victim": 1, "resource": "ore"}
    check_fields(CATAN, steal, True)
    assert refusal(steal)[0]["field"] == "command.resource"
