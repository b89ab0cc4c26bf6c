// Headers the pipeline sets on every response before any handler runs (src/app.ts). A handler
// that sets a group of headers skips these: setting a header again costs as much as the first time.
export const EVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
