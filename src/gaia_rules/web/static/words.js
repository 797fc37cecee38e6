// The game in words: seats, cards, squares, events, actions, decisions and what a Power would
// do, each written from its data through the catalogue (i18n.js), never from server text.
"use strict";

import { joined, known, t, tn } from "./i18n.js";

export const COLOURS = ["blue", "yellow", "green", "red", "white"];
export const KINDS = ["nature", "life", "power"];

// -- names ----------------------------------------------------------------------------------

export function colourWord(seat) {
  return t(`colour.${COLOURS[seat] || "none"}`);
}

// A seat in words: its colour, and "(you)" for the page's own seat.
export function seatWord(ctx, seat) {
  const you = seat === ctx.seat && !ctx.replay; // a replay shows a seat's view, not "you"
  return you ? t("seat.you", { colour: colourWord(seat) }) : colourWord(seat);
}

// A seat as a chip: its colour's dot, never alone: its name beside it.
export function seatChip(ctx, seat) {
  const chip = document.createElement("span");
  chip.className = `seat-chip seat-${seat}`;
  const dot = document.createElement("span");
  dot.className = `dot seat-${seat}`;
  dot.setAttribute("aria-hidden", "true");
  chip.append(dot, seatWord(ctx, seat));
  chip.title = t("seat.number", { number: seat + 1 });
  return chip;
}

// A city's name in the page's language (the manifest's name when the catalogue has none).
export function cityWord(name) {
  const id = `card.city.${name}`;
  return known(id) ? t(id) : name;
}

export function landWord(land) {
  return t(`land.${land}`);
}

export function kindWord(kind) {
  return t(`kind.${kind}`);
}

export function powerWord(power) {
  return t(`card.power.${power}`);
}

function siteWord(site) {
  return site === "star" ? t("site.star") : landWord(site);
}

// What is printed on a card, in a few words.
export function faceWords(face) {
  if (!face) return t("card.unknown");
  if (face.nature) return t("face.nature", { land: landWord(face.nature) });
  if (face.city) return cityWord(face.city);
  if (face.animals) return t("face.animals", { site: siteWord(face.animals) });
  if (face.power) return powerWord(face.power);
  if (face.objective_powers) return t("face.objective_powers", { count: face.objective_powers });
  if (face.objective) return t("face.objective", { lands: joined(face.objective.map(landWord)) });
  return t("card.unknown");
}

// A face's name as printed on it, in a word or two ("Forest", "Sun", "Venice"): a caption.
export function faceName(face) {
  if (!face) return t("card.unknown");
  if (face.nature) return t(`card.land.${face.nature}`);
  if (face.city) return cityWord(face.city);
  if (face.animals) return t("card.animals");
  if (face.power) return powerWord(face.power);
  return t("card.objective");
}

export function faceOf(ctx, card) {
  if (card && typeof card === "object") return card; // a face already
  return (ctx.faces && ctx.faces[card]) || null;
}

export function cardWords(ctx, card) {
  return faceWords(faceOf(ctx, card));
}

export function kindOfFace(face) {
  if (!face) return null;
  if (face.nature) return "nature";
  if (face.city || face.animals) return "life";
  if (face.power) return "power";
  return "objective";
}

// -- the cities on the squares, followed through a log ----------------------------------------

// Which city stands on each square, kept up to date event by event, so that a line of the log
// names the city it is about, even one discarded since.
export class Cities {
  constructor(view) {
    this.at = new Map();
    for (const [pos, city] of Object.entries((view && view.cities) || {})) this.at.set(pos, city.card);
  }

  name(ctx, pos) {
    const card = this.at.get(pos);
    return card ? cardWords(ctx, card) : t("city.on", { pos });
  }

  follow(event) {
    if (event.type === "CityPlaced") this.at.set(event.pos, event.card);
    else if (event.type === "TilesSwapped") {
      const first = this.at.get(event.first);
      const second = this.at.get(event.second);
      this.at.delete(event.first);
      this.at.delete(event.second);
      if (first) this.at.set(event.second, first);
      if (second) this.at.set(event.first, second);
    }
  }

  forget(event) {
    if (event.type === "CityDiscarded") this.at.delete(event.pos);
  }
}

// -- actions ----------------------------------------------------------------------------------

const POWER_OF = {
  PlaySun: "sun", PlayRain: "rain", PlayEarthquake: "earthquake", PlayTornado: "tornado",
  PlayLightning: "lightning", PlayEruption: "eruption",
};

export function powerOfAction(action) {
  return POWER_OF[action.type] || null;
}

export function targetWords(action) {
  if (action.type === "PlayEarthquake") return t("squares.pair", { first: action.first, second: action.second });
  return action.pos || "";
}

