import { describe, expect, it } from 'vitest';
import { foldEvent, noEventFacts, type WatchView } from '../../../runtime/watch/model.js';
import { progressBar, renderFrame } from '../../../runtime/watch/render.js';
import { startedState } from '../../../runtime/state/index.js';
import { finishedState } from '../../../runtime/run/index.js';

// The watch's terminal frame and its event fold, as values: what a user sees at a glance.

const items = [
  { index: 1, text: 'Write the parser', done: true },
  { index: 2, text: 'Document the parser', done: false },
  { index: 3, text: 'Add a changelog entry', done: false },
];
const fold = (events: Record<string, unknown>[]) => events.reduce(foldEvent, noEventFacts());
const view = (over: Partial<WatchView>): WatchView => ({
  state: { ...startedState('session', new Date('2999-01-01T00:00:00.000Z')), iteration: 3 },
  problem: null,
  items,
  events: noEventFacts(),
  decisions: [],
  maxIterations: 50,
  ...over,
});

describe('the watch frame', () => {
  it('shows progress, the item handed out and its attempt, the turn, agents and tokens, and the last three decisions', () => {
    const events = fold([
      { event: 'turn', item: 1, iteration: 1 },
      { event: 'turn', item: 2, iteration: 2 },
      { event: 'subagent', item: 2 },
      { event: 'review', item: 2, agents: 2, tokens: 1500 },
      { event: 'turn', item: 2, iteration: 3 },
    ]);
    const decisions = [1, 2, 3, 4].map((n) => ({ n, title: `Decision ${n}` }));
    expect(renderFrame(view({ events, decisions }))).toEqual([
      'Leopold run · active · session engine · started 2999-01-01T00:00:00.000Z',
      `${progressBar(1, 3)} 1/3 items done`,
      'Now: item 2 "Document the parser" · attempt 2 · turn 3 of at most 50',
      'Failures: none · streak 0 · rescue used: no · plan changes: 0/3',
      'Agents: 3 · tokens: 1,500',
      'Decisions: 4 (last ones below)',
      '  D2 Decision 2',
      '  D3 Decision 3',
      '  D4 Decision 4',
    ]);
    expect(progressBar(1, 3, 6)).toBe('[██░░░░]');
  });

  it('a run an API error ended shows the stop and how to resume; a new start forgets the earlier run', () => {
    const ended = { ...finishedState({ ...startedState('session', new Date('2999-01-01T00:00:00.000Z')), stop_reason: 'api_error' }, new Date('2999-01-01T01:00:00.000Z'), 'api_error'), api_error: { error: 'rate_limit', retryable: true, at: 'x' } };
    const events = fold([{ event: 'turn', item: 9 }, { event: 'start' }, { event: 'turn', item: 2 }, { event: 'stop', reason: 'api_error', detail: 'a turn died on an API error: rate_limit' }]);
    expect(events.attempts).toEqual({ 2: 1 });
    const frame = renderFrame(view({ state: ended as never, events }));
    expect(frame.slice(-2)).toEqual(['Stopped: api_error · a turn died on an API error: rate_limit', 'Resume: when the API answers again, run /leopold-run in Claude Code']);
    expect(frame.some((line) => line.startsWith('Now:'))).toBe(false);
  });

  it('cuts lines to the terminal width', () => {
    const long = view({ items: [{ index: 1, text: 'x'.repeat(300), done: false }], events: fold([{ event: 'turn', item: 1 }]) });
    for (const line of renderFrame(long, 40)) expect(line.length).toBeLessThanOrEqual(40);
  });
});
