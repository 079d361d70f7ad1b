// The iteration-space and dependence-graph webviews of affine-lsp. No network, no libraries:
// the extension posts the server's JSON ({type: 'data', data}) and this script draws it as SVG.
// Messages back: ready, options (axes, fixed loops, parameters), reveal (op ranges), refresh.
// @ts-check
(function () {
    'use strict';
    // eslint-disable-next-line no-undef
    const vscode = acquireVsCodeApi();
    const SVG = 'http://www.w3.org/2000/svg';
    const KINDS = ['RAW', 'WAR', 'WAW'];
    const KIND_TEXT = { RAW: 'read after write (flow)', WAR: 'write after read (anti)', WAW: 'write after write (output)' };
    const mode = document.body.dataset.mode || 'iterationSpace';
    const app = /** @type {HTMLElement} */ (document.getElementById('app'));
    /** @type {{hiddenKinds: string[], hiddenMemrefs: string[]}} */
    const state = Object.assign({ hiddenKinds: [], hiddenMemrefs: [] }, vscode.getState() || {});
    /** @type {any} */
    let data = null;
    let focusId = '';

    function save() {
        vscode.setState(state);
    }

    /**
     * @param {string} tag
     * @param {Record<string, string | number>} [attrs]
     * @param {string} [text]
     */
    function el(tag, attrs, text) {
        const e = document.createElement(tag);
        for (const [k, v] of Object.entries(attrs || {})) {
            e.setAttribute(k, String(v));
        }
        if (text !== undefined) {
            e.textContent = text;
        }
        return e;
    }

    /**
     * @param {string} tag
     * @param {Record<string, string | number>} [attrs]
     * @param {string} [text]
     */
    function sv(tag, attrs, text) {
        const e = document.createElementNS(SVG, tag);
        for (const [k, v] of Object.entries(attrs || {})) {
            e.setAttribute(k, String(v));
        }
        if (text !== undefined) {
            e.textContent = text;
        }
        return e;
    }

    /** @param {any} r */
    function lineOf(r) {
        return r && r.start ? r.start.line + 1 : '?';
    }

    /** @param {any[]} ranges @param {number} [select] */
    function reveal(ranges, select) {
        vscode.postMessage({ type: 'reveal', ranges, select });
    }

    /** @param {string} text @param {boolean} [busy] */
    function setStatus(text, busy) {
        const s = document.getElementById('status');
        if (s) {
            s.textContent = text;
            s.setAttribute('aria-busy', busy ? 'true' : 'false');
        }
    }

    /** Show an error above the last picture, which stays (dimmed) until the next good answer. */
    /** @param {string} message */
    function showError(message) {
        let banner = document.getElementById('error');
        if (!banner) {
            banner = el('div', { id: 'error', class: 'error-banner', role: 'alert' });
            app.prepend(banner);
        }
        banner.textContent = message;
        const body = document.getElementById('body');
        if (body) {
            body.classList.add('stale');
        }
        setStatus(data ? 'Showing the last picture that could be drawn.' : '');
    }

    window.addEventListener('message', (event) => {
        const m = event.data;
        if (!m || typeof m !== 'object') {
            return;
        }
        if (m.type === 'busy') {
            setStatus('Updating…', true);
        } else if (m.type === 'error') {
            showError(m.message);
        } else if (m.type === 'data') {
            const d = m.data;
            if (!d || typeof d !== 'object') {
                showError('The language server gave no answer.');
            } else if (d.error) {
                showError(d.error);
            } else {
                data = d;
                render();
            }
        }
    });

    function render() {
        const active = document.activeElement;
        focusId = active && active.id ? active.id : '';
        app.replaceChildren();
        app.append(el('p', { id: 'status', role: 'status', 'aria-live': 'polite' }));
        const body = el('div', { id: 'body' });
        app.append(body);
        if (mode === 'dependenceGraph') {
            renderGraph(body);
        } else {
            renderSpace(body);
        }
        // the status line goes under the title
        const title = body.querySelector('h2');
        const status = document.getElementById('status');
        if (title && status) {
            title.after(status);
        }
        if (focusId) {
            const again = document.getElementById(focusId);
            if (again) {
                again.focus();
            }
        }
    }

    // ------------------------------------------------------------------ filters and legend

    /** @param {string[]} memrefs @param {() => void} redraw */
    function filters(memrefs, redraw) {
        const form = el('form', { class: 'controls filters', 'aria-label': 'Filters' });
        const kinds = el('fieldset');
        kinds.append(el('legend', {}, 'Kinds'));
        for (const k of KINDS) {
            const label = el('label', { class: `kind-${k}` });
            const box = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: `filter-kind-${k}` }));
            box.checked = !state.hiddenKinds.includes(k);
            box.addEventListener('change', () => {
                state.hiddenKinds = box.checked ? state.hiddenKinds.filter((x) => x !== k) : [...state.hiddenKinds, k];
                save();
                redraw();
            });
            label.append(box, ` ${k}`);
            kinds.append(label);
        }
        form.append(kinds);
        if (memrefs.length) {
            const mem = el('fieldset');
            mem.append(el('legend', {}, 'Memrefs'));
            memrefs.forEach((name, i) => {
                const label = el('label');
                const box = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', id: `filter-mem-${i}` }));
                box.checked = !state.hiddenMemrefs.includes(name);
                box.addEventListener('change', () => {
                    state.hiddenMemrefs = box.checked ? state.hiddenMemrefs.filter((x) => x !== name) : [...state.hiddenMemrefs, name];
                    save();
                    redraw();
                });
                label.append(box, ' ', el('code', {}, name));
                mem.append(label);
            });
            form.append(mem);
        }
        form.addEventListener('submit', (e) => e.preventDefault());
        return form;
    }

    /** @param {any} item */
    function visible(item) {
        return !state.hiddenKinds.includes(item.kind) && !state.hiddenMemrefs.includes(item.memref);
    }

    /** @param {Record<string, number>} counts @param {boolean} withBounds @param {number} [points] */
    function legend(counts, withBounds, points) {
        const ul = el('ul', { class: 'legend', 'aria-label': 'Legend' });
        if (points !== undefined) {
            const li = el('li');
            li.append(el('span', { class: 'swatch point' }), `iteration (${points} drawn)`);
            ul.append(li);
        }
        for (const k of KINDS) {
            const li = el('li', { class: `kind-${k}` });
            li.append(el('span', { class: 'swatch' }), `${k}: ${KIND_TEXT[/** @type {'RAW'} */ (k)]} (${counts[k] || 0})`);
            ul.append(li);
        }
        if (withBounds) {
            const b = el('li');
            b.append(el('span', { class: 'swatch bound' }), 'loop bound');
            const c = el('li');
            c.append(el('span', { class: 'swatch if' }), 'affine.if condition');
            ul.append(b, c);
        }
        return ul;
    }

    /** @param {SVGElement} svg */
    function markers(svg) {
        const defs = sv('defs');
        for (const k of KINDS) {
            const m = sv('marker', { id: `head-${k}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerUnits: 'userSpaceOnUse', markerWidth: 9, markerHeight: 9, orient: 'auto-start-reverse' });
            m.append(sv('path', { d: 'M0,0 L10,5 L0,10 z', class: `kind-${k}` }));
            defs.append(m);
        }
        svg.append(defs);
    }

    // ------------------------------------------------------------------ iteration space

    /** @param {HTMLElement} body */
    function renderSpace(body) {
        const d = data;
        const loop = d.loop || {};
        body.append(el('h2', {}, `Iteration space of ${loop.op} ${loop.iv} (line ${lineOf(loop.range)})`));
        body.append(controls(d));
        const memrefs = [...new Set((d.accesses || []).map((/** @type {any} */ a) => a.memref))].filter(Boolean).sort();
        const layout = el('div', { class: 'layout' });
        const side = el('div', { class: 'side' });
        const info = el('div', { id: 'info', role: 'region', 'aria-live': 'polite', 'aria-label': 'Details' }, 'Hover a point for its iteration and accesses; click an arrow (or press Enter on it) for its source and sink.');
        body.append(filters(memrefs, () => render()), layout);
        const arrows = (d.arrows || []).filter(visible);
        const counts = { RAW: 0, WAR: 0, WAW: 0 };
        for (const a of arrows) {
            counts[/** @type {'RAW'} */ (a.kind)] = (counts[/** @type {'RAW'} */ (a.kind)] || 0) + 1;
        }
        layout.append(plot(d, arrows, info), side);
        side.append(legend(counts, true, d.points.length), info, depTable(d));
        const notes = [...(d.notes || [])];
        if (d.sampled) {
            notes.unshift(`Sampled: ${d.points.length} points drawn${d.numPoints ? ` of ${d.numPoints}` : ''}.`);
        }
        setStatus(notes.join(' ') || `${d.points.length} points, ${arrows.length} arrows.`);
    }

    /** @param {any} d */
    function controls(d) {
        const form = el('form', { class: 'controls', 'aria-label': 'View options' });
        form.addEventListener('submit', (e) => e.preventDefault());
        const names = d.ivs.map((/** @type {any} */ v) => v.name);
        const axes = el('fieldset');
        axes.append(el('legend', {}, 'Axes'));
        /** @param {string} id @param {string} label @param {string} value @param {boolean} allowNone */
        const select = (id, label, value, allowNone) => {
            const l = el('label', { for: id }, `${label} `);
            const s = /** @type {HTMLSelectElement} */ (el('select', { id }));
            if (allowNone) {
                s.append(el('option', { value: '' }, '(none)'));
            }
            for (const n of names) {
                s.append(el('option', { value: n }, n));
            }
            s.value = value || '';
            s.addEventListener('change', send);
            axes.append(l, s);
            return s;
        };
        const xs = select('dim-x', 'horizontal', d.axes.x, false);
        const ys = select('dim-y', 'vertical', d.axes.y || '', names.length === 1);
        form.append(axes);
        /** @type {Record<string, HTMLInputElement>} */
        const fixedInputs = {};
        const others = Object.keys(d.fixed || {});
        if (others.length) {
            const fs = el('fieldset');
            fs.append(el('legend', {}, 'Other loops (empty: projected)'));
            others.forEach((n, i) => {
                const id = `fixed-${i}`;
                const input = /** @type {HTMLInputElement} */ (el('input', { type: 'number', id, placeholder: 'projected', step: 1 }));
                input.value = d.fixed[n] === null || d.fixed[n] === undefined ? '' : String(d.fixed[n]);
                input.addEventListener('change', send);
                fixedInputs[n] = input;
                fs.append(el('label', { for: id }, `${n} =`), input);
            });
            form.append(fs);
        }
        /** @type {Record<string, HTMLInputElement>} */
        const paramInputs = {};
        if ((d.params || []).length) {
            const fs = el('fieldset');
            fs.append(el('legend', {}, 'Symbols'));
            d.params.forEach((/** @type {any} */ p, /** @type {number} */ i) => {
                const id = `param-${i}`;
                const input = /** @type {HTMLInputElement} */ (el('input', { type: 'number', id, step: 1, value: p.value, title: p.label }));
                input.addEventListener('change', send);
                paramInputs[p.name] = input;
                fs.append(el('label', { for: id }, `${p.label} =`), input);
            });
            form.append(fs);
        }
        const refresh = el('button', { type: 'button', id: 'refresh' }, 'Redraw');
        refresh.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
        form.append(refresh);

        function send() {
            const dims = [xs.value];
            if (ys.value && ys.value !== xs.value) {
                dims.push(ys.value);
            } else if (ys.value === xs.value) {
                const other = names.find((/** @type {string} */ n) => n !== xs.value);
                if (other) {
                    dims.push(other);
                }
            }
            /** @type {Record<string, number | null>} */
            const fixed = {};
            for (const [n, input] of Object.entries(fixedInputs)) {
                fixed[n] = input.value === '' || !Number.isFinite(Number(input.value)) ? null : Math.trunc(Number(input.value));
            }
            /** @type {Record<string, number>} */
            const params = {};
            for (const [n, input] of Object.entries(paramInputs)) {
                if (input.value !== '' && Number.isFinite(Number(input.value))) {
                    params[n] = Math.trunc(Number(input.value));
                }
            }
            vscode.postMessage({ type: 'options', dims, fixed, params });
        }
        return form;
    }

    /** @param {any} d @param {any[]} arrows @param {HTMLElement} info */
    function plot(d, arrows, info) {
        const pts = d.points;
        const xs = pts.map((/** @type {number[]} */ p) => p[0]).concat(arrows.flatMap((a) => [a.from[0], a.to[0]]));
        const ys = pts.map((/** @type {number[]} */ p) => p[1]).concat(arrows.flatMap((a) => [a.from[1], a.to[1]]));
        const x0 = xs.length ? Math.min(...xs) : 0;
        const x1 = xs.length ? Math.max(...xs) : 1;
        const y0 = ys.length ? Math.min(...ys) : 0;
        const y1 = ys.length ? Math.max(...ys) : 1;
        const span = Math.max(x1 - x0, y1 - y0, 1);
        const cell = Math.max(6, Math.min(44, 520 / span));
        const left = 56;
        const top = 12;
        const pw = (x1 - x0 + 1) * cell;
        const ph = (y1 - y0 + 1) * cell;
        const width = left + pw + 16;
        const height = top + ph + 48;
        const sx = (/** @type {number} */ x) => left + (x - x0 + 0.5) * cell;
        const sy = (/** @type {number} */ y) => top + ph - (y - y0 + 0.5) * cell;
        const xn = d.axes.x;
        const yn = d.axes.y || '';
        const svg = /** @type {SVGSVGElement} */ (sv('svg', { class: 'plot', id: 'plot', width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': `Iteration space: ${xn} horizontal${yn ? `, ${yn} vertical` : ''}` }));
        svg.dataset.points = String(pts.length);
        svg.dataset.arrows = String(arrows.length);
        markers(svg);
        const axisY = top + ph + 6;
        svg.append(sv('line', { class: 'axis', x1: left - 6, y1: axisY, x2: left + pw, y2: axisY }));
        svg.append(sv('line', { class: 'axis', x1: left - 6, y1: top, x2: left - 6, y2: axisY }));
        const step = Math.max(1, Math.ceil(24 / cell));
        for (let x = x0; x <= x1; x += step) {
            svg.append(sv('text', { x: sx(x), y: axisY + 13, 'text-anchor': 'middle' }, String(x)));
        }
        if (yn) {
            for (let y = y0; y <= y1; y += step) {
                svg.append(sv('text', { x: left - 10, y: sy(y) + 4, 'text-anchor': 'end' }, String(y)));
            }
        }
        svg.append(sv('text', { class: 'axis-label', x: left + pw / 2, y: axisY + 30, 'text-anchor': 'middle' }, xn));
        if (yn) {
            svg.append(sv('text', { class: 'axis-label', x: 14, y: top + ph / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${top + ph / 2})` }, yn));
        }
        // bound lines, clipped to the plot
        const box = [x0 - 0.5, x1 + 0.5, y0 - 0.5, y1 + 0.5];
        for (const c of d.constraints || []) {
            const seg = clip(c.a, c.b, c.c, box);
            if (!seg) {
                continue;
            }
            const line = sv('line', { class: c.kind === 'if' ? 'constraint if' : 'constraint', x1: sx(seg[0][0]), y1: sy(seg[0][1]), x2: sx(seg[1][0]), y2: sy(seg[1][1]) });
            line.append(sv('title', {}, c.kind === 'if' ? `${c.text} (affine.if, line ${lineOf(c.range)})` : c.text));
            svg.append(line);
        }
        // points
        const r = Math.max(1.5, Math.min(5, cell / 5));
        const focusable = pts.length <= 400;
        const g = sv('g', { class: 'points' });
        pts.forEach((/** @type {number[]} */ p, /** @type {number} */ i) => {
            const c = sv('circle', { class: 'point', cx: sx(p[0]), cy: sy(p[1]), r, 'data-i': i });
            if (focusable) {
                c.setAttribute('tabindex', '0');
                c.setAttribute('id', `pt-${p[0]}-${p[1]}`);
                c.setAttribute('aria-label', pointText(d, i).split('\n')[0]);
            }
            g.append(c);
        });
        svg.append(g);
        const showPoint = (/** @type {Element} */ t) => {
            const i = Number(t.getAttribute('data-i'));
            svg.querySelectorAll('.point.hot').forEach((e) => e.classList.remove('hot'));
            t.classList.add('hot');
            info.textContent = pointText(d, i);
        };
        g.addEventListener('mouseover', (e) => {
            const t = /** @type {Element} */ (e.target);
            if (t.classList.contains('point')) {
                showPoint(t);
            }
        });
        g.addEventListener('focusin', (e) => showPoint(/** @type {Element} */ (e.target)));
        // arrows
        const ga = sv('g', { class: 'arrows' });
        const arrowFocusable = arrows.length <= 600;
        arrows.forEach((a, i) => {
            const fx = sx(a.from[0]);
            const fy = sy(a.from[1]);
            const tx = sx(a.to[0]);
            const ty = sy(a.to[1]);
            let path;
            if (fx === tx && fy === ty) {
                path = `M${fx},${fy - r} c${cell * 0.5},${-cell * 0.6} ${cell * 0.6},${cell * 0.2} ${r + 1},${r}`;
            } else {
                const dx = tx - fx;
                const dy = ty - fy;
                const len = Math.hypot(dx, dy);
                const ux = dx / len;
                const uy = dy / len;
                const ax = fx + ux * r;
                const ay = fy + uy * r;
                const bx = tx - ux * (r + 1);
                const by = ty - uy * (r + 1);
                const bend = Math.min(0.15 * len, cell * 0.4);
                path = `M${ax},${ay} Q${(ax + bx) / 2 - uy * bend},${(ay + by) / 2 + ux * bend} ${bx},${by}`;
            }
            const dep = d.dependences[a.dep];
            const label = `${a.kind} on ${a.memref}: (${a.from.join(', ')}) → (${a.to.join(', ')}), ${a.carriedBy ? `carried by ${a.carriedBy}` : 'loop-independent'}`;
            const p = sv('path', { class: `arrow kind-${a.kind}`, d: path, 'marker-end': `url(#head-${a.kind})`, 'data-i': i, 'data-kind': a.kind });
            p.append(sv('title', {}, label));
            if (arrowFocusable) {
                p.setAttribute('tabindex', '0');
                p.setAttribute('role', 'button');
                p.setAttribute('aria-label', label);
                p.setAttribute('id', `arrow-${i}`);
            }
            const open = () => {
                svg.querySelectorAll('.arrow.hot').forEach((e) => e.classList.remove('hot'));
                p.classList.add('hot');
                showDependence(d, dep, info, label);
                const src = d.accesses[dep.source];
                const snk = d.accesses[dep.sink];
                reveal([src.range, snk.range]);
            };
            p.addEventListener('click', open);
            p.addEventListener('keydown', (e) => {
                if (/** @type {KeyboardEvent} */ (e).key === 'Enter' || /** @type {KeyboardEvent} */ (e).key === ' ') {
                    e.preventDefault();
                    open();
                }
            });
            ga.append(p);
        });
        svg.append(ga);
        return svg;
    }

    /** @param {any} d @param {number} i */
    function pointText(d, i) {
        const p = d.points[i];
        const names = [d.axes.x].concat(d.axes.y ? [d.axes.y] : []);
        const vals = d.axes.y ? p : [p[0]];
        const fixed = Object.entries(d.fixed || {}).map(([n, v]) => (v === null ? `${n} projected` : `${n} = ${v}`));
        const head = `(${names.join(', ')}) = (${vals.join(', ')})${fixed.length ? `, ${fixed.join(', ')}` : ''}`;
        const accs = (d.pointAccesses[i] || []).map((/** @type {number} */ k) => {
            const a = d.accesses[k];
            return `  ${a.write ? 'writes' : 'reads'} ${a.memref}: ${a.op} (line ${lineOf(a.range)})`;
        });
        return [head, ...(accs.length ? accs : ['  no access'])].join('\n');
    }

    /** @param {any} d @param {any} dep @param {HTMLElement} info @param {string} [label] */
    function showDependence(d, dep, info, label) {
        const src = d.accesses[dep.source];
        const snk = d.accesses[dep.sink];
        info.replaceChildren();
        if (label) {
            info.append(el('div', {}, label));
        }
        info.append(
            el('div', { class: `kind-${dep.kind}` }, `${dep.kind} on ${dep.memref}, depth ${dep.depth}, ${dep.carriedBy ? `carried by ${dep.carriedBy}` : 'loop-independent'}, distance ${dep.distance}${dep.status !== 'dependence' ? ' (may)' : ''}`),
            el('div', {}, `source: ${src.op} (line ${lineOf(src.range)})`),
            el('div', {}, `sink: ${snk.op} (line ${lineOf(snk.range)})`),
        );
        const a = el('button', { type: 'button', id: 'reveal-source' }, 'Reveal source');
        a.addEventListener('click', () => reveal([src.range], 0));
        const b = el('button', { type: 'button', id: 'reveal-sink' }, 'Reveal sink');
        b.addEventListener('click', () => reveal([snk.range], 0));
        info.append(a, ' ', b);
    }

    /** @param {any} d */
    function depTable(d) {
        const wrap = el('div');
        const deps = (d.dependences || []).filter(visible);
        wrap.append(el('h3', {}, `Dependences (${deps.length})`));
        if (!deps.length) {
            wrap.append(el('p', {}, 'None in this nest.'));
            return wrap;
        }
        const t = el('table', { class: 'deps' });
        const head = el('tr');
        for (const h of ['kind', 'memref', 'source → sink', 'distance', 'carried by', 'arrows']) {
            head.append(el('th', {}, h));
        }
        t.append(head);
        for (const dep of deps) {
            const src = d.accesses[dep.source];
            const snk = d.accesses[dep.sink];
            const tr = el('tr', { tabindex: 0, class: `dep kind-${dep.kind}`, title: 'Enter: reveal the source and sink ops' });
            for (const v of [dep.kind, dep.memref, `L${lineOf(src.range)} → L${lineOf(snk.range)}`, dep.distance, dep.carriedBy || '—', dep.drawn === false ? 'not drawn' : String(dep.arrows)]) {
                tr.append(el('td', {}, v));
            }
            const open = () => {
                const info = document.getElementById('info');
                if (info) {
                    showDependence(d, dep, info);
                }
                reveal([src.range, snk.range]);
            };
            tr.addEventListener('click', open);
            tr.addEventListener('keydown', (e) => {
                if (/** @type {KeyboardEvent} */ (e).key === 'Enter') {
                    open();
                }
            });
            t.append(tr);
        }
        wrap.append(t);
        return wrap;
    }

    /** The segment of a*x + b*y + c = 0 inside box [x0, x1, y0, y1]. @param {number} a @param {number} b @param {number} c @param {number[]} box */
    function clip(a, b, c, box) {
        const [x0, x1, y0, y1] = box;
        /** @type {number[][]} */
        const pts = [];
        if (b !== 0) {
            for (const x of [x0, x1]) {
                const y = -(a * x + c) / b;
                if (y >= y0 - 1e-9 && y <= y1 + 1e-9) {
                    pts.push([x, y]);
                }
            }
        }
        if (a !== 0) {
            for (const y of [y0, y1]) {
                const x = -(b * y + c) / a;
                if (x >= x0 - 1e-9 && x <= x1 + 1e-9) {
                    pts.push([x, y]);
                }
            }
        }
        pts.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
        if (pts.length < 2 || (pts[0][0] === pts[pts.length - 1][0] && pts[0][1] === pts[pts.length - 1][1])) {
            return null;
        }
        return [pts[0], pts[pts.length - 1]];
    }

    // ------------------------------------------------------------------ dependence graph

    /** @param {HTMLElement} body */
    function renderGraph(body) {
        const d = data;
        body.append(el('h2', {}, `Dependences of ${d.function}`));
        const memrefs = [...new Set(d.nodes.map((/** @type {any} */ n) => n.memref))].filter(Boolean).sort();
        body.append(filters(/** @type {string[]} */ (memrefs), () => render()));
        const edges = d.edges.filter(visible);
        const counts = { RAW: 0, WAR: 0, WAW: 0 };
        for (const e of edges) {
            counts[/** @type {'RAW'} */ (e.kind)] += 1;
        }
        const layout = el('div', { class: 'layout' });
        const side = el('div', { class: 'side' });
        const info = el('div', { id: 'info', role: 'region', 'aria-live': 'polite', 'aria-label': 'Details' }, 'Click a node or an edge (or press Enter on it) to reveal it in the editor.');
        side.append(legend(counts, false), info);
        const order = d.nodes.map((/** @type {any} */ _n, /** @type {number} */ i) => i);
        const rowH = 34;
        const nodeW = 250;
        const left = 16;
        const top = 24;
        const rowOf = new Map();
        let y = top;
        /** @type {Array<{nest: number, y0: number, y1: number}>} */
        const nestBoxes = [];
        let prevNest = -2;
        for (const i of order) {
            const n = d.nodes[i];
            const nest = n.nest === null ? -1 : n.nest;
            if (nest !== prevNest) {
                y += 14;
                if (nest >= 0) {
                    nestBoxes.push({ nest, y0: y - 10, y1: y });
                }
                prevNest = nest;
            }
            rowOf.set(i, y);
            if (nest >= 0) {
                nestBoxes[nestBoxes.length - 1].y1 = y + rowH - 6;
            }
            y += rowH;
        }
        const maxSpan = edges.reduce((m, /** @type {any} */ e) => Math.max(m, Math.abs(rowOf.get(e.source) - rowOf.get(e.sink))), 0);
        const width = left + nodeW + 60 + maxSpan * 0.6 + 220;
        const height = y + 20;
        const svg = /** @type {SVGSVGElement} */ (sv('svg', { class: 'plot graph', id: 'graph', width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': 'Dependence graph' }));
        svg.dataset.nodes = String(d.nodes.length);
        svg.dataset.edges = String(edges.length);
        markers(svg);
        for (const b of nestBoxes) {
            const nest = d.nests[b.nest];
            const g = sv('g', { class: 'nest' });
            g.append(sv('rect', { x: left - 8, y: b.y0 - 8, width: nodeW + 16, height: b.y1 - b.y0 + 14, rx: 6 }));
            g.append(sv('text', { x: left - 2, y: b.y0 + 6 }, `${nest.op} ${nest.iv} (line ${lineOf(nest.range)})`));
            svg.append(g);
        }
        for (const i of order) {
            const n = d.nodes[i];
            const ny = rowOf.get(i);
            const g = sv('g', { class: `node ${n.write ? 'write' : 'read'}`, tabindex: 0, role: 'button', id: `node-${i}`, 'aria-label': `${n.op} ${n.memref}, line ${lineOf(n.range)}` });
            g.append(sv('rect', { x: left, y: ny + 4, width: nodeW, height: rowH - 12, rx: 3 }));
            g.append(sv('text', { x: left + 8, y: ny + rowH / 2 + 2 }, `${n.op} ${n.memref ?? ''}  (line ${lineOf(n.range)})`));
            const open = () => {
                info.textContent = `${n.op} on ${n.memref}, line ${lineOf(n.range)}; loops: ${n.ivs.join(', ') || 'none'}`;
                reveal([n.range]);
            };
            g.addEventListener('click', open);
            g.addEventListener('keydown', (e) => {
                if (/** @type {KeyboardEvent} */ (e).key === 'Enter' || /** @type {KeyboardEvent} */ (e).key === ' ') {
                    e.preventDefault();
                    open();
                }
            });
            svg.append(g);
        }
        const x = left + nodeW;
        edges.forEach((/** @type {any} */ e, /** @type {number} */ k) => {
            const ys = rowOf.get(e.source) + rowH / 2 - 2 - 4;
            const yt = rowOf.get(e.sink) + rowH / 2 - 2 + 4;
            const bulge = 30 + Math.abs(yt - ys) * 0.6 + (k % 3) * 8;
            const path = e.source === e.sink ? `M${x},${ys} C${x + 40},${ys - 16} ${x + 40},${yt + 16} ${x + 2},${yt}` : `M${x},${ys} C${x + bulge},${ys} ${x + bulge},${yt} ${x + 2},${yt}`;
            const where = e.carriedBy ? `carried by ${e.carriedBy}` : 'loop-independent';
            const label = `${e.kind} ${e.memref} d=${e.depth} ${e.distance} (${where})${e.status !== 'dependence' ? ' may' : ''}`;
            const p = sv('path', { class: `arrow kind-${e.kind}`, d: path, 'marker-end': `url(#head-${e.kind})`, tabindex: 0, role: 'button', 'aria-label': label, id: `edge-${k}` });
            p.append(sv('title', {}, label));
            const tx = x + (e.source === e.sink ? 40 : bulge * 0.75) + 4;
            const text = sv('text', { class: `edge-label kind-${e.kind}`, x: tx, y: (ys + yt) / 2 + 3 }, `${e.kind} ${e.distance}`);
            const open = () => {
                const src = d.nodes[e.source];
                const snk = d.nodes[e.sink];
                info.textContent = `${label}\nsource: ${src.op} (line ${lineOf(src.range)})\nsink: ${snk.op} (line ${lineOf(snk.range)})`;
                reveal([src.range, snk.range]);
            };
            p.addEventListener('click', open);
            p.addEventListener('keydown', (ev) => {
                if (/** @type {KeyboardEvent} */ (ev).key === 'Enter' || /** @type {KeyboardEvent} */ (ev).key === ' ') {
                    ev.preventDefault();
                    open();
                }
            });
            svg.append(p, text);
        });
        layout.append(svg, side);
        body.append(layout);
        setStatus(`${d.nodes.length} accesses, ${edges.length} dependences.${(d.notes || []).length ? ' ' + d.notes.join(' ') : ''}`);
    }

    vscode.postMessage({ type: 'ready' });
})();
