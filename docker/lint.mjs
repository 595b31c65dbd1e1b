// Checks Dockerfiles with dockerfile-utils (the instructions, their flags and arguments) and
// fails on any finding, a warning included: the tool's own command fails on errors only.
//   node lint.mjs FILE...
import { readFileSync } from "node:fs";
import dockerfileUtils from "dockerfile-utils";

const ERROR = 1; // the Language Server Protocol's DiagnosticSeverity.Error

let findings = 0;
for (const file of process.argv.slice(2)) {
  for (const diagnostic of dockerfileUtils.validate(readFileSync(file, "utf8"))) {
    const kind = diagnostic.severity === ERROR ? "error" : "warning";
    const line = diagnostic.range.start.line + 1;
    console.error(`${file}:${line}: ${kind}: ${diagnostic.message}`);
    findings += 1;
  }
}
if (findings > 0) {
  process.exit(1);
}
console.log(`dockerfile-utils: no finding in ${process.argv.slice(2).join(", ")}`);
