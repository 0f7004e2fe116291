// variants.js — names and display constants of the three games (for labels and
// the scale of the score bars only; the rules live in the server).
export const VARIANTS = {
  square: { name: 'AXIO', rackName: 'rack', blurb: 'Dominoes on the square board, with pyramids' },
  rota:   { name: 'AXIO ROTA', rackName: 'hand', blurb: 'Square tiles with four corners; circles form where they meet' },
  hex:    { name: 'AXIO Hex', rackName: 'rack', blurb: 'Six colours on the hexagonal board (the online game)' },
};

// The last threshold of a track (the full length of a score bar) and the one before it.
export function trackScale(variant, mode) {
  if (variant === 'rota') return { max: 12, marks: [] };
  if (mode === 'solo' || mode === 'team') return { max: 36, marks: [18] };
  return { max: 18, marks: [] };
}

export const modeName = (mode) => ({ standard: 'standard', solo: 'solo', team: 'team' }[mode] || mode);

export function seatLabel(seat) {
  if (!seat) return '';
  if (seat.kind === 'human' && seat.taken === false) return 'free seat';
  if (seat.kind === 'ai') return `${seat.name || 'Computer'}`;
  return seat.name || 'Player';
}

export const kindLabel = (seat) => (seat?.kind === 'ai' ? `computer, ${seat.level || 'ai'}` : 'human');
