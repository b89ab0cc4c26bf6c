import type { CheckDef } from '../types.ts';
import { fail, gate, pass, redact, SPEC } from './util.ts';

/** Something at the target answers like MCP: a JSON-RPC body, or a credential challenge. */
export const check: CheckDef = {
  id: 'mcp.endpoint.resolved',
  title: 'An MCP endpoint answers at the target',
  level: 'must',
  spec: `${SPEC}/basic/transports#streamable-http`,
  evaluate(ev) {
    if (ev.endpoint) {
      const how = ev.legacySse ? 'a legacy HTTP+SSE endpoint event' : ev.init?.verdict === 'policy' ? 'a credential challenge' : 'a JSON-RPC response';
      return pass(`${redact(ev.endpoint)} answered with ${how} (found via ${ev.resolvedVia}).`, ev.legacySse ?? ev.init);
    }
    const blocked = gate(ev.init, 'Endpoint');
    if (blocked || ev.attempts.length === 0) return blocked ?? gate(null, 'Endpoint')!;
    return fail(`No candidate answered like MCP: ${ev.attempts.map((a) => `${a.label} → HTTP ${a.status}`).join('; ')}.`, ev.init);
  },
};
