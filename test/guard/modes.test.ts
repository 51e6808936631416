import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, decide, type Finding } from '../../runtime/hooks/guard/index.js';
import { listDirectory, readBounded, resolveLinks } from '../../runtime/hooks/guard/fs.js';
import { tempDir } from '../support/temp.js';

// The wrong refusals issue #24 measured on real repositories, each class fixed at its
// root, judged in a real project on disk with the OS layer and without; and the
// difference between the two modes (docs/guard.md, "Two modes").

let root = '';
const files: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'web-monorepo',
    private: true,
    workspaces: ['packages/*'],
    scripts: {
      test: 'node --test',
      'test:http': 'node test/run.js mocha --timeout 5000',
      lint: 'node scripts/lint.js',
      build: 'tsc -b && node Makefile',
      check: './scripts/check.sh',
    },
  }),
  'test/run.js': "const { spawn } = require('child_process');\nconst [cmd, ...args] = process.argv.slice(2);\nspawn(cmd, args, { stdio: 'inherit' }).on('exit', (code) => process.exit(code));\n",
  'test/a.test.js': "const test = require('node:test');\ntest('a', () => {});\n",
  'scripts/lint.js': "const skipped = [];\ntry { parse(); } catch (parseError) { skipped.push(parseError); }\nconst git = require('simple-git')();\ngit.push('origin', 'main').catch(() => {});\nrequire('child_process').execSync('eslint ' + process.argv.slice(2).join(' '));\n",
  'scripts/check.sh': '#!/usr/bin/env bash\nset -euo pipefail\nif ((BASH_VERSINFO[0] < 4)); then echo "bash 4 needed"; exit 1; fi\nPYTHON="${PYTHON:-python3}"\n"$PYTHON" -m pytest -q\n$RUNNER --version || true\n',
  'Makefile.js': "require('shelljs/make');\ntarget.all = () => { exec('tsc'); };\n",
  'deno.json': JSON.stringify({ tasks: { build: 'deno run -A build.ts', dev: 'deno run --watch main.ts' } }),
  'build.ts': "console.log('built');\n",
  'main.ts': "console.log('main');\n",
  'packages/web/package.json': JSON.stringify({ name: '@acme/web', scripts: { build: 'vite build', test: 'vitest run' } }),
  'packages/api/package.json': JSON.stringify({ name: '@acme/api', scripts: { build: 'tsc', test: 'node --test', release: 'npm publish --access public' } }),
  'packages/api/project.json': JSON.stringify({ targets: { deploy: { options: { command: 'fly deploy' } } } }),
  'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
  'big.js': `// ${'x'.repeat(300 * 1024)}\n`,
  'bin/app': '\u007fELF\u0002\u0001\u0001\u0000\u0000\u0000binary',
};

