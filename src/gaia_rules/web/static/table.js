// One seat's table, live: the state messages of its WebSocket (cut for this seat by the
// server), its legal actions offered as clicks or keys (a card, then a highlighted square), a
// Power's effect shown before it is confirmed and beside a Protection prompt, and the end with
// the result table, the record, a rematch and the replay.
//
// The page never computes a rule: it offers the legal actions the server sent and sends back
// the one chosen. The token stays in the address's fragment and travels in the Authorization
// header, never in a request line.
"use strict";

import { QUICK_PASS_MS, cueSettings, installCues, turnCue } from "./cues.js";
import { engine } from "./engine.js";
import { replayGameUrl } from "./pages.js";
import { faceKey, loadFaces } from "./faces.js";
import { joined, t, tn } from "./i18n.js";
import { Scene, drawResult, el } from "./scene.js";
import { hide as hideTip, quietFocus } from "./tips.js";
import { backsCount, cardWords, effectLines, faceOf, kindWord, powerOfAction, seatChip, seatWord, targetWords } from "./words.js";

const $ = (id) => document.getElementById(id);

export const table = {
  game: null,
  token: null,
  state: null, // the last state message (its world kept apart)
  world: null, // the world's SVG, as the last frame that carried it drew it
  faces: {}, // card id -> face, as the messages named them
  log: [], // this seat's events, from the first
  picked: [], // the picks made towards an action
  confirm: null, // { action, preview, error } while a Power waits for its confirmation
  busy: false,
  awaited: 0, // the move number the state of this seat's last accepted action will carry
  live: null, // the subscription to this seat's states
  scene: null,
  rematchTimer: null,
  notice: null,
  passTimer: null,
  passing: null, // {moves, at}: the quick pass waiting to answer a Protection window
  outcomes: null, // {moves, plays}: what each play of a card on a square would lead to
  refocus: false, // an action sent: once its state is drawn, the focus goes to the next choice
};

// -- the picks that choose an action ------------------------------------------------------------

// Each way of choosing ``action`` by clicks: a card (by where it is and its face, never its id),
// squares, or a button.
function sequences(action) {
  const face = (card) => faceKey(table.faces[card]);
  switch (action.type) {
    case "DrawDisplay": return [[`display:${face(action.card)}`]];
    case "DrawDeck": return [[`deck:${action.kind}`]];
    case "PlayNature": case "PlayAnimals": case "PlayCity": case "PlaySun": case "PlayRain":
    case "PlayLightning": case "PlayEruption":
      return [[`hand:${face(action.card)}`, `sq:${action.pos}`]];
    case "PlayEarthquake": {
      const card = `hand:${face(action.card)}`;
      return [[card, `sq:${action.first}`, `sq:${action.second}`], [card, `sq:${action.second}`, `sq:${action.first}`]];
    }
    case "PlayTornado": case "Discard": return [[`hand:${face(action.card)}`]];
    case "Protect": return [[`hand:${face(action.card)}`], ["btn:protect"]];
    case "KeepCard": return [[`stolen:${face(action.card)}`]];
    case "Feed": return [[`sq:${action.city}`, `sq:${action.source}`]];
    case "FulfillObjective": return [[`objective:${face(action.objective)}`]];
    case "PlaceCityPawn": return [[`sq:${action.city}`]];
    case "DeclineObjectives": return [["btn:decline"]];
    case "PassProtection": return [["btn:pass"]];
    case "NameBack": return [[`btn:back:${action.kind}`]];
    default: return [[`btn:${action.type}`]];
  }
}

// Whether an action of this seat is on its way: sent, or accepted with its state still to come
// (pushed over the WebSocket); the state shown until then offers nothing, since an action chosen
// on it would answer a move the game has left.
function sending() {
  return table.busy || (table.state !== null && table.state.moves < table.awaited);
}

function legal() {
  return (table.state && !sending() && table.state.legal) || [];
}

function follows(sequence) {
  return table.picked.every((pick, i) => sequence[i] === pick);
}

// The next picks that lead somewhere, each with an action it leads to.
function nextPicks() {
  const next = new Map();
  if (table.confirm) return next;
  const depth = table.picked.length;
  for (const action of legal()) {
    for (const sequence of sequences(action)) {
      if (sequence.length > depth && follows(sequence) && !next.has(sequence[depth])) next.set(sequence[depth], action);
    }
  }
  return next;
}

