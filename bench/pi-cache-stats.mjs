// Pi 1.6.0's cache-miss detector as its interactive mode runs it, for the
// scripts that compare forgebench with it (pi-cache-misses.mjs,
// pi-cache-project.mjs): SessionManager.open(file).getEntries() and
// collectCacheMisses (core/cache-stats.js, behind showCacheMissNotices)
// with the built-in model catalog.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { existsSync } from "node:fs";

// loadPi imports the modules of the installed package at pkg
// (@earendil-works/pi-coding-agent) and returns { SessionManager, misses },
// where misses(entries) lists Pi's misses of a session's entries as
// { index, entry, missedTokens, missedCost } in entry order (index is the
// position in getEntries(): the file's entries without its header). It
// throws where Pi's detector throws.
export async function loadPi(pkg) {
	const load = (dir, file) => import(pathToFileURL(join(dir, file)).href);
	const { SessionManager } = await load(pkg, "dist/core/session-manager.js");
	const { collectCacheMisses } = await load(pkg, "dist/core/cache-stats.js");
	const aiDir = join(pkg, "node_modules/@earendil-works/pi-ai");
	const { getBuiltinModel } = await load(existsSync(aiDir) ? aiDir : join(pkg, "../pi-ai"), "dist/providers/all.js");
	const models = { getModel: (provider, id) => getBuiltinModel(provider, id) };
	const misses = (entries) => {
		const found = collectCacheMisses(entries, models);
		const out = [];
		entries.forEach((entry, index) => {
			const miss = entry.type === "message" && found.get(entry.message);
			if (miss) out.push({ index, entry, missedTokens: miss.missedTokens, missedCost: miss.missedCost });
		});
		return out;
	};
	return { SessionManager, misses };
}
