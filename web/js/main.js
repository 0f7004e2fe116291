// main.js — the entry point: a tiny hash router (#/ lobby, #/game/ID play,
// #/game/ID/replay a finished game's replay, #/watch/ID spectate, #/join/ID join
// from an invite link: invite.js, #/login and #/signup with ?next=#/…: auth.js,
// #/player/NAME a profile, #/leaderboard/VARIANT, #/game/ID?seat=S an account's seat
// taken with the session alone (no token in this browser), #/rules/VARIANT[/SECTION] the rules:
// rules.js, #/learn/VARIANT a guided first game: guide.js), the header's connection indicator, its account area (account.js) and
// language switcher (lang.js), #/mod the moderators' page (moderation.js), #/events the events
// (arenas and Swiss tournaments: events.js) and #/event/ID one of them (event.js). A page with
// onSession() hears when someone logs in or out.
import { Lobby } from './lobby.js';
import { AuthPage } from './auth.js';
import { ProfilePage } from './profile.js';
import { LeaderboardPage } from './leaderboard.js';
import { session, mountAccountArea } from './account.js';
import { GameView } from './game.js';
import { tokens } from './api.js';
import { InvitePage } from './invite.js';
import { ensureShapeDefs } from './colors.js';
import { t } from './messages.js';
import { RulesPage } from './rules.js';
import { rulesLabel } from './rules/labels.js';
import { mountLangSwitch } from './lang.js';
import { LearnPage } from './guide.js';
import { challenges, mountChallengeNotice } from './challenges.js';
import { ModerationPage, mountWarnings } from './moderation.js';
import { registerWorker } from './notify.js';
import { EventsPage, eventWatch, mountEventNotice } from './events.js';
import { EventPage } from './event.js';

const root = document.getElementById('app');
const conn = document.getElementById('conn');
let view = null;

function setConn(st) {
  if (!st) { conn.hidden = true; return; }
  conn.hidden = false;
  conn.className = `conn-badge ${st.state}`;
  conn.dataset.state = st.state;
  if (st.state === 'open') conn.textContent = t('conn.open');
  else if (st.state === 'connecting') conn.textContent = t(st.attempt ? 'conn.reconnecting' : 'conn.connecting');
  else if (st.state === 'lost') {
    const s = Math.max(0, Math.ceil((st.retryAt - Date.now()) / 1000));
    conn.textContent = t('conn.lost', { s });
  } else conn.textContent = t('conn.closed');
  conn.title = conn.textContent; // phones show only the badge's dot
}

function route() {
  view?.destroy?.();
  view = null;
  setConn(null);
  const [path, search = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  const query = new URLSearchParams(search);
  let arg = parts[1];
  try { arg = arg === undefined ? arg : decodeURIComponent(arg); } catch { /* keep it as it is */ }
  document.body.dataset.page = parts[0] || 'lobby';
  if (parts[0] === 'login' || parts[0] === 'signup') {
    view = new AuthPage(root, parts[0], query);
  } else if (parts[0] === 'player' && arg) {
    view = new ProfilePage(root, arg);
  } else if (parts[0] === 'rules') {
    view = new RulesPage(root, arg || 'square', parts[2]);
  } else if (parts[0] === 'learn') {
    view = new LearnPage(root, arg || 'square');
  } else if (parts[0] === 'mod') {
    view = new ModerationPage(root);
  } else if (parts[0] === 'leaderboard') {
    view = new LeaderboardPage(root, arg || 'square');
  } else if (parts[0] === 'events') {
    view = new EventsPage(root, query);
  } else if (parts[0] === 'event' && arg) {
    view = new EventPage(root, arg);
  } else if (parts[0] === 'game' && parts[1]) {
    // ?seat=S: the account's seat to take without a token (My games, a quick game).
    const seat = /^[0-3]$/.test(query.get('seat') || '') ? Number(query.get('seat')) : null;
    view = new GameView(root, parts[1], { onStatus: setConn, replay: parts[2] === 'replay', seat });
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
document.querySelector('.nav-lobby').textContent = t('nav.lobby');
document.querySelector('.nav-leaderboard').textContent = t('nav.leaderboard');
document.querySelector('.nav-rules').textContent = rulesLabel('nav');
document.querySelector('header.top .brand').setAttribute('aria-label', t('page.brand'));
mountLangSwitch(document.querySelector('header.top'), rulesLabel('lang'));
mountAccountArea(document.getElementById('account'));
session.onChange((me) => view?.onSession?.(me));
window.addEventListener('hashchange', route);
route();
// Challenges received (a notice on the other pages) and ours accepted (the game opens).
mountChallengeNotice(document.body);
challenges.start();
// A moderator's warning, shown at the next visit until read (moderation.js).
mountWarnings();
// The service worker: notifications (only once the player allowed them) and the client's
// files kept for a bad connection (notify.js, sw.js).
registerWorker();
// An event's next game opens by itself (events.js; the event page asks itself).
mountEventNotice(document.body);
eventWatch.start();