function completed() {
  const depth = table.picked.length;
  return legal().filter((action) => sequences(action).some((s) => s.length === depth && follows(s)));
}

export function choose(pick) {
  if (sending() || table.confirm) return;
  if (!nextPicks().has(pick)) return;
  table.picked.push(pick);
  const done = completed();
  if (done.length) {
    // copies of one face are one choice (RULINGS 30): any of them is the same action
    const action = done[0];
    if (powerOfAction(action)) {
      askConfirmation(action);
      return;
    }
    submit(action);
    return;
  }
  render();
  afterPick();
}

function afterPick() {
  const kinds = [...nextPicks().keys()].map((pick) => pick.split(":")[0]);
  if (kinds.length && kinds.every((kind) => kind === "sq")) table.scene.board.focusFirst();
  else focusPrompt();
}

function focusPrompt() {
  const button = $("buttons").querySelector("button");
  if (button) button.focus();
}

export function cancel() {
  const first = table.confirm ? null : table.picked[0];
  table.picked = [];
  table.confirm = null;
  render();
  // the focus back on the choice just undone, else on the first choice
  const again = first ? document.querySelector(`.choosable[data-pick="${CSS.escape(first)}"]`) : null;
  if (again) quietFocus(again);
  else focusFirstChoice();
}

// The first choice offered: a card of the hand, a button, a card on display, a square.
function focusFirstChoice() {
  const first = document.querySelector("#hand .choosable, #stolen .choosable, #buttons button, #displays .choosable, #objectives .choosable")
    || document.querySelector("#world .choosable");
  if (first) quietFocus(first);
  return Boolean(first);
}

// -- a Power, shown before it is confirmed -------------------------------------------------------

async function askConfirmation(action) {
  table.confirm = { action, preview: null, error: null };
  render();
  focusPrompt();
  try {
    const data = await engine.preview(table.game, table.token, action);
    if (!table.confirm || table.confirm.action !== action) return;
    table.confirm.preview = data;
  } catch (error) {
    if (!table.confirm || table.confirm.action !== action) return;
    table.confirm.error = error.error || { message: String(error) };
  }
  render();
  focusPrompt();
}

// -- sending an action -----------------------------------------------------------------------

export async function submit(action) {
  table.busy = true;
  table.refocus = true;
  table.confirm = null;
  showRefusal(null);
  render();
  try {
    // the move number the action answers: a retry, or a click on a state the game has left,
    // is taken once ("stale" brings the state now)
    const data = await engine.act(table.game, table.token, table.state.moves, action);
    if (data && typeof data.moves === "number") table.awaited = Math.max(table.awaited, data.moves);
    if (!table.live || !table.live.live) await refresh();
  } catch (error) {
    if (error.kind === "stale" && error.state) {
      applyState(error.state); // the game moved on: its state came with the refusal
      showRefusal({ kind: "stale" });
    } else if (error.status === 429) {
      showRefusal({ kind: "rate_limited", seconds: error.retryAfter || 1 });
    } else if (error.error && error.kind !== "network") {
      showRefusal(error.error);
    } else {
      showRefusal({ kind: "network" });
    }
  } finally {
    table.busy = false;
    table.picked = [];
    render();
  }
}

function showRefusal(error) {
  const box = $("refusal");
  if (!error) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  let words;
  if (error.kind === "stale") words = t("refusal.stale");
  else if (error.kind === "rate_limited" || error.kind === "too_many") words = t("refusal.busy", { seconds: error.seconds || 1 });
  else if (error.kind === "network") words = t("refusal.network");
  else if (error.clause) words = t("refusal.illegal", { clause: error.clause });
  else words = t("refusal.other", { status: error.status || "" });
  box.replaceChildren(el("strong", { text: words }));
  if (error.message) box.append(" ", el("span", { class: "engine-words", lang: "en", text: error.message }));
  box.hidden = false;
}

// -- the connection ----------------------------------------------------------------------------

function setConnection(id, bad) {
  const box = $("connection");
  box.dataset.i18n = id; // said again in the language switched to
  box.textContent = t(id);
  box.classList.toggle("bad", Boolean(bad));
}

