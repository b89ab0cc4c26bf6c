// A real SMTP server (smtp-server) that records what it accepted, and can be stopped and
// started again on the same port to play an outage.
import net from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received { to: string[]; raw: string; messageId: string | undefined }

export class SmtpSink {
  readonly received: Received[] = [];
  port = 0;
  private server: SMTPServer | undefined;

  /** A free port nobody listens on yet (so the first sends meet a closed port). */
  static async freePort(): Promise<number> {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as net.AddressInfo;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  }

  async start(port: number): Promise<void> {
    this.port = port;
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        let raw = '';
        stream.on('data', (c: Buffer) => { raw += c.toString('utf8'); });
        stream.on('end', () => {
          const messageId = /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];
          this.received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, messageId });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }
}
