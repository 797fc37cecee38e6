// The engine of a page with no server: gaia-rules itself, running under Pyodide in a Web
// Worker (worker.js), behind the same methods as ServerEngine (engine.js). Every answer is the
// JSON the server's API answers, built by the same Python (gaia_rules.web.inbrowser).
//
//   const engine = new InBrowserEngine({ base: "/table/" });  // where pyodide/, wheels/ are
//   await engine.ready;            // also: <html data-engine="ready">, and a "gaia-ready" event
//   const game = await engine.createGame({ players: 3, bots: [null, "greedy", "search"] });
//
// ``<html data-engine-start>`` says how it started: "fresh" (the runtime started and the library
// imported), or "snapshot" (Python restored from the memory snapshot a former start of the same
// wheels kept in the browser's Cache Storage); ``data-engine-kept="snapshot"`` once a start has
// kept one.
//
// The bots' seats are played in the worker as soon as a bot is to move; each accepted action
// is kept in the browser's storage (localStorage: the game's record so far and its bots), so a
// game in progress is opened again after a reload, under the same id and tokens.
"use strict";

import { Engine, EngineError } from "./engine.js";

const PREFIX = "gaia-table:";

function refusal(data) {
  return new EngineError(data.error, { state: data.state || null });
}

function seatOf(game, token) {
  const [id, seat] = String(token).split(".");
  if (id !== game) throw new EngineError({ kind: "forbidden", status: 403, message: "this token opens no seat of this game" });
  return seat === "spectator" ? null : Number(seat);
}

async function digest(text) {
  const bytes = new TextEncoder().encode(text);
  const hash = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(hash)].slice(0, 12).map((b) => b.toString(16).padStart(2, "0")).join("");
}

function announce(state, detail = {}) {
  document.documentElement.dataset.engine = state;
  if (state === "ready") document.dispatchEvent(new CustomEvent("gaia-ready", { bubbles: true, detail }));
  if (state === "failed") document.dispatchEvent(new CustomEvent("gaia-failed", { bubbles: true, detail }));
}

export class InBrowserEngine extends Engine {
  // ``base``: the folder holding pyodide/ (the runtime), wheels/ (index.json and the wheels)
  // and static/worker.js; ``docs``: where the rules pages are; ``pages``: the page's own
  // addresses ({play(game, token)}); ``storage``: where games are kept (null: nowhere).
  constructor({ base, docs = null, pages = null, storage = globalThis.localStorage, botPause = 0 } = {}) {
    super();
    this.base = new URL(base, location.href).href;
    this.docs = docs;
    this.pages = pages || { play: (game, token) => `#play:${game}:${token}` };
    this.storage = storage;
    this.botPause = botPause;
    this.pending = new Map();
    this.next = 1;
    this.opened = new Set();
    this.watchers = new Map();
    this.playing = new Set();
    this.timings = null;
    announce("loading");
    this.started = performance.now();
    this.worker = new Worker(new URL("static/worker.js", this.base).href, { type: "module" });
    this.worker.onmessage = (event) => this.heard(event.data);
    this.ready = new Promise((resolve, reject) => {
      this.readyNow = resolve;
      this.failNow = reject;
    });
    this.ready.catch(() => {});
    this.boot();
  }

  async boot() {
    try {
      const index = await fetch(new URL("wheels/index.json", this.base)).then((r) => r.json());
      const wheels = index.wheels.map((name) => new URL(`wheels/${name}`, this.base).href);
      const { pyodide = null, digest = null } = index;
      this.worker.postMessage({ type: "start", indexURL: new URL("pyodide/", this.base).href, wheels, pyodide, digest });
    } catch (error) {
      this.heard({ type: "failed", message: String(error) });
    }
  }

  heard(message) {
    if (message.type === "ready") {
      this.timings = { ...message.timings, total: performance.now() - this.started };
      // "snapshot" (Python restored as a former start left it) or "fresh"
      document.documentElement.dataset.engineStart = this.timings.start || "fresh";
      announce("ready", this.timings);
      this.readyNow(this.timings);
    } else if (message.type === "kept") {
      document.documentElement.dataset.engineKept = "snapshot"; // the next start restores it
    } else if (message.type === "failed") {
      announce("failed", { message: message.message });
      this.failNow(new EngineError({ kind: "network", status: 0, message: message.message }));
    } else if (message.type === "answer") {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (waiting) waiting({ data: JSON.parse(message.answer), ms: message.ms });
    }
  }

