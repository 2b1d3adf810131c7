// Times Pi's own SessionManager.open + buildSessionContext on a session
// file, in-process (Node start-up and module loading excluded), and prints
// the milliseconds and the number of context messages.
//
//   node bench/pi-open.mjs PI_PACKAGE_DIR SESSION.jsonl
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [pkg, file] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(join(pkg, "dist/core/session-manager.js")).href);
const start = performance.now();
const sm = SessionManager.open(file);
const ctx = sm.buildSessionContext();
const ms = performance.now() - start;
console.log(`${ms.toFixed(1)} ${ctx.messages.length}`);
