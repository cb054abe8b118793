"""A live class session on the Lesson (issue 46): the teacher's panel below the lesson, and the student's view that
``/Lesson?join=CODE`` opens on a phone.

The teacher presses "Start a class session": the address then holds ``class=CODE`` and the panel shows the code,
a QR code of the join address, "Step k of 9" and the live tally. The teacher's secret never reaches the page or
the address (a projector shows both): it is kept in this session and in a cookie of the teacher's browser, which
a reload sends back (``st.context.cookies``); a browser that opens the teacher's address, without the cookie, only
follows the lesson on its own. Every move of the teacher's lesson (step, Reveal) goes to the store
(``publish``, called by ``ui.lesson.views``); each student's view polls it every ``POLL`` seconds and redraws the
step when it changed. A student's device is a random id, in the session and a cookie, so a reload keeps its answer.
"""

from __future__ import annotations

import html
import io
import re
from urllib.parse import urlsplit

import segno
import streamlit as st

from ui import state
from ui.classroom import codes, game
from ui.classroom.control import CLASS, PUBLISHED, TEACH, TEACHER_COOKIE, cookie, store, teaching
from ui.classroom.figures import tally_figure
from ui.classroom.store import TTL
from ui.figure_cache import cache_figures
from ui.lesson import views as lesson
from ui.lesson.steps import GAME_EPSILON, STEPS
from ui.literal import literal
from ui.live_chart import live_chart

#: Address key of the code a student joins.
JOIN = "join"
#: Cookie of a student device's id.
DEVICE_COOKIE = "mpe_class_device"
#: Session keys: the device id, and the (step, revealed) a student's view drew.
DEVICE, DRAWN = "_class_device", "_class_drawn"
#: Seconds between two reads of the store by a student's view and by the teacher's tally.
POLL = 1.0
#: The student's phone: no sidebar, larger type, less blank space (a constant: nothing from the address in it).
PHONE_STYLE = """<style>
[data-testid="stSidebar"], [data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapsedControl"] {
  display: none; }
html { font-size: 115%; }
[data-testid="stMainBlockContainer"] { padding: 2.5rem 1rem 2rem 1rem; }
</style>"""
#: Host names no other device reaches.
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
#: An address with nothing a Markdown code span could end or render.
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9:/.?=_\-\[\]%]+")
#: The join code as the projector shows it.
CODE_STYLE = "font-size: 3.2rem; font-weight: 700; letter-spacing: 0.12em; line-height: 1.1; font-family: monospace;"
#: The tally's chart, built once per (choices, counts, right): the teacher's poll redraws it unchanged every
#: ``POLL`` seconds, and after a reveal every phone draws the same one.
tally_chart = cache_figures(max_entries=64)(tally_figure)


def _set_cookie(name: str, value: str, max_age: float) -> None:
    """Set the cookie ``name`` of this browser (``value`` hex and code characters only, checked by the caller)."""
    st.html(f"<script>document.cookie = '{name}={value}; path=/; max-age={int(max_age)}; samesite=strict' + "
            "(location.protocol === 'https:' ? '; secure' : '');</script>", unsafe_allow_javascript=True)


def _count(number: int) -> str:
    return f"{number} answer{'' if number == 1 else 's'}"


def _step_line(number: int) -> str:
    return f"Step {number} of {len(STEPS)}"


# The teacher ----------------------------------------------------------------------------------------------------
def _start() -> None:
    session, secret = store().start(step=st.session_state.get(lesson.STEP, 1))
    st.session_state[TEACH] = (session.code, secret)
    st.session_state.pop(PUBLISHED, None)


def _end(code: str, secret: str) -> None:
    store().end(code, secret)
    st.session_state.pop(TEACH, None)
    st.query_params.pop(CLASS, None)


def _reveal(code: str, secret: str) -> None:
    number = store().move(code, secret, revealed=True).step
    lesson.reveal(number)


