// Workspace Trust: a cloned repository must not choose what the extension runs.
//
// The extension's own code (src/config.ts, src/discovery.ts, src/autoInstall.ts) runs against
// a fake `vscode` module (fakeVscode.ts) and a malicious folder holding each of the ways a
// repository could get code run:
//   - .vscode/settings.json setting affineLsp.server.command, server.pythonPath,
//     toolchain.mlirBin and server.extraArgs (`--log-file` into any file);
//   - .venv/bin/affine-lsp and venv/bin/affine-lsp;
//   - affine_lsp/__init__.py (imported by a Python started in the folder);
//   - tools/bin/mlir-opt (a relative mlirBin, probed by the code lens).
// Each program or module writes a marker file when it runs. The server that discovery picks is
// really started, as the extension starts it (serverSpawnOptions, readInitializationOptions,
// serverConfigurationAnswer), and asked for diagnostics, a hover and the code lenses; no marker may
// appear. The extension host's own current directory is the malicious folder meanwhile (as when
// `code .` is run in a fresh clone).
//
// Run: npm run test:trust (test/trust/build.mjs bundles this file with `vscode` -> fakeVscode).
import assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import * as os from 'node:os';
import * as path from 'node:path';
import * as rpc from 'vscode-jsonrpc/node';
import { pythonExtensionInterpreter, ServerInstaller } from '../../src/autoInstall';
import { readInitializationOptions, readServerSettings, serverConfiguration, serverConfigurationAnswer, toolchainSettingNotes } from '../../src/config';
import { DiscoveryError, discoverServer, ServerLaunch, serverSpawnOptions } from '../../src/discovery';
import * as fake from './fakeVscode';

const SERVER_TIMEOUT_MS = 240_000;
const TEXT = [
    'func.func @kernel(%A: memref<8xf32>) {',
    '  affine.for %i = 0 to 8 {',
    '    %v = affine.load %A[%i] : memref<8xf32>',
    '    affine.store %v, %A[%i + 1] : memref<8xf32>',
    '  }',
    '  return',
    '}',
    '',
].join('\n');

let root = '';
let folder = '';
let markers = '';
let binDir = '';
let python = '';
const savedCwd = process.cwd();
const savedPath = process.env.PATH;

const log = {
    lines: [] as string[],
    info(m: string) {
        this.lines.push(m);
    },
    warn(m: string) {
        this.lines.push(m);
    },
    error(m: string) {
        this.lines.push(m);
    },
    debug(m: string) {
        this.lines.push(m);
    },
    show() {},
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const channel = log as any;

function write(file: string, text: string, mode = 0o755): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, { mode });
}

/** A program that records that it ran (and prints an MLIR version, for a probe). */
function evilProgram(name: string): string {
    return `#!/bin/sh\necho "$0 $*" > '${path.join(markers, name)}'\necho 'LLVM version 22.1.8'\n`;
}

function inside(p: string, dir: string): boolean {
    const rel = path.relative(dir, path.resolve(p));
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function ran(): string[] {
    return fs.readdirSync(markers).map((m) => `${m}: ${fs.readFileSync(path.join(markers, m), 'utf8').trim()}`);
}

before(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'affine-trust-')));
    folder = path.join(root, 'cloned-repo');
    markers = path.join(root, 'markers');
    binDir = path.join(root, 'bin');
    fs.mkdirSync(markers, { recursive: true });
    write(
        path.join(folder, '.vscode', 'settings.json'),
        JSON.stringify(
            {
                'affineLsp.server.command': './evil/server serve',
                'affineLsp.server.pythonPath': '${workspaceFolder}/evil/python',
                'affineLsp.toolchain.mlirBin': path.join(folder, 'tools', 'bin'),
                'affineLsp.server.extraArgs': ['--log-file', path.join(markers, 'log-file')],
                'affineLsp.dialects.tblgen': path.join(folder, 'tools', 'bin', 'mlir-opt'),
                'affineLsp.dialects.td': ['include/MyOps.td'],
            },
            null,
            2,
        ),
        0o644,
    );
    for (const venv of ['.venv', 'venv']) {
        write(path.join(folder, venv, 'bin', 'affine-lsp'), evilProgram(`${venv}-affine-lsp`));
        write(path.join(folder, venv, 'bin', 'python'), evilProgram(`${venv}-python`));
    }
    write(path.join(folder, 'evil', 'server'), evilProgram('evil-server'));
    write(path.join(folder, 'evil', 'python'), evilProgram('evil-python'));
    write(path.join(folder, 'x'), evilProgram('dot-x'));
    write(path.join(folder, 'tools', 'bin', 'mlir-opt'), evilProgram('mlir-opt'));
    write(path.join(folder, 'tools', 'bin', 'mlir-runner'), evilProgram('mlir-runner'));
    write(
        path.join(folder, 'affine_lsp', '__init__.py'),
        `open(${JSON.stringify(path.join(markers, 'affine_lsp-import'))}, "w").write("imported")\n`,
        0o644,
    );
    write(path.join(folder, 'kernel.mlir'), TEXT, 0o644);

    // The Python that has affine-lsp installed, as the only python3 on PATH; no affine-lsp there.
    const given = process.env.AFFINE_LSP_TEST_PYTHON || 'python3';
    const r = cp.spawnSync(given, ['-c', 'import sys; print(sys.executable)'], { cwd: os.tmpdir(), encoding: 'utf8' });
    assert.equal(r.status, 0, `cannot run ${given}: ${r.stderr}`);
    python = r.stdout.trim();
    write(path.join(binDir, 'python3'), `#!/bin/sh\nexec '${python}' "$@"\n`);
});

