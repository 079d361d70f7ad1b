// Bundles test/trust/trust.test.ts with the extension's sources into out/test/trust.test.js,
// the `vscode` module replaced by test/trust/fakeVscode.ts (npm run test:trust).
import * as esbuild from 'esbuild';

await esbuild.build({
    entryPoints: ['test/trust/trust.test.ts'],
    bundle: true,
    outfile: 'out/test/trust.test.js',
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    alias: { vscode: './test/trust/fakeVscode.ts' },
    mainFields: ['main', 'module'],
    sourcemap: 'inline',
    logLevel: 'warning',
});
