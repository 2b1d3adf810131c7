// Runs Pi 1.6.0's own SessionManager.createBranchedSession over session
// files at several leaves and writes what Pi would put in the new file,
// so that session/fork_diff_test.go can compare forgebench's fork with it
// entry for entry, without Node.
//
//   node bench/pi-fork.mjs PI_PACKAGE_DIR [SHARED_DIR] [--generate]
//
// PI_PACKAGE_DIR is the installed @earendil-works/pi-coding-agent (bench/
// installs 1.6.0 under ~/.cache/forgebench-bench/pi-1.6.0/node_modules/…);
// SHARED_DIR (default /work/shared) holds fixtures/pi-sessions. Run it from
// the repository root. --generate first writes session/testdata/fork/
// sources/gen-*.jsonl anew through Pi's own append API (random ids: only
// when the sources should change).
//
// Output: session/testdata/fork/cases.json and expected/<case>.jsonl. In
// the expected files a line longer than 2 KiB is stored as {sha256, bytes}
// of itself; the new header's id, timestamp and parentSession and
// the ids of re-written label entries are replaced by placeholders (they
// are fresh on every fork); for v1 sources, whose ids Pi draws at random
// when it migrates, every entry id is replaced by its position.
import { pathToFileURL } from "node:url";
import { join, basename, resolve } from "node:path";
import { mkdtempSync, copyFileSync, readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createHash } from "node:crypto";

const args = process.argv.slice(2);
const generate = args.includes("--generate");
const [pkg, shared = "/work/shared"] = args.filter((a) => a !== "--generate");
if (!pkg) {
	console.error("usage: node bench/pi-fork.mjs PI_PACKAGE_DIR [SHARED_DIR] [--generate]");
	process.exit(2);
}
const { SessionManager } = await import(pathToFileURL(join(resolve(pkg), "dist/core/session-manager.js")).href);
const repo = process.cwd();
const out = join(repo, "session/testdata/fork");
const sourcesDir = join(out, "sources");
// Relative header cwds (the demo's placeholders) resolve against Pi's
// process directory; the Go test passes the same one.
const processCwd = "/";
// Lines longer than this are stored as {sha256, bytes}.
const hashAbove = 2048;

if (generate) generateSources();

const sources = [];
const demoDir = "resources/demo/workspace/home/.pi/agent/sessions/@@DEMO_SESSION_DIR@@";
for (const f of readdirSync(join(repo, demoDir)).filter((f) => f.endsWith(".jsonl")).sort()) {
	sources.push({ name: "demo-" + f.slice(0, 10) + "-" + f.slice(-13, -6), ref: "repo:" + demoDir + "/" + f });
}
for (const f of readdirSync(sourcesDir).filter((f) => f.endsWith(".jsonl")).sort()) {
	sources.push({ name: f.replace(/\.jsonl$/, ""), ref: "repo:session/testdata/fork/sources/" + f, every: true });
}
const gen = "fixtures/pi-sessions/generated-pi-1.6.0/agent/sessions/--home-dev-projects-demo-app--/";
sources.push({ name: "fixture-main", ref: "shared:" + gen + "2026-11-29T22-47-39-368Z_01a2297e-1867-72d0-99d9-f9f8b12b74b4.jsonl", every: true });
sources.push({ name: "fixture-fork", ref: "shared:" + gen + "2026-11-29T22-47-39-378Z_01a2297e-1872-72d0-99d9-f9fb033ed71b.jsonl", every: true });
sources.push({ name: "fixture-v1-before-compaction", ref: "shared:fixtures/pi-sessions/upstream/pi-mono/before-compaction.jsonl" });
sources.push({ name: "fixture-v1-replay", ref: "shared:fixtures/pi-sessions/upstream/earendil-pi/prompt-cache-replay-session.jsonl", every: true });

rmSync(join(out, "expected"), { recursive: true, force: true });
mkdirSync(join(out, "expected"), { recursive: true });
const cases = [];
for (const src of sources) {
	const file = src.ref.startsWith("repo:") ? join(repo, src.ref.slice(5)) : join(shared, src.ref.slice(7));
	const text = readFileSync(file, "utf8");
	const lines = validLines(text);
	const v1 = !("version" in JSON.parse(text.split("\n")[lines[0] - 1])) || JSON.parse(text.split("\n")[lines[0] - 1]).version < 2;
	for (const leafLine of pickLeaves(file, lines, src.every)) {
		const { entries, leafId, written } = forkAt(file, lines, leafLine);
		const name = `${src.name}.L${leafLine}`;
		const expected = normalize(entries, v1);
		writeFileSync(join(out, "expected", name + ".jsonl"), expected.map((e) => stored(JSON.stringify(e)) + "\n").join(""));
		cases.push({ name, source: src.ref, leafLine, leafId: v1 ? undefined : leafId, v1, piWritesAtOnce: written, expected: "expected/" + name + ".jsonl" });
	}
}
writeFileSync(join(out, "cases.json"), JSON.stringify({ generatedBy: "bench/pi-fork.mjs with @earendil-works/pi-coding-agent " + piVersion(), processCwd, cases }, null, 1) + "\n");
console.log(`${cases.length} forks from ${sources.length} sessions`);

// validLines returns the 1-based line numbers Pi keeps as entries
// (loadEntriesFromFile: blank and malformed lines skipped, falsy values too).
function validLines(text) {
	const keep = [];
	text.split("\n").forEach((line, i) => {
		if (!line.trim()) return;
		try {
			if (JSON.parse(line)) keep.push(i + 1);
		} catch {}
	});
	return keep;
}

