"""The service under load, on loopback: upload-to-draft latency of a 12 MP photo against
the bare detection of the same photo, then N clients uploading for S seconds.

    python -m benchmarks.bench_api [--seconds 60] [--clients 8] [--weights DIR]
    python -m benchmarks.bench_api --smoke          # a few seconds: CI keeps it working

The server runs in its own process (uvicorn, the real app over a fresh data folder).
The detector is the shipped one when its weights load; otherwise a stand-in that does a
detector's kind of work (resize, convolve, a fixed set of boxes) so that the service's
own cost can still be measured. The report says which one ran.

Reported: bare detection (decode + detect + tally, in this process) and the server's
upload-to-draft latency (p50, p95), measured alternately on the same photo; the server's
overhead over bare detection (target: under 20 %); throughput, errors and p95 under
load; the server's memory over the run. `--http h11|httptools` and `--loop` pick uvicorn's
parser and loop (`auto`: whatever is installed; the project installs neither extra).

Measured (2 cores, shipped weights, 4032 px JPEG of 2.9 MB, each line one run; another
engineer's training held one core throughout, so runs vary widely):
- before (h11, at 3db01a4): 0.333 on a nearly idle machine; under load, five runs
  alternated with the new code: median 0.367, 105 ms over bare detection.
- after (upload streamed and hashed as it arrives, weights described once, async
  dependencies, one thread hand-off each way): under the same load, median of six runs
  0.285, 72 ms; single runs 0.136 to 0.368. httptools instead of h11 made no difference
  that the noise let through, so uvicorn's extras are not a dependency.
- Much of what is left is contention, not the server's own work: onnxruntime's
  intra-op threads spin after each run (vision.detector keeps the default), and the
  request's database write and response (about 2 ms of CPU) took 12-20 ms beside them.
  With spinning switched off, one paired run measured 6 ms instead of 28 ms of
  server-side overhead outside the body transfer.
- with spinning off (vision.detector now sets it), the shipped three-network detector and
  an idle machine: 0.245, 0.254, 0.238 in three runs (about 14 ms over a 57-66 ms bare
  detection; the 3 MB noisy JPEG's reduced decode alone is ~30 ms of both). py-spy over
  63 uploads: ~4.4 ms loading the game (three SELECTs through the ORM), ~4.4 ms receiving,
  parsing and hashing the body on the event loop, ~5 ms the upload's own flush, events
  and commit.
- Every upload is now a new photo (bytes appended after the JPEG's end), as at a real
  table: the earlier runs re-sent one photo, so the file write and its fsync (4-8 ms for
  3 MB on this disk) were never measured.
- The upload's timeline (a server with timestamps around each stage, medians of 35
  uploads): body in at 2.2 ms; decode 30 ms and detection 27-29 ms; then 5 ms of insert,
  events, commit, view and response. So the photo is now decoded and detected on another
  thread from the moment the body is in (an async dependency starts it, no thread hop
  first), while the request thread loads the game, checks the token, collection and
  version, hashes the photo (no longer on the event loop) and writes it to a temporary
  file; the commit only renames the file into place. Old and new code alternated in one
  sitting, training paused, new photo per upload, 3 runs each: before 0.276 / 0.291 /
  0.331, after 0.189 / 0.182 / 0.198 (about 11 ms over a 58 ms bare detection). httptools
  and uvloop measured within the noise of h11 and asyncio (0.20-0.21 against 0.19-0.22),
  so they stay out.
- Final, with the finder of stage 4 and the int8 crop networks (bare detection now 52 ms),
  training paused, `--seconds 5 --runs 30` three times: 0.171, 0.167, 0.181; `--seconds
  60`: 0.190, and 1,292 uploads from 8 clients in 60.7 s (21.3/s), no error, p95 435 ms,
  server memory 258 MB at the start and 267 MB at the end (273 MB at most).
- Fourth session, the finder under OpenVINO (bare detection 49-52 ms instead of 54-65 ms)
  and a noisier machine: 0.33, 0.33, 0.34 in three runs; the previous code (5bdbef4) and
  this one alternated in one sitting: 0.215 / 0.232 against 0.279 / 0.367. In
  milliseconds the server's overhead is about what it was (12-19 ms against 12-14 ms);
  the ratio grew because detection got faster, and with the finder switched back to
  onnxruntime it measured 0.27-0.29, so OpenVINO itself does not cost the server. The
  20 % target does not hold now: the server's own work must fall under ~10 ms for it.
  `--seconds 60`: 1,238 uploads in 60.7 s (20.4/s), no error, p95 474 ms, server memory
  347 -> 361 MB (OpenVINO and its compiled shapes).
- Fifth session: 0.323 at the start (bare 50.2 ms, upload 66.4 ms). The upload's
  timeline (runs of 35): body in at 3.6 ms, decode 4.6 -> 40.0 ms (35 ms, against about
  30 ms alone), detection 19-22 ms, then 5.5 ms of insert, events, commit, view and
  response. Why the decode is slower in the server: OpenCV's Python module allocates its
  image buffers through numpy and takes the GIL for each, even inside a decode that
  otherwise runs without it, so a Python thread busy beside it (the request thread
  loading the game) makes each allocation wait out the switch interval: one decode took
  30 ms alone, 32 ms beside a thread hashing (no GIL) or another busy process, 45 ms
  beside a thread running Python. A 0.5 ms switch interval (`sys.setswitchinterval`)
  brought that to 34 ms in isolation but not in the server: decode 34.6 / 37.8 against
  35.9 ms, and `--seconds 2 --runs 40` alternated three times each gave 0.238 / 0.305 /
  0.270 against 0.325 / 0.289 / 0.232 (the request thread's Python work overlaps only
  8 ms of the decode). Not kept; the 20 % target is still missed (see the notes).
  Pillow's draft decode is no way out: 36 ms alone, 302 ms beside a Python thread.
- Then the cause: this benchmark makes every upload a new photo by appending bytes after
  the JPEG's end marker (as some phones append a trailer), and `vision.photo` sent every
  JPEG that did not end in its EOI marker to Pillow, so the server decoded with Pillow
  while the bare detection used OpenCV. Now a JPEG whose last scan is followed by an EOI
  marker takes OpenCV's reduced decode, trailer or not (`vision.photo._ends_its_scan`).
  Timeline: decode 31.6 ms instead of 35.4 ms, response sent at 58.2 instead of 64.7 ms.
  `--seconds 5 --runs 30`, before and after alternated in one sitting: before 0.245 /
  0.262 / 0.256, after 0.202 / 0.175 / 0.182 (and 0.186 / 0.160 / 0.185 in three runs
  before that): about 9 ms over a 48-49 ms bare detection, **under the 20 % target**
  in six of seven runs. `--seconds 60`: 0.178; 1,285 uploads from 8 clients in 60.6 s
  (21.2/s), no error, p95 443 ms, server memory 305 -> 322 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eve"]


# --- the detector ------------------------------------------------------------------------


class StandInDetector:
    """Does a detector's kind of work (letterbox-sized resize, convolutions) and returns
    a fixed set of eight card boxes in the image's pixels."""

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Any:
        import cv2

        from vision.detections import Detections

        small = cv2.resize(image, (640, 480), interpolation=cv2.INTER_LINEAR)
        for _ in range(6):
            small = cv2.GaussianBlur(small, (7, 7), 0)
        height, width = image.shape[:2]
        boxes, labels = [], []
        for i in range(8):
            x = (i % 4) * width / 4
            y = (i // 4) * height / 2
            boxes.append([x + 5, y + 5, x + width / 4 - 5, y + height / 2 - 5])
            labels.append(i % 12)
        return Detections(np.array(boxes), np.full(8, 0.9), np.array(labels))


def make_detector(weights: Path | None, stand_in: bool) -> tuple[Callable[..., Any], str]:
    if not stand_in:
        try:
            from vision.detector import load_detector

            return load_detector(weights), "shipped weights"
        except Exception as error:
            print(f"(the detector does not load: {error}; using the stand-in)", file=sys.stderr)
    return StandInDetector(), "stand-in"


def make_photo(size: int, *, card_scene: bool = True) -> bytes:
    """A phone-sized JPEG: a synthesized card scene where datasets can make one."""
    try:
        if not card_scene:
            raise LookupError("a plain photo was asked for")
        from datasets.faces import FacePool
        from datasets.scene import make_scene

        rng = np.random.default_rng(4032)
        scene = make_scene(rng, FacePool.rendered(7, per_kind=2), size=size)
        return phone_jpeg(scene.image, rng)
    except Exception:
        from benchmarks.bench_decode import synthesize_jpeg

        return synthesize_jpeg(size, size * 3 // 4)


def phone_jpeg(image: np.ndarray, rng: np.random.Generator) -> bytes:
    """JPEG bytes the size a phone writes (3-5 MB at 12 MP): sensor noise, quality 95."""
    import cv2

    noisy = np.clip(image.astype(np.int16) + rng.normal(0, 4, image.shape), 0, 255)
    ok, buffer = cv2.imencode(".jpg", noisy.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        raise RuntimeError("OpenCV could not encode the benchmark photo")
    return buffer.tobytes()


# --- the server process ------------------------------------------------------------------


def serve(args: argparse.Namespace) -> None:
    import uvicorn

    from api.detection import DetectorProvider
    from api.main import create_app
    from api.settings import Settings

    settings = Settings(data_dir=args.data_dir, max_upload_bytes=40_000_000)
    app = create_app(settings)
    detector, _ = make_detector(args.weights, args.stand_in)
    app.state.detectors = DetectorProvider.preloaded(
        detector, concurrency=settings.detect_concurrency
    )
    uvicorn.run(
        app, host="127.0.0.1", port=args.port, log_level="warning", http=args.http, loop=args.loop
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    data_dir: Path, weights: Path | None, stand_in: bool, *, http: str = "auto", loop: str = "auto"
) -> tuple[Any, str]:
    port = free_port()
    command = [sys.executable, "-m", "benchmarks.bench_api", "--serve", "--port", str(port)]
    command += ["--data-dir", str(data_dir), "--http", http, "--loop", loop]
    if weights:
        command += ["--weights", str(weights)]
    if stand_in:
        command += ["--stand-in"]
    process = subprocess.Popen(command, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    wait_until_serving(process, base, seconds=120)
    return process, base


def wait_until_serving(process: subprocess.Popen[bytes], base: str, *, seconds: float) -> None:
    """Return once the server at `base` answers its OpenAPI page; kill it and raise if it
    exits or does not answer within `seconds`."""
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            if httpx.get(f"{base}/openapi.json", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"the server did not start within {seconds:.0f} s")


# --- clients -------------------------------------------------------------------------------


class Uploader:
    """One client: its own game, uploading to each player's collection in turn."""

    def __init__(self, base: str, photo: bytes) -> None:
        import httpx

        self.client = httpx.Client(base_url=base, timeout=120)
        self.photo = photo
        game = self.client.post("/api/v1/games", json={"players": PLAYERS}).json()
        self.url = f"/api/v1/games/{game['id']}/rounds/1/players"
        self.headers = {"X-Edit-Token": game["edit_token"]}
        self.versions = dict.fromkeys(range(1, len(PLAYERS) + 1), 0)
        self.turn = 0

    def upload(self) -> tuple[float, int]:
        seat = self.turn % len(PLAYERS) + 1
        self.turn += 1
        # Every upload is a new photo to the server, as at a real table (a new file to
        # write and fsync): bytes after the JPEG's end marker (a trailer, as some phones
        # write) change its hash, not its pixels, so the detection stays the bare one's.
        photo = self.photo + f"{id(self)}:{self.turn}".encode()
        start = time.perf_counter()
        response = self.client.post(
            f"{self.url}/{seat}/photos",
            files={"image": ("photo.jpg", photo, "image/jpeg")},
            data={"version": str(self.versions[seat])},
            headers=self.headers,
        )
        elapsed = time.perf_counter() - start
        if response.status_code == 201:
            self.versions[seat] = response.json()["version"]
        return elapsed, response.status_code


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def summary_ms(seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {
        "p50_ms": round(statistics.median(ms), 1) if ms else 0.0,
        "p95_ms": round(percentile(ms, 0.95), 1),
        "n": len(ms),
    }


def paired_latencies(
    photo: bytes, detector: Callable[..., Any], uploader: Uploader, runs: int
) -> tuple[list[float], list[float], int]:
    """Bare detection (decode + detect + tally, in this process) and an upload of the same
    photo, alternately, so that both see the same machine even when its load drifts."""
    from vision.photo import load_photo
    from vision.pipeline import read_photo

    def bare() -> float:
        start = time.perf_counter()
        read_photo(load_photo(photo, max_bytes=40_000_000), detector)
        return time.perf_counter() - start

    bare()  # warm-up: the first calls pay for library initialisation and model load
    uploader.upload()
    bare_times, server_times, errors = [], [], 0
    for _ in range(runs):
        bare_times.append(bare())
        elapsed, status = uploader.upload()
        if status == 201:
            server_times.append(elapsed)
        else:
            errors += 1
    return bare_times, server_times, errors


def load_run(base: str, photo: bytes, clients: int, seconds: float, pid: int) -> dict[str, Any]:
    import psutil

    uploaders = [Uploader(base, photo) for _ in range(clients)]
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def work(uploader: Uploader) -> None:
        while time.monotonic() < stop:
            elapsed, status = uploader.upload()
            with lock:
                latencies.append(elapsed)
                statuses[status] = statuses.get(status, 0) + 1

    server = psutil.Process(pid)
    memory: list[float] = []
    threads = [threading.Thread(target=work, args=(u,)) for u in uploaders]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        memory.append(server.memory_info().rss / 2**20)
        time.sleep(0.5)
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started
    tenth = max(1, len(memory) // 10)
    errors = sum(count for status, count in statuses.items() if status != 201)
    return {
        "clients": clients,
        "seconds": round(wall, 1),
        "uploads": len(latencies),
        "uploads_per_s": round(len(latencies) / wall, 2),
        "errors": errors,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        **summary_ms(latencies),
        "server_rss_mb": {
            "start": round(statistics.mean(memory[:tenth]), 1) if memory else None,
            "end": round(statistics.mean(memory[-tenth:]), 1) if memory else None,
            "max": round(max(memory), 1) if memory else None,
        },
    }


def bench(args: argparse.Namespace) -> dict[str, Any]:
    photo = make_photo(args.size, card_scene=not args.smoke)
    detector, which = make_detector(args.weights, args.stand_in)

    with tempfile.TemporaryDirectory(prefix="bench-api-") as data:
        process, base = start_server(
            Path(data), args.weights, which == "stand-in", http=args.http, loop=args.loop
        )
        try:
            bare, latency, errors = paired_latencies(
                photo, detector, Uploader(base, photo), args.runs
            )
            load = load_run(base, photo, args.clients, args.seconds, process.pid)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)

    bare_p50 = statistics.median(bare) if bare else 0.0
    server_p50 = statistics.median(latency) if latency else 0.0
    return {
        "detector": which,
        "photo": {"long_side_px": args.size, "bytes": len(photo)},
        "cpus": os.cpu_count(),
        "server": {"http": args.http, "loop": args.loop},
        "bare_detection": summary_ms(bare),
        "upload_to_draft": {**summary_ms(latency), "errors": errors},
        "server_overhead": round((server_p50 - bare_p50) / bare_p50, 3) if bare_p50 else None,
        "overhead_target": 0.20,
        "load": load,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the load run")
    parser.add_argument("--clients", type=int, default=8, help="concurrent uploading clients")
    parser.add_argument("--runs", type=int, default=10, help="timed single uploads / detections")
    parser.add_argument("--size", type=int, default=4032, help="photo long side (4032: 12 MP)")
    parser.add_argument("--weights", type=Path, help="detector weights (default: shipped)")
    parser.add_argument("--stand-in", action="store_true", help="use the stand-in detector")
    parser.add_argument("--smoke", action="store_true", help="a few seconds, small photo")
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument(
        "--http", default="auto", help="uvicorn's HTTP parser: auto, h11 or httptools"
    )
    parser.add_argument(
        "--loop", default="auto", help="uvicorn's event loop: auto, asyncio, uvloop"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args)
        return 0
    if args.smoke:
        args.seconds, args.clients, args.runs, args.size = 2.0, 2, 2, 1600
    report = bench(args)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)
    return 1 if report["load"]["errors"] or report["upload_to_draft"]["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
