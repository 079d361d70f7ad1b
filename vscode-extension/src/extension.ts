import * as vscode from 'vscode';
import { ServerInstaller } from './autoInstall';
import { registerBytecodeViewer } from './bytecode';
import { registerCommands } from './commands';
import { registerViews } from './iterationSpaceView';
import { isWorkspaceTrusted, readServerSettings, SERVER_ENABLED_SETTING, SERVER_SETTINGS, toolchainSettingNotes } from './config';
import { ServerManager } from './serverManager';

let manager: ServerManager | undefined;

export function activate(context: vscode.ExtensionContext): void {
    const log = vscode.window.createOutputChannel('affine-lsp', { log: true });
    const version = (context.extension.packageJSON as { version?: string }).version ?? '?';
    log.info(`affine-lsp extension ${version} activated (VS Code ${vscode.version}).`);
    manager = new ServerManager(log, new ServerInstaller(context.globalStorageUri.fsPath, context.extensionPath, log));
    context.subscriptions.push(log, manager);
    registerCommands(context, manager, log);
    registerViews(context, manager, log);
    context.subscriptions.push(vscode.commands.registerCommand('affineLsp.reinstallServer', () => manager?.reinstallServer()));
    registerBytecodeViewer(context, manager, log);

    // Restricted Mode ends: start again with the trusted configuration (workspace venvs, the toolchain).
    context.subscriptions.push(
        vscode.workspace.onDidGrantWorkspaceTrust(() => {
            log.info('The workspace is trusted now: restarting the language server with the trusted configuration.');
            if (manager && readServerSettings().enabled) {
                void manager.restart();
            }
        }),
    );
    manager.reportIgnoredSettings(toolchainSettingNotes(), isWorkspaceTrusted());

    let restartPromptOpen = false;
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration(async (e) => {
            if (!manager || !e.affectsConfiguration('affineLsp')) {
                return;
            }
            if (e.affectsConfiguration('affineLsp.trace.server')) {
                manager.updateTrace();
            }
            if (e.affectsConfiguration('affineLsp.toolchain.mlirBin')) {
                manager.reportIgnoredSettings(toolchainSettingNotes(), isWorkspaceTrusted());
            }
            if (e.affectsConfiguration(SERVER_ENABLED_SETTING)) {
                if (readServerSettings().enabled) {
                    log.info('affineLsp.server.enabled turned on: starting the language server.');
                    void manager.start();
                } else {
                    log.info('affineLsp.server.enabled turned off: stopping the language server.');
                    void manager.stop();
                }
                return;
            }
            if (SERVER_SETTINGS.some((s) => e.affectsConfiguration(s))) {
                if (!readServerSettings().enabled || restartPromptOpen) {
                    return;
                }
                restartPromptOpen = true;
                try {
                    const choice = await vscode.window.showInformationMessage(
                        'affine-lsp: the language server settings changed. Restart the server to apply them?',
                        'Restart Server',
                    );
                    if (choice === 'Restart Server') {
                        await manager.restart();
                    }
                } finally {
                    restartPromptOpen = false;
                }
            }
            // Analysis settings reach the running server as workspace/didChangeConfiguration.
        }),
    );

    void manager.start();
}

export async function deactivate(): Promise<void> {
    if (manager) {
        await manager.shutdown();
        manager = undefined;
    }
}
