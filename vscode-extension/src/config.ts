import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { expandHome, splitCommandLine } from './util';

export const SECTION = 'affineLsp';

/** Settings whose change needs a server restart to take effect. */
export const SERVER_SETTINGS = [
    'affineLsp.server.command',
    'affineLsp.server.pythonPath',
    'affineLsp.server.extraArgs',
    'affineLsp.server.autoInstall',
] as const;

export const SERVER_ENABLED_SETTING = 'affineLsp.server.enabled';

export interface ServerSettings {
    enabled: boolean;
    /** The user's full server command, already split into argv; empty = auto. */
    command: string[];
    pythonPath: string;
    extraArgs: string[];
}

/** The analysis-related settings, shaped exactly like the `affineLsp` configuration section. */
export interface AnalysisSettings {
    analysis: {
        enabled: boolean;
        islMaxOperations: number;
        timeBudgetMs: number;
    };
    vectorize: {
        defaultWidth: number;
    };
    diagnostics: {
        debounceMs: number;
        unknownOps: 'once' | 'off';
    };
    cache: {
        enabled: boolean;
        maxSizeMb: number;
    };
}

function config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
}

/** The workspace folder that `${workspaceFolder}` refers to: the active document's folder, else the first one. */
export function primaryWorkspaceFolder(): vscode.WorkspaceFolder | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active) {
        const folder = vscode.workspace.getWorkspaceFolder(active);
        if (folder) {
            return folder;
        }
    }
    return vscode.workspace.workspaceFolders?.[0];
}

/**
 * Expand `${workspaceFolder}`, `${workspaceFolder:name}`, `${workspaceFolderBasename}`,
 * `${userHome}`, `${env:NAME}` and a leading `~` in a setting value.
 */
export function expandVariables(value: string): string {
    const folder = primaryWorkspaceFolder();
    let result = value.replace(/\$\{([^}]+)\}/g, (match, name: string) => {
        if (name === 'workspaceFolder' || name === 'workspaceRoot') {
            return folder ? folder.uri.fsPath : match;
        }
        if (name === 'workspaceFolderBasename') {
            return folder ? folder.name : match;
        }
        if (name.startsWith('workspaceFolder:')) {
            const wanted = name.slice('workspaceFolder:'.length);
            const named = vscode.workspace.workspaceFolders?.find((f) => f.name === wanted);
            return named ? named.uri.fsPath : match;
        }
        if (name === 'userHome') {
            return os.homedir();
        }
        if (name.startsWith('env:')) {
            return process.env[name.slice(4)] ?? '';
        }
        return match;
    });
    result = expandHome(result);
    return result;
}

/**
 * Expand variables in a path-like setting and make a relative path that contains a
 * separator (e.g. `.venv/bin/python`) absolute against the workspace folder.
 * A bare name (e.g. `python3.12`) is left alone so it can be looked up on PATH.
 */
export function expandPath(value: string): string {
    const expanded = expandVariables(value.trim());
    if (expanded === '' || path.isAbsolute(expanded)) {
        return expanded;
    }
    if (expanded.includes('/') || expanded.includes('\\')) {
        const folder = primaryWorkspaceFolder();
        if (folder) {
            return path.join(folder.uri.fsPath, expanded);
        }
    }
    return expanded;
}

function readCommand(raw: unknown): string[] {
    let parts: string[];
    if (typeof raw === 'string') {
        parts = splitCommandLine(raw);
    } else if (Array.isArray(raw)) {
        parts = raw.filter((p): p is string => typeof p === 'string');
    } else {
        parts = [];
    }
    if (parts.length === 0 || parts[0].trim() === '') {
        return [];
    }
    return [expandPath(parts[0]), ...parts.slice(1).map(expandVariables)];
}

export function readServerSettings(): ServerSettings {
    const c = config();
    const extra = c.get<unknown>('server.extraArgs', []);
    return {
        enabled: c.get<boolean>('server.enabled', true),
        command: readCommand(c.get<unknown>('server.command', [])),
        pythonPath: expandPath(c.get<string>('server.pythonPath', '') ?? ''),
        extraArgs: Array.isArray(extra)
            ? extra.filter((a): a is string => typeof a === 'string').map(expandVariables)
            : [],
    };
}

function intSetting(c: vscode.WorkspaceConfiguration, key: string, fallback: number, min: number): number {
    const v = c.get<number>(key, fallback);
    return typeof v === 'number' && Number.isFinite(v) && v >= min ? Math.floor(v) : fallback;
}

export function readAnalysisSettings(): AnalysisSettings {
    const c = config();
    const width = c.get<number>('vectorize.defaultWidth', 8);
    return {
        analysis: {
            enabled: c.get<boolean>('analysis.enabled', true),
            islMaxOperations: intSetting(c, 'analysis.islMaxOperations', 200000, 0),
            timeBudgetMs: intSetting(c, 'analysis.timeBudgetMs', 2000, 0),
        },
        vectorize: {
            defaultWidth: width === 4 || width === 8 || width === 16 ? width : 8,
        },
        diagnostics: {
            debounceMs: intSetting(c, 'diagnostics.debounceMs', 500, 0),
            unknownOps: c.get<string>('diagnostics.unknownOps', 'once') === 'off' ? 'off' : 'once',
        },
        cache: {
            enabled: c.get<boolean>('cache.enabled', true),
            maxSizeMb: intSetting(c, 'cache.maxSizeMb', 64, 0),
        },
    };
}

export type TraceSetting = 'off' | 'messages' | 'verbose';

export function readTraceSetting(): TraceSetting {
    const v = config().get<string>('trace.server', 'off');
    return v === 'messages' || v === 'verbose' ? v : 'off';
}

export async function openSetting(settingId: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.openSettings', settingId);
}