export async function applyState(message) {
  if (!message || message.type !== "state") return;
  if (table.state && message.moves < table.state.moves) return; // an older state, late
  if (message.since > table.log.length) {
    await refresh(); // some events were missed: ask for them
    return;
  }
  const first = table.state === null;
  Object.assign(table.faces, message.faces || {});
  table.log = table.log.slice(0, message.since).concat(message.events || []);
  if (typeof message.world === "string") table.world = message.world;
  const moved = !table.state || table.state.moves !== message.moves
    || JSON.stringify(table.state.legal) !== JSON.stringify(message.legal);
  table.state = message;
  if (moved) {
    table.picked = [];
    if (table.confirm) table.confirm = null;
  }
  if (first) await loadFaces(message.view.rules);
  render();
  if (moved) lookAhead(message);
  if (moved) quickPass(message);
}

// The quick pass (spec 13.11): a Protection window of this seat answered with a pass after one
// fixed delay, the same whatever the hand, unless the player acts before it.
function quickPass(message) {
  clearTimeout(table.passTimer);
  table.passing = null;
  const decision = message.view.decision;
  if (!message.legal || !decision || decision.type !== "ChooseProtection" || !cueSettings().quickPass) return;
  const pass = message.legal.find((action) => action.type === "PassProtection");
  if (!pass) return;
  table.passing = { moves: message.moves, at: Date.now() + QUICK_PASS_MS };
  table.passTimer = setTimeout(() => {
    const still = table.state && table.state.moves === message.moves && !sending();
    table.passing = null;
    if (still && !table.picked.length && !table.confirm) submit(pass);
  }, QUICK_PASS_MS);
  render();
}

// What each play of a card on a square would lead to, asked once per state where this seat
// chooses an action: shown on the squares once a card is picked.
async function lookAhead(message) {
  const view = message.view;
  if (!message.legal || !view.decision || view.decision.type !== "ChooseAction") return;
  if (!message.legal.some((action) => ["PlayNature", "PlayAnimals", "PlayCity"].includes(action.type))) return;
  try {
    const found = await engine.outcomes(table.game, table.token);
    if (!table.state || found.moves !== table.state.moves) return;
    table.outcomes = found;
    if (table.picked.length) render();
  } catch (error) {
    // no outcomes: the squares are offered without them
  }
}

// What a play would lead to, as a mark for its square, or null when it leads to nothing to say.
function outcomeMark(c, play) {
  const view = table.state.view;
  if (play.ends) {
    const words = play.ends.winner === view.seat ? t("outcome.wins") : t("outcome.ends", { seat: seatWord(c, play.ends.winner) });
    return { kind: "win", badge: "★★", words, notable: true };
  }
  if (play.objectives.length) {
    return { kind: "objective", badge: "★", words: t("outcome.objective", { objective: joined(play.objectives.map((id) => cardWords(c, id))) }), notable: true };
  }
  if (play.offered) return { kind: "objective", badge: "★", words: t("outcome.offered"), notable: true };
  if (play.city) {
    const face = faceOf(c, play.action.card);
    const needs = face && face.needs ? face.needs.length : 0;
    return { kind: "city", badge: `${play.city.satisfaction}/${needs}`, words: t("outcome.city", { met: play.city.satisfaction, count: needs }), notable: false };
  }
  return null;
}

// The marks of the squares the picks so far lead to.
function outcomeMarks(c) {
  const marks = new Map();
  const known = table.outcomes;
  if (!known || !table.state || known.moves !== table.state.moves || !table.picked.length || table.confirm) return marks;
  const depth = table.picked.length;
  for (const play of known.plays) {
    for (const sequence of sequences(play.action)) {
      if (sequence.length !== depth + 1 || !follows(sequence) || !sequence[depth].startsWith("sq:")) continue;
      const mark = outcomeMark(c, play);
      if (mark) marks.set(sequence[depth].slice(3), mark);
    }
  }
  return marks;
}

export async function refresh() {
  let message;
  try {
    message = await engine.state(table.game, table.token, { since: table.log.length, world: true });
  } catch (error) {
    return;
  }
  if (message.since > table.log.length) {
    table.log = [];
    message.since = 0;
  }
  await applyState(message);
}

const CONNECTION = {
  connecting: "connection.connecting",
  live: "connection.live",
  lost: "connection.lost",
  refused: "connection.refused",
};

function connect() {
  table.live = engine.subscribe(table.game, table.token, {
    since: () => table.log.length,
    onState: (message) => applyState(message),
    onError: (error) => showRefusal(error),
    onStatus: (status) => setConnection(CONNECTION[status], status === "lost" || status === "refused"),
  });
}

// -- drawing ----------------------------------------------------------------------------------

