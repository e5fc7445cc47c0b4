"""Clients generated from the committed ``openapi/openapi.yaml`` by real generators from
the registries, as an app developer would: a Python client (openapi-python-client, from
PyPI with '.[dev]') plays a whole game against a bot seat over HTTP using only its typed
models, and TypeScript types (openapi-typescript, from npm, pinned under
clients/typescript and installed by ``make test``) type-check a small program that
builds commands and reads events, and refuse a wrong command. Both generators run
offline here; a missing one fails the test, never skips it."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "openapi" / "openapi.yaml"
PYTHON_GENERATOR = Path(sys.executable).parent / "openapi-python-client"
TYPESCRIPT = ROOT / "clients" / "typescript" / "node_modules" / ".bin"
PACKAGE = "tilegames_client"


def run(command: list, cwd: Path) -> subprocess.CompletedProcess:
    # the venv's bin first: openapi-python-client formats its output with its ruff
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{command[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    """The Python client generated from the committed document, importable."""
    if not PYTHON_GENERATOR.exists():
        pytest.fail(f"{PYTHON_GENERATOR} is missing: pip install -e '.[dev]' (make test does)")
    where = tmp_path_factory.mktemp("python-client")
    run(
        [PYTHON_GENERATOR, "generate", "--path", DOCUMENT, "--meta", "none"]
        + ["--output-path", where / PACKAGE],
        where,
    )
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_a_generated_python_client_plays_a_whole_game_against_a_bot(
    server, api_key, client_package
):
    """Typed models only: the game, the legal moves, the commands, the answers and the
    events are the generated classes, never dicts."""
    from tilegames_client import AuthenticatedClient
    from tilegames_client.api.events import list_events
    from tilegames_client.api.games import create_game, get_state
    from tilegames_client.api.moves import get_legal_moves, submit_move
    from tilegames_client.models import (
        CarcassonneEventPage,
        CarcassonneFeatureScoredEvent,
        CarcassonneGameEndedEvent,
        CarcassonneLegalCommands,
        CarcassonneLegalMoves,
        CarcassonneMoveResult,
        CarcassonnePlaceFollowerCommand,
        CarcassonnePlaceFollowerCommandType,
        CarcassonnePlaceTileCommand,
        CarcassonnePlaceTileCommandRotation,
        CarcassonnePlaceTileCommandType,
        CarcassonneSkipCommand,
        CarcassonneSkipCommandType,
        CarcassonneState,
        CarcassonneTilePlacedEvent,
        CarcassonneTileSetAsideEvent,
        CarcassonneTurnEndedEvent,
        CarcassonneView,
        CreatedGame,
        CreateGame,
        Move,
        SeatSpec,
    )
    from tilegames_client.types import Unset

    app = AuthenticatedClient(base_url=server.url, token=api_key)
    body = CreateGame(ruleset="carcassonne", seats=[SeatSpec(name="Ada"), SeatSpec(bot="greedy")])
    game = create_game.sync(client=app, body=body)
    assert isinstance(game, CreatedGame), game
    seat = AuthenticatedClient(base_url=server.url, token=game.seat_tokens[0].token)
    moves = 0
    while True:
        legal = get_legal_moves.sync(str(game.id), client=seat)
        assert isinstance(legal, CarcassonneLegalMoves), legal
        assert isinstance(legal.commands, CarcassonneLegalCommands)
        if not legal.commands.decisions:
            break
        decision = legal.commands.decisions[0]
        menu = decision.commands
        if not isinstance(menu.place_tile, Unset):
            first = menu.place_tile.placements[0]
            command = CarcassonnePlaceTileCommand(
                type_=CarcassonnePlaceTileCommandType.PLACE_TILE,
                x=first.x,
                y=first.y,
                rotation=CarcassonnePlaceTileCommandRotation(first.rotation.value),
            )
        elif not isinstance(menu.place_follower, Unset) and menu.place_follower.spots:
            command = CarcassonnePlaceFollowerCommand(
                type_=CarcassonnePlaceFollowerCommandType.PLACE_FOLLOWER,
                spot=menu.place_follower.spots[0].spot,
            )
        else:
            command = CarcassonneSkipCommand(type_=CarcassonneSkipCommandType.SKIP)
        result = submit_move.sync(
            str(game.id),
            client=seat,
            body=Move(command=command, decision=decision.id),
            if_match=f'"{legal.version}"',
        )
        assert isinstance(result, CarcassonneMoveResult), result
        moves += 1

    state = get_state.sync(str(game.id), client=seat)
    assert isinstance(state, CarcassonneState) and isinstance(state.state, CarcassonneView)
    assert state.state.over and state.state.winners
    page = list_events.sync(str(game.id), client=app, limit=1000)
    assert isinstance(page, CarcassonneEventPage)
    placed = [e for e in page.events if isinstance(e, CarcassonneTilePlacedEvent)]
    set_aside = [e for e in page.events if isinstance(e, CarcassonneTileSetAsideEvent)]
    assert len(placed) + len(set_aside) == 71  # every tile but the start tile
    assert {e.data.seat for e in placed} == {0, 1}
    assert any(isinstance(e, CarcassonneFeatureScoredEvent) for e in page.events)
    (ended,) = [e for e in page.events if isinstance(e, CarcassonneGameEndedEvent)]
    assert ended.data.winners == state.state.winners
    assert moves > 35
    turns = [e for e in page.events if e.type_.value == "turn_ended"]
    assert turns and all(isinstance(e, CarcassonneTurnEndedEvent) for e in turns)


def test_a_generated_python_client_reads_each_ruleset_s_events_as_its_own(
    server, api_key, client_package
):
    """``turn_ended`` is an event of every ruleset, and Catan's has a shape Carcassonne's
    would take: a page of a Catan game says ``ruleset: catan``, so the client reads it
    as a ``CatanEventPage`` and each ``turn_ended`` as a ``CatanTurnEndedEvent``."""
    from tilegames_client import AuthenticatedClient
    from tilegames_client import models as m
    from tilegames_client.api.events import list_events
    from tilegames_client.api.games import create_game, get_state

    own = {  # ruleset -> its page, its turn_ended, its state and view
        "catan": (m.CatanEventPage, m.CatanTurnEndedEvent, m.CatanState, m.CatanView),
        "carcassonne-south-seas": (
            m.CarcassonneSouthSeasEventPage,
            m.CarcassonneSouthSeasTurnEndedEvent,
            m.CarcassonneSouthSeasState,
            m.CarcassonneSouthSeasView,
        ),
        "carcassonne": (
            m.CarcassonneEventPage,
            m.CarcassonneTurnEndedEvent,
            m.CarcassonneState,
            m.CarcassonneView,
        ),
    }
    app = AuthenticatedClient(base_url=server.url, token=api_key)
    for ruleset, (page_class, turn_ended, state_class, view) in own.items():
        body = m.CreateGame(ruleset=ruleset, seats=[m.SeatSpec(bot="random")] * 3)
        game = create_game.sync(client=app, body=body)
        assert isinstance(game, m.CreatedGame), game
        page = list_events.sync(str(game.id), client=app, limit=1000)
        assert isinstance(page, page_class) and page.ruleset.value == ruleset, type(page)
        turns = [e for e in page.events if e.type_.value == "turn_ended"]
        assert turns and all(type(e) is turn_ended for e in turns), (ruleset, turns[:1])
        state = get_state.sync(str(game.id), client=app)
        assert isinstance(state, state_class) and isinstance(state.state, view), type(state)


#: a small program against the generated types; its three "const wrong" lines must fail
TYPESCRIPT_PROGRAM = (ROOT / "clients" / "typescript" / "client.ts").read_text()


def test_generated_typescript_types_type_check_commands_events_and_legal_moves(tmp_path):
    generator, tsc = TYPESCRIPT / "openapi-typescript", TYPESCRIPT / "tsc"
    for tool in (generator, tsc):
        if not tool.exists() or shutil.which("node") is None:
            pytest.fail(f"{tool} is missing: run scripts/install-typescript (make test does)")
    run([generator, DOCUMENT, "-o", tmp_path / "tilegames-api.d.ts"], tmp_path)
    (tmp_path / "client.ts").write_text(TYPESCRIPT_PROGRAM)
    run([tsc, "--noEmit", "--strict", "--target", "es2020", "client.ts"], tmp_path)
    # and the same program without the expected errors' markers does not compile
    (tmp_path / "client.ts").write_text(TYPESCRIPT_PROGRAM.replace("// @ts-expect-error", "//"))
    done = subprocess.run(
        [str(tsc), "--noEmit", "--strict", "--target", "es2020", "client.ts"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    wrong = {
        n for n, line in enumerate(TYPESCRIPT_PROGRAM.splitlines(), 1) if "const wrong" in line
    }
    refused = {
        int(line.split("(")[1].split(",")[0])
        for line in done.stdout.splitlines()
        if line.startswith("client.ts(")
    }
    assert done.returncode != 0 and refused == wrong, done.stdout
