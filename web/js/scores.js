// scores.js — the score panel (top right, as in seed 004): per player a bar per
// colour whose length and the number above it show the track, the lowest tracks
// marked, whose turn it is, who is connected, and how many tiles each holds; with a
// clock, a place for each seat's time (clock.js fills it); seats that left are marked;
// a seat with a rating shows it first under the name ("rating 1658 · human"); a bot's
// name is marked BOT ("rating 1500 · bot").
import { h, clear } from './svg.js';
import { shapeIcon, colorLabel } from './colors.js';
import { trackScale, seatLabel, kindLabel, levelName } from './variants.js';
import { t, tv } from './messages.js';
import { ratingText } from './ratings.js';
import { isBot, botTag } from './bot_mark.js';

export class Scores {
  constructor(host) { this.host = host; }

  // {variant, mode, colors, seats, toMove, you, status, clock}
  render({ variant, mode, colors, seats, toMove, you, status, clock = false }) {
    const { max, marks } = trackScale(variant, mode);
    clear(this.host);
    seats.forEach((seat, i) => {
      const score = seat.score || {};
      const vals = colors.map((c) => score[c] ?? 0);
      const low = Math.min(...vals);
      const turn = status === 'running' && i === toMove;
      const teamId = mode === 'team' ? (i % 2 === 0 ? 'A' : 'B') : null;
      const extra = [];
      if (seat.rack_size !== undefined && seat.rack_size !== null) extra.push(variant === 'rota' ? t('scores.hand', { n: seat.rack_size }) : tv('scores.rack', variant, { n: seat.rack_size }));
      if (seat.stack !== undefined && seat.stack !== null) extra.push(t('scores.stack', { n: seat.stack }));
      const left = seat.left || null;
      const playedBy = seat.played_by && status === 'running';
      const label = seatLabel(seat, seats);
      const bot = seat.kind !== 'ai' && isBot(seat);
      const kind = playedBy ? t('leave.played_by', { level: levelName(seat.played_by), name: label }) : bot ? t('kind.bot') : kindLabel(seat);
      const card = h('section', {
        class: `score-card${turn ? ' to-move' : ''}${i === you ? ' you' : ''}${teamId ? ` team-${teamId}` : ''}${left ? ' left' : ''}`, 'data-seat': i,
        'data-left': left || '', 'aria-label': t('scores.label', { name: label }),
      }, [
        h('header', {}, [
          h('span', { class: 'turn-mark', 'aria-hidden': 'true' }, [turn ? '▶' : '']),
          h('span', { class: `conn ${seat.kind === 'ai' || seat.connected ? 'on' : 'off'}`, title: seat.kind === 'ai' ? t('scores.computer') : t(seat.connected ? 'lobby.connected' : 'lobby.not_connected') }),
          teamId ? h('span', { class: 'team-tag', title: t('scores.team', { team: teamId }) }, [teamId]) : null,
          h('span', { class: 'seat-name' }, [i === you ? t('common.you', { name: label }) : label]),
          clock && seat.kind !== 'ai' ? h('span', { class: 'seat-clock', 'data-seat': i, role: 'timer', title: t('clock.title', { name: label }) }) : null,
        ]),
        h('div', { class: `seat-kind${playedBy ? ' played-by' : ''}`, title: kind }, [
          // (Under the name, which a clock leaves little room.)
          bot ? botTag() : null,
          bot ? ' ' : null,
          left ? h('span', { class: 'left-tag', 'data-why': left }, [t(`leave.why.${left}`)]) : null,
          left ? ' ' : null,
          seat.rating !== null && seat.rating !== undefined
            ? h('span', { class: 'seat-rating', title: t('rating.seat_title'), 'data-rating': Math.round(seat.rating) }, [t('rating.seat', { rating: ratingText(seat.rating) })]) : null,
          seat.rating !== null && seat.rating !== undefined ? ' · ' : null,
          [kind, ...extra].join(' · '),
        ]),
        h('div', { class: 'bars', style: `--n:${colors.length}` }, colors.map((c, k) => {
          const v = vals[k];
          const isLow = v === low;
          return h('div', { class: `bar-col${isLow ? ' lowest' : ''}`, 'data-color': c, 'data-value': v, title: t(isLow ? 'scores.bar_lowest' : 'scores.bar', { color: colorLabel(c), n: v }) }, [
            h('span', { class: 'bar-num' }, [String(v)]),
            h('div', { class: 'bar-track' }, [
              ...marks.map((m) => h('i', { class: 'bar-mark', style: `bottom:${(100 * m) / max}%` })),
              h('div', { class: `bar-fill c-${c}`, style: `height:${Math.min(100, (100 * v) / max)}%` }),
            ]),
            shapeIcon(c, 15),
          ]);
        })),
      ]);
      this.host.appendChild(card);
    });
  }
}
