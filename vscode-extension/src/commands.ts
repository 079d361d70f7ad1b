import * as path from 'path';
import * as vscode from 'vscode';
import {
    CodeAction,
    CodeActionParams,
    CodeActionRequest,
    CodeActionResolveRequest,
    CodeActionTriggerKind,
    Command,
    ExecuteCommandParams,
    ExecuteCommandRequest,
    LanguageClient,
} from 'vscode-languageclient/node';
import { openSetting, readServerSettings } from './config';
import { ServerManager } from './serverManager';

export const SERVER_SHOW_DEPENDENCES = 'affine-lsp.showDependences';
const DEPENDENCES_SCHEME = 'affine-lsp';

/** Read-only virtual documents that show the server's dependence reports. */
class ReportProvider implements vscode.TextDocumentContentProvider {
    private readonly contents = new Map<string, string>();
    private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
    readonly onDidChange = this.emitter.event;

    provideTextDocumentContent(uri: vscode.Uri): string {
        return this.contents.get(uri.toString()) ?? '';
    }

    set(uri: vscode.Uri, text: string): void {
        this.contents.set(uri.toString(), text);
        this.emitter.fire(uri);
    }

    dispose(): void {
        this.emitter.dispose();
    }
}

function activeMlirEditor(): vscode.TextEditor | undefined {
    const editor = vscode.window.activeTextEditor;
    return editor && editor.document.languageId === 'mlir' ? editor : undefined;
}

async function requireClient(manager: ServerManager, log: vscode.LogOutputChannel): Promise<LanguageClient | undefined> {
    const client = await manager.whenSettled();
    if (client) {
        return client;
    }
    const choice = await vscode.window.showWarningMessage(
        'affine-lsp: the language server is not running. Restart it, or see the "affine-lsp" output for why it stopped.',
        'Restart Server',
        'Show Log',
    );
    if (choice === 'Restart Server') {
        await manager.restart();
    } else if (choice === 'Show Log') {
        log.show(true);
    }
    return undefined;
}

function requestFailed(what: string, err: unknown, log: vscode.LogOutputChannel): void {
    const message = err instanceof Error ? err.message : String(err);
    log.error(`${what} failed: ${message}`);
    void vscode.window.showErrorMessage(`affine-lsp: ${what} failed: ${message}`);
}

/** Turn whatever the server returned for showDependences into Markdown text. */
export function reportToText(result: unknown): string | undefined {
    if (result === null || result === undefined) {
        return undefined;
    }
    if (typeof result === 'string') {
        return result;
    }
    if (Array.isArray(result)) {
        const parts = result.map(reportToText).filter((p): p is string => p !== undefined);
        return parts.length > 0 ? parts.join('\n\n') : undefined;
    }
    if (typeof result === 'object') {
        const obj = result as Record<string, unknown>;
        for (const key of ['markdown', 'value', 'contents', 'text', 'message']) {
            if (key in obj) {
                const text = reportToText(obj[key]);
                if (text !== undefined) {
                    return text;
                }
            }
        }
        return '```json\n' + JSON.stringify(result, null, 2) + '\n```';
    }
    return String(result);
}

async function showDependences(manager: ServerManager, log: vscode.LogOutputChannel, reports: ReportProvider): Promise<void> {
    const editor = activeMlirEditor();
    if (!editor) {
        void vscode.window.showInformationMessage('affine-lsp: open an MLIR file and put the cursor on a loop or a memory access first.');
        return;
    }
    const client = await requireClient(manager, log);
    if (!client) {
        return;
    }
    const doc = editor.document;
    const pos = editor.selection.active;
    const params: ExecuteCommandParams = {
        command: SERVER_SHOW_DEPENDENCES,
        arguments: [{ uri: client.code2ProtocolConverter.asUri(doc.uri), position: { line: pos.line, character: pos.character } }],
    };
    let result: unknown;
    try {
        result = await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Window, title: 'affine-lsp: computing dependences' },
            () => client.sendRequest(ExecuteCommandRequest.type, params),
        );
    } catch (err) {
        requestFailed('showing dependences', err, log);
        return;
    }
    const where = `${path.basename(doc.uri.fsPath || doc.uri.path)}:${pos.line + 1}:${pos.character + 1}`;
    const text = reportToText(result);
    if (text === undefined || text.trim() === '') {
        void vscode.window.showInformationMessage(`affine-lsp: no dependence information at ${where}.`);
        return;
    }
    log.info(`Dependences at ${where}:\n${text}`);
    const name = path.basename(doc.uri.fsPath || doc.uri.path).replace(/[^\w.-]/g, '_');
    const uri = vscode.Uri.from({ scheme: DEPENDENCES_SCHEME, path: `/Dependences ${name}.md` });
    reports.set(uri, `<!-- affine-lsp: dependences at ${where} -->\n\n${text.endsWith('\n') ? text : text + '\n'}`);
    const report = await vscode.workspace.openTextDocument(uri);
    if (report.languageId !== 'markdown') {
        await vscode.languages.setTextDocumentLanguage(report, 'markdown');
    }
    await vscode.window.showTextDocument(report, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
}

