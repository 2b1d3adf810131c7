// Compares `forgebench cache report --json` over a project with Pi 1.6.0's
// own collectCacheMisses (core/cache-stats.js, behind showCacheMissNotices)
// run on every session of the project's directory, as Pi's interactive
// mode calls it: SessionManager.open(file).getEntries() and the built-in
// model catalog. A break is the same when it is at the same entry of the
// same file with the same missedTokens and missedCost.
//
//   node bench/pi-cache-project.mjs PI_PACKAGE_DIR SESSION_DIR REPORT.json
//
// prints "pi N forgebench M differing K" (K: breaks only one side has, or
// with other figures) and the first few differences; exits 1 when K > 0.
import { join } from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { loadPi } from "./pi-cache-stats.mjs";

const [pkg, dir, reportFile] = process.argv.slice(2);
if (!reportFile) {
	console.error("usage: node bench/pi-cache-project.mjs PI_PACKAGE_DIR SESSION_DIR REPORT.json");
	process.exit(2);
}
const { SessionManager, misses } = await loadPi(pkg);

const key = (file, id) => `${file}#${id}`;
const pi = new Map();
for (const name of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
	const file = join(dir, name);
	for (const m of misses(SessionManager.open(file).getEntries())) pi.set(key(file, m.entry.id), [m.missedTokens, m.missedCost]);
}
const report = JSON.parse(readFileSync(reportFile, "utf8"));
const fb = new Map(report.breaks.map((b) => [key(b.file, b.entryId), [b.missedTokens, b.missedCostUSD]]));
const differing = [];
for (const [k, [tokens, cost]] of pi) {
	const got = fb.get(k);
	// forgebench writes null for a cost it cannot price; Pi then prices at 0.
	if (!got || got[0] !== tokens || (got[1] !== cost && !(got[1] === null && cost === 0))) differing.push(`pi ${k} ${tokens} ${cost} · forgebench ${got}`);
}
for (const k of fb.keys()) if (!pi.has(k)) differing.push(`forgebench only ${k}`);
console.log(`pi ${pi.size} forgebench ${fb.size} differing ${differing.length}`);
for (const d of differing.slice(0, 5)) console.log("  " + d);
process.exit(differing.length > 0 ? 1 : 0);
