import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRun } from '../compiler/cli/commands/run.js';
import { tickPlan } from '../compiler/cli/commands/plan.js';
import { runStopHook } from '../runtime/hooks/stop/index.js';
import type { BenchTable } from './run.js';
import { benchTempDir } from './temp.js';

// What the Stop hook adds to the model's context, turn by turn, over a 20-turn session run
// of a realistic plan, against the original Leopold (0.23) for the same run.
//
// The original's hooks/stop-continuity.sh blocks every turn with one continue message of
// 1,375 bytes (measured: its text rendered for turn 1, 10 and 20 of 50 with 6 open items and
// window 1/10 gives 1,375-1,376 bytes), printed as a JSON `{"decision":"block"}` answer,
// which the client puts into the model's context twice (as hook feedback and again as a
// system message: measured on Claude Code 2.1.332, docs/hooks.md). Leopold answers a block
// with exit 2 and the reason on stderr, which reaches the model once.
const ORIGINAL_CONTINUE_BYTES = 1375;
const ORIGINAL_COPIES = 2;
/** The ordinary turn's budget (issue #24): at most this many bytes, evidence aside. */
const ORDINARY_TARGET = 1200;
const TURNS = 20;
/** The turn after which the session's transcript records a compaction. */
const COMPACTED_AFTER = 12;

const CHARTER = `# Charter

## Always

- Always run the tests an item touches before calling it done.

## Never

- Never add a runtime dependency without recording why.
- Never change a public interface without updating its documentation.
`;

// A word-count library's plan as a user writes it: scenarios, write scopes, a @tool run.
const ITEMS = [
  'Make count() report lines the way wc does (a trailing newline ends a line)',
  'Count words separated by any Unicode whitespace',
  'Count bytes of the UTF-8 encoding, not UTF-16 code units',
  'Add a CLI bin/tally.js FILE that prints lines, words, bytes and the file name',
  'Read standard input when the CLI is given no file',
  'Accept several files and print a total line',
  'Exit 1 with a one-line message for a missing file',
  'Add --json output with the same numbers',
  'Document the CLI and the library in README.md',
  'Add a changelog entry for 0.2.0',
];
const PLAN = [
  '# Plan',
  '',
  ...ITEMS.flatMap((text, i) => [
    `- [ ] ${text}`,
    ...(i === 3 ? ['  @scenario `node bin/tally.js package.json` prints three numbers and the file name', '  @writes bin/tally.js src/** test/**'] : []),
  ]),
  '- [ ] @tool `npm test`',
  '',
].join('\n');

export default async function turnBytesBench(): Promise<BenchTable> {
  const root = benchTempDir('leopold-bench-turn-bytes-');
  const leo = join(root, '.leopold');
  mkdirSync(leo, { recursive: true });
  writeFileSync(join(leo, 'PLAN.md'), PLAN);
  writeFileSync(join(leo, 'MISSION.md'), '# Mission\n\nMake tally count like wc.\n');
  writeFileSync(join(leo, 'CHARTER.md'), CHARTER);
  writeFileSync(join(leo, 'GUARDRAILS.md'), '');
  await startRun(leo, { engine: 'session', force: false });
  const transcript = join(root, 'transcript.jsonl');
  writeFileSync(transcript, '{"type":"user"}\n');
  const stdin = JSON.stringify({ session_id: 'bench', transcript_path: transcript, cwd: root, hook_event_name: 'Stop', stop_hook_active: true, background_tasks: [] });

  const rows: (string | number)[][] = [];
  const ordinary: number[] = [];
  let ours = 0;
  for (let turn = 1; turn <= TURNS; turn++) {
    const answer = await runStopHook(stdin, { env: {}, processCwd: root });
    if (answer.kind !== 'block') break;
    const bytes = Buffer.byteLength(answer.reason, 'utf8');
    ours += bytes;
    const item = Number(/Work on item (\d+) now/.exec(answer.reason)![1]);
    const kind = answer.reason.includes('Leopold run protocol') ? (turn === 1 ? 'first (protocol)' : 'after a compaction (protocol)') : 'ordinary';
    if (kind === 'ordinary') ordinary.push(bytes);
    rows.push([turn, item, kind, bytes, ORIGINAL_CONTINUE_BYTES * ORIGINAL_COPIES]);
    // The session does the item every other turn (one failed attempt in between), so a
    // 20-turn run covers retries, the @tool and fresh items alike.
    appendFileSync(transcript, `${JSON.stringify({ type: 'assistant', turn })}\n`);
    if (turn % 2 === 0 || turn > 17) await tickPlan(join(leo, 'PLAN.md'), String(item));
    if (turn === COMPACTED_AFTER) appendFileSync(transcript, '{"type":"system","subtype":"compact_boundary"}\n');
  }
  rmSync(root, { recursive: true, force: true });
  const max = Math.max(...ordinary);
  const original = rows.length * ORIGINAL_CONTINUE_BYTES * ORIGINAL_COPIES;
  return {
    title: `Bytes the Stop hook adds to the model's context per turn (${rows.length}-turn session run)`,
    columns: ['turn', 'item', 'block', 'Leopold bytes (once)', 'original 0.23 bytes (JSON block, twice)'],
    rows: [
      ...rows,
      ['all', '', `${rows.length} turns`, ours, original],
    ],
    notes: [
      `Ordinary turns: median ${[...ordinary].sort((a, b) => a - b)[Math.floor(ordinary.length / 2)]} bytes, max ${max} bytes (target <= ${ORDINARY_TARGET}: ${max <= ORDINARY_TARGET ? 'met' : 'NOT met'}).`,
      `Over the run: ${ours} bytes against the original's ${original} (${(ours / original).toFixed(2)}x). The protocol (how to record, the decision protocol and its templates) is sent on the first turn and again after the compaction at turn ${COMPACTED_AFTER}.`,
    ],
  };
}
