/**
 * `agent-readiness scan`: one run from request to exit code. Hosted mode asks
 * the API for the two-network scan, probes the same grid from the caller's
 * network, uploads it once, and gates; local mode runs the engine here, and so does an
 * authenticated preview (--header), whose headers must never reach the API (preview.ts).
 * stdout carries only the report (or the one JSON document); progress,
 * warnings and errors go to stderr.
 */
import fs from 'node:fs/promises';
import { normalizeDomain } from '../net/domain.ts';
import { domainInText } from '../report/domain-name.ts';
import type { LocalTarget, ScanOptions } from './args.ts';
import type { ScanReport } from './api.ts';
import { baselineFrom, baselineRefusal, combineExit, decideCheckGates, otherDomain, readBaseline, unknownAssertIds, withRefusals, type Baseline, type CatalogIds, type ChecksGate } from './check-gates.ts';
import { couldNotTestJunit, couldNotTestMarkdown, renderJunit, renderMarkdown, type RunSummary } from './formats.ts';
import { decideGate, EXIT, type GateResult } from './gate.ts';
import { startProgress } from './progress.ts';
import type { Env } from './proxy-env.ts';
import { renderHuman, type HumanView } from './render.ts';
import { cleanDeep, cleanText } from './sanitize.ts';
import { colourEnabled, makeStyle } from './style.ts';
import type { UploadResult, UserVantage } from './vantage.ts';
import type { LocalScan } from './local.ts';
import { previewDeploymentNotice, previewLabel } from './headers.ts';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Env;
  version: string;
}

interface Finished {
  mode: 'hosted' | 'local' | 'preview';
  report: ScanReport;
  fixes: Map<string, string>;
  vantage: UserVantage | null;
  vantageProblem: string | null;
  upload: UploadResult;
  localOrigin?: string;
  /** --header: the origin they went to and their names (never their values). */
  authenticated?: { origin: string; headers: string[] };
  /** The --baseline to compare with (absent when none, or when --write-baseline replaces it). */
  baseline: { file: string; doc: Baseline } | null;
}

type Outcome = Finished | { couldNotTest: string; details: Record<string, unknown> };

/**
 * Before any scan: --assert ids must exist in the catalog and a --baseline must match it
 * (and the domain, when the target names one), so a typo, a stale file or another site's
 * baseline is "could not test" at once, not after a 30-second scan.
 */
async function prepareGates(opts: ScanOptions, catalog: () => Promise<CatalogIds | string>, domain?: string): Promise<{ baseline: Finished['baseline'] } | { couldNotTest: string; details: Record<string, unknown> }> {
  const compare = opts.baseline !== undefined && !opts.writeBaseline;
  if (!opts.asserts.length && !compare) return { baseline: null };
  const cat = await catalog();
  if (typeof cat === 'string') return { couldNotTest: `the check catalog is needed for --assert/--baseline and could not be read: ${cat}`, details: {} };
  const unknown = unknownAssertIds(opts.asserts, cat);
  if (unknown) return { couldNotTest: unknown, details: { validIds: cat.ids } };
  if (!compare) return { baseline: null };
  const file = opts.baseline!;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { couldNotTest: code === 'ENOENT' ? `the baseline ${file} does not exist; write one with --baseline ${file} --write-baseline` : `the baseline ${file} cannot be read (${code ?? String(err)})`, details: {} };
  }
  const doc = readBaseline(file, text, cat, domain);
  return typeof doc === 'string' ? { couldNotTest: doc, details: { baseline: file } } : { baseline: { file, doc } };
}

