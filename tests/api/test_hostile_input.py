"""Hostile input over HTTP (issue 29): bodies too big for their route, invalid requests
whose errors would once echo megabytes back, NaN, Infinity and lone surrogates, names that
are not names, boxes that are not boxes, uploads without a token, and the temporary files
a crash leaves. Every answer is a 4xx in the house's error shape, small, and never a copy
of the input; cases about the server itself run against a real uvicorn process."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api import deps, storage
from api.errors import MAX_REPORTED
from api.main import create_app
from api.schemas import MIN_BOX_SIDE
from api.settings import Settings
from api.strict_json import MAX_OBJECT_KEYS
from benchmarks import bench_hostile
from scoring import MAX_NAME_LENGTH
from tests.api.conftest import FakeDetector, Table, boxes_for, make_photo

JSON = {"content-type": "application/json"}
MARKER = "hostile-marker-7f3a"  # sent as input, never to be seen in an answer


def assert_error(response: httpx.Response, status: int, *named: str) -> dict[str, Any]:
    """The house's error shape: JSON, `detail` a string that names each of `named`."""
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body["detail"], str), body
    for text in named:
        assert text in response.text, (text, body)
    assert MARKER not in response.text
    return dict(body)


def post_raw(client: TestClient, path: str, body: bytes, **headers: str) -> httpx.Response:
    return client.post(path, content=body, headers={**JSON, **headers})


# --- bodies too big for their route --------------------------------------------------


JSON_ROUTES = ["/api/v1/games", "/api/v1/score/round", "/api/v1/score/game"]


