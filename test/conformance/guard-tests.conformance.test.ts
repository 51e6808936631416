import { PROJECT_CLI_RULE } from '../../runtime/project-cli/index.js';
import { describe, expect, it } from 'vitest';
import { toolResultsOf } from '../../runtime/scripted-model/request.js';
import { projectFixtures, runReal } from './harness.js';

// Issue #24: the project's own tests run during a run. In the real client, a session in a
// project armed as the user arms it from their terminal (`leopold run start`: the sandbox
// and the git guard), whose package.json has `"test": "node --test"` and one test file:
// the scripted model runs `npm test` and then `node --test`. Both run (the test file's
// output reaches the model's next request, and each run appends a line to a marker file)
// and the guard refuses neither.

const fixtures = projectFixtures();

const TEST_FILE = `const { test } = require('node:test');
const { appendFileSync } = require('node:fs');
const { join } = require('node:path');
test('the greeting', () => {
  appendFileSync(join(__dirname, '..', 'ran.log'), 'ran\\n');
  console.log('GREETING-TEST-RAN');
});
`;

describe('the project\'s own tests in the real client, during an armed run', () => {
  it('runs `npm test` (node --test) and `node --test`, and the guard refuses neither', async () => {
    const p = fixtures.project({
      plan: '# Plan\n\n- [ ] Write the greeting module\n',
      files: {
        'package.json': `${JSON.stringify({ name: 'greeting', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
        'test/greeting.test.js': TEST_FILE,
      },
    });
    const started = p.leopold(['run', 'start']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('Lock armed (bubblewrap)');
    // The OS layer is recorded for the guard: the sandbox armed and available.
    expect(JSON.parse(p.read('.leopold/lock.json')).sandbox).toMatchObject({ armed: true, available: true });

    const run = await runReal(p, {
      prompt: 'Run the tests.',
      allowedTools: `${PROJECT_CLI_RULE},Bash`,
      script: { main: [{ tool: 'Bash', input: { command: 'npm test' } }, { tool: 'Bash', input: { command: 'node --test' } }, { text: 'The tests ran.' }] },
      timeoutMs: 240_000,
    });
    expect(run.client.timedOut).toBe(false);
    // The request after the two commands holds both results: the test ran, nothing was refused.
    const after = run.mainTexts.find((text) => toolResultsOf(JSON.parse(text)).length >= 2);
    expect(after, 'a request after both commands').toBeDefined();
    const [npmTest, nodeTest] = toolResultsOf(JSON.parse(after as string));
    for (const result of [npmTest, nodeTest]) {
      expect(result?.text).not.toMatch(/Leopold guard/);
      expect(result?.isError, result?.text).toBe(false);
      expect(result?.text).toMatch(/GREETING-TEST-RAN|# pass 1/);
    }
    expect(p.read('ran.log')).toBe('ran\nran\n');
  }, 300_000);
});
