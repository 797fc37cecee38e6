// The page of a gaia-rules server: the lobby at "/", one seat's table at "/play/GAME#TOKEN".
//
// Everything shown comes from the server's state messages, which are cut for this seat: its
// view, its events (with their text), its legal actions when it is to move, and the faces of
// the cards the message names. The page never computes a rule: it offers the legal actions
// the server sent, as clicks (a card, then a highlighted square), and sends back the one
// chosen, unchanged. The token stays in the address's fragment, which is never sent to the
// server in a request line or a Referer; it goes in the Authorization header.
"use strict";

const COLOURS = ["blue", "yellow", "green", "red", "white"];
const LEVELS = ["basic", "advanced", "powers", "disasters"];
const KINDS = ["nature", "life", "power"];
const SWITCH_LEVEL = {
  feeding: "basic", objectives: "basic", star_animals_on_sea: "basic", edition: "basic",
  four_need_drop: "advanced", lightnings: "disasters", eruption_on_city: "disasters",
};
const SEAT_CHOICES = [
  ["you", "you, in this browser"],
  ["person", "a person (send them their link)"],
  ["random", "random bot"],
  ["greedy", "greedy bot"],
  ["search", "search bot (slow, strong)"],
];

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function seatName(seat) {
  return `seat ${seat} (${COLOURS[seat] || "?"})`;
}

// -- the lobby ----------------------------------------------------------------------------

function showLobby() {
  $("lobby").hidden = false;
  const players = $("players");
  const drawSeats = () => {
    const box = $("seats");
    const kept = [...box.querySelectorAll("select")].map((s) => s.value);
    box.replaceChildren(el("legend", { text: "Seats" }));
    for (let seat = 0; seat < Number(players.value); seat++) {
      const select = el("select", { name: `seat${seat}`, "data-seat": seat });
      for (const [value, label] of SEAT_CHOICES) select.append(el("option", { value, text: label }));
      select.value = kept[seat] || (seat === 0 ? "you" : "greedy");
      box.append(el("label", { class: `seat-choice seat-${seat}` },
        el("span", { class: `dot seat-${seat}` }), `${seatName(seat)} `, select));
    }
  };
  players.addEventListener("change", drawSeats);
  drawSeats();
  $("new-game").addEventListener("submit", (event) => {
    event.preventDefault();
    createGame().catch((error) => showLobbyError(String(error)));
  });
}

function showLobbyError(text) {
  const box = $("lobby-error");
  box.textContent = text;
  box.hidden = !text;
}

async function createGame() {
  showLobbyError("");
  const form = new FormData($("new-game"));
  const level = form.get("level");
  const rules = { format: 1, level };
  for (const [name, needs] of Object.entries(SWITCH_LEVEL)) {
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
  $("create").disabled = true;
  try {
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ players, rules, bots }),
    });
    const data = await response.json();
    if (!response.ok) {
      showLobbyError(data.error ? data.error.message : `refused (${response.status})`);
      return;
    }
    const mine = data.seats.filter((s, i) => choices[i] === "you");
    const shared = data.seats.filter((s, i) => choices[i] === "person");
    if (mine.length === 1 && shared.length === 0) {
      location.assign(mine[0].url);
      return;
    }
    const list = $("link-list");
    list.replaceChildren();
    for (const seat of data.seats) {
      if (seat.url === null) {
        list.append(el("li", {}, el("span", { class: `dot seat-${seat.seat}` }),
          `${seatName(seat.seat)}: ${seat.bot} bot`));
        continue;
      }
      const url = new URL(seat.url, location.href).href;
      const who = choices[seat.seat] === "you" ? "you" : "a person";
      list.append(el("li", {}, el("span", { class: `dot seat-${seat.seat}` }),
        `${seatName(seat.seat)}, ${who}: `,
        el("a", { href: url, class: "seat-link", "data-seat": seat.seat, text: url })));
    }
    const watch = new URL(data.spectator.url, location.href).href;
    list.append(el("li", {}, "spectators: ",
      el("a", { href: watch, class: "spectator-link", text: watch })));
    $("links").hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

// -- the table: state ---------------------------------------------------------------------

