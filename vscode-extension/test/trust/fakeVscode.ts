// A stand-in for the `vscode` module, enough for src/config.ts, src/discovery.ts and
// src/autoInstall.ts to run under plain node (test/trust/build.mjs aliases `vscode` to it).
//
// Settings: the defaults and scopes come from package.json, the user settings from
// `state.userSettings`, the workspace settings from `<folder>/.vscode/settings.json`.
// `state.editorFilters` chooses what `get()` returns:
//   true:  as VS Code does: a workspace value of a `machine`-scoped setting is never used, and
//          one of a setting in `restrictedConfigurations` is not used in an untrusted workspace;
//   false: every workspace value wins (an editor that enforces nothing), to show that the
//          extension's own code does not rely on the editor for it.
import * as fs from 'fs';
import * as path from 'path';

interface Contributed {
    default?: unknown;
    scope?: string;
}

const PACKAGE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, Contributed> } };
    capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const PROPERTIES = PACKAGE.contributes.configuration.properties;
const RESTRICTED = new Set(PACKAGE.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? []);

export class Uri {
    private constructor(readonly fsPath: string) {}
    static file(p: string): Uri {
        return new Uri(p);
    }
    get path(): string {
        return this.fsPath;
    }
    toString(): string {
        return `file://${this.fsPath}`;
    }
}

export interface WorkspaceFolder {
    uri: Uri;
    name: string;
    index: number;
}

export const state = {
    trusted: true,
    folders: [] as WorkspaceFolder[],
    userSettings: {} as Record<string, unknown>,
    editorFilters: true,
    /** The messages shown with window.show*Message, as [kind, text]. */
    messages: [] as [string, string][],
    /** Extensions that getExtension finds. */
    extensions: {} as Record<string, unknown>,
};

export function reset(): void {
    state.trusted = true;
    state.folders = [];
    state.userSettings = {};
    state.editorFilters = true;
    state.messages = [];
    state.extensions = {};
}

function workspaceSettings(): Record<string, unknown> {
    const folder = state.folders[0];
    if (!folder) {
        return {};
    }
    try {
        return JSON.parse(fs.readFileSync(path.join(folder.uri.fsPath, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    } catch {
        return {};
    }
}

function effective(full: string): unknown {
    const ws = workspaceSettings();
    const prop = PROPERTIES[full];
    const workspaceAllowed =
        !state.editorFilters ||
        (prop?.scope !== 'machine' && prop?.scope !== 'application' && (state.trusted || !RESTRICTED.has(full)));
    if (workspaceAllowed && full in ws) {
        return ws[full];
    }
    if (full in state.userSettings) {
        return state.userSettings[full];
    }
    return prop?.default;
}

/** The `affineLsp` section as an object, as the language client sends it (nested by dots). */
export function sectionObject(section: string): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const keys = new Set([...Object.keys(PROPERTIES), ...Object.keys(state.userSettings), ...Object.keys(workspaceSettings())]);
    for (const full of keys) {
        if (!full.startsWith(section + '.')) {
            continue;
        }
        const value = effective(full);
        if (value === undefined) {
            continue;
        }
        const parts = full.slice(section.length + 1).split('.');
        let cur = result;
        for (const p of parts.slice(0, -1)) {
            cur = (cur[p] ??= {}) as Record<string, unknown>;
        }
        cur[parts[parts.length - 1]] = value;
    }
    return result;
}

const disposable = { dispose: () => undefined };

export const workspace = {
    get isTrusted(): boolean {
        return state.trusted;
    },
    get workspaceFolders(): WorkspaceFolder[] | undefined {
        return state.folders.length ? state.folders : undefined;
    },
    getWorkspaceFolder(uri: Uri): WorkspaceFolder | undefined {
        return state.folders.find((f) => uri.fsPath.startsWith(f.uri.fsPath + path.sep));
    },
    getConfiguration(section?: string) {
        const prefix = section ? section + '.' : '';
        return {
            get<T>(key: string, fallback?: T): T | undefined {
                const v = effective(prefix + key);
                return (v === undefined ? fallback : v) as T | undefined;
            },
            inspect<T>(key: string) {
                const full = prefix + key;
                const ws = workspaceSettings();
                return {
                    key: full,
                    defaultValue: PROPERTIES[full]?.default as T | undefined,
                    globalValue: state.userSettings[full] as T | undefined,
                    workspaceValue: ws[full] as T | undefined,
                    workspaceFolderValue: undefined as T | undefined,
                };
            },
        };
    },
    onDidGrantWorkspaceTrust: () => disposable,
    onDidChangeConfiguration: () => disposable,
};

export const window = {
    activeTextEditor: undefined,
    showWarningMessage: (text: string) => {
        state.messages.push(['warning', text]);
        return Promise.resolve(undefined);
    },
    showErrorMessage: (text: string) => {
        state.messages.push(['error', text]);
        return Promise.resolve(undefined);
    },
    showInformationMessage: (text: string) => {
        state.messages.push(['info', text]);
        return Promise.resolve(undefined);
    },
};

export const extensions = {
    getExtension: (id: string) => state.extensions[id],
};

export const commands = {
    executeCommand: () => Promise.resolve(undefined),
};

export enum ProgressLocation {
    Notification = 15,
}
