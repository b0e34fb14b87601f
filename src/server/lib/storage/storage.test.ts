import { describe, expect, it } from 'vitest';
import { loadStorageConfig } from '../../config';
import { checkKey, checkPrefix, StorageKeyError } from './storage';

describe('storage keys', () => {
  it('accepts the keys the app makes', () => {
    expect(checkKey('tasks/3f0c2f5e-8a7b-4c1d-9e2f-0a1b2c3d4e5f/0a1b2c3d-8a7b-4c1d-9e2f-3f0c2f5e4e5f')).toBeTruthy();
    expect(checkKey('avatars/u/file.v2')).toBe('avatars/u/file.v2');
  });

  it('refuses anything that could leave the store or hide in it', () => {
    for (const key of [
      '',
      '/abs',
      '../x',
      'a/../b',
      'a/./b',
      'a//b',
      'a/',
      '.env',
      'a/.hidden',
      'a\\b',
      'a b',
      'a/b\u0000',
      'x'.repeat(600),
    ]) {
      expect(() => checkKey(key), JSON.stringify(key)).toThrow(StorageKeyError);
    }
  });

  it('takes prefixes of whole segments, with or without a trailing slash, and the empty prefix', () => {
    expect(checkPrefix('')).toBe('');
    expect(checkPrefix('tasks/')).toBe('tasks/');
    expect(checkPrefix('tasks/ab')).toBe('tasks/ab');
    expect(() => checkPrefix('../')).toThrow(StorageKeyError);
    expect(() => checkPrefix('tasks//')).toThrow(StorageKeyError);
  });
});

describe('loadStorageConfig', () => {
  const s3 = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };

  it('is a folder under DATA_DIR by default', () => {
    expect(loadStorageConfig({ DATA_DIR: '/srv/crewboard' })).toEqual({ kind: 'local', dir: '/srv/crewboard/files' });
  });

  it('is S3 when the four S3_* are set (region us-east-1 unless S3_REGION)', () => {
    expect(loadStorageConfig(s3)).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'files',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
    });
    expect(loadStorageConfig({ ...s3, S3_REGION: 'eu-west-3' })).toMatchObject({ region: 'eu-west-3' });
  });

  it('refuses a partial S3 setup (naming what is missing, never the secret) or a bad endpoint', () => {
    expect(() => loadStorageConfig({ S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'hunter2' })).toThrow(
      /S3_ENDPOINT, S3_ACCESS_KEY_ID not set/,
    );
    expect(() => loadStorageConfig({ S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'hunter2' })).not.toThrow(/hunter2/);
    expect(() => loadStorageConfig({ ...s3, S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
  });
});
