// sw.js — the service worker of the web client (docs/notifications.md): it shows a
// Web Push message as a notification and opens its game on a click, and it keeps the
// client's files so that a reload on a bad connection still shows the page.
//
// Files: the network first (the server sends them with Cache-Control: no-cache, so a
// new version is used at once), the copy kept when the network fails. The API and the
// WebSocket are never cached. A push message is the server's JSON
// {kind, title, body, url, tag} (the browser has decrypted it); tag: a newer notice of
// the same game replaces the older one.
const CACHE = 'axio-1';
const CORE = ['/', '/index.html', '/css/axio.css', '/css/rules.css', '/css/guide.css', '/js/main.js',
  '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(CORE)).catch(() => { /* kept as they come */ }));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

const cacheable = (url, request) => request.method === 'GET' && url.origin === self.location.origin
  && !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/ws/');

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (!cacheable(url, event.request)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const res = await fetch(event.request);
      if (res.ok) cache.put(event.request, res.clone());
      return res;
    } catch (e) {
      const kept = await cache.match(event.request, { ignoreSearch: true })
        || (event.request.mode === 'navigate' ? await cache.match('/') : undefined);
      if (kept) return kept;
      throw e;
    }
  })());
});

self.addEventListener('push', (event) => {
  let msg = {};
  try { msg = event.data ? event.data.json() : {}; } catch { msg = { body: event.data ? event.data.text() : '' }; }
  const url = typeof msg.url === 'string' && msg.url.startsWith('/') ? msg.url : '/#/';
  event.waitUntil(self.registration.showNotification(String(msg.title || 'axio'), {
    body: String(msg.body || ''),
    tag: typeof msg.tag === 'string' ? msg.tag : undefined,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url, kind: msg.kind },
  }));
});

// A click opens the notice's game: in a tab of the site already open (it is shown
// there), else in a new window.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/#/', self.location.origin).href;
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const tab of tabs) {
      if (new URL(tab.url).origin !== self.location.origin) continue;
      try {
        const shown = await tab.navigate(url);
        await (shown || tab).focus().catch(() => {});
        return;
      } catch { /* not ours to steer: a new window below */ }
    }
    await self.clients.openWindow(url);
  })());
});
