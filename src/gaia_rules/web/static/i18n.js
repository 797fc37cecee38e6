// Translations: one catalogue per language, by message id (/static/i18n/<lang>.json). No text
// of the page is written in its code: every word comes from the catalogue of the language
// chosen, from the browser's languages unless the player picked one with the switch.
"use strict";

export const LANGUAGES = ["en", "de", "fr", "hu"];

const MISSING = "⟦"; // a message missing from the catalogue shows as ⟦id⟧: the tests look for it
let messages = {};
let current = "en";
let plurals = new Intl.PluralRules("en");

export function language() {
  return current;
}

function stored() {
  try {
    return window.localStorage.getItem("gaia.lang");
  } catch (error) {
    return null; // storage refused: the browser's languages decide
  }
}

// The language to show: the one picked last, else the first of the browser's we speak.
export function chooseLanguage() {
  const picked = stored();
  if (LANGUAGES.includes(picked)) return picked;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function remember(lang) {
  try {
    window.localStorage.setItem("gaia.lang", lang);
  } catch (error) {
    // storage refused: the choice lasts as long as the page
  }
}

export async function loadLanguage(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`/static/i18n/${lang}.json: ${response.status}`);
  messages = await response.json();
  current = lang;
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
}

function template(id, params) {
  let text = messages[id];
  if (typeof text !== "string" && params && typeof params.count === "number") {
    text = messages[`${id}.${plurals.select(params.count)}`];
    if (typeof text !== "string") text = messages[`${id}.other`];
  }
  return typeof text === "string" ? text : `${MISSING}${id}⟧`;
}

// Whether the catalogue has the message ``id`` (a city of a custom manifest may have none).
export function known(id) {
  return typeof messages[id] === "string";
}

// The message ``id`` with its {fields} filled in, as text.
export function t(id, params = {}) {
  return template(id, params).replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return value instanceof Node ? value.textContent : String(value);
  });
}

// The message ``id`` as nodes: a field may be a node (a seat's coloured name, a card).
export function tn(id, params = {}) {
  const fragment = document.createDocumentFragment();
  const text = template(id, params);
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    fragment.append(text.slice(last, match.index));
    const value = params[match[1]];
    if (value === undefined) fragment.append(match[0]);
    else fragment.append(value instanceof Node ? value.cloneNode(true) : String(value));
    last = match.index + match[0].length;
  }
  fragment.append(text.slice(last));
  return fragment;
}

// Words a list joins: "a, b and c", in the catalogue's words.
export function joined(items) {
  const parts = items.map((item) => (item instanceof Node ? item.textContent : String(item)));
  if (parts.length <= 1) return parts.join("");
  return t("list.pair", { first: parts.slice(0, -1).join(t("list.comma")), last: parts[parts.length - 1] });
}

// The page's fixed words: data-i18n (text), data-i18n-label (aria-label), data-i18n-title.
export function translateStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  document.title = t("page.title");
}
