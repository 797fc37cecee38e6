// The page's own addresses: a server's paths by default ("/replay/GAME#TOKEN"); a page with
// no server (the static table of the docs site) sets its own with ``usePages``, since a
// static host has one file where a server has a route.
"use strict";

let pages = {
  replayGame: (game, token) => `/replay/${game}#${token}`,
  replayRecord: (name) => `/replay#record=${name}`,
};

export function usePages(chosen) {
  pages = { ...pages, ...chosen };
}

export function replayGameUrl(game, token) {
  return pages.replayGame(game, token);
}

export function replayRecordUrl(name) {
  return pages.replayRecord(name);
}
