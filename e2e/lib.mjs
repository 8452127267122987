// Shared helpers for the browser tests: launching Debian's Chromium through playwright-core (no
// downloaded browsers), the two viewports, waiting for the page to settle, and screenshots.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../web/i18n/en.js';
import pl from '../web/i18n/pl.js';
import ru from '../web/i18n/ru.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const OUT_DIR = path.resolve(here, '../out/e2e');
export const BASE = process.env.MNK_URL || '';

/** The page's languages: each one's dictionary and the browser locale that chooses it. */
export const LANGUAGES = [
  { lang: 'en', locale: 'en-US', dict: en },
  { lang: 'pl', locale: 'pl-PL', dict: pl },
  { lang: 'ru', locale: 'ru-RU', dict: ru },
];

/** A text of the page in a language's dictionary, with its {placeholders} filled as i18n.js does. */
export function say(dict, key, params = {}) {
  const s = dict[key] ?? en[key];
  assert.ok(s !== undefined, `no text ${key}`);
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A RegExp matching `text` literally. */
export const literally = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

export const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
];

/** A taller phone (390×844), for what must fit on a phone's first screen. */
export const TALL_PHONE = { name: 'tall phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export function chromiumMissingMessage() {
  return `Chromium is missing at ${CHROMIUM}. The browser tests need Debian's Chromium: run \`apt-get install chromium\` (as root), then run the tests again.`;
}

/** Launches Chromium; fails (never skips) when it is not installed. */
export async function launch() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(chromiumMissingMessage());
  if (!BASE) throw new Error('MNK_URL is not set: run the tests with `npm test`, which starts `mnk serve`');
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh context and page at `path` (relative to the server), English unless `locale` says
 * otherwise, on the server under test unless `base` names another. `thinking: 'server'` makes
 * the page think on the server (the player's setting) rather than on the device, for tests of
 * how the page meets the server's failures; `settings`, other settings the browser keeps.
 * `setup(page)` runs before the page is opened (to route its requests); `routed: true` for a
 * test that routes the page's requests (no service worker then). Page errors are collected;
 * `done()` asserts there were none and closes the context.
 */
export async function open(
  browser,
  vp,
  urlPath = '/',
  { colorScheme = 'light', locale = 'en-US', base = BASE, thinking = null, settings = null, setup = null, routed = false } = {},
) {
  const context = await browser.newContext({
    // A test that answers the page's requests itself (`page.route`) blocks the service worker:
    // Playwright's routes do not see what a service worker answers. sw.js leaves /api/ to the
    // network, but a test that routes should not depend on that.
    serviceWorkers: routed ? 'block' : 'allow',
    viewport: vp.viewport,
    deviceScaleFactor: vp.deviceScaleFactor,
    isMobile: vp.isMobile || false,
    hasTouch: vp.hasTouch || false,
    colorScheme,
    locale,
  });
  // Settings the browser keeps (`settings` as the page saved them), set before each page loads.
  const kept = { ...(settings || {}), ...(thinking ? { thinking } : {}) };
  if (Object.keys(kept).length) {
    await context.addInitScript((extra) => {
      const saved = JSON.parse(localStorage.getItem('mnk.settings') || '{}');
      localStorage.setItem('mnk.settings', JSON.stringify({ ...saved, ...extra }));
    }, kept);
  }
  const page = await context.newPage();
  const errors = [];
  // Every console error, the browser's own note of a failed request included (`errors` leaves
  // those out: a test of the server's failures causes them on purpose).
  page.consoleErrors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') page.consoleErrors.push(m.text());
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  if (setup) await setup(page);
  await page.goto(base + urlPath);
  await idle(page);
  page.done = async (allowErrors = false) => {
    if (!allowErrors) assert.deepEqual(errors, [], 'the page logged errors');
    await context.close();
  };
  return page;
}

/** Waits until no game request is in flight. */
export async function idle(page, timeout = 30000) {
  await page.waitForSelector('#board[data-busy="false"][data-ply]', { timeout });
}

export async function board(page) {
  return page.$eval('#board', (el) => ({ ...el.dataset }));
}

/** Clicks (or taps on touch viewports) a cell through the grid mirror and waits for the answer. */
export async function play(page, cell, vp) {
  const before = Number((await board(page)).ply);
  const sel = `#grid [data-cell="${cell}"]`;
  if (vp && vp.hasTouch) await page.tap(sel);
  else await page.click(sel);
  await page.waitForFunction((n) => Number(document.getElementById('board').dataset.ply) > n, before, { timeout: 30000 });
  await idle(page);
}

export async function shot(page, name) {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(OUT_DIR, `${name}.png`) });
}

/** Reads the stones from the grid mirror's labels: {cell: 'X' | 'O'}. */
export async function stones(page) {
  return page.$$eval('#grid [data-stone]:not([data-stone=""])', (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.cell, e.dataset.stone])),
  );
}

/**
 * Starts `mnk serve` ($MNK_BIN) on a free port with `args` besides the address (tests that need a
 * server of their own: other settings, a shared database). Answers its base URL and `stop()`.
 */
export function serve(args = ['--database', 'memory']) {
  const bin = process.env.MNK_BIN;
  if (!bin) throw new Error('MNK_BIN is not set: run the tests with `npm test`, which sets it');
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('mnk serve did not start within 30 s')), 30000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`mnk serve exited with code ${code}`)));
    readline.createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const url = /http:\/\/[^/\s]+/.exec(line);
      if (url) resolve({ base: url[0], child, stop });
      else reject(new Error(`no address in ${line}`));
    });
  });
}

/**
 * A room's two clock faces (above the board), by side: whether each runs and is low on time,
 * the time it shows and its spoken label.
 */
export function clockFaces(page) {
  return page.$$eval('#room-clocks .clock', (els) =>
    Object.fromEntries(
      els.map((el) => [
        el.dataset.side,
        { running: el.dataset.running, low: el.dataset.low, time: el.querySelector('.clock-time').textContent, label: el.getAttribute('aria-label') },
      ]),
    ),
  );
}

/** `POST /api/PATH` with a JSON body on `base`: the reply's JSON (refusals included). */
export async function api(path, body, base = BASE) {
  const res = await fetch(`${base}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}
