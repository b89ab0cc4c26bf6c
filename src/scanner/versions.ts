/**
 * The one place every version string of the scanner lives.
 *
 * GET /health, the check catalog, every report's `versions` object and the
 * rubric snapshot test all import from here, so a version can never be
 * defined twice and drift.
 */

/** Report shape; bump only on an incompatible change of ScanReport. */
export const SCHEMA_VERSION = 1;

/**
 * Check ids, weights, profiles and the score formula of the rubric new scans are scored with
 * unless another published one is asked for. Any weight or id change publishes a new version.
 */
export const RUBRIC_VERSION = 'rubric-v1.2';

/**
 * The rubric before it: still selectable (`rubric` on a scan, the form, the CLI's `--rubric`) and
 * the version of every report archived under it, which is never rescored (an old permalink never
 * changes).
 */
export const PREVIOUS_RUBRIC_VERSION = 'rubric-v1.1';

/** The rubrics a scan may be scored with, the default first (the CLI checks --rubric against this without loading the registries). */
export const SCORING_RUBRIC_VERSIONS: readonly string[] = [RUBRIC_VERSION, PREVIOUS_RUBRIC_VERSION];

/**
 * The next rubric, shown beside the current one (as SSL Labs shows a future grade). It
 * never replaces `score`; reports carry it under `preview` until it is published as current.
 */
export const PREVIEW_RUBRIC_VERSION = 'rubric-v1.3-preview';

/**
 * Agent tokens, intents and the whole request each agent, the browser control and the products
 * sharing a token send (src/scanner/data/roster-v1.1.ts); roster-v1.0 stays loadable.
 */
export const ROSTER_VERSION = 'roster-v1.1';

/** Vendor presence / challenge / deny markers (src/scanner/data/fingerprints). */
export const FINGERPRINTS_VERSION = 'fingerprints-v1.2';

/** The `versions` object carried by every report; `rubric` is the one that scored it. */
export function reportVersions(rubric: string = RUBRIC_VERSION): { schema: number; rubric: string; roster: string; fingerprints: string } {
  return { schema: SCHEMA_VERSION, rubric, roster: ROSTER_VERSION, fingerprints: FINGERPRINTS_VERSION };
}
