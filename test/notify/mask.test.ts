import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskSecrets, notifyPayload, runEndPayload, SECRET_PATTERNS } from '../../runtime/notify/index.js';

describe('maskSecrets', () => {
  // One row per documented pattern: what it sees, what must be left.
  it.each([
    ['openai-anthropic', 'key sk-proj-AbCdEf0123456789xyz used', 'key sk-*** used'],
    ['openai-anthropic', 'sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA', 'sk-***'],
    ['github-token', 'push with ghp_0123456789abcdefghijABCDEFGHIJ', 'push with ghp_***'],
    ['github-token', 'gho_0123456789abcdefghij', 'gho_***'],
    ['github-pat', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'github_pat_***'],
    ['slack-token', 'xoxb-1234567890-abcdefghij and xoxp-99999-88888-zzzz', 'xoxb-*** and xoxp-***'],
    ['aws-access-key', 'AWS AKIAIOSFODNN7EXAMPLE here', 'AWS AKIA*** here'],
    ['bearer', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc', 'Authorization: Bearer ***'],
    ['key-value', 'password=hunter2 then', 'password=*** then'],
    ['key-value', 'GITHUB_TOKEN: abc123 / client_secret="two words" / api_key=k1 / API-KEY = k2', 'GITHUB_TOKEN: *** / client_secret=*** / api_key=*** / API-KEY = ***'],
    ['key-value', 'https://x.example/cb?token=abc&page=2', 'https://x.example/cb?token=***&page=2'],
    ['url-userinfo', 'cloned https://alice:s3cr3t@git.example.com/repo.git', 'cloned https://***@git.example.com/repo.git'],
    ['url-userinfo', 'https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz@github.com/o/r', 'https://***@github.com/o/r'],
  ])('%s: %s', (name, text, masked) => {
    expect(SECRET_PATTERNS.map((p) => p.name)).toContain(name);
    expect(maskSecrets(text)).toBe(masked);
  });

  it('leaves ordinary report text alone', () => {
    const report = [
      'Leopold run ended: plan_complete',
      'Engine: session · iterations: 4 · failures: 1 (implementer: 1) · rescue used: no · plan changes: 0/3',
      'Plan: 5/5 items done',
      '',
      'What I decided for you (riskiest first):',
      '- D1 escalation, item 2 — Chose the schema migration order (reversible; Reversal: Re-run the down migration.)',
      'See https://github.com/owner/repo/pull/12 and mailto:ops@example.com; the task-force met.',
      'max_tokens: 4096, tokens used: 12, skip sk-short, ghp_short, AKIA123, the bearer of news, Bearer short',
      'password policy reviewed; the secret sauce; a token gesture.',
      'C:\\Users\\ask-ebcdefghijklmnopqrstuv (no boundary before sk-)',
    ].join('\n');
    expect(maskSecrets(report)).toBe(report);
  });

  it('is idempotent and never lengthens a masked secret back', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('', 'password=x ', 'sk-AAAAAAAAAAAAAAAAAAAA ', 'https://u:p@h/ ', 'Bearer abcdefgh12 '), (text, secret) => {
        const once = maskSecrets(secret + text);
        expect(maskSecrets(once)).toBe(once);
      }),
    );
  });
});

describe('notifyPayload', () => {
  it('masks title and body', () => {
    expect(notifyPayload('token=abc', 'xoxb-1234567890-abcdef')).toEqual({ title: 'token=***', body: 'xoxb-***' });
  });

  it('a run-end report: first line is the title, the whole report the body', () => {
    expect(runEndPayload('Leopold run ended: kill_switch\nPlan: 1/3 items done\npassword: p4ss')).toEqual({
      title: 'Leopold run ended: kill_switch',
      body: 'Leopold run ended: kill_switch\nPlan: 1/3 items done\npassword: ***',
    });
  });
});
