"""The shared state of class sessions behind one small interface, ``ClassStore``: in one SQLite file by default
(every app process on the machine: ``make serve``), in Redis when ``MPE_CLASS_STORE=redis://…`` (processes on
several machines).

A session is its join code, the digest of the teacher's secret, the open step, whether its answer is revealed,
whether students may move the step's controls, and when it expires; an answer is one choice keyed by
(code, step, device id), a second send replacing the first. No name is asked or stored. What only the teacher may
do (move, reveal, read the tally before the reveal, end) takes the secret, compared with the stored SHA-256 digest
in constant time; every value is checked (``ui.classroom.codes``) before it forms a key or a query, and SQL takes
it as a parameter, so no code or answer reaches another session.
"""

from __future__ import annotations

import abc
import functools
import hashlib
import hmac
import json
import os
import sqlite3
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

from ui.classroom import codes

#: Seconds a session lives after the teacher's last move: a lesson's length, with room.
TTL = 4 * 3600.0
#: Seconds an SQLite writer waits for another process's lock.
BUSY_TIMEOUT = 30.0
#: Largest step number and number of choices an answer may name.
MAX_STEP, MAX_CHOICES = 99, 16


@dataclass(frozen=True)
class Session:
    """A class session as every device may read it (never the secret): ``step`` 1-based, ``expires`` in
    seconds since the epoch."""

    code: str
    step: int
    revealed: bool
    students_move: bool
    expires: float


