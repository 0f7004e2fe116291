// push.test.mjs — Web Push in the browser (issue 52; docs/notifications.md), on a server of
// the test's own that may send to a push service on this machine (--push-http):
// - the first visit and signing up ask nothing (no permission asked, nothing subscribed);
// - chromium grants notifications; starting a game with a day per move subscribes this
//   device: the page's subscription reaches the server. The browser's own push service
//   cannot be reached from here, so only pushManager.subscribe is stubbed: it answers a
//   subscription whose endpoint is the test's push service and whose keys the test holds;
// - the server pushes "your turn" there once the player's tab has left the game; the test
//   decrypts it (RFC 8291) and delivers it to the service worker through the DevTools
//   protocol (ServiceWorker.deliverPushMessage): the worker shows it as a notification;
// - a click on it (the worker's notificationclick, dispatched in the worker: a test cannot
//   click the system's notification) opens the game in the tab;
// - the profile's card shows this device on and each kind × channel; a change is kept;
// - with --smtp (a mail server of the test's own): an address is given on the card, the
//   link of the e-mail it gets confirms it, and the daily e-mail can then be chosen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import crypto from 'node:crypto';
import net from 'node:net';
import { launch, startServer, signUpHere, createGame, shot } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const b64u = (buf) => Buffer.from(buf).toString('base64url');

