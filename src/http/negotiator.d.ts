// The part of negotiator 1.x's API the service uses. @types/negotiator describes 0.6, which has no
// `preferred` option: the server's order among codings the client likes equally (RFC 9110 §12.5.3).
declare module 'negotiator' {
  class Negotiator {
    constructor(req: { headers: Record<string, string | string[] | undefined> });
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
  export = Negotiator;
}