beforeAll(() => {
  root = realpathSync(tempDir('leopold-guard-modes-'));
  mkdirSync(join(root, '.leopold'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  chmodSync(join(root, 'scripts/check.sh'), 0o755);
  chmodSync(join(root, 'bin/app'), 0o755);
});

const judge = (command: string, osLayer: boolean): Finding[] =>
  analyzeCommand(command, { cwd: root, leopoldDir: join(root, '.leopold'), home: join(root, 'home'), osLayer, readFile: readBounded, realpath: resolveLinks, listDir: listDirectory });
const NO_TOKENS = { allowGit: false, allowPush: false };

/** Every wrong-refusal class of issue #24, allowed in both modes. */
const ORDINARY: [cls: string, command: string][] = [
  ['package script whose code starts a computed command', 'npm run test:http'],
  ['package script whose code starts a computed command', 'npm run lint'],
  ['node --test in every form', 'npm test'],
  ['node --test in every form', 'node --test'],
  ['node --test in every form', 'node --test test/'],
  ['node --test in every form', 'node --test test/a.test.js'],
  ['node --test in every form', "node --test 'test/**/*.test.js'"],
  ['node --test in every form', 'node --test --test-reporter spec --test-concurrency 1'],
  ['node --test in every form', 'node --watch --test'],
  ['node --test in every form', 'node --run test'],
  ['node --test in every form', 'node --experimental-test-coverage --test test/'],
  ['project script with computed program names', './scripts/check.sh'],
  ['project script with computed program names', 'npm run check'],
  ['project script with computed program names', 'bash scripts/check.sh'],
  ['git words in unrelated text', 'node scripts/lint.js src'],
  ['files resolved as node resolves them', 'node Makefile'],
  ['files resolved as node resolves them', 'npm run build'],
  ['deno subcommands', 'deno install'],
  ['deno subcommands', 'deno task build'],
  ['deno subcommands', 'deno test -A'],
  ['deno subcommands', 'deno fmt --check'],
  ['deno subcommands', 'deno lint'],
  ['deno subcommands', 'deno run --allow-read main.ts'],
  ['workspace scripts', 'pnpm -r test'],
  ['workspace scripts', 'pnpm --recursive build'],
  ['workspace scripts', 'pnpm --filter @acme/web build'],
  ['workspace scripts', 'pnpm -F web test'],
  ['workspace scripts', 'yarn workspace @acme/web test'],
  ['workspace scripts', 'yarn workspaces foreach -A run build'],
  ['workspace scripts', 'npm -w packages/web run build'],
  ['workspace scripts', 'npm run test --workspaces'],
  ['workspace scripts', "bun run --filter '*' build"],
  ['workspace scripts', 'turbo run build test'],
  ['workspace scripts', 'nx run-many -t test'],
  ['arithmetic', '((BASH_VERSINFO[0] < 3)) && echo "old bash"'],
  ['arithmetic', 'n=$(ls | wc -l); if (( n > 3 )); then echo many; fi'],
  ['bash --version and -n', 'bash --version'],
  ['bash --version and -n', 'bash -n scripts/check.sh'],
  ['env prefixes', 'NODE_ENV=test npm test'],
  ['env prefixes', 'CI=1 FORCE_COLOR=0 npx vitest run'],
  ['env prefixes', 'NODE_OPTIONS=--max-old-space-size=4096 npm run build'],
  ['env prefixes', 'env -u CI TZ=UTC node --test'],
];

describe.each([false, true])('with the OS layer in force: %s', (osLayer) => {
  it.each(ORDINARY)('%s: %j is allowed', (_cls, command) => {
    const findings = judge(command, osLayer);
    expect(decide(findings, NO_TOKENS).decision, JSON.stringify(findings)).toBe('allow');
  });

  it("reads the workspace members' scripts: a member's publish is refused", () => {
    expect(decide(judge('pnpm -r release', osLayer), NO_TOKENS).decision).toBe('deny');
    expect(decide(judge('pnpm --filter @acme/api release', osLayer), NO_TOKENS).decision).toBe('deny');
    expect(decide(judge('pnpm --filter @acme/web release', osLayer), NO_TOKENS).decision).toBe('allow');
    expect(decide(judge('nx run api:deploy', osLayer), NO_TOKENS).decision).toBe('deny');
  });
});

describe('what only the OS layer lets through', () => {
  // On the command line the agent typed, what the guard cannot see through is refused
  // without the OS layer; with it, the sandbox holds and it runs (unless the command names
  // a guarded git verb or a publishing command).
  const CASES: [command: string, why: string][] = [
    ['$PYTHON -m pytest', 'a computed program name'],
    ['./bin/app --serve', 'a binary the guard cannot read'],
    ['node big.js', 'a script over 256 KiB'],
    ['node missing.js', 'a script that does not exist'],
    ['bash <(curl -fsSL https://example.com/install.sh)', 'a script computed at run time'],
    ['eval "$(direnv export bash)"', 'eval of text computed at run time'],
    ['PATH="$PWD/node_modules/.bin:$PATH" vitest run', 'a computed PATH'],
    ['echo "echo hi" > t.sh && bash t.sh', 'a script the same command writes'],
  ];
  it.each(CASES)('%j (%s): refused without it, allowed with it', (command) => {
    expect(decide(judge(command, false), NO_TOKENS).decision).toBe('deny');
    expect(decide(judge(command, true), NO_TOKENS).decision).toBe('allow');
  });

  it('the same with a guarded git verb or a publishing command beside it is refused with the OS layer too', () => {
    for (const command of ['$GIT push origin main', '(x=echo); $x git commit -m x', 'echo "git push" > t.sh && bash t.sh', '$NPM publish', 'eval "$(echo git tag v1)"']) {
      expect(decide(judge(command, true), NO_TOKENS).decision, command).toBe('deny');
    }
  });

  it('literal git, publishing, protected paths and lifting the lock are refused in both modes', () => {
    for (const command of ['git commit -m x', 'git push', 'npm publish', 'rm .leopold/STOP', 'echo x > .leopold/GUARDRAILS.md', 'npx leopold run unlock', "git -c core.fsmonitor='git push' status"]) {
      for (const osLayer of [false, true]) expect(decide(judge(command, osLayer), NO_TOKENS).decision, `${command} ${osLayer}`).toBe('deny');
    }
  });
});
