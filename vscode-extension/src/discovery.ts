import * as cp from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { primaryWorkspaceFolder, ServerSettings } from './config';
import { formatCommand, LineTail, runProcess, which } from './util';

const IS_WINDOWS = process.platform === 'win32';
const MODULE = 'affine_lsp';
const EXECUTABLE = 'affine-lsp';
// affine-lsp is on no package index: the server comes with this extension
// (command "affine-lsp: Reinstall the Bundled Language Server") or from a
// clone of its repository.
export const INSTALL_HINT =
    'Install the server bundled with this extension (command "affine-lsp: Reinstall the Bundled Language Server"), ' +
    'or from a clone of the affine-lsp repository (`python3 -m pip install -e .` in it; it is on no package index)';

/** How to start the language server. */
export interface ServerLaunch {
    command: string;
    args: string[];
    cwd: string;
    /** Human-readable origin of the command, for logs and error messages. */
    origin: string;
    /** The setting that controls this choice (opened by "Open Settings" on failure). */
    settingId: string;
}

/** Discovery failed: `message` says what is missing and how to fix it. */
export class DiscoveryError extends Error {
    constructor(
        message: string,
        readonly settingId: string,
    ) {
        super(message);
    }
}

export type Logger = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error' | 'debug'>;

function isInside(dir: string, folder: string): boolean {
    const rel = path.relative(folder, dir);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The directory every process the extension starts runs in: never a workspace folder (a Python
 * started there would import the folder's modules, a pyenv shim would read its
 * `.python-version`): the extension's own folder, else the temporary directory.
 */
export function serverCwd(): string {
    const own = path.resolve(__dirname, '..');
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    let candidate = os.tmpdir();
    try {
        if (fs.statSync(own).isDirectory()) {
            candidate = own;
        }
    } catch {
        // not there: the temporary directory
    }
    return folders.some((f) => isInside(candidate, f)) ? os.tmpdir() : candidate;
}

/**
 * `-I`: Python in isolated mode, for every interpreter the extension starts: neither the
 * current directory nor PYTHONPATH is on sys.path, no user site-packages, no PYTHON* variables.
 */
export const ISOLATED = '-I';

interface ImportCheck {
    ok: boolean;
    /** sys.executable as reported by the interpreter, or the path we ran. */
    executable: string;
    version?: string;
    /** A complete, user-facing explanation when !ok. */
    problem?: string;
}

const CHECK_SCRIPT = [
    'import sys',
    'print(sys.executable)',
    'sys.stdout.flush()',
    `import ${MODULE}`,
    `print(getattr(${MODULE}, "__version__", ""))`,
].join('; ');

/** Check that `python -I` runs and can import affine_lsp (from `cwd`, as the server will). */
export async function checkPythonModule(python: string, cwd: string, log: Logger): Promise<ImportCheck> {
    log.info(`Checking that ${python} can import '${MODULE}'`);
    const r = await runProcess(python, [ISOLATED, '-c', CHECK_SCRIPT], { cwd, timeoutMs: 30000 });
    if (r.spawnError) {
        const why = r.spawnError.code === 'EACCES' ? 'is not executable' : 'was not found';
        return { ok: false, executable: python, problem: `the Python interpreter ${python} ${why}` };
    }
    const out = r.stdout.split(/\r?\n/).map((l) => l.trim());
    const executable = out[0] || python;
    if (r.timedOut) {
        return {
            ok: false,
            executable,
            problem: `importing Python module '${MODULE}' with ${executable} did not finish within 30 s`,
        };
    }
    if (r.code === 0) {
        const version = out[1] || undefined;
        log.info(`${executable}: '${MODULE}' ${version ? `version ${version} ` : ''}is importable`);
        return { ok: true, executable, version };
    }
    const tail = new LineTail(50);
    r.stderr.split(/\r?\n/).forEach((l) => tail.push(l));
    log.warn(`${executable} -c 'import ${MODULE}' failed (exit code ${r.code}):\n${r.stderr.trim()}`);
    if (new RegExp(`No module named '${MODULE}'`).test(r.stderr)) {
        return {
            ok: false,
            executable,
            problem:
                `Python module '${MODULE}' not found for ${executable} (started isolated, \`python -I\`: ` +
                'PYTHONPATH and the user site-packages are not used, install it into that interpreter or a virtual environment)',
        };
    }
    const missingDep = /No module named '([^']+)'/.exec(r.stderr);
    if (missingDep) {
        return {
            ok: false,
            executable,
            problem: `Python module '${MODULE}' cannot be imported with ${executable}: its dependency '${missingDep[1]}' is missing`,
        };
    }
    if (out[0] === '' && r.code !== 0 && r.stderr.trim() === '') {
        return { ok: false, executable, problem: `${python} exited with code ${r.code} and printed nothing; is it a Python 3 interpreter?` };
    }
    return {
        ok: false,
        executable,
        problem: `importing Python module '${MODULE}' with ${executable} failed: ${tail.summary ?? `exit code ${r.code}`}`,
    };
}

/** `affine-lsp` executables inside the workspace folders' virtual environments, in priority order (trusted folders only). */
function venvCandidates(): string[] {
    const folders = [...(vscode.workspace.workspaceFolders ?? [])];
    const primary = primaryWorkspaceFolder();
    if (primary) {
        folders.sort((a, b) => (a === primary ? -1 : b === primary ? 1 : 0));
    }
    const result: string[] = [];
    for (const folder of folders) {
        for (const venv of ['.venv', 'venv']) {
            if (IS_WINDOWS) {
                result.push(path.join(folder.uri.fsPath, venv, 'Scripts', `${EXECUTABLE}.exe`));
            } else {
                result.push(path.join(folder.uri.fsPath, venv, 'bin', EXECUTABLE));
            }
        }
    }
    return result;
}

