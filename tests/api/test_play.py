"""``/play/``, the browser client, as plain HTTP: the page and every file it loads come
from this origin with their content types; the page is revalidated (ETag, no-cache),
its versioned assets are kept for a year and change URL when any file changes; its
policy allows this origin's scripts only, with nothing inline; no CORS header is sent
unless the operator allows an origin."""

from __future__ import annotations

import re

from service.api.headers import PLAY_POLICY
from service.api.play import asset_files

IMPORT = re.compile(r'from "\./([a-z]+\.js)"')


def asset_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/play/assets/[^"]+)"', html)


def test_the_page_is_revalidated_under_its_own_strict_policy(client):
    page = client.get("/play/")
    assert page.status_code == 200
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    assert page.headers["Cache-Control"] == "no-cache"
    assert page.headers["Content-Security-Policy"] == PLAY_POLICY
    directives = dict(d.strip().split(" ", 1) for d in PLAY_POLICY.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["connect-src"] == "'self'"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    again = client.get("/play/", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert client.get("/play").status_code == 308
    assert client.get("/play").headers["Location"].endswith("/play/")


def test_the_page_loads_only_files_of_this_origin_and_nothing_inline(client):
    html = client.get("/play/").get_data(as_text=True)
    assert "http:" not in html and "https:" not in html
    assert "<script>" not in html and "style=" not in html
    assert not re.search(r"\son[a-z]+=", html)  # no handler attributes
    version, _ = asset_files()
    assert sorted(asset_urls(html)) == sorted(
        f"/play/assets/{version}/{name}" for name in ("icon.svg", "play.css", "main.js")
    )


def test_assets_have_their_content_types_and_are_kept_by_version(client):
    version, files = asset_files()
    types = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    # every module the page's script imports, and what they import, is served
    modules = {"main.js"}
    for name in sorted(files):
        if name.endswith(".js"):
            modules |= set(IMPORT.findall(files[name].decode()))
    assert modules <= set(files)
    for name in files:
        response = client.get(f"/play/assets/{version}/{name}")
        assert response.status_code == 200, name
        assert response.mimetype == types[name[name.rindex(".") :]], name
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        again = client.get(
            f"/play/assets/{version}/{name}", headers={"If-None-Match": response.headers["ETag"]}
        )
        assert again.status_code == 304
    assert client.get(f"/play/assets/{'0' * 16}/main.js").status_code == 404  # old version
    assert client.get(f"/play/assets/{version}/index.html").status_code == 404
    assert client.get(f"/play/assets/{version}/missing.js").status_code == 404


def test_no_cors_header_unless_the_operator_allows_an_origin(client):
    response = client.get("/play/", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in response.headers
