// api.js — the connection to the axio server: the HTTP endpoints of the lobby, of
// accounts and ratings (the session is an HttpOnly cookie the browser sends by
// itself), and the game's WebSocket, which reconnects by itself (with growing
// pauses) and keeps the seat token of each game in localStorage so that a reload
// gets the seat back, and which games this browser created (only their creator may
// cancel them). On a site of several servers a game lives on one of them at a time:
// a request that reaches another while the game moves is answered "moving" (HTTP 503
// game_moving, or a WebSocket message `moving` before the close), and is tried
// again shortly (docs/server.md, "Several servers").

const MOVING_TRIES = 40;
const MOVING_PAUSE_MS = 300;
const PING_MS = 3000;    // the server answers each ping with a pong
const SILENCE_MS = 7000; // nothing heard this long: the server or the way to it is gone
// The server allows a connection 10 messages a second, 20 at once (serve --msg-rate); the
// page sends at most SEND_RATE a second, SEND_BURST at once, so a player who plays fast
// (hint, place, hint, …, or hovering ROTA cells, a preview per colour) has nothing refused.
const SEND_RATE = 8;
const SEND_BURST = 16;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function http(method, path, body, token = null) {
  for (let tries = 1; ; tries++) {
    try {
      return await httpOnce(method, path, body, token);
    } catch (err) {
      if (err.code !== 'game_moving' || tries >= MOVING_TRIES) throw err;
      await sleep(MOVING_PAUSE_MS);
    }
  }
}

async function httpOnce(method, path, body, token) {
  let res;
  const headers = body ? { 'Content-Type': 'application/json' } : {};
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
    });
  } catch (e) {
    // English for logs; the page says it in its language by the code (errorText).
    const err = new Error('The server cannot be reached.');
    err.code = 'network';
    throw err;
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!res.ok) {
    // code (and reason) let the page say it in its language (messages.js errorText).
    const err = new Error(data?.error?.message || `HTTP ${res.status}`);
    err.code = data?.error?.code || 'http';
    err.reason = data?.error?.reason || null;
    err.retryAfter = data?.error?.retry_after_s ?? null; // a throttled login: seconds until it may try again
    err.status = res.status;
    throw err;
  }
  return data;
}

