import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { root } from '../support/built-dist.js';
import { CLAUDE, projectFixtures, type Project } from './harness.js';

// `leopold init --ci`: the GitHub Actions workflow it writes, parsed with a real YAML parser,
// and its steps run in order in a scratch repository as the runner would (a failed step
// ends the job; `if: always()` steps still run), with the real client doing the rehearsal.

const fixtures = projectFixtures();

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}

function ciProject(plan: string): { project: Project; workflow: { on: unknown; jobs: { leopold: { steps: Step[] } } }; text: string } {
  const project = fixtures.project({ plan });
  const init = project.leopold(['init', '--ci']);
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toMatch(/created {3}\.github\/workflows\/leopold\.yml/);
  const text = project.read('.github/workflows/leopold.yml');
  // What `npm ci` gives a real job: the project's leopold (makeProject lays it out) and the client.
  symlinkSync(join(root, 'node_modules', '@anthropic-ai'), join(project.dir, 'node_modules', '@anthropic-ai'));
  return { project, workflow: parse(text) as never, text };
}

/** Runs the job's `run` steps in order (install steps excepted: node_modules is laid out above); the rest after a failure only if `always()`. */
function runJob(project: Project, steps: readonly Step[], summary: string) {
  const ran: { name: string; code: number; stdout: string; stderr: string }[] = [];
  let failed = false;
  for (const step of steps) {
    if (step.run === undefined || /^npm (ci|ls)\b/.test(step.run)) continue;
    if (failed && step.if !== 'always()') continue;
    const out = spawnSync('bash', ['-e', '-c', step.run], {
      cwd: project.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: project.home, GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true' },
    });
    ran.push({ name: step.name ?? step.run, code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr });
    if (out.status !== 0) failed = true;
  }
  return ran;
}

describe('leopold init --ci and leopold ci', () => {
  it('writes valid YAML that runs on push and pull_request with pinned versions', () => {
    const { workflow, text } = ciProject('# Plan\n\n- [ ] Write the greeting module\n');
    expect(Object.keys(workflow.on as object).sort()).toEqual(['pull_request', 'push']);
    const steps = workflow.jobs.leopold.steps;
    for (const step of steps.filter((s) => s.uses)) expect(step.uses).toMatch(/@v\d+\.\d+\.\d+$/);
    const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies['@anthropic-ai/claude-code'] as string;
    expect(text).toContain(`@anthropic-ai/claude-code@${pinned}`);
    expect(steps.map((s) => s.run ?? s.uses)).toEqual([
      'actions/checkout@v4.2.2',
      'actions/setup-node@v4.4.0',
      'npm ci',
      expect.stringContaining('npm install --no-save'),
      'npx leopold graph --strict --format github',
      'npx leopold compile --check --format github',
      'npx leopold ci --no-checks --out leopold-ci',
      'actions/upload-artifact@v4.6.2',
    ]);
    expect(steps.at(-1)).toMatchObject({ if: 'always()', with: { path: 'leopold-ci/' } });
  });

  it('a broken plan: annotations on the PLAN.md line and a failing job', () => {
    const { project, workflow } = ciProject('# Plan\n\n- [ ] Write the greeting module\n  @on ok -> 9\n');
    const summary = join(project.home, 'summary.md');
    const ran = runJob(project, workflow.jobs.leopold.steps, summary);
    expect(ran.map((r) => [r.name, r.code])).toEqual([['Validate the plan graph', 1]]);
    expect(ran[0]!.stdout + ran[0]!.stderr).toMatch(/^::error file=\.leopold\/PLAN\.md,line=4,col=3,.*title=dangling-edge::/m);
  });

  it('a good plan: every step passes, the summary and the artifact files are written', () => {
    const { project, workflow } = ciProject('# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) Document the greeting\n');
    expect(project.leopold(['compile']).code).toBe(0);
    const summary = join(project.home, 'summary.md');
    const ran = runJob(project, workflow.jobs.leopold.steps, summary);
    expect(ran.map((r) => [r.name, r.code]), ran.map((r) => r.stderr).join('\n')).toEqual([
      ['Validate the plan graph', 0],
      ['Check that the compiled workflow is up to date', 0],
      ['Rehearse the workflow in the real client', 0],
    ]);
    for (const file of ['rehearsal.txt', 'rehearsal.json', 'summary.md', 'ci.json']) expect(existsSync(join(project.dir, 'leopold-ci', file)), file).toBe(true);
    const outcome = JSON.parse(project.read('leopold-ci/ci.json')) as Record<string, unknown>;
    expect(outcome).toMatchObject({ ok: true, stop: 'plan_complete', done: 2, total: 2, steps: [{ name: 'guardrails', ok: true, exit: 0 }, { name: 'rehearsal', ok: true, exit: 0 }] });
    const written = readFileSync(summary, 'utf8');
    expect(written).toMatch(/^## Leopold plan check: passed$/m);
    expect(written).toMatch(/\| rehearsal in Claude Code \d+\.\d+\.\d+ \(scripted model\) \| pass: plan_complete, 2\/2 items done \|/);
    expect(written).toContain('```mermaid\nflowchart TD');
    expect(written).toContain('### What I decided for you (default answers)');
  });

  it('leopold ci --no-checks: a GUARDRAILS.md not read as written is an error annotation and fails the job (run start would refuse it)', () => {
    const { project } = ciProject('# Plan\n\n- [ ] Write the greeting module\n');
    writeFileSync(join(project.dir, '.leopold', 'GUARDRAILS.md'), '# Guardrails\n\n- autonomy: akss   # strict\n');
    expect(project.leopold(['compile']).code).toBe(0);
    const out = spawnSync(process.execPath, [join(fixtures.dist().dir, 'dist', 'leopold.js'), 'ci', '--no-checks', '--json', '--claude', CLAUDE ?? 'claude'], { cwd: project.dir, encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(1);
    expect(out.stderr).toMatch(/^::error file=\.leopold\/GUARDRAILS\.md,line=3,col=13,.*title=bad-guardrail::autonomy is "akss"/m);
    const doc = JSON.parse(out.stdout) as { ok: boolean; steps: { name: string; ok: boolean }[] };
    expect(doc.steps.map((s) => [s.name, s.ok])).toEqual([['guardrails', false], ['rehearsal', true]]);
  });

  it('leopold ci alone: one JSON document on stdout, exit 1 when drift is found', () => {
    const { project } = ciProject('# Plan\n\n- [ ] Write the greeting module\n');
    // Never compiled: compile --check reports drift.
    const out = spawnSync(process.execPath, [join(fixtures.dist().dir, 'dist', 'leopold.js'), 'ci', '--json', '--claude', CLAUDE ?? 'claude'], { cwd: project.dir, encoding: 'utf8' });
    expect(out.status).toBe(1);
    const doc = JSON.parse(out.stdout) as { ok: boolean; steps: { name: string; ok: boolean }[]; stop: string };
    expect(doc.ok).toBe(false);
    expect(doc.steps.map((s) => [s.name, s.ok])).toEqual([['guardrails', true], ['graph --strict', true], ['compile --check', false], ['rehearsal', true]]);
    expect(doc.stop).toBe('plan_complete');
  });
});

