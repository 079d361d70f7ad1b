#!/usr/bin/env node
// Real-editor test driver: headless Chromium (Debian's /usr/bin/chromium) driven
// by playwright-core against a code-server that serves VS Code on loopback with
// the packaged affine-lsp extension installed. See tests/test_vscode_e2e.py,
// which starts code-server, runs this script and asserts on what it reports.
//
//   node driver.js CONFIG.json
//
// CONFIG: {url, folder, file, viewFile?, artifacts, results, timeoutMs?, playwrightCore?, chromium?, scenario?, squiggleTimeoutMs?}
//   url        http://127.0.0.1:PORT/  (code-server, --auth none)
//   folder     absolute path of the workspace folder to open
//   file       name of the .mlir file in it (examples/e2e/fusion.mlir's copy)
//   viewFile   name of the file the iteration-space steps open (stencil.mlir)
//   artifacts  folder for the screenshots (NN-step.png)
//   results    path of the JSON report written at the end (and after each step)
//   scenario   'first-install': no server anywhere; accept the extension's install
//              prompt (step 05-install), then wait for the diagnostic (01) and stop;
//              'after-update': the progress of the environment's update (07-update),
//              then the diagnostic (01); 'no-index' and 'no-python': accept the
//              install prompt (05), then read the error notification (06-install-error)
//
// The driver does not judge: each step reports what it read from the page
// (squiggles, Problems rows, hover text and tables, code actions offered,
// the editor text after applying one) and pytest asserts on it. A step that
// throws reports {ok: false, error}; the next steps still run. Waits that need
// a target (e.g. "the hover shows a dependence table") only decide how long to
// wait, never whether the step passes.
'use strict';

const fs = require('fs');
const path = require('path');

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const { chromium } = require(cfg.playwrightCore || process.env.PLAYWRIGHT_CORE || 'playwright-core');

