// A watch's periods, from the moment it became active (its anchor): period n starts at
// anchor + n × length. Period 0 is the baseline run. Each run schedules the next period's job,
// named by the period ("watch-<id>.<n>"), so a period fires once however many instances or
// redeliveries schedule it. After downtime the schedule resumes at the current period rather
// than running every missed one back to back.
export const DAY_S = 86_400;
export const WEEK_S = 7 * DAY_S;

/** The period in ms: a day or a week, at most WATCH_INTERVAL_S when the operator set it. */
export function periodMs(every: 'day' | 'week', intervalS: number | undefined): number {
  const natural = every === 'week' ? WEEK_S : DAY_S;
  return Math.min(natural, intervalS ?? natural) * 1000;
}

export function periodStart(anchorMs: number, lengthMs: number, period: number): number {
  return anchorMs + period * lengthMs;
}

/** The period after `done`: the next one, or the current one when later periods were missed. */
export function nextPeriod(anchorMs: number, lengthMs: number, done: number, nowMs: number): number {
  const current = Math.floor((nowMs - anchorMs) / lengthMs);
  return Math.max(done + 1, current);
}

export function runJobId(watchId: string, period: number): string {
  return `watch-${watchId}.${period}`;
}
