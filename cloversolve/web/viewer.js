// The solution viewer: draws a deal and steps through a route with cloversolve.js.
// `cloversolve view` inlines this file and the module into one HTML page; the page's data
// (preset, layout, route) sits in the <script id="viewer-data"> element as JSON.

import * as cs from "./cloversolve.js";

const data = JSON.parse(document.getElementById("viewer-data").textContent);
const spec = cs.findPreset(data.preset);
const result = cs.replay(data.preset, data.layout, data.route);
const steps = result.steps;
const total = spec.deckSize;
const PLAY_INTERVAL_MS = 600;

const $ = (id) => document.getElementById(id);
const element = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

let current = 0;
let timer = null;

// -- words -----------------------------------------------------------------------------------

const FOUNDATION_WORDS = {
  F: "the foundation",
  FC: "the Clubs foundation",
  FD: "the Diamonds foundation",
  FH: "the Hearts foundation",
  FS: "the Spades foundation",
};
const pileWord = spec.fans ? "fan" : "pile";

function placeWords(place) {
  return FOUNDATION_WORDS[place] ?? `${pileWord} ${place}`;
}

function cardText(card) {
  return (card[0] === "T" ? "10" : card[0]) + cs.SUIT_SYMBOLS[card[1]];
}

/** A count and its noun, singular for exactly one ("1 move", "2 moves"). */
function counted(number, noun) {
  return `${number} ${number === 1 ? noun : `${noun}s`}`;
}

function cardWords(cards) {
  return cards.map(cardText).join(" ");
}

function describe(step) {
  if (step.to === "removed") {
    const refilled = step.refills.length
      ? `; cell${step.refills.length > 1 ? "s" : ""} ${step.refills.map((r) => r.cell).join(", ")} refilled from the stock`
      : "; the stock is empty, the cells stay empty";
    return `removes ${cardWords(step.cards)} from cells ${step.from.join(", ")}${refilled}`;
  }
  const onto = /^F/.test(step.to) ? "to" : "onto";
  return `${cardWords(step.cards)} from ${placeWords(step.from)} ${onto} ${placeWords(step.to)}`;
}

function stepLabel(step) {
  if (step.kind === "auto") {
    return step.moveNumber === 0 ? "automatic, after the deal" : `automatic, after move ${step.moveNumber}`;
  }
  return `move ${step.moveNumber} of ${result.movesPlayed}: ${step.move}`;
}

// -- drawing ---------------------------------------------------------------------------------

function cardNode(card, extra = "") {
  const node = element("span", `card ${cs.isRed(card) ? "red" : "black"} ${extra}`.trim());
  node.dataset.card = card;
  node.setAttribute("aria-label", card);
  const rank = card[0] === "T" ? "10" : card[0];
  node.append(element("span", "rank", rank), element("span", "suit", cs.SUIT_SYMBOLS[card[1]]));
  return node;
}

function emptyNode(text = "") {
  return element("span", "card empty", text);
}

function homeCount(position) {
  if (position.cells) {
    return total - position.cells.filter((c) => c !== null).length - position.stock.length;
  }
  return Object.values(position.foundations).reduce((sum, cards) => sum + cards.length, 0);
}

function highlightOf(step) {
  if (!step) return { from: new Set(), to: new Set(), card: new Set() };
  const from = new Set(Array.isArray(step.from) ? step.from : [step.from]);
  const to = new Set(step.to === "removed" ? step.refills.map((r) => String(r.cell)) : [step.to]);
  const card = new Set(step.to === "removed" ? step.refills.map((r) => r.card) : step.cards);
  return { from, to, card };
}

function foundationNode(name, cards, mark) {
  const box = element("div", "foundation");
  box.dataset.place = name;
  box.dataset.count = String(cards.length);
  if (mark.to.has(name)) box.classList.add("to");
  if (mark.from.has(name)) box.classList.add("from");
  let label = name;
  const builds = spec.foundationBuilds[name];
  if (builds) label += builds === "up" ? " \u2191" : " \u2193";
  box.append(element("span", "label", label));
  const top = cards.at(-1);
  box.append(top ? cardNode(top, mark.card.has(top) && mark.to.has(name) ? "moved" : "") : emptyNode());
  const full = total / spec.foundationNames.length;
  box.append(element("span", "count", `${cards.length}/${full}`));
  return box;
}