  // One request to the worker: its answer, or an EngineError for a refusal.
  async ask(op, body = {}, { repeat = 0 } = {}) {
    await this.ready;
    const id = this.next++;
    const request = JSON.stringify({ op, ...body });
    const { data, ms } = await new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage(repeat ? { type: "time", id, request, repeat } : { type: "ask", id, request });
    });
    if (data && data.error) throw refusal(data);
    return repeat ? { data, ms } : data;
  }

  // -- keeping games in the browser ------------------------------------------------------------

  kept(game) {
    if (!this.storage) return null;
    const text = this.storage.getItem(`${PREFIX}game:${game}`);
    return text ? JSON.parse(text) : null;
  }

  async keep(game) {
    if (!this.storage) return;
    // the record's text, never parsed here: its seed is a 63-bit number
    const { text } = await this.ask("record", { game, force: true, text: true });
    const bots = this.kept(game)?.bots ?? null;
    this.storage.setItem(`${PREFIX}game:${game}`, JSON.stringify({ bots, record: text }));
  }

  // The game opened in this worker: a game kept before a reload is opened again from storage.
  async open(game) {
    if (this.opened.has(game)) return;
    const kept = this.kept(game);
    if (kept) await this.ask("open", { game, record: kept.record, bots: kept.bots });
    this.opened.add(game);
  }

  // -- the Engine methods ----------------------------------------------------------------------

  async settings() {
    return { docs: this.docs };
  }

  async faces(rules, lang) {
    return this.ask("faces", { rules, lang });
  }

  async createGame(request) {
    const created = await this.ask("create", request);
    const game = created.game;
    this.opened.add(game);
    if (this.storage) this.storage.setItem(`${PREFIX}game:${game}`, JSON.stringify({ bots: request.bots ?? null, record: null }));
    await this.keep(game);
    for (const seat of created.seats) seat.url = seat.token === null ? null : this.pages.play(game, seat.token);
    created.spectator.url = this.pages.play(game, created.spectator.token);
    return created;
  }

  // A game continued from a record (a pictured position of the docs): every seat a person's.
  async openPosition(record, bots = null) {
    const opened = await this.ask("open", { record, bots });
    this.opened.add(opened.game);
    return opened;
  }

  async state(game, token, { since = 0, world = false } = {}) {
    await this.open(game);
    return this.ask("state", { game, seat: seatOf(game, token), since, world });
  }

  subscribe(game, token, { since, onState, onStatus = () => {}, onError = () => {} }) {
    const watcher = { token, since, onState, onError, live: true };
    const list = this.watchers.get(game) || new Set();
    list.add(watcher);
    this.watchers.set(game, list);
    onStatus("connecting");
    this.state(game, token, { since: since(), world: true })
      .then((message) => {
        if (!watcher.live) return;
        onStatus("live");
        onState(message);
        this.playBots(game);
      })
      .catch((error) => {
        onStatus("refused");
        onError(error.error || { kind: "engine", status: 0, message: String(error) });
      });
    return {
      get live() {
        return watcher.live;
      },
      close: () => {
        watcher.live = false;
        list.delete(watcher);
      },
    };
  }

  async tell(game) {
    for (const watcher of this.watchers.get(game) || []) {
      try {
        const message = await this.state(game, watcher.token, { since: watcher.since(), world: true });
        if (watcher.live) watcher.onState(message);
      } catch (error) {
        watcher.onError(error.error || { kind: "engine", status: 0, message: String(error) });
      }
    }
  }

  async act(game, token, move, action) {
    await this.open(game);
    const answer = await this.ask("apply", { game, seat: seatOf(game, token), move, action });
    await this.keep(game);
    setTimeout(() => this.tell(game).then(() => this.playBots(game)), 0);
    return answer;
  }

  // The bots' seats, played one decision at a time while a bot is to move.
  async playBots(game) {
    if (this.playing.has(game)) return;
    this.playing.add(game);
    try {
      for (;;) {
        if (this.botPause) await new Promise((resolve) => setTimeout(resolve, this.botPause));
        const answer = await this.ask("bot", { game });
        if (!answer.ok) return;
        await this.keep(game);
        await this.tell(game);
      }
    } catch (error) {
      for (const watcher of this.watchers.get(game) || []) watcher.onError(error.error || { kind: "engine", status: 0, message: String(error) });
    } finally {
      this.playing.delete(game);
    }
  }

  async preview(game, token, action) {
    await this.open(game);
    return this.ask("preview", { game, seat: seatOf(game, token), action });
  }

  async rematch(game, token) {
    const found = await this.findRematch(game, token);
    if (found) return found;
    await this.open(game);
    const kept = this.kept(game);
    const record = JSON.parse(kept.record); // its rules and players only (not its seed)
    const created = await this.createGame({ players: record.players, rules: record.rules, bots: kept.bots });
    const seat = seatOf(game, token);
    const mine = seat === null ? created.spectator : created.seats[seat];
    const answer = { game: created.game, url: mine.url };
    if (this.storage) this.storage.setItem(`${PREFIX}rematch:${game}`, JSON.stringify({ game: created.game, seats: created.seats, spectator: created.spectator }));
    return answer;
  }

  async findRematch(game, token) {
    const text = this.storage ? this.storage.getItem(`${PREFIX}rematch:${game}`) : null;
    if (!text) return null;
    const found = JSON.parse(text);
    const seat = seatOf(game, token);
    const mine = seat === null ? found.spectator : found.seats[seat];
    return { game: found.game, url: mine.url || found.spectator.url };
  }

  async record(game, token) {
    seatOf(game, token);
    await this.open(game);
    const { text } = await this.ask("record", { game, text: true });
    return new Blob([text], { type: "application/json" });
  }

  async openRecord(text) {
    await this.ask("replay", { record: text, step: 0, seat: "spectator" });
    const name = await digest(text);
    if (this.storage) this.storage.setItem(`${PREFIX}record:${name}`, text);
    else this.records = { ...(this.records || {}), [name]: text };
    return { replay: name };
  }

  async replayStep(source, { step = null, seat = null } = {}) {
    const body = {};
    if (step !== null) body.step = step;
    if (seat !== null) body.seat = seat;
    if (source.record !== undefined) {
      const text = this.storage ? this.storage.getItem(`${PREFIX}record:${source.record}`) : null;
      const record = text || (this.records || {})[source.record]; // the record's text, never parsed here
      if (!record) throw new EngineError({ kind: "expired", status: 404, message: "this record is no longer kept: open it again" });
      return this.ask("replay", { record, ...body });
    }
    await this.open(source.game);
    if (body.seat === undefined) body.seat = seatOf(source.game, source.token) ?? "spectator";
    return this.ask("replay", { game: source.game, ...body });
  }

  async listGames() {
    throw new EngineError({ kind: "unsupported", status: 501, message: "a page's own engine lists no games" });
  }

  async join() {
    throw new EngineError({ kind: "unsupported", status: 501, message: "a page's own engine has no games to join" });
  }
}
