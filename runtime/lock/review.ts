import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { readLockRecord, tokenPath, type Grant } from './arm.js';
import { auditChanges, baselineHome, renderAudit, settledClock, takeBaseline, type AuditChange } from './audit.js';
import { layoutOf } from './layout.js';
import { LOCK_RECORD } from './paths.js';

// What `run finish` and `run unlock` ask of the audit (audit.ts): the changes since the
// lock was armed, and, once the user has reviewed them, a fresh baseline.

/** The changes since the lock was armed; null when it is not armed or its record holds no baseline (armed by an older Leopold). */
export function reviewLock(leopoldDir: string): AuditChange[] | null {
  const record = readLockRecord(leopoldDir);
  if (record?.audit === undefined || record === null) return null;
  const layout = layoutOf(leopoldDir);
  return auditChanges(layout, record.audit, baselineHome(layout, record.audit, homedir()), record.created ?? []);
}

/**
 * Accepts the changes the audit lists: the baseline is taken again, now. Only the user
 * can: lock.json is read-only inside Claude Code's sandbox, so the write fails there.
 */
export function acceptChanges(leopoldDir: string): void {
  const record = readLockRecord(leopoldDir);
  if (record === null) return;
  const layout = layoutOf(leopoldDir);
  const home = baselineHome(layout, record.audit, homedir());
  const sandbox = record.audit?.sandbox ?? false;
  writeFileAtomic(join(leopoldDir, LOCK_RECORD), `${JSON.stringify({ ...record, audit: takeBaseline(layout, home, settledClock(leopoldDir), sandbox) }, null, 2)}\n`);
}

/** What `run finish` or `run unlock` says about the audit, and whether it may hand the lock back. */
export function liftReview(leopoldDir: string, command: 'run finish' | 'run unlock', accept: boolean): { text: string; clean: boolean } {
  const changes = reviewLock(leopoldDir);
  if (changes === null) return { text: 'Audit: this lock was armed without a baseline (by an older Leopold), so nothing is compared.', clean: true };
  if (changes.length === 0) return { text: 'Audit: nothing the run could have planted to take effect later has changed since the run started.', clean: true };
  if (!accept) return { text: renderAudit(changes, command), clean: false };
  acceptChanges(leopoldDir);
  return { text: `Accepted ${changes.length} ${changes.length === 1 ? 'change' : 'changes'} you reviewed (the audit compares against now from here on):\n${changes.map((change) => `  ${change.path}: ${change.what}`).join('\n')}`, clean: true };
}

/** What ending the grants says (empty when there were none). */
export function grantsEndedText(result: { ended: Grant[]; kept: Grant[] }, when: string): string {
  const lines: string[] = [];
  if (result.ended.length > 0) lines.push(`Grant ended ${when} (${result.ended.map(tokenPath).join(', ')}): a grant lasts one run; give it again with \`leopold run allow ${result.ended.join('|')}\` once the next run has started.`);
  if (result.kept.length > 0) lines.push(`The grant stays (${result.kept.map(tokenPath).join(', ')}): Claude's sandbox keeps it read-only here; it ends when you run \`leopold run finish\` or \`leopold run unlock\` in your own terminal, or at the end of this turn.`);
  return lines.join('\n');
}
