// attention.js — tells the player that it is their turn when they look elsewhere:
// the tab's title and icon change, an optional short beep (off by default), and a
// browser notification while the tab is hidden — only after the player turned it
// on with a visible switch (the page never asks for permission by itself).
// Both choices are remembered in localStorage. announce() says the same way that an
// event's next game has opened (events.js).
import { h } from './svg.js';
import { t } from './messages.js';

const SOUND_KEY = 'axio.sound';
const NOTIFY_KEY = 'axio.notify';

// A small icon for the tab: a blue disc with a white "play" triangle.
export const TURN_ICON = 'data:image/svg+xml,' + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#2f7de1"/>'
  + '<path d="M12 9 L24 16 L12 23 Z" fill="#fff"/></svg>');

const iconLink = () => {
  let el = document.querySelector('link[rel~="icon"]');
  if (!el) { el = document.createElement('link'); el.rel = 'icon'; document.head.appendChild(el); }
  return el;
};

export const alertPrefs = {
  get sound() { return localStorage.getItem(SOUND_KEY) === '1'; },
  set sound(v) { localStorage.setItem(SOUND_KEY, v ? '1' : '0'); },
  get notify() { return localStorage.getItem(NOTIFY_KEY) === '1'; },
  set notify(v) { localStorage.setItem(NOTIFY_KEY, v ? '1' : '0'); },
};

let audio = null;
// Browsers start audio only after a gesture: the first click or key on the page
// makes (or wakes) the audio context when the sound is on.
function unlockAudio() {
  if (!alertPrefs.sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
  } catch { /* no audio */ }
}

function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
    const now = audio.currentTime;
    for (const [at, f] of [[0, 660], [0.16, 880]]) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.type = 'sine';
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + at);
      g.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
      o.connect(g).connect(audio.destination);
      o.start(now + at);
      o.stop(now + at + 0.16);
    }
  } catch { /* no audio: nothing to do */ }
}

export class TurnAlert {
  constructor() {
    this.baseTitle = document.title;
    this.baseIcon = iconLink().getAttribute('href');
    this.mine = null;
    this.notification = null;
    this.onVisible = () => { if (!document.hidden) this.notification?.close(); };
    document.addEventListener('visibilitychange', this.onVisible);
    document.addEventListener('pointerdown', unlockAudio, { once: true, capture: true });
    document.addEventListener('keydown', unlockAudio, { once: true, capture: true });
  }

  // The two switches, for the game page's side panel.
  controls() {
    const sound = h('input', { type: 'checkbox', id: 'alert-sound', checked: alertPrefs.sound });
    sound.addEventListener('change', () => { alertPrefs.sound = sound.checked; if (sound.checked) beep(); });
    const notify = h('input', { type: 'checkbox', id: 'alert-notify', checked: alertPrefs.notify && this.permission() === 'granted' });
    this.notifyNote = h('span', { class: 'alert-note muted', role: 'status' });
    notify.addEventListener('change', async () => {
      this.notifyNote.textContent = '';
      if (!notify.checked) { alertPrefs.notify = false; return; }
      if (!('Notification' in window)) { notify.checked = false; this.notifyNote.textContent = t('turn.notify_unsupported'); return; }
      let p = Notification.permission;
      if (p === 'default') { try { p = await Notification.requestPermission(); } catch { p = 'denied'; } }
      notify.checked = p === 'granted';
      alertPrefs.notify = notify.checked;
      if (p !== 'granted') this.notifyNote.textContent = t('turn.notify_denied');
    });
    return h('div', { class: 'alert-controls' }, [
      h('label', { for: 'alert-sound' }, [sound, ' ', t('turn.sound')]),
      h('label', { for: 'alert-notify' }, [notify, ' ', t('turn.notify')]),
      this.notifyNote,
    ]);
  }

  permission() { return 'Notification' in window ? Notification.permission : 'unsupported'; }

  // Called with every state: mine = it is this player's turn now; title = the page's
  // normal title; game = the game's name.
  update(mine, title, game) {
    this.baseTitle = title;
    const was = this.mine;
    this.mine = mine;
    document.title = mine ? t('turn.title', { game }) : title;
    iconLink().setAttribute('href', mine ? TURN_ICON : this.baseIcon);
    document.documentElement.dataset.turn = mine ? 'you' : '';
    if (!mine) { this.notification?.close(); return; }
    if (was !== false) return;   // only when the turn comes (not on opening the page)
    if (alertPrefs.sound) beep();
    if (alertPrefs.notify && document.hidden && this.permission() === 'granted') {
      try {
        this.notification = new Notification(t('turn.notify_title'), { body: t('turn.notify_body', { game }), tag: 'axio-turn', icon: TURN_ICON });
        this.notification.onclick = () => { window.focus(); this.notification?.close(); };
      } catch { /* some browsers allow notifications only from a service worker */ }
    }
  }

  destroy() {
    document.removeEventListener('visibilitychange', this.onVisible);
    document.removeEventListener('pointerdown', unlockAudio, { capture: true });
    document.removeEventListener('keydown', unlockAudio, { capture: true });
    this.notification?.close();
    iconLink().setAttribute('href', this.baseIcon);
    delete document.documentElement.dataset.turn;
  }
}

// Something of the player's own starts without a turn having come yet (an event's next
// game, events.js): the title says it, the sound (if on) plays as for a turn, and a
// notification shows while the tab is hidden (if turned on). The page that opens next
// sets its own title.
export function announce(title, body) {
  document.title = title;
  document.documentElement.dataset.announced = title;
  if (alertPrefs.sound) beep();
  if (alertPrefs.notify && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
    try {
      const n = new Notification(title, { body, tag: 'axio-event', icon: TURN_ICON });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* some browsers allow notifications only from a service worker */ }
  }
}