/**
 * Find the language server, in this order:
 *  1. `affineLsp.server.command`, if set (used as is, plus extraArgs);
 *  2. `<affineLsp.server.pythonPath> -m affine_lsp serve`, if pythonPath is set;
 *  3. an `affine-lsp` executable in the workspace's `.venv/bin` or `venv/bin` (a trusted workspace only),
 *     or on PATH: `affine-lsp serve`;
 *  4. `python3 -I -m affine_lsp serve`, if `python3 -I -c "import affine_lsp"` succeeds.
 * The settings are the user-level ones (readServerSettings); every process runs in serverCwd().
 * Throws DiscoveryError with an actionable message when nothing usable is found.
 */
export async function discoverServer(settings: ServerSettings, log: Logger): Promise<ServerLaunch> {
    const cwd = serverCwd();
    const extra = settings.extraArgs;

    // 1. Explicit command.
    if (settings.command.length > 0) {
        const [cmd, ...rest] = settings.command;
        const resolved = which(cmd);
        if (!resolved) {
            const where = cmd.includes('/') || cmd.includes('\\') ? 'does not exist or is not executable' : 'was not found on PATH';
            throw new DiscoveryError(
                `the program '${cmd}' from affineLsp.server.command ${where}. ` +
                    'Fix the setting, or clear it to let the extension find the server by itself.',
                'affineLsp.server.command',
            );
        }
        return {
            command: resolved,
            args: [...rest, ...extra],
            cwd,
            origin: 'affineLsp.server.command',
            settingId: 'affineLsp.server.command',
        };
    }

    // 2. Explicit interpreter.
    if (settings.pythonPath !== '') {
        const python = which(settings.pythonPath);
        if (!python) {
            throw new DiscoveryError(
                `the Python interpreter '${settings.pythonPath}' (affineLsp.server.pythonPath) was not found. ` +
                    `Set affineLsp.server.pythonPath to a Python 3 interpreter that has affine-lsp installed (\`python3 -m pip install -e .\` in a clone of its repository).`,
                'affineLsp.server.pythonPath',
            );
        }
        const check = await checkPythonModule(python, cwd, log);
        if (!check.ok) {
            throw new DiscoveryError(
                `${check.problem}. Install affine-lsp into that interpreter (\`${check.executable} -m pip install -e .\` in a clone of its repository; it is on no package index) ` +
                    'or set affineLsp.server.pythonPath to another one.',
                'affineLsp.server.pythonPath',
            );
        }
        return {
            command: python,
            args: [ISOLATED, '-m', MODULE, 'serve', ...extra],
            cwd,
            origin: 'affineLsp.server.pythonPath',
            settingId: 'affineLsp.server.pythonPath',
        };
    }

    // 3. An affine-lsp executable in a workspace virtual environment (trusted only) or on PATH.
    if (settings.trusted) {
        for (const candidate of venvCandidates()) {
            const found = which(candidate);
            if (found) {
                log.info(`Found ${found} in a workspace virtual environment`);
                return { command: found, args: ['serve', ...extra], cwd, origin: 'workspace virtual environment', settingId: 'affineLsp.server.command' };
            }
        }
    } else if ((vscode.workspace.workspaceFolders ?? []).length > 0) {
        log.info('The workspace is not trusted: not looking for a server in its .venv or venv (Restricted Mode).');
    }
    const onPath = which(EXECUTABLE);
    if (onPath) {
        log.info(`Found ${onPath} on PATH`);
        return { command: onPath, args: ['serve', ...extra], cwd, origin: 'PATH', settingId: 'affineLsp.server.command' };
    }

    // 4. python3 -m affine_lsp.
    const pythonNames = IS_WINDOWS ? ['python3', 'python', 'py'] : ['python3'];
    let python: string | undefined;
    for (const name of pythonNames) {
        python = which(name);
        if (python) {
            break;
        }
    }
    const searched = settings.trusted
        ? `no '${EXECUTABLE}' executable was found in .venv/bin, venv/bin or on PATH`
        : `no '${EXECUTABLE}' executable was found on PATH (the untrusted workspace's .venv and venv are not searched)`;
    if (!python) {
        throw new DiscoveryError(
            `no Python interpreter found ('python3' is not on PATH) and ${searched}. ` +
                `Install Python 3.11 or later, then ${INSTALL_HINT}; or set affineLsp.server.pythonPath.`,
            'affineLsp.server.pythonPath',
        );
    }
    const check = await checkPythonModule(python, cwd, log);
    if (!check.ok) {
        throw new DiscoveryError(
            `${check.problem} (and ${searched}). ${INSTALL_HINT} or set affineLsp.server.pythonPath.`,
            'affineLsp.server.pythonPath',
        );
    }
    return {
        command: python,
        args: [ISOLATED, '-m', MODULE, 'serve', ...extra],
        cwd,
        origin: `${path.basename(python)} on PATH`,
        settingId: 'affineLsp.server.pythonPath',
    };
}

/** How the server process is spawned (ServerManager): in launch.cwd (serverCwd()), never the workspace folder. */
export function serverSpawnOptions(launch: ServerLaunch): cp.SpawnOptions {
    return {
        cwd: launch.cwd,
        env: { ...process.env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' },
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
    };
}

export function describeLaunch(launch: ServerLaunch): string {
    return formatCommand(launch.command, launch.args);
}
