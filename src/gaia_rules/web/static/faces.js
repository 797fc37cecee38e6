// Card pictures: every face of the game's cards drawn by the library (gaia_rules.svg_cards),
// fetched once per language as a sheet from the engine (faces), and shown by face, never by
// card id: two copies of one face are one picture.
"use strict";

import { engine } from "./engine.js";
import { language } from "./i18n.js";

const sheets = new Map(); // `${lang} ${rules}` -> { faces: Map(key -> {src, text}), backs }
let shown = null; // the sheet of the game on the page

// A face's key: its data, without the id of the card bearing it, in a fixed order.
export function faceKey(face) {
  if (!face) return "";
  return JSON.stringify(Object.keys(face).filter((k) => k !== "id").sort().map((k) => [k, face[k]]));
}

function dataUrl(svg) {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

// Load (once) and show the faces of ``rules`` in the page's language.
export async function loadFaces(rules) {
  const lang = language();
  const key = `${lang} ${JSON.stringify(rules)}`;
  if (!sheets.has(key)) {
    const data = await engine.faces(rules, lang);
    const faces = new Map();
    for (const entry of data.faces) {
      faces.set(faceKey(entry.face), { src: dataUrl(entry.svg), text: entry.text, svg: entry.svg, small: new Map() });
    }
    const backs = {};
    for (const [kind, svg] of Object.entries(data.backs)) {
      backs[kind] = dataUrl(svg);
      faces.set(`back:${kind}`, { src: backs[kind], text: "", svg, small: new Map() });
    }
    sheets.set(key, { faces, backs });
  }
  shown = sheets.get(key);
  return shown;
}

// The face's picture and its words, or null before the sheet is there.
export function facePicture(face) {
  if (!shown || !face) return null;
  return shown.faces.get(faceKey(face)) || null;
}

// The face's picture for a card ``width`` pixels wide: its words too small to read at that
// width (below 9 px) left out, the whole face being shown enlarged in its tip.
const FACE_UNITS = 100; // the faces' viewBox is 100 wide
const LEGIBLE_PX = 9;

function legibleSrc(picture, width) {
  if (!width || width >= 150) return picture.src;
  const least = Math.ceil(((LEGIBLE_PX * FACE_UNITS) / width) * 2) / 2; // in half units
  if (!picture.small.has(least)) {
    const svg = picture.svg.replace(/<text\b[^>]*?font-size="([\d.]+)"[^>]*>[\s\S]*?<\/text>/g,
      (whole, size) => (Number(size) < least ? "" : whole));
    picture.small.set(least, dataUrl(svg));
  }
  return picture.small.get(least);
}

// Fit every card picture under ``root`` to the width it is drawn at (after a layout).
export function fitFaces(root = document) {
  for (const img of root.querySelectorAll("img.card-img[data-key]")) {
    const picture = shown ? shown.faces.get(img.dataset.key) : null;
    const width = img.getBoundingClientRect().width;
    if (!picture || !width) continue;
    const src = legibleSrc(picture, width);
    if (img.getAttribute("src") !== src) img.src = src;
  }
}

export function backPicture(kind) {
  return shown ? shown.backs[kind] || null : null;
}

// An <img> of a face (or of a back, given a kind), ``alt`` its words unless told otherwise.
export function cardImage(face, { kind = null, alt = null, className = "" } = {}) {
  const img = document.createElement("img");
  img.className = `card-img ${className}`.trim();
  img.decoding = "async";
  if (face) {
    const picture = facePicture(face);
    if (picture) img.src = picture.src;
    img.dataset.key = faceKey(face);
    img.alt = alt === null ? (picture ? picture.text : "") : alt;
  } else {
    img.src = backPicture(kind) || "";
    img.dataset.key = `back:${kind}`;
    img.alt = alt === null ? "" : alt;
  }
  img.width = 100;
  img.height = 140;
  return img;
}
