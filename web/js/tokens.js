// tokens.js — on one's own profile, what a program needs to play for the account
// (docs/bot-api.md, "Bot accounts and tokens"): the personal API tokens (GET, POST,
// DELETE /api/me/tokens: label, scopes, made, last used; a new one's secret shown once,
// with Copy; Revoke asks first), and making the account a bot (POST
// /api/bot/account/upgrade with who runs it: for good, only without rated games; the
// server's refusals said in words).
import { h, clear } from './svg.js';
import { api } from './api.js';
import { t, errorText } from './messages.js';
import { lang } from './lang.js';

export const SCOPES = ['bot:play', 'challenge:write', 'game:read'];
const LABEL_MAX = 60;
const ABOUT_MAX = 300;

const when = (ms) => new Date(ms).toLocaleString(lang());

// The tokens of the account: the list, and the form that makes one.
export function tokensSection() {
  const list = h('div', { class: 'token-list', id: 'token-list', role: 'status' }, [h('span', { class: 'spinner' })]);
  const listMsg = h('p', { class: 'form-msg', role: 'alert' });
  const secretBox = h('div', { class: 'token-secret-box', id: 'token-secret', hidden: true });

  const draw = (tokens) => {
    clear(list);
    if (!tokens.length) { list.append(h('p', { class: 'muted', 'data-state': 'none' }, [t('tokens.none')])); return; }
    list.append(h('table', { class: 'tokens' }, [
      h('thead', {}, [h('tr', {}, [
        h('th', { scope: 'col' }, [t('tokens.label')]),
        h('th', { scope: 'col' }, [t('tokens.scopes')]),
        h('th', { scope: 'col' }, [t('tokens.created')]),
        h('th', { scope: 'col' }, [t('tokens.used')]),
        h('th', { scope: 'col' }, [h('span', { class: 'visually-hidden' }, [t('tokens.revoke')])]),
      ])]),
      h('tbody', {}, tokens.map((tk) => row(tk))),
    ]));
  };

  // Revoke asks first, in the row itself.
  const row = (tk) => {
    const cell = h('td', { class: 'token-actions' });
    const ask = () => {
      clear(cell).append(
        h('span', { class: 'muted' }, [t('tokens.revoke_ask')]), ' ',
        h('button', { class: 'btn small danger', type: 'button', 'data-action': 'confirm-revoke', onclick: async () => {
          listMsg.textContent = '';
          try {
            await api.revokeToken(tk.id);
          } catch (e) {
            if (e.status !== 404) { listMsg.textContent = t('tokens.revoke_failed', { msg: errorText(e) }); return; }
          }
          secretBox.hidden = true; // a secret shown may be this one's
          clear(secretBox);
          load();
        } }, [t('tokens.revoke')]), ' ',
        h('button', { class: 'btn small', type: 'button', 'data-action': 'keep', onclick: idle }, [t('tokens.keep')]));
    };
    const idle = () => clear(cell).append(h('button', { class: 'btn small danger-subtle', type: 'button', 'data-action': 'revoke', onclick: ask }, [t('tokens.revoke')]));
    idle();
    return h('tr', { 'data-token': tk.id }, [
      h('td', { class: 'token-label' }, [tk.label]),
      h('td', { class: 'token-scopes' }, [(tk.scopes || []).join(', ')]),
      h('td', { class: 'muted' }, [tk.created ? when(tk.created) : '']),
      h('td', { class: 'muted token-used' }, [tk.used ? when(tk.used) : t('tokens.never')]),
      cell,
    ]);
  };

  const load = async () => {
    try {
      draw((await api.myTokens()).tokens || []);
    } catch (e) {
      clear(list).append(h('p', { class: 'form-msg' }, [t('tokens.load_failed', { msg: errorText(e) })]));
    }
  };

  // The form: a label and the scopes.
  const label = h('input', { id: 'token-label', class: 'text-input', type: 'text', maxlength: LABEL_MAX, autocomplete: 'off', placeholder: t('tokens.label_placeholder') });
  const boxes = SCOPES.map((s) => h('input', { type: 'checkbox', id: `token-scope-${s.replace(':', '-')}`, value: s, checked: s === 'bot:play' }));
  const msg = h('p', { class: 'form-msg', role: 'alert', id: 'token-msg' });
  const btn = h('button', { class: 'btn primary', type: 'submit', 'data-action': 'create-token' }, [t('tokens.create')]);
  const form = h('form', { class: 'token-form', novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    msg.textContent = '';
    const name = label.value.trim();
    const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!name) { msg.textContent = t('tokens.label_empty'); label.focus(); return; }
    if (!scopes.length) { msg.textContent = t('tokens.scopes_empty'); boxes[0].focus(); return; }
    btn.disabled = true;
    try {
      const res = await api.createToken(name, scopes);
      label.value = '';
      showSecret(res.secret, res.token?.label || name);
      load();
    } catch (err) {
      msg.textContent = t('tokens.create_failed', { msg: errorText(err) });
    }
    btn.disabled = false;
  } }, [
    h('h4', {}, [t('tokens.new_title')]),
    h('label', { class: 'field-label', for: 'token-label' }, [t('tokens.label')]), label,
    h('fieldset', { class: 'token-scopes-pick' }, [
      h('legend', { class: 'field-label' }, [t('tokens.scopes')]),
      ...SCOPES.map((s, i) => h('label', { class: 'check', for: boxes[i].id }, [boxes[i], ' ', h('code', {}, [s]), ' — ', h('span', { class: 'muted' }, [t(`tokens.scope.${s}`)])])),
    ]),
    msg, btn,
  ]);

  // The secret, once: selected for copying, with Copy and the hint that it is not shown again.
  const showSecret = (secret, name) => {
    const field = h('input', { class: 'text-input token-secret', id: 'token-secret-value', type: 'text', readonly: true, value: secret, 'aria-label': t('tokens.secret_label', { label: name }) });
    const copied = h('span', { class: 'muted copy-msg', role: 'status' });
    clear(secretBox).append(
      h('p', { class: 'token-secret-title' }, [h('b', {}, [t('tokens.secret_title', { label: name })])]),
      h('div', { class: 'token-secret-row' }, [
        field,
        h('button', { class: 'btn small', type: 'button', 'data-action': 'copy-token', onclick: async () => {
          field.select();
          try { await navigator.clipboard.writeText(secret); copied.textContent = t('tokens.copied'); } catch { copied.textContent = t('tokens.copy_by_hand'); }
        } }, [t('tokens.copy')]),
        copied,
      ]),
      h('p', { class: 'muted small-note' }, [t('tokens.secret_once')]),
      h('button', { class: 'btn small', type: 'button', 'data-action': 'hide-secret', onclick: () => { secretBox.hidden = true; clear(secretBox); } }, [t('tokens.secret_done')]),
    );
    secretBox.hidden = false;
    field.focus();
    field.select();
  };

  load();
  return h('section', { class: 'card profile-tokens', id: 'profile-tokens' }, [
    h('h3', {}, [t('tokens.title')]),
    h('p', { class: 'muted' }, [t('tokens.explain')]),
    secretBox, listMsg, list, form,
  ]);
}