class NotTeacher(PermissionError):
    """The secret given is not the session's (or the session is gone)."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _checked(code: str, step: int, device: str | None = None, choice: int | None = None) -> None:
    """Raise ValueError naming the first of ``code``, ``step``, ``device``, ``choice`` that cannot be stored."""
    if codes.code(code) != code:
        raise ValueError(f"class code {code!r} is not a join code: {codes.LENGTH} of {codes.ALPHABET}")
    if not isinstance(step, int) or not 1 <= step <= MAX_STEP:
        raise ValueError(f"step {step!r} must be a whole number from 1 to {MAX_STEP}")
    if device is not None and not codes.is_device(device):
        raise ValueError(f"device id {device!r} must be {2 * codes.DEVICE_BYTES} hex characters")
    if choice is not None and (not isinstance(choice, int) or isinstance(choice, bool) or
                               not 0 <= choice < MAX_CHOICES):
        raise ValueError(f"answer {choice!r} must be a choice's index from 0 to {MAX_CHOICES - 1}")


class ClassStore(abc.ABC):
    """What a class session does, on a backend's eight primitives (``_insert``, ``_load``, ``_save``,
    ``_put_answer``, ``_answers``, ``_add_round``, ``_score``, ``_delete``). ``clock`` gives the time (seconds since the epoch)."""

    def __init__(self, ttl: float = TTL, clock: Callable[[], float] = time.time) -> None:
        self.ttl, self.clock = ttl, clock

    def start(self, step: int = 1) -> tuple[Session, str]:
        """A new session at ``step`` and the teacher's secret (shown to nobody: the teacher's browser keeps it)."""
        secret = codes.new_secret()
        while True:
            session = Session(codes.new_code(), step, False, False, self.clock() + self.ttl)
            _checked(session.code, step)
            if self._insert(session, _digest(secret)):
                return session, secret

    def session(self, code) -> Session | None:
        """The live session of join code ``code``, ``None`` for a code unknown, expired or malformed."""
        if codes.code(code) != code:
            return None
        found = self._load(code)
        if found is None or found[0].expires <= self.clock():
            return None
        return found[0]

    def teaches(self, code, secret) -> bool:
        """Whether ``secret`` is the teacher's secret of the live session ``code``."""
        if codes.code(code) != code or not codes.is_secret(secret):
            return False
        found = self._load(code)
        return (found is not None and found[0].expires > self.clock()
                and hmac.compare_digest(found[1], _digest(secret)))

    def _teacher(self, code, secret) -> Session:
        if not self.teaches(code, secret):
            raise NotTeacher(f"only the teacher's browser can move class session {code!r}")
        return self.session(code)

    def move(self, code: str, secret: str, *, step: int | None = None, revealed: bool | None = None,
             students_move: bool | None = None) -> Session:
        """The teacher's change: a new ``step`` (its answer hidden again unless ``revealed`` says otherwise),
        the reveal, whether students may move the controls; the session lives ``ttl`` more seconds."""
        session = self._teacher(code, secret)
        changed = replace(session, expires=self.clock() + self.ttl)
        if step is not None and step != session.step:
            _checked(code, step)
            changed = replace(changed, step=step, revealed=False)
        if revealed is not None:
            changed = replace(changed, revealed=bool(revealed))
        if students_move is not None:
            changed = replace(changed, students_move=bool(students_move))
        self._save(changed)
        return changed

    def send(self, code: str, step: int, device: str, choice: int) -> bool:
        """Store ``device``'s answer ``choice`` to ``step`` (replacing its last); ``False`` when the session is
        gone, on another step, or revealed (the answers are closed)."""
        _checked(code, step, device, choice)
        session = self.session(code)
        if session is None or session.step != step or session.revealed:
            return False
        self._put_answer(session, step, device, choice)
        return True

    def answer(self, code: str, step: int, device: str) -> int | None:
        """``device``'s own answer to ``step``, ``None`` if it sent none."""
        _checked(code, step, device)
        if self.session(code) is None:
            return None
        return self._answers(code, step).get(device)

    def tally(self, code: str, step: int, secret: str | None = None) -> dict[int, int]:
        """How many devices sent each choice to ``step``: for the teacher, or for everyone once the session
        shows ``step`` revealed."""
        _checked(code, step)
        session = self.session(code)
        if not (self.teaches(code, secret) or (session is not None and session.step == step and session.revealed)):
            raise NotTeacher(f"the tally of class session {code!r} is the teacher's until the reveal")
        counts: dict[int, int] = {}
        for choice in self._answers(code, step).values():
            counts[choice] = counts.get(choice, 0) + 1
        return counts

    def guess(self, code: str, device: str, hit: bool) -> bool:
        """Count one round of the game played on ``device`` (right or not) into the session's pooled score;
        ``False`` when the session is gone."""
        _checked(code, 1, device)
        session = self.session(code)
        if session is None:
            return False
        self._add_round(session, device, bool(hit))
        return True

    def score(self, code: str, secret: str | None = None) -> tuple[int, int]:
        """The class's pooled game score, (right guesses, rounds): for the teacher, or for everyone once the
        session's open step is revealed."""
        _checked(code, 1)
        session = self.session(code)
        if not (self.teaches(code, secret) or (session is not None and session.revealed)):
            raise NotTeacher(f"the game score of class session {code!r} is the teacher's until the reveal")
        return self._score(code)

    def end(self, code: str, secret: str) -> None:
        """Delete the session and every answer sent to it."""
        self._teacher(code, secret)
        self._delete(code)

    # Backend primitives -------------------------------------------------------------------------------------
    @abc.abstractmethod
    def _insert(self, session: Session, digest: str) -> bool:
        """Store a new session unless its code is taken by a live one; whether it was stored."""

    @abc.abstractmethod
    def _load(self, code: str) -> tuple[Session, str] | None:
        """The session of ``code`` and its secret's digest, or None."""

    @abc.abstractmethod
    def _save(self, session: Session) -> None:
        """Write ``session``'s step, reveal, students' control and expiry."""

    @abc.abstractmethod
    def _put_answer(self, session: Session, step: int, device: str, choice: int) -> None:
        """Store ``device``'s answer to ``step``, replacing an earlier one."""

    @abc.abstractmethod
    def _answers(self, code: str, step: int) -> dict[str, int]:
        """Device → choice of every answer to ``step``."""

    @abc.abstractmethod
    def _add_round(self, session: Session, device: str, hit: bool) -> None:
        """Count one game round of ``device``, a hit or not."""

    @abc.abstractmethod
    def _score(self, code: str) -> tuple[int, int]:
        """The class's (hits, rounds) in the game."""

    @abc.abstractmethod
    def _delete(self, code: str) -> None:
        """Delete the session and everything sent to it."""


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS sessions (code TEXT PRIMARY KEY, secret TEXT NOT NULL, step INTEGER NOT NULL, "
    "revealed INTEGER NOT NULL, students_move INTEGER NOT NULL, expires REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS answers (code TEXT NOT NULL, step INTEGER NOT NULL, device TEXT NOT NULL, "
    "choice INTEGER NOT NULL, PRIMARY KEY (code, step, device))",
    "CREATE TABLE IF NOT EXISTS rounds (code TEXT NOT NULL, device TEXT NOT NULL, hits INTEGER NOT NULL, "
    "rounds INTEGER NOT NULL, PRIMARY KEY (code, device))",
)


