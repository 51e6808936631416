import { join, relative } from 'node:path';
import { BRIEF_FILES, readGuardrails, readOptionalTextFile } from '../../brief/index.js';
import { sortDiagnostics } from '../../diagnostics/diagnostic.js';
import { analyzePlan } from '../../index.js';
import { fail, pass, type DoctorCheck, type DoctorContext } from '../check.js';

const SHOWN = 5;

/**
 * The plan is valid as `leopold graph --strict` judges it: no error and no warning in
 * PLAN.md or GUARDRAILS.md. (The size a compiled script may have is compile's check.)
 */
export function checkPlan(ctx: DoctorContext): DoctorCheck {
  if (ctx.leopoldDir === null) return fail('plan', `no .leopold/ at or above ${ctx.root}`, 'run npx leopold init, then write the brief (/leopold-brief in Claude Code)');
  const planPath = join(ctx.leopoldDir, BRIEF_FILES.plan);
  const text = readOptionalTextFile(planPath, 'plan file');
  if (text === '') return fail('plan', `${relative(ctx.root, planPath)} is missing or empty`, 'write the plan (/leopold-brief in Claude Code), then run npx leopold graph --strict');
  const analysis = analyzePlan(text, relative(ctx.root, planPath));
  const guardrails = readGuardrails(join(ctx.leopoldDir, BRIEF_FILES.guardrails));
  const found = sortDiagnostics([...analysis.diagnostics, ...guardrails.diagnostics.map((d) => ({ ...d, file: relative(ctx.root, d.file) || d.file }))]);
  if (found.length > 0) {
    const lines = found.slice(0, SHOWN).map((d) => `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`);
    if (found.length > SHOWN) lines.push(`and ${found.length - SHOWN} more`);
    return fail('plan', lines.join('\n'), 'run npx leopold graph --strict and fix what it reports (each line has a hint), or let /leopold-brief do it');
  }
  const items = analysis.ir.items;
  return pass('plan', `${relative(ctx.root, planPath)}: ${items.length} item${items.length === 1 ? '' : 's'} (${items.filter((item) => item.done).length} done), valid under graph --strict`);
}
