import * as cp from 'child_process';
import * as readline from 'readline';
import * as vscode from 'vscode';
import {
    CloseAction,
    CloseHandlerResult,
    ErrorAction,
    ErrorHandlerResult,
    LanguageClient,
    LanguageClientOptions,
    RevealOutputChannelOn,
    ServerOptions,
    State,
} from 'vscode-languageclient/node';
import { ServerInstaller } from './autoInstall';
import { openSetting, readInitializationOptions, readServerSettings, readTraceSetting, SECTION, serverConfigurationAnswer } from './config';
import { describeLaunch, DiscoveryError, discoverServer, INSTALL_HINT, ServerLaunch, serverSpawnOptions } from './discovery';
import { TraceChannel } from './traceChannel';
import { LineTail } from './util';

const CLIENT_ID = 'affineLsp';
const CLIENT_NAME = 'affine-lsp';
/** A server that dies within this time after being spawned "exited immediately": no automatic restart. */
const EARLY_EXIT_MS = 10_000;
/** Give up on a server that has not answered `initialize` after this long. */
const START_TIMEOUT_MS = 60_000;
/** Automatic restarts after crashes: at most MAX_RESTARTS within RESTART_WINDOW_MS. */
const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60_000;

const OPEN_SETTINGS = 'Open Settings';
const MANAGE_TRUST = 'Manage Workspace Trust';
const SHOW_LOG = 'Show Log';
const RESTART = 'Restart Server';

/** One spawned server process and what we learned about it. */
interface ServerProcess {
    child: cp.ChildProcess;
    launch: ServerLaunch;
    startedAt: number;
    stderr: LineTail;
    spawnError?: NodeJS.ErrnoException;
    exit?: { code: number | null; signal: NodeJS.Signals | null };
    exited: Promise<void>;
}

/**
 * The failures are reported by ServerManager with an actionable message; keep the
 * client's own generic notifications ("couldn't create connection to server") out of the
 * way, but keep logging them.
 */
/** Extension commands that server hovers may link to (`command:` links, trusted for these only). */
const HOVER_COMMAND_LINKS = ['affineLsp.showIterationSpace', 'affineLsp.showDependenceGraph'];

class AffineLanguageClient extends LanguageClient {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override error(message: string, data?: any, _showNotification?: boolean | 'force'): void {
        super.error(message, data, false);
    }
}

function stderrLevel(line: string): 'error' | 'warn' | 'info' | 'debug' {
    if (/\b(CRITICAL|ERROR|FATAL)\b|^Traceback|Error:|Exception:/.test(line)) {
        return 'error';
    }
    if (/\bWARN(ING)?\b/.test(line)) {
        return 'warn';
    }
    if (/\bDEBUG\b/.test(line)) {
        return 'debug';
    }
    return 'info';
}

