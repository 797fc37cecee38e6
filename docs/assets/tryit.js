// "Try it" on the docs' pictures (a script of the docs site, beside its table/): each pictured situation with a position (``data-try``, put
// there by the site's build with the JSON of its start and of its refused moves) opens live in
// the page, on the engine running in the browser (inbrowser.js): the legal choices outlined
// (``data-pick`` as on the table, class "choosable"), a card then a square to play it (legal or
// not: the rules refuse an illegal move in their words, citing their clause), back to the start.
// Every seat is the reader's: the seat to move plays. One engine serves every picture of a page.
// A restriction no move can break (``kept`` in its JSON) opens where it is at stake: its move,
// or one of the reader's, applied, the page says the restriction held, citing its clause.
// Its own words speak the page's language (``<html lang>``: English, German, French,
// Hungarian); a translated page's box gives the words of its move and of what held
// (``data-heading``, ``data-words``), which the position's file has in English.
"use strict";

import { InBrowserEngine } from "../table/static/inbrowser.js";

let shared = null;
const clauseIndex = new Map();

function engineAt(table) {
  if (shared === null) shared = new InBrowserEngine({ base: table, storage: null });
  return shared;
}

async function clauses(table) {
  if (!clauseIndex.has(table)) {
    clauseIndex.set(table, fetch(new URL("clauses.json", table)).then((r) => (r.ok ? r.json() : {})).catch(() => ({})));
  }
  return clauseIndex.get(table);
}

const WORDS = {
  en: {
    starting: "Starting the engine in this page…",
    failed: (why) => `The engine could not start: ${why}`,
    reset: "Back to the start",
    close: "Close",
    tryRefused: (heading) => `Try the refused move: ${heading}`,
    tryKept: (heading) => `Try the move: ${heading}`,
    over: "The game is over.",
    toMove: (seat, decision) => `Seat ${seat} to move (${decision}): the outlined choices are legal; choose a card, then any square to play it there.`,
    hand: "Hand:",
    square: (pos) => `square ${pos}`,
    cardFirst: (choices) => `Choose a card first: ${choices}.`,
    kept: (words) => `Nothing can break this: ${words}`,
    clause: (clause) => `clause ${clause}`,
    refused: "Refused:",
  },
  de: {
    starting: "Die Engine startet in dieser Seite…",
    failed: (why) => `Die Engine konnte nicht starten: ${why}`,
    reset: "Zurück zum Anfang",
    close: "Schließen",
    tryRefused: (heading) => `Den abgelehnten Zug ausprobieren: ${heading}`,
    tryKept: (heading) => `Den Zug ausprobieren: ${heading}`,
    over: "Das Spiel ist zu Ende.",
    toMove: (seat, decision) => `Platz ${seat} ist am Zug (${decision}): die umrandeten Möglichkeiten sind erlaubt; wähle eine Karte, dann ein beliebiges Feld, um sie dort zu spielen.`,
    hand: "Hand:",
    square: (pos) => `Feld ${pos}`,
    cardFirst: (choices) => `Wähle zuerst eine Karte: ${choices}.`,
    kept: (words) => `Das kann nichts brechen: ${words}`,
    clause: (clause) => `Abschnitt ${clause}`,
    refused: "Abgelehnt:",
  },
  fr: {
    starting: "Démarrage du moteur dans cette page…",
    failed: (why) => `Le moteur n'a pas pu démarrer : ${why}`,
    reset: "Retour au début",
    close: "Fermer",
    tryRefused: (heading) => `Essayer le coup refusé : ${heading}`,
    tryKept: (heading) => `Essayer le coup : ${heading}`,
    over: "La partie est finie.",
    toMove: (seat, decision) => `Au siège ${seat} de jouer (${decision}) : les choix entourés sont permis ; choisissez une carte, puis n'importe quelle case pour l'y jouer.`,
    hand: "Main :",
    square: (pos) => `case ${pos}`,
    cardFirst: (choices) => `Choisissez d'abord une carte : ${choices}.`,
    kept: (words) => `Rien ne peut enfreindre ceci : ${words}`,
    clause: (clause) => `clause ${clause}`,
    refused: "Refusé :",
  },
  hu: {
    starting: "A motor indul ezen az oldalon…",
    failed: (why) => `A motor nem tudott elindulni: ${why}`,
    reset: "Vissza az elejére",
    close: "Bezárás",
    tryRefused: (heading) => `A tiltott lépés kipróbálása: ${heading}`,
    tryKept: (heading) => `A lépés kipróbálása: ${heading}`,
    over: "A játéknak vége.",
    toMove: (seat, decision) => `A(z) ${seat} számú hely lép (${decision}): a bekeretezett lehetőségek szabályosak; válassz egy kártyát, aztán bármely helyet, ahová kijátszod.`,
    hand: "Kéz:",
    square: (pos) => `${pos} hely`,
    cardFirst: (choices) => `Először válassz kártyát: ${choices}.`,
    kept: (words) => `Ezt semmi sem szegheti meg: ${words}`,
    clause: (clause) => `${clause} szabálypont`,
    refused: "Elutasítva:",
  },
};

