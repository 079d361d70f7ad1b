import * as cp from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as readline from 'readline';
import * as vscode from 'vscode';
import { isWorkspaceTrusted, primaryWorkspaceFolder, SECTION, ServerSettings } from './config';
import { checkPythonModule, DiscoveryError, ISOLATED, ServerLaunch, serverCwd } from './discovery';
import { formatCommand, runProcess, which } from './util';

/**
 * The server bundled with the extension: `npm run package` puts the affine-lsp
 * wheel and server/manifest.json (scripts/build-server-wheel.mjs) into the
 * .vsix. When discovery finds no server, it is installed into a virtual
 * environment in the extension's global storage and started from there.
 */

export const AUTO_INSTALL_SETTING = 'affineLsp.server.autoInstall';
export type AutoInstallMode = 'ask' | 'always' | 'never';

const IS_WINDOWS = process.platform === 'win32';
const MODULE = 'affine_lsp';
const PIP_TIMEOUT_MS = 15 * 60_000;
/** Another window's install lock older than this is considered abandoned. */
const STALE_LOCK_MS = 20 * 60_000;
const INSTALL = 'Install';
const OPEN_SETTINGS = 'Open Settings';
const SHOW_LOG = 'Show Log';

/** server/manifest.json, written next to the wheel at build time. */
interface Manifest {
    wheel: string;
    version: string;
    requiresPython: string;
    requires: string[];
    sha256: string;
}

/** What was installed into the environment: server-env.json next to it. */
interface Marker {
    wheel: string;
    version: string;
    sha256: string;
    basePython: string;
    pythonVersion: string;
    installedAt: string;
}

/** An install that failed: `message` says why and what to do; `settingId` is opened by "Open Settings". */
export class InstallError extends Error {
    constructor(
        message: string,
        readonly settingId: string = 'affineLsp.server',
    ) {
        super(message);
    }
}

export function readAutoInstallMode(): AutoInstallMode {
    const v = vscode.workspace.getConfiguration(SECTION).get<string>('server.autoInstall', 'ask');
    return v === 'always' || v === 'never' ? v : 'ask';
}

/** `>=3.11` (or `>=3.11.2, <4`) -> [3, 11]; the floor 3.10 when the wheel says nothing. */
export function minimumPython(requiresPython: string): [number, number] {
    const m = />=\s*(\d+)\.(\d+)/.exec(requiresPython);
    return m ? [Number(m[1]), Number(m[2])] : [3, 10];
}

/** The pip failure explained for a person, or undefined when it is not a network / index problem. */
export function explainPipFailure(output: string): string | undefined {
    const network =
        /(NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution|Name or service not known|Network is unreachable|ConnectTimeout|Read timed out|ProxyError|SSLError|CERTIFICATE_VERIFY_FAILED|Could not fetch URL)[^\n]*/.exec(
            output,
        );
    const missing = /(No matching distribution found for [^\n]*|Could not find a version that satisfies the requirement [^\n]*)/.exec(output);
    if (!network && !missing) {
        return undefined;
    }
    const detail = (network ?? missing)![0].trim();
    return (
        `pip could not get affine-lsp's dependencies from the package index (${detail.slice(0, 300)}). ` +
        'Check the network connection and pip\'s index settings (pip.conf, PIP_INDEX_URL, proxy), then run ' +
        '"affine-lsp: Reinstall the Bundled Language Server"; or install affine-lsp yourself and set affineLsp.server.pythonPath'
    );
}

function envPythonIn(envDir: string): string {
    return IS_WINDOWS ? path.join(envDir, 'Scripts', 'python.exe') : path.join(envDir, 'bin', 'python');
}

/** The environment for Python tools we run: no inherited PYTHONPATH/PYTHONHOME/VIRTUAL_ENV. */
function toolEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8', PIP_DISABLE_PIP_VERSION_CHECK: '1' };
    delete env.PYTHONPATH;
    delete env.PYTHONHOME;
    delete env.VIRTUAL_ENV;
    return env;
}