function delay(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts, stops and restarts the language client, and turns every failure into a clear notification. */
export class ServerManager implements vscode.Disposable {
    private client: AffineLanguageClient | undefined;
    private traceChannel: TraceChannel | undefined;
    private proc: ServerProcess | undefined;
    private running = false;
    private stopping = false;
    private crashes: number[] = [];
    private queue: Promise<unknown> = Promise.resolve();
    /** Set while doStart() waits for the server; calling it abandons the start. */
    private abortStart: (() => void) | undefined;
    private readonly stateEmitter = new vscode.EventEmitter<boolean>();
    /** Fires true when a server becomes ready, false when it stops. */
    readonly onDidChangeRunning = this.stateEmitter.event;

    constructor(
        private readonly log: vscode.LogOutputChannel,
        /** Installs the server bundled with the extension when discovery finds none (src/autoInstall.ts). */
        private readonly installer?: ServerInstaller,
    ) {}

    /** The client if the server is up and initialized. */
    get readyClient(): LanguageClient | undefined {
        return this.running && this.client?.state === State.Running ? this.client : undefined;
    }

    get isRunning(): boolean {
        return this.readyClient !== undefined;
    }

    /** Wait for any start/stop in progress, then return the client if it is running. */
    async whenSettled(): Promise<LanguageClient | undefined> {
        await this.queue.catch(() => undefined);
        return this.readyClient;
    }

    private enqueue<T>(op: () => Promise<T>): Promise<T> {
        const next = this.queue.then(op, op);
        this.queue = next.catch(() => undefined);
        return next;
    }

    start(): Promise<boolean> {
        return this.enqueue(() => this.doStart());
    }

    stop(): Promise<void> {
        this.abortStart?.();
        return this.enqueue(() => this.doStop());
    }

    restart(): Promise<boolean> {
        this.abortStart?.();
        return this.enqueue(async () => {
            await this.doStop();
            return this.doStart();
        });
    }

    /** Stop the server, install the bundled one into a fresh environment, start again. */
    reinstallServer(): Promise<boolean> {
        this.abortStart?.();
        return this.enqueue(async () => {
            await this.doStop();
            const failure = await this.installer?.reinstall();
            if (failure) {
                this.reportStartFailure(failure.message, failure.settingId);
                return false;
            }
            return this.doStart();
        });
    }

    updateTrace(): void {
        this.traceChannel?.update(readTraceSetting());
    }

    private setRunning(value: boolean): void {
        if (this.running !== value) {
            this.running = value;
            void vscode.commands.executeCommand('setContext', 'affineLsp.serverRunning', value);
            this.stateEmitter.fire(value);
        }
    }

    private async doStart(): Promise<boolean> {
        if (this.client) {
            return this.isRunning;
        }
        const settings = readServerSettings();
        if (!settings.enabled) {
            this.log.info('affineLsp.server.enabled is false: the language server is not started (syntax highlighting still works).');
            return false;
        }
        if (!settings.trusted) {
            this.log.info(
                'The workspace is not trusted (Restricted Mode): the server runs from your user settings, PATH or the bundled install, ' +
                    'nothing from the workspace is run, and "Time this function" is off.',
            );
        }
        this.reportIgnoredSettings(settings.notes, settings.trusted);
        let launch: ServerLaunch;
        try {
            launch = await discoverServer(settings, this.log);
        } catch (err) {
            if (err instanceof DiscoveryError && this.installer?.applies(settings)) {
                const bundled = await this.installer.resolve(
                    err,
                    settings.extraArgs,
                    (message, settingId) => this.reportStartFailure(message, settingId),
                    () => void this.start(),
                );
                if (!bundled) {
                    return false;
                }
                launch = bundled;
            } else if (err instanceof DiscoveryError) {
                this.reportStartFailure(err.message, err.settingId);
                return false;
            } else {
                this.reportStartFailure(`unexpected error while looking for the server: ${String(err)}`, 'affineLsp.server.command');
                return false;
            }
        }
        this.log.info(`Starting the language server: ${describeLaunch(launch)} (from ${launch.origin}; cwd ${launch.cwd})`);

        const traceChannel = new TraceChannel(this.log, readTraceSetting());
        const serverOptions: ServerOptions = () => this.spawn(launch);
        const clientOptions: LanguageClientOptions = {
            documentSelector: [
                { scheme: 'file', language: 'mlir' },
                { scheme: 'untitled', language: 'mlir' },
                { scheme: 'mlirbc', language: 'mlir' }, // decoded bytecode (bytecode.ts)
            ],
            outputChannel: this.log,
            traceOutputChannel: traceChannel,
            revealOutputChannelOn: RevealOutputChannelOn.Never,
            // The analysis settings, shaped like the `affineLsp` section that
            // `workspace/configuration` returns.
            // `commandLinks`: the commands the server's hovers may link to (the loop hover's
            // "Show iteration space"); the same list is trusted in hover Markdown below.
            // `trusted: false` in an untrusted workspace: the server runs no toolchain.
            initializationOptions: () => readInitializationOptions(HOVER_COMMAND_LINKS),
            markdown: { isTrusted: { enabledCommands: [...HOVER_COMMAND_LINKS] } },
            synchronize: { configurationSection: SECTION },
            middleware: {
                workspace: {
                    // A change is announced with `settings: null`: the server then asks for the
                    // section (workspace/configuration), which passes serverConfiguration() below.
                    didChangeConfiguration: (_sections, next) => next(undefined),
                    // The toolchain settings are the user-level ones; `trusted: false` when untrusted.
                    configuration: async (params, token, next) => {
                        const result = await next(params, token);
                        return Array.isArray(result) ? serverConfigurationAnswer(params.items, result) : result;
                    },
                },
            },
            initializationFailedHandler: (error) => {
                this.log.error(`The server failed to initialize: ${error instanceof Error ? error.message : String(error)}`);
                return false;
            },
            errorHandler: {
                error: (error, _message, count): ErrorHandlerResult => {
                    this.log.error(`Connection error: ${error.message}`);
                    return count !== undefined && count <= 3
                        ? { action: ErrorAction.Continue, handled: true }
                        : { action: ErrorAction.Shutdown, handled: true };
                },
                closed: () => this.onClosed(client),
            },
            // Our own reader in spawn() logs the server's stderr; stdout is the LSP stream.
            stdioOptions: { stdout: () => undefined, stderr: () => undefined },
        };
        const client = new AffineLanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
        this.client = client;
        this.traceChannel = traceChannel;
        this.stopping = false;

        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), START_TIMEOUT_MS);
        });
        const aborted = new Promise<'aborted'>((resolve) => {
            this.abortStart = () => resolve('aborted');
        });
        let outcome: 'started' | 'timeout' | 'aborted' | Error;
        try {
            outcome = await Promise.race([client.start().then(() => 'started' as const), timeout, aborted]);
        } catch (err) {
            outcome = err instanceof Error ? err : new Error(String(err));
        } finally {
            clearTimeout(timer);
            this.abortStart = undefined;
        }
        if (outcome !== 'started') {
            const proc = this.proc;
            await this.teardown();
            if (outcome === 'aborted') {
                this.log.info('Server start cancelled.');
                return false;
            }
            const { message, settingId } =
                outcome === 'timeout'
                    ? {
                          message:
                              `the server did not answer the LSP 'initialize' request within ${START_TIMEOUT_MS / 1000} s ` +
                              `(command: ${describeLaunch(launch)}). Is this a language server speaking LSP over stdio? Check ${launch.settingId}.`,
                          settingId: launch.settingId,
                      }
                    : this.explainStartFailure(launch, proc, outcome);
            this.reportStartFailure(message, settingId);
            return false;
        }
        const info = client.initializeResult?.serverInfo;
        this.log.info(`Language server ready${info ? `: ${info.name}${info.version ? ` ${info.version}` : ''}` : ''}.`);
        this.setRunning(true);
        return true;
    }

    /** Spawn the server process; resolves once the OS has started it. */
    private async spawn(launch: ServerLaunch): Promise<cp.ChildProcess> {
        const child = cp.spawn(launch.command, launch.args, serverSpawnOptions(launch));
        let onExit: () => void = () => undefined;
        const proc: ServerProcess = {
            child,
            launch,
            startedAt: Date.now(),
            stderr: new LineTail(40),
            exited: new Promise<void>((resolve) => (onExit = resolve)),
        };
        this.proc = proc;
        child.on('exit', (code, signal) => {
            proc.exit = { code, signal };
            const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
            this.log.info(`Language server process ${child.pid ?? ''} ${how} after ${((Date.now() - proc.startedAt) / 1000).toFixed(1)} s.`);
            onExit();
        });
        if (child.stderr) {
            readline
                .createInterface({ input: child.stderr, crlfDelay: Infinity, terminal: false })
                .on('line', (line) => {
                    proc.stderr.push(line);
                    this.log[stderrLevel(line)](`[server] ${line}`);
                });
        }
        await new Promise<void>((resolve, reject) => {
            child.once('spawn', () => resolve());
            child.once('error', (err: NodeJS.ErrnoException) => {
                proc.spawnError = err;
                onExit();
                reject(err);
            });
        });
        // Errors after a successful spawn (e.g. EPIPE on stdin) must not crash the extension host.
        child.on('error', (err) => this.log.error(`Language server process error: ${err.message}`));
        this.log.info(`Language server process started (pid ${child.pid}).`);
        return child;
    }

    private explainStartFailure(
        launch: ServerLaunch,
        proc: ServerProcess | undefined,
        err: unknown,
    ): { message: string; settingId: string } {
        const cmd = describeLaunch(launch);
        const settingId = launch.settingId;
        const errMessage = err instanceof Error ? err.message : String(err);
        if (!proc || proc.launch !== launch) {
            return { message: `${errMessage} (command: ${cmd})`, settingId };
        }
        if (proc.spawnError) {
            const e = proc.spawnError;
            const why = e.code === 'ENOENT' ? 'was not found' : e.code === 'EACCES' ? 'is not executable' : `could not be run (${e.message})`;
            return { message: `the program ${launch.command} ${why} (from ${launch.origin}). Fix ${settingId} or clear it.`, settingId };
        }
        if (proc.exit) {
            const { code, signal } = proc.exit;
            const how = signal ? `was killed by ${signal}` : `exited immediately with code ${code}`;
            const summary = proc.stderr.summary;
            let hint = `Check the "affine-lsp" output for details, and ${settingId}.`;
            if (summary && /No module named 'affine_lsp'/.test(summary)) {
                hint = `${INSTALL_HINT}; or set affineLsp.server.pythonPath.`;
            } else if (summary && /No module named '([^']+)'/.test(summary)) {
                hint = 'A dependency of affine-lsp is missing: install affine-lsp again in that interpreter (`python3 -m pip install -e .` in a clone of its repository, which installs its dependencies), or use the bundled server (command "affine-lsp: Reinstall the Bundled Language Server"), or set affineLsp.server.pythonPath to an interpreter where it is installed.';
            } else if (summary && /invalid choice|unrecognized arguments|usage:/i.test(summary)) {
                hint = `The program does not accept these arguments; check ${settingId} and affineLsp.server.extraArgs.`;
            }
            return {
                message: `the server process ${how}${summary ? `: ${summary}` : ''} (command: ${cmd}). ${hint}`,
                settingId,
            };
        }
        return { message: `${errMessage} (command: ${cmd}). Check the "affine-lsp" output for details.`, settingId };
    }

    private readonly reportedNotes = new Set<string>();

    /** Settings that were ignored (a workspace value, a relative program path, `--tcp`): one warning per new text. */
    reportIgnoredSettings(notes: readonly string[], trusted: boolean): void {
        const fresh = notes.filter((n) => !this.reportedNotes.has(n));
        if (fresh.length === 0) {
            return;
        }
        fresh.forEach((n) => this.reportedNotes.add(n));
        const text = `affine-lsp: ${fresh.join('; ')}.`;
        this.log.warn(text);
        const choices = trusted ? [OPEN_SETTINGS, SHOW_LOG] : [OPEN_SETTINGS, MANAGE_TRUST];
        void vscode.window.showWarningMessage(text, ...choices).then((choice) => {
            if (choice === OPEN_SETTINGS) {
                void openSetting('affineLsp.server');
            } else if (choice === SHOW_LOG) {
                this.log.show(true);
            } else if (choice === MANAGE_TRUST) {
                void vscode.commands.executeCommand('workbench.trust.manage');
            }
        });
    }

    private reportStartFailure(message: string, settingId: string): void {
        const text = `affine-lsp: could not start the language server: ${message}`;
        this.log.error(text);
        void vscode.window.showErrorMessage(text, OPEN_SETTINGS, SHOW_LOG).then((choice) => {
            if (choice === OPEN_SETTINGS) {
                void openSetting(settingId);
            } else if (choice === SHOW_LOG) {
                this.log.show(true);
            }
        });
    }

    /** The connection closed: a stop we asked for, a failed start (reported by doStart), or a crash. */
    private async onClosed(client: AffineLanguageClient): Promise<CloseHandlerResult> {
        const quiet: CloseHandlerResult = { action: CloseAction.DoNotRestart, handled: true, message: 'Connection to the language server closed.' };
        if (client !== this.client || this.stopping || !this.running) {
            return quiet;
        }
        const proc = this.proc;
        if (proc) {
            await Promise.race([proc.exited, delay(1000)]);
        }
        this.setRunning(false);
        const now = Date.now();
        const exit = proc?.exit;
        const how = exit ? (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`) : 'closed the connection';
        const summary = proc?.stderr.errorLine;
        const detail = `${how}${summary ? ` (${summary})` : ''}`;
        this.crashes = [...this.crashes.filter((t) => now - t < RESTART_WINDOW_MS), now];
        const earlyExit = proc !== undefined && now - proc.startedAt < EARLY_EXIT_MS;

        let text: string | undefined;
        if (earlyExit) {
            text = `affine-lsp: the language server ${detail} right after starting; it will not be restarted automatically.`;
        } else if (this.crashes.length > MAX_RESTARTS) {
            text = `affine-lsp: the language server ${detail} and has crashed ${this.crashes.length} times in the last 3 minutes; it will not be restarted automatically.`;
        }
        if (text === undefined) {
            this.log.warn(`The language server ${detail}; restarting it (${this.crashes.length}/${MAX_RESTARTS}).`);
            setTimeout(() => void this.restart(), 500);
        } else {
            this.log.error(text);
            void vscode.window.showErrorMessage(text, RESTART, SHOW_LOG, OPEN_SETTINGS).then((choice) => {
                if (choice === RESTART) {
                    this.crashes = [];
                    void this.restart();
                } else if (choice === SHOW_LOG) {
                    this.log.show(true);
                } else if (choice === OPEN_SETTINGS) {
                    void openSetting(proc?.launch.settingId ?? 'affineLsp.server.command');
                }
            });
            // Free the client so that a later start creates a fresh one.
            setTimeout(() => void this.stop(), 0);
        }
        return quiet;
    }

    private async doStop(): Promise<void> {
        if (!this.client) {
            return;
        }
        const wasRunning = this.isRunning;
        await this.teardown();
        if (wasRunning) {
            this.log.info('Language server stopped.');
        }
    }

    /** Stop and dispose the current client and make sure its process is gone. */
    private async teardown(): Promise<void> {
        const client = this.client;
        const proc = this.proc;
        const traceChannel = this.traceChannel;
        this.stopping = true;
        this.setRunning(false);
        if (client) {
            if (client.state === State.Running) {
                try {
                    await client.dispose(2000);
                } catch (err) {
                    this.log.debug(`Stopping the client: ${err instanceof Error ? err.message : String(err)}`);
                }
            } else {
                // Not initialized (yet): a graceful LSP shutdown could wait forever. Killing the
                // process closes the connection, which makes the client clean up by itself.
                if (proc && !proc.exit && !proc.spawnError) {
                    proc.child.kill();
                }
                for (let i = 0; i < 20 && client.state === State.Starting; i++) {
                    await delay(100);
                }
            }
        }
        if (proc && !proc.exit && !proc.spawnError) {
            await Promise.race([proc.exited, delay(2000)]);
            if (!proc.exit) {
                proc.child.kill();
                await Promise.race([proc.exited, delay(2000)]);
                if (!proc.exit) {
                    proc.child.kill('SIGKILL');
                }
            }
        }
        traceChannel?.dispose();
        if (this.client === client) {
            this.client = undefined;
            this.traceChannel = undefined;
        }
        if (this.proc === proc) {
            this.proc = undefined;
        }
        this.stopping = false;
    }

    dispose(): void {
        void this.stop();
        this.stateEmitter.dispose();
    }

    /** For deactivate(): stop and wait. */
    async shutdown(): Promise<void> {
        await this.stop();
    }
}
