// errors.js: the errors the module throws, and how their messages quote the values given.

/** Base class of every error this module throws about a value it was given. */
export class CloverSolveError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}
export class UnknownPresetError extends CloverSolveError {}
export class DealNumberError extends CloverSolveError {}
export class MoveParseError extends CloverSolveError {}
export class CardParseError extends CloverSolveError {}
/** The stable codes of LayoutError (the toolkit's LayoutError codes). */
export const LAYOUT_ERROR_CODES = Object.freeze([
  "not-json",
  "not-an-object",
  "unknown-preset",
  "wrong-preset",
  "unknown-key",
  "bad-field",
  "not-a-card",
  "bad-number",
  "number-out-of-range",
  "pile-count",
  "cell-count",
  "unknown-foundation",
  "duplicate-card",
  "foreign-card",
  "missing-card",
  "foundation-order",
  "empty-cell-with-stock",
  "removed-cards",
  "not-from-deal",
  "invalid-layout",
]);
/** A layout or position the toolkit refuses; `code` is one of LAYOUT_ERROR_CODES. */
export class LayoutError extends CloverSolveError {
  constructor(message, code = "invalid-layout") {
    super(message);
    this.code = code;
  }
}
/** Throw a LayoutError with its code (one of LAYOUT_ERROR_CODES). */
export function refuse(code, message) {
  throw new LayoutError(message, code);
}
export class DateError extends CloverSolveError {}
/** A well-formed move that the rules do not allow; `code` and `reason` say why. */
export class IllegalMoveError extends CloverSolveError {
  constructor(move, code, reason) {
    super(`illegal move '${move}': ${reason}`);
    this.code = code;
    this.reason = reason;
  }
}

/**
 * A value quoted as the toolkit's messages quote it, in JS spelling: strings as Python's
 * repr() writes them (quotes, escapes of unprintable characters), null, true, [a, b].
 */
export function pyRepr(value, depth = 0) {
  if (typeof value === "bigint" || typeof value === "number") return String(value);
  if (typeof value === "boolean" || value === null || value === undefined) return String(value);
  if (Array.isArray(value)) {
    return depth > 2 ? "[...]" : `[${value.map((v) => pyRepr(v, depth + 1)).join(", ")}]`;
  }
  if (typeof value === "object") {
    if (depth > 2) return "{...}";
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${pyRepr(v, depth + 1)}`);
    return `{${entries.join(", ")}}`;
  }
  if (typeof value !== "string") return String(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === quote) out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === " " || !UNPRINTABLE.test(ch)) out += ch;
    else if (code < 0x100) out += "\\x" + code.toString(16).padStart(2, "0");
    else if (code < 0x10000) out += "\\u" + code.toString(16).padStart(4, "0");
    else out += "\\U" + code.toString(16).padStart(8, "0");
  }
  return quote + out + quote;
}

// The characters Python's repr() escapes (str.isprintable() is false for them; space aside).
const UNPRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** pyRepr(value), cut in the middle when longer than `limit` characters (as the toolkit). */
export function quoted(value, limit = 60) {
  const text = [...pyRepr(value)];
  if (text.length <= limit) return text.join("");
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half).join("")}...(${text.length} characters)...${text.slice(-half).join("")}`;
}

/**
 * A value read from a file as compact JSON, at most `width` characters, as the toolkit shows
 * one (a longer text is cut and ends with "…", a string still closed by its quote).
 */
export function shown(value, width = 40) {
  let text;
  try {
    text = typeof value === "bigint" ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  const chars = [...text];
  if (chars.length <= width) return text;
  const end = typeof value === "string" && text.endsWith('"') ? '…"' : "…";
  return chars.slice(0, width - [...end].length).join("") + end;
}

/** A value's kind in words, for messages ("array", "null", "string", ...). */
export function typeName(value) {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** True for an object that is neither null nor an array. */
export function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
