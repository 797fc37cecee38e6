// Tooltips: what a card is and its rule in words, with a link to its page of the rules. They
// show on hover and on keyboard focus; "i" (or a tap on a phone) keeps one open, so that its
// link can be reached; Escape closes it.
"use strict";

import { facePicture } from "./faces.js";
import { joined, language, t } from "./i18n.js";
import { cityWord, faceWords, kindWord, landWord } from "./words.js";

let links = {}; // what -> a page of the rules site, relative to its base
let docs = ""; // the base address of the rules site
let owner = null; // the element whose tip shows
let pinned = false;
let hideTimer = null;

export function setRulesSite(base, pages) {
  docs = base;
  links = pages;
}

export function rulesLink(what) {
  const page = links[what];
  return page === undefined ? null : `${docs}${inLanguage(page)}`;
}

// A page of the rules site in the table's language: the site keeps English at its root and
// each other language under its code (de/play/basic/); a page it has not translated is
// there in English.
function inLanguage(page) {
  const lang = language();
  return lang === "en" ? page : `${lang}/${page}`;
}

function tipBox() {
  return document.getElementById("tip");
}

// The words of a face's tip: its name, its rule, and which page of the rules to read.
export function faceTip(face) {
  if (face.nature) {
    const title = t("tip.title.nature", { land: t(`card.land.${face.nature}`) });
    return { title, rule: t("tip.nature", { land: landWord(face.nature) }), link: "nature" };
  }
  if (face.city) {
    const site = face.site === "star" ? t("tip.site_star") : landWord(face.site);
    const needs = joined(face.needs.map((need) => (need === "animals" ? t("tip.need_animals") : landWord(need))));
    return { title: cityWord(face.city), rule: t("tip.city", { site, needs }), link: "city" };
  }
  if (face.animals) {
    const site = face.animals === "star" ? t("tip.site_star_animals") : landWord(face.animals);
    const where = face.animals === "star" ? t("site.star") : landWord(face.animals);
    return { title: t("tip.title.animals", { site: where }), rule: t("tip.animals", { site }), link: "animals" };
  }
  if (face.power) {
    return { title: faceWords(face), rule: t(`tip.power.${face.power}`), link: face.power };
  }
  if (face.objective_powers) {
    const rule = t("tip.objective_powers", { count: face.objective_powers });
    return { title: t("tip.title.objective_powers"), rule, link: "objective_powers" };
  }
  const lands = joined((face.objective || []).map(landWord));
  return { title: t("tip.title.objective"), rule: t("tip.objective", { lands }), link: "objective" };
}

export function backTip(kind) {
  return { title: t("tip.back_title", { kind: kindWord(kind) }), rule: t(`tip.back.${kind}`), link: "drawing" };
}

// Where the pointer stood when it last clicked or tapped: a card drawn there afterwards (the
// next card sliding into the slot of one just chosen) shows no tip until the pointer moves.
let still = null;
const HOVER_MS = 350; // a pointer passing over a card shows nothing: it must rest there
const PRESS_MS = 500; // a finger held this long on a card shows its face
let hoverTimer = null;
let returning = false; // the focus going back to a card whose tip Escape closed

function resting(event) {
  return !(still && Math.abs(event.clientX - still.x) < 4 && Math.abs(event.clientY - still.y) < 4);
}

