"""Read the plotly charts of an AppTest run: their specs and the text a viewer sees on them.

A chart is either an ``st.plotly_chart`` element or a ``ui.live_chart`` custom component (AppTest shows
the component as an ``UnknownElement`` of type ``component_instance`` whose ``json_args`` carry the figure).
"""

from __future__ import annotations

import base64
import json
import re

import numpy as np

LIVE_CHART = "ui.live_chart.live_chart"


def _spec(node) -> dict | None:
    """The figure of a chart element, or None for any other element."""
    if node.type == "plotly_chart":
        return json.loads(node.proto.spec)
    if node.type == "component_instance" and node.proto.component_name == LIVE_CHART:
        return json.loads(json.loads(node.proto.json_args)["figure"])
    return None


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def specs(at) -> list[dict]:
    """The plotly figure specs (``data``, ``layout``, ``frames``) of every chart of the last run, in page
    order, whether drawn by ``st.plotly_chart`` or by ``ui.live_chart``."""
    found = (_spec(node) for root in (at.sidebar, at.main) for node in _walk(root))
    return [spec for spec in found if spec is not None]


def live_args(at) -> list[dict]:
    """The arguments of the ``ui.live_chart`` charts of the last run (``figure`` as JSON text, ``key``,
    ``theme``, ``config``, ``report``), in page order."""
    return [json.loads(node.proto.json_args) for node in _walk(at.main)
            if node.type == "component_instance" and node.proto.component_name == LIVE_CHART]


def live_places(at) -> list[tuple[int, ...]]:
    """Where each ``ui.live_chart`` chart of the last run sits: its indices from the main area down, in
    page order. A browser keeps a chart's element, and what it drew, only while the next run sends the
    chart to the same place."""

    def walk(node, place):
        if node.type == "component_instance" and node.proto.component_name == LIVE_CHART:
            yield place
        for index, child in sorted(getattr(node, "children", {}).items()):
            yield from walk(child, (*place, index))

    return list(walk(at.main, ()))


def live_keys(at) -> list[str]:
    """The Streamlit keys of the ``ui.live_chart`` charts of the last run."""
    return [args["key"] for args in live_args(at)]


def axes(spec: dict) -> dict[str, dict]:
    """Every axis of a figure: ``xaxis``, ``yaxis2``, ``scene.zaxis``, ... -> its layout dict."""
    layout = spec["layout"]
    found = {name: axis for name, axis in layout.items() if re.fullmatch(r"[xy]axis\d*", name)}
    for scene_name, scene in layout.items():
        if re.fullmatch(r"scene\d*", scene_name):
            found.update({f"{scene_name}.{name}": scene.get(name, {}) for name in ("xaxis", "yaxis", "zaxis")})
    return found


def axis_setting(spec: dict, axis_name: str, setting: str):
    """An axis setting as plotly resolves it: the axis's own value, else the template's."""
    own = axes(spec)[axis_name].get(setting)
    if own is not None:
        return own
    template = spec["layout"].get("template", {}).get("layout", {})
    if "." in axis_name:
        scene, axis = axis_name.split(".")
        return template.get("scene", {}).get(re.sub(r"\d+$", "", axis), {}).get(setting)
    return template.get(re.sub(r"\d+$", "", axis_name), {}).get(setting)


def _title(value) -> str:
    if isinstance(value, dict):
        return value.get("text") or ""
    return value or ""


def visible_texts(spec: dict) -> list[str]:
    """Title, axis titles, legend names and annotation texts of a figure."""
    layout = spec["layout"]
    texts = [_title(layout.get("title"))]
    texts += [_title(axis.get("title")) for axis in axes(spec).values()]
    texts += [trace.get("name") or "" for trace in spec["data"] if trace.get("showlegend", True)]
    texts += [annotation.get("text") or "" for annotation in layout.get("annotations", [])]
    return [text for text in texts if text]


def values(array) -> np.ndarray:
    """A plotly array of a spec as floats: a plain list, or plotly 7's ``{"dtype", "bdata"}`` encoding."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"])).astype(float)
    return np.asarray(array, dtype=float)


def line(spec: dict, name: str) -> tuple[np.ndarray, np.ndarray]:
    """x and y of the trace called ``name`` (the first one)."""
    trace = next(t for t in spec["data"] if t.get("name") == name)
    return values(trace["x"]), values(trace["y"])
