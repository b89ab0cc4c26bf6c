import type { CheckDef } from '../types.ts';
import { fail, gate, inconclusive, needsOpenEndpoint, pass, SPEC } from './util.ts';

/** A posted notification is accepted with 202 and no body. */
export const check: CheckDef = {
  id: 'mcp.transport.notification',
  title: 'Notifications get 202 Accepted',
  level: 'must',
  spec: `${SPEC}/basic/transports#sending-messages-to-the-server`,
  evaluate(ev) {
    const g = needsOpenEndpoint(ev, 'Notification');
    if (g) return g;
    if (!ev.notification) return inconclusive('not_applicable', 'No legacy handshake happened, so notifications/initialized was not sent.');
    const gn = gate(ev.notification, 'Notification');
    if (gn) return gn;
    const ex = ev.notification;
    if (ex.status === 202 && ex.text.trim() === '') return pass('202 with an empty body.', ex);
    if (ex.status === 202) return fail('202, but with a body.', ex);
    return fail(`HTTP ${ex.status} instead of 202.`, ex);
  },
};
