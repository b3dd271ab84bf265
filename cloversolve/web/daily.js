// daily.js: the daily-deal rule: the catalogue entry of a date and difficulty.

import { MAX_DEAL } from "./deal-numbers.js";
import { CloverSolveError, DateError, isPlainObject, pyRepr, quoted, shown } from "./errors.js";

/** The first day of the daily deals (index 0). */
export const DAILY_EPOCH = "2000-01-01";
/** The difficulties of a catalogue's deals, spelt exactly so (as the toolkit spells them). */
const DIFFICULTIES = Object.freeze(["easy", "normal", "hard"]);
/** The years a date may have (as the toolkit's dates). */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/** Days from 1970-01-01 to a date ("YYYY-MM-DD" or a Date), or a DateError. */
function dayNumber(date) {
  let year, month, day;
  if (date instanceof Date) {
    if (Number.isNaN(date.getTime())) throw new DateError("bad date: an invalid Date");
    [year, month, day] = [date.getFullYear(), date.getMonth() + 1, date.getDate()];
    if (year < FIRST_YEAR || year > LAST_YEAR) {
      throw new DateError(
        `bad date: a Date in year ${year} (expected years ${FIRST_YEAR} .. ${LAST_YEAR})`,
      );
    }
  } else {
    const match = typeof date === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
    if (!match) throw new DateError(`bad date: ${pyRepr(date)} (expected YYYY-MM-DD)`);
    [year, month, day] = match.slice(1).map(Number);
    const check = new Date(Date.UTC(year, month - 1, day));
    if (year < FIRST_YEAR || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
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
    const given = typeof count === "bigint" ? `${count}n` : pyRepr(count);
    throw new CloverSolveError(`bad count: ${given} (expected a whole number of deals)`);
  }
  if (count < 1) throw new CloverSolveError("no deals to choose from");
  const days = daysSinceEpoch(date);
  return ((days % count) + count) % count;
}

/** Deal numbers past this are written as decimal text in a catalogue (their JSON form). */
const MAX_JSON_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * An entry's deal number as a BigInt when it is one in its JSON form (a Number up to 2**53 - 1,
 * decimal text past it), else why not (the toolkit's words); `place` is "deals/INDEX".
 */
function entryNumber(number, place) {
  if (Number.isSafeInteger(number) && number >= 1) return BigInt(number);
  const digits = typeof number === "string" && /^[1-9][0-9]*$/.test(number);
  const exact = Number.isInteger(number) ? BigInt(number) : null; // (its digits, not 1e+21)
  const value = digits ? BigInt(number) : exact;
  if (value === null || value < 1n || value > MAX_DEAL) {
    return `${place}: number is ${shown(exact ?? number)}, not a deal number`;
  }
  if (digits && value > MAX_JSON_INTEGER) return value;
  // Text up to 2**53 - 1, or a Number past it (which may not be the number written).
  const form = digits ? "a JSON integer" : "decimal text";
  return `deal ${value}: number ${shown(exact ?? number)} must be written as ${form} (format 2)`;
}

/**
 * The deals of a catalogue, each as [deal number, entry], checked as the toolkit checks a
 * catalogue it reads (each entry an object with a deal number in its JSON form and a
 * difficulty, no deal listed twice); a CloverSolveError names the first thing wrong.
 */
function numberedEntries(catalogue) {
  if (!isPlainObject(catalogue) || !Array.isArray(catalogue.deals)) {
    throw new CloverSolveError(
      `not a catalogue: ${quoted(catalogue)} (expected an object with a list of deals)`,
    );
  }
  const refuse = (problem) => {
    throw new CloverSolveError(`not a valid catalogue: ${problem}`);
  };
  const numbered = [];
  const times = new Map();
  for (let index = 0; index < catalogue.deals.length; index++) {
    const place = `deals/${index}`;
    if (!(index in catalogue.deals)) refuse(`${place}: no entry (a hole in the list)`);
    const entry = catalogue.deals[index];
    if (!isPlainObject(entry)) refuse(`${place}: ${shown(entry)} is not an entry object`);
    for (const key of ["number", "difficulty"]) {
      if (!Object.hasOwn(entry, key)) refuse(`${place}: no '${key}'`);
    }
    const number = entryNumber(entry.number, place);
    if (typeof number === "string") refuse(number);
    if (!DIFFICULTIES.includes(entry.difficulty)) {
      refuse(`${place}: difficulty is ${shown(entry.difficulty)}, not easy, normal or hard`);
    }
    numbered.push([number, entry]);
    times.set(number, (times.get(number) ?? 0) + 1);
  }
  for (const [number, count] of times) {
    if (count > 1) refuse(`deal ${number} is listed ${count} times`);
  }
  return numbered;
}

/**
 * The catalogue entry of the daily deal of `difficulty` ("easy", "normal" or "hard", spelt
 * exactly so) for `date`; another difficulty is a CloverSolveError that quotes it, and so is a
 * catalogue the toolkit would not read (an entry that is not an object with a deal number in
 * its JSON form and a difficulty, or a deal listed twice).
 */
export function daily(catalogue, date, difficulty) {
  if (!DIFFICULTIES.includes(difficulty)) {
    throw new CloverSolveError(
      `unknown difficulty: ${quoted(difficulty)} (expected ${DIFFICULTIES.join(", ")})`,
    );
  }
  const entries = numberedEntries(catalogue)
    .filter(([, entry]) => entry.difficulty === difficulty)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, entry]) => entry);
  if (!entries.length) throw new CloverSolveError(`the catalogue has no ${difficulty} deals`);
  return entries[dailyIndex(date, entries.length)];
}
