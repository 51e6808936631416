import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand, decide } from '../../runtime/hooks/guard/index.js';
import { listDirectory, readBounded, resolveLinks } from '../../runtime/hooks/guard/fs.js';
import { tempDir } from '../support/temp.js';

// Every refusal names the exact part it refused, as written (a simple command of the
// command line, or the command or line of a file the guard read, with where it was
// found), why, and what to do instead for that program; a compound command's refusal
// never names another part.

let root = '';
beforeAll(() => {
  root = realpathSync(tempDir('leopold-guard-reasons-'));
  const files: Record<string, string> = {
    '.leopold/state.json': '{"active":true}',
    'package.json': JSON.stringify({ scripts: { test: 'vitest run', release: 'npm run build && git push --follow-tags && npm publish', build: 'tsc' } }),
    'scripts/tag.js': "const { execSync } = require('child_process');\nexecSync('npm test');\nexecSync(`git tag v${require('../package.json').version}`);\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});

function reason(command: string, osLayer = false): string {
  const d = decide(analyzeCommand(command, { cwd: root, leopoldDir: join(root, '.leopold'), home: root, osLayer, readFile: readBounded, realpath: resolveLinks, listDir: listDirectory }), { allowGit: false, allowPush: false });
  if (d.decision !== 'deny') throw new Error(`${command} was allowed`);
  return d.reason;
}

describe('a refusal', () => {
  it.each([
    ['npm test && git commit -m "wip"', 'git commit -m "wip"', ['npm test']],
    ['git status; git push origin main; ls -la', 'git push origin main', ['git status', 'ls -la']],
    ['npm run build && npm publish --access public', 'npm publish --access public', ['npm run build']],
    ['cd sub && (make && git tag v1)', 'git tag v1', ['make']],
    ['echo ok | tee out.txt && rm -f .leopold/STOP', 'rm -f .leopold/STOP', ['tee out.txt']],
  ])('of %j names %j and no other part', (command, part, others) => {
    const text = reason(command);
    expect(text).toContain(`refused \`${part}\``);
    for (const other of others) expect(text).not.toContain(`\`${other}`);
  });

  it('names the command inside a file the guard read, and where it was found', () => {
    expect(reason('npm run release')).toContain('refused `git push --follow-tags` (in `npm run release`, package.json script "release")');
    expect(reason('npm run release')).toContain('refused `npm publish` (in `npm run release`, package.json script "release")');
    expect(reason('node scripts/tag.js')).toMatch(/refused `execSync\(`git tag v\$\{require\('\.\.\/package\.json'\)\.version\}`\);` \(in `node scripts\/tag\.js`, scripts\/tag\.js\)/);
    expect(reason('bash -c "npm test; git push"')).toContain('refused `git push` (in `bash -c "npm test; git push"`)');
  });

  it('says what to do instead, for that program', () => {
    expect(reason('git commit -m x')).toMatch(/Instead: leave the change in the working tree; the user reviews and commits it after the run\./);
    expect(reason('git push')).toMatch(/Instead: nothing: the user pushes after the run\./);
    expect(reason('npm publish')).toMatch(/Instead: nothing: the user publishes after the run\./);
    expect(reason('gh pr merge 3')).toMatch(/Instead: nothing: the user releases and merges on the forge after reviewing the run\./);
    expect(reason('git stash')).toMatch(/Instead: set changes aside with `git diff > changes.patch`/);
    expect(reason('git checkout -b topic')).toMatch(/Instead: work on the current branch/);
    expect(reason('$CMD --version')).toMatch(/Instead: write the command out literally/);
    expect(reason('$GIT push origin main', true)).toMatch(/the git verb push .*Instead: nothing: the user pushes after the run\./);
  });

  it('names each refused part of a compound command, at most three', () => {
    const text = reason('git commit -m a; git push; npm publish; git tag v1');
    expect(text).toContain('refused `npm publish`');
    expect(text).toContain('refused `git push`');
    expect(text).toContain('refused `git commit -m a`');
    expect(text).toContain('and 1 more part');
  });
});
