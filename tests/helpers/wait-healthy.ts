import type { ChildProcess } from 'node:child_process';

/**
 * Polls `<url>/api/health` until the server `child` started answers 200. Throws with `output()` when
 * the child exits first, or after `timeoutMs` (killing it). Used by the bench and the e2e specs that
 * start a server of their own.
 */
export async function waitUntilHealthy(child: ChildProcess, url: string, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A server killed by a signal has no exit code, only a signal code.
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server at ${url} exited (${child.exitCode ?? child.signalCode}) during start-up:\n${output()}`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server at ${url} did not become healthy in ${timeoutMs / 1000} s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
