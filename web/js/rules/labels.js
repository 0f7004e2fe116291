// rules/labels.js — the few words that lead to the rules from elsewhere (the header,
// the lobby, the "?" of a game page) in each language; small, so that every page can
// import it (the rules prose itself is loaded only on the rules pages).
import { lang } from '../lang.js';

const LABELS = {
  en: { nav: 'Rules', game_help: 'Rules of this game (new tab)', lobby: 'Rules', lang: 'Language' },
  de: { nav: 'Regeln', game_help: 'Regeln dieses Spiels (neuer Tab)', lobby: 'Regeln', lang: 'Sprache' },
  hu: { nav: 'Szabályok', game_help: 'A játék szabályai (új lapon)', lobby: 'Szabályok', lang: 'Nyelv' },
};

export const rulesLabel = (k) => LABELS[lang()]?.[k] ?? LABELS.en[k] ?? k;