const table = {
  game: null,
  token: null,
  state: null, // the last state message
  faces: {}, // card id -> face, as the server named them
  log: [], // the seat's log: each event's type and its text
  picked: [], // the picks made towards an action
  busy: false, // an action is on its way
  socket: null,
  retry: 500,
  world: null, // the SVG drawn last
};

function cardFace(id) {
  return table.faces[id] || null;
}

function faceText(id) {
  const face = cardFace(id);
  if (!face) return id;
  if (face.nature) return `${face.nature}`;
  if (face.city) return `${face.city}, on ${face.site}, needs ${face.needs.join(", ")}`;
  if (face.animals) return `animals, on ${face.animals}`;
  if (face.power) return `${face.power}`;
  if (face.objective !== undefined) {
    return Array.isArray(face.objective)
      ? `objective: ${face.objective.join(", ")}`
      : `objective: ${face.objective} Power cards`;
  }
  return id;
}

function cardKind(id) {
  const face = cardFace(id);
  if (!face) return "unknown";
  if (face.nature) return "nature";
  if (face.city || face.animals) return "life";
  if (face.power) return "power";
  return "objective";
}

// -- actions as clicks --------------------------------------------------------------------

// The picks that choose an action: its card, then its squares, or a button of its own.
function picksOf(action) {
  switch (action.type) {
    case "DrawDisplay": return [`card:${action.card}`];
    case "DrawDeck": return [`deck:${action.kind}`];
    case "PlayNature": case "PlayAnimals": case "PlayCity": case "PlaySun": case "PlayRain":
    case "PlayLightning": case "PlayEruption":
      return [`card:${action.card}`, `sq:${action.pos}`];
    case "PlayEarthquake": return [`card:${action.card}`, `sq:${action.first}`, `sq:${action.second}`];
    case "PlayTornado": case "Discard": case "Protect": case "KeepCard":
      return [`card:${action.card}`];
    case "Feed": return [`sq:${action.city}`, `sq:${action.source}`];
    case "FulfillObjective": return [`card:${action.objective}`];
    case "PlaceCityPawn": return [`sq:${action.city}`];
    case "DeclineObjectives": return ["btn:decline"];
    case "PassProtection": return ["btn:pass"];
    case "NameBack": return [`btn:back:${action.kind}`];
    default: return [`btn:${JSON.stringify(action)}`];
  }
}

function buttonLabel(pick, action) {
  if (pick === "btn:decline") return "Fulfil no Objective now";
  if (pick === "btn:pass") return "Pass: let it take effect";
  if (pick.startsWith("btn:back:")) return `Take a ${action.kind} card from ${seatName(action.victim)}`;
  return pick.slice(4);
}

function candidates() {
  const legal = (table.state && table.state.legal) || [];
  return legal.filter((action) => {
    const picks = picksOf(action);
    return table.picked.every((pick, i) => picks[i] === pick);
  });
}

function nextPicks() {
  const depth = table.picked.length;
  const next = new Map();
  for (const action of candidates()) {
    const picks = picksOf(action);
    if (picks.length > depth && !next.has(picks[depth])) next.set(picks[depth], action);
  }
  return next;
}

function choose(pick) {
  if (table.busy) return;
  table.picked.push(pick);
  const done = candidates().filter((a) => picksOf(a).length === table.picked.length);
  if (done.length === 1) {
    submit(done[0]);
    return;
  }
  render();
}

function cancelPicks() {
  table.picked = [];
  render();
}

