// The lobby: a new game (players, rule level, who plays each seat, and each rule switch
// explained in a line with a link to the page where the rulebooks disagree), its links, and a
// record file to watch again.
"use strict";

import { engine } from "./engine.js";
import { replayRecordUrl } from "./pages.js";
import { t, tn } from "./i18n.js";
import { el } from "./scene.js";
import { rulesLink } from "./tips.js";
import { seatChip } from "./words.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["basic", "advanced", "powers", "disasters"];

// Each switch: the level it belongs to, its values (the default first).
const SWITCHES = [
  ["edition", "basic", ["third", "first"]],
  ["objectives", "basic", ["mandatory", "optional"]],
  ["feeding", "basic", ["pawn_holder", "every_city"]],
  ["star_animals_on_sea", "basic", ["true", "false"]],
  ["four_need_drop", "advanced", ["keep_one", "empty_at_two"]],
  ["eruption_on_city", "disasters", ["true", "false"]],
  ["lightnings", "disasters", ["5", "4", "3", "2", "1", "0"]],
];
const SEAT_CHOICES = ["you", "person", "random", "greedy", "search", "strong"];
const kept = [];

function drawSwitches() {
  const box = $("switches");
  const values = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.name, s.value]));
  box.replaceChildren();
  const level = $("level").value;
  for (const [name, needs, options] of SWITCHES) {
    const select = el("select", { name, id: `switch-${name}`, "aria-describedby": `switch-${name}-help` });
    for (const value of options) {
      const words = name === "lightnings" ? value : t(`switch.${name}.${value}`);
      select.append(el("option", { value, text: words }));
    }
    if (values[name]) select.value = values[name];
    const off = LEVELS.indexOf(level) < LEVELS.indexOf(needs);
    select.disabled = off;
    const link = rulesLink(`switch.${name}`);
    const help = el("p", { class: "help", id: `switch-${name}-help` }, t(`switch.${name}.help`));
    if (off) help.append(" ", el("em", { text: t("lobby.switch_off", { level: t(`level.${needs}`) }) }));
    if (link) {
      help.append(" ", el("a", { href: link, target: "_blank", rel: "noopener noreferrer", text: t("lobby.readings") }));
    }
    box.append(el("div", { class: `switch${off ? " off" : ""}` },
      el("label", { for: `switch-${name}`, text: t(`switch.${name}`) }), select, help));
  }
}

function drawLevelHelp() {
  const level = $("level").value;
  const help = $("level-help");
  help.replaceChildren(t(`level.${level}.help`));
  const link = rulesLink(`level.${level}`);
  if (link) help.append(" ", el("a", { href: link, target: "_blank", rel: "noopener noreferrer", text: t("lobby.how_to_play") }));
}

function drawSeats() {
  const box = $("seats");
  for (const select of box.querySelectorAll("select")) kept[Number(select.dataset.seat)] = select.value;
  box.replaceChildren(el("legend", { text: t("lobby.seats") }));
  const ctx = { seat: null };
  for (let seat = 0; seat < Number($("players").value); seat++) {
    const select = el("select", { name: `seat${seat}`, id: `seat-${seat}`, "data-seat": seat });
    for (const value of SEAT_CHOICES) select.append(el("option", { value, text: t(`lobby.seat.${value}`) }));
    select.value = kept[seat] || (seat === 0 ? "you" : "greedy");
    box.append(el("div", { class: "form-row seat-choice" },
      el("label", { for: `seat-${seat}` },
        el("span", { class: "seat-number", text: t("seat.number", { number: seat + 1 }) }), " ", seatChip(ctx, seat)),
      select));
  }
}

export function drawLobby() {
  drawSeats();
  drawSwitches();
  drawLevelHelp();
}

function showError(box, text) {
  box.textContent = text;
  box.hidden = !text;
}

async function createGame() {
  showError($("lobby-error"), "");
  const form = new FormData($("new-game"));
  const level = form.get("level");
  const rules = { format: 1, level };
  for (const [name, needs] of SWITCHES) {
    if (LEVELS.indexOf(level) < LEVELS.indexOf(needs)) continue;
    let value = form.get(name);
    if (value === "true" || value === "false") value = value === "true";
    else if (name === "lightnings") value = Number(value);
    rules[name] = value;
  }
  const players = Number(form.get("players"));
  const choices = [];
  for (let seat = 0; seat < players; seat++) choices.push(form.get(`seat${seat}`));
  const bots = choices.map((c) => (c === "you" || c === "person" ? null : c));
  const request = { players, rules, bots };
  const seed = String(form.get("seed") || "").trim();
  if (seed !== "") request.seed = Number(seed);
  $("create").disabled = true;
  try {
    let data;
    try {
      data = await engine.createGame(request);
    } catch (error) {
      if (error.kind === "network") throw error;
      showError($("lobby-error"), t("lobby.refused", { status: error.status }));
      return;
    }
    const mine = data.seats.filter((s, i) => choices[i] === "you");
    const shared = data.seats.filter((s, i) => choices[i] === "person");
    if (shared.length && mine.length && !form.get("private")) {
      // listed in the lobby: anyone may take a seat left for a person, one click each
      try {
        await engine.listGame(data.game, mine[0].token, shared.map((s) => s.token));
      } catch (error) {
        // not listed: the links below still work
      }
    }
    if (mine.length === 1 && shared.length === 0) {
      location.assign(mine[0].url);
      return;
    }
    showLinks(data, choices);
  } finally {
    $("create").disabled = false;
  }
}

