import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.ts';
import { startScanRuntime } from '../../src/scans/runtime.ts';
import { testApp } from '../helpers/app.ts';
import { fakeScanner } from './fixtures.ts';
import './api-app.ts'; // switches the handler table to this handlers

describe('scan runtime start-up', () => {
  test('startScanRuntime wires services and a mailer that writes the report mail as .eml without SMTP_URL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-runtime-'));
    const t = await testApp({ MAIL_DIR: dir, LOG_LEVEL: 'silent', SCAN_RESOLVE: 'runtime-site.com=93.184.215.14' });
    const runtime = startScanRuntime(t.ctx, { scanner: fakeScanner() });
    try {
      const app = createApp(t.ctx);
      const res = await request(app).post('/scan').send({ domain: 'runtime-site.com', lead: { name: 'Ada', email: 'ada@runtime-site.com' } }).expect(200);
      const file = path.join(dir, `report-${res.body.scanId}.eml`);
      for (let i = 0; i < 50 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(fs.existsSync(file), 'the woken mailer wrote the mail');
      assert.ok(fs.readFileSync(file, 'utf8').replace(/=\r?\n/g, '').includes(res.body.reportUrl));
    } finally {
      await runtime.close();
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
