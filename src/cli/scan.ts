/**
 * `agent-readiness scan`: one run from request to exit code. Hosted mode asks
 * the API for the two-network scan, probes the same grid from the caller's
 * network, uploads it once, and gates; local mode runs the engine here.
 * stdout carries only the report (or the one JSON document); progress,
 * warnings and errors go to stderr.
 */
import type { LocalTarget, ScanOptions } from './args.ts';
import type { ScanReport } from './api.ts';
import { decideGate, EXIT, type GateResult } from './gate.ts';
import { startProgress } from './progress.ts';
import type { Env } from './proxy-env.ts';
import { renderHuman, type HumanView } from './render.ts';
import { colourEnabled, makeStyle } from './style.ts';
import type { UploadResult, UserVantage } from './vantage.ts';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Env;
  version: string;
}

interface Finished {
  mode: 'hosted' | 'local';
  report: ScanReport;
  fixes: Map<string, string>;
  vantage: UserVantage | null;
  vantageProblem: string | null;
  upload: UploadResult;
  localOrigin?: string;
}

export async function runScan(opts: ScanOptions, local: LocalTarget | null, io: CliIo): Promise<number> {
  const progress = startProgress(io.stderr, true);
  const warn = (msg: string) => io.stderr.write(`agent-readiness: ${msg}\n`);
  let done: Finished | { couldNotTest: string; details: Record<string, unknown> };
  try {
    done = local ? await runLocal(local, opts, progress.phase) : await runHosted(opts, io, progress.phase);
  } catch (err) {
    // Anything unexpected is still "could not test", and --json still gets its one document.
    done = { couldNotTest: err instanceof Error ? err.message : String(err), details: {} };
  } finally {
    progress.stop();
  }

  const cli = { version: io.version, mode: local ? 'local' : 'hosted', ...(local ? {} : { api: opts.api }) };
  if ('couldNotTest' in done) {
    warn(`could not test: ${done.couldNotTest}`);
    if (opts.json) writeJson(io, { cli, report: null, error: { message: done.couldNotTest, ...done.details }, gate: { minScore: opts.minScore ?? null, result: 'could-not-test', message: 'the scan did not run' }, exitCode: EXIT.couldNotTest });
    return EXIT.couldNotTest;
  }

  const gate: GateResult = decideGate(done.report, opts.minScore);
  if (done.upload.status === 'failed') warn(`warning: your network's results were not attached: ${done.upload.reason}`);
  else if (done.upload.status === 'not-uploaded' && done.mode === 'hosted') warn(`not uploading your network's results: ${done.upload.reason}`);
  if (done.vantageProblem) warn(`warning: could not probe from your network: ${done.vantageProblem}`);
  if (gate.exitCode === EXIT.couldNotTest) warn(`could not test: ${gate.message}`);

  if (opts.json) {
    writeJson(io, {
      cli,
      report: done.report,
      userNetwork: done.vantage,
      ...(done.vantageProblem ? { userNetworkProblem: done.vantageProblem } : {}),
      upload: done.upload,
      gate,
      exitCode: gate.exitCode,
    });
  } else {
    const view: HumanView = { ...done, gate, ...(done.localOrigin ? { localOrigin: done.localOrigin } : {}) };
    io.stdout.write(renderHuman(view, makeStyle(colourEnabled(io.stdout, io.env))));
  }
  return gate.exitCode;
}

function writeJson(io: CliIo, doc: unknown): void {
  io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}

/** The upload token is a write credential for this one report: it never reaches logs or output. */
function withoutToken(report: ScanReport): ScanReport {
  const { cliUploadToken: _spent, ...rest } = report;
  return rest;
}

async function runHosted(opts: ScanOptions, io: CliIo, phase: (t: string) => void): Promise<Finished | { couldNotTest: string; details: Record<string, unknown> }> {
  // Show life on a terminal before the heavier modules (client, validators, undici) load.
  phase(`starting a scan of ${opts.target}`);
  const { connectApi } = await import('./api.ts');
  const { probeFromHere, uploadVantage } = await import('./vantage.ts');
  const api = connectApi(opts.api, io.env, io.version);
  try {
    phase(`scanning ${opts.target} from networkA and networkB (10-30 s)`);
    const fixes = api.fixes();
    const answer = await api.scan({
      domain: opts.target,
      lead: { name: opts.name!, email: opts.email! },
      ...(opts.fresh ? { fresh: true } : {}),
      ...(opts.profile ? { profile: opts.profile } : {}),
    });
    if (!answer.ok) {
      await fixes;
      const { message, ok: _ok, error, ...details } = answer;
      return { couldNotTest: message, details: { ...details, ...(error ? { body: error } : {}) } };
    }
    const report = answer.report;
    phase(`probing ${report.domain} from your network`);
    let vantage: UserVantage | null = null;
    let vantageProblem: string | null = null;
    try {
      vantage = await probeFromHere(report, io.env);
    } catch (err) {
      vantageProblem = err instanceof Error ? err.message : String(err);
    }
    let upload: UploadResult = { status: 'not-uploaded', reason: 'your network could not be probed' };
    if (vantage) {
      phase('attaching your network\'s results to the report');
      upload = await uploadVantage(api, report, vantage);
    }
    return { mode: 'hosted', report: withoutToken(report), fixes: await fixes, vantage, vantageProblem, upload };
  } finally {
    await api.close();
  }
}

async function runLocal(target: LocalTarget, opts: ScanOptions, phase: (t: string) => void): Promise<Finished | { couldNotTest: string; details: Record<string, unknown> }> {
  const { scanLocally, localOrigin } = await import('./local.ts');
  phase(`scanning ${localOrigin(target)} from this machine`);
  const scan = await scanLocally(target, opts.profile);
  // Nothing listening is the local twin of an unreachable API: there was nothing to test.
  const control = scan.observations.find((o) => o.key === 'control:browser');
  if (scan.outcomes['control:browser'] === 'transport-error') {
    return { couldNotTest: `nothing answered at ${scan.origin} (${control?.error ?? 'no answer'}). Is your server running on that port?`, details: { origin: scan.origin } };
  }
  return {
    mode: 'local',
    report: scan.report,
    fixes: scan.fixes,
    vantage: { observedAt: scan.report.scannedAt, via: 'this machine', observations: scan.observations, outcomes: scan.outcomes },
    vantageProblem: null,
    upload: { status: 'not-uploaded', reason: 'local scans upload nothing' },
    localOrigin: scan.origin,
  };
}
