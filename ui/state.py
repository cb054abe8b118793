"""Page state that lives in the URL: widgets take their first value from the query string and
write their current value back, so copying the address reproduces the view."""

from __future__ import annotations

import streamlit as st


def _parse(raw: str, default):
    """Convert a query-string value to the type of ``default``; ``None`` when it does not parse."""
    try:
        if isinstance(default, bool):
            return {"true": True, "false": False}.get(raw.lower())
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, (list, tuple)):
            return [item for item in raw.split(",") if item]
        return raw
    except ValueError:
        return None


def _format(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def init(key: str, default, *, options=None):
    """Seed ``st.session_state[key]`` from the URL (or ``default``) before its widget is drawn.

    A URL value that does not parse, or is not among ``options``, falls back to ``default`` and
    is reported with ``st.warning`` instead of breaking the page.
    """
    if key in st.session_state:
        return st.session_state[key]
    value = default
    if key in st.query_params:
        raw = st.query_params[key]
        parsed = _parse(raw, default)
        if options is not None and parsed is not None:
            items = parsed if isinstance(parsed, list) else [parsed]
            if not all(item in options for item in items):
                parsed = None
        if parsed is None:
            st.warning(f"Ignored the address parameter {key}={raw!r}: not a valid value; using {default!r}.")
        else:
            value = parsed
    st.session_state[key] = value
    return value


def sync(keys) -> None:
    """Write the current widget values of ``keys`` into the URL's query string."""
    for key in keys:
        if key in st.session_state:
            st.query_params[key] = _format(st.session_state[key])


def settings(keys) -> dict:
    """The current values of ``keys`` as a plain dict (for the settings download)."""
    return {key: st.session_state[key] for key in keys if key in st.session_state}


def tabs(key: str, labels) -> list:
    """Tabs whose open label lives in the URL (``?key=label``): only the open tab's content runs.

    Each returned container's ``.open`` says whether its content should be computed this run, so a
    page draws the charts of one tab at a time; switching tabs reruns the page.
    """
    return st.tabs(list(labels), key=key, bind="query-params")
