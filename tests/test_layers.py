"""The layering contract (pyproject.toml's `train` extra rests on it): `scoring` imports
nothing of the other packages; reading a photo (`sushigo detect`, the service and its
`/detect`) imports neither torch, ultralytics, matplotlib nor onnx, nor any of `datasets`
beyond its argparse registration, nor vision.training."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from api.cli import TRAINING_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
TRAINING = "vision.training"  # the package of everything that trains

# Run in a fresh interpreter in which the training packages cannot be imported (as in an
# install without the `train` extra): read a photo from the command line and through the
# service, then list what was imported.
BLOCK = """
import importlib.abc, io, json, sys
BLOCKED = {blocked!r}

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Block())
from api.cli import main
"""
PROBE = (
    BLOCK
    + """
assert main(["detect", {photo!r}, "--json"]) == 0
from fastapi.testclient import TestClient
from api.main import create_app
from api.settings import Settings
with TestClient(create_app(Settings(data_dir={data!r}))) as client:
    with open({photo!r}, "rb") as f:
        answer = client.post("/api/v1/detect", files={{"image": ("p.jpg", f, "image/jpeg")}})
    assert answer.status_code == 200, answer.text
    assert client.post("/api/v1/games", json={{"players": ["Ann", "Bo"]}}).status_code == 201
print("MODULES " + json.dumps(sorted(sys.modules)))
"""
)


def _imported_while_reading(tmp_path: Path) -> list[str]:
    photo = tmp_path / "table.jpg"
    rng = np.random.default_rng(0)
    cv2.imwrite(str(photo), rng.integers(60, 120, (480, 640, 3), dtype=np.uint8))
    code = PROBE.format(
        blocked=sorted(TRAINING_PACKAGES), photo=str(photo), data=str(tmp_path / "d")
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES "))
    return json.loads(line.removeprefix("MODULES "))


def test_reading_a_photo_needs_no_training_package(tmp_path: Path) -> None:
    modules = _imported_while_reading(tmp_path)
    assert "vision.detector" in modules and "api.main" in modules  # the probe did read
    assert not [m for m in modules if m.split(".")[0] in TRAINING_PACKAGES]
    assert not [m for m in modules if m == TRAINING or m.startswith(TRAINING + ".")]
    assert [m for m in modules if m.split(".")[0] == "datasets"] == [
        "datasets",
        "datasets.commands",
    ]


def test_training_without_the_extra_says_what_to_install(tmp_path: Path) -> None:
    from datasets.faces import write_faces

    deck = tmp_path / "deck"
    write_faces(deck, per_kind=1, seed=1)
    code = BLOCK.format(blocked=sorted(TRAINING_PACKAGES)) + (
        f"sys.exit(main(['synth', '--out', {str(tmp_path / 'd')!r}, '--images', '1', "
        f"'--faces', {str(deck)!r}]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "needs the train extra (pip install -e '.[train]')" in done.stderr


def _imports(package: str) -> set[str]:
    """Every module named by an import statement in the package, at any depth."""
    names: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return names


def test_scoring_imports_none_of_the_other_packages() -> None:
    roots = {name.split(".")[0] for name in _imports("scoring")}
    assert not roots & {"vision", "datasets", "api", *TRAINING_PACKAGES, "cv2", "numpy"}


def test_the_service_imports_no_training_code() -> None:
    imported = _imports("api")
    assert not {name for name in imported if name.split(".")[0] in TRAINING_PACKAGES}
    assert not [name for name in imported if name.startswith(TRAINING)]
    # datasets for the CLI's registration of `sushigo synth` / `faces`, and the YOLO
    # layout that corrected photos are exported in (the learning loop)
    in_datasets = {name for name in imported if name.split(".")[0] == "datasets"}
    assert in_datasets <= {"datasets", "datasets.yolo_format"}
