// The engine on the device (WebAssembly in a Web Worker): with every engine endpoint of the server
// refused, the page still plays every bot, hints, analyses, solves, explores and reviews, on the
// desktop and the phone; a game against level 6 sends the server no engine request; after one
// visit the page works offline and rooms say they need the network; the worker's bench equals
// the native one and its solver answers exactly as the server's; stopping a search is quick.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { BASE, board, idle, launch, open, play, shot, VIEWPORTS } from '../lib.mjs';

/** The server's engine endpoints: what the device must answer in their place. */
const ENGINE_PATHS = /\/api\/(state|move|hint|opening|weights|solve|tree|analyse|import|export|presets|bots)\b/;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Waits until the page's engine runs on the device. */
async function deviceReady(page) {
  await page.waitForFunction(() => globalThis.mnkEngine && mnkEngine.engine.state === 'ready', null, { timeout: 30000 });
}

/** Opens `path` on the page and waits for its engine and its game; `tried` then counts from zero. */
async function gotoReady(page, path, tried) {
  await page.goto(`${BASE}${path}`);
  await deviceReady(page);
  await idle(page);
  tried.reset();
}

/**
 * Refuses every engine request to the server from now on; answers how many were tried. Requests
 * made while the module loads go to the server, are refused, and are answered by the device
 * once it is ready; `tried.reset()` after `deviceReady` counts only what follows.
 */
async function refuseEngineRequests(page) {
  const tried = {
    count: 0,
    paths: [],
    reset() {
      this.count = 0;
      this.paths = [];
    },
  };
  await page.route(ENGINE_PATHS, (route) => {
    tried.count += 1;
    tried.paths.push(new URL(route.request().url()).pathname);
    return route.abort('connectionrefused');
  });
  return tried;
}

/** Plays the first free cell of `order` on the human's turns until the game ends. */
async function playOut(page, order, vp) {
  for (let guard = 0; guard < 120; guard++) {
    const b = await board(page);
    if (b.status !== 'ongoing') return b;
    const taken = await page.$$eval('#grid [data-stone]:not([data-stone=""])', (els) => els.map((e) => e.dataset.cell));
    const cell = order.find((c) => !taken.includes(c));
    assert.ok(cell, `no free cell left in the order for ${JSON.stringify(b)}`);
    await play(page, cell, vp);
  }
  return board(page);
}

/** Every cell of a W×H board, column by column from a1. */
function cells(width, height) {
  const out = [];
  for (let x = 0; x < width; x++) for (let y = 1; y <= height; y++) out.push(`${String.fromCharCode(97 + x)}${y}`);
  return out;
}

