// The world on the page: the library's SVG (gaia_rules.svg.world_svg, public and the same for
// every seat), made into something to play with: the legal squares outlined and reachable by
// keyboard (arrow keys between them, Enter to choose), each square named in words, and what
// changed lately marked, the mark fading.
"use strict";

import { t } from "./i18n.js";
import { cardWords, cityWord, landWord, seatWord } from "./words.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const FADE_MS = 12000; // how long a mark of a change takes to fade

export class Board {
  constructor(box) {
    this.box = box;
    this.svg = null; // the text drawn last
    this.marks = new Map(); // pos -> { since: time first marked, why: [words] }
  }

  // Draw ``svg`` (when it changed) and make its squares the page's.
  draw(svg) {
    if (svg === undefined || svg === null || svg === this.svg) return false;
    this.box.innerHTML = svg; // the library's SVG: every text in it is escaped
    this.svg = svg;
    const root = this.box.querySelector("svg");
    if (root) {
      // as wide as the panel, as high as the screen allows, never much larger than drawn
      const width = Number(root.getAttribute("width"));
      const height = Number(root.getAttribute("height"));
      root.removeAttribute("width");
      root.removeAttribute("height");
      root.style.maxWidth = `${Math.round(width * 1.35)}px`;
      root.style.maxHeight = `min(${Math.round(height * 1.35)}px, var(--world-h))`;
      root.setAttribute("role", "group");
      for (const title of root.querySelectorAll("title")) title.remove(); // the page says it in its words
      for (const city of root.querySelectorAll("[data-card]")) city.removeAttribute("data-card"); // faces, not ids
    }
    return true;
  }

  // the squares of the world: its tiles, and the free squares beside them (the frontier)
  squares() {
    return [...this.box.querySelectorAll("g.square[data-pos], rect.frontier[data-pos], rect.origin[data-pos]")];
  }

  square(pos) {
    return this.box.querySelector(`g.square[data-pos="${pos}"], rect.frontier[data-pos="${pos}"], rect.origin[data-pos="${pos}"]`);
  }

