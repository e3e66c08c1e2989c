// The phone app's service worker: the app shell is cached at install, so the app opens with no
// network; the API is never cached here (the app keeps the day and its queue in IndexedDB).
const SHELL = 'lims-phone-v2';
const FILES = [
  '/phone/index.html',
  '/phone/app.js',
  '/phone/store.js',
  '/phone/app.css',
  '/phone/manifest.webmanifest',
  '/phone/icon.svg',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((c) => c.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || !url.pathname.startsWith('/phone/')) return;
  // Network first, so a new build reaches the phone when it is online; the cache when it is not.
  event.respondWith(
    fetch(event.request)
      .then((res) => {
        const copy = res.clone();
        if (res.ok) void caches.open(SHELL).then((c) => c.put(event.request, copy));
        return res;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true }).then((hit) => hit ?? Response.error())),
  );
});
