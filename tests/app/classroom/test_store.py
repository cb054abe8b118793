"""The class sessions' store, for real on both backends: SQLite in a file and Redis on a
throwaway ``redis-server``. A second send replaces the first, sessions expire, ending one deletes its answers, two
processes share one session, and no hostile code, secret or answer moves, reads or reaches another session."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.app.conftest import ROOT
from tests.redis_server import redis_server
from ui.classroom import codes
from ui.classroom.store import TTL, NotTeacher, location, open_store


class Clock:
    """A clock the test moves (seconds since the epoch, starting now)."""

    def __init__(self) -> None:
        import time

        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(params=["sqlite", "redis"])
def where(request, tmp_path):
    return str(tmp_path / "classes.sqlite") if request.param == "sqlite" else request.getfixturevalue("redis_url")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(where, clock):
    return open_store(where, clock=clock)


def test_a_second_send_replaces_the_first(store):
    session, secret = store.start()
    first, second = codes.new_device(), codes.new_device()
    assert store.send(session.code, 1, first, 0) and store.send(session.code, 1, second, 2)
    assert store.send(session.code, 1, first, 1)
    assert store.answer(session.code, 1, first) == 1
    assert store.tally(session.code, 1, secret) == {1: 1, 2: 1}


def test_the_teacher_moves_the_class_and_reveals(store):
    session, secret = store.start()
    device = codes.new_device()
    assert not store.send(session.code, 2, device, 0)  # not the open step
    moved = store.move(session.code, secret, step=2)
    assert (moved.step, moved.revealed) == (2, False) == (store.session(session.code).step, False)
    assert store.send(session.code, 2, device, 0)
    with pytest.raises(NotTeacher):
        store.tally(session.code, 2)  # a student reads no tally before the reveal
    store.move(session.code, secret, revealed=True, students_move=True)
    assert store.session(session.code).revealed and store.session(session.code).students_move
    assert store.tally(session.code, 2) == {0: 1}  # after it, everyone does
    assert not store.send(session.code, 2, device, 1)  # and the answers are closed
    assert store.move(session.code, secret, step=3).revealed is False


def test_sessions_expire_and_a_move_extends_them(store, clock):
    session, secret = store.start()
    clock.now += TTL - 10
    store.move(session.code, secret, step=2)
    clock.now += TTL - 10
    assert store.session(session.code) is not None
    clock.now += 20
    assert store.session(session.code) is None
    assert not store.teaches(session.code, secret)
    assert not store.send(session.code, 2, codes.new_device(), 0)
    with pytest.raises(NotTeacher):
        store.move(session.code, secret, step=3)


def test_ending_a_session_deletes_its_answers(store):
    session, secret = store.start()
    device = codes.new_device()
    store.send(session.code, 1, device, 0)
    store.guess(session.code, device, True)
    store.end(session.code, secret)
    assert store.session(session.code) is None and store._load(session.code) is None
    assert store._answers(session.code, 1) == {} and store._score(session.code) == (0, 0)


def test_the_games_rounds_are_pooled_over_devices(store):
    session, secret = store.start()
    first, second = codes.new_device(), codes.new_device()
    for device, hits in ((first, (True, True, False)), (second, (False, True))):
        for hit in hits:
            assert store.guess(session.code, device, hit)
    assert store.score(session.code, secret) == (3, 5)
    with pytest.raises(NotTeacher):
        store.score(session.code)
    store.move(session.code, secret, revealed=True)
    assert store.score(session.code) == (3, 5)


def test_two_processes_share_one_session(store, where):
    session, secret = store.start()
    device = codes.new_device()
    script = ("import sys; from ui.classroom.store import open_store; s = open_store(sys.argv[1]); "
              "assert s.session(sys.argv[2]).step == 1; assert s.send(sys.argv[2], 1, sys.argv[3], 2); "
              "s.move(sys.argv[2], sys.argv[4], step=2)")
    subprocess.run([sys.executable, "-c", script, where, session.code, device, secret], cwd=ROOT, check=True,
                   timeout=60)
    assert store.tally(session.code, 1, secret) == {2: 1}
    assert store.session(session.code).step == 2


def test_no_wrong_secret_moves_reads_or_ends_a_session(store):
    session, secret = store.start()
    other, other_secret = store.start()
    for wrong in (None, "", other_secret, secret[:-1] + ("0" if secret[-1] != "0" else "1"), secret.upper()):
        assert not store.teaches(session.code, wrong)
        with pytest.raises(NotTeacher):
            store.move(session.code, wrong, step=5)
        with pytest.raises(NotTeacher):
            store.tally(session.code, 1, wrong)
        with pytest.raises(NotTeacher):
            store.end(session.code, wrong)
    assert store.session(session.code).step == 1 and store.teaches(other.code, other_secret)


@pytest.mark.parametrize("code", ["", "ABC", "MQ3H7T' OR '1'='1", "*", "AAAAAA:answers", "<b>X</b>", "0OIL1Z",
                                  "mpe:class:*", "ACDEFG\n"])
def test_a_hostile_code_reaches_no_session(store, code):
    session, secret = store.start()
    assert store.session(code) is None and not store.teaches(code, secret)
    with pytest.raises(ValueError, match="is not a join code"):
        store.send(code, 1, codes.new_device(), 0)
    assert store.session(session.code).step == 1


@pytest.mark.parametrize("step, device, choice, problem", [
    (1, "x" * 32, 0, "device id"), (1, None, 0, "device id"), (1, "ab:1", 0, "device id"),
    (1, "0" * 32, -1, "answer"), (1, "0" * 32, 99, "answer"), (1, "0" * 32, "1", "answer"), (1, "0" * 32, True, "answer"),
    (0, "0" * 32, 0, "step"), ("1", "0" * 32, 0, "step")])
def test_a_hostile_answer_is_refused_with_its_reason(store, step, device, choice, problem):
    session, secret = store.start()
    with pytest.raises(ValueError, match=problem):
        store.send(session.code, step, device if device is not None else "", choice)
    assert store.tally(session.code, 1, secret) == {}


def test_codes_are_unambiguous_and_forgiving():
    drawn = {codes.new_code() for _ in range(200)}
    assert len(drawn) == 200 and all(codes.code(code) == code for code in drawn)
    assert not set("".join(drawn)) & set("0O1IL2Z5S8BUV")
    assert codes.code("mq2 h7t") is None and codes.code("mq3 h7t") == "MQ3H7T"


def test_the_store_location(tmp_path):
    assert location({"MPE_CLASS_STORE": "redis://h:1/0"}) == "redis://h:1/0"
    assert location({"XDG_DATA_HOME": str(tmp_path)}) == str(tmp_path / "manifold-privacy-explorer" / "classes.sqlite")
    assert (tmp_path / "manifold-privacy-explorer").is_dir()
