import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { leopold, leopoldBinary } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// `leopold run status --watch` through the built CLI, its stdout a pipe (plain lines): the
// test plays a run by writing the run's own files step by step, as the engines and the
// scribe do, and waits for the watch to report each step, then for it to exit 0 when the
// run stops. Nothing here measures time: each wait is for a line, with a generous ceiling.

let bin: string;
beforeAll(async () => {
  bin = await leopoldBinary();
});

const PLAN = '# Plan\n\n- [ ] Write the parser\n- [ ] Document the parser\n- [ ] Add a changelog entry\n';
const decision = (n: number, title: string) =>
  `## D${n} — ${title}   (turn ${n}, 2999-01-01T00:00:0${n}Z)\nFork:        escalation — item ${n}\nClass:       reversible\nCharter:     silent\nDecision:    ${title}\nWhy:         bias to action\nReversal:    Revert it.\n\n`;

/** The watch, running; `until` resolves once its output matches (or fails after a ceiling). */
function startWatch(cwd: string) {
  const child = spawn(process.execPath, [bin, 'run', 'status', '--watch'], { cwd, env: { ...process.env, LEOPOLD_AUTONOMY: '' } });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (out += s));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const until = async (pattern: RegExp): Promise<void> => {
    for (let waited = 0; !pattern.test(out); waited += 50) {
      if (waited > 60_000) throw new Error(`the watch never printed ${pattern}; it printed:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { until, exited, output: () => out, kill: () => child.kill('SIGINT') };
}

describe('leopold run status --watch', () => {
  it('follows a simulated run to its end: progress, the item and its attempt, decisions, agents and tokens, the stop; then exits 0', async () => {
    const dir = tempDir('leopold-watch-');
    const leo = join(dir, '.leopold');
    mkdirSync(leo);
    writeFileSync(join(leo, 'PLAN.md'), PLAN);
    expect(leopold(bin, dir, ['run', 'start']).code).toBe(0);
    const event = (e: Record<string, unknown>) => appendFileSync(join(leo, 'events.jsonl'), `${JSON.stringify({ ts: '2999-01-01T00:00:00.000Z', ...e })}\n`);
    const tick = (n: number) => {
      const lines = readFileSync(join(leo, 'PLAN.md'), 'utf8').split('\n');
      const at = lines.findIndex((l) => l.startsWith('- [')) + n - 1;
      lines[at] = lines[at]!.replace('- [ ]', '- [x]');
      // Replaced in one step, as leopold plan tick does: the watch never reads half a plan.
      writeFileSync(join(leo, '.PLAN.md.tmp'), lines.join('\n'));
      renameSync(join(leo, '.PLAN.md.tmp'), join(leo, 'PLAN.md'));
    };

    const watch = startWatch(dir);
    await watch.until(/^run active · session engine · started \S+\nprogress \[░{10}\] 0\/3 items done$/m);

    event({ event: 'turn', item: 1, iteration: 1 });
    await watch.until(/^turn 1: item 1 "Write the parser" \(attempt 1\)$/m);
    // A torn line (a writer mid-append) is not read until it is whole.
    appendFileSync(join(leo, 'events.jsonl'), '{"ts":"2999-01-01T00:00:00.000Z","event":"subagent","item":1}\n{"ts":"2999-01-01T00:00:00.000Z","event":"usage",');
    await watch.until(/^agents 1$/m);
    appendFileSync(join(leo, 'events.jsonl'), '"tokens":1200}\n');
    await watch.until(/^agents 1 · tokens 1,200$/m);

    tick(1);
    await watch.until(/^progress \[███░░░░░░░\] 1\/3 items done$/m);
    event({ event: 'turn', item: 2, iteration: 2 });
    await watch.until(/^turn 2: item 2 "Document the parser" \(attempt 1\)$/m);
    writeFileSync(join(leo, '.DECISIONS.md.tmp'), `# Decisions\n\n${decision(1, 'Document the public API only')}`);
    renameSync(join(leo, '.DECISIONS.md.tmp'), join(leo, 'DECISIONS.md'));
    await watch.until(/^decision D1: Document the public API only$/m);
    event({ event: 'failure', item: 2, kind: 'verification', iteration: 2 });
    event({ event: 'turn', item: 2, iteration: 3 });
    await watch.until(/^turn 3: item 2 "Document the parser" \(attempt 2\)$/m);
    tick(2);
    event({ event: 'turn', item: 3, iteration: 4 });
    tick(3);
    await watch.until(/^progress \[██████████\] 3\/3 items done$/m);

    // The run ends the way the Stop hook ends it: state.json first, then the stop event.
    const state = JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(leo, '.state.json.tmp'), JSON.stringify({ ...state, active: false, stop_reason: 'plan_complete', finished_at: '2999-01-01T00:00:09.000Z' }));
    renameSync(join(leo, '.state.json.tmp'), join(leo, 'state.json'));
    event({ event: 'stop', reason: 'plan_complete', detail: 'every item is done', iteration: 4, done: 3, total: 3, engine: 'session' });
    expect(await watch.exited).toBe(0);
    expect(watch.output()).toMatch(/^stopped: plan_complete · every item is done · 3\/3 items done\n$/m);
    // Each step once, in order.
    const lines = watch.output().trim().split('\n');
    expect(lines.filter((l) => l.startsWith('turn '))).toEqual([
      'turn 1: item 1 "Write the parser" (attempt 1)',
      'turn 2: item 2 "Document the parser" (attempt 1)',
      'turn 3: item 2 "Document the parser" (attempt 2)',
      'turn 4: item 3 "Add a changelog entry" (attempt 1)',
    ]);
    expect(lines.at(-1)).toMatch(/^stopped: plan_complete/);
  });

  it('with no active run it shows the last one once and exits 0; --watch with --json is a usage error', async () => {
    const dir = tempDir('leopold-watch-idle-');
    mkdirSync(join(dir, '.leopold'));
    writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAN);
    writeFileSync(join(dir, '.leopold', 'state.json'), JSON.stringify({ version: 1, active: false, engine: 'session', started_at: '2999-01-01T00:00:00.000Z', stop_reason: 'kill_switch' }));
    const watch = startWatch(dir);
    expect(await watch.exited).toBe(0);
    expect(watch.output()).toBe('run ended · session engine · started 2999-01-01T00:00:00.000Z\nprogress [░░░░░░░░░░] 0/3 items done\nstopped: kill_switch · 0/3 items done\n');
    const both = leopold(bin, dir, ['run', 'status', '--watch', '--json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('leopold: leopold run status: give --watch or --json, not both\n');
  });

  it('Ctrl-C leaves the watch of a run that goes on', async () => {
    const dir = tempDir('leopold-watch-int-');
    mkdirSync(join(dir, '.leopold'));
    writeFileSync(join(dir, '.leopold', 'PLAN.md'), PLAN);
    expect(leopold(bin, dir, ['run', 'start']).code).toBe(0);
    const watch = startWatch(dir);
    await watch.until(/0\/3 items done/);
    watch.kill();
    expect(await watch.exited).toBe(130);
    expect(JSON.parse(readFileSync(join(dir, '.leopold', 'state.json'), 'utf8'))).toMatchObject({ active: true });
  });
});
