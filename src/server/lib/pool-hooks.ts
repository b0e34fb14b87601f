import type pg from 'pg';

type ConnectCallback = NonNullable<Parameters<pg.Pool['connect']>[0]>;

/**
 * Calls `onAcquired` each time `pool` hands out a connection, with when it was asked for (performance.now()) and whether
 * through a callback (pg-pool's own `pool.query`) or a promise (a transaction's checkout). Metrics time the wait;
 * tracing follows the queries of a checked-out connection. The instance's `connect` is wrapped, so the pool's own
 * `query` (which calls `this.connect`) passes through it too.
 */
export function wrapPoolConnect(
  pool: pg.Pool,
  onAcquired: (client: pg.PoolClient, started: number, viaCallback: boolean) => void,
): void {
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  const wrapped = (callback?: ConnectCallback) => {
    const started = performance.now();
    if (callback) {
      return connect((error, client, release) => {
        if (!error && client) onAcquired(client, started, true);
        callback(error, client, release);
      });
    }
    return connect()!.then((client) => {
      onAcquired(client, started, false);
      return client;
    });
  };
  (pool as unknown as { connect: typeof wrapped }).connect = wrapped;
}
