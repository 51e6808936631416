import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScriptedModel } from './model.js';
import type { MessagesRequest } from './request.js';
import type { ModelScript } from './script.js';
import { writeApiError, writeMessageStream } from './sse.js';

/** A running scripted model server (127.0.0.1, a free port). */
export interface ModelServer {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  url: string;
  model: ScriptedModel;
  /** Every request body, in arrival order (kept only with `keepRequests`). */
  requests: { agentId: string | null; body: MessagesRequest }[];
  close(): Promise<void>;
}

/** Request bodies larger than this are refused (a client conversation is far smaller). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Starts the scripted model on 127.0.0.1 and a random free port. It answers
 * `POST /v1/messages` (streamed or not) from the model script; everything else is a 404.
 * With `logFile`, every request and the reply it got are appended to it as JSON lines;
 * `onRequest` sees each request before it is answered.
 */
export async function startModelServer(
  script: ModelScript,
  options: { logFile?: string; keepRequests?: boolean; onRequest?: (body: MessagesRequest, agentId: string | null) => void } = {},
): Promise<ModelServer> {
  const model = new ScriptedModel(script);
  const kept: ModelServer['requests'] = [];
  let requests = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      requests += 1;
      if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages') || size > MAX_BODY_BYTES) {
        writeApiError(res, 404, `scripted model: no such endpoint ${req.method ?? ''} ${req.url ?? ''}`);
        return;
      }
      let body: MessagesRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as MessagesRequest;
      } catch {
        writeApiError(res, 400, 'scripted model: the request body is not JSON');
        return;
      }
      const header = req.headers['x-claude-code-agent-id'];
      const agentId = typeof header === 'string' && header !== '' ? header : null;
      if (options.keepRequests) kept.push({ agentId, body });
      // Before the reply: the client is waiting, so what the last tool call left is settled.
      options.onRequest?.(body, agentId);
      let reply;
      try {
        reply = model.reply(body, agentId);
      } catch (error) {
        reply = { kind: 'error' as const, status: 500, message: `scripted model: ${(error as Error).message}` };
      }
      if (options.logFile) {
        appendFileSync(options.logFile, `${JSON.stringify({ n: requests, agentId, entry: model.log.at(-1) ?? null, request: body })}\n`);
      }
      if (reply.kind === 'error') writeApiError(res, reply.status, reply.message);
      else if (body.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `msg_${requests}`, type: 'message', role: 'assistant', model: body.model ?? 'scripted', content: reply.blocks, stop_reason: reply.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
      } else writeMessageStream(res, `msg_${requests}`, body.model ?? 'scripted', reply.blocks);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    model,
    requests: kept,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
