import { describe, expect, it } from 'vitest';
import { analyzeCommand, decide, type Finding } from '../../runtime/hooks/guard/index.js';
import { SHIP_CATALOG } from '../../runtime/hooks/guard/analyze/publish.js';

// The publishing catalog (runtime/hooks/guard/analyze/publish.ts): each entry's examples,
// judged as the agent would type them, with the OS layer and without, and with every
// token (the publish lock is never lifted). Then the same commands reached through
// package scripts, make targets, shell scripts and code the guard reads.

const FILES: Record<string, string> = {
  '/proj/package.json': JSON.stringify({
    scripts: { release: 'npm run build && semantic-release', build: 'tsc', test: 'vitest run', 'publish:all': 'pnpm -r publish --access public', ship: 'node scripts/ship.mjs', deploy: 'make deploy' },
  }),
  '/proj/Makefile': 'test:\n\tnpm test\n\ndeploy: build\n\t@echo deploying\n\ttwine upload dist/*\n\nbuild:\n\tpython -m build\n',
  '/proj/scripts/release.sh': '#!/bin/sh\nset -e\nnpm test\ngh release create "v$VERSION" --generate-notes\n',
  '/proj/scripts/ship.mjs': "import { execSync } from 'node:child_process';\nexecSync('npm run build');\nexecSync('npm publish --access public');\n",
  '/proj/scripts/spawn.js': "const { spawnSync } = require('child_process');\nspawnSync('cargo', ['publish', '--allow-dirty']);\n",
};
const base = { cwd: '/proj', leopoldDir: '/proj/.leopold', home: '/home/dev', readFile: (path: string) => FILES[path] ?? null };
const MODES = [
  ['without the OS layer', base],
  ['with the OS layer', { ...base, osLayer: true }],
] as const;
const ALL_TOKENS = { allowGit: true, allowPush: true };

const locks = (findings: Finding[]) => new Set(findings.map((f) => f.lock));

describe('the publishing catalog', () => {
  it('has an id, programs and examples both ways for every entry', () => {
    expect(new Set(SHIP_CATALOG.map((e) => e.id)).size).toBe(SHIP_CATALOG.length);
    for (const entry of SHIP_CATALOG) {
      expect(entry.programs.length, entry.id).toBeGreaterThan(0);
      expect(entry.ship.length, entry.id).toBeGreaterThan(0);
      expect(entry.keep.length, entry.id).toBeGreaterThan(0);
    }
  });

  describe.each(SHIP_CATALOG.map((e) => [e.id, e] as const))('%s', (_, entry) => {
    describe.each(MODES)('%s', (_mode, ctx) => {
      it.each(entry.ship)('refuses %j, whatever the tokens', (command) => {
        const findings = analyzeCommand(command, ctx);
        expect(locks(findings)).toContain(entry.lock ?? 'publish');
        const decision = decide(findings, entry.lock === 'commit' ? { allowGit: false, allowPush: true } : ALL_TOKENS);
        expect(decision.decision).toBe('deny');
        // The refusal quotes the command and says what to do instead.
        if (decision.decision === 'deny') {
          expect(decision.reason).toContain(`\`${command}\``);
          expect(decision.reason).toMatch(/Instead: /);
        }
      });
      it.each(entry.keep)('allows %j', (command) => {
        expect([...locks(analyzeCommand(command, ctx))]).not.toContain('publish');
      });
    });
  });
});

describe('publishing reached through what the command runs', () => {
  const cases: [string, string][] = [
    ['npm run release', 'semantic-release'],
    ['yarn release', 'semantic-release'],
    ['npm run publish:all', 'pnpm -r publish --access public'],
    ['make deploy', 'twine upload dist/*'],
    ['npm run deploy', 'twine upload dist/*'],
    ['sh scripts/release.sh', 'gh release create "v$VERSION" --generate-notes'],
    ['VERSION=1.0.0 ./scripts/release.sh', 'gh release create "v$VERSION" --generate-notes'],
    ['npm run ship', "execSync('npm publish --access public');"],
    ['node scripts/spawn.js', "spawnSync('cargo', ['publish', '--allow-dirty']);"],
    ['pnpm dlx semantic-release', 'pnpm dlx semantic-release'],
    ['bunx release-it', 'bunx release-it'],
    ['npm exec -- changeset publish', 'npm exec -- changeset publish'],
    ['sudo -E env TOKEN=x npx np', 'sudo -E env TOKEN=x npx np'],
    ['bash -c "npm publish"', 'npm publish'],
  ];
  describe.each(MODES)('%s', (_mode, ctx) => {
    it.each(cases)('%j refuses `%s`, naming where it was found', (command, part) => {
      const decision = decide(analyzeCommand(command, ctx), ALL_TOKENS);
      expect(decision.decision).toBe('deny');
      if (decision.decision === 'deny') expect(decision.reason).toContain(`\`${part}\``);
    });
    it('does not refuse the package scripts and make targets that do not publish', () => {
      for (const command of ['npm test', 'npm run build', 'make test', 'make build', 'make']) {
        expect(analyzeCommand(command, ctx), command).toEqual([]);
      }
    });
  });
});
