// The reference play page: play one deal with cloversolve.js, by mouse, touch or keyboard.
//
// Built only on the module's public exports and a catalogue file; copy it and restyle it.
// `cloversolve play` inlines this file, the module and the preset's catalogue into one page:
// the page's data sits in <script id="play-data"> as JSON: {preset, number, date, difficulty,
// catalogue}. A site of its own would import the module and fetch catalogues/PRESET.json.
//
// The game is its list of player moves: the position is always cs.replay(preset, number,
// moves).positions.at(-1), so undo drops the last move, restart empties the list, and the
// save in localStorage is the list (with the "assisted" mark). Every move is checked with
// cs.whyIllegal first: an illegal one shows the module's reason and changes nothing.

import * as cs from "./cloversolve.js";

const data = JSON.parse(document.getElementById("play-data").textContent);
const spec = cs.findPreset(data.preset);
const total = spec.deckSize;

// The deal: the number given, else the catalogue's daily deal (of the page's date, or today).
const number =
  data.number ?? cs.daily(data.catalogue, data.date ?? new Date(), data.difficulty).number;
// The catalogue entry of this deal, kept only when its route replays to a win: the page then
// says "Verified solvable" and its hints follow that route while the player stays on it.
const listed = data.catalogue.deals.find((entry) => String(entry.number) === String(number));
const verified = listed && cs.replay(data.preset, number, listed.route).status === "won";
const entry = verified ? listed : null;
const SAVE_KEY = `cloversolve-play:${data.preset}:${number}`;

// -- the game state ----------------------------------------------------------------------------

let moves = []; // the player's moves so far, as text ("4>F", "3+7+12")
let assisted = false; // a hint or an undo was used on this deal (kept across restarts)
let position = null; // the current position (a layout object of the module)
let selected = []; // the picked-up place ("4", "FH"), or in a grid game the chosen cells
let focus = null; // the keyboard focus: a place name (a pile, a foundation, a cell)
let hinted = null; // the hint's move shown on the board, until the next action

const $ = (id) => document.getElementById(id);

function replayMoves() {
  position = cs.replay(data.preset, number, moves).positions.at(-1);
}

function save() {
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify({ moves, assisted }));
  } catch {
    // (storage may be full or disabled: the game goes on unsaved)
  }
}

/** Resume the saved game of this deal, if its moves still replay (no illegal move). */
function load() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SAVE_KEY) ?? "null");
  } catch {
    saved = null;
  }
  if (saved && Array.isArray(saved.moves)) {
    try {
      // The moves as text, as the page keeps them (the module also reads move objects).
      const texts = cs.parseRoute(saved.moves).map(cs.formatMove);
      if (cs.replay(data.preset, number, texts).status !== "illegal") {
        moves = texts;
        assisted = saved.assisted === true;
      }
    } catch {
      // (a save that is not a route: start afresh)
    }
  }
  replayMoves();
}

// -- playing -----------------------------------------------------------------------------------

function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

/** Play `move` if it is legal; otherwise show the module's reason. Either way deselect. */
function tryMove(move) {
  selected = [];
  hinted = null;
  const why = cs.whyIllegal(position, move);
  if (why !== null) {
    say(`${move}: ${why.reason}`, "illegal");
  } else {
    moves.push(cs.formatMove(move));
    replayMoves();
    save();
    if (cs.isWon(position)) say(`Won in ${counted(moves.length, "move")}!`, "won");
    else say(cs.isBlocked(position) ? "No move left: undo or restart." : "");
  }
  render();
}

/** The player picks `place` (a click, a tap, Enter or Space on the focus). */
function choose(place) {
  focus = place;
  hinted = null;
  if (spec.grid) {
    // A grid game: choose several cells, then collect them.
    if (position.cells[Number(place) - 1] === null) return render();
    const chosen = selected.includes(place);
    selected = chosen ? selected.filter((c) => c !== place) : [...selected, place];
    say("");
    return render();
  }
  if (selected.length === 0) {
    if (cardsAt(place).length) selected = [place];
    say("");
    return render();
  }
  if (selected[0] === place) {
    selected = [];
    return render();
  }
  // A foundation as the destination is "F": the card goes to its own foundation.
  tryMove(`${selected[0]}>${isFoundation(place) ? cs.FOUNDATION : place}`);
}

/** F: the selected card (or the focused pile's card) to its foundation; in a grid game, collect. */
function sendHome() {
  if (spec.grid) return collect();
  const source = selected[0] ?? focus;
  if (source && !isFoundation(source)) tryMove(`${source}>${cs.FOUNDATION}`);
}

function collect() {
  if (!selected.length) return say("Choose the cards to remove first.");
  const cells = selected.map(Number).sort((a, b) => a - b);
  tryMove(cells.join("+"));
}