after(() => {
    process.chdir(savedCwd);
    process.env.PATH = savedPath;
    fs.rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
    fake.reset();
    fake.state.folders = [{ uri: fake.Uri.file(folder), name: 'cloned-repo', index: 0 }];
    log.lines = [];
    process.chdir(folder);
    process.env.PATH = [binDir, '/usr/bin', '/bin'].join(path.delimiter);
});

afterEach(() => {
    process.chdir(savedCwd);
    process.env.PATH = savedPath;
    assert.deepEqual(ran(), [], 'something from the folder ran');
});

interface Session {
    diagnostics: { message: string }[];
    hover: unknown;
    lenses: unknown[];
    /** The answer to "Time this function" on @kernel: its result, or the error message. */
    timeFunction: unknown;
    configurations: unknown[];
    initializationOptions: Record<string, unknown>;
}

/** Start the server as ServerManager does and talk LSP to it as the language client would. */
async function serve(launch: ServerLaunch): Promise<Session> {
    const child = cp.spawn(launch.command, launch.args, serverSpawnOptions(launch));
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout!), new rpc.StreamMessageWriter(child.stdin!));
    const configurations: unknown[] = [];
    // As the language client answers (the editor's values), through the extension's middleware.
    conn.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => {
        const raw = params.items.map((item) => (item.section === 'affineLsp' ? fake.sectionObject('affineLsp') : null));
        const answer = serverConfigurationAnswer(params.items, raw);
        configurations.push(...answer.filter((_, i) => params.items[i].section === 'affineLsp'));
        return answer;
    });
    const uri = fake.Uri.file(path.join(folder, 'kernel.mlir')).toString();
    const diagnostics = new Promise<{ message: string }[]>((resolve) =>
        conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: { message: string }[] }) => {
            if (p.uri === uri && p.diagnostics.length > 0) {
                resolve(p.diagnostics);
            }
        }),
    );
    conn.listen();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the server did not answer in time; its stderr:\n${stderr}`)), SERVER_TIMEOUT_MS);
    });
    try {
        const initializationOptions = readInitializationOptions([]);
        await Promise.race([
            conn.sendRequest('initialize', {
                processId: process.pid,
                rootUri: fake.Uri.file(folder).toString(),
                workspaceFolders: [{ uri: fake.Uri.file(folder).toString(), name: 'cloned-repo' }],
                capabilities: { workspace: { configuration: true }, textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } },
                initializationOptions,
            }),
            timeout,
        ]);
        await conn.sendNotification('initialized', {});
        await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'mlir', version: 1, text: TEXT } });
        const diags = await Promise.race([diagnostics, timeout]);
        const hover = await Promise.race([conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } }), timeout]);
        const lenses = (await Promise.race([conn.sendRequest('textDocument/codeLens', { textDocument: { uri } }), timeout])) as unknown[];
        const timeFunction = await Promise.race([
            conn.sendRequest('workspace/executeCommand', { command: 'affine-lsp.timeFunction', arguments: [{ uri, function: 'kernel' }] }).then(
                (r) => r,
                (e: Error) => `error: ${e.message}`,
            ),
            timeout,
        ]);
        await Promise.race([conn.sendRequest('shutdown'), timeout]);
        await conn.sendNotification('exit');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        return { diagnostics: diags, hover, lenses: lenses ?? [], timeFunction, configurations, initializationOptions };
    } finally {
        clearTimeout(timer);
        conn.dispose();
        child.kill();
    }
}

test('control: the vectors are live (run the way the extension used to, each leaves its marker)', () => {
    const venv = cp.spawnSync(path.join(folder, '.venv', 'bin', 'affine-lsp'), ['serve'], { cwd: folder });
    assert.equal(venv.status, 0);
    const imported = cp.spawnSync(path.join(binDir, 'python3'), ['-c', 'import affine_lsp'], { cwd: folder });
    assert.equal(imported.status, 0);
    const probe = cp.spawnSync(path.join('tools', 'bin', 'mlir-opt'), ['--version'], { cwd: folder });
    assert.equal(probe.status, 0);
    assert.deepEqual(fs.readdirSync(markers).sort(), ['.venv-affine-lsp', 'affine_lsp-import', 'mlir-opt']);
    for (const m of fs.readdirSync(markers)) {
        fs.rmSync(path.join(markers, m));
    }
});

function assertNoWorkspaceValues(notes: string[]): void {
    for (const key of ['server.command', 'server.pythonPath', 'server.extraArgs']) {
        assert.ok(
            notes.some((n) => n.includes(`workspace's value of affineLsp.${key} is ignored`)),
            `no note about the workspace's ${key}: ${JSON.stringify(notes)}`,
        );
    }
}