async function submit(action) {
  table.busy = true;
  showRefusal(null);
  render();
  try {
    // the move number this action answers, and a fresh key per click: a retry, or a second
    // click on a state the game has left, is taken once (409 "stale" brings the state now)
    const response = await fetch(`/api/games/${table.game}/actions`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${table.token}`,
        "Idempotency-Key": newKey(),
      },
      body: JSON.stringify({ move: table.state.moves, action }),
    });
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (data && data.state) applyState(data.state); // stale: the game moved on meanwhile
    if (!response.ok) {
      showRefusal(data && data.error ? data.error : { message: `refused (${response.status})` });
    } else if (!table.socket || table.socket.readyState !== WebSocket.OPEN) {
      await refresh();
    }
  } catch (error) {
    showRefusal({ message: `not sent: ${error}` });
  } finally {
    table.busy = false;
    table.picked = [];
    render();
  }
}

function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function showRefusal(error) {
  const box = $("refusal");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.replaceChildren(el("strong", { text: "Refused: " }), error.message,
    error.clause ? el("span", { class: "clause", text: ` (clause ${error.clause})` }) : null);
  box.hidden = false;
}

// -- the live connection -----------------------------------------------------------------

function applyState(message) {
  if (message.type !== "state") return;
  if (table.state && message.moves < table.state.moves) return; // an older state, late
  if (message.since > table.log.length) { refresh(); return; } // events missed: ask again
  if (message.world === undefined && table.state) message.world = table.state.world; // unchanged
  Object.assign(table.faces, message.faces || {});
  const fresh = message.log.map((text, i) => ({ text, type: message.events[i].type }));
  table.log = table.log.slice(0, message.since).concat(fresh);
  const moved = !table.state || table.state.moves !== message.moves
    || JSON.stringify(table.state.legal) !== JSON.stringify(message.legal);
  table.state = message;
  if (moved) table.picked = [];
  render();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/api/games/${table.game}/live`);
  table.socket = socket;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ token: table.token, since: table.log.length }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.error) {
      showConnection(message.error.message, true);
      table.socket = null;
      return;
    }
    table.retry = 500;
    showConnection("live", false);
    applyState(message);
  });
  socket.addEventListener("close", (event) => {
    if (table.socket !== socket) return;
    if (event.code >= 4400 && event.code < 4500) {
      showConnection("this link opens no seat of this game", true);
      return;
    }
    showConnection("reconnecting…", true);
    setTimeout(connect, table.retry);
    table.retry = Math.min(table.retry * 2, 8000);
  });
}

async function refresh() {
  const response = await fetch(
    `/api/games/${table.game}?since=${table.log.length}&world=1`,
    { headers: { Authorization: `Bearer ${table.token}` } },
  );
  if (response.ok) applyState(await response.json());
}

function showConnection(text, bad) {
  const box = $("connection");
  box.textContent = text;
  box.classList.toggle("bad", bad);
}

// -- the table: drawing ------------------------------------------------------------------

function isMe(seat) {
  return table.state && table.state.seat === seat;
}

function whoIs(seat) {
  const bot = table.state.bots[seat];
  if (isMe(seat)) return "you";
  return bot ? `${bot} bot` : "a person";
}

function decisionText(decision) {
  switch (decision.type) {
    case "ChooseAction": return `action ${decision.number} of 2: take a card, or play one`;
    case "ChooseFeeding": return "feed the cities: choose a city, then the square that feeds it";
    case "ChooseLimitDiscard": return "over the limit: choose a card to discard";
    case "ChooseObjective": return "choose an Objective to fulfil";
    case "ChoosePawnCities": return "the last pawns: choose the city each goes on";
    case "ChooseProtection":
      return `${seatName(decision.power_player)} plays ${decision.against} `
        + `(${faceText(decision.against)}): play a Protection to cancel it, or pass`;
    case "ChooseBack": return `Tornado: choose the back of the card taken from ${seatName(decision.victim)}`;
    case "ChooseKeptCard": return "Tornado: choose the stolen card to keep";
    default: return decision.type;
  }
}

function resultText(result) {
  const reasons = { all_pawns_placed: "all pawns placed", exhaustion: "a deck ran out" };
  const winner = isMe(result.winner) ? "you win" : `${seatName(result.winner)} wins`;
  const placed = result.pawns_placed.map((n, seat) => `${COLOURS[seat]} ${n}`).join(", ");
  return `Game over: ${winner} (${reasons[result.reason] || result.reason}). Pawns placed: ${placed}.`;
}

