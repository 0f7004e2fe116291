// fake_server.mjs — a stand-in for `axio serve`, for developing the web client
// before the real server existed and for quick manual checks. It speaks the
// documented protocol (docs/protocol-state.md) with simplified rules: no
// pyramids, no bonus moves, no swap; legal = empty cells in the area (ROTA: a
// frontier cell). The browser tests use the real server, never this.
// Usage: node tests/web/fake_server.mjs PORT WEBDIR
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const [, , portArg, webDir = 'web'] = process.argv;
const PORT = Number(portArg || 18090);
const COLORS5 = ['red', 'green', 'blue', 'orange', 'purple'];
const COLORS6 = [...COLORS5, 'yellow'];
const HEX_DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
const SQ_DIRS = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const k = (c) => `${c[0]},${c[1]}`;
const games = new Map();
let rnd = 12345;
const rand = (n) => { rnd = (rnd * 1103515245 + 12345) % 2147483648; return rnd % n; };

function newGame(body) {
  const variant = body.variant || 'square';
  const players = body.players || 2;
  const colors = variant === 'hex' ? COLORS6 : COLORS5;
  const g = {
    id: crypto.randomBytes(6).toString('hex'), variant, players, mode: body.mode || (players === 1 ? 'solo' : 'standard'),
    colors, status: 'waiting', phase: 'place', to_move: 0, seq: 0,
    area: variant === 'square' ? [9, 9, 9, 11, 13][players] : variant === 'hex' ? [5, 5, 5, 6, 7][players] : undefined,
    fields: [], cells: new Map(), tiles: [], last: null, events: [], end: null, clients: new Set(),
    seats: body.seats.map((s) => ({ name: s.kind === 'ai' ? `${s.level} bot` : '', kind: s.kind, level: s.level || null, connected: false, taken: false, token: null, rack: [], score: Object.fromEntries(colors.map((c) => [c, 0])) })),
  };
  if (variant === 'square') g.fields = [[2, 6, 'red'], [6, 10, 'green'], [10, 6, 'blue'], [6, 2, 'orange'], [6, 6, 'purple']].map(([r, c, color]) => ({ cell: [r, c], color }));
  if (variant === 'hex') g.fields = [[5, 0, 'red'], [5, -5, 'green'], [0, -5, 'blue'], [-5, 0, 'orange'], [-5, 5, 'yellow'], [0, 5, 'purple']].map(([q, r, color]) => ({ cell: [q, r], color }));
  if (variant === 'rota') {
    for (const cell of [[0, 0], [1, 0], [0, 1], [1, 1]]) g.tiles.push({ cell, tile: rotaTile() });
  }
  g.bag = variant === 'rota' ? 30 : 60;
  return g;
}

const rotaTile = () => { const t = [...COLORS5].sort(() => rand(3) - 1).slice(0, 4); if (rand(5) === 0) t[rand(4)] = null; return t; };
const domino = (colors) => [colors[rand(colors.length)], colors[rand(colors.length)]];
const rackSize = (g) => (g.mode === 'solo' || g.variant === 'rota' ? 1 : g.variant === 'hex' ? 6 : 5);
function refill(g, s) {
  const seat = g.seats[s];
  while (seat.rack.length < rackSize(g) && g.bag > 0) { seat.rack.push(g.variant === 'rota' ? rotaTile() : domino(g.colors)); g.bag--; }
}

const inArea = (g, c) => (g.variant === 'square'
  ? Math.max(Math.abs(c[0] - 6), Math.abs(c[1] - 6)) <= (g.area - 1) / 2
  : Math.max(Math.abs(c[0]), Math.abs(c[1]), Math.abs(c[0] + c[1])) <= g.area);
const symAt = (g, c) => g.cells.get(k(c)) || g.fields.find((f) => k(f.cell) === k(c))?.color || null;
const free = (g, c) => inArea(g, c) && !symAt(g, c);

function frontier(g) {
  const have = new Set(g.tiles.map((t) => k(t.cell)));
  const out = new Map();
  for (const t of g.tiles) for (const d of SQ_DIRS) { const n = [t.cell[0] + d[0], t.cell[1] + d[1]]; if (!have.has(k(n))) out.set(k(n), n); }
  return [...out.values()];
}

