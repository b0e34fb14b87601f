import type { S3Client } from '@aws-sdk/client-s3';
import { type Readable, Transform } from 'node:stream';
import { checkKey, checkPrefix, type ObjectStorage, type StoredObject } from './storage';

export interface S3StorageOptions {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Parts of a multipart upload: the SDK buffers at most PART_SIZE × QUEUE_SIZE bytes of one upload (S3's smallest
 * part is 5 MiB), so a 100 MB upload costs about 10 MB of memory, not 100.
 */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

type Sdk = typeof import('@aws-sdk/client-s3');
let sdk: Promise<Sdk> | null = null;
/**
 * The SDK (about 20 MB of a process's memory) loads with the first S3 call, not with the server: a server that keeps
 * its files in a folder never loads it (issue 42, memory).
 */
const loadSdk = (): Promise<Sdk> => {
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
};

const isMissing = ({ NoSuchKey, S3ServiceException }: Sdk, error: unknown) =>
  error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

/**
 * Any S3-compatible object store (AWS S3, MinIO, Ceph, R2, …), path-style addressed, so that several app instances
 * share one set of files. An object appears only when its upload completes (S3's own semantics); a failed upload is
 * aborted, its parts removed.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  private client: Promise<S3Client> | null = null;
  private readonly bucket: string;

  constructor(private readonly options: S3StorageOptions) {
    this.bucket = options.bucket;
  }

  /** The client, made with the first call (see loadSdk). */
  private s3(): Promise<S3Client> {
    const { endpoint, region, accessKeyId, secretAccessKey } = this.options;
    this.client ??= loadSdk().then(
      ({ S3Client }) =>
        new S3Client({
          endpoint,
          region,
          forcePathStyle: true,
          credentials: { accessKeyId, secretAccessKey },
          // Checksums only where S3 demands them: many S3-compatible servers do not read the SDK's default
          // (trailing CRC32 in aws-chunked bodies), and would store the chunk framing as the file's bytes.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
    );
    return this.client;
  }

  async put(key: string, body: Readable, options: { contentType?: string } = {}): Promise<{ size: number }> {
    checkKey(key);
    const [client, { Upload }] = await Promise.all([this.s3(), import('@aws-sdk/lib-storage')]);
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // The SDK reads `count`; an error of the source (a size limit, a client gone) must reach it too.
    body.once('error', (error) => count.destroy(error));
    body.pipe(count);
    const upload = new Upload({
      client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: count,
        ContentType: options.contentType ?? 'application/octet-stream',
      },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      body.destroy();
      throw error;
    }
    return { size };
  }

  async get(key: string): Promise<{ body: Readable; size: number } | null> {
    checkKey(key);
    const [client, aws] = await Promise.all([this.s3(), loadSdk()]);
    try {
      const out = await client.send(new aws.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return null;
      return { body: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(aws, error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    const [client, { DeleteObjectCommand }] = await Promise.all([this.s3(), loadSdk()]);
    await client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkPrefix(prefix);
    const [client, { DeleteObjectsCommand }] = await Promise.all([this.s3(), loadSdk()]);
    let batch: string[] = [];
    let n = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      n += batch.length;
      batch = [];
    };
    for await (const { key } of this.list(prefix)) {
      batch.push(key);
      if (batch.length === 1000) await flush();
    }
    await flush();
    return n;
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    checkPrefix(prefix);
    const [client, { ListObjectsV2Command }] = await Promise.all([this.s3(), loadSdk()]);
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * Parts of uploads cut off by a crash stay in the bucket, invisible and billed, until the store drops them: that is
   * the bucket's lifecycle rule (AbortIncompleteMultipartUpload) to set up with the store, not the app's.
   */
  async cleanIncomplete(): Promise<number> {
    return 0;
  }

  close(): void {
    void this.client?.then((client) => client.destroy());
  }
}