// The words of the page's language (its ``<html lang>``), English for any other.
const SAY = WORDS[(document.documentElement.lang || "en").slice(0, 2).toLowerCase()] || WORDS.en;

// The engine's own words (a refusal, what a move did, its cards and choices) are English, as
// on the table: marked so on another language's page.
const ENGINE_LANG = SAY === WORDS.en ? null : "en";

function node(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") made.textContent = value;
    else if (value !== null && value !== undefined && value !== false) made.setAttribute(key, value === true ? "" : value);
  }
  made.append(...children);
  return made;
}

const STYLE = `
.gaia-try-panel { border: 1px solid var(--md-default-fg-color--lightest, #ccc); border-radius: 6px; padding: .6rem .8rem; margin: .6rem 0; }
.gaia-try-panel .gaia-try-world svg { max-width: 100%; height: auto; max-height: 28rem; display: block; margin: .3rem auto; }
.gaia-try-panel [data-pick] { cursor: pointer; }
.gaia-try-panel .gaia-try-world [data-pick] { pointer-events: all; }
.gaia-try-panel .gaia-try-world .choosable rect, .gaia-try-panel .gaia-try-world rect.choosable { stroke: #c2185b; stroke-width: 4; stroke-dasharray: none; }
.gaia-try-panel button.choosable { outline: 2px solid #c2185b; outline-offset: 1px; }
.gaia-try-panel button[aria-pressed="true"] { background: #c2185b; color: #fff; }
.gaia-try-panel .gaia-try-row { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; margin: .3rem 0; }
.gaia-try-panel .gaia-try-row button { font: inherit; font-size: .75rem; padding: .2rem .5rem; border-radius: 4px; border: 1px solid #999; background: transparent; color: inherit; }
.gaia-try-panel .gaia-try-said { min-height: 1.2em; }
.gaia-try-panel .gaia-try-refused { color: #b00020; font-weight: bold; }
.gaia-try-panel .gaia-try-kept { color: #1b5e20; font-weight: bold; }
`;

function installStyle() {
  if (document.getElementById("gaia-try-style")) return;
  document.head.append(node("style", { id: "gaia-try-style", text: STYLE }));
}

class Trial {
  constructor(box) {
    this.box = box;
    this.table = new URL(box.dataset.table, location.href).href;
    this.src = new URL(box.dataset.src, location.href).href;
    this.game = null;
    this.card = null;
    this.board = null;
    this.since = 0;
  }

