"""The live class's tables and every operation on them, each in one short transaction.

A class has a join code (6 characters, no look-alikes) and a teacher key (128 random bits, stored only as its SHA-256;
the classes a teacher started in one browser share its key, so the key finds them again). The teacher opens a question
(an item id, its number of options, the correct one), closes it, and then either reveals it or opens round 2 ("discuss
and vote again": the room is paired by its first answers, ``classroom.pairing``), closes that and reveals. A student is a
seat: a random id their browser keeps in a cookie (never in an address), never a name unless the teacher asks for a
nickname; on the room's seat map they may tap where they sit. One answer per student per question per round, enforced
by the primary key: ``answer`` is one conditional upsert, so a double tap or a reconnect never counts twice, and an
answer reaching a closed question, another round, an ended or expired class changes nothing.

SQLite in a file by default (WAL, a busy timeout; the folder and the files private to the server's user); any
SQLAlchemy URL in ``DATABASE_URL`` (PostgreSQL when replicas share a class). The schema is Alembic's
(``classroom/migrations``), applied by ``connect``.
"""

from __future__ import annotations

import contextlib
import fcntl
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
    Index,
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

from classroom.pairing import Group, Voter, pair

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
DEFAULT_FOLDER = ROOT / "var" / "live-class"  # private to the server's user (0700), the files in it 0600
DEFAULT_FILE = DEFAULT_FOLDER / "live-class.sqlite3"
OLD_DEFAULT_FILE = ROOT / "var" / "live-class.sqlite3"  # before 0002: moved into the private folder on first use
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, no 1/I (codes are upper case: no l)
CODE_LENGTH = 6
CLASS_HOURS = float(os.environ.get("ATTENTION_CLASS_HOURS", "3"))  # a join code expires this long after the class starts
MAX_NICKNAME = 24
MAX_ITEM = 80
MAX_LABEL = 80
MAX_OPTIONS = 64
SEAT = re.compile(r"[A-Za-z0-9_-]{16,32}")  # new_seat(): 16 characters
MAX_ROWS, MAX_SEATS = 30, 30  # a seat map's rows and seats per row
ROUNDS = (1, 2)  # vote, then (after discussion) vote again
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
    Column("rows", Integer),  # the seat map: rows × seats, or None
    Column("seats", Integer),
    Index("classes_by_key", "key_hash"),
)
students = Table(
    "students", metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("seat", String(32), nullable=False),
    Column("nickname", String(MAX_NICKNAME)),
    Column("joined", Float, nullable=False),
    Column("place_row", Integer),  # the seat tapped on the map (1-based), or None
    Column("place_seat", Integer),
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
    Column("round", Integer, nullable=False, default=1),  # 1, or 2 once the teacher chose "discuss and vote again"
    Column("show_first", Boolean, nullable=False, default=False),  # the projector shows round 1's answers in round 2
    Column("follows", Integer),  # "one more like it": the question this one is like
)
answers = Table(
    "answers", metadata,
    Column("question_id", Integer, ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("choice", Integer, nullable=False),
    Column("first", Float, nullable=False),  # when the student first answered in this round
    Column("at", Float, nullable=False),  # when the answer last changed
)
partners = Table(  # round 2's discussion groups: each student's group code (the others with the same code are theirs)
    "partners", metadata,
    Column("question_id", Integer, ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
    Column("code", String(4), nullable=False),
    Column("mixed", Boolean, nullable=False),
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
    rows: int | None = None  # the seat map, or None
    seats: int | None = None

    def expired(self, now: float | None = None) -> bool:
        return (time.time() if now is None else now) > self.expires


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
    round: int = 1
    show_first: bool = False
    follows: int | None = None


# --- Connecting ---

_engines: dict[str, Engine] = {}
_lock = threading.Lock()


def database_url() -> str:
    """``DATABASE_URL`` when set, else the SQLite file ``ATTENTION_CLASS_FILE`` (default ``var/live-class/live-class.sqlite3``)."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{os.environ.get('ATTENTION_CLASS_FILE') or DEFAULT_FILE}"


def private_file(path: Path) -> None:
    """Make the SQLite file ``path`` readable by the server's user only: its folder 0700 when this made it (the default
    folder always), the file created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the database
    file's mode), and an existing file, -wal and -shm set to 0600."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True)
        os.chmod(folder, 0o700)  # mkdir's mode passes through the umask
    if folder == DEFAULT_FOLDER:
        os.chmod(folder, 0o700)
        if OLD_DEFAULT_FILE.exists() and not path.exists():  # a class kept before the folder existed moves in
            for suffix in ("-wal", "-shm", ""):
                old = OLD_DEFAULT_FILE.with_name(OLD_DEFAULT_FILE.name + suffix)
                if old.exists():
                    old.rename(path.with_name(path.name + suffix))
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for suffix in ("", "-wal", "-shm"):
        kept = path.with_name(path.name + suffix)
        if kept.exists():
            os.chmod(kept, 0o600)


def connect(url: str | None = None) -> Engine:
    """The engine for ``url`` (default ``database_url()``), its schema migrated to the newest, once per process."""
    url = url or database_url()
    with _lock:
        if url not in _engines:
            if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
                private_file(Path(url.removeprefix("sqlite:///")))
            # A replica serves a hundred phones whose script threads may all want a connection at once: a larger pool
            # than SQLAlchemy's 5 + 10 (the project's PostgreSQL allows 200 connections, 3 replicas use at most 150).
            pool = {"connect_args": {"timeout": 10}} if url.startswith("sqlite") else {"pool_size": 10, "max_overflow": 40}
            # A server's connection may have been closed under the pool (a restarted PostgreSQL): checked before use. A
            # file is never closed under it: SQLite skips the check, a query less for every read of a hundred phones.
            engine = create_engine(url, pool_pre_ping=not url.startswith("sqlite"), **pool)
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


def migrate(engine: Engine, revision: str = "head") -> None:
    """Alembic's ``upgrade`` to ``revision`` on ``engine``, one process at a time as replicas (or test workers) start
    together: PostgreSQL under an advisory lock, an SQLite file under a lock file beside it (SQLite would refuse the
    second writer at once rather than make it wait)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with contextlib.ExitStack() as held:
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        if database and database != ":memory:":
            lock = held.enter_context(open(os.open(f"{database}.lock", os.O_RDWR | os.O_CREAT, 0o600), "r+"))
            fcntl.flock(lock, fcntl.LOCK_EX)
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.exec_driver_sql("SELECT pg_advisory_xact_lock(2112)")
            config.attributes["connection"] = connection
            command.upgrade(config, revision)


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


KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")  # secrets.token_urlsafe(16): 22 characters


def seat_map(rows: int | None, seats: int | None) -> tuple[int | None, int | None]:
    """A seat map as kept: (rows, seats per row) within 1 … MAX_ROWS and 1 … MAX_SEATS, or (None, None) for none.
    Refused: ``bad_map``."""
    if not rows and not seats:
        return None, None
    if not (isinstance(rows, int) and isinstance(seats, int) and 1 <= rows <= MAX_ROWS and 1 <= seats <= MAX_SEATS):
        raise Refused("bad_map")
    return rows, seats


def start_class(engine: Engine, nicknames: bool = False, hours: float = CLASS_HOURS, now: float | None = None,
                key: str | None = None, rows: int | None = None, seats: int | None = None) -> tuple[str, str]:
    """A new class: (join code, teacher key). The key is new (128 random bits), or ``key``, the key of the classes this
    teacher started before (``teacher_classes`` then finds them together); only its hash is kept. ``rows`` × ``seats``:
    the room's seat map, if any."""
    now = time.time() if now is None else now
    key = key if isinstance(key, str) and KEY.fullmatch(key) else secrets.token_urlsafe(16)  # 128 bits
    rows, seats = seat_map(rows, seats)
    for _ in range(20):
        code = new_code()
        try:
            with engine.begin() as db:
                db.execute(classes.insert().values(code=code, key_hash=_hash(key), nicknames=bool(nicknames), created=now,
                                                   expires=now + hours * 3600, rows=rows, seats=seats))
            return code, key
        except IntegrityError:  # the code is taken (one in a billion): draw another
            continue
    raise RuntimeError("no free join code")


def _class(row) -> Class:
    return Class(row.id, row.code, bool(row.nicknames), row.created, row.expires, row.ended, row.rows, row.seats)


def set_seat_map(engine: Engine, code: str, key: str, rows: int | None, seats: int | None) -> None:
    """The teacher draws the room's seat map (or removes it: every seat a student tapped is forgotten then)."""
    found = check_teacher(engine, code, key)
    rows, seats = seat_map(rows, seats)
    with engine.begin() as db:
        db.execute(update(classes).where(classes.c.id == found.id).values(rows=rows, seats=seats))
        outside = students.c.place_row > (rows or 0)
        outside = outside | (students.c.place_seat > (seats or 0))
        db.execute(update(students).where(students.c.class_id == found.id, outside).values(place_row=None, place_seat=None))


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
                  phase: str = "", live: bool = False, now: float | None = None, follows: int | None = None) -> int:
    """Open a question for the class (``item``: its text's id; ``labels``: computed options, if any; ``follows``: the
    question this one is "like", for the transfer measure). Returns its id. Refused once the class ended or expired."""
    found = check_teacher(engine, code, key)
    if found.ended is not None:
        raise Refused("ended")
    if found.expired(now):
        raise Refused("expired")
    if not (isinstance(item, str) and 0 < len(item) <= MAX_ITEM) or phase not in PHASES:
        raise Refused("too_long")
    if not (1 < options <= MAX_OPTIONS and 0 <= correct < options) or len(labels) not in (0, options):
        raise Refused("bad_choice")
    labels = [str(label)[:MAX_LABEL] for label in labels]
    with engine.begin() as db:
        return db.execute(questions.insert().values(
            class_id=found.id, item=item, phase=phase, options=options, correct=correct, labels=json.dumps(labels, ensure_ascii=False),
            state="open", live=bool(live), opened=time.time() if now is None else now, round=1,
            follows=follows if isinstance(follows, int) else None)).inserted_primary_key[0]


def _move(engine: Engine, code: str, key: str, question_id: int, values: dict, allowed: tuple[str, ...]) -> None:
    found = check_teacher(engine, code, key)
    with engine.begin() as db:
        changed = db.execute(update(questions).where(questions.c.id == question_id, questions.c.class_id == found.id,
                                                     questions.c.state.in_(allowed)).values(**values)).rowcount
    if not changed:
        raise Refused("no_question")


def close_question(engine: Engine, code: str, key: str, question_id: int, now: float | None = None) -> None:
    """No more answers in this round: the teacher may reveal, or (after round 1) open round 2."""
    _move(engine, code, key, question_id, {"state": "closed", "closed": time.time() if now is None else now}, ("open",))


def voters(engine: Engine, question_id: int) -> list[Voter]:
    """Who voted in round 1 of a question: their ids, the seats they tapped, their answers."""
    with engine.connect() as db:
        rows = db.execute(select(answers.c.student_id, students.c.place_row, students.c.place_seat, answers.c.choice)
                          .select_from(answers.join(students, students.c.id == answers.c.student_id))
                          .where(answers.c.question_id == question_id, answers.c.round == 1)).all()
    return [Voter(student, (row, seat) if row and seat else None, choice) for student, row, seat, choice in rows]


def open_round_two(engine: Engine, code: str, key: str, question_id: int, show_first: bool = False,
                   now: float | None = None) -> tuple[Group, ...]:
    """"Discuss and vote again": a question closed after round 1 opens for round 2, its voters paired by their first
    answers and seats (``classroom.pairing.pair``, kept in ``partners``). ``show_first``: the projector shows round 1's
    answers. Returns the groups. Refused: ``no_question`` (not closed after round 1, or another class's)."""
    found = check_teacher(engine, code, key)
    if found.ended is not None or found.expired(now):
        raise Refused("ended" if found.ended is not None else "expired")
    groups = pair(voters(engine, question_id))
    with engine.begin() as db:
        changed = db.execute(update(questions).where(questions.c.id == question_id, questions.c.class_id == found.id,
                                                     questions.c.state == "closed", questions.c.round == 1, questions.c.phase == "")
                             .values(state="open", round=2, closed=None, show_first=bool(show_first))).rowcount
        if not changed:
            raise Refused("no_question")
        db.execute(partners.delete().where(partners.c.question_id == question_id))
        rows = [{"question_id": question_id, "student_id": member, "code": group.code, "mixed": group.mixed}
                for group in groups for member in group.members]
        if rows:
            db.execute(partners.insert(), rows)
    return groups


def set_show_first(engine: Engine, code: str, key: str, question_id: int, show: bool) -> None:
    """Show (or hide) round 1's answers on the projector during and after round 2."""
    _move(engine, code, key, question_id, {"show_first": bool(show)}, STATES)


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


def seated(engine: Engine, class_id: int, seat: str) -> int | None:
    """The student a browser's seat already is in the class, or None."""
    if not isinstance(seat, str) or not SEAT.fullmatch(seat):
        return None
    with engine.connect() as db:
        return db.execute(select(students.c.id).where(students.c.class_id == class_id, students.c.seat == seat)).scalar()


def join(engine: Engine, typed_code: str, seat: str, nickname: str | None = None, now: float | None = None) -> tuple[Class, int]:
    """A browser takes a seat in the class (again after a reload, a new tab or a restart: the same seat, the same
    student, with no nickname to type again). Returns (class, student id). Refused: ``wrong_code``, ``expired``,
    ``ended``, ``bad_seat``, ``nickname`` (asked for, empty, and this browser not seated yet)."""
    found = class_by_code(engine, typed_code, now)
    if not isinstance(seat, str) or not SEAT.fullmatch(seat):
        raise Refused("bad_seat")
    name = clean_nickname(nickname) if found.nicknames else None
    if found.nicknames and name is None:
        student = seated(engine, found.id, seat)
        if student is None:
            raise Refused("nickname")
        return found, student
    now = time.time() if now is None else now
    insert = _insert(engine)
    statement = insert(students).values(class_id=found.id, seat=seat, nickname=name, joined=now)
    statement = statement.on_conflict_do_update(index_elements=[students.c.class_id, students.c.seat],
                                                set_={"nickname": func.coalesce(statement.excluded.nickname, students.c.nickname)})
    with engine.begin() as db:
        db.execute(statement)
        student = db.execute(select(students.c.id).where(students.c.class_id == found.id, students.c.seat == seat)).scalar_one()
    return found, student


def take_place(engine: Engine, student_id: int, row: int | None, seat: int | None) -> None:
    """The seat a student tapped on the room's map (row, seat; 1-based), or None for none. Refused: ``bad_map`` (off
    the class's map, or the class has none)."""
    with engine.connect() as db:
        found = db.execute(select(classes.c.rows, classes.c.seats).select_from(classes.join(students, students.c.class_id == classes.c.id))
                           .where(students.c.id == student_id)).first()
    on_map = found is not None and bool(found.rows) and isinstance(row, int) and isinstance(seat, int) and not isinstance(row, bool)
    if (row is not None or seat is not None) and not (on_map and 1 <= row <= found.rows and 1 <= seat <= found.seats):
        raise Refused("bad_map")
    with engine.begin() as db:
        db.execute(update(students).where(students.c.id == student_id).values(place_row=row, place_seat=seat))


def place_of(engine: Engine, student_id: int) -> tuple[int, int] | None:
    with engine.connect() as db:
        row = db.execute(select(students.c.place_row, students.c.place_seat).where(students.c.id == student_id)).first()
    return (row.place_row, row.place_seat) if row and row.place_row and row.place_seat else None


def _insert(engine: Engine):
    return postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert


def answer(engine: Engine, question_id: int, student_id: int, choice: int, now: float | None = None,
           round: int | None = None) -> None:
    """The student's answer to an open question in its current round (``round``: the round the phone showed; an answer
    meant for another round is refused), first or changed: one statement, counted once per round. Refused: ``closed``
    (the question is closed, revealed or in another round, the class ended or expired, or it is not this student's
    class) or ``bad_choice``."""
    if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < MAX_OPTIONS:
        raise Refused("bad_choice")
    if round is not None and round not in ROUNDS:
        raise Refused("closed")
    now = time.time() if now is None else now
    conditions = [questions.c.id == question_id, students.c.id == student_id, questions.c.state == "open",
                  questions.c.options > choice, classes.c.ended.is_(None), classes.c.expires >= now]
    if round is not None:
        conditions.append(questions.c.round == round)
    source = (questions.join(students, students.c.class_id == questions.c.class_id)
              .join(classes, classes.c.id == questions.c.class_id))
    current = select(questions.c.round).where(questions.c.id == question_id).scalar_subquery()
    allowed = exists(select(literal(1)).select_from(source).where(*conditions))
    insert = _insert(engine)
    statement = insert(answers).from_select(
        ["question_id", "student_id", "round", "choice", "first", "at"],
        select(literal(question_id), literal(student_id), current, literal(choice), literal(now), literal(now)).where(allowed))
    statement = statement.on_conflict_do_update(index_elements=[answers.c.question_id, answers.c.student_id, answers.c.round],
                                                set_={"choice": statement.excluded.choice, "at": statement.excluded.at}, where=allowed)
    with engine.begin() as db:  # RETURNING, not rowcount: psycopg reports -1 for an INSERT ... SELECT
        if db.execute(statement.returning(answers.c.question_id)).first() is None:
            raise Refused("closed")


# --- What the projector and the phones read ---


def _question(row) -> Question:
    return Question(row.id, row.item, row.phase, row.options, row.correct, tuple(json.loads(row.labels or "[]")), row.state,
                    bool(row.live), row.opened, row.round, bool(row.show_first), row.follows)


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
    """Has the teacher ended the class, or has its code expired (a phone stops waiting for questions)?"""
    with engine.connect() as db:
        row = db.execute(select(classes.c.ended, classes.c.expires).where(classes.c.id == class_id)).first()
    return row is None or row.ended is not None or time.time() > row.expires


def class_by_id(engine: Engine, class_id: int) -> Class | None:
    with engine.connect() as db:
        row = db.execute(select(classes).where(classes.c.id == class_id)).first()
    return _class(row) if row else None


@dataclass(frozen=True)
class Tally:
    """The class's answers counted: students seated, and {(question id, round): {choice: count}}."""

    seated: int
    counts: dict[tuple[int, int], dict[int, int]]

    def of(self, question: Question, round: int | None = None) -> list[int]:
        """One round's counts of a question (its current round by default), one per option."""
        got = self.counts.get((question.id, round or question.round), {})
        return [got.get(choice, 0) for choice in range(question.options)]


def tally(engine: Engine, class_id: int) -> Tally:
    """Every question's answers counted by round and choice, in one aggregate query (and the students seated)."""
    with engine.connect() as db:
        rows = db.execute(select(answers.c.question_id, answers.c.round, answers.c.choice, func.count())
                          .select_from(answers.join(questions, questions.c.id == answers.c.question_id))
                          .where(questions.c.class_id == class_id)
                          .group_by(answers.c.question_id, answers.c.round, answers.c.choice)).all()
        seated = db.execute(select(func.count()).select_from(students).where(students.c.class_id == class_id)).scalar_one()
    counts: dict[tuple[int, int], dict[int, int]] = {}
    for question_id, round_, choice, count in rows:
        counts.setdefault((question_id, round_), {})[choice] = count
    return Tally(seated, counts)


def shift(engine: Engine, question_id: int) -> dict[tuple[int, int], int]:
    """How the students who voted in both rounds moved: {(round-1 choice, round-2 choice): students}."""
    first, second = answers.alias("first_vote"), answers.alias("second_vote")
    with engine.connect() as db:
        rows = db.execute(select(first.c.choice, second.c.choice, func.count())
                          .select_from(first.join(second, (first.c.question_id == second.c.question_id)
                                                  & (first.c.student_id == second.c.student_id)))
                          .where(first.c.question_id == question_id, first.c.round == 1, second.c.round == 2)
                          .group_by(first.c.choice, second.c.choice)).all()
    return {(a, b): n for a, b, n in rows}


def my_answers(engine: Engine, student_id: int) -> dict[tuple[int, int], int]:
    """A student's own answers ({(question id, round): choice}): the only answers a student ever reads."""
    with engine.connect() as db:
        rows = db.execute(select(answers.c.question_id, answers.c.round, answers.c.choice).where(answers.c.student_id == student_id)).all()
    return {(question_id, round_): choice for question_id, round_, choice in rows}


@dataclass(frozen=True)
class Partners:
    """Whom a student turns to in round 2: the group's code, whether their first answers differ, and the others'
    seats (None for one who tapped none)."""

    code: str
    mixed: bool
    others: tuple[tuple[int, int] | None, ...]


def partners_of(engine: Engine, question_id: int, student_id: int) -> Partners | None:
    """A student's discussion group for a question, or None (they did not vote in round 1)."""
    mine, theirs = partners.alias("mine"), partners.alias("theirs")
    with engine.connect() as db:
        rows = db.execute(select(mine.c.code, mine.c.mixed, students.c.place_row, students.c.place_seat)
                          .select_from(mine.join(theirs, (theirs.c.question_id == mine.c.question_id) & (theirs.c.code == mine.c.code))
                                       .join(students, students.c.id == theirs.c.student_id))
                          .where(mine.c.question_id == question_id, mine.c.student_id == student_id,
                                 theirs.c.student_id != student_id).order_by(theirs.c.student_id)).all()
    if not rows:
        return None
    return Partners(rows[0].code, bool(rows[0].mixed),
                    tuple((r.place_row, r.place_seat) if r.place_row and r.place_seat else None for r in rows))


def export_rows(engine: Engine, code: str, key: str) -> list[dict[str, object]]:
    """The teacher's CSV: one row per answer (class code, question id, student number, item, phase, round, answer,
    correct, time); the nickname only when the class asked for one."""
    found = check_teacher(engine, code, key)
    with engine.connect() as db:
        seats = db.execute(select(students.c.id, students.c.nickname).where(students.c.class_id == found.id).order_by(students.c.id)).all()
        rows = db.execute(select(questions.c.id, questions.c.item, questions.c.phase, questions.c.correct, answers.c.student_id,
                                 answers.c.round, answers.c.choice, answers.c.at)
                          .select_from(answers.join(questions, questions.c.id == answers.c.question_id))
                          .where(questions.c.class_id == found.id).order_by(questions.c.id, answers.c.round, answers.c.student_id)).all()
    number = {student_id: n for n, (student_id, _) in enumerate(seats, start=1)}
    names = dict(seats)
    out = []
    for question_id, item, phase, correct, student_id, round_, choice, at in rows:
        row = {"class": found.code, "question": question_id, "student": number[student_id], "item": item, "phase": phase,
               "round": round_, "answer": choice + 1,
               "correct": choice == correct, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))}
        if found.nicknames:
            row["nickname"] = names[student_id] or ""
        out.append(row)
    return out