class SqliteClassStore(ClassStore):
    """Class sessions in the SQLite file ``path`` (WAL journal, a busy timeout: several processes read and write
    at once); expired sessions and their answers are deleted whenever a session starts."""

    def __init__(self, path: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.path = str(path)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            for statement in _SCHEMA:
                db.execute(statement)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=BUSY_TIMEOUT)

    def _insert(self, session, digest):
        with self._connect() as db:
            for table in ("answers", "rounds"):
                db.execute(f"DELETE FROM {table} WHERE code IN (SELECT code FROM sessions WHERE expires <= ?)",
                           (self.clock(),))
            db.execute("DELETE FROM sessions WHERE expires <= ?", (self.clock(),))
            try:
                db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)",
                           (session.code, digest, session.step, int(session.revealed), int(session.students_move),
                            session.expires))
            except sqlite3.IntegrityError:
                return False
        return True

    def _load(self, code):
        with self._connect() as db:
            row = db.execute("SELECT step, revealed, students_move, expires, secret FROM sessions WHERE code = ?",
                             (code,)).fetchone()
        if row is None:
            return None
        step, revealed, students_move, expires, digest = row
        return Session(code, step, bool(revealed), bool(students_move), expires), digest

    def _save(self, session):
        with self._connect() as db:
            db.execute("UPDATE sessions SET step = ?, revealed = ?, students_move = ?, expires = ? WHERE code = ?",
                       (session.step, int(session.revealed), int(session.students_move), session.expires,
                        session.code))

    def _put_answer(self, session, step, device, choice):
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?)", (session.code, step, device, choice))

    def _answers(self, code, step):
        with self._connect() as db:
            return dict(db.execute("SELECT device, choice FROM answers WHERE code = ? AND step = ?", (code, step)))

    def _add_round(self, session, device, hit):
        with self._connect() as db:
            db.execute("INSERT INTO rounds VALUES (?, ?, ?, 1) ON CONFLICT (code, device) DO UPDATE SET "
                       "hits = hits + excluded.hits, rounds = rounds + 1", (session.code, device, int(hit)))

    def _score(self, code):
        with self._connect() as db:
            hits, rounds = db.execute("SELECT COALESCE(SUM(hits), 0), COALESCE(SUM(rounds), 0) FROM rounds "
                                      "WHERE code = ?", (code,)).fetchone()
        return int(hits), int(rounds)

    def _delete(self, code):
        with self._connect() as db:
            for table in ("answers", "rounds", "sessions"):
                db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))


