// Builds dist/: one bundled ESM file per CLI entry point, so `leopold` and the hooks start
// without resolving node_modules at run time, and the workflow runtime that `leopold
// compile` embeds in every emitted script. Output is deterministic (no timestamps).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Paths in esbuild's output comments are relative to this; pin it so the bytes never
// depend on where the checkout lives or where the build was started.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What every bundle shares: pinned paths, no source maps or legal comments, quiet. */
const COMMON = { absWorkingDir: root, bundle: true, sourcemap: false, legalComments: 'none', logLevel: 'warning' };
/**
 * Names the charter-rule lifter: its source and the Markdown parser's versions. The decision
 * writer reuses a lift of CHARTER.md only if the same lifter made it
 * (runtime/persona/charter-rules-cache.ts).
 */
const CHARTER_LIFTER = createHash('sha256')
  .update(readFileSync(resolve(root, 'runtime/persona/charter-rules.ts')))
  .update(readFileSync(resolve(root, 'runtime/plan/parse/markdown.ts')))
  .update(
    ['remark-parse', 'unified', 'micromark-extension-gfm-footnote', 'micromark-extension-gfm-table', 'micromark-extension-gfm-task-list-item', 'mdast-util-gfm-footnote', 'mdast-util-gfm-table', 'mdast-util-gfm-task-list-item']
      .map((name) => `${name}@${JSON.parse(readFileSync(resolve(root, 'node_modules', name, 'package.json'), 'utf8')).version}`)
      .join(' '),
  )
  .digest('hex')
  .slice(0, 16);
/** Code that runs in node: the CLI, the hooks, and the build-time schema module. */
const NODE = { ...COMMON, platform: 'node', format: 'esm', target: 'node20', define: { LEOPOLD_CHARTER_LIFTER: JSON.stringify(CHARTER_LIFTER) } };

const SHEBANG = '#!/usr/bin/env node';
/** The sha256 of the runtime bundle that passed the host-contract check (compiler/cli/compile-inputs.ts reads it). */
const RUNTIME_BUNDLE_HASH = 'dist/workflow-runtime.js.sha256';
// Bundled CommonJS dependencies (graphlib) may call require(); give ESM one.
const SHEBANG_WITH_REQUIRE = `${SHEBANG}\nimport { createRequire as __leopoldCreateRequire } from 'node:module';\nconst require = __leopoldCreateRequire(import.meta.url);`;

/**
 * zod re-exports every locale (`z.locales`, about 250 KB of the CLI) though only English is
 * used, and schemas.js imports that one directly. Leave the locale index out of the bundles:
 * nothing here calls `z.locales`.
 */
