"""A live class kept in a real database: join codes, teacher keys, questions opened, closed and revealed, answers.

No Streamlit here (``views/live.py`` draws it): every function takes an SQLAlchemy ``Engine`` and plain values, so the
same code serves one process on SQLite and several replicas on PostgreSQL, and the tests call it directly.
"""

from classroom.store import (
    ALPHABET,
    CODE_LENGTH,
    Refused,
    answer,
    check_teacher,
    class_by_code,
    close_question,
    connect,
    end_class,
    export_rows,
    join,
    my_answers,
    new_code,
    new_seat,
    normal_code,
    open_question,
    open_questions,
    question_state,
    reveal_question,
    set_live,
    start_class,
    tally,
)

__all__ = [
    "ALPHABET",
    "CODE_LENGTH",
    "Refused",
    "answer",
    "check_teacher",
    "class_by_code",
    "close_question",
    "connect",
    "end_class",
    "export_rows",
    "join",
    "my_answers",
    "new_code",
    "new_seat",
    "normal_code",
    "open_question",
    "open_questions",
    "question_state",
    "reveal_question",
    "set_live",
    "start_class",
    "tally",
]
