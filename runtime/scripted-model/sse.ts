import type { ServerResponse } from 'node:http';

/** One content block of a scripted assistant message. */
export type ReplyBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** A scripted reply: an assistant message, or an API error (a final one: the client does not retry a 400). */
export type Reply = { kind: 'message'; blocks: ReplyBlock[] } | { kind: 'error'; status: number; message: string };

/**
 * Writes an assistant message as the Messages API streams it (docs/host.md):
 * message_start, one content_block_start/delta/stop per block (text_delta or
 * input_json_delta), message_delta with the stop reason, message_stop.
 */
export function writeMessageStream(res: ServerResponse, id: string, model: string, blocks: readonly ReplyBlock[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: Record<string, unknown>) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', {
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  });
  const stop = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
  send('message_stop', {});
  res.end();
}

/** The Messages API's error type for an HTTP status. */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** An API error body as the Messages API sends it. */
export function writeApiError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } }));
}
