// Real web servers from Debian's packages (nginx, apache2, caddy), each started by a test as a
// child process in the foreground with a configuration of its own in a temporary directory, on
// an unprivileged loopback port, serving a directory of files; stopped (and waited for) after.
// Nothing is installed here: a missing binary is reported by `missing()` so the suite skips loudly.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type ServerKind = 'nginx' | 'apache' | 'caddy';
export const BINARIES: Record<ServerKind, string> = { nginx: '/usr/sbin/nginx', apache: '/usr/sbin/apache2', caddy: '/usr/bin/caddy' };

export function missing(kind: ServerKind): string | false {
  return fs.existsSync(BINARIES[kind]) ? false : `${BINARIES[kind]} is missing (apt-get install -y nginx apache2 caddy)`;
}

/** A port the kernel just handed out and took back: free for the server to bind next. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Resolves once a TCP connection to the port succeeds; rejects if the child exits first or the deadline passes. */
async function listening(port: number, child: ChildProcess, log: () => string, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  let exited: string | null = null;
  child.once('exit', (code, signal) => { exited = `exited (${code ?? signal})`; });
  while (Date.now() < end) {
    if (exited) throw new Error(`server ${exited} before listening: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => { sock.destroy(); resolve(true); });
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not listen on ${port} within ${deadlineMs} ms: ${log()}`);
}

export interface RunningServer { port: number; stop(): Promise<void> }

/** `parts`: the snippet's parts by where they go (data/platforms/origins.ts); none for the plain server. */
export async function startServer(kind: ServerKind, site: string, parts: Readonly<Record<string, string>> = {}): Promise<RunningServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `origin-${kind}-`));
  // The server may drop to an unprivileged user when started as root: everything it reads is world-readable.
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  let cmd: string[];
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  if (kind === 'nginx') {
    fs.mkdirSync(path.join(dir, 'tmp'));
    fs.writeFileSync(path.join(dir, 'nginx.conf'), [
      'daemon off;', 'master_process off;', 'worker_processes 1;', `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log warn;`,
      'events { worker_connections 64; }',
      'http {',
      '  include /etc/nginx/mime.types;', '  default_type application/octet-stream;', '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/tmp/${t};`),
      parts.http ?? '',
      `  server {`, `    listen 127.0.0.1:${port};`, `    root ${site};`, '    index index.html;',
      parts.server ?? '',
      // A snippet that brings no location of its own (a server-level header) keeps the plain one.
      /\blocation\b/.test(parts.server ?? '') ? '' : '    location / { try_files $uri $uri/ =404; }',
      '  }',
      '}',
    ].join('\n'));
    cmd = [BINARIES.nginx, '-p', dir, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`];
  } else if (kind === 'apache') {
    const mod = (m: string) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`;
    fs.writeFileSync(path.join(dir, 'httpd.conf'), [
      `ServerRoot ${dir}`, `DefaultRuntimeDir ${dir}`, `PidFile ${dir}/httpd.pid`, `ErrorLog ${dir}/error.log`, 'LogLevel warn',
      `Mutex file:${dir} default`, `Listen 127.0.0.1:${port}`, 'ServerName 127.0.0.1',
      'LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so',
      mod('authz_core'), mod('dir'), mod('mime'), mod('rewrite'), mod('headers'),
      ...(process.getuid?.() === 0 ? ['User www-data', 'Group www-data'] : []),
      'TypesConfig /etc/mime.types', `DocumentRoot ${site}`, 'DirectoryIndex index.html',
      `<Directory ${site}>`, '  Require all granted', '  AllowOverride None', parts.directory ?? '', '</Directory>',
    ].join('\n'));
    cmd = [BINARIES.apache, '-f', `${dir}/httpd.conf`, '-DFOREGROUND'];
  } else {
    fs.writeFileSync(path.join(dir, 'Caddyfile'), [
      '{', '\tadmin off', '\tauto_https off', `\tstorage file_system ${dir}/data`, '}',
      `http://127.0.0.1:${port} {`, `\troot * ${site}`, parts.site ?? '', '\tfile_server', '}',
    ].join('\n'));
    cmd = [BINARIES.caddy, 'run', '--config', `${dir}/Caddyfile`, '--adapter', 'caddyfile'];
  }
  const child = spawn(cmd[0]!, cmd.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  const log = () => `${output}${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`.slice(-2000);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await listening(port, child, log);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