@pytest.mark.parametrize("path", JSON_ROUTES)
def test_a_json_body_over_the_limit_is_413_before_it_is_parsed(
    client: TestClient, settings: Settings, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(body: bytes) -> Any:
        raise AssertionError("a body over the limit was parsed")

    monkeypatch.setattr("api.limits.parse_json", never)
    big = json.dumps({"players": ["A", "B"], "x": MARKER * 10_000}).encode()
    assert settings.max_json_bytes < len(big) < settings.max_upload_bytes
    body = assert_error(post_raw(client, path, big), 413, f"{settings.max_json_bytes:,} bytes")
    assert body["reason"] == "too_large" and body["limit_bytes"] == settings.max_json_bytes

    def pieces() -> Iterator[bytes]:  # no Content-Length: the streamed bytes are counted
        for _ in range(100):
            yield b" " * 10_000

    response = client.post(path, content=pieces(), headers=JSON)
    assert "content-length" not in response.request.headers
    assert_error(response, 413, "the limit for this route")


def test_a_write_over_the_limit_changes_nothing(table: Table, settings: Settings) -> None:
    body = {"action": "set_counts", "counts": {"egg": 1}, "version": 0, "author": "x" * 70_000}
    response = table.correct(1, 1, **body)
    assert_error(response, 413, "too_large")
    assert table.collection(1, 1)["version"] == 0


def test_a_body_just_under_the_limit_is_read(client: TestClient, settings: Settings) -> None:
    body = json.dumps({"players": ["Ana", "Ben"]}).encode()
    padded = body[:-1] + b" " * (settings.max_json_bytes - len(body)) + b"}"
    assert len(padded) == settings.max_json_bytes
    assert post_raw(client, "/api/v1/games", padded).status_code == 201


def test_the_json_limit_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUSHIGO_MAX_JSON_BYTES", "1000")
    with TestClient(create_app(Settings(data_dir=tmp_path))) as client:
        body = json.dumps({"players": ["Ana", "Ben"], "title": "t" * 100}).encode()
        assert post_raw(client, "/api/v1/games", body).status_code == 201
        long = json.dumps({"players": ["Ana", "Ben"], "title": " " * 1000}).encode()
        assert_error(post_raw(client, "/api/v1/games", long), 413, "1,000 bytes")


def test_a_photo_keeps_its_own_larger_limit(
    table: Table, detector: FakeDetector, settings: Settings
) -> None:
    records = boxes_for(["egg", "salmon"], width=1200, height=900)
    detector.register((1200, 900), records)
    photo = make_photo((1200, 900), records) + bytes(200_000)  # after the JPEG's end
    assert settings.max_json_bytes < len(photo) < settings.max_upload_bytes
    response = table.upload(1, 1, photo)
    assert response.status_code == 201, response.text


def test_a_urlencoded_upload_is_bounded_too(table: Table) -> None:
    response = table.client.post(
        f"{table.collection_url(1, 1)}/photos",
        content=b"version=0&author=" + b"x" * 100_000,
        headers={**table.headers, "content-type": "application/x-www-form-urlencoded"},
    )
    assert_error(response, 413, "too_large")


# --- invalid requests: a small answer, whatever was sent -------------------------------


def test_a_flood_of_unknown_keys_is_one_small_422(client: TestClient) -> None:
    keys = {f"k{i}": i for i in range(3_000)} | {"k0": MARKER}
    body = json.dumps({"players": ["Ana", "Ben"], **keys}).encode()
    started = time.perf_counter()
    response = post_raw(client, "/api/v1/games", body)
    elapsed = time.perf_counter() - started
    problem = assert_error(response, 422, "3,001 keys", str(MAX_OBJECT_KEYS))
    assert problem["error_count"] == 1 and len(response.content) < 1_000
    assert elapsed < 1.0  # milliseconds in fact; a loaded CI machine has the rest


def test_many_problems_are_counted_and_the_first_few_named(table: Table) -> None:
    # Unknown keys are named (shortened) where they are; the values sent never are.
    counts = {f"k{i}": MARKER for i in range(MAX_OBJECT_KEYS - 1)} | {"egg": MARKER}
    response = table.correct(1, 1, action="set_counts", counts=counts)
    problem = assert_error(response, 422)
    assert problem["reason"] == "invalid"
    assert problem["error_count"] > MAX_REPORTED  # a bad key and a bad value each
    assert len(problem["errors"]) == MAX_REPORTED
    assert f"(and {problem['error_count'] - MAX_REPORTED:,} more)" in problem["detail"]
    for entry in problem["errors"]:
        assert set(entry) == {"loc", "msg", "type"}
        assert entry["loc"][:3] == ["body", "set_counts", "counts"]
    assert len(response.content) < 3_000
    assert table.collection(1, 1)["version"] == 0


def test_a_long_key_is_shortened_in_the_answer(client: TestClient) -> None:
    response = client.post("/api/v1/games", json={"players": ["A", "B"], "k" * 50_000: 1})
    problem = assert_error(response, 422, "Extra inputs are not permitted")
    assert len(problem["errors"][0]["loc"][1]) <= 40 and len(response.content) < 1_000


def test_a_tag_that_is_not_an_action_is_not_repeated(table: Table) -> None:
    response = table.correct(1, 1, action=MARKER * 100)
    assert_error(response, 422, "'action' must be one of", "set_counts")


def test_a_correction_without_an_action_is_told_it_is_missing(table: Table) -> None:
    """It had been told pydantic's "Unable to extract tag using discriminator 'action'"."""
    response = table.client.post(
        f"{table.collection_url(1, 1)}/corrections", json={"version": 0}, headers=table.headers
    )
    assert_error(response, 422, "'action' is missing")


# --- what JSON cannot hold ----------------------------------------------------------------


NOT_JSON = [
    ("NaN in a box", b'{"action": "add", "box": [NaN, 0, 50, 50], "label": "egg", "version": 1}',
     ["body", "box", 0]),
    ("Infinity in a box",
     b'{"action": "add", "box": [0, 0, Infinity, 50], "label": "egg", "version": 1}',
     ["body", "box", 2]),
    ("-Infinity as a version", b'{"action": "confirm", "version": -Infinity}', ["body", "version"]),
    ("1e999 (an infinity)",
     b'{"action": "add", "box": [0, 0, 1e999, 50], "label": "egg", "version": 1}',
     ["body", "box", 2]),
    ("a lone surrogate in an author",
     b'{"action": "set_counts", "counts": {"egg": 1}, "version": 0, "author": "\\ud800x"}',
     ["body", "author"]),
    ("a lone low surrogate", b'{"action": "undo", "version": 0, "author": "x\\udfff"}',
     ["body", "author"]),
    ("a lone surrogate in a key", b'{"action": "undo", "version": 0, "\\udc00": 1}', ["body"]),
    ("a surrogate as raw UTF-8 bytes",
     b'{"action": "undo", "version": 0, "author": "\xed\xa0\x80"}', ["body", "author"]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "body", "loc"), NOT_JSON, ids=[c[0] for c in NOT_JSON])
def test_what_json_cannot_hold_is_422_where_it_is(
    table: Table, name: str, body: bytes, loc: list[Any]
) -> None:
    path = f"{table.collection_url(1, 1)}/corrections"
    response = post_raw(table.client, path, body, **table.headers)
    problem = assert_error(response, 422)
    assert problem["errors"][0]["loc"] == loc and problem["errors"][0]["type"] == "json_invalid"
    assert table.collection(1, 1)["version"] == 0


@pytest.mark.parametrize(
    ("body", "named"),
    [
        (b'{"players": ["\\ud800x", "Ben"]}', "not valid Unicode"),
        (b'{"players": ["Ana", "Ben"], "title": NaN}', "NaN"),
        (b"[" * 50_000, "nested too deeply"),
        (b'{"players": ["Ana", "Ben"], "rounds": ' + b"9" * 5_000 + b"}", "too many digits"),
        (b'{"players": ["Ana", "\xff"]}', "not UTF-8"),
        (b'{"players": ["Ana", "Ben"],', "JSON decode error"),
        # Python's parser keeps the last of two, silently: which was meant is no guess.
        (b'{"players": ["Ana", "Ben"], "rounds": 3, "rounds": 5}', "'rounds' appears twice"),
    ],
    ids=["surrogate name", "NaN title", "deep", "huge number", "not utf-8", "cut short", "twice"],
)
def test_a_game_body_json_cannot_hold_is_422(client: TestClient, body: bytes, named: str) -> None:
    assert_error(post_raw(client, "/api/v1/games", body), 422, named)


def test_a_tally_naming_a_card_twice_is_422(client: TestClient) -> None:
    """{"tempura": 1, "tempura": 2} had been scored as 2 tempura."""
    body = b'{"tallies": [{"tempura": 1, "tempura": 2}, {}]}'
    assert_error(post_raw(client, "/api/v1/score/round", body), 422, "'tempura' appears twice")


# --- names and titles ---------------------------------------------------------------------


def _create(client: TestClient, players: list[str], **body: Any) -> httpx.Response:
    return client.post("/api/v1/games", json={"players": players, **body})


@pytest.mark.parametrize(
    ("players", "named"),
    [
        (["\u200b", "Ben"], "U+200B ZERO WIDTH SPACE"),
        (["Ana\u202e", "Ben"], "U+202E RIGHT-TO-LEFT OVERRIDE"),
        (["A\u2066na", "Ben"], "U+2066"),
        (["A\x07na", "Ben"], "U+0007"),
        (["Ana\nBen", "Cy"], "U+000A LINE FEED"),
        (["\ufeffAna", "Ben"], "U+FEFF"),
        (["Ana", " \t "], "cannot be empty"),
        (["Ana", "x" * (MAX_NAME_LENGTH + 1)], f"at most {MAX_NAME_LENGTH} characters"),
    ],
    ids=["zero width", "rtl override", "bidi isolate", "bell", "newline", "bom", "blank", "long"],
)
def test_a_name_that_is_not_a_name_is_422(
    client: TestClient, players: list[str], named: str
) -> None:
    assert_error(_create(client, players), 422, "players", named)


@pytest.mark.parametrize(
    "players",
    [["Ana", "ana"], ["José", "Jose\u0301"], ["Ana", " ANA "], ["Ǆ", "ǆ"], ["Cy", "Ｃy"]],
    ids=["case", "nfc", "spaces and case", "digraph", "fullwidth"],
)
def test_two_players_cannot_share_a_name_once_normalised(
    client: TestClient, players: list[str]
) -> None:
    assert_error(_create(client, players), 422, "two players have this name")
    result = client.post("/api/v1/score/game", json={"players": players, "rounds": []})
    assert_error(result, 422, "two players have this name")


def test_names_are_stored_normalised(client: TestClient, table: Table) -> None:
    decomposed = "Jose\u0301"  # as some keyboards send it
    game = _create(client, [f"  {decomposed} ", "e\u0301" * MAX_NAME_LENGTH]).json()
    assert [p["name"] for p in game["players"]] == ["José", "é" * MAX_NAME_LENGTH]
    version = table.game["version"]
    renamed = client.patch(
        table.url, json={"version": version, "players": ["Ana", "ANA", "Cy"]}, headers=table.headers
    )
    assert_error(renamed, 422, "two players have this name")


@pytest.mark.parametrize(
    ("title", "stored", "status"),
    [
        ("  Friday  ", "Friday", 201),
        ("   ", None, 201),
        ("Fri\x1bday", None, 422),
        ("Fri\u202eday", None, 422),
        ("t" * 121, None, 422),
    ],
    ids=["trimmed", "blank is none", "escape", "rtl override", "long"],
)
def test_titles_are_cleaned_like_names(
    client: TestClient, title: str, stored: str | None, status: int
) -> None:
    response = _create(client, ["Ana", "Ben"], title=title)
    assert response.status_code == status, response.text
    if status == 201:
        assert response.json()["title"] == stored
    else:
        assert_error(response, 422, "title")


# --- boxes and counts -----------------------------------------------------------------------


@pytest.fixture
def uploaded(table: Table, detector: FakeDetector) -> dict[str, Any]:
    records = boxes_for(["egg", "salmon"], width=640, height=480)
    detector.register((640, 480), records)
    response = table.upload(1, 1, make_photo((640, 480), records))
    assert response.status_code == 201, response.text
    return dict(response.json())


@pytest.mark.parametrize(
    ("box", "named"),
    [
        (["0", "0", "50", "50"], "valid number"),
        ([True, 0, 50, 50], "valid number"),
        ([None, 0, 50, 50], "valid number"),
        ([0, 0, 0.000000001, 50], f"at least {MIN_BOX_SIDE} pixels"),
        ([10, 10, 10 + MIN_BOX_SIDE - 0.5, 60], f"at least {MIN_BOX_SIDE} pixels"),
        ([0, 0, 641, 50], "not inside the 640x480 photo"),
        ([-1, 0, 50, 50], "greater than or equal to 0"),
        ([50, 50, 10, 10], "x1 < x2"),
        ([0, 0, 50], "at least 4 items"),
    ],
    ids=["strings", "bool", "null", "a nanometre", "under the minimum", "outside", "negative",
         "reversed", "three numbers"],
)  # fmt: skip
def test_a_box_that_is_not_a_box_is_422(
    table: Table, uploaded: dict[str, Any], box: list[Any], named: str
) -> None:
    response = table.correct(1, 1, action="add", box=box, label="egg")
    assert_error(response, 422, named)
    assert table.collection(1, 1)["version"] == uploaded["version"]


def test_the_smallest_box_is_taken(table: Table, uploaded: dict[str, Any]) -> None:
    box = [10, 10.5, 10 + MIN_BOX_SIDE, 10.5 + MIN_BOX_SIDE]
    response = table.correct(1, 1, action="add", box=box, label="egg")
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("count", [True, "3", 1.0, 2.5, [1], {"n": 1}], ids=repr)
def test_a_count_is_an_integer_only(table: Table, count: Any) -> None:
    response = table.correct(1, 1, action="set_counts", counts={"egg": count})
    assert_error(response, 422, "counts")
    response = table.correct(1, 1, action="adjust_count", category="egg", delta=count)
    assert_error(response, 422, "delta")
    assert table.collection(1, 1)["version"] == 0


@pytest.mark.parametrize(
    ("path", "body", "named"),
    [
        ("/api/v1/score/round", {"tallies": [{"egg": True}, {}]}, "egg"),
        ("/api/v1/score/round", {"tallies": [{"egg": "1"}, {}]}, "egg"),
        ("/api/v1/games", {"players": ["A", "B"], "rounds": 3.0}, "rounds"),
        ("/api/v1/games", {"players": ["A", "B"], "pass_both_ways": "true"}, "pass_both_ways"),
        ("/api/v1/games", {"players": ["A", "B"], "pass_both_ways": 1}, "pass_both_ways"),
        ("/api/v1/games", {"players": ["A", 7]}, "players"),
    ],
    ids=["bool count", "string count", "float rounds", "string flag", "number flag", "number"],
)
def test_json_types_only(client: TestClient, path: str, body: Any, named: str) -> None:
    assert_error(client.post(path, json=body), 422, named)


def test_a_record_flag_is_a_json_bool(table: Table) -> None:
    response = table.record(1, accept_problems="yes")
    assert_error(response, 422, "accept_problems")


# --- one error shape ------------------------------------------------------------------------


def test_every_4xx_has_the_one_shape(table: Table, client: TestClient) -> None:
    url = table.collection_url(1, 1)
    photo = {"image": ("a.txt", b"not a photo", "text/plain")}
    answers = [
        (client.post(f"{url}/undo", json={"version": 0}), 401),
        (client.post(f"{url}/undo", json={"version": 0}, headers={"X-Edit-Token": "no"}), 403),
        (client.get("/api/v1/games/nosuchgame"), 404),
        (client.get("/api/v1/nowhere"), 404),
        (client.delete("/api/v1/games"), 405),
        (table.act(1, 1, "undo", version=5), 409),
        (post_raw(client, "/api/v1/games", b" " * 100_000), 413),
        (client.post(f"{url}/photos", files=photo, data={"version": "0"}, headers=table.headers),
         415),
        (client.post("/api/v1/games", json={"players": ["A"]}), 422),
        (client.post("/api/v1/score/round", json={"tallies": [{}, {"dumpling": 11}]}), 422),
        (client.post(f"{url}/photos", content=b"x", headers={
            **table.headers, "content-type": "multipart/form-data"}), 400),
    ]  # fmt: skip
    for response, status in answers:
        assert_error(response, status)


def test_the_error_shape_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert "ErrorPublic" in spec["components"]["schemas"]
    operation = spec["paths"]["/api/v1/games"]["post"]
    for status in ("413", "422"):
        schema = operation["responses"][status]["content"]["application/json"]["schema"]
        assert schema["$ref"].endswith("/ErrorPublic")


# --- an upload is authorised before its photo is read ---------------------------------------


@pytest.mark.parametrize(
    ("game", "headers", "status"),
    [("table", {}, 401), ("table", {"X-Edit-Token": "wrong"}, 403), ("nosuchgame", None, 404)],
    ids=["no token", "wrong token", "no game"],
)
def test_an_upload_is_authorised_before_its_photo_is_read(
    table: Table,
    detector: FakeDetector,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    headers: dict[str, str] | None,
    status: int,
) -> None:
    read: list[int] = []
    original = deps.receive_photo

    async def receive(*args: Any, **kwargs: Any) -> Any:
        read.append(1)
        return await original(*args, **kwargs)

    monkeypatch.setattr(deps, "receive_photo", receive)
    game_id = table.id if game == "table" else game
    url = f"/api/v1/games/{game_id}/rounds/1/players/1/photos"
    photo = {"image": ("a.jpg", make_photo((320, 240)), "image/jpeg")}
    response = table.client.post(
        url,
        files=photo,
        data={"version": "0"},
        headers=table.headers if headers is None else headers,
    )
    assert_error(response, status)
    assert read == [] and detector.calls == 0
    response = table.upload(1, 1, make_photo((320, 240)))
    assert response.status_code == 201 and read == [1]


# --- temporary files a crash left -----------------------------------------------------------


def test_temporary_files_a_crash_left_are_removed_on_start(settings: Settings) -> None:
    folder = settings.data_dir / "photos" / "ab"
    folder.mkdir(parents=True)
    photo = folder / ("ab" + "0" * 62)
    photo.write_bytes(b"a photo")
    annotated = settings.data_dir / "annotated" / "cd"
    annotated.mkdir(parents=True)
    pid = os.getpid()
    crashed = [
        folder / ".incoming-999999999.0badcafe-x1",  # a process that is gone
        folder / f".incoming-{pid}.0badcafe-x2",  # an earlier run with this process id
        folder / ".incoming-k2j3",  # an earlier version's name, without its writer
        annotated / ".incoming-999999998.0badcafe-y",
    ]
    live = folder / f".incoming-{pid}.{storage.RUN_ID}-z"  # this run: still writing it
    for path in (*crashed, live):
        path.write_bytes(b"half a photo")
    stale = folder / ".incoming-1.0badcafe-old"  # a live process id, but hours old
    stale.write_bytes(b"half a photo")
    os.utime(stale, (time.time() - 7200, time.time() - 7200))

    with TestClient(create_app(settings)) as client:
        assert client.get("/api/v1/model").status_code == 200
    assert photo.read_bytes() == b"a photo" and live.exists()
    assert not any(path.exists() for path in (*crashed, stale))


def test_an_upload_leaves_no_temporary_file(table: Table, settings: Settings) -> None:
    assert table.upload(1, 1, make_photo((320, 240))).status_code == 201
    assert table.upload(1, 2, b"not a photo").status_code == 415
    assert not list(settings.data_dir.rglob(".incoming-*"))


# --- against a real server -------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[bench_hostile.Table]:
    bench_hostile.body_14mb()  # made before any timing
    process, port = bench_hostile.start_server(tmp_path_factory.mktemp("hostile") / "data")
    try:
        yield bench_hostile.make_table(port)
    finally:
        bench_hostile.stop_server(process)


EXPECTED = {
    "14 MB of unknown keys, Content-Length": 413,
    "14 MB of unknown keys, chunked": 413,
    "25 MB photo upload without a token": 401,
}


@pytest.mark.parametrize("name", list(bench_hostile.HOSTILE))
def test_a_hostile_request_is_answered_fast_and_other_reads_go_on(
    server: bench_hostile.Table, name: str
) -> None:
    idle = bench_hostile.read_round(server, 20)
    result = bench_hostile.measure(server, name, repeat=2, reads=20)
    assert result["statuses"] == [EXPECTED.get(name, 422)], result
    # Before: 25-34 s for the 14 MB body, every other client waiting as long. The bounds
    # leave room for a loaded CI machine; the benchmark reports the real numbers.
    assert result["answer_ms_max"] < 2_000, result
    assert result["read_ms_max"] < max(idle) * 1000 + 500, (result, max(idle))


def test_the_connection_lives_on_after_what_json_cannot_hold(server: bench_hostile.Table) -> None:
    base = f"http://127.0.0.1:{server.port}"
    with httpx.Client(base_url=base, timeout=30) as client:
        for body in (b'{"players": ["\\ud800x", "Ben"]}', b'{"players": ["A", "B"], "title": NaN}'):
            response = client.post("/api/v1/games", content=body, headers=JSON)
            assert_error(response, 422)
            assert response.headers.get("connection") != "close"
        assert client.get(server.round_path).status_code == 200


def test_the_server_answers_a_declared_huge_body_without_reading_it(
    server: bench_hostile.Table,
) -> None:
    headers = {**JSON, "Content-Length": str(50_000_000)}
    status, seconds = bench_hostile.post_raw(server.port, "/api/v1/games", headers, iter(()))
    assert status == 413 and seconds < 2


def test_the_server_refuses_an_upload_without_a_token_before_its_photo_arrives(
    server: bench_hostile.Table,
) -> None:
    headers = {"Content-Type": "multipart/form-data; boundary=x", "Content-Length": "25000000"}
    path = f"{server.round_path}/players/1/photos"
    status, seconds = bench_hostile.post_raw(server.port, path, headers, iter(()))
    assert status == 401 and seconds < 2  # not one byte of the photo was sent
