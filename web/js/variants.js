// variants.js — names and display constants of the three games (for labels and
// the scale of the score bars only; the rules live in the server), and how seats
// are named on the page: a computer seat by its level in the reader's language,
// numbered when a game has two of one level ("Greedy 1", "Greedy 2").
import { t } from './messages.js';

// The games' names are the same in every language; their blurbs are messages.
export const VARIANTS = {
  square: { name: 'AXIO', get blurb() { return t('variant.square.blurb'); } },
  rota:   { name: 'AXIO ROTA', get blurb() { return t('variant.rota.blurb'); } },
  hex:    { name: 'AXIO Hex', get blurb() { return t('variant.hex.blurb'); } },
};

// The last threshold of a track (the full length of a score bar) and the one before it.
export function trackScale(variant, mode) {
  if (variant === 'rota') return { max: 12, marks: [] };
  if (mode === 'solo' || mode === 'team') return { max: 36, marks: [18] };
  return { max: 18, marks: [] };
}

const MODES = ['standard', 'solo', 'team'];
export const modeName = (mode) => (MODES.includes(mode) ? t(`mode.${mode}`) : mode);

// The computer levels of the server (src/server/levels.c), weakest first, and their names in the
// reader's language (Beginner, Casual, Strong, Expert).
export const LEVELS = ['random', 'greedy', 'strong', 'expert'];
export const levelName = (level) => (LEVELS.includes(level) ? t(`ai.level.${level}`) : level || '');

// A rated player's name as shown: a computer level's account ("greedy") by the level's name
// in the language ("Casual"); people as they wrote it.
export const playerName = (name, computer) => (computer && LEVELS.includes(name) ? t(`ai.name.${name}`) : name);

// A computer seat's level: its `level`, else read from the server's name "LEVEL (AI)".
const levelOf = (seat) => seat?.level || /^(\w+) \(AI\)$/.exec(seat?.name || '')?.[1] || null;

// A computer seat's name: its level, numbered among the game's seats of that level.
export function aiName(seat, seats = null) {
  const level = levelOf(seat);
  const base = LEVELS.includes(level) ? t(`ai.name.${level}`) : seat?.name || t('ai.computer');
  const same = (seats || []).filter((s) => s?.kind === 'ai' && levelOf(s) === level);
  return same.length > 1 && same.includes(seat) ? t('ai.numbered', { name: base, n: same.indexOf(seat) + 1 }) : base;
}

// A person's name; the server's name for a guest who gave none ("Player 2") in the language.
export function personName(seat, index = null) {
  const dflt = /^Player ([1-4])$/.exec(seat?.name || '');
  if (dflt && !seat.account) return t('common.player_n', { n: Number(dflt[1]) });
  return seat?.name || (index === null ? t('common.player') : t('common.player_n', { n: index + 1 }));
}

// A seat as the page names it; seats: all the game's seats (to number computers).
export function seatLabel(seat, seats = null) {
  if (!seat) return '';
  if (seat.kind === 'human' && seat.taken === false) return t('lobby.free_seat');
  if (seat.kind === 'ai') return aiName(seat, seats);
  return personName(seat);
}

export const kindLabel = (seat) => (seat?.kind === 'ai' ? t('kind.computer', { level: levelName(levelOf(seat)) }) : t('kind.human'));
