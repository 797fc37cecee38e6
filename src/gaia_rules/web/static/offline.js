// The table with no server (``table/`` of the docs site): the page of a gaia-rules server, its
// lobby, table and replay as they are, with the engine running in the browser (inbrowser.js).
// A static host has one file where a server has routes, so the page's places are in the
// address's fragment: "#play:GAME:TOKEN" (a seat's table), "#replay:GAME:TOKEN" (a finished
// game watched again), "#record:NAME" (a record file watched), nothing (the lobby).
"use strict";

import { useEngine } from "./engine.js";
import { InBrowserEngine } from "./inbrowser.js";
import { usePages } from "./pages.js";

const here = new URL("./", import.meta.url); // .../table/static/
const base = new URL("../", here); // .../table/

// The page's own files are asked for at "/static/...", a server's path: here they are beside
// this module.
const serverFetch = window.fetch.bind(window);
window.fetch = (resource, options) => {
  if (typeof resource === "string" && resource.startsWith("/static/")) {
    resource = new URL(resource.slice("/static/".length), here).href;
  }
  return serverFetch(resource, options);
};

const engine = new InBrowserEngine({
  base: base.href,
  docs: new URL("../", base).href,
  pages: { play: (game, token) => `#play:${game}:${token}` },
});
useEngine(engine);
usePages({
  replayGame: (game, token) => `#replay:${game}:${token}`,
  replayRecord: (name) => `#record:${name}`,
});

// Going from the lobby to a place is done in the page (the engine is running already); from
// any other place, the page starts again there.
let inLobby = false;
window.addEventListener("hashchange", () => {
  if (!inLobby) {
    location.reload();
    return;
  }
  inLobby = false;
  document.getElementById("lobby").hidden = true;
  route();
});

const { chooseLanguage, loadLanguage, remember, translateStatic } = await import("./i18n.js");
const { drawLobby, showLobby } = await import("./lobby.js");
const { replay, retranslate: retranslateReplay, startReplay } = await import("./replay.js");
const table = await import("./table.js");
const { installTips, setRulesSite } = await import("./tips.js");

async function switchLanguage(lang) {
  remember(lang);
  await loadLanguage(lang);
  translateStatic();
  if (!document.getElementById("lobby").hidden) drawLobby();
  await table.retranslate();
  await retranslateReplay();
}

async function start() {
  const lang = chooseLanguage();
  const pages = await fetch("/static/links.json").then((response) => response.json());
  await loadLanguage(lang);
  setRulesSite(engine.docs, pages);
  translateStatic();
  installTips();
  const picker = document.getElementById("lang-switch");
  picker.value = lang;
  picker.addEventListener("change", () => switchLanguage(picker.value));
  document.body.dataset.state = "loading";
  try {
    await engine.ready;
  } catch (error) {
    const box = document.getElementById("lobby-error") || document.body;
    document.getElementById("lobby").hidden = false;
    box.textContent = `The engine could not start: ${error.message}`;
    document.body.dataset.state = "failed";
    return;
  }
  await route();
}

async function route() {
  const [place, game, token] = decodeURIComponent(location.hash.slice(1)).split(":");
  if (place === "play" && game && token) table.startTable(game, token);
  else if (place === "replay" && game && token) await startReplay({ game, token });
  else if (place === "record" && game) await startReplay({ record: game });
  else {
    inLobby = true;
    showLobby();
  }
}

// for the tests and the curious, as on a server's page: the page's state and its own ways of
// acting, and the engine
window.gaia = {
  table: table.table,
  replay,
  submit: table.submit,
  refresh: table.refresh,
  choose: table.choose,
  applyState: table.applyState,
  switchLanguage,
  engine,
};

start();
