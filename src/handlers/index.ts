// The handler table: one entry per operationId of openapi.yaml. The mapped type makes a
// missing, misnamed or extra handler a compile error.
import type { OperationId } from '../../generated/operations.ts';
import type { Handler } from './types.ts';
import { getHealth } from './getHealth.ts';
import { getHome } from './getHome.ts';
import { getHomeScript } from './getHomeScript.ts';
import { getWatchFormScript } from './getWatchFormScript.ts';
import { submitWatchForm } from './submitWatchForm.ts';
import { redeliverWebhook } from './redeliverWebhook.ts';
import { getStylesheet } from './getStylesheet.ts';
import { getScanProgress } from './getScanProgress.ts';
import { getKeyDirectory } from './getKeyDirectory.ts';
import { getSignatureAgentCard } from './getSignatureAgentCard.ts';
import { submitScanForm } from './submitScanForm.ts';
import { getScanHint } from './getScanHint.ts';
import { getOpenApi, getOpenApiWellKnown, getSwaggerJson } from './getOpenApi.ts';
import { getMcpManifest } from './getMcpManifest.ts';
import { getMcpCatalog, getMcpEndpointServerCard, getMcpServerCard } from './getMcpServerCard.ts';
import { getAgentsMd, getAiCatalog, getApiCatalog, getArd, getAuthMd, getLlmsTxt, getMethodology, getPrivacy, getRobotsTxt, getSecurityTxt, getSitemap, getTerms } from './documents.ts';
import { scanSite } from './scanSite.ts';
import { getReport } from './getReport.ts';
import { diffReports } from './diffReports.ts';
import { getBadge } from './getBadge.ts';
import { attachCliVantage } from './attachCliVantage.ts';
import { listChecks } from './listChecks.ts';
import { postMcp } from './postMcp.ts';
import { getMcp } from './getMcp.ts';
import { scanMcp } from './scanMcp.ts';
import { createBatch } from './createBatch.ts';
import { getBatch } from './getBatch.ts';
import { cancelBatch } from './cancelBatch.ts';
import { getBatchResults } from './getBatchResults.ts';
import { getBatchSummary } from './getBatchSummary.ts';
import { getSharedBatchResults } from './getSharedBatchResults.ts';
import { getSharedBatchSummary } from './getSharedBatchSummary.ts';
import { rotateBatchLinks } from './rotateBatchLinks.ts';
import { createWatch } from './createWatch.ts';
import { getWatch } from './getWatch.ts';
import { listBatches } from './listBatches.ts';
import { listWatches } from './listWatches.ts';
import { getKey } from './getKey.ts';
import { getConsole } from './getConsole.ts';
import { getConsoleScript } from './getConsoleScript.ts';
import { deleteWatch } from './deleteWatch.ts';
import { testWatch } from './testWatch.ts';
import { getWatchConfirmation } from './getWatchConfirmation.ts';
import { confirmWatch } from './confirmWatch.ts';
import { getWatchUnsubscribe } from './getWatchUnsubscribe.ts';
import { unsubscribeWatch } from './unsubscribeWatch.ts';
import { listChanges } from './listChanges.ts';
import { getMetrics } from './getMetrics.ts';

export const handlers: { [Op in OperationId]: Handler<Op> } = {
  getHome,
  submitScanForm,
  getScanProgress,
  getHomeScript,
  getWatchFormScript,
  submitWatchForm,
  redeliverWebhook,
  getStylesheet,
  getHealth,
  getScanHint,
  scanSite,
  createBatch,
  getBatch,
  cancelBatch,
  getBatchResults,
  getBatchSummary,
  getSharedBatchSummary,
  getSharedBatchResults,
  rotateBatchLinks,
  createWatch,
  getWatch,
  listBatches,
  listWatches,
  getKey,
  getConsole,
  getConsoleScript,
  deleteWatch,
  testWatch,
  getWatchConfirmation,
  confirmWatch,
  getWatchUnsubscribe,
  unsubscribeWatch,
  listChanges,
  getMetrics,
  listChecks,
  getReport,
  diffReports,
  attachCliVantage,
  getBadge,
  scanMcp,
  getMcp,
  postMcp,
  getOpenApi,
  getOpenApiWellKnown,
  getSwaggerJson,
  getMcpManifest,
  getMethodology,
  getLlmsTxt,
  getAgentsMd,
  getAuthMd,
  getPrivacy,
  getTerms,
  getRobotsTxt,
  getSitemap,
  getSecurityTxt,
  getApiCatalog,
  getKeyDirectory,
  getSignatureAgentCard,
  getMcpServerCard,
  getMcpEndpointServerCard,
  getMcpCatalog,
  getArd,
  getAiCatalog,
};
