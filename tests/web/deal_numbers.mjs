// What cloversolve.js makes of deal numbers that the Python toolkit wrote as JSON.
// tests/test_deal_number_json.py runs `node deal_numbers.mjs CASES.json` and checks the answer.
//
// CASES.json: {module, deals: [{preset, text}], answers: [{preset, text}], catalogue: text}.
// For every deal (the text `cloversolve deal PRESET N --json` printed) the page side parses the
// text, deals the number again in every form the module takes, and replies with the
// JSON.stringify of every object the module returned, for the Python side to read back.

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const cs = await import(pathToFileURL(cases.module).href);

/** The error of `call` as {name, message}, or null when it returns. */
function failure(call) {
  try {
    call();
    return null;
  } catch (error) {
    return { name: error.name, message: error.message };
  }
}

function dealCase({ preset, text }) {
  const layout = JSON.parse(text);
  const number = layout.number;
  const dealt = cs.deal(preset, number);
  const forms = {
    bigint: cs.deal(preset, BigInt(number)),
    string: cs.deal(preset, String(number)),
    json: cs.deal(preset, cs.jsonDealNumber(BigInt(number))),
  };
  const begin = cs.start(preset, number);
  const move = cs.legalMoves(begin.position)[0];
  const replayed = cs.replay(preset, number, move === undefined ? [] : [move]);
  const fromLayout = cs.replay(preset, layout, []);
  const played = move === undefined ? null : cs.play(begin.position, move);
  const withBigInt = cs.checkLayout({ ...layout, number: BigInt(number) });
  return {
    preset,
    dealt: JSON.stringify(dealt),
    forms: Object.fromEntries(Object.entries(forms).map(([k, v]) => [k, JSON.stringify(v)])),
    checked: JSON.stringify(cs.checkLayout(layout)),
    checkedBigInt: JSON.stringify(withBigInt),
    start: JSON.stringify(begin),
    replay: JSON.stringify(replayed),
    replayLayout: JSON.stringify(fromLayout),
    play: JSON.stringify(played),
    numberType: typeof dealt.number,
    asNumber: failure(() => cs.deal(preset, Number(number))),
  };
}

function answerCase({ preset, text }) {
  const parsed = JSON.parse(text);
  return { number: parsed.number, redealt: cs.deal(preset, parsed.number).number };
}

function dailyCase(text) {
  const catalogue = JSON.parse(text);
  const days = ["2000-01-01", "2000-01-02", "2000-01-03"];
  return days.map((day) => JSON.stringify(cs.daily(catalogue, day, "easy")));
}

process.stdout.write(
  JSON.stringify({
    deals: cases.deals.map(dealCase),
    answers: cases.answers.map(answerCase),
    daily: dailyCase(cases.catalogue),
  }),
);
