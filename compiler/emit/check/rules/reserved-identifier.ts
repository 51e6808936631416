import type { HostContractRule } from '../rule.js';
import { spanOfNode, violation } from '../violation.js';

const RESERVED_PREFIX = '__wRg$';

/** No identifier starting with `__wRg$`, property and private names included (a token-level check). */
export const checkReservedIdentifier: HostContractRule = ({ file, nameTokens }) =>
  nameTokens
    .filter((token) => token.name.startsWith(RESERVED_PREFIX))
    .map((token) =>
      violation(
        'host-contract/reserved-identifier',
        file,
        spanOfNode(token),
        `found the identifier \`${token.name}\`; expected no identifier starting with \`${RESERVED_PREFIX}\``,
      ),
    );
