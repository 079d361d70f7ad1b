import * as path from 'path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import { ServerManager } from './serverManager';

/**
 * MLIR bytecode files (`*.mlirbc`) open as read-only MLIR text.
 *
 * A custom read-only editor is the default editor of `*.mlirbc`: it opens the
 * file's decoded text instead, a virtual document of the `mlirbc:` scheme
 * (`mlirbc:/dir/x.mlirbc.mlir?<file uri>`), whose content the language server
 * decodes (`affine-lsp.decodeBytecode`). The document's language is `mlir`
 * (its path ends in `.mlir`) and the client syncs the `mlirbc:` scheme, so
 * every language feature works on it; virtual documents cannot be edited.
 */
export const BYTECODE_SCHEME = 'mlirbc';
export const BYTECODE_VIEW_TYPE = 'affineLsp.mlirbc';
const SERVER_DECODE_BYTECODE = 'affine-lsp.decodeBytecode';

/** The virtual text document showing `file`. */
export function bytecodeTextUri(file: vscode.Uri): vscode.Uri {
    return vscode.Uri.from({ scheme: BYTECODE_SCHEME, path: `${file.path}.mlir`, query: file.toString() });
}

function fileOf(uri: vscode.Uri): vscode.Uri {
    return uri.query ? vscode.Uri.parse(uri.query) : vscode.Uri.file(uri.path.replace(/\.mlir$/, ''));
}

class BytecodeContentProvider implements vscode.TextDocumentContentProvider {
    constructor(
        private readonly manager: ServerManager,
        private readonly log: vscode.LogOutputChannel,
    ) {}

    async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
        const file = fileOf(uri);
        const client = await this.manager.whenSettled();
        if (!client) {
            return `// affine-lsp: the language server is not running; ${file.fsPath} cannot be decoded.\n`;
        }
        try {
            const text = await client.sendRequest(ExecuteCommandRequest.type, {
                command: SERVER_DECODE_BYTECODE,
                arguments: [{ uri: client.code2ProtocolConverter.asUri(file) }],
            });
            return typeof text === 'string' ? text : '';
        } catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            this.log.error(`Decoding ${file.fsPath} failed: ${message}`);
            void vscode.window.showErrorMessage(`affine-lsp: cannot show ${path.basename(file.fsPath)} as text: ${message}`);
            return `// affine-lsp could not decode ${file.fsPath}:\n// ${message.replace(/\n/g, '\n// ')}\n`;
        }
    }
}

class BytecodeEditorProvider implements vscode.CustomReadonlyEditorProvider {
    openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
        return { uri, dispose: () => undefined };
    }

    async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
        panel.webview.html = `<p>Opening ${path.basename(document.uri.fsPath)} as MLIR text…</p>`;
        const doc = await vscode.workspace.openTextDocument(bytecodeTextUri(document.uri));
        await vscode.window.showTextDocument(doc, { viewColumn: panel.viewColumn, preview: false });
        panel.dispose(); // the text editor replaces the placeholder
    }
}

export function registerBytecodeViewer(context: vscode.ExtensionContext, manager: ServerManager, log: vscode.LogOutputChannel): void {
    context.subscriptions.push(
        vscode.workspace.registerTextDocumentContentProvider(BYTECODE_SCHEME, new BytecodeContentProvider(manager, log)),
        vscode.window.registerCustomEditorProvider(BYTECODE_VIEW_TYPE, new BytecodeEditorProvider(), {
            supportsMultipleEditorsPerDocument: true,
        }),
    );
}
