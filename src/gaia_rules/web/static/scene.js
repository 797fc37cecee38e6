// Drawing a table from what a seat may see: the world, the hand, the displays and decks, the
// Objectives, the players (with each one's last turn), the log in words and the result table.
// The live table (table.js) and the replay (replay.js) both draw with it; neither shows a
// card the seat may not see, since nothing here is given one.
"use strict";

import { Board, changedSquares } from "./board.js";
import { cardImage, faceKey, fitFaces } from "./faces.js";
import { t, tn } from "./i18n.js";
import { attachTip, backTip, faceTip, hideIfGone } from "./tips.js";
import {
  COLOURS, Cities, KINDS, actionSummary, backsCount, eventLine, faceName, faceOf, faceWords, kindWord,
  landWord, seatChip, seatWord,
} from "./words.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["basic", "advanced", "powers", "disasters"];

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// -- one card -------------------------------------------------------------------------------

// A card as a list item: a button when it can be chosen now, else a focusable picture with
// its tip. ``place`` words where it is (for the accessible name).
export function cardItem(scene, face, { pick = null, place = "", extra = null, caption = null, small = false, count = null, named = false } = {}) {
  const choosable = pick !== null && scene.picks.choosable.has(pick);
  const picked = pick !== null && scene.picks.picked.includes(pick);
  const words = faceWords(face);
  const label = place ? t("card.in_place", { card: words, place }) : words;
  const img = cardImage(face, { alt: "" });
  const holder = choosable
    ? el("button", { type: "button", class: "card choosable", "data-pick": pick, "aria-label": `${label}. ${t("card.choose")}` })
    : el("div", { class: `card${picked ? " picked" : ""}`, tabindex: small && !named ? null : "0", role: "img", "aria-label": label });
  if (picked) holder.classList.add("picked");
  if (pick) holder.dataset.pick = pick;
  holder.dataset.face = faceKey(face);
  holder.classList.add(`kind-${kindOf(face)}`);
  if (small) holder.classList.add("small");
  holder.append(img);
  if (extra) holder.append(extra);
  if (count !== null) holder.dataset.count = String(count);
  if (named) {
    // its name under it, and the number of its copies beside the name: nothing on the picture
    caption = el("span", { class: "caption name-caption", "aria-hidden": "true" },
      el("span", { class: "name", text: faceName(face) }),
      count !== null && count > 1 ? el("span", { class: "count", text: `×${count}` }) : null);
  } else if (count !== null && count > 1) {
    holder.append(el("span", { class: "count", "aria-hidden": "true", text: `×${count}` }));
  }
  attachTip(holder, () => faceTip(face), face);
  return el("li", { class: caption ? "with-caption" : null }, holder, caption);
}

function kindOf(face) {
  if (face.nature) return "nature";
  if (face.city || face.animals) return "life";
  if (face.power) return "power";
  return "objective";
}

export function backItem(kind, { label, pick = null, scene = null, count = null, small = false } = {}) {
  const choosable = pick !== null && scene && scene.picks.choosable.has(pick);
  const img = cardImage(null, { kind, alt: "" });
  const holder = choosable
    ? el("button", { type: "button", class: `card back kind-${kind} choosable`, "data-pick": pick, "aria-label": `${label}. ${t("card.choose")}` })
    : el("div", { class: `card back kind-${kind}`, tabindex: small ? null : "0", role: "img", "aria-label": label });
  if (small) holder.classList.add("small");
  holder.append(img);
  if (count !== null) holder.append(el("span", { class: "count", "aria-hidden": "true", text: String(count) }));
  attachTip(holder, () => backTip(kind));
  return el("li", {}, holder);
}

// -- the scene --------------------------------------------------------------------------------

export class Scene {
  constructor() {
    this.board = new Board($("world"));
    this.logCount = 0; // events already written in the log
    this.logCities = null;
    this.logLang = null;
    // the arrow keys go from line to line of the log (each line named by its words)
    $("log").addEventListener("keydown", (event) => {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      const lines = [...$("log").querySelectorAll("#log li.linked")];
      if (!lines.length) return;
      const at = lines.indexOf(document.activeElement);
      const next = at < 0 ? (event.key === "ArrowUp" ? lines.length - 1 : 0)
        : Math.max(0, Math.min(lines.length - 1, at + (event.key === "ArrowDown" ? 1 : -1)));
      lines[next].focus();
      lines[next].scrollIntoView({ block: "nearest" });
      event.preventDefault();
    });
  }