function hintText(next) {
  if (table.picked.length === 0) return "";
  const first = table.picked[0];
  const kinds = [...next.keys()].map((p) => p.split(":")[0]);
  const what = first.startsWith("card:") ? `${first.slice(5)} (${faceText(first.slice(5))})` : first.slice(3);
  if (kinds.every((k) => k === "sq")) {
    if (table.picked.length === 2 && first.startsWith("card:")) return `${what}: now the tile to swap it with`;
    if (first.startsWith("sq:")) return `the city on ${what}: now the square that feeds it`;
    return `${what}: now a highlighted square`;
  }
  return `${what}: now choose`;
}

function pickAttrs(pick, next) {
  const chosen = table.picked.includes(pick);
  return {
    "data-pick": pick,
    class: next.has(pick) ? "choosable" : chosen ? "picked" : null,
  };
}

function cardButton(id, pick, next, extra) {
  const attrs = pickAttrs(pick, next);
  const kind = cardKind(id);
  const face = cardFace(id);
  const classes = ["card", `kind-${kind}`];
  if (face && face.nature) classes.push(`land-${face.nature}`);
  if (attrs.class) classes.push(attrs.class);
  const node = el(next.has(pick) ? "button" : "div",
    { class: classes.join(" "), "data-card": id, "data-pick": pick, type: next.has(pick) ? "button" : null },
    el("span", { class: "card-id", text: id }),
    el("span", { class: "card-face", text: faceText(id) }),
    extra || null);
  return node;
}

function backCard(kind) {
  return el("div", { class: `card back kind-${kind}` }, el("span", { class: "card-face", text: `${kind} card` }));
}

