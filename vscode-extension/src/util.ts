import * as cp from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const IS_WINDOWS = process.platform === 'win32';

/** True if `file` exists, is a regular file and is executable by us. */
export function isExecutableFile(file: string): boolean {
    try {
        const st = fs.statSync(file);
        if (!st.isFile()) {
            return false;
        }
        if (IS_WINDOWS) {
            return true;
        }
        fs.accessSync(file, fs.constants.X_OK);
        return true;
    } catch {
        return false;
    }
}

/** Names to try for an executable on this platform (adds PATHEXT suffixes on Windows). */
function executableNames(name: string): string[] {
    if (!IS_WINDOWS || path.extname(name) !== '') {
        return [name];
    }
    const exts = (process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e.length > 0);
    return [name, ...exts.map((e) => name + e.toLowerCase()), ...exts.map((e) => name + e)];
}

/**
 * Locate an executable: a name containing a path separator is checked as is,
 * a bare name is searched on PATH (like `which`). Returns the absolute path or undefined.
 * Relative PATH entries (`.`, `bin`) are skipped: they would name the directory the editor
 * was started in, often a cloned repository.
 */
export function which(name: string, envPath: string | undefined = process.env.PATH): string | undefined {
    if (name.includes('/') || (IS_WINDOWS && name.includes('\\'))) {
        for (const candidate of executableNames(name)) {
            if (isExecutableFile(candidate)) {
                return path.resolve(candidate);
            }
        }
        return undefined;
    }
    for (const dir of (envPath ?? '').split(path.delimiter)) {
        if (dir === '' || !path.isAbsolute(dir)) {
            continue;
        }
        for (const candidate of executableNames(path.join(dir, name))) {
            if (isExecutableFile(candidate)) {
                return candidate;
            }
        }
    }
    return undefined;
}

/** Expand a leading `~` (alone or followed by a separator) to the home directory. */
export function expandHome(value: string): string {
    if (value === '~') {
        return os.homedir();
    }
    if (value.startsWith('~/') || (IS_WINDOWS && value.startsWith('~\\'))) {
        return path.join(os.homedir(), value.slice(2));
    }
    return value;
}

export interface RunResult {
    /** Exit code, or null when killed by a signal / timed out. */
    code: number | null;
    stdout: string;
    stderr: string;
    /** Set when the process could not be spawned at all (e.g. ENOENT). */
    spawnError?: NodeJS.ErrnoException;
    timedOut: boolean;
}

/** Run a short-lived process and collect its output. Never rejects. */
export function runProcess(
    command: string,
    args: string[],
    options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
    return new Promise((resolve) => {
        let stdout = '';
        let stderr = '';
        let settled = false;
        let timedOut = false;
        const finish = (result: RunResult) => {
            if (!settled) {
                settled = true;
                clearTimeout(timer);
                resolve(result);
            }
        };
        let child: cp.ChildProcess;
        try {
            child = cp.spawn(command, args, {
                cwd: options.cwd,
                env: options.env ?? process.env,
                stdio: ['ignore', 'pipe', 'pipe'],
                windowsHide: true,
            });
        } catch (err) {
            finish({ code: null, stdout, stderr, spawnError: err as NodeJS.ErrnoException, timedOut });
            return;
        }
        const timer = setTimeout(() => {
            timedOut = true;
            child.kill();
        }, options.timeoutMs ?? 20000);
        child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', (err) => finish({ code: null, stdout, stderr, spawnError: err, timedOut }));
        child.on('close', (code) => finish({ code, stdout, stderr, timedOut }));
    });
}

/**
 * Split a command line into arguments, honouring single quotes, double quotes
 * and backslash escapes (POSIX-shell-like, no expansion).
 */
export function splitCommandLine(line: string): string[] {
    const args: string[] = [];
    let current = '';
    let inToken = false;
    let quote: '"' | "'" | undefined;
    for (let i = 0; i < line.length; i++) {
        const ch = line[i];
        if (quote === "'") {
            if (ch === "'") {
                quote = undefined;
            } else {
                current += ch;
            }
            continue;
        }
        if (quote === '"') {
            if (ch === '"') {
                quote = undefined;
            } else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) {
                current += line[++i];
            } else {
                current += ch;
            }
            continue;
        }
        if (ch === '"' || ch === "'") {
            quote = ch;
            inToken = true;
        } else if (ch === '\\' && !IS_WINDOWS && i + 1 < line.length) {
            current += line[++i];
            inToken = true;
        } else if (/\s/.test(ch)) {
            if (inToken) {
                args.push(current);
                current = '';
                inToken = false;
            }
        } else {
            current += ch;
            inToken = true;
        }
    }
    if (inToken) {
        args.push(current);
    }
    return args;
}

/** Quote an argument for display in a log line or message. */
export function quoteArg(arg: string): string {
    return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function formatCommand(command: string, args: readonly string[]): string {
    return [command, ...args].map(quoteArg).join(' ');
}

/** Keeps the last `max` lines written to it. */
export class LineTail {
    private lines: string[] = [];
    constructor(private readonly max = 30) {}
    push(line: string): void {
        this.lines.push(line);
        if (this.lines.length > this.max) {
            this.lines.shift();
        }
    }
    get all(): string[] {
        return [...this.lines];
    }
    /** The last line that looks like an error message, if any. */
    get errorLine(): string | undefined {
        const nonEmpty = this.lines.map((l) => l.trim()).filter((l) => l.length > 0);
        for (let i = nonEmpty.length - 1; i >= 0; i--) {
            if (/(Error|Exception|error:|No module named|not found|denied|[Uu]sage:)/.test(nonEmpty[i])) {
                return nonEmpty[i];
            }
        }
        return undefined;
    }

    /** The most informative line: the last one that looks like an error, else the last non-empty one. */
    get summary(): string | undefined {
        const nonEmpty = this.lines.map((l) => l.trim()).filter((l) => l.length > 0);
        return this.errorLine ?? nonEmpty[nonEmpty.length - 1];
    }
}
