// The in-browser engine's Web Worker (a module worker): Pyodide, the wheels of gaia-rules and its
// dependencies on its path, and gaia_rules.web.inbrowser.Engine answering the page's requests,
// one at a time, off the page's thread (a bot's search never freezes the page).
//
// Messages in: {type: "start", indexURL, wheels: [url], pyodide, digest} once (``pyodide`` and
// ``digest``: the runtime's version and the wheels' digest, from wheels/index.json), then
// {type: "ask", id, request} (request: the JSON text of {op, ...}) or {type: "time", id,
// request, repeat} (the same request answered ``repeat`` times, for the benchmark). Messages
// out: {type: "ready", timings}, {type: "failed", message}, {type: "answer", id, answer, ms}
// (answer: JSON text), and {type: "kept"} once a snapshot is kept for the next start.
//
// Starting again is quick: the first start keeps, in the browser's Cache Storage, a memory
// snapshot of Python taken once the library is imported (and its data read); a later start of
// the same runtime and wheels restores it, and imports nothing. A snapshot of other wheels or of
// another runtime is never restored (its name holds both, and it says whose it is), and one
// that fails to restore is forgotten and the start goes on from nothing. The start field of the
// timings says which start it was: "snapshot" or "fresh".
"use strict";

const CACHE = "gaia-table-engine";
const WHEELS = "/home/pyodide/wheels";
// A request the first start makes of the library, so that what it reads once (the rules'
// manifests) is in the snapshot too.
const WARM_UP = JSON.stringify({ op: "create", players: 2, seed: 1 });

let engine = null;

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function snapshotKey(indexURL, version, digest) {
  if (!digest || typeof caches === "undefined") return null;
  return new URL(`../snapshot/pyodide-${version}-${digest}.bin`, indexURL).href;
}

// The snapshot kept under ``key``, as a response whose body is still to be read (or null).
async function savedSnapshot(key) {
  try {
    return (await (await caches.open(CACHE)).match(key)) || null;
  } catch {
    return null; // no Cache Storage here (an opaque origin, say): a fresh start
  }
}

// Keep ``snapshot`` under ``key``, and only it: the snapshots of former wheels are dropped.
async function keepSnapshot(key, snapshot) {
  try {
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) if (request.url !== key) await cache.delete(request);
    await cache.put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
    return true;
  } catch {
    return false; // a full or refused storage: the next start is a fresh one
  }
}

async function forgetSnapshot(key) {
  try {
    await (await caches.open(CACHE)).delete(key);
  } catch {
    // nothing kept
  }
}

// The runtime's module made with a memory as large as the snapshot's: a snapshot holds the
// whole memory, larger than a new runtime's once the library is imported, and Pyodide restores
// it into the memory it has.
function sizedFor(reading, createPyodideModule) {
  return async (settings) => {
    const [module, snapshot] = await Promise.all([createPyodideModule(settings), reading]);
    const header = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4);
    const memory = snapshot.length - header[1];
    if (memory > module.HEAP8.length) module._emscripten_resize_heap(memory);
    return module;
  };
}

// The wheels, as files on Python's path: a pure wheel is imported from its zip, unpacked by
// nothing. A restored snapshot has their names on its path already (and the directory of each
// zip read): the files alone are written again, Pyodide's file system not being in a snapshot.
function writeWheels(pyodide, wheels, buffers) {
  pyodide.FS.mkdirTree(WHEELS);
  const paths = wheels.map((url) => `${WHEELS}/${url.split("/").pop()}`);
  paths.forEach((path, i) => pyodide.FS.writeFile(path, buffers[i]));
  return paths;
}

