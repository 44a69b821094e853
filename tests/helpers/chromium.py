"""Debian's headless Chromium for page tests, and a proxy that records every request it makes.

Chromium's own service traffic (update checks, clock sync on Google hosts) is not the page's and
is ignored by host.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import threading
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_SERVICE_HOSTS = re.compile(r"(^|\.)(google\.com|googleapis\.com|gvt1\.com)$")


def _browser_service(host: str) -> bool:
    return bool(BROWSER_SERVICE_HOSTS.search(host)) and not host.startswith("fonts.")


class RecordingProxy:
    """Accepts connections, records the request line, answers nothing."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.port = self.sock.getsockname()[1]
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(2)
            try:
                self.lines.append(conn.recv(4096).split(b"\r\n")[0].decode("latin-1"))
            except OSError:
                pass
            finally:
                conn.close()

    def page_hosts(self) -> list[str]:
        hosts = []
        for line in self.lines:
            parts = line.split()
            if len(parts) < 2:
                continue
            target = parts[1]
            host = re.sub(r"^[a-z]+://", "", target).split("/")[0].split(":")[0]
            if not _browser_service(host):
                hosts.append(host)
        return hosts

    def close(self) -> None:
        self.sock.close()


def chromium(page: Path, tmp: Path, *extra: str, proxy: RecordingProxy | None = None) -> str:
    assert CHROMIUM, "Debian's chromium is required (apt-get install chromium; .ci/run does it)"
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    args = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-default-apps", f"--user-data-dir={profile}",
        "--window-size=1000,1600",
    ]
    if proxy is not None:
        args += [f"--proxy-server=http://127.0.0.1:{proxy.port}", "--proxy-bypass-list=<-loopback>"]
    proc = subprocess.run(
        [*args, *extra, page.as_uri()], capture_output=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    return proc.stdout.decode("utf-8")
