"""``/play/``: the browser client (:mod:`service.play`), served by the service itself.

The page's scripts and stylesheet live under ``/play/assets/<version>/``, where the
version is a hash of every static file: a change to any file is a new URL, so browsers
may keep them for a year, and the modules' relative imports stay inside one version.
The page itself changes with that version, so it is revalidated (ETag) every time. Its
policy (``PLAY_POLICY``) allows scripts, styles and images from this origin only and no
inline script; the board pictures are fetched with the viewer's credentials and
inserted as SVG elements, which need no policy of their own.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

import werkzeug
from flask import Blueprint, Response, abort, redirect, request, url_for

from service.api.headers import PLAY_POLICY

_STATIC = resources.files("service.play") / "static"
#: the content types of what the page loads; no other file is served
CONTENT_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml; charset=utf-8",
}
#: versioned assets never change under their URL
IMMUTABLE = "public, max-age=31536000, immutable"
#: the page names the current version of its assets: revalidate (ETag) every time
REVALIDATE = "no-cache"
#: where the page's HTML puts its assets' versioned folder
ASSETS_MARK = "{assets}"

blp = Blueprint("play", __name__)


@cache
def asset_files() -> tuple[str, dict[str, bytes]]:
    """The version (a hash of every asset) and each asset's bytes, by name."""
    files = {
        entry.name: entry.read_bytes()
        for entry in _STATIC.iterdir()
        if any(entry.name.endswith(suffix) for suffix in CONTENT_TYPES)
    }
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()[:16], files


def _send(data: bytes, content_type: str, cache_control: str) -> werkzeug.Response:
    response = Response(data, content_type=content_type)
    response.headers["Cache-Control"] = cache_control
    response.set_etag(hashlib.sha256(data).hexdigest()[:32])
    return response.make_conditional(request)


@blp.get("/play")
def bare() -> werkzeug.Response:
    return redirect(url_for("play.page"), 308)


@blp.get("/play/")
def page() -> werkzeug.Response:
    version, _ = asset_files()
    folder = url_for("play.asset", version=version, name="")
    html = (_STATIC / "index.html").read_text().replace(ASSETS_MARK, folder.rstrip("/"))
    response = _send(html.encode(), "text/html; charset=utf-8", REVALIDATE)
    response.headers["Content-Security-Policy"] = PLAY_POLICY
    return response


@blp.get("/play/assets/<version>/<name>")
def asset(version: str, name: str) -> werkzeug.Response:
    current, files = asset_files()
    if version != current or name not in files:
        abort(404)
    suffix = name[name.rindex(".") :]
    return _send(files[name], CONTENT_TYPES[suffix], IMMUTABLE)
