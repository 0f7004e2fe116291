// position.js — rebuilds what the board showed after each event of a game from its
// record events (replaying given facts for display: where tiles went, pyramids,
// tracks as the events state them). Used for stepping through a finished game and
// for pairing tile halves into dominoes in a live game.
import { key } from './board_common.js';

export function newPosition(start) {
  return {
    variant: start.variant, players: start.players, mode: start.mode || 'standard',
    names: start.names || [], area: start.area, colors: null,
    fields: start.fields || [],
    cells: new Map(), pairs: new Map(),
    pyramids: [], dead: [],
    tiles: (start.display || []).map((t) => ({ cell: t.cell, tile: t.tile })),
    last: null, scores: Array.from({ length: start.players }, () => null), end: null,
  };
}

export function clonePosition(p) {
  return {
    ...p, cells: new Map(p.cells), pairs: new Map(p.pairs), pyramids: [...p.pyramids],
    dead: [...p.dead], tiles: [...p.tiles], scores: p.scores.map((s) => (s ? { ...s } : s)),
  };
}

// Records tile halves as pairs (used for live games too, from the history).
export function notePairs(pairs, ev) {
  if (ev.ev === 'place' && ev.cells && ev.cells.length === 2) {
    const [a, b] = ev.cells.map(key);
    pairs.set(a, b);
    pairs.set(b, a);
  }
}

export function applyEvent(pos, ev) {
  const setScore = (player, score) => {
    if (!score) return;
    for (let i = 0; i < pos.players; i++) {
      if (i === player || (pos.mode === 'team' && i % 2 === player % 2)) pos.scores[i] = { ...score };
    }
  };
  switch (ev.ev) {
    case 'place':
      if (ev.cells) {
        ev.cells.forEach((cell, i) => pos.cells.set(key(cell), { cell, color: ev.tile[i] }));
        notePairs(pos.pairs, ev);
        pos.last = { player: ev.player, cells: ev.cells };
      } else if (ev.cell) {
        pos.tiles.push({ cell: ev.cell, tile: ev.tile });
        pos.last = { player: ev.player, cell: ev.cell };
      }
      setScore(ev.player, ev.score);
      break;
    case 'pyramid':
      if (ev.moved_from) {
        const k = key(ev.moved_from);
        pos.pyramids = pos.pyramids.filter((p) => key(p) !== k);
        pos.dead.push(ev.moved_from);
      }
      pos.pyramids.push(ev.cell);
      setScore(ev.player, ev.score);
      break;
    case 'end':
      pos.end = ev;
      if (Array.isArray(ev.scores)) ev.scores.forEach((s, i) => { pos.scores[i] = { ...s }; });
      break;
    default:
  }
  return pos;
}

// The renderer's view of a position.
export function toView(pos) {
  return {
    area: pos.area, fields: pos.fields, cells: [...pos.cells.values()], pairs: pos.pairs,
    pyramids: pos.pyramids, dead: pos.dead, tiles: pos.tiles, frontier: [], last: pos.last,
  };
}

// Splits a record into steps: the start, then one step per placement (with the
// pyramids, AXIOs, swaps and draws that follow it), and the end.
export function replaySteps(events) {
  const start = events.find((e) => e.ev === 'start');
  if (!start) throw new Error('record without a start event');
  let pos = newPosition(start);
  const steps = [{ pos: clonePosition(pos), events: [start], index: 0 }];
  for (const ev of events) {
    if (ev.ev === 'start') continue;
    if (ev.ev === 'place' || ev.ev === 'end') steps.push({ pos: null, events: [], index: steps.length });
    applyEvent(pos, ev);
    const cur = steps[steps.length - 1];
    cur.events.push(ev);
    cur.pos = clonePosition(pos);
  }
  return { start, steps };
}