export async function runScan(opts: ScanOptions, local: LocalTarget | null, io: CliIo): Promise<number> {
  const progress = startProgress(io.stderr, true);
  const warn = (msg: string) => io.stderr.write(`agent-readiness: ${msg}\n`);
  let done: Outcome;
  try {
    done = local ? await runLocal(local, opts, progress.phase)
      : opts.headers?.length ? await runPreview(opts, io, progress.phase)
        : await runHosted(opts, io, progress.phase);
  } catch (err) {
    // Anything unexpected is still "could not test", and --json still gets its one document.
    done = { couldNotTest: err instanceof Error ? err.message : String(err), details: {} };
  } finally {
    progress.stop();
  }
  // Text from the site (and from the API) reaches terminals, CI logs and summaries only as clean lines.
  done = cleanDeep(done);
  const mode = local ? 'local' : opts.headers?.length ? 'preview' : 'hosted';
  const cli = { version: io.version, mode, ...(mode === 'hosted' ? { api: opts.api } : {}) };
  if ('couldNotTest' in done) {
    warn(`could not test: ${done.couldNotTest}`);
    if (opts.format === 'json') writeJson(io, { cli, report: null, error: { message: done.couldNotTest, ...done.details }, gate: { minScore: opts.minScore ?? null, result: 'could-not-test', message: 'the scan did not run' }, exitCode: EXIT.couldNotTest });
    else if (opts.format === 'junit') io.stdout.write(couldNotTestJunit(opts.target, done.couldNotTest));
    const md = couldNotTestMarkdown(opts.target, done.couldNotTest);
    if (opts.format === 'markdown') io.stdout.write(md);
    await appendStepSummary(io, md, warn);
    return EXIT.couldNotTest;
  }

  const gate: GateResult = decideGate(done.report, opts.minScore);
  // The report names the domain for certain (a target may be a pasted URL): another site's baseline says nothing here.
  const wrongSite = done.baseline ? otherDomain(done.baseline.file, done.baseline.doc, done.report.domain) : null;
  // A baseline is what later runs are compared with: never write one from a scan that measured too little.
  const noBaseline = opts.writeBaseline ? baselineRefusal(done.report) : null;
  const checks: ChecksGate = withRefusals(
    decideCheckGates(done.report.checks, opts.asserts, wrongSite ? null : done.baseline, done.report.score.rubricVersion),
    [wrongSite, noBaseline].filter((m): m is string => m !== null).map(cleanText),
  );
  const exitCode = combineExit(gate.exitCode, checks.exitCode);
  // Every format says when headers were sent, and when the site is a preview deployment.
  const deployment = previewDeploymentNotice(done.report);
  const notices = [...(done.authenticated ? [previewLabel(done.authenticated.origin, done.authenticated.headers)] : []), ...(deployment ? [deployment] : [])];
  if (deployment && opts.minScore !== undefined) warn(`warning: --min-score was judged on a preview deployment: ${deployment}`);
  if (done.upload.status === 'failed') warn(`warning: your network's results were not attached: ${done.upload.reason}`);
  else if (done.upload.status === 'not-uploaded' && done.mode === 'hosted') warn(`not uploading your network's results: ${done.upload.reason}`);
  if (done.vantageProblem) warn(`warning: could not probe from your network: ${done.vantageProblem}`);
  if (gate.exitCode === EXIT.couldNotTest) warn(`could not test: ${gate.message}`);
  for (const m of checks.messages) warn(m);
  if (opts.writeBaseline && opts.baseline && !noBaseline) {
    await fs.writeFile(opts.baseline, `${JSON.stringify(baselineFrom(done.report, new Date().toISOString()), null, 2)}\n`);
    warn(`baseline written to ${opts.baseline} (${done.report.checks.length} checks, ${done.report.score.rubricVersion})`);
  }

  const summary: RunSummary = { report: done.report, gate, checks, exitCode, fixes: done.fixes, where: done.localOrigin ?? domainInText(done.report.domain), notices };
  if (opts.format === 'json') {
    writeJson(io, {
      cli,
      report: done.report,
      userNetwork: done.vantage,
      ...(done.vantageProblem ? { userNetworkProblem: done.vantageProblem } : {}),
      upload: done.upload,
      gate,
      assertions: checks.assertions,
      baseline: checks.baseline,
      ...(checks.refusals.length ? { refusals: checks.refusals } : {}),
      authenticatedPreview: done.authenticated ?? null,
      previewDeployment: deployment,
      exitCode,
    });
  } else if (opts.format === 'markdown') {
    io.stdout.write(renderMarkdown(summary));
  } else if (opts.format === 'junit') {
    io.stdout.write(renderJunit(summary));
  } else {
    const view: HumanView = { ...done, gate, checks, notices, ...(done.localOrigin ? { localOrigin: done.localOrigin } : {}) };
    io.stdout.write(renderHuman(view, makeStyle(colourEnabled(io.stdout, io.env))));
  }
  await appendStepSummary(io, renderMarkdown(summary), warn);
  return exitCode;
}

/** GitHub Actions shows $GITHUB_STEP_SUMMARY on the run page; a failure to write it is only a warning. */
async function appendStepSummary(io: CliIo, markdown: string, warn: (m: string) => void): Promise<void> {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    await fs.appendFile(file, markdown);
  } catch (err) {
    warn(`warning: could not append to GITHUB_STEP_SUMMARY (${(err as Error).message})`);
  }
}

function writeJson(io: CliIo, doc: unknown): void {
  io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}

/** The upload token is a write credential for this one report: it never reaches logs or output. */
function withoutToken(report: ScanReport): ScanReport {
  const { cliUploadToken: _spent, ...rest } = report;
  return rest;
}