// The test's push service: every POST is kept (path, headers, body).
function pushService() {
  const got = [];
  const waiters = [];
  const server = http.createServer((req, res) => {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      got.push({ path: req.url, headers: req.headers, body: Buffer.concat(parts) });
      res.writeHead(201).end();
      while (waiters.length) waiters.shift()();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/push/ann`,
    got,
    async next(timeout = 30000) {
      const end = Date.now() + timeout;
      while (!got.length) {
        if (Date.now() > end) throw new Error('nothing was pushed');
        await new Promise((r) => { waiters.push(r); setTimeout(r, 200); });
      }
      return got.shift();
    },
    close: () => new Promise((r) => server.close(r)),
  })));
}

// RFC 8291 / RFC 8188, the browser's side: one aes128gcm record.
function decrypt(body, ecdh, auth) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const uaPublic = ecdh.getPublicKey();
  const secret = ecdh.computeSecret(asPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', secret, auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([d.update(record.subarray(0, record.length - 16)), d.final()]);
  assert.equal(plain[plain.length - 1], 2, 'the last record\'s delimiter');
  return plain.subarray(0, plain.length - 1).toString();
}

test('push: asked only for a daily game; the subscription reaches the server; a push is shown and opens the game', { timeout: 240000 }, async () => {
  const push = await pushService();
  const srv = await startServer(['--push-http', '--push-delay-s', '3', '--max-games-per-ip', '1000']);
  const browser = await launch();
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['notifications'], { origin: srv.base });
    // Only pushManager.subscribe is the test's: it counts its calls and answers the test's
    // subscription (the browser's push service is out of reach here).
    await context.addInitScript(([endpoint, p256dh, authKey]) => {
      window.__subscribes = 0;
      window.__permissionAsks = 0;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...a) => { window.__permissionAsks++; return ask(...a); };
      PushManager.prototype.subscribe = async function subscribe(options) {
        window.__subscribes++;
        if (!options?.userVisibleOnly || !(options.applicationServerKey?.byteLength === 65)) throw new Error('bad options');
        return {
          endpoint,
          expirationTime: null,
          toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth: authKey } }),
          unsubscribe: async () => true,
        };
      };
    }, [push.url, b64u(ecdh.getPublicKey()), b64u(auth)]);
    const page = await context.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(e.message));

    // The first visit and signing up: nothing asked, nothing subscribed; the worker is there.
    await signUpHere(page, srv.base, 'Ann');
    await page.evaluate(() => navigator.serviceWorker.ready);
    assert.deepEqual(await page.evaluate(() => [window.__permissionAsks, window.__subscribes]), [0, 0]);
    const settings = () => page.evaluate(async () => (await fetch('/api/me/notifications')).json());
    assert.equal((await settings()).subscriptions, 0);
    // A game without a clock asks nothing either.
    await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], name: null }, srv.base);
    assert.equal(await page.evaluate(() => window.__subscribes), 0);

    // A game with a day per move: this device is subscribed, the server has it.
    const id = await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], name: null, clock: 'daily' }, srv.base);
    await page.waitForFunction(() => window.__subscribes === 1);
    let s;
    for (let i = 0; i < 50 && (s = await settings()).subscriptions !== 1; i++) await page.waitForTimeout(100);
    assert.equal(s.subscriptions, 1, 'the subscription reached the server');
    assert.equal(s.lang, 'en');

    // The tab leaves the game: "your turn" is pushed to the test's push service.
    await page.goto(`${srv.base}/#/player/Ann`);
    await page.waitForSelector('#profile-notifications #push-status[data-state=on]');
    const sent = await push.next();
    assert.equal(sent.path, '/push/ann');
    assert.equal(sent.headers['content-encoding'], 'aes128gcm');
    assert.match(sent.headers.authorization, /^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]{87}$/);
    const text = decrypt(sent.body, ecdh, auth);
    const msg = JSON.parse(text);
    assert.equal(msg.kind, 'turn');
    assert.equal(msg.title, MESSAGES.en['push.kind_turn']);
    assert.match(msg.url, new RegExp(`^/#/game/${id}\\?seat=0$`));

    // Delivered to the service worker as a push service would: a notification is shown.
    const cdp = await context.newCDPSession(page);
    const registrations = new Map();
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => { for (const r of e.registrations) registrations.set(r.scopeURL, r.registrationId); });
    await cdp.send('ServiceWorker.enable');
    for (let i = 0; i < 50 && !registrations.has(`${srv.base}/`); i++) await page.waitForTimeout(100);
    assert.ok(registrations.has(`${srv.base}/`), 'the worker is registered for the site');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: srv.base, registrationId: registrations.get(`${srv.base}/`), data: text });
    let shown = [];
    for (let i = 0; i < 150 && !shown.length; i++) {
      shown = await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        const list = await reg.getNotifications();
        return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url }));
      });
      if (!shown.length) await page.waitForTimeout(100);
    }
    assert.equal(shown.length, 1, 'the notification is shown');
    assert.equal(shown[0].title, 'Your turn');
    assert.equal(shown[0].tag, `turn-${id}`);
    assert.equal(shown[0].url, msg.url);

    // A click opens the game in the tab.
    const worker = context.serviceWorkers()[0] || await context.waitForEvent('serviceworker');
    await worker.evaluate(async () => {
      const [n] = await self.registration.getNotifications();
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n }));
    });
    await page.waitForURL(new RegExp(`#/game/${id}`), { timeout: 15000 });
    await page.waitForSelector('.game:not(.loading) .board-svg');
    assert.equal(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length), 0, 'closed');

    // The profile's card: a kind turned off is kept.
    await page.goto(`${srv.base}/#/player/Ann`);
    await page.waitForSelector('#push-prefs tr[data-kind=turn] input[data-channel=push]');
    assert.equal(await page.isChecked('#push-turn-push'), true);
    assert.equal(await page.isDisabled('#push-turn-email'), true, 'no e-mail on this site');
    await page.locator('#profile-notifications').scrollIntoViewIfNeeded();
    await shot(page, 'push-profile-desktop');
    await page.uncheck('#push-clock-push');
    for (let i = 0; i < 50 && (s = await settings()).prefs.clock.push !== false; i++) await page.waitForTimeout(100);
    assert.equal(s.prefs.clock.push, false);
    assert.equal(s.prefs.turn.push, true);
    // Turned off for this device: the server forgets it.
    await page.click('#push-toggle[data-action=push-off]');
    await page.waitForSelector('#push-status[data-state=off]');
    assert.equal((await settings()).subscriptions, 0);
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    await browser.close();
    await srv.stop();
    await push.close();
  }
});