// Give ``element`` a tip; ``words`` is called when it shows; ``face`` (a card's face) puts
// its picture, enlarged, in the tip.
export function attachTip(element, words, face = null) {
  const open = (pin) => show(element, words(), pin, face);
  element.addEventListener("pointermove", (event) => {
    if (event.pointerType !== "mouse" || owner === element || !resting(event)) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => {
      if (element.isConnected && element.matches(":hover")) open(false);
    }, HOVER_MS);
  });
  element.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "mouse") return;
    clearTimeout(hoverTimer);
    if (owner === element) scheduleHide();
  });
  // by keyboard only: a focus a click or the page gave shows nothing
  element.addEventListener("focus", () => {
    if (element.matches(":focus-visible") && !returning) open(false);
  });
  // the focus gone elsewhere (a square after a card chosen by keys) takes its tip along at once
  element.addEventListener("blur", (event) => {
    if (!pinned && !tipBox().contains(event.relatedTarget)) hide();
  });
  element.addEventListener("keydown", (event) => {
    if (event.key === "i" || event.key === "I") {
      open(true);
      const link = tipBox().querySelector("a");
      if (link) link.focus();
      event.preventDefault();
    }
  });
  // a long press on a touch screen: the face, enlarged, and the click it would make is not made
  let pressTimer = null;
  let pressed = false;
  element.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    pressed = false;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => {
      pressed = true;
      open(true);
    }, PRESS_MS);
  });
  for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
    element.addEventListener(name, () => clearTimeout(pressTimer));
  }
  element.addEventListener("contextmenu", (event) => {
    if (pressed || owner === element) event.preventDefault();
  });
  element.addEventListener("click", (event) => {
    if (pressed) {
      pressed = false;
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    // a click (or a tap) on a card that is not a choice keeps its tip open, its link usable
    if (!element.classList.contains("choosable")) open(true);
  }, true);
  element.dataset.tip = "1";
}

// Focus ``element`` for the page's own reasons (the next choice after an action or Escape):
// the focus lands there, with no tip.
export function quietFocus(element) {
  returning = true;
  element.focus({ preventScroll: true });
  returning = false;
}

function show(element, words, pin, face = null) {
  clearTimeout(hideTimer);
  clearTimeout(hoverTimer);
  const box = tipBox();
  owner = element;
  pinned = pin;
  box.replaceChildren();
  const picture = face ? facePicture(face) : null;
  box.classList.toggle("with-face", Boolean(picture));
  if (picture) {
    const img = document.createElement("img");
    img.className = "tip-face";
    img.src = picture.src;
    img.alt = "";
    img.width = 170;
    img.height = 238;
    box.append(img);
  }
  const title = document.createElement("strong");
  title.textContent = words.title;
  const rule = document.createElement("p");
  rule.textContent = words.rule;
  box.append(title, rule);
  const href = rulesLink(words.link);
  if (href) {
    const link = document.createElement("a");
    link.href = href;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    link.textContent = t("tip.link");
    box.append(link);
  }
  box.hidden = false;
  box.classList.toggle("pinned", pin);
  element.setAttribute("aria-describedby", "tip");
  place(box, element);
}

function place(box, element) {
  const rect = element.getBoundingClientRect();
  const width = Math.min(box.classList.contains("with-face") ? 420 : 300, window.innerWidth - 16);
  box.style.maxWidth = `${width}px`;
  let left = rect.left + window.scrollX;
  left = Math.max(8, Math.min(left, window.scrollX + window.innerWidth - width - 8));
  let top = rect.bottom + window.scrollY + 6;
  const height = box.offsetHeight;
  if (rect.bottom + height + 12 > window.innerHeight && rect.top > height + 12) {
    top = rect.top + window.scrollY - height - 6;
  }
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
}

function scheduleHide() {
  if (pinned) return;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hide, 250);
}

// After the page is drawn again: a tip whose card is gone goes too.
export function hideIfGone() {
  if (owner && !owner.isConnected) hide();
}

export function hide() {
  const box = tipBox();
  if (!box) return;
  box.hidden = true;
  if (owner) owner.removeAttribute("aria-describedby");
  owner = null;
  pinned = false;
}

export function installTips() {
  const box = tipBox();
  box.addEventListener("mouseenter", () => clearTimeout(hideTimer));
  box.addEventListener("mouseleave", () => scheduleHide());
  box.addEventListener("focusout", (event) => {
    if (!box.contains(event.relatedTarget)) hide();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !box.hidden) {
      const back = owner;
      event.preventDefault(); // this Escape closed a tip, and cancels nothing else
      hide();
      returning = true;
      if (back) back.focus();
      returning = false;
    }
  });
  // a click leaves the pointer still: what is drawn under it shows no tip until it moves
  document.addEventListener("pointerdown", (event) => {
    still = { x: event.clientX, y: event.clientY };
    clearTimeout(hoverTimer);
  }, true);
  document.addEventListener("pointermove", (event) => {
    if (still && resting(event)) still = null;
  }, true);
  document.addEventListener("click", (event) => {
    if (!box.hidden && !box.contains(event.target) && !(owner && owner.contains(event.target))) hide();
  });
}
