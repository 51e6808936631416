import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRun } from '../../compiler/cli/commands/run.js';
import { runStopHook, stopAnswerOutput } from '../../runtime/hooks/stop/index.js';
import { blockOf } from '../support/stop-output.js';
import { tempDir } from '../support/temp.js';

// The run's protocol is carried once per context window's session, and again after the
// session compacted it away; every other turn names only its item (docs/hooks.md).

async function project(): Promise<{ root: string; stop: (session?: string) => Promise<string> }> {
  const root = tempDir('leopold-protocol-');
  const leo = join(root, '.leopold');
  mkdirSync(leo);
  writeFileSync(join(leo, 'PLAN.md'), '- [ ] First thing\n- [ ] Second thing\n');
  await startRun(leo, { engine: 'session', force: false });
  const transcript = join(root, 'transcript.jsonl');
  writeFileSync(transcript, '{"type":"user"}\n');
  const stop = async (session = 's1') => {
    const stdin = JSON.stringify({ session_id: session, transcript_path: transcript, cwd: root, hook_event_name: 'Stop', background_tasks: [] });
    return blockOf(await runStopHook(stdin, { env: {}, processCwd: root }));
  };
  return { root, stop };
}

const PROTOCOL = /^Leopold run protocol/;

describe('the protocol, once', () => {
  it('goes with the first block only; later turns refer to it and stay short', async () => {
    const { stop } = await project();
    const first = await stop();
    expect(first).toMatch(PROTOCOL);
    const second = await stop();
    expect(second).not.toMatch(/Leopold run protocol|Decision protocol/);
    expect(second).toMatch(/^Leopold run, turn 2 of at most 50\. Work on item 1 now/);
    expect(Buffer.byteLength(second)).toBeLessThanOrEqual(1200);
  });

  it('goes again after the transcript records a compaction, and once only', async () => {
    const { root, stop } = await project();
    await stop();
    appendFileSync(join(root, 'transcript.jsonl'), '{"type":"assistant"}\n{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"auto"}}\n');
    expect(await stop()).toMatch(PROTOCOL);
    appendFileSync(join(root, 'transcript.jsonl'), '{"type":"assistant"}\n');
    expect(await stop()).not.toMatch(PROTOCOL);
  });

  it('goes again to a new session (a new context window)', async () => {
    const { root, stop } = await project();
    writeFileSync(join(root, '.leopold', 'GUARDRAILS.md'), '- max_context_mb: 1\n');
    await stop('s1');
    // The first session's transcript passes max_context_mb: its window rolls, and the next session resumes.
    appendFileSync(join(root, 'transcript.jsonl'), `${'x'.repeat(1024 * 1024)}\n`);
    const stdin = JSON.stringify({ session_id: 's1', transcript_path: join(root, 'transcript.jsonl'), cwd: root, hook_event_name: 'Stop', background_tasks: [] });
    expect((await runStopHook(stdin, { env: {}, processCwd: root })).kind).toBe('message');
    writeFileSync(join(root, 'transcript.jsonl'), '{"type":"user"}\n');
    const resumed = await stop('s2');
    expect(resumed).toMatch(/^Leopold run: this session is context window 2 .*CHECKPOINT\.md[\s\S]*\n\nLeopold run protocol/);
  });
});

describe('how a block leaves the process', () => {
  it('exit 2 with the reason on stderr (the client shows it to the model once); a message is JSON on stdout', () => {
    expect(stopAnswerOutput({ kind: 'block', reason: 'Work on item 1' })).toEqual({ stdout: '', stderr: 'Work on item 1\n', exitCode: 2 });
    expect(stopAnswerOutput({ kind: 'message', text: 'done' })).toEqual({ stdout: '{"systemMessage":"done"}\n', stderr: '', exitCode: 0 });
    expect(stopAnswerOutput({ kind: 'silent' })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});