class RedisClassStore(ClassStore):
    """Class sessions in Redis at ``url``: a session is one JSON string ``mpe:class:CODE`` (created with ``NX``,
    so two processes never start the same code), its answers one hash ``mpe:class:CODE:answers`` of
    ``step:device`` → choice, its game rounds one hash ``mpe:class:CODE:rounds`` of ``hits:device`` and
    ``rounds:device`` counts (``HINCRBY`` in a transaction); all expire with the session (``EXPIREAT``)."""

    PREFIX = "mpe:class:"

    def __init__(self, url: str, **kwargs) -> None:
        import redis

        super().__init__(**kwargs)
        self.redis = redis.Redis.from_url(url, decode_responses=True, socket_timeout=10)

    def _key(self, code: str) -> str:
        return f"{self.PREFIX}{code}"

    def _value(self, session: Session, digest: str) -> str:
        return json.dumps({**asdict(session), "secret": digest})

    def _insert(self, session, digest):
        return bool(self.redis.set(self._key(session.code), self._value(session, digest), nx=True,
                                   exat=int(session.expires) + 1))

    def _load(self, code):
        raw = self.redis.get(self._key(code))
        if raw is None:
            return None
        fields = json.loads(raw)
        digest = fields.pop("secret")
        return Session(**fields), digest

    def _save(self, session):
        found = self._load(session.code)
        if found is None:
            return
        pipe = self.redis.pipeline()
        pipe.set(self._key(session.code), self._value(session, found[1]), xx=True, exat=int(session.expires) + 1)
        pipe.expireat(self._key(session.code) + ":answers", int(session.expires) + 1)
        pipe.expireat(self._key(session.code) + ":rounds", int(session.expires) + 1)
        pipe.execute()

    def _put_answer(self, session, step, device, choice):
        pipe = self.redis.pipeline()
        pipe.hset(self._key(session.code) + ":answers", f"{step}:{device}", choice)
        pipe.expireat(self._key(session.code) + ":answers", int(session.expires) + 1)
        pipe.execute()

    def _answers(self, code, step):
        prefix = f"{step}:"
        return {field[len(prefix):]: int(choice)
                for field, choice in self.redis.hgetall(self._key(code) + ":answers").items()
                if field.startswith(prefix)}

    def _add_round(self, session, device, hit):
        key = self._key(session.code) + ":rounds"
        pipe = self.redis.pipeline()
        pipe.hincrby(key, f"hits:{device}", int(hit))
        pipe.hincrby(key, f"rounds:{device}", 1)
        pipe.expireat(key, int(session.expires) + 1)
        pipe.execute()

    def _score(self, code):
        counts = self.redis.hgetall(self._key(code) + ":rounds")
        return (sum(int(v) for k, v in counts.items() if k.startswith("hits:")),
                sum(int(v) for k, v in counts.items() if k.startswith("rounds:")))

    def _delete(self, code):
        self.redis.delete(self._key(code), self._key(code) + ":answers", self._key(code) + ":rounds")


def open_store(where: str, **kwargs) -> ClassStore:
    """The store at ``where``: Redis for a ``redis://``, ``rediss://`` or ``unix://`` address, else the SQLite
    file of that path."""
    if where.startswith(("redis://", "rediss://", "unix://")):
        return RedisClassStore(where, **kwargs)
    return SqliteClassStore(where, **kwargs)


#: Environment variable naming the class store: a Redis address or an SQLite file's path.
STORE_ENV = "MPE_CLASS_STORE"
#: The SQLite file's name in the app's data folder.
FILE_NAME = "classes.sqlite"


def location(environ=None) -> str:
    """Where the app keeps its class sessions: ``$MPE_CLASS_STORE``, else ``classes.sqlite`` in the app's data
    folder (``$XDG_DATA_HOME/manifold-privacy-explorer``, by default under ``~/.local/share``), made if missing:
    one file for every app process on the machine, ``make serve``'s too, kept over a restart of the server."""
    environ = os.environ if environ is None else environ
    if environ.get(STORE_ENV):
        return environ[STORE_ENV]
    folder = Path(environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "manifold-privacy-explorer"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / FILE_NAME)


@functools.lru_cache(maxsize=4)
def store_at(where: str) -> ClassStore:
    """The one store of each location in this process (its connection pool, for Redis, shared by every session)."""
    return open_store(where)