function showHint() {
  assisted = true;
  save();
  // With the verified route, the hint is a promise while the position lies on it.
  const advice = cs.hint(position, entry);
  hinted = advice.move;
  selected = [];
  if (advice.move === null) say("No hint: there is no move to suggest.");
  else if (advice.promise) say(`Hint: ${describe(advice.move)} (the deal can still be won).`);
  else say(`Hint: ${describe(advice.move)} (a sensible move, not a promise of a win).`);
  render();
}

function undo() {
  if (!moves.length) return;
  moves.pop();
  assisted = true;
  selected = [];
  hinted = null;
  replayMoves();
  save();
  say("Move undone.");
  render();
}

function restart() {
  moves = [];
  selected = [];
  hinted = null;
  replayMoves();
  save();
  say("The deal, from the start.");
  render();
}

// -- places and words --------------------------------------------------------------------------

function isFoundation(place) {
  return place.startsWith("F");
}

function cardsAt(place) {
  if (spec.grid) return [position.cells[Number(place) - 1]].filter((c) => c !== null);
  return isFoundation(place) ? position.foundations[place] : position.piles[Number(place) - 1];
}

/** Every place in keyboard order: the foundations, then the piles (or the grid's cells). */
function places() {
  if (spec.grid) return position.cells.map((_, i) => String(i + 1));
  return [...spec.foundationNames, ...position.piles.map((_, i) => String(i + 1))];
}