  reset() {
    this.logCount = 0;
    this.board.svg = null;
  }

  // Draw ``scene``: { ctx, view, events, world, bots, hands, picks, marksFrom, standings }.
  draw(scene) {
    this.drawWorld(scene);
    this.drawHand(scene);
    this.drawDisplays(scene);
    this.drawObjectives(scene);
    this.drawPlayers(scene);
    this.drawLog(scene);
    fitFaces($("table"));
    hideIfGone();
  }

  drawWorld(scene) {
    this.board.draw(scene.world);
    const cities = new Cities(null);
    const before = scene.events.slice(0, scene.marksFrom);
    for (const event of before) {
      cities.follow(event);
      cities.forget(event);
    }
    const lineOf = (event) => {
      const line = eventLine(scene.ctx, event, cities);
      return line ? line.node.textContent : null;
    };
    const changes = changedSquares(scene.ctx, scene.events.slice(scene.marksFrom), cities, lineOf);
    this.board.mark(changes);
    this.board.label(scene.ctx, scene.view, scene.picks);
    this.board.outline(scene.outline || []);
  }

  drawHand(scene) {
    const hand = $("hand");
    hand.replaceChildren();
    const view = scene.view;
    const held = view.hand;
    // a spectator holds no hand: the panel shows only the hands a replay opens to everyone
    $("hand-panel").hidden = held === undefined && !scene.hands;
    $("hand-title").textContent = held === undefined ? t("hand.all") : t("hand.title");
    if (held !== undefined && !held.length) {
      hand.append(el("li", { class: "small", text: t("hand.empty") }));
    }
    for (const id of held || []) {
      const face = faceOf(scene.ctx, id);
      if (face) hand.append(cardItem(scene, face, { pick: `hand:${faceKey(face)}`, place: t("place.hand") }));
    }
    const stolen = (view.stolen || []).filter((entry) => entry[2] !== null);
    $("stolen-box").hidden = stolen.length === 0;
    $("stolen").replaceChildren(...stolen.map(([, victim, id]) => {
      const face = faceOf(scene.ctx, id);
      const from = el("span", { class: "from" }, tn("hand.from", { seat: seatChip(scene.ctx, victim) }));
      return cardItem(scene, face, { pick: `stolen:${faceKey(face)}`, place: t("place.stolen"), extra: from });
    }));
    const all = $("all-hands");
    all.hidden = !scene.hands;
    all.replaceChildren();
    if (scene.hands) {
      scene.hands.forEach((cards, seat) => {
        const list = el("ul", { class: "cards" });
        for (const id of cards) list.append(cardItem(scene, faceOf(scene.ctx, id), { place: t("place.hand_of", { seat: seatWord(scene.ctx, seat) }) }));
        if (!cards.length) list.append(el("li", { class: "small", text: t("hand.empty") }));
        all.append(el("h3", {}, tn("hand.of", { seat: seatChip(scene.ctx, seat) })), list);
      });
    }
  }