function ctx() {
  return { seat: table.state ? table.state.seat : null, faces: table.faces };
}

// Where the marks of what changed begin: after this seat's last action and what it did
// itself (a spectator: at the start of the turn before this one).
function marksFrom(seat) {
  const log = table.log;
  if (seat !== null) {
    let last = -1;
    for (let i = log.length - 1; i >= 0 && last < 0; i--) {
      if (log[i].type === "ActionTaken" && log[i].player === seat && !log[i].by_engine) last = i;
    }
    if (last < 0) return 0;
    for (let i = last + 1; i < log.length; i++) {
      const event = log[i];
      if (event.type === "TurnBegan" || (event.type === "ActionTaken" && event.player !== seat)) return i;
    }
    return log.length;
  }
  let turns = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].type === "TurnBegan" && ++turns === 2) return i;
  }
  return 0;
}

export function render() {
  const message = table.state;
  if (!message) return;
  const focused = document.activeElement;
  const keep = focused && focused.dataset ? focused.dataset.pick || null : null;
  // a card that is no choice (in front of a player, an Objective held): found again by its
  // face in the same place
  const keepFace = !keep && focused && focused.dataset && focused.dataset.face ? focused.dataset.face : null;
  const keepSeat = keepFace ? focused.closest("[data-seat]") : null;
  const keepBox = keepFace ? (keepSeat ? `[data-seat="${keepSeat.dataset.seat}"]` : `#${focused.closest("[id]").id}`) : null;
  const view = message.view;
  const next = nextPicks();
  const c = ctx();
  document.body.dataset.state = message.over ? "over" : message.legal && !sending() ? "choose" : "wait";
  document.body.dataset.moves = message.moves;
  $("game-info").textContent = t("game.info", { level: t(`level.${view.rules.level}`), players: view.players });
  const scene = {
    ctx: c,
    view,
    events: table.log,
    world: table.world,
    bots: message.bots,
    hands: null,
    picks: { choosable: next, picked: table.picked },
    marksFrom: marksFrom(message.seat),
    outline: outlined(message),
  };
  table.scene.draw(scene);
  const marks = outcomeMarks(c);
  table.scene.board.annotate(marks);
  drawPrompt(c, message, next);
  drawOutcomes(marks);
  turnCue(Boolean(message.legal) && !message.over, $("status").textContent);
  document.documentElement.style.setProperty("--prompt-h", `${$("prompt").offsetHeight}px`);
  drawResult(c, message.over ? message.standings : null);
  if (message.over) offerRematch();
  // the focus stays on the choice it was on, though the page was drawn again; lost (the
  // choice it was on taken), it goes to the next choice offered
  if (keep && !document.activeElement.matches("[data-pick]")) {
    const again = document.querySelector(`[data-pick="${CSS.escape(keep)}"]`);
    if (again) quietFocus(again);
  }
  if (keepFace && (!document.activeElement || document.activeElement === document.body)) {
    const again = [...document.querySelectorAll(`${keepBox} .card[data-face]`)].find((card) => card.dataset.face === keepFace);
    if (again) quietFocus(again);
  }
  const lost = !document.activeElement || document.activeElement === document.body;
  if (lost && table.refocus && document.body.dataset.state === "choose") {
    if (focusFirstChoice()) table.refocus = false;
  }
}

// The plays that fulfil an Objective or end the game, said in the prompt before one is chosen.
// Squares that lead to the same are said once: "anywhere" when every square does.
function drawOutcomes(marks) {
  const box = $("outcomes");
  const groups = new Map(); // words -> {mark, squares}
  for (const [pos, mark] of marks) {
    if (!mark.notable) continue;
    if (!groups.has(mark.words)) groups.set(mark.words, { mark, squares: [] });
    groups.get(mark.words).squares.push(pos);
  }
  box.hidden = !groups.size;
  box.replaceChildren(...[...groups.values()].map(({ mark, squares }) => {
    let words;
    if (squares.length === marks.size) words = t("outcome.anywhere", { words: mark.words });
    else if (squares.length <= 3) words = t("outcome.line", { pos: squares.join(t("list.semicolon")), words: mark.words });
    else words = t("outcome.squares", { count: squares.length, words: mark.words });
    return el("li", { class: `outcome-${mark.kind}` },
      el("span", { class: "outcome-badge", "aria-hidden": "true", text: mark.badge }), " ", words);
  }));
}