/** A count and its noun, singular for exactly one ("1 move", "2 moves"). */
function counted(count, noun) {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

function cardText(card) {
  return (card[0] === "T" ? "10" : card[0]) + cs.SUIT_SYMBOLS[card[1]];
}

/** A move in words, from what the player sees (a grid hint never names the stock's cards). */
function describe(move) {
  const parsed = cs.parseMove(move);
  if ("cells" in parsed) {
    return `remove ${parsed.cells.map((c) => cardText(position.cells[Number(c) - 1])).join(" ")}`;
  }
  const card = cardsAt(String(parsed.src)).at(-1);
  const pile = spec.fans ? "fan" : "pile";
  const where = (place) => (String(place).startsWith("F") ? "its foundation" : `${pile} ${place}`);
  return `${cardText(card)} from ${where(parsed.src)} to ${where(parsed.dst)}`;
}

/** The places a hint's move touches (the destination "F": the card's own foundation). */
function hintedPlaces() {
  if (hinted === null) return new Set();
  const parsed = cs.parseMove(hinted);
  if ("cells" in parsed) return new Set(parsed.cells.map(String));
  const found = new Set([String(parsed.src)]);
  if (parsed.dst === cs.FOUNDATION) {
    const card = cardsAt(String(parsed.src)).at(-1);
    found.add(spec.foundationNames.length === 1 ? cs.FOUNDATION : `F${cs.suitOf(card)}`);
  } else {
    found.add(String(parsed.dst));
  }
  return found;
}

// -- drawing (the viewer's classes: viewer.css) ------------------------------------------------

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardNode(card) {
  const node = element("span", `card ${cs.isRed(card) ? "red" : "black"}`);
  node.dataset.card = card;
  node.setAttribute("aria-label", card);
  const rank = card[0] === "T" ? "10" : card[0];
  node.append(element("span", "rank", rank), element("span", "suit", cs.SUIT_SYMBOLS[card[1]]));
  return node;
}

/** A place's box: marked as focused, selected or hinted, and clickable. */
function placeNode(className, place, marks) {
  const node = element("div", className);
  node.dataset.place = place;
  node.classList.toggle("focus", focus === place);
  node.classList.toggle("selected", selected.includes(place));
  node.classList.toggle("hinted", marks.has(place));
  node.addEventListener("click", () => choose(place));
  node.append(element("span", "label", place));
  return node;
}

function drawPiles(board, marks) {
  const foundations = element("div", "foundations");
  for (const name of spec.foundationNames) {
    const cards = position.foundations[name];
    const box = placeNode("foundation", name, marks);
    box.dataset.count = String(cards.length);
    box.append(cards.length ? cardNode(cards.at(-1)) : element("span", "card empty"));
    box.append(element("span", "count", `${cards.length}/${total / spec.foundationNames.length}`));
    foundations.append(box);
  }
  const tableau = element("div", `tableau ${spec.fans ? "fans" : "columns"}`);
  tableau.style.setProperty("--piles", String(spec.piles));
  position.piles.forEach((cards, i) => {
    const pile = placeNode(`pile ${spec.fans ? "fan" : "column"}`, String(i + 1), marks);
    const stack = element("div", "stack");
    stack.style.setProperty("--n", String(Math.max(cards.length, 1)));
    stack.style.setProperty("--d", String(Math.max(cards.length - 1, 1)));
    if (!cards.length) stack.append(element("span", "card empty"));
    cards.forEach((card, k) => {
      const node = cardNode(card);
      node.style.setProperty("--i", String(k));
      stack.append(node);
    });
    pile.append(stack);
    tableau.append(pile);
  });
  board.append(foundations, tableau);
}

function drawGrid(board, marks) {
  const side = element("div", "foundations");
  const stock = element("div", "foundation stock");
  stock.dataset.count = String(position.stock.length);
  // The stock shows its back and its count only: its order is the game's secret.
  const back = element("span", position.stock.length ? "card back" : "card empty");
  stock.append(element("span", "label", "stock"), back);
  stock.append(element("span", "count", `${position.stock.length} left`));
  side.append(stock);
  const grid = element("div", "tableau grid");
  position.cells.forEach((card, i) => {
    const cell = placeNode("pile cell", String(i + 1), marks);
    cell.append(card ? cardNode(card) : element("span", "card empty"));
    grid.append(cell);
  });
  board.append(side, grid);
}

function homeCount() {
  if (spec.grid) {
    return total - position.cells.filter((c) => c !== null).length - position.stock.length;
  }
  return Object.values(position.foundations).reduce((sum, cards) => sum + cards.length, 0);
}

function render() {
  const board = $("board");
  board.replaceChildren();
  board.dataset.shape = spec.grid ? "grid" : spec.fans ? "fans" : "columns";
  board.dataset.focus = focus ?? "";
  const marks = hintedPlaces();
  if (spec.grid) drawGrid(board, marks);
  else drawPiles(board, marks);
  const home = homeCount();
  $("home").textContent = `${home}/${total} home`;
  $("home").dataset.home = String(home);
  $("counter").textContent = counted(moves.length, "move");
  $("assisted").hidden = !assisted;
  $("undo").toggleAttribute("disabled", moves.length === 0);
  $("collect").toggleAttribute("disabled", selected.length === 0);
  document.body.dataset.status = cs.isWon(position) ? "won" : "playing";
  document.body.dataset.moves = String(moves.length);
}

// -- input -------------------------------------------------------------------------------------

/**
 * Arrow keys: Left and Right step through places(); Up and Down go to the nearest place drawn
 * above or below (whatever the screen's width made of the layout).
 */
function moveFocus(key) {
  const all = places();
  const now = all.indexOf(focus);
  if (now < 0) return (focus = all[0]);
  if (key === "ArrowRight" || key === "ArrowLeft") {
    focus = all[(now + (key === "ArrowRight" ? 1 : all.length - 1)) % all.length];
    return;
  }
  const box = (place) =>
    document.querySelector(`#board [data-place="${place}"]`).getBoundingClientRect();
  const here = box(focus);
  const down = key === "ArrowDown";
  let best = null;
  let bestDistance = Infinity;
  for (const place of all) {
    const there = box(place);
    const dy = down ? there.top - here.bottom : here.top - there.bottom;
    if (dy < -1) continue;
    const dx = there.left + there.width / 2 - (here.left + here.width / 2);
    const distance = Math.max(dy, 0) * 4 + Math.abs(dx);
    if (place !== focus && distance < bestDistance) [best, bestDistance] = [place, distance];
  }
  if (best !== null) focus = best;
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  // Enter and Space on a button that has the focus (tabbed to) press that button.
  if ((event.key === "Enter" || event.key === " ") && event.target.closest("button")) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const actions = {
    Enter: () => focus !== null && choose(focus),
    " ": () => focus !== null && choose(focus),
    f: sendHome,
    h: showHint,
    z: undo,
    p: restart,
    Escape: () => { selected = []; hinted = null; say(""); render(); },
  };
  if (key.startsWith("Arrow")) {
    moveFocus(key);
    render();
  } else if (actions[key]) {
    actions[key]();
  } else {
    return;
  }
  event.preventDefault();
}

function setUp() {
  $("title").textContent = `${data.preset} \u00b7 deal ${number}`;
  const day = data.date ?? "today";
  const daily = `the daily ${data.difficulty} deal of ${day}`;
  $("summary").textContent = data.number === null ? daily : "";
  $("solvability").textContent = entry ? "Verified solvable" : "Solvability not checked";
  $("solvability").classList.add(entry ? "verified" : "unchecked");
  $("collect").hidden = !spec.grid;
  $("help").hidden = spec.grid;
  $("grid-help").hidden = !spec.grid;
  const buttons = { collect, hint: showHint, undo, restart };
  for (const [id, action] of Object.entries(buttons)) {
    $(id).addEventListener("click", (event) => {
      // A click (not a key) hands the focus back to the page, so the keys play on the board.
      if (event.detail > 0) $(id).blur();
      action();
    });
  }
  document.addEventListener("keydown", onKey);
  load();
  if (moves.length) say(`Resumed: ${counted(moves.length, "move")} played.`);
  render();
}

setUp();
