import { HOST_SCRIPT_MAX_BYTES } from '../limits.js';
import type { HostContractRule } from '../rule.js';
import { spanAt, violation } from '../violation.js';

/** The file as given, in UTF-8 bytes, is at most 512 KiB. Raw bytes, so CRLF counts twice. */
export const checkSize: HostContractRule = ({ file, source, text }) => {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes <= HOST_SCRIPT_MAX_BYTES) return [];
  const kib = (bytes / 1024).toFixed(1);
  return [
    violation(
      'host-contract/size',
      file,
      spanAt(text, 0, text.length),
      `found a script of ${bytes.toLocaleString('en-US')} bytes (${kib} KiB); expected at most ${HOST_SCRIPT_MAX_BYTES.toLocaleString('en-US')} bytes (512 KiB)`,
    ),
  ];
};