# --- The teacher's classes, and what each measured ---


def teacher_classes(engine: Engine, key: str) -> list[Class]:
    """Every class started with this teacher key, newest first (none for a key that is not one)."""
    if not isinstance(key, str) or not KEY.fullmatch(key):
        return []
    with engine.connect() as db:
        rows = db.execute(select(classes).where(classes.c.key_hash == _hash(key)).order_by(classes.c.created.desc(), classes.c.id.desc())).all()
    return [_class(row) for row in rows]


@dataclass(frozen=True)
class Report:
    """What a class measured, with nobody in it identified: its questions, their counts per round ({(question id,
    round): {choice: count}}), and for each concept item given before and after, how the students who answered both
    moved ({item: {(right before, right after): students}})."""

    found: Class
    seated: int
    questions: list[Question]
    counts: dict[tuple[int, int], dict[int, int]]
    moved: dict[str, dict[tuple[bool, bool], int]]


def report(engine: Engine, code: str, key: str) -> Report:
    """The class's figures for the teacher (only with its key). Refused: ``wrong_key``."""
    found = check_teacher(engine, code, key)
    asked = open_questions(engine, found.id)
    counted = tally(engine, found.id)
    before, after = questions.alias("before"), questions.alias("after")
    first, then = answers.alias("first_answer"), answers.alias("then_answer")
    with engine.connect() as db:
        rows = db.execute(select(before.c.item, first.c.choice == before.c.correct, then.c.choice == after.c.correct, func.count())
                          .select_from(before.join(after, (after.c.class_id == before.c.class_id) & (after.c.item == before.c.item))
                                       .join(first, first.c.question_id == before.c.id)
                                       .join(then, (then.c.question_id == after.c.id) & (then.c.student_id == first.c.student_id)))
                          .where(before.c.class_id == found.id, before.c.phase == "before", after.c.phase == "after")
                          .group_by(before.c.item, first.c.choice == before.c.correct, then.c.choice == after.c.correct)).all()
    moved: dict[str, dict[tuple[bool, bool], int]] = {}
    for item, right_before, right_after, count in rows:
        cell = moved.setdefault(item, {})
        cell[(bool(right_before), bool(right_after))] = cell.get((bool(right_before), bool(right_after)), 0) + count
    return Report(found, counted.seated, asked, counted.counts, moved)