for (const editorFilters of [true, false]) {
    const editor = editorFilters ? 'an editor that filters restricted settings' : 'an editor that enforces nothing';
    test(`untrusted folder (${editor}): its settings are not used`, () => {
        fake.state.trusted = false;
        fake.state.editorFilters = editorFilters;
        const s = readServerSettings();
        assert.equal(s.trusted, false);
        assert.deepEqual(s.command, []);
        assert.equal(s.pythonPath, '');
        assert.deepEqual(s.extraArgs, []);
        assertNoWorkspaceValues(s.notes);
        const sent = serverConfiguration(fake.sectionObject('affineLsp')) as Record<string, unknown>;
        assert.equal(sent.trusted, false);
        assert.deepEqual(sent.toolchain, { mlirBin: '', timeAfter: '' });
        assert.equal((sent.dialects as { tblgen: string }).tblgen, '', 'the workspace chose llvm-tblgen');
        assert.equal(readInitializationOptions([]).trusted, false);
    });

    test(`trusted folder (${editor}): its settings still cannot choose a program`, () => {
        fake.state.editorFilters = editorFilters;
        const s = readServerSettings();
        assert.equal(s.trusted, true);
        assert.deepEqual(s.command, []);
        assert.equal(s.pythonPath, '');
        assert.deepEqual(s.extraArgs, []);
        assertNoWorkspaceValues(s.notes);
        const sent = serverConfiguration(fake.sectionObject('affineLsp')) as {
            toolchain: { mlirBin: string };
            dialects: { tblgen: string; td: string[] };
            trusted?: boolean;
        };
        assert.equal(sent.toolchain.mlirBin, '', 'the workspace chose the toolchain');
        assert.equal(sent.dialects.tblgen, '', 'the workspace chose llvm-tblgen');
        assert.deepEqual(sent.dialects.td, ['include/MyOps.td'], 'the .td files are data the workspace may name');
        assert.equal(sent.trusted, undefined);
        assert.equal(readInitializationOptions([]).trusted, undefined);
    });
}