const zodWithoutLocales = {
  name: 'zod-without-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'/node_modules/zod/'}`) ? { path: 'zod-locales', namespace: 'leopold-empty' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'leopold-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/** Imports a TypeScript module of ours at build time: bundled for node in memory. */
async function importModule(entry) {
  const bundled = await build({ ...NODE, entryPoints: [entry], write: false });
  return import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
}

/**
 * The record schemas (runtime/decisions/record-schemas.ts) as data: `leopold record` checks
 * its input against them and the Stop hook makes its templates from them, on every call,
 * so the bundles carry the JSON Schemas the zod schemas give, computed once here, and never
 * zod itself. Run from source, the module computes them.
 */
const { recordSchemas } = await importModule('runtime/decisions/record-schemas.ts');
const RECORD_SCHEMAS_MODULE = resolve(root, 'runtime/decisions/record-schemas.ts');
const recordSchemasAsData = {
  name: 'record-schemas-as-data',
  setup(b) {
    b.onLoad({ filter: /record-schemas\.ts$/ }, (args) =>
      args.path === RECORD_SCHEMAS_MODULE ? { contents: `export function recordSchemas() { return ${JSON.stringify(recordSchemas())}; }`, loader: 'js' } : undefined,
    );
  },
};
/** The plugins every node bundle of ours takes. */
const NODE_PLUGINS = [zodWithoutLocales, recordSchemasAsData];

/** One executable node bundle (`node dist/…` or the `leopold` bin), made runnable. */
async function buildExecutable(entry, outfile, { banner, minify }) {
  await build({ ...NODE, entryPoints: [entry], outfile, minify, banner: { js: banner }, plugins: NODE_PLUGINS });
  chmodSync(resolve(root, outfile), 0o755);
}

// Less for Node to parse at every start: fully minified (the CLI's chunks a cold compile
// loads went from 0.67 MB to 0.49 MB, and its cold start down by about a tenth), with
// keepNames so every function and class keeps its `name`, which V8 prints in a stack: an
// internal error's stack still names the functions it went through.
const MINIFY_KEEPING_NAMES = { minify: true, keepNames: true };

// The CLI: bin.ts plus one chunk per command (main.ts imports each command when the
// command line names it), so `leopold record` and `leopold plan tick`, which scribes run on
// every write, load the decision writer or the plan parser and not the whole compiler.
// Chunks sit flat beside leopold.js (dist/leopold-<name>-<hash>.js) so `import.meta.url`
// finds dist/workflow-runtime.js from any of them; chunks of earlier builds are removed.
// Content hashes keep the names stable, so rebuilding unchanged sources rewrites the same files.
const cli = await build({
  ...NODE,
  entryPoints: [{ in: 'compiler/cli/bin.ts', out: 'leopold' }],
  outdir: 'dist',
  splitting: true,
  chunkNames: 'leopold-[name]-[hash]',
  ...MINIFY_KEEPING_NAMES,
  banner: { js: SHEBANG_WITH_REQUIRE },
  plugins: NODE_PLUGINS,
  metafile: true,
});
chmodSync(resolve(root, 'dist/leopold.js'), 0o755);

/** The npm packages an output file holds, by the paths of the inputs esbuild put in it. */
function packagesIn(output) {
  return new Set(Object.keys(output.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []));
}

/** The npm packages loaded with the chunk built from `source` (its static imports, transitively). */
function packagesLoadedWith(metafile, source) {
  const [start] = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === source) ?? [];
  if (!start) throw new Error(`no chunk of the CLI is built from ${source}`);
  const packages = new Set();
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path) || !metafile.outputs[path]) return;
    seen.add(path);
    for (const name of packagesIn(metafile.outputs[path])) packages.add(name);
    for (const imported of metafile.outputs[path].imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(start);
  return packages;
}
// What the scribes' commands must not load on their cold start (bench/cold-start.bench.ts):
// neither of them the Markdown parser (plan tick loads it only when PLAN.md's parse is not
// cached: runtime/plan/items-cache.ts), zod or commander. Nor does compile load a
// JavaScript parser: the runtime bundle and the script template are checked in full below,
// once, and compile checks only the head each plan puts into the script
// (compiler/emit/check/script-head.ts). An import that pulls one in fails the build here
// instead of slowing every scribe write, or every compile, unnoticed.
for (const [source, banned] of [
  ['compiler/cli/bin.ts', ['zod', 'commander', 'unified', 'ajv', 'acorn']],
  ['compiler/cli/commands/record.ts', ['zod', 'commander', 'unified', 'remark-parse', 'ajv', 'acorn']],
  ['compiler/cli/commands/plan.ts', ['zod', 'commander', 'unified', 'remark-parse', 'ajv', 'acorn']],
  ['compiler/cli/commands/compile.ts', ['commander', 'ajv', 'acorn']],
]) {
  const packages = packagesLoadedWith(cli.metafile, source);
  const loaded = banned.filter((name) => packages.has(name));
  if (loaded.length > 0) throw new Error(`${source} loads ${loaded.join(', ')} on its cold start (see scripts/build.mjs)`);
}
// GUARDRAILS.md's reader runs in the Stop hook on every turn: no package at all (zod, remark),
// only our own modules and node's built-ins (runtime/guardrails/index.ts).
{
  const probe = await build({ ...NODE, entryPoints: ['runtime/guardrails/index.ts'], write: false, metafile: true, logLevel: 'silent' });
  const held = [...Object.values(probe.metafile.outputs).flatMap((output) => [...packagesIn(output)])];
  if (held.length > 0) throw new Error(`runtime/guardrails loads ${[...new Set(held)].join(', ')}; the Stop hook reads GUARDRAILS.md on every turn (see scripts/build.mjs)`);
}
const cliFiles = new Set(Object.keys(cli.metafile.outputs).map((path) => path.replace(/^dist\//, '')));
for (const name of readdirSync(resolve(root, 'dist'))) {
  if (/^leopold-.*\.js$/.test(name) && !cliFiles.has(name)) rmSync(resolve(root, 'dist', name), { force: true });
}

// The PreToolUse guard as its own small bundle: `leopold init` registers it as
// `node dist/hooks/guard.js` (never through npx) because it runs before every tool call.
// It imports only node built-ins; minified so Node parses as little as possible at start.
await buildExecutable('runtime/hooks/guard/main.ts', 'dist/hooks/guard.js', { banner: SHEBANG, minify: true });

// The Stop hook as its own bundle: `leopold init` registers it as `node dist/hooks/stop.js`.
// It runs once per turn, so it leaves out commander and everything compile-only; it does
// load zod (state.json) and the runtime modules it shares with the workflow, and holds
// remark, run only for a PLAN.md that is neither its kept parse nor a plain plan
// (runtime/plan/parse/plain.ts) and for CHARTER.md at a persona fork. Bundled graphlib-free CommonJS may still call
// require(), hence the same banner as the CLI.
await buildExecutable('runtime/hooks/stop/main.ts', 'dist/hooks/stop.js', { banner: SHEBANG_WITH_REQUIRE, minify: true });

// The StopFailure hook as its own bundle (`node dist/hooks/stop-failure.js`): it runs only
// when a turn dies on an API error, and ends the session run with `api_error`. No commander.
await buildExecutable('runtime/hooks/stop-failure/main.ts', 'dist/hooks/stop-failure.js', { banner: SHEBANG_WITH_REQUIRE, minify: true });

// The workflow runtime, bundled ONCE here: templates/workflow/entry.ts + runtime/workflow as
// one IIFE assigning `leopoldWorkflow`. `leopold compile` reads it from beside dist/leopold.js
// and embeds it after the plan; it must meet docs/host-contract.md (no imports, no node
// globals), which is checked below, once. Not minified, so the emitted script stays reviewable.
// The agent JSON Schemas are generated from their zod schemas here, at build time: bundle
// runtime/workflow/agent-schemas.ts for node, import it, and hand the plain objects to the
// runtime bundle through `define`. zod itself never reaches the emitted script.
const { agentJsonSchemas } = await importModule('runtime/workflow/agent-schemas.ts');

await build({
  ...COMMON,
  entryPoints: ['templates/workflow/entry.ts'],
  define: { LEOPOLD_AGENT_SCHEMAS: JSON.stringify(agentJsonSchemas()) },
  outfile: 'dist/workflow-runtime.js',
  platform: 'neutral',
  format: 'iife',
  globalName: 'leopoldWorkflow',
  target: 'es2022',
  minify: false,
  charset: 'ascii',
});

// The bundle and the script template around it against the host contract, checked here once
// instead of on every compile, in scripts emitted for probe plans full of hostile strings
// (compiler/emit/runtime-bundle.ts): a violation fails the build. The hash of the checked
// bundle goes beside it; `leopold compile` finds the same hash and checks only the head each
// plan puts into the script. A bundle edited after the build no longer matches and is
// checked in full, with acorn loaded only then.
const checker = await build({ ...NODE, entryPoints: ['compiler/emit/runtime-bundle.ts'], write: false, plugins: [zodWithoutLocales] });
const { runtimeBundleProblems } = await import(`data:text/javascript;base64,${Buffer.from(checker.outputFiles[0].text).toString('base64')}`);
const runtimeBundle = readFileSync(resolve(root, 'dist/workflow-runtime.js'), 'utf8');
const problems = runtimeBundleProblems(runtimeBundle);
if (problems.length > 0) {
  rmSync(resolve(root, 'dist/workflow-runtime.js'), { force: true });
  throw new Error(`dist/workflow-runtime.js breaks the Claude Code host contract (docs/host-contract.md):\n${problems.join('\n')}`);
}
writeFileSync(resolve(root, RUNTIME_BUNDLE_HASH), `${createHash('sha256').update(runtimeBundle, 'utf8').digest('hex')}\n`);

// The Claude Code plugin, dist/plugin/ (`claude --plugin-dir dist/plugin`; docs/init.md):
// the manifest, the same skills init installs, hooks/hooks.json running copies of the
// hook bundles from ${CLAUDE_PLUGIN_ROOT} with --plugin (they stay silent when the project
// registers its own hooks), and bin/leopold with the CLI, its workflow runtime and every
// template init reads (the brief, the settings, the skills, and init --ci's workflow).
// Self-contained: a marketplace copies this directory and nothing else.
// .claude-plugin/marketplace.json makes it its own one-plugin marketplace too.
const plugin = resolve(root, 'dist/plugin');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const PROJECT_CLI_MODULE = await importModule('runtime/project-cli/index.ts');
const { PROJECT_CLI } = PROJECT_CLI_MODULE;
const fill = (template, values) => template.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name) => values[name] ?? whole);
const write = (path, text, mode = 0o644) => {
  mkdirSync(dirname(resolve(plugin, path)), { recursive: true });
  writeFileSync(resolve(plugin, path), text, { mode });
  chmodSync(resolve(plugin, path), mode);
};
const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

rmSync(plugin, { recursive: true, force: true });
// dist/leopold.js loads its commands from the chunks beside it: they all go along.
const cliChunks = readdirSync(resolve(root, 'dist')).filter((name) => /^leopold(-.*)?\.js$/.test(name)).map((name) => [`dist/${name}`, `dist/${name}`]);
for (const [from, to] of [
  ...cliChunks,
  ['dist/workflow-runtime.js', 'dist/workflow-runtime.js'],
  [RUNTIME_BUNDLE_HASH, 'dist/workflow-runtime.js.sha256'],
  ['dist/hooks/guard.js', 'hooks/guard.js'],
  ['dist/hooks/stop.js', 'hooks/stop.js'],
  ['dist/hooks/stop-failure.js', 'hooks/stop-failure.js'],
  ['templates/brief', 'templates/brief'],
  ['templates/ci', 'templates/ci'],
  ['templates/settings', 'templates/settings'],
  ['templates/skill', 'templates/skill'],
]) {
  cpSync(resolve(root, from), resolve(plugin, to), { recursive: true });
}
const about = { description: pkg.description, version: pkg.version, license: pkg.license, keywords: pkg.keywords };
write('.claude-plugin/plugin.json', json({ name: 'leopold', ...about }));
write('.claude-plugin/marketplace.json', json({ name: 'leopold', owner: { name: 'Leopold maintainers' }, plugins: [{ name: 'leopold', source: './', description: pkg.description, version: pkg.version }] }));
// What leopoldInstall() looks for: the package root holding templates/ beside dist/.
write('package.json', json({ name: 'leopold', version: pkg.version, private: true, type: 'module', description: 'The Leopold Claude Code plugin (see .claude-plugin/plugin.json).' }));
const hookCommand = (hook) => JSON.stringify(`node "\${CLAUDE_PLUGIN_ROOT}/hooks/${hook}.js" --plugin`).slice(1, -1);
write('hooks/hooks.json', fill(readFileSync(resolve(root, 'templates/settings/hooks.json'), 'utf8'), { GUARD_COMMAND: hookCommand('guard'), STOP_COMMAND: hookCommand('stop'), STOP_FAILURE_COMMAND: JSON.stringify(PROJECT_CLI_MODULE.detachedHook(`node "\${CLAUDE_PLUGIN_ROOT}/hooks/stop-failure.js" --plugin`)).slice(1, -1) }));
// Every skill init installs (compiler/cli/commands/init.ts SKILLS): each folder of templates/skill.
for (const skill of readdirSync(resolve(root, 'templates/skill')).sort()) {
  write(`skills/${skill}/SKILL.md`, fill(readFileSync(resolve(root, `templates/skill/${skill}/SKILL.md`), 'utf8'), { LEOPOLD: PROJECT_CLI }));
}
// The directory is taken from $0 by the shell itself, so the script needs nothing on PATH but node.
write('bin/leopold', '#!/bin/sh\n# The Leopold CLI of this plugin: the bundled dist/leopold.js, wherever the plugin lives.\ncase $0 in */*) here=${0%/*} ;; *) here=. ;; esac\nexec node "$here/../dist/leopold.js" "$@"\n', 0o755);