// Python restored from the snapshot ``saved`` (a response), read while the runtime loads.
async function restore(loadPyodide, indexURL, saved, buffers, { wheels, digest }, timings) {
  let t0 = performance.now();
  const reading = saved.arrayBuffer().then((body) => {
    timings.read = performance.now() - t0;
    if (body.byteLength < 64) throw new Error("an empty snapshot");
    return new Uint8Array(body);
  });
  reading.catch(() => {});
  const { default: createPyodideModule } = await import(`${indexURL}pyodide.asm.mjs`);
  const pyodide = await loadPyodide({
    indexURL,
    _loadSnapshot: reading,
    createPyodideModule: sizedFor(reading, createPyodideModule),
  });
  timings.runtime = performance.now() - t0;
  t0 = performance.now();
  writeWheels(pyodide, wheels, await buffers);
  timings.wheels = performance.now() - t0;
  const whose = pyodide.runPython("globals().get('_gaia_digest')");
  if (whose !== digest) throw new Error(`a snapshot of the wheels ${whose}, not ${digest}`);
  return pyodide;
}

async function fresh(loadPyodide, indexURL, buffers, { wheels, digest }, keep, timings) {
  let t0 = performance.now();
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: keep });
  timings.runtime = performance.now() - t0;
  t0 = performance.now();
  const paths = writeWheels(pyodide, wheels, await buffers);
  timings.wheels = performance.now() - t0;
  t0 = performance.now();
  pyodide.runPython(
    [
      "import sys",
      `sys.path[0:0] = ${JSON.stringify(paths)}`,
      "import gaia_rules.web.inbrowser as _inbrowser",
      `_inbrowser.Engine().handle(${JSON.stringify(WARM_UP)})`,
      `_gaia_digest = ${JSON.stringify(digest)}`,
    ].join("\n"),
  );
  timings.imports = performance.now() - t0;
  let snapshot = null;
  if (keep) {
    t0 = performance.now();
    try {
      snapshot = pyodide.makeMemorySnapshot();
    } catch (error) {
      timings.fallback = `no snapshot made: ${error}`;
    }
    timings.snapshot = performance.now() - t0;
  }
  return { pyodide, snapshot };
}

async function start({ indexURL, wheels, pyodide: version = null, digest = null }) {
  const timings = {};
  // the wheels come while the runtime starts
  const buffers = Promise.all(wheels.map(bytes));
  buffers.catch(() => {});
  const key = snapshotKey(indexURL, version, digest);
  const [{ loadPyodide }, saved] = await Promise.all([
    import(`${indexURL}pyodide.mjs`),
    key ? savedSnapshot(key) : null,
  ]);
  let pyodide = null;
  let snapshot = null;
  if (saved) {
    try {
      pyodide = await restore(loadPyodide, indexURL, saved, buffers, { wheels, digest }, timings);
      timings.start = "snapshot";
    } catch (error) {
      timings.fallback = `the snapshot kept was not restored: ${error && error.message ? error.message : error}`;
      pyodide = null;
      await forgetSnapshot(key);
    }
  }
  if (pyodide === null) {
    ({ pyodide, snapshot } = await fresh(loadPyodide, indexURL, buffers, { wheels, digest }, key !== null, timings));
    timings.start = "fresh";
  }
  pyodide.runPython("import gaia_rules.web.inbrowser as _inbrowser\n_engine = _inbrowser.Engine()");
  engine = pyodide.globals.get("_engine");
  timings.python = pyodide.runPython("import sys; sys.version.split()[0]");
  return { timings, keep: snapshot ? () => keepSnapshot(key, snapshot) : null };
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "start") {
    let started = null;
    try {
      started = await start(message);
    } catch (error) {
      self.postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
      return;
    }
    self.postMessage({ type: "ready", timings: started.timings });
    if (started.keep && (await started.keep())) self.postMessage({ type: "kept" }); // after the page has its engine
    return;
  }
  if (engine === null) {
    const answer = JSON.stringify({ error: { status: 503, kind: "loading", message: "the engine is not ready" } });
    self.postMessage({ type: "answer", id: message.id, answer, ms: 0 });
    return;
  }
  const repeat = message.type === "time" ? message.repeat : 1;
  const t0 = performance.now();
  let answer = null;
  try {
    for (let i = 0; i < repeat; i++) answer = engine.handle(message.request);
  } catch (error) {
    answer = JSON.stringify({ error: { status: 500, kind: "engine", message: String(error) } });
  }
  self.postMessage({ type: "answer", id: message.id, answer, ms: performance.now() - t0 });
};