test('untrusted folder: the server runs from PATH (python3 -I, not in the folder) and works; nothing from the folder runs', { timeout: SERVER_TIMEOUT_MS + 30_000 }, async () => {
    fake.state.trusted = false;
    fake.state.editorFilters = false;
    const launch = await discoverServer(readServerSettings(), log);
    assert.equal(launch.command, path.join(binDir, 'python3'));
    assert.deepEqual(launch.args, ['-I', '-m', 'affine_lsp', 'serve']);
    assert.ok(!inside(launch.cwd, folder), `the server would run in the folder: ${launch.cwd}`);
    assert.ok(log.lines.some((l) => l.includes('not looking for a server in its .venv')));
    const session = await serve(launch);
    assert.equal(session.initializationOptions.trusted, false);
    assert.ok(session.configurations.length > 0, 'the server never asked for its settings');
    for (const c of session.configurations) {
        assert.deepEqual((c as { toolchain: unknown }).toolchain, { mlirBin: '', timeAfter: '' });
    }
    assert.ok(session.diagnostics.some((d) => d.message.includes('out of upper bound')), JSON.stringify(session.diagnostics));
    assert.ok(session.hover !== null, 'no hover');
    // The server runs no toolchain: no lens (its probe would run mlir-opt), the command refused.
    assert.deepEqual(session.lenses, []);
    assert.match(String(session.timeFunction), /^error: .*Time this function is off in Restricted Mode/);
    assert.ok(!fs.existsSync(path.join(markers, 'log-file')));
});

test('the workspace/configuration answer: every affineLsp section passes serverConfiguration', () => {
    fake.state.trusted = false;
    fake.state.editorFilters = false;
    const items = [{ section: 'affineLsp' }, { section: undefined }, { section: 'editor' }];
    const raw = [fake.sectionObject('affineLsp'), { affineLsp: fake.sectionObject('affineLsp'), editor: { tabSize: 4 } }, { tabSize: 4 }];
    assert.equal((raw[0] as { toolchain: { mlirBin: string } }).toolchain.mlirBin, path.join(folder, 'tools', 'bin'));
    const answer = serverConfigurationAnswer(items, raw) as Record<string, unknown>[];
    assert.deepEqual(answer[0].toolchain, { mlirBin: '', timeAfter: '' });
    assert.equal(answer[0].trusted, false);
    assert.deepEqual((answer[1].affineLsp as Record<string, unknown>).toolchain, { mlirBin: '', timeAfter: '' });
    assert.deepEqual(answer[1].editor, { tabSize: 4 });
    assert.deepEqual(answer[2], { tabSize: 4 });
});

test('untrusted folder: user settings naming the folder are refused, --tcp never passed', async () => {
    fake.state.trusted = false;
    fake.state.userSettings = {
        'affineLsp.server.pythonPath': '${workspaceFolder}/.venv/bin/python',
        'affineLsp.server.extraArgs': [
            '--tcp', '127.0.0.1:9', '--log-level', 'info', '--tc=127.0.0.1:9',
            '--so', '/tmp/x.sock', '--token-file=/tmp/t', '--allow-remote', '--sess',
        ],
    };
    const s = readServerSettings();
    assert.equal(s.pythonPath, '');
    assert.ok(s.notes.some((n) => n.includes("affineLsp.server.pythonPath ('${workspaceFolder}/.venv/bin/python') names a path in the workspace folder")));
    assert.deepEqual(s.extraArgs, ['--log-level', 'info']);
    assert.ok(s.notes.some((n) => n.includes("'--tcp 127.0.0.1:9' is ignored")));
    assert.ok(s.notes.some((n) => n.includes("'--tc=127.0.0.1:9' is ignored")));
    for (const refused of ["'--so /tmp/x.sock'", "'--token-file=/tmp/t'", "'--allow-remote'", "'--sess'"]) {
        assert.ok(s.notes.some((n) => n.includes(`${refused} is ignored`)), refused);
    }
    const launch = await discoverServer(s, log);
    assert.ok(!inside(launch.command, folder));
    assert.deepEqual(launch.args, ['-I', '-m', 'affine_lsp', 'serve', '--log-level', 'info']);
});

test("untrusted folder: the Python extension's interpreter (maybe the folder's venv) is not used", async () => {
    let activated = 0;
    const api = {
        environments: {
            getActiveEnvironmentPath: () => ({ path: path.join(folder, '.venv', 'bin', 'python') }),
            resolveEnvironment: async () => ({ executable: { uri: { fsPath: path.join(folder, '.venv', 'bin', 'python') } } }),
        },
    };
    fake.state.extensions['ms-python.python'] = {
        isActive: false,
        activate: async () => {
            activated++;
            return api;
        },
    };
    fake.state.trusted = false;
    assert.equal(await pythonExtensionInterpreter(channel), undefined);
    assert.equal(activated, 0);
    fake.state.trusted = true; // the same extension in a trusted folder: its choice is used
    assert.equal(await pythonExtensionInterpreter(channel), path.join(folder, '.venv', 'bin', 'python'));
});

