"""Shared helpers for the deployment tests (Dockerfile, .dockerignore, Helm chart).

A plain module with a unique name rather than a conftest.py, so importing it cannot pick
up another test folder's conftest.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CHART_DIR = ROOT / "helm"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"


class UniqueKeyLoader(yaml.SafeLoader):
    """A SafeLoader that refuses duplicate mapping keys.

    PyYAML silently keeps the last of two equal keys, which would hide a template that
    emits a label or an env key twice (the Kubernetes API rejects or misreads those).
    """

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_yaml_docs(text: str) -> list[dict]:
    return [doc for doc in yaml.load_all(text, Loader=UniqueKeyLoader) if doc]


def chart_values() -> dict:
    return yaml.safe_load((CHART_DIR / "values.yaml").read_text())
