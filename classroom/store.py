"""The live class's tables and every operation on them, each in one short transaction.

A class has a join code (6 characters, no look-alikes) and a teacher key (128 random bits, stored only as its SHA-256).
The teacher opens a question (an item id, its number of options, the correct one), closes it, reveals it. A student is a
seat: a random id their browser keeps in the link, never a name unless the teacher asks for a nickname. One answer per
student per question, enforced by the primary key: ``answer`` is one conditional upsert, so a double tap or a reconnect
never counts twice, and an answer reaching a closed question changes nothing.

SQLite in a file by default (WAL, a busy timeout); any SQLAlchemy URL in ``DATABASE_URL`` (PostgreSQL when replicas
share a class). The schema is Alembic's (``classroom/migrations``), applied by ``connect``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    exists,
    func,
    literal,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
DEFAULT_FILE = ROOT / "var" / "live-class.sqlite3"
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, no 1/I (codes are upper case: no l)
CODE_LENGTH = 6
CLASS_HOURS = float(os.environ.get("ATTENTION_CLASS_HOURS", "3"))  # a join code expires this long after the class starts
MAX_NICKNAME = 24
MAX_ITEM = 80
MAX_LABEL = 80
MAX_OPTIONS = 64
SEAT = re.compile(r"[A-Za-z0-9_-]{16,32}")  # new_seat(): 16 characters
STATES = ("open", "closed", "revealed")
PHASES = ("", "before", "after")

metadata = MetaData()
classes = Table(
    "classes", metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String(CODE_LENGTH), nullable=False, unique=True),
    Column("key_hash", String(64), nullable=False),
    Column("nicknames", Boolean, nullable=False, default=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("ended", Float),
)
students = Table(
    "students", metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("seat", String(32), nullable=False),
    Column("nickname", String(MAX_NICKNAME)),
    Column("joined", Float, nullable=False),
    UniqueConstraint("class_id", "seat", name="one_seat_per_browser"),
)
questions = Table(
    "questions", metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("item", String(MAX_ITEM), nullable=False),
    Column("phase", String(8), nullable=False, default=""),
    Column("options", Integer, nullable=False),
    Column("correct", Integer, nullable=False),
    Column("labels", Text, nullable=False, default="[]"),  # JSON: the options' own words when computed (a sentence's tokens)
    Column("state", String(8), nullable=False, default="open"),
    Column("live", Boolean, nullable=False, default=False),  # the histogram shows while the question is open
    Column("opened", Float, nullable=False),
    Column("closed", Float),
)
answers = Table(
    "answers", metadata,
    Column("question_id", Integer, ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
    Column("choice", Integer, nullable=False),
    Column("first", Float, nullable=False),  # when the student first answered
    Column("at", Float, nullable=False),  # when the answer last changed
)


class Refused(ValueError):
    """An operation the class does not allow; ``reason`` names the text shown (``live.refused.<reason>``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Class:
    id: int
    code: str
    nicknames: bool
    created: float
    expires: float
    ended: float | None


@dataclass(frozen=True)
class Question:
    id: int
    item: str
    phase: str
    options: int
    correct: int
    labels: tuple[str, ...]
    state: str
    live: bool
    opened: float


# --- Connecting ---

_engines: dict[str, Engine] = {}
_lock = threading.Lock()


def database_url() -> str:
    """``DATABASE_URL`` when set, else the SQLite file ``ATTENTION_CLASS_FILE`` (default ``var/live-class.sqlite3``)."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{os.environ.get('ATTENTION_CLASS_FILE') or DEFAULT_FILE}"


def connect(url: str | None = None) -> Engine:
    """The engine for ``url`` (default ``database_url()``), its schema migrated to the newest, once per process."""
    url = url or database_url()
    with _lock:
        if url not in _engines:
            if url.startswith("sqlite:///"):
                Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            # A replica serves a hundred phones whose script threads may all want a connection at once: a larger pool
            # than SQLAlchemy's 5 + 10 (the project's PostgreSQL allows 200 connections, 3 replicas use at most 150).
            pool = {"connect_args": {"timeout": 10}} if url.startswith("sqlite") else {"pool_size": 10, "max_overflow": 40}
            engine = create_engine(url, pool_pre_ping=True, **pool)
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_pragmas)
            migrate(engine)
            _engines[url] = engine
        return _engines[url]


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=10000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Alembic's ``upgrade head`` on ``engine`` (PostgreSQL: under an advisory lock, as replicas start together)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(2112)")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


# --- Codes and keys ---


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(typed: str) -> str | None:
    """A typed code as stored (upper case, spaces and dashes dropped; o/i/l read as 0/1 are not in the alphabet), or None."""
    code = re.sub(r"[\s\-_.]", "", str(typed or ""))[:2 * CODE_LENGTH].upper()
    return code if len(code) == CODE_LENGTH and all(c in ALPHABET for c in code) else None


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_seat() -> str:
    return secrets.token_urlsafe(12)


def clean_nickname(typed: str | None) -> str | None:
    """A nickname as kept: printable, spaces collapsed, at most ``MAX_NICKNAME`` characters; None when empty."""
    text = "".join(c for c in str(typed or "") if c.isprintable())
    text = " ".join(text.split())[:MAX_NICKNAME]
    return text or None


# --- The teacher ---


def start_class(engine: Engine, nicknames: bool = False, hours: float = CLASS_HOURS, now: float | None = None) -> tuple[str, str]:
    """A new class: (join code, teacher key). The key is shown once; only its hash is kept."""
    now = time.time() if now is None else now
    key = secrets.token_urlsafe(16)  # 128 bits
    for _ in range(20):
        code = new_code()
        try:
            with engine.begin() as db:
                db.execute(classes.insert().values(code=code, key_hash=_hash(key), nicknames=bool(nicknames), created=now,
                                                   expires=now + hours * 3600))
            return code, key
        except IntegrityError:  # the code is taken (one in a billion): draw another
            continue
    raise RuntimeError("no free join code")


def _class(row) -> Class:
    return Class(row.id, row.code, bool(row.nicknames), row.created, row.expires, row.ended)


def class_by_code(engine: Engine, typed: str, now: float | None = None, joining: bool = True) -> Class:
    """The class a typed code names. Refused: ``wrong_code``; for a student joining, ``expired`` or ``ended``."""
    code = normal_code(typed)
    if code is None:
        raise Refused("wrong_code")
    with engine.connect() as db:
        row = db.execute(select(classes).where(classes.c.code == code)).first()
    if row is None:
        raise Refused("wrong_code")
    found = _class(row)
    now = time.time() if now is None else now
    if joining and found.ended is not None:
        raise Refused("ended")
    if joining and now > found.expires:
        raise Refused("expired")
    return found


def check_teacher(engine: Engine, typed_code: str, key: str) -> Class:
    """The class, when ``key`` is its teacher key (even after the code expired: the teacher may still export). Refused:
    ``wrong_key`` (or ``wrong_code``)."""
    code = normal_code(typed_code)
    if code is None or not isinstance(key, str) or len(key) > 64:
        raise Refused("wrong_key")
    with engine.connect() as db:
        row = db.execute(select(classes).where(classes.c.code == code)).first()
    if row is None or not hmac.compare_digest(row.key_hash, _hash(key)):
        raise Refused("wrong_key")
    return _class(row)


def open_question(engine: Engine, code: str, key: str, item: str, options: int, correct: int, labels: tuple[str, ...] = (),
                  phase: str = "", live: bool = False, now: float | None = None) -> int:
    """Open a question for the class (``item``: its text's id; ``labels``: computed options, if any). Returns its id."""
    found = check_teacher(engine, code, key)
    if found.ended is not None:
        raise Refused("ended")
    if not (isinstance(item, str) and 0 < len(item) <= MAX_ITEM) or phase not in PHASES:
        raise Refused("too_long")
    if not (1 < options <= MAX_OPTIONS and 0 <= correct < options) or len(labels) not in (0, options):
        raise Refused("bad_choice")
    labels = [str(label)[:MAX_LABEL] for label in labels]
    with engine.begin() as db:
        return db.execute(questions.insert().values(
            class_id=found.id, item=item, phase=phase, options=options, correct=correct, labels=json.dumps(labels, ensure_ascii=False),
            state="open", live=bool(live), opened=time.time() if now is None else now)).inserted_primary_key[0]


def _move(engine: Engine, code: str, key: str, question_id: int, values: dict, allowed: tuple[str, ...]) -> None:
    found = check_teacher(engine, code, key)
    with engine.begin() as db:
        changed = db.execute(update(questions).where(questions.c.id == question_id, questions.c.class_id == found.id,
                                                     questions.c.state.in_(allowed)).values(**values)).rowcount
    if not changed:
        raise Refused("no_question")


def close_question(engine: Engine, code: str, key: str, question_id: int, now: float | None = None) -> None:
    """No more answers: the projector may show the histogram."""
    _move(engine, code, key, question_id, {"state": "closed", "closed": time.time() if now is None else now}, ("open",))


def reveal_question(engine: Engine, code: str, key: str, question_id: int, now: float | None = None) -> None:
    """Mark the correct answer on the projector and every phone (closing the question first if it is open)."""
    _move(engine, code, key, question_id, {"state": "revealed", "closed": func.coalesce(questions.c.closed, time.time() if now is None else now)},
          ("open", "closed"))


def set_live(engine: Engine, code: str, key: str, question_id: int, live: bool) -> None:
    """Show (or hide) the histogram while the question is still open."""
    _move(engine, code, key, question_id, {"live": bool(live)}, STATES)


def end_class(engine: Engine, code: str, key: str, now: float | None = None) -> None:
    """The class ends: no one joins or answers any more; the teacher may still export."""
    found = check_teacher(engine, code, key)
    now = time.time() if now is None else now
    with engine.begin() as db:
        db.execute(update(classes).where(classes.c.id == found.id).values(ended=now))
        db.execute(update(questions).where(questions.c.class_id == found.id, questions.c.state == "open").values(state="closed", closed=now))


# --- Students ---


def join(engine: Engine, typed_code: str, seat: str, nickname: str | None = None, now: float | None = None) -> tuple[Class, int]:
    """A browser takes a seat in the class (again after a reload: the same seat, the same student). Returns (class,
    student id). Refused: ``wrong_code``, ``expired``, ``ended``, ``bad_seat``, ``nickname`` (asked for and empty)."""
    found = class_by_code(engine, typed_code, now)
    if not isinstance(seat, str) or not SEAT.fullmatch(seat):
        raise Refused("bad_seat")
    name = clean_nickname(nickname) if found.nicknames else None
    if found.nicknames and name is None:
        raise Refused("nickname")
    now = time.time() if now is None else now
    insert = _insert(engine)
    statement = insert(students).values(class_id=found.id, seat=seat, nickname=name, joined=now)
    statement = statement.on_conflict_do_update(index_elements=[students.c.class_id, students.c.seat],
                                                set_={"nickname": func.coalesce(statement.excluded.nickname, students.c.nickname)})
    with engine.begin() as db:
        db.execute(statement)
        student = db.execute(select(students.c.id).where(students.c.class_id == found.id, students.c.seat == seat)).scalar_one()
    return found, student


def _insert(engine: Engine):
    return postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert


def answer(engine: Engine, question_id: int, student_id: int, choice: int, now: float | None = None) -> None:
    """The student's answer to an open question, first or changed: one statement, counted once. Refused: ``closed``
    (the question is closed or revealed, the class ended, or it is not this student's class) or ``bad_choice``."""
    if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < MAX_OPTIONS:
        raise Refused("bad_choice")
    now = time.time() if now is None else now
    allowed = exists(select(literal(1)).select_from(questions.join(students, students.c.class_id == questions.c.class_id)
                                                    .join(classes, classes.c.id == questions.c.class_id))
                     .where(questions.c.id == question_id, students.c.id == student_id, questions.c.state == "open",
                            questions.c.options > choice, classes.c.ended.is_(None)))
    insert = _insert(engine)
    statement = insert(answers).from_select(
        ["question_id", "student_id", "choice", "first", "at"],
        select(literal(question_id), literal(student_id), literal(choice), literal(now), literal(now)).where(allowed))
    statement = statement.on_conflict_do_update(index_elements=[answers.c.question_id, answers.c.student_id],
                                                set_={"choice": statement.excluded.choice, "at": statement.excluded.at}, where=allowed)
    with engine.begin() as db:  # RETURNING, not rowcount: psycopg reports -1 for an INSERT ... SELECT
        if db.execute(statement.returning(answers.c.question_id)).first() is None:
            raise Refused("closed")


# --- What the projector and the phones read ---


def _question(row) -> Question:
    return Question(row.id, row.item, row.phase, row.options, row.correct, tuple(json.loads(row.labels or "[]")), row.state,
                    bool(row.live), row.opened)


def question_state(engine: Engine, question_id: int) -> Question | None:
    with engine.connect() as db:
        row = db.execute(select(questions).where(questions.c.id == question_id)).first()
    return _question(row) if row else None


def open_questions(engine: Engine, class_id: int, states: tuple[str, ...] = STATES) -> list[Question]:
    """The class's questions in the order they were opened (only those in ``states``)."""
    with engine.connect() as db:
        rows = db.execute(select(questions).where(questions.c.class_id == class_id, questions.c.state.in_(states))
                          .order_by(questions.c.id)).all()
    return [_question(row) for row in rows]


def has_ended(engine: Engine, class_id: int) -> bool:
    """Has the teacher ended the class (a phone stops waiting for questions)?"""
    with engine.connect() as db:
        return db.execute(select(classes.c.ended).where(classes.c.id == class_id)).scalar() is not None


@dataclass(frozen=True)
class Tally:
    """The class's answers counted: students seated, and {question id: {choice: count}}."""

    seated: int
    counts: dict[int, dict[int, int]]


def tally(engine: Engine, class_id: int) -> Tally:
    """Every question's answers counted by choice, in one aggregate query (and the students seated)."""
    with engine.connect() as db:
        rows = db.execute(select(answers.c.question_id, answers.c.choice, func.count())
                          .select_from(answers.join(questions, questions.c.id == answers.c.question_id))
                          .where(questions.c.class_id == class_id)
                          .group_by(answers.c.question_id, answers.c.choice)).all()
        seated = db.execute(select(func.count()).select_from(students).where(students.c.class_id == class_id)).scalar_one()
    counts: dict[int, dict[int, int]] = {}
    for question_id, choice, count in rows:
        counts.setdefault(question_id, {})[choice] = count
    return Tally(seated, counts)


def my_answers(engine: Engine, student_id: int) -> dict[int, int]:
    """A student's own answers ({question id: choice}): the only answers a student ever reads."""
    with engine.connect() as db:
        rows = db.execute(select(answers.c.question_id, answers.c.choice).where(answers.c.student_id == student_id)).all()
    return dict(rows)


def export_rows(engine: Engine, code: str, key: str) -> list[dict[str, object]]:
    """The teacher's CSV: one row per answer (class code, question id, student number, item, phase, answer, correct,
    time); the nickname only when the class asked for one."""
    found = check_teacher(engine, code, key)
    with engine.connect() as db:
        seats = db.execute(select(students.c.id, students.c.nickname).where(students.c.class_id == found.id).order_by(students.c.id)).all()
        rows = db.execute(select(questions.c.id, questions.c.item, questions.c.phase, questions.c.correct, answers.c.student_id,
                                 answers.c.choice, answers.c.at).select_from(answers.join(questions, questions.c.id == answers.c.question_id))
                          .where(questions.c.class_id == found.id).order_by(questions.c.id, answers.c.student_id)).all()
    number = {student_id: n for n, (student_id, _) in enumerate(seats, start=1)}
    names = dict(seats)
    out = []
    for question_id, item, phase, correct, student_id, choice, at in rows:
        row = {"class": found.code, "question": question_id, "student": number[student_id], "item": item, "phase": phase,
               "answer": choice + 1,
               "correct": choice == correct, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))}
        if found.nicknames:
            row["nickname"] = names[student_id] or ""
        out.append(row)
    return out
