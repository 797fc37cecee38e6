// The page of a gaia-rules server: the lobby at "/", one seat's table at "/play/GAME#TOKEN",
// the replay at "/replay/GAME#TOKEN" (a finished game) or "/replay#record=NAME" (a record
// file). In English, German, French or Hungarian, from the browser's languages or the switch.
"use strict";

import { engine } from "./engine.js";
import { chooseLanguage, loadLanguage, remember, translateStatic } from "./i18n.js";
import { drawLobby, showLobby } from "./lobby.js";
import { replay, retranslate as retranslateReplay, startReplay } from "./replay.js";
import { applyState, choose, refresh, retranslate as retranslateTable, startTable, submit, table } from "./table.js";
import { installTips, setRulesSite } from "./tips.js";

async function settings() {
  const [site, pages] = await Promise.all([
    engine.settings(),
    fetch("/static/links.json").then((response) => response.json()),
  ]);
  setRulesSite(site.docs, pages);
}

async function switchLanguage(lang) {
  remember(lang);
  await loadLanguage(lang);
  translateStatic();
  if (!document.getElementById("lobby").hidden) drawLobby();
  await retranslateTable();
  await retranslateReplay();
  document.body.dataset.lang = lang; // drawn again in its words, its cards' faces too
}

// A touch screen: no keyboard hint (a finger has no keys), from the start or the first touch.
function noticeTouch() {
  const touch = () => document.body.classList.add("touch");
  if (matchMedia("(pointer: coarse)").matches || (navigator.maxTouchPoints > 0 && !matchMedia("(hover: hover)").matches)) touch();
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "touch") touch();
  }, { capture: true, passive: true });
  document.addEventListener("touchstart", touch, { capture: true, passive: true, once: true });
}

async function start() {
  noticeTouch();
  const lang = chooseLanguage();
  await Promise.all([loadLanguage(lang), settings()]);
  translateStatic();
  document.body.dataset.lang = lang;
  installTips();
  const picker = document.getElementById("lang-switch");
  picker.value = lang;
  picker.addEventListener("change", () => switchLanguage(picker.value));
  const path = location.pathname;
  const fragment = location.hash.slice(1);
  const play = path.match(/^\/play\/([A-Za-z0-9_-]+)$/);
  const watch = path.match(/^\/replay\/([A-Za-z0-9_-]+)$/);
  if (play && fragment) startTable(play[1], fragment);
  else if (watch && fragment) await startReplay({ game: watch[1], token: fragment });
  else if (path === "/replay" && fragment.startsWith("record=")) await startReplay({ record: fragment.slice(7) });
  else showLobby();
}

// for the tests and the curious: the page's state, and its own ways of acting
window.gaia = { table, replay, submit, refresh, choose, applyState, switchLanguage };

start();
