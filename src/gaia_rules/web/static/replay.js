// The replay page: a finished game of this server (/replay/GAME#TOKEN) or a record file
// dropped in the lobby (/replay#record=NAME), step by step: forward and back, to any turn, as
// any seat saw it (every hand once the game is over), with a link to each step. Each step is
// the server's state message for that seat at that step: nothing hidden from the seat chosen
// reaches the page.
"use strict";

import { engine } from "./engine.js";
import { loadFaces } from "./faces.js";
import { t } from "./i18n.js";
import { Scene, drawResult, el } from "./scene.js";
import { Cities, colourWord, eventLine } from "./words.js";

const $ = (id) => document.getElementById(id);

export const replay = {
  source: null, // { game, token } or { record }
  step: 0,
  seat: null, // a seat, "spectator" or "all"
  message: null,
  scene: null,
  // the step and seat last asked for, and the number of that request: a click counts from
  // where the previous click went, even before its step arrived, and an answer overtaken by
  // a later request is dropped, so that three quick clicks on "next" go three steps on
  wanted: null,
  asked: 0,
};

function replayQuery(step, seat) {
  const params = new URLSearchParams();
  if (step !== null) params.set("step", step);
  if (seat !== null) params.set("seat", seat);
  return params.toString();
}

export async function go(step, seat = replay.wanted ? replay.wanted.seat : replay.seat) {
  const asked = ++replay.asked;
  replay.wanted = { step, seat };
  let message;
  try {
    message = await engine.replayStep(replay.source, { step, seat });
  } catch (error) {
    if (asked === replay.asked) showError(error.kind || String(error.status));
    return;
  }
  if (asked !== replay.asked) return;
  replay.wanted = { step: message.replay.step, seat: message.replay.seat };
  const first = replay.message === null;
  replay.message = message;
  replay.step = message.replay.step;
  replay.seat = message.replay.seat;
  if (first) await loadFaces(message.view.rules);
  if (first) fillControls();
  render();
  const address = new URL(location.href);
  address.search = replayQuery(replay.step, replay.seat);
  history.replaceState(null, "", address.href);
  $("replay-link").href = address.href;
}

function showError(kind) {
  const status = $("status");
  $("prompt").hidden = false;
  status.textContent = t(kind === "not_over" ? "replay.not_over" : kind === "expired" ? "replay.expired" : "replay.refused");
  document.body.dataset.state = "error";
}

function fillControls() {
  const info = replay.message.replay;
  const range = $("replay-step");
  range.max = info.steps;
  const seats = $("replay-seat");
  seats.replaceChildren();
  for (let seat = 0; seat < info.players; seat++) {
    seats.append(el("option", { value: String(seat), text: t("replay.seat", { number: seat + 1, colour: colourWord(seat) }) }));
  }
  seats.append(el("option", { value: "spectator", text: t("replay.spectator") }));
  if (info.over) seats.append(el("option", { value: "all", text: t("replay.all") }));
  const turns = $("replay-turn");
  turns.replaceChildren(...info.turns.map(([step, player], index) => el("option", {
    value: String(step),
    text: t("replay.turn_of", { number: index + 1, colour: colourWord(player) }),
  })));
}

function render() {
  const message = replay.message;
  const info = message.replay;
  const seat = typeof info.seat === "number" ? info.seat : null;
  const ctx = { seat, faces: message.faces, replay: true };
  document.body.dataset.state = "replay";
  document.body.dataset.step = info.step;
  $("game-info").textContent = t("game.info", { level: t(`level.${message.view.rules.level}`), players: info.players });
  replay.scene.reset();
  replay.scene.draw({
    ctx,
    view: message.view,
    events: message.events,
    world: message.world,
    bots: message.bots || [],
    hands: message.hands || null,
    picks: { choosable: new Map(), picked: [] },
    marksFrom: info.last,
    outline: [],
  });
  drawResult(ctx, info.step === info.steps && message.standings ? message.standings : null);
  for (const id of ["rematch", "download", "watch-again", "rematch-ready"]) $(id).hidden = true;
  $("replay-step").value = String(info.step);
  $("replay-seat").value = String(info.seat);
  const turns = $("replay-turn");
  let current = null;
  for (const option of turns.options) if (Number(option.value) <= info.step) current = option.value;
  if (current !== null) turns.value = current;
  $("replay-where").textContent = t("replay.where", { step: info.step, steps: info.steps });
  $("replay-what").replaceChildren(...stepWords(ctx, message));
  $("replay-first").disabled = info.step === 0;
  $("replay-back").disabled = info.step === 0;
  $("replay-next").disabled = info.step === info.steps;
  $("replay-last").disabled = info.step === info.steps;
}

// What the step's action did, in the words of the log: its first lines.
function stepWords(ctx, message) {
  const cities = new Cities(null);
  const lines = [];
  message.events.forEach((event, index) => {
    if (index >= message.replay.last) {
      const line = eventLine(ctx, event, cities);
      if (line && line.kind !== "muted" && lines.length < 3) lines.push(line.node);
    }
    cities.follow(event);
    cities.forget(event);
  });
  return lines.flatMap((line, index) => (index ? [t("list.semicolon"), line] : [line]));
}

// The step after which the event ``index`` of ``events`` was logged: the number of actions
// players took up to it (an action's own events follow its ActionTaken).
export function stepOf(events, index) {
  let step = 0;
  for (let i = 0; i <= index && i < events.length; i++) {
    if (events[i].type === "ActionTaken" && !events[i].by_engine) step += 1;
  }
  return step;
}

function step(delta) {
  if (!replay.message) return;
  const info = replay.message.replay;
  const from = replay.wanted && replay.wanted.step !== null ? replay.wanted.step : info.step;
  const target = Math.max(0, Math.min(info.steps, from + delta));
  if (target !== from) go(target);
}

export function startReplay(source) {
  replay.source = source;
  replay.scene = new Scene();
  $("table").hidden = false;
  $("prompt").hidden = true;
  $("table-title").hidden = true; // the replay's own h1 says what the page is
  $("replay-bar").hidden = false;
  $("world-keys").hidden = true;
  const params = new URLSearchParams(location.search);
  const at = params.has("step") ? Number(params.get("step")) : null;
  const seat = params.get("seat");
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => step(-1));
  $("replay-next").addEventListener("click", () => step(1));
  $("replay-last").addEventListener("click", () => go(replay.message.replay.steps));
  $("replay-step").addEventListener("change", (event) => go(Number(event.target.value)));
  $("replay-turn").addEventListener("change", (event) => go(Number(event.target.value)));
  $("replay-seat").addEventListener("change", (event) => go(replay.wanted ? replay.wanted.step : replay.step, event.target.value));
  // a line of the log: to the step of the action it tells of
  const jump = (event) => {
    const line = event.target instanceof Element ? event.target.closest("#log li[data-event]") : null;
    if (!line || !replay.message) return false;
    go(stepOf(replay.message.events, Number(line.dataset.event)));
    return true;
  };
  $("log").addEventListener("click", jump);
  $("log").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && jump(event)) event.preventDefault();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") step(-1);
    else if (event.key === "ArrowRight") step(1);
  });
  return go(Number.isInteger(at) ? at : null, seat);
}

export async function retranslate() {
  if (!replay.message) return;
  await loadFaces(replay.message.view.rules);
  fillControls();
  render();
}
