// main.js — the entry point: a tiny hash router (#/ lobby, #/game/ID play,
// #/game/ID/replay a finished game's replay, #/watch/ID spectate, #/join/ID join
// from an invite link: invite.js) and the header's connection indicator.
import { Lobby } from './lobby.js';
import { GameView } from './game.js';
import { tokens } from './api.js';
import { InvitePage } from './invite.js';
import { ensureShapeDefs } from './colors.js';

const root = document.getElementById('app');
const conn = document.getElementById('conn');
let view = null;

function setConn(st) {
  if (!st) { conn.hidden = true; return; }
  conn.hidden = false;
  conn.className = `conn-badge ${st.state}`;
  conn.dataset.state = st.state;
  if (st.state === 'open') conn.textContent = 'connected';
  else if (st.state === 'connecting') conn.textContent = st.attempt ? 'reconnecting…' : 'connecting…';
  else if (st.state === 'lost') {
    const s = Math.max(0, Math.ceil((st.retryAt - Date.now()) / 1000));
    conn.textContent = `connection lost — retrying in ${s} s`;
  } else conn.textContent = 'closed';
}

function route() {
  view?.destroy?.();
  view = null;
  setConn(null);
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  document.body.dataset.page = parts[0] || 'lobby';
  if (parts[0] === 'game' && parts[1]) {
    view = new GameView(root, parts[1], { onStatus: setConn, replay: parts[2] === 'replay' });
  } else if (parts[0] === 'watch' && parts[1]) {
    view = new GameView(root, parts[1], { spectate: true, onStatus: setConn });
  } else if (parts[0] === 'join' && parts[1]) {
    // An invite link: a seat held already goes straight to the game; otherwise the
    // invite page asks the name first (or says why the game cannot be joined).
    const id = parts[1];
    if (tokens.get(id)) { location.replace(`#/game/${id}`); return; }
    view = new InvitePage(root, id);
  } else {
    document.title = 'axio';
    view = new Lobby(root);
  }
}

ensureShapeDefs();
window.addEventListener('hashchange', route);
route();
