// python-text.js: text split and stripped at Python's white space, as the toolkit reads it.

// Python's white space (str.isspace), which the toolkit strips and splits text on; JavaScript's
// own (trim, \s) differs: it lacks \x1c-\x1f and \x85 and adds \ufeff.
const PYTHON_SPACE =
  "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PYTHON_EDGES = new RegExp(`^${PYTHON_SPACE}+|${PYTHON_SPACE}+$`, "g");
const PYTHON_GAPS = new RegExp(`${PYTHON_SPACE}+`);

/** `text` without white space at either end, as Python's str.strip() leaves it. */
export function pythonStrip(text) {
  return text.replace(PYTHON_EDGES, "");
}

/** `text`'s words, as Python's str.split() gives them. */
export function pythonSplit(text) {
  return text.split(PYTHON_GAPS).filter((part) => part !== "");
}
