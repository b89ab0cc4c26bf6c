// The lead's real app (createApp, validator, error renderer) with this handlers and
// services, for contract tests. Assigning into the handler table before createApp makes the
// tests exercise these handlers whether or not the table has been switched over yet.
import { handlers } from '../../src/handlers/index.ts';
import { scanSite } from '../../src/handlers/scanSite.ts';
import { getReport } from '../../src/handlers/getReport.ts';
import { getBadge } from '../../src/handlers/getBadge.ts';
import { attachCliVantage } from '../../src/handlers/attachCliVantage.ts';
import { attachScanServices, buildScanServices, type BuildScanServicesOptions } from '../../src/scans/services.ts';
import { createApp, type AppOptions } from '../../src/app.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fakeResolver } from './fixtures.ts';

Object.assign(handlers, { scanSite, getReport, getBadge, attachCliVantage });

export async function scanApiApp(
  env: Record<string, string>,
  services: Omit<BuildScanServicesOptions, 'resolve'> & { resolve?: BuildScanServicesOptions['resolve'] },
  options: AppOptions = {},
): Promise<TestApp> {
  const t = await testApp({ LOG_LEVEL: 'silent', ...env }, options);
  attachScanServices(t.ctx, buildScanServices(t.ctx, { resolve: fakeResolver(), ...services }));
  // Rebuild so the app sees the services attached to this very context.
  return { ...t, app: createApp(t.ctx, options) };
}