// pickLeaves chooses the entries to fork from: every entry (small
// sessions), else the first, the last, every tree leaf, compaction and
// labelled entry, sampled down to about a dozen.
function pickLeaves(file, lines, every) {
	const sm = open(file).sm;
	const fe = sm.fileEntries;
	const at = (k) => lines[k];
	const ids = [];
	for (let k = 1; k < fe.length; k++) if (fe[k].type !== "session" && fe[k].id) ids.push(k);
	if (every || ids.length <= 40) return ids.map(at);
	const parents = new Set(fe.map((e) => e.parentId));
	const labelled = new Set(fe.filter((e) => e.type === "label").map((e) => e.targetId));
	let pick = ids.filter((k) => k === ids[0] || k === ids[ids.length - 1] || !parents.has(fe[k].id) || fe[k].type === "compaction" || fe[k].type === "label" || labelled.has(fe[k].id));
	if (pick.length > 12) {
		const step = pick.length / 12;
		pick = Array.from({ length: 12 }, (_, i) => pick[Math.floor(i * step)]).concat(ids[ids.length - 1]);
	}
	return [...new Set(pick)].map(at);
}

// open copies the source into a fresh directory (Pi rewrites a v1 file it
// migrates, and the fork lands next to the source) and opens it there.
function open(file) {
	const dir = mkdtempSync(join(tmpdir(), "pi-fork-"));
	const copy = join(dir, basename(file));
	copyFileSync(file, copy);
	const cwd = process.cwd();
	process.chdir(processCwd);
	try {
		return { sm: SessionManager.open(copy), dir, copy };
	} finally {
		process.chdir(cwd);
	}
}

function forkAt(file, lines, leafLine) {
	const { sm, dir, copy } = open(file);
	try {
		const k = lines.indexOf(leafLine);
		const leafId = sm.fileEntries[k].id;
		const newFile = sm.createBranchedSession(leafId);
		const entries = structuredClone(sm.fileEntries);
		if (entries[0].parentSession !== copy) throw new Error(`parentSession ${entries[0].parentSession}, want ${copy}`);
		let written = false;
		try {
			written = readFileSync(newFile, "utf8") === entries.map((e) => JSON.stringify(e) + "\n").join("");
		} catch {}
		return { entries, leafId, written };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// stored keeps a long line as its SHA-256 and length, so the expected
// files stay small; the Go test hashes its own line to compare.
function stored(line) {
	if (Buffer.byteLength(line) <= hashAbove) return line;
	return JSON.stringify({ sha256: createHash("sha256").update(line).digest("hex"), bytes: Buffer.byteLength(line) });
}

// normalize replaces what differs on every fork with placeholders.
function normalize(entries, v1) {
	const [header, ...rest] = entries;
	const h = { ...header, id: "<new-session-id>", timestamp: "<now>", parentSession: "<source>" };
	const ids = new Map();
	let labels = 0;
	rest.forEach((e, i) => {
		if (e.type === "label") ids.set(e.id, `<label-${++labels}>`);
		else if (v1) ids.set(e.id, `<entry-${i + 1}>`);
	});
	const swap = (v) => (typeof v === "string" && ids.has(v) ? ids.get(v) : v);
	return [h, ...rest.map((e) => {
		const o = { ...e, id: swap(e.id), parentId: swap(e.parentId) };
		if (e.type === "compaction" && "firstKeptEntryId" in e) o.firstKeptEntryId = swap(e.firstKeptEntryId);
		if (e.type === "label") o.targetId = swap(e.targetId);
		return o;
	})];
}

function piVersion() {
	return JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
}

// generateSources writes sessions with labels, branches and compactions
// through Pi's own append API.
function generateSources() {
	const dir = mkdtempSync(join(tmpdir(), "pi-fork-gen-"));
	const user = (text) => ({ role: "user", content: [{ type: "text", text }], timestamp: Date.now() });
	const assistant = (text) => ({
		role: "assistant", content: [{ type: "text", text }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5",
		usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { input: 0.0003, output: 0.0003, cacheRead: 0, cacheWrite: 0, total: 0.0006 } },
		stopReason: "stop", timestamp: Date.now(),
	});
	const sm = SessionManager.create("/home/dev/projects/demo-app", dir);
	sm.appendModelChange("anthropic", "claude-sonnet-4-5");
	sm.appendThinkingLevelChange("medium");
	const u1 = sm.appendMessage(user("Add a retry to the fetch helper."));
	sm.appendLabelChange(u1, "task");
	const a1 = sm.appendMessage(assistant("I will wrap fetch in a loop with backoff."));
	const l2 = sm.appendLabelChange(a1, "plan");
	sm.appendMessage(user("Use three attempts."));
	sm.appendMessage(assistant("Done: three attempts, 200 ms apart."));
	sm.appendLabelChange(u1, "");
	sm.appendLabelChange(u1, "task (again)");
	sm.appendCompaction("Retry added with three attempts.", l2, 5000, { readFiles: ["fetch.ts"], modifiedFiles: ["fetch.ts"] });
	const u3 = sm.appendMessage(user("Now log each failure."));
	sm.appendMessage(assistant("Each failure is logged with its attempt number."));
	sm.appendSessionInfo("retry helper");
	sm.branch(a1);
	sm.appendMessage(user("Actually use exponential backoff."));
	const a4 = sm.appendMessage(assistant("Backoff doubles from 100 ms."));
	sm.appendLabelChange(a4, "alt");
	sm.appendLabelChange(u3, "log");
	sm.branchWithSummary(u3, "Tried exponential backoff, went back.");
	sm.appendMessage(user("Keep the fixed delay."));
	sm.appendCompaction("Everything so far.", sm.getLeafId(), 9000);
	sm.appendMessage(assistant("Kept."));
	const src = sm.getSessionFile();
	copyFileSync(src, join(sourcesDir, "gen-labels-compactions.jsonl"));
	rmSync(dir, { recursive: true, force: true });
}
