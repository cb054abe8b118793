"""Page state that lives in the URL: widgets take their first value from the query string and
write their current value back, so copying the address reproduces the view.

One rule for keys that several pages use (``eps``, ``n``, ``seed``, ``space``, ``reps``, ...): every
key belongs to the page that draws it. Leaving a page puts its values aside and coming back brings
them back, so a page opens with the address's values, a preset's, the ones the user left it with,
or its defaults, never with another page's value for a control of the same name. Every run hands
the widget its value through the session (``init``), so a widget that Streamlit sees as new (another
label, range or option list under the same key) still shows that value rather than its minimum.
The one exception is a session's first page in a tab that already shows it (the server restarted, or the
connection was lost): its widgets keep the values the browser holds, even one moved while reconnecting.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.state import get_session_state
from streamlit.runtime.state.common import is_keyed_element_id, user_key_from_element_id

from ui.literal import literal

#: Session keys of this module: the page whose values the session holds, the keys each page
#: draws, the values each page left when the user moved to another one, and what the page
#: keeps for the current visit only.
PAGE, KEYS, LEFT, VISIT = "_state_page", "_state_keys", "_state_left", "_state_visit"
#: Session key of the address keys each page takes without drawing them in every state (``own``).
OWNED = "_state_owned"
#: Key of ``visit()``: the widget keys whose values the browser brought from an earlier session of its tab.
RESTORED = "restored"


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


def _current_page() -> str:
    """Streamlit's hash of the page being run (empty outside a script run)."""
    ctx = get_script_run_ctx()
    return ctx.page_script_hash if ctx is not None else ""


def enter_page() -> None:
    """On the first call after a page switch, swap the previous page's values for this page's.

    The previous page's keys leave the session (kept aside for its return); this page's own values,
    left there before, come back unless the address names them, and a new ``visit`` begins. Called by
    ``ui.navigation.sidebar`` before a page applies a preset, and by ``init``; later calls of the same
    run do nothing.
    """
    page = _current_page()
    previous = st.session_state.get(PAGE)
    if previous == page:
        return
    keys, left = st.session_state.setdefault(KEYS, {}), st.session_state.setdefault(LEFT, {})
    if previous is not None:
        left[previous] = {key: st.session_state.pop(key) for key in keys.get(previous, ()) if key in st.session_state}
    for key, value in left.pop(page, {}).items():
        if key not in st.query_params:
            st.session_state[key] = value
    st.session_state[PAGE] = page
    st.session_state[VISIT] = {RESTORED: _browser_keys() if previous is None else set()}


def _browser_keys() -> set[str]:
    """Keys of the widgets whose values came with this run's request from the browser.

    In a session's first run these are the widgets of a tab that already shows the page, drawn by an
    earlier session (a restarted server, a lost connection); a new tab has none. Streamlit can read them
    only once the widget is drawn (``st.session_state`` does not hold them before)."""
    states = get_session_state().get_widget_states()
    return {user_key_from_element_id(s.id) for s in states if is_keyed_element_id(s.id)}


def restored() -> bool:
    """Whether the browser shows this page from an earlier session: its widgets hold values the new
    session has yet to read (``init`` leaves them to the widgets)."""
    return bool(visit()[RESTORED])


def visit() -> dict:
    """What the current page keeps while the user stays on it: emptied whenever a page is entered
    (in the sidebar, from a link, or in a new session)."""
    enter_page()
    return st.session_state.setdefault(VISIT, {})


def _problem(value, default, options, bounds) -> str | None:
    """Why ``value`` cannot be a widget's value, or ``None`` when it can; names the values it can take."""
    if value is None:
        return "it must be true or false" if isinstance(default, bool) else "not a valid value"
    if options is not None:
        items = value if isinstance(value, list) else [value]
        if not all(item in options for item in items):
            names = [str(option) for option in options]
            if len(names) <= 8:
                return f"it must be one of {', '.join(names)}"
            return f"it must be one of {', '.join(names[:2])}, …, {names[-1]} ({len(names)} choices)"
    if bounds is not None and not bounds[0] <= value <= bounds[1]:
        return f"it must lie in [{bounds[0]}, {bounds[1]}]"
    return None


def _resolve(key: str, default, options, bounds) -> tuple[object, str | None]:
    """The value ``init`` gives the widget ``key``, and the warning about a bad address value (or None)."""
    enter_page()
    raw = None
    if key in st.session_state:
        value = st.session_state[key]
    elif key in st.query_params:
        raw = st.query_params[key]
        value = _parse(raw, default)
    else:
        value = default
    problem = _problem(value, default, options, bounds)
    if problem is None:
        return value, None
    if raw is None:
        return default, None
    return default, (f"Ignored the address parameter {key}={literal(raw)}: {problem}; "
                     f"using {literal(_format(default))}.")


def init(key: str, default, *, options=None, bounds=None) -> None:
    """Put the value of the widget ``key`` into ``st.session_state`` before the widget is drawn.

    The value is the session's (this page's, see ``enter_page``), else the URL's, else ``default``;
    one not among ``options`` or outside ``bounds = (low, high)`` is replaced by ``default``, with an
    ``st.warning`` (quoting the address value as literal text) when it came from the address. The
    value is written back every run, so the widget receives it even when Streamlit sees a new widget.
    A value the browser brought from an earlier session (``restored``) is not overwritten: the widget
    reads it when drawn, so a slider moved while the page reconnected keeps its new position.
    """
    enter_page()
    st.session_state[KEYS].setdefault(st.session_state[PAGE], set()).add(key)
    if key not in st.session_state and key in visit()[RESTORED]:
        return
    value, warning = _resolve(key, default, options, bounds)
    if warning is not None:
        st.warning(warning)
    st.session_state[key] = value


def value(key: str, default, *, options=None, bounds=None):
    """The value ``init`` would give the widget ``key``, leaving the session and the page as they are.

    For a run that draws no widgets (a chart-first run, ``ui.first_paint``): the next run's ``init`` finds
    the same value and shows the warning about a bad address value, if any.
    """
    return _resolve(key, default, options, bounds)[0]


def own(keys) -> None:
    """Declare ``keys`` the current page's address keys, including those whose widgets it draws only in
    some states (the animation's ``anim_over`` when the animation is off), so ``ui.address_keys`` does not
    call them unknown; nothing is drawn or read."""
    enter_page()
    st.session_state.setdefault(OWNED, {}).setdefault(st.session_state[PAGE], set()).update(keys)


def page_keys() -> set[str]:
    """The address keys of the current page: its widgets' (``init``, ``ui.sections``) and those it ``own``s."""
    enter_page()
    page = st.session_state[PAGE]
    return set(st.session_state[KEYS].get(page, ())) | st.session_state.get(OWNED, {}).get(page, set())


def sync(keys) -> None:
    """Write the current widget values of ``keys`` into the URL's query string: those that differ from it,
    in one message to the browser (each write of ``st.query_params`` is a message of its own, and every
    message of a run crosses to the server's event loop: the playground sent ten per rerun)."""
    changed = {key: _format(st.session_state[key]) for key in keys if key in st.session_state}
    changed = {key: text for key, text in changed.items() if st.query_params.get_all(key) != [text]}
    if changed:
        st.query_params.update(changed)


def settings(keys) -> dict:
    """The current values of ``keys`` as a plain dict (for the settings download)."""
    return {key: st.session_state[key] for key in keys if key in st.session_state}