const T0 = Date.now();
const results = { started: new Date().toISOString(), steps: {}, console: [], timings: {} };
const log = (...a) => console.error(`[driver +${((Date.now() - T0) / 1000).toFixed(1)}s]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const save = () => fs.writeFileSync(cfg.results, JSON.stringify(results, null, 2));

async function shot(page, name) {
    const p = path.join(cfg.artifacts, name);
    await page.screenshot({ path: p });
    return p;
}

async function poll(fn, { timeout = 30000, interval = 250, what = 'condition' } = {}) {
    const end = Date.now() + timeout;
    let last;
    for (;;) {
        last = await fn();
        if (last) return last;
        if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
        await sleep(interval);
    }
}

// ------------------------------------------------------------------ editor DOM helpers

const EDITOR = '.part.editor .monaco-editor';

/** The rendered lines of the editor: [{n, text, top}] sorted by position (n: 1-based line number). */
async function visibleLines(page) {
    return page.evaluate((sel) => {
        const ed = document.querySelector(sel);
        if (!ed) return [];
        const top = (el) => parseFloat(el.style.top || '0');
        const nums = [...ed.querySelectorAll('.margin-view-overlays > div')]
            .map((d) => ({ top: top(d), n: parseInt((d.querySelector('.line-numbers') || {}).textContent || '', 10) }))
            .filter((x) => !Number.isNaN(x.n));
        const byTop = new Map(nums.map((x) => [x.top, x.n]));
        return [...ed.querySelectorAll('.view-lines > .view-line')]
            .map((el) => ({ top: top(el), text: [...el.querySelectorAll('span > span')]
                .filter((sp) => ![...sp.classList].some((c) => c.startsWith('dyn-rule-')))
                .map((sp) => sp.textContent).join('').replace(/\u00a0/g, ' ') }))
            .sort((a, b) => a.top - b.top)
            .map((l) => ({ n: byTop.has(l.top) ? byTop.get(l.top) : null, text: l.text, top: l.top }));
    }, EDITOR);
}

/**
 * Screen coordinates of a character: the first rendered line containing
 * `lineNeedle` (nth match), then `token` in it (first occurrence at or after
 * the needle), `delta` characters into the token.
 */
async function charPoint(page, lineNeedle, token, delta = 1, nth = 0) {
    const r = await page.evaluate(({ sel, lineNeedle, token, delta, nth }) => {
        const ed = document.querySelector(sel);
        const lines = [...ed.querySelectorAll('.view-lines > .view-line')].sort(
            (a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
        const hits = lines.filter((l) => l.textContent.replace(/\u00a0/g, ' ').includes(lineNeedle));
        const line = hits[nth];
        if (!line) return { error: `no rendered line contains ${JSON.stringify(lineNeedle)}` };
        const text = line.textContent.replace(/\u00a0/g, ' ');
        const at = text.indexOf(token, text.indexOf(lineNeedle));
        if (at < 0) return { error: `no ${JSON.stringify(token)} in line ${JSON.stringify(text)}` };
        let want = at + delta;
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const len = node.textContent.length;
            if (want < len) {
                const range = document.createRange();
                range.setStart(node, want);
                range.setEnd(node, want + 1);
                const b = range.getBoundingClientRect();
                return { x: b.left + b.width / 2, y: b.top + b.height / 2, line: text };
            }
            want -= len;
        }
        return { error: 'character not found' };
    }, { sel: EDITOR, lineNeedle, token, delta, nth });
    if (r.error) throw new Error(r.error);
    return r;
}

/** Squiggles of the given class, each with the line it is on and the characters it underlines. */
async function squiggles(page, cls) {
    return page.evaluate(({ sel, cls }) => {
        const ed = document.querySelector(sel);
        const lines = [...ed.querySelectorAll('.view-lines > .view-line')];
        const nums = [...ed.querySelectorAll('.margin-view-overlays > div')];
        const out = [];
        for (const sq of ed.querySelectorAll('.' + cls)) {
            const b = sq.getBoundingClientRect();
            const mid = b.top + b.height / 2;
            const line = lines.find((l) => { const r = l.getBoundingClientRect(); return r.top <= mid && mid < r.bottom; });
            const num = nums.find((l) => { const r = l.getBoundingClientRect(); return r.top <= mid && mid < r.bottom; });
            let under = '';
            if (line) {
                const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                    for (let i = 0; i < node.textContent.length; i++) {
                        const range = document.createRange();
                        range.setStart(node, i);
                        range.setEnd(node, i + 1);
                        const c = range.getBoundingClientRect();
                        const cx = c.left + c.width / 2;
                        if (cx >= b.left && cx <= b.right) under += node.textContent[i];
                    }
                }
            }
            out.push({
                line: line ? line.textContent.replace(/\u00a0/g, ' ') : null,
                lineNumber: num ? parseInt((num.querySelector('.line-numbers') || {}).textContent || '', 10) || null : null,
                underlined: under.replace(/\u00a0/g, ' '),
                width: Math.round(b.width),
            });
        }
        return out;
    }, { sel: EDITOR, cls });
}

/** The visible editor hover widget(s): text, and any tables as {header, rows}. */
async function hoverContent(page) {
    return page.evaluate(() => {
        const hovers = [...document.querySelectorAll('.monaco-hover:not(.hidden)')].filter((h) => {
            const r = h.getBoundingClientRect();
            return r.width > 0 && r.height > 0;
        });
        if (!hovers.length) return null;
        const text = hovers.map((h) => h.innerText).join('\n----\n');
        const tables = [];
        for (const h of hovers) {
            for (const t of h.querySelectorAll('table')) {
                const rows = [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th,td')].map((c) => c.innerText.trim()));
                tables.push({ header: rows[0] || [], rows: rows.slice(1) });
            }
        }
        return { text, tables };
    });
}

/** Wait for the hover's fade-in to end, so that the screenshot shows it as a person sees it. */
async function hoverOpaque(page) {
    await poll(() => page.evaluate(() => {
        const h = [...document.querySelectorAll('.monaco-hover:not(.hidden)')].find((x) => x.getBoundingClientRect().width > 0);
        for (let el = h; el; el = el.parentElement) {
            if (parseFloat(getComputedStyle(el).opacity) < 1) return false;
        }
        return !!h;
    }), { timeout: 3000, what: 'the hover to fade in' }).catch(() => {});
    await sleep(150);
}

async function closeWidgets(page) {
    for (let i = 0; i < 2; i++) {
        await page.keyboard.press('Escape');
        await sleep(100);
    }
    await page.mouse.move(5, 5);
    await sleep(200);
}

/**
 * Hover `token` on the line containing `lineNeedle` and return the hover's
 * content once `settled(content)` holds or `timeout` passes (re-hovering now
 * and then: the server may still be analysing when the first hover comes).
 */
async function hoverAt(page, lineNeedle, token, delta, settled, timeout = 30000) {
    const end = Date.now() + timeout;
    let content = null;
    let pt = null;
    while (Date.now() < end) {
        await closeWidgets(page);
        pt = await charPoint(page, lineNeedle, token, delta);
        await page.mouse.move(pt.x, pt.y, { steps: 4 });
        try {
            await page.waitForSelector('.monaco-hover:not(.hidden)', { state: 'visible', timeout: 5000 });
        } catch {
            continue;
        }
        const stop = Date.now() + 3000;
        while (Date.now() < stop) {
            content = await hoverContent(page);
            if (content && settled(content)) {
                await hoverOpaque(page);
                return { content, point: pt };
            }
            await sleep(250);
        }
    }
    return { content, point: pt };
}

/**
 * The editor's text, two ways: `text` is the whole document as the editor
 * copies it (Ctrl+A, Ctrl+C, read from the clipboard); `visible` is what the
 * rendered lines show (without inlay hints), from `firstLine` to `lastLine`.
 * Leaves the cursor at the start of the document.
 */
async function editorText(page) {
    await page.keyboard.press('Control+Home');
    await sleep(150);
    const lines = await visibleLines(page);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+C');
    let text = null;
    try {
        text = await poll(async () => (await page.evaluate(() => navigator.clipboard.readText())) || null, { timeout: 3000, what: 'the copied text' });
    } catch { /* reported as null */ }
    await page.keyboard.press('Control+Home');
    return {
        text,
        visible: lines.map((l) => l.text).join('\n'),
        firstLine: lines.length ? lines[0].n : null,
        lastLine: lines.length ? lines[lines.length - 1].n : null,
    };
}

// ------------------------------------------------------------------ webview helpers

/** The frame of a webview whose document has `selector` (code-server nests it in two iframes). */
async function webviewFrame(page, selector, timeout = 30000) {
    return poll(async () => {
        for (const f of page.frames()) {
            try {
                if (await f.evaluate((sel) => !!document.querySelector(sel), selector)) return f;
            } catch { /* detached or cross-origin frame */ }
        }
        return null;
    }, { timeout, what: `a webview with ${selector}` });
}

/** What the iteration-space webview shows: counts of drawn elements, axis labels, status, error banner. */
async function viewState(frame) {
    return frame.evaluate(() => {
        const svg = document.querySelector('svg#plot');
        const banner = document.getElementById('error');
        return {
            points: svg ? svg.querySelectorAll('circle.point').length : null,
            arrows: svg ? svg.querySelectorAll('path.arrow').length : null,
            arrowKinds: svg ? [...svg.querySelectorAll('path.arrow')].map((a) => a.getAttribute('data-kind')) : [],
            constraints: svg ? svg.querySelectorAll('line.constraint').length : null,
            axisLabels: svg ? [...svg.querySelectorAll('text.axis-label')].map((t) => t.textContent) : [],
            title: (document.querySelector('h2') || {}).textContent || null,
            status: (document.getElementById('status') || {}).textContent || null,
            error: banner ? banner.textContent : null,
            stale: !!document.querySelector('#body.stale'),
            info: (document.getElementById('info') || {}).textContent || null,
        };
    });
}

/** The cursor position the status bar shows ("Ln 7, Col 7"). */
async function cursorPosition(page) {
    return page.evaluate(() => {
        const el = [...document.querySelectorAll('.statusbar-item')].find((e) => /Ln \d+, Col \d+/.test(e.textContent || ''));
        const m = el && /Ln (\d+), Col (\d+)/.exec(el.textContent);
        return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
    });
}

// ------------------------------------------------------------------ steps

async function step(name, page, fn, { close = true } = {}) {
    const t = Date.now();
    log(`step ${name}`);
    try {
        results.steps[name] = { ok: true, ...(await fn()) };
    } catch (e) {
        let screenshot = null;
        try { screenshot = await shot(page, `${name}-error.png`); } catch { /* page gone */ }
        results.steps[name] = { ...(results.steps[name] || {}), ok: false, error: String(e && e.stack || e), screenshot };
        log(`step ${name} failed: ${e}`);
    }
    results.steps[name].seconds = (Date.now() - t) / 1000;
    save();
    if (close) await closeWidgets(page).catch(() => {});
}

/**
 * The notification whose text contains `needle`: a toast, or (hidden by an
 * Escape meanwhile) the same item in the notification center, opened with
 * the status bar bell.
 */
async function notification(page, needle, timeout) {
    const item = page.locator('.notification-list-item', { hasText: needle }).first();
    try {
        await item.waitFor({ state: 'visible', timeout });
    } catch {
        await page.locator('.statusbar-item[id="status.notifications"] a, .statusbar-item[id="status.notifications"]').first().click();
        await item.waitFor({ state: 'visible', timeout: 10000 });
    }
    return item;
}

async function main() {
    fs.mkdirSync(cfg.artifacts, { recursive: true });
    const profile = fs.mkdtempSync(path.join(require('os').tmpdir(), 'affine-lsp-e2e-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
        executablePath: cfg.chromium || '/usr/bin/chromium',
        headless: true,
        viewport: { width: 1400, height: 1000 },
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions'],
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(cfg.url).origin });
    const page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(30000);
    page.on('console', (m) => { if (m.type() === 'error' && results.console.length < 50) results.console.push(m.text().slice(0, 500)); });
    page.on('pageerror', (e) => { if (results.console.length < 50) results.console.push('pageerror: ' + String(e).slice(0, 500)); });

    try {
        // ------------------------------------------------------------ open the workbench and the file
        await step('00-open', page, async () => {
            await page.goto(`${cfg.url.replace(/\/$/, '')}/?folder=${encodeURIComponent(cfg.folder)}`);
            await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60000 });
            await sleep(1500);
            results.timings.workbench = (Date.now() - T0) / 1000;
            // Quick Open: wait for the file among the results before Enter (the file
            // search answers a moment after typing); try again if no tab opens.
            const tab = `.tab[aria-label*="${cfg.file}"]`;
            for (let attempt = 1; ; attempt++) {
                await page.keyboard.press('Control+P');
                await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
                await page.keyboard.type(cfg.file, { delay: 20 });
                await page.locator('.quick-input-widget .monaco-list-row', { hasText: cfg.file }).first().waitFor({ state: 'visible', timeout: 15000 });
                await sleep(300);
                await page.keyboard.press('Enter');
                try {
                    await page.waitForSelector(tab, { timeout: 10000 });
                    break;
                } catch (e) {
                    if (attempt >= 3) throw e;
                    await closeWidgets(page);
                }
            }
            await page.waitForSelector(`${EDITOR} .view-lines .view-line`);
            await page.click(`${EDITOR} .view-lines`);
            await page.keyboard.press('Control+Home');
            const lang = await page.evaluate(() => {
                const el = [...document.querySelectorAll('.statusbar-item')].find((e) => /MLIR/i.test(e.getAttribute('aria-label') || e.textContent || ''));
                return el ? (el.getAttribute('aria-label') || el.textContent) : null;
            });
            return { language: lang, screenshot: await shot(page, '00-open.png') };
        }, { close: !cfg.scenario }); // keep the extension's notifications in view

        if (!results.steps['00-open'].ok) throw new Error('could not open the example file; the other steps need it');

        // ------------------------------------------------------------ first install: accept the install prompt
        if (['first-install', 'no-index', 'no-python'].includes(cfg.scenario)) {
            await step('05-install', page, async () => {
                const r = {};
                const prompt = await notification(page, 'no language server was found', 60000);
                r.prompt = (await prompt.locator('.notification-list-item-message').innerText()).trim();
                r.buttons = (await prompt.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).filter((b) => b);
                await sleep(600); // the toast's fade-in
                r.screenshotPrompt = await shot(page, '05-install-prompt.png');
                await prompt.locator('.monaco-button', { hasText: /^Install$/ }).first().click();
                r.clicked = 'Install';
                results.timings.installClicked = (Date.now() - T0) / 1000;
                try {
                    const progress = await notification(page, 'installing the language server', 20000);
                    r.progress = (await progress.innerText()).replace(/\s+/g, ' ').trim();
                    r.screenshotProgress = await shot(page, '05-install-progress.png');
                } catch { /* reported as no progress notification */ }
                await page.click(`${EDITOR} .view-lines`);
                return r;
            }, { close: false });
        }

        // ------------------------------------------------------------ no package index: the install's error
        if (cfg.scenario === 'no-index' || cfg.scenario === 'no-python') {
            await step('06-install-error', page, async () => {
                const r = {};
                const err = await notification(page, 'could not start the language server', 120000);
                r.text = (await err.locator('.notification-list-item-message').innerText()).trim();
                r.buttons = (await err.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).filter((b) => b);
                await sleep(600);
                r.screenshot = await shot(page, '06-install-error.png');
                return r;
            }, { close: false });
            return;
        }

        // ------------------------------------------------------------ after an extension update: the environment is updated
        if (cfg.scenario === 'after-update') {
            await step('07-update', page, async () => {
                const r = {};
                try {
                    const progress = await notification(page, 'installing the language server', 10000);
                    r.progress = (await progress.innerText()).replace(/\s+/g, ' ').trim();
                    r.screenshot = await shot(page, '07-update-progress.png');
                } catch { /* reported as no progress notification */ }
                r.notifications = await page.evaluate(() => [...document.querySelectorAll('.notification-list-item-message')].map((n) => n.innerText.trim()));
                return r;
            });
        }

        // ------------------------------------------------------------ 1. diagnostic: squiggle + Problems panel
        await step('01-diagnostic', page, async () => {
            const r = {};
            try {
                await page.waitForSelector(`${EDITOR} .squiggly-error`, { timeout: cfg.squiggleTimeoutMs || 90000 });
            } catch { /* reported below as no squiggle */ }
            results.timings.firstSquiggle = (Date.now() - T0) / 1000;
            r.squiggles = await squiggles(page, 'squiggly-error');
            r.warnings = await squiggles(page, 'squiggly-warning');
            // Hover the squiggled text, as a person would, to read the message.
            if (r.squiggles.length) {
                const sq = r.squiggles[0];
                const { content } = await hoverAt(page, sq.line, sq.underlined, Math.floor(sq.underlined.length / 2), (c) => c.text.trim().length > 0, 15000);
                r.squiggleHover = content && content.text;
            }
            r.screenshotSquiggle = await shot(page, '01-squiggle.png');
            await closeWidgets(page);
            await page.keyboard.press('Control+Shift+M');
            await page.waitForSelector('.markers-panel', { state: 'visible' });
            try {
                await page.waitForSelector('.markers-panel .monaco-list-row', { timeout: 15000 });
            } catch { /* empty panel: reported */ }
            await sleep(500);
            r.problems = await page.evaluate(() => [...document.querySelectorAll('.markers-panel .monaco-list-row')].map((row) => ({
                text: row.innerText.replace(/\s+/g, ' ').trim(),
                ariaLabel: row.getAttribute('aria-label'),
                severity: row.querySelector('.codicon-error, .marker-icon.error') ? 'error'
                    : row.querySelector('.codicon-warning, .marker-icon.warning') ? 'warning'
                        : row.querySelector('.codicon-info, .marker-icon.info') ? 'info' : null,
            })));
            r.screenshotProblems = await shot(page, '01-problems.png');
            await page.keyboard.press('Control+J'); // hide the panel again
            await sleep(300);
            await page.click(`${EDITOR} .view-lines`);
            return r;
        });

        if (cfg.scenario) return; // the other steps run in the main session

        // ------------------------------------------------------------ 2. hover an affine.load: dependence distance
        await step('02-hover-dependence', page, async () => {
            const { content, point } = await hoverAt(page, 'affine.load %a[%k - 2]', 'affine.load', 3,
                (c) => c.tables.some((t) => t.header.includes('memory-based distance')) || /not available|disabled|failed/.test(c.text), 45000);
            const table = content && content.tables.find((t) => t.header.includes('memory-based distance'));
            const distance = table ? table.rows.map((row) => Object.fromEntries(table.header.map((h, i) => [h, row[i]]))) : [];
            return { hoveredLine: point && point.line, text: content && content.text, dependences: distance, screenshot: await shot(page, '02-hover-dependence.png') };
        });

        // ------------------------------------------------------------ 3. hover a #map use: the inlined map
        await step('03-hover-map', page, async () => {
            const { content, point } = await hoverAt(page, 'affine.apply #shift(%n)', '#shift', 2,
                (c) => /with the operands/.test(c.text), 20000);
            return { hoveredLine: point && point.line, text: content && content.text, screenshot: await shot(page, '03-hover-map.png') };
        });

        // ------------------------------------------------------------ 4. quick fix "Fuse loops here"
        await step('04-fuse', page, async () => {
            const r = { tried: [] };
            r.before = await editorText(page);
            // Cursor on a loop of the producer-consumer pair (the producer first,
            // then the consumer), Ctrl+. and the action list.
            let chosen = null;
            for (const loop of ['affine.for %i = 0 to 64', 'affine.for %j = 0 to 64']) {
                const pt = await charPoint(page, loop, 'affine.for', 2);
                const seen = { loop, actions: [], noActionsMessage: null };
                // The first request may come before the server has analysed the latest text: ask again a few times.
                for (let attempt = 0; attempt < 3; attempt++) {
                    await closeWidgets(page);
                    await page.mouse.click(pt.x, pt.y);
                    await sleep(200);
                    await page.keyboard.press('Control+.');
                    await Promise.race([
                        page.waitForSelector('.action-widget .monaco-list-row', { state: 'visible', timeout: 8000 }),
                        page.waitForSelector('.monaco-editor-overlaymessage', { state: 'visible', timeout: 8000 }),
                    ]).catch(() => {});
                    await sleep(400);
                    seen.actions = await page.evaluate(() => [...document.querySelectorAll('.action-widget .monaco-list-row')].map((row) => ({
                        label: (row.querySelector('.title') || row).innerText.trim(),
                        header: row.classList.contains('group-header'),
                        disabled: row.classList.contains('option-disabled') || row.getAttribute('aria-disabled') === 'true',
                        tooltip: row.getAttribute('title') || (row.querySelector('[title]') || {}).title || null,
                    })));
                    seen.noActionsMessage = await page.evaluate(() => {
                        const m = document.querySelector('.monaco-editor-overlaymessage');
                        return m && m.getBoundingClientRect().width > 0 ? m.innerText.trim() : null;
                    });
                    seen.attempts = attempt + 1;
                    if (seen.actions.some((x) => /^Fuse loops here/.test(x.label))) break;
                    await sleep(1000);
                }
                r.tried.push(seen);
                r.screenshotMenu = await shot(page, '04-quickfix-menu.png');
                const hit = seen.actions.find((x) => /^Fuse loops here/.test(x.label));
                if (hit) {
                    chosen = { loop, row: hit, rows: seen.actions };
                    break;
                }
            }
            r.actions = r.tried.flatMap((t) => t.actions);
            r.noActionsMessage = r.tried.map((t) => t.noActionsMessage).find((m) => m) || null;
            if (!chosen) {
                r.applied = null;
                return r;
            }
            r.loop = chosen.loop;
            r.applied = chosen.row.label;
            r.appliedDisabled = chosen.row.disabled;
            r.appliedTooltip = chosen.row.tooltip;
            // Select it with the keyboard (the list opens on its first action) and apply it with Enter.
            const focusable = chosen.rows.filter((x) => !x.header);
            const target = focusable.findIndex((x) => x.label === chosen.row.label);
            for (let i = 0; i < target; i++) {
                await page.keyboard.press('ArrowDown');
                await sleep(80);
            }
            r.focused = await page.evaluate(() => {
                const f = document.querySelector('.action-widget .monaco-list-row.focused');
                return f ? (f.querySelector('.title') || f).innerText.trim() : null;
            });
            if (r.focused !== chosen.row.label) {
                await page.locator('.action-widget .monaco-list-row', { hasText: chosen.row.label }).first().click();
            } else {
                await page.keyboard.press('Enter');
            }
            const beforeVisible = r.before.visible;
            try {
                await poll(async () => (await visibleLines(page)).map((l) => l.text).join('\n') !== beforeVisible,
                    { timeout: 20000, what: 'the editor text to change' });
            } catch { /* reported as unchanged */ }
            await sleep(500);
            await closeWidgets(page);
            r.after = await editorText(page);
            r.dirty = await page.evaluate((f) => {
                const t = document.querySelector(`.tab[aria-label*="${f}"]`);
                return t ? t.classList.contains('dirty') : null;
            }, cfg.file);
            r.notifications = await page.evaluate(() => [...document.querySelectorAll('.notification-toast')].map((n) => n.innerText.trim()));
            r.screenshotFused = await shot(page, '04-fused.png');
            return r;
        });
        // ------------------------------------------------------------ 9. the iteration-space view
        await step('09-iteration-space', page, async () => {
            const r = { file: cfg.viewFile };
            await closeWidgets(page);
            await page.keyboard.press('Control+P');
            await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
            await page.keyboard.type(cfg.viewFile, { delay: 20 });
            await page.locator('.quick-input-widget .monaco-list-row', { hasText: cfg.viewFile }).first().waitFor({ state: 'visible', timeout: 15000 });
            await sleep(300);
            await page.keyboard.press('Enter');
            await page.waitForSelector(`.tab[aria-label*="${cfg.viewFile}"]`, { timeout: 15000 });
            await sleep(800);
            // Cursor on the outer loop, then the command from the palette (F1).
            const pt = await charPoint(page, 'affine.for %i', 'affine.for', 2);
            await page.mouse.click(pt.x, pt.y);
            await sleep(200);
            await page.keyboard.press('F1');
            await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
            await page.keyboard.type('affine-lsp: Show Iteration Space', { delay: 10 });
            await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Show Iteration Space' }).first().waitFor({ state: 'visible', timeout: 10000 });
            await sleep(200);
            await page.keyboard.press('Enter');
            const frame = await webviewFrame(page, 'svg#plot', 60000);
            await poll(async () => (await viewState(frame)).points > 0, { timeout: 30000, what: 'points in the view' }).catch(() => {});
            await sleep(500);
            r.initial = await viewState(frame);
            r.screenshot = await shot(page, '09-iteration-space.png');
            // Hover a point: its iteration vector and accesses.
            const box = await frame.evaluate(() => {
                const c = document.querySelector('circle.point');
                c.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
                return (document.getElementById('info') || {}).textContent;
            });
            r.pointInfo = box;
            // Click an arrow: the editor reveals (and selects) its sink op.
            await frame.locator('path.arrow').first().dispatchEvent('click');
            await sleep(1200);
            r.arrowInfo = (await viewState(frame)).info;
            r.cursorAfterArrow = await cursorPosition(page);
            r.screenshotReveal = await shot(page, '09-reveal.png');
            // Edit a bound in the editor (%j = 1 to 6 -> 1 to 9): the picture follows.
            const six = await charPoint(page, 'affine.for %j = 1 to 6', '6', 0);
            await page.mouse.dblclick(six.x, six.y);
            await sleep(150);
            await page.keyboard.type('9');
            const before = r.initial.points;
            try {
                await poll(async () => { const v = await viewState(frame); return v.points !== before && !v.stale && v.points; }, { timeout: 30000, what: 'the view to redraw' });
            } catch { /* reported as unchanged */ }
            await sleep(500);
            r.edited = await viewState(frame);
            r.editedText = (await visibleLines(page)).map((l) => l.text).join('\n');
            r.screenshotEdited = await shot(page, '09-edited.png');
            // Break the loop's syntax: the view says so (and keeps the last picture, dimmed).
            const nine = await charPoint(page, 'affine.for %j = 1 to 9', '9', 0);
            await page.mouse.dblclick(nine.x, nine.y);
            await sleep(150);
            await page.keyboard.type('}');
            try {
                await poll(async () => (await viewState(frame)).error, { timeout: 30000, what: 'the error banner' });
            } catch { /* reported as null */ }
            r.broken = await viewState(frame);
            r.screenshotBroken = await shot(page, '09-broken.png');
            await page.keyboard.press('Control+Z');
            try {
                await poll(async () => { const v = await viewState(frame); return !v.error && !v.stale; }, { timeout: 30000, what: 'the view to recover' });
            } catch { /* reported below */ }
            // Swap the axes with the panel's selector (keyboard-usable form controls).
            await frame.selectOption('#dim-x', '%j');
            try {
                await poll(async () => (await viewState(frame)).axisLabels[0] === '%j', { timeout: 30000, what: 'the axes to swap' });
            } catch { /* reported as unchanged */ }
            await sleep(300);
            r.swapped = await viewState(frame);
            r.screenshotSwapped = await shot(page, '09-swapped.png');
            return r;
        });

        // ------------------------------------------------------------ 10. the dependence-graph view
        await step('10-dependence-graph', page, async () => {
            const r = {};
            await closeWidgets(page);
            const pt = await charPoint(page, 'affine.store %s', 'affine.store', 2);
            await page.mouse.click(pt.x, pt.y);
            await sleep(200);
            await page.keyboard.press('F1');
            await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
            await page.keyboard.type('affine-lsp: Show Dependence Graph', { delay: 10 });
            await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Show Dependence Graph' }).first().waitFor({ state: 'visible', timeout: 10000 });
            await sleep(200);
            await page.keyboard.press('Enter');
            const frame = await webviewFrame(page, 'svg#graph', 60000);
            await sleep(800);
            Object.assign(r, await frame.evaluate(() => ({
                nodes: [...document.querySelectorAll('svg#graph g.node')].map((g) => g.getAttribute('aria-label')),
                edges: [...document.querySelectorAll('svg#graph path.arrow')].map((p) => p.getAttribute('aria-label')),
                title: (document.querySelector('h2') || {}).textContent || null,
            })));
            // Click the first node: the editor reveals its op.
            await page.mouse.click(5, 5);
            await frame.locator('svg#graph g.node').first().dispatchEvent('click');
            await sleep(1200);
            r.cursorAfterNode = await cursorPosition(page);
            r.screenshot = await shot(page, '10-dependence-graph.png');
            return r;
        });

        // ------------------------------------------------------------ 11. the loop hover's link to the view
        await step('11-hover-link', page, async () => {
            const r = {};
            const { content } = await hoverAt(page, 'affine.for %j', 'affine.for', 2, (c) => /Show iteration space/.test(c.text), 30000);
            r.hoverHasLink = !!content && /Show iteration space/.test(content.text);
            if (!r.hoverHasLink) return r;
            await page.locator('.monaco-hover a', { hasText: 'Show iteration space' }).first().click();
            const frame = await webviewFrame(page, 'svg#plot', 30000);
            try {
                await poll(async () => /affine\.for %j/.test((await viewState(frame)).title || ''), { timeout: 30000, what: 'the view of the %j loop' });
            } catch { /* reported below */ }
            r.view = await viewState(frame);
            r.screenshot = await shot(page, '11-hover-link.png');
            return r;
        });

        // ------------------------------------------------------------ 12. a bytecode file opens as read-only text with diagnostics
        if (cfg.bytecodeFile) {
            await step('12-bytecode', page, async () => {
                const r = {};
                await closeWidgets(page);
                const tab = `.tab[aria-label*="${cfg.bytecodeFile}.mlir"]`;
                for (let attempt = 1; ; attempt++) {
                    await page.keyboard.press('Control+P');
                    await page.waitForSelector('.quick-input-widget input', { state: 'visible' });
                    await page.keyboard.type(cfg.bytecodeFile, { delay: 20 });
                    await page.locator('.quick-input-widget .monaco-list-row', { hasText: cfg.bytecodeFile }).first().waitFor({ state: 'visible', timeout: 15000 });
                    await sleep(300);
                    await page.keyboard.press('Enter');
                    try {
                        await page.waitForSelector(tab, { timeout: 20000 });
                        break;
                    } catch (e) {
                        if (attempt >= 3) throw e;
                        await closeWidgets(page);
                    }
                }
                r.tabs = await page.evaluate(() => [...document.querySelectorAll('.tab')].map((t) => t.getAttribute('aria-label')));
                await page.waitForSelector(`${EDITOR} .view-lines .view-line`);
                try {
                    await page.waitForSelector(`${EDITOR} .squiggly-warning`, { timeout: 90000 });
                } catch { /* reported below as no squiggle */ }
                r.warnings = await squiggles(page, 'squiggly-warning');
                r.errors = await squiggles(page, 'squiggly-error');
                if (r.warnings.length) {
                    const sq = r.warnings[0];
                    const { content } = await hoverAt(page, sq.line, sq.underlined, Math.floor(sq.underlined.length / 2), (c) => c.text.trim().length > 0, 15000);
                    r.warningHover = content && content.text;
                }
                await closeWidgets(page);
                await page.click(`${EDITOR} .view-lines`);
                r.before = await editorText(page);
                await page.keyboard.press('Control+End');
                await page.keyboard.type('xyz', { delay: 20 });
                await sleep(500);
                await closeWidgets(page);
                r.after = await editorText(page);
                r.screenshot = await shot(page, '12-bytecode.png');
                return r;
            });
        }
    } finally {
        results.seconds = (Date.now() - T0) / 1000;
        save();
        await context.close().catch(() => {});
        fs.rmSync(profile, { recursive: true, force: true });
    }
}

const overall = setTimeout(() => {
    results.error = `driver timed out after ${cfg.timeoutMs || 240000} ms`;
    save();
    process.exit(3);
}, cfg.timeoutMs || 240000);

main().then(() => { clearTimeout(overall); process.exit(0); }, (e) => {
    results.error = String(e && e.stack || e);
    save();
    log(results.error);
    clearTimeout(overall);
    process.exit(2);
});