function isCommand(item: Command | CodeAction): item is Command {
    return typeof (item as Command).command === 'string';
}

/** Ask the server for code actions at the cursor and apply the first whose title starts with `prefix`. */
async function applyCodeAction(
    manager: ServerManager,
    log: vscode.LogOutputChannel,
    prefix: string,
    what: string,
): Promise<void> {
    const editor = activeMlirEditor();
    if (!editor) {
        void vscode.window.showInformationMessage(`affine-lsp: open an MLIR file and put the cursor on a loop to ${what}.`);
        return;
    }
    const client = await requireClient(manager, log);
    if (!client) {
        return;
    }
    const doc = editor.document;
    const range = editor.selection;
    const diagnostics = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.range.intersection(range) !== undefined);
    const params: CodeActionParams = {
        textDocument: client.code2ProtocolConverter.asTextDocumentIdentifier(doc),
        range: client.code2ProtocolConverter.asRange(range),
        context: {
            diagnostics: await client.code2ProtocolConverter.asDiagnostics(diagnostics),
            triggerKind: CodeActionTriggerKind.Invoked,
        },
    };
    let actions: (Command | CodeAction)[] | null;
    try {
        actions = await client.sendRequest(CodeActionRequest.type, params);
    } catch (err) {
        requestFailed(`asking for '${prefix}' actions`, err, log);
        return;
    }
    const matching = (actions ?? []).filter((a) => a.title.startsWith(prefix));
    const chosen = matching.find((a) => isCommand(a) || a.disabled === undefined);
    const line = range.active.line + 1;
    if (!chosen) {
        const disabled = matching.find((a): a is CodeAction => !isCommand(a) && a.disabled !== undefined);
        const message = disabled
            ? `affine-lsp: cannot ${what} here: ${disabled.disabled!.reason}`
            : `affine-lsp: no "${prefix}" action is available at line ${line}; put the cursor on an affine.for loop.`;
        log.info(message);
        void vscode.window.showInformationMessage(message);
        return;
    }
    log.info(`Applying "${chosen.title}" at line ${line}`);
    try {
        if (isCommand(chosen)) {
            await runCommand(client, chosen);
            return;
        }
        let action = chosen;
        const caps = client.initializeResult?.capabilities.codeActionProvider;
        const canResolve = typeof caps === 'object' && caps.resolveProvider === true;
        if (action.edit === undefined && action.command === undefined && canResolve) {
            action = await client.sendRequest(CodeActionResolveRequest.type, action);
        }
        if (action.edit) {
            const edit = await client.protocol2CodeConverter.asWorkspaceEdit(action.edit);
            if (!(await vscode.workspace.applyEdit(edit))) {
                void vscode.window.showErrorMessage(`affine-lsp: could not apply "${action.title}" (the document may have changed); try again.`);
                return;
            }
        }
        if (action.command) {
            await runCommand(client, action.command);
        }
        if (!action.edit && !action.command) {
            void vscode.window.showInformationMessage(`affine-lsp: "${action.title}" has nothing to apply.`);
        }
    } catch (err) {
        requestFailed(`applying "${chosen.title}"`, err, log);
    }
}

/** Run a code action's command: on the server if it provides it, else as a VS Code command. */
async function runCommand(client: LanguageClient, command: Command): Promise<void> {
    const serverCommands = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    if (serverCommands.includes(command.command)) {
        await client.sendRequest(ExecuteCommandRequest.type, { command: command.command, arguments: command.arguments });
    } else {
        await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    }
}

export function registerCommands(context: vscode.ExtensionContext, manager: ServerManager, log: vscode.LogOutputChannel): void {
    const reports = new ReportProvider();
    context.subscriptions.push(
        reports,
        vscode.workspace.registerTextDocumentContentProvider(DEPENDENCES_SCHEME, reports),
        vscode.commands.registerCommand('affineLsp.restartServer', async () => {
            log.info('Restart requested.');
            if (!readServerSettings().enabled) {
                const choice = await vscode.window.showInformationMessage(
                    'affine-lsp: the language server is disabled (affineLsp.server.enabled is false).',
                    'Open Settings',
                );
                if (choice === 'Open Settings') {
                    await openSetting('affineLsp.server.enabled');
                }
                return;
            }
            const ok = await manager.restart();
            if (ok) {
                void vscode.window.setStatusBarMessage('affine-lsp: language server restarted', 3000);
            }
        }),
        vscode.commands.registerCommand('affineLsp.showOutput', () => log.show(true)),
        vscode.commands.registerCommand('affineLsp.showDependences', () => showDependences(manager, log, reports)),
        vscode.commands.registerCommand('affineLsp.fuseLoops', () => applyCodeAction(manager, log, 'Fuse loops here', 'fuse loops')),
        vscode.commands.registerCommand('affineLsp.vectorizeLoop', () => applyCodeAction(manager, log, 'Vectorize loop', 'vectorize the loop')),
        vscode.commands.registerCommand('affineLsp.parallelizeLoop', () => applyCodeAction(manager, log, 'Parallelize loop', 'parallelize the loop')),
    );
}
