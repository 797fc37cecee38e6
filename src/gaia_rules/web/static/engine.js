// The page's one way to an engine: every exchange between the page (lobby, table, replay, card
// faces) and the engine that runs its games goes through the object ``engine`` exported here,
// whose async methods are documented below. ``ServerEngine`` runs them on a gaia-rules server,
// over fetch and a WebSocket; another engine (one running in the browser, say) implements the
// same methods and is chosen once, with ``useEngine``, before the page starts.
//
// Every method resolves with the data the server's API documents (a state message, a face
// sheet, ...) or rejects with an ``EngineError``: its ``error`` is the API's error object
// ({kind, message, status, clause?}); ``state`` is the seat's state when the request was
// stale (kind "stale"); ``retryAfter`` the seconds to wait when a limit refused it. A request
// that reached no engine rejects with kind "network".
//
// A game is named by ``game`` (its id) and a seat by ``token`` (a seat's or the spectators'
// token, never put in a URL's path or query).
"use strict";

export class EngineError extends Error {
  constructor(error, { state = null, retryAfter = null } = {}) {
    super(error.message || error.kind);
    this.error = error; // {kind, message, status, clause?}
    this.kind = error.kind;
    this.status = error.status || 0;
    this.state = state;
    this.retryAfter = retryAfter;
  }
}

// The methods every engine has (this class documents them; ServerEngine implements them).
export class Engine {
  // The table's configuration: {docs} (the rules site's address, or null).
  async settings() { throw new Error("not implemented"); }

  // The face sheet of ``rules`` in ``lang``: {faces: [{face, svg, text}], backs: {kind: svg}}.
  async faces(rules, lang) { throw new Error("not implemented"); }

  // A new game. ``request``: {players, rules, bots, seed?, first_player?}. Resolves with
  // {game, seats: [{seat, bot, token, url}], spectator: {token, url}} (url null for a bot).
  async createGame(request) { throw new Error("not implemented"); }

  // The seat's state message: the events from number ``since`` on, the world's SVG if ``world``.
  async state(game, token, { since = 0, world = false } = {}) { throw new Error("not implemented"); }

  // Live state messages: calls ``onState(message)`` with each new state (the first carries the
  // events from ``since()`` on, and the world), ``onStatus(status)`` with "connecting", "live",
  // "lost" (it tries again by itself) or "refused" (it stops), and ``onError(error)`` with an
  // error object the engine sent. Returns {live: boolean getter, close()}.
  subscribe(game, token, { since, onState, onStatus, onError }) { throw new Error("not implemented"); }

  // The seat takes ``action`` (wire format), answering move number ``move``. Resolves with the
  // answer {moves, ...} (``moves``: the number the resulting state will carry); a stale move
  // rejects with kind "stale" and ``state``.
  async act(game, token, move, action) { throw new Error("not implemented"); }

  // What a Power ``action`` would do, without doing it: {squares, ...} (the effect message).
  async preview(game, token, action) { throw new Error("not implemented"); }

  // What each play of a card on a square the seat may make now leads to, worked out from its
  // view: {moves, plays: [{action, objectives: [ids], offered, pawns, city: {pos,
  // satisfaction} | null, ends: {winner, reason} | null}]} ([] when it decides no action).
  async outcomes(game, token) { throw new Error("not implemented"); }

  // The open games listed in the lobby: {games: [{game, players, level, free, bots}]}.
  async openGames() { throw new Error("not implemented"); }

  // List a game just created (its creator's ``token``) with the tokens of its free seats.
  async listGame(game, token, tokens) { throw new Error("not implemented"); }

  // Take a free seat of a listed game: {seat, url}; kind "full" when none is left.
  async joinGame(game) { throw new Error("not implemented"); }

  // Ask for the rematch of a finished game (set up once): {game, url} of this seat's new link.
  async rematch(game, token) { throw new Error("not implemented"); }

  // The rematch if some seat has asked for it, else null.
  async findRematch(game, token) { throw new Error("not implemented"); }

  // The record of a finished game, as a Blob of JSON.
  async record(game, token) { throw new Error("not implemented"); }

  // A record file to watch again, as its text (never parsed: its 63-bit seed is more than a
  // JavaScript number holds): resolves with {replay} (its name).
  async openRecord(text) { throw new Error("not implemented"); }

  // One step of a replay, as seat ``seat`` (a number, "spectator", "all" or null) saw it:
  // ``source`` is {game, token} (a finished game) or {record} (a name openRecord gave).
  async replayStep(source, { step = null, seat = null } = {}) { throw new Error("not implemented"); }
}

function networkError(error) {
  return new EngineError({ kind: "network", status: 0, message: String(error) });
}