function outlined(message) {
  if (table.confirm && table.confirm.preview) return table.confirm.preview.squares;
  if (message.effect) return message.effect.squares;
  return [];
}

function drawPrompt(c, message, next) {
  const view = message.view;
  const status = $("status");
  status.replaceChildren();
  const mine = Boolean(message.legal);
  status.classList.toggle("your-move", mine);
  if (message.ended) status.append(t("prompt.abandoned"));
  else if (message.over && message.standings) status.append(tn("prompt.over", { seat: seatChip(c, message.standings.winner) }));
  else if (view.decision) {
    if (mine) status.append(el("span", { class: "your-move-tag", text: t("prompt.your_move") }), " ");
    else if (message.seat === null) status.append(el("span", { class: "watching-tag", text: t("prompt.watching") }), " ");
    status.append(decisionWords(c, view, view.decision, mine, message.effect));
  }
  const effectBox = $("effect");
  const shown = table.confirm ? table.confirm : message.effect ? { action: message.effect.action, preview: message.effect } : null;
  effectBox.hidden = !shown;
  effectBox.replaceChildren();
  if (shown) {
    const action = shown.action;
    const power = cardWords(c, action.card);
    const target = targetWords(action);
    const heading = !table.confirm ? "effect.would" : target ? "effect.heading" : "effect.heading_alone";
    effectBox.append(el("p", { class: "effect-title" }, tn(heading, { power, target })));
    if (shown.preview) {
      effectBox.append(el("ul", {}, ...effectLines(c, shown.preview, view).map((line) => el("li", {}, line))));
    } else if (shown.error) {
      effectBox.append(el("p", { class: "error", text: t("effect.unknown") }));
    } else {
      effectBox.append(el("p", { class: "small", text: t("effect.working") }));
    }
  }
  $("hint").textContent = sending() ? t("hint.sending") : hintWords(c, view, next);
  const buttons = $("buttons");
  buttons.replaceChildren();
  if (table.confirm) {
    buttons.append(el("button", { type: "button", class: "primary confirm", id: "confirm", text: t("button.confirm") }));
    buttons.append(el("button", { type: "button", class: "cancel", id: "cancel", text: t("button.cancel") }));
    return;
  }
  for (const [pick] of next) {
    if (!pick.startsWith("btn:")) continue;
    buttons.append(el("button", { type: "button", class: "choosable", "data-pick": pick, text: buttonWords(view, pick) }));
  }
  if (table.picked.length) buttons.append(el("button", { type: "button", class: "cancel", id: "cancel", text: t("button.cancel") }));
}

function buttonWords(view, pick) {
  if (pick === "btn:decline") return t("button.decline");
  if (pick === "btn:pass") return t("button.pass");
  if (pick === "btn:protect") return t("button.protect");
  if (pick.startsWith("btn:back:")) {
    const kind = pick.slice(9);
    const victim = view.decision && view.decision.victim;
    const count = victim === undefined ? 0 : backsCount(view.hand_backs[victim])[kind];
    return t("button.back", { kind: kindWord(kind), count });
  }
  return pick.slice(4);
}

function decisionWords(c, view, decision, mine, effect) {
  const seat = (n) => seatChip(c, n);
  const who = { seat: seat(decision.player) };
  const side = mine ? "mine" : "other";
  switch (decision.type) {
    case "ChooseAction": return tn(`prompt.action.${side}`, { ...who, number: decision.number });
    case "ChooseFeeding": return tn(`prompt.feeding.${side}`, { ...who, count: decision.cities.length });
    case "ChooseLimitDiscard": {
      const backs = view.hand_backs[decision.player];
      const powers = backsCount(backs).power;
      const which = backs.length > 6 && powers > 2 ? "both" : powers > 2 ? "power" : "hand";
      return tn(`prompt.limit.${side}.${which}`, { ...who, cards: backs.length, powers });
    }
    case "ChooseObjective":
      return tn(view.rules.objectives === "optional" ? `prompt.objective.${side}_optional` : `prompt.objective.${side}`, who);
    case "ChoosePawnCities":
      return tn(`prompt.pawns.${side}`, { ...who, count: view.supply[decision.player], cities: decision.cities.length });
    case "ChooseProtection": {
      const action = effect ? effect.action : null;
      const params = { ...who, owner: seat(decision.power_player), power: cardWords(c, decision.against) };
      return tn(`prompt.protection.${side}`, { ...params, target: action ? targetWords(action) : "" });
    }
    case "ChooseBack": return tn(`prompt.back.${side}`, { ...who, victim: seat(decision.victim) });
    case "ChooseKeptCard": return tn(`prompt.keep.${side}`, who);
    default: return decision.type;
  }
}

