import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SKILLS } from '../../compiler/cli/commands/init.js';
import { leopold, leopoldBinary, root } from '../support/built-dist.js';
import { tempDir } from '../support/temp.js';

// The everyday skills init installs (templates/skill): who may start them (the model must
// not stop a run or write a brief on its own), the commands their `!` lines run before the
// model reads them (pre-approved by allowed-tools, so no prompt interrupts a stop), and the
// example brief /leopold-brief adapts, which `leopold graph --strict` must accept.

const template = (skill: string) => readFileSync(join(root, 'templates', 'skill', skill, 'SKILL.md'), 'utf8');
function frontmatter(text: string): Record<string, string> {
  const block = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
  return Object.fromEntries(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
}

let bin: string;
beforeAll(async () => {
  bin = await leopoldBinary();
});

describe('the everyday skills', () => {
  it('init installs every skill folder of templates/skill', () => {
    expect([...SKILLS].sort()).toEqual(['leopold-brief', 'leopold-run', 'leopold-status', 'leopold-stop', 'leopold-workflow']);
  });

  it('/leopold-stop and /leopold-brief are the user\'s to start; /leopold-status may be read by the model', () => {
    expect(frontmatter(template('leopold-stop'))).toMatchObject({ name: 'leopold-stop', 'disable-model-invocation': 'true' });
    expect(frontmatter(template('leopold-brief'))).toMatchObject({ name: 'leopold-brief', 'disable-model-invocation': 'true' });
    expect(frontmatter(template('leopold-status'))['disable-model-invocation']).toBeUndefined();
  });

  it('status and stop run their command before the model reads them, pre-approved by allowed-tools', () => {
    for (const [skill, command] of [
      ['leopold-status', 'run status'],
      ['leopold-stop', 'run stop'],
    ] as const) {
      const text = template(skill);
      expect(text).toContain(`!\`{{LEOPOLD}} ${command}\``);
      expect(frontmatter(text)['allowed-tools']).toBe(`Bash({{LEOPOLD}} ${command})`);
    }
  });

  it('the example brief in /leopold-brief passes leopold graph --strict', () => {
    const text = template('leopold-brief');
    const dir = tempDir('leopold-brief-');
    mkdirSync(join(dir, '.leopold'));
    for (const file of ['PLAN.md', 'GUARDRAILS.md']) {
      const example = new RegExp(`<!-- leopold-brief example: ${file.replace('.', '\\.')} -->\\n\`\`\`md\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1];
      expect(example, file).toBeDefined();
      writeFileSync(join(dir, '.leopold', file), example!);
    }
    const graph = leopold(bin, dir, ['graph', '--strict']);
    expect(graph.stderr).toBe('');
    expect(graph.code).toBe(0);
    expect(text).toContain(`${'{{LEOPOLD}}'} graph --strict`);
  });
});