  async open() {
    installStyle();
    this.box.querySelector("[data-try-open]").style.display = "none";
    this.status = node("p", { class: "gaia-try-status", "aria-live": "polite", text: SAY.starting });
    this.world = node("div", { class: "gaia-try-world" });
    this.hand = node("div", { class: "gaia-try-row gaia-try-hand" });
    this.buttons = node("div", { class: "gaia-try-row gaia-try-choices" });
    this.said = node("div", { class: "gaia-try-said", role: "status" });
    const reset = node("button", { type: "button", "data-try-reset": true, text: SAY.reset });
    const close = node("button", { type: "button", "data-try-close": true, text: SAY.close });
    this.refusals = node("div", { class: "gaia-try-row gaia-try-refusals" });
    reset.addEventListener("click", () => this.restart(this.data.start ? null : 0));
    close.addEventListener("click", () => this.close());
    this.panel = node("div", { class: "gaia-try-panel", "data-try-panel": this.box.dataset.try },
      this.status, this.world, this.hand, this.buttons, this.said,
      node("div", { class: "gaia-try-row" }, reset, close), this.refusals);
    this.box.append(this.panel);
    this.data = await fetch(this.src).then((r) => r.json());
    this.engine = engineAt(this.table);
    try {
      await this.engine.ready;
    } catch (error) {
      this.status.textContent = SAY.failed(error.message);
      return;
    }
    this.clauses = await clauses(this.table);
    this.data.refusals.forEach((refusal, index) => {
      const button = node("button", { type: "button", "data-try-refused": index, text: SAY.tryRefused(this.box.dataset.heading || refusal.heading) });
      button.addEventListener("click", () => this.tryRefused(index));
      this.refusals.append(button);
    });
    (this.data.kept || []).forEach((kept, index) => {
      const button = node("button", { type: "button", "data-try-kept": index, text: SAY.tryKept(this.box.dataset.heading || kept.heading) });
      button.addEventListener("click", () => this.tryKept(index));
      this.refusals.append(button);
    });
    await this.restart(this.data.start ? null : 0);
  }

  async close() {
    if (this.game) await this.engine.ask("close", { game: this.game }).catch(() => {});
    this.game = null;
    this.panel.remove();
    this.box.querySelector("[data-try-open]").style.display = "";
  }

  // Start again from the situation's start (``refusal`` null) or from the position before one
  // of its refused moves.
  async restart(refusal = null) {
    if (this.game) await this.engine.ask("close", { game: this.game }).catch(() => {});
    const record = refusal === null ? this.data.start : this.data.refusals[refusal].record;
    const opened = await this.engine.openPosition(record);
    this.game = opened.game;
    this.card = null;
    this.since = (await this.engine.ask("board", { game: this.game })).events;
    this.said.replaceChildren();
    await this.draw();
  }

  async tryRefused(index) {
    await this.restart(index);
    const action = JSON.parse(this.data.refusals[index].action);
    await this.act("apply", { seat: action.player, action });
  }

  // The move of a restriction no move can break, from its record: applied, the restriction kept.
  async tryKept(index) {
    await this.restart(null);
    const action = JSON.parse(this.data.kept[index].action);
    await this.act("apply", { seat: action.player, action });
  }

  async draw() {
    const board = await this.engine.ask("board", { game: this.game, since: this.since });
    this.board = board;
    this.box.dataset.moves = board.moves;
    this.status.textContent = board.over
      ? SAY.over
      : SAY.toMove(board.to_move, board.decision);
    const choices = board.choices;
    const withCard = (card) => choices.filter((c) => c.card === card);
    const current = this.card === null ? choices : withCard(this.card);
    const legal = new Set(current.flatMap((c) => c.squares));
    this.world.innerHTML = board.world; // the library's SVG: every text in it is escaped
    for (const square of this.world.querySelectorAll("g.square[data-pos], rect.frontier[data-pos], rect.origin[data-pos]")) {
      const pos = square.getAttribute("data-pos");
      square.setAttribute("data-pick", `sq:${pos}`);
      square.classList.toggle("choosable", legal.has(pos));
      square.setAttribute("role", "button");
      square.setAttribute("tabindex", "0");
      square.setAttribute("aria-label", SAY.square(pos));
      square.addEventListener("click", () => this.square(pos));
      square.addEventListener("keydown", (event) => {
        if (event.key === "Enter") this.square(pos);
      });
    }
    this.hand.replaceChildren(node("span", { text: SAY.hand }));
    for (const held of board.hand) {
      const usable = withCard(held.card).length > 0;
      const button = node("button", {
        type: "button", "data-pick": `hand:${held.words}`, class: usable ? "choosable" : null,
        "aria-pressed": this.card === held.card ? "true" : "false", text: held.words,
      });
      button.addEventListener("click", () => {
        this.card = this.card === held.card ? null : held.card;
        this.draw();
      });
      this.hand.append(button);
    }
    this.buttons.replaceChildren();
    for (const choice of choices.filter((c) => c.squares.length === 0)) {
      const button = node("button", { type: "button", "data-pick": `btn:${choice.words}`, class: "choosable", text: choice.words });
      button.addEventListener("click", () => this.act("apply", { seat: board.to_move, action: choice.action }));
      this.buttons.append(button);
    }
  }

