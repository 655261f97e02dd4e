// Records which files each case's tsconfig `extends` reaches, as typescript (the pinned
// version) reads them: getParsedCommandLineOfConfigFile over a scratch copy of the case, with
// the node_modules links the case's package manager creates (`links`, checked by running the
// manager named in `links_by`). Writes recorded.json; tests/project/test_extends_oracle.py
// replays it without the links (tsograph infers them from the workspace).
const fs = require("fs");
const os = require("os");
const path = require("path");
const ts = require("typescript");

const cases = JSON.parse(fs.readFileSync(path.join(__dirname, "cases.json"), "utf8"));
const recorded = { typescript: ts.version, cases: {} };
for (const [name, spec] of Object.entries(cases)) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "extends-"));
  for (const [file, text] of Object.entries(spec.files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  for (const [link, target] of Object.entries(spec.links)) {
    fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
    fs.symlinkSync(target, path.join(root, link));
  }
  const real = fs.realpathSync(root);
  recorded.cases[name] = {};
  for (const config of spec.configs) {
    const errors = [];
    const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => errors.push(d) };
    const parsed = ts.getParsedCommandLineOfConfigFile(path.join(real, config), {}, host);
    const extended = (parsed.options.configFile.extendedSourceFiles || []).map((file) =>
      path.relative(real, fs.realpathSync(file)).split(path.sep).join("/"),
    );
    const messages = [...errors, ...parsed.errors]
      .filter((d) => d.code !== 18003) // "no inputs": the cases hold configs only
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
    recorded.cases[name][config] = { extended, errors: messages };
  }
  fs.rmSync(root, { recursive: true, force: true });
}
fs.writeFileSync(path.join(__dirname, "recorded.json"), JSON.stringify(recorded, null, 2) + "\n");
