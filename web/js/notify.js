// notify.js — notifications by Web Push (docs/notifications.md): the service worker
// (sw.js, registered on every visit: it also keeps the client's files), this device's
// subscription, and the preferences card on one's own profile.
//
// The page never asks for permission on a first visit: only when a signed-in player
// starts or joins a game with a day per move (once: a refusal is remembered), or from
// the profile's card. A subscription is the browser's (pushManager.subscribe with the
// site's VAPID key) and is handed to the server with the page's language, so that the
// notices come in it.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { t, errorText } from './messages.js';
import { lang } from './lang.js';
import { session } from './account.js';

const ASKED_KEY = 'axio.push_asked';
const KINDS = ['turn', 'clock', 'over', 'challenge', 'event'];

export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

let registration = null;
let current = null; // the subscription this page made or found

async function deviceSubscription() {
  if (current) return current;
  const reg = await navigator.serviceWorker.getRegistration();
  current = (await reg?.pushManager.getSubscription().catch(() => null)) || null;
  return current;
}
export function registerWorker() {
  if (!('serviceWorker' in navigator) || registration) return registration;
  registration = navigator.serviceWorker.register('/sw.js').catch(() => null);
  return registration;
}

function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

// This device's subscription, made if need be and handed to the server: true when on.
export async function subscribeDevice() {
  if (!pushSupported() || !session.me) return false;
  if (Notification.permission !== 'granted') {
    const answer = await Notification.requestPermission();
    if (answer !== 'granted') return false;
  }
  await registerWorker();
  const reg = await navigator.serviceWorker.ready;
  let sub = current || await reg.pushManager.getSubscription();
  if (!sub) {
    const { key } = await api.pushKey();
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  current = sub;
  const json = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
  await api.pushSubscribe({ endpoint: json.endpoint, keys: json.keys, lang: lang() });
  return true;
}

export async function unsubscribeDevice() {
  if (!pushSupported()) return;
  const sub = await deviceSubscription();
  if (!sub) return;
  try { await api.pushUnsubscribe(sub.endpoint); } catch (e) { if (e.status !== 404) throw e; }
  current = null;
  await sub.unsubscribe().catch(() => {});
}

// A signed-in player started or joined a game with this clock: a day per move asks,
// once, whether the site may tell them when it is their turn. A device already
// allowed is (re)subscribed without a question.
export function offerForClock(clock) {
  if (!pushSupported() || !session.me || clock?.kind !== 'daily') return;
  if (Notification.permission === 'granted') { subscribeDevice().catch(() => {}); return; }
  if (Notification.permission === 'denied' || localStorage.getItem(ASKED_KEY)) return;
  localStorage.setItem(ASKED_KEY, '1');
  subscribeDevice().catch(() => {});
}

// The same after joining a game known only by its id.
export async function offerForGame(id) {
  if (!pushSupported() || !session.me) return;
  try {
    const st = await api.getGame(id);
    offerForClock(st?.clock || st?.game?.clock);
  } catch { /* no offer */ }
}

// The card on one's own profile: this device on or off, and which notices come.
export function notificationsSection() {
  const status = h('p', { class: 'push-status', id: 'push-status', role: 'status' });
  const msg = h('p', { class: 'form-msg', role: 'alert', id: 'push-msg' });
  const toggle = h('button', { class: 'btn', type: 'button', id: 'push-toggle' });
  const table = h('div', { id: 'push-prefs' }, [h('span', { class: 'spinner' })]);
  const mailBox = h('div', { id: 'push-email', class: 'push-email' });
  let settings = null;
  let mail = null;

  const drawDevice = async () => {
    if (!pushSupported()) {
      status.dataset.state = 'unsupported';
      status.textContent = t('push.unsupported');
      toggle.hidden = true;
      return;
    }
    const sub = await deviceSubscription();
    const on = Notification.permission === 'granted' && !!sub;
    status.dataset.state = Notification.permission === 'denied' ? 'blocked' : on ? 'on' : 'off';
    status.textContent = t(`push.device_${status.dataset.state}`);
    toggle.hidden = Notification.permission === 'denied';
    toggle.dataset.action = on ? 'push-off' : 'push-on';
    toggle.textContent = t(on ? 'push.turn_off' : 'push.turn_on');
  };

  toggle.onclick = async () => {
    msg.textContent = '';
    toggle.disabled = true;
    try {
      if (toggle.dataset.action === 'push-on') {
        if (!(await subscribeDevice())) msg.textContent = t('push.not_allowed');
      } else {
        await unsubscribeDevice();
      }
    } catch (e) {
      msg.textContent = t('push.failed', { msg: errorText(e) });
    }
    toggle.disabled = false;
    await drawDevice();
  };

  const save = async (kind, channel, value, box) => {
    msg.textContent = '';
    try {
      settings = await api.setNotifySettings({ prefs: { [kind]: { [channel]: value } }, lang: lang() });
    } catch (e) {
      box.checked = !value;
      msg.textContent = t('push.failed', { msg: errorText(e) });
    }
  };

  // The address of the daily digest: given, confirmed by the link it is sent, removed.
  const drawMail = () => {
    clear(mailBox);
    if (!mail?.available) return;
    const input = h('input', { id: 'email-address', class: 'text-input', type: 'email', autocomplete: 'email', maxlength: 254, value: mail.address || '' });
    const state = h('p', { class: 'muted', id: 'email-state', 'data-state': !mail.address ? 'none' : mail.verified ? 'verified' : 'unverified' },
      [t(!mail.address ? 'email.none' : mail.verified ? 'email.verified' : 'email.unverified')]);
    const form = h('form', { class: 'email-form', novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      msg.textContent = '';
      if (!input.value.trim()) { msg.textContent = t('email.empty'); input.focus(); return; }
      try {
        mail = await api.setEmail(input.value.trim());
      } catch (err) {
        msg.textContent = err.status === 400 ? t('email.bad') : t('push.failed', { msg: errorText(err) });
        return;
      }
      drawMail();
      drawPrefs();
    } }, [
      h('label', { for: 'email-address', class: 'field-label' }, [t('email.label')]), ' ', input, ' ',
      h('button', { class: 'btn', type: 'submit', 'data-action': 'save-email' }, [t('email.save')]),
      mail.address ? h('button', { class: 'btn danger-subtle', type: 'button', 'data-action': 'remove-email', onclick: async () => {
        msg.textContent = '';
        try { await api.removeEmail(); } catch (err) { if (err.status !== 404) { msg.textContent = t('push.failed', { msg: errorText(err) }); return; } }
        mail = { ...mail, address: null, verified: false };
        drawMail();
        drawPrefs();
      } }, [t('email.remove')]) : null,
    ]);
    mailBox.append(form, state);
  };

  const drawPrefs = () => {
    clear(table);
    // the digest lists the games waiting for one's move: e-mail is for `turn` only
    const emailOk = !!(settings.email_available && mail?.available && mail.verified);
    table.append(h('table', { class: 'push-prefs' }, [
      h('thead', {}, [h('tr', {}, [
        h('th', { scope: 'col' }, [t('push.kind')]),
        h('th', { scope: 'col' }, [t('push.channel_push')]),
        h('th', { scope: 'col' }, [t('push.channel_email')]),
      ])]),
      h('tbody', {}, KINDS.map((kind) => h('tr', { 'data-kind': kind }, [
        h('th', { scope: 'row' }, [t(`push.kind_${kind}`)]),
        ...['push', 'email'].map((channel) => {
          const box = h('input', { type: 'checkbox', id: `push-${kind}-${channel}`, 'data-channel': channel,
            'aria-label': `${t(`push.kind_${kind}`)}: ${t(`push.channel_${channel}`)}` });
          box.checked = !!settings.prefs?.[kind]?.[channel];
          box.disabled = channel === 'email' && (!emailOk || kind !== 'turn');
          if (channel === 'email' && kind !== 'turn') box.checked = false;
          box.onchange = () => save(kind, channel, box.checked, box);
          return h('td', {}, [box]);
        }),
      ]))),
    ]));
    table.append(h('p', { class: 'muted' }, [t(!mail?.available ? 'push.email_unavailable'
      : mail.verified ? 'email.digest_explain' : 'email.confirm_first')]));
  };

  (async () => {
    await drawDevice();
    try {
      [settings, mail] = await Promise.all([api.notifySettings(), api.email()]);
      drawMail();
      drawPrefs();
    } catch (e) {
      clear(table).append(h('p', { class: 'form-msg' }, [t('push.failed', { msg: errorText(e) })]));
    }
  })();

  return h('section', { class: 'card profile-notifications', id: 'profile-notifications' }, [
    h('h3', {}, [t('push.title')]),
    h('p', { class: 'muted' }, [t('push.explain')]),
    h('div', { class: 'push-device' }, [status, toggle]),
    table,
    mailBox,
    msg,
  ]);
}
