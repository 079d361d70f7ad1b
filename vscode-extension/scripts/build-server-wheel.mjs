// Builds the affine-lsp wheel from the repository this extension lives in and
// puts it in server/, with server/manifest.json describing it, so that the
// .vsix carries its own language server (see src/autoInstall.ts).
//
//   node scripts/build-server-wheel.mjs        (run by `npm run package`)
//
// Needs a Python 3 with pip ($PYTHON, default python3; python on Windows).
// The build sandbox gets setuptools from the package index as pip always
// does; when that is not reachable, the build is retried without isolation
// (then the build Python's own setuptools >= 68 is used).
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const extDir = path.resolve(here, '..');
const repo = path.resolve(extDir, '..');
const outDir = path.join(extDir, 'server');
const python = process.env.PYTHON || (process.platform === 'win32' ? 'python' : 'python3');

function die(message) {
    console.error(`build-server-wheel: ERROR: ${message}`);
    process.exit(1);
}

if (!fs.existsSync(path.join(repo, 'pyproject.toml')) || !fs.existsSync(path.join(repo, 'affine_lsp'))) {
    die(`no pyproject.toml and affine_lsp/ in ${repo}: the extension must be built from the affine-lsp repository`);
}

// Build from a copy of the sources, so that setuptools leaves no build/ or
// *.egg-info in the checkout and stale files there cannot end up in the wheel.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'affine-lsp-wheel-'));
try {
    const src = path.join(tmp, 'src');
    fs.mkdirSync(src);
    for (const name of fs.readdirSync(repo)) {
        if (name === 'pyproject.toml' || name === 'README.md' || /^LICEN[CS]E/i.test(name)) {
            fs.copyFileSync(path.join(repo, name), path.join(src, name));
        }
    }
    // Sources only: no setup.py is copied, so the bundled wheel is pure
    // Python and installs on any platform; the modules an editable install
    // compiled in the checkout (*.so, and Cython's *.c) stay out of it.
    fs.cpSync(path.join(repo, 'affine_lsp'), path.join(src, 'affine_lsp'), {
        recursive: true,
        filter: (p) => !p.includes('__pycache__') && !/\.(pyc|so|pyd|c)$/.test(p),
    });
    const wheels = path.join(tmp, 'wheels');
    const pipArgs = ['-m', 'pip', 'wheel', '--no-deps', '--disable-pip-version-check', '--quiet', src, '-w', wheels];
    let r = spawnSync(python, pipArgs, { stdio: 'inherit' });
    if (r.error) {
        die(`could not run ${python} (${r.error.message}); set PYTHON to a Python 3 interpreter with pip`);
    }
    if (r.status !== 0) {
        console.error('build-server-wheel: the isolated build failed; retrying with --no-build-isolation');
        r = spawnSync(python, [...pipArgs.slice(0, 3), '--no-build-isolation', ...pipArgs.slice(3)], { stdio: 'inherit' });
        if (r.status !== 0) {
            die(`${python} -m pip wheel failed (exit code ${r.status})`);
        }
    }
    const built = fs.readdirSync(wheels).filter((f) => /^affine_lsp-.*\.whl$/.test(f));
    if (built.length !== 1) {
        die(`expected one affine_lsp wheel, got: ${built.join(', ') || 'none'}`);
    }
    const wheel = path.join(wheels, built[0]);
    // Version, Requires-Python and Requires-Dist from the wheel's own METADATA.
    const meta = JSON.parse(
        execFileSync(
            python,
            [
                '-c',
                [
                    'import email, hashlib, json, sys, zipfile',
                    'z = zipfile.ZipFile(sys.argv[1])',
                    'name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))',
                    'm = email.message_from_bytes(z.read(name))',
                    'print(json.dumps({"version": m["Version"], "requiresPython": m.get("Requires-Python") or "",',
                    '  "requires": [r for r in (m.get_all("Requires-Dist") or []) if "extra ==" not in r],',
                    '  "sha256": hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest()}))',
                ].join('\n'),
                wheel,
            ],
            { encoding: 'utf8' },
        ),
    );
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir);
    fs.copyFileSync(wheel, path.join(outDir, built[0]));
    const manifest = { wheel: built[0], ...meta };
    fs.writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    console.log(`build-server-wheel: server/${built[0]} (affine-lsp ${meta.version}, Python ${meta.requiresPython || 'any'})`);
} finally {
    fs.rmSync(tmp, { recursive: true, force: true });
}