for (const vp of VIEWPORTS) {
  describe(`the engine on the device (${vp.name})`, () => {
    test('every bot plays 3×3 with the server refusing engine requests', async () => {
      const listed = await (await fetch(`${BASE}/api/bots?rules=3x3x3`)).json();
      const opponents = [...listed.bots.filter((b) => b.plays).map((b) => b.id), ...listed.levels.filter((l) => l.plays).map((l) => `level${l.level}`)];
      assert.ok(opponents.length >= 6, opponents.join(' '));
      // One page for all of them: the refusal holds across its visits, and each visit waits
      // for the engine on the device again.
      const page = await open(browser, vp, '/?r=3x3x3&o=human');
      await deviceReady(page);
      const tried = await refuseEngineRequests(page);
      for (const opponent of opponents) {
        await gotoReady(page, `/?r=3x3x3&o=${opponent}&s=X`, tried);
        const final = await playOut(page, ['b2', 'a1', 'c3', 'a3', 'c1', 'b1', 'a2', 'c2', 'b3'], vp);
        assert.notEqual(final.status, 'ongoing', opponent);
        assert.equal(tried.count, 0, `${opponent}: the server was asked ${tried.paths.join(' ')}`);
      }
      await page.done();
    });

    test('a game against level 6 on 15×15, a hint and analysis make no engine request to the server', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=human');
      await deviceReady(page);
      const tried = await refuseEngineRequests(page);
      const asked = [];
      await page.goto(`${BASE}/?r=15x15x5&o=level6&s=X`);
      await deviceReady(page);
      await idle(page);
      tried.reset();
      page.on('request', (r) => ENGINE_PATHS.test(r.url()) && asked.push(r.url()));
      // A weak line of play: level 6 wins it.
      const final = await playOut(page, cells(15, 15).filter((c) => /^[a-c]/.test(c)), vp);
      assert.equal(final.status, 'win', JSON.stringify(final));
      assert.equal(final.winner, 'O', JSON.stringify(final));
      await shot(page, `${vp.name}-device-level6`);

      assert.deepEqual(asked, [], 'no engine request of the game reached the server');
      await page.goto(`${BASE}/?r=15x15x5&m=h8.i9.h10&o=human`);
      await deviceReady(page);
      await idle(page);
      tried.reset();
      asked.length = 0;
      await page.click('#btn-hint');
      await page.waitForFunction(() => document.getElementById('board').dataset.hint !== '', null, { timeout: 30000 });
      await page.keyboard.press('a');
      await page.waitForFunction(() => Number(document.getElementById('board').dataset.analysisDepth) >= 4, null, { timeout: 30000 });
      const b = await board(page);
      assert.ok(b.analysisLines.split(' ').length >= 1, b.analysisLines);
      assert.match(await page.textContent('#analysis-lines li'), /^(X \d+%|[XO] wins in \d+ pl(y|ies))/);
      await page.keyboard.press('a');
      assert.equal(tried.count, 0, `the server was asked ${tried.paths.join(' ')}`);
      assert.deepEqual(asked, [], 'no engine request reached the server');
      await page.done();
    });

    test('exact mode on 4×4×3 and 6×6×4, the explorer on 3×3 and a review, all on the device', async () => {
      const page = await open(browser, vp, '/?r=4x4x3&o=human');
      await deviceReady(page);
      const tried = await refuseEngineRequests(page);
      await gotoReady(page, '/?r=4x4x3&o=human', tried);
      const exactOn = async () => {
        await page.keyboard.press('e');
        await page.waitForFunction(() => document.getElementById('legend').dataset.state === 'solved', null, { timeout: 60000 });
      };
      await exactOn();
      assert.equal((await board(page)).exactCells, '16');
      assert.match(await page.textContent('#legend'), /The position: X wins in \d+ pl(y|ies)\./);

      await gotoReady(page, '/?r=6x6x4&o=human', tried);
      await exactOn();
      assert.equal((await board(page)).exactCells, '36');
      // 6×6×4 is a first player's win (docs/solver-table.md).
      assert.match(await page.textContent('#legend'), /The position: X wins in 11 plies\./);

      await gotoReady(page, '/?r=3x3x3&o=human', tried);
      await page.keyboard.press('g');
      await page.waitForFunction(() => document.querySelectorAll('#explorer-tree [role="treeitem"]').length >= 9, null, { timeout: 30000 });
      const top = await page.$$eval('#explorer-tree > [role="treeitem"] > ul > [role="treeitem"]', (items) => items.length);
      assert.equal(top, 9);

      await gotoReady(page, '/?r=3x3x3&m=a1.a2.b2.c3.b1.c1.b3&o=human', tried);
      await page.keyboard.press('r');
      await page.waitForSelector('#review[data-done="true"]', { timeout: 60000 });
      const marks = await page.$$eval('#moves li', (lis) => lis.map((li) => li.querySelector('.mark') && li.querySelector('.mark').dataset.mark));
      assert.equal(marks.length, 7);
      assert.ok(marks.every(Boolean), marks.join(' '));
      assert.equal(tried.count, 0, `the server was asked ${tried.paths.join(' ')}`);
      await page.done();
    });

    test('offline after one visit: plays, analyses and solves; rooms say they need the network', async () => {
      const page = await open(browser, vp, '/?r=15x15x5&o=level2&s=X');
      await deviceReady(page);
      // The service worker has kept this release: it is active once its files are cached.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      const context = page.context();
      await context.setOffline(true);
      await page.reload();
      await deviceReady(page);
      await idle(page);
      assert.equal(await page.textContent('#engine-where'), 'thinks on this device');
      await play(page, 'h8', vp);
      assert.equal((await board(page)).ply, '2', 'the computer answered offline');
      await page.keyboard.press('a');
      await page.waitForFunction(() => Number(document.getElementById('board').dataset.analysisDepth) >= 3, null, { timeout: 30000 });
      await page.keyboard.press('a');
      await page.goto(`${BASE}/?r=4x3x3&o=human`);
      await deviceReady(page);
      await idle(page);
      await page.keyboard.press('e');
      await page.waitForFunction(() => document.getElementById('legend').dataset.state === 'solved', null, { timeout: 30000 });
      await page.click('#btn-room');
      assert.equal(await page.isVisible('#room-offline'), true);
      assert.match(await page.textContent('#room-offline'), /Rooms need the network/);
      assert.equal(await page.isDisabled('#room-create'), true);
      await shot(page, `${vp.name}-offline-room`);
      await context.setOffline(false);
      await page.done();
    });
  });
}

