// The lead's real app (createApp, validator, error renderer) with this handlers and
// services, for contract tests. Assigning into the handler table before createApp makes the
// tests exercise these handlers whether or not the table has been switched over yet.
import { handlers } from '../../src/handlers/index.ts';
import { scanSite } from '../../src/handlers/scanSite.ts';
import { getReport } from '../../src/handlers/getReport.ts';
import { getBadge } from '../../src/handlers/getBadge.ts';
import { attachCliVantage } from '../../src/handlers/attachCliVantage.ts';
import type { BuildScanServicesOptions } from '../../src/scans/services.ts';
import type { AppOptions } from '../../src/app.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver } from './fixtures.ts';

Object.assign(handlers, { scanSite, getReport, getBadge, attachCliVantage });

/** The real app and composition root, with the scan services built from these options (a fake resolver by default). */
export async function scanApiApp(
  env: Record<string, string>,
  services: Omit<BuildScanServicesOptions, 'resolve'> & { resolve?: BuildScanServicesOptions['resolve'] },
  options: AppOptions = {},
): Promise<TestApp> {
  const { scanner, ...scans } = services;
  return testApp({ LOG_LEVEL: 'silent', ...env }, options, { scanner, scans: { resolve: fakeResolver(), ...scans } });
}