async function runHosted(opts: ScanOptions, io: CliIo, phase: (t: string) => void): Promise<Outcome> {
  // Show life on a terminal before the heavier modules (client, validators, undici) load.
  phase(`starting a scan of ${opts.target}`);
  const { connectApi } = await import('./api.ts');
  const { probeFromHere, uploadVantage } = await import('./vantage.ts');
  const api = connectApi(opts.api, io.env, io.version);
  try {
    const target = normalizeDomain(opts.target);
    const prepared = await prepareGates(opts, async () => {
      const c = await api.catalog(opts.rubric);
      return c.ok ? c : c.message;
    }, target.ok ? target.domain : undefined);
    if ('couldNotTest' in prepared) return prepared;
    phase(`scanning ${opts.target} from networkA and networkB (10-30 s)`);
    const fixes = api.fixes(opts.rubric);
    const answer = await api.scan({
      domain: opts.target,
      lead: { name: opts.name!, email: opts.email! },
      ...(opts.fresh ? { fresh: true } : {}),
      ...(opts.profile ? { profile: opts.profile } : {}),
      ...(opts.intent ? { intent: opts.intent } : {}),
      ...(opts.rubric ? { rubric: opts.rubric as 'rubric-v1.2' } : {}),
    });
    if (!answer.ok) {
      await fixes;
      const { message, ok: _ok, error, ...details } = answer;
      return { couldNotTest: message, details: { ...details, ...(error ? { body: error } : {}) } };
    }
    const report = answer.report;
    phase(`probing ${domainInText(report.domain)} from your network`);
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
    return { mode: 'hosted', report: withoutToken(report), fixes: await fixes, vantage, vantageProblem, upload, baseline: prepared.baseline };
  } finally {
    await api.close();
  }
}

async function runLocal(target: LocalTarget, opts: ScanOptions, phase: (t: string) => void): Promise<Outcome> {
  const { scanLocally, localOrigin, localCatalog } = await import('./local.ts');
  const prepared = await prepareGates(opts, async () => localCatalog(opts.rubric), target.display);
  if ('couldNotTest' in prepared) return prepared;
  phase(`scanning ${localOrigin(target)} from this machine`);
  const scan = await scanLocally(target, { ...(opts.profile ? { profile: opts.profile } : {}), ...(opts.rubric ? { rubric: opts.rubric } : {}), ...(opts.intent ? { intent: opts.intent } : {}) }, opts.headers ?? []);
  // Nothing listening is the local twin of an unreachable API: there was nothing to test.
  const control = scan.observations.find((o) => o.key === 'control:browser');
  if (scan.outcomes['control:browser'] === 'transport-error') {
    return { couldNotTest: `nothing answered at ${scan.origin} (${control?.error ?? 'no answer'}). Is your server running on that port?`, details: { origin: scan.origin } };
  }
  return {
    ...ranHere('local', scan, 'local scans upload nothing', prepared.baseline),
    localOrigin: scan.origin,
    ...(opts.headers?.length ? { authenticated: { origin: scan.origin, headers: opts.headers.map(([n]) => n) } } : {}),
  };
}

/** A run on this machine (local or preview): its grid is the only vantage, and nothing is uploaded. */
function ranHere(mode: 'local' | 'preview', scan: LocalScan, notUploaded: string, baseline: Finished['baseline']): Finished {
  return {
    mode, report: scan.report, fixes: scan.fixes,
    vantage: { observedAt: scan.report.scannedAt, via: 'this machine', observations: scan.observations, outcomes: scan.outcomes },
    vantageProblem: null, upload: { status: 'not-uploaded', reason: notUploaded }, baseline,
  };
}

/** --header: the whole rubric on this machine against the protected deployment; no API is contacted. */
async function runPreview(opts: ScanOptions, io: CliIo, phase: (t: string) => void): Promise<Outcome> {
  const { scanPreview } = await import('./preview.ts');
  const { localCatalog } = await import('./local.ts');
  const target = normalizeDomain(opts.target);
  const prepared = await prepareGates(opts, async () => localCatalog(opts.rubric), target.ok ? target.domain : undefined);
  if ('couldNotTest' in prepared) return prepared;
  phase(`scanning ${opts.target} from this machine (authenticated preview)`);
  const scan = await scanPreview(opts.target, opts.headers ?? [], io.env, { ...(opts.profile ? { profile: opts.profile } : {}), ...(opts.rubric ? { rubric: opts.rubric } : {}), ...(opts.intent ? { intent: opts.intent } : {}) });
  return { ...ranHere('preview', scan, 'an authenticated preview uploads nothing', prepared.baseline), authenticated: { origin: scan.origin, headers: scan.headerNames } };
}
