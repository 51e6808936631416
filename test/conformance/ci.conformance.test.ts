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

interface Job {
  strategy: { matrix: { node: string[] } };
  env: Record<string, string>;
  steps: Step[];
}

function ciProject(plan: string, files: Record<string, string> = {}): { project: Project; workflow: { on: unknown; jobs: { leopold: Job } }; text: string } {
  const project = fixtures.project({ plan, files });
  const init = project.leopold(['init', '--ci']);
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toMatch(/created {3}\.github\/workflows\/leopold\.yml/);
  const text = project.read('.github/workflows/leopold.yml');
  // What `npm ci` gives a real job: the project's leopold (makeProject lays it out) and the client.
  symlinkSync(join(root, 'node_modules', '@anthropic-ai'), join(project.dir, 'node_modules', '@anthropic-ai'));
  return { project, workflow: parse(text) as never, text };
}

/**
 * Runs the job's `run` steps in order (install steps excepted: node_modules is laid out
 * above) with the job's `env`, as edited by `env`; the rest after a failure only if `always()`.
 */
function runJob(project: Project, job: Job, summary: string, env: Record<string, string> = {}) {
  const steps = job.steps;
  const ran: { name: string; code: number; stdout: string; stderr: string }[] = [];
  let failed = false;
  for (const step of steps) {
    if (step.run === undefined || /^npm (ci|ls)\b/.test(step.run)) continue;
    if (failed && step.if !== 'always()') continue;
    const out = spawnSync('bash', ['-e', '-c', step.run], {
      cwd: project.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: project.home, GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true', ...job.env, ...env },
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
    // The Node floor Leopold runs on, and the Node the client's package declares (README, package.json engines).
    const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node as string;
    expect(workflow.jobs.leopold.strategy.matrix.node).toEqual([engines.replace(/^>=/, ''), '22']);
    expect(steps[1]).toMatchObject({ with: { 'node-version': '${{ matrix.node }}' } });
    expect(workflow.jobs.leopold.env).toEqual({ LEOPOLD_CI_ANSWERS: '', LEOPOLD_CI_ALLOW_STOP: '' });
    const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies['@anthropic-ai/claude-code'] as string;
    expect(text).toContain(`@anthropic-ai/claude-code@${pinned}`);
    expect(steps.map((s) => s.run ?? s.uses)).toEqual([
      'actions/checkout@v4.2.2',
      'actions/setup-node@v4.4.0',
      'npm ci',
      expect.stringContaining('npm install --no-save'),
      'npx leopold graph --strict --format github',
      'npx leopold compile --check --format github',
      'npx leopold ci --no-checks --out leopold-ci ${LEOPOLD_CI_ANSWERS:+--answers "$LEOPOLD_CI_ANSWERS"} ${LEOPOLD_CI_ALLOW_STOP:+--allow-stop "$LEOPOLD_CI_ALLOW_STOP"}',
      'actions/upload-artifact@v4.6.2',
    ]);
    // One artifact per matrix entry: upload-artifact v4 refuses a name twice in one run.
    expect(steps.at(-1)).toMatchObject({ if: 'always()', with: { path: 'leopold-ci/', name: 'leopold-rehearsal-node${{ matrix.node }}' } });
  });

  it('a broken plan: annotations on the PLAN.md line and a failing job', () => {
    const { project, workflow } = ciProject('# Plan\n\n- [ ] Write the greeting module\n  @on ok -> 9\n');
    const summary = join(project.home, 'summary.md');
    const ran = runJob(project, workflow.jobs.leopold, summary);
    expect(ran.map((r) => [r.name, r.code])).toEqual([['Validate the plan graph', 1]]);
    expect(ran[0]!.stdout + ran[0]!.stderr).toMatch(/^::error file=\.leopold\/PLAN\.md,line=4,col=3,.*title=dangling-edge::/m);
  });

  it('a good plan: every step passes, the summary and the artifact files are written', () => {
    const { project, workflow } = ciProject('# Plan\n\n- [ ] Write the greeting module\n- [ ] (after: 1) Document the greeting\n');
    expect(project.leopold(['compile']).code).toBe(0);
    const summary = join(project.home, 'summary.md');
    const ran = runJob(project, workflow.jobs.leopold, summary);
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
    expect(written).toMatch(/\| rehearsal in Claude Code \d+\.\d+\.\d+ \(scripted model\) \| pass: plan_complete, 2 of 2 items done \|/);
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

  // A plan whose first item waits for a person: without answers the rehearsal stops there
  // (under autonomy full the default answer decides nothing, an escalation), 0 of 4 done.
  const HUMAN_FIRST = '# Plan\n\n- [ ] @human Decide the release name {#name}\n- [ ] (after: #name) Write the greeting module\n- [ ] (after: 2) Document the greeting\n- [ ] (after: 3) Write the release notes\n';
  const ANSWERS = JSON.stringify([
    { label: 'i1:persona:human', answers: [{ value: { name: 'Mara Voss', role: 'Release Naming Lead', expertise: ['package naming'], optimizesFor: ['no clashes'], rationale: 'A naming call.' } }] },
    { label: 'i1:human', answers: [{ value: { title: 'Name it greet 1.0', class: 'reversible', charter: 'silent', decision: 'Release as greet 1.0.', why: 'pragmatism: the name is free', reversal: 'Rename before publishing.', summary: 'Named the release greet 1.0.' } }] },
  ]);
  const ci = (project: Project, args: string[]) => {
    const out = spawnSync(process.execPath, [join(fixtures.dist().dir, 'dist', 'leopold.js'), 'ci', '--no-checks', '--json', '--claude', CLAUDE ?? 'claude', ...args], { cwd: project.dir, encoding: 'utf8' });
    return { code: out.status, doc: JSON.parse(out.stdout || 'null') as { ok: boolean; stop: string; done: number; total: number; reachedEnd: boolean } | null, stderr: out.stderr };
  };

  it('a plan stopping at its first @human: exit 1 without answers; the job passes with answers (LEOPOLD_CI_ANSWERS) that carry it to the end', () => {
    const { project, workflow } = ciProject(HUMAN_FIRST, { '.leopold/rehearsal-answers.json': ANSWERS });
    const bare = ci(project, []);
    expect(bare.code, bare.stderr).toBe(1);
    expect(bare.doc).toMatchObject({ ok: false, stop: 'escalation', done: 0, total: 4, reachedEnd: false });
    expect(readFileSync(join(project.dir, 'leopold-ci', 'summary.md'), 'utf8')).toContain('escalation, 0 of 4 items done: stopped short of the end of the plan');
    expect(project.leopold(['compile']).code).toBe(0);
    const summary = join(project.home, 'summary.md');
    const ran = runJob(project, workflow.jobs.leopold, summary, { LEOPOLD_CI_ANSWERS: '.leopold/rehearsal-answers.json' });
    expect(ran.map((r) => [r.name, r.code]), ran.map((r) => r.stderr).join('\n')).toEqual([
      ['Validate the plan graph', 0],
      ['Check that the compiled workflow is up to date', 0],
      ['Rehearse the workflow in the real client', 0],
    ]);
    expect(JSON.parse(project.read('leopold-ci/ci.json'))).toMatchObject({ ok: true, stop: 'plan_complete', done: 4, total: 4, reachedEnd: true, answers: '.leopold/rehearsal-answers.json' });
    expect(readFileSync(summary, 'utf8')).toContain('### What I decided for you (answers from .leopold/rehearsal-answers.json)');
  });

  it('--allow-stop (comma-separated) passes a plan that waits for a person under autonomy ask', () => {
    const project = fixtures.project({ plan: HUMAN_FIRST, guardrails: '# Guardrails\n\n- autonomy: ask\n' });
    const allowed = ci(project, ['--allow-stop', 'escalation,awaiting_human']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.doc).toMatchObject({ ok: true, stop: 'awaiting_human', done: 0, total: 4, reachedEnd: false });
    expect(readFileSync(join(project.dir, 'leopold-ci', 'summary.md'), 'utf8')).toContain('awaiting_human, 0 of 4 items done: stopped short of the end, allowed by --allow-stop');
  });
});
