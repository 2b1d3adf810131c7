// Runs Pi 1.6.0's own collectCacheMisses (core/cache-stats.js, the detector
// behind showCacheMissNotices) over session files, as Pi's interactive mode
// calls it — SessionManager.open(file).getEntries() and the built-in model
// catalog — and writes every miss it counts, so that
// session/cachemiss/pi_diff_test.go can compare forgebench's detector with
// it break for break, without Node.
//
//   node bench/pi-cache-misses.mjs PI_PACKAGE_DIR [SHARED_DIR] [--generate]
//
// PI_PACKAGE_DIR is the installed @earendil-works/pi-coding-agent (bench/
// installs 1.6.0 under ~/.cache/forgebench-bench/pi-1.6.0/node_modules/…);
// SHARED_DIR (default /work/shared) holds fixtures/. Run it from the
// repository root. --generate first writes
// session/cachemiss/testdata/gen/*.jsonl anew from a fixed seed (the same
// files every time).
//
// Output: session/cachemiss/testdata/pi-misses.json, one case per file:
// {file, root ("repo" or "shared"), v1, misses: [{index, entryId,
// missedTokens, missedCost}]}; index is the position in getEntries() (the
// file's entries without its header); for v1 files, whose ids Pi draws at
// random when it migrates, entryId is null.
import { join, relative } from "node:path";
import { readFileSync, writeFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { loadPi } from "./pi-cache-stats.mjs";

const args = process.argv.slice(2);
const generate = args.includes("--generate");
const [pkg, shared = "/work/shared"] = args.filter((a) => a !== "--generate");
if (!pkg) {
	console.error("usage: node bench/pi-cache-misses.mjs PI_PACKAGE_DIR [SHARED_DIR] [--generate]");
	process.exit(2);
}
const { SessionManager, misses: piMisses } = await loadPi(pkg);

const out = "session/cachemiss/testdata";
const genDir = join(out, "gen");

// mulberry32: a small seeded generator, so --generate is reproducible.
function rng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

// Models the generated sessions use: two priced built-ins, one with a
// different cache-read rate, and one the catalog does not know.
const MODELS = [
	{ provider: "anthropic", model: "claude-sonnet-4-5", rates: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
	{ provider: "anthropic", model: "claude-haiku-4-5", rates: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } },
	{ provider: "openai", model: "gpt-5", rates: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
	{ provider: "local", model: "nobody-knows", rates: { input: 0.5, output: 1, cacheRead: 0.05, cacheWrite: 0.6 } },
];

function generateSession(seed) {
	const r = rng(seed);
	const pick = (xs) => xs[Math.floor(r() * xs.length)];
	const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
	let t = Date.UTC(2026, 10, 20, 9, 0, 0) + seed * 3600_000;
	let n = 0;
	const id = () => (seed * 4096 + ++n).toString(16).padStart(8, "0");
	const lines = [{ type: "session", version: 3, id: `01a2${seed.toString(16).padStart(4, "0")}-0000-7000-8000-000000000000`, timestamp: new Date(t).toISOString(), cwd: "/home/dev/gen" }];
	const byId = [];
	let parent = null;
	let m = pick(MODELS);
	let held = 0; // the prompt the cache holds
	const entry = (e) => {
		const x = { type: e.type, id: id(), parentId: parent, timestamp: new Date(t).toISOString(), ...e };
		lines.push(x);
		byId.push(x.id);
		parent = x.id;
		return x;
	};
	const usage = (input, cacheRead, cacheWrite, output, rates, withCost = true) => {
		const u = { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
		if (r() < 0.15 && cacheWrite > 0) u.cacheWrite1h = cacheWrite;
		if (withCost) {
			const c = {
				input: (input * rates.input) / 1e6,
				output: (output * rates.output) / 1e6,
				cacheRead: (cacheRead * rates.cacheRead) / 1e6,
				cacheWrite: (cacheWrite * rates.cacheWrite * (u.cacheWrite1h ? 1.6 : 1)) / 1e6,
			};
			c.total = c.input + c.output + c.cacheRead + c.cacheWrite;
			u.cost = c;
		}
		return u;
	};
	const steps = int(20, 60);
	entry({ type: "message", message: { role: "user", content: "start", timestamp: t } });
	for (let s = 0; s < steps; s++) {
		t += pick([2_000, 30_000, 90_000, 299_000, 301_000, 600_000, 3_700_000]);
		const k = r();
		if (k < 0.05) {
			entry({ type: "compaction", summary: "s", firstKeptEntryId: byId[Math.max(0, byId.length - 3)], tokensBefore: held });
			held = int(500, 3000);
			continue;
		}
		if (k < 0.08) {
			// Branch: go back a few entries and continue there; now and then
			// with a branch_summary, as /tree does.
			parent = byId[Math.max(0, byId.length - int(2, 8))];
			if (r() < 0.5) entry({ type: "branch_summary", fromId: byId[byId.length - 1], summary: "b" });
			continue;
		}
		if (k < 0.12) {
			m = pick(MODELS);
			entry({ type: "model_change", provider: m.provider, modelId: m.model });
			continue;
		}
		if (k < 0.16) {
			const prompt = held + int(0, 200);
			lines.push({ type: "usage", kind: r() < 0.8 ? "cache_warm" : "other", id: id(), parentId: parent, timestamp: new Date(t).toISOString(),
				provider: m.provider, model: m.model, usage: usage(int(0, 50), prompt, 0, 1, m.rates) });
			continue;
		}
		if (k < 0.22) {
			entry({ type: "message", message: { role: "user", content: "go on", timestamp: t } });
			continue;
		}
		// An assistant answer: the prompt grows; the cache keeps, loses part
		// or all of it, or the provider reports no caching at all.
		const grow = int(0, 3000);
		const prompt = held + grow;
		let read;
		const f = r();
		if (f < 0.55) read = held;
		else if (f < 0.7) read = Math.max(0, held - pick([1023, 1024, 1025, 2000, int(0, held)]));
		else if (f < 0.8) read = 0;
		else read = Math.min(held, int(0, held));
		let write = prompt - read;
		let input = 0;
		if (m.provider === "openai") { input = write; write = 0; }
		else if (r() < 0.3) { input = int(1, Math.max(1, write)); write = Math.max(0, write - input); }
		let u;
		const shape = r();
		if (shape < 0.04) u = usage(0, 0, 0, int(1, 50), m.rates); // nothing sent (aborted)
		else if (shape < 0.1) u = usage(prompt, 0, 0, int(1, 500), m.rates); // no cache figures
		else u = usage(input, read, write, int(1, 500), m.rates);
		entry({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider: m.provider, model: m.model, usage: u, stopReason: "stop", timestamp: t } });
		held = u.input + u.cacheRead + u.cacheWrite > 0 ? prompt : held;
	}
	return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

if (generate) {
	mkdirSync(genDir, { recursive: true });
	for (let seed = 1; seed <= 40; seed++) {
		writeFileSync(join(genDir, `gen-${String(seed).padStart(2, "0")}.jsonl`), generateSession(seed));
	}
}

function walk(dir, acc = []) {
	for (const name of readdirSync(dir).sort()) {
		const p = join(dir, name);
		if (statSync(p).isDirectory()) walk(p, acc);
		else if (name.endsWith(".jsonl")) acc.push(p);
	}
	return acc;
}

const sources = [
	...walk("resources/demo/workspace/home/.pi/agent/sessions").map((p) => ({ root: "repo", abs: p, file: p })),
	...walk(genDir).map((p) => ({ root: "repo", abs: p, file: p })),
	...walk(join(shared, "fixtures")).map((p) => ({ root: "shared", abs: p, file: relative(shared, p) })),
];

const cases = [];
for (const src of sources) {
	const first = readFileSync(src.abs, "utf8").split("\n", 1)[0];
	let v1 = true;
	try {
		const h = JSON.parse(first);
		v1 = !(h && typeof h.version === "number" && h.version >= 2);
	} catch {}
	const sm = SessionManager.open(src.abs);
	const entries = sm.getEntries();
	let misses;
	try {
		misses = piMisses(entries).map(({ index, entry, missedTokens, missedCost }) => ({
			index, entryId: v1 ? null : entry.id, missedTokens, missedCost,
		}));
	} catch (err) {
		cases.push({ file: src.file, root: src.root, v1, error: String(err && err.message) });
		continue;
	}
	cases.push({ file: src.file, root: src.root, v1, entries: entries.length, misses });
}
writeFileSync(join(out, "pi-misses.json"), JSON.stringify({ pi: "1.6.0", cases }, null, 1) + "\n");
console.log(`${cases.length} files, ${cases.reduce((n, c) => n + (c.misses ? c.misses.length : 0), 0)} misses`);
