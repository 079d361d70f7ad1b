import * as vscode from 'vscode';
import { TraceSetting } from './config';

/**
 * vscode-languageclient 11 traces LSP messages only while its trace channel's log
 * level is `Trace`, whatever `<id>.trace.server` says. This adapter makes the
 * `affineLsp.trace.server` setting (off | messages | verbose) the switch: it reports
 * log level `Trace` while the setting is not `off` and writes the trace into the
 * main "affine-lsp" output channel.
 */
export class TraceChannel implements vscode.LogOutputChannel {
    private readonly emitter = new vscode.EventEmitter<vscode.LogLevel>();
    readonly onDidChangeLogLevel = this.emitter.event;
    private level: vscode.LogLevel;

    constructor(
        private readonly target: vscode.LogOutputChannel,
        setting: TraceSetting,
    ) {
        this.level = TraceChannel.levelFor(setting);
    }

    private static levelFor(setting: TraceSetting): vscode.LogLevel {
        return setting === 'off' ? vscode.LogLevel.Info : vscode.LogLevel.Trace;
    }

    update(setting: TraceSetting): void {
        const level = TraceChannel.levelFor(setting);
        if (level !== this.level) {
            this.level = level;
            this.emitter.fire(level);
        }
    }

    get name(): string {
        return this.target.name;
    }

    get logLevel(): vscode.LogLevel {
        return this.level;
    }

    trace(message: string): void {
        if (this.level === vscode.LogLevel.Trace) {
            this.target.appendLine(message);
        }
    }
    debug(message: string, ...args: unknown[]): void {
        this.target.debug(message, ...args);
    }
    info(message: string, ...args: unknown[]): void {
        this.target.info(message, ...args);
    }
    warn(message: string, ...args: unknown[]): void {
        this.target.warn(message, ...args);
    }
    error(error: string | Error, ...args: unknown[]): void {
        this.target.error(error, ...args);
    }
    append(value: string): void {
        this.target.append(value);
    }
    appendLine(value: string): void {
        this.target.appendLine(value);
    }
    replace(value: string): void {
        this.target.replace(value);
    }
    clear(): void {
        this.target.clear();
    }
    show(preserveFocus?: boolean): void;
    show(column?: vscode.ViewColumn, preserveFocus?: boolean): void;
    show(arg?: boolean | vscode.ViewColumn, preserveFocus?: boolean): void {
        if (typeof arg === 'boolean' || arg === undefined) {
            this.target.show(arg);
        } else {
            this.target.show(arg, preserveFocus);
        }
    }
    hide(): void {
        this.target.hide();
    }
    /** Disposes the adapter only; the target channel belongs to the extension. */
    dispose(): void {
        this.emitter.dispose();
    }
}