// Evaluates a placement; returns {legal, points, error, apply()}.
function evaluate(g, seat, m) {
  const zero = Object.fromEntries(g.colors.map((c) => [c, 0]));
  const tile = g.seats[seat].rack[m.rack_index];
  if (!tile) return { legal: false, points: zero, error: 'no tile at that rack index' };
  const points = { ...zero };
  if (g.variant === 'rota') {
    if (!frontier(g).some((c) => k(c) === k(m.cell))) return { legal: false, points: zero, error: 'no side shared with the display' };
    const r = m.rotation | 0;
    const placed = [0, 1, 2, 3].map((i) => tile[(((i - r) % 4) + 4) % 4]);
    const V = [[0, 0], [1, 0], [1, 1], [0, 1]];
    placed.forEach((c, i) => {
      const vx = m.cell[0] + V[i][0], vy = m.cell[1] + V[i][1];
      const col = c || m.wild;
      for (const t of g.tiles) for (let j = 0; j < 4; j++) {
        if (t.cell[0] + V[j][0] === vx && t.cell[1] + V[j][1] === vy && col && t.tile[j] === col) points[col]++;
      }
    });
    return { legal: true, points, apply: () => { g.tiles.push({ cell: m.cell, tile: placed }); g.last = { player: seat, cell: m.cell }; } };
  }
  const [a, b] = m.cells || [];
  if (!a || !b || !free(g, a) || !free(g, b)) return { legal: false, points: zero, error: 'cell outside the play area or not empty' };
  const dirs = g.variant === 'hex' ? HEX_DIRS : SQ_DIRS;
  if (!dirs.some((d) => a[0] + d[0] === b[0] && a[1] + d[1] === b[1])) return { legal: false, points: zero, error: 'the two cells are not neighbours' };
  [[a, b, tile[0]], [b, a, tile[1]]].forEach(([x, y, col]) => {
    for (const d of dirs) {
      if (x[0] + d[0] === y[0] && x[1] + d[1] === y[1]) continue;
      let c = [x[0] + d[0], x[1] + d[1]];
      while (inArea(g, c) && symAt(g, c) === col) { points[col]++; c = [c[0] + d[0], c[1] + d[1]]; }
    }
  });
  return { legal: true, points, apply: () => { g.cells.set(k(a), tile[0]); g.cells.set(k(b), tile[1]); g.last = { player: seat, cells: [a, b] }; } };
}

const cap = (g) => (g.variant === 'rota' ? 12 : g.mode === 'standard' ? 18 : 36);
function scoreAfter(g, seat, points) {
  const s = { ...g.seats[seat].score };
  for (const c of g.colors) s[c] = Math.min(cap(g), s[c] + points[c]);
  return s;
}

function legalMoves(g, seat) {
  const out = [];
  const rack = g.seats[seat].rack;
  if (g.variant === 'rota') {
    if (rack.length) for (const cell of frontier(g)) out.push({ rack_index: 0, cell, rotation: rand(4), wild: null });
    return out;
  }
  const dirs = g.variant === 'hex' ? HEX_DIRS : SQ_DIRS;
  for (let i = 0; i < rack.length; i++) for (let a = -7; a <= 12; a++) for (let b = -7; b <= 12; b++) {
    if (!free(g, [a, b])) continue;
    for (const d of dirs) { const n = [a + d[0], b + d[1]]; if (free(g, n)) out.push({ rack_index: i, cells: [[a, b], n] }); }
  }
  return out;
}

function doMove(g, seat, m) {
  const ev = evaluate(g, seat, m);
  if (!ev.legal) return ev.error;
  const tile = g.seats[seat].rack[m.rack_index];
  ev.apply();
  g.seats[seat].rack.splice(m.rack_index, 1);
  const score = scoreAfter(g, seat, ev.points);
  g.seats[seat].score = score;
  const e = g.variant === 'rota'
    ? { ev: 'place', player: seat, tile: g.tiles[g.tiles.length - 1].tile, cell: m.cell, wild: m.wild || null, points: ev.points, score, bonus: false }
    : { ev: 'place', player: seat, tile, cells: m.cells, points: ev.points, score, bonus: false };
  emit(g, e);
  for (const c of g.colors) if (score[c] === 18 && tile.includes(c)) emit(g, { ev: 'axio', player: seat, color: c, score: 18, bonus_move: false });
  refill(g, seat);
  g.to_move = (g.to_move + 1) % g.players;
  if (!legalMoves(g, g.to_move).length) {
    g.status = 'over'; g.phase = 'over';
    const scores = g.seats.map((s) => s.score);
    const key = (s) => g.colors.map((c) => s[c]).sort((x, y) => x - y);
    const order = [...scores.keys()].sort((x, y) => { const a = key(scores[x]), b = key(scores[y]); for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i] - a[i]; return 0; });
    g.end = { ev: 'end', reason: 'blocked', scores, ranking: order.map((s) => [s]), result: g.players === 1 ? Math.min(...key(scores[0])) : null };
    emit(g, g.end);
  }
  return null;
}

