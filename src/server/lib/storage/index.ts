import type { StorageConfig } from '../../config';
import { LocalStorage } from './local';
import { S3Storage } from './s3';
import type { ObjectStorage } from './storage';

export { checkKey, type ObjectStorage, StorageKeyError, type StoredObject } from './storage';
export { LocalStorage } from './local';
export { S3Storage } from './s3';

/** The file store config.storage names. */
export function createStorage(config: StorageConfig): ObjectStorage {
  return config.kind === 's3' ? new S3Storage(config) : new LocalStorage(config.dir);
}

/** Where the files are, for a log line (never the credentials). */
export function describeStorage(config: StorageConfig): string {
  return config.kind === 's3' ? `S3 bucket "${config.bucket}" at ${config.endpoint}` : `the folder ${config.dir}`;
}
