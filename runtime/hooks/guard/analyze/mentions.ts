import type { Finding } from '../findings.js';

// The fail-closed net for text the guard cannot analyse precisely (it did not parse, or a
// command name, verb or script is computed at run time): does it mention git together
// with a guarded verb? Quotes and backslashes are dropped first so `g'i't` still reads git.
const GIT = /(?:^|[^A-Za-z0-9_.-])git(?:\.exe)?(?=$|[^A-Za-z0-9_-])|(?:^|[^A-Za-z0-9_.-])git-[a-z]/i;
const COMMIT_VERB = /(?:^|[^A-Za-z0-9_-])(?:commit|merge|cherry-pick|revert|am|rebase|commit-tree|pull|filter-branch|fast-import|subtree|tag|branch|update-ref|symbolic-ref|stash|notes|replace|worktree|reset|switch)(?=$|[^A-Za-z0-9_-])/i;
const PUSH_VERB = /(?:^|[^A-Za-z0-9_-])(?:push|send-pack|http-push|dcommit)(?=$|[^A-Za-z0-9_-])/i;
const FORCE = /--(?:force|mirror|delete|prune)|(?:^|\s)-[A-Za-z]*[fd](?=\s|$)|(?:^|\s)\+[^\s+]|(?:^|\s):[A-Za-z]/;
const STOP = /STOP(?![A-Za-z0-9_])/i;
const REMOVAL = /\b(?:rm|unlink|rmdir|remove|rmSync|unlinkSync|rename|renameSync|delete|shred|trash|mv)\b/;

function variants(text: string): string[] {
  const stripped = text.replace(/['"\\`]/g, '');
  return stripped === text ? [text] : [text, stripped];
}

/** Findings for text that mentions git with a guarded verb (the unparseable/computed case). */
export function mentionFindings(text: string, why: string): Finding[] {
  const findings: Finding[] = [];
  for (const t of variants(text)) {
    if (!GIT.test(t)) continue;
    if (COMMIT_VERB.test(t)) findings.push({ lock: 'commit', what: `${why} and mentions a git verb that commits or moves a ref` });
    if (PUSH_VERB.test(t)) {
      findings.push({ lock: 'push', what: `${why} and mentions git push` });
      if (FORCE.test(t)) findings.push({ lock: 'force', what: `${why} and mentions git push with a force or delete option` });
    }
  }
  return findings;
}

/** Does code we cannot run (an interpreter's inline script) mention removing the kill switch? */
export function mentionsStopRemoval(text: string): boolean {
  // The word STOP (any case beside a .leopold mention, as on a case-insensitive file system), with a removal call.
  const named = /(?<![A-Za-z0-9_])STOP(?![A-Za-z0-9_])/.test(text) || (/\.leopold/.test(text) && STOP.test(text));
  return named && REMOVAL.test(text);
}

/** Force spellings anywhere in the text (for a push whose arguments are partly computed). */
export function mentionsForce(text: string): boolean {
  return variants(text).some((t) => FORCE.test(t));
}
