import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The server's umask: what it creates is its owner's alone (files 0600, folders 0700). DATA_DIR
 * holds the database (emails, password hashes, task text), the signing secret and the CLI socket;
 * nothing the server writes is meant for another account (it reads the built client, never writes it).
 */
export const PRIVATE_UMASK = 0o077;

/** Permission bits for group and others. */
const SHARED_BITS = 0o077;

/**
 * Creates `dir` as 0700, or tightens an existing one: the folder and everything under it lose
 * their group and other bits (a 0777 folder becomes 0700, a 0666 file 0600). Links under it are
 * not followed (`dir` itself may be one).
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, statSync(dir));
}

function tighten(path: string, stat: Stats): void {
  if (stat.isSymbolicLink()) return;
  if (stat.mode & SHARED_BITS) chmodSync(path, stat.mode & 0o700);
  if (!stat.isDirectory()) return;
  for (const name of readdirSync(path)) {
    const child = join(path, name);
    tighten(child, lstatSync(child));
  }
}