export const api = {
  health: () => http('GET', '/api/health'),
  // The health answer, asked once per page load: its `urls` are where friends reach us.
  serverInfo() {
    if (!this.info) this.info = this.health().catch(() => { this.info = null; return {}; });
    return this.info;
  },
  // A page of the public list (docs/protocol.md "The lobby's list"): {games, next}.
  listGames: ({ status, variant, limit = 10, cursor } = {}) => {
    const q = new URLSearchParams({ limit: String(limit) });
    if (status) q.set('status', status);
    if (variant) q.set('variant', variant);
    if (cursor) q.set('cursor', cursor);
    return http('GET', `/api/games?${q}`);
  },
  finishedGames: () => http('GET', '/api/games?status=over'),
  // The games with these ids, whatever their status (at most 50 ids).
  gamesById: (ids) => http('GET', `/api/games?ids=${ids.slice(0, 50).map(encodeURIComponent).join(',')}`),
  cancelGame: (id, token) => http('DELETE', `/api/games/${encodeURIComponent(id)}`, null, token),
  createGame: (body) => http('POST', '/api/games', body),
  joinGame: (id, name) => http('POST', `/api/games/${encodeURIComponent(id)}/join`, { name }),
  getGame: (id) => http('GET', `/api/games/${encodeURIComponent(id)}`),
  // Accounts (docs/protocol.md "Accounts"): the answers set or clear the session cookie.
  signup: (name, password) => http('POST', '/api/accounts', { name, password }),
  login: (name, password) => http('POST', '/api/login', { name, password }),
  logout: () => http('POST', '/api/logout'),
  me: () => http('GET', '/api/me'),
  changePassword: (password, newPassword) => http('POST', '/api/me/password', { password, new_password: newPassword }),
  deleteAccount: (password) => http('POST', '/api/me/delete', { password }),
  // A signed-in player's waiting and running games, on any device: {games: [ENTRY + seat]}
  // (docs/accounts.md, "Your games on every device").
  myGames: () => http('GET', '/api/me/games'),
  // Friends and search (docs/accounts.md, "Friends, search").
  follows: () => http('GET', '/api/me/follows'),
  follow: (name) => http('POST', '/api/me/follows', { name }),
  unfollow: (name) => http('DELETE', `/api/me/follows/${encodeURIComponent(name)}`),
  searchPlayers: (q) => http('GET', `/api/players?q=${encodeURIComponent(q)}`),
  // Challenges and quick pairing (docs/accounts.md, "Challenges and quick pairing").
  challenge: (body) => http('POST', '/api/challenges', body),
  myChallenges: () => http('GET', '/api/me/challenges'),
  acceptChallenge: (id) => http('POST', `/api/challenges/${encodeURIComponent(id)}/accept`, {}),
  declineChallenge: (id, reason) => http('POST', `/api/challenges/${encodeURIComponent(id)}/decline`, { reason }),
  withdrawChallenge: (id) => http('DELETE', `/api/challenges/${encodeURIComponent(id)}`),
  seek: (body) => http('POST', '/api/seeks', body),
  getSeek: (id) => http('GET', `/api/seeks/${encodeURIComponent(id)}`),
  cancelSeek: (id) => http('DELETE', `/api/seeks/${encodeURIComponent(id)}`),
  // Ratings: a player's profile (ratings and games, newest first) and a variant's leaderboard.
  player: (name) => http('GET', `/api/players/${encodeURIComponent(name)}`),
  // bots: the bots' own leaderboard (docs/bot-api.md); without it the people's (no bot).
  leaderboard: (variant, { bots = false } = {}) => http('GET', `/api/leaderboard?variant=${encodeURIComponent(variant)}${bots ? '&bots=1' : ''}`),
  // Bots (docs/bot-api.md): the list people may challenge ({bots: [{name, about, online,
  // ratings}]}), the account's personal API tokens, and making the account a bot.
  bots: () => http('GET', '/api/bots'),
  myTokens: () => http('GET', '/api/me/tokens'),
  createToken: (label, scopes) => http('POST', '/api/me/tokens', { label, scopes }),
  revokeToken: (id) => http('DELETE', `/api/me/tokens/${encodeURIComponent(id)}`),
  // notifications (notify.js, docs/notifications.md)
  pushKey: () => http('GET', '/api/push/key'),
  pushSubscribe: (sub) => http('POST', '/api/me/push', sub),
  pushUnsubscribe: (endpoint) => http('DELETE', `/api/me/push?endpoint=${encodeURIComponent(endpoint)}`),
  notifySettings: () => http('GET', '/api/me/notifications'),
  setNotifySettings: (body) => http('POST', '/api/me/notifications', body),
  email: () => http('GET', '/api/me/email'),
  setEmail: (address) => http('POST', '/api/me/email', { address }),
  removeEmail: () => http('DELETE', '/api/me/email'),
  becomeBot: (about) => http('POST', '/api/bot/account/upgrade', { about }),
  // Keeping order (docs/moderation.md): blocks (private), reports, warnings seen, and the
  // moderators' queue, actions, undo and log.
  blocks: () => http('GET', '/api/me/blocks'),
  block: (name) => http('POST', '/api/me/blocks', { name }),
  unblock: (name) => http('DELETE', `/api/me/blocks/${encodeURIComponent(name)}`),
  report: (body) => http('POST', '/api/reports', body),
  warningsSeen: () => http('POST', '/api/me/warnings/seen', {}),
  modReports: (status = 'open') => http('GET', `/api/mod/reports?status=${encodeURIComponent(status)}`),
  modAct: (body) => http('POST', '/api/mod/actions', body),
  modUndo: (id, reason) => http('POST', `/api/mod/actions/${encodeURIComponent(id)}/undo`, { reason }),
  modCloseReport: (id, reason) => http('POST', `/api/mod/reports/${encodeURIComponent(id)}/close`, { reason }),
  modLog: () => http('GET', '/api/mod/log?limit=100'),
  // Events: arenas and Swiss tournaments (docs/tournaments.md, "Events on the site (API)").
  // status: 'upcoming' | 'running' | 'finished', or none (upcoming, running, 20 finished).
  events: (status = null) => http('GET', `/api/events${status ? `?status=${encodeURIComponent(status)}` : ''}`),
  createEvent: (settings) => http('POST', '/api/events', settings),
  // {event, standings, tables, you}
  getEvent: (id) => http('GET', `/api/events/${encodeURIComponent(id)}`),
  joinEvent: (id) => http('POST', `/api/events/${encodeURIComponent(id)}/join`, {}),
  withdrawEvent: (id) => http('POST', `/api/events/${encodeURIComponent(id)}/withdraw`, {}),
  startEvent: (id) => http('POST', `/api/events/${encodeURIComponent(id)}/start`, {}),
  cancelEvent: (id) => http('POST', `/api/events/${encodeURIComponent(id)}/cancel`, {}),
  // The upcoming and running events the account has joined, each with its `you`.
  myEvents: () => http('GET', '/api/me/events'),
  // The post-game analysis of a seat: {status: 'working', judged, total} while the
  // server judges (202), then the result (200); errors as for every request.
  analysis: (id, seat) => http('GET', `/api/games/${encodeURIComponent(id)}/analysis?seat=${encodeURIComponent(seat)}`),
  // The record: JSON Lines (record.md); a JSON array or {"events": [...]} is accepted too.
  async getRecord(id) {
    const res = await fetch(`/api/games/${encodeURIComponent(id)}/record`, { cache: 'no-store' });
    const text = await res.text();
    if (!res.ok) {
      const err = new Error(`HTTP ${res.status}`);
      err.code = 'http';
      err.status = res.status;
      try { const e = JSON.parse(text).error; err.message = e.message; err.code = e.code; } catch { /* keep */ }
      throw err;
    }
    const t = text.trim();
    if (t.startsWith('[')) return JSON.parse(t);
    if (t.startsWith('{') && !t.includes('\n')) {
      const o = JSON.parse(t);
      if (Array.isArray(o.events)) return o.events;
      return [o];
    }
    return t.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  },
};