// What an action did, without its subject: "drew a Nature card", "played Sun on 1,2".
export function actionSummary(ctx, action, cities) {
  const card = action.card ? cardWords(ctx, action.card) : "";
  switch (action.type) {
    case "DrawDeck": return t("summary.draw_deck", { kind: kindWord(action.kind) });
    case "DrawDisplay": return t("summary.draw_display", { card });
    case "PlayNature": case "PlayAnimals": case "PlayCity":
      return t("summary.play", { card, pos: action.pos });
    case "PlayTornado": return t("summary.play_power_alone", { power: card });
    case "PlaySun": case "PlayRain": case "PlayEarthquake": case "PlayLightning": case "PlayEruption":
      return t("summary.play_power", { power: card, target: targetWords(action) });
    case "Discard": return t("summary.discard", { card });
    case "Feed": return t("summary.feed", { city: cities.name(ctx, action.city) });
    case "FulfillObjective": return t("summary.objective", { objective: cardWords(ctx, action.objective) });
    case "DeclineObjectives": return t("summary.decline");
    case "PlaceCityPawn": return t("summary.pawn", { city: cities.name(ctx, action.city) });
    case "Protect": return t("summary.protect");
    case "PassProtection": return t("summary.pass");
    case "NameBack": return t("summary.name_back", { kind: kindWord(action.kind), victim: seatWord(ctx, action.victim) });
    case "KeepCard": return t("summary.keep", { card });
    default: return action.type;
  }
}

// -- the log ----------------------------------------------------------------------------------

// One event as a line of the log: { node, kind } (kind: turn, act, detail, muted, end), or
// null for an event another line already says.
export function eventLine(ctx, event, cities) {
  const seat = (n) => seatChip(ctx, n);
  const card = (c) => cardWords(ctx, c);
  const line = (kind, id, params) => ({ kind, node: tn(id, params) });
  switch (event.type) {
    case "TurnBegan": return line("turn", "log.turn", { seat: seat(event.player) });
    case "ActionTaken": {
      const action = event.action;
      if (action === null) return line("act", "log.hidden_choice", { seat: seat(event.player) });
      switch (action.type) {
        case "Feed":
          return line("act", "log.feed", { seat: seat(event.player), city: cities.name(ctx, action.city), pos: action.source });
        case "PassProtection": return line("act", "log.pass", { seat: seat(event.player) });
        case "DeclineObjectives": return line("act", "log.decline", { seat: seat(event.player) });
        case "NameBack":
          return line("act", "log.name_back", { seat: seat(event.player), kind: kindWord(action.kind), victim: seat(action.victim) });
        case "PlayTornado": return line("act", "log.play_power_alone", { seat: seat(event.player), power: card(action.card) });
        case "PlaySun": case "PlayRain": case "PlayEarthquake": case "PlayLightning": case "PlayEruption":
          return line("act", "log.play_power", { seat: seat(event.player), power: card(action.card), target: targetWords(action) });
        default: return null; // its events say what it did
      }
    }
    case "CardDrawn":
      if (event.from_display) return line("act", "log.draw_display", { seat: seat(event.player), card: card(event.card) });
      if (event.card) return line("act", "log.draw_deck_seen", { seat: seat(event.player), card: card(event.card), kind: kindWord(event.kind) });
      return line("act", "log.draw_deck", { seat: seat(event.player), kind: kindWord(event.kind) });
    case "DisplayRefilled": return line("muted", "log.refill", { card: card(event.card), kind: kindWord(event.kind) });
    case "CardDiscarded": return line("act", "log.discard", { seat: seat(event.player), card: card(event.card) });
    case "NatureCardPlayed": return line("act", "log.nature", { seat: seat(event.player), card: card(event.card) });
    case "TilePlaced": return line("detail", "log.tile", { land: landWord(event.land), pos: event.pos });
    case "AnimalsPlaced":
      return line("act", "log.animals", { seat: seat(event.player), tokens: event.count, pos: event.pos });
    case "TokensReturned": return line("detail", "log.tokens_back", { count: event.count, pos: event.pos });
    case "CityPlaced": return line("act", "log.city_built", { seat: seat(event.player), city: card(event.card), pos: event.pos });
    case "SatisfactionChanged":
      return line("detail", "log.satisfaction", { city: cities.name(ctx, event.pos), before: event.before, after: event.after });
    case "CityDiscarded": return line("detail", "log.city_discarded", { city: card(event.card), pos: event.pos });
    case "PawnPlaced": return line("detail", "log.pawn_placed", { seat: seat(event.player), city: cities.name(ctx, event.pos) });
    case "PawnReturned": return line("detail", "log.pawn_returned", { seat: seat(event.player), city: cities.name(ctx, event.pos) });
    case "ObjectiveFulfilled": return line("act", "log.objective", { seat: seat(event.player), objective: card(event.objective) });
    case "CityTaken":
      return line("detail", "log.city_taken", { seat: seat(event.player), city: cities.name(ctx, event.pos), other: seat(event.from_player) });
    case "PowerPlayed": return null; // the play's own line names it
    case "PowerCancelled":
      return line("act", "log.power_cancelled", { seat: seat(event.player), power: card(event.cancelled) });
    case "TileReplaced":
      return line("detail", "log.tile_replaced", { old: landWord(event.old), new: landWord(event.new), pos: event.pos });
    case "TilesSwapped": return line("detail", "log.tiles_swapped", { first: event.first, second: event.second });
    case "CardStolen":
      if (event.card) return line("detail", "log.stolen_seen", { seat: seat(event.player), card: card(event.card), victim: seat(event.victim) });
      return line("detail", "log.stolen", { seat: seat(event.player), kind: kindWord(event.kind), victim: seat(event.victim) });
    case "StolenCardsSeen":
      if (event.cards && event.cards.length) {
        return line("detail", "log.looks_seen", { seat: seat(event.player), cards: joined(event.cards.map(card)) });
      }
      return line("detail", "log.looks", { seat: seat(event.player) });
    case "CardKept":
      if (event.card) return line("detail", "log.kept_seen", { seat: seat(event.player), card: card(event.card), victim: seat(event.from_player) });
      return line("detail", "log.kept", { seat: seat(event.player), victim: seat(event.from_player) });
    case "GameEnded":
      return line("end", "log.end", { seat: seat(event.result.winner), reason: t(`reason.${event.result.reason}`) });
    default: return null;
  }
}

