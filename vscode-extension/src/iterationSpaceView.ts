// The iteration-space and dependence-graph views: webview panels beside the editor that draw
// what the server commands `affine-lsp.iterationSpace` / `affine-lsp.dependenceGraph` answer.
// The drawing lives in media/views.js (bundled, no network, strict CSP); this module asks the
// server, follows the document (an edit redraws, no reload) and reveals ops in the editor.
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { ServerManager } from './serverManager';

export const SERVER_ITERATION_SPACE = 'affine-lsp.iterationSpace';
export const SERVER_DEPENDENCE_GRAPH = 'affine-lsp.dependenceGraph';
const REDRAW_DELAY_MS = 300;

type Mode = 'iterationSpace' | 'dependenceGraph';

interface LspRange {
    start: { line: number; character: number };
    end: { line: number; character: number };
}

/** Webview -> extension messages. */
type FromView =
    | { type: 'ready' }
    | { type: 'options'; dims?: string[]; fixed?: Record<string, number | null>; params?: Record<string, number> }
    | { type: 'reveal'; ranges: LspRange[]; select?: number }
    | { type: 'refresh' };

function nonce(): string {
    const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let out = '';
    for (let i = 0; i < 32; i++) {
        out += chars.charAt(Math.floor(Math.random() * chars.length));
    }
    return out;
}

/** One panel per mode; it is retargeted when the command runs again. */
class ViewPanel implements vscode.Disposable {
    private readonly panel: vscode.WebviewPanel;
    private readonly disposables: vscode.Disposable[] = [];
    private docUri: vscode.Uri;
    private anchor: vscode.Position;
    private options: { dims?: string[]; fixed?: Record<string, number | null>; params?: Record<string, number> } = {};
    private timer: ReturnType<typeof setTimeout> | undefined;
    private generation = 0;
    private readonly sourceDecoration: vscode.TextEditorDecorationType;
    private readonly sinkDecoration: vscode.TextEditorDecorationType;

    constructor(
        private readonly mode: Mode,
        context: vscode.ExtensionContext,
        private readonly manager: ServerManager,
        private readonly log: vscode.LogOutputChannel,
        editor: vscode.TextEditor,
        private readonly onDispose: () => void,
    ) {
        this.docUri = editor.document.uri;
        this.anchor = editor.selection.active;
        const media = vscode.Uri.joinPath(context.extensionUri, 'media');
        this.panel = vscode.window.createWebviewPanel(
            `affineLsp.${mode}`,
            this.title(),
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
            { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: true },
        );
        this.panel.webview.html = this.html(media);
        this.sourceDecoration = vscode.window.createTextEditorDecorationType({
            backgroundColor: new vscode.ThemeColor('editor.wordHighlightBackground'),
            border: '1px dashed',
            borderColor: new vscode.ThemeColor('editorInfo.foreground'),
        });
        this.sinkDecoration = vscode.window.createTextEditorDecorationType({
            backgroundColor: new vscode.ThemeColor('editor.wordHighlightStrongBackground'),
            border: '1px solid',
            borderColor: new vscode.ThemeColor('editorWarning.foreground'),
        });
        this.disposables.push(
            this.sourceDecoration,
            this.sinkDecoration,
            this.panel.onDidDispose(() => this.dispose()),
            this.panel.webview.onDidReceiveMessage((m: FromView) => this.onMessage(m)),
            vscode.workspace.onDidChangeTextDocument((e) => {
                if (e.document.uri.toString() !== this.docUri.toString() || e.contentChanges.length === 0) {
                    return;
                }
                this.follow(e.contentChanges);
                this.schedule();
            }),
        );
    }

    private title(): string {
        const name = this.docUri.path.split('/').pop() ?? '';
        return this.mode === 'iterationSpace' ? `Iteration Space: ${name}:${this.anchor.line + 1}` : `Dependence Graph: ${name}`;
    }

    /** Keep the anchor on the same loop across edits above it. */
    private follow(changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
        let line = this.anchor.line;
        for (const c of changes) {
            if (c.range.end.line < this.anchor.line) {
                const added = c.text.split(/\r\n|\r|\n/).length - 1;
                const removed = c.range.end.line - c.range.start.line;
                line += added - removed;
            }
        }
        this.anchor = new vscode.Position(Math.max(0, line), this.anchor.character);
    }

    retarget(editor: vscode.TextEditor): void {
        const sameDoc = editor.document.uri.toString() === this.docUri.toString();
        this.docUri = editor.document.uri;
        this.anchor = editor.selection.active;
        if (!sameDoc || this.mode === 'iterationSpace') {
            this.options = {};
        }
        this.panel.title = this.title();
        this.panel.reveal(vscode.ViewColumn.Beside, true);
        void this.refresh();
    }

    private schedule(): void {
        if (this.timer) {
            clearTimeout(this.timer);
        }
        this.timer = setTimeout(() => {
            this.timer = undefined;
            void this.refresh();
        }, REDRAW_DELAY_MS);
    }

