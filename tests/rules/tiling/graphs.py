"""Comparing feature graphs in tests."""

from __future__ import annotations

from service.rules.tiling.features import Feature, FeatureGraph


def layout(graph: FeatureGraph) -> list[tuple[object, ...]]:
    """Everything a graph says about its features, comparable between copies."""

    def described(feature: Feature) -> tuple[object, ...]:
        return (feature.kind.name, sorted(feature.tiles), feature.open, feature.figures,
                feature.attrs, sorted(feature.touches), feature.complete)  # fmt: skip

    return [
        (node, graph.find(node), described(graph.feature(node)))
        for node in range(len(graph.parent))
    ] + [(graph.surrounded, graph.around, graph.watching)]
