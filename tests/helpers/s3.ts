import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { StorageConfig } from '../../src/server/config';

/**
 * A real S3-compatible server (s3rver, the npm package: S3's REST API over a folder) on 127.0.0.1 and a free port,
 * with one bucket, for as long as a test file needs it.
 */
export interface TestS3 {
  config: Extract<StorageConfig, { kind: 's3' }>;
  stop(): Promise<void>;
}

export async function startS3(bucket = 'crewboard-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'crewboard-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as AddressInfo;
  return {
    config: {
      kind: 's3',
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      // s3rver's fixed credentials: it checks the signature made with them.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