function showLinks(data, choices) {
  const list = $("link-list");
  list.replaceChildren();
  const ctx = { seat: null };
  for (const seat of data.seats) {
    if (seat.url === null) {
      list.append(el("li", {}, tn("lobby.link.bot", { seat: seatChip(ctx, seat.seat), bot: t(`bot.${seat.bot}`) })));
      continue;
    }
    const url = new URL(seat.url, location.href).href;
    const who = t(choices[seat.seat] === "you" ? "lobby.link.you" : "lobby.link.person");
    list.append(el("li", {}, tn("lobby.link.seat", { seat: seatChip(ctx, seat.seat), who }), " ",
      copyButton(url, t("lobby.copy_seat", { number: seat.seat + 1 })), " ",
      el("a", { href: url, class: "seat-link", "data-seat": seat.seat, text: url })));
  }
  const watch = new URL(data.spectator.url, location.href).href;
  list.append(el("li", {}, t("lobby.link.spectators"), " ", copyButton(watch, t("lobby.copy_spectators")), " ",
    el("a", { href: watch, class: "spectator-link", text: watch })));
  $("links").hidden = false;
  // the links in sight, the focus on the first one to copy
  $("links").scrollIntoView({ block: "start", behavior: "smooth" });
  const first = list.querySelector("button[data-url]");
  if (first) first.focus({ preventScroll: true });
  drawOpenGames();
}

// A button that copies ``url``, and says so.
function copyButton(url, label) {
  const button = el("button", { type: "button", class: "copy", "data-url": url, "aria-label": label, text: t("lobby.copy") });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      button.textContent = t("lobby.copied");
    } catch (error) {
      button.textContent = t("lobby.copy_failed");
    }
  });
  return button;
}

// The open games: listed by their creators, each with a button that takes a free seat.
async function drawOpenGames() {
  let games = [];
  try {
    games = (await engine.openGames()).games;
  } catch (error) {
    games = [];
  }
  const list = $("open-list");
  list.replaceChildren(...games.map((game) => {
    const bots = game.bots.filter(Boolean).length;
    const words = t("lobby.open_game", { level: t(`level.${game.level}`), players: game.players, count: game.free, bots });
    const button = el("button", { type: "button", class: "primary join", "data-game": game.game, text: t("lobby.join") });
    button.addEventListener("click", () => joinGame(game.game, button));
    return el("li", {}, el("span", { text: words }), " ", button);
  }));
  $("open-none").hidden = games.length > 0;
}

async function joinGame(game, button) {
  button.disabled = true;
  try {
    const seat = await engine.joinGame(game);
    location.assign(seat.url);
  } catch (error) {
    showError($("lobby-error"), t("lobby.join_full"));
    drawOpenGames();
  }
}

// A record file: posted to the server, which replays it, then watched on the replay page.
// Its text goes as it is: parsed here, its 63-bit seed would lose digits (a JavaScript number
// holds 53 bits) and the replay would deal another game.
async function openRecord(file) {
  const box = $("record-error");
  showError(box, "");
  const text = await file.text();
  try {
    JSON.parse(text); // only to say so here when the file is no JSON
  } catch (error) {
    showError(box, t("lobby.record_not_json"));
    return;
  }
  let answer;
  try {
    answer = await engine.openRecord(text);
  } catch (error) {
    showError(box, t("lobby.record_refused"));
    box.append(" ", el("span", { class: "engine-words", lang: "en", text: error.error ? error.error.message : "" }));
    return;
  }
  location.assign(replayRecordUrl(answer.replay));
}

export function showLobby() {
  $("lobby").hidden = false;
  $("players").addEventListener("change", drawSeats);
  $("level").addEventListener("change", () => {
    drawSwitches();
    drawLevelHelp();
  });
  drawLobby();
  drawOpenGames();
  const look = setInterval(() => {
    if ($("lobby").hidden) clearInterval(look);
    else if (!document.hidden) drawOpenGames();
  }, 5000);
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    createGame().catch(() => showError($("lobby-error"), t("lobby.network")));
  });
  $("record-file").addEventListener("change", (event) => {
    const file = event.target.files[0];
    if (file) openRecord(file);
  });
  const zone = $("drop-zone");
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer.files[0];
    if (file) openRecord(file);
  });
  document.body.dataset.state = "lobby";
}