def _students_move(code: str, secret: str) -> None:
    store().move(code, secret, students_move=st.session_state["class_students_move"])


def join_address(code: str) -> str:
    """The address a student opens: this server's Lesson with ``join=CODE``."""
    parts = urlsplit(st.context.url or "")
    base = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    prefix = (st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{base}/{prefix + '/' if prefix else ''}Lesson?{JOIN}={code}"


def _shown(address: str) -> str:
    """The join address as a code span: as it is when it has only an address's plain characters, else quoted
    (``ui.literal``; the host comes from the browser)."""
    return f"`{address}`" if _PLAIN_ADDRESS.fullmatch(address) else literal(address, limit=200)


def qr_png(text: str) -> bytes:
    """A QR code of ``text`` (``segno``, error correction M), black on white, as PNG bytes."""
    buffer = io.BytesIO()
    segno.make_qr(text, error="m").save(buffer, kind="png", scale=8, border=2)
    return buffer.getvalue()


def teacher() -> None:
    """Below the lesson: "Start a class session", or the live session's panel; on the address of a session this
    browser does not teach, one line saying so."""
    state.own([CLASS])
    held = teaching()
    if held is None:
        raw = st.query_params.get(CLASS)
        if raw is not None:
            code = codes.code(raw)
            if code is not None and store().session(code) is not None:
                st.info(f"Class session {literal(code)} is taught from another browser: this one follows the lesson "
                        "on its own, and cannot move the class or read its answers.")
            else:
                st.warning(f"No class session with code {literal(raw)}: it ended or expired. Start a new one below.")
        st.button("Start a class session", key="class_start", icon=":material/groups:", on_click=_start,
                  help="Students join on their phones with a code; their predictions are tallied here.")
        return
    code, secret = held
    st.query_params[CLASS] = code
    _set_cookie(TEACHER_COOKIE, f"{code}.{secret}", TTL)
    _panel(code, secret)


def _panel(code: str, secret: str) -> None:
    session = store().session(code)
    address = join_address(code)
    with st.container(border=True, key="class_panel"):
        info, qr, tally = st.columns([3, 2, 4])
        with info:
            st.markdown("**Class session.** Join with the code")
            st.html(f'<div style="{CODE_STYLE}" data-testid="class-code">{html.escape(code)}</div>')
            st.markdown(f"on the Lesson, or open {_shown(address)}")
            if urlsplit(address).hostname in LOOPBACK:
                st.caption("This is the address of this computer alone: for the class's phones, serve the app on "
                           "the room's network (`make serve HOST=0.0.0.0`) and open it at the computer's address.")
            st.toggle("Students may move the controls", key="class_students_move", value=session.students_move,
                      on_change=_students_move, args=(code, secret),
                      help="Off: students watch the step. On: each student can open the step's full page and "
                           "move its ε and n on their own phone.")
            left, right = st.columns(2)
            left.button("Reveal for all", key="class_reveal", on_click=_reveal, args=(code, secret), type="primary",
                        help="Reveals the open step's answer on every phone and here.")
            right.button("End the class session", key="class_end", on_click=_end, args=(code, secret),
                         help="Deletes every answer of this session.")
        qr.image(qr_png(address), width="stretch", caption="Scan to join", alt=f"QR code of {address}")
        with tally:
            _tally(code, secret)


@st.fragment(run_every=POLL)
def _tally(code: str, secret: str) -> None:
    """The class's answers to the open step, read again every ``POLL`` seconds."""
    session = store().session(code)
    if session is None:
        st.warning("This class session ended or expired.")
        return
    step = STEPS[session.step - 1]
    counts = store().tally(code, session.step, secret)
    st.markdown(f"**{_step_line(session.step)}** · {_count(sum(counts.values()))}"
                + (" · revealed" if session.revealed else ""))
    right = step.answer()[0] if session.revealed else None
    st.plotly_chart(tally_chart(step.choices, counts, right), key="class_tally_chart", config={"displayModeBar": False})
    if step.game:
        st.markdown(game.score_line(*store().score(code, secret), GAME_EPSILON, session.revealed))


# The student -----------------------------------------------------------------------------------------------------
def joining() -> bool:
    """Whether the address asks for the student's view (``join=…``)."""
    return JOIN in st.query_params


def _device() -> str:
    """This device's id: the session's, else the browser's cookie, else a new one (then kept in the cookie)."""
    held = st.session_state.get(DEVICE)
    if held is None:
        kept = cookie(DEVICE_COOKIE)
        held = kept if codes.is_device(kept) else codes.new_device()
        st.session_state[DEVICE] = held
    _set_cookie(DEVICE_COOKIE, held, 30 * 86400)
    return held


def student() -> None:
    """The student's view of the session ``join=CODE``: the teacher's step, its chart and question, "Send my
    answer"; after the reveal the answer, its numbers and the class's tally. An unknown or expired code is one
    line."""
    st.html(PHONE_STYLE)
    state.own([JOIN])
    raw = st.query_params.get(JOIN)
    code = codes.code(raw)
    session = store().session(code) if code else None
    if session is None:
        st.error(f"No class session with code {literal(raw)} — ask your teacher for the code")
        return
    device = _device()
    st.session_state[DRAWN] = (session.step, session.revealed)
    _follow(code)
    number, step = session.step, STEPS[session.step - 1]
    st.header(step.title)
    live_chart(lesson.step_chart(number), key="class_chart")
    if session.revealed:
        _revealed(code, number, device)
    else:
        _answer(code, number, device)
        if step.game:
            game.play(code, device, GAME_EPSILON)
    if session.students_move:
        st.page_link(step.page, label="Open the full page and move its controls", icon=":material/open_in_new:",
                     query_params=step.params)


@st.fragment(run_every=POLL)
def _follow(code: str) -> None:
    """"Step k of 9", read again every ``POLL`` seconds; the whole view is redrawn once the teacher moved or
    revealed (or ended the session)."""
    session = store().session(code)
    if session is None or (session.step, session.revealed) != st.session_state.get(DRAWN):
        st.rerun(scope="app")
    st.markdown(f"**{_step_line(session.step)}** · class {code}")


@st.fragment
def _answer(code: str, number: int, device: str) -> None:
    """The step's question and "Send my answer" (its own fragment: a pick or a send redraws no chart)."""
    step = STEPS[number - 1]
    sent = store().answer(code, number, device)
    pick = st.radio(f"**Predict:** {step.question}", step.choices, index=sent, key=f"class_pick_{number}")
    if st.button("Send my answer", key="class_send", type="primary", disabled=pick is None):
        if not store().send(code, number, device, step.choices.index(pick)):
            st.rerun(scope="app")  # the teacher moved on or revealed in between
        sent = step.choices.index(pick)
    if sent is not None:
        st.success(f"Sent: **{step.choices[sent]}**. You can change it until the teacher reveals the answer.")


def _revealed(code: str, number: int, device: str) -> None:
    step = STEPS[number - 1]
    right, numbers = step.answer()
    mine = store().answer(code, number, device)
    verdict = ("You sent no answer." if mine is None else
               "You were right." if mine == right else f"You answered {step.choices[mine]}.")
    (st.success if mine == right else st.info)(f"{verdict} The answer: **{step.choices[right]}**. {numbers}")
    counts = store().tally(code, number)
    st.markdown(f"**The class:** {_count(sum(counts.values()))}")
    st.plotly_chart(tally_chart(step.choices, counts, right), key="class_tally_chart",
                    config={"displayModeBar": False})
    if step.game:
        st.markdown(game.score_line(*store().score(code), GAME_EPSILON, True))
    st.info(f"**{step.headline}.** {step.takeaway}")