function publicGame(g) {
  return {
    id: g.id, variant: g.variant, players: g.players, mode: g.mode, status: g.status, phase: g.phase, to_move: g.to_move, bonus: false,
    colors: g.colors, area: g.area, fields: g.fields,
    cells: [...g.cells.entries()].map(([kk, color]) => ({ cell: kk.split(',').map(Number), color })),
    pyramids: [], dead: [], tiles: g.tiles, frontier: g.variant === 'rota' ? frontier(g) : undefined, last: g.last,
    seats: g.seats.map((s) => ({ name: s.name, kind: s.kind, level: s.level, connected: s.kind === 'ai' || s.connected, rack_size: s.rack.length, score: s.score, taken: s.taken })),
    bag: g.bag, seed_hash: 'fake', end: g.end,
  };
}

function view(g, ev, seat) {
  if (ev.ev === 'draw' && ev.player !== seat) return { ...ev, tiles: ev.tiles.length };
  return ev;
}
function emit(g, ev) {
  g.events.push(ev);
  for (const c of g.clients) sendWs(c.sock, { type: 'event', seq: ++g.seq, event: view(g, ev, c.seat) });
}
function broadcastState(g) {
  for (const c of g.clients) sendWs(c.sock, { type: 'state', seq: ++g.seq, game: publicGame(g), you: c.seat === null ? null : { seat: c.seat, rack: g.seats[c.seat].rack } });
}

function aiLoop(g) {
  if (g.status !== 'running') return;
  const s = g.seats[g.to_move];
  if (s.kind !== 'ai') return;
  setTimeout(() => {
    const ms = legalMoves(g, g.to_move);
    const m = ms[rand(ms.length)];
    doMove(g, g.to_move, m);
    broadcastState(g);
    aiLoop(g);
  }, 250);
}

function start(g) {
  g.status = 'running';
  g.events.push({ ev: 'start', format: 'axio-record/1', variant: g.variant, players: g.players, mode: g.mode, names: g.seats.map((s) => s.name), area: g.area, fields: g.fields, display: g.variant === 'rota' ? g.tiles.map((t) => ({ ...t })) : undefined });
  g.seats.forEach((s, i) => { refill(g, i); g.events.push({ ev: 'draw', player: i, from: 'bag', tiles: [...s.rack] }); });
  aiLoop(g);
}

function takeSeat(g, name) {
  const i = g.seats.findIndex((s) => s.kind === 'human' && !s.taken);
  if (i < 0) return null;
  const token = crypto.randomBytes(16).toString('hex');
  Object.assign(g.seats[i], { taken: true, name: name || `Player ${i + 1}`, token });
  if (!g.seats.some((s) => s.kind === 'human' && !s.taken)) start(g);
  return { seat: i, token };
}