// The answer's JSON, or an EngineError for a refusal.
async function answer(response) {
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (response.ok) return data;
  const error = data && data.error ? data.error : { kind: "http", status: response.status, message: "" };
  if (!error.status) error.status = response.status;
  const retry = response.headers.get("Retry-After");
  throw new EngineError(error, {
    state: data && data.state ? data.state : null,
    retryAfter: retry === null ? null : Number(retry) || 1,
  });
}

async function request(url, options = {}) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    throw networkError(error);
  }
  return answer(response);
}

function auth(token) {
  return { Authorization: `Bearer ${token}` };
}

function freshKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function json(body) {
  return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

function replayQuery(step, seat) {
  const params = new URLSearchParams();
  if (step !== null) params.set("step", step);
  if (seat !== null) params.set("seat", seat);
  return params.toString();
}

// The engine of a gaia-rules server, over its HTTP API and WebSocket (the same origin).
export class ServerEngine extends Engine {
  async settings() {
    return request("/api/table");
  }

  async faces(rules, lang) {
    return request("/api/faces", json({ rules, lang }));
  }

  async createGame(body) {
    return request("/api/games", json(body));
  }

  async state(game, token, { since = 0, world = false } = {}) {
    return request(`/api/games/${game}?since=${since}${world ? "&world=1" : ""}`, { headers: auth(token) });
  }

  subscribe(game, token, { since, onState, onStatus = () => {}, onError = () => {} }) {
    let socket = null;
    let retry = 500;
    let stopped = false;
    const connect = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/api/games/${game}/live`);
      const mine = socket;
      mine.addEventListener("open", () => {
        mine.send(JSON.stringify({ token, since: since() }));
        retry = 500;
        onStatus("live");
      });
      mine.addEventListener("message", (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        if (message.error) onError(message.error);
        else onState(message);
      });
      mine.addEventListener("close", (event) => {
        if (stopped) return;
        if ([4401, 4403, 4404].includes(event.code)) {
          onStatus("refused");
          return;
        }
        onStatus("lost");
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 8000);
      });
    };
    onStatus("connecting");
    connect();
    return {
      get live() {
        return socket !== null && socket.readyState === WebSocket.OPEN;
      },
      close() {
        stopped = true;
        if (socket) socket.close();
      },
    };
  }

  async act(game, token, move, action) {
    // a fresh key per call: a retry, or a click on a state the game has left, is taken once
    return request(`/api/games/${game}/actions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": freshKey(), ...auth(token) },
      body: JSON.stringify({ move, action }),
    });
  }

  async preview(game, token, action) {
    const query = encodeURIComponent(JSON.stringify(action));
    return request(`/api/games/${game}/preview?action=${query}`, { headers: auth(token) });
  }

  async outcomes(game, token) {
    return request(`/api/games/${game}/outcomes`, { headers: auth(token) });
  }

  async openGames() {
    return request("/api/games/open");
  }

  async listGame(game, token, tokens) {
    return request(`/api/games/${game}/listing`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...auth(token) },
      body: JSON.stringify({ tokens }),
    });
  }

  async joinGame(game) {
    return request(`/api/games/${game}/join`, { method: "POST" });
  }

  async rematch(game, token) {
    return request(`/api/games/${game}/rematch`, { method: "POST", headers: auth(token) });
  }

  async findRematch(game, token) {
    try {
      return await request(`/api/games/${game}/rematch`, { headers: auth(token) });
    } catch (error) {
      if (error instanceof EngineError && error.status === 404) return null;
      throw error;
    }
  }

  async record(game, token) {
    let response;
    try {
      response = await fetch(`/api/games/${game}/record`, { headers: auth(token) });
    } catch (error) {
      throw networkError(error);
    }
    if (!response.ok) await answer(response);
    return response.blob();
  }

  async openRecord(text) {
    const opened = await request("/api/replays", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    try {
      window.sessionStorage.setItem(`gaia.record.${opened.replay}`, text);
    } catch (error) {
      // no storage: if the server forgets the record, it is dropped here again
    }
    return opened;
  }

  async replayStep(source, { step = null, seat = null } = {}) {
    const query = replayQuery(step, seat);
    if (source.game) return request(`/api/games/${source.game}/replay?${query}`, { headers: auth(source.token) });
    try {
      return await request(`/api/replays/${source.record}?${query}`);
    } catch (error) {
      // the server forgot the record: post it again from this tab's copy
      const text = error instanceof EngineError && error.status === 404
        ? window.sessionStorage.getItem(`gaia.record.${source.record}`) : null;
      if (text === null) throw error;
      await request("/api/replays", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
      return request(`/api/replays/${source.record}?${query}`);
    }
  }
}

// The engine of the page: the server's unless another was chosen before the page started.
export let engine = new ServerEngine();

export function useEngine(chosen) {
  engine = chosen;
}
