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
    /** The workspace is trusted (see isWorkspaceTrusted). */
    trusted: boolean;
    /** The settings (or parts) that were ignored, each with why: shown to the user once. */
    notes: string[];
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
        allowUnregisteredDialect: boolean;
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
 * The settings that name a program, its arguments or where programs are: scope `machine` in
 * package.json (a workspace's `.vscode/settings.json` cannot set them) and listed in
 * `capabilities.untrustedWorkspaces.restrictedConfigurations`. The extension reads only their
 * user-level value itself too, whatever the editor does with a workspace value.
 */
export const PROGRAM_SETTINGS = ['server.command', 'server.pythonPath', 'server.extraArgs', 'toolchain.mlirBin'] as const;

/** True when the editor trusts the workspace (VS Code's Workspace Trust; always true where it is off). */
export function isWorkspaceTrusted(): boolean {
    return vscode.workspace.isTrusted !== false;
}

/** A setting value the extension will not use; the message says why and what to do instead. */
export class RefusedSetting extends Error {}

const WORKSPACE_VARIABLE = /\$\{(workspaceFolder|workspaceRoot|workspaceFolderBasename|workspaceFolder:[^}]*)\}/;

/**
 * Expand `${workspaceFolder}`, `${workspaceFolder:name}`, `${workspaceFolderBasename}`,
 * `${userHome}`, `${env:NAME}` and a leading `~` in a setting value. In an untrusted
 * workspace a value that names the workspace folder is refused (RefusedSetting).
 */