// -- what a Power would do ----------------------------------------------------------------------

// A Power's effect (presentation.preview_data) as sentences: the cities it destroys with their
// owners and pawns, the tiles it changes, the tokens it sends back, the pawns that move.
export function effectLines(ctx, effect, view) {
  const lines = [];
  const cities = new Cities(view);
  const seat = (n) => seatChip(ctx, n);
  if (effect.action.type === "PlayTornado") {
    if (!effect.victims.length) return [tn("effect.tornado_none")];
    return [tn("effect.tornado", { victims: joined(effect.victims.map((v) => seatWord(ctx, v))) })];
  }
  const events = effect.events;
  const destroyed = new Set(events.filter((e) => e.type === "CityDiscarded").map((e) => e.pos));
  for (const event of events) {
    switch (event.type) {
      case "CityDiscarded": {
        const returned = events.filter((e) => e.type === "PawnReturned" && e.pos === event.pos);
        const owners = [...new Set(returned.map((e) => e.player))];
        const owner = owners.length ? joined(owners.map((o) => seatWord(ctx, o))) : null;
        const params = { city: cardWords(ctx, event.card), pos: event.pos, owner, count: returned.length };
        lines.push(tn(owner === null ? "effect.destroy_empty" : "effect.destroy", params));
        break;
      }
      case "TileReplaced":
        lines.push(tn("effect.replace", { old: landWord(event.old), new: landWord(event.new), pos: event.pos }));
        break;
      case "TilesSwapped": lines.push(tn("effect.swap", { first: event.first, second: event.second })); break;
      case "TokensReturned": lines.push(tn("effect.tokens", { count: event.count, pos: event.pos })); break;
      case "SatisfactionChanged":
        if (!destroyed.has(event.pos)) {
          lines.push(tn("effect.satisfaction", { city: cities.name(ctx, event.pos), before: event.before, after: event.after }));
        }
        break;
      case "PawnReturned":
        if (!destroyed.has(event.pos)) lines.push(tn("effect.pawn_back", { seat: seat(event.player), city: cities.name(ctx, event.pos) }));
        break;
      case "PawnPlaced": lines.push(tn("effect.pawn_placed", { seat: seat(event.player), city: cities.name(ctx, event.pos) })); break;
      case "CityTaken":
        lines.push(tn("effect.taken", { seat: seat(event.player), city: cities.name(ctx, event.pos), other: seat(event.from_player) }));
        break;
      case "GameEnded": lines.push(tn("effect.win", { seat: seat(event.result.winner) })); break;
      default: break;
    }
    cities.follow(event);
  }
  if (!lines.length) lines.push(tn("effect.nothing"));
  return lines;
}

// -- the cards a seat holds, by back ------------------------------------------------------------

export function backsCount(backs) {
  const counts = { nature: 0, life: 0, power: 0 };
  for (const back of backs || []) counts[back] += 1;
  return counts;
}