  drawDisplays(scene) {
    const view = scene.view;
    const box = $("displays");
    box.replaceChildren();
    for (const kind of KINDS) {
      if (!(kind in view.displays)) continue;
      if (kind === "power" && LEVELS.indexOf(view.rules.level) < 2) continue;
      const size = view.deck_sizes[kind];
      const row = el("ul", { class: "cards display-row" });
      const deckLabel = t("displays.deck", { kind: kindWord(kind), count: size });
      if (size > 0) {
        row.append(backItem(kind, { label: deckLabel, pick: `deck:${kind}`, scene, count: size }));
      } else {
        const pick = `deck:${kind}`;
        const choosable = scene.picks.choosable.has(pick);
        const empty = choosable
          ? el("button", { type: "button", class: "card empty-deck choosable", "data-pick": pick, "aria-label": `${deckLabel}. ${t("displays.exhausted_choose")}` }, t("displays.empty"))
          : el("div", { class: "card empty-deck", role: "img", "aria-label": deckLabel }, t("displays.empty"));
        row.append(el("li", {}, empty));
      }
      for (const id of view.displays[kind]) {
        const face = faceOf(scene.ctx, id);
        if (face) row.append(cardItem(scene, face, { pick: `display:${faceKey(face)}`, place: t("place.display", { kind: kindWord(kind) }) }));
      }
      const pile = view.discards[kind] || [];
      const section = el("div", { class: "display" },
        el("h3", { text: t(`displays.${kind}`) }), row);
      if (pile.length) {
        const list = el("ul", { class: "cards discards" });
        for (const id of pile.slice().reverse()) list.append(cardItem(scene, faceOf(scene.ctx, id), { place: t("place.discards"), small: true }));
        section.append(el("details", { class: "discard-pile" },
          el("summary", { text: t("displays.discards", { count: pile.length }) }), list));
      }
      box.append(section);
    }
  }

  drawObjectives(scene) {
    const view = scene.view;
    const box = $("objectives");
    box.replaceChildren();
    for (const id of view.objectives) {
      const face = faceOf(scene.ctx, id);
      const holder = view.objective_pawns[id];
      const caption = holder === undefined ? null
        : el("span", { class: "caption", "aria-hidden": "true" }, tn("objectives.held", { seat: seatChip(scene.ctx, holder) }));
      const place = holder === undefined ? t("place.objective") : t("place.objective_held", { seat: seatWord(scene.ctx, holder) });
      const item = cardItem(scene, face, { pick: `objective:${faceKey(face)}`, place, caption });
      if (holder !== undefined) item.querySelector(".card").classList.add("fulfilled");
      item.classList.add("objective");
      if (holder === undefined && face) item.append(progressList(scene, face));
      box.append(item);
    }
  }

  drawPlayers(scene) {
    const view = scene.view;
    const box = $("players-list");
    box.replaceChildren();
    const turns = lastTurns(scene.events);
    const cities = new Cities(view);
    for (let seat = 0; seat < view.players; seat++) {
      const placed = view.total_pawns - view.supply[seat];
      const who = whoWords(scene, seat);
      const flags = [];
      if (view.to_move === seat && !view.result) flags.push(el("span", { class: "badge to-move", text: t("players.to_move") }));
      else if (view.active === seat && !view.result) flags.push(el("span", { class: "badge", text: t("players.this_turn") }));
      const head = el("h3", { class: "player-name" },
        el("span", { class: `dot seat-${seat}`, "aria-hidden": "true" }),
        el("span", { class: "seat-number", text: t("seat.number", { number: seat + 1 }) }),
        " ", el("span", { class: "colour-name", text: t(`colour.${COLOURS[seat]}`) }),
        el("span", { class: "who", text: who }), ...flags);
      const pawns = el("div", { class: "pawns", role: "img", "aria-label": t("players.pawns", { placed, total: view.total_pawns }) });
      for (let i = 0; i < view.total_pawns; i++) {
        pawns.append(el("span", { class: `pawn seat-${seat}${i < placed ? " placed" : ""}`, "aria-hidden": "true" }));
      }
      pawns.append(el("span", { class: "pawn-count", "aria-hidden": "true", text: t("players.pawns_short", { placed, total: view.total_pawns }) }));
      const counts = backsCount(view.hand_backs[seat]);
      const backs = el("ul", { class: "cards backs", "aria-label": t("players.hand", { count: view.hand_backs[seat].length }) });
      for (const kind of KINDS) {
        if (counts[kind]) {
          backs.append(backItem(kind, { label: t("players.backs", { count: counts[kind], kind: kindWord(kind) }), count: counts[kind], small: true }));
        }
      }
      const player = el("div", { class: `player seat-${seat}${view.to_move === seat ? " to-move" : ""}`, "data-seat": seat },
        head, pawns,
        el("div", { class: "player-row" }, el("span", { class: "small", text: t("players.hand", { count: view.hand_backs[seat].length }) }), backs));
      const front = view.tableaux[seat];
      if (front.length) {
        const list = el("ul", { class: "cards tableau", "aria-label": t("players.in_front") });
        const groups = new Map(); // copies of a face shown once, with their number
        for (const id of front) {
          const face = faceOf(scene.ctx, id);
          const key = faceKey(face);
          if (!groups.has(key)) groups.set(key, { face, count: 0 });
          groups.get(key).count += 1;
        }
        for (const { face, count } of groups.values()) {
          const place = t("place.in_front_count", { seat: seatWord(scene.ctx, seat), count });
          list.append(cardItem(scene, face, { place, small: true, count, named: true }));
        }
        player.append(el("div", { class: "player-row" }, el("span", { class: "small", text: t("players.in_front") }), list));
      }
      const last = turns.get(seat);
      if (last && seat !== scene.ctx.seat && last.length) {
        const words = last.map((action) => actionSummary(scene.ctx, action, cities)).join(t("list.semicolon"));
        player.append(el("p", { class: "last-turn" }, el("strong", { text: t("players.last_turn") }), " ", words));
      }
      box.append(player);
    }
    const tiles = Object.entries(view.tile_supply).map(([land, n]) => t("supplies.tile", { land: landWord(land), count: n }));
    $("supplies").textContent = t("supplies.line", { bank: view.bank, tiles: tiles.join(t("list.comma")) });
  }

