// Test doubles for the watches: a recording stand-in for webhook delivery (the real one is
// src/webhooks/deliveries.ts, tested in test/webhooks/), and a wait on a condition.
import type { DeliveryView, WebhookDeliveries, WebhookEvent as WatchEvent } from '../../src/webhooks/deliveries.ts';

export interface RecordingDeliveries extends WebhookDeliveries {
  sent: Array<{ watchId: string; url: string; secretVersion: number; event: WatchEvent }>;
  forgotten: string[];
}

export function recordingDeliveries(): RecordingDeliveries {
  const sent: RecordingDeliveries['sent'] = [];
  const forgotten: string[] = [];
  return {
    sent,
    forgotten,
    async send(d) {
      if (sent.some((s) => s.event.id === d.event.id)) return 'duplicate';
      sent.push(d);
      return 'queued';
    },
    async list(watchId, limit): Promise<DeliveryView[]> {
      return sent.filter((s) => s.watchId === watchId).reverse().slice(0, limit).map((s) => ({
        eventId: s.event.id, type: s.event.type, status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, createdAt: '2026-01-01T00:00:00.000Z', deliveredAt: null, nextAttemptAt: '2026-01-01T00:00:00.000Z', redeliveries: 0,
      }));
    },
    async forgetWatch(watchId) {
      forgotten.push(watchId);
    },
    async redeliver() {
      return { outcome: 'not-found' as const };
    },
  };
}

export async function until(cond: () => Promise<boolean> | boolean, what: string, ms = 60_000): Promise<void> {
  const stop = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
