"""A live class: classes, students (seats), questions, answers (one per student per question).

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(6), nullable=False, unique=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("nicknames", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("ended", sa.Float),
    )
    op.create_table(
        "students",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.String(32), nullable=False),
        sa.Column("nickname", sa.String(24)),
        sa.Column("joined", sa.Float, nullable=False),
        sa.UniqueConstraint("class_id", "seat", name="one_seat_per_browser"),
    )
    op.create_table(
        "questions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("item", sa.String(80), nullable=False),
        sa.Column("phase", sa.String(8), nullable=False),
        sa.Column("options", sa.Integer, nullable=False),
        sa.Column("correct", sa.Integer, nullable=False),
        sa.Column("labels", sa.Text, nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("live", sa.Boolean, nullable=False),
        sa.Column("opened", sa.Float, nullable=False),
        sa.Column("closed", sa.Float),
    )
    op.create_table(
        "answers",
        sa.Column("question_id", sa.Integer, sa.ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("choice", sa.Integer, nullable=False),
        sa.Column("first", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("answers", "questions", "students", "classes"):
        op.drop_table(table)
