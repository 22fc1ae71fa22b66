"""The service's settings: one pydantic-settings class, read from SUSHIGO_* variables.

`get_settings()` builds it (never at import); tests and `sushigo serve` pass their own
`Settings(...)` to `api.main.create_app` instead.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from vision.limits import MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS


class Settings(BaseSettings):
    """Where the service keeps its data and what it accepts.

    data_dir: photos, annotated images and (by default) the SQLite database live here.
    database_url: any SQLAlchemy URL; default `sqlite:///<data_dir>/sushigo.sqlite3`.
    weights: the detector's weights file; None lets vision pick the shipped weights.
    max_upload_bytes: the largest photo file accepted.
    max_json_bytes: the largest JSON body accepted, on every route that takes one. The
        largest a game can need (5 players' tallies for 5 rounds, indented) is 13 kB.
    max_pixels: the largest photo (width x height) accepted, checked from its header.
    detect_concurrency: detections run at once (each uses several cores already).
    """

    model_config = SettingsConfigDict(env_prefix="SUSHIGO_", extra="ignore")

    data_dir: Path = Path("data")
    database_url: str | None = None
    weights: Path | None = None
    max_upload_bytes: int = Field(default=MAX_PHOTO_BYTES, gt=0)
    max_json_bytes: int = Field(default=64 * 1024, gt=0)
    max_pixels: int = Field(default=MAX_PHOTO_PIXELS, gt=0)
    detect_concurrency: int = Field(default=2, ge=1)

    def make_data_dir(self) -> None:
        """The data folder, made where it is not yet; a file in its place is named as
        such (mkdir had said only "file exists")."""
        if self.data_dir.exists() and not self.data_dir.is_dir():
            raise NotADirectoryError(f"{self.data_dir} is a file: the data folder must be a folder")
        self.data_dir.mkdir(parents=True, exist_ok=True)

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'sushigo.sqlite3').resolve()}"


def get_settings(**overrides: object) -> Settings:
    """Settings from the environment (SUSHIGO_*), with explicit overrides on top."""
    given = {key: value for key, value in overrides.items() if value is not None}
    return Settings(**given)  # type: ignore[arg-type]
