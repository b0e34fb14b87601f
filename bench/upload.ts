// One large upload through the real server (POST /api/tasks/:id/attachments, multipart, streamed from here), with the
// server's resident memory sampled while it runs: the figure for "a 100 MB upload raises the server's RSS by less than
// 30 MB" (issue 22). The bytes are made as they are sent (a random 64 KB block over and over), never held whole here.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

export interface UploadRun {
  megabytes: number;
  status: number;
  seconds: number;
  /** The server's RSS just before the upload, its highest while it ran, and the difference (MB). */
  rssBeforeMb: number;
  rssMaxMb: number;
  rssDeltaMb: number;
}

export async function measureUpload(opts: {
  url: string;
  token: string;
  taskId: string;
  megabytes: number;
  rssMb: () => number;
}): Promise<UploadRun> {
  const boundary = `----crewboardbench${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = randomBytes(64 * 1024);
  const total = opts.megabytes * 1024 * 1024;

  const rssBeforeMb = opts.rssMb();
  let rssMaxMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssMaxMb = Math.max(rssMaxMb, opts.rssMb());
  }, 10);
  const started = performance.now();
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const target = new URL(`/api/tasks/${opts.taskId}/attachments`, opts.url);
      const req = request(
        target,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${opts.token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + total + tail.length),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      let sent = 0;
      const write = () => {
        while (sent < total) {
          const n = Math.min(block.length, total - sent);
          sent += n;
          if (!req.write(n === block.length ? block : block.subarray(0, n))) return void req.once('drain', write);
        }
        req.end(tail);
      };
      req.write(head);
      write();
    });
    rssMaxMb = Math.max(rssMaxMb, opts.rssMb());
    return {
      megabytes: opts.megabytes,
      status,
      seconds: (performance.now() - started) / 1000,
      rssBeforeMb,
      rssMaxMb,
      rssDeltaMb: rssMaxMb - rssBeforeMb,
    };
  } finally {
    clearInterval(sampler);
  }
}
