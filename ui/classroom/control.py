"""Who teaches a class session, and the lesson's moves sent to it: the small part of ``ui.classroom`` that the
Lesson's own views call (``publish``) without importing the class's views.

The teacher's secret never reaches the page or the address (a projector shows both): it is kept in the session and
in a cookie of the teacher's browser (``ui.classroom.views``), which a reload sends back (``st.context.cookies``).
"""

from __future__ import annotations

import streamlit as st

from ui.classroom import codes
from ui.classroom.store import ClassStore, location, store_at

#: Address key of the teacher's open session.
CLASS = "class"
#: Cookie of the teacher's ``CODE.secret``.
TEACHER_COOKIE = "mpe_class_teacher"
#: Session keys: the teacher's (code, secret) and the last (code, step, revealed) sent to the store.
TEACH, PUBLISHED = "_class_teach", "_class_published"


def store() -> ClassStore:
    """The app's class store (``ui.classroom.store.location``)."""
    return store_at(location())


def cookie(name: str) -> str:
    """The value of this browser's cookie ``name`` as its session began ("" without one, or without a browser)."""
    value = st.context.cookies.get(name)
    return value if isinstance(value, str) else ""


def teaching() -> tuple[str, str] | None:
    """The (code, secret) of the live session this browser teaches: the session's, or after a reload the
    teacher's cookie for the address's ``class`` code; ``None`` for every other browser."""
    held = st.session_state.get(TEACH)
    if held is not None:
        if store().teaches(*held):
            return held
        del st.session_state[TEACH]
    code = codes.code(st.query_params.get(CLASS))
    cookie_code, _, secret = cookie(TEACHER_COOKIE).partition(".")
    if code is not None and cookie_code == code and store().teaches(code, secret):
        st.session_state[TEACH] = (code, secret)
        return code, secret
    return None


def publish(number: int, revealed: bool) -> None:
    """Send the teacher's open step ``number`` and whether it is ``revealed`` to the class (nothing for a browser
    that teaches no class, or when neither changed)."""
    held = teaching()
    if held is None or st.session_state.get(PUBLISHED) == (held[0], number, revealed):
        return
    store().move(*held, step=number, revealed=revealed)
    st.session_state[PUBLISHED] = (held[0], number, revealed)