// ---- minimal WebSocket (RFC 6455) ----
function sendWs(sock, obj) {
  const data = Buffer.from(JSON.stringify(obj));
  let hdr;
  if (data.length < 126) hdr = Buffer.from([0x81, data.length]);
  else if (data.length < 65536) { hdr = Buffer.alloc(4); hdr[0] = 0x81; hdr[1] = 126; hdr.writeUInt16BE(data.length, 2); } else { hdr = Buffer.alloc(10); hdr[0] = 0x81; hdr[1] = 127; hdr.writeBigUInt64BE(BigInt(data.length), 2); }
  if (!sock.destroyed) sock.write(Buffer.concat([hdr, data]));
}
function parseFrames(buf, onText) {
  let off = 0;
  while (buf.length - off >= 2) {
    const op = buf[off] & 0x0f; let len = buf[off + 1] & 0x7f; let p = off + 2;
    if (len === 126) { if (buf.length - off < 4) break; len = buf.readUInt16BE(p); p += 2; } else if (len === 127) { if (buf.length - off < 10) break; len = Number(buf.readBigUInt64BE(p)); p += 8; }
    if (buf.length < p + 4 + len) break;
    const mask = buf.slice(p, p + 4); p += 4;
    const payload = Buffer.from(buf.slice(p, p + len)).map((b, i) => b ^ mask[i % 4]);
    off = p + len;
    if (op === 1) onText(payload.toString()); else if (op === 8) return { off, close: true };
  }
  return { off };
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const json = (code, obj) => { res.writeHead(code, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(obj)); };
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    const m = url.pathname.match(/^\/api\/games(?:\/([^/]+))?(?:\/(join|record))?$/);
    if (url.pathname === '/api/health') return json(200, { ok: true, version: 'fake' });
    if (m) {
      if (!m[1] && req.method === 'GET') return json(200, [...games.values()].filter((g) => g.status !== 'over').map((g) => ({ id: g.id, variant: g.variant, players: g.players, mode: g.mode, status: g.status, seats: g.seats.map((s) => ({ name: s.name, kind: s.kind, taken: s.taken })) })));
      if (!m[1] && req.method === 'POST') { const b = JSON.parse(body); const g = newGame(b); games.set(g.id, g); const t = takeSeat(g, b.name); return json(201, { game: g.id, ...t }); }
      const g = games.get(m[1]);
      if (!g) return json(404, { error: { code: 'not_found', message: 'no such game' } });
      if (m[2] === 'join') { const t = takeSeat(g, JSON.parse(body || '{}').name); if (!t) return json(409, { error: { code: 'full', message: 'no free seat' } }); broadcastState(g); aiLoop(g); return json(200, t); }
      if (m[2] === 'record') { if (g.status !== 'over') return json(403, { error: { code: 'forbidden', message: 'not over' } }); res.writeHead(200, { 'Content-Type': 'application/x-ndjson' }); return res.end(g.events.map((e) => JSON.stringify(e)).join('\n') + '\n'); }
      return json(200, publicGame(g));
    }
    let file = path.join(webDir, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(path.normalize(webDir))) { res.writeHead(403); return res.end(); }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); return res.end('not found'); }
      const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }[path.extname(file)] || 'application/octet-stream';
      res.writeHead(200, { 'Content-Type': type }); res.end(data);
    });
  });
});

server.on('upgrade', (req, sock) => {
  const url = new URL(req.url, 'http://x');
  const m = url.pathname.match(/^\/ws\/([^/]+)$/);
  const g = m && games.get(m[1]);
  if (!g) { sock.destroy(); return; }
  const acc = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acc}\r\n\r\n`);
  const token = url.searchParams.get('token');
  let seat = token ? g.seats.findIndex((s) => s.token === token) : null;
  if (seat === -1) seat = null;
  const client = { sock, seat };
  g.clients.add(client);
  if (seat !== null) g.seats[seat].connected = true;
  sendWs(sock, { type: 'state', seq: ++g.seq, game: publicGame(g), you: seat === null ? null : { seat, rack: g.seats[seat].rack } });
  sendWs(sock, { type: 'history', seq: ++g.seq, events: g.events.map((e) => view(g, e, seat)) });
  broadcastState(g);
  let buf = Buffer.alloc(0);
  sock.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    const r = parseFrames(buf, (text) => {
      let msg; try { msg = JSON.parse(text); } catch { return sendWs(sock, { type: 'error', code: 'bad_json', message: 'bad json' }); }
      if (msg.type === 'ping') return sendWs(sock, { type: 'pong' });
      if (seat === null) return sendWs(sock, { type: 'error', code: 'unauthorized', message: 'spectators cannot act' });
      if (g.status !== 'running' || g.to_move !== seat) return sendWs(sock, { type: 'error', code: 'not_your_turn', message: 'not your turn' });
      if (msg.type === 'preview') {
        const ev = evaluate(g, seat, msg);
        const zero = Object.fromEntries(g.colors.map((c) => [c, 0]));
        return sendWs(sock, { type: 'preview', legal: ev.legal, points: ev.legal ? ev.points : zero, score: ev.legal ? scoreAfter(g, seat, ev.points) : zero, pyramids: [], error: ev.error || null });
      }
      if (msg.type === 'place') {
        const err = doMove(g, seat, msg);
        if (err) return sendWs(sock, { type: 'error', code: 'illegal_move', message: err });
        broadcastState(g); aiLoop(g); return undefined;
      }
      return sendWs(sock, { type: 'error', code: 'bad_message', message: 'unknown type' });
    });
    buf = buf.slice(r.off);
    if (r.close) sock.end();
  });
  const gone = () => { g.clients.delete(client); if (seat !== null && ![...g.clients].some((c) => c.seat === seat)) { g.seats[seat].connected = false; broadcastState(g); } };
  sock.on('close', gone);
  sock.on('error', gone);
});

server.listen(PORT, '127.0.0.1', () => console.log(`fake axio server on http://127.0.0.1:${PORT}/`));
