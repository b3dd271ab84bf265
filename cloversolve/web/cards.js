// cards.js: cards as the toolkit writes them ("TD": rank A23456789TJQK, then suit CDHS).

import { CardParseError, pyRepr } from "./errors.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
export const RED_SUITS = "DH";
/** The suits in PySolFC's deck order. */
export const PYSOL_SUITS = "CSHD";

/** A card's rank, 1 (Ace) .. 13 (King). */
export function rankOf(card) {
  return RANKS.indexOf(checkedCard(card)[0]) + 1;
}
/** A card's suit letter. */
export function suitOf(card) {
  return checkedCard(card)[1];
}
/** True for Diamonds and Hearts. */
export function isRed(card) {
  return RED_SUITS.includes(checkedCard(card)[1]);
}
/** The card with a suit symbol, e.g. "T\u2666". */
export function cardSymbol(card) {
  return checkedCard(card)[0] + SUIT_SYMBOLS[card[1]];
}
/** `card` if it is a card text, else a CardParseError in the toolkit's words. */
function checkedCard(card) {
  if (isCardText(card)) return card;
  throw new CardParseError(cardProblem(card));
}
/** Why `text` is not a card text such as "TD" (the toolkit's words), or null. */
export function cardProblem(text) {
  const chars = typeof text === "string" ? [...text] : [];
  if (chars.length !== 2) return `not a card: ${pyRepr(text)} (expected rank+suit such as 'TD')`;
  if (!RANKS.includes(chars[0])) return `not a card: ${pyRepr(text)} (rank must be one of ${RANKS})`;
  if (!SUITS.includes(chars[1])) return `not a card: ${pyRepr(text)} (suit must be one of ${SUITS})`;
  return null;
}
/** True for a card text such as "TD". */
export function isCardText(text) {
  return typeof text === "string" && text.length === 2 && RANKS.includes(text[0]) &&
    SUITS.includes(text[1]);
}
/** The card of `rank` (1 .. 13) and `suit`. */
export function makeCard(rank, suit) {
  return RANKS[rank - 1] + suit;
}