  logItem(scene, event, index, line) {
    const item = el("li", { class: `line-${line.kind}`, "data-event": index }, line.node);
    const squares = eventSquares(event);
    const face = eventCard(scene.ctx, event);
    if (squares.length) item.dataset.squares = squares.join(" ");
    if (face) {
      item.dataset.names = faceKey(face);
      attachTip(item, () => faceTip(face), face);
    }
    if (squares.length || face || scene.ctx.replay) {
      item.tabIndex = -1; // reached with the arrow keys from the log
      item.classList.add("linked");
      linkLine(this.board, item);
    }
    return item;
  }

  drawLog(scene) {
    const log = $("log");
    const events = scene.events;
    const lang = document.documentElement.lang;
    if (events.length < this.logCount || this.logLang !== lang || !this.logCities) {
      log.replaceChildren();
      this.logCount = 0;
      this.logCities = new Cities(scene.startView || null);
      this.logLang = lang;
    }
    let offset = 0;
    for (const event of events.slice(this.logCount)) {
      const line = eventLine(scene.ctx, event, this.logCities);
      this.logCities.follow(event);
      this.logCities.forget(event);
      if (line) log.append(this.logItem(scene, event, this.logCount + offset, line));
      offset += 1;
    }
    this.logCount = events.length;
    log.scrollTop = log.scrollHeight; // the newest line in sight
  }
}

// -- how far each seat is from an Objective ------------------------------------------------------

// The words of a count of one land, by land (literal, so that the catalogues' tests find them).
const PROGRESS = {
  desert: "progress.desert", forest: "progress.forest", mountain: "progress.mountain",
  plain: "progress.plain", sea: "progress.sea", swamp: "progress.swamp",
};

// How far ``seat`` is from the Objective ``face``, counted in the cards in front of it as the
// Objective pictures them (spec 8.1): [{have, need, land}] (land null: Power cards).
export function progressOf(scene, face, seat) {
  const front = (scene.view.tableaux[seat] || []).map((id) => faceOf(scene.ctx, id)).filter(Boolean);
  if (face.objective_powers) {
    const have = front.filter((f) => f.power).length;
    return [{ land: null, need: face.objective_powers, have: Math.min(have, face.objective_powers) }];
  }
  const needs = new Map();
  for (const land of face.objective || []) needs.set(land, (needs.get(land) || 0) + 1);
  return [...needs].map(([land, need]) => {
    const have = front.filter((f) => f.nature === land).length;
    return { land, need, have: Math.min(have, need) };
  });
}

export function progressWords(parts) {
  if (parts.length > 4 && parts.every((part) => part.need === 1)) {
    // the six lands, one card each: a count, the lands still missing said in the face's tip
    const have = parts.filter((part) => part.have).length;
    return t("progress.lands", { have, count: parts.length });
  }
  return parts.map(({ land, need, have }) => t(land === null ? "progress.powers" : PROGRESS[land], { have, count: need }))
    .join(t("list.comma"));
}