test('installable: the manifest and its icons are served, the page links them', { timeout: 60000 }, async () => {
  const srv = await startServer([]);
  try {
    const manifest = await (await fetch(`${srv.base}/manifest.webmanifest`)).json();
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.start_url, '/#/');
    const sizes = manifest.icons.map((i) => i.sizes);
    assert.ok(sizes.includes('192x192') && sizes.includes('512x512'), sizes.join());
    for (const icon of manifest.icons) {
      const r = await fetch(`${srv.base}/${icon.src}`);
      assert.equal(r.status, 200, icon.src);
      assert.equal(r.headers.get('content-type'), icon.type);
      const bytes = Buffer.from(await r.arrayBuffer());
      if (icon.type === 'image/png') {
        assert.equal(bytes.readUInt32BE(16), Number(icon.sizes.split('x')[0]), `${icon.src} is as wide as it says`);
      }
    }
    const html = await (await fetch(`${srv.base}/`)).text();
    assert.match(html, /<link rel="manifest" href="manifest.webmanifest">/);
    const sw = await fetch(`${srv.base}/sw.js`);
    assert.equal(sw.status, 200);
    assert.match(sw.headers.get('content-type'), /javascript/);
  } finally {
    await srv.stop();
  }
});

// A mail server that keeps every message's text.
function smtpSink() {
  const got = [];
  const server = net.createServer((sock) => {
    let buf = '';
    let data = false;
    sock.write('220 sink\r\n');
    sock.on('data', (chunk) => {
      buf += chunk.toString();
      for (;;) {
        if (data) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          got.push(buf.slice(0, end));
          buf = buf.slice(end + 5);
          data = false;
          sock.write('250 queued\r\n');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') sock.write('250 sink\r\n');
        else if (verb === 'DATA') { data = true; sock.write('354 go on\r\n'); }
        else if (verb === 'QUIT') { sock.end('221 bye\r\n'); return; }
        else sock.write('250 ok\r\n');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: server.address().port,
    got,
    close: () => new Promise((r) => server.close(r)),
  })));
}

test('e-mail: an address given on the card, confirmed by its link; then the daily e-mail can be chosen', { timeout: 120000 }, async () => {
  const sink = await smtpSink();
  const srv = await startServer((port) => ['--smtp', `smtp://127.0.0.1:${sink.port}`, '--public-url', `http://127.0.0.1:${port}`]);
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signUpHere(page, srv.base, 'Eve', { hash: '#/player/Eve' });
    await page.waitForSelector('#email-state[data-state=none]');
    assert.equal(await page.isDisabled('#push-turn-email'), true, 'no address yet');
    await page.fill('#email-address', 'not an address');
    await page.click('[data-action=save-email]');
    await page.waitForFunction(() => document.querySelector('#push-msg').textContent !== '');
    assert.equal(await page.textContent('#push-msg'), MESSAGES.en['email.bad']);
    await page.fill('#email-address', 'eve@example.org');
    await page.click('[data-action=save-email]');
    await page.waitForSelector('#email-state[data-state=unverified]');
    for (let i = 0; i < 100 && !sink.got.length; i++) await page.waitForTimeout(100);
    assert.equal(sink.got.length, 1, 'the confirmation was sent');
    const link = sink.got[0].match(/http:\/\/127\.0\.0\.1:\d+\/api\/email\/verify\?token=[\w-]+/)[0];
    assert.ok(sink.got[0].includes('Subject: Confirm your e-mail address for axio'));
    const res = await fetch(link);
    assert.equal(res.status, 200);
    await page.reload();
    await page.waitForSelector('#email-state[data-state=verified]');
    assert.equal(await page.isDisabled('#push-turn-email'), false);
    assert.equal(await page.isDisabled('#push-over-email'), true, 'the digest lists waiting games only');
    await page.check('#push-turn-email');
    let s;
    for (let i = 0; i < 50; i++) {
      s = await page.evaluate(async () => (await fetch('/api/me/notifications')).json());
      if (s.prefs.turn.email) break;
      await page.waitForTimeout(100);
    }
    assert.equal(s.prefs.turn.email, true);
    await page.locator('#profile-notifications').scrollIntoViewIfNeeded();
    await shot(page, 'push-email-desktop');
    await page.click('[data-action=remove-email]');
    await page.waitForSelector('#email-state[data-state=none]');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await srv.stop();
    await sink.close();
  }
});
