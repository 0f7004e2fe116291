// quick.js — the lobby's "Quick game": a seek (docs/accounts.md, "Challenges and quick
// pairing"). The player chooses the variant, a clock and rated or casual and presses
// "Find an opponent": POST /api/seeks, then the page asks GET /api/seeks/ID every 1.5 s
// (a seek nobody asks about pairs no more after 20 s) and shows how long it has waited,
// with Cancel. The server pairs it with a person of a similar rating or, after 15 s
// without one, with the computer level nearest the player's rating; matched, the game
// opens (the session takes the seat: no token). Leaving the lobby takes the seek back.
// A guest is asked to log in: seeks need an account.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, authHash } from './account.js';
import { t, errorText } from './messages.js';
import { termsPicker, termsText } from './terms.js';

const POLL_MS = 1500;

export class QuickGame {
  constructor() {
    this.el = h('section', { class: 'quick-game', id: 'quick-game', 'aria-labelledby': 'quick-title' });
    this.seek = null;       // the server's seek while it waits
    this.timer = null;
    this.dead = false;
    this.render();
  }

  destroy() {
    this.dead = true;
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    // Nobody waits for it any more: taken back (a seek paired meanwhile is in My games).
    if (this.seek?.status === 'waiting') api.cancelSeek(this.seek.id).catch(() => {});
  }

  onSession() { if (!this.seek) this.render(); }

  render() {
    clear(this.el);
    this.el.dataset.state = this.seek ? 'waiting' : session.me ? 'form' : 'guest';
    const head = h('h2', { id: 'quick-title' }, [t('quick.title')]);
    if (!session.me) {
      this.el.append(head, h('p', { class: 'muted quick-guest' }, [
        t('quick.guest'), ' ',
        h('a', { href: authHash('login', '#/'), 'data-action': 'login' }, [t('account.login')]), ' · ',
        h('a', { href: authHash('signup', '#/'), 'data-action': 'signup' }, [t('account.signup')]),
      ]));
      return;
    }
    if (this.seek) { this.renderWaiting(head); return; }
    this.picker = termsPicker('quick', this.terms || {});
    this.msg = h('p', { class: 'form-msg', role: 'alert' });
    this.btn = h('button', { class: 'btn primary', type: 'submit', 'data-action': 'seek' }, [t('quick.find')]);
    this.el.append(head, h('form', { class: 'quick-form', onsubmit: (e) => { e.preventDefault(); this.start(); } }, [
      h('p', { class: 'muted small-note quick-lead' }, [t('quick.lead')]),
      this.picker.el,
      h('div', { class: 'quick-foot' }, [this.btn, this.msg]),
    ]));
  }

  renderWaiting(head) {
    this.waitText = h('span', { class: 'quick-wait-text' });
    this.el.append(head, h('div', { class: 'quick-waiting', role: 'status' }, [
      h('span', { class: 'spinner' }), this.waitText,
      h('button', { class: 'btn small', type: 'button', 'data-action': 'cancel-seek', onclick: () => this.cancel() }, [t('quick.cancel')]),
      h('p', { class: 'muted small-note' }, [termsText(this.seek), ' — ', t('quick.computer_after')]),
    ]));
    this.tick();
  }

  tick() {
    if (!this.waitText || !this.seek) return;
    const s = Math.max(0, Math.floor((Date.now() - this.since) / 1000));
    this.waitText.textContent = t('quick.waiting', { s });
  }

  async start() {
    this.terms = this.picker.value();
    this.btn.disabled = true;
    this.msg.textContent = '';
    let res;
    try {
      res = await api.seek(this.terms);
    } catch (e) {
      if (this.dead) return;
      this.btn.disabled = false;
      this.msg.textContent = e.status === 401 ? t('quick.guest') : t('quick.failed', { msg: errorText(e) });
      if (e.status === 401) session.refresh();
      return;
    }
    if (this.dead) { if (res.seek?.status === 'waiting') api.cancelSeek(res.seek.id).catch(() => {}); return; }
    this.since = Date.now();
    this.seen(res.seek);
  }

  // What the server says of the seek: matched opens the game; waiting asks again.
  seen(seek) {
    if (this.dead) return;
    if (seek.status === 'matched' && seek.game) {
      this.seek = null;
      location.hash = `#/game/${encodeURIComponent(seek.game)}${Number.isInteger(seek.seat) ? `?seat=${seek.seat}` : ''}`;
      return;
    }
    if (seek.status !== 'waiting') { this.stop(); return; }
    const first = !this.seek;
    this.seek = seek;
    if (first) {
      this.render();
      clearInterval(this.ticker);
      this.ticker = setInterval(() => this.tick(), 1000);
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  async poll() {
    const seek = this.seek;
    if (!seek || this.dead) return;
    try {
      this.seen((await api.getSeek(seek.id)).seek);
    } catch (e) {
      if (this.dead || this.seek !== seek) return;
      if (e.status === 404 || e.status === 401) { this.stop(t('quick.lost')); return; }
      this.timer = setTimeout(() => this.poll(), POLL_MS); // the network: ask again
    }
  }

  async cancel() {
    const seek = this.seek;
    if (!seek) return;
    clearTimeout(this.timer);
    try {
      await api.cancelSeek(seek.id);
    } catch (e) {
      // Paired meanwhile: the game is there, open it.
      if (e.status === 409) { this.poll(); return; }
    }
    this.stop();
  }

  stop(text = '') {
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    this.seek = null;
    this.render();
    if (text && this.msg) this.msg.textContent = text;
  }
}