function render() {
  const message = table.state;
  if (!message) return;
  const view = message.view;
  const next = table.busy ? new Map() : nextPicks();
  document.body.dataset.state = message.over ? "over"
    : message.legal && !table.busy ? "choose" : "wait";
  document.body.dataset.moves = message.moves;

  // the prompt: whose turn, what is decided, what to click
  let status;
  if (message.over) status = resultText(view.result);
  else if (message.seat === null) {
    status = `Watching: ${seatName(view.to_move)} decides — ${decisionText(view.decision)}`;
  } else if (message.legal) status = `Your move, ${seatName(message.seat)}: ${decisionText(view.decision)}`;
  else {
    status = `${seatName(view.to_move)} (${whoIs(view.to_move)}) decides: ${decisionText(view.decision)}`;
  }
  $("status").textContent = status;
  $("status").className = `status${message.legal ? " your-move" : ""}`;
  $("hint").textContent = table.busy ? "sending…" : hintText(next);
  const buttons = $("buttons");
  buttons.replaceChildren();
  for (const [pick, action] of next) {
    if (pick.startsWith("btn:")) {
      buttons.append(el("button", { type: "button", class: "choosable", "data-pick": pick, text: buttonLabel(pick, action) }));
    }
  }
  if (table.picked.length) buttons.append(el("button", { type: "button", class: "cancel", id: "cancel", text: "Cancel" }));

  // the world, drawn by the library; the legal squares are outlined
  const world = $("world");
  if (table.world !== message.world) {
    world.innerHTML = message.world || ""; // the library's SVG: every text in it is escaped
    table.world = message.world;
  }
  for (const square of world.querySelectorAll("[data-pos]")) {
    if (square.classList.contains("highlight")) continue;
    const pick = `sq:${square.getAttribute("data-pos")}`;
    square.setAttribute("data-pick", pick);
    square.classList.toggle("choosable", next.has(pick));
    square.classList.toggle("picked", table.picked.includes(pick));
  }

  // the hand, and the stolen cards this seat may look at
  const hand = $("hand");
  hand.replaceChildren();
  const held = view.hand || []; // a spectator's view has no hand
  for (const id of held) hand.append(cardButton(id, `card:${id}`, next));
  if (!held.length) hand.append(el("p", { class: "small", text: message.seat === null ? "(spectators see no hand)" : "(no cards)" }));
  const stolen = view.stolen.filter((entry) => entry[2] !== null);
  $("stolen-box").hidden = stolen.length === 0;
  $("stolen").replaceChildren(...stolen.map((entry) => cardButton(entry[2], `card:${entry[2]}`, next,
    el("span", { class: "small", text: ` from ${seatName(entry[1])}` }))));

  // the displays and the decks
  const displays = $("displays");
  displays.replaceChildren();
  for (const kind of KINDS) {
    if (!(kind in view.displays)) continue;
    if (kind === "power" && LEVELS.indexOf(view.rules.level) < 2) continue;
    const row = el("div", { class: "display-row" }, el("h3", { text: kind }));
    const pick = `deck:${kind}`;
    const deck = el(next.has(pick) ? "button" : "div", {
      type: next.has(pick) ? "button" : null,
      class: `card deck kind-${kind} ${pickAttrs(pick, next).class || ""}`,
      "data-pick": pick,
    }, el("span", { class: "card-id", text: "deck" }),
    el("span", { class: "card-face", text: `${view.deck_sizes[kind]} cards` }));
    const cards = el("div", { class: "cards" }, deck);
    for (const id of view.displays[kind]) cards.append(cardButton(id, `card:${id}`, next));
    row.append(cards);
    const discarded = view.discards[kind] || [];
    if (discarded.length) {
      row.append(el("p", { class: "small", text: `discarded: ${discarded.map((c) => `${c} ${faceText(c)}`).join("; ")}` }));
    }
    displays.append(row);
  }

  // the Objectives
  const objectives = $("objectives");
  objectives.replaceChildren();
  for (const id of view.objectives) {
    const holder = view.objective_pawns[id];
    objectives.append(cardButton(id, `card:${id}`, next, holder === undefined ? null
      : el("span", { class: "holder" }, el("span", { class: `dot seat-${holder}` }), ` ${COLOURS[holder]}`)));
  }

  // the players: pawns, hands by back, cards in front
  const players = $("players-list");
  players.replaceChildren();
  for (let seat = 0; seat < view.players; seat++) {
    const backs = view.hand_backs[seat];
    const counts = KINDS.map((k) => [k, backs.filter((b) => b === k).length]).filter(([, n]) => n);
    const placed = view.total_pawns - view.supply[seat];
    const box = el("div", { class: `player seat-${seat}${view.to_move === seat ? " to-move" : ""}`, "data-seat": seat },
      el("h3", {}, el("span", { class: `dot seat-${seat}` }), ` ${seatName(seat)}: ${whoIs(seat)}`,
        view.active === seat ? el("span", { class: "turn", text: " · this turn" }) : null),
      el("p", { class: "small", text: `pawns: ${placed} placed, ${view.supply[seat]} left; `
        + `hand: ${backs.length} card${backs.length === 1 ? "" : "s"}`
        + `${counts.length ? ` (${counts.map(([k, n]) => `${n} ${k}`).join(", ")})` : ""}` }));
    const front = el("div", { class: "cards small-cards" });
    for (const id of view.tableaux[seat]) front.append(cardButton(id, `front:${id}`, next));
    if (view.tableaux[seat].length) box.append(front);
    players.append(box);
  }
  const tiles = Object.entries(view.tile_supply).map(([land, n]) => `${land} ${n}`).join(", ");
  $("supplies").textContent = `bank: ${view.bank} animal tokens; tiles left: ${tiles}`;

  // the log, newest last
  const log = $("log");
  if (log.childElementCount !== table.log.length) {
    const classes = { TurnBegan: "turn-line", GameEnded: "end-line", ActionTaken: "action-line" };
    log.replaceChildren(...table.log.map((entry) => el("li", {
      class: classes[entry.type] || null,
      text: entry.text.replace(/^[-=]+ /, "").trim(),
    })));
    log.scrollTop = log.scrollHeight;
  }
}

function onClick(event) {
  const target = event.target.closest("[data-pick], #cancel");
  if (!target) return;
  if (target.id === "cancel") {
    cancelPicks();
    return;
  }
  if (!target.classList.contains("choosable")) return;
  event.preventDefault();
  choose(target.getAttribute("data-pick"));
}

function showTable(game, token) {
  table.game = game;
  table.token = token;
  $("table").hidden = false;
  document.addEventListener("click", onClick);
  connect();
}

// for tests and the curious: the page's state, and its own way of sending an action
window.gaia = { table, submit, refresh };

function start() {
  const match = location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)$/);
  const token = location.hash.slice(1);
  if (match && token) showTable(match[1], token);
  else showLobby();
}

start();
