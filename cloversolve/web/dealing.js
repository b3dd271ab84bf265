// dealing.js: PySolFC-compatible numbered deals of the presets, as the toolkit deals them.

import { makeCard, PYSOL_SUITS } from "./cards.js";
import { checkDealNumber, jsonDealNumber } from "./deal-numbers.js";
import { CloverSolveError, quoted } from "./errors.js";
import { findPreset } from "./find-preset.js";
import { PythonRandom } from "./python-random.js";

/** The last deal number shuffled with the Microsoft-compatible generator. */
export const LAST_MS_DEAL = 31999;

/**
 * A preset's deck in PySolFC's unshuffled order: suits C S H D, each Ace up, without the
 * preset's dropped ranks.
 */
export function presetDeck(spec) {
  const deck = [];
  for (const suit of PYSOL_SUITS) {
    for (let rank = 1; rank <= 13; rank++) {
      if (!spec.droppedRanks.includes(rank)) deck.push(makeCard(rank, suit));
    }
  }
  return deck;
}

/** PySolFC's ms_rearrange: rank-major with suits C D H S (52-card decks only). */
function microsoftOrder(cards) {
  if (cards.length !== 52) return cards;
  const out = [];
  for (let rank = 0; rank < 13; rank++) {
    for (const offset of [0, 39, 26, 13]) out.push(cards[rank + offset]);
  }
  return out;
}

/** Shuffle with the Microsoft-compatible LCG (deals 1..31999): randint(0, n) = rand() % (n+1). */
function shuffleMicrosoft(cards, seed) {
  let state = seed;
  for (let n = cards.length - 1; n > 0; n--) {
    state = (state * 214013 + 2531011) % 2147483648;
    const j = Math.floor(state / 65536) % 32768 % (n + 1);
    [cards[n], cards[j]] = [cards[j], cards[n]];
  }
}

/** Shuffle with Python's random.Random(seed) (deals from 32000): random.shuffle. */
function shuffleMersenne(cards, seed) {
  const generator = new PythonRandom(seed);
  for (let n = cards.length - 1; n > 0; n--) {
    const j = Math.floor(generator.random() * (n + 1));
    [cards[n], cards[j]] = [cards[j], cards[n]];
  }
}

/** PySolFC's shuffled talon for deal `number`, in dealing order (first dealt first). */
export function shuffledTalon(number, deck) {
  const big = checkDealNumber(number);
  if (!Array.isArray(deck)) {
    throw new CloverSolveError(`not a deck: ${quoted(deck)} (expected a list of cards)`);
  }
  let cards;
  if (big <= BigInt(LAST_MS_DEAL)) {
    cards = microsoftOrder([...deck]);
    shuffleMicrosoft(cards, Number(big));
  } else {
    cards = [...deck];
    shuffleMersenne(cards, big);
  }
  return cards.reverse();
}

/** The layout of deal `number` of `preset` (PySolFC-compatible), as the toolkit deals it. */
export function deal(preset, number) {
  const spec = findPreset(preset);
  const big = checkDealNumber(number);
  const talon = shuffledTalon(big, presetDeck(spec));
  const shown = jsonDealNumber(big);
  if (spec.grid) {
    const cells = spec.piles;
    return { preset: spec.name, number: shown, cells: talon.slice(0, cells), stock: talon.slice(cells) };
  }
  // The foundations' starting cards are dealt first, each to its suit's foundation (or to
  // the single one); the rest go round-robin to the piles.
  const chosen = talon.filter((c) => spec.foundationCards.includes(c));
  const dealt = talon.filter((c) => !spec.foundationCards.includes(c));
  const names = spec.foundationNames;
  const foundations = {};
  for (const name of names) {
    foundations[name] = chosen.filter((c) => names.length === 1 || "F" + c[1] === name);
  }
  const piles = Array.from({ length: spec.piles }, () => []);
  dealt.forEach((card, i) => piles[i % spec.piles].push(card));
  return { preset: spec.name, number: shown, piles, foundations };
}