describe('where the computer thinks', () => {
  test('without the module the page thinks on the server and says so; the setting chooses', async () => {
    const vp = VIEWPORTS[0];
    const page = await open(browser, vp, '/?r=3x3x3&o=human');
    await deviceReady(page);
    assert.equal(await page.textContent('#engine-where'), 'thinks on this device');
    // The player chooses the server: requests go there.
    await page.selectOption('#sel-thinking', 'server');
    await page.waitForFunction(() => mnkEngine.engine.state === 'server');
    assert.equal(await page.textContent('#engine-where'), 'thinks on the server');
    const asked = [];
    page.on('request', (r) => ENGINE_PATHS.test(r.url()) && asked.push(new URL(r.url()).pathname));
    await page.goto(`${BASE}/?r=3x3x3&o=perfect&s=X`);
    await idle(page);
    await play(page, 'b2', vp);
    assert.ok(asked.includes('/api/move'), asked.join(' '));
    await page.selectOption('#sel-thinking', 'device');
    await deviceReady(page);
    await page.done();

    // A browser whose module does not arrive: the server answers, and the note says so.
    const broken = await open(browser, vp, '/?r=3x3x3&o=human');
    await broken.context().route(/engine\/mnk\.wasm/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await broken.goto(`${BASE}/?r=3x3x3&o=perfect&s=X`);
    await broken.waitForFunction(() => mnkEngine.engine.state === 'failed', null, { timeout: 30000 });
    assert.match(await broken.textContent('#engine-where'), /thinks on the server/);
    await idle(broken);
    await play(broken, 'b2', vp);
    assert.equal((await board(broken)).ply, '2');
    await broken.done();
  });

  test('the board is drawn and playable before the module has loaded', async () => {
    const page = await open(browser, VIEWPORTS[1], '/?r=15x15x5&o=level2&s=X');
    await deviceReady(page);
    const times = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { paint: paint ? paint.startTime : null, ready: mnkEngine.engine.readyMs };
    });
    assert.ok(times.paint !== null && times.paint < times.ready, JSON.stringify(times));
    console.log(`first paint ${times.paint.toFixed(0)} ms, engine ready ${times.ready.toFixed(0)} ms after navigation (phone viewport)`);
    await page.done();
  });
});