test('untrusted folder: the bundled server is started isolated, outside the folder', async () => {
    fake.state.trusted = false;
    const storage = path.join(root, 'storage');
    write(path.join(storage, 'server-env', 'bin', 'python'), `#!/bin/sh\nexec '${python}' "$@"\n`);
    write(path.join(storage, 'server-env.json'), JSON.stringify({ wheel: 'w.whl', version: '0.1.0', sha256: 'x' }), 0o644);
    const installer = new ServerInstaller(storage, path.join(root, 'no-extension'), channel);
    const failures: string[] = [];
    const launch = await installer.resolve(
        new DiscoveryError('none found', 'affineLsp.server.pythonPath'),
        [],
        (m) => failures.push(m),
        () => undefined,
    );
    assert.deepEqual(failures, []);
    assert.ok(launch);
    assert.equal(launch.command, path.join(storage, 'server-env', 'bin', 'python'));
    assert.deepEqual(launch.args, ['-I', '-m', 'affine_lsp', 'serve']);
    assert.ok(!inside(launch.cwd, folder));
});

test('trusted folder: relative program paths in the user settings are refused with a clear message', async () => {
    fake.state.userSettings = {
        'affineLsp.server.pythonPath': './x',
        'affineLsp.toolchain.mlirBin': 'tools/bin',
    };
    const s = readServerSettings();
    assert.equal(s.pythonPath, '');
    assert.ok(s.notes.some((n) => n.includes("affineLsp.server.pythonPath ('./x') is a relative path: programs are run only from an absolute path or one starting with ~")));
    fake.state.userSettings = { 'affineLsp.server.command': 'tools/bin/mlir-opt serve' };
    const c = readServerSettings();
    assert.deepEqual(c.command, []);
    assert.ok(c.notes.some((n) => n.includes("affineLsp.server.command ('tools/bin/mlir-opt') is a relative path")));
    fake.state.userSettings = { 'affineLsp.toolchain.mlirBin': 'tools/bin' };
    const notes = toolchainSettingNotes();
    assert.ok(notes.some((n) => n.includes("affineLsp.toolchain.mlirBin ('tools/bin') is a relative path")), JSON.stringify(notes));
    // An absolute or ~ path is fine.
    fake.state.userSettings = { 'affineLsp.server.pythonPath': '~/bin/python3', 'affineLsp.toolchain.mlirBin': '~/mlir/bin' };
    assert.equal(readServerSettings().pythonPath, path.join(os.homedir(), 'bin', 'python3'));
    assert.deepEqual(
        toolchainSettingNotes().filter((n) => n.includes('relative')),
        [],
    );
});

test('trusted folder: a relative mlirBin is not probed by the code lens; the server still works', { timeout: SERVER_TIMEOUT_MS + 30_000 }, async () => {
    fake.state.userSettings = { 'affineLsp.toolchain.mlirBin': 'tools/bin' };
    // Not the folder's venv: an explicit interpreter in the user settings.
    fake.state.userSettings['affineLsp.server.pythonPath'] = path.join(binDir, 'python3');
    const launch = await discoverServer(readServerSettings(), log);
    assert.deepEqual(launch.args, ['-I', '-m', 'affine_lsp', 'serve']);
    assert.ok(!inside(launch.cwd, folder));
    const session = await serve(launch);
    assert.ok(session.configurations.length > 0);
    for (const c of session.configurations) {
        assert.equal((c as { toolchain: { mlirBin: string } }).toolchain.mlirBin, 'tools/bin');
    }
    // The server ignores the relative mlirBin (with a message); another toolchain on
    // this machine may still give the lens. Nothing in the folder's tools/bin runs (afterEach).
    assert.deepEqual(ran(), []);
    assert.ok(session.diagnostics.length > 0);
});

test("trusted folder: the folder's .venv is used (documented: trusting a folder trusts its venv)", async () => {
    const launch = await discoverServer(readServerSettings(), log);
    assert.equal(launch.command, path.join(folder, '.venv', 'bin', 'affine-lsp'));
    assert.deepEqual(launch.args, ['serve']);
    assert.ok(!inside(launch.cwd, folder));
});