  async square(pos) {
    const board = this.board;
    if (!board || board.over) return;
    if (this.card !== null) {
      await this.act("attempt", { card: this.card, square: pos });
      return;
    }
    const here = board.choices.filter((c) => c.squares.includes(pos));
    const cards = new Set(here.map((c) => c.card));
    if (here.length >= 1 && cards.size === 1 && !here[0].card) await this.act("apply", { seat: board.to_move, action: here[0].action });
    else if (here.length) this.say([SAY.cardFirst(here.map((c) => c.words).join("; "))]);
    else await this.act("attempt", { square: pos });
  }

  async act(op, body) {
    try {
      await this.engine.ask(op, { game: this.game, ...body });
    } catch (error) {
      this.refused(error.error || { message: String(error) });
      return;
    }
    this.card = null;
    const before = this.board ? this.board.log.length : 0;
    await this.draw();
    this.say(this.board.log.slice(before), ENGINE_LANG);
    for (const kept of this.data.kept || []) this.held(kept);
  }

  say(lines, lang = null) {
    this.said.replaceChildren(node("ul", {}, ...lines.map((line) => node("li", { lang, text: line }))));
  }

  // After a move in a position where a restriction no move can break is at stake: it held.
  held(kept) {
    const words = node("p", { class: "gaia-try-kept", "data-kept": kept.clause, text: SAY.kept(this.box.dataset.words || kept.words) });
    words.append(" (", this.clauseLink(kept.clause), ")");
    this.said.append(words);
  }

  clauseLink(clause) {
    const target = this.clauses && this.clauses[clause];
    return target ? node("a", { href: new URL(target, new URL("../", this.table)).href, text: SAY.clause(clause) }) : node("span", { text: SAY.clause(clause) });
  }

  refused(error) {
    const words = node("p", { class: "gaia-try-refused", "data-refused": error.kind || "" },
      `${SAY.refused} `, node("span", { lang: ENGINE_LANG, text: error.message }));
    if (error.clause) {
      words.dataset.clause = error.clause;
      words.append(" (", this.clauseLink(error.clause), ")");
    }
    this.said.replaceChildren(words);
  }
}

const boxes = document.querySelectorAll("[data-try]");
for (const box of boxes) {
  const opener = box.querySelector("[data-try-open]");
  if (!opener || opener.dataset.ready) continue;
  opener.dataset.ready = "1";
  const trial = new Trial(box);
  box.gaiaTrial = trial;
  opener.addEventListener("click", () => trial.open());
  // the engine starts as the reader reaches for the button, if the page has not started it yet
  for (const kind of ["pointerenter", "focus"]) opener.addEventListener(kind, () => engineAt(trial.table), { once: true });
}

// A page with a position to try starts its engine as soon as it has been drawn (once the browser
// is idle, or a second after at the latest), so that it is ready, or nearly, by the first click:
// a start is quick once the browser keeps the engine's snapshot (worker.js).
if (boxes.length && boxes[0].dataset.table) {
  const table = new URL(boxes[0].dataset.table, location.href).href;
  const early = () => engineAt(table);
  if (typeof requestIdleCallback === "function") requestIdleCallback(early, { timeout: 1000 });
  else setTimeout(early, 0);
}
