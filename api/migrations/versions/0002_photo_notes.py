"""A photo's notes beside its warnings: what reading it told the reviewer without asking
for a check (vision.notices.NOTE_CODES). Photos stored before keep every sentence among
their warnings, as they were shown then.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("photos", schema=None) as batch_op:
        batch_op.add_column(sa.Column("notes", sa.JSON(), server_default="[]", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("photos", schema=None) as batch_op:
        batch_op.drop_column("notes")
