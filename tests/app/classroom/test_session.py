"""A class session on the Lesson through AppTest: the teacher starts it, a student joins by code and
sends an answer, the teacher's tally counts it, the teacher's step and reveal reach the student, an intruder on
the teacher's address moves nothing, and an unknown or hostile code is one literal line."""

from __future__ import annotations

import pytest

from tests.app.conftest import ROOT, app_at, assert_clean
from ui.classroom.game import ROUND
from ui.classroom.store import STORE_ENV, store_at
from ui.lesson.steps import CEILING, STEPS

LESSON = ROOT / "pages" / "9_Lesson.py"


@pytest.fixture
def where(tmp_path, monkeypatch):
    path = str(tmp_path / "classes.sqlite")
    monkeypatch.setenv(STORE_ENV, path)
    return path


def _run(at):
    at.run()
    assert_clean(at)
    return at


def _texts(at) -> list[str]:
    return [element.value for kind in ("markdown", "success", "info", "warning", "error") for element in getattr(at, kind)]


def _teacher():
    teacher = _run(app_at(LESSON))
    teacher.button(key="class_start").click()
    return _run(teacher), teacher.query_params["class"]


def _student(code: str):
    student = app_at(LESSON)
    student.query_params["join"] = code
    return _run(student)


def test_a_class_session_start_to_end(where):
    teacher, code = _teacher()
    code = code[0] if isinstance(code, list) else code
    assert any(f"Step 1 of {len(STEPS)}** · 0 answers" in text for text in _texts(teacher))
    (qr,) = teacher.get("image")
    assert qr.proto.imgs[0].caption == "Scan to join"
    first, second = _student(code), _student(code)
    assert any(f"Step 1 of {len(STEPS)}" in text for text in _texts(first))
    assert not first.sidebar.button and first.button(key="class_send").proto.disabled  # nothing picked yet
    for student, choice in ((first, 1), (second, 0)):
        student.radio[0].set_value(STEPS[0].choices[choice])
        _run(student).button(key="class_send").click()
        assert any("Sent: **" in text for text in _texts(_run(student)))
    assert any("· 2 answers" in text for text in _texts(_run(teacher)))
    teacher.button(key="lesson_forward").click()
    _run(teacher)
    assert store_at(where).session(code).step == 2
    assert any(f"Step 2 of {len(STEPS)}" in text for text in _texts(_run(first)))
    first.radio[0].set_value(STEPS[1].choices[2])
    _run(first).button(key="class_send").click()
    _run(first)
    teacher.button(key="class_reveal").click()
    _run(teacher)
    right = STEPS[1].answer()[0]
    revealed = _texts(_run(first))
    assert any(f"The answer: **{STEPS[1].choices[right]}**" in text for text in revealed), revealed
    assert any("**The class:** 1 answer" in text for text in revealed)
    assert any(STEPS[1].takeaway in text for text in revealed)
    teacher.button(key="class_end").click()
    _run(teacher)
    assert store_at(where).session(code) is None and store_at(where)._answers(code, 1) == {}
    assert any(f"No class session with code `'{code}'` — ask your teacher for the code" in text
               for text in _texts(_run(first)))


def test_an_intruder_on_the_teachers_address_moves_nothing(where):
    teacher, code = _teacher()
    intruder = app_at(LESSON)
    intruder.query_params["class"] = code
    _run(intruder)
    assert any("is taught from another browser" in text for text in _texts(intruder))
    assert not any("answer" in text and "Step" in text for text in _texts(intruder))  # no tally
    intruder.button(key="lesson_forward").click()
    _run(intruder)
    assert store_at(where).session(code).step == 1


@pytest.mark.parametrize("code", ["NOPE42", "<img src=x onerror=alert(1)>", "[log in](https://evil.example)", ""])
def test_an_unknown_or_hostile_code_is_one_literal_line(where, code):
    student = _student(code)
    (error,) = student.error
    assert error.value.startswith("No class session with code `'") and error.value.endswith(
        "` — ask your teacher for the code")
    assert not student.radio and not student.button


def test_the_game_step_pools_the_class_rounds_against_the_ceiling(where):
    number = next(index for index, step in enumerate(STEPS, 1) if step.game)
    teacher = app_at(LESSON)
    teacher.query_params["step"] = str(number)
    _run(teacher).button(key="class_start").click()
    _run(teacher)
    code = teacher.query_params["class"]
    student = _student(code)
    for wanted_hit in (True, True, False):
        side = student.session_state[ROUND]["side"]
        guess = side if wanted_hit else 1 - side
        student.button(key=("class_guess_first", "class_guess_second")[guess]).click()
        _run(student)
    assert store_at(where)._score(code) == (2, 3)
    line = next(text for text in _texts(_run(teacher)) if "The class's guesses" in text)
    assert "66.7% right of 3 rounds" in line and f"{CEILING:.1%}" in line and "best possible attacker" not in line
    teacher.button(key="class_reveal").click()
    _run(teacher)
    revealed = _texts(_run(student))
    assert any("66.7% right of 3 rounds" in text and "best possible attacker" in text for text in revealed), revealed


@pytest.mark.parametrize("code", ["NOPE42", "<b>bold</b>"])
def test_a_teachers_address_with_an_unknown_code_is_one_literal_line(where, code):
    teacher = app_at(LESSON)
    teacher.query_params["class"] = code
    (warning,) = _run(teacher).warning
    assert warning.value.startswith(f"No class session with code `'{code}'`: it ended or expired")
    assert teacher.button(key="class_start")


def test_each_step_is_revealed_for_all_in_turn(where):
    teacher, code = _teacher()
    for number in (1, 2):
        assert (store_at(where).session(code).step, store_at(where).session(code).revealed) == (number, False)
        teacher.button(key="class_reveal").click()
        assert store_at(where).session(_run(teacher).query_params["class"]).revealed
        assert any("The answer: **" in text for text in _texts(teacher))  # the teacher's own lesson too
        teacher.button(key="lesson_forward").click()
        _run(teacher)