function delay(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The interpreter the Python extension (ms-python.python) has selected for the workspace, if it
 * is installed and the workspace is trusted (in an untrusted one it may be the folder's own venv).
 */
export async function pythonExtensionInterpreter(log: vscode.LogOutputChannel): Promise<string | undefined> {
    const ext = vscode.extensions.getExtension('ms-python.python');
    if (!ext) {
        return undefined;
    }
    if (!isWorkspaceTrusted()) {
        log.info("The workspace is not trusted: not using the Python extension's interpreter for the bundled server (it may be the folder's own).");
        return undefined;
    }
    try {
        const activated = ext.isActive ? Promise.resolve(ext.exports) : ext.activate();
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const api: any = await Promise.race([activated, delay(20_000).then(() => undefined)]);
        const resource = primaryWorkspaceFolder()?.uri;
        const envPath = api?.environments?.getActiveEnvironmentPath?.(resource);
        if (envPath?.path) {
            const env = await api.environments.resolveEnvironment?.(envPath);
            const exe: string | undefined = env?.executable?.uri?.fsPath ?? envPath.path;
            if (exe) {
                return exe;
            }
        }
        const details = await api?.settings?.getExecutionDetails?.(resource);
        const cmd = details?.execCommand?.[0];
        return typeof cmd === 'string' && cmd !== '' ? cmd : undefined;
    } catch (err) {
        log.warn(`Could not ask the Python extension for its interpreter: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
    }
}

const PROBE = [
    'import sys',
    'print(sys.executable)',
    'print("%d.%d.%d" % sys.version_info[:3])',
    'import venv',
    'try:\n    import ensurepip\n    print("ensurepip")\nexcept ImportError:\n    print("no-ensurepip")',
].join('\n');

interface FoundPython {
    python: string;
    version: string;
}

/** Find a Python >= `min` that can make virtual environments with pip; throws InstallError saying what was tried. */
async function findPython(min: [number, number], log: vscode.LogOutputChannel): Promise<FoundPython> {
    const candidates: { python: string; origin: string }[] = [];
    const fromExtension = await pythonExtensionInterpreter(log);
    if (fromExtension) {
        candidates.push({ python: fromExtension, origin: "the Python extension's selected interpreter" });
    }
    for (const name of IS_WINDOWS ? ['python3', 'python', 'py'] : ['python3', 'python']) {
        const found = which(name);
        if (found) {
            candidates.push({ python: found, origin: `${name} on PATH` });
        }
    }
    const tried: string[] = [];
    for (const { python, origin } of candidates) {
        const r = await runProcess(python, [ISOLATED, '-c', PROBE], { cwd: serverCwd(), env: toolEnv(), timeoutMs: 30_000 });
        const out = r.stdout.split(/\r?\n/).map((l) => l.trim());
        if (r.code !== 0 || !/^\d+\.\d+\.\d+$/.test(out[1] ?? '')) {
            tried.push(`${python} (${origin}) does not run as Python 3`);
            log.info(`Not usable for the bundled server: ${python} (${origin}): exit code ${r.code}, ${r.stderr.trim().slice(0, 300)}`);
            continue;
        }
        const [major, minor] = out[1].split('.').map(Number);
        if (major < min[0] || (major === min[0] && minor < min[1])) {
            tried.push(`${python} (${origin}) is Python ${out[1]}`);
            continue;
        }
        if (out[2] !== 'ensurepip') {
            tried.push(`${python} (${origin}, Python ${out[1]}) cannot make virtual environments with pip (on Debian/Ubuntu: apt install python3-venv)`);
            continue;
        }
        log.info(`Using ${out[0] || python} (Python ${out[1]}, ${origin}) for the bundled server's environment.`);
        return { python, version: out[1] };
    }
    const need = `Python ${min[0]}.${min[1]} or later`;
    throw new InstallError(
        `cannot install the bundled language server: no ${need} was found` +
            (tried.length ? ` (${tried.join('; ')})` : ' (no python3 or python on PATH, and no interpreter selected in the Python extension)') +
            `. Install ${need}, or install affine-lsp yourself and set affineLsp.server.pythonPath`,
        'affineLsp.server',
    );
}

/** Installs the bundled wheel into <globalStorage>/server-env and tells the server manager how to start it. */
export class ServerInstaller {
    /** The user accepted the install prompt: the next start installs without asking again. */
    private accepted = false;
    private promptOpen = false;

    constructor(
        private readonly storageDir: string,
        private readonly extensionPath: string,
        private readonly log: vscode.LogOutputChannel,
    ) {}

    /** The virtual environment: `<globalStorage>/server-env`. */
    get envDir(): string {
        return path.join(this.storageDir, 'server-env');
    }

    /** What is installed in it: `<globalStorage>/server-env.json`. */
    get markerPath(): string {
        return path.join(this.storageDir, 'server-env.json');
    }

    private get lockDir(): string {
        return path.join(this.storageDir, 'server-env.lock');
    }

    /** The bundled wheel's manifest, or undefined in a build without one. */
    manifest(): Manifest | undefined {
        try {
            const m = JSON.parse(fs.readFileSync(path.join(this.extensionPath, 'server', 'manifest.json'), 'utf8')) as Manifest;
            return fs.existsSync(this.wheelPath(m)) ? m : undefined;
        } catch {
            return undefined;
        }
    }

    private wheelPath(m: Manifest): string {
        return path.join(this.extensionPath, 'server', m.wheel);
    }

    private readMarker(): Marker | undefined {
        try {
            return JSON.parse(fs.readFileSync(this.markerPath, 'utf8')) as Marker;
        } catch {
            return undefined;
        }
    }

    /** Auto-install applies only when the user has not chosen a server in the settings. */
    applies(settings: ServerSettings): boolean {
        return settings.command.length === 0 && settings.pythonPath === '';
    }

    private launch(extraArgs: string[], version: string): ServerLaunch {
        return {
            command: envPythonIn(this.envDir),
            args: [ISOLATED, '-m', MODULE, 'serve', ...extraArgs],
            cwd: serverCwd(),
            origin: `the bundled server ${version} installed in ${this.envDir}`,
            settingId: AUTO_INSTALL_SETTING,
        };
    }

    /**
     * Discovery found no server (`why`): return how to start the bundled one, installing or
     * updating it first when needed. Returns undefined after telling the user (`report` for
     * errors, or the install prompt, whose "Install" calls `startAgain`).
     */
    async resolve(
        why: DiscoveryError,
        extraArgs: string[],
        report: (message: string, settingId: string) => void,
        startAgain: () => void,
    ): Promise<ServerLaunch | undefined> {
        const manifest = this.manifest();
        const marker = this.readMarker();
        const mode = readAutoInstallMode();
        const python = envPythonIn(this.envDir);
        if (marker && which(python)) {
            const current = !manifest || (marker.sha256 === manifest.sha256 && marker.version === manifest.version);
            if (current || mode === 'never') {
                const check = await checkPythonModule(python, serverCwd(), this.log);
                if (check.ok) {
                    if (!current) {
                        this.log.warn(`The bundled server ${manifest!.version} is newer than the installed ${marker.version}, but ${AUTO_INSTALL_SETTING} is 'never': not updating it.`);
                    }
                    return this.launch(extraArgs, marker.version);
                }
                this.log.warn(`The bundled server's environment ${this.envDir} is broken: ${check.problem}`);
            } else {
                this.log.info(`The extension brings affine-lsp ${manifest!.version} (${manifest!.sha256.slice(0, 12)}), the environment has ${marker.version} (${marker.sha256.slice(0, 12)}): updating it.`);
            }
            if (manifest && mode !== 'never') {
                return this.installAndLaunch(manifest, extraArgs, report);
            }
        }
        if (!manifest) {
            this.log.warn('This build of the extension carries no server wheel (server/manifest.json): nothing to install.');
            report(why.message, why.settingId);
            return undefined;
        }
        if (mode === 'never') {
            report(`${why.message} (${AUTO_INSTALL_SETTING} is 'never', so the bundled server is not installed)`, why.settingId);
            return undefined;
        }
        if (mode === 'always' || this.accepted) {
            this.log.info(`No language server found (${why.message}); installing the bundled one.`);
            return this.installAndLaunch(manifest, extraArgs, report);
        }
        this.log.warn(`No language server found: ${why.message}`);
        this.prompt(manifest, why, startAgain);
        return undefined;
    }

    private prompt(manifest: Manifest, why: DiscoveryError, startAgain: () => void): void {
        if (this.promptOpen) {
            return;
        }
        this.promptOpen = true;
        const [major, minor] = minimumPython(manifest.requiresPython);
        const text =
            `affine-lsp: no language server was found. Install affine-lsp ${manifest.version}, bundled with this extension, ` +
            `into a private virtual environment? (Needs Python ${major}.${minor}+; pip fetches its dependencies from the package index.)`;
        void vscode.window.showInformationMessage(text, INSTALL, SHOW_LOG, OPEN_SETTINGS).then((choice) => {
            this.promptOpen = false;
            if (choice === INSTALL) {
                this.accepted = true;
                startAgain();
            } else if (choice === SHOW_LOG) {
                this.log.show(true);
            } else if (choice === OPEN_SETTINGS) {
                void vscode.commands.executeCommand('workbench.action.openSettings', why.settingId);
            }
        });
    }

    private async installAndLaunch(
        manifest: Manifest,
        extraArgs: string[],
        report: (message: string, settingId: string) => void,
    ): Promise<ServerLaunch | undefined> {
        try {
            await this.install(manifest, false);
        } catch (err) {
            const failure =
                err instanceof InstallError
                    ? err
                    : new InstallError(`installing the bundled server failed: ${err instanceof Error ? err.message : String(err)}`, AUTO_INSTALL_SETTING);
            // A failed update leaves the previous install in place: keep serving with it.
            const old = this.readMarker();
            const python = envPythonIn(this.envDir);
            if (old && which(python) && (await checkPythonModule(python, serverCwd(), this.log)).ok) {
                const text = `affine-lsp: updating the bundled language server to ${manifest.version} failed: ${failure.message}. Using the installed ${old.version} meanwhile.`;
                this.log.error(text);
                void vscode.window.showWarningMessage(text, SHOW_LOG, OPEN_SETTINGS).then((choice) => {
                    if (choice === SHOW_LOG) {
                        this.log.show(true);
                    } else if (choice === OPEN_SETTINGS) {
                        void vscode.commands.executeCommand('workbench.action.openSettings', failure.settingId);
                    }
                });
                return this.launch(extraArgs, old.version);
            }
            report(failure.message, failure.settingId);
            return undefined;
        }
        return this.launch(extraArgs, manifest.version);
    }

    /** "Reinstall the Bundled Language Server": a fresh environment, whatever is there now. */
    async reinstall(): Promise<InstallError | undefined> {
        const manifest = this.manifest();
        if (!manifest) {
            return new InstallError('this build of the extension carries no server wheel; build it with `npm run package`', AUTO_INSTALL_SETTING);
        }
        this.accepted = true;
        try {
            await this.install(manifest, true);
            return undefined;
        } catch (err) {
            return err instanceof InstallError ? err : new InstallError(String(err), AUTO_INSTALL_SETTING);
        }
    }

    /** Create or update the environment with the bundled wheel, with a progress notification. */
    private async install(manifest: Manifest, fresh: boolean): Promise<void> {
        await vscode.window.withProgress(
            {
                location: vscode.ProgressLocation.Notification,
                title: `affine-lsp: installing the language server ${manifest.version}`,
                cancellable: true,
            },
            async (progress, token) => {
                fs.mkdirSync(this.storageDir, { recursive: true });
                await this.lock(progress, token);
                try {
                    await this.installLocked(manifest, fresh, progress, token);
                } finally {
                    fs.rmSync(this.lockDir, { recursive: true, force: true });
                }
            },
        );
    }

    /** One install at a time across windows: a lock directory next to the environment. */
    private async lock(progress: vscode.Progress<{ message?: string }>, token: vscode.CancellationToken): Promise<void> {
        for (let waited = false; ; waited = true) {
            try {
                fs.mkdirSync(this.lockDir);
                fs.writeFileSync(path.join(this.lockDir, 'pid'), String(process.pid));
                return;
            } catch (err) {
                if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
                    throw new InstallError(`cannot write to the extension's storage ${this.storageDir}: ${(err as Error).message}`);
                }
            }
            let age = 0;
            try {
                age = Date.now() - fs.statSync(this.lockDir).mtimeMs;
            } catch {
                continue;
            }
            if (age > STALE_LOCK_MS || this.lockOwnerGone()) {
                this.log.warn(`Removing an abandoned install lock ${this.lockDir}`);
                fs.rmSync(this.lockDir, { recursive: true, force: true });
                continue;
            }
            if (!waited) {
                this.log.info('Another window is installing the bundled server; waiting for it.');
                progress.report({ message: 'waiting for another window to finish installing' });
            }
            if (token.isCancellationRequested) {
                throw new InstallError('the install was cancelled', AUTO_INSTALL_SETTING);
            }
            await delay(1000);
        }
    }

    /** The window that holds the lock has exited (its extension host's pid is gone). */
    private lockOwnerGone(): boolean {
        let pid: number;
        try {
            pid = Number(fs.readFileSync(path.join(this.lockDir, 'pid'), 'utf8'));
        } catch {
            return false; // just created, pid not written yet
        }
        if (!Number.isInteger(pid) || pid <= 0) {
            return false;
        }
        try {
            process.kill(pid, 0);
            return false;
        } catch (err) {
            return (err as NodeJS.ErrnoException).code === 'ESRCH';
        }
    }

    private async installLocked(
        manifest: Manifest,
        fresh: boolean,
        progress: vscode.Progress<{ message?: string }>,
        token: vscode.CancellationToken,
    ): Promise<void> {
        const marker = this.readMarker();
        const python = envPythonIn(this.envDir);
        if (!fresh && marker && marker.sha256 === manifest.sha256 && (await checkPythonModule(python, serverCwd(), this.log)).ok) {
            this.log.info('The bundled server was installed meanwhile (by another window).');
            return;
        }
        this.log.info(`Installing the bundled affine-lsp ${manifest.version} into ${this.envDir}`);
        // Reuse the environment for an update when its interpreter still runs; else start afresh.
        let update = !fresh && marker !== undefined && which(python) !== undefined;
        if (update) {
            const r = await runProcess(python, [ISOLATED, '-c', 'import pip'], { cwd: serverCwd(), env: toolEnv(), timeoutMs: 30_000 });
            update = r.code === 0;
        }
        let basePython = marker?.basePython ?? '';
        let pythonVersion = marker?.pythonVersion ?? '';
        if (!update) {
            progress.report({ message: 'looking for Python' });
            const found = await findPython(minimumPython(manifest.requiresPython), this.log);
            basePython = found.python;
            pythonVersion = found.version;
            fs.rmSync(this.markerPath, { force: true });
            fs.rmSync(this.envDir, { recursive: true, force: true });
            progress.report({ message: `creating a virtual environment with Python ${found.version}` });
            const out = await this.run(found.python, [ISOLATED, '-m', 'venv', this.envDir], token, 5 * 60_000);
            if (out.code !== 0) {
                throw new InstallError(
                    `creating a virtual environment with ${found.python} failed (exit code ${out.code}): ${lastLine(out.text)}. ` +
                        'See the "affine-lsp" output for the details',
                    'affineLsp.server',
                );
            }
        }
        const wheel = this.wheelPath(manifest);
        const deps = manifest.requires.map((r) => r.split(/[<>=!~;\s[]/)[0]).join(', ');
        progress.report({ message: `pip install ${manifest.wheel} (and ${deps})` });
        const pip = [ISOLATED, '-m', 'pip', 'install', '--disable-pip-version-check', '--no-input'];
        let out = await this.run(python, [...pip, wheel], token, PIP_TIMEOUT_MS, progress);
        if (out.code === 0 && update) {
            // Same version number, new build: replace the package itself too.
            out = await this.run(python, [...pip, '--force-reinstall', '--no-deps', wheel], token, PIP_TIMEOUT_MS, progress);
        }
        if (out.code !== 0) {
            const why = explainPipFailure(out.text);
            throw new InstallError(
                why ?? `pip install ${manifest.wheel} failed (exit code ${out.code}): ${lastLine(out.text)}. See the "affine-lsp" output for pip's log`,
                'affineLsp.server',
            );
        }
        progress.report({ message: 'checking the installed server' });
        const check = await checkPythonModule(python, serverCwd(), this.log);
        if (!check.ok) {
            throw new InstallError(`the bundled server was installed but does not import: ${check.problem}`, AUTO_INSTALL_SETTING);
        }
        const installed: Marker = {
            wheel: manifest.wheel,
            version: manifest.version,
            sha256: manifest.sha256,
            basePython,
            pythonVersion,
            installedAt: new Date().toISOString(),
        };
        fs.writeFileSync(this.markerPath, JSON.stringify(installed, null, 2) + '\n');
        this.log.info(`Installed the bundled affine-lsp ${manifest.version} into ${this.envDir}.`);
    }

    /** Run a tool, its output line by line into the log (`[pip] ...`); cancellable. */
    private run(
        command: string,
        args: string[],
        token: vscode.CancellationToken,
        timeoutMs: number,
        progress?: vscode.Progress<{ message?: string }>,
    ): Promise<{ code: number | null; text: string }> {
        this.log.info(`Running ${formatCommand(command, args)}`);
        const tag = args.includes('pip') ? 'pip' : args.includes('venv') ? 'venv' : path.basename(command);
        return new Promise((resolve, reject) => {
            let text = '';
            let settled = false;
            const child = cp.spawn(command, args, { cwd: serverCwd(), env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
            const onLine = (line: string) => {
                if (text.length < 1_000_000) {
                    text += line + '\n';
                }
                this.log.info(`[${tag}] ${line}`);
                const m = /^\s*(Collecting|Downloading|Processing|Installing collected packages:|Successfully installed)\s*(\S+)?/.exec(line);
                if (progress && m) {
                    progress.report({ message: `${m[1].replace(/:$/, '')} ${path.basename(m[2] ?? '')}`.trim() });
                }
            };
            for (const stream of [child.stdout, child.stderr]) {
                if (stream) {
                    readline.createInterface({ input: stream, crlfDelay: Infinity, terminal: false }).on('line', onLine);
                }
            }
            const finish = (f: () => void) => {
                if (!settled) {
                    settled = true;
                    clearTimeout(timer);
                    cancel.dispose();
                    f();
                }
            };
            const timer = setTimeout(() => {
                child.kill();
                finish(() => reject(new InstallError(`${formatCommand(command, args)} did not finish within ${timeoutMs / 60_000} minutes`, 'affineLsp.server')));
            }, timeoutMs);
            const cancel = token.onCancellationRequested(() => {
                child.kill();
                finish(() => reject(new InstallError('the install was cancelled; run "affine-lsp: Reinstall the Bundled Language Server" to try again', AUTO_INSTALL_SETTING)));
            });
            child.on('error', (err) => finish(() => reject(new InstallError(`could not run ${command}: ${err.message}`, 'affineLsp.server'))));
            child.on('close', (code) => {
                // Let readline deliver the last lines first.
                setTimeout(() => finish(() => resolve({ code, text })), 50);
            });
        });
    }
}

function lastLine(text: string): string {
    const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
    const error = [...lines].reverse().find((l) => /error/i.test(l));
    return (error ?? lines[lines.length - 1] ?? 'no output').slice(0, 300);
}
