// The in-browser engine's Web Worker (a module worker): Pyodide, the wheels of gaia-rules and its dependencies
// unpacked into it, and gaia_rules.web.inbrowser.Engine answering the page's requests, one at a
// time, off the page's thread (a bot's search never freezes the page).
//
// Messages in: {type: "start", indexURL, wheels: [url]} once, then {type: "ask", id, request}
// (request: the JSON text of {op, ...}) or {type: "time", id, request, repeat} (the same request
// answered ``repeat`` times, for the benchmark). Messages out: {type: "ready", timings},
// {type: "failed", message}, {type: "answer", id, answer, ms} (answer: JSON text).
"use strict";

let engine = null;

async function start({ indexURL, wheels }) {
  const timings = {};
  let t0 = performance.now();
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL, fullStdLib: false });
  timings.runtime = performance.now() - t0;
  t0 = performance.now();
  const buffers = await Promise.all(
    wheels.map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response.arrayBuffer();
    }),
  );
  // into site-packages (by default a wheel is unpacked into the working folder)
  const extractDir = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const buffer of buffers) pyodide.unpackArchive(buffer, "wheel", { extractDir });
  timings.wheels = performance.now() - t0;
  t0 = performance.now();
  pyodide.runPython("import gaia_rules.web.inbrowser as _inbrowser\n_engine = _inbrowser.Engine()");
  engine = pyodide.globals.get("_engine");
  timings.imports = performance.now() - t0;
  timings.python = pyodide.runPython("import sys; sys.version.split()[0]");
  return timings;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === "start") {
    try {
      const timings = await start(message);
      self.postMessage({ type: "ready", timings });
    } catch (error) {
      self.postMessage({ type: "failed", message: String(error && error.message ? error.message : error) });
    }
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
