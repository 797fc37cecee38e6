// Runs part of the test suite under Pyodide in node (scripts/pyodide_suite.py prepares it):
// node scripts/pyodide_suite.mjs <pyodide folder> <wheels folder> <repository> <pytest args...>
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelsDir, repo, ...args] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const started = performance.now();
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
for (const name of readdirSync(wheelsDir).filter((n) => n.endsWith(".whl")).sort()) {
  const bytes = readFileSync(join(wheelsDir, name));
  pyodide.unpackArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), "wheel", { extractDir: sitePackages });
}
pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.globals.set("pytest_args", pyodide.toPy(args));
console.log(`Pyodide ${pyodide.version} ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const code = await pyodide.runPythonAsync(`
import os, sys
os.chdir("/repo")
sys.path.insert(0, "/repo")
sys.dont_write_bytecode = True
print("Python", sys.version.split()[0], sys.platform)
import pytest
pytest.main(["-p", "no:cacheprovider", "--noconftest", "-o", "addopts=", "-q", *pytest_args])
`);
process.exit(Number(code));