function pileNode(index, cards, mark) {
  const place = String(index + 1);
  const pile = element("div", `pile ${spec.fans ? "fan" : "column"}`);
  pile.dataset.place = place;
  if (mark.from.has(place)) pile.classList.add("from");
  if (mark.to.has(place)) pile.classList.add("to");
  pile.append(element("span", "label", place));
  const stack = element("div", "stack");
  stack.style.setProperty("--n", String(Math.max(cards.length, 1)));
  stack.style.setProperty("--d", String(Math.max(cards.length - 1, 1)));
  if (!cards.length) stack.append(emptyNode());
  cards.forEach((card, i) => {
    const moved = mark.card.has(card) && mark.to.has(place) && i === cards.length - 1;
    const node = cardNode(card, moved ? "moved" : "");
    node.style.setProperty("--i", String(i));
    stack.append(node);
  });
  pile.append(stack);
  return pile;
}

function drawPiles(board, position, mark) {
  const foundations = element("div", "foundations");
  for (const [name, cards] of Object.entries(position.foundations)) {
    foundations.append(foundationNode(name, cards, mark));
  }
  const tableau = element("div", `tableau ${spec.fans ? "fans" : "columns"}`);
  tableau.style.setProperty("--piles", String(spec.piles));
  position.piles.forEach((cards, i) => tableau.append(pileNode(i, cards, mark)));
  board.append(foundations, tableau);
}

function drawGrid(board, position, mark, step) {
  const top = element("div", "foundations");
  const stock = element("div", "foundation stock");
  stock.dataset.count = String(position.stock.length);
  stock.append(element("span", "label", "stock"));
  stock.append(position.stock.length ? element("span", "card back", "") : emptyNode());
  stock.append(element("span", "count", `${position.stock.length} left`));
  const removed = element("div", "foundation removed");
  removed.dataset.count = String(homeCount(position));
  removed.append(element("span", "label", "removed"));
  const gone = step && step.to === "removed" ? step.cards : [];
  const pile = element("span", "removed-cards");
  gone.forEach((card) => pile.append(cardNode(card, "gone")));
  if (!gone.length) pile.append(emptyNode());
  removed.append(pile, element("span", "count", `${homeCount(position)}/${total}`));
  top.append(stock, removed);
  const grid = element("div", "tableau grid");
  position.cells.forEach((card, i) => {
    const place = String(i + 1);
    const cell = element("div", "pile cell");
    cell.dataset.place = place;
    if (mark.from.has(place)) cell.classList.add("from");
    if (mark.to.has(place)) cell.classList.add("to");
    cell.append(element("span", "label", place));
    cell.append(card ? cardNode(card, mark.to.has(place) ? "moved" : "") : emptyNode());
    grid.append(cell);
  });
  board.append(top, grid);
}

function positionAt(index) {
  return index === 0 ? result.layout : steps[index - 1].position;
}

function render() {
  const step = current > 0 ? steps[current - 1] : null;
  const position = positionAt(current);
  const board = $("board");
  board.replaceChildren();
  board.dataset.preset = data.preset;
  board.dataset.shape = spec.grid ? "grid" : spec.fans ? "fans" : "columns";
  const mark = highlightOf(step);
  if (spec.grid) drawGrid(board, position, mark, step);
  else drawPiles(board, position, mark);

  const home = homeCount(position);
  $("home").textContent = `${home}/${total} home`;
  $("home").dataset.home = String(home);
  $("counter").textContent = `step ${current} of ${steps.length}`;
  const atEnd = current === steps.length;
  let caption;
  if (step === null) caption = "The deal, as dealt.";
  else caption = `${stepLabel(step)} \u2014 ${describe(step)}.`;
  $("caption").textContent = caption;
  $("verdict").textContent = atEnd ? verdictText() : "";
  $("verdict").className = atEnd ? `verdict ${result.status}` : "verdict";
  document.body.dataset.status = atEnd ? result.status : "playing";

  for (const item of document.querySelectorAll("#moves [data-step]")) {
    const index = Number(item.dataset.step);
    item.classList.toggle("current", index === current);
    item.classList.toggle("done", index < current);
  }
  keepInView($("moves"), document.querySelector("#moves .current"));
  $("first").disabled = $("back").disabled = current === 0;
  $("forward").disabled = $("last").disabled = atEnd;
  $("play").textContent = timer ? "Pause" : "\u25b6 Play";
}

