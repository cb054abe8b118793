"""Presenter mode's walk through a page's Home presets: ← and → load the previous and the next one.

Each step loads its preset as Home's link opens it in a new session: the address becomes the link's
(``present=1`` kept) and the page's values leave the session, so the page applies the preset from
``?preset=NAME``, says what it loaded (``ui.presets``) and keeps none of the values shown before (another
seed or sample size would no longer show what the preset's label and note state). The keys are Streamlit's own button shortcuts, as on the Lesson, whose
page has no Home preset and keeps ← and → for its steps. Outside presenter mode nothing is drawn.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui import presenter, state
from ui.home_presets import PRESETS

#: Session key: (page script, index into ``PRESETS``) of the preset presenter mode shows.
SHOWN = "_preset_steps_shown"
#: Keys of the two buttons.
BACK, FORWARD = "preset_steps_back", "preset_steps_forward"
#: The app's folder, against which ``PRESETS`` names the page scripts.
ROOT = Path(__file__).resolve().parents[1]


def _page_script() -> str | None:
    """The running page's script relative to the app's folder (``pages/3_Utility.py``), as ``PRESETS`` names it."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    path = ctx.pages_manager.get_pages().get(ctx.page_script_hash, {}).get("script_path")
    return Path(path).resolve().relative_to(ROOT).as_posix() if path else None


def page_presets(script: str) -> list[int]:
    """Indices into ``PRESETS`` of the page ``script``'s presets, in Home's order."""
    return [index for index, (_, page, _) in enumerate(PRESETS) if page == script]


def _load(script: str, index: int) -> None:
    """Load ``PRESETS[index]`` as Home's link does in a new session (a button callback, before the page's widgets)."""
    params = PRESETS[index][2]
    for key in state.page_keys() | params.keys():
        st.session_state.pop(key, None)
    st.query_params.from_dict({**params, presenter.KEY: "1"})
    st.session_state[SHOWN] = (script, index)


def _opened_from_home(script: str, indices: list[int]) -> int | None:
    """The preset whose Home link opened this run's address (its ``preset`` still there), if any."""
    address = st.query_params.to_dict()
    if "preset" not in address:
        return None
    return next((index for index in indices if address.items() >= PRESETS[index][2].items()), None)


def show() -> None:
    """In presenter mode on a page with Home presets: ← (key ←), "Preset k of K: its label", → (key →)."""
    script = _page_script()
    indices = page_presets(script) if presenter.active() and script else []
    if not indices:
        return
    opened = _opened_from_home(script, indices)
    if opened is not None:
        st.session_state[SHOWN] = (script, opened)
    shown_script, shown = st.session_state.get(SHOWN, (None, None))
    position = indices.index(shown) + 1 if shown_script == script and shown in indices else 0
    back_to = indices[position - 2] if position >= 2 else indices[-1]
    forward_to = indices[position] if position < len(indices) else indices[-1]
    back, text, forward = st.columns([1, 6, 1], vertical_alignment="center")
    back.button("←", key=BACK, on_click=_load, args=(script, back_to), disabled=position == 1,
                help="Previous preset", shortcut="Left")
    if position:
        text.markdown(f"**Preset {position} of {len(indices)}:** {PRESETS[shown][0]}")
    else:
        text.markdown(f"**Presets from the papers: {len(indices)}.** → loads the first, ← the last.")
    forward.button("→", key=FORWARD, on_click=_load, args=(script, forward_to), disabled=position == len(indices),
                   help="Next preset", shortcut="Right")
