/**
 * Progress for a person waiting on a 10-30 s scan: elapsed time and the phase,
 * redrawn in place on stderr. Only on a terminal: logs and pipes get nothing,
 * and stdout is never touched (it carries the report or the JSON document).
 */
export interface Progress {
  phase(text: string): void;
  stop(): void;
}

const FRAMES = ['|', '/', '-', '\\'];

export function startProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, enabled: boolean): Progress {
  if (!enabled || !stream.isTTY) return { phase: () => undefined, stop: () => undefined };
  const started = performance.now();
  let text = '';
  let frame = 0;
  const draw = () => {
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${secs}s  ${text}`);
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  // Ctrl-C mid-scan: leave a clean line behind, then stop the way the shell expects (128 + SIGINT).
  const interrupted = () => {
    clearInterval(timer);
    stream.write('\r\x1b[Kagent-readiness: interrupted\n');
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  return {
    phase(next) {
      text = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      process.removeListener('SIGINT', interrupted);
      stream.write('\r\x1b[K');
    },
  };
}
