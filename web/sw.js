// The service worker: keeps this release of the page, its engine (engine/mnk.wasm) and the solved
// books, so that after one visit the page loads and plays, analyses and solves with the network
// off. The server fills in the release (a hash of every file) and the list of files when it is
// built (crates/mnk-server/build.rs), so a new release is a new service worker with a new cache,
// and the old cache is dropped when it takes over.
//
// Files are fetched from the network first, so an online page is always the current release
// (the server answers a revalidation with 304), and from the cache when the network fails. The
// API is never cached: rooms and the server's answers are live.
'use strict';

const RELEASE = '__MNK_RELEASE__';
const CACHE = `mnk-${RELEASE}`;
const FILES = __MNK_ASSETS__;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['./', ...FILES.filter((f) => f !== 'index.html')]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('mnk-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.includes('/api/')) return;
  event.respondWith(fromNetworkThenCache(request, url));
});

async function fromNetworkThenCache(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') cache.put(request, response.clone());
    return response;
  } catch (error) {
    // Offline: this release's copy. A page address with a query (a shared game) is the page.
    const cached = (await cache.match(request, { ignoreSearch: true })) || (request.mode === 'navigate' ? await cache.match('./') : undefined);
    if (cached) return cached;
    throw error;
  }
}
