import fc from 'fast-check';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeCommand, decide, parseShell, runGuard } from '../../runtime/hooks/guard/index.js';

const ctx = { cwd: '/proj', leopoldDir: '/proj/.leopold', home: '/home/dev' };
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'leopold-guard-fuzz-')));
mkdirSync(join(dir, '.leopold'));
writeFileSync(join(dir, '.leopold', 'state.json'), '{"active":true}');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Shell-ish pieces: words, operators, quotes, expansions, wrappers, git verbs and flags.
const TOKENS = [
  'git', 'push', 'commit', 'merge', 'rebase', '-f', '--force', '+main', ':old', '-C', 'dir', '-c', 'alias.x=push', 'x', 'status',
  'bash', 'sh', '-c', 'eval', 'env', 'sudo', '-u', 'nohup', 'timeout', '5', 'xargs', 'command', 'exec', 'rm', '-rf', '.leopold/STOP',
  ';', '&&', '||', '|', '&', '\n', '(', ')', '{', '}', '$(', '`', "'", '"', '\\', '$', '${', '}', '<<', 'EOF', '<<<', '>', '2>&1',
  'case', 'in', 'esac', ';;', 'if', 'then', 'fi', 'for', 'do', 'done', 'function', '()', '#', '*', '?', '[', ']', '=', 'A=1', '$\'', '\\x67',
];
const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).chain((tokens) =>
  fc.array(fc.constantFrom(' ', '', '  '), { minLength: tokens.length, maxLength: tokens.length }).map((seps) => tokens.map((t, i) => t + seps[i]).join('')),
);

describe('guard fuzz', () => {
  it('never throws on random strings and always decides allow or deny', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const findings = analyzeCommand(text, ctx);
        const { decision } = decide(findings, { allowGit: false, allowPush: false });
        expect(['allow', 'deny']).toContain(decision);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on shell-ish token soups; the parser fails only with its own error', () => {
    fc.assert(
      fc.property(soup, fc.boolean(), fc.boolean(), (text, allowGit, allowPush) => {
        try {
          parseShell(text);
        } catch (error) {
          expect((error as Error).name).toBe('ShellParseError');
        }
        const { decision } = decide(analyzeCommand(text, ctx), { allowGit, allowPush });
        expect(['allow', 'deny']).toContain(decision);
      }),
      { numRuns: 3000 },
    );
  });

  it('a script that starts with `git push -f` is denied whatever soup follows', () => {
    fc.assert(
      fc.property(soup, (text) => {
        const { decision } = decide(analyzeCommand(`git push -f\n${text}`, ctx), { allowGit: true, allowPush: true });
        expect(decision).toBe('deny');
      }),
      { numRuns: 1000 },
    );
  });

  it('runGuard never throws and prints nothing or one deny object', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), soup.map((command) => JSON.stringify({ tool_name: 'Bash', tool_input: { command }, cwd: dir })), fc.json()), (stdin) => {
        const out = runGuard(stdin, { env: {}, processCwd: dir });
        if (out !== '') expect(JSON.parse(out).hookSpecificOutput.permissionDecision).toBe('deny');
      }),
      { numRuns: 1000 },
    );
  });
});
