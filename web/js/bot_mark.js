// bot_mark.js — the BOT mark put after a bot's name wherever a name is shown, and which
// names are bots: an answer that says `"bot": true` (a seat, a profile, a leaderboard's row),
// or a name seen so before (the site's list of bots, bots.js). A bot never becomes a person
// again, so a name once known stays known for the page's life. A challenge says it as
// `from_bot` / `to_bot` (challenges.js notes those names); a seat in a game's state, the
// chat and the move log name the seat, whose `bot` the state carries.
import { h } from './svg.js';
import { t } from './messages.js';

const known = new Set(); // folded names of the bots seen so far
const fold = (name) => String(name || '').toLowerCase();

// Remembers a bot's name (from any answer that says so).
export function noteBot(name) { if (name) known.add(fold(name)); }

// Whether `who` is a bot: an object with `bot` (a seat, a profile, a list's row), or a name
// seen as a bot's before.
export function isBot(who) {
  if (!who) return false;
  if (typeof who === 'object') {
    if (who.bot) { noteBot(who.name); return true; }
    return known.has(fold(who.name));
  }
  return known.has(fold(who));
}

// The mark after a bot's name.
export const botTag = () => h('span', { class: 'bot-tag', title: t('bot.tag_title') }, [t('bot.tag')]);

