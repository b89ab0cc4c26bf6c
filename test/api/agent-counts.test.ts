// The home page, /llms.txt and /methodology.md count the agents a scan really requests: the
// roster's probeable agents, not its token-only names (read in robots.txt, never requested).
// Derived from the roster in use, so a new roster version changes the words with it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import { getRoster, probeableAgents } from '../../src/scanner/roster.ts';
import { testApp, type TestApp } from '../helpers/app.ts';

describe('the agents we say we request are the agents we request', () => {
  let t: TestApp;
  before(async () => { t = await testApp(); });
  after(() => t.close());
  const all = getRoster().length;
  const requested = probeableAgents().length;

  test('the roster has token-only agents, so the two counts differ (else this test says nothing)', () => {
    assert.ok(requested < all, `${requested} of ${all}`);
  });

  test('the home page (HTML and Markdown) reads robots.txt for every agent and requests the probeable ones only', async () => {
    for (const accept of ['text/html', 'text/markdown']) {
      const res = await request(t.app).get('/').set('Accept', accept).expect(200);
      assert.ok(res.text.includes(`robots.txt says to each of ${all} agents`), accept);
      assert.ok(res.text.includes(`requests your home page as each of the ${requested} that send requests of their own (the other ${all - requested} are robots.txt names only)`), accept);
    }
  });

  test('/llms.txt and /methodology.md give the same counts', async () => {
    const llms = await request(t.app).get('/llms.txt').expect(200);
    assert.ok(llms.text.includes(`each of the roster's ${all} agents and requests the home page as each of the ${requested}`), llms.text);
    const method = await request(t.app).get('/methodology.md').expect(200);
    assert.match(method.text, new RegExp(`${requested} of the roster's\\s+${all} agents`));
  });
});