describe('the same engine on the device as on the server', () => {
  test('the bench signature in the worker equals the native one; speeds reported', async () => {
    const bin = process.env.MNK_BIN || new URL('../../target/release/mnk', import.meta.url).pathname;
    const native = execFileSync(bin, ['bench', '--depth', '8'], { encoding: 'utf8' });
    const signature = Number(/Bench: (\d+)/.exec(native)[1]);
    const nativeNps = Number(/Total: \d+ nodes in \d+ ms, (\d+) nodes\/s/.exec(native)[1]);
    const page = await open(browser, VIEWPORTS[0], '/?r=3x3x3&o=human');
    await deviceReady(page);
    assert.equal(await page.evaluate(() => mnkEngine.engine.books), 2, 'the shipped books are shelved in the worker');
    // The first run also pays for the browser compiling the module's hot code fully (it starts
    // with a quick baseline compile); a game's searches run on the second kind.
    for (const run of ['first', 'warm']) {
      const { status, body } = await page.evaluate(() => mnkEngine.benchOnDevice(8));
      assert.equal(status, 200);
      assert.equal(body.nodes, signature);
      console.log(`bench (${run}): native ${nativeNps} nodes/s, worker ${body.nps} nodes/s (${((100 * body.nps) / nativeNps).toFixed(0)}%), Bench ${body.nodes}`);
    }
    await page.done();
  });

  test('exact values and node counts equal the server solver on the solver table boards up to 7×7×5', async () => {
    const page = await open(browser, VIEWPORTS[0], '/?r=3x3x3&o=human');
    await deviceReady(page);
    // Boards whose empty position the solver settles within seconds, and the two with books.
    const boards = ['3x3x3', '4x3x3', '4x4x3', '4x4x4', '5x4x4', '5x5x4', '6x4x4', '6x5x4', '6x6x4', '5x5x5', '6x6x5', '7x6x5', '7x7x5'];
    for (const rules of boards) {
      // 7×7×5 is beyond the solver's seconds: both answer from the book, which holds every first
      // move.
      const request = { rules, moves: [], time_ms: rules === '7x7x5' ? 2000 : 10000 };
      const server = await (await fetch(`${BASE}/api/solve`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request) })).json();
      const device = await page.evaluate((r) => mnkEngine.ask('solve', r), request);
      assert.equal(device.status, 200, `${rules}: ${JSON.stringify(device.body)}`);
      const strip = ({ time_ms, ...rest }) => rest;
      assert.deepEqual(strip(device.body), strip(server), rules);
      console.log(`solve ${rules}: ${device.body.value.text}, ${device.body.nodes} nodes, ${device.body.time_ms} ms on the device, ${server.time_ms} ms on the server (${device.body.source})`);
    }
    await page.done();
  });

  test('7×7×5 solved in the worker as `mnk solve 7 7 5` solves it', async () => {
    const bin = process.env.MNK_BIN || new URL('../../target/release/mnk', import.meta.url).pathname;
    const native = execFileSync(bin, ['solve', '7', '7', '5'], { encoding: 'utf8' });
    const nodes = Number(/nodes: (\d+)/.exec(native)[1]);
    const page = await open(browser, VIEWPORTS[0], '/?r=3x3x3&o=human');
    await deviceReady(page);
    const { status, body } = await page.evaluate(() => mnkEngine.solveBoardOnDevice('7x7x5'));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.value, 'draw');
    assert.equal(body.nodes, nodes);
    console.log(`solve 7x7x5 in the worker: ${body.value}, ${body.nodes} nodes, ${body.ms} ms (native: ${/time: ([\d.]+ s)/.exec(native)[1]})`);
    await page.done();
  });

  test('stopping a search in the worker: the next request is answered at once', async () => {
    const page = await open(browser, VIEWPORTS[0], '/?r=15x15x5&m=h8.i9.h10&o=human');
    await deviceReady(page);
    const timing = await page.evaluate(async () => {
      const ctl = new AbortController();
      const running = mnkEngine.analyseOnDevice('rules=15x15x5&moves=h8.i9.h10&max_ms=30000', () => {}, { signal: ctl.signal }).catch((e) => e.kind);
      await new Promise((r) => setTimeout(r, 500));
      const stop = performance.now();
      ctl.abort();
      const aborted = await running;
      const reply = await mnkEngine.ask('state', { rules: '15x15x5', moves: ['h8'] });
      return { aborted, stopped: performance.now() - stop, status: reply.status };
    });
    assert.equal(timing.aborted, 'aborted');
    assert.equal(timing.status, 200);
    console.log(`stop: the next answer came ${timing.stopped.toFixed(1)} ms after the stop (a new worker)`);
    await page.done();
  });
});