function hintWords(c, view, next) {
  if (table.confirm) return t(table.confirm.preview ? "hint.confirm" : "hint.working");
  if (!table.state.legal) return "";
  const kinds = [...next.keys()].map((pick) => pick.split(":")[0]);
  const squaresOnly = kinds.length && kinds.every((kind) => kind === "sq");
  if (table.picked.length) {
    const first = table.picked[0];
    if (first.startsWith("sq:")) return t("hint.feed_source", { pos: first.slice(3) });
    const action = next.values().next().value;
    const card = action && action.card ? cardWords(c, action.card) : "";
    if (table.picked.length === 2) return t("hint.second_square", { card });
    if (squaresOnly) return t("hint.square", { card });
    return t("hint.choose");
  }
  switch (view.decision.type) {
    case "ChooseAction": return t("hint.action");
    case "ChooseFeeding": return t("hint.feeding");
    case "ChooseLimitDiscard": return t("hint.limit");
    case "ChooseObjective": return t("hint.objective");
    case "ChoosePawnCities": return t("hint.pawns");
    case "ChooseProtection": {
      const words = t(next.has("btn:protect") ? "hint.protection" : "hint.protection_none");
      if (!table.passing || table.passing.moves !== table.state.moves) return words;
      return `${words} ${t("hint.quick_pass", { seconds: Math.round(QUICK_PASS_MS / 1000) })}`;
    }
    case "ChooseBack": return t("hint.back");
    case "ChooseKeptCard": return t("hint.keep");
    default: return "";
  }
}

// -- the end -----------------------------------------------------------------------------------

function offerRematch() {
  $("watch-again").href = replayGameUrl(table.game, table.token);
  $("rematch").hidden = table.state.seat === null;
  if (table.rematchTimer !== null || table.state.seat === null) return;
  const look = async () => {
    let data = null;
    try {
      data = await engine.findRematch(table.game, table.token);
    } catch (error) {
      data = null;
    }
    if (data) {
      const ready = $("rematch-ready");
      ready.href = data.url;
      ready.hidden = false;
      $("rematch").hidden = true;
      return;
    }
    table.rematchTimer = setTimeout(look, 5000);
  };
  table.rematchTimer = setTimeout(look, 0);
}

async function rematch() {
  let data;
  try {
    data = await engine.rematch(table.game, table.token);
  } catch (error) {
    showRefusal(error.error || { kind: "network" });
    return;
  }
  location.assign(data.url);
}

async function download() {
  let blob;
  try {
    blob = await engine.record(table.game, table.token);
  } catch (error) {
    return;
  }
  const link = el("a", { href: URL.createObjectURL(blob), download: `gaia-${table.game}.json` });
  document.body.append(link);
  link.click();
  link.remove();
}

// -- clicks and keys ---------------------------------------------------------------------------

function onClick(event) {
  const target = event.target.closest("[data-pick], #cancel, #confirm, #rematch, #download");
  if (!target) return;
  if (target.id === "cancel") return cancel();
  if (target.id === "confirm") {
    if (table.confirm) submit(table.confirm.action);
    return;
  }
  if (target.id === "rematch") return void rematch();
  if (target.id === "download") return void download();
  if (!target.classList.contains("choosable")) return;
  event.preventDefault();
  hideTip();
  choose(target.getAttribute("data-pick"));
}

function onKey(event) {
  const target = event.target;
  if (event.key === "Escape" && !event.defaultPrevented && $("tip").hidden && (table.picked.length || table.confirm)) {
    cancel();
    event.preventDefault();
    return;
  }
  if (!(target instanceof Element) || !target.matches("[data-pos].choosable")) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    choose(target.getAttribute("data-pick"));
  } else if (table.scene.board.move(target, event.key)) {
    event.preventDefault();
  }
}

export function startTable(game, token) {
  table.game = game;
  table.token = token;
  table.scene = new Scene();
  $("table").hidden = false;
  $("prompt").hidden = false;
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  installCues();
  connect();
}

// A new language: the same table in its words and with its card faces.
export async function retranslate() {
  if (!table.state) return;
  await loadFaces(table.state.view.rules);
  render();
}