function progressList(scene, face) {
  const list = el("ul", { class: "progress" });
  for (let seat = 0; seat < scene.view.players; seat++) {
    const parts = progressOf(scene, face, seat);
    const met = parts.every((part) => part.have >= part.need);
    const words = progressWords(parts);
    list.append(el("li", { class: `seat-${seat}${met ? " met" : ""}`, "data-seat": seat },
      seatChip(scene.ctx, seat), " ", el("span", { class: "progress-words", text: words })));
  }
  return list;
}

// -- the log linked to the board and the cards ----------------------------------------------------

// The squares an event names ("x,y"), and the card it names (its face), if any.
export function eventSquares(event) {
  const found = [];
  const add = (pos) => {
    if (typeof pos === "string" && !found.includes(pos)) found.push(pos);
  };
  for (const source of [event, event.action || {}]) {
    for (const key of ["pos", "first", "second", "city", "source"]) add(source[key]);
  }
  return found;
}

function eventCard(ctx, event) {
  const action = event.action || {};
  for (const card of [event.card, event.objective, event.cancelled, action.card, action.objective]) {
    const face = card ? faceOf(ctx, card) : null;
    if (face) return face;
  }
  return null;
}

// Hovering or focusing a line of the log marks on the board the squares it names, and on the
// table the cards of the face it names.
function linkLine(board, item) {
  const squares = (item.dataset.squares || "").split(" ").filter(Boolean);
  const face = item.dataset.names || "";
  const on = () => {
    board.named(squares);
    for (const card of document.querySelectorAll(".card[data-face]")) {
      card.classList.toggle("named", Boolean(face) && card.dataset.face === face && !item.contains(card));
    }
  };
  const off = () => {
    board.named([]);
    for (const card of document.querySelectorAll(".card.named")) card.classList.remove("named");
  };
  item.addEventListener("mouseenter", on);
  item.addEventListener("focus", on);
  item.addEventListener("mouseleave", off);
  item.addEventListener("blur", off);
}

// -- who plays each seat ------------------------------------------------------------------------

export function whoWords(scene, seat) {
  if (seat === scene.ctx.seat && !scene.ctx.replay) return t("who.you");
  const bot = (scene.bots || [])[seat];
  if (bot) return t("who.bot", { bot: t(`bot.${bot}`) });
  return t("who.person");
}

// The actions each seat took in its latest turn (its own, not the engine's).
export function lastTurns(events) {
  const turns = new Map();
  let current = null;
  for (const event of events) {
    if (event.type === "TurnBegan") {
      current = event.player;
      turns.set(current, []);
    } else if (event.type === "ActionTaken" && event.action && !event.by_engine && event.player === current) {
      turns.get(current).push(event.action);
    }
  }
  return turns;
}

// -- the end --------------------------------------------------------------------------------

export function drawResult(ctx, standings) {
  const box = $("result");
  box.hidden = !standings;
  if (!standings) return;
  const seat = (n) => seatChip(ctx, n);
  $("result-how").replaceChildren(tn(`result.how.${standings.reason}`, { seat: seat(standings.winner), ender: seat(standings.ended_by) }));
  $("result-caption").textContent = t("result.title");
  const body = $("result-table").querySelector("tbody");
  body.replaceChildren(...standings.rows.map((row) => el("tr", { class: row.winner ? "winner" : null },
    el("td", { text: String(row.place) }),
    el("th", { scope: "row" }, seat(row.seat), row.winner ? el("span", { class: "badge winner-badge", text: t("result.winner") }) : null),
    el("td", { text: String(row.pawns_placed) }))));
  const tie = $("result-tie");
  tie.hidden = !standings.tie_break;
  if (standings.tie_break) {
    tie.replaceChildren(tn("result.tie_break", {
      tied: standings.tied.map((n) => seatWord(ctx, n)).join(t("list.comma")),
      ender: seat(standings.ended_by),
      seat: seat(standings.winner),
    }));
  }
}