export function expandVariables(value: string, trusted: boolean = isWorkspaceTrusted(), settingId = 'this setting'): string {
    if (!trusted && WORKSPACE_VARIABLE.test(value)) {
        throw new RefusedSetting(
            `${settingId} ('${value}') names a path in the workspace folder, which is not trusted: nothing from it is run in Restricted Mode`,
        );
    }
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
 * Expand variables in a program path. An absolute path (after expanding `~` and the variables)
 * is kept; a bare name (e.g. `python3.12`) is left alone so that it is looked up on PATH; a
 * relative path with a separator (`./x`, `.venv/bin/python`, `tools/bin`) is refused: it would
 * name a program in whatever folder is open, i.e. a cloned repository's.
 */
export function expandPath(value: string, trusted: boolean = isWorkspaceTrusted(), settingId = 'this setting'): string {
    const expanded = expandVariables(value.trim(), trusted, settingId);
    if (expanded === '' || path.isAbsolute(expanded)) {
        return expanded;
    }
    if (expanded.includes('/') || expanded.includes('\\')) {
        throw new RefusedSetting(
            `${settingId} ('${value.trim()}') is a relative path: programs are run only from an absolute path or one starting with ~ ` +
                '(e.g. /opt/venv/bin/python), never from a path inside the folder that is open',
        );
    }
    return expanded;
}

/**
 * The user-level value of a setting (user or remote settings, else the default). A value in the
 * workspace or folder settings is reported in `notes` and ignored.
 */
function userLevel<T>(c: vscode.WorkspaceConfiguration, key: string, fallback: T, notes: string[]): T {
    const seen = c.inspect<T>(key);
    if (seen === undefined) {
        return c.get<T>(key, fallback);
    }
    if (seen.workspaceValue !== undefined || seen.workspaceFolderValue !== undefined) {
        notes.push(
            `the workspace's value of ${SECTION}.${key} is ignored: it names a program or its arguments, which only your user settings may choose`,
        );
    }
    return seen.globalValue ?? seen.defaultValue ?? fallback;
}

function readCommand(raw: unknown, trusted: boolean): string[] {
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
    const id = `${SECTION}.server.command`;
    return [expandPath(parts[0], trusted, id), ...parts.slice(1).map((a) => expandVariables(a, trusted, id))];
}

/**
 * Options of `affine-lsp serve` the extension never passes: it talks to the
 * server over stdio only (true: the option takes a value).
 */
const REFUSED_SERVE_OPTIONS: ReadonlyMap<string, boolean> = new Map([
    ['--tcp', true],
    ['--socket', true],
    ['--token-file', true],
    ['--allow-remote', false],
    ['--session-child', false],
]);

/** `--tc` and `--tcp=X` are `--tcp` to argparse (unique prefixes are accepted). */
function refusedOption(arg: string): string | undefined {
    const name = arg.split('=', 1)[0];
    return name.length >= 3 && name.startsWith('--') ? [...REFUSED_SERVE_OPTIONS.keys()].find((o) => o.startsWith(name)) : undefined;
}

/** extraArgs without the options of REFUSED_SERVE_OPTIONS and their values. */
function filterExtraArgs(args: string[], notes: string[]): string[] {
    const kept: string[] = [];
    for (let i = 0; i < args.length; i++) {
        const option = refusedOption(args[i]);
        if (option === undefined) {
            kept.push(args[i]);
            continue;
        }
        const withValue = REFUSED_SERVE_OPTIONS.get(option) === true && !args[i].includes('=') && i + 1 < args.length && !args[i + 1].startsWith('-');
        notes.push(
            `${SECTION}.server.extraArgs: '${args[i]}${withValue ? ` ${args[i + 1]}` : ''}' is ignored: the extension talks to the server over stdio only`,
        );
        if (withValue) {
            i++;
        }
    }
    return kept;
}

export function readServerSettings(): ServerSettings {
    const c = config();
    const trusted = isWorkspaceTrusted();
    const notes: string[] = [];
    const refuse = <T,>(what: () => T, fallback: T): T => {
        try {
            return what();
        } catch (err) {
            if (err instanceof RefusedSetting) {
                notes.push(err.message);
                return fallback;
            }
            throw err;
        }
    };
    const extra = userLevel<unknown>(c, 'server.extraArgs', [], notes);
    const extraArgs = refuse(
        () =>
            Array.isArray(extra)
                ? extra.filter((a): a is string => typeof a === 'string').map((a) => expandVariables(a, trusted, `${SECTION}.server.extraArgs`))
                : [],
        [],
    );
    return {
        enabled: c.get<boolean>('server.enabled', true),
        command: refuse(() => readCommand(userLevel<unknown>(c, 'server.command', [], notes), trusted), []),
        pythonPath: refuse(
            () => expandPath(userLevel<string>(c, 'server.pythonPath', '', notes) ?? '', trusted, `${SECTION}.server.pythonPath`),
            '',
        ),
        extraArgs: filterExtraArgs(extraArgs, notes),
        trusted,
        notes,
    };
}

/**
 * The `affineLsp` section as the server gets it (`workspace/configuration`): the toolchain
 * settings are the user-level ones; in an untrusted workspace `trusted: false` (the server then
 * runs no toolchain at all) and no toolchain settings.
 */
export function serverConfiguration(section: unknown, trusted: boolean = isWorkspaceTrusted()): unknown {
    if (typeof section !== 'object' || section === null || Array.isArray(section)) {
        return section;
    }
    const c = config();
    const notes: string[] = [];
    const result: Record<string, unknown> = { ...(section as Record<string, unknown>) };
    const toolchain = typeof result.toolchain === 'object' && result.toolchain !== null ? (result.toolchain as Record<string, unknown>) : {};
    result.toolchain = trusted
        ? { ...toolchain, mlirBin: userLevel<string>(c, 'toolchain.mlirBin', '', notes) ?? '' }
        : { mlirBin: '', timeAfter: '' };
    // dialects.td/include name files llvm-tblgen reads, as the server reads the folder's .mlir
    // files: a workspace may set them. dialects.tblgen names a program: user level, trusted only.
    const dialects = typeof result.dialects === 'object' && result.dialects !== null ? (result.dialects as Record<string, unknown>) : {};
    result.dialects = { ...dialects, tblgen: trusted ? (userLevel<string>(c, 'dialects.tblgen', '', notes) ?? '') : '' };
    if (!trusted) {
        result.trusted = false;
    } else {
        delete result.trusted;
    }
    return result;
}

/** The answer to a `workspace/configuration` request with serverConfiguration() applied to every `affineLsp` section in it. */
export function serverConfigurationAnswer(items: readonly { section?: string | null }[], result: readonly unknown[]): unknown[] {
    return result.map((value, i) => {
        const section = items[i]?.section;
        if (section === SECTION) {
            return serverConfiguration(value);
        }
        if ((section === undefined || section === null || section === '') && typeof value === 'object' && value !== null && SECTION in value) {
            const all = value as Record<string, unknown>;
            return { ...all, [SECTION]: serverConfiguration(all[SECTION]) };
        }
        return value;
    });
}

/** Why the toolchain setting will not be used (empty: it will), for a warning. */
export function toolchainSettingNotes(trusted: boolean = isWorkspaceTrusted()): string[] {
    const notes: string[] = [];
    const value = userLevel<string>(config(), 'toolchain.mlirBin', '', notes) ?? '';
    if (trusted && value.trim() !== '') {
        const expanded = expandHome(value.trim());
        if (!path.isAbsolute(expanded)) {
            notes.push(
                `${SECTION}.toolchain.mlirBin ('${value.trim()}') is a relative path: the MLIR toolchain is run only from an absolute path ` +
                    'or one starting with ~ (e.g. /opt/mlir/bin), never from a path inside the folder; "Time this function" is off until it is fixed',
            );
        }
    }
    return notes;
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
            allowUnregisteredDialect: c.get<boolean>('diagnostics.allowUnregisteredDialect', false) === true,
        },
        cache: {
            enabled: c.get<boolean>('cache.enabled', true),
            maxSizeMb: intSetting(c, 'cache.maxSizeMb', 64, 0),
        },
    };
}

/**
 * The server's `initializationOptions`: the analysis settings, the commands its hovers may link
 * to, and `trusted: false` in an untrusted workspace (the server then runs no toolchain: no
 * code-lens probe, no "Time this function").
 */
export function readInitializationOptions(commandLinks: readonly string[]): Record<string, unknown> {
    const options: Record<string, unknown> = { ...readAnalysisSettings(), commandLinks: [...commandLinks] };
    if (!isWorkspaceTrusted()) {
        options.trusted = false;
    }
    return options;
}

export type TraceSetting = 'off' | 'messages' | 'verbose';

export function readTraceSetting(): TraceSetting {
    const v = config().get<string>('trace.server', 'off');
    return v === 'messages' || v === 'verbose' ? v : 'off';
}

export async function openSetting(settingId: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.openSettings', settingId);
}
