// Bundles the extension into a single dist/extension.js.
//   node esbuild.mjs               development build (with source map)
//   node esbuild.mjs --production  minified build used for the .vsix
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const options = {
    entryPoints: ['src/extension.ts'],
    bundle: true,
    outfile: 'dist/extension.js',
    external: ['vscode'],
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    // vscode-languageclient ships both CJS and ESM entry points; prefer the CJS "main".
    mainFields: ['main', 'module'],
    logLevel: 'info',
};

if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
} else {
    await esbuild.build(options);
}
