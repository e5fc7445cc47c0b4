"""The browser client at ``/play/``: plain HTML, CSS and JavaScript modules in
``static/`` (no build step), served by :mod:`service.api.play`. The page talks to the
service only through the public ``/v1`` API, as any third-party client would."""
