// Ephemeral tunnel hosts, kept as data. A name *below* one of these suffixes is a
// short-lived tunnel to someone's laptop or dev box: scanned, but never archived, never
// mailed, never counted. The apex itself (ngrok.com, serveo.net) is the vendor's own site.
export const TUNNEL_SUFFIXES: readonly string[] = [
  // ngrok
  'ngrok.io', 'ngrok.app', 'ngrok.dev', 'ngrok-free.app', 'ngrok-free.dev', 'ngrok.pizza',
  // Cloudflare quick tunnels
  'trycloudflare.com',
  // localtunnel
  'loca.lt', 'localtunnel.me',
  // localhost.run
  'localhost.run', 'lhr.life', 'lhr.rocks', 'lhr.pro',
  // serveo
  'serveo.net', 'serveousercontent.com',
  // other tunnel services
  'pagekite.me', 'telebit.io', 'telebit.cloud', 'localto.net', 'tunnelmole.net', 'bore.pub',
  'loophole.site', 'pinggy.link', 'pinggy.online', 'pinggy.io', 'pinggy.net', 'loclx.io', 'localxpose.io',
  'share.zrok.io', 'sharedwithexpose.com', 'expose.dev', 'tunnelto.dev', 'packetriot.net', 'portmap.io',
  'devtunnels.ms', 'app.github.dev', 'gitpod.io', 'ts.net', 'beeceptor.com', 'webhook.site', 'playit.gg',
  'localhost.direct', 'srv.us', 'instatunnel.my',
];

/** The suffix that makes `domain` ephemeral, or undefined. */
export function tunnelSuffixOf(domain: string): string | undefined {
  const name = domain.toLowerCase();
  return TUNNEL_SUFFIXES.find((s) => name.endsWith(`.${s}`));
}

export function ephemeralNote(suffix: string): string {
  return `This host is a temporary tunnel (*.${suffix}). The result exists only in this response: `
    + 'it is not archived, has no permalink, sends no email and is left out of statistics.';
}