// Making this account a bot: what it means, who runs it, and a check that it is meant.
export function becomeBotSection(d, onDone) {
  const about = h('textarea', { id: 'bot-about', class: 'text-input', rows: 2, maxlength: ABOUT_MAX, placeholder: t('become_bot.about_placeholder') });
  const sure = h('input', { type: 'checkbox', id: 'bot-sure' });
  const msg = h('p', { class: 'form-msg', role: 'alert', id: 'bot-msg' });
  const btn = h('button', { class: 'btn danger', type: 'submit', 'data-action': 'become-bot' }, [t('become_bot.button')]);
  const form = h('form', { class: 'bot-form', novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    msg.textContent = '';
    if (!sure.checked) { msg.textContent = t('become_bot.not_sure'); sure.focus(); return; }
    btn.disabled = true;
    try {
      await api.becomeBot(about.value.trim());
    } catch (err) {
      btn.disabled = false;
      msg.textContent = errorText(err);
      return;
    }
    onDone?.();
  } }, [
    h('label', { class: 'field-label', for: 'bot-about' }, [t('become_bot.about')]), about,
    h('p', { class: 'muted small-note' }, [t('become_bot.about_help', { n: ABOUT_MAX })]),
    h('label', { class: 'check', for: 'bot-sure' }, [sure, ' ', t('become_bot.sure')]),
    msg, btn,
  ]);
  return h('section', { class: 'card profile-become-bot', id: 'profile-become-bot' }, [
    h('h3', {}, [t('become_bot.title')]),
    h('p', {}, [t('become_bot.explain')]),
    h('p', { class: 'muted' }, [t('become_bot.rules')]),
    form,
  ]);
}