// Seat tokens, one per game id, and the player's name.
export const tokens = {
  get(id) {
    try { return JSON.parse(localStorage.getItem(`axio.token.${id}`) || 'null'); } catch { return null; }
  },
  set(id, seat, token) { localStorage.setItem(`axio.token.${id}`, JSON.stringify({ seat, token, at: Date.now() })); },
  drop(id) { localStorage.removeItem(`axio.token.${id}`); },
  all() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith('axio.token.')) out.push(k.slice('axio.token.'.length));
    }
    return out;
  },
};

// Games created in this browser: axio.created.<id> (the creator may cancel a waiting game).
export const created = {
  mark(id) { localStorage.setItem(`axio.created.${id}`, String(Date.now())); },
  has(id) { return localStorage.getItem(`axio.created.${id}`) !== null; },
  drop(id) { localStorage.removeItem(`axio.created.${id}`); },
};

export const prefs = {
  get name() { return localStorage.getItem('axio.name') || ''; },
  set name(v) { localStorage.setItem('axio.name', v); },
};

// The game channel. Callbacks: message(msg), status({state, retryIn, attempt}).
// state: 'connecting' | 'open' | 'lost' (retrying) | 'closed'.
// token: the seat token, or null: then the session cookie (if any) takes the account's seat
// of the game, `seat` choosing one when the account holds several (a casual game at one
// screen); without a session, or with an account that has no seat there, one watches.
export class GameSocket {
  constructor(gameId, token, callbacks, { seat = null } = {}) {
    this.gameId = gameId;
    this.token = token;
    this.seat = seat;
    this.cb = callbacks;
    this.attempt = 0;
    this.closedByUs = false;
    this.ws = null;
    this.timer = null;
    this.pingTimer = null;
    this.lastPong = 0;
    this.outbox = [];          // messages waiting for the allowance, in order
    this.tokens = SEND_BURST;
    this.tokensAt = 0;
    this.flushTimer = null;
    this.onOnline = () => this.retryNow();
    window.addEventListener('online', this.onOnline);
    this.connect();
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const seat = !this.token && Number.isInteger(this.seat) ? `?seat=${this.seat}` : '';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.gameId)}${seat}`;
  }

  // The seat token goes in a header (the offered subprotocols), never in the URL,
  // which proxies write to their logs.
  protocols() {
    return this.token ? ['axio-protocol-1', `axio-token.${this.token}`] : ['axio-protocol-1'];
  }

  connect() {
    clearTimeout(this.timer);
    this.cb.status({ state: 'connecting', attempt: this.attempt });
    let ws;
    try { ws = new WebSocket(this.url(), this.protocols()); } catch { this.scheduleRetry(); return; }
    this.ws = ws;
    this.movingRetry = null;
    // A new connection has the server's whole allowance; nothing waits for the old one.
    this.outbox = [];
    this.tokens = SEND_BURST;
    this.tokensAt = Date.now();
    let answered = false;
    ws.onopen = () => {
      this.lastPong = Date.now();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_MS);
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.lastPong = Date.now();
      if (msg.type === 'pong') return;
      // the game is moving between the site's servers: the close follows
      if (msg.type === 'moving') { this.movingRetry = msg.retry_ms ?? MOVING_PAUSE_MS; return; }
      // open once the game's server answers (not one that sends us on)
      if (!answered) { answered = true; this.cb.status({ state: 'open' }); }
      this.attempt = 0;
      this.moves = 0;
      this.cb.message(msg);
    };
    ws.onclose = () => this.lost(ws);
    ws.onerror = () => { /* onclose follows */ };
  }

  // The connection ended, or went silent: another is made.
  lost(ws) {
    clearInterval(this.pingTimer);
    if (this.ws !== ws) return;
    this.ws = null;
    if (this.closedByUs) { this.cb.status({ state: 'closed' }); return; }
    this.moves = (this.moves || 0) + 1;
    if (this.movingRetry !== null && this.moves <= MOVING_TRIES) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.connect(), this.movingRetry + Math.random() * 200);
      return;
    }
    this.scheduleRetry();
  }

  ping() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastPong > SILENCE_MS) {
      // a machine that is gone sends no close: do not wait for one
      ws.onclose = null;
      try { ws.close(); } catch { /* already closing */ }
      this.lost(ws);
      return;
    }
    // Only a quiet connection is pinged: pings count in the server's per-connection
    // message allowance, which a player clicking fast must not lose to them.
    if (Date.now() - this.lastPong < PING_MS) return;
    this.send({ type: 'ping' });
  }

  scheduleRetry() {
    const delay = Math.min(10000, 500 * 2 ** Math.min(this.attempt, 5));
    this.attempt++;
    const until = Date.now() + delay;
    this.cb.status({ state: 'lost', retryAt: until, attempt: this.attempt });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.closedByUs || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    this.connect();
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  // Kept under the server's allowance (see SEND_RATE): what would go over waits its turn.
  send(msg) {
    if (!this.open) return false;
    this.outbox.push(JSON.stringify(msg));
    this.flush();
    return true;
  }

  flush() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) { this.outbox = []; return; }
    const now = Date.now();
    this.tokens = Math.min(SEND_BURST, this.tokens + ((now - this.tokensAt) / 1000) * SEND_RATE);
    this.tokensAt = now;
    while (this.outbox.length && this.tokens >= 1) {
      ws.send(this.outbox.shift());
      this.tokens -= 1;
    }
    if (this.outbox.length && !this.flushTimer) {
      const wait = Math.ceil(((1 - this.tokens) / SEND_RATE) * 1000);
      this.flushTimer = setTimeout(() => { this.flushTimer = null; this.flush(); }, wait);
    }
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    clearTimeout(this.flushTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener('online', this.onOnline);
    if (this.ws) this.ws.close();
  }
}
