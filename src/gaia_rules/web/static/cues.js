// That it is this seat's move, said without looking at the table: the tab's title ("● Your
// move · Gaïa"), a short sound (off unless the player turns it on) and a browser notification
// while the tab is hidden (asked for only when the player ticks it). The choices are kept in
// the browser's storage.
"use strict";

import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const KEYS = { sound: "gaia.cueSound", notify: "gaia.cueNotify", pass: "gaia.quickPass" };

// The quick pass (spec 13.11): every Protection window this seat is asked in is answered with
// a pass after this delay, whether or not it holds Protection, unless its player acts first.
export const QUICK_PASS_MS = 4000;
let mine = false; // whether the page last showed this seat's move
let audio = null;

function stored(name) {
  try {
    return window.localStorage.getItem(KEYS[name]) === "1";
  } catch (error) {
    return false;
  }
}

function store(name, on) {
  try {
    window.localStorage.setItem(KEYS[name], on ? "1" : "0");
  } catch (error) {
    // storage refused: the choice lasts as long as the page
  }
}

export function cueSettings() {
  return { sound: $("cue-sound").checked, notify: $("cue-notify").checked, quickPass: $("quick-pass").checked };
}

// The settings' boxes, as the player left them; a notification asked for on the tick itself.
export function installCues() {
  const sound = $("cue-sound");
  const notify = $("cue-notify");
  const pass = $("quick-pass");
  pass.checked = stored("pass");
  pass.addEventListener("change", () => store("pass", pass.checked));
  sound.checked = stored("sound");
  notify.checked = stored("notify") && "Notification" in window && Notification.permission === "granted";
  sound.addEventListener("change", () => {
    store("sound", sound.checked);
    if (sound.checked) beep();
  });
  notify.addEventListener("change", async () => {
    if (notify.checked && "Notification" in window && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") notify.checked = false;
    }
    store("notify", notify.checked);
  });
  $("cues").hidden = false;
}

function beep() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch (error) {
    // no sound on this browser
  }
}

// The page shows a state: ``yours`` when this seat decides now; ``words`` what is asked.
export function turnCue(yours, words) {
  document.title = yours ? t("page.title_your_move") : t("page.title");
  const began = yours && !mine;
  mine = yours;
  if (!began) return;
  const settings = cueSettings();
  if (settings.sound) beep();
  if (settings.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try {
      const note = new Notification(t("page.title_your_move"), { body: words, tag: "gaia-turn" });
      note.addEventListener("click", () => {
        window.focus();
        note.close();
      });
    } catch (error) {
      // notifications refused by the browser
    }
  }
}
