import { Writable } from 'node:stream';
import { buildApp } from '../../src/server/app';
import type { Database } from '../../src/server/db/client';
import { testConfig } from './app';

/** The request log (at level info) of an app on `database` that was asked for each of `urls`, as one text. */
export async function requestLogOf(database: Database, urls: readonly string[]): Promise<string> {
  let log = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  const app = await buildApp({ config: testConfig(), database, logger: { level: 'info', stream } });
  try {
    for (const url of urls) await app.inject(url);
  } finally {
    await app.close();
  }
  return log;
}
