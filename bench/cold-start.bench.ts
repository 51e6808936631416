import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bareNode, coldLatency, dist, type ColdCase } from './cold-process.js';
import { generateChecklist } from './plans.js';
import type { BenchTable } from './run.js';
import { PLAN_CACHE, rememberItems } from '../runtime/plan/items-cache.js';
import { parsePlan } from '../runtime/plan/parse/index.js';
import { benchTempDir } from './temp.js';

// The CLI commands as their callers pay for them: a fresh `node dist/leopold.js` process
// each time (scribes run `record` and `plan tick` on every durable write), beside a bare
// `node -e 0` measured in the same rounds. Each row states its target as a ratio to that floor.

const RUNS = 25;
const ITEMS = 100;
const EXAMPLE = new URL('../fixtures/example/.leopold/', import.meta.url);

const RECORD = JSON.stringify({
  decisions: [
    {
      title: 'Keep the old flag as an alias',
      fork: 'escalation',
      persona: { name: 'Ada Park', role: 'Release Engineer', expertise: ['semver'] },
      class: 'reversible',
      charter: 'Never break the public API.',
      decision: 'Keep --out as an alias of --output.',
      why: 'pragmatism',
      reversal: 'Remove the alias in cli.ts.',
    },
  ],
  events: [{ event: 'item-done', item: 3 }],
});

/** Cold `leopold record`, `plan tick`, `run status` and `compile` (100 items), each against `node -e 0`. */
export default async function coldStartBench(): Promise<BenchTable> {
  // The example brief (an 8-item plan) where the scribes write, and a generated 100-item
  // checklist beside it for the larger tick and for compile.
  const project = benchTempDir('leopold-bench-cold-');
  cpSync(EXAMPLE, join(project, '.leopold'), { recursive: true });
  const examplePlanPath = join(project, '.leopold', 'PLAN.md');
  const examplePlan = readFileSync(examplePlanPath, 'utf8');
  const large = join(project, 'large', '.leopold');
  mkdirSync(large, { recursive: true });
  const plan = generateChecklist(ITEMS);
  const planPath = join(large, 'PLAN.md');
  writeFileSync(planPath, plan);
  writeFileSync(join(large, 'MISSION.md'), '# Mission\n\nShip the generated plan.\n');
  writeFileSync(join(large, 'CHARTER.md'), '## Never\n\n- Never commit secrets.\n');
  const cli = join(dist, 'leopold.js');
  const open = /^- \[ \] .*\{#(\w[\w-]*)\}/m.exec(examplePlan)?.[1];
  if (!open) throw new Error('the example plan has no open item with an anchor to tick');
  // Each plan is rewritten untimed before its tick, so every tick changes one byte. The
  // kept parse (runtime/plan/items-cache.ts) is what a scribe's tick finds after the last
  // tick or Stop-hook turn wrote PLAN.md; the row without it is a plan edited by hand.
  rememberItems(examplePlanPath, examplePlan, parsePlan(examplePlan, examplePlanPath).items);
  const exampleCache = readFileSync(join(project, '.leopold', PLAN_CACHE), 'utf8');
  // What record cannot do without: a node process making the same two durable appends
  // (DECISIONS.md and events.jsonl, each written and fsynced), with nothing else loaded.
  const durable = join(project, 'durable');
  mkdirSync(durable);
  const durableFloor = `const f=require('fs');for(const n of ['a','b']){const d=f.openSync(${JSON.stringify(durable)}+'/'+n,'a');f.writeSync(d,'x'.repeat(600));f.fsyncSync(d);f.closeSync(d)}`;
  const cases: (ColdCase & { target: number | null })[] = [
    { ...bareNode(''), target: null },
    { label: 'node -e (2 appends + fsync, what record must do)', args: ['-e', durableFloor], stdin: '', expect: null, target: null },
    { label: 'leopold record (1 decision + 1 event)', args: [cli, 'record'], stdin: RECORD, expect: /"ok":true/, target: 1.5 },
    {
      label: `leopold plan tick #${open} (the example's 8-item plan, its parse kept from the last write)`,
      args: [cli, 'plan', 'tick', `#${open}`],
      stdin: '',
      prepare: () => {
        writeFileSync(examplePlanPath, examplePlan);
        writeFileSync(join(project, '.leopold', PLAN_CACHE), exampleCache);
      },
      expect: /^ticked item/,
      target: 1.5,
    },
    {
      label: `leopold plan tick #${open} (the example's 8-item plan, parsed: no kept parse)`,
      args: [cli, 'plan', 'tick', `#${open}`],
      stdin: '',
      prepare: () => {
        writeFileSync(examplePlanPath, examplePlan);
        rmSync(join(project, '.leopold', PLAN_CACHE), { force: true });
      },
      expect: /^ticked item/,
      target: null,
    },
    { label: `leopold plan tick 1 (${ITEMS}-item checklist)`, args: [cli, 'plan', 'tick', '1', '--plan', planPath], stdin: '', prepare: () => writeFileSync(planPath, plan), expect: /^ticked item 1/, target: null },
    { label: 'leopold run status', args: [cli, 'run', 'status'], stdin: '', expect: null, target: null },
    { label: `leopold compile (${ITEMS}-item checklist, writes the script)`, args: [cli, 'compile', planPath], stdin: '', expect: null, target: 3 },
  ];
  const { rows, ratios } = coldLatency(cases, { cwd: project, env: { ...process.env, LEOPOLD_AUTONOMY: '' }, runs: RUNS });
  rmSync(project, { recursive: true, force: true });
  const verdicts = cases.map((c, i) => (c.target === null ? '' : `<= ${c.target}x: ${ratios[i]! <= c.target ? 'met' : 'NOT met'}`));
  return {
    title: `CLI cold start: median of ${RUNS} fresh processes, against node -e 0 in the same rounds`,
    columns: ['command', 'runs', 'median ms', 'over bare node ms', 'ratio to node -e 0', 'target'],
    rows: rows.map((row, i) => [...row, verdicts[i]!]),
    notes: [
      'Each command loads only its own chunk of dist/leopold.js (compiler/cli/main.ts, scripts/build.mjs): record loads the decision writer (and no Markdown parser: the charter rules are reused from .leopold/.CHARTER.md.rules while CHARTER.md is unchanged), plan tick the plan parser; neither loads zod or commander (scripts/build.mjs fails the build if they do). Compile loads its chunks like any other command, with no code cache (docs/decisions/no-code-cache.md): zod, the Markdown parser, the graph, classify and emit code, and nothing only a repair or a failed write needs. It runs no JavaScript parser: it checks only the head each plan puts into the script, the runtime bundle and the template around it having passed every host-contract rule at build time.',
      `Plan tick reads the parse the last writer of PLAN.md kept beside it (.leopold/.PLAN.md.items.json, compared with the whole text) and loads the Markdown parser only without one; the ${ITEMS}-item row parses (its plan is rewritten by hand each round); a checklist is a plain plan, read line by line without running remark (runtime/plan/parse/plain.ts).`,
      'The second row is a floor for record: a bare node process making the two durable appends record makes (one write and one fsync each). On a busy disk the fsyncs alone move record\'s ratio; compare record with that row too.',
      'Rounds interleave the commands (3 warm-up rounds discarded) so machine load drift hits every row alike; on a shared machine the floor itself moves, so read the ratios.',
    ],
  };
}
