import { describe, expect, it } from 'vitest';
import { postNotification } from '../../runtime/notify/index.js';
import { webhookServers } from '../support/webhook-server.js';

const server = webhookServers();

const payload = { title: 'Leopold run ended: plan_complete', body: 'Plan: 2/2 items done' };

describe('postNotification', () => {
  it('POSTs { title, body } as JSON and reports the status', async () => {
    const hook = await server({ status: 204 });
    expect(await postNotification(hook.url, payload)).toEqual({ ok: true, status: 204 });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]).toMatchObject({ method: 'POST', url: '/hook', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(hook.received[0]!.body)).toEqual(payload);
  });

  it('a non-2xx answer is not ok, with its status', async () => {
    const hook = await server({ status: 500 });
    expect(await postNotification(hook.url, payload)).toEqual({ ok: false, status: 500, error: 'HTTP 500' });
  });

  it('a server that never answers: not ok within the timeout, no throw', async () => {
    const hook = await server('hang');
    // The answer names the timeout that fired: the server never answered, the POST gave up.
    expect(await postNotification(hook.url, payload, { timeoutMs: 300 })).toEqual({ ok: false, error: 'no answer within 300 ms' });
  });

  it('nothing listening, a bad URL, a non-http URL: an error, never a throw', async () => {
    const hook = await server();
    await hook.close();
    const refused = await postNotification(hook.url, payload, { timeoutMs: 1000 });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/ECONNREFUSED/);
    expect(await postNotification('not a url', payload)).toMatchObject({ ok: false, error: expect.any(String) });
    expect(await postNotification('ftp://example.com/x', payload)).toEqual({ ok: false, error: 'not an http(s) URL (ftp:)' });
  });
});
