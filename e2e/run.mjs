// `npm test`: starts `mnk serve` on a free port, waits for /api/health, runs the browser tests
// with node's test runner against it, and stops the server. Builds nothing: the binary comes from
// $MNK_BIN or ../target/release/mnk. With $MNK_URL set, uses that server instead of starting one.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, chromiumMissingMessage, OUT_DIR } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function fail(message) {
  console.error(`\ne2e: ${message}\n`);
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

let url = process.env.MNK_URL;
let server = null;
if (!url) {
  const bin = process.env.MNK_BIN || path.resolve(here, '../target/release/mnk');
  if (!fs.existsSync(bin)) fail(`no server binary at ${bin}: build it with \`cargo build --release\` or set MNK_BIN`);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(OUT_DIR, 'server.log'), 'w');
  server = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--database', 'memory'], { stdio: ['ignore', log, log] });
  server.on('error', (e) => fail(`cannot start ${bin}: ${e.message}`));
  await waitHealthy(url, server, 30000);
} else {
  await waitHealthy(url, null, 10000);
}

const stopServer = () =>
  new Promise((resolve) => {
    if (!server || server.exitCode !== null) return resolve();
    const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
    server.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.kill('SIGTERM');
  });

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    await stopServer();
    process.exit(130);
  });
}

const dir = path.join(here, 'tests');
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort()
  .map((f) => path.join(dir, f));
console.log(`e2e: server ${url}, ${files.length} test files, screenshots in ${OUT_DIR}`);
// One file at a time: two at a time took 14.7 instead of 18.4 minutes, but the phone's
// board-without-borders test once found no computer's answer after its move. Two browsers on one
// server are one client to it (127.0.0.1), sharing its per-address limits on engine requests
// (crates/mnk-server/src/clients.rs) and rooms: two lanes would need a server each, or limits
// set for the tests.
const runner = spawn(process.execPath, ['--test', '--test-concurrency=1', ...files], {
  stdio: 'inherit',
  // The binary too, for tests that start servers of their own (two on one PostgreSQL database).
  env: { ...process.env, MNK_URL: url, ...(server ? { MNK_BIN: server.spawnfile } : {}) },
});
const code = await new Promise((resolve) => runner.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))));
await stopServer();
process.exit(code);
