// chat.js — the chat panel of a game page, for players and spectators: a header
// that opens and closes it (with an unread count while closed), the messages, and
// a line to write (at most 500 characters). Every text goes into the page as text
// nodes, never as HTML. game.js feeds it the server's chat and chat_history
// messages and sends what it returns from onSend.
import { h, s, clear, svgRoot } from './svg.js';
import { t } from './messages.js';
import { botTag } from './bot_mark.js';

const MAX = 500;
const OPEN_KEY = 'axio.chat.open';
// Control characters are not allowed in a chat text (U+0000–U+001F, U+007F–U+009F).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

const clock = (at) => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? '' : `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

export class Chat {
  // cb.send(text) -> true when it went out; cb.youSeat() -> seat or null
  constructor(cb) {
    this.cb = cb;
    this.unread = 0;
    this.open = localStorage.getItem(OPEN_KEY) === '1';
    this.badge = h('span', { class: 'chat-badge', hidden: true, 'aria-live': 'polite' });
    this.toggleBtn = h('button', {
      class: 'chat-toggle', type: 'button', 'aria-expanded': String(this.open), 'data-action': 'chat-toggle',
      onclick: () => this.setOpen(!this.open),
    }, [h('span', { class: 'chat-caret', 'aria-hidden': 'true' }), h('span', {}, [t('chat.title')]), this.badge]);
    this.list = h('ol', { class: 'chat-list', 'aria-live': 'polite', 'aria-label': t('chat.title') });
    this.input = h('input', {
      type: 'text', class: 'chat-input', maxlength: MAX, placeholder: t('chat.placeholder'), 'aria-label': t('chat.placeholder'),
      autocomplete: 'off', enterkeyhint: 'send',
    });
    this.count = h('span', { class: 'chat-count', 'aria-live': 'polite' });
    this.err = h('p', { class: 'chat-error', role: 'alert', hidden: true });
    this.sendBtn = h('button', { class: 'btn small primary', type: 'submit', 'data-action': 'chat-send' }, [t('chat.send')]);
    this.form = h('form', { class: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.submit(); } }, [this.input, this.sendBtn]);
    this.input.addEventListener('input', () => this.onInput());
    this.body = h('div', { class: 'chat-body', hidden: !this.open }, [this.list, this.err, h('div', { class: 'chat-foot' }, [this.form, this.count])]);
    this.el = h('section', { class: `chat-panel${this.open ? ' open' : ''}`, id: 'chat', 'aria-label': t('chat.title') }, [this.toggleBtn, this.body]);
    // Phones: a floating button that shows new messages while the panel is out of sight.
    const icon = svgRoot('0 0 24 24', { width: 18, height: 18, 'aria-hidden': 'true', class: 'chat-fab-icon' });
    s('path', { d: 'M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z', fill: 'currentColor' }, icon);
    this.fab = h('button', { class: 'chat-fab', type: 'button', hidden: true, 'aria-label': t('chat.open'), onclick: () => this.reveal() }, [icon, h('span', { class: 'chat-fab-n' })]);
    this.renderEmpty();
  }

  setOpen(open) {
    this.open = open;
    localStorage.setItem(OPEN_KEY, open ? '1' : '0');
    this.el.classList.toggle('open', open);
    this.body.hidden = !open;
    this.toggleBtn.setAttribute('aria-expanded', String(open));
    if (open) {
      this.unread = 0;
      this.list.scrollTop = this.list.scrollHeight;
    }
    this.renderBadge();
  }

  reveal() {
    this.setOpen(true);
    this.el.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    this.input.focus({ preventScroll: true });
  }

  renderBadge() {
    const n = this.open ? 0 : this.unread;
    this.badge.hidden = n === 0;
    this.badge.textContent = String(n);
    this.badge.title = t('chat.unread', { n });
    this.fab.hidden = n === 0;
    this.fab.querySelector('.chat-fab-n').textContent = String(n);
  }

  renderEmpty() {
    if (!this.list.children.length) this.list.appendChild(h('li', { class: 'chat-empty muted' }, [t('chat.empty')]));
  }

  // chat_history: the list is replaced (it comes again after every reconnect).
  setHistory(messages) {
    clear(this.list);
    for (const m of messages || []) this.list.appendChild(this.line(m));
    this.renderEmpty();
    this.list.scrollTop = this.list.scrollHeight;
  }

  add(m) {
    this.list.querySelector('.chat-empty')?.remove();
    const nearEnd = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    this.list.appendChild(this.line(m));
    while (this.list.children.length > 300) this.list.firstChild.remove();
    if (nearEnd || this.isMine(m)) this.list.scrollTop = this.list.scrollHeight;
    if (this.isMine(m)) this.clearError();
    else if (!this.open) { this.unread++; this.renderBadge(); }
  }

  isMine(m) {
    const seat = this.cb.youSeat();
    return seat !== null && m.from?.seat === seat;
  }

  line(m) {
    const seat = m.from?.seat;
    const spect = seat === null || seat === undefined;
    const name = spect ? t('chat.spectator') : (m.from?.name || t('common.player_n', { n: seat + 1 }));
    const mine = this.isMine(m);
    // Another player's line may be reported (a signed-in reader: cb.report).
    const report = !mine && !spect && Number.isInteger(m.n) && this.cb.report
      ? h('button', { class: 'chat-report link-btn', type: 'button', 'data-action': 'chat-report', title: t('chat.report_line'), 'aria-label': t('chat.report_line'), onclick: () => this.cb.report(m) }, ['⚑'])
      : null;
    return h('li', { class: `chat-msg${mine ? ' mine' : ''}${spect ? ' spectator' : ''}`, 'data-seat': spect ? '' : String(seat), 'data-n': Number.isInteger(m.n) ? String(m.n) : '' }, [
      h('span', { class: 'chat-time muted' }, [clock(m.at)]),
      h('b', { class: 'chat-from' }, [mine ? t('chat.you', { name }) : name, !spect && this.cb.botSeat?.(seat) ? ' ' : null, !spect && this.cb.botSeat?.(seat) ? botTag() : null]),
      h('span', { class: 'chat-text' }, [String(m.text ?? '')]),
      report,
    ]);
  }

  // A moderator's timeout (docs/moderation.md): no chat until `until` (unix ms), or again.
  setTimedOut(until) {
    clearTimeout(this.timeoutTimer);
    const on = Number.isFinite(until) && until > Date.now();
    this.input.disabled = on;
    this.sendBtn.disabled = on;
    this.el.dataset.timeout = on ? '1' : '';
    this.input.placeholder = on ? t('chat.timeout', { time: clock(until) }) : t('chat.placeholder');
    if (on) {
      this.showError(t('chat.timeout', { time: clock(until) }));
      clearTimeout(this.errTimer); // said until it ends
      this.timeoutTimer = setTimeout(() => { this.setTimedOut(null); this.clearError(); }, Math.min(until - Date.now() + 500, 2 ** 31 - 1));
    }
  }

  onModeration(m) {
    if (m.chat === 'timeout') this.setTimedOut(m.until);
    else { this.setTimedOut(null); this.clearError(); }
  }

  onInput() {
    const n = [...this.input.value].length;
    this.count.textContent = n > MAX - 100 ? `${n} / ${MAX}` : '';
    this.count.classList.toggle('over', n > MAX);
  }

  submit() {
    const text = this.input.value.replace(CONTROL, ' ').trim();
    if (!text) return;
    if ([...text].length > MAX) { this.showError(t('chat.too_long')); return; }
    if (!this.cb.send(text)) { this.showError(t('chat.offline')); return; }
    this.lastSent = text;
    this.input.value = '';
    this.onInput();
  }

  showError(text) {
    this.err.textContent = text;
    this.err.hidden = false;
    if (!this.open) this.setOpen(true);
    clearTimeout(this.errTimer);
    this.errTimer = setTimeout(() => this.clearError(), 6000);
  }

  clearError() { this.err.hidden = true; this.err.textContent = ''; }

  // An error answer of the server to a chat message.
  onError(code, message, until = null) {
    if (this.lastSent && !this.input.value) { this.input.value = this.lastSent; this.onInput(); }
    if (code === 'chat_timeout') { this.input.value = ''; this.onInput(); this.setTimedOut(until); return; }
    if (code === 'rate_limited') this.showError(t('chat.rate_limited'));
    else if (code === 'bad_message') this.showError(t('chat.bad_message'));
    else this.showError(message || code);
  }

  destroy() { clearTimeout(this.errTimer); this.fab.remove(); }
}
