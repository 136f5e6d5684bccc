"""Vote, discuss, vote again: answers per round (the round joins the primary key), the room's seat map and the seat a
student tapped, the discussion groups, "one more like it" (a question that follows another), the teacher's classes
found by their key.

An existing class moves forward whole: every answer becomes a round-1 answer, every question is in round 1.

Revision ID: 0002
Revises: 0001
Create Date: 2027-01-12
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("classes", sa.Column("rows", sa.Integer))
    op.add_column("classes", sa.Column("seats", sa.Integer))
    op.create_index("classes_by_key", "classes", ["key_hash"])
    op.add_column("students", sa.Column("place_row", sa.Integer))
    op.add_column("students", sa.Column("place_seat", sa.Integer))
    op.add_column("questions", sa.Column("round", sa.Integer, nullable=False, server_default="1"))
    op.add_column("questions", sa.Column("show_first", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("questions", sa.Column("follows", sa.Integer))  # the question this one is "like" (an id of the class)
    if op.get_bind().dialect.name == "sqlite":  # SQLite cannot change a primary key: the table is made again
        op.create_table(
            "answers_by_round",
            sa.Column("question_id", sa.Integer, sa.ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("round", sa.Integer, primary_key=True),
            sa.Column("choice", sa.Integer, nullable=False),
            sa.Column("first", sa.Float, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )
        op.execute("INSERT INTO answers_by_round (question_id, student_id, round, choice, first, at) "
                   "SELECT question_id, student_id, 1, choice, first, at FROM answers")
        op.drop_table("answers")
        op.rename_table("answers_by_round", "answers")
    else:
        op.add_column("answers", sa.Column("round", sa.Integer, nullable=False, server_default="1"))
        op.drop_constraint("answers_pkey", "answers", type_="primary")
        op.create_primary_key("answers_pkey", "answers", ["question_id", "student_id", "round"])
    op.create_table(
        "partners",
        sa.Column("question_id", sa.Integer, sa.ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("code", sa.String(4), nullable=False),
        sa.Column("mixed", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("partners")
    op.execute("DELETE FROM answers WHERE round > 1")
    if op.get_bind().dialect.name == "sqlite":
        op.create_table(
            "answers_one_round",
            sa.Column("question_id", sa.Integer, sa.ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("choice", sa.Integer, nullable=False),
            sa.Column("first", sa.Float, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )
        op.execute("INSERT INTO answers_one_round SELECT question_id, student_id, choice, first, at FROM answers")
        op.drop_table("answers")
        op.rename_table("answers_one_round", "answers")
    else:
        op.drop_constraint("answers_pkey", "answers", type_="primary")
        op.drop_column("answers", "round")
        op.create_primary_key("answers_pkey", "answers", ["question_id", "student_id"])
    for table, column in (("questions", "follows"), ("questions", "show_first"), ("questions", "round"),
                          ("students", "place_seat"), ("students", "place_row"), ("classes", "seats"), ("classes", "rows")):
        op.drop_column(table, column)
    op.drop_index("classes_by_key", "classes")
