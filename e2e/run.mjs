// `npm test`: starts `mnk serve` on a free port for each lane, waits for /api/health, runs the
// browser test files with node's test runner against them (each file on one lane's server, the
// lanes taking the next file as they finish), and stops the servers. Builds nothing: the binary
// comes from $MNK_BIN or ../target/release/mnk. With $MNK_URL set, uses that server instead of
// starting one. `npm test -- rooms analysis` runs only the files whose names contain a word.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, chromiumMissingMessage, OUT_DIR } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The servers started, one per lane. */
const servers = [];

function fail(message) {
  console.error(`\ne2e: ${message}\n`);
  for (const server of servers) server.kill('SIGKILL');
  process.exit(1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url, child, ms) {
  const until = Date.now() + ms;
  let last = '';
  while (Date.now() < until) {
    if (child && child.exitCode !== null) fail(`the server exited early with code ${child.exitCode}; see ${OUT_DIR}/server.log`);
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  fail(`the server did not become healthy at ${url} within ${ms / 1000} s (${last})`);
}

if (!fs.existsSync(CHROMIUM)) fail(chromiumMissingMessage());
fs.mkdirSync(OUT_DIR, { recursive: true });

// Two lanes by default, each with a server of its own: two files at a time took 14.1 minutes on
// the 2-core machine where one at a time took 17.2 (the files slow each other down, so it is not
// half). One server per lane, because a server counts its clients by address (127.0.0.1 for
// every browser here) and limits each one's engine requests and rooms
// (crates/mnk-server/src/clients.rs): two lanes on one server once left a phone test without
// the computer's answer. MNK_E2E_LANES sets the number; with $MNK_URL there is one lane.
const dir = path.join(here, 'tests');
const only = process.argv.slice(2);
// The longest files first, by the seconds each took in a measured run (durations.json; a file
// not listed counts as the longest): a lane that starts the longest file last finishes minutes
// after the other (alphabetical order once left one lane 171 s behind). Every run writes the
// figures with its own files' seconds in their place to out/e2e/durations.json (a run of a few
// files keeps the others'); copy that over e2e/durations.json to refresh the order.
const measured = JSON.parse(fs.readFileSync(path.join(here, 'durations.json'), 'utf8'));
const seconds = (f) => measured[f] ?? Infinity;
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
const wanted = Number.parseInt(process.env.MNK_E2E_LANES ?? '2', 10);
if (!(wanted >= 1)) fail(`MNK_E2E_LANES must be a whole number of at least 1, not "${process.env.MNK_E2E_LANES}"`);
const laneCount = process.env.MNK_URL ? 1 : Math.max(1, Math.min(wanted, files.length));
/** The server binary, for the lanes' servers and for tests that start servers of their own. */
const bin = process.env.MNK_BIN || path.resolve(here, '../target/release/mnk');

const stopServers = () =>
  Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => {
          if (server.exitCode !== null) return resolve();
          const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
          server.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          server.kill('SIGTERM');
        }),
    ),
  );
const runners = new Set();
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    for (const runner of runners) runner.kill('SIGTERM');
    await stopServers();
    process.exit(130);
  });
}

/** A server for one lane: its URL (the given one with $MNK_URL). */
async function startServer(lane) {
  if (process.env.MNK_URL) {
    await waitHealthy(process.env.MNK_URL, null, 10000);
    return process.env.MNK_URL;
  }
  if (!fs.existsSync(bin)) fail(`no server binary at ${bin}: build it with \`cargo build --release\` or set MNK_BIN`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logName = laneCount === 1 ? 'server.log' : `server-${lane + 1}.log`;
  const log = fs.openSync(path.join(OUT_DIR, logName), 'w');
  const server = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--database', 'memory'], { stdio: ['ignore', log, log] });
  servers.push(server);
  server.on('error', (e) => fail(`cannot start ${bin}: ${e.message}`));
  await waitHealthy(url, server, 30000);
  return url;
}

/** Runs one test file against `url`; its output is kept and printed whole when it ends. */
function runFile(file, url) {
  return new Promise((resolve) => {
    const runner = spawn(process.execPath, ['--test', '--test-reporter=tap', path.join(dir, file)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The binary too, for tests that start servers of their own (two on one PostgreSQL database).
      env: { ...process.env, MNK_URL: url, ...(process.env.MNK_URL ? {} : { MNK_BIN: bin }) },
    });
    runners.add(runner);
    let output = '';
    runner.stdout.on('data', (chunk) => (output += chunk));
    runner.stderr.on('data', (chunk) => (output += chunk));
    const started = Date.now();
    runner.on('exit', (c, s) => {
      runners.delete(runner);
      resolve({ file, output, code: c ?? (s ? 1 : 0), seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** The counts a file's TAP summary gives (`# pass 3`, …). */
function counts(output) {
  const found = {};
  for (const key of ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) {
    const m = output.match(new RegExp(`^# ${key} (\\d+)$`, 'm'));
    found[key] = m ? Number(m[1]) : 0;
  }
  return found;
}

const urls = await Promise.all(Array.from({ length: laneCount }, (_, lane) => startServer(lane)));
console.log(`e2e: ${files.length} test files in ${laneCount} lane(s), servers ${urls.join(', ')}, screenshots in ${OUT_DIR}`);
const queue = [...files];
const results = [];
await Promise.all(
  urls.map(async (url) => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const result = await runFile(file, url);
      console.log(`\n### ${result.file} (${result.seconds.toFixed(1)} s, exit ${result.code})\n${result.output.trimEnd()}`);
      results.push(result);
    }
  }),
);
await stopServers();
const took = { ...measured };
for (const r of results) took[r.file] = Math.round(r.seconds * 10) / 10;
const sorted = Object.fromEntries(Object.keys(took).sort().map((f) => [f, took[f]]));
fs.writeFileSync(path.join(OUT_DIR, 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);

const total = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
for (const { output } of results) for (const [key, n] of Object.entries(counts(output))) total[key] += n;
const failed = results.filter((r) => r.code !== 0).map((r) => r.file);
console.log(`\ne2e: ${results.length} files: ${Object.entries(total).map(([k, n]) => `${k} ${n}`).join(', ')}`);
if (failed.length) console.log(`e2e: failed: ${failed.join(', ')}`);
process.exit(failed.length || total.fail || total.cancelled ? 1 : 0);
