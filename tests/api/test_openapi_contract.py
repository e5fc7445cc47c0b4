"""The OpenAPI document as a contract to generate clients from: the committed
``openapi/openapi.yaml`` passes a strict validator, and every operation, in that file and
in the document the service serves, has a unique ``operationId`` spelled as a client
method (``createGame``) and one of the document's tags."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_spec_validator import validate
from openapi_spec_validator.validation import OpenAPIV30SpecValidator
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
from referencing.exceptions import Unresolvable

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.yaml"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

#: the client method each operation becomes, and the tag (module) it sits under
EXPECTED = {
    ("get", "/v1/rulesets"): ("listRulesets", "rulesets"),
    ("post", "/v1/games"): ("createGame", "games"),
    ("get", "/v1/games"): ("listGames", "games"),
    ("get", "/v1/games/{game_id}"): ("getGame", "games"),
    ("get", "/v1/games/{game_id}/state"): ("getState", "games"),
    ("get", "/v1/games/{game_id}/verify"): ("verifyGame", "games"),
    ("get", "/v1/games/{game_id}/export"): ("exportGame", "games"),
    ("get", "/v1/games/{game_id}/board.svg"): ("getBoardPicture", "games"),
    ("get", "/v1/rulesets/{name}/tiles/{tile}.svg"): ("getTilePicture", "rulesets"),
    ("get", "/v1/games/{game_id}/legal-moves"): ("getLegalMoves", "moves"),
    ("post", "/v1/games/{game_id}/moves"): ("submitMove", "moves"),
    ("get", "/v1/games/{game_id}/events"): ("listEvents", "events"),
    ("post", "/v1/validate"): ("validateRecord", "validation"),
    ("get", "/v1/webhooks"): ("listWebhooks", "webhooks"),
    ("post", "/v1/webhooks"): ("createWebhook", "webhooks"),
    ("get", "/v1/webhooks/{webhook_id}"): ("getWebhook", "webhooks"),
    ("delete", "/v1/webhooks/{webhook_id}"): ("deleteWebhook", "webhooks"),
    ("get", "/v1/webhooks/{webhook_id}/deliveries"): ("listWebhookDeliveries", "webhooks"),
    ("get", "/healthz"): ("getLiveness", "health"),
    ("get", "/readyz"): ("getReadiness", "health"),
    ("get", "/metrics"): ("getMetrics", "health"),
}


def operations(spec: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): operation
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    return yaml.safe_load(COMMITTED.read_text())


@pytest.fixture
def served(client) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def test_the_committed_document_is_valid_openapi_3_0(committed):
    assert committed["openapi"].startswith("3.0.")
    validate(committed, cls=OpenAPIV30SpecValidator)


def test_the_validator_is_strict_enough_to_refuse_a_broken_document(committed):
    """The check above would catch these: a dangling $ref, a duplicate operationId, a
    path parameter left undeclared."""
    dangling = copy.deepcopy(committed)
    dangling["paths"]["/v1/rulesets"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ] = {"$ref": "#/components/schemas/NoSuchSchema"}
    duplicate = copy.deepcopy(committed)
    duplicate["paths"]["/v1/validate"]["post"]["operationId"] = "createGame"
    undeclared = copy.deepcopy(committed)
    del undeclared["paths"]["/v1/games/{game_id}"]["parameters"]
    for broken in (dangling, duplicate, undeclared):
        with pytest.raises((OpenAPIValidationError, Unresolvable)):
            validate(broken, cls=OpenAPIV30SpecValidator)


@pytest.mark.parametrize("source", ["committed", "served"])
def test_every_operation_has_a_unique_client_method_name_and_a_tag(source, request):
    spec = request.getfixturevalue(source)
    found = operations(spec)
    tags = [tag["name"] for tag in spec["tags"]]
    assert len(tags) == len(set(tags))
    names = [operation.get("operationId") for operation in found.values()]
    assert None not in names, [key for key, op in found.items() if "operationId" not in op]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for key, operation in found.items():
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)+", operation["operationId"]), key
        assert len(operation["tags"]) == 1 and operation["tags"][0] in tags, key
        assert operation.get("summary"), key
    used = {operation["tags"][0] for operation in found.values()}
    assert used == set(tags), f"tags with no operation: {set(tags) - used}"
    assert {key: (op["operationId"], op["tags"][0]) for key, op in found.items()} == EXPECTED


def test_the_served_document_is_the_committed_one(committed, served):
    """What /openapi.json serves is what clients are generated from (CI's
    ``make openapi-check`` compares the YAML text; this compares the content)."""
    assert served == committed
