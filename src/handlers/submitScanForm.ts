// POST /: the home page's form. The same scan service as POST /scan (lead policy, guard,
// exclusions, verification, limits, coalescing); this only maps form fields in and pages out:
// 303 to the permalink, the report inline for a never-archived tunnel host, or the form again
// with what to fix (400), why not (403), when to retry (429) or why the scan failed (502).
// With the page's script on, the scan's phases are also told to the progress board under
// the form's `progressId`, for the page to show while this request runs.
import { AppError } from '../errors.ts';
import { homeCsp, INTENT_FIELDS, renderHome, type FormProblem, type FormValues } from '../pages/home.ts';
import { renderReportPage } from '../report/page.ts';
import { PAGE_HEADERS } from '../report/styles.ts';
import type { Handler } from './types.ts';

const TITLES: Record<number, string> = {
  400: 'Please check the form',
  403: 'This scan cannot run',
  429: 'Too many scans for now',
  502: 'The scan could not complete',
};

function text(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

export const submitScanForm: Handler<'submitScanForm'> = async (req, res, ctx) => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const values: FormValues = {};
  for (const k of ['domain', 'name', 'email', 'phone', 'role', 'profile', 'rubric'] as const) {
    const v = text(body[k]);
    if (v !== undefined) values[k] = v;
  }
  // Advanced options: one select per role; an empty one is no wish. The scan service judges the
  // values against the contract's ScanIntent, so a forged value comes back as a form problem.
  const intent: Record<string, string> = {};
  for (const f of INTENT_FIELDS) {
    const v = text(body[`intent-${f.role}`]);
    if (v !== undefined) intent[f.role] = v;
  }
  if (Object.keys(intent).length) values.intent = intent;
  const opts = { baseUrl: ctx.config.baseUrl, ...(ctx.config.turnstileSiteKey ? { turnstileSiteKey: ctx.config.turnstileSiteKey } : {}) };
  // The page's script watches GET /scan/progress/{progressId}; a missing or malformed id watches nothing.
  const progress = ctx.services.progress.reporter(text(body.progressId));
  try {
    const out = await ctx.services.scans.scan({
      onProgress: progress.update,
      domain: values.domain ?? '',
      lead: { name: values.name, email: values.email, ...(values.phone ? { phone: values.phone } : {}), ...(values.role ? { role: values.role } : {}) },
      // Judged by the scan service against the contract's Profile enum, as on POST /scan.
      ...(values.profile ? { profile: values.profile } : {}),
      ...(values.intent ? { intent: values.intent } : {}),
      ...(values.rubric ? { rubric: values.rubric } : {}),
      turnstileToken: body['cf-turnstile-response'],
      clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    });
    progress.end('complete');
    res.set(out.headers);
    if (out.body.reportUrl) {
      res.status(303).location(`/r/${out.body.scanId}`).end();
      return;
    }
    // A tunnel host is never archived, so there is no permalink: show the report here.
    res.status(200).set(PAGE_HEADERS).type('text/html; charset=utf-8')
      .send(renderReportPage({ report: out.body, evidence: [], cliVantage: null, catalog: ctx.services.catalog }));
  } catch (err) {
    progress.end('failed');
    if (!(err instanceof AppError) || !TITLES[err.status]) throw err;
    const b = err.body;
    const problem: FormProblem = {
      title: TITLES[err.status]!,
      // The wait is said once, in words, below the message (see renderHome).
      message: inFormWords((b.detail ? `${b.error} ${b.detail}` : b.error).replace(/\s*Try again in \d+ seconds?\.$/, '')),
      ...(b.hint ? { hint: inFormWords(b.hint) } : {}),
      ...(b.retryAfterSeconds ? { retryAfterSeconds: b.retryAfterSeconds } : {}),
    };
    res.set(err.headers ?? {}).status(err.status).set('Cache-Control', 'no-store')
      .set('Content-Security-Policy', homeCsp(Boolean(opts.turnstileSiteKey))).type('text/html; charset=utf-8')
      .send(renderHome(opts, values, problem));
  }
};

/** The API's field names, as the form labels them: a person filled in "Your name", not `lead.name`. */
const FORM_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/`lead\.name`/g, 'Your name'], [/`lead\.email`/g, 'Your email'], [/`lead\.phone`/g, 'Phone'], [/`lead\.role`/g, 'Your role'],
  [/\(`lead` with name and email\)/g, '(your name and email)'], [/ in `lead`\./g, '.'], [/`domain`/g, 'Website'],
  [/`profile`/g, 'Kind of site'], [/Leave Kind of site out/g, 'Choose "detect it"'],
  [/`intent\.training`/g, 'What training crawlers get'], [/`intent\.search`/g, 'What AI search crawlers get'],
  [/`intent\.user-fetch`/g, 'What fetchers acting for a user get'], [/`intent\.archive`/g, 'What archive crawlers get'],
  [/intent names roles \(training, search, user-fetch, archive\), each allow, block or charge, e\.g\. \{[^}]*\}\./g, 'Choose allow, block, charge or "no wish" under Advanced options.'],
  [/`rubric`/g, 'Rubric'], [/Leave Rubric out to score with the current rubric/g, 'Choose the current rubric'],
];

function inFormWords(text: string): string {
  return FORM_WORDS.reduce((t, [from, to]) => t.replace(from, to), text);
}