  // Name every square in words, and offer the legal ones as buttons.
  label(ctx, view, picks) {
    const root = this.box.querySelector("svg");
    if (!root) return;
    root.setAttribute("aria-label", t("world.label", { tiles: Object.keys(view.tiles).length }));
    // the cities' names in the page's language, squeezed to the square when longer
    const side = sideOf(this.box);
    for (const text of root.querySelectorAll("g text.name")) {
      const name = text.dataset.name || text.textContent;
      text.dataset.name = name;
      const words = cityWord(name);
      if (text.textContent !== words) text.textContent = words;
      if (words.length > name.length && side) {
        text.setAttribute("textLength", String(side * 0.9));
        text.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
    for (const square of this.squares()) {
      const pos = square.getAttribute("data-pos");
      const pick = `sq:${pos}`;
      const choosable = picks.choosable.has(pick);
      square.setAttribute("data-pick", pick);
      square.classList.toggle("choosable", choosable);
      square.classList.toggle("picked", picks.picked.includes(pick));
      const words = squareWords(ctx, view, pos);
      const mark = this.marks.get(pos);
      const said = mark ? `${words}. ${t("world.changed", { changes: mark.why.join("; ") })}` : words;
      if (choosable) {
        square.setAttribute("role", "button");
        square.setAttribute("tabindex", square === this.focusTarget(picks) ? "0" : "-1");
        square.setAttribute("aria-label", `${said}. ${t("world.choose")}`);
      } else {
        square.removeAttribute("role");
        square.removeAttribute("tabindex");
        if (square.matches("g.square")) {
          square.setAttribute("role", "img");
          square.setAttribute("aria-label", said);
        } else {
          square.removeAttribute("aria-label");
        }
      }
    }
  }

  focusTarget(picks) {
    const choosable = this.squares().filter((s) => picks.choosable.has(`sq:${s.getAttribute("data-pos")}`));
    const current = choosable.find((s) => s === document.activeElement);
    return current || choosable[0] || null;
  }

  focusFirst() {
    const first = this.box.querySelector('[data-pos].choosable[tabindex="0"]')
      || this.box.querySelector("[data-pos].choosable");
    if (first) first.scrollIntoView({ block: "nearest" });
    if (first) first.focus();
    return Boolean(first);
  }

  // Arrow keys: to the nearest highlighted square that way.
  move(from, key) {
    const [fx, fy] = from.getAttribute("data-pos").split(",").map(Number);
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    if (!step) return false;
    let best = null;
    let bestScore = Infinity;
    for (const square of this.box.querySelectorAll("[data-pos].choosable")) {
      const [x, y] = square.getAttribute("data-pos").split(",").map(Number);
      const along = (x - fx) * step[0] + (y - fy) * step[1];
      if (along <= 0) continue;
      const across = Math.abs((x - fx) * step[1]) + Math.abs((y - fy) * step[0]);
      const score = along + 2 * across;
      if (score < bestScore) {
        best = square;
        bestScore = score;
      }
    }
    if (!best) return false;
    from.setAttribute("tabindex", "-1");
    best.setAttribute("tabindex", "0");
    best.focus();
    return true;
  }

  // Mark the squares that changed: ``changes`` maps a square to the words of what happened.
  mark(changes, now = Date.now()) {
    for (const [pos, why] of changes) {
      const known = this.marks.get(pos);
      if (known && known.key === why.key) continue;
      this.marks.set(pos, { since: now, why, key: why.key });
    }
    for (const pos of [...this.marks.keys()]) if (!changes.has(pos)) this.marks.delete(pos);
    this.drawMarks(now);
  }

  drawMarks(now = Date.now()) {
    for (const old of this.box.querySelectorAll(".mark")) old.remove();
    for (const [pos, mark] of this.marks) this.overlay(pos, "mark", now - mark.since);
  }

  // Mark what a play on each square would lead to: ``marks`` maps a square to {badge, words}
  // (a badge of a character or two on the square, its words added to the square's name).
  annotate(marks) {
    for (const old of this.box.querySelectorAll(".outcome")) old.remove();
    const layer = this.box.querySelector("svg g.world");
    const side = sideOf(this.box);
    if (!layer || !side) return;
    for (const [pos, mark] of marks) {
      const square = this.square(pos);
      if (!square) continue;
      const [x, y] = pos.split(",").map(Number);
      const group = document.createElementNS(SVG_NS, "g");
      group.setAttribute("class", `outcome outcome-${mark.kind}`);
      group.setAttribute("aria-hidden", "true");
      const width = Math.max(18, 9 * mark.badge.length + 8);
      const badge = document.createElementNS(SVG_NS, "rect");
      badge.setAttribute("x", x * side + side / 2 - width / 2);
      badge.setAttribute("y", y * side + side - 22);
      badge.setAttribute("width", width);
      badge.setAttribute("height", 18);
      badge.setAttribute("rx", 9);
      const text = document.createElementNS(SVG_NS, "text");
      text.setAttribute("x", x * side + side / 2);
      text.setAttribute("y", y * side + side - 8.5);
      text.setAttribute("text-anchor", "middle");
      text.textContent = mark.badge;
      group.append(badge, text);
      layer.append(group);
      const label = square.getAttribute("aria-label");
      if (label) square.setAttribute("aria-label", `${label} ${mark.words}`);
      square.dataset.outcome = mark.words;
    }
    for (const square of this.squares()) if (!marks.has(square.getAttribute("data-pos"))) delete square.dataset.outcome;
  }

  // Mark the squares a line of the log names (none: clear them).
  named(squares) {
    for (const old of this.box.querySelectorAll(".named")) old.remove();
    for (const pos of squares) this.overlay(pos, "named", 0);
  }

  // Outline the squares a Power would touch.
  outline(squares) {
    for (const old of this.box.querySelectorAll(".preview")) old.remove();
    for (const pos of squares || []) this.overlay(pos, "preview", 0);
  }

  overlay(pos, kind, age) {
    const square = this.square(pos);
    if (!square) return;
    const side = sideOf(this.box);
    const [x, y] = pos.split(",").map(Number);
    const layer = this.box.querySelector("svg g.world");
    if (!layer || !side) return;
    const inset = kind === "mark" ? 3 : kind === "named" ? 5 : 1.5;
    const rect = document.createElementNS(SVG_NS, "rect");
    rect.setAttribute("class", kind);
    rect.setAttribute("data-at", pos);
    rect.setAttribute("x", x * side + inset);
    rect.setAttribute("y", y * side + inset);
    rect.setAttribute("width", side - 2 * inset);
    rect.setAttribute("height", side - 2 * inset);
    rect.setAttribute("rx", 4);
    rect.setAttribute("aria-hidden", "true");
    if (kind === "mark") rect.style.animationDelay = `${-Math.min(age, FADE_MS)}ms`;
    layer.append(rect);
    if (kind === "mark") {
      const badge = document.createElementNS(SVG_NS, "circle");
      badge.setAttribute("class", "mark mark-badge");
      badge.setAttribute("cx", x * side + side - 9);
      badge.setAttribute("cy", y * side + 9);
      badge.setAttribute("r", 6);
      badge.setAttribute("aria-hidden", "true");
      badge.style.animationDelay = rect.style.animationDelay;
      layer.append(badge);
    }
  }
}

function sideOf(box) {
  const tile = box.querySelector("rect.tile");
  if (tile) return Number(tile.getAttribute("width"));
  const outline = box.querySelector("rect.frontier, rect.origin");
  return outline ? Number(outline.getAttribute("width")) + Number(outline.getAttribute("stroke-width") || 1) : 0;
}

// A square in words: its land, its animal tokens, its city with its needs met and pawns.
export function squareWords(ctx, view, pos) {
  const land = view.tiles[pos];
  if (!land) return t("world.free", { pos });
  const parts = [t("world.tile", { pos, land: landWord(land) })];
  const tokens = view.animals[pos];
  if (tokens) parts.push(t("world.tokens", { count: tokens }));
  const city = view.cities[pos];
  if (city) {
    const pawns = city.pawns.length ? city.pawns.map((s) => seatWord(ctx, s)).join(", ") : t("world.no_pawns");
    parts.push(t("world.city", { city: cardWords(ctx, city.card), met: city.satisfaction, pawns }));
  }
  return parts.join(", ");
}

// The squares the events changed, each with the words of what happened there.
export function changedSquares(ctx, events, cities, lineOf) {
  const changes = new Map();
  const add = (pos, event) => {
    if (!pos) return;
    const words = lineOf(event);
    if (!changes.has(pos)) changes.set(pos, Object.assign([], { key: "" }));
    const list = changes.get(pos);
    if (words) list.push(words);
    list.key += `|${JSON.stringify(event)}`;
  };
  for (const event of events) {
    switch (event.type) {
      case "TilePlaced": case "TileReplaced": case "AnimalsPlaced": case "TokensReturned":
      case "CityPlaced": case "CityDiscarded": case "PawnPlaced": case "PawnReturned":
      case "CityTaken": case "SatisfactionChanged":
        add(event.pos, event);
        break;
      case "TilesSwapped":
        add(event.first, event);
        add(event.second, event);
        break;
      default: break;
    }
    cities.follow(event);
    cities.forget(event);
  }
  return changes;
}
