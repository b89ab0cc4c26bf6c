// A batch's links. The API links need the key as a bearer header; the two capability links
// (summaryPage, resultsPage) hold an unguessable token in their path instead, so they open in
// a plain browser and can be sent to a colleague. They die with the key, and on rotation.
export interface Links {
  self: string;
  results: string;
  summary: string;
  summaryPage: string;
  resultsPage: string;
}

/** Where the capability pages live: /batches/{batchId}/shared/{token}[/results]. */
export function sharedBase(baseUrl: string, id: string, token: string): string {
  return `${baseUrl}/batches/${id}/shared/${token}`;
}

export function batchLinks(baseUrl: string, id: string, token: string): Links {
  const base = `${baseUrl}/batches/${id}`;
  const shared = sharedBase(baseUrl, id, token);
  return { self: base, results: `${base}/results`, summary: `${base}/summary`, summaryPage: shared, resultsPage: `${shared}/results` };
}
