// ratings.js — how ratings read on the page (docs/ratings.md): R as a whole number
// with a "?" while it is provisional (deviation over 200, as on lichess), ±D, a
// change as +12 / −8 with its colour class, "Ann (1658)" beside a name, and places
// as "1st of 3". Pure functions: no DOM, no server.
import { t } from './messages.js';

export const PROVISIONAL_D = 200;

export const isProvisional = (r) => !!r && Number(r.deviation) > PROVISIONAL_D;

// "1658", or "1658?" while provisional; '' when unknown.
export function ratingText(r) {
  if (r === null || r === undefined) return '';
  if (typeof r === 'number') return String(Math.round(r));
  if (r.rating === null || r.rating === undefined) return '';
  return `${Math.round(r.rating)}${isProvisional(r) ? '?' : ''}`;
}

export const deviationText = (r) => (r && r.deviation !== null && r.deviation !== undefined ? `±${Math.round(r.deviation)}` : '');

// "+12", "−8" (a real minus sign), "±0"; '' for no change (casual games, guests).
export function changeText(n) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return '';
  const v = Math.round(Number(n));
  if (v > 0) return `+${v}`;
  if (v < 0) return `\u2212${-v}`;
  return '±0';
}

export function changeClass(n) {
  if (n === null || n === undefined) return '';
  return n > 0 ? 'up' : n < 0 ? 'down' : 'same';
}

// "Ann (1658)" for a seat with a rating, else the name alone.
export const withRating = (name, rating) => (rating === null || rating === undefined ? name : t('rating.with_name', { name, rating: ratingText(rating) }));

// "1st of 3" (place is 1-based).
export function placeText(place, of) {
  if (!place) return '';
  return of ? t('rating.place_of', { place: t('rating.ordinal', { n: place }), of }) : t('rating.ordinal', { n: place });
}
