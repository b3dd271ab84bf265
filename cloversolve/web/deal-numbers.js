// deal-numbers.js: deal numbers (1 .. 10**20 - 1) as the toolkit reads and writes them.

import { DealNumberError, pyRepr, quoted } from "./errors.js";
import { pythonStrip } from "./python-text.js";

export const MAX_DEAL = 10n ** 20n - 1n;

/** Whether a value given as a deal number is a layout or a part of one (as the toolkit). */
function looksLikeLayout(value) {
  if (typeof value === "string") return /^[{[]/.test(pythonStrip(value));
  if (Array.isArray(value)) return value.some(Array.isArray);
  return typeof value === "object" && value !== null;
}

/**
 * A deal number (an exact Number, a BigInt or decimal text: plain digits, no spaces around them
 * and no leading zeros) as a BigInt, or a DealNumberError.
 * A Number past 2**53 - 1 is refused: it may not be the number meant (2**53 + 1 is 2**53).
 */
export function checkDealNumber(number) {
  const outOfRange = () =>
    new DealNumberError(`bad deal number: ${pyRepr(number)} (deals are 1 .. 10**20-1)`);
  let value = number;
  if (typeof value === "string") {
    if (/^-[0-9]+$/.test(value)) throw outOfRange();
    if (/^0[0-9]+$/.test(value)) {
      throw new DealNumberError(
        `bad deal number: ${pyRepr(number)} (written without leading zeros)`,
      );
    }
    if (/^[0-9]+$/.test(value)) value = BigInt(value);
  } else if (typeof value === "number" && Number.isSafeInteger(value)) {
    value = BigInt(value);
  } else if (typeof value === "number" && Number.isInteger(value)) {
    if (value < 1 || value >= Number(MAX_DEAL)) throw outOfRange(); // (it is 1e20)
    throw new DealNumberError(
      `bad deal number: ${number} is not exact (a Number above 2**53-1); ` +
        "pass a BigInt or a decimal string",
    );
  }
  if (typeof value !== "bigint" && looksLikeLayout(value)) {
    throw new DealNumberError(
      `a layout was given where a deal number goes: ${quoted(number)} (deal numbers ` +
        "are 1 .. 10**20-1; give a layout as layout JSON, a Layout, or --layout FILE)",
    );
  }
  if (typeof value !== "bigint") {
    throw new DealNumberError(`bad deal number: ${pyRepr(number)} (expected a whole number)`);
  }
  if (value < 1n || value > MAX_DEAL) throw outOfRange();
  return value;
}

/**
 * A deal number (as checkDealNumber takes it) in the toolkit's JSON form: a Number up to
 * 2**53 - 1, its decimal string above that. JSON.stringify keeps it exact.
 */
export function jsonDealNumber(number) {
  return jsonInteger(checkDealNumber(number));
}

/** A BigInt as a Number when that is exact, else as its decimal string. */
export function jsonInteger(big) {
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  return big <= safe && big >= -safe ? Number(big) : String(big);
}
