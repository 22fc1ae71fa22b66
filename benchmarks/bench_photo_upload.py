"""What the page's shrink before upload (api/web/photo.js) saves and costs: each photo of a
dataset shrunk in headless Chromium by photo.js itself, then both the original and the
shrunk copy read by the shipped detector, in one run.

Prints the bytes sent against the original's (a ratio), the shrink's time in the browser,
and how many photos read the same tally both ways and exactly right each way.

    python -m benchmarks.bench_photo_upload --data DIR [--photos N]

DIR is a `sushigo synth` set of phone-sized photos, e.g.
`sushigo synth --out data/4032 --images 100 --seed 9190 --size 4032 --faces DECK`.
Needs /usr/bin/chromium and the playwright package (as the web tests do).
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import statistics
import threading
from pathlib import Path
from typing import Any, NamedTuple

WEB = Path(__file__).resolve().parents[1] / "api" / "web"
# photo.js's own function on a File made of the photo's bytes; the bytes it would send
# come back as base64, with the milliseconds it took.
SHRINK = """async (encoded) => {
  const { photoForUpload } = await import("/photo.js");
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const file = new File([bytes], "IMG_0001.JPG", { type: "image/jpeg" });
  const start = performance.now();
  const sent = await photoForUpload(file);
  const ms = performance.now() - start;
  const out = new Uint8Array(await sent.arrayBuffer());
  let text = "";
  for (let i = 0; i < out.length; i += 0x8000) {
    text += String.fromCharCode(...out.subarray(i, i + 0x8000));
  }
  return [btoa(text), ms];
}"""


class Row(NamedTuple):
    original: int  # bytes
    sent: int  # bytes
    ms: float  # the shrink in the browser
    right_as_is: bool
    right_as_sent: bool
    same: bool


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve_web() -> tuple[http.server.ThreadingHTTPServer, str]:
    """api/web/ on a free local port (the page's modules need an http origin)."""
    handler = functools.partial(_Quiet, directory=str(WEB))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a sushigo synth folder")
    parser.add_argument("--photos", type=int, default=100)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from datasets.yolo_format import read_split
    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # the web tests' own browser
    from vision.detector import load_detector
    from vision.photo import load_photo
    from vision.pipeline import read_photo

    items = [it for split in ("train", "val", "test") for it in read_split(args.data, split)]
    items = items[: args.photos]
    if not items:
        parser.error(f"no photos in {args.data} (a sushigo synth folder)")
    detector = load_detector()

    def tally(data: bytes) -> dict[str, int]:
        reading = read_photo(load_photo(data), detector)
        return {k: v for k, v in reading.tally.to_dict().items() if v}

    server, origin = serve_web()
    rows: list[Row] = []
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium
            browser = chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(f"{origin}/index.html")
            for item in items:
                original = item.image.read_bytes()
                encoded, ms = page.evaluate(SHRINK, base64.b64encode(original).decode())
                sent = base64.b64decode(encoded)
                truth = {k: v for k, v in item.truth["tally"].items() if v}
                as_is, as_sent = tally(original), tally(sent)
                right = (as_is == truth, as_sent == truth, as_is == as_sent)
                rows.append(Row(len(original), len(sent), ms, *right))
            browser.close()
    finally:
        server.shutdown()

    n, shrunk = len(rows), sum(r.sent != r.original for r in rows)
    print(f"{n} photos from {args.data}; {shrunk} shrunk, {n - shrunk} sent as they came")
    print(
        f"bytes sent: median {statistics.median(r.sent for r in rows) / 1e6:.2f} MB against "
        f"{statistics.median(r.original for r in rows) / 1e6:.2f} MB, "
        f"{statistics.median(r.original / r.sent for r in rows):.2f}x smaller at the median photo"
    )
    print(f"shrink in headless Chromium: median {statistics.median(r.ms for r in rows):.0f} ms")
    print(
        f"same tally both ways: {sum(r.same for r in rows)} of {n}; exactly right: "
        f"{sum(r.right_as_is for r in rows)} as they came, "
        f"{sum(r.right_as_sent for r in rows)} as sent"
    )


if __name__ == "__main__":
    main()
