import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.ts';
import { startServices } from '../../src/services.ts';
import { testApp } from '../helpers/app.ts';
import { fakeScanner } from './fixtures.ts';

describe('scan runtime start-up', () => {
  test('start-up services wire the scan service and a mailer that writes the report mail as .eml without SMTP_URL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-runtime-'));
    const t = await testApp({ MAIL_DIR: dir, LOG_LEVEL: 'silent', SCAN_RESOLVE: 'runtime-site.com=93.184.215.14' });
    const runtime = startServices(t.ctx, { scanner: fakeScanner() });
    try {
      const app = createApp(t.ctx, runtime);
      const res = await request(app).post('/scan').send({ domain: 'runtime-site.com', lead: { name: 'Ada', email: 'ada@runtime-site.com' } }).expect(200);
      const file = path.join(dir, `report-${res.body.scanId}.eml`);
      // Wait on the file itself, with a ceiling generous enough for a loaded machine.
      const until = Date.now() + 30_000;
      while (!fs.existsSync(file) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      assert.ok(fs.existsSync(file), 'the woken mailer wrote the mail');
      assert.ok(fs.readFileSync(file, 'utf8').replace(/=\r?\n/g, '').includes(res.body.reportUrl));
    } finally {
      await runtime.stop();
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
