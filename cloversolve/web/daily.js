// daily.js: the daily-deal rule: the catalogue entry of a date and difficulty.

import { checkDealNumber } from "./deal-numbers.js";
import { CloverSolveError, DateError, isPlainObject, pyRepr, quoted } from "./errors.js";

/** The first day of the daily deals (index 0). */
export const DAILY_EPOCH = "2000-01-01";
/** The difficulties of a catalogue's deals, spelt exactly so (as the toolkit spells them). */
const DIFFICULTIES = Object.freeze(["easy", "normal", "hard"]);

/** Days from 1970-01-01 to a date ("YYYY-MM-DD" or a Date), or a DateError. */
function dayNumber(date) {
  let year, month, day;
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw new DateError("bad date: an invalid Date");
    [year, month, day] = [date.getFullYear(), date.getMonth() + 1, date.getDate()];
  } else {
    const match = typeof date === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
    if (!match) throw new DateError(`bad date: ${pyRepr(date)} (expected YYYY-MM-DD)`);
    [year, month, day] = match.slice(1).map(Number);
    const check = new Date(Date.UTC(year, month - 1, day));
    if (year < 1 || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
      throw new DateError(`bad date: ${pyRepr(date)} (expected YYYY-MM-DD)`);
    }
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  return Math.round(utc.getTime() / 86400000);
}

/** Days from 2000-01-01 to `date` ("YYYY-MM-DD", or a Date: its local calendar day). */
export function daysSinceEpoch(date) {
  return dayNumber(date) - dayNumber(DAILY_EPOCH);
}

/** The daily-deal index: days since 2000-01-01 modulo `count`, always in 0 .. count-1. */
export function dailyIndex(date, count) {
  if (!Number.isSafeInteger(count)) {
    throw new CloverSolveError(`bad count: ${pyRepr(count)} (expected a whole number of deals)`);
  }
  if (count < 1) throw new CloverSolveError("no deals to choose from");
  const days = daysSinceEpoch(date);
  return ((days % count) + count) % count;
}

/**
 * The catalogue entry of the daily deal of `difficulty` ("easy", "normal" or "hard", spelt
 * exactly so) for `date`; another difficulty is a CloverSolveError that quotes it.
 */
export function daily(catalogue, date, difficulty) {
  if (!DIFFICULTIES.includes(difficulty)) {
    throw new CloverSolveError(
      `unknown difficulty: ${quoted(difficulty)} (expected ${DIFFICULTIES.join(", ")})`,
    );
  }
  if (!isPlainObject(catalogue) || !Array.isArray(catalogue.deals) ||
    !catalogue.deals.every(isPlainObject)) {
    throw new CloverSolveError(
      `not a catalogue: ${quoted(catalogue)} (expected an object with a list of deals)`,
    );
  }
  const entries = catalogue.deals
    .filter((entry) => entry.difficulty === difficulty)
    .map((entry) => [checkDealNumber(entry.number), entry])
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, entry]) => entry);
  if (!entries.length) throw new CloverSolveError(`the catalogue has no ${difficulty} deals`);
  return entries[dailyIndex(date, entries.length)];
}