    async refresh(): Promise<void> {
        const gen = ++this.generation;
        const client: LanguageClient | undefined = await this.manager.whenSettled();
        if (gen !== this.generation) {
            return;
        }
        if (!client) {
            void this.panel.webview.postMessage({ type: 'error', message: 'The affine-lsp language server is not running.' });
            return;
        }
        const args: Record<string, unknown> = {
            uri: client.code2ProtocolConverter.asUri(this.docUri),
            position: { line: this.anchor.line, character: this.anchor.character },
            ...this.options,
        };
        const command = this.mode === 'iterationSpace' ? SERVER_ITERATION_SPACE : SERVER_DEPENDENCE_GRAPH;
        void this.panel.webview.postMessage({ type: 'busy' });
        let result: unknown;
        for (let attempt = 0; attempt < 20; attempt++) {
            try {
                result = await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] });
            } catch (err) {
                const message = err instanceof Error ? err.message : String(err);
                this.log.error(`${command} failed: ${message}`);
                result = { error: message };
            }
            const error = (result as { error?: string } | null)?.error ?? '';
            // The analysis of a big function may still be running: ask again shortly.
            if (!/still running/.test(error) || gen !== this.generation) {
                break;
            }
            await new Promise((r) => setTimeout(r, 250));
        }
        if (gen !== this.generation) {
            return;
        }
        const data = result as { loop?: { nameRange?: LspRange } } | null;
        const start = data?.loop?.nameRange?.start;
        if (start && this.mode === 'iterationSpace') {
            this.anchor = new vscode.Position(start.line, start.character);
            this.panel.title = this.title();
        }
        void this.panel.webview.postMessage({ type: 'data', mode: this.mode, data: result });
    }

    private async onMessage(m: FromView): Promise<void> {
        switch (m.type) {
            case 'ready':
            case 'refresh':
                await this.refresh();
                return;
            case 'options':
                this.options = { dims: m.dims, fixed: m.fixed, params: m.params };
                await this.refresh();
                return;
            case 'reveal':
                await this.reveal(m.ranges, m.select ?? m.ranges.length - 1);
                return;
        }
    }

    private async reveal(ranges: LspRange[], select: number): Promise<void> {
        const doc = await vscode.workspace.openTextDocument(this.docUri);
        const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.docUri.toString());
        const editor = await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, preserveFocus: false });
        const rs = ranges.map((r) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character));
        if (rs.length === 0) {
            return;
        }
        const chosen = rs[Math.min(Math.max(0, select), rs.length - 1)];
        editor.selection = new vscode.Selection(chosen.start, chosen.start);
        editor.revealRange(rs.length > 1 ? rs[0].union(rs[rs.length - 1]) : chosen, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        editor.setDecorations(this.sourceDecoration, rs.length > 1 ? [rs[0]] : []);
        editor.setDecorations(this.sinkDecoration, [rs[rs.length - 1]]);
    }

    private html(media: vscode.Uri): string {
        const webview = this.panel.webview;
        const script = webview.asWebviewUri(vscode.Uri.joinPath(media, 'views.js'));
        const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'views.css'));
        const n = nonce();
        const csp = [
            "default-src 'none'",
            `style-src ${webview.cspSource}`,
            `script-src 'nonce-${n}'`,
            `img-src ${webview.cspSource} data:`,
            `font-src ${webview.cspSource}`,
        ].join('; ');
        const label = this.mode === 'iterationSpace' ? 'Iteration space' : 'Dependence graph';
        return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>${label}</title>
</head>
<body data-mode="${this.mode}">
<main id="app" aria-label="${label}">
<p id="status" role="status" aria-live="polite">Loading…</p>
</main>
<script nonce="${n}" src="${script}"></script>
</body>
</html>`;
    }

    dispose(): void {
        if (this.timer) {
            clearTimeout(this.timer);
        }
        this.generation++;
        for (const d of this.disposables.splice(0)) {
            d.dispose();
        }
        this.panel.dispose();
        this.onDispose();
    }
}

export function registerViews(context: vscode.ExtensionContext, manager: ServerManager, log: vscode.LogOutputChannel): void {
    const panels = new Map<Mode, ViewPanel>();
    const open = (mode: Mode, target?: { uri?: string; line?: number; character?: number }): void => {
        let editor = vscode.window.activeTextEditor;
        if (target?.uri) {
            const found = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === target.uri);
            if (found) {
                editor = found;
                if (typeof target.line === 'number') {
                    const p = new vscode.Position(target.line, target.character ?? 0);
                    found.selection = new vscode.Selection(p, p);
                }
            }
        }
        if (!editor || editor.document.languageId !== 'mlir') {
            void vscode.window.showInformationMessage('affine-lsp: open an MLIR file and put the cursor on an affine loop first.');
            return;
        }
        const existing = panels.get(mode);
        if (existing) {
            existing.retarget(editor);
            return;
        }
        panels.set(mode, new ViewPanel(mode, context, manager, log, editor, () => panels.delete(mode)));
    };
    context.subscriptions.push(
        vscode.commands.registerCommand('affineLsp.showIterationSpace', (arg?: { uri?: string; line?: number; character?: number }) => open('iterationSpace', arg)),
        vscode.commands.registerCommand('affineLsp.showDependenceGraph', (arg?: { uri?: string; line?: number; character?: number }) => open('dependenceGraph', arg)),
        { dispose: () => [...panels.values()].forEach((p) => p.dispose()) },
    );
}