/** Scroll the move list (never the page) so that its current item shows. */
function keepInView(list, item) {
  if (!item) return;
  const top = item.offsetTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

function verdictText() {
  if (result.status === "won") {
    return `Won: all ${total} cards home in ${counted(result.movesPlayed, "move")}.`;
  }
  if (result.status === "illegal") return `Illegal at move ${result.illegalAt}: ${result.reason}.`;
  const played = { 0: "no moves played", 1: "the one move is legal" }[result.movesPlayed]
    ?? `all ${result.movesPlayed} moves are legal`;
  return `Not won: ${played} but the game is not finished.`;
}

function go(index) {
  current = Math.max(0, Math.min(steps.length, index));
  if (current === steps.length) stop();
  render();
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
}

function togglePlay() {
  if (timer) {
    stop();
  } else {
    if (current === steps.length) current = 0;
    timer = setInterval(() => go(current + 1), PLAY_INTERVAL_MS);
  }
  render();
}

function buildMoveList() {
  const list = $("moves");
  const add = (index, className, text) => {
    const item = element("li", className, text);
    item.dataset.step = String(index);
    item.addEventListener("click", () => {
      stop();
      go(index);
    });
    list.append(item);
  };
  add(0, "deal", "The deal");
  steps.forEach((step, i) => {
    if (step.kind === "auto") add(i + 1, "auto", `auto ${step.move} ${cardWords(step.cards)}`);
    else add(i + 1, "player", `${step.moveNumber}. ${step.move}  ${cardWords(step.cards)}`);
  });
  if (result.status === "illegal") {
    const item = element("li", "illegal", `${result.illegalAt}. ${result.reason}`);
    list.append(item);
  }
}

/** True when the module deals `number` exactly as the page's layout (written by the toolkit). */
function dealtAlike() {
  const plain = (layout) => JSON.stringify({ ...layout, number: null });
  return plain(cs.deal(data.preset, data.number)) === plain(result.layout);
}

function setUp() {
  const number = data.number === null ? "a hand-made position" : `deal ${data.number}`;
  $("title").textContent = `${data.preset} \u00b7 ${number}`;
  const facts = [`${counted(data.route.length, "move")} (${data.source})`];
  if (data.number !== null && !dealtAlike()) {
    console.error(`cloversolve.js deals ${data.preset} ${data.number} differently`);
    facts.push("WARNING: this layout is not the module's deal of this number");
  }
  if (data.difficulty) facts.push(`difficulty ${data.difficulty}`);
  const autos = steps.filter((s) => s.kind === "auto").length;
  if (autos) facts.push(`${counted(autos, "automatic move")}`);
  $("summary").textContent = facts.join(" \u00b7 ");
  buildMoveList();
  $("first").addEventListener("click", () => { stop(); go(0); });
  $("back").addEventListener("click", () => { stop(); go(current - 1); });
  $("forward").addEventListener("click", () => { stop(); go(current + 1); });
  $("last").addEventListener("click", () => { stop(); go(steps.length); });
  $("play").addEventListener("click", togglePlay);
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {
      ArrowRight: () => go(current + 1),
      ArrowLeft: () => go(current - 1),
      Home: () => go(0),
      End: () => go(steps.length),
    };
    if (event.key === " ") {
      event.preventDefault();
      togglePlay();
    } else if (keys[event.key]) {
      event.preventDefault();
      stop();
      keys[event.key]();
    }
  });
  render();
}

setUp();
