"""The exported harness page in Debian's headless Chromium: it renders its tables and caveats,
runs nothing injected and fetches nothing (every request goes through a recording proxy)."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from evalview.cli import main
from evalview.harness.audit import SINGLE_SEED_LABEL
from evalview.harness.score import MEASURED_NOT_MATCHED

pytestmark = pytest.mark.e2e

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SAMPLES = Path(__file__).resolve().parents[2] / "sample_runs" / "harness"
#: Chromium's own service traffic, not the page's.
SERVICE = re.compile(r"(^|\.)(google\.com|googleapis\.com|gvt1\.com)$")


class _Proxy:
    """Accepts connections and records each request's host; answers nothing."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.hosts: list[str] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                parts = conn.recv(4096).split(b"\r\n")[0].decode("latin-1").split()
                if len(parts) >= 2:
                    host = re.sub(r"^[a-z]+://", "", parts[1]).split("/")[0].split(":")[0]
                    if not SERVICE.search(host):
                        self.hosts.append(host)
            except OSError:
                pass
            finally:
                conn.close()


@pytest.fixture
def proxy() -> Iterator[_Proxy]:
    p = _Proxy()
    yield p
    p.sock.close()


def _dom(page: Path, tmp: Path, proxy: _Proxy) -> str:
    assert CHROMIUM, "Debian's chromium is required (apt-get install chromium; .ci/run does it)"
    args = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", f"--user-data-dir={tmp / 'profile'}", "--window-size=1000,1600",
        f"--proxy-server=http://127.0.0.1:{proxy.port}", "--proxy-bypass-list=<-loopback>",
        "--dump-dom", page.as_uri(),
    ]  # fmt: skip
    proc = subprocess.run(args, capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    return proc.stdout.decode("utf-8")


def test_single_seed_page_renders_its_arms_and_caveats(tmp_path: Path, proxy: _Proxy) -> None:
    source = SAMPLES / "gpu-calc-hard-single-seed.json"
    dest = tmp_path / "out"
    assert main(["export", str(source), "--output-dir", str(dest)]) == 0
    arms = json.loads(source.read_text())["arms"]
    dom = _dom(dest / "index.html", tmp_path, proxy)
    assert "<script" not in dom.lower()
    # every arm is a rendered row, and the caveats the harness keeps are on the page as text
    for arm in arms:
        assert f">{arm['name']}<" in dom
    assert SINGLE_SEED_LABEL in dom
    assert re.sub(r"\s+", " ", MEASURED_NOT_MATCHED)[:60] in re.sub(r"\s+", " ", dom)
    assert "/home/" not in dom
    assert proxy.hosts == []


def test_markup_in_an_arm_name_stays_text_in_the_browser(tmp_path: Path, proxy: _Proxy) -> None:
    text = (SAMPLES / "gpu-calc-hard-equal-update-3seeds.json").read_text()
    hostile = "<img src=x onerror=document.title='pwned'>"
    # the arm's name everywhere the file refers to it (reads, diffs), so the file stays valid
    doc = json.loads(text.replace('"sft-continued"', json.dumps(hostile)))
    assert doc["arms"][1]["name"] == hostile
    (tmp_path / "src").mkdir()
    source = tmp_path / "src" / "hostile.json"
    source.write_text(json.dumps(doc))
    dest = tmp_path / "out"
    assert main(["export", str(source), "--output-dir", str(dest)]) == 0
    dom = _dom(dest / "index.html", tmp_path, proxy)
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    assert title is not None and "pwned" not in title.group(1)
    assert "<img" not in dom.lower()
    assert "&lt;img src=x onerror=" in dom
    assert proxy.hosts == []
