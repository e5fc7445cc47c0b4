"""``/docs`` in a real headless Chromium against the running service (gunicorn): Swagger
UI, served by the service itself, renders every operation of the OpenAPI document with
no request leaving the machine and nothing refused by the page's Content-Security-Policy.

The browser is Debian's Chromium (``make test`` installs it with scripts/install-browser)
or the one ``CHROMIUM`` names, driven by Playwright. Without one this test fails: it is
never skipped. The screenshots land in ``test-output/`` (git-ignored).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import requests

from tests.conftest import REPO

OUTPUT = REPO / "test-output"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_executable() -> str:
    named = os.environ.get("CHROMIUM")
    if named:
        if not os.access(named, os.X_OK):
            pytest.fail(f"CHROMIUM={named} is not an executable")
        return named
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "no Chromium for the /docs browser test: run `make browser` (scripts/install-browser"
        " installs Debian's chromium) or set CHROMIUM=/path/to/chromium"
    )


@pytest.fixture(scope="module")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_executable())
        yield launched
        launched.close()


class Watched:
    """A page whose requests off this server are refused and recorded, with its console
    errors, uncaught exceptions and CSP violations."""

    def __init__(self, browser, base_url: str) -> None:
        self.origin = urlsplit(base_url).netloc
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.add_init_script(
            "window.__violations = [];"
            "document.addEventListener('securitypolicyviolation', e =>"
            " window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
        )
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith(("data:", "blob:")) or urlsplit(url).netloc == self.origin:
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def _console(self, message) -> None:
        if message.type in ("error", "warning") and "Refused" in message.text:
            self.errors.append(f"console {message.type}: {message.text}")
        elif message.type == "error":
            self.errors.append(f"console error: {message.text}")

    def violations(self) -> list[str]:
        return self.page.evaluate("window.__violations")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser, server) -> Iterator[Watched]:
    page = Watched(browser, server.url)
    yield page
    page.close()


def test_docs_lists_every_operation_offline_under_its_csp(watched, server):
    spec = requests.get(f"{server.url}/openapi.json", timeout=10).json()
    operations = {
        op["operationId"]: op["summary"]
        for item in spec["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    }
    tags = [tag["name"] for tag in spec["tags"]]
    assert {"createGame", "submitMove", "listEvents", "getLegalMoves"} <= set(operations)

    page = watched.page
    response = page.goto(f"{server.url}/docs", wait_until="load")
    assert response.status == 200
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(".opblock-summary-operation-id", timeout=20_000)

    shown_ids = page.locator(".opblock-summary-operation-id").all_inner_texts()
    assert sorted(shown_ids) == sorted(operations)
    shown_summaries = page.locator(".opblock-summary-description").all_inner_texts()
    assert sorted(shown_summaries) == sorted(operations.values())
    shown_tags = page.locator(".opblock-tag-section .opblock-tag").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('data-tag'))"
    )
    assert shown_tags == tags
    assert page.locator(".info .title").inner_text().startswith("Tilegames rules service")

    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "docs.png"), full_page=True)

    # Open one operation: its parameters, request body example and responses render too.
    page.locator("#operations-moves-submitMove .opblock-summary").click()
    body = page.locator("#operations-moves-submitMove .opblock-body")
    body.locator(".body-param__example, .highlight-code").first.wait_for(timeout=10_000)
    assert "place_tile" in body.inner_text()
    assert "If-Match" in body.inner_text()
    page.locator("#operations-moves-submitMove").screenshot(
        path=str(OUTPUT / "docs-submitMove.png")
    )

    assert watched.outside == [], "the page asked for something off this server"
    assert watched.violations() == [], "the page's Content-Security-Policy refused something"
    assert watched.errors == []
